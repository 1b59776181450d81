#ifndef DG_TUNE_VERIFY_POOL_H
#define DG_TUNE_VERIFY_POOL_H
/* Crash-isolated verification by long-lived worker processes.
 *
 * The tuner builds and verifies each candidate outside its own process, so a compiler crash or
 * hang costs only that candidate. A worker is this executable started once
 * (`dgtd tune --verify-worker ...`): it reads one variant spec per line and answers each with
 * the verdict and an end marker. Keeping the worker alive matters on PoCL, whose first program
 * build in a process pays ~0.6 s of LLVM start-up that later builds do not (measured on this
 * project's CPU device: 0.72 s against 0.15 s for a one-line kernel), about a third of a
 * tuning candidate's cost when every candidate had a process of its own.
 *
 * A worker that dies (crash, or SIGALRM after the per-job timeout) fails its candidate and is
 * replaced; a worker that had already served other candidates gets the candidate once more in
 * a fresh process first, so state left by an earlier candidate cannot fail a good one. */

#include <stdint.h>
#include <stdio.h>

#include "backend/verify.h"
#include "device/device.h"
#include "tune/candidate.h"

typedef struct dg_verify_pool dg_verify_pool;

/* Workers run `exe tune --verify-worker --device P:D [--pml 1] --job-timeout S`, at most
 * `jobs` at once (<= 0: as many as the host has cores, at most 8), each started when first
 * needed. One pool can serve a whole sweep of orders. */
dg_status dg_verify_pool_create(dg_verify_pool **out, const char *exe, const dg_device_info *info,
                                int pml, double timeout_s, int jobs);

/* Verify ks[0..n) at order N side by side. verdicts[i]: 1 passed, 0 wrong result (rejected;
 * rel_diff and reason set), -1 failed (build error, crash or timeout; reason set). */
void dg_verify_pool_run(dg_verify_pool *p, int N, dg_tune_candidate **ks, int n, int *verdicts);

/* Ends the workers (they exit on end of input) and waits for them. */
void dg_verify_pool_destroy(dg_verify_pool **p);

/* ---- one candidate's verification ------------------------------------------------------- */

/* The seed of the random fields a candidate is verified with at order N (fixed per N). */
uint64_t dg_tune_verify_seed(int N);
/* The small verification problem: the 2^3 verification box, or with pml the same box with
 * one PML cell around it (faces, edges and corners of the layer). */
dg_status dg_tune_verify_case(dg_verify_case **out, int N, int pml) DG_NODISCARD;
/* The verification a worker process runs for each candidate: build v on dev, compare with
 * the reference at order N, print "verify rel_diff=<x> pass=<0|1>" on out. pml: on the PML
 * case (options.pml_cells) instead of the plain 2^3 box. */
dg_status dg_tune_verify_one(dg_device *dev, const dg_variant *v, int N, int pml,
                             FILE *out) DG_NODISCARD;

/* ---- the worker --------------------------------------------------------------------------- */

/* The worker's side: open `device` (P:D or a name, as --device), then verify each job read
 * from `in` ("N SPEC", one per line, until end of input) on it, writing the verdict line of
 * dg_tune_verify_one or "verify error: MESSAGE", then the end marker, to `out`. Each job is
 * killed by SIGALRM after timeout_s. Returns at end of input, or with the error (its
 * "verify error:" line written) when the device cannot be opened. */
dg_status dg_verify_worker_serve(const char *device, int pml, double timeout_s, FILE *in,
                                 FILE *out);

#endif

/* The autotuner: time every variant worth timing on the device, pick and cache the winner
 * per (device, N, precision), and look winners up for `dgtd run` (see docs/TUNING.md).
 *
 * Staged search (the space has thousands of variants; PoCL compiles each for seconds):
 *   stage 0  anchors: the baseline and the device default, always, so speedups are ratios
 *            measured in the same run; the seeds (below), and the first seed's siblings
 *            in the fused-stage mode and ops (dg_tune_seed_siblings);
 *   stage 1  families: one representative per (path, work split, lift mode) with nothing in
 *            local memory (vw = widest vector for work=vec, 4 for elem; kb, lkb, unroll as
 *            the default; ops=arg), plus the CLBlast path;
 *   stage 2  placement: the 2 fastest kernel families of stage 1 with every valid
 *            (vplace, lplace) pair;
 *   stage 3  refinement: the 2 fastest families so far (family = path, work, placements,
 *            lift), coordinate descent over vw, kb, lkb, unroll, ops, flux, lnpw (one
 *            dimension at a time, each from the best variant so far);
 *   stage 4  final: the 4 fastest variants, the baseline and the default re-timed together,
 *            interleaved; the reported numbers and the winner come from this round.
 * Every candidate is verified against the CPU reference before it is timed (a failed build,
 * a compiler crash or a wrong result rejects it); every timing is one whole RK stage
 * (dg_cl_maxwell_time_stage: volume + surface + update) with profiling events, after two
 * warm-up stages, median of `repeats` rounds interleaved A B C A B C across the candidates
 * of a batch, so slow drift of the clock favours none of them; each timed stage follows
 * three untimed ones of the same candidate, so its data is as warm in the caches as in a
 * real run (with none, large batches on a CPU measured 10-30% slower than small ones; with
 * one, 1-23%: tune/timing.h).
 *
 * Budget: stages 1-3 stop starting candidates once the elapsed time plus the running
 * average cost of one candidate exceeds 85% of the budget; the rest is left to stage 4.
 * Stage 0 always runs. A budget <= 0 means no limit.
 *
 * Problem size (dg_tune_target_dofs, tune/model.h): GPUs and accelerators max(1e6, 65536 x compute
 * units, the DOFs whose q and res, read and written, are 8 x the last-level cache) field DOFs
 * (enough work-groups to fill every compute unit many times, and no timing from the cache:
 * the cache is the driver's CL_DEVICE_GLOBAL_MEM_CACHE_SIZE but at least 64 MiB, since
 * drivers under-report it; an H100: 3.4e7 DOFs in float, 1.7e7 in double); CPUs
 * 262144 x compute units (2 PoCL cores: 524288 DOFs, past the L2 caches, yet a baseline
 * stage stays well under a second); both capped so a batch of 4 operators uses at most half
 * the global memory. The mesh is the verification box (mixed materials, every boundary
 * type) with n^3 x 6 tetrahedra, n = round(cbrt(DOFs / (36 Np))), n >= 2.
 *
 * Crash safety: each candidate's build + verification runs in a worker process when
 * child_exe is set (`dgtd tune --verify-worker ...`, tune/verify_pool.h), so a compiler
 * crash or hang (timeout) only fails that candidate. Every step is journalled (<cache>/journal/<device>-N<n>-<prec>.jsonl, fsync'd)
 * before and after, so a killed tune resumes where it stopped; a variant that was in flight
 * when it died is tried once more (the kill may have had nothing to do with it) and only
 * excluded when a second attempt does not finish either. */
#ifndef DG_TUNE_TUNE_H
#define DG_TUNE_TUNE_H

#include <stdio.h>

#include "backend/cl_maxwell.h"
#include "backend/variant.h"
#include "core/status.h"
#include "device/device.h"
#include "tune/cache.h"
#include "tune/candidate.h"
#include "tune/counts.h"
#include "tune/limits.h"
#include "tune/model.h"

/* ---- lookup (for `dgtd run --tune auto|never|always`) ----------------------------------- */

typedef enum {
  DG_TUNE_HIT = 0,  /* an entry for exactly this device, driver and templates */
  DG_TUNE_FALLBACK, /* a fresh entry of the same device name (other driver) or vendor */
  DG_TUNE_STALE,    /* this device's entry exists but the templates changed: re-tune (its
                     * winner stands in meanwhile) */
  DG_TUNE_MISS      /* nothing usable */
} dg_tune_found;
const char *dg_tune_found_name(dg_tune_found f);

/* The tuned variant for (device, N, precision) into *out: the user cache, then the shipped
 * tuning/ files, then the same device name with another driver or platform version, then
 * the same vendor. A fallback winner is used only if dg_variant_check accepts it on this
 * device. On STALE *out is the stale entry's winner (this device can run it: it stands in
 * until the device is tuned again; a stale winner it cannot run is a MISS), on MISS
 * dg_variant_default. desc receives where the result came
 * from ("cache /path (exact)", "shipped tuning/x.json, fallback: same device name, driver
 * 2.0") and any warnings (corrupt files are skipped, never fatal). Never fails. */
dg_tune_found dg_tune_lookup(const dg_device_info *info, int N, dg_precision p, dg_variant *out,
                             char *desc, size_t cap);
/* The same with explicit directories and template hash; entry (may be NULL) receives a copy
 * of the entry used (free with dg_tune_entry_free). */
dg_tune_found dg_tune_lookup_at(const dg_tune_paths *paths, const dg_device_info *info, int N,
                                dg_precision p, uint64_t template_hash, dg_variant *out,
                                dg_tune_entry *entry, char *desc, size_t cap);

/* The same for a problem-size bucket (tune/model.h): an entry of that bucket first, else one
 * of the other bucket (desc says so). entry may be NULL (the ranking is not copied). */
dg_tune_found dg_tune_lookup_bucket(const dg_tune_paths *paths, const dg_device_info *info,
                                    int N, dg_precision p, int bucket, uint64_t template_hash,
                                    dg_variant *out, dg_tune_entry *entry, char *desc,
                                    size_t cap);

/* ---- tuning -------------------------------------------------------------------------------- */


typedef struct {
  double budget_s;         /* per order and precision; <= 0: no limit */
  int force;               /* ignore cached results and the journal */
  int verbose;             /* 0 quiet, 1 progress lines, 2 also each pruned variant */
  int repeats;             /* timing rounds (at least 5) */
  double target_dofs;      /* 0: dg_tune_target_dofs */
  const char *child_exe;   /* bin/dgtd for crash-isolated verification; NULL: in-process */
  double child_timeout_s;  /* kill a verification child after this long (0: 600 s) */
  int limits_gemm;         /* measuring the limits: also CLBlast's GEMM (dg_limits_measure) */
  struct dg_verify_pool *pool; /* workers shared by several tunes (a sweep); NULL: each tune
                                * with child_exe starts its own (tune/verify_pool.h) */
  int write_cache;         /* store the winner in the cache */
  const char *const *specs; /* explicit candidate list instead of the staged search */
  int n_specs;
  dg_tune_paths paths;
  FILE *log;               /* progress lines (NULL: none; the library never prints) */
  /* One tune per device at a time (flock on <cache>/locks/<device>.lock, taken only when
   * something must be measured): < 0 wait for the other one as long as it takes (saying so
   * on the log), 0 stop at once with an error naming it, > 0 wait up to this many seconds. */
  double lock_wait_s;
  /* Device limits measured on a CPU device while other processes used more than this share
   * of the host's CPU time are not cached (default 0.25; > 1 disables the check). */
  double contention_max;
  int bucket;              /* dg_bucket (tune/model.h): the problem size tuned for */
  int use_known;           /* seed and train from other devices' results (default 1) */
  int use_model;           /* order candidates by the cost model and skip those it says
                              cannot win by more than the noise (default 1) */
  int confirm;             /* with a fresh cached entry: re-time its top few and re-tune if
                              the winner regressed (instead of reporting the entry) */
  int pml_cells;           /* > 0: the timing problem's box has this many cells of CFS-PML
                              around it (dg_verify_case_create_pml) and every candidate is
                              verified with the PML terms (on the 2^3 box with 1 PML cell:
                              faces, edges, corners); a cached entry is not the answer and
                              the winner is not cached (it is the plain problem's slot) */
} dg_tune_options;

/* Defaults: no budget, 7 repeats, progress on, cache read and written, paths from the
 * environment. */
dg_status dg_tune_options_default(dg_tune_options *o) DG_NODISCARD;

typedef struct {
  int N;
  dg_precision precision;
  dg_device_key key;
  long K;                  /* elements of the timing problem (the PML's included) */
  int pml_cells;           /* options.pml_cells */
  long pml_K;              /* elements of the timing problem in the PML */
  dg_stage_counts counts;  /* of one stage on it */
  int have_limits;
  dg_device_limits limits;
  int n_valid, n_pruned;
  dg_variant_pruned *pruned;
  int n;                   /* candidates considered */
  dg_tune_candidate *c;
  int winner, baseline, dflt; /* indices into c, -1 if none */
  double seconds;
  int budget_hit;
  int from_cache;          /* 1: nothing was timed, the cached entry is reported */
  char cache_path[DG_TUNE_PATH + 64];
  char note[2600];         /* warnings (corrupt cache moved aside, ...) */
  int bucket;
  int n_seeds;             /* seeds timed in stage 0 */
  char seeded_from[300];   /* where they came from */
  int model_skipped;       /* candidates the cost model ruled out */
  int model_rank;          /* the model's rank of the winner among the timed (1 = first) */
  double model_err;        /* winner's prediction / measurement - 1 */
  double noise;            /* timing noise used by the stopping rule (relative) */
  int confirmed;           /* confirm: 1 the cached winner held, 2 it regressed: re-tuned */
  dg_tune_entry entry;     /* what was (or would be) cached */
} dg_tune_result;

/* Tune one order and precision on dev. limits (may be NULL) enter the report's roofline.
 * Returns DG_OK with winner = -1 only if no variant passed (then nothing is cached). */
dg_status dg_tune_order(dg_device *dev, int N, dg_precision p, const dg_tune_options *opt,
                        const dg_device_limits *limits, dg_tune_result *out) DG_NODISCARD;
void dg_tune_result_free(dg_tune_result *r);

/* The device limits: from the cache file of the device (unless force), else measured and
 * stored there. *measured tells which. */
dg_status dg_tune_device_limits(dg_device *dev, const dg_tune_options *opt,
                                dg_device_limits *out, int *measured) DG_NODISCARD;

/* The variants stage 1 of the staged search tries on info's device at order N (one per
 * work split and lift mode with nothing in local memory, each fused right-hand side with
 * vector lanes (not on a GPU) and one node per work-item, plus the CLBlast path), those dg_variant_check accepts, into out;
 * returns their number. */
enum { DG_TUNE_STAGE1_MAX = 16 };
int dg_tune_stage1_variants(const dg_device_info *info, int N, dg_precision p,
                            dg_variant out[DG_TUNE_STAGE1_MAX]);

/* The variants stage 0 times beside the first seed (a stored or transferred winner): the
 * seed with each other fused-stage mode (fuse; lift=separate where the seed's lift does not
 * fuse) and with ops=literal where N allows, the dimensions the later stages reach only
 * through their families' stage-1 forms (one node per item, no unrolling) and so never at
 * the seed's blocking and unrolling once the budget runs out (the H100 re-tune of 2026-11-27:
 * fuse=step timed at N = 4..6 with kb <= 4 and unroll=1 only). Those dg_variant_check
 * accepts on info's device, into out; returns their number (0 for the CLBlast path). */
enum { DG_TUNE_SIBLINGS_MAX = DG_FUSE_COUNT + 1 };
int dg_tune_seed_siblings(const dg_device_info *info, int N, const dg_variant *seed,
                          dg_variant out[DG_TUNE_SIBLINGS_MAX]);

/* ---- reports (tune/report.c) ------------------------------------------------------------ */

/* The ranked table (terminal), JSON document, CSV rows and a gnuplot bar chart. */
void dg_tune_report_table(FILE *f, const dg_tune_result *r, int verbose);
/* The device limits as one line, "limits (measured now | cached, measured DATE): ...",
 * saying how to measure the GEMM rates when they were left out (dg_limits_measure). */
void dg_tune_report_limits(FILE *f, const dg_device_limits *l, int measured);
/* A JSON object for one result (caller owns; NULL when out of memory). */
struct cJSON;
struct cJSON *dg_tune_report_json(const dg_tune_result *r, int with_pruned);
dg_status dg_tune_report_csv(const char *path, const dg_tune_result *const *r, int n) DG_NODISCARD;
dg_status dg_tune_report_plot(const char *png, const dg_tune_result *const *r,
                              int n) DG_NODISCARD;
/* `dgtd tune --report`: every entry of the shipped and cache directories, per (precision,
 * bucket, N, device), with the winner's MDOF/s, % of roofline (with the device's stored
 * limits), speedup over the baseline, tuning time and the model's rank; png (may be NULL)
 * gets grouped bars of MDOF/s per order (gnuplot). */
dg_status dg_tune_compare(const dg_tune_paths *paths, FILE *out, const char *png) DG_NODISCARD;

#endif

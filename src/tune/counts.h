/* Work of one RK stage of the Maxwell operator, in one place: the flops a stage performs and
 * the fewest bytes it must move (see docs/TUNING.md). The tuner's report and the benchmark
 * command both divide these by measured times, so they are reference counts of the method,
 * not of any one kernel variant (padding, redundant loads and recomputation are not counted).
 *
 * One RK stage = one RHS evaluation (volume + surface) plus the LSERK update, which is what
 * dg_cl_maxwell_time_stage times. */
#ifndef DG_TUNE_COUNTS_H
#define DG_TUNE_COUNTS_H

#include "backend/variant.h"

/* Flops per element per stage, by term (a multiply-add counts as 2):
 *   volume  36 Np^2 + 78 Np   (18 mat-vecs of length Np; chain rule, curl, material terms)
 *   flux    288 Nfp           (72 per face node, 4 Nfp face nodes)
 *   lift    48 Np Nfp + 6 Np  (6 fields x Np x 4Nfp mat-vec; accumulate into rhs)
 *   update  30 Np             (res = a res + dt rhs; q += b res: 5 per DOF) */
double dg_count_flops_volume(int N);
double dg_count_flops_flux(int N);
double dg_count_flops_lift(int N);
double dg_count_flops_update(int N);
double dg_count_flops_element(int N); /* the sum of the four */

/* Fewest bytes per element per stage: read and write q and res (4 x 6 Np reals), 12
 * element reals (9 metric terms, 1/eps, 1/mu, sigma/eps), 9 reals per face (normal, 4 flux
 * coefficients, 2 boundary factors) and one 4-byte neighbour index per face node. The own
 * traces are addressed through Fmask (a constant), so they cost no index. */
double dg_count_bytes_element(int N, dg_precision p);

/* Whole stage on K elements: per-element counts times K, plus the operators Dr, Ds, Dt and
 * LIFT read once. dofs = 6 Np K (field DOFs updated by one stage). */
typedef struct {
  double flops, bytes, dofs;
} dg_stage_counts;
dg_stage_counts dg_count_stage(int N, dg_precision p, long K);

#endif

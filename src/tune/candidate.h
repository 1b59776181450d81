/* One candidate variant of a tune and what became of it: verified, timed, failed or
 * rejected (filled by the search, tune/tune.h, and by the verification workers,
 * tune/verify_pool.h). */
#ifndef DG_TUNE_CANDIDATE_H
#define DG_TUNE_CANDIDATE_H

#include "backend/cl_maxwell.h"
#include "backend/variant.h"

typedef enum {
  DG_CAND_PENDING = 0,
  DG_CAND_TIMED,    /* verified and timed */
  DG_CAND_FAILED,   /* build failed, compiler crashed or timed out, operator creation failed */
  DG_CAND_REJECTED  /* built but verification failed */
} dg_cand_status;

enum { DG_TUNE_MAX_SAMPLES = 32 };

typedef struct {
  dg_variant v;
  char spec[DG_VARIANT_SPEC_MAX];
  int stage;                 /* stage that first timed it */
  dg_cand_status status;
  double rel_diff;           /* verification difference (NaN if not verified) */
  char reason[200];          /* why it failed or was rejected */
  int nsamples;
  double samples[DG_TUNE_MAX_SAMPLES]; /* stage times, ns, of the latest timing round */
  double median_ns, min_ns, max_ns;
  int nk;                    /* per-kernel medians of the latest round */
  char kname[DG_CL_MAX_STAGE_KERNELS][32];
  double kernel_ns[DG_CL_MAX_STAGE_KERNELS];
  int in_final;              /* re-timed in stage 4 */
  int unfinished;            /* journalled attempts without an outcome (killed runs): the
                                first is retried, a second one excludes the variant */
  double pred_ns;            /* the cost model's prediction when it was queued (0: none) */
  int seed;                  /* 1: a seed (transfer from a known device, or a stored result) */
} dg_tune_candidate;

#endif

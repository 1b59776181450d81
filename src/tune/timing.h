/* The timing protocol shared by `dgtd tune` and `dgtd bench`, so their numbers compare:
 * candidates are timed in interleaved rounds (A B C A B C ...), each sample being one whole
 * RK stage with profiling events taken right after DG_TIMING_PRESAMPLE untimed stages of the
 * same operator (the previous candidates evicted this one's data from the caches, while a
 * real run steps one operator over warm caches); a candidate's figure is the median of its
 * samples. */
#ifndef DG_TUNE_TIMING_H
#define DG_TUNE_TIMING_H

#include "backend/cl_maxwell.h"
#include "core/status.h"

/* Untimed stages an operator runs after it is built, before its first sample. */
enum { DG_TIMING_WARMUP = 2 };

/* Untimed stages before each sample. With one, the same two variants measured 1-23% slower
 * (minimum of 11 samples) among 11 interleaved operators than among 2, in all 8 pairs of
 * 4 alternating runs (N = 2 double, Intel Xeon PoCL); with three, -6..+2%. */
enum { DG_TIMING_PRESAMPLE = 3 };

/* One sample: DG_TIMING_PRESAMPLE untimed stages, then a profiled one into *t. */
dg_status dg_timing_sample(dg_cl_maxwell *op, dg_cl_stage_timing *t) DG_NODISCARD;

/* Median, min and max of x[0..n) into out[0..2] (reorders x). */
void dg_timing_stats(double *x, int n, double out[3]);

#endif

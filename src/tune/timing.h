/* The timing protocol shared by `dgtd tune` and `dgtd bench`, so their numbers compare:
 * candidates are timed in interleaved rounds (A B C A B C ...), each sample being one whole
 * RK stage with profiling events taken right after an untimed stage of the same operator
 * (the previous candidate evicted this one's data from the caches, while a real run steps
 * one operator over warm caches); a candidate's figure is the median of its samples. */
#ifndef DG_TUNE_TIMING_H
#define DG_TUNE_TIMING_H

#include "backend/cl_maxwell.h"
#include "core/status.h"

/* Untimed stages an operator runs after it is built, before its first sample. */
enum { DG_TIMING_WARMUP = 2 };

/* One sample: an untimed stage, then a profiled one into *t. */
dg_status dg_timing_sample(dg_cl_maxwell *op, dg_cl_stage_timing *t) DG_NODISCARD;

/* Median, min and max of x[0..n) into out[0..2] (reorders x). */
void dg_timing_stats(double *x, int n, double out[3]);

#endif

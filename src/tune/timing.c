#include "tune/timing.h"

#include <stdlib.h>

dg_status dg_timing_sample(dg_cl_maxwell *op, dg_cl_stage_timing *t) {
  for (int i = 0; i < DG_TIMING_PRESAMPLE; ++i) DG_CALL(dg_cl_maxwell_time_stage(op, t));
  DG_CALL(dg_cl_maxwell_time_stage(op, t));
  return DG_OK;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

void dg_timing_stats(double *x, int n, double out[3]) {
  qsort(x, (size_t)n, sizeof *x, cmp_double);
  out[0] = n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
  out[1] = x[0];
  out[2] = x[n - 1];
}

/* Times RK stages of variants WITHOUT verifying them, for probes that are wrong on purpose
 * (element-probes.patch). Not part of the build; run.sh compiles it against the library.
 *   usage: stagetime N float|double n [OPTIONS|]SPEC ...
 * The box has n^3 x 6 elements (the verification problem's materials and boundaries).
 * OPTIONS before a '|' become $DGTD_CL_OPTIONS for that variant's build (e.g.
 * "-DEXP_NOGATHER|path=kernels,..."). The variants are timed interleaved, 15 samples each
 * (dg_timing_sample: three untimed stages before every timed one); prints median and min. */
#include "backend/cl_maxwell.h"
#include "backend/verify.h"
#include "device/device.h"
#include "tune/timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXV = 16, R = 15 };

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int fail(void) {
  fprintf(stderr, "stagetime: %s\n", dg_error_message());
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 5 || argc - 4 > MAXV) {
    fprintf(stderr, "usage: stagetime N float|double n [OPTIONS|]SPEC ... (at most %d)\n", MAXV);
    return 2;
  }
  const int N = atoi(argv[1]), n = atoi(argv[3]), nv = argc - 4;
  const dg_precision p = strcmp(argv[2], "double") ? DG_PREC_FLOAT : DG_PREC_DOUBLE;
  dg_device *dev = NULL;
  dg_verify_case *vc = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK || dg_verify_case_create(&vc, N, n) != DG_OK) return fail();
  const size_t nq = 6 * (size_t)vc->geom->K * vc->geom->Np;
  double *q = malloc(nq * sizeof *q);
  if (!q) return 1;
  for (size_t i = 0; i < nq; ++i) q[i] = (double)(i % 97) / 97.0 - 0.5;
  dg_cl_maxwell *op[MAXV];
  double s[MAXV][R];
  for (int i = 0; i < nv; ++i) {
    char spec[1024];
    snprintf(spec, sizeof spec, "%s", argv[4 + i]);
    char *bar = strchr(spec, '|');
    if (bar) {
      *bar = 0;
      setenv("DGTD_CL_OPTIONS", spec, 1);
      memmove(spec, bar + 1, strlen(bar + 1) + 1);
    } else {
      unsetenv("DGTD_CL_OPTIONS");
    }
    dg_variant v;
    if (dg_variant_parse(spec, &v) != DG_OK) return fail();
    v.precision = p;
    dg_cl_stage_timing t;
    if (dg_cl_maxwell_create(&op[i], dev, vc->phys, &v, NULL) != DG_OK ||
        dg_cl_maxwell_set_state(op[i], q) != DG_OK)
      return fail();
    for (int w = 0; w < DG_TIMING_WARMUP; ++w)
      if (dg_cl_maxwell_time_stage(op[i], &t) != DG_OK) return fail();
  }
  for (int r = 0; r < R; ++r)
    for (int i = 0; i < nv; ++i) {
      dg_cl_stage_timing t;
      if (dg_timing_sample(op[i], &t) != DG_OK) return fail();
      s[i][r] = (double)t.total_ns * 1e-6;
    }
  for (int i = 0; i < nv; ++i) {
    qsort(s[i], R, sizeof(double), cmp_double);
    printf("%8.3f ms (min %.3f)  %s\n", s[i][R / 2], s[i][0], argv[4 + i]);
    dg_cl_maxwell_destroy(&op[i]);
  }
  free(q);
  dg_verify_case_destroy(&vc);
  dg_device_destroy(&dev);
  return 0;
}

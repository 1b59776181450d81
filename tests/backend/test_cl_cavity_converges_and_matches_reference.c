/* The OpenCL backend in double: the (1,1,1) cavity mode converges at rate >= N + 0.5 for
 * N = 1..3 (device default variant), and every final error agrees with the reference
 * backend's to 1e-10 relative; each run's variant was verified (0 < verify_rel_diff <=
 * 1e-12). */
#include "test_util.h"

#include "app/simulate.h"

static double run(dg_backend backend, int N, int cells, double *h) {
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  c.quiet = 1;
  c.backend = backend;
  c.precision = DG_PREC_DOUBLE;
  c.order = N;
  c.final_time = 0.3;
  c.box_cells[0] = c.box_cells[1] = c.box_cells[2] = cells;
  assert_dg_ok(dg_run(&c, &r));
  /* Verified: a difference was measured and is within tolerance. Exactly 0 means no
   * comparison ran (the kernels sum in another order than the reference, so on random
   * fields they differ in the last bits). */
  if (backend == DG_BACKEND_OPENCL) {
    if (!(r.verify_rel_diff > 0 && r.verify_rel_diff <= 1e-12))
      fail_msg("N=%d: verify_rel_diff %.3e, want 0 < d <= 1e-12", N, r.verify_rel_diff);
  }
  *h = pow((double)r.K, -1.0 / 3.0);
  return r.l2_error;
}

static void converges_like_reference(void **state) {
  (void)state;
  static const int levels[4][3] = {{0}, {2, 4, 8}, {1, 2, 4}, {1, 2, 4}};
  for (int N = 1; N <= 3; ++N) {
    double h[3], err[3], h_ref;
    for (int i = 0; i < 3; ++i) {
      err[i] = run(DG_BACKEND_OPENCL, N, levels[N][i], &h[i]);
      const double ref = run(DG_BACKEND_REF, N, levels[N][i], &h_ref);
      if (!(fabs(err[i] - ref) <= 1e-10 * ref))
        fail_msg("N=%d cells=%d: opencl error %.15e vs reference %.15e", N, levels[N][i], err[i], ref);
      if (i > 0) {
        const double rate = log(err[i - 1] / err[i]) / log(h[i - 1] / h[i]);
        printf("# opencl double N=%d h=%.4f error=%.4e rate=%.2f\n", N, h[i], err[i], rate);
        if (i == 2 && !(rate >= N + 0.5)) fail_msg("N=%d: rate %.2f below %.1f", N, rate, N + 0.5);
      }
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(converges_like_reference)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

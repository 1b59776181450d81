/* Orders above 5 solve (README: order 1 to 15): the (1,1,1) PEC cavity mode on the unit
 * cube as one box cell (6 tetrahedra), to t = 0.2, converges spectrally with the order on
 * the reference backend: N = 6..9 (6..15 under DGTD_TEST_ALL), each order's L2 error at
 * least 2x below the one before (measured 3.2x to 5.0x per order up to N = 9). The OpenCL
 * backend in double at N = 6 (N = 8, 12 and 15 under DGTD_TEST_ALL: their first builds take
 * 15 to 50 s on two cores) runs its verified default variant (0 < verify_rel_diff <= 1e-12)
 * to the reference's error within 1e-9 relative, or 1e-12 absolute where the error itself
 * nears rounding (N = 15: 7.8e-9, the two differ by 2.3e-16; the solution's norm is ~1). */
#include "test_util.h"

#include "app/simulate.h"

static int all(void) {
  const char *e = getenv("DGTD_TEST_ALL");
  return e && e[0] == '1';
}

static double run(dg_backend backend, int N, dg_run_result *r) {
  dg_case c;
  dg_case_default(&c);
  c.quiet = 1;
  c.backend = backend;
  c.precision = DG_PREC_DOUBLE;
  c.tune = DG_TUNE_NEVER;
  c.order = N;
  c.final_time = 0.2;
  c.box_cells[0] = c.box_cells[1] = c.box_cells[2] = 1;
  assert_dg_ok(dg_run(&c, r));
  dg_case_free(&c);
  assert_int_equal(r->N, N);
  assert_true(r->has_error && r->l2_error > 0);
  return r->l2_error;
}

static void reference_converges_spectrally(void **state) {
  (void)state;
  const int top = all() ? 15 : 9;
  double prev = 0;
  for (int N = 6; N <= top; ++N) {
    dg_run_result r;
    const double err = run(DG_BACKEND_REF, N, &r);
    printf("# ref N=%2d Np=%3d: %d steps, L2 error %.4e%s", N, r.Np, r.steps, err,
           N > 6 ? "" : "\n");
    if (N > 6) {
      printf(" (%.1fx below N=%d)\n", prev / err, N - 1);
      if (!(err <= prev / 2)) fail_msg("N=%d: error %.3e, N=%d's %.3e: want at least 2x below", N,
                                       err, N - 1, prev);
    }
    prev = err;
  }
}

static void opencl_matches_reference(void **state) {
  (void)state;
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    test_skip("no OpenCL device");
  }
  const int fp64 = dev->info.has_fp64;
  dg_device_destroy(&dev);
  if (!fp64) test_skip("the OpenCL device has no double");
  static const int quick[] = {6}, every[] = {6, 8, 12, 15};
  const int n = all() ? 4 : 1;
  for (int i = 0; i < n; ++i) {
    const int N = all() ? every[i] : quick[i];
    dg_run_result r, ref;
    const double err = run(DG_BACKEND_OPENCL, N, &r), want = run(DG_BACKEND_REF, N, &ref);
    printf("# opencl N=%2d: %s, verified %.2e, L2 error %.10e (reference %.10e)\n", N, r.variant,
           r.verify_rel_diff, err, want);
    if (!(r.verify_rel_diff > 0 && r.verify_rel_diff <= 1e-12))
      fail_msg("N=%d: verify_rel_diff %.3e, want 0 < d <= 1e-12", N, r.verify_rel_diff);
    assert_int_equal(r.steps, ref.steps);
    if (!(fabs(err - want) <= 1e-9 * want + 1e-12))
      fail_msg("N=%d: OpenCL error %.15e, reference %.15e", N, err, want);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(reference_converges_spectrally),
                                     cmocka_unit_test(opencl_matches_reference)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* CFS-PML late-time stability at the orders where it grew (issue 48, item 1): the octant box
 * of test_pml_util.h with 2 cells across the inner unit box and a layer of 1 cell (so the
 * default profile, cubic with R0 = 1e-6, rises from 0 to sigma_max across one element, the
 * steepest per element), the default profile's parameters, a dipole Ricker pulse. With the
 * filters applied node by node (before 2026-11-28) the energy grew again after the pulse had
 * left: from t = 7.6 at N = 1 and from t = 17 at N = 3 (reference backend, double), up to the
 * pulse's peak. Applied in the L2 sense (dg/pml.h) it decays: once the pulse is off and in
 * the layer (t >= 4), the largest energy of each block of BLOCK steps never exceeds that of
 * the block before by more than 1e-6 of the peak, and the last energy is below 1e-6 of it.
 * make test: the reference backend at N = 1 and 3 and OpenCL float at N = 1 to t = 25;
 * DGTD_TEST_ALL=1: N = 1..6 on the reference and OpenCL in double and float to t = 54 (fifty
 * crossings of the inner box after the pulse). */
enum { BLOCK = 100 };
#include "test_pml_util.h"

/* Steps N to t = T on dev (NULL: reference) in prec; checks the block maxima. */
static void check_decays(dg_device *dev, dg_precision prec, int N, double T) {
  pml_setup s = {.N = N, .cells = 2, .extra = 1, .trunc = TRUNC_PML, .T = T, .cfl = 1.0};
  dg_pml_params_default(&s.par);
  pml_problem b;
  pml_problem_create(&b, &s);
  const double dt = b.dt;
  const int steps = b.steps;
  pml_problem_destroy(&b);
  double *energy = NULL;
  assert_dg_ok(DG_ALLOC(energy, steps));
  assert_int_equal(pml_run(&s, dev, prec, NULL, energy), steps);
  double peak = 0;
  for (int i = 0; i < steps; ++i) peak = fmax(peak, energy[i]);
  const int from = (int)ceil(4.0 / dt);
  assert_true(from < steps / 2);
  int grew = 0, blocks = 0;
  double prev = INFINITY, worst = 0, first = -1;
  for (int i = from; i + BLOCK <= steps; i += BLOCK, ++blocks) {
    double mx = 0;
    for (int j = i; j < i + BLOCK; ++j) mx = fmax(mx, energy[j]);
    if (mx > prev + 1e-6 * peak) {
      if (!grew) first = i * dt;
      ++grew;
    }
    if (isfinite(prev)) worst = fmax(worst, (mx - prev) / peak);
    prev = mx;
  }
  printf("# N = %d, %s %s, t = %.1f: peak energy %.3e, final %.1e of the peak; %d blocks of %d "
         "steps from t = 4, largest rise %.1e of the peak, %d rising by > 1e-6 (first at t = "
         "%.1f)\n", N, dev ? "OpenCL" : "reference", dg_precision_name(prec), steps * dt, peak,
         energy[steps - 1] / peak, blocks, BLOCK, worst, grew, first);
  assert_int_equal(grew, 0);
  assert_true(energy[steps - 1] < 1e-6 * peak);
  dg_free(&energy);
}

static void test_reference(void **state) {
  (void)state;
  const int all = getenv("DGTD_TEST_ALL") != NULL;
  const int orders[] = {1, 3, 2, 4, 5, 6};
  for (int i = 0; i < (all ? 6 : 2); ++i) check_decays(NULL, DG_PREC_DOUBLE, orders[i], all ? 54 : 25);
}

static void test_opencl(void **state) {
  dg_device *dev = test_device(state, 0);
  const int all = getenv("DGTD_TEST_ALL") != NULL;
  for (int N = 1; N <= (all ? 6 : 1); ++N)
    for (int p = 0; p < 2; ++p) {
      const dg_precision prec = p ? DG_PREC_DOUBLE : DG_PREC_FLOAT;
      if (p && (!all || !dev->info.has_fp64)) continue;
      check_decays(dev, prec, N, all ? 54 : 25);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_reference),
                                     cmocka_unit_test(test_opencl)};
  return cmocka_run_group_tests(tests, test_device_setup, test_device_teardown);
}

/* CFS-PML on the device against the reference backend, and over long times:
 * - the same PML problem (a dipole pulse, 2 PML cells with kappa_max = 2 so every
 *   coefficient is exercised) stepped by the reference stepper and by the device's default
 *   variant in double and float, and by the whole-stage kernel with q in two buffers
 *   (fuse=step, node and vector forms) in double: the probe records agree to 1e-9 (double)
 *   and 1e-4 (float) relative to their peak;
 * - long-time stability: once the pulse is off and inside the layer (t >= 4), the largest
 *   electromagnetic energy of each block of BLOCK steps never exceeds that of the block
 *   before (to 1e-13 of the peak, rounding), and it decays below 1e-6 of its peak with no
 *   late-time growth: 2000 steps (t ~ 39, about forty crossings of the box) here, 20000
 *   under DGTD_TEST_ALL. Step to step it may rise a little (measured: < 1e-7 of the peak,
 *   and over 50 steps < 1e-9 of the peak in the decaying tail): the UPML medium stores
 *   energy in its auxiliary fields and gives some back, so E and H alone are not a
 *   Lyapunov function there; the block maxima are what "never grows" means here. */
enum { BLOCK = 100 };
#include "test_pml_util.h"

static void test_backends_agree(void **state) {
  dg_device *dev = test_device(state, 0);
  pml_setup s = {.N = 2, .cells = 3, .extra = 2, .trunc = TRUNC_PML, .T = 1.5, .cfl = 1.0};
  dg_pml_params_default(&s.par);
  s.par.kappa_max = 2;
  pml_problem b;
  pml_problem_create(&b, &s);
  const int steps = b.steps;
  pml_problem_destroy(&b);
  const size_t nrec = (size_t)steps * PML_PROBES * 3;
  double *ref = NULL, *got = NULL;
  assert_dg_ok(DG_ALLOC(ref, nrec));
  assert_dg_ok(DG_ALLOC(got, nrec));
  assert_int_equal(pml_run(&s, NULL, DG_PREC_DOUBLE, ref, NULL), steps);
  double peak = 0;
  for (size_t i = 0; i < nrec; ++i) peak = fmax(peak, fabs(ref[i]));
  assert_true(peak > 1e-3); /* the pulse reached the probes */
  for (int p = 0; p < 2; ++p) {
    const dg_precision prec = p ? DG_PREC_DOUBLE : DG_PREC_FLOAT;
    if (prec == DG_PREC_DOUBLE && !dev->info.has_fp64) continue;
    memset(got, 0, nrec * sizeof *got);
    assert_int_equal(pml_run(&s, dev, prec, got, NULL), steps);
    const double d = pml_rel_diff(got, ref, steps);
    printf("# %d steps, %s vs reference: %.2e\n", steps, dg_precision_name(prec), d);
    assert_true(d <= (p ? 1e-9 : 1e-4));
  }
  const char *step_specs[] = {"kb=2,fuse=step", "work=vec,vw=4,fuse=step"};
  for (int i = 0; i < 2 && dev->info.has_fp64; ++i) {
    pml_setup sv = s;
    sv.variant = step_specs[i];
    memset(got, 0, nrec * sizeof *got);
    assert_int_equal(pml_run(&sv, dev, DG_PREC_DOUBLE, got, NULL), steps);
    const double d = pml_rel_diff(got, ref, steps);
    printf("# %d steps, %s in double vs reference: %.2e\n", steps, step_specs[i], d);
    assert_true(d <= 1e-9);
  }
  dg_free(&ref);
  dg_free(&got);
}

static void test_energy_never_grows(void **state) {
  dg_device *dev = test_device(state, 0);
  const int all = getenv("DGTD_TEST_ALL") != NULL;
  const dg_precision prec = dev->info.has_fp64 ? DG_PREC_DOUBLE : DG_PREC_FLOAT;
  pml_setup s = {.N = 2, .cells = 2, .extra = 2, .trunc = TRUNC_PML, .cfl = 1.0};
  dg_pml_params_default(&s.par);
  pml_problem b;
  s.T = 1;
  pml_problem_create(&b, &s);
  const double dt = b.dt;
  pml_problem_destroy(&b);
  const int want = all ? 20000 : 2000;
  s.T = want * dt;
  s.dt = dt;
  double *energy = NULL;
  assert_dg_ok(DG_ALLOC(energy, want));
  assert_int_equal(pml_run(&s, dev, prec, NULL, energy), want);
  double peak = 0;
  for (int i = 0; i < want; ++i) peak = fmax(peak, energy[i]);
  /* The pulse is off from t = 2.4 (its delay 1.2 twice) and has reached the layer by t = 4;
   * from then on no growth. */
  const int from = (int)ceil(4.0 / dt);
  assert_true(from < want / 2);
  /* Block maxima of BLOCK steps: each no larger than the one before. */
  int grew = 0, blocks = 0;
  double prev = INFINITY, worst = 0;
  for (int i = from; i + BLOCK <= want; i += BLOCK, ++blocks) {
    double mx = 0;
    for (int j = i; j < i + BLOCK; ++j) mx = fmax(mx, energy[j]);
    grew += mx > prev + (prec == DG_PREC_DOUBLE ? 1e-13 : 1e-6) * peak;
    if (isfinite(prev)) worst = fmax(worst, (mx - prev) / peak);
    prev = mx;
  }
  printf("# %d steps (t = %.1f, %s): peak energy %.3e, final %.3e (%.1e of the peak); %d "
         "blocks of %d steps from t = 4, largest block-to-block rise %.1e of the peak\n", want,
         want * dt, dg_precision_name(prec), peak, energy[want - 1], energy[want - 1] / peak,
         blocks, BLOCK, worst);
  assert_int_equal(grew, 0);
  assert_true(energy[want - 1] < 1e-6 * peak);
  dg_free(&energy);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_backends_agree),
                                     cmocka_unit_test(test_energy_never_grows)};
  return cmocka_run_group_tests(tests, test_device_setup, test_device_teardown);
}

/* Pulses: Gaussian, Ricker and harmonic take their closed-form values at chosen times; the
 * harmonic's switch-on ramp leaves g and g' continuous (no kink); bad pulses are rejected. */
#include "test_util.h"

#include "dg/source.h"

static const double pi = 3.14159265358979323846;

static void test_gaussian_and_ricker_values(void **state) {
  (void)state;
  const double A = 1.7, f0 = 2.5, t0 = 0.4;
  const dg_pulse g = {DG_PULSE_GAUSSIAN, f0, t0, A, 0, 0};
  const dg_pulse r = {DG_PULSE_RICKER, f0, t0, A, 0, 0};
  assert_near(dg_pulse_eval(&g, t0), A, 1e-15);
  assert_near(dg_pulse_eval(&r, t0), A, 1e-15);
  /* pi f0 (t - t0) = 1: exp(-1) and (1 - 2) exp(-1); symmetric in t - t0. */
  const double t1 = t0 + 1 / (pi * f0), t2 = t0 - 1 / (pi * f0);
  assert_near(dg_pulse_eval(&g, t1), A * exp(-1), 1e-15);
  assert_near(dg_pulse_eval(&g, t2), A * exp(-1), 1e-15);
  assert_near(dg_pulse_eval(&r, t1), -A * exp(-1), 1e-15);
  /* Ricker zero crossings at pi f0 (t - t0) = 1/sqrt(2). */
  assert_near(dg_pulse_eval(&r, t0 + 1 / (sqrt(2) * pi * f0)), 0, 1e-15);
  /* An arbitrary point against the formula. */
  const double a = pi * f0 * (0.55 - t0);
  assert_near(dg_pulse_eval(&r, 0.55), A * (1 - 2 * a * a) * exp(-a * a), 1e-15);
}

static void test_harmonic_values(void **state) {
  (void)state;
  const double A = 0.9, f0 = 1.25, t0 = 0.3, ramp = 1.5;
  const dg_pulse h = {DG_PULSE_HARMONIC, f0, t0, A, ramp, 0};
  /* Zero before t0 (even where the sine is not). */
  assert_near(dg_pulse_eval(&h, t0 - 0.2 / f0), 0, 0);
  /* Half-way through the ramp: r = sin^2(pi/4) = 1/2, sin(2 pi 0.75) = -1. */
  assert_near(dg_pulse_eval(&h, t0 + 0.5 * ramp / f0), -0.5 * A, 1e-14);
  /* After the ramp: the plain sine; a quarter period past ramp/f0 it is A sin(pi/2 + 3 pi). */
  assert_near(dg_pulse_eval(&h, t0 + ramp / f0 + 0.25 / f0), -A, 1e-14);
  assert_near(dg_pulse_eval(&h, t0 + 3.1), A * sin(2 * pi * f0 * 3.1), 1e-14);
  /* ramp = 0: the sine at all times, before t0 too. */
  const dg_pulse h0 = {DG_PULSE_HARMONIC, f0, t0, A, 0, 0};
  assert_near(dg_pulse_eval(&h0, t0 - 0.1), A * sin(2 * pi * f0 * -0.1), 1e-15);
  assert_near(dg_pulse_eval(&h0, t0 + 0.2), A * sin(2 * pi * f0 * 0.2), 1e-15);
}

/* Second differences stay O(1) everywhere, in particular across s = 0 and s = ramp/f0:
 * a jump in g' of size j would show up as j/h. First differences match across both ends.
 * The ramp ends where the sine is 1 (a non-integer number of periods), so a kink in r would
 * show in g' (a linear ramp would give a jump f0/ramp = 0.8 there). */
static void test_harmonic_ramp_is_smooth(void **state) {
  (void)state;
  const double A = 1, f0 = 1, t0 = 0.5, ramp = 1.25;
  const dg_pulse p = {DG_PULSE_HARMONIC, f0, t0, A, ramp, 0};
  const double h = 1e-4;
  double max2 = 0;
  for (double t = 0; t <= t0 + ramp / f0 + 1; t += h / 3) {
    const double d2 = (dg_pulse_eval(&p, t + h) - 2 * dg_pulse_eval(&p, t) +
                       dg_pulse_eval(&p, t - h)) / (h * h);
    if (fabs(d2) > max2) max2 = fabs(d2);
  }
  printf("# max |g''| ~ %.3g (bound 2 (2 pi f0)^2 = %.3g)\n", max2, 8 * pi * pi);
  assert_true(max2 < 8 * pi * pi);
  const double ends[2] = {t0, t0 + ramp / f0};
  for (int e = 0; e < 2; ++e) {
    const double t = ends[e];
    const double left = (dg_pulse_eval(&p, t) - dg_pulse_eval(&p, t - h)) / h;
    const double right = (dg_pulse_eval(&p, t + h) - dg_pulse_eval(&p, t)) / h;
    assert_near(left, right, 100 * h);
    assert_near(dg_pulse_eval(&p, t + 1e-12), dg_pulse_eval(&p, t - 1e-12), 1e-10);
  }
  /* The ramp is 0 at t0 and complete after ramp/f0. */
  assert_near(dg_pulse_eval(&p, t0), 0, 0);
  assert_near(dg_pulse_eval(&p, t0 + ramp / f0 + 0.25), A * sin(2 * pi * (ramp + 0.25)), 1e-14);
}

static void test_bad_pulses_rejected(void **state) {
  (void)state;
  const dg_pulse zero_f0 = {DG_PULSE_GAUSSIAN, 0, 0, 1, 0, 0};
  const dg_pulse neg_ramp = {DG_PULSE_HARMONIC, 1, 0, 1, -1, 0};
  const dg_pulse nan_t0 = {DG_PULSE_RICKER, 1, NAN, 1, 0, 0};
  assert_dg_error(dg_pulse_check(&zero_f0, "dipole 1"), DG_ERR_INPUT, "dipole 1: pulse frequency");
  assert_dg_error(dg_pulse_check(&neg_ramp, "x"), DG_ERR_INPUT, "ramp = -1");
  assert_dg_error(dg_pulse_check(&nan_t0, "x"), DG_ERR_INPUT, "t0");
  dg_error_clear();
  const dg_pulse ok = {DG_PULSE_HARMONIC, 1, 0, 1, 0, 0};
  assert_dg_ok(dg_pulse_check(&ok, "x"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_gaussian_and_ricker_values),
      cmocka_unit_test(test_harmonic_values),
      cmocka_unit_test(test_harmonic_ramp_is_smooth),
      cmocka_unit_test(test_bad_pulses_rejected),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The modulated Gaussian pulse, g(t) = A exp(-(b s)^2) sin(2 pi f0 s), s = t - t0,
 * b = pi B / (2 sqrt(ln 10)): the CPU reference evaluates that formula; its discrete spectrum
 * (dg_pulse_transform, the DFT monitors' own) is the analytic one, peaks at the centre
 * frequency f0, is 20 dB down at f0 +- B/2 and has no DC part; the default delay starts it
 * from 2e-10 of its peak; the case file takes "bandwidth" for it (and only for it); and the
 * OpenCL kernels (the plane wave's incident field in cl_templates/incident.cl, a dipole
 * evaluated on the host) give the reference backend's probe records. */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"
#include "dg/dft.h"
#include "dg/source.h"

static const double pi = 3.14159265358979323846;

static void formula_is_the_reference(void **state) {
  (void)state;
  const dg_pulse p = {.shape = DG_PULSE_MODULATED_GAUSSIAN, .f0 = 2.0, .t0 = 3.0,
                      .amplitude = 1.7, .bandwidth = 0.8};
  const double b = pi * 0.8 / (2 * sqrt(log(10.0)));
  assert_near(dg_pulse_envelope_rate(&p), b, 1e-15);
  for (double t = 0; t <= 6; t += 0.0137) {
    const double s = t - 3.0;
    assert_near(dg_pulse_eval(&p, t), 1.7 * exp(-b * b * s * s) * sin(2 * pi * 2.0 * s), 1e-14);
  }
  /* The default delay: the envelope at t = 0 as small as a Gaussian's delayed by 1.5/f0. */
  const double t0 = dg_pulse_modulated_delay(0.8);
  assert_near(t0, 3 * sqrt(log(10.0)) / 0.8, 1e-12);
  assert_near(exp(-b * b * t0 * t0), exp(-pow(1.5 * pi, 2)), 1e-20);
  /* Checked like the other pulses: no bandwidth, no pulse. */
  dg_pulse bad = p;
  bad.bandwidth = 0;
  assert_dg_error(dg_pulse_check(&bad, "dipole 0"), DG_ERR_INPUT, "bandwidth = 0 must be positive");
  assert_dg_ok(dg_pulse_check(&p, "dipole 0"));
}

/* |G(f)| of the pulse sampled every w for n samples, against the continuous transform
 * A sqrt(pi) / (2b) |exp(-(pi (f - f0) / b)^2) - exp(-(pi (f + f0) / b)^2)|. */
static void spectrum_centred_with_its_band_at_minus_20_dB(void **state) {
  (void)state;
  const double f0 = 2.0, B = 1.0, A = 1.0;
  dg_pulse p = {.shape = DG_PULSE_MODULATED_GAUSSIAN, .f0 = f0, .amplitude = A, .bandwidth = B};
  p.t0 = dg_pulse_modulated_delay(B);
  const double w = 0.004, b = dg_pulse_envelope_rate(&p);
  const long long n = (long long)(2 * p.t0 / w) + 1;
  assert_true(fabs(dg_pulse_eval(&p, 0)) < 3e-10 * A);
  double peak = 0, f_peak = 0;
  for (double f = 0; f <= 4; f += 0.001) {
    double re, im;
    dg_pulse_transform(&p, w, n, f, &re, &im);
    const double m = hypot(re, im);
    const double exact = A * sqrt(pi) / (2 * b) *
                         fabs(exp(-pow(pi * (f - f0) / b, 2)) - exp(-pow(pi * (f + f0) / b, 2)));
    if (exact > 1e-3 * A * sqrt(pi) / (2 * b)) assert_near(m / exact, 1, 1e-6); /* the band */
    if (m > peak) peak = m, f_peak = f;
  }
  print_message("# spectral peak at f = %.4f (centre %g), |G| = %.6g\n", f_peak, f0, peak);
  assert_near(f_peak, f0, 0.002);
  double re, im;
  dg_pulse_transform(&p, w, n, f0 - B / 2, &re, &im);
  const double lo = hypot(re, im) / peak;
  dg_pulse_transform(&p, w, n, f0 + B / 2, &re, &im);
  const double hi = hypot(re, im) / peak;
  print_message("# band edges: %.2f dB and %.2f dB\n", 20 * log10(lo), 20 * log10(hi));
  assert_near(20 * log10(lo), -20, 0.05);
  assert_near(20 * log10(hi), -20, 0.05);
  dg_pulse_transform(&p, w, n, 0, &re, &im);
  assert_true(hypot(re, im) < 1e-9 * peak); /* odd about t0: no DC */
}

static void case_file_keys(void **state) {
  (void)state;
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c,
      "{\"sources\": [{\"type\": \"dipole\", \"position\": [0.5, 0.5, 0.5], \"direction\": [0, 0, 1],"
      " \"pulse\": {\"shape\": \"modulated_gaussian\", \"frequency\": 1.5, \"bandwidth\": 0.6}}]}",
      "m.json"));
  assert_int_equal(c.dipoles[0].pulse.shape, DG_PULSE_MODULATED_GAUSSIAN);
  assert_near(c.dipoles[0].pulse.bandwidth, 0.6, 0);
  assert_near(c.dipoles[0].pulse.t0, dg_pulse_modulated_delay(0.6), 0);
  dg_case_free(&c);
  dg_case_default(&c);
  assert_dg_error(dg_case_parse(&c,
      "{\"sources\": [{\"type\": \"dipole\", \"position\": [0, 0, 0], \"direction\": [0, 0, 1],"
      " \"pulse\": {\"shape\": \"modulated_gaussian\", \"frequency\": 1.5}}]}", "m.json"),
      DG_ERR_INPUT, "m.json: sources[0].pulse: missing key \"bandwidth\"");
  dg_case_free(&c);
  dg_case_default(&c);
  assert_dg_error(dg_case_parse(&c,
      "{\"sources\": [{\"type\": \"dipole\", \"position\": [0, 0, 0], \"direction\": [0, 0, 1],"
      " \"pulse\": {\"shape\": \"ricker\", \"frequency\": 1.5, \"bandwidth\": 1}}]}", "m.json"),
      DG_ERR_INPUT, "sources[0].pulse.bandwidth: only a modulated_gaussian pulse has a bandwidth");
  dg_case_free(&c);
}

/* A box with absorbing walls, a modulated plane wave (total field, entering through them)
 * and a modulated dipole; the probes over the run. */
static double *run_probes(const char *dir, const char *backend, int *nvals) {
  char json[2048], path[512];
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": {\"lo\": [0, 0, 0], \"hi\": [2, 1, 1], \"cells\": [4, 2, 2]}},"
           " \"order\": 2, \"backend\": \"%s\", \"precision\": \"double\", \"final_time\": 2.5,"
           " \"default_boundary\": \"absorbing\","
           " \"sources\": [{\"type\": \"plane_wave\", \"direction\": [1, 0, 0],"
           "   \"polarization\": [0, 0, 1], \"origin\": [0, 0, 0],"
           "   \"pulse\": {\"shape\": \"modulated_gaussian\", \"frequency\": 1.2, \"bandwidth\": 0.8,"
           "   \"delay\": 1.2}},"
           "  {\"type\": \"dipole\", \"position\": [1.3, 0.5, 0.45], \"direction\": [0, 1, 0],"
           "   \"pulse\": {\"shape\": \"modulated_gaussian\", \"frequency\": 1.0, \"bandwidth\": 1.2,"
           "   \"amplitude\": 0.3}}],"
           " \"probes\": [{\"position\": [0.7, 0.5, 0.5]}, {\"position\": [1.6, 0.3, 0.6]}],"
           " \"output\": {\"directory\": \"%s/%s\", \"probe_every\": 5}}",
           backend, dir, backend);
  dg_case c;
  dg_case_default(&c);
  c.quiet = 1;
  assert_dg_ok(dg_case_parse(&c, json, "mg.json"));
  dg_run_result r;
  assert_dg_ok(dg_run(&c, &r));
  dg_case_free(&c);
  snprintf(path, sizeof path, "%s/%s/probes.csv", dir, backend);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  char line[512];
  assert_non_null(fgets(line, sizeof line, f)); /* header */
  double *v = NULL;
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    double row[8];
    assert_int_equal(sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &row[0], &row[1], &row[2],
                            &row[3], &row[4], &row[5], &row[6], &row[7]), 8);
    v = realloc(v, (size_t)(n + 6) * sizeof *v);
    assert_non_null(v);
    for (int k = 0; k < 6; ++k) v[n++] = row[2 + k];
  }
  fclose(f);
  *nvals = n;
  return v;
}

static void opencl_gives_the_reference_fields(void **state) {
  test_scratch *s = *state;
  int na, nb;
  double *ref = run_probes(s->dir, "ref", &na);
  double *cl = run_probes(s->dir, "opencl", &nb);
  assert_int_equal(na, nb);
  double peak = 0, diff = 0;
  for (int i = 0; i < na; ++i) {
    peak = fmax(peak, fabs(ref[i]));
    diff = fmax(diff, fabs(ref[i] - cl[i]));
  }
  print_message("# %d probe values, largest %.4g, largest OpenCL - reference %.3g\n", na, peak,
                diff);
  assert_true(peak > 0.1); /* the pulses arrived */
  assert_true(diff <= 1e-10 * peak);
  free(ref);
  free(cl);
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(formula_is_the_reference),
      cmocka_unit_test(spectrum_centred_with_its_band_at_minus_20_dB),
      cmocka_unit_test(case_file_keys),
      cmocka_unit_test(opencl_gives_the_reference_fields),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

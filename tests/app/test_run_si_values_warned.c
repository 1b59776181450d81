/* A case written in SI units for dgtd's normalised ones (c0 = 1; docs/UNITS.md) is warned
 * about: a final time of 1e-9 (one nanosecond meant) runs one step and says so, naming the
 * units page; a pulse frequency of 2.4e9 (2.4 GHz meant) on a 0.1-wide mesh is named as
 * "in hertz?" before the step's Nyquist limit refuses it; copper's conductivity in S/m
 * (5.8e7), which sets a step 1e6 times below the mesh's, is named with the cost in steps (it
 * was not: issue 48). The same case in normalised units (a mesh in metres: 1 ns = 0.29979,
 * 2.4 GHz = 8.0055, a conductivity of 1) runs without a warning. */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"
#include "core/log.h"

static char warnings[4096];
static void collect(void *ctx, dg_log_level level, const char *message) {
  (void)ctx;
  if (level != DG_LOG_WARNING) return;
  const size_t n = strlen(warnings);
  snprintf(warnings + n, sizeof warnings - n, "%s\n", message);
}

/* A 0.1-wide PEC box (2^3 cells) of conductivity sigma, order 2, reference backend, a dipole
 * of frequency f. */
static dg_status run_case_sigma(const char *final_time, const char *f, const char *sigma,
                                dg_run_result *r) {
  char json[1024];
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": {\"lo\": [0, 0, 0], \"hi\": [0.1, 0.1, 0.1], \"cells\": [2, 2, 2]}},"
           " \"order\": 2, \"backend\": \"ref\", \"default_boundary\": \"pec\", \"final_time\": %s,"
           " \"materials\": [{\"volume\": \"domain\", \"sigma\": %s}],"
           " \"sources\": [{\"type\": \"dipole\", \"position\": [0.05, 0.05, 0.05],"
           " \"direction\": [0, 0, 1], \"pulse\": {\"shape\": \"ricker\", \"frequency\": %s}}]}",
           final_time, sigma, f);
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "si.json"));
  c.quiet = 1;
  warnings[0] = '\0';
  dg_error_clear();
  dg_log_set_handler(collect, NULL);
  const dg_status st = dg_run(&c, r);
  dg_log_set_handler(NULL, NULL);
  dg_case_free(&c);
  print_message("# final_time %s, frequency %s: %s %s\n# warnings: %s\n", final_time, f,
                dg_status_name(st), st ? dg_error_message() : "", warnings);
  return st;
}

static dg_status run_case(const char *final_time, const char *f, dg_run_result *r) {
  return run_case_sigma(final_time, f, "0", r);
}

static void copper_conductivity_in_si_warned(void **state) {
  (void)state;
  dg_run_result r;
  /* one step's worth of the time the conductivity allows */
  assert_dg_ok(run_case_sigma("1e-9", "8.0055", "5.8e7", &r));
  assert_non_null(strstr(warnings, "si.json: the conductivity of materials[0] (sigma = 5.8e+07) "
                                   "sets the time step"));
  assert_non_null(strstr(warnings, "sigma_SI Z0 L (docs/UNITS.md)"));
  assert_dg_ok(run_case_sigma("0.29979", "8.0055", "1", &r));
  assert_null(strstr(warnings, "conductivity"));
}

static void nanosecond_final_time_warned(void **state) {
  (void)state;
  dg_run_result r;
  assert_dg_ok(run_case("1e-9", "8.0055", &r));
  assert_int_equal(r.steps, 1);
  assert_non_null(strstr(warnings, "si.json: final_time = 1e-09 is shorter than one stable time "
                                   "step"));
  assert_non_null(strstr(warnings, "the run ends after one step: is it in seconds?"));
  assert_non_null(strstr(warnings, "docs/UNITS.md"));
}

static void gigahertz_frequency_warned(void **state) {
  (void)state;
  dg_run_result r;
  assert_int_equal(run_case("0.29979", "2.4e9", &r), DG_ERR_INPUT);
  assert_non_null(strstr(warnings, "si.json: a frequency of 2.4e+09 makes the mesh (0.1 across) "
                                   "2.4e+08 wavelengths wide: is it in hertz?"));
  assert_null(strstr(warnings, "final_time"));
  assert_non_null(strstr(dg_error_message(), "Nyquist"));
}

static void normalised_values_run_quietly(void **state) {
  (void)state;
  dg_run_result r;
  assert_dg_ok(run_case("0.29979", "8.0055", &r));
  assert_true(r.steps > 10);
  assert_string_equal(warnings, "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(nanosecond_final_time_warned),
      cmocka_unit_test(gigahertz_frequency_warned),
      cmocka_unit_test(normalised_values_run_quietly),
      cmocka_unit_test(copper_conductivity_in_si_warned),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* A source of zero amplitude under "normalize": "source" gets the documented warning that its
 * spectrum is below 1e-3 of its peak (here: zero at every frequency), before the run and even
 * under --quiet. The old check compared against a peak of 0 and never fired, so the run wrote
 * all-zero spectra silently. */
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

static void run_dft(test_scratch *s, const char *norm, const char *name) {
  char json[2048];
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": {\"cells\": [2, 2, 2]}}, \"order\": 1, \"backend\": \"ref\","
           " \"default_boundary\": \"pec\", \"final_time\": 1,"
           " \"sources\": [{\"type\": \"dipole\", \"position\": [0.5, 0.5, 0.5],"
           "   \"direction\": [0, 0, 1],"
           "   \"pulse\": {\"shape\": \"gaussian\", \"frequency\": 1, \"amplitude\": 0}}],"
           " \"probes\": [{\"position\": [0.3, 0.5, 0.5]}],"
           " \"dft\": {\"frequencies\": [0.5, 1], \"normalize\": \"%s\", \"probes\": true},"
           " \"output\": {\"directory\": \"%s/%s\"}}", norm, s->dir, name);
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "case.json"));
  c.quiet = 1;
  warnings[0] = '\0';
  dg_log_set_handler(collect, NULL);
  const dg_status st = dg_run(&c, &r);
  dg_log_set_handler(NULL, NULL);
  dg_case_free(&c);
  print_message("# %s: warnings: %s\n", name, warnings);
  assert_dg_ok(st);
}

static void zero_amplitude_warned(void **state) {
  test_scratch *s = *state;
  run_dft(s, "source", "norm");
  assert_non_null(strstr(warnings, "case.json: dft: the source pulse's spectrum (gaussian, "
                                   "frequency 1) is zero"));
  assert_non_null(strstr(warnings, "at all 2 frequencies"));
  assert_non_null(strstr(warnings, "not normalised"));
  run_dft(s, "none", "none");
  assert_non_null(strstr(warnings, "is zero"));
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(zero_amplitude_warned),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

/* A DFT frequency where the source pulse's spectrum is below 1e-3 of the pulse's own peak is
 * warned about before the run, even under --quiet and without normalisation: the values there
 * are noise. The old check compared against the peak over the requested frequencies only (and
 * only with "normalize" and without --quiet), so a single frequency never warned. A Gaussian
 * pulse of frequency 1 has |G(f)| ~ exp(-f^2): 1.2e-4 of its peak (f = 0) at f = 3, 0.37 at
 * f = 1. */
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

static void run_dft(test_scratch *s, const char *freqs, const char *norm, const char *name) {
  char json[2048];
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": {\"cells\": [2, 2, 2]}}, \"order\": 2, \"backend\": \"ref\","
           " \"default_boundary\": \"pec\", \"final_time\": 3,"
           " \"sources\": [{\"type\": \"dipole\", \"position\": [0.5, 0.5, 0.5],"
           "   \"direction\": [0, 0, 1], \"pulse\": {\"shape\": \"gaussian\", \"frequency\": 1}}],"
           " \"probes\": [{\"position\": [0.3, 0.5, 0.5]}],"
           " \"dft\": {\"frequencies\": %s, \"normalize\": \"%s\", \"probes\": true},"
           " \"output\": {\"directory\": \"%s/%s\"}}", freqs, norm, s->dir, name);
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

static void one_weak_frequency_warned(void **state) {
  test_scratch *s = *state;
  run_dft(s, "[3]", "none", "one");
  assert_non_null(strstr(warnings, "case.json: dft: the source pulse's spectrum (gaussian, "
                                   "frequency 1) is below 1e-3 of its peak at 1 of the 1 "
                                   "frequencies: 3 (0.00012)"));
  run_dft(s, "[1, 3, 3.5]", "source", "norm");
  assert_non_null(strstr(warnings, "at 2 of the 3 frequencies: 3 (0.00012), 3.5 (4.8e-06)"));
  assert_non_null(strstr(warnings, "the normalised values there are noise divided by almost 0"));
}

static void excited_frequencies_not_warned(void **state) {
  test_scratch *s = *state;
  run_dft(s, "[0.5, 1, 2]", "source", "fine");
  assert_string_equal(warnings, "");
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(one_weak_frequency_warned),
      cmocka_unit_test(excited_frequencies_not_warned),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

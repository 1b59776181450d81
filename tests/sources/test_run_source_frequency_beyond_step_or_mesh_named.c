/* A source pulse's frequency against the time step and the mesh. At f0 >= 1e154 the Ricker
 * pulse was NaN and the run failed as a blow-up blaming the time step: a frequency at or
 * above the step's Nyquist frequency is now refused naming sources[i].pulse.frequency, and
 * the pulse itself is 0 (not NaN) far from its delay. A frequency the mesh does not resolve
 * (fewer than 2 points per wavelength, N lambda / h, on every element) runs with a warning
 * naming the source; a resolved one runs without. In a dispersive medium the wavelength is
 * the one of |eps(w)| at the pulse's frequency, not of eps_inf: a box of a Debye medium with
 * eps_inf = 1 and eps(0) = 81 warns at a frequency that the same box in vacuum resolves. */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"
#include "core/log.h"
#include "dg/source.h"

static char warnings[4096];
static void collect(void *ctx, dg_log_level level, const char *message) {
  (void)ctx;
  if (level != DG_LOG_WARNING) return;
  const size_t n = strlen(warnings);
  snprintf(warnings + n, sizeof warnings - n, "%s\n", message);
}

/* The unit box in 2^3 cells (h = 0.5, longest edge 0.87), order 1, PEC walls, two dipoles:
 * sources[0] of frequency 0.3 and sources[1] of frequency f1; materials (a JSON array) fills
 * the box, or "" for vacuum. */
static dg_status run_f1_in(test_scratch *s, const char *f1, const char *name,
                           const char *materials) {
  char json[2048];
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": {\"cells\": [2, 2, 2]}}, \"order\": 1, \"backend\": \"ref\","
           " \"default_boundary\": \"pec\", \"steps\": 4,"
           " \"sources\": [{\"type\": \"dipole\", \"position\": [0.5, 0.5, 0.5],"
           "   \"direction\": [0, 0, 1], \"pulse\": {\"shape\": \"ricker\", \"frequency\": 0.3}},"
           "  {\"type\": \"dipole\", \"position\": [0.3, 0.5, 0.5], \"direction\": [0, 0, 1],"
           "   \"pulse\": {\"shape\": \"ricker\", \"frequency\": %s}}],"
           " %s%s%s"
           " \"output\": {\"directory\": \"%s/%s\"}}", f1, *materials ? "\"materials\": " : "",
           materials, *materials ? "," : "", s->dir, name);
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "case.json"));
  c.quiet = 1;
  warnings[0] = '\0';
  dg_error_clear();
  dg_log_set_handler(collect, NULL);
  const dg_status st = dg_run(&c, &r);
  dg_log_set_handler(NULL, NULL);
  dg_case_free(&c);
  print_message("# %s: %s %s\n", name, dg_status_name(st), st ? dg_error_message() : "");
  /* each warning on its own "# " line (TAP comments) */
  for (const char *w = warnings; *w;) {
    const size_t n = strcspn(w, "\n");
    print_message("# warning: %.*s\n", (int)n, w);
    w += n + (w[n] == '\n');
  }
  return st;
}

static dg_status run_f1(test_scratch *s, const char *f1, const char *name) {
  return run_f1_in(s, f1, name, "");
}

static void pulse_far_beyond_the_step_named(void **state) {
  test_scratch *s = *state;
  assert_int_equal(run_f1(s, "1e154", "huge"), DG_ERR_INPUT);
  assert_non_null(strstr(dg_error_message(), "case.json: sources[1].pulse.frequency = 1e+154 is at "
                                             "or above the time step's Nyquist frequency"));
  assert_null(strstr(dg_error_message(), "blow"));
  /* The pulse itself is finite: 0 away from its delay. */
  const dg_pulse p = {.shape = DG_PULSE_RICKER, .f0 = 1e154, .t0 = 1.5e-154, .amplitude = 1};
  assert_true(dg_pulse_eval(&p, 0.01) == 0);
  assert_true(isfinite(dg_pulse_eval(&p, 1.5e-154)));
}

static void pulse_beyond_the_mesh_warned(void **state) {
  test_scratch *s = *state;
  assert_dg_ok(run_f1(s, "3", "fast"));
  assert_non_null(strstr(warnings, "case.json: sources[1].pulse.frequency = 3 is beyond what the "
                                   "mesh resolves: at order 1 even its best-resolved element has "
                                   "0.38 points per wavelength"));
  assert_null(strstr(warnings, "sources[0]"));
}

static void resolved_pulse_runs_without_warning(void **state) {
  test_scratch *s = *state;
  assert_dg_ok(run_f1(s, "0.5", "fine"));
  assert_string_equal(warnings, "");
}

/* f1 = 0.5 runs without a warning in vacuum (above); in a Debye medium of eps_inf = 1,
 * delta_eps = 80 and tau = 0.01 (|eps(2 pi 0.5)| = 80.7) the wavelength is 9 times shorter
 * and the mesh does not resolve it: N lambda / h = 1 / (9 * 0.5) / 0.87 = 0.26 points per
 * wavelength on every element (with eps_inf alone the mesh looked fine: 2.3). */
static void dispersive_medium_uses_eps_at_the_pulse_frequency(void **state) {
  test_scratch *s = *state;
  assert_dg_ok(run_f1_in(s, "0.5", "debye",
                         "[{\"volume\": \"domain\", \"eps_inf\": 1.0, \"poles\": "
                         "[{\"type\": \"debye\", \"delta_eps\": 80.0, \"tau\": 0.01}]}]"));
  assert_non_null(strstr(warnings, "case.json: sources[1].pulse.frequency = 0.5 is beyond what the "
                                   "mesh resolves: at order 1 even its best-resolved element has "
                                   "0.26 points per wavelength"));
  assert_non_null(strstr(warnings, "|eps(w)|"));
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pulse_far_beyond_the_step_named),
      cmocka_unit_test(pulse_beyond_the_mesh_warned),
      cmocka_unit_test(resolved_pulse_runs_without_warning),
      cmocka_unit_test(dispersive_medium_uses_eps_at_the_pulse_frequency),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

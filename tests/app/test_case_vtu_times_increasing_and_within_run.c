/* output.vtu_times: unsorted or repeated times are refused naming the key and the index
 * (they were silently skipped: [0.1, 0.05, 0.05] wrote only t = 0.1); a time after the run's
 * final time, and two times on the same step, are warned about instead of being dropped
 * without a word. */
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

static void expect_parse_error(const char *times, const char *needle) {
  char json[512];
  snprintf(json, sizeof json, "{\"output\": {\"directory\": \"out\", \"vtu_times\": %s}}", times);
  dg_case c;
  dg_case_default(&c);
  dg_error_clear();
  const dg_status st = dg_case_parse(&c, json, "case.json");
  if (st != DG_ERR_INPUT || !strstr(dg_error_message(), needle))
    fail_msg("vtu_times %s gave %s \"%s\", want DG_ERR_INPUT containing \"%s\"", times,
             dg_status_name(st), dg_error_message(), needle);
  dg_case_free(&c);
}

static void unsorted_or_repeated_times_refused(void **state) {
  (void)state;
  expect_parse_error("[0.1, 0.05, 0.05]",
                     "case.json: output.vtu_times[1]: 0.05 is before output.vtu_times[0] = 0.1");
  expect_parse_error("[0.05, 0.2, 0.2]",
                     "case.json: output.vtu_times[2]: 0.2 is the same as output.vtu_times[1] = 0.2");
  /* Increasing times parse. */
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, "{\"output\": {\"vtu_times\": [0, 0.05, 0.2]}}", "case.json"));
  assert_int_equal(c.n_vtu_times, 3);
  dg_case_free(&c);
}

static void times_after_the_end_and_on_one_step_warned(void **state) {
  test_scratch *s = *state;
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c,
      "{\"mesh\": {\"box\": {\"cells\": [1, 1, 1]}}, \"order\": 1, \"backend\": \"ref\","
      " \"default_boundary\": \"pec\", \"final_time\": 0.2,"
      " \"initial\": {\"type\": \"cavity_mode\", \"mode\": [1, 1, 0]},"
      " \"output\": {\"vtu_times\": [0.05, 0.051, 0.2, 0.5, 0.7]}}", "case.json"));
  c.quiet = 1;
  snprintf(c.output_dir, sizeof c.output_dir, "%s/out", s->dir);
  warnings[0] = '\0';
  dg_log_set_handler(collect, NULL);
  const dg_status st = dg_run(&c, &r);
  dg_log_set_handler(NULL, NULL);
  assert_dg_ok(st);
  print_message("# warnings:\n%s", warnings);
  assert_non_null(strstr(warnings, "case.json: output.vtu_times[3] = 0.5 is after the run's "
                                   "final time 0.2: no snapshot for it nor the 1 time after it"));
  assert_non_null(strstr(warnings, "output.vtu_times[0] = 0.05 and [1] = 0.051 fall on the same "
                                   "step"));
  assert_null(strstr(warnings, "vtu_times[2]")); /* 0.2 is written, at its own step */
  assert_int_equal(r.n_vtu, 2);
  dg_case_free(&c);
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(unsorted_or_repeated_times_refused),
      cmocka_unit_test(times_after_the_end_and_on_one_step_warned),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

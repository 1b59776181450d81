/* A DFT frequency at or above the Nyquist limit of the time step itself (1 / (2 dt), with
 * dft.every = 1) is refused saying the step cannot sample it and naming the limit. The old
 * message advised "lower dft.every to at most 0", which no setting satisfies. A frequency
 * that a smaller dft.every can sample still gets that advice. */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"

static dg_status run_dft(test_scratch *s, const char *freq, int every, const char *name) {
  char json[1024];
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": {\"cells\": [1, 1, 1]}}, \"order\": 1, \"backend\": \"ref\","
           " \"steps\": 2, \"default_boundary\": \"pec\", \"output\": {\"directory\": \"%s/%s\"},"
           " \"dft\": {\"frequencies\": [%s], \"volumes\": \"all\", \"every\": %d}}",
           s->dir, name, freq, every);
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  c.quiet = 1;
  assert_dg_ok(dg_case_parse(&c, json, "ny.json"));
  const dg_status st = dg_run(&c, &r);
  dg_case_free(&c);
  return st;
}

static void beyond_the_step_names_limit(void **state) {
  test_scratch *s = *state;
  assert_dg_error(run_dft(s, "1e6", 1, "step"), DG_ERR_INPUT,
                  "above what the time step can sample even with dft.every = 1");
  const char *msg = dg_error_message();
  assert_null(strstr(msg, "at most 0"));
  assert_non_null(strstr(msg, "lower the frequency below"));
  dg_error_clear();
}

static void beyond_every_advises_every(void **state) {
  test_scratch *s = *state;
  assert_dg_error(run_dft(s, "1", 1000, "every"), DG_ERR_INPUT, "lower dft.every to at most");
  assert_null(strstr(dg_error_message(), "at most 0"));
  dg_error_clear();
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(beyond_the_step_names_limit),
      cmocka_unit_test(beyond_every_advises_every),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

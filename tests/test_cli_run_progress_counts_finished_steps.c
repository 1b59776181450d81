/* bin/dgtd run's progress lines give the rate of steps done, not of steps queued: a device
 * runs the steps asynchronously, and the first line of a 400-step run (printed after step
 * 1, before the device had finished it) said 2.13e9 DOF/s where the run's rate was 2.5e8.
 * The rate now counts from the first printed step, which also compiled (that line says
 * "-"): every line with a rate must be within 3x of the run's figure (a step's rate varies
 * with the host's load, not by 8x), and the last line has one. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

static void progress_rates_near_final(void **state) {
  const test_scratch *sc = *state;
  const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
  char cmd[1024];
  /* stderr is a pipe, not a terminal: a line at step 1, then every 10 s, then the last */
  snprintf(cmd, sizeof cmd,
           "%s/dgtd run --box 4 --order 2 --steps 400 --tune never --out %s 2>&1", bin,
           sc->path);
  static char out[1 << 16];
  if (test_capture(cmd, out, sizeof out) != 0) fail_msg("%s failed:\n%s", cmd, out);
  /* the run's figure: "  DOF/s         2.494e+08 (DOFs x RHS evaluations / s)" */
  const char *f = strstr(out, "\n  DOF/s ");
  assert_non_null(f);
  const double final = strtod(f + strlen("\n  DOF/s "), NULL);
  assert_true(final > 0);
  int lines = 0;
  for (const char *l = strstr(out, "  step "); l; l = strstr(l + 1, "  step ")) {
    const char *e = strstr(l, " DOF/s");
    const char *nl = strchr(l, '\n');
    if (!e || (nl && e > nl)) continue;
    const char *b = e;
    while (b > l && b[-1] != ' ') --b;
    if (*b == '-') continue; /* not known yet */
    const double rate = strtod(b, NULL);
    printf("# %.40s... %.3g DOF/s (final %.3g)\n", l + 2, rate, final);
    assert_true(rate > 0);
    assert_true(rate < 3 * final);
    ++lines;
  }
  assert_true(lines >= 1); /* the last step's line */
  assert_non_null(strstr(out, "step 400/400"));
}

static int setup(void **state) { return test_scratch_setup(state, "out"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(progress_rates_near_final, setup, test_scratch_teardown)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

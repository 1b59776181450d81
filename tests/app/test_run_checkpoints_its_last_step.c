/* A run that takes checkpoints also checkpoints its last step, so that extending it (a
 * restart with a later end) repeats no step: 5 steps with a checkpoint every 3 write two
 * (steps 3 and 5), and the run extended to 8 steps from the checkpoint starts at step 5 and
 * takes 3. The old run checkpointed step 3 only, and the extension repeated steps 4 and 5
 * (issue 48). */
#include "test_util.h"

static const char *bin(void) { return getenv("BIN") && *getenv("BIN") ? getenv("BIN") : "bin"; }

static char out[1 << 14];

/* A number of the --json summary in out. */
static double json_number(const char *key) {
  char k[64];
  snprintf(k, sizeof k, "\"%s\":", key);
  const char *p = strstr(out, k);
  if (!p) fail_msg("no %s in:\n%s", k, out);
  return strtod(p + strlen(k), NULL);
}

static void last_step_checkpointed_and_extension_repeats_nothing(void **state) {
  test_scratch *s = *state;
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           "%s/dgtd run --backend ref --box 1 --order 1 --steps 5 --checkpoint-every 3 --json "
           "--quiet --output %s/run", bin(), s->dir);
  assert_int_equal(test_capture(cmd, out, sizeof out), 0);
  assert_int_equal((int)json_number("checkpoints"), 2);
  snprintf(cmd, sizeof cmd,
           "%s/dgtd run --backend ref --box 1 --order 1 --steps 8 --json --quiet --restart "
           "%s/run/checkpoint.chk --output %s/run", bin(), s->dir, s->dir);
  assert_int_equal(test_capture(cmd, out, sizeof out), 0);
  assert_int_equal((int)json_number("first_step"), 5);
  assert_int_equal((int)json_number("steps"), 3);
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(last_step_checkpointed_and_extension_repeats_nothing),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

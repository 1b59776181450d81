/* dgtd run --steps 3 --final-time 1 silently took the later option; both on the line are now
 * refused (exit 2), as "steps" and "final_time" together in a case file are. Either one alone
 * still runs. */
#include "test_util.h"

static int dgtd(const char *args, char *out, size_t cap) {
  const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s/dgtd %s 2>&1", bin, args);
  return test_capture(cmd, out, cap);
}

static void both_refused(void **state) {
  (void)state;
  char out[8192];
  const char *both[] = {"run --backend ref --box 1 --order 1 --steps 3 --final-time 1",
                        "run --backend ref --box 1 --order 1 --final-time 1 --steps 3"};
  for (int i = 0; i < 2; ++i) {
    const int rc = dgtd(both[i], out, sizeof out);
    if (rc != 2 || !strstr(out, "give one, not both"))
      fail_msg("dgtd %s: exit %d (want 2), output:\n%s", both[i], rc, out);
  }
  assert_non_null(strstr(out, "--final-time 1 and --steps 3: give one, not both"));
}

static void either_runs(void **state) {
  (void)state;
  char out[8192];
  const char *one[] = {"run --backend ref --box 1 --order 1 --steps 3 --quiet --json",
                       "run --backend ref --box 1 --order 1 --final-time 0.05 --quiet --json"};
  for (int i = 0; i < 2; ++i) {
    const int rc = dgtd(one[i], out, sizeof out);
    if (rc != 0) fail_msg("dgtd %s: exit %d (want 0), output:\n%s", one[i], rc, out);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(both_refused), cmocka_unit_test(either_runs)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

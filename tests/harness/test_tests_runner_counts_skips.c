/* tests/run_tests.sh counts what it ran: its last line is "N passed, N failed, N skipped"
 * (CI and the docs read the first part), where "skipped" counts the skipped test cases
 * (cmocka's "ok N - name # SKIP") and the skipped parts of cases ("# SKIP part:" lines); a
 * binary that exits non-zero with no failed case counts one failure. With
 * DGTD_TEST_NO_SKIP=1 every skip is a failure, and the runner's status says so. A binary
 * whose plan ("1..N") announces more cases than it reported fails the missing ones (a
 * message that ran into "ok 2" hid it). Checked on
 * small shell scripts that print TAP as a cmocka binary does. */
#include "test_util.h"

#include <sys/stat.h>
#include <unistd.h>

static void script(const char *dir, const char *name, const char *body) {
  char path[300];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f, "#!/bin/sh\n%s", body);
  fclose(f);
  assert_int_equal(chmod(path, 0755), 0);
}

/* The runner on dir's scripts (names), env in front; its last line into last, its status. */
static int runner(const char *env, const char *dir, const char *names, char *last, size_t cap) {
  static char out[1 << 16];
  char cmd[1024], root[512];
  assert_non_null(getcwd(root, sizeof root)); /* the repository root, where make test runs */
  snprintf(cmd, sizeof cmd, "cd %s && env -u DGTD_TEST_NO_SKIP %s sh %s/tests/run_tests.sh %s 2>&1",
           dir, env, root, names);
  const int rc = test_capture(cmd, out, sizeof out);
  size_t n = strlen(out);
  while (n && out[n - 1] == '\n') out[--n] = '\0';
  const char *l = strrchr(out, '\n');
  snprintf(last, cap, "%s", l ? l + 1 : out);
  printf("# %s%s%s: %s (exit %d)\n", env, *env ? " " : "", names, last, rc);
  return rc;
}

static void counts_passes_failures_and_skips(void **state) {
  const test_scratch *s = *state;
  script(s->dir, "two_ok_one_skip", "echo 'ok 1 - a'; echo 'ok 2 - b'; echo 'ok 3 - c # SKIP'\n");
  script(s->dir, "part_skipped", "echo '# SKIP part: no vtk'; echo 'ok 1 - d'\n");
  script(s->dir, "one_fails", "echo 'ok 1 - e'; echo 'not ok 2 - f'; exit 1\n");
  script(s->dir, "crashes", "echo 'ok 1 - g'; kill -SEGV $$\n");
  char last[256];
  assert_int_equal(runner("", s->dir, "./two_ok_one_skip ./part_skipped", last, sizeof last), 0);
  assert_string_equal(last, "3 passed, 0 failed, 2 skipped");
  assert_int_not_equal(runner("", s->dir, "./two_ok_one_skip ./one_fails ./crashes", last,
                              sizeof last), 0);
  assert_string_equal(last, "4 passed, 2 failed, 1 skipped");
  /* No skip allowed: the skipped case and the skipped part are failures. */
  assert_int_not_equal(runner("DGTD_TEST_NO_SKIP=1", s->dir, "./two_ok_one_skip", last,
                              sizeof last), 0);
  assert_string_equal(last, "2 passed, 1 failed, 0 skipped");
  assert_int_not_equal(runner("DGTD_TEST_NO_SKIP=1", s->dir, "./part_skipped", last,
                              sizeof last), 0);
  assert_string_equal(last, "1 passed, 1 failed, 0 skipped");
  /* A case whose TAP line a message ran into: the plan says 2, one was seen. */
  script(s->dir, "hidden_case", "echo '1..2'; echo 'ok 1 - i'; printf 'warning: x'; echo 'ok 2 - j'\n");
  script(s->dir, "planned_ok", "echo '1..2'; echo 'ok 1 - k'; echo 'ok 2 - l'\n");
  assert_int_not_equal(runner("", s->dir, "./hidden_case", last, sizeof last), 0);
  assert_string_equal(last, "1 passed, 1 failed, 0 skipped");
  assert_int_equal(runner("", s->dir, "./planned_ok", last, sizeof last), 0);
  assert_string_equal(last, "2 passed, 0 failed, 0 skipped");
  /* Nothing skipped: the same line, and success. */
  script(s->dir, "all_ok", "echo 'ok 1 - h'\n");
  assert_int_equal(runner("DGTD_TEST_NO_SKIP=1", s->dir, "./all_ok", last, sizeof last), 0);
  assert_string_equal(last, "1 passed, 0 failed, 0 skipped");
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(counts_passes_failures_and_skips, setup,
                                      test_scratch_teardown)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* dgtd run --order (no value, last on the line) says the option needs a value, exit 2; it
 * said "unknown option '--order'", for an option that exists. */
#include "test_util.h"

static void expect(const char *args, const char *needle) {
  const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
  char cmd[1024], out[8192];
  snprintf(cmd, sizeof cmd, "%s/dgtd %s 2>&1", bin, args);
  const int rc = test_capture(cmd, out, sizeof out);
  if (rc != 2 || !strstr(out, needle) || strstr(out, "unknown option"))
    fail_msg("dgtd %s: exit %d (want 2), output:\n%s\n(want \"%s\", not \"unknown option\")",
             args, rc, out, needle);
}

static void missing_values_named(void **state) {
  (void)state;
  expect("run --order", "--order needs a value (see dgtd run --help)");
  expect("run --box 1 --final-time", "--final-time needs a value");
  expect("run --backend ref --output", "--output needs a value");
  /* An option that does not exist is still called unknown. */
  const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
  char cmd[512], out[8192];
  snprintf(cmd, sizeof cmd, "%s/dgtd run --frobnicate 2>&1", bin);
  assert_int_equal(test_capture(cmd, out, sizeof out), 2);
  assert_non_null(strstr(out, "unknown option '--frobnicate'"));
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(missing_values_named)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

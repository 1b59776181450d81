/* dgtd run -- CASE.json: what follows "--" is the case file (POSIX: "--" ends the options,
 * it does not drop the arguments after it); two case files are refused. */
#include "test_util.h"

static int dgtd(const char *args, char *out, size_t cap) {
  const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s/dgtd %s 2>&1", bin, args);
  return test_capture(cmd, out, cap);
}

static int setup(void **state) { return test_scratch_setup(state, "case.json"); }
static int teardown(void **state) { return test_scratch_teardown(state); }

/* A missing case file after "--" is an error naming it, not the built-in cavity. */
static void missing_case_after_double_dash_is_an_error(void **state) {
  (void)state;
  char out[16384];
  const int rc = dgtd("run --backend ref --box 2 --order 1 --steps 1 --quiet -- "
                      "/nonexistent-dgtd-case.json", out, sizeof out);
  if (rc != 3 || !strstr(out, "/nonexistent-dgtd-case.json"))
    fail_msg("exit %d (want 3, the case file cannot be read), output:\n%s", rc, out);
}

/* A real case file after "--" is the case that runs: its order and box are reported. */
static void case_after_double_dash_is_run(void **state) {
  test_scratch *s = *state;
  FILE *f = fopen(s->path, "w");
  assert_non_null(f);
  fprintf(f, "{\"mesh\": {\"box\": {\"lo\": [0,0,0], \"hi\": [1,1,1], \"cells\": [1,1,1]}},\n"
             " \"order\": 1, \"final_time\": 0.05, \"default_boundary\": \"pec\",\n"
             " \"initial\": {\"type\": \"cavity_mode\", \"mode\": [1,1,0]}}\n");
  fclose(f);
  char args[512], out[16384];
  snprintf(args, sizeof args, "run --backend ref --json --quiet -- %s", s->path);
  const int rc = dgtd(args, out, sizeof out);
  if (rc != 0) fail_msg("exit %d, output:\n%s", rc, out);
  char want[300];
  snprintf(want, sizeof want, "\"case\":\"%s\"", s->path);
  if (!strstr(out, want) || !strstr(out, "\"K\":6,") || !strstr(out, "\"N\":1,"))
    fail_msg("the case after -- was not the one run (want %s, K 6, N 1):\n%s", want, out);
  /* Two case files, one before and one after "--", are refused. */
  snprintf(args, sizeof args, "run --quiet %s -- %s", s->path, s->path);
  if (dgtd(args, out, sizeof out) != 2 || !strstr(out, "more than one case file"))
    fail_msg("two case files accepted:\n%s", out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(missing_case_after_double_dash_is_an_error),
      cmocka_unit_test(case_after_double_dash_is_run),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

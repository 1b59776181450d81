/* bin/dgtd run: bad options and bad files give one clear message and a meaningful exit
 * status (2 input, 3 file), and --json prints the figures of a real run. */
#include "test_util.h"

/* Run bin/dgtd with args, capture stdout+stderr into out, return the exit status. */
static int dgtd(const char *args, char *out, size_t cap) {
  const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s/dgtd %s 2>&1", bin, args);
  return test_capture(cmd, out, cap);
}

static void expect(const char *args, int code, const char *needle) {
  char out[16384];
  const int rc = dgtd(args, out, sizeof out);
  if (rc != code || !strstr(out, needle))
    fail_msg("dgtd %s: exit %d (want %d), output:\n%s\n(want it to contain \"%s\")", args, rc,
             code, out, needle);
}

static void bad_options_exit_2(void **state) {
  (void)state;
  expect("run --order 0", 2, "--order: 0 is out of range [1, 15]");
  expect("run --order three", 2, "--order: expected an integer, got 'three'");
  expect("run --flux sideways", 2, "--flux: expected upwind or central");
  expect("run --mode 1,1,1:1,1,1", 2, "not divergence-free");
  expect("run --mode 1,0,0", 2, "identically zero");
  expect("run --backend cuda", 2, "unknown backend 'cuda'");
  expect("run --frobnicate", 2, "unknown option '--frobnicate'");
  expect("run --final-time -1", 2, "final time must be positive");
  expect("frobnicate", 2, "unknown command 'frobnicate'");
  expect("run --precision half", 2, "--precision: expected float or double");
  expect("run --variant work=sideways", 2, "work");
  /* A device that does not exist: the message lists the devices there are. */
  expect("run --device nosuchdevice", 2, "0:0");
  expect("run --device 7:3", 2, "0:0");
}

static void bad_files_name_the_file(void **state) {
  (void)state;
  expect("run --mesh tests/fixtures/no_such_file.msh", 3, "no_such_file.msh");
  expect("run --mesh tests/fixtures/bad_version.msh", 2, "bad_version.msh:");
  expect("run --mesh tests/fixtures/bad_three_nodes.msh", 2, "bad_three_nodes.msh:43:");
}

static void help_on_every_command(void **state) {
  (void)state;
  expect("--help", 0, "commands:");
  expect("run --help", 0, "--mode m,n,p");
  expect("devices --help", 0, "usage: dgtd devices");
}

static void json_summary_of_a_run(void **state) {
  (void)state;
  char out[16384];
  assert_int_equal(dgtd("run --backend ref --order 2 --box 2 --final-time 0.2 --json --quiet", out, sizeof out), 0);
  assert_non_null(strstr(out, "\"K\":48"));
  assert_non_null(strstr(out, "\"N\":2"));
  assert_non_null(strstr(out, "\"dofs\":2880")); /* 6 fields x 10 nodes x 48 elements */
  const char *e = strstr(out, "\"l2_error\":");
  assert_non_null(e);
  const double err = strtod(e + strlen("\"l2_error\":"), NULL);
  assert_true(err > 0 && err < 0.2);
  /* The same case through OpenCL (PoCL) names the device and the verified variant. */
  assert_int_equal(dgtd("run --order 2 --box 2 --final-time 0.2 --precision double --json --quiet",
                        out, sizeof out), 0);
  assert_non_null(strstr(out, "\"backend\":\"opencl\""));
  assert_non_null(strstr(out, "\"variant\":\"path=kernels"));
  const char *e2 = strstr(out, "\"l2_error\":");
  assert_non_null(e2);
  assert_near(strtod(e2 + strlen("\"l2_error\":"), NULL), err, 1e-10 * err);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bad_options_exit_2),
      cmocka_unit_test(bad_files_name_the_file),
      cmocka_unit_test(help_on_every_command),
      cmocka_unit_test(json_summary_of_a_run),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* bin/dgtd run's exit status says what went wrong (docs/RUNNING.md, "Exit status and
 * errors"; 2, 3 and 4 and the signals are tested with their causes elsewhere):
 * - 5, an OpenCL failure: a kernel program that does not compile (DGTD_CL_OPTIONS defines
 *   real_t, the kernels' real type, as '@') stops the run naming clBuildProgram and quoting
 *   the build log;
 * - 1, anything else: an allocation that fails (the address space limited with ulimit -v to
 *   300 MB, a run that needs more) is reported as out of memory;
 * - a run that needs more device memory than the device has is refused before any program
 *   is built, with both figures (exit 2, bad input): the Oclgrind device with its global
 *   memory set to 100 MB, a run that needs about 225 MB (the refusal comes before any
 *   kernel would run under the simulator). */
#include "test_util.h"

#include <stdlib.h>

#include "oclgrind_util.h"

static char out[1 << 16];

/* bin/ as an absolute path (the commands run in the scratch directory). */
static const char *bin(void) {
  static char path[4096];
  const char *b = getenv("BIN") && *getenv("BIN") ? getenv("BIN") : "bin";
  if (!realpath(b, path)) fail_msg("no %s", b);
  return path;
}

/* cmd (a format with the scratch directory and bin/ as its two %s) with stderr into out;
 * fails unless it exits with want and its output contains every needle. */
static void expect(const char *fmt, const char *dir, int want, const char *const *needles) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, fmt, dir, bin());
  const int rc = test_capture(cmd, out, sizeof out);
  printf("# exit %d: %.300s\n", rc, out);
  if (rc != want) fail_msg("%s: exit %d, want %d; output:\n%s", cmd, rc, want, out);
  for (; *needles; ++needles)
    if (!strstr(out, *needles)) fail_msg("%s: no \"%s\" in:\n%s", cmd, *needles, out);
}

static void opencl_failure_exits_5(void **state) {
  const test_scratch *s = *state;
  /* TMPDIR: where a failed build saves its source (named in the message). */
  static const char *const needles[] = {"dgtd: error: clBuildProgram: CL_BUILD_PROGRAM_FAILURE",
                                        "build log:", "source written to", NULL};
  expect("TMPDIR=%s DGTD_CL_OPTIONS='-Dreal_t=@' %s/dgtd run --box 1 --order 1 --steps 2 "
         "--tune never --quiet 2>&1", s->dir, 5, needles);
}

static void failed_allocation_exits_1(void **state) {
  const test_scratch *s = *state;
#if defined(__SANITIZE_ADDRESS__)
  (void)s;
  test_skip_part("ulimit -v: AddressSanitizer reserves terabytes of address space");
#else
  /* 82944 elements at order 3: 1.7 million nodes, several hundred MB of arrays (measured:
   * the allocation that fails comes 0.5 s in, at 185 MB resident). */
  static const char *const needles[] = {"dgtd: error: out of memory allocating", NULL};
  expect("cd %s && ulimit -v 300000 && %s/dgtd run --backend ref --box 24 --order 3 "
         "--steps 1 --quiet 2>&1", s->dir, 1, needles);
#endif
}

static void device_memory_refused_before_building(void **state) {
  const test_scratch *s = *state;
  if (!og_available()) {
    test_skip_part("the device memory check: no oclgrind (or a sanitizer build)");
    return;
  }
  /* box 25 at order 3 in float: 93750 x 20 nodes x 30 reals x 4 bytes = 225 MB */
  static const char *const needles[] = {
      "this run needs about 0.2 GB of device memory (93750 elements at order 3 in float)",
      "'Oclgrind Simulator' has 0.1 GB", NULL};
  /* Refused in about a second; a run that went on would simulate the kernels on 93750
   * elements for many minutes: stopped at 60 s (exit 124). */
  expect("cd %s && timeout 60 oclgrind --global-mem-size 100000000 %s/dgtd run --box 25 "
         "--order 3 --steps 1 --tune never --quiet 2>&1", s->dir, 2, needles);
  assert_null(strstr(out, "clBuildProgram"));
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(opencl_failure_exits_5, setup, test_scratch_teardown),
      cmocka_unit_test_setup_teardown(failed_allocation_exits_1, setup, test_scratch_teardown),
      cmocka_unit_test_setup_teardown(device_memory_refused_before_building, setup,
                                      test_scratch_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

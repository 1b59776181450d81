/* Options that did nothing without a word (issue 48, found by probing), each a second's run:
 * - `dgtd kernels --profile ,` (a list naming no profile) exits 2 naming the option and
 *   writes nothing; it exited 0 saying "0 programs written" and created neither the folder
 *   nor its index;
 * - `--checkpoint-every 0` means none, as the case file's checkpoint.every_steps 0 does: the
 *   run succeeds and writes no checkpoint (it was refused as out of range);
 * - `--profile` on the reference backend, which launches no kernels to time, is warned about
 *   (it was silently ignored); the run still succeeds. */
#include "test_util.h"

#include <sys/stat.h>

static const char *bin(void) { return getenv("BIN") && *getenv("BIN") ? getenv("BIN") : "bin"; }

static char out[1 << 14];

/* bin/dgtd ARGS with stdout and stderr into out; exit status. */
static int dgtd(const char *args) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "%s/dgtd %s 2>&1", bin(), args);
  return test_capture(cmd, out, sizeof out);
}

static void kernels_profile_list_naming_none_refused(void **state) {
  test_scratch *s = *state;
  char args[1024], dir[600];
  snprintf(dir, sizeof dir, "%s/kernels", s->dir);
  snprintf(args, sizeof args, "kernels --out %s --profile , --order 2 --family default", dir);
  assert_int_equal(dgtd(args), 2);
  assert_non_null(strstr(out, "--profile: ',' names no profile"));
  struct stat st;
  assert_int_not_equal(stat(dir, &st), 0); /* nothing written */
}

static void checkpoint_every_zero_means_none(void **state) {
  test_scratch *s = *state;
  char args[1024], chk[700];
  snprintf(args, sizeof args,
           "run --backend ref --box 1 --order 1 --steps 3 --quiet --checkpoint-every 0 "
           "--output %s/zero", s->dir);
  assert_int_equal(dgtd(args), 0);
  snprintf(chk, sizeof chk, "%s/zero/checkpoint.chk", s->dir);
  struct stat st;
  assert_int_not_equal(stat(chk, &st), 0);
}

static void profile_on_reference_backend_warned(void **state) {
  test_scratch *s = *state;
  char args[1024];
  snprintf(args, sizeof args,
           "run --backend ref --box 1 --order 1 --steps 2 --quiet --profile --output %s/prof",
           s->dir);
  assert_int_equal(dgtd(args), 0);
  assert_non_null(strstr(out, "--profile has no effect with the ref backend"));
  snprintf(args, sizeof args,
           "run --backend ref --box 1 --order 1 --steps 2 --quiet --output %s/plain", s->dir);
  assert_int_equal(dgtd(args), 0);
  assert_null(strstr(out, "--profile"));
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(kernels_profile_list_naming_none_refused),
      cmocka_unit_test(checkpoint_every_zero_means_none),
      cmocka_unit_test(profile_on_reference_backend_warned),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

/* An MPI restart whose ranks' checkpoints are of different steps (what a kill between two
 * ranks' renames leaves) is refused on every rank, naming both steps, instead of one rank
 * finishing and the other waiting for its neighbour's traces for ever (each rank's message
 * names both steps); a rank whose checkpoint is missing stops the others too. Checkpoints written together restart. */
#include "test_util.h"

#include <sys/stat.h>

static int have_mpiexec(void) { return system("command -v mpiexec.mpich >/dev/null 2>&1") == 0; }

static const char *bin(void) { return getenv("BIN") ? getenv("BIN") : "bin"; }

static char out[1 << 16];

/* 2 ranks, the reference backend (no device build), under a time limit: a hang is exit 124. */
static int run2(const char *dir, const char *extra) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd,
           "timeout 60 mpiexec.mpich -n 2 %s/dgtd run --backend ref --box 2 --order 1 --quiet "
           "--output %s %s 2>&1", bin(), dir, extra);
  return test_capture(cmd, out, sizeof out);
}

static void test_ranks_restart_from_one_step_or_not_at_all(void **state) {
  test_scratch *s = *state;
  if (!have_mpiexec()) skip();
  char a[128], b[128], c[128], d[128], extra[512], cmd[600];
  snprintf(a, sizeof a, "%s/a", s->dir);
  snprintf(b, sizeof b, "%s/b", s->dir);
  snprintf(c, sizeof c, "%s/c", s->dir);
  snprintf(d, sizeof d, "%s/d", s->dir);
  assert_int_equal(run2(a, "--steps 10 --checkpoint-every 10"), 0);
  assert_int_equal(run2(b, "--steps 14 --checkpoint-every 14"), 0);
  /* written together: the restart runs */
  snprintf(extra, sizeof extra, "--steps 20 --restart %s/checkpoint.chk", a);
  assert_int_equal(run2(c, extra), 0);
  /* rank 1's checkpoint from step 14, rank 0's from step 10 */
  snprintf(cmd, sizeof cmd, "cp %s/checkpoint_r1.chk %s/checkpoint_r1.chk", b, a);
  assert_int_equal(system(cmd), 0);
  const int rc = run2(d, extra);
  printf("# %s%s", out, out[0] && out[strlen(out) - 1] == '\n' ? "" : "\n");
  assert_int_equal(rc, 2); /* not 124: no rank waits for ever */
  /* A rank's message can be lost when another's MPI_Abort ends the job before mpiexec has
   * forwarded it (seen under AddressSanitizer); what gets out names both steps. */
  if (strstr(out, "dgtd: error")) {
    assert_non_null(strstr(out, "different steps (10 and 14"));
  }
  /* rank 1's checkpoint missing: rank 0 stops too */
  snprintf(cmd, sizeof cmd, "rm %s/checkpoint_r1.chk", a);
  assert_int_equal(system(cmd), 0);
  const int rc2 = run2(d, extra);
  printf("# %s%s", out, out[0] && out[strlen(out) - 1] == '\n' ? "" : "\n");
  /* the missing file's rank fails and rank 0 does not wait (which of the two messages gets
   * out first is a race: the first rank's MPI_Abort may end the other before it prints) */
  assert_true(rc2 != 0 && rc2 != 124);
  if (strstr(out, "dgtd: error"))
    assert_true(strstr(out, "cannot open checkpoint") ||
                strstr(out, "another rank could not read its checkpoint"));
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_ranks_restart_from_one_step_or_not_at_all, setup,
                                      test_scratch_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

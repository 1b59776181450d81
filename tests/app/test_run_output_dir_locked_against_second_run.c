/* Two runs into one output directory: the second fails at once (exit 3) naming the first
 * one's pid, instead of both exiting 0 with a mix of their files; a lock file left by a run
 * that is gone never blocks, and a finished run's directory can be used again. */
#include "test_util.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int setup(void **state) { return test_scratch_setup(state, "out"); }

static const char *exe(void) {
  static char path[256];
  const char *bin = getenv("BIN");
  snprintf(path, sizeof path, "%s/dgtd", bin && *bin ? bin : "bin");
  return path;
}

/* A short run into dir: its exit status, its output in out. */
static int short_run(const char *dir, char *out, size_t cap) {
  char cmd[600];
  snprintf(cmd, sizeof cmd, "%s run --backend ref --box 1 --order 1 --steps 2 --quiet --output %s 2>&1",
           exe(), dir);
  return test_capture(cmd, out, cap);
}

static void second_run_names_the_first(void **state) {
  test_scratch *s = *state;
  if (access(exe(), X_OK) != 0) skip();
  const pid_t first = fork();
  assert_true(first >= 0);
  if (first == 0) {
    freopen("/dev/null", "w", stdout);
    freopen("/dev/null", "w", stderr);
    execl(exe(), exe(), "run", "--backend", "ref", "--box", "2", "--order", "2", "--final-time",
          "100000", "--quiet", "--output", s->path, (char *)NULL);
    _exit(127);
  }
  /* Wait until the first run has locked the directory (its pid in the lock), at most 5 s:
   * then the second run goes ahead anyway, and must still be refused. */
  char lock[300], want[64], text[64] = "";
  snprintf(lock, sizeof lock, "%s/.dgtd-run.lock", s->path);
  snprintf(want, sizeof want, "%ld\n", (long)first);
  for (int i = 0; i < 100 && strcmp(text, want) != 0; ++i) {
    const struct timespec pause = {0, 50000000L};
    nanosleep(&pause, NULL);
    FILE *f = fopen(lock, "r");
    if (!f) continue;
    const size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
  }
  char out[8192];
  const int rc = short_run(s->path, out, sizeof out);
  kill(first, SIGTERM);
  int status = 0;
  assert_int_equal(waitpid(first, &status, 0), first);
  snprintf(want, sizeof want, "in use by another dgtd run (pid %ld", (long)first);
  if (rc != 3 || !strstr(out, want) || !strstr(out, s->path))
    fail_msg("second run into %s: exit %d (want 3), output:\n%s\n(want \"%s\")", s->path, rc, out,
             want);
  /* The first run has ended (SIGTERM): the directory is free again. */
  assert_int_equal(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 128 + SIGTERM);
  if (short_run(s->path, out, sizeof out) != 0) fail_msg("run after the first ended:\n%s", out);
}

static void stale_lock_of_a_dead_process_does_not_block(void **state) {
  test_scratch *s = *state;
  if (access(exe(), X_OK) != 0) skip();
  char dir[300], lock[400], out[8192];
  snprintf(dir, sizeof dir, "%s/stale", s->dir);
  assert_int_equal(mkdir(dir, 0755), 0);
  /* A lock file holding the pid of a process that has exited (killed mid-run, say). */
  const pid_t dead = fork();
  assert_true(dead >= 0);
  if (dead == 0) _exit(0);
  assert_int_equal(waitpid(dead, NULL, 0), dead);
  snprintf(lock, sizeof lock, "%s/.dgtd-run.lock", dir);
  FILE *f = fopen(lock, "w");
  assert_non_null(f);
  fprintf(f, "%ld\n", (long)dead);
  fclose(f);
  if (short_run(dir, out, sizeof out) != 0) fail_msg("run with a stale lock file:\n%s", out);
  /* And again: a finished run leaves the directory free. */
  if (short_run(dir, out, sizeof out) != 0) fail_msg("second run after the first ended:\n%s", out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(second_run_names_the_first),
      cmocka_unit_test(stale_lock_of_a_dead_process_does_not_block),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

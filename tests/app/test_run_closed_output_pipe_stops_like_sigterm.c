/* A run whose stderr (the progress) is a pipe nobody reads any more (`dgtd run 2>&1 |
 * head -1`) stops as on SIGTERM: it finishes the step, writes its logs and exits 141
 * (128 + SIGPIPE) instead of being killed by SIGPIPE mid-run with no logs. */
#include "test_util.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

/* The pulse is one the mesh resolves (frequency 0.5; 2 drew the under-resolution warning),
 * so nothing is written to stderr before the time loop: this is about the loop's writes. */
static const char *dipole_json =
    "{\"mesh\": {\"box\": {\"cells\": [2, 2, 2]}}, \"order\": 1, \"backend\": \"ref\","
    " \"default_boundary\": \"absorbing\","
    " \"sources\": [{\"type\": \"dipole\", \"position\": [0.4, 0.5, 0.55], \"direction\": [0, 0, 1],"
    "   \"pulse\": {\"shape\": \"ricker\", \"frequency\": 0.5, \"delay\": 0.05}}],"
    " \"probes\": [{\"position\": [0.7, 0.5, 0.5]}]}";

static int count_lines(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char line[4096];
  int n = 0;
  while (fgets(line, sizeof line, f)) ++n;
  fclose(f);
  return n;
}

static void closed_stderr_pipe_keeps_the_logs(void **state) {
  test_scratch *s = *state;
  const char *bin = getenv("BIN");
  char exe[256], cfg[300], out[300], path[400];
  snprintf(exe, sizeof exe, "%s/dgtd", bin && *bin ? bin : "bin");
  if (access(exe, X_OK) != 0) skip();
  snprintf(cfg, sizeof cfg, "%s/case.json", s->dir);
  FILE *f = fopen(cfg, "w");
  assert_non_null(f);
  fputs(dipole_json, f);
  fclose(f);
  snprintf(out, sizeof out, "%s/out", s->dir);
  int fd[2];
  assert_int_equal(pipe(fd), 0);
  close(fd[0]); /* the reader is gone before the run starts: its first progress line fails */
  const pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    signal(SIGPIPE, SIG_DFL); /* as from a shell, whatever the test runner does */
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    dup2(fd[1], STDERR_FILENO);
    execl(exe, exe, "run", cfg, "--steps", "200", "--output", out, (char *)NULL);
    _exit(127);
  }
  close(fd[1]);
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  if (WIFSIGNALED(status))
    fail_msg("dgtd was killed by signal %d (want a clean stop, exit 141)", WTERMSIG(status));
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 128 + SIGPIPE);
  /* The logs up to the step it stopped at: the header, t = 0 and at least one step, and
   * not the whole run (it stopped early). */
  snprintf(path, sizeof path, "%s/probes.csv", out);
  const int rows = count_lines(path);
  printf("# probes.csv after the closed pipe: %d lines\n", rows);
  assert_true(rows >= 3);
  assert_true(rows < 200);
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(closed_stderr_pipe_keeps_the_logs),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

/* Nothing computed is lost: the logs reach the disk every few seconds while a run goes on;
 * a run stopped by SIGTERM exits 143 (SIGINT 130) with its probe rows on disk; a blow-up
 * leaves its logs and a last snapshot of the state that blew up; an output path that cannot
 * be a directory is refused before any work; the logs on disk are never behind the last
 * checkpoint; a restart continues from its checkpoint's step (and
 * takes only the steps after it), and its .pvd collection lists the snapshots from before
 * the restart too. */
#include "test_util.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/case.h"
#include "app/simulate.h"
#include "core/clock.h"

static const char *dipole_json =
    "{\"mesh\": {\"box\": {\"cells\": [2, 2, 2]}}, \"order\": 2, \"backend\": \"ref\","
    " \"default_boundary\": \"absorbing\","
    " \"sources\": [{\"type\": \"dipole\", \"position\": [0.4, 0.5, 0.55], \"direction\": [0, 0, 1],"
    "   \"pulse\": {\"shape\": \"ricker\", \"frequency\": 2, \"delay\": 0.05}}],"
    " \"probes\": [{\"position\": [0.7, 0.5, 0.5]}]}";

static int count_lines(const char *path, const char *needle) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char line[4096];
  int n = 0;
  while (fgets(line, sizeof line, f)) n += !needle || strstr(line, needle) != NULL;
  fclose(f);
  return n;
}

/* The last value of the t column (second) of a probes.csv. */
static double last_t(const char *path) {
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  char line[4096];
  double t = -1, x;
  int p;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "%d,%lf", &p, &x) == 2) t = x;
  fclose(f);
  return t;
}

static void sleep_s(double s) {
  struct timespec ts = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
  nanosleep(&ts, NULL);
}

/* Starts `dgtd run CFG --final-time 1000 --output OUT --quiet` (a run far longer than the
 * test) and returns its pid. */
static pid_t start_long_run(const char *exe, const char *cfg, const char *out) {
  const pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    execl(exe, exe, "run", cfg, "--final-time", "1000", "--output", out, "--quiet", (char *)NULL);
    _exit(127);
  }
  return pid;
}

/* While the run pid is alive and nothing has been sent to it, watch path (probes.csv) until
 * `want` commits with different row counts have been seen (at most limit_s); returns how
 * many were, with the wall time of each in at[] and the last count in *lines. */
static int watch_commits(pid_t pid, const char *path, int want, double limit_s, double *at,
                         int *lines) {
  const double t0 = dg_now_s();
  int seen = 0, prev = -1, status;
  while (seen < want && dg_now_s() - t0 < limit_s) {
    const int n = count_lines(path, NULL);
    if (n > 1 && n != prev) {
      at[seen++] = dg_now_s() - t0;
      prev = n;
    }
    if (waitpid(pid, &status, WNOHANG) == pid)
      fail_msg("the run ended by itself (status %d)", status);
    sleep_s(0.05);
  }
  *lines = prev;
  return seen;
}

/* The logs reach the disk every few seconds of a run, not only when it stops: two commits
 * of probes.csv, a few seconds apart, are on disk while the run goes on with no signal sent
 * to it. Then SIGTERM stops it with exit 143 and the rows up to the stop; SIGINT with 130
 * (128 + the signal, docs/RUNNING.md "Exit status"). */
static void logs_reach_disk_while_running_and_signals_exit_128_plus_n(void **state) {
  test_scratch *s = *state;
  const char *bin = getenv("BIN");
  char exe[256], cfg[300], path[400], out[300];
  snprintf(exe, sizeof exe, "%s/dgtd", bin && *bin ? bin : "bin");
  if (access(exe, X_OK) != 0) test_skip("no %s", exe);
  snprintf(cfg, sizeof cfg, "%s/case.json", s->dir);
  FILE *f = fopen(cfg, "w");
  assert_non_null(f);
  fputs(dipole_json, f);
  fclose(f);
  static const int sigs[2] = {SIGTERM, SIGINT};
  for (int i = 0; i < 2; ++i) {
    snprintf(out, sizeof out, "%s/%s", s->dir, i ? "int" : "term");
    snprintf(path, sizeof path, "%s/probes.csv", out);
    const pid_t pid = start_long_run(exe, cfg, out);
    double at[2];
    int lines = 0;
    const int want = i ? 1 : 2; /* the SIGINT run only needs rows to keep */
    const int seen = watch_commits(pid, path, want, 30, at, &lines);
    if (seen < want) {
      kill(pid, SIGKILL);
      waitpid(pid, NULL, 0);
      fail_msg("%d commit(s) of %s seen in 30 s of a running run, want %d", seen, path, want);
    }
    if (want == 2) {
      printf("# probes.csv committed while running at +%.1f s and +%.1f s (%d lines)\n", at[0],
             at[1], lines);
      if (!(at[1] - at[0] <= 5.0))
        fail_msg("commits %.1f s apart: the logs must reach the disk every few seconds",
                 at[1] - at[0]);
    }
    kill(pid, sigs[i]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status))
      fail_msg("signal %d: the run did not exit (status %d)", sigs[i], status);
    printf("# %s: exit %d\n", i ? "SIGINT" : "SIGTERM", WEXITSTATUS(status));
    assert_int_equal(WEXITSTATUS(status), 128 + sigs[i]);
    assert_int_equal(WEXITSTATUS(status), i ? 130 : 143);
    const int rows = count_lines(path, NULL);
    assert_true(rows >= lines);
  }
}

static void blow_up_leaves_logs_and_snapshot(void **state) {
  test_scratch *s = *state;
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, dipole_json, "blowup-test"));
  c.quiet = 1;
  c.cfl = 8;
  c.final_time = 3;
  c.energy_every = 1;
  snprintf(c.output_dir, sizeof c.output_dir, "%s/blowup", s->dir);
  assert_dg_error(dg_run(&c, &r), DG_ERR_NUMERIC, "");
  dg_case_free(&c);
  char path[300];
  snprintf(path, sizeof path, "%s/blowup/probes.csv", s->dir);
  assert_true(count_lines(path, NULL) > 2);
  snprintf(path, sizeof path, "%s/blowup/energy.csv", s->dir);
  assert_true(count_lines(path, NULL) > 2);
  snprintf(path, sizeof path, "%s/blowup/fields.pvd", s->dir);
  assert_int_equal(count_lines(path, "<DataSet"), 1); /* the state that blew up */
}

static void output_path_that_is_a_file(void **state) {
  test_scratch *s = *state;
  char file[300];
  snprintf(file, sizeof file, "%s/plain-file", s->dir);
  FILE *f = fopen(file, "w");
  assert_non_null(f);
  fclose(f);
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, dipole_json, "file-test"));
  c.quiet = 1;
  c.order = 6; /* set-up would take a while: the check must come first */
  snprintf(c.output_dir, sizeof c.output_dir, "%s", file);
  assert_dg_error(dg_run(&c, &r), DG_ERR_IO, "output directory");
  dg_case_free(&c);
}

static void run_steps(const char *dir, int steps, int chk, int vtu, const char *restart,
                      int chk_at) {
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, dipole_json, "restart-pvd-test"));
  c.quiet = 1;
  c.steps = steps;
  c.checkpoint_every = chk;
  c.vtu_every = vtu;
  snprintf(c.output_dir, sizeof c.output_dir, "%s", dir);
  if (restart) snprintf(c.restart, sizeof c.restart, "%s", restart);
  assert_dg_ok(dg_run(&c, &r));
  /* A restart continues from its checkpoint (written at step chk_at) and takes only the
   * steps after it. */
  const int from = restart ? chk_at : 0;
  if (r.first_step != from || r.steps != steps - from)
    fail_msg("first step %d, %d steps taken; want %d and %d", r.first_step, r.steps, from,
             steps - from);
  dg_case_free(&c);
}

static void logs_not_behind_checkpoint_and_pvd_after_restart(void **state) {
  test_scratch *s = *state;
  char dir[300], path[400], chk[400];
  snprintf(dir, sizeof dir, "%s/restart", s->dir);
  run_steps(dir, 10, 10, 5, NULL, 0);
  snprintf(path, sizeof path, "%s/probes.csv", dir);
  snprintf(chk, sizeof chk, "%s/checkpoint.chk", dir);
  const double t10 = last_t(path);
  run_steps(dir, 20, 0, 5, chk, 10);
  /* Snapshots at steps 0, 5, 10 from the first run, 15 and 20 from the second. */
  snprintf(path, sizeof path, "%s/fields.pvd", dir);
  assert_int_equal(count_lines(path, "<DataSet"), 5);
  snprintf(path, sizeof path, "%s/probes.csv", dir);
  assert_true(last_t(path) > t10);
  assert_true(t10 > 0);
}

static int scratch_setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(logs_reach_disk_while_running_and_signals_exit_128_plus_n),
      cmocka_unit_test(blow_up_leaves_logs_and_snapshot),
      cmocka_unit_test(output_path_that_is_a_file),
      cmocka_unit_test(logs_not_behind_checkpoint_and_pvd_after_restart),
  };
  return cmocka_run_group_tests(tests, scratch_setup, test_scratch_teardown);
}

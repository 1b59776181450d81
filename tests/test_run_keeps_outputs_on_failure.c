/* Nothing computed is lost: a run stopped by SIGTERM exits 143 with its probe and energy
 * rows on disk; a blow-up leaves its logs and a last snapshot of the state that blew up;
 * an output path that cannot be a directory is refused before any work; the logs on disk
 * are never behind the last checkpoint; after a restart the .pvd collection lists the
 * snapshots from before the restart too. */
#include "test_util.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/case.h"
#include "app/simulate.h"

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

static void sigterm_keeps_the_logs(void **state) {
  test_scratch *s = *state;
  const char *bin = getenv("BIN");
  char exe[256], cfg[300], cmd[1200], out[300];
  snprintf(exe, sizeof exe, "%s/dgtd", bin && *bin ? bin : "bin");
  if (access(exe, X_OK) != 0) skip();
  snprintf(cfg, sizeof cfg, "%s/case.json", s->dir);
  FILE *f = fopen(cfg, "w");
  assert_non_null(f);
  fputs(dipole_json, f);
  fclose(f);
  snprintf(out, sizeof out, "%s/term", s->dir);
  const pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    execl(exe, exe, "run", cfg, "--final-time", "1000", "--output", out, "--quiet", (char *)NULL);
    _exit(127);
  }
  /* Long enough for the set-up and a few log commits (every ~2 s). */
  sleep(4);
  kill(pid, SIGTERM);
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 128 + SIGTERM);
  snprintf(cmd, sizeof cmd, "%s/probes.csv", out);
  const int rows = count_lines(cmd, NULL);
  printf("# probes.csv after SIGTERM: %d lines\n", rows);
  assert_true(rows > 2);
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

static void run_steps(const char *dir, int steps, int chk, int vtu, const char *restart) {
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
  dg_case_free(&c);
}

static void logs_not_behind_checkpoint_and_pvd_after_restart(void **state) {
  test_scratch *s = *state;
  char dir[300], path[400], chk[400];
  snprintf(dir, sizeof dir, "%s/restart", s->dir);
  run_steps(dir, 10, 10, 5, NULL);
  snprintf(path, sizeof path, "%s/probes.csv", dir);
  snprintf(chk, sizeof chk, "%s/checkpoint.chk", dir);
  const double t10 = last_t(path);
  run_steps(dir, 20, 0, 5, chk);
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
      cmocka_unit_test(sigterm_keeps_the_logs),
      cmocka_unit_test(blow_up_leaves_logs_and_snapshot),
      cmocka_unit_test(output_path_that_is_a_file),
      cmocka_unit_test(logs_not_behind_checkpoint_and_pvd_after_restart),
  };
  return cmocka_run_group_tests(tests, scratch_setup, test_scratch_teardown);
}

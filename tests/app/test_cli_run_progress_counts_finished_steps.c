/* bin/dgtd run's progress lines give the rate of steps done, not of steps queued: a device
 * runs the steps asynchronously, and the first line of a 400-step run (printed after step
 * 1, before the device had finished it) said 2.13e9 DOF/s where the run's rate was 2.5e8.
 * The rate now counts from the first printed step, which also compiled (that line says
 * "-"): every line with a rate must be within 3x of the run's figure (a step's rate varies
 * with the host's load, not by 8x), and the last line has one. A run longer than the
 * progress period (10 s when stderr is not a terminal) prints a line each period: the
 * second line reports (its "wall" figure, seconds since the first line on dgtd's own clock)
 * at least 10 s after the first and not much more, with the steps done by then and their
 * rate. The interval is the one the run reports, not one this test measures: under load the
 * test's own observation came 14.5 s apart (issue 48). */
#include "test_util.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"

static void progress_rates_near_final(void **state) {
  const test_scratch *sc = *state;
  const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
  char cmd[1024];
  /* stderr is a pipe, not a terminal: a line at step 1, then every 10 s, then the last */
  snprintf(cmd, sizeof cmd,
           "%s/dgtd run --box 4 --order 2 --steps 400 --tune never --out %s 2>&1", bin,
           sc->path);
  static char out[1 << 16];
  if (test_capture(cmd, out, sizeof out) != 0) fail_msg("%s failed:\n%s", cmd, out);
  /* the run's figure: "  DOF/s         2.494e+08 (DOFs x RHS evaluations / s)" */
  const char *f = strstr(out, "\n  DOF/s ");
  assert_non_null(f);
  const double final = strtod(f + strlen("\n  DOF/s "), NULL);
  assert_true(final > 0);
  int lines = 0;
  for (const char *l = strstr(out, "  step "); l; l = strstr(l + 1, "  step ")) {
    const char *e = strstr(l, " DOF/s");
    const char *nl = strchr(l, '\n');
    if (!e || (nl && e > nl)) continue;
    const char *b = e;
    while (b > l && b[-1] != ' ') --b;
    if (*b == '-') continue; /* not known yet */
    const double rate = strtod(b, NULL);
    printf("# %.40s... %.3g DOF/s (final %.3g)\n", l + 2, rate, final);
    assert_true(rate > 0);
    assert_true(rate < 3 * final);
    ++lines;
  }
  assert_true(lines >= 1); /* the last step's line */
  assert_non_null(strstr(out, "step 400/400"));
}

static void sleep_s(double s) {
  struct timespec ts = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
  nanosleep(&ts, NULL);
}

/* The first progress line of log (a file the run writes its stderr to) for a step after
 * `after`: its step, rate ("-" gives 0) and total steps; 0 if there is none yet. */
static int step_line(const char *log, int after, int *step, double *rate, int *total,
                     double *wall) {
  static char text[1 << 16];
  FILE *f = fopen(log, "r");
  if (!f) return 0;
  const size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  for (const char *l = strstr(text, "  step "); l; l = strstr(l + 1, "  step ")) {
    const char *nl = strchr(l, '\n');
    if (!nl) break; /* a line being written */
    int k = 0, tot = 0;
    if (sscanf(l, "  step %d/%d", &k, &tot) != 2 || k <= after) continue;
    const char *e = strstr(l, " DOF/s");
    if (!e || e > nl) continue;
    const char *b = e;
    while (b > l && b[-1] != ' ') --b;
    *step = k;
    *total = tot;
    *rate = *b == '-' ? 0 : strtod(b, NULL);
    const char *w = strstr(l, "  wall ");
    *wall = w && w < nl ? strtod(w + 7, NULL) : -1;
    return 1;
  }
  return 0;
}

static void periodic_line_every_ten_seconds(void **state) {
  const test_scratch *sc = *state;
  const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
  char exe[256], log[300];
  snprintf(exe, sizeof exe, "%s/dgtd", bin);
  snprintf(log, sizeof log, "%s.log", sc->path);
  const pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    const int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null = open("/dev/null", O_WRONLY);
    if (fd < 0 || null < 0) _exit(127);
    dup2(fd, STDERR_FILENO);
    dup2(null, STDOUT_FILENO);
    execl(exe, exe, "run", "--box", "4", "--order", "2", "--final-time", "1000", "--tune",
          "never", "--output", sc->path, (char *)NULL);
    _exit(127);
  }
  /* The first line (step 1), then the next: wait up to 60 s in all (a time-out, not a
   * measurement: the interval asserted is the one the run reports). */
  int k1 = 0, k2 = 0, total = 0, total2 = 0;
  double r1 = 0, r2 = 0, w1 = -1, w2 = -1;
  int seen1 = 0, seen2 = 0;
  const double t0 = dg_now_s();
  while (dg_now_s() - t0 < 60 && !seen2) {
    if (!seen1) seen1 = step_line(log, 0, &k1, &r1, &total, &w1);
    if (seen1) seen2 = step_line(log, k1, &k2, &r2, &total2, &w2);
    int status;
    if (waitpid(pid, &status, WNOHANG) == pid) fail_msg("the run ended (status %d)", status);
    sleep_s(0.05);
  }
  kill(pid, SIGTERM);
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  if (!seen1 || !seen2) fail_msg("progress lines: first %s, second %s within 60 s",
                                 seen1 ? "seen" : "missing", seen2 ? "seen" : "missing");
  const double gap = w2 - w1;
  /* The rate of the steps done between the lines, by the run's own interval: 6 fields x 10
   * nodes x 384 elements, 5 RHS evaluations a step. */
  const double step_rate = 6.0 * 10 * 384 * 5 * (k2 - k1) / gap;
  printf("# line 1 at step %d/%d (wall %.2f s), line 2 at step %d/%d (wall %.2f s), %.3g "
         "DOF/s (from its steps %.3g)\n", k1, total, w1, k2, total2, w2, r2, step_rate);
  assert_int_equal(k1, 1);
  assert_int_equal(total2, total);
  assert_true(k2 > k1 && k2 < total);
  assert_true(w1 >= 0 && w1 < 0.01); /* the first line starts the clock */
  /* the period, then the end of the step under way (milliseconds; a loaded host's delay
   * counts on the run's clock too, so the bound is loose) */
  if (!(gap >= 10.0 && gap <= 15.0))
    fail_msg("the second line says %.2f s after the first, want the 10 s period", gap);
  /* its rate is its steps over that interval (printed to 3 and 2 digits) */
  if (!(r2 > 0 && r2 < 1.02 * step_rate && r2 > step_rate / 1.02))
    fail_msg("the line's rate %.3g DOF/s vs %.3g from its steps over its interval", r2,
             step_rate);
}

static int setup(void **state) { return test_scratch_setup(state, "out"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(progress_rates_near_final, setup, test_scratch_teardown),
      cmocka_unit_test_setup_teardown(periodic_line_every_ten_seconds, setup,
                                      test_scratch_teardown)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

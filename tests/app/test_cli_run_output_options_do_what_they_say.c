/* What bin/dgtd run's output options and keys promise (docs/RUNNING.md, docs/CASE_FILE.md),
 * each on a run of a second or two:
 * - `--checkpoint-every Ns` writes a checkpoint every N seconds of wall time: a 0.4 s period
 *   over a run of about 2.5 s gives between 0.6 x and 1 x wall / period checkpoints, and one
 *   at the last step (each interval is at least the period; a step takes milliseconds);
 * - `output.probe_every` K: probe rows at steps 0, K, 2K, ... only, at t = step x dt;
 * - `output.vtu_times`: one snapshot per time, at the step nearest to it (within half a
 *   step), named by that step and listed in fields.pvd with its time; a time at the start
 *   (t = 0) too, and a time at a restart's first step does not hold up the later ones (both
 *   wrote no snapshot at all after them);
 * - `--dump-kernels DIR`: the OpenCL source that was built, with its options, and each
 *   kernel's sizes, for every program of the run;
 * - `--quiet`: nothing on stderr from a run that without it prints its progress;
 * - `--profile`: every kernel launch while stepping is counted under its kernel's name (4
 *   steps of 5 stages: 20 launches of each of the split variant's volume, flux and lift
 *   kernels), each with a positive device time, all of them within the run's wall time,
 *   in the JSON and the text report; without it the JSON has no profile;
 * - `--vtu-every N`: snapshots at steps 0, N, 2N, ... (4 steps, N = 2: 3 of them), and 0
 *   writes none, also where the case asks for them by output.vtu_every and vtu_times. */
#include "test_util.h"

#include <dirent.h>
#include <sys/stat.h>

static const char *bin(void) { return getenv("BIN") && *getenv("BIN") ? getenv("BIN") : "bin"; }

static char out[1 << 16];

/* bin/dgtd ARGS with stdout and stderr (2>&1 or as args redirect) into out; exit status. */
static int dgtd(const char *args) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "%s/dgtd %s", bin(), args);
  return test_capture(cmd, out, sizeof out);
}

/* A number of the --json summary in out. */
static double json_number(const char *key) {
  char k[64];
  snprintf(k, sizeof k, "\"%s\":", key);
  const char *p = strstr(out, k);
  if (!p) fail_msg("no %s in:\n%s", k, out);
  return strtod(p + strlen(k), NULL);
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static void checkpoint_every_seconds_of_wall_time(void **state) {
  const test_scratch *s = *state;
  char args[1024];
  /* The steps of about 2.5 s on this machine, from a 200-step run. */
  snprintf(args, sizeof args, "run --backend ref --box 2 --order 3 --steps 200 --quiet --json "
           "--output %s/calibrate 2>&1", s->dir);
  if (dgtd(args) != 0) fail_msg("dgtd %s:\n%s", args, out);
  const double per_step = json_number("wall_s") / 200;
  int steps = (int)(2.5 / fmax(per_step, 1e-6));
  if (steps < 200) steps = 200;
  const double period = 0.4;
  snprintf(args, sizeof args, "run --backend ref --box 2 --order 3 --steps %d --quiet --json "
           "--checkpoint-every %gs --output %s/chk 2>&1", steps, period, s->dir);
  if (dgtd(args) != 0) fail_msg("dgtd %s:\n%s", args, out);
  const double wall = json_number("wall_s");
  const int n = (int)json_number("checkpoints");
  printf("# %d steps in %.2f s: %d checkpoints every %g s of wall time\n", steps, wall, n, period);
  /* n counts the last step's checkpoint too (written whatever the period) */
  if (!(n >= 2 && n >= 0.6 * wall / period - 1 && n - 1 <= wall / period + 1e-9))
    fail_msg("%d checkpoints in %.2f s, want about one every %g s", n, wall, period);
  char path[300];
  snprintf(path, sizeof path, "%s/chk/checkpoint.chk", s->dir);
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
}

/* Rows of probes.csv: the t column of each (the second), up to cap; returns the count. */
static int probe_times(const char *path, double *t, int cap) {
  FILE *f = fopen(path, "r");
  if (!f) fail_msg("cannot open %s", path);
  char line[4096];
  int n = 0, p;
  double x;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "%d,%lf", &p, &x) == 2 && n < cap) t[n++] = x;
  fclose(f);
  return n;
}

static void probe_every_and_vtu_times(void **state) {
  const test_scratch *s = *state;
  char cfg[300], args[1024], path[400];
  snprintf(cfg, sizeof cfg, "%s/case.json", s->dir);
  write_file(cfg,
      "{\"mesh\": {\"box\": {\"cells\": [2, 2, 2]}}, \"order\": 2, \"backend\": \"ref\","
      " \"default_boundary\": \"absorbing\", \"steps\": 23,"
      " \"sources\": [{\"type\": \"dipole\", \"position\": [0.4, 0.5, 0.55], \"direction\": [0, 0, 1],"
      "   \"pulse\": {\"shape\": \"ricker\", \"frequency\": 1, \"delay\": 0.05}}],"
      " \"probes\": [{\"position\": [0.7, 0.5, 0.5]}],"
      " \"output\": {\"directory\": \"out\", \"probe_every\": 5,"
      "   \"vtu_times\": [0.0, 0.03, 0.1, 0.1234]}}");
  snprintf(args, sizeof args, "run %s --quiet --json 2>&1", cfg);
  if (dgtd(args) != 0) fail_msg("dgtd %s:\n%s", args, out);
  const double dt = json_number("dt");
  assert_int_equal((int)json_number("steps"), 23);
  /* probe_every 5: steps 0, 5, 10, 15, 20 */
  double t[64];
  snprintf(path, sizeof path, "%s/out/probes.csv", s->dir);
  const int n = probe_times(path, t, 64);
  printf("# dt %.6g; %d probe rows\n", dt, n);
  assert_int_equal(n, 5);
  for (int i = 0; i < n; ++i) assert_near(t[i], 5 * i * dt, 1e-12);
  /* vtu_times: the nearest step to each time (t / dt rounded), at most half a step off. */
  const double want[4] = {0.0, 0.03, 0.1, 0.1234};
  assert_int_equal((int)json_number("vtu_snapshots"), 4);
  assert_true(0.1234 < 23 * dt); /* every time within the run */
  snprintf(path, sizeof path, "%s/out/fields.pvd", s->dir);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  char line[1024];
  int k = 0;
  while (fgets(line, sizeof line, f)) {
    const char *ts = strstr(line, "timestep=\"");
    if (!ts) continue;
    assert_true(k < 4);
    const double tv = strtod(ts + 10, NULL);
    const int step = (int)lround(tv / dt);
    char name[64];
    snprintf(name, sizeof name, "fields_%06d.vtu", step);
    printf("# vtu_times[%d] = %g: snapshot at t = %.6g (step %d)\n", k, want[k], tv, step);
    assert_non_null(strstr(line, name));
    assert_near(tv, step * dt, 1e-12);
    if (!(fabs(tv - want[k]) <= 0.5 * dt))
      fail_msg("snapshot %d at t = %.6g for time %g (dt %g)", k, tv, want[k], dt);
    ++k;
  }
  fclose(f);
  assert_int_equal(k, 4);

  /* Across a restart: times at steps 5, 10 (the checkpoint's) and 20; the first run writes
   * 5 and 10, the restarted one 20 (a time due at the restart's first step, written before
   * it, once held up every later one). */
  char json[1024];
  snprintf(json, sizeof json,
      "{\"mesh\": {\"box\": {\"cells\": [2, 2, 2]}}, \"order\": 2, \"backend\": \"ref\","
      " \"default_boundary\": \"absorbing\", \"steps\": 23,"
      " \"sources\": [{\"type\": \"dipole\", \"position\": [0.4, 0.5, 0.55], \"direction\": [0, 0, 1],"
      "   \"pulse\": {\"shape\": \"ricker\", \"frequency\": 1, \"delay\": 0.05}}],"
      " \"output\": {\"directory\": \"out2\", \"vtu_times\": [%.17g, %.17g, %.17g]}}",
      5 * dt, 10 * dt, 20 * dt);
  write_file(cfg, json);
  snprintf(args, sizeof args, "run %s --quiet --steps 10 --checkpoint-every 10 2>&1", cfg);
  if (dgtd(args) != 0) fail_msg("dgtd %s:\n%s", args, out);
  snprintf(args, sizeof args, "run %s --quiet --json --restart %s/out2/checkpoint.chk 2>&1", cfg,
           s->dir);
  if (dgtd(args) != 0) fail_msg("dgtd %s:\n%s", args, out);
  assert_int_equal((int)json_number("vtu_snapshots"), 3); /* the .pvd's: 2 before, 1 after */
  static const int steps[3] = {5, 10, 20};
  for (int i = 0; i < 3; ++i) {
    snprintf(path, sizeof path, "%s/out2/fields_%06d.vtu", s->dir, steps[i]);
    struct stat st;
    if (stat(path, &st) != 0) fail_msg("no %s", path);
  }
}

/* Files in dir whose names end with ext; *with_kernel: how many .cl ones contain __kernel. */
static int count_files(const char *dir, const char *ext, int *with_kernel) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int n = 0;
  if (with_kernel) *with_kernel = 0;
  for (struct dirent *e; (e = readdir(d));) {
    const size_t len = strlen(e->d_name), m = strlen(ext);
    if (len <= m || strcmp(e->d_name + len - m, ext)) continue;
    ++n;
    if (!with_kernel) continue;
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    static char text[1 << 20];
    const size_t got = fread(text, 1, sizeof text - 1, f);
    text[got] = '\0';
    fclose(f);
    *with_kernel += strstr(text, "__kernel") != NULL;
  }
  closedir(d);
  return n;
}

static void dump_kernels_and_quiet(void **state) {
  const test_scratch *s = *state;
  char args[1024], dump[300];
  snprintf(dump, sizeof dump, "%s/kernels", s->dir);
  /* stderr only: the progress and the messages */
  snprintf(args, sizeof args, "run --box 1 --order 1 --steps 3 --tune never --quiet "
           "--dump-kernels %s 2>&1 >/dev/null", dump);
  if (dgtd(args) != 0) fail_msg("dgtd %s:\n%s", args, out);
  assert_string_equal(out, ""); /* --quiet: nothing on stderr */
  int with_kernel = 0;
  const int cl = count_files(dump, ".cl", &with_kernel);
  const int opts = count_files(dump, ".options", NULL);
  const int files = count_files(dump, "", NULL);
  printf("# --dump-kernels: %d files, %d sources (%d with kernels), %d option files\n", files, cl,
         with_kernel, opts);
  assert_true(cl >= 1);
  assert_int_equal(with_kernel, cl);
  assert_int_equal(opts, cl);
  assert_true(files > 2 * cl); /* and the kernels' sizes */
  /* The same run without --quiet prints its progress on stderr. */
  snprintf(args, sizeof args, "run --box 1 --order 1 --steps 3 --tune never 2>&1 >/dev/null");
  if (dgtd(args) != 0) fail_msg("dgtd %s:\n%s", args, out);
  assert_non_null(strstr(out, "step 3/3"));
}

static void profile_counts_every_launch(void **state) {
  (void)state;
  if (dgtd("run --box 2 --order 2 --steps 4 --tune never --quiet --json "
           "--variant work=vec,vw=4,lift=fused-update,prec=float --profile 2>&1") != 0)
    fail_msg("dgtd run --profile:\n%s", out);
  const double wall = json_number("wall_s");
  const char *p = strstr(out, "\"kernel_profile\":[");
  assert_non_null(p);
  int stage_kernels = 0;
  double total = 0;
  for (const char *k = strstr(p, "\"kernel\":\""); k; k = strstr(k + 1, "\"kernel\":\"")) {
    char name[64] = "";
    long launches = 0;
    double secs = -1;
    assert_int_equal(sscanf(k, "\"kernel\":\"%63[^\"]\",\"launches\":%ld,\"seconds\":%lf", name,
                            &launches, &secs), 3);
    printf("# --profile: %-20s %3ld launches %.6f s\n", name, launches, secs);
    assert_true(secs > 0);
    total += secs;
    if (!strncmp(name, "volume", 6) || !strncmp(name, "flux", 4) || !strncmp(name, "liftupdate", 10)) {
      assert_int_equal(launches, 20);
      ++stage_kernels;
    }
  }
  assert_int_equal(stage_kernels, 3);
  assert_true(total <= wall);
  if (dgtd("run --box 2 --order 2 --steps 4 --tune never --quiet --profile 2>&1") != 0)
    fail_msg("dgtd run --profile:\n%s", out);
  assert_non_null(strstr(out, "device time while stepping"));
  if (dgtd("run --box 2 --order 2 --steps 4 --tune never --quiet --json 2>&1") != 0)
    fail_msg("dgtd run:\n%s", out);
  assert_null(strstr(out, "kernel_profile"));
}

static void vtu_every_option(void **state) {
  const test_scratch *s = *state;
  char args[1024], json[400];
  snprintf(args, sizeof args, "run --box 1 --order 1 --steps 4 --tune never --quiet --json "
           "--vtu-every 2 --output %s/v2 2>&1", s->dir);
  if (dgtd(args) != 0) fail_msg("dgtd %s:\n%s", args, out);
  assert_int_equal((int)json_number("vtu_snapshots"), 3);
  snprintf(json, sizeof json, "%s/snap.json", s->dir);
  write_file(json, "{\"order\": 1, \"default_boundary\": \"pec\", \"final_time\": 0.1,\n"
                   " \"initial\": {\"type\": \"cavity_mode\", \"mode\": [1, 1, 1]},\n"
                   " \"output\": {\"directory\": \"out\", \"vtu_every\": 1, \"vtu_times\": [0.05]}}\n");
  snprintf(args, sizeof args, "run %s --tune never --quiet --json --vtu-every 0 --output %s/v0 2>&1",
           json, s->dir);
  if (dgtd(args) != 0) fail_msg("dgtd %s:\n%s", args, out);
  assert_int_equal((int)json_number("vtu_snapshots"), 0);
  snprintf(args, sizeof args, "run %s --tune never --quiet --json --output %s/v1 2>&1", json, s->dir);
  if (dgtd(args) != 0) fail_msg("dgtd %s:\n%s", args, out);
  assert_true(json_number("vtu_snapshots") >= 2); /* the case's own: every step */
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(checkpoint_every_seconds_of_wall_time, setup,
                                      test_scratch_teardown),
      cmocka_unit_test_setup_teardown(probe_every_and_vtu_times, setup, test_scratch_teardown),
      cmocka_unit_test_setup_teardown(dump_kernels_and_quiet, setup, test_scratch_teardown),
      cmocka_unit_test(profile_counts_every_launch),
      cmocka_unit_test_setup_teardown(vtu_every_option, setup, test_scratch_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

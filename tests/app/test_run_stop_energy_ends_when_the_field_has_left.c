/* "stop_energy" ends a run before its final time once every source is over and the field
 * energy is at most that fraction of its peak, so a user need not guess the final time (issue
 * 50): a dipole's Ricker pulse in a box with a PML stops long before final_time = 40, with the
 * energy at most 1e-4 of its peak and the pulse over; the steps up to the stop are those of
 * the same run without stop_energy (the energy log identical row by row), and run.json gives
 * the time it stopped. A field that never decays does not stop: a harmonic dipole (a source
 * that is never over) runs to its final time, and so does a PEC cavity's mode (no source,
 * no loss). Out-of-range fractions are refused. Reference backend, order 1. */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"

/* The 2-cell box [-1, 1]^3 with 1 PML cell around it, a z dipole at the centre with pulse
 * `pulse` (JSON), to final_time 40, stop_energy `stop` (NULL: none), into dir/name. */
static dg_status run_box(const char *dir, const char *name, const char *pulse, const char *stop,
                         dg_run_result *r) {
  char json[1024];
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": {\"lo\": [-1, -1, -1], \"hi\": [1, 1, 1], \"cells\": [2, 2, 2],"
           " \"pml_cells\": 1}}, \"order\": 1, \"backend\": \"ref\", \"default_boundary\": \"pec\","
           " \"final_time\": 40%s%s,"
           " \"sources\": [{\"type\": \"dipole\", \"position\": [0.1, 0.05, 0.02],"
           " \"direction\": [0, 0, 1], \"pulse\": %s}],"
           " \"output\": {\"energy_every\": 5}}",
           stop ? ", \"stop_energy\": " : "", stop ? stop : "", pulse);
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "stop.json"));
  c.quiet = 1;
  snprintf(c.output_dir, sizeof c.output_dir, "%s/%s", dir, name);
  const dg_status st = dg_run(&c, r);
  dg_case_free(&c);
  return st;
}

/* The rows of dir/name/energy.csv (step, t, energy) into rows (at most cap), their count. */
static int read_energy(const char *dir, const char *name, double (*rows)[3], int cap) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s/energy.csv", dir, name);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  char line[256];
  int n = 0;
  assert_non_null(fgets(line, sizeof line, f)); /* header */
  while (n < cap && fgets(line, sizeof line, f))
    if (sscanf(line, "%lf,%lf,%lf", &rows[n][0], &rows[n][1], &rows[n][2]) == 3) ++n;
  fclose(f);
  return n;
}

enum { CAP = 4096 };
static double stopped[CAP][3], full[CAP][3];

static void stops_once_the_pulse_has_left(void **state) {
  test_scratch *s = *state;
  static const char ricker[] = "{\"shape\": \"ricker\", \"frequency\": 1.0}";
  dg_run_result r;
  assert_dg_ok(run_box(s->dir, "stop", ricker, "1e-4", &r));
  print_message("# stopped at t = %g of %g, energy %.3g of its peak, %d steps\n", r.final_time,
                r.planned_time, r.stop_ratio, r.steps);
  assert_true(r.stopped_early);
  assert_true(r.planned_time == 40);
  assert_true(r.final_time < 20); /* the layer absorbs the pulse within a few crossings */
  assert_true(r.stop_ratio > 0 && r.stop_ratio <= 1e-4);
  assert_true(fabs(r.final_time - r.steps * r.dt) < 1e-9 * r.final_time);
  const int n = read_energy(s->dir, "stop", stopped, CAP);
  double peak = 0;
  for (int i = 0; i < n; ++i) peak = fmax(peak, stopped[i][2]);
  assert_true(stopped[n - 1][2] <= 1e-4 * peak);      /* the log's last row agrees */
  assert_true(stopped[n - 1][1] <= r.final_time + 1e-12);
  /* run.json: the time it stopped */
  char path[256], text[4096];
  snprintf(path, sizeof path, "%s/stop/run.json", s->dir);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  const size_t got = fread(text, 1, sizeof text - 1, f);
  text[got] = '\0';
  fclose(f);
  assert_non_null(strstr(text, "\"final_time\":"));
  assert_null(strstr(text, "\"final_time\":\t40,"));

  /* the same run without stop_energy: the same steps up to the stop */
  dg_run_result r2;
  assert_dg_ok(run_box(s->dir, "full", ricker, NULL, &r2));
  assert_false(r2.stopped_early);
  assert_true(r2.final_time == 40);
  assert_true(r2.dt == r.dt);
  const int m = read_energy(s->dir, "full", full, CAP);
  assert_true(m > n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 3; ++j) assert_true(stopped[i][j] == full[i][j]);
}

static void never_stops_without_decay(void **state) {
  test_scratch *s = *state;
  dg_run_result r;
  /* a harmonic source is never over */
  assert_dg_ok(run_box(s->dir, "harmonic", "{\"shape\": \"harmonic\", \"frequency\": 0.5}",
                       "0.5", &r));
  assert_false(r.stopped_early);
  assert_true(fabs(r.final_time - 40) < 1e-9);
  /* a lossless cavity's mode: no source, the energy stays at its peak */
  dg_case c;
  dg_case_default(&c);
  c.backend = DG_BACKEND_REF;
  c.order = 1;
  c.final_time = 2;
  c.stop_energy = 0.5;
  c.quiet = 1;
  snprintf(c.output_dir, sizeof c.output_dir, "%s/cavity", s->dir);
  assert_dg_ok(dg_run(&c, &r));
  dg_case_free(&c);
  assert_false(r.stopped_early);
  assert_true(fabs(r.final_time - 2) < 1e-9);
}

static void bad_fractions_refused(void **state) {
  (void)state;
  static const char *const bad[] = {"0", "1", "1.5", "-1e-6"};
  for (int i = 0; i < 4; ++i) {
    char json[128];
    snprintf(json, sizeof json, "{\"stop_energy\": %s}", bad[i]);
    dg_case c;
    dg_case_default(&c);
    dg_error_clear();
    assert_int_equal(dg_case_parse(&c, json, "case.json"), DG_ERR_INPUT);
    assert_non_null(strstr(dg_error_message(), "stop_energy"));
    dg_case_free(&c);
  }
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(stops_once_the_pulse_has_left),
      cmocka_unit_test(never_stops_without_decay),
      cmocka_unit_test(bad_fractions_refused),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

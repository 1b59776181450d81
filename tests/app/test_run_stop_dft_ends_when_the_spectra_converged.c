/* "stop_dft" ends a run once every source is over and the DFT sums changed by at most that
 * fraction over the last period of the lowest frequency (issue 50: the answer, not the
 * energy, decides): a dipole's Ricker pulse in a PML box with probe spectra at f = 0.5, 1, 1.5
 * stops long before final_time = 40, with the change it reports at most stop_dft, and its
 * spectra agree with the full run's to 1e-3 at every frequency (the quantity the criterion
 * promises); with stop_energy as well, the run stops no earlier than with either alone.
 * Refused: stop_dft without a "dft" section, fractions outside (0, 1). Reference backend. */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"

static dg_status run_box(const char *dir, const char *name, const char *stop, dg_run_result *r) {
  char json[1536];
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": {\"lo\": [-1, -1, -1], \"hi\": [1, 1, 1], \"cells\": [2, 2, 2],"
           " \"pml_cells\": 1}}, \"order\": 2, \"backend\": \"ref\", \"default_boundary\": \"pec\","
           " \"final_time\": 40%s,"
           " \"sources\": [{\"type\": \"dipole\", \"position\": [0.1, 0.05, 0.02],"
           " \"direction\": [0, 0, 1], \"pulse\": {\"shape\": \"ricker\", \"frequency\": 1.0}}],"
           " \"probes\": [{\"name\": \"p\", \"position\": [0.5, 0.3, 0.2]}],"
           " \"dft\": {\"frequencies\": [0.5, 1.0, 1.5], \"probes\": true}}",
           stop);
  dg_case c;
  dg_case_default(&c);
  dg_status st = dg_case_parse(&c, json, "stop_dft.json");
  if (st == DG_OK) {
    c.quiet = 1;
    snprintf(c.output_dir, sizeof c.output_dir, "%s/%s", dir, name);
    st = dg_run(&c, r);
  }
  dg_case_free(&c);
  return st;
}

/* spectra.csv of dir/name: the 12 re/im values of each of the 3 frequencies */
static void read_spectra(const char *dir, const char *name, double v[3][12]) {
  char path[512], line[2048];
  snprintf(path, sizeof path, "%s/%s/spectra.csv", dir, name);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  assert_non_null(fgets(line, sizeof line, f));
  for (int i = 0; i < 3; ++i) {
    assert_non_null(fgets(line, sizeof line, f));
    double x[26];
    char *p = line;
    for (int j = 0; j < 26; ++j) {
      x[j] = strtod(p, &p);
      if (*p == ',') ++p;
    }
    for (int fld = 0; fld < 6; ++fld) v[i][2 * fld] = x[2 + 4 * fld], v[i][2 * fld + 1] = x[3 + 4 * fld];
  }
  fclose(f);
}

static void stops_once_the_spectra_converged(void **state) {
  test_scratch *s = *state;
  dg_run_result stop, full, both;
  assert_dg_ok(run_box(s->dir, "stop", ", \"stop_dft\": 1e-3", &stop));
  assert_dg_ok(run_box(s->dir, "full", "", &full));
  print_message("# stopped at t = %g of %g, DFT change %.3g in the last period, energy %.3g of "
                "its peak\n", stop.final_time, stop.planned_time, stop.stop_dft_change,
                stop.stop_ratio);
  assert_true(stop.stopped_early && !full.stopped_early);
  assert_true(stop.final_time < 20 && stop.planned_time == 40);
  assert_true(stop.stop_dft_change > 0 && stop.stop_dft_change <= 1e-3);
  double a[3][12], b[3][12];
  read_spectra(s->dir, "stop", a);
  read_spectra(s->dir, "full", b);
  for (int i = 0; i < 3; ++i) {
    double d = 0, n = 0;
    for (int j = 0; j < 12; ++j) d += (a[i][j] - b[i][j]) * (a[i][j] - b[i][j]), n += b[i][j] * b[i][j];
    print_message("# frequency %d: spectra at the stop within %.2e of the full run's\n", i,
                  sqrt(d / n));
    assert_true(n > 0 && sqrt(d / n) < 1e-3);
  }
  assert_dg_ok(run_box(s->dir, "both", ", \"stop_dft\": 1e-3, \"stop_energy\": 1e-12", &both));
  assert_true(both.stopped_early && both.final_time >= stop.final_time);
  assert_true(both.stop_ratio <= 1e-12);
}

static void refused(void **state) {
  test_scratch *s = *state;
  dg_case c;
  dg_case_default(&c);
  assert_dg_error(dg_case_parse(&c, "{\"stop_dft\": 1e-3}", "x.json"), DG_ERR_INPUT,
                  "no \"dft\" section");
  dg_case_free(&c);
  dg_run_result r;
  assert_dg_error(run_box(s->dir, "bad", ", \"stop_dft\": 2", &r), DG_ERR_INPUT, "in (0, 1)");
  assert_dg_error(run_box(s->dir, "bad", ", \"stop_dft\": 0", &r), DG_ERR_INPUT, "stop_dft");
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(stops_once_the_spectra_converged),
                                     cmocka_unit_test(refused)};
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

/* CSV series (energy and probe logs): a commit writes the header and every row so far,
 * values read back bit-exactly; a restart resumes the rows up to the checkpoint from the
 * file; a file with another header or a malformed row is DG_ERR_PARSE naming file:line. */
#include "test_util.h"

#include <unistd.h>

#include "dg/maxwell.h"
#include "io/probe.h"
#include "io/series.h"

typedef test_scratch fixture;

static int setup(void **state) { return test_scratch_setup(state, "log.csv"); }
static int teardown(void **state) { return test_scratch_teardown(state); }

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  static char buf[1 << 16];
  const size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

static void put(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static void energy_log_commits_and_resumes(void **state) {
  fixture *fx = *state;
  dg_series *s = NULL;
  assert_dg_ok(dg_energy_log_create(&s, fx->path));
  assert_int_equal(access(fx->path, F_OK), -1); /* nothing written before a commit */
  for (int step = 0; step < 5; step++) {
    const double row[3] = {step, 0.1 * step, 1.0 / 3.0 + step};
    assert_dg_ok(dg_series_append(s, row));
  }
  assert_dg_ok(dg_series_commit(s));
  const char *text = slurp(fx->path);
  const char *head = "step,t,energy\n0,0,0.33333333333333331\n1,0.10000000000000001,";
  assert_true(strncmp(text, head, strlen(head)) == 0);
  dg_series_destroy(&s);
  assert_null(s);

  /* Restart from a checkpoint at step 2: rows 0..2 come back, bit for bit. */
  assert_dg_ok(dg_energy_log_create(&s, fx->path));
  assert_dg_ok(dg_series_resume(s, "step", 2));
  assert_int_equal(dg_series_rows(s), 3);
  for (int i = 0; i < 3; i++) {
    const double *row = dg_series_row(s, i);
    assert_true(row[0] == i && row[1] == 0.1 * i && row[2] == 1.0 / 3.0 + i);
  }
  const double next[3] = {3, 0.3, 9};
  assert_dg_ok(dg_series_append(s, next));
  assert_dg_ok(dg_series_commit(s));
  assert_non_null(strstr(slurp(fx->path), "\n3,0.29999999999999999,9\n"));
  assert_null(strstr(slurp(fx->path), "\n4,"));
  dg_series_destroy(&s);

  /* No file yet: resume starts empty. */
  char missing[160];
  snprintf(missing, sizeof missing, "%s/none.csv", fx->dir);
  assert_dg_ok(dg_energy_log_create(&s, missing));
  assert_dg_ok(dg_series_resume(s, "t", 1e9));
  assert_int_equal(dg_series_rows(s), 0);
  assert_dg_error(dg_series_resume(s, "nope", 0), DG_ERR_INPUT, "no column \"nope\"");
  dg_series_destroy(&s);
}

static void probe_log_has_one_row_per_probe_and_time(void **state) {
  fixture *fx = *state;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  dg_mesh *m = NULL;
  dg_refel *r = NULL;
  dg_geom *g = NULL;
  dg_probes *p = NULL;
  dg_series *log = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, 1, 1, 1));
  assert_dg_ok(dg_refel_create(&r, 2));
  assert_dg_ok(dg_geom_create(&g, m, r));
  const double pts[6] = {0.2, 0.3, 0.4, 0.9, 0.1, 0.5};
  assert_dg_ok(dg_probes_create(&p, g, 2, pts));
  assert_dg_ok(dg_probe_log_create(&log, fx->path));
  const size_t KNp = (size_t)m->K * r->Np;
  double *q = calloc(6 * KNp, sizeof *q);
  for (int step = 0; step < 3; step++) {
    for (size_t i = 0; i < 6 * KNp; i++) q[i] = step + (double)(i / KNp); /* field f = step+f */
    assert_dg_ok(dg_probes_record(p, 0.5 * step, q, log));
  }
  assert_dg_ok(dg_series_commit(log));
  const char *text = slurp(fx->path);
  const char *head = "probe,t,Ex,Ey,Ez,Hx,Hy,Hz\n";
  assert_true(strncmp(text, head, strlen(head)) == 0);
  int lines = 0;
  for (const char *c = text; *c; c++) lines += *c == '\n';
  assert_int_equal(lines, 1 + 3 * 2);
  /* Read back: rows by time, probe index fastest; constant fields come out as constants. */
  dg_series *back = NULL;
  assert_dg_ok(dg_probe_log_create(&back, fx->path));
  assert_dg_ok(dg_series_resume(back, "t", 1e9));
  assert_int_equal(dg_series_rows(back), 6);
  for (int i = 0; i < 6; i++) {
    const double *row = dg_series_row(back, i);
    const int step = i / 2;
    assert_true(row[0] == i % 2 && row[1] == 0.5 * step);
    for (int f = 0; f < 6; f++) assert_near(row[2 + f], step + f, 1e-13);
  }
  dg_series_destroy(&back);

  /* The energy log's series is not a probe log. */
  dg_series *energy = NULL;
  assert_dg_ok(dg_energy_log_create(&energy, fx->path));
  assert_dg_error(dg_probes_record(p, 0, q, energy), DG_ERR_INTERNAL, "columns");
  /* Nor does its header match the file on resume. */
  assert_dg_error(dg_series_resume(energy, "t", 1), DG_ERR_PARSE, ":1: header");
  dg_series_destroy(&energy);

  free(q);
  dg_series_destroy(&log);
  dg_probes_destroy(&p);
  dg_geom_destroy(&g);
  dg_refel_destroy(&r);
  dg_mesh_destroy(&m);
}

static void malformed_rows_are_parse_errors(void **state) {
  fixture *fx = *state;
  dg_series *s = NULL;
  assert_dg_ok(dg_energy_log_create(&s, fx->path));
  put(fx->path, "step,t,energy\n0,0,1\n1,0.1,x\n");
  char where[160];
  snprintf(where, sizeof where, "%s:3:", fx->path);
  assert_dg_error(dg_series_resume(s, "step", 10), DG_ERR_PARSE, where);
  assert_int_equal(dg_series_rows(s), 0);
  put(fx->path, "step,t,energy\n0,0,1,7\n");
  snprintf(where, sizeof where, "%s:2:", fx->path);
  assert_dg_error(dg_series_resume(s, "step", 10), DG_ERR_PARSE, where);
  put(fx->path, "step,t,energy\r\n0,0,1\r\n\n1,0.5,2\r\n"); /* CRLF and blank lines are fine */
  assert_dg_ok(dg_series_resume(s, "step", 10));
  assert_int_equal(dg_series_rows(s), 2);
  put(fx->path, "");
  assert_dg_error(dg_series_resume(s, "step", 10), DG_ERR_PARSE, "empty file");
  const char *bad_names[] = {"a,b"};
  dg_series *t = NULL;
  assert_dg_error(dg_series_create(&t, fx->path, 1, bad_names), DG_ERR_INPUT, "column 0");
  assert_null(t);
  dg_series_destroy(&s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(energy_log_commits_and_resumes, setup, teardown),
      cmocka_unit_test_setup_teardown(probe_log_has_one_row_per_probe_and_time, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(malformed_rows_are_parse_errors, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

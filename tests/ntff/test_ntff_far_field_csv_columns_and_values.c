/* far_field.csv (io/farfield.h) from the exact fields of a z dipole on a box: the header,
 * one row per frequency and direction, the directivity column 1.5 sin^2(theta) (1e-9) and
 * its dBi, |E_theta| = k |I l| sin(theta) / (4 pi) with the phase of i I l (1e-6 deg), and
 * in RCS mode 4 pi |F|^2 / |E_inc|^2; the summary's maximum; bad inputs refused. */
#include "test_util.h"

#include "io/farfield.h"
#include "ntff_util.h"

static const double pi = 3.14159265358979323846;

typedef test_scratch fixture;
static int setup(void **state) { return test_scratch_setup(state, "far_field.csv"); }
static int teardown(void **state) { return test_scratch_teardown(state); }

static dg_surface_dft *dipole_box(const double complex Il, int nf, const double *freq) {
  const double lo[3] = {-0.5, -0.5, -0.5}, hi[3] = {0.5, 0.5, 0.5}, x0[3] = {0, 0, 0};
  const double complex p[3] = {0, 0, Il};
  dg_surface_dft *s = ntff_surface_box(lo, hi, 3, 8, nf, freq);
  for (int i = 0; i < nf; i++) ntff_add_dipole(s, i, x0, p);
  return s;
}

static void test_directivity_rows(void **state) {
  fixture *fx = *state;
  const double freq[2] = {0.8, 1.1}, origin[3] = {0, 0, 0};
  const double complex Il = 0.5 - 0.25 * I;
  dg_surface_dft *s = dipole_box(Il, 2, freq);
  dg_ntff_dirs d = {0};
  assert_dg_ok(dg_ntff_dirs_add_plane(&d, "xz", 30));
  assert_dg_ok(dg_ntff_dirs_add_plane(&d, "xy", 90));
  dg_ff_summary sum[2];
  assert_dg_ok(dg_far_field_write(fx->path, s, &d, origin, DG_FF_DIRECTIVITY, NULL, sum));
  FILE *f = fopen(fx->path, "r");
  assert_non_null(f);
  char line[1024];
  assert_non_null(fgets(line, sizeof line, f));
  assert_string_equal(line, "freq,plane,cut_deg,theta_deg,phi_deg,Etheta_abs,Etheta_phase_deg,"
                            "Ephi_abs,Ephi_phase_deg,directivity,directivity_dbi,prad\n");
  int rows = 0;
  double worst_d = 0, worst_e = 0, worst_ph = 0;
  while (fgets(line, sizeof line, f)) {
    double fr, cut, th, ph, ea, ep, pa, pp, D, Ddb, P;
    char plane[16];
    assert_int_equal(sscanf(line, "%lf,%15[^,],%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &fr,
                            plane, &cut, &th, &ph, &ea, &ep, &pa, &pp, &D, &Ddb, &P), 12);
    const int i = rows / d.n, j = rows % d.n;
    assert_near(fr, freq[i], 0);
    assert_string_equal(plane, d.plane[j]);
    assert_near(cut, d.cut[j], 1e-9);
    const double st = sin(th * pi / 180), k = 2 * pi * fr;
    worst_d = fmax(worst_d, fabs(D - 1.5 * st * st));
    if (st > 1e-6) assert_near(Ddb, 10 * log10(D), 1e-5);
    worst_e = fmax(worst_e, fabs(ea - k * cabs(Il) * st / (4 * pi)) / (k * cabs(Il) / (4 * pi)));
    /* F_theta = i k I l sin(theta) / (4 pi): phase of i I l where sin(theta) > 0. */
    if (st > 0.1) {
      double want = carg(I * Il) * 180 / pi, diff = fmod(ep - want + 540, 360) - 180;
      worst_ph = fmax(worst_ph, fabs(diff));
    }
    assert_true(pa < 1e-9 * k);
    assert_near(P / (k * k * cabs(Il) * cabs(Il) / (12 * pi)), 1, 1e-9);
    rows++;
  }
  fclose(f);
  printf("# %d rows: max |D - 1.5 sin^2| = %.2e, |E_theta| rel. error %.2e, phase %.2e deg\n",
         rows, worst_d, worst_e, worst_ph);
  assert_int_equal(rows, 2 * d.n);
  assert_true(worst_d < 1e-9);
  assert_true(worst_e < 1e-9);
  assert_true(worst_ph < 1e-6);
  for (int i = 0; i < 2; i++) {
    assert_near(sum[i].freq, freq[i], 0);
    assert_near(sum[i].max_value, 1.5, 1e-9);
    assert_near(sum[i].max_theta, 90, 1e-9);
  }
  dg_ntff_dirs_free(&d);
  ntff_surface_free(s);
}

static void test_rcs_rows_and_refusals(void **state) {
  fixture *fx = *state;
  const double freq[1] = {1.0}, origin[3] = {0, 0, 0};
  const double complex Il = 2.0;
  dg_surface_dft *s = dipole_box(Il, 1, freq);
  dg_ntff_dirs d = {0};
  assert_dg_ok(dg_ntff_dirs_add_plane(&d, "yz", 90));
  const double E2[1] = {0.25};
  dg_ff_summary sum;
  assert_dg_ok(dg_far_field_write(fx->path, s, &d, origin, DG_FF_RCS, E2, &sum));
  /* +y (cut 90): theta = 90, |F| = k |Il| / (4 pi), sigma = 4 pi |F|^2 / 0.25. */
  const double k = 2 * pi, Fm = k * 2 / (4 * pi), want = 4 * pi * Fm * Fm / 0.25;
  assert_near(sum.max_value / want, 1, 1e-9);
  assert_near(sum.max_theta, 90, 1e-9);
  FILE *f = fopen(fx->path, "r");
  char line[1024];
  assert_non_null(fgets(line, sizeof line, f));
  assert_non_null(strstr(line, ",rcs,rcs_dbsm\n"));
  assert_non_null(fgets(line, sizeof line, f));
  assert_non_null(fgets(line, sizeof line, f)); /* cut 90 */
  double v[11];
  char plane[16];
  assert_int_equal(sscanf(line, "%lf,%15[^,],%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &v[0], plane,
                          &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]), 11);
  assert_near(v[9] / want, 1, 1e-9);
  assert_near(v[10], 10 * log10(want), 1e-5);
  fclose(f);
  const double bad[1] = {0};
  assert_dg_error(dg_far_field_write(fx->path, s, &d, origin, DG_FF_RCS, bad, NULL),
                  DG_ERR_INPUT, "incident amplitude");
  /* No source inside: zero fields, no power, no directivity. */
  memset(s->re, 0, 6 * sizeof(double) * s->npts);
  memset(s->im, 0, 6 * sizeof(double) * s->npts);
  assert_dg_error(dg_far_field_write(fx->path, s, &d, origin, DG_FF_DIRECTIVITY, NULL, NULL),
                  DG_ERR_INPUT, "enclose the source");
  dg_ntff_dirs_free(&d);
  ntff_surface_free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_directivity_rows),
      cmocka_unit_test(test_rcs_rows_and_refusals),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

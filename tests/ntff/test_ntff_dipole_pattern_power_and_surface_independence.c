/* Near-to-far-field transform without time stepping: the exact frequency-domain fields of
 * Hertzian dipoles (tests/ntff/ntff_util.h) on closed surfaces of quadrature points. The
 * transform must give the dipole's far field (pattern sin(theta) and its phase), the
 * radiated power P = eta k^2 |I l|^2 / (12 pi), the directivity 1.5, and the same answer on
 * surfaces of other shapes, sizes and positions (the equivalence principle is exact for any
 * closed surface holding the sources; only the quadrature differs). */
#include "test_util.h"

#include "dg/ntff.h"
#include "ntff_util.h"

static const double pi = 3.14159265358979323846;

/* The exact far-field amplitude F (E = F e^{-ikr}/r) of dipoles p_j at x_j, direction (t, f):
 * F = -i k / (4 pi) sum_j (p_j - (p_j.r^) r^) e^{i k r^.x_j}, projected on theta^, phi^. */
static void exact_far(double freq, int nd, const double (*x0)[3], const double complex (*p)[3],
                      double t, double f, double complex *Ft, double complex *Fp) {
  double r[3], th[3], ph[3], k = 2 * pi * freq;
  dg_ntff_basis(t, f, r, th, ph);
  *Ft = *Fp = 0;
  for (int j = 0; j < nd; j++) {
    double complex e = cexp(I * k * (r[0] * x0[j][0] + r[1] * x0[j][1] + r[2] * x0[j][2]));
    for (int c = 0; c < 3; c++) {
      *Ft += -I * k / (4 * pi) * p[j][c] * th[c] * e;
      *Fp += -I * k / (4 * pi) * p[j][c] * ph[c] * e;
    }
  }
}

/* A z dipole at the origin on a box: |F_theta| = k |I l| sin(theta) / (4 pi), F_phi = 0, with
 * F_theta's phase; P and the directivity against the closed forms. Two frequencies (the
 * surface holds both) so the frequency index is exercised. */
static void test_z_dipole_pattern_power_directivity(void **state) {
  (void)state;
  const double freq[2] = {0.7, 1.3}, lo[3] = {-0.6, -0.6, -0.6}, hi[3] = {0.6, 0.6, 0.6};
  const double x0[1][3] = {{0, 0, 0}}, origin[3] = {0, 0, 0};
  const double complex Il = 0.3 + 0.2 * I, p[1][3] = {{0, 0, Il}};
  dg_surface_dft *s = ntff_surface_box(lo, hi, 4, 8, 2, freq);
  ntff_add_dipole(s, 0, x0[0], p[0]);
  ntff_add_dipole(s, 1, x0[0], p[0]);
  dg_ntff_dirs d = {0};
  assert_dg_ok(dg_ntff_dirs_add_plane(&d, "xz", 7.5));
  assert_dg_ok(dg_ntff_dirs_add_sphere(&d, 20, 40));
  double *F = malloc((size_t)d.n * 4 * sizeof *F);
  for (int i = 0; i < 2; i++) {
    const double k = 2 * pi * freq[i];
    assert_dg_ok(dg_ntff_far_field(s, i, origin, d.n, d.theta, d.phi, F));
    const double Fmax = k * cabs(Il) / (4 * pi);
    double err_pat = 0, err_phase = 0, max_phi = 0;
    for (int j = 0; j < d.n; j++) {
      const double mag = sqrt(dg_ntff_abs2(F + 4 * j));
      err_pat = fmax(err_pat, fabs(mag - Fmax * sin(d.theta[j])) / Fmax);
      double complex Ft, Fp;
      exact_far(freq[i], 1, x0, p, d.theta[j], d.phi[j], &Ft, &Fp);
      err_phase = fmax(err_phase, cabs(F[4 * j] + I * F[4 * j + 1] - Ft) / Fmax);
      max_phi = fmax(max_phi, hypot(F[4 * j + 2], F[4 * j + 3]) / Fmax);
    }
    double P;
    assert_dg_ok(dg_ntff_radiated_power(s, i, &P));
    const double P_exact = k * k * cabs(Il) * cabs(Il) / (12 * pi);
    /* Directivity on the equator (theta = 90 deg: direction index 12 of the xz cut). */
    assert_near(d.theta[12], pi / 2, 1e-14);
    const double D = dg_ntff_directivity(F + 4 * 12, P);
    printf("# f = %.2f: pattern error %.2e, complex F error %.2e, |F_phi| %.2e, "
           "P/P_exact - 1 = %.2e, D = %.12f\n",
           freq[i], err_pat, err_phase, max_phi, P / P_exact - 1, D);
    assert_true(err_pat < 1e-9);
    assert_true(err_phase < 1e-9);
    assert_true(max_phi < 1e-9);
    assert_near(P / P_exact, 1, 1e-9);
    assert_near(D, 1.5, 1e-8);
  }
  free(F);
  dg_ntff_dirs_free(&d);
  ntff_surface_free(s);
}

/* Two dipoles of arbitrary complex orientation, off the origin (so F has both components
 * and a direction-dependent phase): the transform on two different boxes (one off-centre)
 * and a sphere agrees with the exact F and with each other; the power on each surface is
 * the same. A coarse quadrature on the small box must show a visible error, so the test
 * sees the quadrature at all. */
static void test_any_surface_gives_the_same_far_field(void **state) {
  (void)state;
  const double freq[1] = {1.0}, origin[3] = {0.05, 0, -0.02};
  const double x0[2][3] = {{0.1, -0.05, 0.2}, {-0.15, 0.1, -0.1}};
  const double complex p[2][3] = {{0.3, -0.5 * I, 0.8}, {0.2 + 0.1 * I, 0.4, -0.3 * I}};
  const double lo1[3] = {-0.5, -0.5, -0.5}, hi1[3] = {0.5, 0.5, 0.5};
  const double lo2[3] = {-0.9, -1.3, -0.8}, hi2[3] = {1.4, 0.9, 1.1};
  const double c[3] = {0.02, -0.03, 0.01};
  dg_surface_dft *surf[4] = {
      ntff_surface_box(lo1, hi1, 4, 8, 1, freq),
      ntff_surface_box(lo2, hi2, 6, 8, 1, freq),
      ntff_surface_sphere(c, 0.9, 40, 80, 1, freq),
      ntff_surface_box(lo1, hi1, 1, 3, 1, freq),  /* coarse: 9 points per face */
  };
  const char *name[4] = {"box 1", "box 2", "sphere", "coarse box"};
  dg_ntff_dirs d = {0};
  assert_dg_ok(dg_ntff_dirs_add_sphere(&d, 15, 30));
  assert_dg_ok(dg_ntff_dirs_add_plane(&d, "yz", 30));
  double *F[4];
  double P[4], Fmax = 0;
  for (int j = 0; j < d.n; j++) {
    double complex Ft, Fp;
    exact_far(freq[0], 2, x0, p, d.theta[j], d.phi[j], &Ft, &Fp);
    Fmax = fmax(Fmax, sqrt(cabs(Ft) * cabs(Ft) + cabs(Fp) * cabs(Fp)));
  }
  for (int m = 0; m < 4; m++) {
    for (int j = 0; j < 2; j++) ntff_add_dipole(surf[m], 0, x0[j], p[j]);
    F[m] = malloc((size_t)d.n * 4 * sizeof *F[m]);
    assert_dg_ok(dg_ntff_far_field(surf[m], 0, origin, d.n, d.theta, d.phi, F[m]));
    assert_dg_ok(dg_ntff_radiated_power(surf[m], 0, &P[m]));
    double err = 0, diff = 0;
    for (int j = 0; j < d.n; j++) {
      double complex Ft, Fp;
      exact_far(freq[0], 2, x0, p, d.theta[j], d.phi[j], &Ft, &Fp);
      /* F is referred to `origin`: the exact one to 0; shift the phase. */
      double r[3], th[3], ph[3];
      dg_ntff_basis(d.theta[j], d.phi[j], r, th, ph);
      double complex sh =
          cexp(-I * 2 * pi * freq[0] * (r[0] * origin[0] + r[1] * origin[1] + r[2] * origin[2]));
      double complex et = F[m][4 * j] + I * F[m][4 * j + 1] - Ft * sh;
      double complex ep = F[m][4 * j + 2] + I * F[m][4 * j + 3] - Fp * sh;
      err = fmax(err, sqrt(cabs(et) * cabs(et) + cabs(ep) * cabs(ep)) / Fmax);
      double dd = 0;
      for (int q = 0; q < 4; q++) dd += (F[m][4 * j + q] - F[0][4 * j + q]) * (F[m][4 * j + q] - F[0][4 * j + q]);
      diff = fmax(diff, sqrt(dd) / Fmax);
    }
    printf("# %-10s %5d points: max |F - F_exact| / max|F| = %.2e, vs box 1 %.2e, P = %.12f\n",
           name[m], surf[m]->npts, err, diff, P[m]);
    if (m < 3) {
      assert_true(err < 1e-8);
      assert_true(diff < 1e-8);
      assert_near(P[m] / P[0], 1, 1e-8);
    } else {
      assert_true(err > 1e-4); /* the coarse rule does not resolve the phase */
    }
  }
  for (int m = 0; m < 4; m++) free(F[m]), ntff_surface_free(surf[m]);
  dg_ntff_dirs_free(&d);
}

/* The cut planes: directions, in-plane angles and the bad inputs. */
static void test_cut_directions_and_bad_input(void **state) {
  (void)state;
  dg_ntff_dirs d = {0};
  assert_dg_ok(dg_ntff_dirs_add_plane(&d, "xy", 90));
  assert_dg_ok(dg_ntff_dirs_add_plane(&d, "xz", 90));
  assert_dg_ok(dg_ntff_dirs_add_plane(&d, "yz", 90));
  assert_int_equal(d.n, 12);
  /* xy: +x, +y, -x, -y; xz: +z, +x, -z, -x; yz: +z, +y, -z, -y. */
  const double want[12][3] = {{1, 0, 0}, {0, 1, 0}, {-1, 0, 0}, {0, -1, 0},
                              {0, 0, 1}, {1, 0, 0}, {0, 0, -1}, {-1, 0, 0},
                              {0, 0, 1}, {0, 1, 0}, {0, 0, -1}, {0, -1, 0}};
  for (int j = 0; j < 12; j++) {
    double r[3], th[3], ph[3];
    dg_ntff_basis(d.theta[j], d.phi[j], r, th, ph);
    for (int c = 0; c < 3; c++) assert_near(r[c], want[j][c], 1e-15);
    assert_near(d.cut[j], 90.0 * (j % 4), 0);
  }
  assert_string_equal(d.plane[5], "xz");
  /* theta^ stays in the cut's plane on the axis too (xz: theta^ along x at +z). */
  double r[3], th[3], ph[3];
  dg_ntff_basis(d.theta[4], d.phi[4], r, th, ph);
  assert_near(th[0], 1, 1e-15);
  dg_ntff_basis(d.theta[8], d.phi[8], r, th, ph);
  assert_near(th[1], 1, 1e-15);
  assert_dg_ok(dg_ntff_dirs_add_sphere(&d, 45, 90));
  assert_int_equal(d.n, 12 + 5 * 4);
  assert_dg_error(dg_ntff_dirs_add_plane(&d, "xx", 10), DG_ERR_INPUT, "\"xx\"");
  assert_dg_error(dg_ntff_dirs_add_plane(&d, "xy", 0), DG_ERR_INPUT, "step");
  assert_dg_error(dg_ntff_dirs_add_sphere(&d, 10, -1), DG_ERR_INPUT, "phi step");
  const double freq[1] = {1.0}, lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1}, o[3] = {0, 0, 0};
  dg_surface_dft *s = ntff_surface_box(lo, hi, 1, 1, 1, freq);
  double F[4], P;
  assert_dg_error(dg_ntff_far_field(s, 1, o, 1, d.theta, d.phi, F), DG_ERR_INPUT, "index 1");
  s->freq[0] = 0;
  assert_dg_error(dg_ntff_radiated_power(s, 0, &P), DG_ERR_INPUT, "positive");
  ntff_surface_free(s);
  dg_ntff_dirs_free(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_z_dipole_pattern_power_directivity),
      cmocka_unit_test(test_any_surface_gives_the_same_far_field),
      cmocka_unit_test(test_cut_directions_and_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The tet basis is orthonormal, ordered (i,j,k) with k fastest, and its gradient is right
 * everywhere, including on the collapsed-coordinate singular edge s+t=0 and vertex t=1. */
#include "test_util.h"

#include "refel/refel.h"

static int np_of(int N) { return (N + 1) * (N + 2) * (N + 3) / 6; }

static void basis_is_orthonormal(void **state) {
  (void)state;
  for (int N = 1; N <= 7; ++N) {
    const int Np = np_of(N);
    int n;
    double *r, *s, *t, *w;
    assert_dg_ok(dg_cubature_tet(2 * N, &n, &r, &s, &t, &w));
    double *psi = malloc(sizeof *psi * (size_t)Np * n);
    assert_non_null(psi);
    for (int j = 0; j < Np; ++j) dg_basis_tet(N, j, r, s, t, n, psi + (size_t)j * n);
    for (int i = 0; i < Np; ++i)
      for (int j = 0; j <= i; ++j) {
        double g = 0.0;
        for (int q = 0; q < n; ++q) g += w[q] * psi[(size_t)i * n + q] * psi[(size_t)j * n + q];
        assert_near(g, i == j ? 1.0 : 0.0, 1e-13);
      }
    free(psi);
    free(r);
    free(s);
    free(t);
    free(w);
  }
}

static void basis_order_is_i_then_j_then_k(void **state) {
  (void)state;
  const int N = 3;
  /* psi_0 is the constant sqrt(3/4); psi_1 = (0,0,1) depends on t only; psi_{N+1} =
   * (0,1,0) on s and t only; the last, (N,0,0), vanishes on the edge s+t = 0 (factor
   * (1-b)^N (1-c)^N). */
  const double r[3] = {-0.9, -0.3, -0.6}, s[3] = {-0.8, -0.4, -0.2}, t[3] = {-0.5, -0.5, -0.5};
  double p[3];
  dg_basis_tet(N, 0, r, s, t, 3, p);
  for (int q = 0; q < 3; ++q) assert_near(p[q], sqrt(0.75), 1e-15);
  dg_basis_tet(N, 1, r, s, t, 3, p);
  assert_near(p[0], p[1], 1e-15);
  assert_near(p[0], p[2], 1e-15);
  const double r2[2] = {-0.9, -0.2}, s2[2] = {-0.3, -0.3}, t2[2] = {0.1, 0.1};
  dg_basis_tet(N, N + 1, r2, s2, t2, 2, p);
  assert_near(p[0], p[1], 1e-15);
  const double re[1] = {-1.0}, se[1] = {0.3}, te[1] = {-0.3};
  dg_basis_tet(N, np_of(N) - 1, re, se, te, 1, p);
  assert_near(p[0], 0.0, 1e-15);
}

/* Gradient at an interior point against central differences. */
static void check_gradient_fd(int N, double r, double s, double t) {
  const double h = 1e-6;
  for (int j = 0; j < np_of(N); ++j) {
    double dr, ds, dt, v[6];
    dg_grad_basis_tet(N, j, &r, &s, &t, 1, &dr, &ds, &dt);
    const double x[6] = {r + h, r - h, r, r, r, r}, y[6] = {s, s, s + h, s - h, s, s},
                 z[6] = {t, t, t, t, t + h, t - h};
    dg_basis_tet(N, j, x, y, z, 6, v);
    const double tol = 1e-6 * (1.0 + fabs(dr) + fabs(ds) + fabs(dt));
    assert_near(dr, (v[0] - v[1]) / (2 * h), tol);
    assert_near(ds, (v[2] - v[3]) / (2 * h), tol);
    assert_near(dt, (v[4] - v[5]) / (2 * h), tol);
  }
}

/* Gradient at a (boundary, possibly singular) point against its limit from the interior:
 * Richardson extrapolation 2 g(p + d) - g(p + 2d) along d towards the centroid, O(|d|^2). */
static void check_gradient_limit(int N, double r, double s, double t) {
  const double delta = 1e-5;
  const double x[2] = {r + delta * (-0.5 - r), r + 2 * delta * (-0.5 - r)},
               y[2] = {s + delta * (-0.5 - s), s + 2 * delta * (-0.5 - s)},
               z[2] = {t + delta * (-0.5 - t), t + 2 * delta * (-0.5 - t)};
  for (int j = 0; j < np_of(N); ++j) {
    double dr, ds, dt, gr[2], gs[2], gt[2];
    dg_grad_basis_tet(N, j, &r, &s, &t, 1, &dr, &ds, &dt);
    dg_grad_basis_tet(N, j, x, y, z, 2, gr, gs, gt);
    const double tol = 1e-6 * (1.0 + fabs(dr) + fabs(ds) + fabs(dt));
    assert_near(dr, 2 * gr[0] - gr[1], tol);
    assert_near(ds, 2 * gs[0] - gs[1], tol);
    assert_near(dt, 2 * gt[0] - gt[1], tol);
  }
}

static void gradient_is_right_inside_and_at_singular_points(void **state) {
  (void)state;
  for (int N = 1; N <= 6; ++N) {
    check_gradient_fd(N, -0.6, -0.7, -0.4);
    check_gradient_fd(N, -0.2, -0.9, -0.95);
    check_gradient_fd(N, -0.98, 0.3, -0.33);                /* close to the edge s+t = 0 */
    check_gradient_limit(N, -1.0, -1.0, 1.0);               /* vertex t = 1: b undefined */
    check_gradient_limit(N, -1.0, 0.4, -0.4);               /* edge s+t = 0: a undefined */
    check_gradient_limit(N, -1.0, 1.0, -1.0);               /* vertex on that edge */
    /* off the edge by one ulp: 0/0-like a = 2(1+r)/(-s-t) - 1 = 3 must not hurt */
    check_gradient_limit(N, nextafter(-1.0, 0.0), 0.25, nextafter(-0.25, -1.0));
    check_gradient_limit(N, 1.0, -1.0, -1.0);               /* a regular vertex */
  }
}

static void out_of_range_index_gives_nan(void **state) {
  (void)state;
  const double r = -0.5, s = -0.5, t = -0.5;
  double p, dr, ds, dt;
  dg_basis_tet(2, 10, &r, &s, &t, 1, &p);
  assert_true(isnan(p));
  dg_grad_basis_tet(2, -1, &r, &s, &t, 1, &dr, &ds, &dt);
  assert_true(isnan(dr) && isnan(ds) && isnan(dt));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(basis_is_orthonormal),
      cmocka_unit_test(basis_order_is_i_then_j_then_k),
      cmocka_unit_test(gradient_is_right_inside_and_at_singular_points),
      cmocka_unit_test(out_of_range_index_gives_nan),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

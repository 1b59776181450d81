/* dg_jacobi_p is orthonormal for the weight (1-x)^a (1+x)^b and dg_jacobi_grad_p is its
 * derivative. */
#include "test_util.h"

#include "refel/refel.h"

static const double k_ab[][2] = {{0, 0}, {1, 0}, {5, 0}, {0.5, 1.5}, {12, 0}};
enum { N_AB = sizeof k_ab / sizeof k_ab[0], MAX_DEG = 18, NQ = MAX_DEG + 1 };

static void jacobi_polynomials_are_orthonormal(void **state) {
  (void)state;
  double x[NQ], w[NQ], p[MAX_DEG + 1][NQ];
  for (int c = 0; c < N_AB; ++c) {
    const double a = k_ab[c][0], b = k_ab[c][1];
    /* NQ points integrate P_i P_j (degree <= 2 MAX_DEG < 2 NQ) exactly */
    assert_dg_ok(dg_jacobi_gq(a, b, NQ - 1, x, w));
    for (int i = 0; i <= MAX_DEG; ++i) dg_jacobi_p(x, NQ, a, b, i, p[i]);
    for (int i = 0; i <= MAX_DEG; ++i)
      for (int j = 0; j <= MAX_DEG; ++j) {
        double g = 0.0;
        for (int q = 0; q < NQ; ++q) g += w[q] * p[i][q] * p[j][q];
        assert_near(g, i == j ? 1.0 : 0.0, 1e-13);
      }
  }
}

static void gradient_matches_finite_differences(void **state) {
  (void)state;
  enum { NX = 9 };
  const double h = 1e-6;
  double x[NX], xp[NX], xm[NX], dp[NX], pp[NX], pm[NX];
  for (int q = 0; q < NX; ++q) {
    x[q] = -0.95 + 1.9 * q / (NX - 1);
    xp[q] = x[q] + h;
    xm[q] = x[q] - h;
  }
  for (int c = 0; c < N_AB; ++c)
    for (int n = 0; n <= 12; ++n) {
      const double a = k_ab[c][0], b = k_ab[c][1];
      dg_jacobi_grad_p(x, NX, a, b, n, dp);
      dg_jacobi_p(xp, NX, a, b, n, pp);
      dg_jacobi_p(xm, NX, a, b, n, pm);
      double scale = 1.0;
      for (int q = 0; q < NX; ++q) scale = fmax(scale, fabs(dp[q]));
      for (int q = 0; q < NX; ++q) assert_near(dp[q], (pp[q] - pm[q]) / (2 * h), 1e-7 * scale);
    }
}

static void low_degrees_have_closed_forms(void **state) {
  (void)state;
  /* Legendre: P0 = 1/sqrt2, P1 = sqrt(3/2) x, P2 = sqrt(5/2) (3x^2-1)/2 */
  const double x[3] = {-0.7, 0.1, 0.9};
  double p[3], dp[3];
  dg_jacobi_p(x, 3, 0, 0, 0, p);
  for (int q = 0; q < 3; ++q) assert_near(p[q], 1 / sqrt(2.0), 1e-15);
  dg_jacobi_p(x, 3, 0, 0, 1, p);
  for (int q = 0; q < 3; ++q) assert_near(p[q], sqrt(1.5) * x[q], 1e-15);
  dg_jacobi_p(x, 3, 0, 0, 2, p);
  dg_jacobi_grad_p(x, 3, 0, 0, 2, dp);
  for (int q = 0; q < 3; ++q) {
    assert_near(p[q], sqrt(2.5) * (3 * x[q] * x[q] - 1) / 2, 1e-15);
    assert_near(dp[q], sqrt(2.5) * 3 * x[q], 1e-14);
  }
  dg_jacobi_grad_p(x, 3, 0, 0, 0, dp);
  for (int q = 0; q < 3; ++q) assert_true(dp[q] == 0.0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(jacobi_polynomials_are_orthonormal),
      cmocka_unit_test(gradient_matches_finite_differences),
      cmocka_unit_test(low_degrees_have_closed_forms),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Gauss-Jacobi rules with n+1 points are exact to degree 2n+1 (and no further) for the
 * weight (1-x)^a (1+x)^b; Gauss-Lobatto points include +-1 and sit at the extrema of P_n. */
#include "test_util.h"

#include "refel/refel.h"

static const double k_ab[][2] = {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {0.5, 1.5}, {3, 2}, {7, 0}};
enum { N_AB = sizeof k_ab / sizeof k_ab[0], MAX_N = 16 };

/* int_{-1}^{1} (1-x)^a (1+x)^(b+m) dx, a Beta integral; no cancellation in any term. */
static double exact_shifted_moment(double a, double b, int m) {
  return pow(2.0, a + b + m + 1) * tgamma(a + 1) * tgamma(b + m + 1) / tgamma(a + b + m + 2);
}

static void gauss_jacobi_is_exact_to_degree_2n_plus_1(void **state) {
  (void)state;
  double x[MAX_N + 1], w[MAX_N + 1];
  for (int c = 0; c < N_AB; ++c) {
    const double a = k_ab[c][0], b = k_ab[c][1];
    for (int n = 0; n <= MAX_N; ++n) {
      assert_dg_ok(dg_jacobi_gq(a, b, n, x, w));
      for (int i = 0; i <= n; ++i) {
        assert_true(x[i] > -1 && x[i] < 1);
        assert_true(w[i] > 0);
        if (i > 0) assert_true(x[i] > x[i - 1]);
      }
      /* (1+x)^m, m = 0..2n+1, spans the polynomials of degree <= 2n+1 */
      for (int m = 0; m <= 2 * n + 1; ++m) {
        double q = 0.0;
        for (int i = 0; i <= n; ++i) q += w[i] * pow(1 + x[i], m);
        const double ex = exact_shifted_moment(a, b, m);
        assert_near(q / ex, 1.0, 1e-13);
      }
    }
  }
}

static void gauss_jacobi_is_not_exact_at_degree_2n_plus_2(void **state) {
  (void)state;
  /* The points are the zeros of P_{n+1}: the rule gives 0 for P_{n+1}^2, whose integral is
   * 1 (orthonormal), so degree 2n+1 is exactly the rule's reach. */
  double x[MAX_N + 1], w[MAX_N + 1], p[MAX_N + 1];
  for (int c = 0; c < N_AB; ++c)
    for (int n = 0; n <= MAX_N; ++n) {
      assert_dg_ok(dg_jacobi_gq(k_ab[c][0], k_ab[c][1], n, x, w));
      dg_jacobi_p(x, n + 1, k_ab[c][0], k_ab[c][1], n + 1, p);
      double q = 0.0;
      for (int i = 0; i <= n; ++i) q += w[i] * p[i] * p[i];
      assert_near(q, 0.0, 1e-24);
    }
}

static void gauss_lobatto_includes_end_points_and_extrema(void **state) {
  (void)state;
  double x[MAX_N + 1], dp[MAX_N + 1];
  for (int c = 0; c < N_AB; ++c) {
    const double a = k_ab[c][0], b = k_ab[c][1];
    for (int n = 1; n <= MAX_N; ++n) {
      assert_dg_ok(dg_jacobi_gl(a, b, n, x));
      assert_true(x[0] == -1.0);
      assert_true(x[n] == 1.0);
      for (int i = 1; i <= n; ++i) assert_true(x[i] > x[i - 1]);
      /* interior points are the zeros of d/dx P_n^(a,b) */
      dg_jacobi_grad_p(x, n + 1, a, b, n, dp);
      double scale = fmax(fabs(dp[0]), fabs(dp[n]));
      for (int i = 1; i < n; ++i) assert_near(dp[i] / scale, 0.0, 1e-13);
      if (a == b)
        for (int i = 0; i <= n; ++i) assert_near(x[i], -x[n - i], 1e-15);
    }
  }
  /* Legendre-Gauss-Lobatto with 3 and 4 points: 0, and +-1/sqrt5 */
  assert_dg_ok(dg_jacobi_gl(0, 0, 2, x));
  assert_near(x[1], 0.0, 1e-16);
  assert_dg_ok(dg_jacobi_gl(0, 0, 3, x));
  assert_near(x[2], 1.0 / sqrt(5.0), 1e-15);
}

static void invalid_rule_sizes_are_rejected(void **state) {
  (void)state;
  double x[4], w[4];
  assert_dg_error(dg_jacobi_gq(0, 0, -1, x, w), DG_ERR_INPUT, "n >= 0");
  assert_dg_error(dg_jacobi_gq(-1, 0, 2, x, w), DG_ERR_INPUT, "a, b > -1");
  assert_dg_error(dg_jacobi_gl(0, 0, 0, x), DG_ERR_INPUT, "n >= 1");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gauss_jacobi_is_exact_to_degree_2n_plus_1),
      cmocka_unit_test(gauss_jacobi_is_not_exact_at_degree_2n_plus_2),
      cmocka_unit_test(gauss_lobatto_includes_end_points_and_extrema),
      cmocka_unit_test(invalid_rule_sizes_are_rejected),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

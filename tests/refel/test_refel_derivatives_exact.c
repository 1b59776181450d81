/* Dr, Ds, Dt differentiate every monomial r^a s^b t^c of total degree <= N exactly (to
 * rounding) at all nodes, for N = 1..8 (and up to 15 with DGTD_TEST_ALL set). */
#include "test_util.h"

#include "refel/refel.h"

static double ipow(double x, int e) { return e < 0 ? 0.0 : pow(x, e); }

/* Largest nodal error over all monomials of degree <= N and all three derivatives. */
static double max_derivative_error(const dg_refel *re) {
  const int N = re->N, Np = re->Np;
  double *u = malloc(sizeof *u * Np);
  assert_non_null(u);
  double err = 0.0;
  for (int a = 0; a <= N; ++a)
    for (int b = 0; a + b <= N; ++b)
      for (int c = 0; a + b + c <= N; ++c) {
        for (int j = 0; j < Np; ++j)
          u[j] = ipow(re->r[j], a) * ipow(re->s[j], b) * ipow(re->t[j], c);
        for (int i = 0; i < Np; ++i) {
          const double r = re->r[i], s = re->s[i], t = re->t[i];
          const double ex[3] = {a * ipow(r, a - 1) * ipow(s, b) * ipow(t, c),
                                b * ipow(r, a) * ipow(s, b - 1) * ipow(t, c),
                                c * ipow(r, a) * ipow(s, b) * ipow(t, c - 1)};
          const double *D[3] = {re->Dr, re->Ds, re->Dt};
          for (int d = 0; d < 3; ++d) {
            double du = 0.0;
            for (int j = 0; j < Np; ++j) du += D[d][i * Np + j] * u[j];
            err = fmax(err, fabs(du - ex[d]));
          }
        }
      }
  free(u);
  return err;
}

/* Rounding error of D = V_r V^-1 follows the conditioning of V, which grows with N
 * (cond_inf(V) ~ 7 at N = 1, 3e3 at N = 8, 4.5e5 at N = 15). Measured maximum errors are
 * ~0.06 eps cond_inf(V): 4e-16 at N = 1, 1.8e-13 at N = 8, 1.4e-11 at N = 15. */
static double tolerance(const dg_refel *re) {
  const int Np = re->Np;
  double nv = 0.0, ni = 0.0;
  for (int i = 0; i < Np; ++i) {
    double sv = 0.0, si = 0.0;
    for (int j = 0; j < Np; ++j) {
      sv += fabs(re->V[i * Np + j]);
      si += fabs(re->Vinv[i * Np + j]);
    }
    nv = fmax(nv, sv);
    ni = fmax(ni, si);
  }
  return 4e-16 * nv * ni;
}

static void derivative_matrices_are_exact_for_degree_n(void **state) {
  (void)state;
  const int nmax = getenv("DGTD_TEST_ALL") ? DG_MAX_ORDER : 8;
  for (int N = 1; N <= nmax; ++N) {
    dg_refel *re = NULL;
    assert_dg_ok(dg_refel_create(&re, N));
    const double err = max_derivative_error(re), tol = tolerance(re);
    if (!(err <= tol)) fail_msg("N = %d: max derivative error %.3g > %.3g", N, err, tol);
    dg_refel_destroy(&re);
    assert_null(re);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(derivative_matrices_are_exact_for_degree_n),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Orthonormal Jacobi polynomials, their derivatives, and Gauss / Gauss-Lobatto points
 * (Hesthaven & Warburton, sec. 3.2 and appendix A). */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "refel/refel.h"

/* Points are processed in fixed-size blocks so the recurrence coefficients (square roots,
 * divisions) are computed once per block rather than once per point, without needing a
 * heap scratch buffer in these non-failing functions. */
enum { JACOBI_BLOCK = 64 };

/* Integral of the weight (1-x)^a (1+x)^b over [-1,1]: 2^(a+b+1) G(a+1) G(b+1) / G(a+b+2).
 * Written with G(a+b+2) (not (a+b+1) G(a+b+1)) so a+b+1 = 0 is no special case. */
static double jacobi_weight_integral(double a, double b) {
  if (a + b + 2 < 150) /* tgamma is accurate to a few ulps and does not overflow here */
    return pow(2.0, a + b + 1) * tgamma(a + 1) * tgamma(b + 1) / tgamma(a + b + 2);
  return exp((a + b + 1) * log(2.0) + lgamma(a + 1) + lgamma(b + 1) - lgamma(a + b + 2));
}

void dg_jacobi_p(const double *x, int n_x, double a, double b, int n, double *p) {
  if (n < 0) {
    for (int q = 0; q < n_x; ++q) p[q] = 0.0;
    return;
  }
  const double gamma0 = jacobi_weight_integral(a, b);
  const double p0 = 1.0 / sqrt(gamma0);
  if (n == 0) {
    for (int q = 0; q < n_x; ++q) p[q] = p0;
    return;
  }
  const double gamma1 = (a + 1) * (b + 1) / (a + b + 3) * gamma0;
  const double s1 = 1.0 / sqrt(gamma1);
  for (int lo = 0; lo < n_x; lo += JACOBI_BLOCK) {
    const int m = n_x - lo < JACOBI_BLOCK ? n_x - lo : JACOBI_BLOCK;
    double prev[JACOBI_BLOCK], cur[JACOBI_BLOCK];
    for (int q = 0; q < m; ++q) {
      prev[q] = p0;
      cur[q] = ((a + b + 2) * x[lo + q] / 2 + (a - b) / 2) * s1;
    }
    /* Three-term recurrence for the normalised polynomials:
     * x P_i = a_i P_{i-1} + b_i P_i + a_{i+1} P_{i+1}. */
    double a_old = 2 / (2 + a + b) * sqrt((a + 1) * (b + 1) / (a + b + 3));
    for (int i = 1; i < n; ++i) {
      const double h1 = 2 * i + a + b;
      const double a_new = 2 / (h1 + 2) *
                           sqrt((i + 1) * (i + 1 + a + b) * (i + 1 + a) * (i + 1 + b) /
                                ((h1 + 1) * (h1 + 3)));
      const double b_new = -(a * a - b * b) / (h1 * (h1 + 2));
      for (int q = 0; q < m; ++q) {
        const double next = ((x[lo + q] - b_new) * cur[q] - a_old * prev[q]) / a_new;
        prev[q] = cur[q];
        cur[q] = next;
      }
      a_old = a_new;
    }
    for (int q = 0; q < m; ++q) p[lo + q] = cur[q];
  }
}

void dg_jacobi_grad_p(const double *x, int n_x, double a, double b, int n, double *dp) {
  if (n <= 0) {
    for (int q = 0; q < n_x; ++q) dp[q] = 0.0;
    return;
  }
  /* d/dx P_n^(a,b) = sqrt(n (n+a+b+1)) P_{n-1}^(a+1,b+1) for the normalised family. */
  dg_jacobi_p(x, n_x, a + 1, b + 1, n - 1, dp);
  const double scale = sqrt(n * (n + a + b + 1));
  for (int q = 0; q < n_x; ++q) dp[q] *= scale;
}

dg_status dg_jacobi_gq(double a, double b, int n, double *x, double *w) {
  DG_CHECK(n >= 0, DG_ERR_INPUT, "Gauss-Jacobi rule needs n >= 0, got %d", n);
  DG_CHECK(a > -1 && b > -1, DG_ERR_INPUT,
           "Gauss-Jacobi weight needs a, b > -1, got a = %g, b = %g", a, b);
  const int np = n + 1;
  dg_status st = DG_OK;
  double *e = NULL, *p = NULL;
  DG_CALL_GOTO(done, DG_ALLOC(e, np));
  DG_CALL_GOTO(done, DG_ALLOC(p, np));

  /* Golub-Welsch: the points are the eigenvalues of the symmetric tridiagonal Jacobi
   * matrix of the recurrence. The h = 0 entries are written in closed form because the
   * general expressions are 0/0 when a + b = 0 or a + b = -1. */
  x[0] = (b - a) / (a + b + 2);
  for (int h = 1; h < np; ++h) {
    const double h1 = 2 * h + a + b;
    x[h] = -(a * a - b * b) / (h1 * (h1 + 2));
  }
  if (np > 1) e[0] = 2 / (a + b + 2) * sqrt((a + 1) * (b + 1) / (a + b + 3));
  for (int h = 1; h < n; ++h) {
    const double h1 = 2 * h + a + b;
    e[h] = 2 / (h1 + 2) *
           sqrt((h + 1) * (h + 1 + a + b) * (h + 1 + a) * (h + 1 + b) / ((h1 + 1) * (h1 + 3)));
  }
  /* No eigenvectors ('N'), but row-major LAPACKE still insists on ldz >= n. */
  lapack_int info = LAPACKE_dstev(LAPACK_ROW_MAJOR, 'N', np, x, e, NULL, np);
  DG_CHECK_GOTO(done, info == 0, DG_ERR_LAPACK,
                "LAPACKE_dstev failed (info = %d) computing %d Gauss-Jacobi points",
                (int)info, np);
  /* For a symmetric weight make the rule exactly symmetric (the eigensolver leaves ~1e-15
   * asymmetry), which keeps node sets built from it symmetric too. */
  if (a == b)
    for (int i = 0; i <= n - i; ++i) {
      const double xs = 0.5 * (x[n - i] - x[i]);
      x[i] = -xs;
      x[n - i] = xs;
    }

  /* Weights from the Christoffel function, w_i = 1 / sum_k P_k(x_i)^2 with orthonormal
   * P_k: accurate to rounding even for tiny weights, unlike squared eigenvector entries. */
  for (int i = 0; i < np; ++i) w[i] = 0.0;
  for (int k = 0; k < np; ++k) {
    dg_jacobi_p(x, np, a, b, k, p);
    for (int i = 0; i < np; ++i) w[i] += p[i] * p[i];
  }
  for (int i = 0; i < np; ++i) w[i] = 1.0 / w[i];

done:
  free(e);
  free(p);
  return st;
}

dg_status dg_jacobi_gl(double a, double b, int n, double *x) {
  DG_CHECK(n >= 1, DG_ERR_INPUT, "Gauss-Lobatto rule needs n >= 1 (two end points), got %d",
           n);
  x[0] = -1.0;
  x[n] = 1.0;
  if (n == 1) return DG_OK;
  /* The interior points are the zeros of d/dx P_n^(a,b), i.e. of P_{n-1}^(a+1,b+1). */
  dg_status st = DG_OK;
  double *w = NULL;
  DG_CALL(DG_ALLOC(w, n - 1));
  DG_CALL_GOTO(done, dg_jacobi_gq(a + 1, b + 1, n - 2, x + 1, w));
done:
  free(w);
  return st;
}

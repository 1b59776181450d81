/* Small dense linear algebra on row-major matrices, in plain C: the matrices are at most
 * Np x Np (816 at order 15), and a BLAS's threads and allocator are not worth their risks here
 * (OpenBLAS's dgetrf spun forever at start-up under a memory limit, `ulimit -v`, instead of
 * failing). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "refel/refel.h"

/* In place: A = P L U by Gaussian elimination with partial pivoting (as LAPACK's dgetrf),
 * row i of the factored A being row piv[i] of the original; returns 0, or the 1-based
 * column of the first zero pivot (A singular). */
static int lu_factor(int n, double *A, int *piv) {
  for (int i = 0; i < n; ++i) piv[i] = i;
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i)
      if (fabs(A[(size_t)i * n + k]) > fabs(A[(size_t)p * n + k])) p = i;
    if (A[(size_t)p * n + k] == 0) return k + 1;
    if (p != k) {
      for (int j = 0; j < n; ++j) {
        const double t = A[(size_t)k * n + j];
        A[(size_t)k * n + j] = A[(size_t)p * n + j];
        A[(size_t)p * n + j] = t;
      }
      const int t = piv[k];
      piv[k] = piv[p];
      piv[p] = t;
    }
    const double *rk = A + (size_t)k * n;
    for (int i = k + 1; i < n; ++i) {
      double *ri = A + (size_t)i * n;
      const double l = ri[k] /= rk[k];
      for (int j = k + 1; j < n; ++j) ri[j] -= l * rk[j];
    }
  }
  return 0;
}

/* Solve L U x = P b in place in x (b on entry): L unit lower triangular, P by piv. */
static void lu_solve(int n, const double *LU, const int *piv, const double *b, double *x) {
  for (int i = 0; i < n; ++i) {
    double y = b[piv[i]];
    const double *li = LU + (size_t)i * n;
    for (int l = 0; l < i; ++l) y -= li[l] * x[l];
    x[i] = y;
  }
  for (int i = n - 1; i >= 0; --i) {
    const double *ui = LU + (size_t)i * n;
    double v = x[i];
    for (int l = i + 1; l < n; ++l) v -= ui[l] * x[l];
    x[i] = v / ui[i];
  }
}

dg_status dg_mat_inverse(int n, double *A) {
  DG_CHECK(n >= 0, DG_ERR_INPUT, "matrix order must be >= 0, got %d", n);
  if (n == 0) return DG_OK;
  dg_status st = DG_OK;
  int *piv = NULL;
  double *LU = NULL, *X = NULL, *e = NULL, *x = NULL, *r = NULL, *d = NULL;
  DG_CALL(DG_ALLOC(piv, n));
  DG_CALL_GOTO(done, DG_ALLOC(LU, (size_t)n * n));
  DG_CALL_GOTO(done, DG_ALLOC(X, (size_t)n * n));
  DG_CALL_GOTO(done, DG_ALLOC(e, n));
  DG_CALL_GOTO(done, DG_ALLOC(x, n));
  DG_CALL_GOTO(done, DG_ALLOC(r, n));
  DG_CALL_GOTO(done, DG_ALLOC(d, n));
  memcpy(LU, A, sizeof *A * (size_t)n * n);
  const int info = lu_factor(n, LU, piv);
  DG_CHECK_GOTO(done, info == 0, DG_ERR_LAPACK,
                "dg_mat_inverse (LU with partial pivoting, as dgetrf): %d x %d matrix is "
                "singular (info = %d)", n, n, info);
  /* Column j of the inverse (into X, A being read until the end) solves A x = e_j, then one
   * step of iterative refinement with the residual accumulated in long double (the mass
   * matrix inv(V V^T) of order 15 needs it to be as accurate as LAPACK's dgetri). */
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) e[i] = i == j ? 1.0 : 0.0;
    lu_solve(n, LU, piv, e, x);
    for (int i = 0; i < n; ++i) { /* r = e_j - A x */
      long double acc = e[i];
      const double *ai = A + (size_t)i * n;
      for (int l = 0; l < n; ++l) acc -= (long double)ai[l] * x[l];
      r[i] = (double)acc;
    }
    lu_solve(n, LU, piv, r, d);
    for (int i = 0; i < n; ++i) X[(size_t)i * n + j] = x[i] + d[i];
  }
  memcpy(A, X, sizeof *A * (size_t)n * n);
done:
  free(piv);
  free(LU);
  free(X);
  free(e);
  free(x);
  free(r);
  free(d);
  return st;
}

/* C (m x n) = A (m x k) * B (k x n); C must not alias A or B. Rows of B are streamed along
 * rows of C, four rows of C at a time so that each pass over B (the large operand, often
 * bigger than the caches) serves four output rows. */
void dg_matmul(int m, int n, int k, const double *A, const double *B, double *C) {
  memset(C, 0, sizeof *C * (size_t)m * (size_t)n);
  int i = 0;
  for (; i + 4 <= m; i += 4) {
    double *restrict c0 = C + (size_t)i * n, *restrict c1 = c0 + n, *restrict c2 = c1 + n,
                     *restrict c3 = c2 + n;
    for (int p = 0; p < k; ++p) {
      const double a0 = A[(size_t)i * k + p], a1 = A[(size_t)(i + 1) * k + p],
                   a2 = A[(size_t)(i + 2) * k + p], a3 = A[(size_t)(i + 3) * k + p];
      const double *restrict b = B + (size_t)p * n;
      for (int j = 0; j < n; ++j) {
        const double bj = b[j];
        c0[j] += a0 * bj;
        c1[j] += a1 * bj;
        c2[j] += a2 * bj;
        c3[j] += a3 * bj;
      }
    }
  }
  for (; i < m; ++i) {
    double *restrict c = C + (size_t)i * n;
    for (int p = 0; p < k; ++p) {
      const double aip = A[(size_t)i * k + p];
      const double *restrict b = B + (size_t)p * n;
      for (int j = 0; j < n; ++j) c[j] += aip * b[j];
    }
  }
}

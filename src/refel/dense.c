/* Small dense linear algebra on row-major matrices. */
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "refel/refel.h"

dg_status dg_mat_inverse(int n, double *A) {
  DG_CHECK(n >= 0, DG_ERR_INPUT, "matrix order must be >= 0, got %d", n);
  if (n == 0) return DG_OK;
  dg_status st = DG_OK;
  lapack_int *ipiv = NULL;
  DG_CALL(DG_ALLOC(ipiv, n));
  lapack_int info = LAPACKE_dgetrf(LAPACK_ROW_MAJOR, n, n, A, n, ipiv);
  DG_CHECK_GOTO(done, info == 0, DG_ERR_LAPACK,
                info > 0 ? "LAPACKE_dgetrf: %d x %d matrix is singular (info = %d)"
                         : "LAPACKE_dgetrf failed on a %d x %d matrix (info = %d)",
                n, n, (int)info);
  info = LAPACKE_dgetri(LAPACK_ROW_MAJOR, n, A, n, ipiv);
  DG_CHECK_GOTO(done, info == 0, DG_ERR_LAPACK,
                "LAPACKE_dgetri failed on a %d x %d matrix (info = %d)", n, n, (int)info);
done:
  free(ipiv);
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

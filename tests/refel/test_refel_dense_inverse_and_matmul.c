/* dg_mat_inverse inverts row-major matrices (reporting singular ones as DG_ERR_LAPACK
 * naming dgetrf) and dg_matmul multiplies rectangular row-major matrices; neither calls a
 * LAPACK or BLAS routine (OpenBLAS's dgetrf spun forever under `ulimit -v` instead of
 * failing: issue 48), which the object file's undefined symbols show. */
#include "test_util.h"

#include <unistd.h>

#include "refel/refel.h"

static void inverse_of_nonsymmetric_matrix(void **state) {
  (void)state;
  enum { n = 12 };
  double A[n * n], Ainv[n * n], C[n * n];
  for (int i = 0; i < n; ++i) /* nonsymmetric, well conditioned, needs pivoting */
    for (int j = 0; j < n; ++j)
      A[i * n + j] = (i == j ? 0.1 : 1.0 / (1 + i + 2 * j)) + (j == n - 1 - i ? 3.0 : 0.0);
  memcpy(Ainv, A, sizeof A);
  assert_dg_ok(dg_mat_inverse(n, Ainv));
  dg_matmul(n, n, n, A, Ainv, C);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) assert_near(C[i * n + j], i == j ? 1.0 : 0.0, 1e-13);
  /* row-major: a known 2x2 inverse */
  double B[4] = {1, 2, 3, 4};
  assert_dg_ok(dg_mat_inverse(2, B));
  assert_near(B[0], -2.0, 1e-15);
  assert_near(B[1], 1.0, 1e-15);
  assert_near(B[2], 1.5, 1e-15);
  assert_near(B[3], -0.5, 1e-15);
}

static void singular_matrix_is_a_lapack_error(void **state) {
  (void)state;
  double S[9] = {1, 2, 3, 2, 4, 6, 1, 0, 1};
  assert_dg_error(dg_mat_inverse(3, S), DG_ERR_LAPACK, "dgetrf");
  assert_non_null(strstr(dg_error_message(), "singular"));
  assert_non_null(strstr(dg_error_message(), "info = "));
}

static void matmul_of_rectangular_matrices(void **state) {
  (void)state;
  const double A[2 * 3] = {1, 2, 3, 4, 5, 6};       /* 2 x 3 */
  const double B[3 * 4] = {1, 0, 2, -1, 0, 1, 1, 0, 3, 1, 0, 2}; /* 3 x 4 */
  double C[2 * 4] = {99, 99, 99, 99, 99, 99, 99, 99}; /* overwritten, not accumulated */
  const double expect[2 * 4] = {10, 5, 4, 5, 22, 11, 13, 8};
  dg_matmul(2, 4, 3, A, B, C);
  for (int i = 0; i < 8; ++i) assert_near(C[i], expect[i], 0.0);
}

static void dense_helpers_call_no_lapack_or_blas(void **state) {
  (void)state;
  const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
  char obj[512], cmd[1024];
  snprintf(obj, sizeof obj, "%.400s/src/refel/dense.o", build);
  if (access(obj, R_OK) != 0) test_skip("no %.200s to read (a build elsewhere)", obj);
  snprintf(cmd, sizeof cmd, "nm -u '%.480s' | grep -iE 'lapack|dgetr|dgemm|cblas|openblas'", obj);
  assert_int_not_equal(system(cmd), 0); /* grep finds none of them */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(dense_helpers_call_no_lapack_or_blas),
      cmocka_unit_test(inverse_of_nonsymmetric_matrix),
      cmocka_unit_test(singular_matrix_is_a_lapack_error),
      cmocka_unit_test(matmul_of_rectangular_matrices),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

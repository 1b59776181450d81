/* dg_refel_create builds a consistent element for every N in 1..DG_MAX_ORDER (N = 11..14
 * only with DGTD_TEST_ALL set, they are slow) and rejects other orders with DG_ERR_INPUT. */
#include "test_util.h"

#include "refel/refel.h"

/* y = A x for an n x n row-major A */
static void matvec(int n, const double *A, const double *x, double *y) {
  for (int i = 0; i < n; ++i) {
    double sum = 0.0;
    for (int j = 0; j < n; ++j) sum += A[i * n + j] * x[j];
    y[i] = sum;
  }
}

/* y = A^T x */
static void matvec_t(int n, const double *A, const double *x, double *y) {
  for (int j = 0; j < n; ++j) y[j] = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) y[j] += A[i * n + j] * x[i];
}

static void check_element(int N) {
  dg_refel *re = NULL;
  assert_dg_ok(dg_refel_create(&re, N));
  assert_non_null(re);
  const int Np = re->Np, Nfp = re->Nfp;
  assert_int_equal(re->N, N);
  assert_int_equal(Np, (N + 1) * (N + 2) * (N + 3) / 6);
  assert_int_equal(Nfp, (N + 1) * (N + 2) / 2);

  /* the nodes are dg_nodes_tet's */
  double *r = malloc(sizeof *r * Np), *s = malloc(sizeof *s * Np), *t = malloc(sizeof *t * Np);
  assert_true(r && s && t);
  assert_dg_ok(dg_nodes_tet(N, r, s, t));
  for (int i = 0; i < Np; ++i) {
    assert_true(r[i] == re->r[i]);
    assert_true(s[i] == re->s[i]);
    assert_true(t[i] == re->t[i]);
  }

  /* Fmask: increasing node numbers that satisfy face f's equation */
  for (int f = 0; f < DG_NFACES; ++f)
    for (int k = 0; k < Nfp; ++k) {
      const int i = re->Fmask[f * Nfp + k];
      assert_true(i >= 0 && i < Np);
      if (k > 0) assert_true(i > re->Fmask[f * Nfp + k - 1]);
      const double d[4] = {1 + t[i], 1 + s[i], 1 + r[i] + s[i] + t[i], 1 + r[i]};
      assert_near(d[f], 0.0, 1e-7);
    }

  /* V Vinv = I, M (V V^T) = I, Dr r = Ds s = Dt t = 1, Dt exact on a degree-N monomial.
   * Rounding follows cond(V) (~N^5); 1e-15 Np^2 is 6.7e-10 at N = 15, 2.7e-11 at N = 8. */
  const double tol = 1e-15 * Np * Np;
  /* identities checked on a few vectors, O(Np^2) each, to keep N = 15 cheap */
  double *x = malloc(sizeof *x * Np), *y = malloc(sizeof *y * Np), *z = malloc(sizeof *z * Np);
  assert_true(x && y && z);
  for (int v = 0; v < 3; ++v) {
    for (int i = 0; i < Np; ++i) x[i] = cos(1.0 + i * (v + 1.7));
    matvec(Np, re->Vinv, x, y);
    matvec(Np, re->V, y, z);
    for (int i = 0; i < Np; ++i) assert_near(z[i], x[i], tol); /* V Vinv = I */
    matvec_t(Np, re->V, x, y);
    matvec(Np, re->V, y, z);
    matvec(Np, re->M, z, y);
    for (int i = 0; i < Np; ++i) assert_near(y[i], x[i], tol); /* M V V^T = I */
  }
  for (int i = 0; i < Np; ++i)
    for (int j = 0; j < i; ++j) assert_near(re->M[i * Np + j], re->M[j * Np + i], tol);
  const int a = N / 3, b = (N - a) / 2, c = N - a - b; /* r^a s^b t^c, degree N, c >= 1 */
  for (int i = 0; i < Np; ++i) {
    double dr = 0, ds = 0, dt = 0, dn = 0;
    for (int j = 0; j < Np; ++j) {
      dr += re->Dr[i * Np + j] * r[j];
      ds += re->Ds[i * Np + j] * s[j];
      dt += re->Dt[i * Np + j] * t[j];
      dn += re->Dt[i * Np + j] * pow(r[j], a) * pow(s[j], b) * pow(t[j], c);
    }
    assert_near(dr, 1.0, tol);
    assert_near(ds, 1.0, tol);
    assert_near(dt, 1.0, tol);
    assert_near(dn, c * pow(r[i], a) * pow(s[i], b) * pow(t[i], c - 1), tol);
  }
  /* LIFT of a constant trace on all faces integrates to the (reference) face areas:
   * 1^T M LIFT 1 = 4 faces x 2 */
  const int Nf = DG_NFACES * Nfp;
  for (int i = 0; i < Np; ++i) {
    y[i] = 0.0;
    for (int k = 0; k < Nf; ++k) y[i] += re->LIFT[i * Nf + k]; /* LIFT 1 */
  }
  matvec(Np, re->M, y, z);
  double total = 0.0;
  for (int i = 0; i < Np; ++i) total += z[i];
  assert_near(total, 8.0, tol);

  free(x);
  free(y);
  free(z);
  free(r);
  free(s);
  free(t);
  dg_refel_destroy(&re);
  assert_null(re);
  dg_refel_destroy(&re); /* destroying twice, or NULL, is harmless */
  dg_refel_destroy(NULL);
}

static void every_supported_order_builds(void **state) {
  (void)state;
  const int all = getenv("DGTD_TEST_ALL") != NULL;
  for (int N = 1; N <= DG_MAX_ORDER; ++N)
    if (N <= 10 || N == DG_MAX_ORDER || all) check_element(N);
}

static void unsupported_orders_are_rejected(void **state) {
  (void)state;
  dg_refel *re = (dg_refel *)&re; /* must be overwritten with NULL */
  assert_dg_error(dg_refel_create(&re, 0), DG_ERR_INPUT, "N = 0");
  assert_null(re);
  assert_dg_error(dg_refel_create(&re, DG_MAX_ORDER + 1), DG_ERR_INPUT, "N = 16");
  assert_null(re);
  assert_dg_error(dg_refel_create(&re, -3), DG_ERR_INPUT, "1..15");
  assert_null(re);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_supported_order_builds),
      cmocka_unit_test(unsupported_orders_are_rejected),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

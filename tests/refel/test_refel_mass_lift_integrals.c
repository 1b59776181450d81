/* M reproduces exact volume integrals of products of degree-N polynomials, and M LIFT
 * reproduces their face integrals (in the reference face measure, see below). */
#include "test_util.h"

#include "refel/refel.h"

/* The test polynomials are x^a y^b z^c with x = (1+r)/2, y = (1+s)/2, z = (1+t)/2, a+b+c
 * <= N: they span the same space as r^a s^b t^c, and their integrals over the tet and its
 * faces follow from the Dirichlet formula with no cancellation:
 *   tet (8 times the unit simplex):   int x^a y^b z^c dr ds dt = 8 a! b! c! / (a+b+c+3)!
 *   face f, in the measure of the two coordinates LIFT uses for it (face 0 (r,s),
 *   face 1 (r,t), faces 2 and 3 (s,t); each parameter triangle has area 2):
 *       int x^a y^b z^c dA_ref = 4 a! b! c! / (a+b+c+2)!
 *   if the coordinate vanishing on the face (z on face 0, y on 1, x on 3) has exponent 0,
 *   else 0. On face 2 (x+y+z = 1), (x,y,z) are the face's barycentric coordinates. Face 2's
 *   physical area is 2 sqrt3, i.e. dA = sqrt3 dA_ref there: that factor belongs to the
 *   surface Jacobian sJ of the mesh, not to LIFT. */
static double factorial(int n) {
  double f = 1.0;
  for (int k = 2; k <= n; ++k) f *= k;
  return f;
}

static double tet_integral(int a, int b, int c) {
  return 8.0 * factorial(a) * factorial(b) * factorial(c) / factorial(a + b + c + 3);
}

static double face_integral(int f, int a, int b, int c) {
  if ((f == 0 && c > 0) || (f == 1 && b > 0) || (f == 3 && a > 0)) return 0.0;
  return 4.0 * factorial(a) * factorial(b) * factorial(c) / factorial(a + b + c + 2);
}

/* The integrands are bounded by 1, so rounding is absolute, ~eps times the sizes of M and
 * LIFT (growing with Np), not relative to the sometimes tiny (1e-6) exact values.
 * Measured at N = 8: 2e-15 for volume and 1e-13 for face integrals. */
static double abs_tol(const dg_refel *re, double per_node) { return per_node * re->Np; }

typedef struct {
  int n;         /* number of monomials of degree <= N */
  int (*e)[3];   /* their exponents */
  double *vals;  /* n x Np: monomial m at node i in vals[m*Np+i] */
} monomials;

static monomials make_monomials(const dg_refel *re) {
  monomials m = {0, NULL, NULL};
  m.e = malloc(sizeof *m.e * re->Np);
  m.vals = malloc(sizeof *m.vals * re->Np * re->Np);
  assert_non_null(m.e);
  assert_non_null(m.vals);
  for (int a = 0; a <= re->N; ++a)
    for (int b = 0; a + b <= re->N; ++b)
      for (int c = 0; a + b + c <= re->N; ++c, ++m.n) {
        m.e[m.n][0] = a;
        m.e[m.n][1] = b;
        m.e[m.n][2] = c;
        for (int i = 0; i < re->Np; ++i)
          m.vals[m.n * re->Np + i] = pow(0.5 * (1 + re->r[i]), a) *
                                     pow(0.5 * (1 + re->s[i]), b) *
                                     pow(0.5 * (1 + re->t[i]), c);
      }
  assert_int_equal(m.n, re->Np);
  return m;
}

static void free_monomials(monomials *m) {
  free(m->e);
  free(m->vals);
}

static void mass_matrix_gives_exact_volume_integrals(void **state) {
  (void)state;
  for (int N = 1; N <= 8; ++N) {
    dg_refel *re = NULL;
    assert_dg_ok(dg_refel_create(&re, N));
    const int Np = re->Np;
    monomials m = make_monomials(re);
    double *Mv = malloc(sizeof *Mv * Np);
    assert_non_null(Mv);
    for (int i = 0; i < Np; ++i)
      for (int j = 0; j < Np; ++j) assert_near(re->M[i * Np + j], re->M[j * Np + i], 1e-14);
    for (int q = 0; q < m.n; ++q) {
      dg_matmul(Np, 1, Np, re->M, m.vals + q * Np, Mv);
      for (int p = 0; p < m.n; ++p) {
        double uMv = 0.0;
        for (int i = 0; i < Np; ++i) uMv += m.vals[p * Np + i] * Mv[i];
        const double ex = tet_integral(m.e[p][0] + m.e[q][0], m.e[p][1] + m.e[q][1],
                                       m.e[p][2] + m.e[q][2]);
        if (!(fabs(uMv - ex) <= abs_tol(re, 2e-15)))
          fail_msg("N = %d: u^T M v = %.17g, exact %.17g", N, uMv, ex);
      }
    }
    free(Mv);
    free_monomials(&m);
    dg_refel_destroy(&re);
  }
}

static void mass_times_lift_gives_exact_face_integrals(void **state) {
  (void)state;
  for (int N = 1; N <= 8; ++N) {
    dg_refel *re = NULL;
    assert_dg_ok(dg_refel_create(&re, N));
    const int Np = re->Np, Nfp = re->Nfp, Nf = DG_NFACES * Nfp;
    monomials m = make_monomials(re);
    double *ML = malloc(sizeof *ML * Np * Nf), *Eg = malloc(sizeof *Eg * Np);
    assert_non_null(ML);
    assert_non_null(Eg);
    dg_matmul(Np, Nf, Np, re->M, re->LIFT, ML); /* = E, the face mass matrices */
    for (int f = 0; f < DG_NFACES; ++f) {
      const int *fm = re->Fmask + f * Nfp;
      /* E is zero in the rows of nodes off face f */
      for (int i = 0; i < Np; ++i) {
        int on = 0;
        for (int k = 0; k < Nfp; ++k) on |= fm[k] == i;
        if (!on)
          for (int k = 0; k < Nfp; ++k) assert_near(ML[i * Nf + f * Nfp + k], 0.0, 1e-12);
      }
      for (int q = 0; q < m.n; ++q) { /* g = monomial q restricted to face f */
        for (int i = 0; i < Np; ++i) {
          Eg[i] = 0.0;
          for (int k = 0; k < Nfp; ++k)
            Eg[i] += ML[i * Nf + f * Nfp + k] * m.vals[q * Np + fm[k]];
        }
        for (int p = 0; p < m.n; ++p) { /* u = monomial p */
          double uEg = 0.0;
          for (int i = 0; i < Np; ++i) uEg += m.vals[p * Np + i] * Eg[i];
          const double ex = face_integral(f, m.e[p][0] + m.e[q][0], m.e[p][1] + m.e[q][1],
                                          m.e[p][2] + m.e[q][2]);
          if (!(fabs(uEg - ex) <= abs_tol(re, 5e-15)))
            fail_msg("N = %d face %d: u^T M LIFT g = %.17g, exact %.17g", N, f, uEg, ex);
        }
      }
    }
    free(ML);
    free(Eg);
    free_monomials(&m);
    dg_refel_destroy(&re);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(mass_matrix_gives_exact_volume_integrals),
      cmocka_unit_test(mass_times_lift_gives_exact_face_integrals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* dg_cubature_tet integrates every polynomial up to its requested degree exactly on the
 * reference tet, with positive weights summing to the volume 4/3 and points inside; so does
 * dg_cubature_tri on the face triangle (area 2). */
#include "test_util.h"

#include "refel/refel.h"

static double factorial(int n) {
  double f = 1.0;
  for (int k = 2; k <= n; ++k) f *= k;
  return f;
}

/* With x = (1+r)/2, y = (1+s)/2, z = (1+t)/2 the tet is 8 times the unit simplex, and
 * int x^a y^b z^c over the unit simplex is a! b! c! / (a+b+c+3)! (Dirichlet). These
 * shifted monomials span all polynomials of degree <= a+b+c, without cancellation. */
static double exact_tet_moment(int a, int b, int c) {
  return 8.0 * factorial(a) * factorial(b) * factorial(c) / factorial(a + b + c + 3);
}

static void cubature_is_exact_to_its_degree(void **state) {
  (void)state;
  for (int deg = 0; deg <= 20; ++deg) {
    int n;
    double *r, *s, *t, *w;
    assert_dg_ok(dg_cubature_tet(deg, &n, &r, &s, &t, &w));
    const int q = deg / 2 + 1;
    assert_int_equal(n, q * q * q);
    double sum = 0.0;
    for (int i = 0; i < n; ++i) {
      assert_true(w[i] > 0);
      assert_true(r[i] > -1 && s[i] > -1 && t[i] > -1 && r[i] + s[i] + t[i] < -1);
      sum += w[i];
    }
    assert_near(sum, 4.0 / 3.0, 1e-14);
    for (int a = 0; a <= deg; ++a)
      for (int b = 0; a + b <= deg; ++b)
        for (int c = 0; a + b + c <= deg; ++c) {
          double quad = 0.0;
          for (int i = 0; i < n; ++i)
            quad += w[i] * pow(0.5 * (1 + r[i]), a) * pow(0.5 * (1 + s[i]), b) *
                    pow(0.5 * (1 + t[i]), c);
          const double ex = exact_tet_moment(a, b, c);
          assert_near(quad / ex, 1.0, 1e-12);
        }
    free(r);
    free(s);
    free(t);
    free(w);
  }
}

/* The triangle {a,b >= -1, a+b <= 0} is the unit triangle in x = (1+a)/2, y = (1+b)/2
 * scaled by da db = 4 dx dy, where int x^i y^j dx dy = i! j! / (i+j+2)!. */
static void triangle_cubature_is_exact_to_its_degree(void **state) {
  (void)state;
  for (int deg = 0; deg <= 20; ++deg) {
    int n;
    double *a, *b, *w;
    assert_dg_ok(dg_cubature_tri(deg, &n, &a, &b, &w));
    double sum = 0.0;
    for (int q = 0; q < n; ++q) {
      assert_true(w[q] > 0);
      assert_true(a[q] > -1 && b[q] > -1 && a[q] + b[q] < 0);
      sum += w[q];
    }
    assert_near(sum, 2.0, 1e-14);
    for (int i = 0; i <= deg; ++i)
      for (int j = 0; i + j <= deg; ++j) {
        double quad = 0.0;
        for (int q = 0; q < n; ++q) quad += w[q] * pow(0.5 * (1 + a[q]), i) * pow(0.5 * (1 + b[q]), j);
        assert_near(quad / (4.0 * factorial(i) * factorial(j) / factorial(i + j + 2)), 1.0, 1e-12);
      }
    free(a);
    free(b);
    free(w);
  }
}

static void cubature_of_odd_degree_is_not_exact_beyond_it(void **state) {
  (void)state;
  /* degree 2q-1 uses q points per direction; z^(2q) is then integrated inexactly */
  for (int deg = 1; deg <= 9; deg += 2) {
    int n;
    double *r, *s, *t, *w;
    assert_dg_ok(dg_cubature_tet(deg, &n, &r, &s, &t, &w));
    double quad = 0.0;
    for (int i = 0; i < n; ++i) quad += w[i] * pow(0.5 * (1 + t[i]), deg + 1);
    assert_true(fabs(quad / exact_tet_moment(0, 0, deg + 1) - 1.0) > 1e-6);
    free(r);
    free(s);
    free(t);
    free(w);
  }
}

static void negative_degree_is_rejected(void **state) {
  (void)state;
  int n = 7;
  double *r, *s, *t, *w;
  assert_dg_error(dg_cubature_tet(-1, &n, &r, &s, &t, &w), DG_ERR_INPUT, "degree");
  assert_int_equal(n, 0);
  assert_null(r);
  assert_null(w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(triangle_cubature_is_exact_to_its_degree),
      cmocka_unit_test(cubature_is_exact_to_its_degree),
      cmocka_unit_test(cubature_of_odd_degree_is_not_exact_beyond_it),
      cmocka_unit_test(negative_degree_is_rejected),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

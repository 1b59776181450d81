/* Reference RHS with point dipoles = the RHS without them minus dir g(t) profile / eps in
 * each source's element, exactly (sources in one element add up; nothing else changes), and
 * the same as passing the projected current as J. */
#include "test_util.h"

#include "backend/verify.h"
#include "core/alloc.h"

static void test_dipoles_subtract_projected_current(void **state) {
  (void)state;
  dg_verify_case *c = NULL;
  assert_dg_ok(dg_verify_case_create(&c, 3, 2));
  const dg_geom *g = c->geom;
  const int Np = g->Np;
  const size_t KNp = (size_t)g->K * Np, n = 6 * KNp;
  double *q = NULL, *rhs0 = NULL, *rhs1 = NULL, *expect = NULL, *J = NULL, *rhsJ = NULL;
  assert_dg_ok(DG_ALLOC(q, n));
  assert_dg_ok(DG_ALLOC(rhs0, n));
  assert_dg_ok(DG_ALLOC(rhs1, n));
  assert_dg_ok(DG_ALLOC(expect, n));
  assert_dg_ok(DG_ALLOC(J, 3 * KNp));
  assert_dg_ok(DG_ALLOC(rhsJ, n));
  dg_verify_random_fields(11, n, q);
  const double t = DG_VERIFY_SOURCE_TIME;
  dg_maxwell_rhs(c->phys, t, q, NULL, rhs0);
  assert_dg_ok(dg_verify_case_add_sources(c, DG_VERIFY_DIPOLES));
  const dg_maxwell *p = c->phys;
  assert_int_equal(p->n_sources, 19);
  assert_int_equal(p->sources[0].elem, p->sources[1].elem); /* two in one element */
  assert_true(p->eps[p->sources[0].elem] == 2.0 && p->eps[p->sources[2].elem] == 1.0);
  dg_maxwell_rhs(c->phys, t, q, NULL, rhs1);

  memcpy(expect, rhs0, n * sizeof *expect);
  for (int i = 0; i < p->n_sources; ++i) {
    const dg_point_source *s = &p->sources[i];
    const double gt = dg_pulse_eval(&s->pulse, t);
    assert_true(fabs(gt) > 1e-3); /* every source is active at t */
    for (int comp = 0; comp < 3; ++comp) {
      const double w = s->dir[comp] * gt / p->eps[s->elem];
      for (int j = 0; j < Np; ++j) {
        expect[comp * KNp + (size_t)s->elem * Np + j] -= w * s->profile[j];
        J[comp * KNp + (size_t)s->elem * Np + j] += s->dir[comp] * gt * s->profile[j];
      }
    }
  }
  size_t changed = 0;
  for (size_t i = 0; i < n; ++i) {
    if (rhs1[i] != expect[i]) fail_msg("rhs[%zu] = %.17g, expected %.17g", i, rhs1[i], expect[i]);
    changed += rhs1[i] != rhs0[i];
  }
  printf("# %zu of %zu values changed by 19 dipoles\n", changed, n);
  assert_true(changed > 0 && changed <= 19 * 3 * (size_t)Np);

  /* The same current as J, without the sources: equal to rounding. */
  const int ns = c->phys->n_sources;
  c->phys->n_sources = 0;
  dg_maxwell_rhs(c->phys, t, q, J, rhsJ);
  c->phys->n_sources = ns;
  double num = 0, den = 0;
  for (size_t i = 0; i < n; ++i)
    num += (rhsJ[i] - rhs1[i]) * (rhsJ[i] - rhs1[i]), den += rhs1[i] * rhs1[i];
  printf("# as J: relative difference %.2e\n", sqrt(num / den));
  assert_true(sqrt(num / den) < 1e-14);

  dg_free(&q), dg_free(&rhs0), dg_free(&rhs1), dg_free(&expect), dg_free(&J), dg_free(&rhsJ);
  dg_verify_case_destroy(&c);
}

static void test_bad_dipoles_rejected(void **state) {
  (void)state;
  dg_verify_case *c = NULL;
  assert_dg_ok(dg_verify_case_create(&c, 1, 1));
  const double rst[3] = {-0.5, -0.5, -0.5};
  const dg_dipole d = {{0, 0, 0}, {1, 0, 0}, {DG_PULSE_RICKER, 1, 0, 1, 0, 0}};
  assert_dg_error(dg_maxwell_add_dipole(c->phys, &d, c->geom->K, rst), DG_ERR_INPUT,
                  "dipole 1: element 6 out of range");
  const dg_dipole bad = {{0, 0, 0}, {1, 0, 0}, {DG_PULSE_RICKER, 0, 0, 1, 0, 0}};
  assert_dg_error(dg_maxwell_add_dipole(c->phys, &bad, 0, rst), DG_ERR_INPUT,
                  "dipole 1: pulse frequency f0 = 0");
  assert_int_equal(c->phys->n_sources, 0);
  dg_error_clear();
  dg_verify_case_destroy(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dipoles_subtract_projected_current),
      cmocka_unit_test(test_bad_dipoles_rejected),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

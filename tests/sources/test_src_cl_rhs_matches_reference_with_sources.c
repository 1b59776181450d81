/* The OpenCL RHS matches the reference RHS with point dipoles and with an incident plane
 * wave (total-field and scattered-field), in float (1e-5) and double (1e-12), for the
 * baseline, the CPU default (work=vec, lift=fused-update), flux+lift fused, work=elem and the
 * CLBlast path; other incident fields are refused. */
#include "test_device.h"

#include "backend/verify.h"
#include "core/alloc.h"

static const char *const specs[] = {
    "prec=%s",
    "work=vec,vw=%s,unroll=4,lift=fused-update,prec=%s",
    "kb=2,lkb=2,lplace=matrix,lift=fused,prec=%s",
    "work=elem,vw=2,kb=2,vplace=field,lkb=2,lift=fused,prec=%s",
    "path=clblast,prec=%s",
};

static void spec_for(size_t i, dg_precision p, char *buf, size_t cap) {
  const char *prec = p == DG_PREC_DOUBLE ? "double" : "float";
  if (i == 1)
    snprintf(buf, cap, specs[i], p == DG_PREC_DOUBLE ? "8" : "16", prec);
  else
    snprintf(buf, cap, specs[i], prec);
}

/* How much the sources change the reference RHS on the verification fields, relative: far
 * above the tolerances, or matching would prove nothing about them. */
static double source_weight(dg_verify_case *c) {
  const size_t n = 6 * (size_t)c->geom->K * c->geom->Np;
  double *q = NULL, *with = NULL, *without = NULL;
  assert_dg_ok(DG_ALLOC(q, n));
  assert_dg_ok(DG_ALLOC(with, n));
  assert_dg_ok(DG_ALLOC(without, n));
  dg_verify_random_fields(99, n, q);
  dg_maxwell_rhs(c->phys, DG_VERIFY_SOURCE_TIME, q, NULL, with);
  const int ns = c->phys->n_sources;
  const dg_field_fn inc = c->phys->incident;
  c->phys->n_sources = 0;
  c->phys->incident = NULL;
  dg_maxwell_rhs(c->phys, DG_VERIFY_SOURCE_TIME, q, NULL, without);
  c->phys->n_sources = ns;
  c->phys->incident = inc;
  double num = 0, den = 0;
  for (size_t i = 0; i < n; ++i)
    num += (with[i] - without[i]) * (with[i] - without[i]), den += with[i] * with[i];
  dg_free(&q), dg_free(&with), dg_free(&without);
  return sqrt(num / den);
}

static void check_all(dg_device *dev, unsigned flags, int N, const char *what) {
  dg_verify_case *c = NULL;
  assert_dg_ok(dg_verify_case_create(&c, N, 2));
  assert_dg_ok(dg_verify_case_add_sources(c, flags));
  const double w = source_weight(c);
  printf("# %s change the reference RHS by %.2e (relative)\n", what, w);
  assert_true(w > 1e-3);
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; ++i)
    for (int p = 0; p < 2; ++p) {
      if (p == DG_PREC_DOUBLE && !dev->info.has_fp64) continue;
      char spec[128];
      spec_for(i, (dg_precision)p, spec, sizeof spec);
      dg_variant v;
      assert_dg_ok(dg_variant_parse(spec, &v));
      dg_cl_maxwell *op = NULL;
      assert_dg_ok(dg_cl_maxwell_create(&op, dev, c->phys, &v, NULL));
      double diff = 0;
      int pass = 0;
      assert_dg_ok(dg_cl_verify_op_at(op, c->phys, DG_VERIFY_SOURCE_TIME, 99 + i, &diff, &pass));
      printf("# %s N=%d %s: %.2e\n", what, N, spec, diff);
      assert_true(pass);
      dg_cl_maxwell_destroy(&op);
    }
  dg_verify_case_destroy(&c);
}

static void test_dipoles_match(void **state) {
  dg_device *dev = test_device(state, 0);
  check_all(dev, DG_VERIFY_DIPOLES, 2, "dipoles");
}

static void test_total_field_plane_wave_matches(void **state) {
  dg_device *dev = test_device(state, 0);
  check_all(dev, DG_VERIFY_PLANE_WAVE, 3, "total field");
}

static void test_scattered_field_plane_wave_matches(void **state) {
  dg_device *dev = test_device(state, 0);
  check_all(dev, DG_VERIFY_PLANE_WAVE | DG_VERIFY_SCATTERED, 2, "scattered field");
}

static void other_field(void *ctx, double x, double y, double z, double t, double e[3],
                        double h[3]) {
  (void)ctx, (void)x, (void)y, (void)z, (void)t;
  for (int c = 0; c < 3; ++c) e[c] = h[c] = 0;
}

static void test_other_incident_fields_refused(void **state) {
  dg_device *dev = test_device(state, 0);
  dg_verify_case *c = NULL;
  assert_dg_ok(dg_verify_case_create(&c, 1, 1));
  assert_dg_ok(dg_verify_case_add_sources(c, DG_VERIFY_PLANE_WAVE));
  const dg_variant v = dg_variant_baseline(DG_PREC_FLOAT);
  dg_cl_maxwell *op = NULL;
  c->phys->scattered = 1; /* the wave says 0 */
  assert_dg_error(dg_cl_maxwell_create(&op, dev, c->phys, &v, NULL), DG_ERR_INPUT,
                  "the plane wave says scattered=0 but the problem says 1");
  c->phys->incident = other_field;
  assert_dg_error(dg_cl_maxwell_create(&op, dev, c->phys, &v, NULL), DG_ERR_UNSUPPORTED,
                  "must be a plane wave");
  assert_null(op);
  dg_error_clear();
  dg_verify_case_destroy(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dipoles_match),
      cmocka_unit_test(test_total_field_plane_wave_matches),
      cmocka_unit_test(test_scattered_field_plane_wave_matches),
      cmocka_unit_test(test_other_incident_fields_refused),
  };
  return cmocka_run_group_tests(tests, test_device_setup, test_device_teardown);
}

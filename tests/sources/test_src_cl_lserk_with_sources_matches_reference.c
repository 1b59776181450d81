/* LSERK4 steps on the device in double with a Ricker dipole (from zero fields, so the result
 * is all source), and with every verification source (19 dipoles and a total-field plane
 * wave, from random fields), match the CPU reference time stepping to 1e-10 relative: the
 * sources see each stage's time t + c_i dt. */
#include "test_util.h"

#include "backend/cl_maxwell.h"
#include "backend/verify.h"
#include "core/alloc.h"
#include "dg/lserk.h"

static dg_status ref_rhs(void *ctx, double t, const double *q, double *rhs) {
  dg_maxwell_rhs(ctx, t, q, NULL, rhs);
  return DG_OK;
}

static void run(dg_device *dev, dg_verify_case *c, const double *q0, double t0, const char *what) {
  const size_t n = 6 * (size_t)c->geom->K * c->geom->Np;
  double *q = NULL, *res = NULL, *rhs = NULL, *got = NULL;
  assert_dg_ok(DG_ALLOC(q, n));
  assert_dg_ok(DG_ALLOC(res, n));
  assert_dg_ok(DG_ALLOC(rhs, n));
  assert_dg_ok(DG_ALLOC(got, n));
  const double dt = dg_maxwell_dt(c->phys, 0.5);
  const int steps = 10;
  memcpy(q, q0, n * sizeof *q);
  for (int s = 0; s < steps; ++s) assert_dg_ok(dg_lserk_step(n, q, res, rhs, t0 + s * dt, dt, ref_rhs, c->phys));

  const char *specs[] = {"prec=double", "work=vec,vw=8,lift=fused-update,prec=double",
                         "kb=2,lkb=2,lift=fused,prec=double", "path=clblast,prec=double",
                         "kb=2,fuse=step,prec=double", "work=vec,vw=4,fuse=step,prec=double"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; ++i) {
    dg_variant v;
    dg_cl_maxwell *op = NULL;
    assert_dg_ok(dg_variant_parse(specs[i], &v));
    assert_dg_ok(dg_cl_maxwell_create(&op, dev, c->phys, &v, NULL));
    assert_dg_ok(dg_cl_maxwell_set_state(op, q0));
    for (int s = 0; s < steps; ++s) assert_dg_ok(dg_cl_maxwell_step(op, t0 + s * dt, dt));
    assert_dg_ok(dg_cl_maxwell_get_state(op, got));
    double num = 0, den = 0;
    for (size_t j = 0; j < n; ++j) num += (got[j] - q[j]) * (got[j] - q[j]), den += q[j] * q[j];
    const double rel = sqrt(num / den);
    printf("# %s, %s: %d steps, relative difference %.2e\n", what, specs[i], steps, rel);
    assert_true(den > 0);
    assert_true(rel < 1e-10);
    dg_cl_maxwell_destroy(&op);
  }
  dg_free(&q), dg_free(&res), dg_free(&rhs), dg_free(&got);
}

static dg_device *device_or_skip(void) {
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK || !dev->info.has_fp64) {
    dg_error_clear();
    dg_device_destroy(&dev);
  }
  return dev;
}

static void test_ricker_dipole_from_rest(void **state) {
  (void)state;
  dg_device *dev = device_or_skip();
  if (!dev) skip();
  dg_verify_case *c = NULL;
  assert_dg_ok(dg_verify_case_create(&c, 3, 2));
  const double x[3] = {0.45, 0.55, 0.5};
  double rst[3];
  const int k = dg_mesh_locate(c->mesh, x, rst);
  assert_true(k >= 0);
  const dg_dipole d = {{x[0], x[1], x[2]}, {0.2, 1, -0.3}, {DG_PULSE_RICKER, 2.0, 0.5, 1.0, 0, 0}};
  assert_dg_ok(dg_maxwell_add_dipole(c->phys, &d, k, rst));
  const size_t n = 6 * (size_t)c->geom->K * c->geom->Np;
  double *q0 = NULL;
  assert_dg_ok(DG_ALLOC(q0, n));
  run(dev, c, q0, 0.45, "Ricker dipole");
  dg_free(&q0);
  dg_verify_case_destroy(&c);
  dg_device_destroy(&dev);
}

static void test_all_sources_from_random_fields(void **state) {
  (void)state;
  dg_device *dev = device_or_skip();
  if (!dev) skip();
  dg_verify_case *c = NULL;
  assert_dg_ok(dg_verify_case_create(&c, 2, 2));
  assert_dg_ok(dg_verify_case_add_sources(c, DG_VERIFY_DIPOLES | DG_VERIFY_PLANE_WAVE));
  const size_t n = 6 * (size_t)c->geom->K * c->geom->Np;
  double *q0 = NULL;
  assert_dg_ok(DG_ALLOC(q0, n));
  dg_verify_random_fields(5, n, q0);
  run(dev, c, q0, DG_VERIFY_SOURCE_TIME, "dipoles + plane wave");
  dg_free(&q0);
  dg_verify_case_destroy(&c);
  dg_device_destroy(&dev);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ricker_dipole_from_rest),
      cmocka_unit_test(test_all_sources_from_random_fields),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

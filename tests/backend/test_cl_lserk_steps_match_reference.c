/* LSERK4 steps on the device in double match the CPU reference time stepping to 1e-10
 * relative to the change of the state (q - q0, what the steps compute; the initial fields
 * in q are not the device's work), for the separate-update, fused-update and CLBlast paths
 * and the fused right-hand sides. */
#include "test_util.h"

#include "backend/cl_maxwell.h"
#include "backend/verify.h"
#include "core/alloc.h"
#include "dg/lserk.h"

static dg_status ref_rhs(void *ctx, double t, const double *q, double *rhs) {
  dg_maxwell_rhs(ctx, t, q, NULL, rhs);
  return DG_OK;
}

static void test_steps_match(void **state) {
  (void)state;
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK || !dev->info.has_fp64) {
    dg_error_clear();
    dg_device_destroy(&dev);
    skip();
  }
  dg_verify_case *c = NULL;
  assert_dg_ok(dg_verify_case_create(&c, 3, 2));
  const size_t n = 6 * (size_t)c->geom->K * c->geom->Np;
  double *q0 = NULL, *q = NULL, *res = NULL, *rhs = NULL, *got = NULL;
  assert_dg_ok(DG_ALLOC(q0, n));
  assert_dg_ok(DG_ALLOC(q, n));
  assert_dg_ok(DG_ALLOC(res, n));
  assert_dg_ok(DG_ALLOC(rhs, n));
  assert_dg_ok(DG_ALLOC(got, n));
  dg_verify_random_fields(7, n, q0);
  const double dt = dg_maxwell_dt(c->phys, 0.5);
  const int steps = 10;
  memcpy(q, q0, n * sizeof *q);
  for (int s = 0; s < steps; ++s) assert_dg_ok(dg_lserk_step(n, q, res, rhs, s * dt, dt, ref_rhs, c->phys));

  const char *specs[] = {"prec=double", "work=vec,vw=8,lift=fused-update,prec=double",
                         "kb=2,lkb=2,lift=fused,prec=double", "path=clblast,prec=double",
                         "work=vec,vw=4,fuse=rhs,prec=double", "kb=2,fuse=res,prec=double"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; ++i) {
    dg_variant v;
    dg_cl_maxwell *op = NULL;
    assert_dg_ok(dg_variant_parse(specs[i], &v));
    assert_dg_ok(dg_cl_maxwell_create(&op, dev, c->phys, &v, NULL));
    assert_dg_ok(dg_cl_maxwell_set_state(op, q0));
    for (int s = 0; s < steps; ++s) assert_dg_ok(dg_cl_maxwell_step(op, s * dt, dt));
    assert_dg_ok(dg_cl_maxwell_get_state(op, got));
    double num = 0, den = 0;
    for (size_t j = 0; j < n; ++j)
      num += (got[j] - q[j]) * (got[j] - q[j]), den += (q[j] - q0[j]) * (q[j] - q0[j]);
    const double rel = sqrt(num / den);
    printf("# %s: %d steps, difference %.2e relative to the change\n", specs[i], steps, rel);
    assert_true(rel < 1e-10);
    dg_cl_maxwell_destroy(&op);
  }
  dg_free(&q0);
  dg_free(&q);
  dg_free(&res);
  dg_free(&rhs);
  dg_free(&got);
  dg_verify_case_destroy(&c);
  dg_device_destroy(&dev);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_steps_match)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The variants added for performance (flux=face, lnpw=2|4) match the CPU reference RHS in
 * float and double, with and without sources (each variant the device cannot run is a SKIP
 * line, and at least 3/4 of them must run), and their specs round-trip while older specs
 * stay canonical. */
#include "test_device.h"

#include "backend/verify.h"

/* New keys print only when set; the canonical form of a spec written before them does not
 * change; bad combinations are refused with a reason. */
static void test_specs(void **state) {
  (void)state;
  const char *old =
      "path=kernels,work=vec,vw=16,kb=1,vplace=none,lkb=1,lplace=none,unroll=4,ops=arg,"
      "lift=fused-update,prec=float";
  const char *with =
      "path=kernels,work=vec,vw=16,kb=1,vplace=none,lkb=1,lplace=none,unroll=4,ops=arg,"
      "lift=fused-update,prec=float,flux=face,lnpw=2";
  dg_variant v;
  char buf[DG_VARIANT_SPEC_MAX];
  assert_dg_ok(dg_variant_parse(old, &v));
  assert_int_equal(v.flux, DG_FLUX_POINT);
  assert_int_equal(v.lnpw, 1);
  assert_string_equal(dg_variant_print(&v, buf, sizeof buf), old);
  assert_dg_ok(dg_variant_parse(with, &v));
  assert_int_equal(v.flux, DG_FLUX_FACE);
  assert_int_equal(v.lnpw, 2);
  assert_string_equal(dg_variant_print(&v, buf, sizeof buf), with);
  assert_dg_error(dg_variant_parse("lift=fused,flux=face", &v), DG_ERR_INPUT, "flux kernel");
  assert_dg_error(dg_variant_parse("lnpw=3", &v), DG_ERR_INPUT, "lnpw");
  assert_dg_error(dg_variant_parse("path=clblast,flux=face", &v), DG_ERR_INPUT,
                  "does not apply to path=clblast");
  assert_dg_error(dg_variant_parse("flux=edge", &v), DG_ERR_INPUT, "point|face");
  /* The lift work-group shrinks with lnpw: ceil(Np / lnpw). */
  v.lnpw = 2;
  assert_int_equal(dg_variant_lift_items(&v, 4), 18); /* Np = 35 */
  v.lnpw = 4;
  assert_int_equal(dg_variant_lift_items(&v, 3), 5); /* Np = 20 */
}

/* Verifies spec on c at time t; 0 if the device cannot run it (said on a SKIP line), 1 if
 * it ran and passed. */
static int check(dg_device *dev, dg_verify_case *c, const char *spec, double t) {
  dg_variant v;
  assert_dg_ok(dg_variant_parse(spec, &v));
  char why[128];
  if (!dg_variant_check(&v, &dev->info, c->geom->N, why, sizeof why)) {
    test_skip_part("%s at N=%d cannot run on this device: %s", spec, c->geom->N, why);
    return 0;
  }
  if (v.precision == DG_PREC_DOUBLE && !dev->info.has_fp64) {
    test_skip_part("%s: the device has no double", spec);
    return 0;
  }
  dg_cl_maxwell *op = NULL;
  assert_dg_ok(dg_cl_maxwell_create(&op, dev, c->phys, &v, NULL));
  double diff = 0;
  int pass = 0;
  assert_dg_ok(dg_cl_verify_op_at(op, c->phys, t, 4242, &diff, &pass));
  printf("# N=%d %s: %.2e\n", c->geom->N, spec, diff);
  assert_true(pass);
  dg_cl_maxwell_destroy(&op);
  return 1;
}

/* Every work split with the face flux, lift blocking with separate and fused-update lifts,
 * local-memory placements, node counts that lnpw does not divide (N=2: Np=10 with lnpw=4;
 * N=4: Np=35 with lnpw=2), both precisions. */
static void test_variants_match(void **state) {
  dg_device *dev = test_device(state, 0);
  static const struct {
    const char *spec;
    int N;
  } cases[] = {
      {"work=vec,vw=16,unroll=4,lift=fused-update,flux=face,prec=float", 3},
      {"work=vec,vw=8,unroll=4,lift=fused-update,flux=face,lnpw=2,prec=double", 4},
      {"work=vec,vw=4,kb=2,lkb=2,lplace=matrix,flux=face,lnpw=4,prec=float", 2},
      {"work=elem,vw=4,lift=fused-update,flux=face,lnpw=2,prec=float", 4},
      {"work=elem,vw=2,lkb=4,lplace=field,flux=face,prec=double", 1},
      {"flux=face,lnpw=2,prec=float", 2},
      {"kb=2,lkb=2,lplace=matrix,lift=fused,lnpw=2,prec=float", 3},
      {"work=vec,vw=16,lift=fused-update,lnpw=2,unroll=full,prec=float", 5},
  };
  const int n = (int)(sizeof cases / sizeof cases[0]);
  int ran = 0;
  for (int i = 0; i < n; ++i) {
    dg_verify_case *c = NULL;
    assert_dg_ok(dg_verify_case_create(&c, cases[i].N, 2));
    ran += check(dev, c, cases[i].spec, 0.0);
    dg_verify_case_destroy(&c);
  }
  /* A device may be too small for one or two, never for most. */
  test_require_ran("variants", ran, n, (3 * n + 3) / 4);
}

/* The face flux evaluates the incident wave itself, and the sources correct its result:
 * dipoles with a total-field wave, and the scattered-field wave on PEC faces. */
static void test_with_sources_match(void **state) {
  dg_device *dev = test_device(state, 0);
  const unsigned flags[2] = {DG_VERIFY_DIPOLES | DG_VERIFY_PLANE_WAVE,
                             DG_VERIFY_PLANE_WAVE | DG_VERIFY_SCATTERED};
  int ran = 0;
  for (int k = 0; k < 2; ++k) {
    dg_verify_case *c = NULL;
    assert_dg_ok(dg_verify_case_create(&c, 3, 2));
    assert_dg_ok(dg_verify_case_add_sources(c, flags[k]));
    ran += check(dev, c, "work=vec,vw=16,unroll=4,lift=fused-update,flux=face,lnpw=2,prec=float",
                 DG_VERIFY_SOURCE_TIME);
    ran += check(dev, c, "work=vec,vw=8,lift=fused-update,flux=face,prec=double",
                 DG_VERIFY_SOURCE_TIME);
    ran += check(dev, c, "work=elem,vw=4,flux=face,lnpw=2,prec=float", DG_VERIFY_SOURCE_TIME);
    dg_verify_case_destroy(&c);
  }
  test_require_ran("variants with sources", ran, 6, 4);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_specs),
                                     cmocka_unit_test(test_variants_match),
                                     cmocka_unit_test(test_with_sources_match)};
  return cmocka_run_group_tests(tests, test_device_setup, test_device_teardown);
}

/* Every dimension value of the variant space, at N = 1..4 in float and double, gives the
 * reference RHS on PoCL within the precision's tolerance (DGTD_TEST_ALL=1: every covering
 * variant at every N and precision, plus an evenly spaced sample of the enumeration). The
 * node-fused kernel (work=node, fuse) also runs with its 4-wide loads where Np is no
 * multiple of 4 (N = 4, Np = 35: a scalar remainder) and past the vector-lane form's order
 * limit (N = 7). */
#include "test_device.h"

#include "backend/verify.h"

/* Each value of each dimension occurs at least once; each (N, precision) pair too. */
static const struct {
  const char *spec;
  int N;
} covering[] = {
    {"prec=float", 1},
    {"prec=double", 2},
    {"work=vec,vw=16,unroll=4,lift=fused-update,prec=float", 3},
    {"work=vec,vw=8,kb=2,vplace=matrix,lkb=2,lplace=field,unroll=full,prec=double", 4},
    {"work=elem,vw=2,kb=4,vplace=field,lkb=4,lplace=matrix,unroll=4,lift=fused,prec=float", 2},
    {"work=elem,vw=4,kb=8,lkb=16,ops=literal,lift=fused-update,prec=double", 3},
    {"kb=16,vplace=field,lkb=8,lplace=field,unroll=full,ops=literal,prec=float", 4},
    {"work=vec,vw=4,kb=4,vplace=matrix,lplace=matrix,lift=fused,prec=double", 1},
    {"kb=8,vplace=matrix,lkb=8,lplace=matrix,lift=fused-update,prec=float", 2},
    {"path=clblast,prec=float", 1},
    {"path=clblast,prec=double", 4},
    {"work=vec,vw=8,kb=4,unroll=4,ops=literal,fuse=rhs,prec=float", 3},
    {"kb=2,unroll=full,fuse=res,prec=double", 2},
    {"kb=4,unroll=4,fuse=rhs,prec=float", 4},
    {"kb=2,unroll=full,fuse=res,prec=double", 7},
    {"work=vec,vw=16,unroll=4,fuse=res,prec=float", 1},
    {"work=vec,vw=4,fuse=rhs,lnpw=2,prec=double", 4},
};

/* Verifies one variant; returns 0 if the device cannot run it (too little local memory,
 * too small a work-group), 1 if it ran. */
static int check(dg_device *dev, const char *spec, int N) {
  dg_variant v;
  assert_dg_ok(dg_variant_parse(spec, &v));
  char why[128];
  if (!dg_variant_check(&v, &dev->info, N, why, sizeof why)) {
    test_skip_part("%s at N=%d cannot run on this device: %s", spec, N, why);
    return 0;
  }
  double diff = 0;
  int pass = 0;
  assert_dg_ok(dg_cl_verify(dev, &v, N, 1234u + (uint64_t)N, &diff, &pass));
  char buf[DG_VARIANT_SPEC_MAX];
  printf("# N=%d %s: %.2e\n", N, dg_variant_print(&v, buf, sizeof buf), diff);
  assert_true(pass);
  assert_true(diff <= dg_verify_tolerance(v.precision));
  return 1;
}

/* The same with a CFS-PML (and dipoles, one inside the layer, an incident wave and a
 * total-field/scattered-field surface at x = 1/2 where it enters interior faces): the
 * PML kernels (pml.cl) in each way the stage can hold its right-hand side (separate update,
 * fused lift-update, fused flux-lift, CLBlast), in both precisions; every covering variant
 * under DGTD_TEST_ALL. Returns 0 if the device cannot run the variant. */
static int check_pml(dg_device *dev, const char *spec, int N) {
  dg_variant v;
  assert_dg_ok(dg_variant_parse(spec, &v));
  char why[128];
  if (!dg_variant_check(&v, &dev->info, N, why, sizeof why)) {
    test_skip_part("PML %s at N=%d cannot run on this device: %s", spec, N, why);
    return 0;
  }
  if (v.precision == DG_PREC_DOUBLE && !dev->info.has_fp64) {
    test_skip_part("PML %s at N=%d: the device has no double", spec, N);
    return 0;
  }
  dg_verify_case *c = NULL;
  assert_dg_ok(dg_verify_case_create(&c, N, 2));
  assert_dg_ok(dg_verify_case_add_sources(c, DG_VERIFY_DIPOLES | DG_VERIFY_PLANE_WAVE |
                                                 DG_VERIFY_PML | DG_VERIFY_TFSF));
  assert_true(c->phys->pml_K > 0 && c->phys->pml_K < c->mesh->K);
  assert_non_null(c->phys->tfsf);
  double diff = 0;
  int pass = 0;
  assert_dg_ok(dg_cl_verify_problem(dev, &v, c->phys, 77u + (uint64_t)N, &diff, &pass));
  char buf[DG_VARIANT_SPEC_MAX];
  printf("# PML+TF/SF N=%d %s: %.2e\n", N, dg_variant_print(&v, buf, sizeof buf), diff);
  assert_true(pass);
  dg_verify_case_destroy(&c);
  return 1;
}

static void test_pml_variants_match_reference(void **state) {
  dg_device *dev = test_device(state, 0);
  const char *all = getenv("DGTD_TEST_ALL");
  const int every = all && all[0] == '1';
  static const int quick[] = {0, 2, 4, 5, 10, 11, 12};
  int ran = 0, tried = 0;
  const size_t n = every ? sizeof covering / sizeof covering[0] : sizeof quick / sizeof quick[0];
  for (size_t i = 0; i < n; ++i) {
    const size_t at = every ? i : (size_t)quick[i];
    ran += check_pml(dev, covering[at].spec, covering[at].N);
    ++tried;
  }
  /* Each runs the PML terms in another form of the stage: too few is too little checked. */
  test_require_ran("PML variants", ran, tried, (3 * tried + 3) / 4);
}

/* A device may be too small for a few variants, never for most: a run that verified fewer
 * than 3/4 of what it tried checked too little to pass. */
static void assert_enough_ran(int ran, int tried) {
  test_require_ran("variants", ran, tried, (3 * tried + 3) / 4);
}

static void test_covering_set_matches_reference(void **state) {
  dg_device *dev = test_device(state, 0);
  const char *all = getenv("DGTD_TEST_ALL");
  const int every = all && all[0] == '1';
  int ran = 0, tried = 0;
  for (size_t i = 0; i < sizeof covering / sizeof covering[0]; ++i) {
    if (!every) {
      if (strstr(covering[i].spec, "prec=double") && !dev->info.has_fp64) {
        test_skip_part("%s at N=%d: the device has no double", covering[i].spec, covering[i].N);
        continue;
      }
      ran += check(dev, covering[i].spec, covering[i].N);
      ++tried;
      continue;
    }
    for (int N = 1; N <= 4; ++N)
      for (int p = 0; p < 2; ++p) {
        char spec[256];
        /* The same variant in the other precision: replace the prec= value. */
        snprintf(spec, sizeof spec, "%s", covering[i].spec);
        char *pr = strstr(spec, "prec=");
        if (pr) *pr = '\0';
        const size_t len = strlen(spec);
        snprintf(spec + len, sizeof spec - len, "prec=%s", p ? "double" : "float");
        dg_variant v;
        assert_dg_ok(dg_variant_parse(spec, &v));
        if (v.precision == DG_PREC_DOUBLE && !dev->info.has_fp64) {
          test_skip_part("%s at N=%d: the device has no double", spec, N);
          continue;
        }
        ran += check(dev, spec, N);
        ++tried;
      }
  }
  assert_enough_ran(ran, tried);
}

static void test_default_variants_match_reference(void **state) {
  dg_device *dev = test_device(state, 0);
  for (int N = 1; N <= 4; ++N) {
    const dg_precision p = N % 2 ? DG_PREC_FLOAT : DG_PREC_DOUBLE;
    if (p == DG_PREC_DOUBLE && !dev->info.has_fp64) {
      test_skip_part("the default variant at N=%d in double: the device has no double", N);
      continue;
    }
    dg_variant v = dg_variant_default(&dev->info, N, p);
    char spec[DG_VARIANT_SPEC_MAX];
    /* The default is chosen to fit the device: it must always run. */
    assert_int_equal(check(dev, dg_variant_print(&v, spec, sizeof spec), N), 1);
  }
}

/* DGTD_TEST_ALL=1 only: every 997th variant of the device's enumeration, about 25 per N and
 * precision (all ~24000 would take hours on PoCL; the prime stride walks every dimension). */
static void test_enumeration_sample_matches_reference(void **state) {
  dg_device *dev = test_device(state, 0);
  for (int N = 1; N <= 4; ++N)
    for (int p = 0; p < 2; ++p) {
      dg_variant *valid = NULL;
      int nv = 0;
      assert_dg_ok(dg_variant_enumerate(&dev->info, N, (dg_precision)p, &valid, &nv, NULL, NULL));
      for (int i = (N * 131 + p * 577) % 997; i < nv; i += 997) {
        char spec[DG_VARIANT_SPEC_MAX];
        /* Enumerated for this device: each must run. */
        assert_int_equal(check(dev, dg_variant_print(&valid[i], spec, sizeof spec), N), 1);
      }
      free(valid);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_covering_set_matches_reference),
      cmocka_unit_test(test_default_variants_match_reference),
      cmocka_unit_test(test_pml_variants_match_reference),
      cmocka_unit_test(test_enumeration_sample_matches_reference),
  };
  /* The sample runs only in make test-all; registered only then (a skipped case would be
   * counted as a skip, and fail under DGTD_TEST_NO_SKIP=1). */
  const char *all = getenv("DGTD_TEST_ALL");
  const size_t n = all && all[0] == '1' ? 4 : 3;
  return _cmocka_run_group_tests("tests", tests, n, test_device_setup, test_device_teardown);
}

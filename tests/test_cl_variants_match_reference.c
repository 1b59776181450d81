/* Every dimension value of the variant space, at N = 1..4 in float and double, gives the
 * reference RHS on PoCL within the precision's tolerance (DGTD_TEST_ALL=1: every covering
 * variant at every N and precision, plus an evenly spaced sample of the enumeration). */
#include "test_util.h"

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
};

static int setup(void **state) {
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    *state = NULL;
    return 0;
  }
  *state = dev;
  return 0;
}

static int teardown(void **state) {
  dg_device *dev = *state;
  dg_device_destroy(&dev);
  return 0;
}

static void check(dg_device *dev, const char *spec, int N) {
  dg_variant v;
  assert_dg_ok(dg_variant_parse(spec, &v));
  char why[128];
  if (!dg_variant_check(&v, &dev->info, N, why, sizeof why)) {
    printf("# skipped on this device: %s at N=%d: %s\n", spec, N, why);
    return;
  }
  double diff = 0;
  int pass = 0;
  assert_dg_ok(dg_cl_verify(dev, &v, N, 1234u + (uint64_t)N, &diff, &pass));
  char buf[DG_VARIANT_SPEC_MAX];
  printf("# N=%d %s: %.2e\n", N, dg_variant_print(&v, buf, sizeof buf), diff);
  assert_true(pass);
  assert_true(diff <= dg_verify_tolerance(v.precision));
}

static void test_covering_set_matches_reference(void **state) {
  dg_device *dev = *state;
  if (!dev) skip();
  const char *all = getenv("DGTD_TEST_ALL");
  const int every = all && all[0] == '1';
  for (size_t i = 0; i < sizeof covering / sizeof covering[0]; ++i) {
    if (!every) {
      check(dev, covering[i].spec, covering[i].N);
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
        if (v.precision == DG_PREC_DOUBLE && !dev->info.has_fp64) continue;
        check(dev, spec, N);
      }
  }
}

static void test_default_variants_match_reference(void **state) {
  dg_device *dev = *state;
  if (!dev) skip();
  for (int N = 1; N <= 4; ++N) {
    const dg_precision p = N % 2 ? DG_PREC_FLOAT : DG_PREC_DOUBLE;
    if (p == DG_PREC_DOUBLE && !dev->info.has_fp64) continue;
    dg_variant v = dg_variant_default(&dev->info, N, p);
    char spec[DG_VARIANT_SPEC_MAX];
    check(dev, dg_variant_print(&v, spec, sizeof spec), N);
  }
}

/* DGTD_TEST_ALL=1 only: every 997th variant of the device's enumeration, about 25 per N and
 * precision (all ~24000 would take hours on PoCL; the prime stride walks every dimension). */
static void test_enumeration_sample_matches_reference(void **state) {
  dg_device *dev = *state;
  if (!dev) skip();
  for (int N = 1; N <= 4; ++N)
    for (int p = 0; p < 2; ++p) {
      dg_variant *valid = NULL;
      int nv = 0;
      assert_dg_ok(dg_variant_enumerate(&dev->info, N, (dg_precision)p, &valid, &nv, NULL, NULL));
      for (int i = (N * 131 + p * 577) % 997; i < nv; i += 997) {
        char spec[DG_VARIANT_SPEC_MAX];
        check(dev, dg_variant_print(&valid[i], spec, sizeof spec), N);
      }
      free(valid);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_covering_set_matches_reference),
      cmocka_unit_test(test_default_variants_match_reference),
      cmocka_unit_test(test_enumeration_sample_matches_reference),
  };
  /* The sample runs only in make test-all; registered only then, since the test runner
   * counts cmocka's "not ok # SKIP" lines as failures. */
  const char *all = getenv("DGTD_TEST_ALL");
  const size_t n = all && all[0] == '1' ? 3 : 2;
  return _cmocka_run_group_tests("tests", tests, n, setup, teardown);
}

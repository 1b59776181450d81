/* Variant spec strings round-trip through parse/print, bad specs give clear errors, and the
 * enumeration prunes variants a device cannot run with a stated reason. */
#include "test_util.h"

#include "backend/variant.h"
#include "core/alloc.h"

static void test_specs_round_trip(void **state) {
  (void)state;
  const char *specs[] = {
      "path=kernels,work=node,vw=1,kb=1,vplace=none,lkb=1,lplace=none,unroll=1,ops=arg,"
      "lift=separate,prec=float",
      "path=kernels,work=vec,vw=16,kb=4,vplace=matrix,lkb=2,lplace=field,unroll=full,ops=literal,"
      "lift=fused-update,prec=double",
      "path=kernels,work=elem,vw=4,kb=8,vplace=field,lkb=16,lplace=matrix,unroll=4,ops=arg,"
      "lift=fused,prec=float",
      "path=clblast,prec=double",
      "path=kernels,work=vec,vw=8,kb=4,vplace=none,lkb=1,lplace=none,unroll=4,ops=literal,"
      "lift=separate,prec=float,fuse=rhs",
      "path=kernels,work=node,vw=1,kb=1,vplace=none,lkb=1,lplace=none,unroll=1,ops=arg,"
      "lift=separate,prec=double,fuse=res",
      "path=kernels,work=node,vw=1,kb=1,vplace=none,lkb=1,lplace=none,unroll=1,ops=arg,"
      "lift=separate,prec=float,test=flip"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; ++i) {
    dg_variant v, w;
    char buf[DG_VARIANT_SPEC_MAX], buf2[DG_VARIANT_SPEC_MAX];
    assert_dg_ok(dg_variant_parse(specs[i], &v));
    assert_string_equal(dg_variant_print(&v, buf, sizeof buf), specs[i]);
    assert_dg_ok(dg_variant_parse(buf, &w));
    assert_string_equal(dg_variant_print(&w, buf2, sizeof buf2), buf);
  }
}

static void test_missing_keys_take_baseline_values(void **state) {
  (void)state;
  dg_variant v, b = dg_variant_baseline(DG_PREC_FLOAT);
  char s1[DG_VARIANT_SPEC_MAX], s2[DG_VARIANT_SPEC_MAX];
  assert_dg_ok(dg_variant_parse("", &v));
  assert_string_equal(dg_variant_print(&v, s1, sizeof s1), dg_variant_print(&b, s2, sizeof s2));
  assert_dg_ok(dg_variant_parse("baseline", &v));
  assert_string_equal(dg_variant_print(&v, s1, sizeof s1), s2);
  assert_dg_ok(dg_variant_parse(" lift=fused , kb=4 ", &v));
  assert_int_equal(v.lift, DG_LIFT_FUSED);
  assert_int_equal(v.kb, 4);
  assert_int_equal(v.lkb, 1);
}

static void test_bad_specs_give_clear_errors(void **state) {
  (void)state;
  dg_variant v;
  assert_dg_error(dg_variant_parse("kb=3", &v), DG_ERR_INPUT, "bad value '3' for kb");
  assert_dg_error(dg_variant_parse("foo=1", &v), DG_ERR_INPUT, "unknown key 'foo'");
  assert_dg_error(dg_variant_parse("vplace=shared", &v), DG_ERR_INPUT, "none|matrix|field");
  assert_dg_error(dg_variant_parse("kb", &v), DG_ERR_INPUT, "not key=value");
  assert_dg_error(dg_variant_parse("kb=2,kb=4", &v), DG_ERR_INPUT, "given twice");
  assert_dg_error(dg_variant_parse("work=vec", &v), DG_ERR_INPUT, "vw >= 2");
  assert_dg_error(dg_variant_parse("vw=4", &v), DG_ERR_INPUT, "work=node takes vw=1");
  assert_dg_error(dg_variant_parse("lift=fused,lplace=field", &v), DG_ERR_INPUT,
                  "lplace=none|matrix");
  assert_dg_error(dg_variant_parse("path=clblast,kb=4", &v), DG_ERR_INPUT,
                  "does not apply to path=clblast");
  assert_dg_error(dg_variant_parse("unroll=2", &v), DG_ERR_INPUT, "1|4|full");
  assert_dg_error(dg_variant_parse("prec=half", &v), DG_ERR_INPUT, "float|double");
  assert_dg_error(dg_variant_parse("fuse=all", &v), DG_ERR_INPUT, "none|rhs|res");
  assert_dg_error(dg_variant_parse("work=elem,vw=4,fuse=rhs", &v), DG_ERR_INPUT,
                  "work=node|vec");
  assert_dg_error(dg_variant_parse("fuse=res,lift=fused-update", &v), DG_ERR_INPUT,
                  "baseline values");
  assert_dg_error(dg_variant_parse("fuse=rhs,flux=face", &v), DG_ERR_INPUT, "baseline values");
  assert_dg_error(dg_variant_parse("path=clblast,fuse=rhs", &v), DG_ERR_INPUT,
                  "does not apply to path=clblast");
}

static dg_device_info small_device(void) {
  dg_device_info info;
  memset(&info, 0, sizeof info);
  snprintf(info.name, sizeof info.name, "test device");
  info.type = CL_DEVICE_TYPE_GPU;
  info.max_work_group_size = 256;
  info.max_work_item_size[0] = info.max_work_item_size[1] = info.max_work_item_size[2] = 256;
  info.local_mem_size = 16384;
  info.max_constant_buffer_size = 65536;
  info.has_fp64 = 0;
  return info;
}

static void test_checks_name_the_device_limit(void **state) {
  (void)state;
  const dg_device_info info = small_device();
  dg_variant v = dg_variant_baseline(DG_PREC_DOUBLE);
  char why[128];
  assert_false(dg_variant_check(&v, &info, 3, why, sizeof why));
  assert_non_null(strstr(why, "fp64"));
  v = dg_variant_baseline(DG_PREC_FLOAT);
  v.kb = 16; /* 56 x 16 work-items at N=5 */
  assert_false(dg_variant_check(&v, &info, 5, why, sizeof why));
  assert_non_null(strstr(why, "work-group"));
  v.kb = 1;
  v.vplace = DG_PLACE_MATRIX; /* 3 * 56^2 * 4 B = 37 KB */
  assert_false(dg_variant_check(&v, &info, 5, why, sizeof why));
  assert_non_null(strstr(why, "local memory"));
  v.vplace = DG_PLACE_NONE;
  v.literal = 1;
  assert_false(dg_variant_check(&v, &info, 5, why, sizeof why));
  assert_non_null(strstr(why, "literal"));
  assert_true(dg_variant_check(&v, &info, 3, why, sizeof why));
  /* fuse with vector lanes: a work-group of kb work-items, one block each; only up to the
   * fuse order. */
  v = dg_variant_baseline(DG_PREC_FLOAT);
  v.work = DG_WORK_VEC;
  v.vw = 4;
  v.fuse = DG_FUSE_RES;
  v.kb = 16;
  assert_true(dg_variant_check(&v, &info, 5, why, sizeof why));
  assert_false(dg_variant_check(&v, &info, DG_VARIANT_FUSE_MAX_N + 1, why, sizeof why));
  assert_non_null(strstr(why, "fuse=res only for N <="));
  /* fuse with work=node: Np x kb work-items, the kb elements' fields and fluxes in local
   * memory, so past the fuse order too while they fit (N=3 float: 6 (20 + 40) 4 B = 1440 B
   * per element; 16 KiB hold 11), one node per work-item. */
  v.work = DG_WORK_NODE;
  v.vw = 1;
  v.kb = 1;
  assert_true(dg_variant_check(&v, &info, DG_VARIANT_FUSE_MAX_N + 1, why, sizeof why));
  v.kb = 11;
  assert_int_equal(dg_variant_local_bytes_volume(&v, 3), 11 * 1440);
  assert_true(dg_variant_check(&v, &info, 3, why, sizeof why));
  v.kb = 12;
  assert_false(dg_variant_check(&v, &info, 3, why, sizeof why));
  assert_non_null(strstr(why, "local memory"));
  v.kb = 1;
  v.lnpw = 2;
  assert_false(dg_variant_check(&v, &info, 3, why, sizeof why));
  assert_non_null(strstr(why, "lnpw=1"));
}

static void test_enumeration_prunes_with_reasons(void **state) {
  (void)state;
  const dg_device_info info = small_device();
  dg_variant *valid = NULL;
  dg_variant_pruned *pruned = NULL;
  int nv = 0, np = 0;
  assert_dg_ok(dg_variant_enumerate(&info, 5, DG_PREC_FLOAT, &valid, &nv, &pruned, &np));
  assert_true(nv > 100);
  assert_true(np > 100);
  char why[128];
  for (int i = 0; i < nv; ++i) assert_true(dg_variant_check(&valid[i], &info, 5, why, sizeof why));
  for (int i = 0; i < np; ++i) assert_true(strlen(pruned[i].reason) > 0);
  int has_blas = 0, fuse[DG_FUSE_COUNT] = {0};
  for (int i = 0; i < nv; ++i) has_blas |= valid[i].path == DG_PATH_CLBLAST;
  for (int i = 0; i < nv; ++i) {
    assert_in_range(valid[i].fuse, 0, DG_FUSE_COUNT - 1);
    fuse[valid[i].fuse] = 1;
  }
  assert_true(has_blas);
  for (int f = 0; f < DG_FUSE_COUNT; ++f) assert_true(fuse[f]); /* every fuse value enumerated */
  dg_free(&valid);
  dg_free(&pruned);
  /* No fp64: every double variant is pruned. */
  assert_dg_ok(dg_variant_enumerate(&info, 2, DG_PREC_DOUBLE, &valid, &nv, &pruned, &np));
  assert_int_equal(nv, 0);
  assert_non_null(strstr(pruned[0].reason, "fp64"));
  dg_free(&valid);
  dg_free(&pruned);
}

static void test_defaults_are_valid(void **state) {
  (void)state;
  dg_device_info gpu = small_device();
  gpu.has_fp64 = 1;
  dg_device_info cpu = gpu;
  cpu.type = CL_DEVICE_TYPE_CPU;
  cpu.local_mem_size = 1 << 20;
  cpu.max_work_group_size = 4096;
  char why[128];
  for (int N = 1; N <= 8; ++N)
    for (int p = 0; p < 2; ++p) {
      dg_variant g = dg_variant_default(&gpu, N, (dg_precision)p);
      dg_variant c = dg_variant_default(&cpu, N, (dg_precision)p);
      assert_true(dg_variant_check(&g, &gpu, N, why, sizeof why));
      assert_true(dg_variant_check(&c, &cpu, N, why, sizeof why));
      assert_int_equal(c.work, DG_WORK_VEC);
      assert_int_equal(g.work, DG_WORK_NODE);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_specs_round_trip),
      cmocka_unit_test(test_missing_keys_take_baseline_values),
      cmocka_unit_test(test_bad_specs_give_clear_errors),
      cmocka_unit_test(test_checks_name_the_device_limit),
      cmocka_unit_test(test_enumeration_prunes_with_reasons),
      cmocka_unit_test(test_defaults_are_valid),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

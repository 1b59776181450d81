/* A device without its own entry uses, and names, an entry of the same device name under
 * another driver, else one of the same vendor, else misses cleanly with the default; a
 * fallback winner the device cannot run is never used. */
#include "test_tune_util.h"

static void test_fallback_chain(void **state) {
  (void)state;
  char root[64], path[DG_TUNE_PATH + 64], desc[4096];
  dg_tune_paths paths;
  tt_paths(&paths, root);
  const uint64_t h = 42;
  /* Shipped: "Accel 9000" tuned with driver 1.0; "Accel 100" of the same vendor. */
  const dg_device_info a1 = tt_info("Accel 9000", "Acme", "1.0");
  const dg_device_info small = tt_info("Accel 100", "Acme", "3.3");
  dg_device_key k;
  dg_device_key_from_info(&a1, &k);
  dg_tune_cache_file(paths.shipped_dir, a1.name, path, sizeof path);
  dg_tune_entry e = tt_entry(3, DG_PREC_FLOAT, h, "work=elem,vw=2,kb=4");
  assert_dg_ok(dg_tune_cache_store(path, &k, NULL, &e, NULL, 0));
  dg_device_key_from_info(&small, &k);
  dg_tune_cache_file(paths.shipped_dir, small.name, path, sizeof path);
  e = tt_entry(3, DG_PREC_FLOAT, h, "work=elem,vw=4,kb=16");
  assert_dg_ok(dg_tune_cache_store(path, &k, NULL, &e, NULL, 0));

  dg_variant v;
  /* Same name, new driver. */
  const dg_device_info a2 = tt_info("Accel 9000", "Acme", "2.0");
  assert_int_equal(dg_tune_lookup_at(&paths, &a2, 3, DG_PREC_FLOAT, h, &v, NULL, desc, sizeof desc),
                   DG_TUNE_FALLBACK);
  printf("# %s\n", desc);
  assert_non_null(strstr(desc, "same device name"));
  assert_non_null(strstr(desc, "1.0"));
  assert_true(v.work == DG_WORK_ELEM && v.vw == 2 && v.kb == 4);

  /* Same vendor, unknown model. */
  const dg_device_info other = tt_info("Accel 5", "Acme", "2.0");
  assert_int_equal(dg_tune_lookup_at(&paths, &other, 3, DG_PREC_FLOAT, h, &v, NULL, desc, sizeof desc),
                   DG_TUNE_FALLBACK);
  printf("# %s\n", desc);
  assert_non_null(strstr(desc, "same vendor"));
  assert_int_equal(v.work, DG_WORK_ELEM);

  /* Same vendor, but a device whose work-groups are too small for either winner
   * (Np = 20 x kb 4 = 80 items > 64): no usable fallback, a clean miss. */
  dg_device_info tiny = tt_info("Accel 1", "Acme", "2.0");
  tiny.max_work_group_size = 64;
  assert_int_equal(dg_tune_lookup_at(&paths, &tiny, 3, DG_PREC_FLOAT, h, &v, NULL, desc, sizeof desc),
                   DG_TUNE_MISS);
  const dg_variant dt = dg_variant_default(&tiny, 3, DG_PREC_FLOAT);
  assert_memory_equal(&v, &dt, sizeof v);

  /* Unknown vendor: miss, default, and the message says where it looked. */
  const dg_device_info u = tt_info("Mystery", "Nobody", "0.1");
  assert_int_equal(dg_tune_lookup_at(&paths, &u, 3, DG_PREC_FLOAT, h, &v, NULL, desc, sizeof desc),
                   DG_TUNE_MISS);
  printf("# %s\n", desc);
  assert_non_null(strstr(desc, paths.shipped_dir));
  const dg_variant du = dg_variant_default(&u, 3, DG_PREC_FLOAT);
  assert_memory_equal(&v, &du, sizeof v);

  /* Fallback entries must be fresh too. */
  assert_int_equal(dg_tune_lookup_at(&paths, &a2, 3, DG_PREC_FLOAT, h + 1, &v, NULL, desc, sizeof desc),
                   DG_TUNE_MISS);
  /* No directories at all: a miss, not an error. */
  dg_tune_paths none;
  memset(&none, 0, sizeof none);
  snprintf(none.cache_dir, sizeof none.cache_dir, "%s/nope", root);
  snprintf(none.shipped_dir, sizeof none.shipped_dir, "%s/nope2", root);
  assert_int_equal(dg_tune_lookup_at(&none, &a2, 3, DG_PREC_FLOAT, h, &v, NULL, desc, sizeof desc),
                   DG_TUNE_MISS);
  tt_rmrf(root);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_fallback_chain)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

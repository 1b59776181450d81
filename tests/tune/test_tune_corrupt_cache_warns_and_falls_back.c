/* A corrupt cache file (garbage, truncated JSON, wrong structure, incomplete entries) gives
 * a warning and the default or another valid source, never a crash or a wrong variant; the
 * next store moves it aside and writes a valid file. */
#include "core/files.h"
#include "test_tune_util.h"

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static void test_corrupt_files(void **state) {
  (void)state;
  char root[64], path[DG_TUNE_PATH + 64], desc[4096];
  dg_tune_paths paths;
  tt_paths(&paths, root);
  assert_dg_ok(dg_mkdir_p(paths.cache_dir));
  assert_dg_ok(dg_mkdir_p(paths.shipped_dir));
  const dg_device_info info = tt_info("Corrupt Device", "Test Vendor", "1.0");
  dg_device_key key;
  dg_device_key_from_info(&info, &key);
  dg_tune_cache_file(paths.cache_dir, info.name, path, sizeof path);
  const dg_variant dflt = dg_variant_default(&info, 2, DG_PREC_FLOAT);
  const char *bad[] = {
      "\x01\x02 not json at all",
      "{\"format\": \"dgtd-tuning/1\", \"devices\": [{\"key\": {",
      "[1, 2, 3]",
      "{\"format\": \"something-else\", \"devices\": []}",
      "{\"format\": \"dgtd-tuning/1\", \"devices\": {}}",
      "",
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
    write_file(path, bad[i]);
    dg_variant v;
    desc[0] = '\0';
    assert_int_equal(dg_tune_lookup_at(&paths, &info, 2, DG_PREC_FLOAT, 7, &v, NULL, desc, sizeof desc),
                     DG_TUNE_MISS);
    assert_non_null(strstr(desc, "warning"));
    assert_memory_equal(&v, &dflt, sizeof v);
    dg_tune_file f;
    int exists = 0;
    assert_dg_error(dg_tune_file_read(path, &f, &exists, NULL), DG_ERR_PARSE, path);
  }
  printf("# %s\n", desc);

  /* Incomplete entries (no winner; a winner that is not a variant; a test variant) are
   * dropped with a warning, the complete one is used. */
  char text[4096];
  dg_tune_entry good = tt_entry(2, DG_PREC_FLOAT, 7, "work=vec,vw=4");
  snprintf(text, sizeof text,
           "{\"format\": \"dgtd-tuning/1\", \"devices\": [{\"key\": {\"platform_name\": \"%s\", "
           "\"platform_version\": \"%s\", \"name\": \"%s\", \"vendor\": \"%s\", \"driver_version\": "
           "\"%s\", \"device_version\": \"%s\", \"compute_units\": %u}, \"entries\": ["
           "{\"N\": 2, \"precision\": \"float\"},"
           "{\"N\": 2, \"precision\": \"float\", \"kernel_set\": \"maxwell-lserk4\", \"template_hash\": \"7\", "
           "\"winner\": \"work=bogus\", \"median_ns\": 1, \"min_ns\": 1, \"max_ns\": 1, \"runner_up\": \"\", "
           "\"runner_up_margin\": 0, \"date\": \"x\"},"
           "{\"N\": 2, \"precision\": \"float\", \"kernel_set\": \"maxwell-lserk4\", \"template_hash\": \"7\", "
           "\"winner\": \"test=flip\", \"median_ns\": 1, \"min_ns\": 1, \"max_ns\": 1, \"runner_up\": \"\", "
           "\"runner_up_margin\": 0, \"date\": \"x\"},"
           "{\"N\": 2, \"precision\": \"float\", \"kernel_set\": \"maxwell-lserk4\", \"template_hash\": \"7\", "
           "\"winner\": \"%s\", \"median_ns\": 1, \"min_ns\": 1, \"max_ns\": 1, \"runner_up\": \"\", "
           "\"runner_up_margin\": 0, \"date\": \"x\"}]}]}",
           key.platform_name, key.platform_version, key.name, key.vendor, key.driver_version,
           key.device_version, key.compute_units, good.winner);
  write_file(path, text);
  dg_variant v;
  desc[0] = '\0';
  assert_int_equal(dg_tune_lookup_at(&paths, &info, 2, DG_PREC_FLOAT, 7, &v, NULL, desc, sizeof desc),
                   DG_TUNE_HIT);
  assert_true(v.work == DG_WORK_VEC && v.vw == 4 && v.test == DG_VTEST_NONE);
  assert_non_null(strstr(desc, "3 incomplete entries ignored"));

  /* A corrupt user cache does not hide a valid shipped file. */
  write_file(path, "{{{{");
  char shipped[DG_TUNE_PATH + 64];
  dg_tune_cache_file(paths.shipped_dir, info.name, shipped, sizeof shipped);
  assert_dg_ok(dg_tune_cache_store(shipped, &key, NULL, &good, NULL, 0));
  desc[0] = '\0';
  assert_int_equal(dg_tune_lookup_at(&paths, &info, 2, DG_PREC_FLOAT, 7, &v, NULL, desc, sizeof desc),
                   DG_TUNE_HIT);
  assert_non_null(strstr(desc, "warning"));
  assert_non_null(strstr(desc, shipped));

  /* Storing over the corrupt file moves it aside and leaves a valid file. */
  char note[2048];
  assert_dg_ok(dg_tune_cache_store(path, &key, NULL, &good, note, sizeof note));
  assert_non_null(strstr(note, ".corrupt"));
  dg_tune_file f;
  int exists = 0;
  assert_dg_ok(dg_tune_file_read(path, &f, &exists, NULL));
  assert_int_equal(f.n, 1);
  assert_int_equal(f.devices[0].n, 1);
  dg_tune_file_free(&f);
  tt_rmrf(root);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_corrupt_files)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

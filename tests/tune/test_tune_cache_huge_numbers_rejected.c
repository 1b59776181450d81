/* Numbers in a tuning cache file that do not fit the integer they become (compute units
 * 1e30, K 1e300, a stage of -5) are checked before any conversion (converting them is
 * undefined behaviour): a device record with impossible compute units is not read as this
 * device's, and out-of-range optional fields are ignored (issue 17 item 14). */
#include "core/files.h"
#include "test_tune_util.h"

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  static char buf[1 << 16];
  const size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  return buf;
}

static void replace(char *text, const char *from, const char *to) {
  char *at = strstr(text, from);
  if (!at) fail_msg("\"%s\" not in the cache file", from);
  char tail[1 << 16];
  snprintf(tail, sizeof tail, "%s", at + strlen(from));
  snprintf(at, (size_t)(1 << 16) - (size_t)(at - text), "%s%s", to, tail);
}

static void test_huge_numbers(void **state) {
  (void)state;
  char root[64], path[DG_TUNE_PATH + 64];
  dg_tune_paths paths;
  tt_paths(&paths, root);
  assert_dg_ok(dg_mkdir_p(paths.cache_dir));
  const dg_device_info info = tt_info("Huge Device", "Test Vendor", "1.0");
  dg_device_key key;
  dg_device_key_from_info(&info, &key);
  dg_tune_cache_file(paths.cache_dir, info.name, path, sizeof path);
  dg_tune_entry e = tt_entry(2, DG_PREC_FLOAT, 7, "work=vec,vw=8");
  e.K = 384;
  e.variants_valid = 10;
  char note[512];
  assert_dg_ok(dg_tune_cache_store(path, &key, NULL, &e, note, sizeof note));

  char *text = slurp(path);
  char good[1 << 16];
  snprintf(good, sizeof good, "%s", text);
  /* Optional fields out of range: the entry stays, the fields are not taken. */
  replace(text, "\"K\":\t384", "\"K\":\t1e300");
  replace(text, "\"variants_valid\":\t10", "\"variants_valid\":\t-1e20");
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  dg_tune_file tf;
  int exists = 0, dropped = 0;
  assert_dg_ok(dg_tune_file_read(path, &tf, &exists, &dropped));
  assert_int_equal(tf.n, 1);
  assert_int_equal(tf.devices[0].n, 1);
  assert_int_equal(tf.devices[0].entries[0].K, 0);
  assert_int_equal(tf.devices[0].entries[0].variants_valid, 0);
  dg_tune_file_free(&tf);

  /* Compute units no device has: not this device's record. */
  snprintf(text, sizeof good, "%s", good);
  replace(text, "\"compute_units\":\t2", "\"compute_units\":\t1e30");
  f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  const dg_status st = dg_tune_file_read(path, &tf, &exists, &dropped);
  if (st == DG_OK) {
    for (int i = 0; i < tf.n; ++i) assert_false(dg_device_key_equal(&tf.devices[i].key, &key));
    dg_tune_file_free(&tf);
  } else {
    dg_error_clear();
  }
  tt_rmrf(root);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_huge_numbers)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

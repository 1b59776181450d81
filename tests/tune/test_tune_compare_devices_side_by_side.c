/* `dgtd tune --report` (dg_tune_compare): the winners of a shipped file and of the user
 * cache, two devices 100x apart in speed, side by side: one row per (device, N, precision)
 * naming where it came from, MDOF/s from the entry's K and median (DOFs x RHS evaluations
 * per second), x baseline, the model's rank, and a star on an entry tuned with other
 * templates. With gnuplot installed the PNG is drawn (a logarithmic axis at that spread:
 * gnuplot refusing the script fails the call). */
#include "test_tune_util.h"

#include <sys/stat.h>
#include <unistd.h>

static void store(const char *dir, const char *name, const dg_tune_entry *e) {
  const dg_device_info info = tt_info(name, "Test Vendor", "1.0");
  dg_device_key key;
  dg_device_key_from_info(&info, &key);
  char path[DG_TUNE_PATH + 64];
  dg_tune_cache_file(dir, name, path, sizeof path);
  assert_dg_ok(dg_tune_cache_store(path, &key, NULL, e, NULL, 0));
}

static void test_report_rows_and_plot(void **state) {
  (void)state;
  char root[64];
  dg_tune_paths paths;
  tt_paths(&paths, root);
  uint64_t hash = 0;
  assert_dg_ok(dg_codegen_templates_hash(NULL, &hash));

  /* Shipped: a slow CPU at N = 2 (fresh) and N = 3 (tuned with other templates). */
  dg_tune_entry cpu = tt_entry(2, DG_PREC_FLOAT, hash, "work=vec,vw=8,fuse=rhs");
  cpu.baseline_ns = 4e6; /* x4 */
  store(paths.shipped_dir, "Test CPU", &cpu);
  dg_tune_entry old = tt_entry(3, DG_PREC_FLOAT, hash ^ 1, "prec=float");
  store(paths.shipped_dir, "Test CPU", &old);
  /* The user's cache: a GPU 100x faster at N = 2, the model's second guess. */
  dg_tune_entry gpu = tt_entry(2, DG_PREC_FLOAT, hash, "kb=16,fuse=rhs");
  gpu.median_ns = 1e4;
  gpu.model_rank = 2;
  store(paths.cache_dir, "Test GPU", &gpu);

  char txt[200], png[200];
  snprintf(txt, sizeof txt, "%s/report.txt", root);
  snprintf(png, sizeof png, "%s/report.png", root);
  FILE *f = fopen(txt, "w+");
  assert_non_null(f);
  const int plot = system("command -v gnuplot > /dev/null 2>&1") == 0;
  assert_dg_ok(dg_tune_compare(&paths, f, plot ? png : NULL));
  rewind(f);
  char line[1024];
  int cpu2 = 0, cpu3 = 0, gpu2 = 0;
  /* K = 100 elements at N = 2: 6 x 10 x 100 = 6000 DOFs; 1 ms -> 6 MDOF/s, 10 us -> 600 */
  while (fgets(line, sizeof line, f)) {
    if (strstr(line, "Test CPU") && strstr(line, " 2  ")) {
      cpu2 = 1;
      assert_non_null(strstr(line, "shipped"));
      assert_non_null(strstr(line, " 6.0 "));
      assert_non_null(strstr(line, " 4.00 "));
      assert_null(strstr(line, " *"));
    }
    if (strstr(line, "Test CPU") && strstr(line, " 3  ")) {
      cpu3 = 1;
      assert_non_null(strstr(line, " *")); /* stale */
    }
    if (strstr(line, "Test GPU")) {
      gpu2 = 1;
      assert_non_null(strstr(line, "cache"));
      assert_non_null(strstr(line, " 600.0 "));
      assert_non_null(strstr(line, "(#2)"));
    }
  }
  fclose(f);
  assert_true(cpu2 && cpu3 && gpu2);
  if (plot) {
    struct stat st;
    assert_int_equal(stat(png, &st), 0);
    assert_true(st.st_size > 1000);
  } else {
    printf("# gnuplot not installed: the PNG is not drawn\n");
  }
  tt_rmrf(root);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_report_rows_and_plot)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

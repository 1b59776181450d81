/* $DGTD_CL_OPTIONS reaches every build after the program's own options: a source that
 * refuses to compile without a macro builds with it, fails naming it without, and the
 * binary cache keys by it (a different value is a miss, the same one a load). With a dump
 * directory the build leaves <label>.kernels: one line per kernel with its name and the
 * CL_KERNEL_* work-group size, preferred multiple, local and private memory sizes, the
 * local size being the kernel's own __local array. */
#include "test_device.h"

#include <stdlib.h>

#include "device/binary_cache.h"
#include "device/profiles.h"
#include "device/program.h"

/* Builds only with -DDG_EXTRA=1; uses 64 floats of local memory. */
static const char src[] =
    "#if !defined(DG_EXTRA) || DG_EXTRA != 1\n#error needs DG_EXTRA=1\n#endif\n"
    "__kernel void twice(__global float *x) {\n"
    "  __local float s[64];\n"
    "  s[get_local_id(0)] = x[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  x[get_global_id(0)] = 2.0f * s[get_local_id(0)];\n"
    "}\n";

/* A device's own options: Intel's Data Center GPU Max gets 256 registers per thread (its
 * compiler spills the double volume kernel with 128), Arc and NVIDIA nothing; they come
 * between the program's options and $DGTD_CL_OPTIONS. */
static void test_device_options_by_profile(void **state) {
  (void)state;
  unsetenv("DGTD_CL_OPTIONS");
  const dg_device_profile *pvc = dg_device_profile_find("intel-pvc");
  const dg_device_profile *dg2 = dg_device_profile_find("intel-dg2");
  const dg_device_profile *h100 = dg_device_profile_find("nvidia-sm90");
  assert_non_null(pvc);
  assert_non_null(dg2);
  assert_non_null(h100);
  assert_string_equal(dg_device_build_options(&pvc->info), "-cl-intel-256-GRF-per-thread");
  assert_string_equal(dg_device_build_options(&dg2->info), "");
  assert_string_equal(dg_device_build_options(&h100->info), "");
  char buf[128];
  assert_string_equal(dg_program_options(&pvc->info, "-DA=1", buf, sizeof buf),
                      "-DA=1 -cl-intel-256-GRF-per-thread");
  setenv("DGTD_CL_OPTIONS", "-DB=2", 1);
  assert_string_equal(dg_program_options(&pvc->info, NULL, buf, sizeof buf),
                      "-cl-intel-256-GRF-per-thread -DB=2");
  assert_string_equal(dg_program_options(&h100->info, "", buf, sizeof buf), "-DB=2");
  unsetenv("DGTD_CL_OPTIONS");
}

static void test_options_from_the_environment(void **state) {
  test_scratch *s = *state;
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    skip();
  }
  char buf[64];
  assert_string_equal(dg_program_options(&dev->info, "-DA=1", buf, sizeof buf), "-DA=1");
  cl_program p = NULL;
  unsetenv("DGTD_CL_OPTIONS");
  assert_int_equal(dg_program_build(dev, src, NULL, "extra", NULL, &p), DG_ERR_OPENCL);
  assert_non_null(strstr(dg_error_message(), "needs DG_EXTRA=1"));
  dg_error_clear();

  setenv("DGTD_CL_OPTIONS", "-DDG_EXTRA=1", 1);
  assert_string_equal(dg_program_options(&dev->info, "-DA=1", buf, sizeof buf), "-DA=1 -DDG_EXTRA=1");
  assert_string_equal(dg_program_options(&dev->info, NULL, buf, sizeof buf), "-DDG_EXTRA=1");
  assert_dg_ok(dg_program_build(dev, src, NULL, "extra", s->dir, &p));
  test_run_twice(dev, p);
  dg_program_release(&p);

  /* The dump: source, options with the extra ones, and the kernel table. */
  char path[256], line[256];
  snprintf(path, sizeof path, "%s/extra.options", s->dir);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  assert_non_null(fgets(line, sizeof line, f));
  fclose(f);
  assert_non_null(strstr(line, "-DDG_EXTRA=1"));
  snprintf(path, sizeof path, "%s/extra.kernels", s->dir);
  f = fopen(path, "r");
  assert_non_null(f);
  assert_non_null(fgets(line, sizeof line, f)); /* header */
  assert_int_equal(line[0], '#');
  assert_non_null(fgets(line, sizeof line, f));
  fclose(f);
  char name[64];
  unsigned long long wg = 0, mult = 0, lmem = 0, pmem = 0;
  assert_int_equal(sscanf(line, "%63s %llu %llu %llu %llu", name, &wg, &mult, &lmem, &pmem), 5);
  assert_string_equal(name, "twice");
  assert_true(wg >= 1);
  assert_true(lmem >= 64 * sizeof(float));

  /* The cache: a miss and a save, a load, then another value of the options is a miss. */
  char cdir[200];
  snprintf(cdir, sizeof cdir, "%s/bin", s->dir);
  dg_binary_cache bc;
  dg_binary_cache_init(&bc, cdir);
  assert_dg_ok(dg_program_build_cached(&bc, dev, src, NULL, "extra", NULL, &p));
  dg_program_release(&p);
  assert_dg_ok(dg_program_build_cached(&bc, dev, src, NULL, "extra", NULL, &p));
  dg_program_release(&p);
  assert_int_equal(bc.misses, 1);
  assert_int_equal(bc.loads, 1);
  setenv("DGTD_CL_OPTIONS", "-DDG_EXTRA=1 -DOTHER=2", 1);
  assert_dg_ok(dg_program_build_cached(&bc, dev, src, NULL, "extra", NULL, &p));
  test_run_twice(dev, p);
  dg_program_release(&p);
  assert_int_equal(bc.misses, 2);
  assert_int_equal(bc.loads, 1);
  unsetenv("DGTD_CL_OPTIONS");
  dg_device_destroy(&dev);
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_device_options_by_profile),
      cmocka_unit_test(test_options_from_the_environment),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

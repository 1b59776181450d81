/* The second build of the same source (same device, same options) loads the cached program
 * binary instead of compiling; other source or options miss; a damaged binary file falls
 * back to the source. Asserted on the cache's counters, not on time. */
#include "test_device.h"

#include <unistd.h>

#include "device/binary_cache.h"
#include "device/program.h"

static const char *src = test_twice_source;

static void test_second_build_loads_binary(void **state) {
  (void)state;
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    skip();
  }
  char dir[64] = "/tmp/dgtd-test-bincache-XXXXXX";
  assert_non_null(mkdtemp(dir));
  dg_binary_cache bc;
  dg_binary_cache_init(&bc, dir);
  cl_program p = NULL;
  assert_dg_ok(dg_program_build_cached(&bc, dev, src, "-DX=1", "twice", NULL, &p));
  assert_int_equal(bc.misses, 1);
  assert_int_equal(bc.saves, 1);
  assert_int_equal(bc.loads, 0);
  test_run_twice(dev, p);
  dg_program_release(&p);

  assert_dg_ok(dg_program_build_cached(&bc, dev, src, "-DX=1", "twice", NULL, &p));
  assert_int_equal(bc.loads, 1);
  assert_int_equal(bc.misses, 1);
  test_run_twice(dev, p); /* the loaded program works */
  dg_program_release(&p);

  /* Other options: a different key. */
  assert_dg_ok(dg_program_build_cached(&bc, dev, src, "-DX=2", "twice", NULL, &p));
  assert_int_equal(bc.misses, 2);
  dg_program_release(&p);

  /* Damage every cached file: the build falls back to source and rewrites it. */
  char cmd[256];
  snprintf(cmd, sizeof cmd, "for f in %s/*.bin; do head -c 40 \"$f\" > \"$f.x\"; mv \"$f.x\" \"$f\"; done", dir);
  assert_int_equal(system(cmd), 0);
  const int failures = bc.failures;
  assert_dg_ok(dg_program_build_cached(&bc, dev, src, "-DX=1", "twice", NULL, &p));
  assert_int_equal(bc.misses, 3);
  test_run_twice(dev, p);
  dg_program_release(&p);
  assert_dg_ok(dg_program_build_cached(&bc, dev, src, "-DX=1", "twice", NULL, &p));
  assert_int_equal(bc.loads, 2);
  assert_true(bc.failures >= failures);
  dg_program_release(&p);

  /* A build error is reported as by dg_program_build, through the cache too. */
  assert_dg_error(dg_program_build_cached(&bc, dev, "__kernel void broken( {", NULL, "broken",
                                          NULL, &p),
                  DG_ERR_OPENCL, "clBuildProgram");
  assert_int_equal(test_rmrf(dir), 0);
  dg_device_destroy(&dev);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_second_build_loads_binary)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The shared OpenCL device fixture: the default device (dg_device_create(NULL): $DGTD_DEVICE,
 * else the first GPU, else the first device) for a group of tests, or NULL when the machine
 * has none, in which case each test skips with a line saying why. */
#ifndef DG_TEST_DEVICE_H
#define DG_TEST_DEVICE_H

#include "test_util.h"

#include "backend/variant.h" /* dg_precision */
#include "device/device.h"
#include "device/program.h"

/* cmocka group setup / teardown: *state is the device or NULL. */
static inline int test_device_setup(void **state) {
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    fprintf(stderr, "# no OpenCL device: %s\n", dg_error_message());
    dg_error_clear();
  }
  *state = dev;
  return 0;
}

static inline int test_device_teardown(void **state) {
  dg_device *dev = *state;
  dg_device_destroy(&dev);
  return 0;
}

/* The group's device; skips the test without one (or, need_fp64, without double). */
static inline dg_device *test_device(void **state, int need_fp64) {
  dg_device *dev = *state;
  if (!dev || (need_fp64 && !dev->info.has_fp64)) skip();
  return dev;
}

/* For tests that run whole cases (which open their own device): skips the test when there
 * is no device; else the best precision the default device has. */
static inline dg_precision test_device_best_precision(void) {
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    skip();
  }
  const dg_precision p = dev->info.has_fp64 ? DG_PREC_DOUBLE : DG_PREC_FLOAT;
  dg_device_destroy(&dev);
  return p;
}

/* A one-kernel program for build and cache tests: twice(x) doubles x. */
static const char test_twice_source[] =
    "__kernel void twice(__global float *x) { x[get_global_id(0)] *= 2.0f; }\n";

/* Runs twice from p on {1, 2, 3, 4} and checks the result. */
static inline void test_run_twice(dg_device *dev, cl_program p) {
  cl_kernel k = NULL;
  cl_mem b = NULL;
  float x[4] = {1, 2, 3, 4};
  assert_dg_ok(dg_kernel_create(p, "twice", &k));
  assert_dg_ok(dg_buffer_create(dev, CL_MEM_READ_WRITE, sizeof x, x, &b));
  assert_dg_ok(DG_KERNEL_ARG(k, 0, b));
  const size_t g = 4;
  assert_dg_ok(dg_kernel_run(dev, k, 1, &g, NULL, NULL));
  assert_dg_ok(dg_buffer_read(dev, b, 0, sizeof x, x));
  assert_near(x[3], 8, 0);
  dg_buffer_release(&b);
  dg_kernel_release(&k);
}

#endif

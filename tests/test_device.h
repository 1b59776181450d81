/* The shared OpenCL device fixture: the default device (dg_device_create(NULL): $DGTD_DEVICE,
 * else the first GPU, else the first device) for a group of tests, or NULL when the machine
 * has none, in which case each test skips with a line saying why. */
#ifndef DG_TEST_DEVICE_H
#define DG_TEST_DEVICE_H

#include "test_util.h"

#include "device/device.h"

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

#endif

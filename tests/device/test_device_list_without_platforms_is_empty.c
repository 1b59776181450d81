/* With no OpenCL driver (the ICD loader returns CL_PLATFORM_NOT_FOUND_KHR) the device list is
 * empty, the table says why, and opening a device fails with a clear message. */
#include "test_util.h"

#include <unistd.h>

#include "core/alloc.h"
#include "device/device.h"

static void list_is_empty_and_create_says_why(void **state) {
  (void)state;
  dg_device_info *list = NULL;
  int n = -1;
  assert_dg_ok(dg_device_list(&list, &n));
  assert_int_equal(n, 0);
  assert_null(list);

  FILE *f = tmpfile();
  assert_non_null(f);
  assert_dg_ok(dg_device_print_list(f));
  char text[1024];
  rewind(f);
  size_t got = fread(text, 1, sizeof text - 1, f);
  text[got] = '\0';
  fclose(f);
  assert_non_null(strstr(text, "no OpenCL devices found"));

  dg_device *dev = NULL;
  assert_dg_error(dg_device_create(&dev, NULL), DG_ERR_OPENCL, "no OpenCL devices found");
  assert_non_null(strstr(dg_error_message(), "/etc/OpenCL/vendors"));
  assert_null(dev);
  assert_dg_error(dg_device_create(&dev, "0:0"), DG_ERR_OPENCL, "no OpenCL devices found");
}

int main(void) {
  /* The ICD loader reads OCL_ICD_VENDORS once, at the first OpenCL call, so point it at an
   * empty directory before any. */
  char dir[] = "/tmp/dgtd-test-no-icd-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  setenv("OCL_ICD_VENDORS", dir, 1);
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(list_is_empty_and_create_says_why),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  rmdir(dir);
  return failed;
}

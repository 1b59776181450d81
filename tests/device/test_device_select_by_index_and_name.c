/* Devices are chosen by "P:D", by a name substring in any case, or via DGTD_DEVICE (else the
 * first GPU); a spec that matches nothing fails with DG_ERR_INPUT listing the devices. */
#include "test_util.h"

#include <ctype.h>

#include "core/alloc.h"
#include "device/device.h"

/* A made-up machine: a CPU on platform 0, two GPUs of the same model on platform 1. */
static int fake_list(dg_device_info list[3]) {
  memset(list, 0, 3 * sizeof list[0]);
  const char *names[3] = {"Fake Xeon CPU", "Fake GPU X100", "Fake GPU X100"};
  const int P[3] = {0, 1, 1}, D[3] = {0, 0, 1};
  for (int i = 0; i < 3; ++i) {
    list[i].P = P[i];
    list[i].D = D[i];
    snprintf(list[i].name, sizeof list[i].name, "%s", names[i]);
    snprintf(list[i].platform_name, sizeof list[i].platform_name, "Fake platform %d", P[i]);
    list[i].type = i == 0 ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
  }
  return 3;
}

static void pocl_is_listed_with_its_properties(void **state) {
  (void)state;
  dg_device_info *list = NULL;
  int n = 0;
  assert_dg_ok(dg_device_list(&list, &n));
  assert_true(n >= 1);
  assert_int_equal(list[0].P, 0);
  assert_int_equal(list[0].D, 0);
  assert_true(list[0].name[0] != '\0');
  assert_true(list[0].platform_name[0] != '\0');
  assert_true(list[0].driver_version[0] != '\0');
  assert_true(list[0].compute_units >= 1);
  assert_true(list[0].max_work_group_size >= 1);
  assert_true(list[0].local_mem_size > 0);
  assert_true(list[0].global_mem_size >= list[0].max_alloc_size);
  dg_free(&list);
}

static void select_by_index_and_by_name_in_other_case(void **state) {
  (void)state;
  unsetenv("DGTD_DEVICE");
  dg_device_info *list = NULL;
  int n = 0, idx = -1;
  assert_dg_ok(dg_device_list(&list, &n));
  assert_dg_ok(dg_device_select(list, n, "0:0", &idx));
  assert_int_equal(idx, 0);
  assert_dg_ok(dg_device_select(list, n, " 0 : 0 ", &idx));
  assert_int_equal(idx, 0);

  /* The middle of the name, case flipped. */
  char sub[DG_DEVICE_STR];
  size_t len = strlen(list[0].name);
  snprintf(sub, sizeof sub, "%.*s", (int)(len > 6 ? 6 : len), list[0].name + len / 3);
  for (char *p = sub; *p; ++p) *p = (char)(islower((unsigned char)*p) ? toupper(*p) : tolower(*p));
  idx = -1;
  assert_dg_ok(dg_device_select(list, n, sub, &idx));
  assert_int_equal(idx, 0);
  dg_free(&list);

  dg_device *dev = NULL;
  assert_dg_ok(dg_device_create(&dev, "0:0"));
  assert_non_null(dev->context);
  assert_non_null(dev->queue);
  assert_int_equal(dev->info.P, 0);
  cl_command_queue_properties props = 0;
  assert_int_equal(clGetCommandQueueInfo(dev->queue, CL_QUEUE_PROPERTIES, sizeof props, &props,
                                         NULL), CL_SUCCESS);
  assert_true(props & CL_QUEUE_PROFILING_ENABLE);
  assert_false(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  dg_device_destroy(&dev);
  assert_null(dev);
  dg_device_destroy(&dev); /* NULL is fine */
}

static void dgtd_device_variable_is_used_when_no_spec(void **state) {
  (void)state;
  dg_device_info list[3];
  int n = fake_list(list), idx = -1;
  unsetenv("DGTD_DEVICE");
  assert_dg_ok(dg_device_select(list, n, NULL, &idx));
  assert_int_equal(idx, 1); /* first GPU */
  setenv("DGTD_DEVICE", "0:0", 1);
  assert_dg_ok(dg_device_select(list, n, NULL, &idx));
  assert_int_equal(idx, 0);
  assert_dg_ok(dg_device_select(list, n, "", &idx));
  assert_int_equal(idx, 0);
  assert_dg_ok(dg_device_select(list, n, "1:1", &idx)); /* an explicit spec wins */
  assert_int_equal(idx, 2);
  setenv("DGTD_DEVICE", "nosuchdevice", 1);
  assert_dg_error(dg_device_select(list, n, NULL, &idx), DG_ERR_INPUT, "DGTD_DEVICE");

  /* On the real machine too: DGTD_DEVICE=0:0 opens PoCL's device. */
  setenv("DGTD_DEVICE", "0:0", 1);
  dg_device *dev = NULL;
  assert_dg_ok(dg_device_create(&dev, NULL));
  assert_int_equal(dev->info.P, 0);
  assert_int_equal(dev->info.D, 0);
  dg_device_destroy(&dev);
  unsetenv("DGTD_DEVICE");
}

static void ambiguous_name_takes_the_first_match_and_exact_name_wins(void **state) {
  (void)state;
  dg_device_info list[3];
  int n = fake_list(list), idx = -1;
  unsetenv("DGTD_DEVICE");
  assert_dg_ok(dg_device_select(list, n, "x100", &idx)); /* warns on stderr */
  assert_int_equal(idx, 1);
  assert_dg_ok(dg_device_select(list, n, "fake", &idx));
  assert_int_equal(idx, 0);
  snprintf(list[2].name, sizeof list[2].name, "Fake");
  assert_dg_ok(dg_device_select(list, n, "FAKE", &idx));
  assert_int_equal(idx, 2);
}

static void bad_spec_fails_listing_the_devices(void **state) {
  (void)state;
  unsetenv("DGTD_DEVICE");
  dg_device_info *list = NULL;
  int n = 0, idx = -1;
  assert_dg_ok(dg_device_list(&list, &n));
  assert_dg_error(dg_device_select(list, n, "9:9", &idx), DG_ERR_INPUT, "Available devices");
  assert_non_null(strstr(dg_error_message(), "9:9"));
  assert_non_null(strstr(dg_error_message(), list[0].name));
  assert_non_null(strstr(dg_error_message(), "0:0"));
  assert_dg_error(dg_device_select(list, n, "nosuchdevice", &idx), DG_ERR_INPUT, list[0].name);
  assert_non_null(strstr(dg_error_message(), "nosuchdevice"));
  dg_device *dev = NULL;
  assert_dg_error(dg_device_create(&dev, "nosuchdevice"), DG_ERR_INPUT, "0:0");
  assert_null(dev);
  dg_free(&list);

  dg_device_info fake[3];
  assert_dg_error(dg_device_select(fake, 0, NULL, &idx), DG_ERR_OPENCL, "no OpenCL devices");
}

static void device_table_lists_pocl(void **state) {
  (void)state;
  dg_device_info *list = NULL;
  int n = 0;
  assert_dg_ok(dg_device_list(&list, &n));
  FILE *f = tmpfile();
  assert_non_null(f);
  assert_dg_ok(dg_device_print_list(f));
  char text[8192];
  rewind(f);
  size_t got = fread(text, 1, sizeof text - 1, f);
  text[got] = '\0';
  fclose(f);
  assert_true(strncmp(text, "P:D", 3) == 0); /* header line first */
  assert_non_null(strstr(text, "fp64"));
  assert_non_null(strstr(text, list[0].name));
  assert_non_null(strstr(text, list[0].driver_version));
  assert_non_null(strstr(text, "\n0:0 "));
  /* Show the table in the test log, as TAP comments. */
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) printf("# %s\n", line);
  dg_free(&list);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(pocl_is_listed_with_its_properties),
    cmocka_unit_test(select_by_index_and_by_name_in_other_case),
    cmocka_unit_test(dgtd_device_variable_is_used_when_no_spec),
    cmocka_unit_test(ambiguous_name_takes_the_first_match_and_exact_name_wins),
    cmocka_unit_test(bad_spec_fails_listing_the_devices),
    cmocka_unit_test(device_table_lists_pocl),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The OpenCL error table names every 1.2 code (and -1001), unknown codes say so, and DG_CL
 * messages read "function: NAME (code)" with the file and line in the traceback. */
#include "test_util.h"

#include "device/cl_check.h"

static cl_int fake_build(int a, int b) { return (cl_int)(a + b - 14); } /* -11 for (1, 2) */

static dg_status checked_call(void) {
  DG_CL(fake_build(1, 2));
  return DG_OK;
}

static dg_status checked_errcode(cl_int err) {
  DG_CL_ERR(err, "clCreateBuffer");
  return DG_OK;
}

static dg_status checked_goto(int *cleaned) {
  dg_status st = DG_OK;
  DG_CL_GOTO(done, fake_build(0, 0)); /* -14 */
done:
  *cleaned = 1;
  return st;
}

static void known_codes_have_their_names(void **state) {
  (void)state;
  assert_string_equal(dg_cl_error_name(0), "CL_SUCCESS");
  assert_string_equal(dg_cl_error_name(-5), "CL_OUT_OF_RESOURCES");
  assert_string_equal(dg_cl_error_name(-11), "CL_BUILD_PROGRAM_FAILURE");
  assert_string_equal(dg_cl_error_name(-30), "CL_INVALID_VALUE");
  assert_string_equal(dg_cl_error_name(-54), "CL_INVALID_WORK_GROUP_SIZE");
  assert_string_equal(dg_cl_error_name(-68), "CL_INVALID_DEVICE_PARTITION_COUNT");
  assert_string_equal(dg_cl_error_name(-72), "CL_MAX_SIZE_RESTRICTION_EXCEEDED");
  assert_string_equal(dg_cl_error_name(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
}

static void every_opencl_1_2_code_is_named(void **state) {
  (void)state;
  for (cl_int c = 0; c >= -68; --c) {
    if (c < -19 && c > -30) continue; /* -20..-29 are unassigned */
    const char *name = dg_cl_error_name(c);
    if (strncmp(name, "CL_", 3) != 0) fail_msg("code %d has no name (%s)", (int)c, name);
  }
}

static void unknown_code_says_unknown(void **state) {
  (void)state;
  assert_non_null(strstr(dg_cl_error_name(-12345), "unknown"));
  assert_non_null(strstr(dg_cl_error_name(-25), "unknown"));
  assert_dg_error(checked_errcode(-12345), DG_ERR_OPENCL,
                  "clCreateBuffer: unknown OpenCL error (-12345)");
}

static void check_macro_names_call_code_file_and_line(void **state) {
  (void)state;
  assert_dg_error(checked_call(), DG_ERR_OPENCL, "fake_build: CL_BUILD_PROGRAM_FAILURE (-11)");
  assert_string_equal(dg_error_message(), "fake_build: CL_BUILD_PROGRAM_FAILURE (-11)");
  char trace[4096] = "";
  FILE *f = tmpfile();
  assert_non_null(f);
  dg_error_print(f);
  rewind(f);
  size_t n = fread(trace, 1, sizeof trace - 1, f);
  trace[n] = '\0';
  fclose(f);
  assert_non_null(strstr(trace, "checked_call() at tests/device/test_device_error_names.c:"));

  assert_dg_error(checked_errcode(-5), DG_ERR_OPENCL, "clCreateBuffer: CL_OUT_OF_RESOURCES (-5)");
  assert_dg_ok(checked_errcode(CL_SUCCESS));

  int cleaned = 0;
  assert_dg_error(checked_goto(&cleaned), DG_ERR_OPENCL,
                  "fake_build: CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (-14)");
  assert_int_equal(cleaned, 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(known_codes_have_their_names),
    cmocka_unit_test(every_opencl_1_2_code_is_named),
    cmocka_unit_test(unknown_code_says_unknown),
    cmocka_unit_test(check_macro_names_call_code_file_and_line),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

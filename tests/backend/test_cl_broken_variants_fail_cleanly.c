/* A variant whose source has a syntax error fails with DG_ERR_OPENCL and the build log (no
 * crash), and a variant with a flipped sign is rejected by verification. */
#include "test_device.h"

#include "backend/verify.h"

static void test_syntax_error_gives_build_log(void **state) {
  dg_device *dev = test_device(state, 0);
  dg_variant v;
  double diff;
  int pass = 1;
  assert_dg_ok(dg_variant_parse("test=syntax", &v));
  assert_dg_error(dg_cl_verify(dev, &v, 1, 1, &diff, &pass), DG_ERR_OPENCL,
                  "CL_BUILD_PROGRAM_FAILURE");
  assert_non_null(strstr(dg_error_message(), "build log"));
  assert_non_null(strstr(dg_error_message(), "error"));
  assert_false(pass);
  dg_error_clear();
}

static void test_flipped_sign_is_rejected(void **state) {
  dg_device *dev = test_device(state, 0);
  const char *specs[] = {"test=flip", "work=vec,vw=4,lift=fused-update,test=flip"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; ++i) {
    dg_variant v;
    double diff = 0;
    int pass = 1;
    assert_dg_ok(dg_variant_parse(specs[i], &v));
    assert_dg_error(dg_cl_verify(dev, &v, 2, 5, &diff, &pass), DG_ERR_NUMERIC,
                    "failed verification");
    assert_non_null(strstr(dg_error_message(), "test=flip"));
    assert_false(pass);
    assert_true(diff > 1e-2);
    dg_error_clear();
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_syntax_error_gives_build_log),
      cmocka_unit_test(test_flipped_sign_is_rejected),
  };
  return cmocka_run_group_tests(tests, test_device_setup, test_device_teardown);
}

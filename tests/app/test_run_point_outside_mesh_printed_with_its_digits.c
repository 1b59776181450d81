/* A probe (or a dipole) outside the mesh by 1e-9 was printed with %g, so its coordinates
 * read as inside ("(1, 0.5, 0.5) is outside the mesh" for x = 1 + 1e-9 in the unit box): the
 * point is now printed with the digits that read back as it, beside the mesh's bounding box. */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"

static dg_status run_case(test_scratch *s, const char *extra) {
  char json[2048];
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": {\"cells\": [2, 2, 2]}}, \"order\": 1, \"backend\": \"ref\","
           " \"default_boundary\": \"pec\", \"steps\": 2, %s,"
           " \"output\": {\"directory\": \"%s/out\"}}", extra, s->dir);
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "case.json"));
  c.quiet = 1;
  dg_error_clear();
  const dg_status st = dg_run(&c, &r);
  dg_case_free(&c);
  print_message("# %s\n", st ? dg_error_message() : "ok");
  return st;
}

static void probe_just_outside(void **state) {
  assert_int_equal(run_case(*state, "\"probes\": [{\"position\": [1.000000001, 0.5, 0.5]}]"),
                   DG_ERR_INPUT);
  assert_non_null(strstr(dg_error_message(), "at (1.000000001, 0.5, 0.5) is outside the mesh "
                                             "(bounding box [0, 1] x [0, 1] x [0, 1])"));
}

static void dipole_just_outside(void **state) {
  assert_int_equal(run_case(*state, "\"sources\": [{\"type\": \"dipole\", \"position\": "
                                    "[0.5, -1e-9, 0.25], \"direction\": [0, 0, 1], \"pulse\": "
                                    "{\"shape\": \"ricker\", \"frequency\": 0.3}}]"),
                   DG_ERR_INPUT);
  assert_non_null(strstr(dg_error_message(), "sources[0].position (0.5, -1e-09, 0.25) is outside "
                                             "the mesh (bounding box [0, 1] x [0, 1] x [0, 1])"));
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(probe_just_outside),
                                     cmocka_unit_test(dipole_just_outside)};
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

/* A TF/SF surface must lie in vacuum (the wave it brings in is the vacuum plane wave): one in
 * a dielectric (eps = 2 around the box mesher's "tfsf" surface; its leakage was 12 times
 * vacuum's) or in a conductor was accepted; it is refused naming the surface and the
 * material. The same surface in a material of eps = mu = 1, sigma = 0 runs. */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"

static dg_status run_material(test_scratch *s, const char *material, const char *name) {
  char json[2048];
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": {\"cells\": [4, 4, 4], \"pml_cells\": 1, \"tfsf_cells\": 1}},"
           " \"order\": 1, \"backend\": \"ref\", \"default_boundary\": \"pec\", \"steps\": 2,"
           " \"materials\": [{\"volume\": \"domain\", %s}],"
           " \"sources\": [{\"type\": \"plane_wave\", \"direction\": [1, 0, 0],"
           "   \"polarization\": [0, 0, 1], \"origin\": [0.25, 0.5, 0.5],"
           "   \"pulse\": {\"shape\": \"gaussian\", \"frequency\": 2, \"delay\": 0.3}}],"
           " \"output\": {\"directory\": \"%s/%s\"}}", material, s->dir, name);
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "case.json"));
  c.quiet = 1;
  dg_error_clear();
  const dg_status st = dg_run(&c, &r);
  dg_case_free(&c);
  print_message("# %s: %s %s\n", name, dg_status_name(st), st ? dg_error_message() : "");
  return st;
}

static void surface_in_dielectric_refused(void **state) {
  test_scratch *s = *state;
  assert_int_equal(run_material(s, "\"eps\": 2", "eps2"), DG_ERR_INPUT);
  assert_non_null(strstr(dg_error_message(),
                         "case.json: tfsf.surface \"tfsf\" (tag 7) lies in materials[0] (volume "
                         "\"domain\", tag 1: eps = 2, mu = 1, sigma = 0) at face "));
  assert_non_null(strstr(dg_error_message(), "must lie in vacuum"));
}

static void surface_in_conductor_refused(void **state) {
  test_scratch *s = *state;
  assert_int_equal(run_material(s, "\"sigma\": 0.5", "sigma"), DG_ERR_INPUT);
  assert_non_null(strstr(dg_error_message(), "(volume \"domain\", tag 1: eps = 1, mu = 1, sigma = 0.5)"));
}

static void surface_in_vacuum_runs(void **state) {
  test_scratch *s = *state;
  assert_dg_ok(run_material(s, "\"eps\": 1, \"mu\": 1", "vacuum"));
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(surface_in_dielectric_refused),
      cmocka_unit_test(surface_in_conductor_refused),
      cmocka_unit_test(surface_in_vacuum_runs),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

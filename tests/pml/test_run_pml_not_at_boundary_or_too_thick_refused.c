/* A PML that absorbs nothing is refused instead of running as if there were none: a PML
 * volume inside the domain ("volumes": ["domain"] with the box mesher's pml_cells layer: the
 * inner box is then the whole mesh, every depth 0, sigma = 0; the energy was that of no PML),
 * and a "thickness" far beyond the layer's real depth (1e6 on a layer of 0.5: sigma ~ 1e-18).
 * A thickness of twice the depth (reflection R0^(1/16) = 0.42 instead of 1e-6) runs with a
 * warning; the mesh's own depth, or thickness equal to it, runs without one. */
#include "pml_run.h"

static void pml_inside_the_domain_refused(void **state) {
  test_scratch *s = *state;
  const dg_status st = pml_case_run(s, "{\"volumes\": [\"domain\"]}", 0.05, 1, "inside");
  assert_int_equal(st, DG_ERR_INPUT);
  assert_non_null(strstr(dg_error_message(), "case.json: pml.volumes [\"domain\"]: all 48 of its "
                                             "elements lie inside the inner box"));
  assert_non_null(strstr(dg_error_message(), "absorbs nothing"));
}

static void thickness_far_beyond_the_layer_refused(void **state) {
  test_scratch *s = *state;
  const dg_status st =
      pml_case_run(s, "{\"volumes\": [\"pml\"], \"thickness\": 1e6}", 0.05, 1, "thick");
  assert_int_equal(st, DG_ERR_INPUT);
  assert_non_null(strstr(dg_error_message(), "case.json: pml.thickness = 1e+06 is far beyond the "
                                             "layer's depth in the mesh (at most 0.5)"));
}

static void thickness_twice_the_layer_warned(void **state) {
  test_scratch *s = *state;
  assert_dg_ok(pml_case_run(s, "{\"volumes\": [\"pml\"], \"thickness\": 1}", 0.05, 1, "twice"));
  assert_non_null(strstr(pml_run_warnings,
                         "case.json: pml.thickness = 1 is more than the layer's depth 0.5 on "
                         "its -x side: the theoretical reflection there is 0.422 instead of "
                         "pml.reflection = 1e-06"));
}

static void layer_of_the_mesh_runs_without_warning(void **state) {
  test_scratch *s = *state;
  assert_dg_ok(pml_case_run(s, "{\"volumes\": [\"pml\"]}", 0.05, 1, "plain"));
  assert_string_equal(pml_run_warnings, "");
  assert_dg_ok(pml_case_run(s, "{\"volumes\": [\"pml\"], \"thickness\": 0.5}", 0.05, 1, "same"));
  assert_string_equal(pml_run_warnings, "");
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pml_inside_the_domain_refused),
      cmocka_unit_test(thickness_far_beyond_the_layer_refused),
      cmocka_unit_test(thickness_twice_the_layer_warned),
      cmocka_unit_test(layer_of_the_mesh_runs_without_warning),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

/* Case files: every kind of bad input gives one clear error naming the key (or file and
 * line), with a did-you-mean for misspelt keys; a good case parses into the settings. */
#include "test_util.h"

#include "app/case.h"
#include "app/schema.h"
#include "app/simulate.h"

static void expect_parse_error(const char *json, dg_status code, const char *needle) {
  dg_case c;
  dg_case_default(&c);
  dg_error_clear();
  const dg_status st = dg_case_parse(&c, json, "case.json");
  if (st != code || !strstr(dg_error_message(), needle))
    fail_msg("case %s\n  gave %s \"%s\"\n  want %s containing \"%s\"", json, dg_status_name(st),
             dg_error_message(), dg_status_name(code), needle);
  dg_case_free(&c);
}

static void expect_run_error(const char *json, dg_status code, const char *needle) {
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "case.json"));
  c.backend = DG_BACKEND_REF;
  c.quiet = 1;
  dg_error_clear();
  const dg_status st = dg_run(&c, &r);
  if (st != code || !strstr(dg_error_message(), needle))
    fail_msg("case %s\n  gave %s \"%s\"\n  want %s containing \"%s\"", json, dg_status_name(st),
             dg_error_message(), dg_status_name(code), needle);
  dg_case_free(&c);
}

static void syntax_and_types(void **state) {
  (void)state;
  expect_parse_error("{\n  \"order\": 3,\n  \"flux\": upwind\n}", DG_ERR_PARSE, "case.json:3:");
  expect_parse_error("{\"ordr\": 3}", DG_ERR_INPUT, "unknown key \"ordr\" (did you mean \"order\"?)");
  expect_parse_error("{\"materials\": [{\"volume\": \"a\", \"epsilon\": 2}]}", DG_ERR_INPUT,
                     "materials[0]: unknown key \"epsilon\" (did you mean \"eps\"?)");
  expect_parse_error("{\"order\": \"three\"}", DG_ERR_INPUT, "order: expected a number, got a string");
  expect_parse_error("{\"order\": 2.5}", DG_ERR_INPUT, "order: expected an integer");
  expect_parse_error("{\"order\": 99}", DG_ERR_INPUT, "order: 99 is out of range");
  expect_parse_error("{\"flux\": \"sideways\"}", DG_ERR_INPUT, "flux: \"sideways\" is not one of upwind, central");
  expect_parse_error("{\"materials\": [{\"volume\": \"a\", \"eps\": -1}]}", DG_ERR_INPUT,
                     "materials[0].eps: must be positive, got -1");
  expect_parse_error("{\"materials\": [{\"volume\": \"a\", \"mu\": 0}]}", DG_ERR_INPUT,
                     "materials[0].mu: must be positive, got 0");
  expect_parse_error("{\"boundaries\": [{\"surface\": \"a\", \"type\": \"metal\"}]}", DG_ERR_INPUT,
                     "boundaries[0].type: \"metal\" is not one of pec, pmc, absorbing");
  expect_parse_error("{\"final_time\": 1, \"steps\": 3}", DG_ERR_INPUT, "not both");
  expect_parse_error("{\"sources\": [{\"type\": \"dipole\", \"position\": [0, 0], \"direction\": [0, 0, 1],"
                     " \"pulse\": {\"shape\": \"ricker\", \"frequency\": 1}}]}",
                     DG_ERR_INPUT, "sources[0].position: expected an array of 3 numbers");
  expect_parse_error("{\"sources\": [{\"type\": \"plane_wave\", \"direction\": [1, 0, 0],"
                     " \"polarization\": [1, 0, 0], \"pulse\": {\"shape\": \"gaussian\", \"frequency\": 1}}]}",
                     DG_ERR_INPUT, "sources[0]");
  expect_parse_error("{\"sources\": [{\"type\": \"dipole\", \"position\": [0, 0, 0], \"direction\": [0, 0, 1],"
                     " \"pulse\": {\"shape\": \"ricker\"}}]}",
                     DG_ERR_INPUT, "sources[0].pulse: missing key \"frequency\"");
  expect_parse_error("{\"mesh\": {\"file\": \"a.msh\", \"box\": {}}}", DG_ERR_INPUT, "exactly one of");
  expect_parse_error("[1, 2]", DG_ERR_INPUT, "expected a JSON object");
  /* a key that no longer exists says so, and what to do */
  expect_parse_error("{\"pml\": {\"element_profile\": true}}", DG_ERR_INPUT,
                     "pml.element_profile: no longer an option");
  expect_parse_error("{\"pml\": {\"element_profile\": true}}", DG_ERR_INPUT, "delete the key");
}

static void problems_found_against_the_mesh(void **state) {
  (void)state;
  /* The box mesh has surfaces xmin..zmax and the volume "domain". */
  expect_run_error("{\"materials\": [{\"volume\": \"sphere\", \"eps\": 2}], \"default_boundary\": \"pec\"}",
                   DG_ERR_INPUT, "materials[0].volume \"sphere\": the mesh has no physical volume");
  expect_run_error("{\"boundaries\": [{\"surface\": \"xmin\", \"type\": \"pec\"}]}", DG_ERR_INPUT,
                   "boundary surfaces without a condition: \"xmax\" (tag 2)");
  expect_run_error("{\"boundaries\": [{\"surface\": \"top\", \"type\": \"pec\"}], \"default_boundary\": \"pec\"}",
                   DG_ERR_INPUT, "boundaries[0].surface \"top\"");
  expect_run_error("{\"default_boundary\": \"pec\", \"probes\": [{\"position\": [2, 0.5, 0.5]}],"
                   " \"output\": {\"directory\": \"/tmp\"}}",
                   DG_ERR_INPUT, "(2, 0.5, 0.5) is outside the mesh");
  expect_run_error("{\"default_boundary\": \"pec\", \"sources\": [{\"type\": \"dipole\", \"position\": [0.5, 0.5, 7],"
                   " \"direction\": [0, 0, 1], \"pulse\": {\"shape\": \"ricker\", \"frequency\": 1}}]}",
                   DG_ERR_INPUT, "sources[0].position (0.5, 0.5, 7) is outside the mesh");
  expect_run_error("{\"mesh\": {\"file\": \"/nonexistent/x.msh\"}}", DG_ERR_IO, "/nonexistent/x.msh");
  expect_run_error("{\"default_boundary\": \"pec\", \"output\": {\"vtu_every\": 5}}", DG_ERR_INPUT,
                   "no output directory");
}

static void good_case_parses(void **state) {
  (void)state;
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_read(&c, "configs/dipole_box.json"));
  assert_int_equal(c.order, 3);
  assert_int_equal(c.n_boundaries, 6);
  assert_int_equal(c.boundaries[0].bc, DG_BC_ABC);
  assert_int_equal(c.n_dipoles, 1);
  assert_int_equal(c.dipoles[0].pulse.shape, DG_PULSE_RICKER);
  assert_near(c.dipoles[0].pulse.f0, 1.5, 0);
  assert_int_equal(c.n_probes, 3);
  assert_false(c.has_cavity_mode);
  dg_case_free(&c);
  dg_case_default(&c);
  assert_dg_ok(dg_case_read(&c, "configs/sphere_plane_wave.json"));
  /* Relative mesh paths are taken from the case file's directory. */
  assert_string_equal(c.mesh_file, "configs/meshes/sphere.msh");
  assert_true(c.has_plane_wave);
  assert_int_equal(c.n_materials, 2);
  assert_near(c.materials[0].eps, 4.0, 0);
  dg_case_free(&c);
  assert_int_equal(dg_edit_distance("ordr", "order"), 1);
  assert_int_equal(dg_edit_distance("", "abc"), 3);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(syntax_and_types),
      cmocka_unit_test(problems_found_against_the_mesh),
      cmocka_unit_test(good_case_parses),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

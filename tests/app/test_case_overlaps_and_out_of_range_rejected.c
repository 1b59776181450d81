/* Case files (issue 17 items 6 and 14): overlapping definitions are errors naming the key path
 * (duplicate JSON keys, two materials or boundary entries for one group by name, by tag or by
 * both, a physical name the mesh gives to two tags); numbers too large for a double or for
 * the integer they become are refused with a message that says so; negative snapshot times,
 * a box too large or too small for double precision and bad cavity amplitudes name their
 * key; output.directory is relative to the case file like mesh.file. */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"
#include "mesh/mesh.h"

static void expect_parse_error(const char *json, const char *needle) {
  dg_case c;
  dg_case_default(&c);
  dg_error_clear();
  const dg_status st = dg_case_parse(&c, json, "case.json");
  if (st != DG_ERR_INPUT || !strstr(dg_error_message(), needle))
    fail_msg("case %s\n  gave %s \"%s\"\n  want DG_ERR_INPUT containing \"%s\"", json,
             dg_status_name(st), dg_error_message(), needle);
  dg_case_free(&c);
}

static void test_duplicate_keys(void **state) {
  (void)state;
  expect_parse_error("{\"order\": 2, \"order\": 3}", "case.json: order: duplicate key");
  expect_parse_error("{\"materials\": [{\"volume\": \"a\", \"eps\": 2, \"eps\": 3}]}",
                     "case.json: materials[0].eps: duplicate key");
  expect_parse_error("{\"mesh\": {\"box\": {\"cells\": [1, 1, 1], \"cells\": [2, 2, 2]}}}",
                     "mesh.box.cells: duplicate key");
  expect_parse_error("{\"output\": {\"directory\": \"a\", \"directory\": \"b\"}}",
                     "output.directory: duplicate key");
}

static void test_same_group_twice_in_the_case(void **state) {
  (void)state;
  expect_parse_error("{\"materials\": [{\"volume\": \"a\", \"eps\": 2}, {\"volume\": \"a\", \"eps\": 3}]}",
                     "materials[1].volume: volume \"a\" already has a material (materials[0])");
  expect_parse_error("{\"materials\": [{\"volume\": 4}, {\"volume\": \"b\"}, {\"volume\": 4}]}",
                     "materials[2].volume: volume tag 4 already has a material (materials[0])");
  expect_parse_error("{\"boundaries\": [{\"surface\": \"xmin\", \"type\": \"pec\"},"
                     " {\"surface\": \"xmin\", \"type\": \"pmc\"}]}",
                     "boundaries[1].surface: surface \"xmin\" already has a condition (boundaries[0])");
}

static void expect_group_error(const char *json, const dg_mesh *m, const char *needle) {
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "case.json"));
  assert_dg_error(dg_case_check_groups(&c, m), DG_ERR_INPUT, needle);
  dg_case_free(&c);
}

static void test_name_and_tag_of_one_group(void **state) {
  (void)state;
  dg_mesh *m = NULL;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  assert_dg_ok(dg_mesh_box(&m, lo, hi, 1, 1, 1)); /* volume "domain" = 1, "xmin" = 1 ... */
  expect_group_error("{\"materials\": [{\"volume\": \"domain\", \"eps\": 2}, {\"volume\": 1, \"eps\": 3}]}",
                     m, "case.json: materials[1].volume: tag 1 is physical tag 1, which "
                        "materials[0].volume (\"domain\") already names");
  expect_group_error("{\"boundaries\": [{\"surface\": 2, \"type\": \"pec\"},"
                     " {\"surface\": \"xmax\", \"type\": \"pmc\"}]}",
                     m, "boundaries[1].surface: \"xmax\" is physical tag 2, which "
                        "boundaries[0].surface (tag 2) already names");
  /* Different groups are fine. */
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, "{\"boundaries\": [{\"surface\": 1, \"type\": \"pec\"},"
                                 " {\"surface\": \"xmax\", \"type\": \"pmc\"}]}", "case.json"));
  assert_dg_ok(dg_case_check_groups(&c, m));
  dg_case_free(&c);

  /* One name on two volume tags binds only one of them: refused. */
  dg_phys *p = realloc(m->phys, (size_t)(m->nphys + 1) * sizeof *p);
  assert_non_null(p);
  m->phys = p;
  m->phys[m->nphys].dim = 3;
  m->phys[m->nphys].tag = 7;
  snprintf(m->phys[m->nphys].name, sizeof m->phys[m->nphys].name, "domain");
  m->nphys++;
  expect_group_error("{\"materials\": [{\"volume\": \"domain\", \"eps\": 2}]}", m,
                     "materials[0].volume: the mesh gives the physical volume name \"domain\" "
                     "to 2 tags (1, 7)");
  dg_mesh_destroy(&m);
}

static void test_out_of_range_numbers(void **state) {
  (void)state;
  /* 1e999 parses as infinity: the message says what is wrong with it. */
  dg_case c;
  dg_case_default(&c);
  assert_dg_error(dg_case_parse(&c, "{\"final_time\": 1e999}", "case.json"), DG_ERR_INPUT,
                  "final_time: the number is too large for double precision");
  assert_null(strstr(dg_error_message(), "got a number"));
  dg_case_free(&c);
  expect_parse_error("{\"initial\": {\"type\": \"cavity_mode\", \"mode\": [1e300, 1, 0]}}",
                     "initial.mode[0]: expected an integer in [0, 1000000], got 1e+300");
  expect_parse_error("{\"initial\": {\"type\": \"cavity_mode\", \"mode\": [1, 3e9, 0]}}",
                     "initial.mode[1]: expected an integer in [0, 1000000]");
  expect_parse_error("{\"output\": {\"vtu_times\": [0.5, -1]}}",
                     "output.vtu_times[1]: a snapshot time must be >= 0, got -1");
  expect_parse_error("{\"mesh\": {\"box\": {\"lo\": [-1e308, 0, 0], \"hi\": [1e308, 1, 1]}}}",
                     "mesh.box: the extent hi[0] - lo[0]");
  expect_parse_error("{\"mesh\": {\"box\": {\"hi\": [1e200, 1e200, 1e200]}}}",
                     "mesh.box: a cell's volume");
  expect_parse_error("{\"mesh\": {\"box\": {\"hi\": [1e-100, 1e-100, 1e-100]}}}",
                     "mesh.box: a cell's volume");
  expect_parse_error("{\"mesh\": {\"file\": \"a.msh\", \"allow_unmatched_faces\": 1}}",
                     "mesh.allow_unmatched_faces: expected true or false");
}

static void test_paths_relative_to_the_case_file(void **state) {
  (void)state;
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, "{\"mesh\": {\"file\": \"m.msh\", \"allow_unmatched_faces\": true},"
                                 " \"output\": {\"directory\": \"out/run1\"}}",
                             "cases/sub/case.json"));
  assert_string_equal(c.mesh_file, "cases/sub/m.msh");
  assert_string_equal(c.output_dir, "cases/sub/out/run1");
  assert_true(c.allow_unmatched);
  dg_case_free(&c);
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, "{\"output\": {\"directory\": \"/tmp/abs\"}}", "cases/case.json"));
  assert_string_equal(c.output_dir, "/tmp/abs");
  dg_case_free(&c);
}

/* Mesh coordinates too small for the volumes to be represented: the error names the file. */
static void test_tiny_coordinates_name_the_file(void **state) {
  test_scratch *s = *state;
  FILE *f = fopen(s->path, "w");
  assert_non_null(f);
  fprintf(f, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1e-120 0 0\n"
             "3 0 1e-120 0\n4 0 0 1e-120\n$EndNodes\n$Elements\n1\n1 4 2 1 1 1 2 3 4\n"
             "$EndElements\n");
  assert_int_equal(fclose(f), 0);
  dg_mesh *m = NULL;
  assert_dg_error(dg_mesh_read(&m, s->path), DG_ERR_MESH, "coordinates out of the range");
  assert_non_null(strstr(dg_error_message(), s->path));
  assert_non_null(strstr(dg_error_message(), "element 1"));
}

/* Amplitudes that are not divergence-free name the case key. */
static void test_bad_amplitudes_name_the_key(void **state) {
  (void)state;
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, "{\"default_boundary\": \"pec\", \"steps\": 1, \"initial\": "
                                 "{\"type\": \"cavity_mode\", \"mode\": [1, 1, 1], "
                                 "\"amplitudes\": [1, 1, 1]}}", "case.json"));
  c.backend = DG_BACKEND_REF;
  c.quiet = 1;
  assert_dg_error(dg_run(&c, &r), DG_ERR_INPUT, "case.json: initial.mode/amplitudes: ");
  assert_non_null(strstr(dg_error_message(), "not divergence-free"));
  dg_case_free(&c);
}

static int setup(void **state) { return test_scratch_setup(state, "tiny.msh"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_duplicate_keys),
      cmocka_unit_test(test_same_group_twice_in_the_case),
      cmocka_unit_test(test_name_and_tag_of_one_group),
      cmocka_unit_test(test_out_of_range_numbers),
      cmocka_unit_test(test_paths_relative_to_the_case_file),
      cmocka_unit_test(test_tiny_coordinates_name_the_file),
      cmocka_unit_test(test_bad_amplitudes_name_the_key),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

/* A plane wave with no way in is refused (exit 2) instead of a run whose field stays exactly
 * 0 with exit 0: in the total-field formulation it enters through absorbing faces or a TF/SF
 * surface, so all-PEC walls without a surface (or the box mesher's tfsf_cells: 0 behind a PML
 * backed by PEC) let nothing in; in the scattered-field formulation only PEC faces see it. With
 * absorbing walls, or a TF/SF surface, it runs and the energy is positive. */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"

static double energy;

static dg_status run_case(test_scratch *s, const char *box, const char *bc, const char *form,
                          const char *name) {
  char json[2048];
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": %s}, \"order\": 1, \"backend\": \"ref\","
           " \"default_boundary\": \"%s\", \"final_time\": 0.6,"
           " \"sources\": [{\"type\": \"plane_wave\", \"direction\": [1, 0, 0],"
           "   \"polarization\": [0, 0, 1], \"origin\": [0.25, 0.5, 0.5], \"formulation\": \"%s\","
           "   \"pulse\": {\"shape\": \"gaussian\", \"frequency\": 2, \"delay\": 0.3}}],"
           " \"output\": {\"directory\": \"%s/%s\"}}", box, bc, form, s->dir, name);
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "case.json"));
  c.quiet = 1;
  dg_error_clear();
  const dg_status st = dg_run(&c, &r);
  energy = st == DG_OK ? r.energy_end : -1;
  dg_case_free(&c);
  print_message("# %s: %s %s (energy %g)\n", name, dg_status_name(st), st ? dg_error_message() : "",
                energy);
  return st;
}

static void total_field_behind_pec_walls_refused(void **state) {
  test_scratch *s = *state;
  assert_int_equal(run_case(s, "{\"cells\": [2, 2, 2]}", "pec", "total-field", "pec"), DG_ERR_INPUT);
  assert_non_null(strstr(dg_error_message(), "case.json: the plane_wave source in the total-field "
                                             "formulation enters through absorbing boundary faces "
                                             "or a TF/SF surface, and the mesh has neither"));
  assert_int_equal(run_case(s, "{\"cells\": [2, 2, 2], \"pml_cells\": 1, \"tfsf_cells\": 0}", "pec",
                            "total-field", "pml"), DG_ERR_INPUT);
  assert_non_null(strstr(dg_error_message(), "and the mesh has neither"));
}

static void scattered_field_without_pec_refused(void **state) {
  test_scratch *s = *state;
  assert_int_equal(run_case(s, "{\"cells\": [2, 2, 2]}", "absorbing", "scattered-field", "abc"),
                   DG_ERR_INPUT);
  assert_non_null(strstr(dg_error_message(), "case.json: the plane_wave source in the "
                                             "scattered-field formulation excites only PEC faces"));
}

static void waves_with_a_way_in_run(void **state) {
  test_scratch *s = *state;
  assert_dg_ok(run_case(s, "{\"cells\": [2, 2, 2]}", "absorbing", "total-field", "in_abc"));
  assert_true(energy > 0);
  assert_dg_ok(run_case(s, "{\"cells\": [4, 4, 4], \"pml_cells\": 1, \"tfsf_cells\": 1}", "pec",
                        "total-field", "in_tfsf"));
  assert_true(energy > 0);
  assert_dg_ok(run_case(s, "{\"cells\": [2, 2, 2]}", "pec", "scattered-field", "in_pec"));
  assert_true(energy > 0);
}

static void command_line_exit_2(void **state) {
  test_scratch *s = *state;
  const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
  char cmd[1024], out[8192];
  FILE *f = fopen(s->path, "w");
  assert_non_null(f);
  fprintf(f, "{\"mesh\": {\"box\": {\"cells\": [2, 2, 2]}}, \"order\": 1, \"steps\": 2,"
             " \"default_boundary\": \"pec\", \"sources\": [{\"type\": \"plane_wave\","
             " \"direction\": [1, 0, 0], \"polarization\": [0, 0, 1],"
             " \"pulse\": {\"shape\": \"gaussian\", \"frequency\": 2, \"delay\": 0.3}}],"
             " \"output\": {\"directory\": \"%s/cli\"}}", s->dir);
  fclose(f);
  snprintf(cmd, sizeof cmd, "%s/dgtd run --backend ref --quiet %s 2>&1", bin, s->path);
  const int rc = test_capture(cmd, out, sizeof out);
  if (rc != 2 || !strstr(out, "the mesh has neither"))
    fail_msg("%s: exit %d (want 2), output:\n%s", cmd, rc, out);
}

static int setup(void **state) { return test_scratch_setup(state, "case.json"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(total_field_behind_pec_walls_refused),
      cmocka_unit_test(scattered_field_without_pec_refused),
      cmocka_unit_test(waves_with_a_way_in_run),
      cmocka_unit_test(command_line_exit_2),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

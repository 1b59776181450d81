/* A PML that absorbs nothing is refused instead of running as if there were none: a PML
 * volume inside the domain ("volumes": ["domain"] with the box mesher's pml_cells layer: the
 * inner box is then the whole mesh, every depth 0, sigma = 0; the energy was that of no PML),
 * and a "thickness" far beyond the layer's real depth (1e6 on a layer of 0.5: sigma ~ 1e-18).
 * A thickness of twice the depth (reflection R0^(1/16) = 0.42 instead of 1e-6) runs with a
 * warning; the mesh's own depth, or thickness equal to it, runs without one. */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"
#include "core/log.h"

static char warnings[4096];
static void collect(void *ctx, dg_log_level level, const char *message) {
  (void)ctx;
  if (level != DG_LOG_WARNING) return;
  const size_t n = strlen(warnings);
  snprintf(warnings + n, sizeof warnings - n, "%s\n", message);
}

/* The unit box in 2^3 cells (h = 0.5) with one PML cell on every side, a dipole at its
 * centre, a few steps on the reference backend; pml is the case's "pml" object. */
static dg_status run_pml(test_scratch *s, const char *pml, const char *name) {
  char json[2048];
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": {\"cells\": [2, 2, 2], \"pml_cells\": 1}}, \"order\": 1,"
           " \"backend\": \"ref\", \"default_boundary\": \"pec\", \"final_time\": 0.05,"
           " \"pml\": %s,"
           " \"sources\": [{\"type\": \"dipole\", \"position\": [0.5, 0.5, 0.5],"
           "   \"direction\": [0, 0, 1], \"pulse\": {\"shape\": \"ricker\", \"frequency\": 0.5,"
           "   \"delay\": 1}}],"
           " \"output\": {\"directory\": \"%s/%s\"}}", pml, s->dir, name);
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "case.json"));
  c.quiet = 1;
  warnings[0] = '\0';
  dg_error_clear();
  dg_log_set_handler(collect, NULL);
  const dg_status st = dg_run(&c, &r);
  dg_log_set_handler(NULL, NULL);
  dg_case_free(&c);
  print_message("# %s: %s %s\n# warnings: %s\n", name, dg_status_name(st),
                st ? dg_error_message() : "", warnings);
  return st;
}

static void pml_inside_the_domain_refused(void **state) {
  test_scratch *s = *state;
  const dg_status st = run_pml(s, "{\"volumes\": [\"domain\"]}", "inside");
  assert_int_equal(st, DG_ERR_INPUT);
  assert_non_null(strstr(dg_error_message(), "case.json: pml.volumes [\"domain\"]: all 48 of its "
                                             "elements lie inside the inner box"));
  assert_non_null(strstr(dg_error_message(), "absorbs nothing"));
}

static void thickness_far_beyond_the_layer_refused(void **state) {
  test_scratch *s = *state;
  const dg_status st = run_pml(s, "{\"volumes\": [\"pml\"], \"thickness\": 1e6}", "thick");
  assert_int_equal(st, DG_ERR_INPUT);
  assert_non_null(strstr(dg_error_message(), "case.json: pml.thickness = 1e+06 is far beyond the "
                                             "layer's depth in the mesh (at most 0.5)"));
}

static void thickness_twice_the_layer_warned(void **state) {
  test_scratch *s = *state;
  assert_dg_ok(run_pml(s, "{\"volumes\": [\"pml\"], \"thickness\": 1}", "twice"));
  assert_non_null(strstr(warnings, "case.json: pml.thickness = 1 is more than the layer's depth "
                                   "0.5 on its -x side: the theoretical reflection there is "
                                   "0.422 instead of pml.reflection = 1e-06"));
}

static void layer_of_the_mesh_runs_without_warning(void **state) {
  test_scratch *s = *state;
  assert_dg_ok(run_pml(s, "{\"volumes\": [\"pml\"]}", "plain"));
  assert_string_equal(warnings, "");
  assert_dg_ok(run_pml(s, "{\"volumes\": [\"pml\"], \"thickness\": 0.5}", "same"));
  assert_string_equal(warnings, "");
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

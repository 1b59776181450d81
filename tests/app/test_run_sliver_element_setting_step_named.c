/* A sliver element that sets a time step far below the rest of the mesh's is named in a
 * warning before the run (its index, where it is, its height and longest edge, and how far
 * below the median element's its step is), so that it can be found and remeshed. The old run
 * only took the tiny step (or refused "too many steps") without saying which element set it.
 * Two separate tetrahedra: a unit corner tet and a flat one of height 1e-4. A mesh of equal
 * elements gets no such warning. Global LSERK4 (named: "auto" would step the sliver on its
 * own rate level, where it sets no one else's step). */
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

static const char *sliver_msh =
    "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
    "$Nodes\n8\n"
    "1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n"
    "5 2 0 0\n6 3 0 0\n7 2 1 0\n8 2.4 0.3 0.0001\n"
    "$EndNodes\n"
    "$Elements\n2\n"
    "1 4 2 1 1 1 2 3 4\n"
    "2 4 2 1 1 5 6 7 8\n"
    "$EndElements\n";

static void run_mesh(const char *mesh_json) {
  char json[1024];
  snprintf(json, sizeof json,
           "{\"mesh\": %s, \"order\": 1, \"backend\": \"ref\", \"steps\": 2,"
           " \"default_boundary\": \"pec\", \"time_stepping\": {\"scheme\": \"lserk4\"}}",
           mesh_json);
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "case.json"));
  c.quiet = 1;
  warnings[0] = '\0';
  dg_log_set_handler(collect, NULL);
  const dg_status st = dg_run(&c, &r);
  dg_log_set_handler(NULL, NULL);
  dg_case_free(&c);
  print_message("# warnings: %s\n", warnings);
  assert_dg_ok(st);
}

static void sliver_named(void **state) {
  test_scratch *s = *state;
  FILE *f = fopen(s->path, "w");
  assert_non_null(f);
  fputs(sliver_msh, f);
  assert_int_equal(fclose(f), 0);
  char mesh[256];
  snprintf(mesh, sizeof mesh, "{\"file\": \"%s\"}", s->path);
  run_mesh(mesh);
  assert_non_null(strstr(warnings, "case.json: the time step is set by element 1 at "
                                   "(2.35, 0.325, 2.5e-05)"));
  assert_non_null(strstr(warnings, "height 0.0001"));
  assert_non_null(strstr(warnings, "longest edge 1.4"));
  run_mesh("{\"box\": {\"cells\": [2, 2, 2]}}");
  assert_null(strstr(warnings, "time step is set by element"));
}

static int setup(void **state) { return test_scratch_setup(state, "sliver.msh"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sliver_named),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

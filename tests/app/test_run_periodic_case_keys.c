/* The case file's "periodic" pairs (issue 53): a dipole's pulse in the unit box periodic in x
 * and y (PEC in z, central flux, the y translation given, the x one found) runs on the
 * reference and the OpenCL backend to the same energy (1e-9 relative in double); and with the
 * dipole moved by one cell in x, which maps the periodic mesh onto itself, the reference gives
 * the same energy to rounding (a wall at x would not). Refused with messages naming the key:
 * a periodic surface that also has a boundary condition, a translation that matches no face,
 * a pair of one surface, an unknown surface, a PML that stretches along a period, an oblique
 * plane wave. */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"
#include "test_device.h"

static dg_status run_json(const char *dir, const char *name, const char *json,
                          dg_run_result *r) {
  dg_case c;
  dg_case_default(&c);
  dg_status st = dg_case_parse(&c, json, "periodic.json");
  if (st == DG_OK) {
    c.quiet = 1;
    snprintf(c.output_dir, sizeof c.output_dir, "%s/%s", dir, name);
    st = dg_run(&c, r);
  }
  dg_case_free(&c);
  return st;
}

/* The box [0,1]^3 in 3^3 cells, order 2, double, `extra` keys, a z dipole at `pos`. */
static void case_json(char *json, size_t cap, const char *backend, const char *pos,
                      const char *extra) {
  snprintf(json, cap,
           "{\"mesh\": {\"box\": {\"cells\": [3, 3, 3]}}, \"order\": 2, \"precision\": \"double\","
           " \"backend\": \"%s\", \"final_time\": 1.5, \"flux\": \"central\", %s"
           " \"sources\": [{\"type\": \"dipole\", \"position\": %s, \"direction\": [0, 0, 1],"
           " \"pulse\": {\"shape\": \"ricker\", \"frequency\": 2.0, \"delay\": 0.5}}]}",
           backend, extra, pos);
}

static const char periodic_xy[] =
    "\"periodic\": [{\"surfaces\": [\"xmin\", \"xmax\"]},"
    " {\"surfaces\": [\"ymin\", \"ymax\"], \"translation\": [0, 1, 0]}],"
    " \"default_boundary\": \"pec\",";

static void backends_agree(void **state) {
  test_scratch *s = *state;
  char json[2048];
  dg_run_result ref, cl;
  case_json(json, sizeof json, "ref", "[0.9, 0.15, 0.5]", periodic_xy);
  assert_dg_ok(run_json(s->dir, "ref", json, &ref));
  /* one cell (1/3) to the left: the mesh repeats every cell, and wraps around in x */
  dg_run_result shifted;
  case_json(json, sizeof json, "ref", "[0.566666666666666667, 0.15, 0.5]", periodic_xy);
  assert_dg_ok(run_json(s->dir, "shift", json, &shifted));
  print_message("# energy with the dipole shifted by one cell: %.12g\n", shifted.energy_end);
  assert_true(ref.energy_end > 0);
  assert_true(fabs(shifted.energy_end - ref.energy_end) < 1e-9 * ref.energy_end);
  if (test_device_best_precision() != DG_PREC_DOUBLE) skip();
  case_json(json, sizeof json, "opencl", "[0.9, 0.15, 0.5]", periodic_xy);
  assert_dg_ok(run_json(s->dir, "cl", json, &cl));
  print_message("# energy: reference %.12g, OpenCL %.12g\n", ref.energy_end, cl.energy_end);
  assert_true(fabs(ref.energy_end - cl.energy_end) < 1e-9 * ref.energy_end);
}

static void refused(void **state) {
  test_scratch *s = *state;
  char json[2048];
  dg_run_result r;
  case_json(json, sizeof json, "ref", "[0.5, 0.5, 0.5]",
            "\"periodic\": [{\"surfaces\": [\"xmin\", \"xmax\"]}],"
            " \"boundaries\": [{\"surface\": \"xmin\", \"type\": \"pec\"}],"
            " \"default_boundary\": \"pec\",");
  assert_dg_error(run_json(s->dir, "bad1", json, &r), DG_ERR_INPUT, "also boundaries[0]");
  case_json(json, sizeof json, "ref", "[0.5, 0.5, 0.5]",
            "\"periodic\": [{\"surfaces\": [\"xmin\", \"xmax\"], \"translation\": [0.5, 0, 0]}],"
            " \"default_boundary\": \"pec\",");
  assert_dg_error(run_json(s->dir, "bad2", json, &r), DG_ERR_INPUT, "periodic[0]: ");
  case_json(json, sizeof json, "ref", "[0.5, 0.5, 0.5]",
            "\"periodic\": [{\"surfaces\": [\"xmin\"]}], \"default_boundary\": \"pec\",");
  assert_dg_error(run_json(s->dir, "bad3", json, &r), DG_ERR_INPUT, "two physical surface");
  case_json(json, sizeof json, "ref", "[0.5, 0.5, 0.5]",
            "\"periodic\": [{\"surfaces\": [\"xmin\", \"left\"]}], \"default_boundary\": \"pec\",");
  assert_dg_error(run_json(s->dir, "bad4", json, &r), DG_ERR_INPUT, "left");
  /* an oblique plane wave differs on the two sides of the x pair */
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": {\"cells\": [2, 2, 2]}}, \"order\": 1, \"backend\": \"ref\","
           " \"final_time\": 0.1, \"default_boundary\": \"pec\","
           " \"periodic\": [{\"surfaces\": [\"xmin\", \"xmax\"]}],"
           " \"sources\": [{\"type\": \"plane_wave\", \"direction\": [1, 0, 1],"
           " \"polarization\": [0, 1, 0], \"formulation\": \"scattered-field\","
           " \"pulse\": {\"shape\": \"ricker\", \"frequency\": 1}}]}");
  assert_dg_error(run_json(s->dir, "bad6", json, &r), DG_ERR_UNSUPPORTED, "not perpendicular");
  /* the box mesher's layer surrounds the box: it stretches along x too */
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": {\"cells\": [2, 2, 2], \"pml_cells\": 1}}, \"order\": 1,"
           " \"backend\": \"ref\", \"final_time\": 0.1, \"default_boundary\": \"pec\","
           " \"periodic\": [{\"surfaces\": [\"xmin\", \"xmax\"]}]}");
  assert_dg_error(run_json(s->dir, "bad5", json, &r), DG_ERR_INPUT, "the layer stretches along x");
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(backends_agree), cmocka_unit_test(refused)};
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

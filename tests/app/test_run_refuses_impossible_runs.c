/* Runs that cannot be what the user meant are refused before any work, with exit status 2
 * and a message saying why: more steps than fit an int (a huge final time or a tiny cfl),
 * a time step that is not finite (eps and mu that overflow), more host memory than the
 * machine has; a material so slow that one step covers the whole run still takes one
 * step (not zero). */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"

static void run_json(const char *json, dg_status want, const char *msg, dg_run_result *r) {
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "impossible-test"));
  c.quiet = 1;
  if (want == DG_OK) assert_dg_ok(dg_run(&c, r));
  else assert_dg_error(dg_run(&c, r), want, msg);
  dg_case_free(&c);
}

static void too_many_steps(void **state) {
  (void)state;
  dg_run_result r;
  run_json("{\"default_boundary\": \"pec\", \"backend\": \"ref\", \"order\": 1, \"final_time\": 1e10}", DG_ERR_INPUT,
           "too many steps", &r);
  run_json("{\"default_boundary\": \"pec\", \"backend\": \"ref\", \"order\": 1, \"cfl\": 1e-12}", DG_ERR_INPUT, "too many steps",
           &r);
  run_json("{\"default_boundary\": \"pec\", \"backend\": \"ref\", \"order\": 1, \"final_time\": 1e300}", DG_ERR_INPUT,
           "too many steps", &r);
  assert_int_equal(dg_status_exit_code(DG_ERR_INPUT), 2);
}

static void time_step_not_finite(void **state) {
  (void)state;
  dg_run_result r;
  run_json("{\"default_boundary\": \"pec\", \"backend\": \"ref\", \"order\": 1, \"mesh\": {\"box\": {\"cells\": [1, 1, 1]}},"
           " \"materials\": [{\"volume\": \"domain\", \"eps\": 1e300, \"mu\": 1e300}]}",
           DG_ERR_INPUT, "not a positive finite number", &r);
}

static void slow_material_takes_one_step(void **state) {
  (void)state;
  dg_run_result r;
  run_json("{\"default_boundary\": \"pec\", \"backend\": \"ref\", \"order\": 1, \"mesh\": {\"box\": {\"cells\": [1, 1, 1]}},"
           " \"materials\": [{\"volume\": \"domain\", \"eps\": 1e300}]}",
           DG_OK, NULL, &r);
  assert_int_equal(r.steps, 1);
  assert_near(r.final_time, 1.0, 1e-15);
  assert_true(isfinite(r.dt));
}

static void more_memory_than_the_machine(void **state) {
  (void)state;
  dg_run_result r;
  /* 48 million elements at order 8: petabytes. Refused before the mesh is built. */
  run_json("{\"default_boundary\": \"pec\", \"backend\": \"ref\", \"order\": 8, \"mesh\": {\"box\": {\"cells\": [200, 200, 200]}}}",
           DG_ERR_INPUT, "GB of host memory", &r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(too_many_steps),
      cmocka_unit_test(time_step_not_finite),
      cmocka_unit_test(slow_material_takes_one_step),
      cmocka_unit_test(more_memory_than_the_machine),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

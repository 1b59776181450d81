/* A conductivity shortens the time step as the PML's filters do ((sigma/eps) dt <= cfl):
 * sigma = 200 with a harmonic dipole ran at the step of sigma = 0, LSERK4 went unstable and
 * the run exited 0 with an energy of 1e92. And a blow-up is caught while a source is on too:
 * the energy may not exceed what the point sources can have put in. */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"

static dg_status run_box(double sigma, double cfl, double final_time, dg_run_result *r) {
  char json[1024];
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": {\"cells\": [2, 2, 2]}}, \"order\": 2, \"backend\": \"ref\","
           " \"default_boundary\": \"absorbing\", \"final_time\": %g, \"cfl\": %g,"
           " \"materials\": [{\"volume\": \"domain\", \"sigma\": %g}],"
           " \"sources\": [{\"type\": \"dipole\", \"position\": [0.4, 0.5, 0.55],"
           "   \"direction\": [0, 0, 1], \"pulse\": {\"shape\": \"harmonic\", \"frequency\": 2}}]}",
           final_time, cfl, sigma);
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "sigma-test.json"));
  c.quiet = 1;
  dg_error_clear();
  const dg_status st = dg_run(&c, r);
  dg_case_free(&c);
  return st;
}

static void conductivity_shortens_the_step(void **state) {
  (void)state;
  dg_run_result r0, r;
  assert_dg_ok(run_box(0, 1, 0.5, &r0));
  assert_dg_ok(run_box(200, 1, 0.5, &r));
  print_message("# dt: sigma 0 %g, sigma 200 %g; energy at the end %g\n", r0.dt, r.dt,
                r.energy_end);
  assert_true(r0.dt > 1.0 / 200); /* the geometric step alone would be unstable */
  assert_true(r.dt <= 1.0 / 200 * (1 + 1e-12));
  /* Stable: the conductor damps what the dipole puts in. */
  assert_true(isfinite(r.energy_end) && r.energy_end < 1);
}

static void blow_up_caught_while_a_source_is_on(void **state) {
  (void)state;
  dg_run_result r;
  /* cfl 4 is unstable; the harmonic dipole never stops, and in 26 steps the energy reaches
   * 6e10, finite, so only a check while the source is on can see it. */
  const dg_status st = run_box(0, 4, 2, &r);
  if (st != DG_ERR_NUMERIC || !strstr(dg_error_message(), "more than the sources can put in"))
    fail_msg("unstable run with a source on: %s \"%s\", energy at the end %g", dg_status_name(st),
             dg_error_message(), r.energy_end);
  /* The same at a stable step passes the check (the bound is not a false alarm). */
  assert_dg_ok(run_box(0, 1, 2, &r));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(conductivity_shortens_the_step),
      cmocka_unit_test(blow_up_caught_while_a_source_is_on),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The blow-up check never fires on a physical run: energy a source puts in is not growth.
 * A dipole whose Gaussian pulse takes the default delay (1.5/f0: at t = 0 it is 2e-10 of
 * its amplitude) is on from the start; energy injected between the last check while the
 * pulse was on and the first one after is counted as the source's, however often the
 * energy is sampled. */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"

static void run_dipole(const char *pulse, int energy_every, const char *dir) {
  char json[1024];
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": {\"cells\": [2, 2, 2]}}, \"order\": 2, \"backend\": \"ref\","
           " \"default_boundary\": \"pec\", \"final_time\": 4,"
           " \"sources\": [{\"type\": \"dipole\", \"position\": [0.4, 0.5, 0.55],"
           "   \"direction\": [0, 0, 1], \"pulse\": %s}],"
           " \"output\": {\"directory\": \"%s\", \"energy_every\": %d}}",
           pulse, dir, energy_every);
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "/dipole-test.json"));
  c.quiet = 1;
  assert_dg_ok(dg_run(&c, &r));
  /* The pulse did put energy in, and PEC walls with upwind flux keep most of it. */
  assert_true(r.energy_end > 0);
  dg_case_free(&c);
}

static void default_delay_and_any_sampling(void **state) {
  test_scratch *s = *state;
  for (int every = 1; every <= 7; every += 3) {
    run_dipole("{\"shape\": \"gaussian\", \"frequency\": 2}", every, s->dir);
    run_dipole("{\"shape\": \"ricker\", \"frequency\": 2}", every, s->dir);
  }
}

static int scratch_setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(default_delay_and_any_sampling)};
  return cmocka_run_group_tests(tests, scratch_setup, test_scratch_teardown);
}

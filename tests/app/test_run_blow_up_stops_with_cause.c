/* Blow-up detection: a time step far beyond the stability limit stops the run with
 * DG_ERR_NUMERIC and a message naming the likely cause, on both backends. */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"

static void too_large_time_step(void **state) {
  (void)state;
  for (int backend = 0; backend < 2; ++backend) {
    dg_case c;
    dg_run_result r;
    dg_case_default(&c);
    c.backend = backend ? DG_BACKEND_REF : DG_BACKEND_OPENCL;
    c.quiet = 1;
    c.cfl = 8.0;
    c.final_time = 3.0;
    assert_dg_error(dg_run(&c, &r), DG_ERR_NUMERIC, "time step is too large");
    dg_case_free(&c);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(too_large_time_step)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Flop and byte counts of one RK stage equal hand-computed values at N = 1 and 2. */
#include "test_util.h"

#include "tune/counts.h"

/* N=1: Np=4, Nfp=3. volume 36*16 + 78*4 = 888; flux 288*3 = 864; lift 48*12 + 6*4 = 600;
 * update 30*4 = 120; total 2472. Bytes: float (24*4 + 48)*4 + 16*3 = 624, double 1200.
 * N=2: Np=10, Nfp=6. volume 3600 + 780 = 4380; flux 1728; lift 2880 + 60 = 2940;
 * update 300; total 9348. Bytes: float (240 + 48)*4 + 96 = 1248, double 2400. */
static void test_counts_n1_n2(void **state) {
  (void)state;
  assert_near(dg_count_flops_volume(1), 888, 0);
  assert_near(dg_count_flops_flux(1), 864, 0);
  assert_near(dg_count_flops_lift(1), 600, 0);
  assert_near(dg_count_flops_update(1), 120, 0);
  assert_near(dg_count_flops_element(1), 2472, 0);
  assert_near(dg_count_bytes_element(1, DG_PREC_FLOAT), 624, 0);
  assert_near(dg_count_bytes_element(1, DG_PREC_DOUBLE), 1200, 0);
  assert_near(dg_count_flops_volume(2), 4380, 0);
  assert_near(dg_count_flops_flux(2), 1728, 0);
  assert_near(dg_count_flops_lift(2), 2940, 0);
  assert_near(dg_count_flops_update(2), 300, 0);
  assert_near(dg_count_flops_element(2), 9348, 0);
  assert_near(dg_count_bytes_element(2, DG_PREC_FLOAT), 1248, 0);
  assert_near(dg_count_bytes_element(2, DG_PREC_DOUBLE), 2400, 0);
}

/* A stage on K elements: K times the element counts plus the operators read once
 * (N=1 float: (3*16 + 4*4*3)*4 = 384 bytes); DOFs 6 Np K. */
static void test_stage_totals(void **state) {
  (void)state;
  const dg_stage_counts c = dg_count_stage(1, DG_PREC_FLOAT, 1000);
  assert_near(c.flops, 2472e3, 0);
  assert_near(c.bytes, 624e3 + 384, 0);
  assert_near(c.dofs, 24e3, 0);
  const dg_stage_counts d = dg_count_stage(2, DG_PREC_DOUBLE, 10);
  assert_near(d.bytes, 24000 + (3 * 100 + 4 * 60) * 8, 0);
  assert_near(d.dofs, 600, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_counts_n1_n2),
                                     cmocka_unit_test(test_stage_totals)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

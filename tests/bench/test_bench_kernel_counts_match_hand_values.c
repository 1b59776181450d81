/* Per-kernel flop and byte counts of the benchmark equal hand-computed values at N = 1, 2 and add up to tune/counts.h's stage flops for every kernel path. */
#include "test_util.h"

#include "bench/bench.h"
#include "tune/counts.h"

/* Kernel names as cl_maxwell.c builds them map to their kinds. */
static void test_kind_of_names(void **state) {
  (void)state;
  assert_int_equal(dg_kernel_kind_of("volume_vec16"), DG_KERNEL_VOLUME);
  assert_int_equal(dg_kernel_kind_of("flux_node"), DG_KERNEL_FLUX);
  assert_int_equal(dg_kernel_kind_of("lift_elem4"), DG_KERNEL_LIFT);
  assert_int_equal(dg_kernel_kind_of("liftupdate_vec8"), DG_KERNEL_LIFTUPDATE);
  assert_int_equal(dg_kernel_kind_of("fluxlift_node"), DG_KERNEL_FLUXLIFT);
  assert_int_equal(dg_kernel_kind_of("update_blas"), DG_KERNEL_UPDATE);
  assert_int_equal(dg_kernel_kind_of("curl_blas"), DG_KERNEL_CURL);
  assert_int_equal(dg_kernel_kind_of("gemm_volume"), DG_KERNEL_GEMM_VOLUME);
  assert_int_equal(dg_kernel_kind_of("gemm_lift"), DG_KERNEL_GEMM_LIFT);
  assert_int_equal(dg_kernel_kind_of("rhs_vec8"), DG_KERNEL_RHS);
  assert_int_equal(dg_kernel_kind_of("rhsres_node"), DG_KERNEL_RHSRES);
  assert_int_equal(dg_kernel_kind_of("qupdate_vec16"), DG_KERNEL_QUPDATE);
  assert_int_equal(dg_kernel_kind_of("rhsstep_node"), DG_KERNEL_RHSSTEP);
  assert_int_equal(dg_kernel_kind_of("qcopy_vec8"), DG_KERNEL_QCOPY);
  assert_int_equal(dg_kernel_kind_of("source_vec16"), DG_KERNEL_OTHER);
  assert_int_equal(dg_kernel_kind_of("halo_pack"), DG_KERNEL_OTHER);
  assert_int_equal(dg_kernel_kind_of("volumes"), DG_KERNEL_OTHER);
  assert_string_equal(dg_kernel_kind_name(DG_KERNEL_LIFTUPDATE), "liftupdate");
}

/* N=1: Np=4, Nfp=3.
 *   flops: volume 36*16 + 78*4 = 888; flux 288*3 = 864; lift 48*12 + 24 = 600; update 120;
 *          liftupdate 720; fluxlift 1464; curl 78*4 = 312; gemm_volume 576; gemm_lift 600.
 *   float bytes (4 B reals, 4 B indices, 16 Nfp = 48 B of indices):
 *          volume (48 + 12)*4 = 240; flux (144 + 36)*4 + 48 = 768; lift (72 + 48)*4 = 480;
 *          liftupdate (72 + 120)*4 = 768; fluxlift (72 + 36 + 48)*4 + 48 = 672;
 *          update 120*4 = 480; curl (108 + 12)*4 = 480; gemm_volume 96*4 = 384;
 *          gemm_lift 480. Operators: volume 3*16*4 = 192, lift 4*4*3*4 = 192.
 *   fused (fuse=rhs|res): rhs 888 + 864 + 600 = 2352 flops, (48 + 48)*4 + 48 = 432 B;
 *          rhsres 2352 + 18*4 = 2424 flops, (72 + 48)*4 + 48 = 528 B; qupdate 12*4 = 48
 *          flops, 72*4 = 288 B; operators of rhs: 192 + 192.
 *   fuse=step: rhsstep 2352 + 120 = 2472 flops, (96 + 48)*4 + 48 = 624 B; qcopy 0 flops,
 *          a fifth of 48*4 = 192 B: 38.4 B. */
static void test_n1(void **state) {
  (void)state;
  const double fl[DG_KERNEL_KINDS] = {888, 864, 600, 720, 1464, 120, 312,
                                      576, 600, 2352, 2424, 48, 2472, 0, 0};
  const double by[DG_KERNEL_KINDS] = {240, 768, 480, 768, 672, 480, 480,
                                      384, 480, 432, 528, 288, 624, 38.4, 0};
  for (int k = 0; k < DG_KERNEL_KINDS; ++k) {
    assert_near(dg_kernel_flops((dg_kernel_kind)k, 1), fl[k], 0);
    assert_near(dg_kernel_bytes((dg_kernel_kind)k, 1, DG_PREC_FLOAT), by[k], 1e-9);
  }
  assert_near(dg_kernel_operator_bytes(DG_KERNEL_VOLUME, 1, DG_PREC_FLOAT), 192, 0);
  assert_near(dg_kernel_operator_bytes(DG_KERNEL_LIFTUPDATE, 1, DG_PREC_FLOAT), 192, 0);
  assert_near(dg_kernel_operator_bytes(DG_KERNEL_FLUX, 1, DG_PREC_FLOAT), 0, 0);
  assert_near(dg_kernel_operator_bytes(DG_KERNEL_RHS, 1, DG_PREC_FLOAT), 384, 0);
  assert_near(dg_kernel_operator_bytes(DG_KERNEL_QUPDATE, 1, DG_PREC_FLOAT), 0, 0);
}

/* N=2: Np=10, Nfp=6.
 *   flops: volume 3600 + 780 = 4380; flux 1728; lift 2880 + 60 = 2940; update 300;
 *          liftupdate 3240; fluxlift 4668; curl 780; gemm_volume 3600; gemm_lift 2940.
 *   double bytes (8 B reals; 16 Nfp = 96 B of indices):
 *          volume (120 + 12)*8 = 1056; flux (288 + 36)*8 + 96 = 2688;
 *          lift (144 + 120)*8 = 2112; liftupdate (144 + 300)*8 = 3552;
 *          fluxlift (144 + 36 + 120)*8 + 96 = 2496; update 300*8 = 2400;
 *          curl (270 + 12)*8 = 2256; gemm_volume 240*8 = 1920; gemm_lift 2112.
 *   Operators: volume 3*100*8 = 2400, lift 4*10*6*8 = 1920.
 *   fused: rhs 4380 + 1728 + 2940 = 9048 flops, (120 + 48)*8 + 96 = 1440 B; rhsres
 *          9048 + 180 = 9228 flops, (180 + 48)*8 + 96 = 1920 B; qupdate 120 flops,
 *          180*8 = 1440 B; rhsstep 9048 + 300 = 9348 flops, (240 + 48)*8 + 96 = 2400 B;
 *          qcopy a fifth of 120*8 = 960 B: 192 B. */
static void test_n2(void **state) {
  (void)state;
  const double fl[DG_KERNEL_KINDS] = {4380, 1728, 2940, 3240, 4668, 300, 780,
                                      3600, 2940, 9048, 9228, 120, 9348, 0, 0};
  const double by[DG_KERNEL_KINDS] = {1056, 2688, 2112, 3552, 2496, 2400, 2256,
                                      1920, 2112, 1440, 1920, 1440, 2400, 192, 0};
  for (int k = 0; k < DG_KERNEL_KINDS; ++k) {
    assert_near(dg_kernel_flops((dg_kernel_kind)k, 2), fl[k], 0);
    assert_near(dg_kernel_bytes((dg_kernel_kind)k, 2, DG_PREC_DOUBLE), by[k], 0);
  }
  assert_near(dg_kernel_operator_bytes(DG_KERNEL_GEMM_VOLUME, 2, DG_PREC_DOUBLE), 2400, 0);
  assert_near(dg_kernel_operator_bytes(DG_KERNEL_GEMM_LIFT, 2, DG_PREC_DOUBLE), 1920, 0);
}

/* Every kernel set a variant can run (separate, fused, fused-update, CLBlast, fuse=rhs,
 * fuse=res, fuse=step) does exactly the stage's flops, and its kernels together move at least
 * the stage's minimum bytes (they also pass rhs and the fluxes through memory); fuse=step's
 * rhsstep alone moves exactly the minimum. */
static void test_paths_add_up(void **state) {
  (void)state;
  const dg_kernel_kind paths[7][5] = {
      {DG_KERNEL_VOLUME, DG_KERNEL_FLUX, DG_KERNEL_LIFT, DG_KERNEL_UPDATE, DG_KERNEL_OTHER},
      {DG_KERNEL_VOLUME, DG_KERNEL_FLUXLIFT, DG_KERNEL_UPDATE, DG_KERNEL_OTHER, DG_KERNEL_OTHER},
      {DG_KERNEL_VOLUME, DG_KERNEL_FLUX, DG_KERNEL_LIFTUPDATE, DG_KERNEL_OTHER, DG_KERNEL_OTHER},
      {DG_KERNEL_GEMM_VOLUME, DG_KERNEL_CURL, DG_KERNEL_FLUX, DG_KERNEL_GEMM_LIFT,
       DG_KERNEL_UPDATE},
      {DG_KERNEL_RHS, DG_KERNEL_UPDATE, DG_KERNEL_OTHER, DG_KERNEL_OTHER, DG_KERNEL_OTHER},
      {DG_KERNEL_RHSRES, DG_KERNEL_QUPDATE, DG_KERNEL_OTHER, DG_KERNEL_OTHER,
       DG_KERNEL_OTHER},
      {DG_KERNEL_RHSSTEP, DG_KERNEL_QCOPY, DG_KERNEL_OTHER, DG_KERNEL_OTHER, DG_KERNEL_OTHER}};
  for (int N = 1; N <= 8; ++N) {
    assert_near(dg_kernel_bytes(DG_KERNEL_RHSSTEP, N, DG_PREC_FLOAT),
                dg_count_bytes_element(N, DG_PREC_FLOAT), 1e-9);
    for (int p = 0; p < 7; ++p) {
      double f = 0, b = 0;
      for (int k = 0; k < 5; ++k) {
        f += dg_kernel_flops(paths[p][k], N);
        b += dg_kernel_bytes(paths[p][k], N, DG_PREC_FLOAT);
      }
      assert_near(f, dg_count_flops_element(N), 1e-9 * f);
      assert_true(b >= dg_count_bytes_element(N, DG_PREC_FLOAT));
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_kind_of_names),
                                     cmocka_unit_test(test_n1), cmocka_unit_test(test_n2),
                                     cmocka_unit_test(test_paths_add_up)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

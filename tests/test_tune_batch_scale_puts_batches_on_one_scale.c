/* The tuner times candidates in batches, and a later batch re-times the fastest candidate
 * so far (the reference) to put its times on the scale of the earlier ones
 * (dg_timing_batch_scale, tune/tune.c evaluate). Checked here on made-up samples:
 *   - the factor is the recorded median over the re-timed median (odd and even counts);
 *   - a batch slowed down as a whole ranks its candidates against the earlier batch's as
 *     the undisturbed times would, where the raw medians rank them the wrong way round;
 *   - a missing, zero or non-finite time gives the factor 1 (times left as measured). */
#include "test_util.h"

#include <math.h>

#include "tune/timing.h"

static double median_of(const double *x, int n) {
  double y[16], st[3];
  for (int i = 0; i < n; ++i) y[i] = x[i];
  dg_timing_stats(y, n, st);
  return st[0];
}

static void test_factor(void **state) {
  (void)state;
  double odd[3] = {2.0, 1.0, 3.0}; /* median 2 */
  assert_true(fabs(dg_timing_batch_scale(4.0, odd, 3) - 2.0) < 1e-15);
  double even[4] = {4.0, 1.0, 3.0, 2.0}; /* median 2.5 */
  assert_true(fabs(dg_timing_batch_scale(5.0, even, 4) - 2.0) < 1e-15);
}

static void test_slowed_batch_ranks_as_undisturbed(void **state) {
  (void)state;
  /* True stage times: A 1.00 ms, the reference R 1.20 ms, B 0.90 ms. Batch 1 times A and R
   * undisturbed; batch 2 times B and R again while the host slows everything by 1.5 (with
   * a few per-sample wobbles that the medians absorb). */
  const double a[5] = {1.00, 1.02, 0.99, 1.31, 1.00};
  const double r1[5] = {1.20, 1.19, 1.45, 1.21, 1.20};
  const double slow = 1.5;
  double b[5], r2[5];
  const double bw[5] = {1.00, 1.01, 1.40, 0.99, 1.00}, rw[5] = {1.00, 0.99, 1.00, 1.30, 1.01};
  for (int i = 0; i < 5; ++i) b[i] = 0.90 * slow * bw[i], r2[i] = 1.20 * slow * rw[i];
  const double med_a = median_of(a, 5), med_b = median_of(b, 5);
  assert_true(med_b > med_a); /* raw: B looks slower than A, the wrong way round */
  const double s = dg_timing_batch_scale(median_of(r1, 5), r2, 5);
  assert_true(fabs(s - 1 / slow) < 0.01);
  for (int i = 0; i < 5; ++i) b[i] *= s;
  const double scaled_b = median_of(b, 5);
  assert_true(scaled_b < med_a);                  /* scaled: B ahead of A, as it is */
  assert_true(fabs(scaled_b / 0.90 - 1) < 0.02); /* and near its undisturbed time */
}

static void test_degenerate_inputs_leave_times_alone(void **state) {
  (void)state;
  double x[3] = {1.0, 2.0, 3.0};
  assert_true(dg_timing_batch_scale(0.0, x, 3) == 1.0);
  assert_true(dg_timing_batch_scale(-1.0, x, 3) == 1.0);
  assert_true(dg_timing_batch_scale(NAN, x, 3) == 1.0);
  assert_true(dg_timing_batch_scale(INFINITY, x, 3) == 1.0);
  assert_true(dg_timing_batch_scale(2.0, x, 0) == 1.0);
  double zeros[3] = {0.0, 0.0, 0.0};
  assert_true(dg_timing_batch_scale(2.0, zeros, 3) == 1.0);
  double nans[3] = {NAN, NAN, NAN};
  assert_true(dg_timing_batch_scale(2.0, nans, 3) == 1.0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_factor),
      cmocka_unit_test(test_slowed_batch_ranks_as_undisturbed),
      cmocka_unit_test(test_degenerate_inputs_leave_times_alone),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

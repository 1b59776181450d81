/* Plane waves: init normalises k and pol and rejects zero or non-orthogonal vectors with the
 * values in the message; the field is E = pol g(t - k.(x - x0)), H = k x E, and travels
 * along k at unit speed. */
#include "test_util.h"

#include "dg/maxwell.h"
#include "dg/source.h"

static void test_init_normalises_and_rejects(void **state) {
  (void)state;
  dg_plane_wave pw = {{2, 0, 0}, {0, 0, -3}, {0, 0, 0}, {DG_PULSE_GAUSSIAN, 1, 0, 1, 0, 0}, 0};
  assert_dg_ok(dg_plane_wave_init(&pw));
  assert_near(pw.k[0], 1, 0);
  assert_near(pw.pol[2], -1, 0);

  dg_plane_wave zk = {{0, 0, 0}, {0, 1, 0}, {0, 0, 0}, {DG_PULSE_GAUSSIAN, 1, 0, 1, 0, 0}, 0};
  assert_dg_error(dg_plane_wave_init(&zk), DG_ERR_INPUT, "k = (0, 0, 0)");
  dg_plane_wave zp = {{1, 0, 0}, {0, 0, 0}, {0, 0, 0}, {DG_PULSE_GAUSSIAN, 1, 0, 1, 0, 0}, 0};
  assert_dg_error(dg_plane_wave_init(&zp), DG_ERR_INPUT, "polarisation = (0, 0, 0)");
  dg_plane_wave skew = {{1, 1, 0}, {0, 1, 1}, {0, 0, 0}, {DG_PULSE_GAUSSIAN, 1, 0, 1, 0, 0}, 0};
  assert_dg_error(dg_plane_wave_init(&skew), DG_ERR_INPUT,
                  "polarisation (0, 1, 1) is not orthogonal to k = (1, 1, 0)");
  assert_near(skew.k[0], 1, 0); /* left unchanged on failure */
  /* Orthogonal within 1e-9 is accepted. */
  dg_plane_wave near = {{1, 0, 0}, {1e-10, 1, 0}, {0, 0, 0}, {DG_PULSE_RICKER, 1, 0, 1, 0, 0}, 0};
  assert_dg_ok(dg_plane_wave_init(&near));
  dg_plane_wave badf = {{1, 0, 0}, {0, 1, 0}, {0, 0, 0}, {DG_PULSE_RICKER, -1, 0, 1, 0, 0}, 0};
  assert_dg_error(dg_plane_wave_init(&badf), DG_ERR_INPUT, "plane wave: pulse frequency");
}

static void cross(const double a[3], const double b[3], double c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static void test_field_is_pol_g_and_h_is_k_cross_e(void **state) {
  (void)state;
  dg_plane_wave pw = {
      {1, 2, -2}, {2, 1, 2}, {0.3, -0.1, 0.2}, {DG_PULSE_RICKER, 1.5, 0.4, 2, 0, 0}, 0};
  assert_dg_ok(dg_plane_wave_init(&pw));
  dg_field_fn f = dg_plane_wave_eval; /* it is a dg_field_fn */
  const double pts[4][4] = {
      {0, 0, 0, 0.1}, {0.3, -0.1, 0.2, 0.4}, {1, 0.5, -0.7, 1.3}, {-2, 3, 1, 2}};
  for (int i = 0; i < 4; ++i) {
    const double *x = pts[i];
    double e[3], h[3], kxe[3];
    f(&pw, x[0], x[1], x[2], x[3], e, h);
    const double kd = pw.k[0] * (x[0] - 0.3) + pw.k[1] * (x[1] + 0.1) + pw.k[2] * (x[2] - 0.2);
    const double g = dg_pulse_eval(&pw.pulse, x[3] - kd);
    cross(pw.k, e, kxe);
    for (int c = 0; c < 3; ++c) {
      assert_near(e[c], pw.pol[c] * g, 1e-15);
      assert_near(h[c], kxe[c], 1e-15);
    }
    /* Travelling at unit speed along k: E(x + d k, t + d) = E(x, t). */
    double e2[3], h2[3];
    const double d = 0.37;
    f(&pw, x[0] + d * pw.k[0], x[1] + d * pw.k[1], x[2] + d * pw.k[2], x[3] + d, e2, h2);
    for (int c = 0; c < 3; ++c) assert_near(e2[c], e[c], 1e-14);
  }
  /* At x0 it is the pulse itself. */
  double e[3], h[3];
  f(&pw, 0.3, -0.1, 0.2, 0.4, e, h);
  assert_near(e[0] * pw.pol[0] + e[1] * pw.pol[1] + e[2] * pw.pol[2], 2.0, 1e-15);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_init_normalises_and_rejects),
      cmocka_unit_test(test_field_is_pol_g_and_h_is_k_cross_e),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The (m, n, 0) cavity modes (TM modes with p = 0): accepted with their default amplitudes
 * (0, 0, C) or explicit ones, refused only when the field really is zero; `dgtd run --mode
 * 2,2,0` runs; and the TM110 mode converges on unstructured Gmsh meshes of the unit cube at
 * a rate >= N + 0.5 (reference backend, N = 1 and 2). */
#include "test_util.h"

#include <sys/wait.h>

#include "app/simulate.h"
#include "dg/cavity.h"

static const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};

static void test_p0_modes_accepted_and_non_zero(void **state) {
  (void)state;
  dg_cavity_mode md;
  assert_dg_ok(dg_cavity_mode_init(&md, 2, 2, 0, NULL, lo, hi));
  assert_near(md.C, 1.0, 0);
  assert_near(md.omega, M_PI * sqrt(8.0), 1e-12);
  double e[3], h[3];
  dg_cavity_mode_eval(&md, 0.25, 0.25, 0.3, 0.0, e, h); /* sin(pi/2)^2: E_z = 1 */
  assert_near(e[2], 1.0, 1e-12);
  assert_near(e[0], 0.0, 0);
  const double amp110[3] = {0, 0, -3};
  assert_dg_ok(dg_cavity_mode_init(&md, 1, 1, 0, amp110, lo, hi));
  dg_cavity_mode_eval(&md, 0.5, 0.5, 0.9, 0.0, e, h);
  assert_near(e[2], -3.0, 1e-12);
  /* H after a quarter period: curl E / omega, non-zero */
  dg_cavity_mode_eval(&md, 0.5, 0.25, 0.5, 0.5 * M_PI / md.omega, e, h);
  assert_true(fabs(h[0]) > 0.1);
}

static void test_zero_modes_refused(void **state) {
  (void)state;
  dg_cavity_mode md;
  /* (1,1,0) with E in the x-y plane: E_x ~ sin(pi z * 0) = 0, E_y too */
  const double flat[3] = {1, -1, 0};
  assert_dg_error(dg_cavity_mode_init(&md, 1, 1, 0, flat, lo, hi), DG_ERR_INPUT, "is zero");
  assert_dg_error(dg_cavity_mode_init(&md, 1, 0, 0, NULL, lo, hi), DG_ERR_INPUT,
                  "identically zero");
  const double none[3] = {0, 0, 0};
  assert_dg_error(dg_cavity_mode_init(&md, 1, 1, 1, none, lo, hi), DG_ERR_INPUT, "is zero");
  /* not divergence-free */
  const double bad[3] = {1, 1, 1};
  assert_dg_error(dg_cavity_mode_init(&md, 1, 1, 1, bad, lo, hi), DG_ERR_INPUT,
                  "divergence-free");
}

static void test_cli_runs_mode_220(void **state) {
  (void)state;
  const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
  char cmd[512];
  snprintf(cmd, sizeof cmd,
           "%s/dgtd run --backend ref --box 2 --order 1 --steps 2 --mode 2,2,0 --quiet --json"
           " > /dev/null 2>&1", bin);
  const int rc = system(cmd);
  assert_true(WIFEXITED(rc));
  assert_int_equal(WEXITSTATUS(rc), 0);
}

static double run(int N, const char *mesh, double *h) {
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  c.quiet = 1;
  c.backend = DG_BACKEND_REF;
  c.order = N;
  c.final_time = 0.1;
  snprintf(c.mesh_file, sizeof c.mesh_file, "%s", mesh);
  c.has_cavity_mode = 1;
  c.mode[0] = 1, c.mode[1] = 1, c.mode[2] = 0;
  c.has_amp = 0;
  assert_dg_ok(dg_run(&c, &r));
  *h = pow((double)r.K, -1.0 / 3.0);
  assert_true(r.l2_error > 0);
  return r.l2_error;
}

static void test_tm110_converges_on_unstructured_meshes(void **state) {
  (void)state;
  static const char *mesh[3] = {FIXTURE("box_unstructured_h0.5.msh"),
                                FIXTURE("box_unstructured_h0.25.msh"),
                                FIXTURE("box_unstructured_h0.125.msh")};
  for (int N = 1; N <= 2; ++N) {
    double h[3], err[3];
    for (int i = 0; i < 3; ++i) err[i] = run(N, mesh[i], &h[i]);
    for (int i = 1; i < 3; ++i) {
      const double rate = log(err[i - 1] / err[i]) / log(h[i - 1] / h[i]);
      printf("# TM110 unstructured N=%d h=%.4f error=%.4e rate=%.2f\n", N, h[i], err[i], rate);
      if (i == 2 && !(rate >= N + 0.5))
        fail_msg("TM110 N=%d: rate %.2f below %.1f (errors %.3e -> %.3e)", N, rate, N + 0.5,
                 err[1], err[2]);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_p0_modes_accepted_and_non_zero),
      cmocka_unit_test(test_zero_modes_refused),
      cmocka_unit_test(test_cli_runs_mode_220),
      cmocka_unit_test(test_tm110_converges_on_unstructured_meshes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Convergence: the L2 error of the (1,1,1) PEC cavity mode (upwind flux, reference
 * backend) falls at a rate >= N + 0.5 under h-refinement, on structured box meshes and on
 * unstructured Gmsh meshes of the unit cube, for N = 1..4. Prints the table it measures. */
#include "test_util.h"

#include "app/simulate.h"

static double run(int N, int cells, const char *mesh, double T) {
  dg_run_config c;
  dg_run_result r;
  dg_run_config_default(&c);
  c.order = N;
  c.final_time = T;
  c.mesh_path = mesh;
  c.box_cells[0] = c.box_cells[1] = c.box_cells[2] = cells;
  assert_dg_ok(dg_run_cavity(&c, &r));
  printf("# N=%d %-40s K=%5d steps=%4d  L2 error %.4e\n", N, mesh ? mesh : "box", r.K, r.steps,
         r.l2_error);
  return r.l2_error;
}

/* Rate between the two finest levels must reach N + 0.5. */
static void check_rates(int N, int nlevels, const double *h, const double *err) {
  for (int i = 1; i < nlevels; ++i) {
    const double rate = log(err[i - 1] / err[i]) / log(h[i - 1] / h[i]);
    printf("# N=%d h=%.4f error=%.4e rate=%.2f\n", N, h[i], err[i], rate);
    if (i == nlevels - 1 && !(rate >= N + 0.5))
      fail_msg("N=%d: rate %.2f below %.1f (errors %.3e -> %.3e)", N, rate, N + 0.5, err[i - 1], err[i]);
  }
}

static void box_meshes(void **state) {
  (void)state;
  /* Levels per order: enough to be asymptotic, few enough for a 2-core CI machine. */
  static const int levels[5][3] = {{0}, {2, 4, 8}, {2, 4, 8}, {1, 2, 4}, {1, 2, 4}};
  for (int N = 1; N <= 4; ++N) {
    double h[3], err[3];
    for (int i = 0; i < 3; ++i) {
      h[i] = 1.0 / levels[N][i];
      err[i] = run(N, levels[N][i], NULL, 0.3);
    }
    check_rates(N, 3, h, err);
  }
}

static void unstructured_meshes(void **state) {
  (void)state;
  static const char *files[3] = {FIXTURE("box_unstructured_h1.msh"),
                                 FIXTURE("box_unstructured_h2.msh"),
                                 FIXTURE("box_unstructured_h3.msh")};
  const double h[3] = {0.5, 0.25, 0.125};
  for (int N = 1; N <= 4; ++N) {
    const int first = N >= 3 ? 0 : 1; /* the finest mesh only where it is cheap */
    double err[3];
    for (int i = 0; i < 3 - (N >= 3); ++i) err[i] = run(N, 0, files[i], 0.3);
    (void)first;
    check_rates(N, 3 - (N >= 3), h, err);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(box_meshes),
      cmocka_unit_test(unstructured_meshes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

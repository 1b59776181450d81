/* Convergence: the L2 error of the (1,1,1) PEC cavity mode (upwind flux, reference
 * backend) falls at a rate >= N + 0.5 under h-refinement, on structured box meshes and on
 * unstructured Gmsh meshes of the unit cube, for N = 1..4. Prints the table it measures. */
#include "test_util.h"

#include "app/simulate.h"

/* Error at T for order N on a box with `cells` cells per side or on a mesh file; the mesh
 * size h is taken as K^(-1/3), which is fair for structured and unstructured meshes alike. */
static double run(int N, int cells, const char *mesh, double T, double *h) {
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  c.quiet = 1;
  c.backend = DG_BACKEND_REF;
  c.order = N;
  c.final_time = T;
  snprintf(c.mesh_file, sizeof c.mesh_file, "%s", mesh ? mesh : "");
  c.box_cells[0] = c.box_cells[1] = c.box_cells[2] = cells;
  assert_dg_ok(dg_run(&c, &r));
  *h = pow((double)r.K, -1.0 / 3.0);
  return r.l2_error;
}

/* Prints the table; the rate between the two finest levels must reach N + 0.5. */
static void check_rates(const char *what, int N, int nlevels, const double *h, const double *err) {
  for (int i = 0; i < nlevels; ++i) {
    if (i == 0) {
      printf("# %-12s N=%d h=%.4f error=%.4e\n", what, N, h[i], err[i]);
      continue;
    }
    const double rate = log(err[i - 1] / err[i]) / log(h[i - 1] / h[i]);
    printf("# %-12s N=%d h=%.4f error=%.4e rate=%.2f\n", what, N, h[i], err[i], rate);
    if (i == nlevels - 1 && !(rate >= N + 0.5))
      fail_msg("%s N=%d: rate %.2f below %.1f (errors %.3e -> %.3e)", what, N, rate, N + 0.5,
               err[i - 1], err[i]);
  }
}

/* Final time: long enough for several hundred RK stages on the finest meshes. */
static const double T = 0.3;

static void box_meshes(void **state) {
  (void)state;
  /* Levels per order: asymptotic, yet cheap enough for a 2-core CI machine (~10 s). */
  static const int levels[5][3] = {{0}, {2, 4, 8}, {2, 4, 8}, {1, 2, 4}, {1, 2, 4}};
  for (int N = 1; N <= 4; ++N) {
    double h[3], err[3];
    for (int i = 0; i < 3; ++i) err[i] = run(N, levels[N][i], NULL, T, &h[i]);
    check_rates("box", N, 3, h, err);
  }
}

static void unstructured_meshes(void **state) {
  (void)state;
  /* Gmsh meshes of the unit cube, K = 100, 376, 1122, 2624; orders 3 and 4 use the two
   * middle ones, which are asymptotic for them and cheap. */
  static const char *coarse[3] = {FIXTURE("box_unstructured_h0.5.msh"),
                                  FIXTURE("box_unstructured_h0.25.msh"),
                                  FIXTURE("box_unstructured_h0.125.msh")};
  static const char *fine[2] = {FIXTURE("box_unstructured_h0.25.msh"),
                                FIXTURE("box_unstructured_h0.18.msh")};
  for (int N = 1; N <= 4; ++N) {
    const int nlevels = N <= 2 ? 3 : 2;
    double h[3], err[3];
    for (int i = 0; i < nlevels; ++i) err[i] = run(N, 0, N <= 2 ? coarse[i] : fine[i], 0.1, &h[i]);
    check_rates("unstructured", N, nlevels, h, err);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(box_meshes),
      cmocka_unit_test(unstructured_meshes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

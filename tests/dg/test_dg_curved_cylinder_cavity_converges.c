/* The TM010 mode of a PEC circular cylinder (a quarter of it, PMC on the cuts) converges at
 * rate >= N + 0.5 with curved elements on the reference backend: on second-order meshes at
 * N = 1, 2 (and 3 on a finer pair with DGTD_TEST_ALL=1), where the same meshes read
 * straight-sided stall near rate 2 (the faceted wall is the error), and on fourth-order meshes
 * (Gmsh -order 4, their inner nodes re-placed by the reader) at N = 2; with DGTD_TEST_ALL=1
 * also N = 4 on fourth-order meshes (rate 4.93 on the finer pair, measured), where
 * second-order ones stop near h^3.7. The energy never grows. Prints the table it measures. */
#include "test_util.h"

#include "dg/geom.h"
#include "dg/maxwell.h"
#include "dg/stepper.h"

/* TM010 of the cylinder r <= 1 (tests/fixtures/quarter_cylinder.geo), any height: k = j01 the
 * first zero of J0 and c = 1, E = J0(kr) cos(kt) z, H = -J1(kr) sin(kt) phi; tangential E
 * vanishes on the round wall (J0(k) = 0) and on the flat ends (E is normal to them). */
static const double j01 = 2.404825557695772768621631879326;

static void tm010(void *ctx, double x, double y, double z, double t, double e[3], double h[3]) {
  (void)ctx, (void)z;
  const double r = hypot(x, y), k = j01;
  e[0] = e[1] = 0;
  e[2] = j0(k * r) * cos(k * t);
  const double hp = -j1(k * r) * sin(k * t); /* H's phi component; phi = (-y, x) / r */
  h[0] = r > 0 ? -hp * y / r : 0;
  h[1] = r > 0 ? hp * x / r : 0;
  h[2] = 0;
}

typedef struct {
  double err, energy0, energy1;
  int K, n_curved;
} result;

/* The relative L2 error of the mode after time T, on mesh path at order N, curved or with
 * its high-order nodes dropped (straight-sided). */
static result run(const char *path, int N, int curved, double T) {
  result res = {0};
  dg_mesh *m = NULL;
  dg_refel *ref = NULL;
  dg_geom *g = NULL;
  dg_maxwell *p = NULL;
  dg_stepper *st = NULL;
  assert_dg_ok(dg_mesh_read(&m, path));
  if (!curved) assert_dg_ok(dg_mesh_set_ho_nodes(m, 0, NULL));
  assert_dg_ok(dg_refel_create(&ref, N));
  assert_dg_ok(dg_geom_create(&g, m, ref));
  assert_dg_ok(dg_maxwell_create(&p, g)); /* PEC on every boundary face */
  for (int i = 0; i < 4 * m->K; ++i) /* but PMC on the symmetry cuts (tag 2) */
    if (m->face_tag[i] == 2) p->bc[i] = DG_BC_PMC;
  const size_t n = DG_NFIELDS * (size_t)g->K * g->Np;
  double *q = calloc(n, sizeof *q);
  assert_non_null(q);
  dg_maxwell_interpolate(g, tm010, NULL, 0, q);
  res.energy0 = dg_maxwell_energy(p, q);
  const int steps = (int)ceil(T / dg_maxwell_dt(p, 1.0));
  const double dt = T / steps;
  assert_dg_ok(dg_stepper_ref_create(&st, p, NULL));
  assert_dg_ok(dg_stepper_put_state(st, q));
  for (int i = 0; i < steps; ++i) assert_dg_ok(dg_stepper_step(st, i * dt, dt));
  assert_dg_ok(dg_stepper_get_state(st, q));
  res.energy1 = dg_maxwell_energy(p, q);
  double err, norm;
  assert_dg_ok(dg_maxwell_l2_error(g, q, tm010, NULL, T, &err, &norm));
  res.err = err / norm;
  res.K = m->K;
  res.n_curved = m->n_curved;
  dg_stepper_destroy(&st);
  free(q);
  dg_maxwell_destroy(&p);
  dg_geom_destroy(&g);
  dg_refel_destroy(&ref);
  dg_mesh_destroy(&m);
  return res;
}

/* Errors on each level (each a uniform refinement of the one before: h halves) for N, curved
 * and (straight != 0) straight-sided; prints them and checks the rates. */
static void study(const char *const *mesh, int levels, int N, double T, int straight) {
  double err[2][3] = {{0}};
  for (int curved = 1; curved >= !straight; --curved)
    for (int i = 0; i < levels; ++i) {
      const result r = run(mesh[i], N, curved, T);
      err[curved][i] = r.err;
      const double rate = i ? log2(err[curved][i - 1] / r.err) : 0;
      printf("# N=%d %-8s K=%5d (%4d curved) error %.3e", N, curved ? "curved" : "straight",
             r.K, r.n_curved, r.err);
      if (i) printf(" rate %.2f", rate);
      printf(", energy %.9f -> %.9f\n", r.energy0, r.energy1);
      fflush(stdout);
      assert_true(r.energy1 <= r.energy0); /* upwind: never grows */
      if (curved) assert_true(r.n_curved > 0);
      if (i == levels - 1 && curved && !(rate >= N + 0.5))
        fail_msg("N=%d curved: rate %.2f below %.1f (errors %.3e -> %.3e)", N, rate, N + 0.5,
                 err[1][i - 1], r.err);
    }
  /* Straight sides stall near rate 2 however high N: from N = 2 on they fall behind. */
  const int f = levels - 1;
  if (straight && N >= 2) {
    assert_true(log2(err[0][f - 1] / err[0][f]) < 2.5);
    assert_true(err[1][f] < err[0][f] / 5);
  }
}

static void curved_elements_converge_where_straight_ones_stall(void **state) {
  (void)state;
  static const char *mesh[2] = {FIXTURE("quarter_cylinder_r0.msh"),
                                FIXTURE("quarter_cylinder_r1.msh")};
  for (int N = 1; N <= 2; ++N) study(mesh, 2, N, 0.5, 1);
}

/* A level of the quarter cylinder made by gmsh into the scratch directory: refine, order. */
static void gmsh_level(const test_scratch *s, int refine, int order, char *out, size_t n) {
  char cmd[600];
  snprintf(out, n, "%s/quarter_cylinder_o%d_r%d.msh", s->dir, order, refine);
  snprintf(cmd, sizeof cmd, "gmsh tests/fixtures/quarter_cylinder.geo -setnumber refine %d "
           "-setnumber order %d -format msh22 -save -o %s > /dev/null 2>&1", refine, order, out);
  if (system(cmd) != 0) fail_msg("%s failed", cmd);
}

/* The fourth-order meshes at N = 2 (r0 committed, r1 made by gmsh): the order-4 path, the
 * reader's re-placement included, converges like the second-order one. */
static void fourth_order_meshes_converge(void **state) {
  const test_scratch *s = *state;
  char r1[200];
  gmsh_level(s, 1, 4, r1, sizeof r1);
  const char *mesh[2] = {FIXTURE("quarter_cylinder_o4_r0.msh"), r1};
  study(mesh, 2, 2, 0.5, 0);
}

/* DGTD_TEST_ALL: N = 4 on fourth-order meshes, r0 -> r1 -> r2 (r1 and r2 made by gmsh), the
 * rate checked on the finer pair (r0 -> r1 is not yet asymptotic: 4.34); about 22 minutes on
 * one core, most of it r2 (3584 elements, 1407 steps). */
static void order_4_on_fourth_order_meshes(void **state) {
  const test_scratch *s = *state;
  char r1[200], r2[200];
  gmsh_level(s, 1, 4, r1, sizeof r1);
  gmsh_level(s, 2, 4, r2, sizeof r2);
  const char *mesh[3] = {FIXTURE("quarter_cylinder_o4_r0.msh"), r1, r2};
  study(mesh, 3, 4, 0.5, 0);
}

/* DGTD_TEST_ALL: N = 3 on the next pair (the first is not yet asymptotic at N = 3: 3.50),
 * its finer mesh made by gmsh; curved only (about 6 minutes on 2 cores). */
static void order_3_on_finer_meshes(void **state) {
  test_scratch *s = *state;
  char fine[160], cmd[512];
  snprintf(fine, sizeof fine, "%s/quarter_cylinder_r2.msh", s->dir);
  snprintf(cmd, sizeof cmd, "gmsh tests/fixtures/quarter_cylinder.geo -setnumber refine 2 "
           "-format msh22 -save -o %s > /dev/null 2>&1", fine);
  if (system(cmd) != 0) fail_msg("%s failed", cmd);
  const char *mesh[2] = {FIXTURE("quarter_cylinder_r1.msh"), fine};
  study(mesh, 2, 3, 0.5, 0); /* measured at T = 1: rate 3.91 (9.8e-7) */
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest fast[] = {
      cmocka_unit_test(curved_elements_converge_where_straight_ones_stall),
      cmocka_unit_test(fourth_order_meshes_converge),
  };
  const struct CMUnitTest all[] = {
      cmocka_unit_test(curved_elements_converge_where_straight_ones_stall),
      cmocka_unit_test(fourth_order_meshes_converge),
      cmocka_unit_test(order_3_on_finer_meshes),
      cmocka_unit_test(order_4_on_fourth_order_meshes),
  };
  if (getenv("DGTD_TEST_ALL")) return cmocka_run_group_tests(all, setup, test_scratch_teardown);
  return cmocka_run_group_tests(fast, setup, test_scratch_teardown);
}

/* Curved elements of geometric order 3 and 4 on the reference backend: their rules grow with
 * the order (dg_geom_curved_degrees) so that every curved element's quadrature still closes
 * it (int n dS = 0, int x.n dS = 3 V), at N below and at or above the geometric order; the
 * cylinder's volume and area come out closer than at order 2 on the same vertices; the
 * right-hand side is the exact curl of a field linear in x (a polynomial of degree k in
 * r, s, t on an order-k map) at N = k; the discrete energy identity holds (central flux
 * conserves, upwind dissipates), which needs the raised rules; and a map of order 4 that is
 * the quadratic one (its nodes put on the order-2 map) gives the order-2 geometry and
 * right-hand side (central flux) to rounding. */
#include "test_util.h"
#include "test_curved_util.h"

#include "core/alloc.h"
#include "dg/geom.h"
#include "dg/maxwell.h"

static const char *const cylinder[5] = {NULL, NULL, FIXTURE("cylinder_o2_h0.8.msh"),
                                        FIXTURE("cylinder_o3_h0.8.msh"),
                                        FIXTURE("cylinder_o4_h0.8_41.msh")};

typedef struct {
  dg_mesh *m;
  dg_refel *ref;
  dg_geom *g;
  dg_maxwell *p;
} setup;

static void make_mesh(setup *s, dg_mesh *m, int N) {
  s->m = m;
  assert_dg_ok(dg_refel_create(&s->ref, N));
  assert_dg_ok(dg_geom_create(&s->g, s->m, s->ref));
  assert_dg_ok(dg_maxwell_create(&s->p, s->g));
}

static void make(setup *s, const char *path, int N) {
  memset(s, 0, sizeof *s);
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read(&m, path));
  make_mesh(s, m, N);
}

static void unmake(setup *s) {
  dg_maxwell_destroy(&s->p);
  dg_geom_destroy(&s->g);
  dg_refel_destroy(&s->ref);
  dg_mesh_destroy(&s->m);
}


/* Volume and boundary area of the mesh, and the largest closure defect of a curved element. */
static void measure(const dg_geom *g, double *vol, double *area, double *defect) {
  const dg_geom_curved *cv = &g->cv;
  *vol = *area = *defect = 0;
  for (int k = 0; k < g->K; ++k) {
    *vol += curved_test_volume(g, k);
    const int c = dg_geom_curved_row(g, k);
    if (c < 0) {
      for (int f = 0; f < 4; ++f)
        if (g->mesh->EToE[4 * k + f] == k) *area += 2 * g->sJ[4 * k + f];
      continue;
    }
    double n[3] = {0, 0, 0}, xn = 0;
    for (int f = 0; f < 4; ++f)
      for (int p = 0; p < cv->nfq; ++p) {
        const double *F = cv->Fq + (((size_t)c * 4 + f) * cv->nfq + p) * 4;
        double x[3] = {0, 0, 0};
        for (int j = 0; j < g->Nfp; ++j) {
          const double l = cv->Lf[((size_t)f * cv->nfq + p) * g->Nfp + j];
          const int id = k * g->Np + g->ref->Fmask[f * g->Nfp + j];
          x[0] += l * g->x[id], x[1] += l * g->y[id], x[2] += l * g->z[id];
        }
        for (int d = 0; d < 3; ++d) n[d] += F[3] * F[d];
        xn += F[3] * (x[0] * F[0] + x[1] * F[1] + x[2] * F[2]);
        if (g->mesh->EToE[4 * k + f] == k) *area += F[3];
      }
    const double V = curved_test_volume(g, k), L = cbrt(V);
    for (int d = 0; d < 3; ++d) *defect = fmax(*defect, fabs(n[d]) / (L * L));
    /* x.n integrates exactly only when the nodes carry the map: N >= k */
    if (g->N >= g->cv.order) *defect = fmax(*defect, fabs(xn / (3 * V) - 1));
  }
}

static void rules_close_elements_and_measure_closer(void **state) {
  (void)state;
  const double vol_exact = M_PI * 0.5, area_exact = 2 * M_PI * 0.5 + 2 * M_PI;
  for (int N = 1; N <= 4; N += 2) {
    double vol_err[5], area_err[5];
    for (int k = 2; k <= 4; ++k) {
      setup s;
      make(&s, cylinder[k], N);
      assert_int_equal(s.g->cv.order, k);
      int dv, df, dm, n;
      dg_geom_curved_degrees(N, k, &dv, &df, &dm);
      assert_int_equal(dv, 2 * N + 2 * k - 3);
      double *r = NULL, *t = NULL, *u = NULL, *w = NULL;
      assert_dg_ok(dg_cubature_tet(dv, &n, &r, &t, &u, &w));
      assert_int_equal(s.g->cv.nq, n);
      DG_FREE_ALL(&r, &t, &u, &w);
      double vol, area, defect;
      measure(s.g, &vol, &area, &defect);
      vol_err[k] = fabs(vol - vol_exact) / vol_exact;
      area_err[k] = fabs(area - area_exact) / area_exact;
      printf("# N=%d order %d: %d curved, rules %d/%d points, volume error %.2e, area error "
             "%.2e, closure %.1e\n",
             N, k, s.g->n_curved, s.g->cv.nq, s.g->cv.nfq, vol_err[k], area_err[k], defect);
      assert_true(defect < 1e-12);
      unmake(&s);
    }
    assert_true(vol_err[3] < vol_err[2] && vol_err[4] < vol_err[2]);
    assert_true(area_err[3] < area_err[2] && area_err[4] < area_err[2]);
  }
}

/* A field linear in x, its curl constant: on an order-k map it is a polynomial of degree k in
 * r, s, t, which the nodes of order N = k hold. */
static void field(void *ctx, double x, double y, double z, double t, double e[3], double h[3]) {
  (void)ctx, (void)t;
  e[0] = 2 * y - z, e[1] = x + 3 * z, e[2] = 0.5 * x - y + 1;
  h[0] = z - 0.5 * y, h[1] = 4 * x + 0.25, h[2] = y - 2 * x;
}

static void rhs_is_the_exact_curl(void **state) {
  (void)state;
  const double cE[3] = {-1 - 3, -1 - 0.5, 1 - 2}, cH[3] = {1 - 0, 1 + 2, 4 + 0.5};
  for (int k = 3; k <= 4; ++k) {
    setup s;
    make(&s, cylinder[k], k);
    s.p->incident = field; /* absorbing walls whose exterior state is the field: no jump */
    for (int i = 0; i < 4 * s.m->K; ++i)
      if (s.p->bc[i] != DG_BC_NONE) s.p->bc[i] = DG_BC_ABC;
    const size_t KNp = (size_t)s.m->K * s.g->Np, n = 6 * KNp;
    double *q = calloc(n, sizeof *q), *rhs = calloc(n, sizeof *rhs);
    assert_true(q && rhs);
    dg_maxwell_interpolate(s.g, field, NULL, 0.0, q);
    for (int alpha = 0; alpha <= 1; ++alpha) {
      s.p->alpha = alpha;
      dg_maxwell_rhs(s.p, 0.0, q, NULL, rhs);
      double worst = 0;
      for (size_t id = 0; id < KNp; ++id)
        for (int c = 0; c < 3; ++c) {
          worst = fmax(worst, fabs(rhs[c * KNp + id] - cH[c]));
          worst = fmax(worst, fabs(rhs[(3 + c) * KNp + id] + cE[c]));
        }
      printf("# order %d, N=%d, alpha %d: largest |rhs - curl| %.2e\n", k, k, alpha, worst);
      assert_true(worst < 1e-10);
    }
    free(q);
    free(rhs);
    unmake(&s);
  }
}

/* d/dt of the discrete energy along the right-hand side (central differences, exact for the
 * quadratic energy): 0 with the central flux on PEC walls, < 0 with upwinding; at N below
 * and at the geometric order. */
static void energy_identity_holds(void **state) {
  (void)state;
  const int cases[3][2] = {{4, 2}, {3, 3}, {4, 4}}; /* order, N */
  for (int i = 0; i < 3; ++i) {
    setup s;
    make(&s, cylinder[cases[i][0]], cases[i][1]);
    char label[48];
    snprintf(label, sizeof label, "order %d, N=%d, ", cases[i][0], cases[i][1]);
    assert_energy_identity(s.p, s.m->K, s.g->Np, label);
    unmake(&s);
  }
}

/* The order-2 cylinder's map written as one of order 4 (its nodes at the quadratic map's
 * lattice points of order 4): the same geometry, so the same node coordinates, volume and
 * right-hand side with the central flux, to rounding (the upwind term's n n^T is no
 * polynomial: rules of other degrees take it differently). */
static void quadratic_map_as_order_4_agrees(void **state) {
  (void)state;
  const int N = 3;
  setup a, b;
  make(&a, cylinder[2], N);
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read(&m, cylinder[2]));
  int idx[DG_MESH_LATTICE_MAX][4];
  const int n = dg_mesh_gmsh_tet_lattice(4, idx), nho = n - 4;
  double *xyz = NULL;
  assert_dg_ok(DG_ALLOC(xyz, 3 * (size_t)nho * m->K));
  for (int k = 0; k < m->K; ++k)
    for (int i = 4; i < n; ++i) {
      const double rst[3] = {-1 + idx[i][1] / 2.0, -1 + idx[i][2] / 2.0, -1 + idx[i][3] / 2.0};
      dg_mesh_elem_map(m, k, rst, xyz + 3 * ((size_t)nho * k + i - 4), NULL);
    }
  assert_dg_ok(dg_mesh_set_ho_nodes(m, 4, xyz));
  assert_int_equal(m->geom_order, 4);
  assert_int_equal(m->n_curved, a.m->n_curved);
  memset(&b, 0, sizeof b);
  make_mesh(&b, m, N);
  assert_int_equal(b.g->cv.order, 4);
  const size_t KNp = (size_t)m->K * a.g->Np, len = 6 * KNp;
  double dx = 0;
  for (size_t i = 0; i < KNp; ++i)
    dx = fmax(dx, fabs(a.g->x[i] - b.g->x[i]) + fabs(a.g->y[i] - b.g->y[i]) +
                      fabs(a.g->z[i] - b.g->z[i]));
  double *q = calloc(len, sizeof *q), *ra = calloc(len, sizeof *ra), *rb = calloc(len, sizeof *rb);
  assert_true(q && ra && rb);
  srand(3);
  for (size_t i = 0; i < len; ++i) q[i] = rand() / (double)RAND_MAX - 0.5;
  a.p->alpha = b.p->alpha = 0; /* central: every term a polynomial both rules integrate */
  dg_maxwell_rhs(a.p, 0.0, q, NULL, ra);
  dg_maxwell_rhs(b.p, 0.0, q, NULL, rb);
  double num = 0, den = 0, dv = 0;
  for (size_t i = 0; i < len; ++i) num += (ra[i] - rb[i]) * (ra[i] - rb[i]), den += ra[i] * ra[i];
  for (int k = 0; k < m->K; ++k)
    dv = fmax(dv, fabs(curved_test_volume(a.g, k) - curved_test_volume(b.g, k)) / curved_test_volume(a.g, k));
  printf("# the quadratic map as order 4: nodes %.1e apart, volumes %.1e, rhs %.1e relative\n", dx,
         dv, sqrt(num / den));
  assert_true(dx < 1e-13);
  assert_true(dv < 1e-12);
  assert_true(sqrt(num / den) < 1e-11);
  free(q), free(ra), free(rb);
  unmake(&a);
  unmake(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rules_close_elements_and_measure_closer),
      cmocka_unit_test(rhs_is_the_exact_curl),
      cmocka_unit_test(energy_identity_holds),
      cmocka_unit_test(quadratic_map_as_order_4_agrees),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Reference RHS: for a global polynomial field of degree <= N, with absorbing walls whose
 * exterior state is the field itself, every jump vanishes and the DG right-hand side is
 * exactly (curl H - sigma E)/eps and -curl E/mu at the nodes, in every material. */
#include "test_util.h"

#include "dg/maxwell.h"

/* A cubic-ish polynomial field; degree min(N, 3) per component via the ctx. */
typedef struct {
  int deg;
} poly_ctx;

static double pw(double x, int d) { return d == 0 ? 1 : d == 1 ? x : d == 2 ? x * x : x * x * x; }
static double dpw(double x, int d) { return d == 0 ? 0 : d == 1 ? 1 : d == 2 ? 2 * x : 3 * x * x; }

/* E = (y^d z, z^d x, x^d y) + const, H = (x z^d, y x^d, z y^d) scaled; d = deg (<= 3). */
static void poly_field(void *ctx, double x, double y, double z, double t, double e[3], double h[3]) {
  const int d = ((poly_ctx *)ctx)->deg;
  (void)t;
  const int d1 = d - 1 < 0 ? 0 : d - 1;
  e[0] = pw(y, d1) * z + 0.3;
  e[1] = pw(z, d1) * x - 0.2;
  e[2] = pw(x, d1) * y + 0.1;
  h[0] = x * pw(z, d1) - 0.4;
  h[1] = y * pw(x, d1) + 0.5;
  h[2] = z * pw(y, d1);
}

/* Exact curls of poly_field. */
static void poly_curls(int d, double x, double y, double z, double cE[3], double cH[3]) {
  const int d1 = d - 1 < 0 ? 0 : d - 1;
  /* E = (y^a z, z^a x, x^a y), a = d1 */
  const double dEz_dy = pw(x, d1), dEy_dz = dpw(z, d1) * x;
  const double dEx_dz = pw(y, d1), dEz_dx = dpw(x, d1) * y;
  const double dEy_dx = pw(z, d1), dEx_dy = dpw(y, d1) * z;
  cE[0] = dEz_dy - dEy_dz;
  cE[1] = dEx_dz - dEz_dx;
  cE[2] = dEy_dx - dEx_dy;
  /* H = (x z^a, y x^a, z y^a) */
  const double dHz_dy = z * dpw(y, d1), dHy_dz = 0;
  const double dHx_dz = x * dpw(z, d1), dHz_dx = 0;
  const double dHy_dx = y * dpw(x, d1), dHx_dy = 0;
  cH[0] = dHz_dy - dHy_dz;
  cH[1] = dHx_dz - dHz_dx;
  cH[2] = dHy_dx - dHx_dy;
}

static void rhs_is_exact_curl(void **state) {
  (void)state;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1.5, 0.8};
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, 2, 3, 2));
  for (int N = 1; N <= 5; ++N) {
    dg_refel *ref = NULL;
    dg_geom *g = NULL;
    dg_maxwell *p = NULL;
    assert_dg_ok(dg_refel_create(&ref, N));
    assert_dg_ok(dg_geom_create(&g, m, ref));
    assert_dg_ok(dg_maxwell_create(&p, g));
    poly_ctx pc = {N < 3 ? N : 3};
    p->incident = poly_field;
    p->incident_ctx = &pc;
    for (int k = 0; k < m->K; ++k) {
      p->eps[k] = 1 + (k % 3);
      p->mu[k] = 1 + 0.5 * (k % 2);
      p->sigma[k] = 0.1 * (k % 4);
      for (int f = 0; f < 4; ++f)
        if (p->bc[4 * k + f] != DG_BC_NONE) p->bc[4 * k + f] = DG_BC_ABC;
    }
    for (int alpha = 0; alpha <= 1; ++alpha) {
      p->alpha = alpha;
      const size_t KNp = (size_t)m->K * ref->Np, n = 6 * KNp;
      double *q = calloc(n, sizeof *q), *rhs = calloc(n, sizeof *rhs);
      dg_maxwell_interpolate(g, poly_field, &pc, 0.0, q);
      dg_maxwell_rhs(p, 0.0, q, NULL, rhs);
      double maxerr = 0;
      for (size_t id = 0; id < KNp; ++id) {
        const int k = (int)(id / ref->Np);
        double cE[3], cH[3];
        poly_curls(pc.deg, g->x[id], g->y[id], g->z[id], cE, cH);
        for (int c = 0; c < 3; ++c) {
          const double wantE = (cH[c] - p->sigma[k] * q[c * KNp + id]) / p->eps[k];
          const double wantH = -cE[c] / p->mu[k];
          maxerr = fmax(maxerr, fabs(rhs[c * KNp + id] - wantE));
          maxerr = fmax(maxerr, fabs(rhs[(3 + c) * KNp + id] - wantH));
        }
      }
      if (!(maxerr < 1e-10)) fail_msg("N=%d alpha=%d: max |rhs - exact| = %g", N, alpha, maxerr);
      free(q);
      free(rhs);
    }
    dg_maxwell_destroy(&p);
    dg_geom_destroy(&g);
    dg_refel_destroy(&ref);
  }
  dg_mesh_destroy(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(rhs_is_exact_curl)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* A point dipole's DG profile J_h = (1/J_k) V psi(rst) is the projection of the delta: for
 * every nodal basis function l_i, int l_i J_h dx = l_i(pos) (by cubature), and it equals
 * (1/J_k) M^-1 phi(pos); dg_mesh_locate finds the element and reference coordinates. */
#include "test_util.h"

#include "core/alloc.h"
#include "dg/geom.h"
#include "dg/source.h"
#include "mesh/mesh.h"

/* l_i(r) for all i at one reference point: phi = V^-T psi(r). */
static void nodal_basis_at(const dg_refel *ref, double r, double s, double t, double *phi) {
  const int Np = ref->Np;
  for (int i = 0; i < Np; ++i) phi[i] = 0;
  for (int j = 0; j < Np; ++j) {
    double psi = 0;
    dg_basis_tet(ref->N, j, &r, &s, &t, 1, &psi);
    for (int i = 0; i < Np; ++i) phi[i] += ref->Vinv[j * Np + i] * psi;
  }
}

static void check_order(int N) {
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 2, 1.5};
  dg_mesh *m = NULL;
  dg_refel *ref = NULL;
  dg_geom *g = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, 2, 1, 2));
  assert_dg_ok(dg_refel_create(&ref, N));
  assert_dg_ok(dg_geom_create(&g, m, ref));
  const int Np = ref->Np;
  int nq = 0;
  double *qr = NULL, *qs = NULL, *qt = NULL, *qw = NULL;
  assert_dg_ok(dg_cubature_tet(2 * N, &nq, &qr, &qs, &qt, &qw));
  double *prof = NULL, *phi = NULL, *lq = NULL, *Minv = NULL;
  assert_dg_ok(DG_ALLOC(prof, Np));
  assert_dg_ok(DG_ALLOC(phi, Np));
  assert_dg_ok(DG_ALLOC(lq, (size_t)nq * Np));
  assert_dg_ok(DG_ALLOC(Minv, (size_t)Np * Np));
  memcpy(Minv, ref->M, sizeof(double) * Np * Np);
  assert_dg_ok(dg_mat_inverse(Np, Minv));
  for (int q = 0; q < nq; ++q) nodal_basis_at(ref, qr[q], qs[q], qt[q], lq + (size_t)q * Np);

  const double pts[4][3] = {
      {0.3, 0.7, 0.2}, {0.77, 1.9, 1.1}, {0.5, 1.0, 0.75}, {0.01, 0.02, 1.49}};
  double worst = 0;
  for (int p = 0; p < 4; ++p) {
    double rst[3];
    const int k = dg_mesh_locate(g->mesh, pts[p], rst);
    assert_true(k >= 0);
    dg_dipole_profile(g, k, rst, prof);
    nodal_basis_at(ref, rst[0], rst[1], rst[2], phi);
    /* The located coordinates reproduce the point: sum_i l_i(pos) x_i = pos. */
    double x[3] = {0, 0, 0}, one = 0;
    for (int i = 0; i < Np; ++i) {
      const size_t id = (size_t)k * Np + i;
      x[0] += phi[i] * g->x[id], x[1] += phi[i] * g->y[id], x[2] += phi[i] * g->z[id];
      one += phi[i];
    }
    assert_near(one, 1, 1e-12);
    for (int c = 0; c < 3; ++c) assert_near(x[c], pts[p][c], 1e-12);
    /* int l_i J_h dx = J_k sum_q w_q l_i(r_q) J_h(r_q) = l_i(pos). */
    for (int i = 0; i < Np; ++i) {
      double integral = 0;
      for (int q = 0; q < nq; ++q) {
        double Jh = 0;
        for (int j = 0; j < Np; ++j) Jh += lq[(size_t)q * Np + j] * prof[j];
        integral += qw[q] * g->J[k] * lq[(size_t)q * Np + i] * Jh;
      }
      worst = fmax(worst, fabs(integral - phi[i]));
      assert_near(integral, phi[i], 1e-11);
    }
    /* The same as (1/J_k) M^-1 phi(pos). */
    for (int i = 0; i < Np; ++i) {
      double v = 0;
      for (int j = 0; j < Np; ++j) v += Minv[i * Np + j] * phi[j];
      assert_near(prof[i], v / g->J[k], 1e-9 * fmax(1, fabs(prof[i])));
    }
  }
  printf("# N=%d: max |int l_i J_h - l_i(pos)| = %.2e\n", N, worst);
  free(qr), free(qs), free(qt), free(qw);
  dg_free(&prof), dg_free(&phi), dg_free(&lq), dg_free(&Minv);
  dg_geom_destroy(&g);
  dg_refel_destroy(&ref);
  dg_mesh_destroy(&m);
}

static void test_projection_integrates_nodal_basis(void **state) {
  (void)state;
  for (int N = 1; N <= 5; ++N) check_order(N);
}

static void test_locate_rejects_outside_points(void **state) {
  (void)state;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  dg_mesh *m = NULL;
  dg_refel *ref = NULL;
  dg_geom *g = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, 1, 1, 1));
  assert_dg_ok(dg_refel_create(&ref, 1));
  assert_dg_ok(dg_geom_create(&g, m, ref));
  double rst[3];
  const double out[3] = {1.5, 0.5, 0.5}, corner[3] = {1, 1, 1};
  assert_int_equal(dg_mesh_locate(m, out, rst), -1);
  assert_true(dg_mesh_locate(m, corner, rst) >= 0); /* on the boundary is inside */
  dg_geom_destroy(&g);
  dg_refel_destroy(&ref);
  dg_mesh_destroy(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_projection_integrates_nodal_basis),
      cmocka_unit_test(test_locate_rejects_outside_points),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

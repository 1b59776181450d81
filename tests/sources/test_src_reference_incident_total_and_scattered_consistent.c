/* Reference incident plane wave: in vacuum, the total-field formulation (absorbing walls see
 * the wave) with q = the interpolated wave gives dq/dt ~ the wave's time derivative, and the
 * scattered-field formulation (PEC walls see -2 E_inc) with q = minus the interpolated wave
 * (zero total field, a solution) gives dq/dt ~ minus it; without the incident terms both are
 * far off. */
#include "test_util.h"

#include "core/alloc.h"
#include "dg/maxwell.h"
#include "mesh/mesh.h"

typedef struct {
  dg_mesh *m;
  dg_refel *r;
  dg_geom *g;
  dg_maxwell *p;
} box;

static void box_create(box *b, int N, int n, dg_bc wall) {
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  assert_dg_ok(dg_mesh_box(&b->m, lo, hi, n, n, n));
  assert_dg_ok(dg_refel_create(&b->r, N));
  assert_dg_ok(dg_geom_create(&b->g, b->m, b->r));
  assert_dg_ok(dg_maxwell_create(&b->p, b->g));
  for (int f = 0; f < 4 * b->g->K; ++f)
    if (b->p->bc[f] != DG_BC_NONE) b->p->bc[f] = (unsigned char)wall;
}

static void box_destroy(box *b) {
  dg_maxwell_destroy(&b->p);
  dg_geom_destroy(&b->g);
  dg_refel_destroy(&b->r);
  dg_mesh_destroy(&b->m);
}

/* Relative L2 (nodal) distance between rhs and sign * d/dt of the wave at the nodes. */
static double distance(const box *b, dg_plane_wave *pw, double t, double sign, const double *rhs,
                       double *tmp) {
  const size_t n = 6 * (size_t)b->g->K * b->g->Np;
  const double h = 1e-5;
  double *qp = tmp, *qm = tmp + n;
  dg_maxwell_interpolate(b->g, dg_plane_wave_eval, pw, t + h, qp);
  dg_maxwell_interpolate(b->g, dg_plane_wave_eval, pw, t - h, qm);
  double num = 0, den = 0;
  for (size_t i = 0; i < n; ++i) {
    const double d = sign * (qp[i] - qm[i]) / (2 * h);
    num += (rhs[i] - d) * (rhs[i] - d);
    den += d * d;
  }
  return sqrt(num / den);
}

static void check(int scattered) {
  box b;
  box_create(&b, 4, 2, scattered ? DG_BC_PEC : DG_BC_ABC);
  dg_plane_wave pw = {
      {1, 0.5, 0.2}, {0, -0.4, 1}, {0.2, 0.1, 0}, {DG_PULSE_GAUSSIAN, 0.4, 0.9, 1, 0, 0}, scattered};
  assert_dg_ok(dg_plane_wave_init(&pw));
  const size_t n = 6 * (size_t)b.g->K * b.g->Np;
  double *q = NULL, *rhs = NULL, *tmp = NULL;
  assert_dg_ok(DG_ALLOC(q, n));
  assert_dg_ok(DG_ALLOC(rhs, n));
  assert_dg_ok(DG_ALLOC(tmp, 2 * n));
  const double t = 0.8, sign = scattered ? -1 : 1;
  dg_maxwell_interpolate(b.g, dg_plane_wave_eval, &pw, t, q);
  for (size_t i = 0; i < n; ++i) q[i] *= sign;

  dg_maxwell_set_plane_wave(b.p, &pw);
  assert_ptr_equal(b.p->incident_ctx, &pw);
  assert_int_equal(b.p->scattered, scattered);
  dg_maxwell_rhs(b.p, t, q, NULL, rhs);
  const double with = distance(&b, &pw, t, sign, rhs, tmp);
  b.p->incident = NULL;
  dg_maxwell_rhs(b.p, t, q, NULL, rhs);
  const double without = distance(&b, &pw, t, sign, rhs, tmp);
  printf("# %s field: relative distance to d/dt %.2e with the incident terms, %.2e without\n",
         scattered ? "scattered" : "total", with, without);
  assert_true(with < 0.02);
  assert_true(without > 0.3);
  /* The other formulation's walls ignore the wave: total-field PEC, scattered-field ABC. */
  for (int f = 0; f < 4 * b.g->K; ++f)
    if (b.p->bc[f] != DG_BC_NONE) b.p->bc[f] = scattered ? DG_BC_ABC : DG_BC_PEC;
  double *rhs2 = tmp;
  dg_maxwell_rhs(b.p, t, q, NULL, rhs);
  dg_maxwell_set_plane_wave(b.p, &pw);
  dg_maxwell_rhs(b.p, t, q, NULL, rhs2);
  for (size_t i = 0; i < n; ++i) assert_true(rhs[i] == rhs2[i]);
  dg_free(&q), dg_free(&rhs), dg_free(&tmp);
  box_destroy(&b);
}

static void test_total_field_absorbing_walls_see_the_wave(void **state) {
  (void)state;
  check(0);
}

static void test_scattered_field_pec_walls_mirror_the_wave(void **state) {
  (void)state;
  check(1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_total_field_absorbing_walls_see_the_wave),
      cmocka_unit_test(test_scattered_field_pec_walls_mirror_the_wave),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Physics validation with sources (reference backend):
 * - a plane wave entering an empty box through its absorbing walls (total field) is the
 *   incident wave everywhere inside, with an error that falls under h-refinement;
 * - at normal incidence on a dielectric half-space (eps_r = 4), the reflected and
 *   transmitted pulse amplitudes at probes match the Fresnel coefficients
 *   r = (1 - n)/(1 + n) = -1/3 and t = 2/(1 + n) = 2/3, to a tolerance that tightens with N. */
#include "test_util.h"

#include "dg/lserk.h"
#include "dg/maxwell.h"
#include "dg/source.h"
#include "io/probe.h"

typedef struct {
  dg_mesh *m;
  dg_refel *ref;
  dg_geom *g;
  dg_maxwell *p;
  size_t n;
  double *q, *res, *rhs;
} sim;

static void sim_create(sim *s, const double lo[3], const double hi[3], const int cells[3], int N) {
  memset(s, 0, sizeof *s);
  assert_dg_ok(dg_mesh_box(&s->m, lo, hi, cells[0], cells[1], cells[2]));
  assert_dg_ok(dg_refel_create(&s->ref, N));
  assert_dg_ok(dg_geom_create(&s->g, s->m, s->ref));
  assert_dg_ok(dg_maxwell_create(&s->p, s->g));
  s->n = 6 * (size_t)s->m->K * s->ref->Np;
  s->q = calloc(s->n, sizeof *s->q);
  s->res = calloc(s->n, sizeof *s->res);
  s->rhs = calloc(s->n, sizeof *s->rhs);
}

static void sim_destroy(sim *s) {
  free(s->q), free(s->res), free(s->rhs);
  dg_maxwell_destroy(&s->p);
  dg_geom_destroy(&s->g);
  dg_refel_destroy(&s->ref);
  dg_mesh_destroy(&s->m);
}

static dg_status rhs_fn(void *ctx, double t, const double *q, double *rhs) {
  dg_maxwell_rhs(((sim *)ctx)->p, t, q, NULL, rhs);
  return DG_OK;
}

/* Boundary conditions by box side (tags 1..6 = xmin, xmax, ymin, ymax, zmin, zmax). */
static void set_sides(sim *s, const dg_bc side[6]) {
  for (int k = 0; k < s->m->K; ++k)
    for (int f = 0; f < 4; ++f) {
      const int t = s->m->face_tag[4 * k + f];
      if (t >= 1 && t <= 6) s->p->bc[4 * k + f] = (unsigned char)side[t - 1];
    }
}

static double plane_wave_error(int N, int cells, double T) {
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  const int c3[3] = {cells, cells, cells};
  sim s;
  sim_create(&s, lo, hi, c3, N);
  const dg_bc abc[6] = {DG_BC_ABC, DG_BC_ABC, DG_BC_ABC, DG_BC_ABC, DG_BC_ABC, DG_BC_ABC};
  set_sides(&s, abc);
  /* An oblique wave, so every face sees it enter or leave. */
  dg_plane_wave pw = {{1, 0.5, 0.25}, {0, -0.5, 1}, {0, 0, 0}, {DG_PULSE_GAUSSIAN, 1.0, 0.6, 1.0, 0, 0}, 0};
  assert_dg_ok(dg_plane_wave_init(&pw));
  dg_maxwell_set_plane_wave(s.p, &pw);
  dg_maxwell_interpolate(s.g, dg_plane_wave_eval, &pw, 0.0, s.q);
  const double dt0 = dg_maxwell_dt(s.p, 1.0);
  const int steps = (int)ceil(T / dt0);
  const double dt = T / steps;
  for (int i = 0; i < steps; ++i) assert_dg_ok(dg_lserk_step(s.n, s.q, s.res, s.rhs, i * dt, dt, rhs_fn, &s));
  double err, norm;
  assert_dg_ok(dg_maxwell_l2_error(s.g, s.q, dg_plane_wave_eval, &pw, T, &err, &norm));
  assert_true(norm > 0.05); /* the pulse is inside the box at T */
  sim_destroy(&s);
  return err / norm;
}

static void plane_wave_crosses_empty_box(void **state) {
  (void)state;
  for (int N = 2; N <= 3; ++N) {
    const double e1 = plane_wave_error(N, 2, 1.0), e2 = plane_wave_error(N, 4, 1.0);
    const double rate = log2(e1 / e2);
    printf("# plane wave N=%d: relative L2 error %.3e (h=1/2) -> %.3e (h=1/4), rate %.2f\n", N, e1, e2, rate);
    if (!(rate >= N)) fail_msg("N=%d: rate %.2f below %d", N, rate, N);
  }
}

/* Fresnel: x in [0,3], a dielectric (eps_r = 4) for x > 1.5; walls y = const are PMC and
 * z = const PEC (the image walls of an x-travelling wave with E along z), x = 0 lets the
 * incident Gaussian pulse in, x = 3 absorbs (matched to the dielectric). */
static void fresnel_amplitudes(int N, double *r_meas, double *t_meas) {
  const double lo[3] = {0, 0, 0}, hi[3] = {3, 0.25, 0.25};
  const int cells[3] = {24, 1, 1};
  sim s;
  sim_create(&s, lo, hi, cells, N);
  const dg_bc sides[6] = {DG_BC_ABC, DG_BC_ABC, DG_BC_PMC, DG_BC_PMC, DG_BC_PEC, DG_BC_PEC};
  set_sides(&s, sides);
  for (int k = 0; k < s.m->K; ++k) {
    double cx = 0;
    for (int v = 0; v < 4; ++v) cx += 0.25 * s.m->VX[s.m->EToV[4 * k + v]];
    if (cx > 1.5) s.p->eps[k] = 4.0;
  }
  dg_plane_wave pw = {{1, 0, 0}, {0, 0, 1}, {0, 0, 0}, {DG_PULSE_GAUSSIAN, 2.0, 0.6, 1.0, 0, 0}, 0};
  assert_dg_ok(dg_plane_wave_init(&pw));
  dg_maxwell_set_plane_wave(s.p, &pw);
  const double xyz[6] = {0.75, 0.125, 0.125, 2.25, 0.125, 0.125};
  dg_probes *pr = NULL;
  assert_dg_ok(dg_probes_create(&pr, s.g, 2, xyz));
  const double T = 4.2, dt0 = dg_maxwell_dt(s.p, 1.0);
  const int steps = (int)ceil(T / dt0);
  const double dt = T / steps;
  /* Probe A sees the incident peak at t = 1.35 and the reflected one at 2.85; probe B the
   * transmitted one at 3.6 (speed 1/2 in the dielectric). */
  double inc = 0, refl = 0, trans = 0;
  for (int i = 0; i < steps; ++i) {
    assert_dg_ok(dg_lserk_step(s.n, s.q, s.res, s.rhs, i * dt, dt, rhs_fn, &s));
    const double t = (i + 1) * dt;
    double v[12];
    dg_probes_eval(pr, s.q, v);
    const double ezA = v[2], ezB = v[6 + 2];
    if (t < 2.1 && fabs(ezA) > fabs(inc)) inc = ezA;
    if (t > 2.1 && fabs(ezA) > fabs(refl)) refl = ezA;
    if (fabs(ezB) > fabs(trans)) trans = ezB;
  }
  *r_meas = refl / inc;
  *t_meas = trans / inc;
  dg_probes_destroy(&pr);
  sim_destroy(&s);
}

static void fresnel_coefficients_at_normal_incidence(void **state) {
  (void)state;
  const double r = -1.0 / 3.0, t = 2.0 / 3.0;
  double prev = INFINITY;
  for (int N = 2; N <= 4; ++N) {
    double rm, tm;
    fresnel_amplitudes(N, &rm, &tm);
    const double e = fmax(fabs(rm - r), fabs(tm - t));
    printf("# Fresnel N=%d: r = %.5f (exact %.5f), t = %.5f (exact %.5f), max error %.2e\n", N, rm, r,
           tm, t, e);
    /* Tolerance 0.1 * 4^-(N-2): 0.1, 0.025, 0.00625. */
    const double tol = 0.1 * pow(0.25, N - 2);
    if (!(e <= tol)) fail_msg("N=%d: Fresnel error %.3e above %.3e", N, e, tol);
    if (!(e < prev)) fail_msg("N=%d: error %.3e did not fall from %.3e", N, e, prev);
    prev = e;
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(plane_wave_crosses_empty_box),
      cmocka_unit_test(fresnel_coefficients_at_normal_incidence),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

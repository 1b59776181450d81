/* Dispersive media (Debye, Drude, Lorentz poles; dg/dispersive.h) keep the energy of
 * fields and poles from growing:
 * - semi-discretely: with the central flux, on random fields and pole states in a PEC/PMC
 *   box filled with one medium, d/dt of the energy (fields plus the poles' stored energy,
 *   dg_maxwell_energy_aux) equals minus the losses this test computes itself from the
 *   states (sigma E^2, Debye tau J^2/delta_eps, Drude gamma J^2/omega_p^2, Lorentz
 *   2 delta J^2/(delta_eps omega_0^2)) to 1e-12 of its scale, for each pole type alone, lossy
 *   and lossless, and all three together;
 * - over 10 000 LSERK4 steps of the reference stepper at the automatic step, for each pole
 *   type alone with parameters fast enough that the poles set the step (so the step rule's
 *   pole bound is what keeps it stable; Drude and Lorentz lossless), central flux and random
 *   initial fields and pole states: the energy never grows from one step to the next (by
 *   more than 1e-12 relative) and ends below where it started;
 * - the pole bound is needed: at 5 times that step (still under the mesh's own step) the
 *   Debye case's energy grows past 10 times its start within the 10 000 steps. */
#include "test_util.h"

#include "core/alloc.h"
#include "dg/dispersive.h"
#include "dg/maxwell.h"
#include "dg/stepper.h"
#include "mesh/mesh.h"
#include "refel/refel.h"

typedef struct {
  dg_mesh *m;
  dg_refel *ref;
  dg_geom *g;
  dg_maxwell *p;
  size_t n, naux;
} box;

/* A box of cells^3 * 6 elements, PEC walls but PMC on y = 0, filled with eps_inf, sigma
 * and the poles d. */
static void box_create(box *b, int N, int cells, double eps_inf, double sigma,
                       const dg_dispersion *d) {
  memset(b, 0, sizeof *b);
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  assert_dg_ok(dg_mesh_box(&b->m, lo, hi, cells, cells, cells));
  assert_dg_ok(dg_refel_create(&b->ref, N));
  assert_dg_ok(dg_geom_create(&b->g, b->m, b->ref));
  assert_dg_ok(dg_maxwell_create(&b->p, b->g));
  int *model = NULL;
  assert_dg_ok(DG_ALLOC(model, b->m->K));
  for (int k = 0; k < b->m->K; ++k) {
    b->p->eps[k] = eps_inf;
    b->p->sigma[k] = sigma;
    for (int f = 0; f < 4; ++f)
      if (b->m->face_tag[4 * k + f] == 3) b->p->bc[4 * k + f] = DG_BC_PMC;
  }
  assert_dg_ok(dg_maxwell_set_dispersion(b->p, model, d, 1));
  assert_int_equal(b->p->disp_K, b->m->K);
  b->n = 6 * (size_t)b->m->K * b->ref->Np;
  b->naux = dg_maxwell_aux_size(b->p);
  assert_true(b->naux == dg_maxwell_pole_size(b->p) && b->naux > 0);
  dg_free(&model);
}

static void box_destroy(box *b) {
  dg_maxwell_destroy(&b->p);
  dg_geom_destroy(&b->g);
  dg_refel_destroy(&b->ref);
  dg_mesh_destroy(&b->m);
}

static void fill_random(double *x, size_t n, unsigned seed) {
  srand(seed);
  for (size_t i = 0; i < n; ++i) x[i] = 2.0 * rand() / RAND_MAX - 1.0;
}

/* int_k u v dx with the element's mass matrix. */
static double inner(const box *b, int k, const double *u, const double *v) {
  const int Np = b->ref->Np;
  double s = 0;
  for (int i = 0; i < Np; ++i)
    for (int j = 0; j < Np; ++j) s += u[i] * b->ref->M[i * Np + j] * v[j];
  return b->g->J[k] * s;
}

/* The losses sigma |E|^2 + sum over poles of each pole's dissipation (dg/dispersive.h), from
 * the fields q and the pole states w in their documented layout. */
static double losses(const box *b, const double *q, const double *w) {
  const int Np = b->ref->Np;
  const size_t KNp = (size_t)b->m->K * Np;
  const dg_maxwell *p = b->p;
  double total = 0, *J = NULL;
  assert_dg_ok(DG_ALLOC(J, Np));
  for (int e = 0; e < p->disp_K; ++e) {
    const int k = p->disp_elem[e];
    const dg_dispersion *d = &p->disp_models[p->disp_model[e]];
    for (int c = 0; c < 3; ++c) {
      const double *E = q + c * KNp + (size_t)k * Np;
      total += p->sigma[k] * inner(b, k, E, E);
      size_t o = p->disp_off[e];
      for (int j = 0; j < d->n_poles; ++j) {
        const dg_pole *pl = &d->pole[j];
        const double *s0 = w + o + (size_t)c * Np, *s1 = w + o + (size_t)(3 + c) * Np;
        double wt = 0;
        for (int n = 0; n < Np; ++n) {
          if (pl->type == DG_POLE_DEBYE) J[n] = (pl->delta_eps * E[n] - s0[n]) / pl->tau;
          else if (pl->type == DG_POLE_DRUDE) J[n] = s0[n];
          else J[n] = s1[n];
        }
        if (pl->type == DG_POLE_DEBYE) wt = pl->tau / pl->delta_eps;
        else if (pl->type == DG_POLE_DRUDE) wt = pl->gamma / (pl->omega_p * pl->omega_p);
        else wt = 2 * pl->delta / (pl->delta_eps * pl->omega_0 * pl->omega_0);
        total += wt * inner(b, k, J, J);
        o += 3 * (size_t)dg_pole_states(pl->type) * Np;
      }
    }
  }
  dg_free(&J);
  return total;
}

static dg_pole debye(double de, double tau) {
  return (dg_pole){.type = DG_POLE_DEBYE, .delta_eps = de, .tau = tau};
}
static dg_pole drude(double wp, double gamma) {
  return (dg_pole){.type = DG_POLE_DRUDE, .omega_p = wp, .gamma = gamma};
}
static dg_pole lorentz(double de, double w0, double delta) {
  return (dg_pole){.type = DG_POLE_LORENTZ, .delta_eps = de, .omega_0 = w0, .delta = delta};
}

/* W(x) = 1/2 x^T A x, so x^T A r = (W(x + s r) - W(x - s r)) / (2 s) exactly in exact
 * arithmetic; s scales r to x's size to keep the rounding small. */
static void energy_rate_equals_minus_losses(void **state) {
  (void)state;
  const struct {
    const char *name;
    double sigma;
    int n;
    dg_pole pole[3];
  } cases[] = {
      {"debye", 0, 1, {debye(3, 0.2)}},
      {"drude lossless", 0, 1, {drude(7, 0)}},
      {"drude", 0, 1, {drude(7, 1.5)}},
      {"lorentz lossless", 0, 1, {lorentz(2, 5, 0)}},
      {"lorentz", 0, 1, {lorentz(2, 5, 0.7)}},
      {"all three and sigma", 0.3, 3, {debye(3, 0.2), drude(7, 1.5), lorentz(2, 5, 0.7)}},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    dg_dispersion d = {.n_poles = cases[c].n};
    for (int j = 0; j < cases[c].n; ++j) d.pole[j] = cases[c].pole[j];
    box b;
    box_create(&b, 2, 2, 1.5, cases[c].sigma, &d);
    b.p->alpha = 0; /* central flux: the DG operator itself conserves energy */
    const size_t nt = b.n + b.naux;
    double *x = NULL, *r = NULL, *xp = NULL, *xm = NULL;
    assert_dg_ok(DG_ALLOC(x, nt));
    assert_dg_ok(DG_ALLOC(r, nt));
    assert_dg_ok(DG_ALLOC(xp, nt));
    assert_dg_ok(DG_ALLOC(xm, nt));
    fill_random(x, nt, 77 + (unsigned)c);
    dg_maxwell_rhs_aux(b.p, 0, x, NULL, x + b.n, r, r + b.n);
    const double Wx = dg_maxwell_energy_aux(b.p, x, x + b.n);
    const double Wr = dg_maxwell_energy_aux(b.p, r, r + b.n);
    const double s = sqrt(Wx / Wr);
    for (size_t i = 0; i < nt; ++i) xp[i] = x[i] + s * r[i], xm[i] = x[i] - s * r[i];
    const double rate = (dg_maxwell_energy_aux(b.p, xp, xp + b.n) -
                         dg_maxwell_energy_aux(b.p, xm, xm + b.n)) / (2 * s);
    const double loss = losses(&b, x, x + b.n), scale = 2 * sqrt(Wx * Wr);
    printf("# %-20s dW/dt = %.10e, -losses = %.10e, difference %.2e of the scale %.3e\n",
           cases[c].name, rate, -loss, fabs(rate + loss) / scale, scale);
    if (!(fabs(rate + loss) <= 1e-12 * scale))
      fail_msg("%s: dW/dt = %.17g but the losses are %.17g", cases[c].name, rate, loss);
    if (strstr(cases[c].name, "lossless")) assert_true(loss == 0);
    else assert_true(loss > 1e-4 * scale);
    dg_free(&x);
    dg_free(&r);
    dg_free(&xp);
    dg_free(&xm);
    box_destroy(&b);
  }
}

/* 10 000 steps at cfl times the automatic step; returns the largest step-to-step relative
 * growth of the energy and the ratio of the final energy to the first (stops early once the
 * energy is 10 times the first). */
static void run_steps(box *b, double cfl, int steps, double *growth, double *final_ratio) {
  dg_stepper *st = NULL;
  assert_dg_ok(dg_stepper_ref_create(&st, b->p, NULL));
  double *q = NULL, *w = NULL;
  assert_dg_ok(DG_ALLOC(q, b->n));
  assert_dg_ok(DG_ALLOC(w, b->naux));
  fill_random(q, b->n, 5);
  fill_random(w, b->naux, 6);
  assert_dg_ok(dg_stepper_put_state(st, q));
  assert_dg_ok(dg_stepper_put_aux(st, w));
  const double dt = dg_maxwell_dt(b->p, cfl);
  double e0, prev, e = 0;
  assert_dg_ok(dg_stepper_energy(st, &e0));
  assert_near(e0, dg_maxwell_energy_aux(b->p, q, w), 1e-14 * e0);
  prev = e0;
  *growth = -INFINITY;
  for (int i = 0; i < steps; ++i) {
    assert_dg_ok(dg_stepper_step(st, i * dt, dt));
    assert_dg_ok(dg_stepper_energy(st, &e));
    *growth = fmax(*growth, (e - prev) / prev);
    prev = e;
    if (!(e < 10 * e0)) break;
  }
  *final_ratio = e / e0;
  dg_free(&q);
  dg_free(&w);
  dg_stepper_destroy(&st);
}

static void each_pole_type_stable_over_10000_steps(void **state) {
  (void)state;
  /* Rates (dg_dispersion_rate) far above the mesh's: 1 cell, N = 2, eps_inf = 1.5 has an
   * element step of 0.048; these poles have rates of 122 to 153. The Drude and Lorentz
   * poles are lossless (gamma = delta = 0), so only LSERK4's own damping takes energy out. */
  const struct {
    const char *name;
    dg_pole pole;
  } cases[] = {
      {"debye", debye(3, 0.02)},
      {"drude", drude(150, 0)},
      {"lorentz", lorentz(2, 100, 0)},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    dg_dispersion d = {.n_poles = 1, .pole = {cases[c].pole}};
    box b;
    box_create(&b, 2, 1, 1.5, 0, &d);
    b.p->alpha = 0;
    int e = -1;
    const double dt = dg_maxwell_dt(b.p, 1.0), mesh_dt = dg_maxwell_element_dt(b.p, 0);
    assert_near(dt, dg_dispersion_dt(b.p, 1.0, &e), 0);
    assert_true(e >= 0 && dt < 0.25 * mesh_dt); /* the poles set the step */
    double growth, ratio;
    run_steps(&b, 1.0, 10000, &growth, &ratio);
    printf("# %-8s dt = %.4g (the mesh's %.4g): over 10000 steps the largest step-to-step "
           "growth %.2e, final / first energy %.4g\n", cases[c].name, dt, mesh_dt, growth, ratio);
    if (!(growth <= 1e-12))
      fail_msg("%s: the energy grew by %.3g in one step", cases[c].name, growth);
    assert_true(ratio < 1);
    box_destroy(&b);
  }
}

static void debye_unstable_at_five_times_its_step(void **state) {
  (void)state;
  dg_dispersion d = {.n_poles = 1, .pole = {debye(3, 0.02)}};
  box b;
  box_create(&b, 2, 1, 1.5, 0, &d);
  b.p->alpha = 0;
  assert_true(5 * dg_maxwell_dt(b.p, 1.0) < dg_maxwell_element_dt(b.p, 0));
  double growth, ratio;
  run_steps(&b, 5.0, 10000, &growth, &ratio);
  printf("# debye at 5 x its step: energy %.3g times the first\n", ratio);
  assert_true(ratio >= 10);
  box_destroy(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(energy_rate_equals_minus_losses),
      cmocka_unit_test(each_pole_type_stable_over_10000_steps),
      cmocka_unit_test(debye_unstable_at_five_times_its_step),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

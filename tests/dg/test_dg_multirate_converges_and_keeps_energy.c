/* Multirate time stepping (dg/multirate.h), both schemes (AB3 and LSERK4), on a graded
 * box mesh: the unit cube with cell widths 1:3:9 along x (3 x 2 x 2 cells, K = 72), whose
 * elements fall on 3 rate levels.
 *   - levels: every element's step 2^l h_0 is within its local LSERK4-rule step times
 *     DG_MRAB3_CFL, and the level counts are those of the mesh (24 per x-layer);
 *   - order in time: with the mesh fixed, the state after t = 0.1 against global LSERK4 at
 *     a step 16 times smaller than the finest sub-step, for macro steps H, H/2, H/4: the
 *     observed rate is >= 2.7 (both schemes are third order where levels meet);
 *   - against the exact (1,1,1) cavity mode at t = 0.5, the multirate error is within 1%
 *     of global LSERK4's at its own step (both are the spatial error);
 *   - the discrete energy of the cavity mode never grows (upwind), checked after every
 *     macro step over 300 macro steps (10 000 under DGTD_TEST_ALL=1); with the central
 *     flux it does not grow either and loses at most 2e-5 relative per unit time;
 *   - the work: RHS element-evaluations counted by the stepper equal the plan's count
 *     (5 per element step for LSERK4);
 *   - the base step: with local steps 1 : 1.9 it is lowered below the smallest local step so
 *     the slower half steps twice as long (less work), every step within its limit;
 *   - with a cost per level stage (omega), levels are lowered onto finer ones exactly where
 *     the rule says (an empty level left between two), steps within their limits, and both
 *     schemes step the lowered plans without the energy growing. */
#include "test_multirate_util.h"
#include "test_util.h"

#include "dg/cavity.h"
#include "dg/multirate.h"
#include "dg/stepper.h"

static const dg_mr_scheme schemes[2] = {DG_MR_AB3, DG_MR_LSERK4};
static const char *const scheme_names[2] = {"AB3", "LSERK4"};

static void make(setup *s, int N, double alpha, int max_levels, dg_mr_scheme scheme) {
  assert_dg_ok(setup_make(s, N, alpha, max_levels, scheme));
}

static void destroy(setup *s) { setup_destroy(s); }

/* steps steps of dt from the cavity mode at t = 0 with the given stepper into q. */
static void run(setup *s, dg_stepper *st, double dt, int steps, double *q) {
  dg_maxwell_interpolate(s->g, dg_cavity_mode_eval, &s->mode, 0.0, q);
  assert_dg_ok(dg_stepper_put_state(st, q));
  for (int k = 0; k < steps; ++k) assert_dg_ok(dg_stepper_step(st, k * dt, dt));
  assert_dg_ok(dg_stepper_get_state(st, q));
}

static double diff_norm(const double *a, const double *b, size_t n) {
  double d = 0;
  for (size_t i = 0; i < n; ++i) d += (a[i] - b[i]) * (a[i] - b[i]);
  return sqrt(d / (double)n);
}

/* Every element's AB3 step 2^l h_0 within its local limit (DG_MRAB3_CFL times the LSERK4
 * rule); with exact, also no element could take the next level. */
static void check_steps_within_limits(const setup *s, const int *level, const dg_mr_plan *plan,
                                      int exact) {
  const double n1 = s->ref->N + 1.0, h0 = DG_MRAB3_CFL * plan->dt_min;
  for (int k = 0; k < s->m->K; ++k) {
    double fs = 0;
    for (int f = 0; f < 4; ++f) fs = fmax(fs, s->g->Fscale[4 * k + f]);
    const double local = DG_MRAB3_CFL / (fs * n1 * n1);
    if (!(h0 * (1 << level[k]) <= local * (1 + 1e-12)))
      fail_msg("element %d at level %d: step %g above its local limit %g", k, level[k],
               h0 * (1 << level[k]), local);
    if (exact && !(h0 * (2 << level[k]) > local))
      fail_msg("element %d could take level %d", k, level[k] + 1);
  }
}

static void levels_follow_local_steps(void **state) {
  (void)state;
  setup s = {0};
  make(&s, 3, 1.0, 8, DG_MR_AB3);
  assert_int_equal(s.plan.n_levels, 3);
  for (int l = 0; l < 3; ++l) assert_int_equal(s.plan.count[l], 24);
  check_steps_within_limits(&s, s.level, &s.plan, 1);
  /* max_levels caps the levels */
  int *lev2 = calloc((size_t)s.m->K, sizeof *lev2);
  dg_mr_plan p2;
  assert_dg_ok(dg_multirate_levels(s.p, DG_MR_AB3, 2, 0, lev2, &p2));
  assert_int_equal(p2.n_levels, 2);
  assert_int_equal(p2.count[0], 24);
  assert_int_equal(p2.count[1], 48);
  free(lev2);
  assert_dg_error(dg_multirate_levels(s.p, DG_MR_AB3, 0, 0, s.level, &p2), DG_ERR_INPUT, "max_levels");
  destroy(&s);
}

/* With a cost omega per level stage (dg_multirate_levels), on the graded box's 24 / 24 / 24
 * elements: level 1 is lowered onto level 0 once its stages cost more than stepping its
 * elements twice as often, 24 (1 - 1/2) < omega / 2, i.e. omega > 24, and level 2 onto level
 * 0 once 24 (1 - 1/4) < omega / 4 (omega > 72; onto level 1, were it kept, at omega > 24): so
 * omega = 20 keeps the three levels, 48 gives 48 / 0 / 24 (an empty level), 100 one level.
 * Every element's step stays within its limit, and both steppers advance the lowered plan as
 * they do any other (the energy of the cavity mode never grows over 40 macro steps). */
static void levels_lowered_where_stages_cost_more(void **state) {
  (void)state;
  setup s = {0};
  make(&s, 2, 1.0, 8, DG_MR_AB3);
  int *lev = calloc((size_t)s.m->K, sizeof *lev);
  double *q = calloc(s.n, sizeof *q);
  assert_non_null(lev);
  assert_non_null(q);
  const double omega[3] = {20, 48, 100};
  const int want[3][3] = {{24, 24, 24}, {48, 0, 24}, {72, 0, 0}}, want_levels[3] = {3, 3, 1};
  for (int i = 0; i < 3; ++i) {
    dg_mr_plan p;
    assert_dg_ok(dg_multirate_levels(s.p, DG_MR_AB3, 8, omega[i], lev, &p));
    assert_int_equal(p.n_levels, want_levels[i]);
    for (int l = 0; l < 3; ++l) assert_int_equal(p.count[l], want[i][l]);
    check_steps_within_limits(&s, lev, &p, 0);
    /* the coarser elements next to each level, found from the fine side (each level's
     * elements mark their neighbours of coarser levels) */
    for (int l = 0; l < p.n_levels; ++l) {
      char *mark = calloc((size_t)s.m->K, 1);
      int n = 0;
      for (int k = 0; k < s.m->K; ++k)
        for (int f = 0; f < 4 && lev[k] == l; ++f) {
          const int j = s.m->EToE[4 * k + f];
          if (lev[j] > l && !mark[j]) mark[j] = 1, ++n;
        }
      assert_int_equal(p.border[l], n);
      if (l == 0 && p.n_levels > 1 && p.count[0]) assert_true(n > 0);
      free(mark);
    }
    for (int sc = 0; sc < 2; ++sc) {
      dg_stepper *st = NULL;
      assert_dg_ok(dg_stepper_multirate_create(&st, s.p, lev, p.n_levels, schemes[sc], NULL, NULL));
      const double H = dg_multirate_macro_dt(&p, 1.0);
      dg_maxwell_interpolate(s.g, dg_cavity_mode_eval, &s.mode, 0.0, q);
      assert_dg_ok(dg_stepper_put_state(st, q));
      double e0 = 0, e = 0;
      assert_dg_ok(dg_stepper_energy(st, &e0));
      for (int k = 0; k < 40; ++k) {
        assert_dg_ok(dg_stepper_step(st, k * H, H));
        assert_dg_ok(dg_stepper_energy(st, &e));
        if (!(e <= e0 * (1 + 1e-12)))
          fail_msg("%s, omega %g: energy grew to %.12g from %.12g at macro step %d",
                   scheme_names[sc], omega[i], e, e0, k + 1);
        e0 = e;
      }
      dg_stepper_destroy(&st);
    }
  }
  assert_dg_error(dg_multirate_levels(s.p, DG_MR_AB3, 8, -1, lev, NULL), DG_ERR_INPUT, "cost");
  free(q);
  free(lev);
  destroy(&s);
}

static void third_order_in_time(void **state) {
  (void)state;
  for (int sc = 0; sc < 2; ++sc) {
    setup s = {0};
    make(&s, 2, 1.0, 8, schemes[sc]);
    /* the time error well above round-off: AB3 at twice its rule (stable to ~4x it at N = 2),
     * LSERK4 at its rule */
    const double T = 0.1, cfl = sc ? 1 : 2;
    double *ref = malloc(s.n * sizeof *ref), *q = malloc(s.n * sizeof *q);
    dg_stepper *st = NULL;
    const int macro = (int)ceil(T / dg_multirate_macro_dt(&s.plan, cfl));
    /* the reference: global LSERK4 at 1/16 of the finest multirate sub-step */
    assert_dg_ok(dg_stepper_ref_create(&st, s.p, NULL));
    const int nref = macro * 4 * 16;
    run(&s, st, T / nref, nref, ref);
    dg_stepper_destroy(&st);
    double err[3];
    long long evals = 0;
    for (int r = 0; r < 3; ++r) {
      const int steps = macro << r;
      assert_dg_ok(dg_stepper_multirate_create(&st, s.p, s.level, s.plan.n_levels, schemes[sc],
                                               NULL, &evals));
      evals = 0;
      run(&s, st, T / steps, steps, q);
      dg_stepper_destroy(&st);
      err[r] = diff_norm(q, ref, s.n);
      /* 2 start-up macro steps of global LSERK4 at h_0 (5 K per sub-step, 4 sub-steps), then
       * 24 (4 + 2 + 1) element steps per macro step, of 1 (AB3) or 5 (LSERK4) evaluations */
      assert_int_equal(evals, 2LL * 5 * 72 * 4 + (long long)(steps - 2) * 24 * 7 * (sc ? 5 : 1));
      printf("# %s: H = %.4e  error vs reference %.3e", scheme_names[sc], T / steps, err[r]);
      if (r) printf("  rate %.2f", log2(err[r - 1] / err[r]));
      printf("\n");
    }
    for (int r = 1; r < 3; ++r)
      if (!(log2(err[r - 1] / err[r]) >= 2.7))
        fail_msg("%s: rate %g below 2.7", scheme_names[sc], log2(err[r - 1] / err[r]));
    free(ref);
    free(q);
    destroy(&s);
  }
}

static void same_error_as_global_lserk4(void **state) {
  (void)state;
  for (int sc = 0; sc < 2; ++sc) {
    setup s = {0};
    make(&s, 2, 1.0, 8, schemes[sc]);
    const double T = 0.5;
    double *q = malloc(s.n * sizeof *q), err[2], norm;
    dg_stepper *st = NULL;
    assert_dg_ok(dg_stepper_ref_create(&st, s.p, NULL));
    const int n_global = (int)ceil(T / dg_maxwell_dt(s.p, 1.0));
    run(&s, st, T / n_global, n_global, q);
    dg_stepper_destroy(&st);
    assert_dg_ok(dg_maxwell_l2_error(s.g, q, dg_cavity_mode_eval, &s.mode, T, &err[0], &norm));
    assert_dg_ok(dg_stepper_multirate_create(&st, s.p, s.level, s.plan.n_levels, schemes[sc],
                                             NULL, NULL));
    const int n_macro = (int)ceil(T / dg_multirate_macro_dt(&s.plan, 1.0));
    run(&s, st, T / n_macro, n_macro, q);
    dg_stepper_destroy(&st);
    assert_dg_ok(dg_maxwell_l2_error(s.g, q, dg_cavity_mode_eval, &s.mode, T, &err[1], &norm));
    printf("# %s: L2 error at t = %g: global LSERK4 %.6e (%d steps), multirate %.6e (%d macro "
           "steps)\n", scheme_names[sc], T, err[0], n_global, err[1], n_macro);
    if (!(fabs(err[1] / err[0] - 1) <= 0.01))
      fail_msg("%s: multirate error %g vs global %g", scheme_names[sc], err[1], err[0]);
    free(q);
    destroy(&s);
  }
}

/* The energy after every macro step of the cavity mode: never above the previous one with
 * upwind; with the central flux, it never rises above the start and falls by at most 2e-5
 * relative per unit time (both schemes damp the least resolved modes a little, as LSERK4
 * does: AB3 9e-6, LSERK4 1.1e-5 per unit time). */
static void energy_never_grows(void **state) {
  (void)state;
  const int macro = getenv("DGTD_TEST_ALL") ? 10000 : 300;
  for (int sc = 0; sc < 2; ++sc)
    for (int alpha = 0; alpha <= 1; ++alpha) {
      setup s = {0};
      make(&s, 2, alpha, 8, schemes[sc]);
      double *q = malloc(s.n * sizeof *q);
      dg_stepper *st = NULL;
      assert_dg_ok(dg_stepper_multirate_create(&st, s.p, s.level, s.plan.n_levels, schemes[sc],
                                               NULL, NULL));
      dg_maxwell_interpolate(s.g, dg_cavity_mode_eval, &s.mode, 0.0, q);
      assert_dg_ok(dg_stepper_put_state(st, q));
      const double H = dg_multirate_macro_dt(&s.plan, 1.0);
      double e0, prev, e = 0;
      assert_dg_ok(dg_stepper_energy(st, &e0));
      prev = e0;
      for (int k = 0; k < macro; ++k) {
        assert_dg_ok(dg_stepper_step(st, k * H, H));
        assert_dg_ok(dg_stepper_energy(st, &e));
        if (alpha == 1 && !(e <= prev * (1 + 1e-14)))
          fail_msg("%s upwind: energy grew at macro step %d: %.17g -> %.17g", scheme_names[sc],
                   k, prev, e);
        prev = e;
      }
      printf("# %s %s: energy %.12e -> %.12e after %d macro steps (t = %g)\n", scheme_names[sc],
             alpha ? "upwind" : "central", e0, e, macro, macro * H);
      if (alpha == 0 && !(e <= e0 && e0 - e <= 2e-5 * macro * H * e0))
        fail_msg("%s central: energy changed by %g", scheme_names[sc], (e - e0) / e0);
      if (alpha == 1) assert_true(e < e0);
      dg_stepper_destroy(&st);
      free(q);
      destroy(&s);
    }
}

/* A 2x2x2 box whose half x > 1/2 has eps = mu = 1.9: its elements' local step is 1.9x the
 * others', just short of a level. Lowering the base step by 1.9/2 puts them on level 1: the
 * plan must do that (less work per unit time than with the base at the smallest step), and
 * still keep every element's step within its local limit. */
static void base_lowered_when_it_saves_work(void **state) {
  (void)state;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  dg_mesh *m = NULL;
  dg_refel *ref = NULL;
  dg_geom *g = NULL;
  dg_maxwell *p = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, 2, 2, 2));
  assert_dg_ok(dg_refel_create(&ref, 2));
  assert_dg_ok(dg_geom_create(&g, m, ref));
  assert_dg_ok(dg_maxwell_create(&p, g));
  for (int k = 0; k < m->K; ++k) {
    double cx = 0;
    for (int v = 0; v < 4; ++v) cx += 0.25 * m->VX[m->EToV[4 * k + v]];
    if (cx > 0.5) p->eps[k] = p->mu[k] = 1.9;
  }
  int *level = calloc((size_t)m->K, sizeof *level);
  dg_mr_plan plan;
  assert_dg_ok(dg_multirate_levels(p, DG_MR_AB3, 8, 0, level, &plan));
  printf("# levels %d/%d, base %.6g, smallest local step %.6g\n", plan.count[0], plan.count[1],
         plan.dt_min, plan.dt_smallest);
  assert_int_equal(plan.n_levels, 2);
  assert_true(plan.dt_min < plan.dt_smallest * 0.99 && plan.dt_min > plan.dt_smallest / 2);
  /* work per unit time: with this base, and with the base at the smallest step (all on 0) */
  const double work = dg_multirate_evals_per_time(&plan, plan.dt_min * 2);
  assert_true(work < (double)m->K / plan.dt_smallest);
  const double n1 = ref->N + 1.0;
  for (int k = 0; k < m->K; ++k) {
    double fs = 0;
    for (int f = 0; f < 4; ++f) fs = fmax(fs, g->Fscale[4 * k + f]);
    if (!(plan.dt_min * (1 << level[k]) <= p->eps[k] / (fs * n1 * n1) * (1 + 1e-12)))
      fail_msg("element %d at level %d above its local step", k, level[k]);
  }
  free(level);
  dg_maxwell_destroy(&p);
  dg_geom_destroy(&g);
  dg_refel_destroy(&ref);
  dg_mesh_destroy(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(levels_follow_local_steps),
      cmocka_unit_test(base_lowered_when_it_saves_work),
      cmocka_unit_test(levels_lowered_where_stages_cost_more),
      cmocka_unit_test(third_order_in_time),
      cmocka_unit_test(same_error_as_global_lserk4),
      cmocka_unit_test(energy_never_grows),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

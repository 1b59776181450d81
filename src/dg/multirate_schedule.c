/* The multirate schedule (dg/multirate_schedule.h): the one sequence that both multirate
 * steppers run, the reference (dg/stepper_multirate.c) and OpenCL (backend/cl_multirate.c).
 * Per macro step H = M h_0 (M = 2^(L-1)), at sub-time m = 0..M-1 the due levels are 0..d,
 * 2^d the largest power of two dividing m (all at m = 0).
 * AB3 (Gear & Wells 1984, "fastest first" as in Goedel, Schomann, Warburton & Clemens 2010):
 *   1. the due levels (m > 0) complete the AB3 step begun 2^l sub-steps ago;
 *   2. the coarser elements next to a due one get their dense output in qe (every other
 *      element of qe that is read is current);
 *   3. each due level evaluates f(t_m) into its history, the oldest entry dropped;
 *   at the end every level completes its step, so the state is synchronised at t + H.
 * LSERK4 on the levels (this project's own construction; LSERK4: Carpenter & Kennedy 1994):
 * the same synchronous evaluation of f(t_m) is the first stage of each due level's LSERK4
 * step; stages 2-5 of level l's step run at its end, once every finer level has reached it
 * (fastest first), with finer neighbours interpolated from their trajectories and coarser
 * ones extrapolated by their AB3 polynomials.
 * Start-up: two macro steps of global LSERK4 at h_0, keeping f(T - h_l) and f(T - 2 h_l) of
 * each level, T the time the scheme starts at. */
#include "dg/multirate_schedule.h"

#include "dg/lserk.h"

int dg_multirate_due_top(int m, int n_levels) {
  const int M = 1 << (n_levels - 1);
  int d = 0;
  if (m % M == 0) return n_levels - 1;
  while (d < n_levels - 1 && m % (2 << d) == 0) ++d;
  return d;
}

void dg_mr_ab3_weights(double th, double c[3]) {
  const double t2 = th * th, t3 = t2 * th;
  c[0] = t3 / 6 + 0.75 * t2 + th;
  c[1] = -(t3 / 3 + t2);
  c[2] = t3 / 6 + 0.25 * t2;
}

/* Global LSERK4 at h_0 over one macro step (start-up number c->started, 0 or 1), keeping
 * f(T - h_l) and f(T - 2 h_l) of each level, T two macro steps after the reset. */
static dg_status startup_macro_step(const dg_mr_ops *o, void *x, const dg_mr_clock *c,
                                    double t, double H) {
  const double h0 = H / c->M;
  for (int m = 0; m < c->M; ++m) {
    const int sub = c->started * c->M + m; /* sub-steps since the reset; T is at 2M */
    for (int st = 0; st < DG_LSERK_STAGES; ++st) {
      DG_CALL(o->rhs_all(x, t + (m + dg_lserk_c[st]) * h0));
      if (st == 0)
        for (int l = 0; l < c->L; ++l) {
          const int span = 1 << l;
          const int back = sub == 2 * c->M - span ? 1 : sub == 2 * c->M - 2 * span ? 2 : 0;
          if (back) DG_CALL(o->keep_history(x, l, back));
        }
      DG_CALL(o->update_all(x, dg_lserk_a[st], h0, dg_lserk_b[st]));
    }
  }
  return DG_OK;
}

/* MRAB3 over one macro step. */
static dg_status ab3_macro_step(const dg_mr_ops *o, void *x, const dg_mr_clock *c, double t,
                                double H) {
  const double h0 = H / c->M;
  for (int m = 0; m < c->M; ++m) {
    const int d = dg_multirate_due_top(m, c->L);
    if (m > 0) DG_CALL(o->ab3_complete(x, d, h0));
    if (d + 1 < c->L) DG_CALL(o->dense_borders(x, d, m, h0));
    DG_CALL(o->evaluate(x, d, m, t + m * h0));
  }
  DG_CALL(o->ab3_complete(x, c->L - 1, h0));
  return DG_OK;
}

/* Stages 2-5 of level l's step [m - 2^l, m] (every finer level has reached m): per stage the
 * level's own working states, its finer neighbours from their trajectories and its coarser
 * ones from their AB3 polynomials (both third order) make up qe. */
static dg_status rk_complete_level(const dg_mr_ops *o, void *x, const dg_mr_clock *c, int l,
                                   int m, double t, double h0) {
  const int span = 1 << l, T = m - span;
  const double h = h0 * span;
  for (int st = 1; st < DG_LSERK_STAGES; ++st) {
    const double tau = T + dg_lserk_c[st] * span;
    if (st == 1) DG_CALL(o->rk_own(x, l)); /* later stages: rk_update keeps qe = q */
    if (l > 0) DG_CALL(o->rk_finer(x, l, T, tau, h0));
    if (l + 1 < c->L) DG_CALL(o->rk_coarser(x, l, T, tau, h0));
    DG_CALL(o->rk_stage_rhs(x, l, t + tau * h0));
    DG_CALL(o->rk_update(x, l, 0, dg_lserk_a[st], h, dg_lserk_b[st]));
  }
  DG_CALL(o->rk_traj_end(x, l, m));
  return DG_OK;
}

/* Multirate LSERK4 over one macro step: at each sub-time m, the due levels finish the steps
 * that end there, fine to coarse; then they evaluate f(t_m) together (coarser neighbours
 * from their AB3 polynomials), which is both their history and the first stage of their
 * next step. */
static dg_status rk_macro_step(const dg_mr_ops *o, void *x, const dg_mr_clock *c, double t,
                               double H) {
  const double h0 = H / c->M;
  for (int m = 0; m <= c->M; ++m) {
    const int d = dg_multirate_due_top(m, c->L);
    if (m > 0)
      for (int l = 0; l <= d; ++l) DG_CALL(rk_complete_level(o, x, c, l, m, t, h0));
    if (m == c->M) break;
    DG_CALL(o->rk_start(x, d));
    if (d + 1 < c->L) DG_CALL(o->dense_borders(x, d, m, h0));
    DG_CALL(o->evaluate(x, d, m, t + m * h0));
    DG_CALL(o->rk_traj_start(x, d, m));
    for (int l = 0; l <= d; ++l)
      DG_CALL(o->rk_update(x, l, 1, dg_lserk_a[0], h0 * (1 << l), dg_lserk_b[0]));
  }
  return DG_OK;
}

dg_status dg_mr_schedule_step(const dg_mr_ops *ops, void *ctx, dg_mr_clock *c, double t,
                              double dt) {
  if (dt != c->H) c->started = 0, c->H = dt; /* a new step length restarts the history */
  if (c->started < 2) {
    if (c->started == 0 && ops->startup_begin) DG_CALL(ops->startup_begin(ctx));
    DG_CALL(startup_macro_step(ops, ctx, c, t, dt));
    if (++c->started == 2) DG_CALL(ops->startup_end(ctx));
    return DG_OK;
  }
  if (c->scheme == DG_MR_LSERK4) DG_CALL(rk_macro_step(ops, ctx, c, t, dt));
  else DG_CALL(ab3_macro_step(ops, ctx, c, t, dt));
  if (ops->macro_end) DG_CALL(ops->macro_end(ctx));
  return DG_OK;
}

/* The multirate schedule, written once: which rate level completes, evaluates, takes an
 * LSERK4 stage or forms a dense output when, at which time and with which LSERK4 stage
 * coefficients, over one macro step of multirate AB3 or multirate LSERK4 and over the two
 * start-up macro steps of global LSERK4 (the schemes: dg/multirate.h; MRAB3 after Gear &
 * Wells 1984 in the "fastest first" form of Goedel, Schomann, Warburton & Clemens 2010,
 * multirate LSERK4 this project's own construction on the same levels, LSERK4 of Carpenter &
 * Kennedy 1994, dg/lserk.h; docs/TIME_STEPPING.md, "Local time stepping").
 *
 * The schedule walks the sub-times of the macro step and calls a table of operations
 * (dg_mr_ops), implemented once over the reference arrays (dg/stepper_multirate.c) and
 * once over device buffers (backend/cl_multirate.c). The arithmetic is theirs: each
 * implementation forms the AB3 combinations, dense outputs and trajectories its own way
 * (host loops, kernels); the schedule only says what is due. Each stepper keeps
 *   q  : the working state (each element at its latest step point),
 *   qe : the evaluation state (what the right-hand side reads: q of the levels evaluated,
 *        dense outputs or trajectories of their neighbours),
 *   qs : LSERK4 only, each element's state at its step start (AB3's step start is q),
 *   the right-hand-side history of each level (its last three evaluations, AB3's f0 f1 f2),
 *   and the stage right-hand side of one level (LSERK4).
 * Levels 0..d "due" at sub-time m: dg_multirate_due_top. A PML's auxiliary fields go with
 * their element's level through every operation. */
#ifndef DG_DG_MULTIRATE_SCHEDULE_H
#define DG_DG_MULTIRATE_SCHEDULE_H

#include "core/status.h"
#include "dg/multirate.h"

typedef struct {
  /* ---- start-up: global LSERK4 at h_0 (two macro steps) ---- */
  /* Before the first start-up macro step after a reset (NULL: nothing). */
  dg_status (*startup_begin)(void *ctx);
  /* f of every owned element at t from q (an LSERK4 stage's right-hand side), counted. */
  dg_status (*rhs_all)(void *ctx, double t);
  /* That f is level l's evaluation `back` (1 or 2) of its steps before AB3 starts. */
  dg_status (*keep_history)(void *ctx, int l, int back);
  /* Every element: res = a res + h f, q += b res (the start-up's LSERK4 stage). */
  dg_status (*update_all)(void *ctx, double a, double h, double b);
  /* After the second start-up macro step: the history is complete, qe (and qs) = q. */
  dg_status (*startup_end)(void *ctx);

  /* ---- both schemes: the synchronous evaluation at sub-time m ---- */
  /* The coarser elements next to levels 0..d (d < L - 1), by their AB3 polynomials at
   * sub-time m (each inside its level's current step), into qe. */
  dg_status (*dense_borders)(void *ctx, int d, int m, double h0);
  /* Levels 0..d evaluate f(t) from qe (t the time of sub-time m; the ghosts' traces
   * exchanged first on several ranks) as their latest history entry, the oldest dropped. */
  dg_status (*evaluate)(void *ctx, int d, int m, double t);

  /* ---- AB3 ---- */
  /* Levels 0..d complete the AB3 step begun 2^l sub-steps ago, from their step start and
   * history: q += h_l (23 f0 - 16 f1 + 5 f2) / 12, and qe = q there. */
  dg_status (*ab3_complete)(void *ctx, int d, double h0);

  /* ---- LSERK4 ---- */
  /* Levels 0..d at a step start: qe = q (coarser levels' stages left other values there)
   * and qs = q. */
  dg_status (*rk_start)(void *ctx, int d);
  /* After levels 0..d evaluated at sub-time m: the trajectory points of their elements that
   * have a coarser neighbour (the state where m starts such a coarser step, and f). */
  dg_status (*rk_traj_start)(void *ctx, int d, int m);
  /* Level l: res = a res + h F, q += b res and qe = q over its elements, F its latest
   * history entry (history != 0: the first stage, the synchronous evaluation) or its
   * stage right-hand side (rk_stage_rhs). */
  dg_status (*rk_update)(void *ctx, int l, int history, double a, double h, double b);
  /* Before stage 2 of level l's step: qe = q over level l (finer levels' stages since the
   * step began may have left dense outputs there). */
  dg_status (*rk_own)(void *ctx, int l);
  /* At stage time tau (in sub-steps) of level l's step that started at sub-time T, into
   * qe: its finer neighbours from their trajectories (l > 0), its coarser neighbours from
   * their AB3 polynomials (l < L - 1). */
  dg_status (*rk_finer)(void *ctx, int l, int T, double tau, double h0);
  dg_status (*rk_coarser)(void *ctx, int l, int T, double tau, double h0);
  /* Level l's stage right-hand side at t from qe (ghosts exchanged first), counted. */
  dg_status (*rk_stage_rhs)(void *ctx, int l, double t);
  /* Level l has completed its step ending at sub-time m: its trajectory points there. */
  dg_status (*rk_traj_end)(void *ctx, int l, int m);

  /* After each macro step of the scheme, every level synchronised (NULL: nothing). */
  dg_status (*macro_end)(void *ctx);
} dg_mr_ops;

/* Where a stepper is in the schedule: set L, M = 2^(L-1), scheme, H = -1 and started = 0 at
 * creation; started = 0 restarts the history (put_state). */
typedef struct {
  int L, M;
  dg_mr_scheme scheme;
  int started; /* start-up macro steps since the history was reset (the scheme runs from 2) */
  double H;    /* the macro step the history was built with */
} dg_mr_clock;

/* One macro step dt from t (dt > 0, checked by the caller): a start-up macro step of global
 * LSERK4 while c->started < 2 (a new dt restarts the history), else c->scheme's. */
dg_status dg_mr_schedule_step(const dg_mr_ops *ops, void *ctx, dg_mr_clock *c, double t,
                              double dt) DG_NODISCARD;

/* The AB3 polynomial's weights at th (0..1 of the step h): the integral over [0, th h] of the
 * quadratic through (0, f0), (-h, f1), (-2h, f2), per h (dg/multirate.h's a0, a1, a2). */
void dg_mr_ab3_weights(double th, double c[3]);

#endif

/* Local time stepping on power-of-two rate levels: multirate Adams-Bashforth 3 (MRAB3,
 * described here) and multirate LSERK4 (the same levels, evaluations and start-up, each level
 * taking LSERK4 steps; see dg_stepper_multirate_create).
 *
 * MRAB3 (Gear & Wells 1984, "fastest first"; as used for DGTD on GPUs by Goedel, Schomann,
 * Warburton & Clemens 2010): each element k gets a level l(k) from its local stable step
 * dt_k = sqrt(eps_k mu_k) / (max_f Fscale_kf (N+1)^2) (the per-element form of
 * dg_maxwell_dt): l(k) = min(L-1, floor(log2(dt_k / min_j dt_j))). Level l steps with
 * h_l = 2^l h_0 by third-order Adams-Bashforth on its own right-hand-side history
 *     q(t + h) = q(t) + h (23 f(t) - 16 f(t - h) + 5 f(t - 2h)) / 12,
 * f(t) being evaluated when every finer level has reached t. An element whose neighbour is
 * half-way through a longer step sees that neighbour's state from its AB3 polynomial (the
 * step's dense output), q_j(t_j + th h) = q_j(t_j) + h (a0 f0 + a1 f1 + a2 f2) with
 * a0 = th^3/6 + 3th^2/4 + th, a1 = -(th^3/3 + th^2), a2 = th^3/6 + th^2/4 (at th = 1 the
 * step itself), which keeps the coupling third-order. One macro step H = 2^(L-1) h_0 ends
 * with every level synchronised. The history is started by 2 macro steps of global LSERK4
 * at h_0 (dg/lserk.h), recording f where AB3 needs it.
 *
 * Stability: AB3's stability region reaches 0.72 along the imaginary axis and 6/11 along
 * the negative real axis, against about 3.3 and 4.5 for LSERK4 (5 RHS per step); h_0 is
 * DG_MRAB3_CFL times the LSERK4 step rule of the smallest element (see docs/TIME_STEPPING.md,
 * "Local time stepping"): per RHS evaluation AB3 advances 0.575 as far as LSERK4 on the upwind operator,
 * hence multirate LSERK4, whose h_0 is the rule itself.
 *
 * The state layout is the reference one (dg/maxwell.h); the elements keep their numbering
 * (each level is a list of element indices). On MPI ranks see dg_stepper_multirate_create. */
#ifndef DG_DG_MULTIRATE_H
#define DG_DG_MULTIRATE_H

#include "core/status.h"
#include "dg/maxwell.h"
#include "dg/stepper.h"

enum { DG_MR_MAX_LEVELS = 12 };

/* The scheme on the levels: multirate AB3, or multirate LSERK4 (each level takes LSERK4
 * steps of its own length; see dg_stepper_multirate_create). */
typedef enum { DG_MR_AB3, DG_MR_LSERK4 } dg_mr_scheme;

/* The finest MRAB3 step as a fraction of the LSERK4 step rule (dg_maxwell_dt). */
#define DG_MRAB3_CFL 0.115
/* In a PML element the finest step also keeps h beta <= DG_MRAB3_PML (beta the element's
 * largest filter rate; AB3 is stable to 6/11 on the negative real axis). */
#define DG_MRAB3_PML 0.3

typedef struct {
  dg_mr_scheme scheme;          /* the scheme the levels are for (its step rule) */
  int n_levels;                 /* levels in use, 1..max_levels */
  int count[DG_MR_MAX_LEVELS];  /* elements per level */
  double dt_min;                /* the base step b (cfl 1): level l steps with 2^l b */
  double dt_smallest;           /* smallest local LSERK4-rule step (cfl 1), >= dt_min */
  double dt_ratio;              /* largest / smallest local step */
  int border[DG_MR_MAX_LEVELS]; /* elements of coarser levels next to one of level l: each
                                 * takes its AB3 polynomial (dense output) at the stages of
                                 * level l's steps (dg_multirate_predicted_gain) */
} dg_mr_plan;

/* Levels of the K elements (level[k] in 0..n_levels-1) from their local stable steps dt_k,
 * at most max_levels (1..DG_MR_MAX_LEVELS) of them: l_k = min(L-1, floor(log2(dt_k / b)))
 * with the base b in (dt_smallest/2, dt_smallest] that minimises the cost per unit time:
 * the element evaluations, sum_k 2^-l_k / b, and omega element evaluations for each stage of
 * each level with elements (what a stage costs beyond its elements: launches, small ranges;
 * see dg_multirate_predicted_gain). Where a level's stages cost more than stepping its
 * elements on the next finer level with elements would, its elements go there (a level left
 * empty is skipped: the finest level of a mesh with a few small elements among many). b =
 * dt_smallest when the local steps are powers of two apart; lowering b a little can lift
 * many elements a level. omega = 0: the element evaluations alone. */
dg_status dg_multirate_levels(const dg_maxwell *p, dg_mr_scheme scheme, int max_levels,
                              double omega, int *level, dg_mr_plan *plan) DG_NODISCARD;

/* The macro step 2^(n_levels-1) h_0 with h_0 = cfl R dt_min (the base), R = DG_MRAB3_CFL
 * for AB3 and 1 for LSERK4 (the global LSERK4 step rule, dg_maxwell_dt). */
double dg_multirate_macro_dt(const dg_mr_plan *plan, double cfl);

/* The levels due at sub-time m (0..M, M = 2^(n_levels-1)) of a macro step are
 * 0..dg_multirate_due_top(m): every level at the macro step's start and end, else up to the
 * largest power of two dividing m. */
int dg_multirate_due_top(int m, int n_levels);

/* Curved elements (geom.h) are not stepped at their own rates yet: DG_ERR_UNSUPPORTED, saying
 * what to do instead, when n_curved > 0 (both backends' multirate steppers). */
dg_status dg_multirate_refuse_curved(int n_curved) DG_NODISCARD;

/* Multirate LSERK4's predicted speed-up over global LSERK4 at step dt_global, per unit of
 * simulated time once started: (E_g + omega S_g) / (E_mr + beta D_mr + omega S_mr), E the
 * element evaluations (5 K / dt; sum_l 5 K_l / h_l with h_l = 2^l cfl dt_min), S the stages
 * (5 / dt; 5 / h_l summed over the levels with elements), D the dense outputs of coarser
 * neighbours (sum_l 5 border_l / h_l), omega what a stage costs beyond its elements and beta
 * what a dense output costs, both in element evaluations (kernel launches, small ranges,
 * host work; memory traffic: measured per kind of device, docs/TIME_STEPPING.md "Choosing
 * automatically"). plan->scheme must be DG_MR_LSERK4. */
double dg_multirate_predicted_gain(const dg_mr_plan *plan, double cfl, double dt_global,
                                   double omega, double beta);

/* Element right-hand-side evaluations per unit of simulated time at macro step H, once the
 * history is started (sum_l K_l 2^(L-1-l) / H), and those of global LSERK4 at step dt
 * (5 K / dt). */
double dg_multirate_evals_per_time(const dg_mr_plan *plan, double H);

/* The multirate stepper on phys (borrowed, must outlive it) with the given levels (copied).
 * dg_stepper_step(t, H) advances one macro step H; the first two after put_state (or after
 * H changes) are global LSERK4 at H / 2^(n_levels-1) to start the history. evals, when
 * not NULL, is incremented by every element RHS evaluation (borrowed).
 * DG_MR_LSERK4: level l takes LSERK4 steps of h_l, fastest first. The first stage of every
 * step is the synchronous evaluation of f at its start (as AB3's, coarser neighbours by
 * their AB3 polynomials from these evaluations); stages 2-5 run once every finer level has
 * reached the step's end, a coarser neighbour again by its AB3 polynomial, a finer one by
 * the quadratic through its state and f at its step point before the stage time and its
 * state at the one after. Both couplings are third order; the scheme is third order where
 * levels meet and LSERK4 (fourth order, its stability region) inside each level.
 * On several ranks (halo: the trace exchange, copied; NULL or n = 0 on one process) level
 * covers the ghosts too, with the levels their owners give them (the levels of the whole
 * mesh, so every rank runs the same sub-steps); the ghosts' traces are exchanged before
 * every evaluation (AB3: once per sub-step after the dense outputs; LSERK4: also before
 * each of stages 2-5 of a level) and once per start-up stage. */
dg_status dg_stepper_multirate_create(dg_stepper **out, dg_maxwell *phys, const int *level,
                                      int n_levels, dg_mr_scheme scheme,
                                      const dg_trace_exchange *halo,
                                      long long *evals) DG_NODISCARD;

#endif

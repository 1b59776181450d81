/* Multirate time stepping on rate levels (the schemes: dg/multirate.h), on the reference
 * operator: the operations of the multirate schedule (dg/multirate_schedule.h, which says
 * what is due when, for both this stepper and the OpenCL one) over host arrays in the
 * reference layout (dg/maxwell.h), each level a list of element indices. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "dg/lserk.h"
#include "dg/multirate.h"
#include "dg/multirate_schedule.h"
#include "dg/pml.h"

typedef struct {
  dg_maxwell *phys; /* borrowed */
  dg_mr_clock clk;  /* L, M, scheme, start-up (dg/multirate_schedule.h) */
  dg_trace_exchange halo; /* n = 0 on one process */
  int K, Np;
  int Ko;           /* owned elements 0..Ko-1; the rest are ghosts (other ranks' elements) */
  size_t n;         /* 6 K Np */
  int *level;       /* per element */
  int *elems[DG_MR_MAX_LEVELS], n_elems[DG_MR_MAX_LEVELS];
  /* border[d]: elements of level > d with a face neighbour of level <= d */
  int *border[DG_MR_MAX_LEVELS], n_border[DG_MR_MAX_LEVELS];
  double *q, *qe;   /* working state (AB3: each element's step start); evaluation state */
  double *hist[3];  /* RHS history: f_i of level l is hist[(head[l] + i) % 3] */
  int head[DG_MR_MAX_LEVELS];
  double *res, *rhs; /* LSERK4 residual (start-up, multirate LSERK4) and stage RHS */
  long long *evals;
  /* PML (dg/pml.h): the auxiliary fields are ODEs local to each PML node, stepped with their
   * element's level: pml_of[l] lists the PML elements (indices into pml_elem) of level l;
   * w, its history and start-up residual are in dg/pml.h's layout (nw values) */
  int *pml_of[DG_MR_MAX_LEVELS], n_pml_of[DG_MR_MAX_LEVELS];
  size_t nw;
  double *w, *wres, *rhs_w, *whist[3];
  /* LSERK4 scheme: qs = each element's state at its step start (q is the working state);
   * finer[l] / coarser[l]: elements of a finer / coarser level next to one of level l;
   * the trajectory of each element k with a coarser neighbour (top[k] > level[k], the
   * coarsest neighbour's level): its states at its step points over the current step of
   * level top[k], traj_q + tq_at[k] (P + 1 points, P = 2^(top - level)), and f at the
   * first P, traj_f + tf_at[k] (tq_at[k] < 0: none) */
  double *qs;
  int *finer[DG_MR_MAX_LEVELS], n_finer[DG_MR_MAX_LEVELS];
  int *coarser[DG_MR_MAX_LEVELS], n_coarser[DG_MR_MAX_LEVELS];
  int *top;
  long *tq_at, *tf_at;
  double *traj_q, *traj_f;
} mr_stepper;

/* Copy or combine the aux values of PML element e: dst = src (+ h sum c_i f_i). */
static void aux_combine(mr_stepper *s, int l, int e, double h, const double c[3]) {
  const size_t nP = (size_t)s->phys->pml_K * s->Np;
  const double *f0 = s->whist[s->head[l]], *f1 = s->whist[(s->head[l] + 1) % 3],
               *f2 = s->whist[(s->head[l] + 2) % 3];
  for (int a = 0; a < DG_PML_AUX; ++a) {
    const size_t o = (size_t)a * nP + (size_t)e * s->Np;
    for (int i = 0; i < s->Np; ++i)
      s->w[o + i] += h * (c[0] * f0[o + i] + c[1] * f1[o + i] + c[2] * f2[o + i]);
  }
}

static double *field_of(const mr_stepper *s, double *a, int f, int k) {
  return a + (size_t)f * s->K * s->Np + (size_t)k * s->Np;
}

/* dst_k = base_k + h (c0 f0 + c1 f1 + c2 f2) for one element (dst may be base); the base
 * is the element's state at its step start: q for AB3, qs for LSERK4. */
static void ab_combine(mr_stepper *s, int l, int k, double h, const double c[3], double *dst) {
  const double *f0 = s->hist[s->head[l]], *f1 = s->hist[(s->head[l] + 1) % 3],
               *f2 = s->hist[(s->head[l] + 2) % 3];
  const double *base = s->clk.scheme == DG_MR_LSERK4 ? s->qs : s->q;
  for (int f = 0; f < DG_NFIELDS; ++f) {
    const size_t o = (size_t)f * s->K * s->Np + (size_t)k * s->Np;
    for (int i = 0; i < s->Np; ++i)
      dst[o + i] = base[o + i] + h * (c[0] * f0[o + i] + c[1] * f1[o + i] + c[2] * f2[o + i]);
  }
}

static void copy_elem(const mr_stepper *s, double *dst, const double *src, int k) {
  for (int f = 0; f < DG_NFIELDS; ++f) {
    const size_t o = (size_t)f * s->K * s->Np + (size_t)k * s->Np;
    memcpy(dst + o, src + o, (size_t)s->Np * sizeof *dst);
  }
}

/* On several ranks: the ghosts' face traces of state from their owners (which hold there
 * the values their own due elements read, dense outputs included). Every rank calls this
 * at the same points of the same sub-step sequence (the levels are global). */
static dg_status exchange(mr_stepper *s, double *state) {
  const dg_trace_exchange *h = &s->halo;
  if (!h->n) return DG_OK;
  double *send = h->send, *recv = h->recv;
  for (size_t b = 0; b < h->n; ++b) send[b] = state[h->send_slot[b]];
  DG_CALL(h->begin(h->ctx));
  DG_CALL(h->end(h->ctx));
  for (size_t b = 0; b < h->n; ++b) state[h->recv_slot[b]] = recv[b];
  return DG_OK;
}

/* ---- the start-up (global LSERK4 at h_0) ----------------------------------------------- */

static dg_status op_startup_begin(void *x) {
  mr_stepper *s = x;
  memset(s->res, 0, s->n * sizeof *s->res);
  if (s->nw) memset(s->wres, 0, s->nw * sizeof *s->wres);
  return DG_OK;
}

static dg_status op_rhs_all(void *x, double t) {
  mr_stepper *s = x;
  DG_CALL(exchange(s, s->q));
  dg_maxwell_rhs_aux(s->phys, t, s->q, NULL, s->w, s->rhs, s->rhs_w);
  if (s->evals) *s->evals += s->Ko;
  return DG_OK;
}

/* hist[back - 1]: f(T - h_l) and f(T - 2 h_l) with head 0 from startup_end on */
static dg_status op_keep_history(void *x, int l, int back) {
  mr_stepper *s = x;
  const int slot = back - 1;
  for (int e = 0; e < s->n_elems[l]; ++e)
    for (int f = 0; f < DG_NFIELDS; ++f)
      memcpy(field_of(s, s->hist[slot], f, s->elems[l][e]),
             field_of(s, s->rhs, f, s->elems[l][e]), (size_t)s->Np * sizeof(double));
  const size_t nP = (size_t)s->phys->pml_K * s->Np;
  for (int e = 0; e < s->n_pml_of[l]; ++e)
    for (int a = 0; a < DG_PML_AUX; ++a) {
      const size_t o = (size_t)a * nP + (size_t)s->pml_of[l][e] * s->Np;
      memcpy(s->whist[slot] + o, s->rhs_w + o, (size_t)s->Np * sizeof(double));
    }
  return DG_OK;
}

static dg_status op_update_all(void *x, double a, double h, double b) {
  mr_stepper *s = x;
  for (size_t i = 0; i < s->n; ++i) {
    s->res[i] = a * s->res[i] + h * s->rhs[i];
    s->q[i] += b * s->res[i];
  }
  for (size_t i = 0; i < s->nw; ++i) {
    s->wres[i] = a * s->wres[i] + h * s->rhs_w[i];
    s->w[i] += b * s->wres[i];
  }
  return DG_OK;
}

static dg_status op_startup_end(void *x) {
  mr_stepper *s = x;
  for (int l = 0; l < s->clk.L; ++l) s->head[l] = 0;
  memcpy(s->qe, s->q, s->n * sizeof *s->qe);
  return DG_OK;
}

/* ---- the synchronous evaluation and AB3 ------------------------------------------------ */

static dg_status op_dense_borders(void *x, int d, int m, double h0) {
  mr_stepper *s = x;
  for (int e = 0; e < s->n_border[d]; ++e) {
    const int k = s->border[d][e], l = s->level[k], span = 1 << l;
    double c[3];
    dg_mr_ab3_weights((double)(m % span) / span, c);
    ab_combine(s, l, k, h0 * span, c, s->qe);
  }
  return DG_OK;
}

static dg_status op_evaluate(void *x, int d, int m, double t) {
  mr_stepper *s = x;
  (void)m;
  DG_CALL(exchange(s, s->qe));
  for (int l = 0; l <= d; ++l) {
    s->head[l] = (s->head[l] + 2) % 3;
    dg_maxwell_rhs_elems_aux(s->phys, t, s->qe, NULL, s->w, s->hist[s->head[l]],
                             s->nw ? s->whist[s->head[l]] : NULL, s->elems[l], s->n_elems[l],
                             s->pml_of[l], s->n_pml_of[l]);
    if (s->evals) *s->evals += s->n_elems[l];
  }
  return DG_OK;
}

static dg_status op_ab3_complete(void *x, int d, double h0) {
  static const double full[3] = {23.0 / 12, -16.0 / 12, 5.0 / 12};
  mr_stepper *s = x;
  for (int l = 0; l <= d; ++l) {
    const double h = h0 * (double)(1 << l);
    for (int e = 0; e < s->n_elems[l]; ++e) {
      const int k = s->elems[l][e];
      ab_combine(s, l, k, h, full, s->q);
      copy_elem(s, s->qe, s->q, k);
    }
    for (int e = 0; e < s->n_pml_of[l]; ++e) aux_combine(s, l, s->pml_of[l][e], h, full);
  }
  return DG_OK;
}

/* ---- multirate LSERK4 ------------------------------------------------------------------ */

/* Point p of element k's trajectory of states (q) or right-hand sides (f), packed. */
static double *traj_at(const mr_stepper *s, int q, int k, int p) {
  return (q ? s->traj_q + s->tq_at[k] : s->traj_f + s->tf_at[k]) +
         (size_t)p * DG_NFIELDS * s->Np;
}

static void pack_elem(const mr_stepper *s, double *dst, const double *src, int k) {
  for (int f = 0; f < DG_NFIELDS; ++f)
    memcpy(dst + (size_t)f * s->Np, src + (size_t)f * s->K * s->Np + (size_t)k * s->Np,
           (size_t)s->Np * sizeof *dst);
}

static dg_status op_rk_start(void *x, int d) {
  mr_stepper *s = x;
  for (int l = 0; l <= d; ++l)
    for (int e = 0; e < s->n_elems[l]; ++e) {
      copy_elem(s, s->qe, s->q, s->elems[l][e]);
      copy_elem(s, s->qs, s->q, s->elems[l][e]);
    }
  return DG_OK;
}

/* The due levels' trajectory points: the state at the start of a coarser neighbour's step,
 * and f at this step point, packed. */
static dg_status op_rk_traj_start(void *x, int d, int m) {
  mr_stepper *s = x;
  for (int l = 0; l <= d; ++l)
    for (int e = 0; e < s->n_elems[l]; ++e) {
      const int k = s->elems[l][e];
      if (s->tq_at[k] < 0) continue;
      const int span = 1 << s->top[k];
      if (m % span == 0) pack_elem(s, traj_at(s, 1, k, 0), s->q, k);
      pack_elem(s, traj_at(s, 0, k, (m % span) >> l), s->hist[s->head[l]], k);
    }
  return DG_OK;
}

/* The stage update of level l; qe = q as the schedule has it (the OpenCL mr_stage does the
 * same): the level's evaluation state is then current until rk_own. */
static dg_status op_rk_update(void *x, int l, int history, double a, double h, double b) {
  mr_stepper *s = x;
  const double *F = history ? s->hist[s->head[l]] : s->rhs;
  const double *W = !history ? s->rhs_w : s->nw ? s->whist[s->head[l]] : NULL;
  for (int e = 0; e < s->n_elems[l]; ++e)
    for (int f = 0; f < DG_NFIELDS; ++f) {
      const size_t o = (size_t)f * s->K * s->Np + (size_t)s->elems[l][e] * s->Np;
      for (int i = 0; i < s->Np; ++i) {
        s->res[o + i] = a * s->res[o + i] + h * F[o + i];
        s->q[o + i] += b * s->res[o + i];
        s->qe[o + i] = s->q[o + i];
      }
    }
  const size_t nP = (size_t)s->phys->pml_K * s->Np;
  for (int e = 0; e < s->n_pml_of[l]; ++e)
    for (int c = 0; c < DG_PML_AUX; ++c) {
      const size_t o = (size_t)c * nP + (size_t)s->pml_of[l][e] * s->Np;
      for (int i = 0; i < s->Np; ++i) {
        s->wres[o + i] = a * s->wres[o + i] + h * W[o + i];
        s->w[o + i] += b * s->wres[o + i];
      }
    }
  return DG_OK;
}

static dg_status op_rk_own(void *x, int l) {
  mr_stepper *s = x;
  for (int e = 0; e < s->n_elems[l]; ++e) copy_elem(s, s->qe, s->q, s->elems[l][e]);
  return DG_OK;
}

/* Element k (level j) at sub-time tau, inside the step of level top[k] that starts at tb:
 * the quadratic through its state and f at the step point before tau and its state at the
 * one after (a third-order interpolant), into qe. */
static void traj_eval(mr_stepper *s, int k, int tb, double tau, double h0) {
  const int j = s->level[k], P = 1 << (s->top[k] - j);
  int p = (int)floor((tau - tb) / (1 << j));
  p = p < 0 ? 0 : p > P - 1 ? P - 1 : p;
  const double hj = h0 * (1 << j), x = (tau - tb - (double)p * (1 << j)) * h0, r = x / hj;
  const double *qa = traj_at(s, 1, k, p), *qb = traj_at(s, 1, k, p + 1), *fa = traj_at(s, 0, k, p);
  for (int f = 0; f < DG_NFIELDS; ++f) {
    double *d = s->qe + (size_t)f * s->K * s->Np + (size_t)k * s->Np;
    const size_t o = (size_t)f * s->Np;
    for (int i = 0; i < s->Np; ++i)
      d[i] = qa[o + i] + fa[o + i] * x + (qb[o + i] - qa[o + i] - fa[o + i] * hj) * r * r;
  }
}

static dg_status op_rk_finer(void *x, int l, int T, double tau, double h0) {
  mr_stepper *s = x;
  for (int e = 0; e < s->n_finer[l]; ++e) {
    const int k = s->finer[l][e];
    traj_eval(s, k, (T >> s->top[k]) << s->top[k], tau, h0);
  }
  return DG_OK;
}

static dg_status op_rk_coarser(void *x, int l, int T, double tau, double h0) {
  mr_stepper *s = x;
  for (int e = 0; e < s->n_coarser[l]; ++e) {
    const int k = s->coarser[l][e], lc = s->level[k], tc = (T >> lc) << lc;
    double c[3];
    dg_mr_ab3_weights((tau - tc) / (1 << lc), c);
    ab_combine(s, lc, k, h0 * (1 << lc), c, s->qe);
  }
  return DG_OK;
}

static dg_status op_rk_stage_rhs(void *x, int l, double t) {
  mr_stepper *s = x;
  DG_CALL(exchange(s, s->qe));
  dg_maxwell_rhs_elems_aux(s->phys, t, s->qe, NULL, s->w, s->rhs, s->nw ? s->rhs_w : NULL,
                           s->elems[l], s->n_elems[l], s->pml_of[l], s->n_pml_of[l]);
  if (s->evals) *s->evals += s->n_elems[l];
  return DG_OK;
}

/* Element k has reached sub-time m (its state in q): a trajectory point, the last of the
 * current step of level top[k] when m ends it. */
static dg_status op_rk_traj_end(void *x, int l, int m) {
  mr_stepper *s = x;
  for (int e = 0; e < s->n_elems[l]; ++e) {
    const int k = s->elems[l][e];
    if (s->tq_at[k] < 0) continue;
    const int span = 1 << s->top[k];
    pack_elem(s, traj_at(s, 1, k, m % span ? (m % span) >> l : span >> l), s->q, k);
  }
  return DG_OK;
}

static const dg_mr_ops mr_sched_ops = {
    .startup_begin = op_startup_begin, .rhs_all = op_rhs_all,
    .keep_history = op_keep_history,   .update_all = op_update_all,
    .startup_end = op_startup_end,     .dense_borders = op_dense_borders,
    .evaluate = op_evaluate,           .ab3_complete = op_ab3_complete,
    .rk_start = op_rk_start,           .rk_traj_start = op_rk_traj_start,
    .rk_update = op_rk_update,         .rk_own = op_rk_own,
    .rk_finer = op_rk_finer,           .rk_coarser = op_rk_coarser,
    .rk_stage_rhs = op_rk_stage_rhs,   .rk_traj_end = op_rk_traj_end,
    .macro_end = NULL};

static dg_status mr_step(void *impl, double t, double dt) {
  mr_stepper *s = impl;
  DG_CHECK(dt > 0 && isfinite(dt), DG_ERR_INPUT, "multirate step: dt = %g", dt);
  DG_CALL(dg_mr_schedule_step(&mr_sched_ops, s, &s->clk, t, dt));
  return DG_OK;
}

static dg_status mr_get_state(void *impl, double *q) {
  const mr_stepper *s = impl;
  memcpy(q, s->q, s->n * sizeof *q);
  return DG_OK;
}

static dg_status mr_put_state(void *impl, const double *q) {
  mr_stepper *s = impl;
  memcpy(s->q, q, s->n * sizeof *q);
  memcpy(s->qe, q, s->n * sizeof *q);
  if (s->nw) memset(s->w, 0, s->nw * sizeof *s->w); /* the PML restarts at rest */
  s->clk.started = 0;
  return DG_OK;
}

static dg_status mr_energy(void *impl, double *e) {
  const mr_stepper *s = impl;
  *e = dg_maxwell_energy(s->phys, s->q);
  return DG_OK;
}

static void mr_destroy(void *impl) {
  mr_stepper *s = impl;
  if (!s) return;
  dg_free(&s->level);
  for (int l = 0; l < DG_MR_MAX_LEVELS; ++l) {
    dg_free(&s->elems[l]);
    dg_free(&s->border[l]);
    dg_free(&s->pml_of[l]);
    dg_free(&s->finer[l]);
    dg_free(&s->coarser[l]);
  }
  dg_free(&s->qs);
  dg_free(&s->top);
  dg_free(&s->tq_at);
  dg_free(&s->tf_at);
  dg_free(&s->traj_q);
  dg_free(&s->traj_f);
  dg_free(&s->w);
  dg_free(&s->wres);
  dg_free(&s->rhs_w);
  for (int i = 0; i < 3; ++i) dg_free(&s->whist[i]);
  dg_free(&s->q);
  dg_free(&s->qe);
  for (int i = 0; i < 3; ++i) dg_free(&s->hist[i]);
  dg_free(&s->res);
  dg_free(&s->rhs);
  dg_free(&s);
}

static const dg_stepper_ops mr_ops = {mr_step,   mr_get_state, mr_put_state, NULL,
                                      mr_energy, mr_destroy,   NULL,         NULL};

/* LSERK4: qs, the finer and coarser neighbours of each level, the trajectories. */
static dg_status rk_setup(mr_stepper *s, const dg_mesh *m) {
  const size_t en = DG_NFIELDS * (size_t)s->Np;
  int *mark = NULL;
  dg_status st = DG_OK;
  DG_CALL(DG_ALLOC(s->qs, s->n));
  DG_CALL(DG_ALLOC(s->top, s->K + 1));
  DG_CALL(DG_ALLOC(s->tq_at, s->K + 1));
  DG_CALL(DG_ALLOC(s->tf_at, s->K + 1));
  DG_CALL(DG_ALLOC(mark, (size_t)s->K * s->clk.L + 1));
  for (int l = 0; l < s->clk.L; ++l) {
    DG_CALL_GOTO(done, DG_ALLOC(s->finer[l], s->Ko + 1));
    DG_CALL_GOTO(done, DG_ALLOC(s->coarser[l], s->Ko + 1));
  }
  size_t nq = 0, nf = 0;
  for (int k = 0; k < s->Ko; ++k) {
    const int lk = s->level[k];
    s->top[k] = lk;
    for (int f = 0; f < 4; ++f) {
      const int j = m->EToE[4 * k + f], lj = s->level[j]; /* j may be a ghost */
      if (lj == lk || mark[(size_t)k * s->clk.L + lj]) continue;
      mark[(size_t)k * s->clk.L + lj] = 1;
      if (lj > lk) s->finer[lj][s->n_finer[lj]++] = k;
      else s->coarser[lj][s->n_coarser[lj]++] = k;
      if (lj > s->top[k]) s->top[k] = lj;
    }
    s->tq_at[k] = s->tf_at[k] = -1;
    if (s->top[k] > lk) {
      const size_t P = (size_t)1 << (s->top[k] - lk);
      s->tq_at[k] = (long)(nq * en);
      s->tf_at[k] = (long)(nf * en);
      nq += P + 1;
      nf += P;
    }
  }
  DG_CALL_GOTO(done, DG_ALLOC(s->traj_q, nq * en + 1));
  DG_CALL_GOTO(done, DG_ALLOC(s->traj_f, nf * en + 1));
done:
  dg_free(&mark);
  return st;
}

dg_status dg_multirate_refuse_curved(int n_curved) {
  DG_CHECK(n_curved == 0, DG_ERR_UNSUPPORTED,
           "multirate time stepping does not handle curved elements yet, and this mesh has %d "
           "curved (high-order) elements: run it with the global LSERK4 step (no "
           "\"time_stepping\" scheme, or \"scheme\": \"lserk4\"; both backends step curved "
           "elements with it), or mesh it first order",
           n_curved);
  return DG_OK;
}

static dg_status refuse_curved(const dg_geom *g) {
  DG_CALL(dg_multirate_refuse_curved(g->n_curved));
  return DG_OK;
}

dg_status dg_stepper_multirate_create(dg_stepper **out, dg_maxwell *phys, const int *level,
                                      int n_levels, dg_mr_scheme scheme,
                                      const dg_trace_exchange *halo, long long *evals) {
  dg_status st = DG_OK;
  const dg_geom *g = phys->geom;
  const int Ko = g->mesh->K_owned;
  DG_CHECK(n_levels >= 1 && n_levels <= DG_MR_MAX_LEVELS, DG_ERR_INPUT,
           "multirate: %d levels, must be 1..%d", n_levels, DG_MR_MAX_LEVELS);
  DG_CHECK(Ko == g->K || (halo && halo->n), DG_ERR_INPUT,
           "multirate: this rank has ghost elements but no trace exchange");
  DG_CHECK(!phys->disp_K, DG_ERR_UNSUPPORTED, "multirate: %d dispersive elements (Debye, "
           "Drude or Lorentz poles), whose pole states the multirate steppers do not step yet",
           phys->disp_K);
  DG_CALL(refuse_curved(g));
  mr_stepper *s = NULL;
  DG_CALL(DG_ALLOC(s, 1));
  s->phys = phys;
  s->clk.scheme = scheme;
  if (halo) s->halo = *halo;
  s->Ko = Ko;
  s->clk.L = n_levels;
  s->clk.M = 1 << (n_levels - 1);
  s->K = g->K;
  s->Np = g->Np;
  s->n = DG_NFIELDS * (size_t)g->K * g->Np;
  s->evals = evals;
  s->clk.H = -1;
  DG_CALL_GOTO(fail, DG_ALLOC(s->level, g->K));
  for (int k = 0; k < g->K; ++k) {
    DG_CHECK_GOTO(fail, level[k] >= 0 && level[k] < n_levels, DG_ERR_INPUT,
                  "multirate: element %d has level %d, not in 0..%d", k, level[k], n_levels - 1);
    s->level[k] = level[k];
    if (k < Ko) ++s->n_elems[level[k]];
  }
  for (int l = 0; l < n_levels; ++l) {
    DG_CALL_GOTO(fail, DG_ALLOC(s->elems[l], s->n_elems[l] + 1));
    DG_CALL_GOTO(fail, DG_ALLOC(s->border[l], g->K + 1));
    s->n_elems[l] = 0;
  }
  /* Ghosts (k >= Ko) are other ranks' elements: their owners step them; a ghost's level
   * only says whether an owned element next to it needs a dense output. */
  for (int k = 0; k < Ko; ++k) s->elems[level[k]][s->n_elems[level[k]]++] = k;
  for (int d = 0; d + 1 < n_levels; ++d)
    for (int k = 0; k < Ko; ++k) {
      if (level[k] <= d) continue;
      int touches = 0;
      for (int f = 0; f < 4; ++f) touches |= level[g->mesh->EToE[4 * k + f]] <= d;
      if (touches) s->border[d][s->n_border[d]++] = k;
    }
  for (int l = 0; l < n_levels; ++l) DG_CALL_GOTO(fail, DG_ALLOC(s->pml_of[l], phys->pml_K + 1));
  for (int e = 0; e < phys->pml_K; ++e) {
    if (phys->pml_elem[e] >= Ko) continue;
    const int l = level[phys->pml_elem[e]];
    s->pml_of[l][s->n_pml_of[l]++] = e;
  }
  s->nw = dg_maxwell_aux_size(phys);
  if (s->nw) {
    DG_CALL_GOTO(fail, DG_ALLOC(s->w, s->nw));
    DG_CALL_GOTO(fail, DG_ALLOC(s->wres, s->nw));
    DG_CALL_GOTO(fail, DG_ALLOC(s->rhs_w, s->nw));
    for (int i = 0; i < 3; ++i) DG_CALL_GOTO(fail, DG_ALLOC(s->whist[i], s->nw));
  }
  DG_CALL_GOTO(fail, DG_ALLOC(s->q, s->n));
  DG_CALL_GOTO(fail, DG_ALLOC(s->qe, s->n));
  for (int i = 0; i < 3; ++i) DG_CALL_GOTO(fail, DG_ALLOC(s->hist[i], s->n));
  DG_CALL_GOTO(fail, DG_ALLOC(s->res, s->n));
  DG_CALL_GOTO(fail, DG_ALLOC(s->rhs, s->n));
  if (scheme == DG_MR_LSERK4) DG_CALL_GOTO(fail, rk_setup(s, g->mesh));
  DG_CALL(dg_stepper_wrap(out, &mr_ops, s));
  return DG_OK;
fail:
  mr_destroy(s);
  return st;
}

/* Element k's local step (the LSERK4 rule of the element alone, dg_maxwell_dt's terms): the
 * geometric one, and in a PML or conducting element the bound from its decay rate (the
 * largest filter rate beta plus sigma/eps), a decay on the negative real axis: AB3 reaches
 * 6/11 there, so h rate <= DG_MRAB3_PML (about half of it) at h = DG_MRAB3_CFL dt. */
static double local_dt(const dg_maxwell *p, int k, const double *beta, dg_mr_scheme scheme) {
  const dg_geom *g = p->geom;
  const double n1 = g->N + 1.0;
  double fs = 0;
  for (int f = 0; f < 4; ++f) fs = fmax(fs, g->Fscale[4 * k + f]);
  double dt = sqrt(p->eps[k] * p->mu[k]) / (fs * n1 * n1);
  /* The PML's rate and the conductivity's sigma/eps: both decays on the negative real axis */
  const double rate = (beta && beta[k] > 0 ? beta[k] : 0) +
                      (p->sigma[k] > 0 ? p->sigma[k] / p->eps[k] : 0);
  if (rate > 0) /* LSERK4: dg_maxwell_dt's rate dt <= 1 */
    dt = fmin(dt, scheme == DG_MR_AB3 ? DG_MRAB3_PML / DG_MRAB3_CFL / rate : 1 / rate);
  return dt;
}

/* An element and the shift x of the base at which it moves up a level. */
typedef struct {
  double x;
  int k;
} mr_crossing;

static int by_crossing(const void *a, const void *b) {
  const double xa = ((const mr_crossing *)a)->x, xb = ((const mr_crossing *)b)->x;
  return (xa > xb) - (xa < xb);
}

/* The cost of level counts n[0..L) per unit of simulated time, in element evaluations per
 * LSERK4 stage times the base step b: sum_l n_l 2^-l over the elements and omega 2^-l for
 * each level that has elements, after lowering each level onto the next finer level with
 * elements where its stages cost more than the extra evaluations, n_l (2^-j - 2^-l) <
 * omega 2^-l (j that finer level; level by level from the finest). into[l]: the level that
 * level l's elements step on. omega = 0 lowers nothing. */
static double lowered_cost(const long long *n, int L, double omega, int *into) {
  double c = 0;
  int j = -1; /* the finest level kept so far */
  for (int l = 0; l < L; ++l) {
    into[l] = l;
    if (!n[l]) continue;
    const double el = ldexp((double)n[l], -l);
    if (j >= 0 && ldexp((double)n[l], -j) - el < omega * ldexp(1.0, -l)) {
      into[l] = j;
      c += ldexp((double)n[l], -j);
      continue;
    }
    j = l;
    c += el + omega * ldexp(1.0, -l);
  }
  return c;
}

dg_status dg_multirate_levels(const dg_maxwell *p, dg_mr_scheme scheme, int max_levels,
                              double omega, int *level, dg_mr_plan *plan) {
  const dg_geom *g = p->geom;
  dg_status st = DG_OK;
  double *beta = NULL, *u = NULL;
  mr_crossing *order = NULL;
  DG_CHECK(max_levels >= 1 && max_levels <= DG_MR_MAX_LEVELS, DG_ERR_INPUT,
           "multirate: max_levels must be 1..%d, got %d", DG_MR_MAX_LEVELS, max_levels);
  DG_CHECK(omega >= 0 && isfinite(omega), DG_ERR_INPUT,
           "multirate: the cost of a stage must be >= 0 element evaluations, got %g", omega);
  DG_CHECK(!p->disp_K, DG_ERR_UNSUPPORTED, "multirate: %d dispersive elements (Debye, Drude "
           "or Lorentz poles), whose pole states the multirate steppers do not step yet",
           p->disp_K);
  DG_CALL(refuse_curved(g));
  memset(plan, 0, sizeof *plan);
  plan->scheme = scheme;
  if (p->pml_K) { /* each PML element's largest beta (dg/pml.h) */
    DG_CALL(DG_ALLOC(beta, g->K + 1));
    for (int e = 0; e < p->pml_K; ++e) beta[p->pml_elem[e]] = p->pml_beta[e];
  }
  double lo = INFINITY, hi = 0;
  DG_CALL_GOTO(done, DG_ALLOC(u, g->K + 1));
  DG_CALL_GOTO(done, DG_ALLOC(order, g->K + 1));
  for (int k = 0; k < g->K; ++k) {
    const double dt = local_dt(p, k, beta, scheme);
    DG_CHECK_GOTO(done, isfinite(dt) && dt > 0, DG_ERR_INPUT,
                  "multirate: element %d has local step %g", k, dt);
    lo = fmin(lo, dt);
    hi = fmax(hi, dt);
    u[k] = dt;
  }
  /* The base b = lo 2^-x, x in [0, 1): element k is on level floor(u_k + x) (capped),
   * u_k = log2(dt_k / lo). The cost 2^x lowered_cost(counts) / lo grows with x between the
   * points where some element moves up a level (x = 1 - frac(u_k)), so the best x is 0 or
   * one of those: a sweep over them in increasing order, the level counts kept as it goes. */
  for (int k = 0; k < g->K; ++k) {
    /* a tiny margin so elements exactly 2^l times the smallest land on level l */
    u[k] = log2(u[k] / lo) + 1e-12;
    order[k].k = k;
    order[k].x = 1 - (u[k] - floor(u[k]));
  }
  const int top = max_levels - 1;
  long long count[DG_MR_MAX_LEVELS] = {0};
  int into[DG_MR_MAX_LEVELS];
  for (int k = 0; k < g->K; ++k) ++count[(int)fmin(floor(u[k]), top)];
  qsort(order, (size_t)g->K, sizeof *order, by_crossing);
  double best = lowered_cost(count, max_levels, omega, into), best_x = 0;
  for (int i = 0; i < g->K; ++i) {
    const int k = order[i].k;
    const double fr = u[k] - floor(u[k]);
    if (fr <= 1e-9 || floor(u[k]) >= top) continue; /* on a power of two, or capped */
    const double x = 1 - fr;
    --count[(int)floor(u[k])], ++count[(int)floor(u[k]) + 1];
    /* the plan at x moves every element crossing there: cost it once they all have */
    if (i + 1 < g->K && order[i + 1].x == order[i].x) continue;
    const double c = lowered_cost(count, max_levels, omega, into) * exp2(x);
    if (c < best * (1 - 1e-9)) best = c, best_x = x;
  }
  memset(count, 0, sizeof count);
  for (int k = 0; k < g->K; ++k) {
    const int l = (int)fmin(floor(u[k] + best_x), top);
    level[k] = l;
    ++count[l];
  }
  (void)lowered_cost(count, max_levels, omega, into);
  for (int k = 0; k < g->K; ++k) {
    const int l = into[level[k]];
    level[k] = l;
    ++plan->count[l];
    if (l + 1 > plan->n_levels) plan->n_levels = l + 1;
  }
  /* the coarser elements next to each level (each counted once per finer level it touches) */
  for (int k = 0; k < g->mesh->K_owned; ++k) {
    int touched = 0; /* bit l: k touches level l */
    for (int f = 0; f < 4; ++f) touched |= 1 << level[g->mesh->EToE[4 * k + f]];
    for (int l = 0; l < level[k]; ++l) plan->border[l] += (touched >> l) & 1;
  }
  plan->dt_smallest = lo;
  lo = lo * exp2(-best_x);
  plan->dt_min = lo;
  plan->dt_ratio = g->K ? hi / plan->dt_smallest : 1;
done:
  dg_free(&beta);
  dg_free(&u);
  dg_free(&order);
  return st;
}

double dg_multirate_macro_dt(const dg_mr_plan *plan, double cfl) {
  const double rule = plan->scheme == DG_MR_AB3 ? DG_MRAB3_CFL : 1.0;
  return cfl * rule * plan->dt_min * (double)(1 << (plan->n_levels - 1));
}

double dg_multirate_predicted_gain(const dg_mr_plan *plan, double cfl, double dt_global,
                                   double omega, double beta) {
  const double h0 = cfl * plan->dt_min, S = DG_LSERK_STAGES;
  double K = 0, e_mr = 0, s_mr = 0;
  for (int l = 0; l < plan->n_levels; ++l) {
    if (!plan->count[l]) continue;
    const double h = ldexp(h0, l);
    K += plan->count[l];
    e_mr += S * (plan->count[l] + beta * plan->border[l]) / h;
    s_mr += S / h;
  }
  const double e_g = S * K / dt_global, s_g = S / dt_global;
  return e_mr + omega * s_mr > 0 ? (e_g + omega * s_g) / (e_mr + omega * s_mr) : 1;
}

double dg_multirate_evals_per_time(const dg_mr_plan *plan, double H) {
  double per_macro = 0;
  for (int l = 0; l < plan->n_levels; ++l)
    per_macro += (double)plan->count[l] * (double)(1 << (plan->n_levels - 1 - l));
  return per_macro / H;
}

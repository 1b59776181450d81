/* cl_maxwell_stage.c: running the OpenCL operator: one RK stage over all elements or a range
 * of element groups as a sequence over the operator (term_maxwell.c) and its terms
 * (cl_term.h): every term's begin; the halo exchange starts; the operator's volume part; the
 * exchange ends; every term's traces; the operator's fluxes; every term's before_res; the
 * operator's lift (or fused kernel) and update; every term's after. And the calls built on
 * it (right-hand sides, steps, timing, energy). */
#include <stdio.h>
#include <string.h>

#include "backend/cl_maxwell_impl.h"
#include "dg/lserk.h"

dg_status dg_clm_run_terms(dg_cl_maxwell *op, dg_clm_hook h, const dg_clm_stage *s) {
  for (int i = 0; i < DG_CLM_TERMS; ++i) {
    const dg_clm_term *term = dg_clm_terms[i];
    if (!op->term[i]) continue;
    dg_status (*f)(dg_cl_maxwell *, const dg_clm_stage *) =
        h == DG_CLM_BEGIN ? term->begin
        : h == DG_CLM_TRACES ? term->traces
        : h == DG_CLM_BEFORE_RES ? term->before_res
                                 : term->after;
    if (f) DG_CALL(f(op, s));
  }
  return DG_OK;
}

/* Point the right-hand side at r (the fields) and wr (the terms' auxiliary fields; NULL:
 * each term's own residual). */
static dg_status set_result(dg_cl_maxwell *op, cl_mem r, cl_mem wr) {
  DG_CALL(dg_clm_maxwell_result(op, r));
  for (int i = 0; i < DG_CLM_TERMS; ++i)
    if (op->term[i] && dg_clm_terms[i]->result) DG_CALL(dg_clm_terms[i]->result(op, r, wr));
  return DG_OK;
}

/* One RK stage at time ts over the element slots [s0, s1) (whole groups, or 0..Kpad: all of
 * them): rhs from q, then (if update) res = a res + dt rhs, q += b res. Without update the
 * result is in rhs, except for lift=fused-update and fuse=res|step, which then run with
 * (a, dt, b) = (0, 1, 0) and leave the result in res. The volume, flux and lift kernels, the
 * PML and the point sources act on the range only; the rest (CLBlast path, update) on
 * everything, which leaves the range's result as it would be. out (update = 0, kernels path
 * only): the right-hand side goes into out rather than rhs/res, and with a PML dw/dt into
 * wout; nothing outside the range is written there. */
static dg_status run_stage_range(dg_cl_maxwell *op, double ts, double a, double dt, double b,
                                 int update, int s0, int s1, cl_mem out, cl_mem wout,
                                 dg_cl_stage_timing *t) {
  const dg_variant *v = &op->v;
  if (s1 <= s0) { /* nothing to evaluate here, but the neighbour ranks exchange with this one */
    DG_CALL(dg_clm_halo_begin(op));
    DG_CALL(dg_clm_halo_end(op));
    return DG_OK;
  }
  DG_CHECK(!out || (!update && v->path == DG_PATH_KERNELS && (wout || !op->terms.pml)),
           DG_ERR_INTERNAL, "stage result buffer: the right-hand side alone, kernels path");
  dg_clm_stage s = {.ts = ts, .a = a, .dt = dt, .b = b, .update = update, .s0 = s0, .s1 = s1,
                    .part = s0 != 0 || s1 != op->Kpad, .t = t};
  s.b0 = (size_t)s0 / (size_t)op->VL, s.nb = (size_t)(s1 - s0) / (size_t)op->VL;
  s.fuse_res = v->path == DG_PATH_KERNELS && (v->fuse == DG_FUSE_RES || v->fuse == DG_FUSE_STEP);
  s.qin = s.qout = op->q_live;
  if (dg_clm_ping_pong(op) && update) s.qout = dg_clm_maxwell_next_q(op);
  /* fused_update: the stage's result goes to res = a res + dt rhs (and q is updated) */
  s.fused_update = dg_clm_result_in_res(op);
  s.R = out ? out : s.fused_update ? op->d_res : op->d_rhs;
  if (out) DG_CALL(set_result(op, out, wout));
  if (t) memset(t, 0, sizeof *t);
  DG_CALL(dg_clm_run_terms(op, DG_CLM_BEGIN, &s));
  DG_CALL(dg_clm_halo_bind(op, s.qin));
  DG_CALL(dg_clm_halo_begin(op));
  DG_CALL(dg_clm_maxwell_rhs_begin(op, &s));
  DG_CALL(dg_clm_halo_end(op));
  DG_CALL(dg_clm_run_terms(op, DG_CLM_TRACES, &s));
  DG_CALL(dg_clm_maxwell_rhs_faces(op, &s));
  DG_CALL(dg_clm_run_terms(op, DG_CLM_BEFORE_RES, &s));
  DG_CALL(dg_clm_maxwell_rhs_end(op, &s));
  DG_CALL(dg_clm_maxwell_update(op, &s));
  DG_CALL(dg_clm_run_terms(op, DG_CLM_AFTER, &s));
  if (s.qout != s.qin) op->ping = (op->ping + 1) % DG_LSERK_STAGES;
  op->q_live = s.qout;
  if (out) DG_CALL(set_result(op, s.fused_update ? op->d_res : op->d_rhs, NULL));
  return DG_OK;
}

static dg_status run_stage(dg_cl_maxwell *op, double ts, double a, double dt, double b,
                           int update, dg_cl_stage_timing *t) {
  DG_CALL(run_stage_range(op, ts, a, dt, b, update, 0, op->Kpad, NULL, NULL, t));
  return DG_OK;
}

dg_status dg_cl_maxwell_rhs(dg_cl_maxwell *op, double t, const double *q, double *rhs) {
  DG_CALL(dg_cl_maxwell_rhs_aux(op, t, q, NULL, rhs, NULL));
  return DG_OK;
}

dg_status dg_cl_maxwell_rhs_aux(dg_cl_maxwell *op, double t, const double *q, const double *w,
                                double *rhs, double *rhs_w) {
  DG_CALL(dg_cl_maxwell_set_state(op, q));
  DG_CALL(dg_clm_put_aux(op, w));
  DG_CALL(run_stage(op, t, 0, 1, 0, 0, NULL));
  DG_CALL(dg_clm_download(op, dg_clm_result_in_res(op) ? op->d_res : op->d_rhs, rhs));
  /* the stage ran with (a, dt, b) = (0, 1, 0): wres = dw/dt */
  if (rhs_w) DG_CALL(dg_clm_read_aux(op, 1, rhs_w));
  return DG_OK;
}

dg_status dg_cl_maxwell_step(dg_cl_maxwell *op, double t, double dt) {
  for (int s = 0; s < DG_LSERK_STAGES; ++s)
    DG_CALL(run_stage(op, t + dg_lserk_c[s] * dt, dg_lserk_a[s], dt, dg_lserk_b[s], 1, NULL));
  DG_CALL(dg_clm_maxwell_q_home(op)); /* fuse=step: q is home already */
  return DG_OK;
}

dg_status dg_cl_maxwell_rhs_group(dg_cl_maxwell *op, double t, int g, cl_mem *result,
                                   dg_cl_stage_timing *tm) {
  DG_CALL(dg_cl_maxwell_rhs_groups(op, t, g, g + 1, result, tm));
  return DG_OK;
}

dg_status dg_cl_maxwell_rhs_groups(dg_cl_maxwell *op, double t, int g0, int g1, cl_mem *result,
                                   dg_cl_stage_timing *tm) {
  const int ng = op->n_groups ? op->n_groups : 1;
  DG_CHECK(g0 >= 0 && g0 < g1 && g1 <= ng, DG_ERR_INPUT,
           "OpenCL operator: no element groups %d..%d", g0, g1 - 1);
  const int s0 = op->n_groups ? op->gfirst[g0] : 0, s1 = op->n_groups ? op->gfirst[g1] : op->Kpad;
  DG_CALL(run_stage_range(op, t, 0, 1, 0, 0, s0, s1, NULL, NULL, tm));
  *result = dg_clm_result_in_res(op) ? op->d_res : op->d_rhs;
  return DG_OK;
}

dg_status dg_cl_maxwell_rhs_groups_into(dg_cl_maxwell *op, double t, int g0, int g1, cl_mem out,
                                        cl_mem wout) {
  DG_CHECK(op->n_groups && g0 >= 0 && g0 < g1 && g1 <= op->n_groups, DG_ERR_INPUT,
           "OpenCL operator: no element groups %d..%d", g0, g1 - 1);
  DG_CHECK(op->v.path == DG_PATH_KERNELS, DG_ERR_UNSUPPORTED,
           "OpenCL operator: the CLBlast path writes the whole mesh's right-hand side");
  DG_CALL(run_stage_range(op, t, 0, 1, 0, 0, op->gfirst[g0], op->gfirst[g1], out,
                          op->terms.pml ? wout : NULL, NULL));
  return DG_OK;
}

dg_status dg_cl_maxwell_rhs_all(dg_cl_maxwell *op, double t, cl_mem *result) {
  DG_CALL(run_stage(op, t, 0, 1, 0, 0, NULL));
  *result = dg_clm_result_in_res(op) ? op->d_res : op->d_rhs;
  return DG_OK;
}

void dg_cl_maxwell_layout(const dg_cl_maxwell *op, dg_cl_layout *l) {
  l->dev = op->dev;
  l->phys = op->phys;
  l->q = op->d_q;
  l->fs = op->fs;
  l->rs = op->rs;
  l->VL = op->VL;
  l->NP = op->NP;
  l->NPP = op->NPP;
  l->Kpad = op->Kpad;
  l->n_groups = op->n_groups;
  for (int i = 0; i <= op->n_groups; ++i) l->gfirst[i] = op->gfirst[i];
  dg_clm_pml_layout(op, l); /* npn, w, wres, pfirst */
  l->slot = op->slot;
  l->halo = op->halo_n > 0;
}

dg_status dg_cl_maxwell_time_stage(dg_cl_maxwell *op, dg_cl_stage_timing *t) {
  DG_CALL(run_stage(op, 0.0, dg_lserk_a[1], 1e-3, dg_lserk_b[1], 1, t));
  /* fuse=step: untimed (a whole step ends at home, copying nothing) */
  DG_CALL(dg_clm_maxwell_q_home(op));
  return DG_OK;
}

dg_status dg_cl_maxwell_energy(dg_cl_maxwell *op, double *energy) {
  DG_CALL(dg_clm_maxwell_energy(op));
  for (int i = 0; i < DG_CLM_TERMS; ++i) /* the curved elements' energy over energy.cl's */
    if (op->term[i] && dg_clm_terms[i]->energy) DG_CALL(dg_clm_terms[i]->energy(op));
  const int k_owned = op->phys->geom->mesh->K_owned;
  DG_CALL(dg_buffer_read(op->dev, op->d_eout, 0, op->n_eout * op->rs, op->stage));
  double e = 0; /* summed in double, in element order, whatever the operator's precision */
  for (int k = 0; k < k_owned; ++k) e += dg_clm_get(op, op->stage, (size_t)dg_clm_slot(op, k));
  *energy = e;
  return DG_OK;
}

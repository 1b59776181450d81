/* Local time stepping in a run (case key time_stepping.scheme = "multirate"): the rate
 * levels and the macro step (app/setup.c's time step), the multirate stepper
 * (dg/multirate.h), and the work it did against global LSERK4 for the report. */
#include <math.h>

#include "app/run_state.h"
#include "backend/cl_multirate.h"
#include "core/alloc.h"
#include "dg/lserk.h"

dg_status run_multirate_time_step(run_state *s, double *dt_max) {
  const dg_case *c = s->c;
  if (!s->mr_level) { /* one process; on several ranks the whole mesh's, app/setup.c */
    DG_CALL(DG_ALLOC(s->mr_level, s->mesh->K + 1));
    DG_CALL(dg_multirate_levels(s->phys, c->mr_scheme, c->max_levels, s->mr_level, &s->mr_plan));
  }
  *dt_max = dg_multirate_macro_dt(&s->mr_plan, c->cfl);
  return DG_OK;
}

dg_status run_multirate_stepper(run_state *s, dg_run_result *r) {
  dg_trace_exchange h;
  if (s->size > 1) DG_CALL(run_trace_exchange(s, sizeof(double), &h));
  DG_CALL(dg_stepper_multirate_create(&s->stepper, s->phys, s->mr_level, s->mr_plan.n_levels,
                                      s->c->mr_scheme, s->size > 1 ? &h : NULL, &s->rhs_evals));
  snprintf(r->variant, sizeof r->variant, "ref");
  r->precision = DG_PREC_DOUBLE;
  return DG_OK;
}

dg_status run_multirate_cl_stepper(run_state *s, dg_cl_maxwell *op) {
  DG_CALL(dg_stepper_cl_multirate_create(&s->stepper, op, s->mr_level, s->mr_plan.n_levels,
                                         s->c->mr_scheme, &s->rhs_evals, NULL));
  return DG_OK;
}

dg_status run_multirate_report(const run_state *s, dg_run_result *r) {
  const double K = s->global->K, T = r->steps * s->dt;
  double dt_lserk = dg_maxwell_dt(s->phys, s->c->cfl);
  r->multirate = s->c->multirate;
  if (!r->multirate) {
    r->rhs_evals = (long long)(K * DG_LSERK_STAGES * r->steps);
    r->rhs_evals_global = (double)r->rhs_evals;
    return DG_OK;
  }
  /* over the ranks: the smallest step, and the evaluations of their owned elements */
  double evals = (double)s->rhs_evals;
  DG_CALL(run_min(s, &dt_lserk));
  DG_CALL(run_sum(s, &evals));
  r->n_levels = s->mr_plan.n_levels;
  for (int l = 0; l < r->n_levels; ++l) r->level_count[l] = s->mr_plan.count[l];
  r->h0 = s->dt / (double)(1 << (r->n_levels - 1));
  r->rhs_evals = (long long)evals;
  r->rhs_evals_global = K * DG_LSERK_STAGES * ceil(T / dt_lserk - 1e-12);
  r->dofs_per_s = r->wall_s > 0 ? 6.0 * s->ref->Np * evals / r->wall_s : 0;
  return DG_OK;
}

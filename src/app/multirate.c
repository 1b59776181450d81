/* Local time stepping in a run (case key time_stepping.scheme = "multirate"): the rate
 * levels and the macro step (app/setup.c's time step), the multirate stepper
 * (dg/multirate.h), and the work it did against global LSERK4 for the report. */
#include <math.h>

#include "app/run_state.h"
#include "backend/cl_multirate.h"
#include "core/alloc.h"
#include "core/log.h"
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

/* Kernel launches of one right-hand side over a range with variant v (cl_maxwell_stage.c):
 * the fused kernel, or volume, flux and lift (flux and lift fused: two), or the CLBlast
 * path's four; the PML's two; a batch of point sources. */
static double launches_per_rhs(const run_state *s, const dg_variant *v) {
  double n = v->path == DG_PATH_CLBLAST ? 4 : v->fuse != DG_FUSE_NONE ? 1
             : v->lift == DG_LIFT_FUSED ? 2 : 3;
  if (s->phys->pml_K) n += 2;
  if (s->phys->n_sources) n += 1;
  return n;
}

/* One launch in element evaluations: a launch costs about as much as the evaluation of
 * DG_LAUNCH_NODES_CPU (GPU) nodes, measured with `dgtd bench --time-stepping` (the wall time
 * beyond the work at global LSERK4's cost over the extra launches): on PoCL (2-core EPYC,
 * N = 2, float) 44.5 us per launch against 0.033 us per node evaluation; on a GPU a launch of
 * about 5 us against ~1e10 node evaluations per second (the H100's stage at N = 1..3). */
#define DG_LAUNCH_NODES_CPU 1350.0
#define DG_LAUNCH_NODES_GPU 50000.0

dg_status run_multirate_lump(run_state *s, const dg_variant *v) {
  const int is_gpu = (s->dev->info.type & CL_DEVICE_TYPE_GPU) != 0;
  const double per_rhs = launches_per_rhs(s, v);
  /* multirate LSERK4: 4 prepares, the last one, 4 right-hand sides, and the synchronous
   * evaluation's prepare, right-hand side and trajectory record; AB3: the completion, the
   * dense output and the right-hand side */
  dg_mr_costs cost = {
      .rho = (is_gpu ? DG_LAUNCH_NODES_GPU : DG_LAUNCH_NODES_CPU) / s->ref->Np,
      .launches = s->c->mr_scheme == DG_MR_LSERK4 ? 7 + 5 * per_rhs : 2 + per_rhs};
  DG_CALL(run_bcast(s, &cost, (int)sizeof cost)); /* every rank lowers the same levels */
  const dg_mr_plan before = s->mr_plan;
  const int lowered = dg_multirate_lump(&s->mr_plan, s->mr_level, s->mesh->K, &cost);
  if (!lowered || s->rank != 0 || s->c->quiet) return DG_OK;
  for (int l = 0; l < before.n_levels; ++l)
    if (before.count[l] && !s->mr_plan.count[l]) {
      int into = l - 1;
      while (into > 0 && !s->mr_plan.count[into]) --into;
      dg_note("multirate: level %d's %d elements step with level %d: on this %s a level step "
              "costs about %.0f launches, more than their extra evaluations",
              l, before.count[l], into, is_gpu ? "GPU" : "device", cost.launches);
    }
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

/* Local time stepping in a run (case key time_stepping.scheme = "multirate"): the rate
 * levels and the macro step (app/setup.c's time step), the choice of time_stepping "auto",
 * and the work the multirate stepper (dg/multirate.h, made by the backend: solver/solver.h)
 * did against global LSERK4 for the report. */
#include <math.h>
#include <string.h>

#include "app/run_state.h"
#include "core/alloc.h"
#include "core/log.h"
#include "dg/lserk.h"

dg_status run_multirate_time_step(run_state *s, double *dt_max) {
  const dg_case *c = s->c;
  if (!s->mr_level) { /* one process; on several ranks the whole mesh's, app/setup.c */
    DG_CALL(DG_ALLOC(s->mr_level, s->mesh->K + 1));
    DG_CALL(dg_multirate_levels(s->phys, c->mr_scheme, c->max_levels, run_stage_overhead(s),
                                s->mr_level, &s->mr_plan));
  }
  *dt_max = dg_multirate_macro_dt(&s->mr_plan, c->cfl);
  return DG_OK;
}

double run_stage_overhead(const run_state *s) {
  const dg_case *c = s->c;
  if (c->stage_cost >= 0) return c->stage_cost;
  dg_solver_options o;
  dg_case_solver_options(c, &o);
  return dg_solver_stage_cost(&o);
}

/* Why time_stepping "auto" cannot take multirate LSERK4 here, or NULL. */
static const char *auto_refusal(const run_state *s) {
  const dg_case *c = s->c;
  if (c->checkpoint_every || c->checkpoint_seconds > 0 || c->restart[0])
    return "the run takes or starts from checkpoints";
  if (s->phys->disp_K) return "the mesh has dispersive elements";
  if (s->global->n_curved) return "the mesh has curved elements";
  const double dt = dg_maxwell_dt(s->phys, c->cfl); /* the time step's own check says why */
  if (!(isfinite(dt) && dt > 0)) return "no finite time step";
  return NULL;
}

dg_status run_auto_choose(run_state *s, int *level) {
  run_auto_pick *p = &s->auto_pick;
  memset(p, 0, sizeof *p);
  p->decided = 1;
  const char *why = auto_refusal(s);
  if (why) {
    snprintf(p->why, sizeof p->why, "%s", why);
    return DG_OK;
  }
  /* what a stage and a coarser neighbour's dense output cost beyond the evaluations (the
   * reference backend: the plain work count) */
  const double omega = run_stage_overhead(s), dt_g = dg_maxwell_dt(s->phys, s->c->cfl);
  dg_solver_options o;
  dg_case_solver_options(s->c, &o);
  const double beta = dg_solver_dense_cost(&o);
  if (dg_multirate_levels(s->phys, DG_MR_LSERK4, s->c->max_levels, omega, level, &s->mr_plan) !=
      DG_OK) { /* global LSERK4 then, whose own checks report what is wrong */
    snprintf(p->why, sizeof p->why, "no rate levels: %s", dg_error_message());
    dg_error_clear();
    return DG_OK;
  }
  p->gain = dg_multirate_predicted_gain(&s->mr_plan, s->c->cfl, dt_g, omega, beta);
  p->work = dg_multirate_predicted_gain(&s->mr_plan, s->c->cfl, dt_g, 0, 0);
  for (int l = 0; l < s->mr_plan.n_levels; ++l) p->occupied += s->mr_plan.count[l] > 0;
  p->multirate = p->occupied >= 2 && p->gain >= DG_AUTO_MIN_GAIN;
  return DG_OK;
}

static void auto_note(const run_state *s) {
  const run_auto_pick *p = &s->auto_pick;
  if (s->rank != 0 || s->c->quiet) return;
  if (s->c->mr_auto == 1 && !p->multirate) return; /* the default, and nothing changes */
  if (p->why[0])
    dg_note("time stepping auto: global LSERK4 (%s)", p->why);
  else if (p->occupied < 2)
    dg_note("time stepping auto: global LSERK4 (every element on one rate level: nothing for "
            "multirate to save)");
  else
    dg_note("time stepping auto: %s (multirate LSERK4 on %d levels: %.2fx less work, predicted "
            "%.2fx %s than global LSERK4%s)", p->multirate ? "multirate LSERK4" : "global LSERK4",
            p->occupied, p->work, p->gain >= 1 ? p->gain : 1 / p->gain,
            p->gain >= 1 ? "faster" : "slower", p->multirate ? "" : "; it takes multirate from 1.2x");
}

dg_status run_time_stepping_auto(run_state *s, dg_case *own, dg_run_result *r) {
  if (!own->mr_auto || own->multirate) return DG_OK;
  own->mr_scheme = DG_MR_LSERK4;
  if (!s->auto_pick.decided) { /* one process: here, with the run's operator */
    DG_CALL(DG_ALLOC(s->mr_level, s->mesh->K + 1));
    DG_CALL(run_auto_choose(s, s->mr_level));
  }
  own->multirate = s->auto_pick.multirate;
  r->auto_gain = s->auto_pick.gain;
  auto_note(s);
  if (!own->multirate) dg_free(&s->mr_level);
  return DG_OK;
}

dg_status run_multirate_report(const run_state *s, dg_run_result *r) {
  const double K = s->global->K, T = r->steps * s->dt;
  double dt_lserk = dg_maxwell_dt(s->phys, s->c->cfl);
  r->multirate = s->c->multirate;
  r->mr_scheme = s->c->mr_scheme;
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

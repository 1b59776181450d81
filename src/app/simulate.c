/* One run, start to end: set up (app/setup.c), step (dg/stepper.h), write and check as it
 * goes (app/outputs.c), report. The parts on several MPI ranks are in app/parallel.c. */
#include "app/simulate.h"

#include <math.h>
#include <string.h>

#include "app/run_state.h"
#include "core/clock.h"
#include "dg/lserk.h"

/* The figures of the run into r, once it has stepped. */
static dg_status report(run_state *s, dg_run_result *r) {
  const dg_case *c = s->c;
  r->steps = s->steps - s->first_step;
  DG_CALL(run_max(s, &r->wall_s)); /* the slowest rank's time */
  r->dofs_per_s = r->wall_s > 0 ? (double)r->dofs * DG_LSERK_STAGES * r->steps / r->wall_s : 0;
  r->programs_built = s->binaries.misses;
  r->programs_loaded = s->binaries.loads;
  if (s->xchg) {
    r->exchange_wait_s = s->xchg->wait_s;
    r->exchange_s = s->xchg->exchange_s;
    r->exchanges = s->xchg->count;
  }
  if (!c->has_cavity_mode) return DG_OK;
  double err = 0, norm = 0;
  DG_CALL(dg_maxwell_l2_error(s->geom, s->q, dg_cavity_mode_eval, &s->mode, s->t, &err, &norm));
  err *= err;
  norm *= norm;
  DG_CALL(run_sum(s, &err));
  DG_CALL(run_sum(s, &norm));
  r->l2_error = sqrt(err);
  r->l2_rel_error = norm > 0 ? r->l2_error / sqrt(norm) : r->l2_error;
  r->has_error = 1;
  return DG_OK;
}

/* What is known before stepping. */
static void describe(const run_state *s, dg_run_result *r) {
  r->K = s->global->K, r->N = s->ref->N, r->Np = s->ref->Np;
  r->dofs = 6LL * s->global->K * s->ref->Np;
  r->dt = s->dt;
  r->final_time = s->steps * s->dt;
  r->first_step = s->first_step;
  r->energy_start = s->energy0;
  if (s->c->has_cavity_mode) {
    r->omega = s->mode.omega;
    memcpy(r->mode, s->c->mode, sizeof r->mode);
    r->amp[0] = s->mode.A, r->amp[1] = s->mode.B, r->amp[2] = s->mode.C;
  }
}

dg_status dg_run(const dg_case *c, dg_run_result *r) {
  dg_status st = DG_OK;
  run_state s;
  memset(&s, 0, sizeof s);
  memset(r, 0, sizeof *r);
  s.c = c;
  DG_CHECK(c->cfl > 0, DG_ERR_INPUT, "the CFL factor must be positive, got %g", c->cfl);
  DG_CHECK(c->steps > 0 || c->final_time > 0, DG_ERR_INPUT, "the final time must be positive, got %g",
           c->final_time);
  DG_CALL(run_mpi_init(&s));
  r->nranks = s.size;
  r->rank = s.rank;

  DG_CALL_GOTO(done, run_setup_problem(&s, r));
  DG_CALL_GOTO(done, run_setup_time_step(&s));
  if (c->restart[0]) DG_CALL_GOTO(done, run_read_restart(&s));
  DG_CALL_GOTO(done, run_energy(&s, &s.energy0));
  s.energy_ref = s.energy0;
  describe(&s, r);
  DG_CALL_GOTO(done, run_start_stepper(&s, r));
  DG_CALL_GOTO(done, run_outputs_open(&s));

  s.t0_wall = s.last_checkpoint = dg_now_s();
  for (int step = s.first_step; step < s.steps; ++step) {
    DG_CALL_GOTO(done, dg_stepper_step(s.stepper, s.t, s.dt));
    s.t = (step + 1) * s.dt;
    DG_CALL_GOTO(done, run_outputs_step(&s, r, step + 1));
    run_progress(&s, step + 1);
  }
  DG_CALL_GOTO(done, dg_stepper_finish(s.stepper));
  r->wall_s = dg_now_s() - s.t0_wall;
  DG_CALL_GOTO(done, run_outputs_close(&s, r));
  DG_CALL_GOTO(done, report(&s, r));
done:
  run_state_free(&s);
  return st;
}

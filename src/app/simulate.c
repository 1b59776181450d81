/* One run, start to end: set up (app/setup.c), step (dg/stepper.h), write and check as it
 * goes (app/outputs.c), report. The parts on several MPI ranks are in app/parallel.c. */
#include "app/simulate.h"

#include <math.h>
#include <signal.h>
#include <string.h>

#include "app/run_state.h"
#include "core/alloc.h"
#include "core/log.h"
#include "core/clock.h"
#include "dg/lserk.h"

/* SIGINT and SIGTERM during the time loop stop it cleanly at the end of the step: the logs
 * are written and the run returns DG_ERR_INTERRUPTED (exit 128 + the signal). A second
 * signal ends the process at once.
 *
 * SIGPIPE (the reader of stderr or stdout went away, e.g. `dgtd run 2>&1 | head -1`) takes
 * the same path, exit 141: the run stops at the end of the step and writes its logs, instead
 * of dying mid-step with none. A repeated SIGPIPE is only the next write to the closed pipe,
 * not a stuck run, so it never kills; from the first one on, writes to the pipe fail with
 * EPIPE, for the rest of the process (the logs are written after the loop). */
static volatile sig_atomic_t stop_signal;
static void on_signal(int sig) {
  if (sig == SIGPIPE) {
    if (!stop_signal) stop_signal = sig;
    return;
  }
  if (stop_signal) { /* a second signal: the run is stuck (e.g. in an MPI wait): die now */
    signal(sig, SIG_DFL);
    raise(sig);
  }
  stop_signal = sig;
}

typedef struct {
  struct sigaction old_int, old_term, old_pipe;
} signal_guard;

static void catch_signals(signal_guard *g) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  stop_signal = 0;
  sigaction(SIGINT, &sa, &g->old_int);
  sigaction(SIGTERM, &sa, &g->old_term);
  sigaction(SIGPIPE, &sa, &g->old_pipe);
}

static void release_signals(const signal_guard *g) {
  sigaction(SIGINT, &g->old_int, NULL);
  sigaction(SIGTERM, &g->old_term, NULL);
  if (stop_signal == SIGPIPE) /* the pipe stays closed: later writes must not kill */
    signal(SIGPIPE, SIG_IGN);
  else
    sigaction(SIGPIPE, &g->old_pipe, NULL);
}

/* The time loop: step, write and check, until the last step or a signal; *step is the last
 * step taken. */
static dg_status step_all(run_state *s, dg_run_result *r, int *step) {
  for (int k = s->first_step; k < s->steps; ++k) {
    DG_CALL(dg_stepper_step(dg_solver_stepper(s->solver), s->t, s->dt));
    *step = k + 1;
    s->t = *step * s->dt;
    DG_CALL(run_outputs_step(s, r, *step));
    DG_CALL(run_progress(s, *step));
    if (s->stopped_early) break; /* stop_energy met: s->steps is this step */
    if (stop_signal) {
      r->signal = stop_signal;
      return DG_ERROR(DG_ERR_INTERRUPTED, "stopped by signal %d%s at step %d (t = %g); the "
                      "logs up to it are written%s", (int)stop_signal,
                      stop_signal == SIGPIPE ? " (SIGPIPE: the reader of the output went away)" : "",
                      *step, s->t,
                      s->c->checkpoint_every || s->c->checkpoint_seconds > 0
                          ? " (restart from the last checkpoint)" : "");
    }
  }
  return DG_OK;
}

/* The figures of the run into r, once it has stepped. */
static dg_status report(run_state *s, dg_run_result *r) {
  const dg_case *c = s->c;
  r->steps = s->steps - s->first_step;
  r->final_time = s->steps * s->dt; /* shortened by stop_energy */
  DG_CALL(run_max(s, &r->wall_s)); /* the slowest rank's time */
  r->dofs_per_s = r->wall_s > 0 ? (double)r->dofs * DG_LSERK_STAGES * r->steps / r->wall_s : 0;
  DG_CALL(run_multirate_report(s, r));
  dg_solver_programs(s->solver, &r->programs_built, &r->programs_loaded);
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
  r->K_curved = s->global->n_curved;
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

/* Everything the run owns, released once at its end. */
static void run_state_free(run_state *s) {
  run_unlock_output_dir(s);
  run_dft_free(s); /* its device sums before the operator and the device */
  dg_solver_destroy(&s->solver); /* the stepper, the operator, the device */
  dg_free(&s->mr_level);
  dg_free(&s->material);
  if (s->global != s->mesh) dg_mesh_destroy(&s->global);
  s->global = NULL;
  dg_free(&s->part);
  dg_dist_mesh_destroy(&s->dist);
  dg_exchange_destroy(&s->xchg);
  dg_free(&s->send_slot);
  dg_free(&s->recv_slot);
  dg_free(&s->probe_ids);
  dg_free(&s->q);
  dg_free(&s->aux_restart);
  dg_probes_destroy(&s->probes);
  dg_series_destroy(&s->probe_log);
  dg_series_destroy(&s->energy_log);
  for (int i = 0; i < s->n_vtu; ++i) dg_free(&s->vtu_files[i]);
  dg_free(&s->vtu_files);
  dg_free(&s->vtu_t);
  dg_maxwell_destroy(&s->phys);
  dg_geom_destroy(&s->geom);
  dg_refel_destroy(&s->ref);
  dg_mesh_destroy(&s->mesh);
}

dg_status dg_run(const dg_case *given, dg_run_result *r) {
  dg_status st = DG_OK;
  run_state s;
  memset(&s, 0, sizeof s);
  memset(r, 0, sizeof *r);
  /* the run's copy (shallow: it shares and never frees the case's arrays), whose time
   * stepping "auto" resolves */
  dg_case own = *given;
  const dg_case *c = &own;
  s.c = c;
  DG_CHECK(c->cfl > 0, DG_ERR_INPUT, "the CFL factor must be positive, got %g", c->cfl);
  DG_CHECK(c->steps > 0 || c->final_time > 0, DG_ERR_INPUT, "the final time must be positive, got %g",
           c->final_time);
  DG_CALL(run_mpi_init(&s));
  r->nranks = s.size;
  r->rank = s.rank;
  DG_CALL(run_check_output_dir(&s));

  DG_CALL_GOTO(done, run_setup_problem(&s, r));
  DG_CALL_GOTO(done, run_time_stepping_auto(&s, &own, r));
  DG_CALL_GOTO(done, run_setup_time_step(&s));
  DG_CALL_GOTO(done, run_dft_check(&s));
  if (c->restart[0]) DG_CALL_GOTO(done, run_read_restart(&s));
  DG_CALL_GOTO(done, run_energy(&s, &s.energy0));
  s.energy_ref = s.energy_peak = s.energy0;
  describe(&s, r);
  DG_CALL_GOTO(done, run_start_stepper(&s, r));
  DG_CALL_GOTO(done, run_dft_setup(&s, r));
  DG_CALL_GOTO(done, run_outputs_open(&s, r));

  s.t0_wall = s.last_checkpoint = dg_now_s();
  signal_guard guard;
  catch_signals(&guard);
  int step = s.first_step;
  if (c->profile) r->profiled = dg_solver_profile(s.solver, &r->kernels);
  if (c->profile && !r->profiled && s.rank == 0) /* said, not silently ignored */
    dg_warn("%s: --profile has no effect with the %s backend (it launches no device kernels "
            "to time); run with --backend opencl to profile", c->source,
            dg_backend_name(c->backend));
  st = step_all(&s, r, &step);
  (void)dg_solver_profile(s.solver, NULL);
  release_signals(&guard);
  if (st != DG_OK) {
    run_outputs_abort(&s, st, step);
    goto done;
  }
  DG_CALL_GOTO(done, dg_stepper_finish(dg_solver_stepper(s.solver)));
  r->wall_s = dg_now_s() - s.t0_wall;
  DG_CALL_GOTO(done, run_outputs_close(&s, r));
  DG_CALL_GOTO(done, run_far_field(&s, r));
  DG_CALL_GOTO(done, report(&s, r));
done:
  run_state_free(&s);
  return st;
}

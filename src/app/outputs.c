/* What a run writes and checks while it steps: probes.csv and energy.csv (rank 0), VTU
 * snapshots with their .pvd (or .pvtu pieces), checkpoints and the restart from one, the
 * blow-up check, and the progress line. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "app/problem_hash.h"
#include "app/run_state.h"
#include "core/alloc.h"
#include "core/clock.h"
#include "core/files.h"
#include "core/log.h"
#include "core/version.h"
#include "dg/lserk.h"
#include "io/checkpoint.h"
#include "io/vtu.h"

/* Whether a pulse is over at t: past its peak (until then it is on even where it is still
 * tiny: a Gaussian delayed by 1.5/f0 starts at 2e-10 of its amplitude) and below 1e-6 of
 * its amplitude (a modulated Gaussian passes through zero at every half period: its
 * envelope decides); a harmonic source never is. */
static int pulse_over(const dg_pulse *g, double t) {
  if (g->shape == DG_PULSE_HARMONIC || t <= g->t0) return 0;
  if (g->shape == DG_PULSE_MODULATED_GAUSSIAN) {
    const double e = dg_pulse_envelope_rate(g) * (t - g->t0);
    return exp(-e * e) <= 1e-6;
  }
  return fabs(dg_pulse_eval(g, t)) <= 1e-6 * fabs(g->amplitude);
}

/* Is any source still on at time t (pulse above 1e-6 of its amplitude)? */
static int sources_active(const run_state *s, double t) {
  const dg_case *c = s->c;
  for (int i = 0; i < c->n_dipoles; ++i)
    if (!pulse_over(&c->dipoles[i].pulse, t)) return 1;
  if (c->has_plane_wave) return 1; /* the wave keeps crossing the domain */
  return 0;
}

/* Whether every source is over at t for good (stop_energy): each dipole's pulse, and the
 * plane wave's where it arrives last in the mesh's bounding box (the pulse is g(t) at x0,
 * g(t - k.(x - x0)) at x). */
static int sources_over(const run_state *s, double t) {
  const dg_case *c = s->c;
  for (int i = 0; i < c->n_dipoles; ++i)
    if (!pulse_over(&c->dipoles[i].pulse, t)) return 0;
  if (c->has_plane_wave) {
    const dg_plane_wave *pw = &c->plane_wave;
    double lo[3], hi[3], delay = 0;
    dg_mesh_bbox(s->global, lo, hi);
    for (int corner = 0; corner < 8; ++corner) {
      double d = 0;
      for (int i = 0; i < 3; ++i) d += pw->k[i] * ((corner >> i & 1 ? hi[i] : lo[i]) - pw->x0[i]);
      delay = fmax(delay, d);
    }
    if (!pulse_over(&pw->pulse, t - delay)) return 0;
  }
  return 1;
}

static void out_path(const run_state *s, const char *name, char *buf, size_t cap) {
  buf[0] = '\0';
  strncat(buf, s->c->output_dir, cap - 1);
  strncat(buf, "/", cap - strlen(buf) - 1);
  strncat(buf, name, cap - strlen(buf) - 1);
}

/* Record a snapshot file (name relative to the output directory) for the collection. */
static dg_status add_snapshot(run_state *s, const char *name, double t) {
  double *times = realloc(s->vtu_t, (size_t)(s->n_vtu + 1) * sizeof *times);
  DG_CHECK(times, DG_ERR_MEMORY, "out of memory");
  s->vtu_t = times;
  char **files = realloc(s->vtu_files, (size_t)(s->n_vtu + 1) * sizeof *files);
  DG_CHECK(files, DG_ERR_MEMORY, "out of memory");
  s->vtu_files = files;
  s->vtu_files[s->n_vtu] = strdup(name);
  DG_CHECK(s->vtu_files[s->n_vtu], DG_ERR_MEMORY, "out of memory");
  s->vtu_t[s->n_vtu++] = t;
  return DG_OK;
}

/* fields.pvd: every snapshot so far, with its time (for ParaView). */
static dg_status write_pvd(run_state *s) {
  char path[DG_CASE_PATH + 64];
  out_path(s, "fields.pvd", path, sizeof path);
  DG_CALL(dg_pvd_write(path, s->n_vtu, s->vtu_t, (const char *const *)s->vtu_files));
  return DG_OK;
}

/* What a field snapshot carries beside E and H: each element's region (physical volume
 * tag) and material (its materials[] entry, -1: none) as cell data, the version, and E and
 * H in the run's precision (Float32 for an OpenCL float run) unless output.vtu_precision
 * asks for the other. */
static void snapshot_extra(const run_state *s, dg_vtu_extra *x) {
  const dg_case *c = s->c;
  memset(x, 0, sizeof *x);
  const int run_float = dg_backend_precision(c->backend, c->precision) == DG_PREC_FLOAT;
  x->float32 = c->vtu_precision ? c->vtu_precision == 1 : run_float;
  x->ncell = 2;
  x->cell_names[0] = "region";
  x->cell_values[0] = s->mesh->elem_tag;
  x->cell_names[1] = "material";
  x->cell_values[1] = s->material;
  x->version = "dgtd " DG_VERSION;
}

static dg_status write_vtu(run_state *s, int step, double t) {
  dg_vtu_extra extra;
  snapshot_extra(s, &extra);
  char name[64], path[DG_CASE_PATH + 64];
  snprintf(name, sizeof name, "fields_%06d.vtu", step);
  if (s->size > 1) {
    /* One piece per rank, and a .pvtu that strings them together. */
    char piece[80];
    snprintf(piece, sizeof piece, "fields_%06d_r%d.vtu", step, s->rank);
    out_path(s, piece, path, sizeof path);
    DG_CALL(dg_vtu_write_ex(path, s->geom, s->q, t, s->c->vtu_mode, &extra));
    DG_CALL(run_barrier(s));
    if (s->rank != 0) return DG_OK;
    snprintf(name, sizeof name, "fields_%06d.pvtu", step);
    out_path(s, name, path, sizeof path);
    char **pieces = NULL;
    DG_CALL(DG_ALLOC(pieces, s->size));
    dg_status st = DG_OK;
    for (int i = 0; i < s->size && st == DG_OK; ++i) {
      st = DG_ALLOC(pieces[i], 64);
      if (st == DG_OK) snprintf(pieces[i], 64, "fields_%06d_r%d.vtu", step, i);
    }
    const char *const names[2] = {"E", "H"};
    if (st == DG_OK)
      st = dg_pvtu_write_ex(path, s->size, (const char *const *)pieces, 2, names, &extra);
    for (int i = 0; i < s->size; ++i) dg_free(&pieces[i]);
    dg_free(&pieces);
    DG_CALL(st);
  } else {
    out_path(s, name, path, sizeof path);
    DG_CALL(dg_vtu_write_ex(path, s->geom, s->q, t, s->c->vtu_mode, &extra));
  }
  DG_CALL(add_snapshot(s, name, t));
  DG_CALL(write_pvd(s));
  return DG_OK;
}

/* Blow-up: non-finite values, or energy growing beyond what the sources put in. */
/* energy: over all ranks; it is non-finite when any value of the state is. */
static dg_status check_health(run_state *s, int step, double t, double energy) {
  DG_CHECK(isfinite(energy), DG_ERR_NUMERIC,
           "the solution became non-finite at step %d (t = %g): the time step is too large "
           "(try a smaller --cfl) or a material value is bad", step, t);
  /* While sources act the energy may grow by what they inject: it only sets the reference.
   * So does the first check after they stopped (sources_were_on is set at every step a
   * source is on), which counts what they put in since the last check. */
  if (s->sources_were_on) {
    /* The point sources can raise sqrt(energy) by at most source_growth (the energy
     * identity, dg_maxwell_source_growth): twice that is a blow-up, not the sources (LSERK4
     * unstable because of a conductivity or a large cfl grew it to 1e147 with exit 0). A
     * plane wave's inflow has no such bound here. */
    if (!s->c->has_plane_wave) {
      double growth = s->source_growth;
      DG_CALL(run_sum(s, &growth));
      const double most = 2 * (sqrt(s->energy0) + growth);
      DG_CHECK(sqrt(energy) <= most + 1e-150, DG_ERR_NUMERIC,
               "the energy grew from %.6g to %.6g by step %d (t = %g), more than the sources can "
               "put in (at most %.6g): the time step is too large (try a smaller --cfl) or a "
               "material value is bad", s->energy0, energy, step, t, most * most);
    }
    s->energy_ref = fmax(s->energy_ref, energy);
    s->sources_were_on = sources_active(s, t);
    return DG_OK;
  }
  /* Without active sources the discrete energy can only decrease (upwind) or stay
   * (central); allow rounding in float and generous slack before calling it a blow-up. */
  const double bound = 1.01 * fmax(s->energy_ref, s->energy0) + 1e-30;
  DG_CHECK(energy <= bound, DG_ERR_NUMERIC,
           "the energy grew from %.6g to %.6g by step %d (t = %g) with no source on: the time "
           "step is too large (try a smaller --cfl) or a material value is bad",
           fmax(s->energy_ref, s->energy0), energy, step, t);
  return DG_OK;
}

/* The identity a checkpoint must match: the whole mesh, and which part of it this is. */
static uint64_t checkpoint_hash(const run_state *s) {
  uint64_t h = dg_checkpoint_mesh_hash(s->global);
  if (s->size > 1) h ^= 0x9e3779b97f4a7c15ull * (uint64_t)(s->rank + 1) + (uint64_t)s->size;
  return h;
}

static dg_status write_checkpoint(run_state *s, int step, double t, const char *variant) {
  const dg_case *c = s->c;
  const int single = dg_backend_precision(c->backend, c->precision) == DG_PREC_FLOAT;
  dg_checkpoint_header h;
  memset(&h, 0, sizeof h);
  h.K = s->mesh->K, h.N = s->ref->N, h.Np = s->ref->Np;
  h.precision = single ? 4 : 8;
  h.mesh_hash = checkpoint_hash(s);
  dg_case_problem_hash(c, h.problem);
  snprintf(h.variant, sizeof h.variant, "%s", variant);
  h.step = step, h.time = t, h.dt = s->dt;
  /* A PML's auxiliary fields and the poles' states are state too (their RK residual, like
   * the fields', is dead between steps). */
  h.aux = dg_maxwell_aux_size(s->phys);
  /* LSERK4's first stage has a = 0, so the residual is dead between steps: it is stored
   * as zeros. Float states round-trip exactly through double. */
  void *q = NULL, *res = NULL, *aux = NULL;
  double *w = NULL;
  dg_status st = DG_OK;
  DG_CALL_GOTO(done, dg_calloc(&q, s->n, (size_t)h.precision));
  DG_CALL_GOTO(done, dg_calloc(&res, s->n, (size_t)h.precision));
  for (size_t i = 0; i < s->n; ++i) {
    if (single) ((float *)q)[i] = (float)s->q[i];
    else ((double *)q)[i] = s->q[i];
  }
  if (h.aux) {
    DG_CALL_GOTO(done, DG_ALLOC(w, h.aux));
    DG_CALL_GOTO(done, dg_calloc(&aux, h.aux, (size_t)h.precision));
    DG_CALL_GOTO(done, dg_stepper_get_aux(dg_solver_stepper(s->solver), w));
    for (size_t i = 0; i < h.aux; ++i) {
      if (single) ((float *)aux)[i] = (float)w[i];
      else ((double *)aux)[i] = w[i];
    }
  }
  char name[DG_CASE_PATH + 32], path[DG_CASE_PATH + 48];
  out_path(s, "checkpoint.chk", name, sizeof name);
  run_rank_path(s, name, path, sizeof path);
  /* The logs first: a kill between the two leaves logs ahead of the checkpoint, which a
   * restart trims, never a checkpoint ahead of its logs. */
  DG_CALL_GOTO(done, run_commit_logs(s));
  DG_CALL_GOTO(done, dg_checkpoint_write_aux(path, &h, q, res, aux));
done:
  dg_free(&q);
  dg_free(&res);
  dg_free(&aux);
  dg_free(&w);
  return st;
}

/* This rank's checkpoint into s (the state, the auxiliary state of a PML and of poles, the
 * first step and time). */
static dg_status read_own_checkpoint(run_state *s, const char *path) {
  const dg_case *c = s->c;
  const int single = dg_backend_precision(c->backend, c->precision) == DG_PREC_FLOAT;
  dg_checkpoint_header want, got;
  memset(&want, 0, sizeof want);
  want.K = s->mesh->K, want.N = s->ref->N, want.Np = s->ref->Np;
  want.precision = single ? 4 : 8;
  want.mesh_hash = checkpoint_hash(s);
  dg_case_problem_hash(c, want.problem);
  want.aux = dg_maxwell_aux_size(s->phys);
  void *q = NULL, *res = NULL, *aux = NULL;
  dg_status st = DG_OK;
  DG_CALL_GOTO(done, dg_calloc(&q, s->n, (size_t)want.precision));
  DG_CALL_GOTO(done, dg_calloc(&res, s->n, (size_t)want.precision));
  if (want.aux) DG_CALL_GOTO(done, dg_calloc(&aux, want.aux, (size_t)want.precision));
  DG_CALL_GOTO(done, dg_checkpoint_read_aux(path, &want, &got, q, res, aux));
  /* A run to another final time has another dt (whole steps land on the final time), but
   * the same problem (its hashes matched above) allows the checkpoint's, which is at most
   * the stable step: the restart keeps it and ends at the first step at or past the final
   * time. A fixed step count (--steps) takes the stable step itself. */
  if (got.dt != s->dt && c->steps == 0 && got.dt > 0 && got.dt <= s->dt_max * (1 + 1e-12)) {
    const double n = ceil(c->final_time / got.dt - 1e-9);
    DG_CHECK_GOTO(done, n <= INT_MAX, DG_ERR_INPUT, "checkpoint %s: final time %g needs %.3g "
                  "steps of its dt %g", path, c->final_time, n, got.dt);
    s->dt = got.dt;
    s->steps = n < 1 ? 1 : (int)n;
  }
  DG_CHECK_GOTO(done, got.dt == s->dt, DG_ERR_INPUT,
                "checkpoint %s was written with dt = %.17g, this run has dt = %.17g (same case "
                "and CFL needed, and a final time rather than a step count)", path, got.dt,
                s->dt);
  DG_CHECK_GOTO(done, got.step <= s->steps, DG_ERR_INPUT,
                "checkpoint %s is at step %lld, past this run's %d steps", path,
                (long long)got.step, s->steps);
  for (size_t i = 0; i < s->n; ++i) s->q[i] = single ? ((float *)q)[i] : ((double *)q)[i];
  if (want.aux) {
    dg_free(&s->aux_restart);
    DG_CALL_GOTO(done, DG_ALLOC(s->aux_restart, want.aux));
    for (size_t i = 0; i < want.aux; ++i)
      s->aux_restart[i] = single ? ((float *)aux)[i] : ((double *)aux)[i];
  }
  s->first_step = (int)got.step;
  s->t = got.time;
done:
  dg_free(&q);
  dg_free(&res);
  dg_free(&aux);
  return st;
}

/* Is path named like one rank's checkpoint, NAME_rR.EXT (run_rank_path)? Then *rank = R and
 * whole = NAME.EXT. */
static int rank_checkpoint_name(const char *path, int *rank, char *whole, size_t cap) {
  const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
  if (!dot || (slash && dot < slash)) return 0;
  const char *d = dot;
  while (d > path && d[-1] >= '0' && d[-1] <= '9') d--;
  if (d == dot || d - path < 2 || d[-1] != 'r' || d[-2] != '_' || (slash && d - 2 <= slash))
    return 0;
  *rank = atoi(d);
  snprintf(whole, cap, "%.*s%s", (int)(d - 2 - path), path, dot);
  return 1;
}

dg_status run_read_restart(run_state *s) {
  char path[DG_CASE_PATH + 48];
  run_rank_path(s, s->c->restart, path, sizeof path);
  dg_status st = read_own_checkpoint(s, path);
  int rank;
  char whole[DG_CASE_PATH + 48];
  if (s->size == 1 && st == DG_ERR_INPUT &&
      rank_checkpoint_name(path, &rank, whole, sizeof whole)) {
    char msg[2048];
    snprintf(msg, sizeof msg, "%s", dg_error_message());
    if (!strstr(msg, "a different mesh")) return st; /* a rank's piece always differs there */
    dg_error_clear();
    return DG_ERROR(DG_ERR_INPUT, "%s. %s looks like the checkpoint of rank %d of a multi-rank "
                    "run (each rank writes NAME_rR.chk for its piece of the mesh): restart on "
                    "the same number of ranks as wrote it, with --restart %s", msg, path, rank,
                    whole);
  }
  if (s->size == 1) return st;
  /* Every rank must restart, and from one step: a rank that went on alone would wait for
   * its neighbours' traces for ever (a kill between two ranks' renames leaves checkpoints of
   * different steps). */
  int failed = st != DG_OK;
  DG_CALL(run_any(s, &failed));
  if (failed)
    return st != DG_OK ? st
                       : DG_ERROR(DG_ERR_INPUT, "--restart: another rank could not read its "
                                                "checkpoint (its message says why); %s was read",
                                  path);
  double lo = s->first_step, hi = s->first_step;
  DG_CALL(run_min(s, &lo));
  DG_CALL(run_max(s, &hi));
  DG_CHECK(lo == hi, DG_ERR_INPUT,
           "--restart: the ranks' checkpoints are of different steps (%.0f and %.0f; this "
           "rank's %s is at step %d): they were not written together (a run stopped between "
           "two ranks' writes?). Restart from a set written at one step, or from the start",
           lo, hi, path, s->first_step);
  return DG_OK;
}

static dg_status record_probes(run_state *s, double t) {
  const int n = s->c->n_probes, mine = s->probes->n;
  double *all = NULL, *vals = NULL;
  dg_status st = DG_OK;
  DG_CALL(DG_ALLOC(all, 6 * n + 1));
  DG_CALL_GOTO(done, DG_ALLOC(vals, 6 * mine + 1));
  dg_probes_eval(s->probes, s->q, vals);
  for (int i = 0; i < mine; ++i) memcpy(all + 6 * s->probe_ids[i], vals + 6 * i, 6 * sizeof(double));
  DG_CALL_GOTO(done, run_gather_sum(s, all, 6 * n));
  if (s->probe_log)
    for (int i = 0; i < n; ++i) {
      double row[8] = {i, t};
      memcpy(row + 2, all + 6 * i, 6 * sizeof(double));
      DG_CALL_GOTO(done, dg_series_append(s->probe_log, row));
    }
done:
  dg_free(&all);
  dg_free(&vals);
  return st;
}


dg_status run_progress(run_state *s, int step) {
  const dg_case *c = s->c;
  if (c->quiet || s->rank != 0) return DG_OK;
  const int tty = isatty(STDERR_FILENO), last_step = s->steps;
  if (step != last_step && dg_now_s() - s->last_print < (tty ? 0.25 : 10.0)) return DG_OK;
  /* A device's steps are only queued: wait for them, so that the rate and the ETA count the
   * steps done (the first line of a run printed 8x its final rate). At most 4 times a
   * second. */
  DG_CALL(dg_stepper_finish(dg_solver_stepper(s->solver)));
  const double now = dg_now_s();
  const int done = step - s->first_step, total = last_step - s->first_step;
  if (s->last_print == 0) { /* the rate counts from here: the first step also compiles */
    s->rate_t0 = now;
    s->rate_done0 = done;
  }
  s->last_print = now;
  const double el = now - s->rate_t0;
  const int n = done - s->rate_done0;
  const int known = n > 0 && el > 0; /* else ETA and rate print as "-" */
  const double eta = known ? el / n * (total - done) : 0;
  const double dofs = 6.0 * s->global->K * s->ref->Np;
  const double rate = known ? dofs * DG_LSERK_STAGES * n / el : 0;
  const double frac = total > 0 ? (double)done / total : 1;
  char eta_s[32] = "-", rate_s[32] = "-";
  if (known) {
    snprintf(eta_s, sizeof eta_s, "%.1fs", eta);
    snprintf(rate_s, sizeof rate_s, "%.3g", rate);
  }
  if (tty) {
    char bar[31];
    const int fill = (int)(30 * frac);
    for (int i = 0; i < 30; ++i) bar[i] = i < fill ? '#' : '.';
    bar[30] = '\0';
    fprintf(stderr, "\r  [%s] %3.0f%%  step %d/%d  t=%-10.4g ETA %7s  %s DOF/s ", bar,
            100 * frac, step, last_step, s->t, eta_s, rate_s);
    if (step == last_step) fputc('\n', stderr);
  } else {
    /* wall: seconds since the first line, on the clock the period and the rate use */
    fprintf(stderr, "  step %d/%d  t=%.4g  %.0f%%  wall %.2fs  ETA %s  %s DOF/s\n", step,
            last_step, s->t, 100 * frac, el, eta_s, rate_s);
  }
  return DG_OK;
}

/* Write the logs' rows so far (each file replaced atomically). */
dg_status run_commit_logs(run_state *s) {
  const double t0 = dg_now_s();
  if (s->probe_log) DG_CALL(dg_series_commit(s->probe_log));
  if (s->energy_log) DG_CALL(dg_series_commit(s->energy_log));
  s->last_commit = dg_now_s();
  s->commit_cost = s->last_commit - t0;
  return DG_OK;
}

/* Logs reach the disk at least every few seconds of wall time, so a kill loses little;
 * at most ~5% of the time goes to rewriting them however long they grow. */
static dg_status commit_logs_if_due(run_state *s) {
  if (!s->probe_log && !s->energy_log) return DG_OK;
  const double period = fmax(2.0, 20 * s->commit_cost);
  if (dg_now_s() - s->last_commit >= period) DG_CALL(run_commit_logs(s));
  return DG_OK;
}

/* The output directory's lock: an exclusive flock on DIR/.dgtd-run.lock, holding the
 * owner's pid (for the message only). The kernel drops a flock when its process ends, however
 * it ends, so a lock file left by a dead run never blocks: only a live holder does. The file
 * stays (removing it would let a third run lock a new file while a second still waits on
 * the old one). Where the file system has no flock, the run goes on unlocked. */
#define OUT_LOCK_NAME ".dgtd-run.lock"

static dg_status lock_output_dir(run_state *s, const char *dir) {
  char path[DG_CASE_PATH + 32];
  snprintf(path, sizeof path, "%s/" OUT_LOCK_NAME, dir);
  const int fd = dg_lock_open(path);
  DG_CHECK(fd >= 0, DG_ERR_IO, "cannot create the output directory's lock file %s: %s", path,
           strerror(errno));
  char holder[32];
  const dg_lock_state got = dg_lock_try(fd, holder, sizeof holder);
  if (got == DG_LOCK_NONE) { /* no locking on this file system: go on unlocked */
    close(fd);
    return DG_OK;
  }
  if (got == DG_LOCK_BUSY) {
    close(fd);
    return DG_ERROR(DG_ERR_IO, "output directory %s is in use by another dgtd run (pid %s, lock "
                    "%s): two runs into one directory would mix their files; wait for it to "
                    "end or choose another output directory", dir, holder, path);
  }
  s->out_lock_fd = fd;
  s->out_locked = 1;
  return DG_OK;
}

void run_unlock_output_dir(run_state *s) {
  if (!s->out_locked) return;
  close(s->out_lock_fd); /* releases the flock */
  s->out_locked = 0;
}

/* Before anything is computed: the output directory exists (or can be made), can be
 * written to and is not another run's, so a bad path costs nothing. */
dg_status run_check_output_dir(run_state *s) {
  const char *dir = s->c->output_dir;
  if (!dir[0]) return DG_OK;
  dg_status st = DG_OK;
  if (s->rank == 0) {
    st = dg_mkdir_p(dir);
    if (st == DG_OK && access(dir, W_OK | X_OK) != 0)
      st = DG_ERROR(DG_ERR_IO, "output directory %s is not writable: %s", dir, strerror(errno));
    if (st != DG_OK)
      st = dg_error_prefix(st, "cannot write to the output directory %s: ", dir);
    else
      st = lock_output_dir(s, dir); /* its message names the other run */
  }
  st = run_share_status(s, st, "checking the output directory");
  if (st != DG_OK) run_unlock_output_dir(s);
  DG_CALL(st);
  return DG_OK;
}

/* After a failure (a blow-up, a signal, an error) once stepping began: keep what was
 * computed: the logs, and for a blow-up a last snapshot of the state that blew up. Best
 * effort: the original error is what the caller reports. */
void run_outputs_abort(run_state *s, dg_status why, int step) {
  if (!s->c->output_dir[0]) return;
  dg_error_saved *e = dg_error_save();
  dg_status st = DG_OK;
  if (why == DG_ERR_NUMERIC && dg_solver_stepper(s->solver) && run_fetch_state(s) == DG_OK)
    st = write_vtu(s, step, step * s->dt);
  const dg_status st_logs = run_commit_logs(s);
  dg_run_result scratch;
  memset(&scratch, 0, sizeof scratch);
  /* One rank alone: the write is collective, and the others may not be here. */
  const dg_status st_dft =
      s->dft && why != DG_ERR_NUMERIC && s->size == 1 ? run_dft_write(s, &scratch) : DG_OK;
  (void)st, (void)st_logs, (void)st_dft; /* best effort: the first error is the one reported */
  dg_error_restore(e);
}

/* After a restart: the snapshots written before the checkpoint's step, found on disk, so
 * the collection (.pvd) lists the whole run and not only its continuation. */
static dg_status collect_earlier_snapshots(run_state *s) {
  const char *ext = s->size > 1 ? "pvtu" : "vtu";
  for (int step = 0; step <= s->first_step; ++step) {
    char name[64], path[DG_CASE_PATH + 64];
    snprintf(name, sizeof name, "fields_%06d.%s", step, ext);
    out_path(s, name, path, sizeof path);
    if (access(path, R_OK) != 0) continue;
    DG_CALL(add_snapshot(s, name, step * s->dt));
  }
  if (s->n_vtu && s->rank == 0) DG_CALL(write_pvd(s));
  return DG_OK;
}

/* Bring the stepper's state to the host copy s->q. */
dg_status run_energy(run_state *s, double *e) {
  dg_stepper *stepper = dg_solver_stepper(s->solver);
  if (stepper) DG_CALL(dg_stepper_energy(stepper, e)); /* on the device: no download */
  else *e = dg_maxwell_energy_aux(s->phys, s->q, s->aux_restart); /* before the stepper */
  DG_CALL(run_sum(s, e));
  return DG_OK;
}

/* run.json: what wrote the files beside it (rank 0; rewritten by a restart). */
static dg_status write_run_json(const run_state *s, const dg_run_result *r) {
  const dg_case *c = s->c;
  cJSON *o = cJSON_CreateObject();
  DG_CHECK(o, DG_ERR_MEMORY, "out of memory");
  dg_vtu_extra x;
  snapshot_extra(s, &x);
  const int ok =
      cJSON_AddStringToObject(o, "dgtd_version", DG_VERSION) &&
      cJSON_AddStringToObject(o, "case", c->source) &&
      cJSON_AddStringToObject(o, "mesh", c->mesh_file[0] ? c->mesh_file : "box") &&
      cJSON_AddStringToObject(o, "backend", dg_backend_name(c->backend)) &&
      cJSON_AddStringToObject(o, "precision", dg_precision_name(r->precision)) &&
      cJSON_AddStringToObject(o, "device", dg_backend_uses_device(c->backend) ? r->device : "") &&
      cJSON_AddStringToObject(o, "variant", dg_backend_uses_device(c->backend) ? r->variant : "") &&
      cJSON_AddNumberToObject(o, "ranks", s->size) &&
      cJSON_AddNumberToObject(o, "K", r->K) && cJSON_AddNumberToObject(o, "N", r->N) &&
      cJSON_AddNumberToObject(o, "dt", s->dt) && cJSON_AddNumberToObject(o, "steps", s->steps) &&
      cJSON_AddNumberToObject(o, "final_time", s->steps * s->dt) &&
      cJSON_AddStringToObject(o, "vtu_precision", x.float32 ? "float" : "double");
  char *text = ok ? cJSON_Print(o) : NULL;
  cJSON_Delete(o);
  DG_CHECK(text, DG_ERR_MEMORY, "out of memory");
  char path[DG_CASE_PATH + 32];
  out_path(s, "run.json", path, sizeof path);
  dg_atomic_file f = {0};
  dg_status st = dg_atomic_open(&f, path);
  if (st == DG_OK) {
    fprintf(f.fp, "%s\n", text);
    st = dg_atomic_commit(&f);
  }
  free(text);
  return st;
}

/* The output directory and logs (resumed after a restart), run.json, and the rows of the
 * initial state. */
dg_status run_outputs_open(run_state *s, const dg_run_result *r) {
  const dg_case *c = s->c;
  const int want_files = c->output_dir[0] != '\0';
  DG_CHECK(want_files || !(c->vtu_every || c->n_vtu_times || c->checkpoint_every ||
                           c->checkpoint_seconds > 0 || c->energy_every || c->n_probes),
           DG_ERR_INPUT, "%s: output files were asked for but no output directory was given "
           "(\"output\": {\"directory\": ...} or --output DIR)", c->source);
  /* How often the host looks at the state for blow-up: ~100 times a run, or with the
   * energy log. */
  s->health_every = c->energy_every ? c->energy_every : (s->steps >= 100 ? s->steps / 100 : 1);
  while (s->next_time < c->n_vtu_times && c->vtu_times[s->next_time] < s->t - 0.5 * s->dt)
    ++s->next_time;
  /* Snapshot times the run never reaches (the nearest step is past the last one), or two
   * times on the same step (one snapshot for both): say so rather than write fewer. */
  const double t_end = s->steps * s->dt;
  for (int i = s->next_time; s->rank == 0 && i < c->n_vtu_times; ++i) {
    if (c->vtu_times[i] > t_end + 0.5 * s->dt) {
      const int more = c->n_vtu_times - 1 - i;
      dg_warn("%s: output.vtu_times[%d] = %g is after the run's final time %g: no snapshot for "
              "it%s%.0d%s", c->source, i, c->vtu_times[i], t_end, more ? " nor the " : "", more,
              more == 1 ? " time after it" : more ? " times after it" : "");
      break;
    }
    /* The step a time is written at: the first within half a step of it (run_outputs_step). */
    if (i > s->next_time &&
        ceil(c->vtu_times[i] / s->dt - 0.5) == ceil(c->vtu_times[i - 1] / s->dt - 0.5))
      dg_warn("%s: output.vtu_times[%d] = %g and [%d] = %g fall on the same step (dt = %g): one "
              "snapshot for both", c->source, i - 1, c->vtu_times[i - 1], i, c->vtu_times[i], s->dt);
  }
  if (!want_files) return DG_OK;
  char path[DG_CASE_PATH + 32];
  dg_status st = DG_OK;
  if (s->rank == 0) st = dg_mkdir_p(c->output_dir);
  st = run_share_status(s, st, "creating the output directory");
  DG_CHECK(st == DG_OK, st, "cannot create the output directory %s", c->output_dir);
  const int restart = c->restart[0] != '\0';
  if (s->rank == 0) DG_CALL(write_run_json(s, r));
  /* Only rank 0 writes the logs (probes are gathered to it). */
  if (c->n_probes && s->rank == 0) {
    out_path(s, "probes.csv", path, sizeof path);
    DG_CALL(dg_probe_log_create(&s->probe_log, path));
    if (restart) DG_CALL(dg_series_resume(s->probe_log, "t", s->t * (1 + 1e-12)));
  }
  if (c->energy_every && s->rank == 0) {
    out_path(s, "energy.csv", path, sizeof path);
    DG_CALL(dg_energy_log_create(&s->energy_log, path));
    if (restart) DG_CALL(dg_series_resume(s->energy_log, "step", s->first_step));
  }
  /* vtu_times due at the first step (within half a step of it): the initial state's
   * snapshot, or on a restart the one the checkpoint's run wrote at that step. Either way
   * done with, or the time loop would wait for them for ever and write no later one. */
  const int at_start = s->next_time < c->n_vtu_times &&
                       c->vtu_times[s->next_time] <= s->t + 0.5 * s->dt;
  while (s->next_time < c->n_vtu_times && c->vtu_times[s->next_time] <= s->t + 0.5 * s->dt)
    ++s->next_time;
  if (restart) {
    DG_CALL(collect_earlier_snapshots(s));
    return DG_OK;
  }
  s->last_commit = dg_now_s();
  if (s->probes) DG_CALL(record_probes(s, s->t));
  if (s->energy_log) {
    const double row[3] = {0, 0, s->energy0};
    DG_CALL(dg_series_append(s->energy_log, row));
  }
  if (c->vtu_every || at_start) DG_CALL(write_vtu(s, 0, 0));
  return DG_OK;
}

/* The health check is a synchronisation point (the queue drains): keep it to about one per
 * HEALTH_PERIOD_S of wall time however fast the steps are, as well as ~100 per run. Every
 * rank reaches the same interval (the slowest rank's step time decides), since the check
 * is collective. */
enum { HEALTH_MIN_STEPS = 1 };
#define HEALTH_PERIOD_S 0.25
static dg_status pace_health_checks(run_state *s, int step) {
  const double now = dg_now_s();
  if (s->last_health_step > 0 && step > s->last_health_step) {
    double per_step = (now - s->last_health_wall) / (step - s->last_health_step);
    DG_CALL(run_max(s, &per_step));
    const double want = per_step > 0 ? ceil(HEALTH_PERIOD_S / per_step) : HEALTH_MIN_STEPS;
    if (want > s->health_every) s->health_every = want > 1e6 ? 1000000 : (int)want;
  }
  s->last_health_step = step;
  s->last_health_wall = now;
  return DG_OK;
}

/* After step `step` (s->t is its time): whatever is due. */
dg_status run_outputs_step(run_state *s, dg_run_result *r, int step) {
  const dg_case *c = s->c;
  const double t = s->t;
  s->sources_were_on |= sources_active(s, t - s->dt) || sources_active(s, t);
  if (s->phys) s->source_growth += dg_maxwell_source_growth(s->phys, t - s->dt, t);
  const int want_files = c->output_dir[0] != '\0';
  if (s->dft) DG_CALL(run_dft_step(s, step));
  const int probe_due = want_files && s->probes && step % c->probe_every == 0;
  /* Decided alike on every rank (the energy is a collective sum); only rank 0 logs it. */
  const int log_due = c->energy_every && step % c->energy_every == 0;
  const int energy_due = log_due || step % s->health_every == 0 || step == s->steps;
  const int vtu_due = want_files && ((c->vtu_every && step % c->vtu_every == 0) ||
                                     (s->next_time < c->n_vtu_times &&
                                      fabs(c->vtu_times[s->next_time] - t) <= 0.5 * s->dt));
  /* and the last step, so that a run extended from its checkpoint repeats no step */
  const int chk_on = c->checkpoint_every || c->checkpoint_seconds > 0;
  int chk_due = want_files && ((c->checkpoint_every && step % c->checkpoint_every == 0) ||
                               (c->checkpoint_seconds > 0 &&
                                dg_now_s() - s->last_checkpoint >= c->checkpoint_seconds) ||
                               (chk_on && step == s->steps));
  DG_CALL(run_any(s, &chk_due)); /* every rank checkpoints the same step */
  if (probe_due || vtu_due || chk_due) DG_CALL(run_fetch_state(s));
  if (probe_due) DG_CALL(record_probes(s, t));
  if (energy_due) {
    double e;
    DG_CALL(run_energy(s, &e));
    DG_CALL(check_health(s, step, t, e));
    s->energy_peak = fmax(s->energy_peak, e);
    /* stop_energy, stop_dft (both, when both are given): decided alike on every rank (e and
     * the DFT change are sums over them); this step becomes the last (its checkpoint, if
     * checkpoints are on, below) */
    const int stopping = (c->stop_energy > 0 || c->stop_dft > 0) && step < s->steps;
    const int over = stopping && sources_over(s, t);
    int dft_ok = 1;
    double rel = -1; /* the DFT sums' change over the last period (stop_dft) */
    if (over && c->stop_dft > 0) {
      int ready;
      DG_CALL(run_dft_change(s, t, &rel, &ready));
      dft_ok = ready && rel <= c->stop_dft;
    }
    if (over && dft_ok && (c->stop_energy <= 0 || e <= c->stop_energy * s->energy_peak)) {
      r->planned_time = s->steps * s->dt;
      r->stop_ratio = s->energy_peak > 0 ? e / s->energy_peak : 0;
      r->stop_dft_change = c->stop_dft > 0 ? rel : -1;
      s->steps = step;
      s->stopped_early = r->stopped_early = 1;
      if (want_files && chk_on && !chk_due) {
        chk_due = 1;
        DG_CALL(run_fetch_state(s));
      }
    }
    if (log_due && s->energy_log) {
      const double row[3] = {step, t, e};
      DG_CALL(dg_series_append(s->energy_log, row));
    }
    DG_CALL(pace_health_checks(s, step));
  }
  if (vtu_due) {
    DG_CALL(write_vtu(s, step, t));
    while (s->next_time < c->n_vtu_times && c->vtu_times[s->next_time] <= t + 0.5 * s->dt)
      ++s->next_time;
  }
  if (chk_due) {
    if (s->dft) DG_CALL(run_dft_write(s, r)); /* the spectra so far */
    DG_CALL(write_checkpoint(s, step, t, r->variant));
    s->last_checkpoint = dg_now_s();
    ++r->n_checkpoints;
  } else if (s->rank == 0) {
    DG_CALL(commit_logs_if_due(s));
  }
  return DG_OK;
}

/* The final state: its energy, health and logs. */
dg_status run_outputs_close(run_state *s, dg_run_result *r) {
  DG_CALL(run_fetch_state(s));
  DG_CALL(run_energy(s, &r->energy_end));
  DG_CALL(check_health(s, s->steps, s->t, r->energy_end));
  DG_CALL(run_commit_logs(s));
  if (s->dft) DG_CALL(run_dft_write(s, r));
  /* stopped early: run.json's final time is the time it stopped */
  if (s->stopped_early && s->rank == 0 && s->c->output_dir[0]) DG_CALL(write_run_json(s, r));
  r->n_vtu = s->n_vtu;
  return DG_OK;
}

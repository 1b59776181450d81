/* The state of one run (app/simulate.c's dg_run), shared by the files that do its parts:
 *   app/setup.c     mesh, materials, boundaries, sources, probes, time step, the stepper
 *                   (made by the backend interface, solver/solver.h);
 *   app/parallel.c  MPI: ranks, partition, trace exchange, reductions, device per rank;
 *   app/outputs.c   logs, snapshots, checkpoints and restart, the health check, progress.
 * Calls between them go one way: setup.c, then dft.c, then outputs.c, then simulate.c,
 * which releases everything a run owns at its end. */
#ifndef DG_APP_RUN_STATE_H
#define DG_APP_RUN_STATE_H

#include <stddef.h>

#include "app/case.h"
#include "app/simulate.h"
#include "core/status.h"
#include "dg/cavity.h"
#include "dg/dft.h"
#include "dg/geom.h"
#include "dg/maxwell.h"
#include "dg/multirate.h"
#include "dg/stepper.h"
#include "io/probe.h"
#include "io/series.h"
#include "mesh/mesh.h"
#include "part/dist.h"
#include "part/exchange.h"
#include "refel/refel.h"
#include "solver/solver.h"

/* What time_stepping "auto" chose (run_time_stepping_auto): multirate LSERK4 or not, its
 * predicted gain over global LSERK4 and its work ratio (per unit time, once started), the
 * levels with elements, and why multirate cannot run here ("" when it can). Plain data: on
 * several ranks rank 0 decides and broadcasts it. */
typedef struct {
  int decided, multirate, occupied;
  double gain, work;
  char why[96];
} run_auto_pick;

typedef struct {
  const dg_case *c;
  /* MPI: this rank of `size`; the whole mesh (every rank reads it) and the partition. */
  int rank, size;
  dg_mesh *global;           /* the whole mesh; == mesh on one process */
  int *part;                 /* size > 1: owner rank of each global element */
  dg_dist_mesh *dist;        /* size > 1: owned elements + ghosts, exchange lists */
  dg_exchange *xchg;         /* size > 1 */
  int *send_slot, *recv_slot;
  /* The problem on this rank. */
  dg_mesh *mesh;
  dg_refel *ref;
  dg_geom *geom;
  dg_maxwell *phys;
  int *material;             /* each element's entry of the case's materials (-1: none) */
  dg_plane_wave pw;          /* the incident wave (phys->incident_ctx points here) */
  dg_cavity_mode mode;       /* when the case has one: initial state and exact solution */
  size_t n;                  /* 6 K Np */
  double *q;                 /* host copy of the state (filled by run_fetch_state) */
  double *aux_restart;       /* the auxiliary state (PML, poles) read from the checkpoint,
                                handed to the stepper once it exists (then freed) */
  double dt, t;
  double dt_max;             /* the stable step (the macro step with multirate) */
  int steps, first_step;
  /* The backend (solver/solver.h): what it opened and the stepper (dg_solver_stepper). */
  dg_solver *solver;
  int *mr_level;             /* multirate: each element's rate level (app/multirate.c;
                                on several ranks set with the partition, app/setup.c) */
  dg_mr_plan mr_plan;
  run_auto_pick auto_pick;   /* time_stepping "auto": what it chose (app/multirate.c) */
  long long rhs_evals;       /* element RHS evaluations (counted by the multirate stepper) */
  /* Outputs. */
  int *probe_ids;            /* case index of each probe this rank owns */
  dg_probes *probes;
  dg_series *probe_log, *energy_log;
  int n_vtu;
  double *vtu_t;             /* times of the snapshots written so far (for the .pvd) */
  char **vtu_files;
  int next_time;             /* next entry of the case's vtu_times */
  int health_every;          /* steps between blow-up checks (grows to keep them ~4 a second) */
  int last_health_step;      /* step and wall time of the last check */
  double last_health_wall;
  double energy0, energy_ref; /* energy at the start; largest energy while sources were on */
  int sources_were_on;       /* a source was on at some step since the last health check */
  double energy_peak;        /* the largest energy computed so far (stop_energy) */
  int stopped_early;         /* stop_energy met at step s->steps (shortened to it) */
  double source_growth;      /* this rank's point sources: the most they can have raised
                                sqrt(energy) since the run (or restart) began */
  double last_checkpoint, last_print, t0_wall;
  double rate_t0; /* progress: when the first printed step had finished, and its count */
  int rate_done0;
  double last_commit, commit_cost; /* when the logs were last written, and how long it took */
  int out_locked, out_lock_fd; /* rank 0: the output directory's lock is held on this fd */
  /* DFT monitors (app/dft.c) */
  dg_dft *dft;               /* the sums (on the host; a device's are fetched into it) */
  dg_solver_dft *dft_sums;   /* where the backend sums them (on its device, or the host) */
  dg_surface_dft *surface_dft; /* after run_outputs_close: the surface DFT (normalised as the
                                  case asks), for the near-to-far-field transform; or NULL */
  double *dft_prev;          /* stop_dft: the sums at the last comparison (re, then im;
                                NULL: none yet) */
  double dft_prev_t;         /* and its time */
} run_state;

/* setup.c */
dg_status run_setup_problem(run_state *s, dg_run_result *r) DG_NODISCARD;
dg_status run_setup_time_step(run_state *s) DG_NODISCARD;
dg_status run_start_stepper(run_state *s, dg_run_result *r) DG_NODISCARD;
/* The tag of a physical group reference of the case (an error naming `what`). */
dg_status run_group_tag(const run_state *s, int dim, const dg_group_ref *g, const char *what,
                        int *tag) DG_NODISCARD;
/* The two sides of the closed interior surface of tag stag on the whole mesh (side[k] of
 * each element, dg_mesh_surface_sides): the outside is what reaches a PML element or an
 * absorbing boundary face without crossing it. Errors start with the case file and what. */
dg_status run_surface_sides(const run_state *s, int stag, const char *what,
                            signed char *side) DG_NODISCARD;
/* The stepper's state into s->q. */
dg_status run_fetch_state(run_state *s) DG_NODISCARD;

/* multirate.c: local time stepping (time_stepping.scheme "multirate") */
dg_status run_multirate_time_step(run_state *s, double *dt_max) DG_NODISCARD;
/* What a level stage costs beyond its elements on the run's backend and device, in element
 * evaluations (dg_multirate_levels' omega): the case's time_stepping.stage_cost when given,
 * else the backend's (dg_solver_stage_cost: 0 without launches). */
double run_stage_overhead(const run_state *s);
/* time_stepping "auto" (own->mr_auto; own is the run's copy of the case, s->c): multirate
 * LSERK4 (own->multirate = 1, s->mr_level and s->mr_plan set) where its predicted speed-up
 * over global LSERK4 is at least DG_AUTO_MIN_GAIN and it can run (no checkpoints or restart,
 * no poles, no curved elements), else global LSERK4; one note says which and why. After the
 * problem is set up, before the time step. On several ranks the choice was made before the
 * mesh was split (run_auto_choose) and is only applied here. */
#define DG_AUTO_MIN_GAIN 1.2
dg_status run_time_stepping_auto(run_state *s, dg_case *own, dg_run_result *r) DG_NODISCARD;
/* The choice of "auto" into s->auto_pick, from s->phys and, where multirate can run,
 * multirate LSERK4's levels (level, s->mr_plan): on one process with the run's operator, on
 * several ranks on rank 0 with the whole mesh's before the mesh is split (app/setup.c). */
dg_status run_auto_choose(run_state *s, int *level) DG_NODISCARD;
/* The level histogram and the work against global LSERK4 (collective over the ranks). */
dg_status run_multirate_report(const run_state *s, dg_run_result *r) DG_NODISCARD;

/* parallel.c */
dg_status run_mpi_init(run_state *s) DG_NODISCARD;
/* level (global K, may be NULL): multirate rate levels of the n_levels, which weight each
 * element in the partition by its evaluations per macro step */
dg_status run_distribute(run_state *s, dg_run_result *r, const int *level,
                         int n_levels) DG_NODISCARD;
dg_status run_trace_exchange(run_state *s, size_t value_bytes, dg_trace_exchange *h) DG_NODISCARD;
dg_status run_sum(const run_state *s, double *x) DG_NODISCARD;   /* over ranks */
dg_status run_min(const run_state *s, double *x) DG_NODISCARD;
dg_status run_max(const run_state *s, double *x) DG_NODISCARD;
dg_status run_any(const run_state *s, int *flag) DG_NODISCARD;   /* 1 if set on any rank */
dg_status run_share_status(const run_state *s, dg_status st, const char *what) DG_NODISCARD;
dg_status run_bcast(const run_state *s, void *buf, int bytes) DG_NODISCARD; /* rank 0's */
dg_status run_barrier(const run_state *s) DG_NODISCARD;
dg_status run_gather_sum(const run_state *s, double *x, int n) DG_NODISCARD; /* to rank 0 */
dg_status run_node_device(const run_state *s, char *spec, size_t cap) DG_NODISCARD;
/* The hooks through which the backend reaches the other ranks (ctx: s). */
void run_solver_comm(run_state *s, dg_solver_comm *comm);
void run_rank_path(const run_state *s, const char *path, char *buf, size_t cap);

/* outputs.c */
dg_status run_energy(run_state *s, double *e) DG_NODISCARD; /* of s->q, all ranks */
dg_status run_outputs_open(run_state *s, const dg_run_result *r) DG_NODISCARD;
dg_status run_outputs_step(run_state *s, dg_run_result *r, int step) DG_NODISCARD;
dg_status run_outputs_close(run_state *s, dg_run_result *r) DG_NODISCARD;
dg_status run_read_restart(run_state *s) DG_NODISCARD;
/* Makes the output directory, checks it is writable and locks it for this run (rank 0):
 * a second run into the same directory fails naming the first one's pid. */
dg_status run_check_output_dir(run_state *s) DG_NODISCARD;
void run_unlock_output_dir(run_state *s); /* a no-op if not locked; dg_run calls it at the end */
dg_status run_commit_logs(run_state *s) DG_NODISCARD;
void run_outputs_abort(run_state *s, dg_status why, int step);
dg_status run_progress(run_state *s, int step) DG_NODISCARD;

/* dft.c: DFT monitors ("dft"). setup: after run_start_stepper (sums the initial state);
 * step: after each step; write: spectra.csv, dft_fNNN.vtu + dft.pvd, surface_dft.csv and
 * s->surface_dft (at the end, at checkpoints and after a failure). */
dg_status run_dft_check(const run_state *s) DG_NODISCARD; /* once dt is known: refusals */
dg_status run_dft_setup(run_state *s, dg_run_result *r) DG_NODISCARD;
dg_status run_dft_step(run_state *s, int step) DG_NODISCARD;
dg_status run_dft_write(run_state *s, dg_run_result *r) DG_NODISCARD;
/* stop_dft: once a period of the lowest frequency has passed since the last comparison (the
 * first call only records), *rel = the largest over frequencies of |S(t) - S(t_prev)| / |S(t)|
 * (S: that frequency's sums over every sample and field, summed over ranks) and *ready = 1;
 * else *ready = 0. */
dg_status run_dft_change(run_state *s, double t, double *rel, int *ready) DG_NODISCARD;
void run_dft_free(run_state *s);
/* far_field.c: after run_outputs_close, the far field of s->surface_dft ("far_field"):
 * far_field.csv and the figures in r. */
dg_status run_far_field(run_state *s, dg_run_result *r) DG_NODISCARD;

#endif

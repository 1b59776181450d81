/* The backend interface of a run: a registry of backends and, from it, a solver object that
 * opens what its backend needs, makes the stepper (dg/stepper.h) of one problem and sums
 * DFTs where the state lives. Callers (app/) ask the registry for properties and objects and
 * never branch on which backend they have. Two backends:
 *   - "ref" (solver/backend_ref.c): the plain C double-precision operator of dg/ (LSERK4,
 *     dg/stepper_ref.c; multirate, dg/stepper_multirate.c), DFTs summed on the host;
 *   - "opencl" (solver/backend_opencl.c): the device (device/), the kernel variant chosen
 *     (tune/choose.c) and broadcast, the generated operator (backend/cl_maxwell.h) verified
 *     against the reference (backend/verify.h) before it runs, the MPI halo on the device,
 *     the global or multirate OpenCL stepper, DFTs summed on the device (backend/cl_dft.h).
 * A new backend is one more entry of the registry (solver/solver_impl.h). MPI stays with the
 * caller: what needs the other ranks goes through the dg_solver_comm hooks. Errors are
 * returned as dg_status; warnings and notes go through core/log.h. */
#ifndef DG_SOLVER_SOLVER_H
#define DG_SOLVER_SOLVER_H

#include <stdio.h>

#include "backend/variant.h"
#include "core/status.h"
#include "device/device.h"
#include "dg/dft.h"
#include "dg/maxwell.h"
#include "dg/multirate.h"
#include "dg/stepper.h"
#include "tune/choose.h"

/* The backends, in registry order (the index of their name in dg_backend_names). */
typedef enum { DG_BACKEND_OPENCL = 0, DG_BACKEND_REF, DG_BACKEND_COUNT } dg_backend;
/* What a case runs when it names no backend. */
#define DG_BACKEND_DEFAULT DG_BACKEND_OPENCL

/* The backends' names in dg_backend order, then NULL: the case file's "backend" and
 * --backend take these words. */
extern const char *const dg_backend_names[DG_BACKEND_COUNT + 1];
/* The backend of that name, or -1. */
int dg_backend_find(const char *name);
const char *dg_backend_name(dg_backend b);
/* 1 when the backend runs on a device it opens (a device, a kernel variant, programs). */
int dg_backend_uses_device(dg_backend b);
/* The precision the backend steps (and a checkpoint stores) a state in when asked for
 * `asked`: float only where the backend has a float path. */
dg_precision dg_backend_precision(dg_backend b, dg_precision asked);

/* What the interface receives from the case and the command line. Strings are borrowed. */
typedef struct {
  dg_backend backend;
  dg_precision precision;  /* asked for (dg_backend_precision: what runs) */
  const char *device;      /* a device spec, or "": the rank's on its node (comm), or the
                              first device */
  const char *variant;     /* a forced kernel variant spec, or "" (tune mode decides) */
  dg_tune_mode tune;
  double tune_budget;      /* seconds a tuning search may take */
  FILE *tune_log;          /* tuning progress, or NULL */
  const char *dump_dir;    /* "" or where every program built is written as compiled */
  const char *source;      /* the case file, which messages name */
} dg_solver_options;

/* Bytes of host and device memory a run of K elements at order N needs on this backend,
 * roughly: the host keeps the mesh, geometry, the operator's data and state copies (about 40
 * doubles per node, measured on box meshes) plus what the backend's stepper keeps there; the
 * device the fields, residual, rhs and fluxes in the run's precision. */
void dg_solver_memory_need(const dg_solver_options *o, double K, int N, double *host,
                           double *dev);
/* What a multirate level stage costs beyond its elements, in element evaluations
 * (dg_multirate_levels' omega), and a coarser neighbour's dense output (the beta of
 * dg_multirate_predicted_gain), on this backend and the device it would open: 0 and 0
 * without launches. Looks the device up without opening it; no device: as a CPU device. */
double dg_solver_stage_cost(const dg_solver_options *o);
double dg_solver_dense_cost(const dg_solver_options *o);

/* The caller's MPI, for what needs the other ranks. On one process: rank 0 of size 1, and
 * the hooks are not called. */
typedef struct {
  int rank, size;
  void *ctx;
  /* rank 0's status on every rank (the others get an error naming `what`) */
  dg_status (*share_status)(void *ctx, dg_status st, const char *what);
  /* rank 0's bytes of buf on every rank */
  dg_status (*bcast)(void *ctx, void *buf, int bytes);
  /* the face-trace exchange of values of value_bytes each (its buffers stay the caller's) */
  dg_status (*trace_exchange)(void *ctx, size_t value_bytes, dg_trace_exchange *h);
  /* the device spec this rank takes on its node ("" for the default), when the options name
   * none; may be NULL */
  dg_status (*node_device)(void *ctx, char *spec, size_t cap);
} dg_solver_comm;

/* The problem to step. */
typedef struct {
  dg_maxwell *phys;        /* borrowed; must outlive the solver */
  int K, N;                /* this rank's elements (ghosts included) and the order */
  int n_curved;            /* curved elements of the whole mesh */
  double steps;            /* steps still to run (what tuning may cost against them) */
  double t_verify;         /* when the sources are on: the time a variant is verified at */
  /* multirate: each element's rate level (ghosts included; copied), the levels, the scheme,
   * and a counter of element RHS evaluations the stepper increments (borrowed) */
  int multirate;
  const int *level;
  int n_levels;
  dg_mr_scheme scheme;
  long long *rhs_evals;
} dg_solver_problem;

/* What a start found, for the run's report (filled as far as it got, also on failure). */
typedef struct {
  char device[300];        /* "P:D name" ("" without a device) */
  char variant[DG_VARIANT_SPEC_MAX]; /* the kernel variant, or "ref" */
  char variant_source[600]; /* where the variant came from (dg_tune_chosen.source) */
  int tuned;               /* 1: this start ran a tuning search */
  dg_precision precision;  /* of the arithmetic */
  double verify_rel_diff;  /* the variant's RHS against the reference's (0: not verified) */
} dg_solver_report;

typedef struct dg_solver dg_solver;

/* A solver on o's backend (o and comm are copied; o's strings borrowed). Opens nothing yet;
 * warns (rank 0) about options the backend ignores. */
dg_status dg_solver_create(dg_solver **out, const dg_solver_options *o,
                           const dg_solver_comm *comm) DG_NODISCARD;
/* Everything before the first step, collectively over the ranks: on a device backend the
 * device, the variant (rank 0 chooses and broadcasts it), the operator, its verification
 * against the reference (never an unverified variant), the halo; then the stepper
 * (dg_solver_stepper), at rest. Once per solver. */
dg_status dg_solver_start(dg_solver *sv, const dg_solver_problem *p) DG_NODISCARD;
const dg_solver_report *dg_solver_get_report(const dg_solver *sv);
/* The stepper of a started solver (owned by it), or NULL (sv NULL or not started). */
dg_stepper *dg_solver_stepper(const dg_solver *sv);
/* Programs compiled from source and loaded from the binary cache so far (0 and 0 without a
 * device). */
void dg_solver_programs(const dg_solver *sv, int *built, int *loaded);
/* Time every launch into p from now (p NULL: stop): 1 if the backend can (a device), 0
 * otherwise. */
int dg_solver_profile(dg_solver *sv, dg_kernel_profile *p);
/* The stepper, then what the backend opened (DFT sums first: dg_solver_dft_destroy). */
void dg_solver_destroy(dg_solver **sv);

/* DFT sums (dg/dft.h) of a started solver's state: on the device where the state lives
 * there (and d has samples on this rank), else on the host from the stepper's state. d
 * (borrowed, complete) must outlive the sums; host_state (borrowed: the caller's host copy
 * of the state, 6 K Np doubles) is where host sums fetch the state to. */
typedef struct dg_solver_dft dg_solver_dft;
dg_status dg_solver_dft_create(dg_solver_dft **out, dg_solver *sv, dg_dft *d,
                               double *host_state) DG_NODISCARD;
/* Sum the current state at time t (queued on a device) and count it in d->nsum. */
dg_status dg_solver_dft_accumulate(dg_solver_dft *h, double t) DG_NODISCARD;
/* The sums into d->re, d->im (a device's copied back), and the time spent summing: device
 * kernel time from profiling events, or host wall time. */
dg_status dg_solver_dft_fetch(dg_solver_dft *h, double *seconds) DG_NODISCARD;
/* 1 when the sums are device double sums (0: compensated float on a device, or the host). */
int dg_solver_dft_acc_double(const dg_solver_dft *h);
void dg_solver_dft_destroy(dg_solver_dft **h);

#endif

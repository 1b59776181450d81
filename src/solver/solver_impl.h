/* Inside the backend interface (solver/solver.h): what one backend provides, the registry's
 * entries, and the solver object they share. Only solver/ includes this. */
#ifndef DG_SOLVER_SOLVER_IMPL_H
#define DG_SOLVER_SOLVER_IMPL_H

#include "solver/solver.h"

typedef struct {
  int uses_device;               /* opens a device (dg_backend_uses_device) */
  int has_float;                 /* steps in float when asked (dg_backend_precision) */
  double host_doubles_per_node;  /* what its stepper keeps on the host (memory need) */
  double device_reals_per_node;  /* what it keeps on the device, in the run's precision */
  double dense_cost;             /* dg_solver_dense_cost */
  /* dg_solver_stage_cost; NULL: 0 */
  double (*stage_cost)(const dg_solver_options *o);
  /* At dg_solver_create (may be NULL): checks and warnings about the options. */
  dg_status (*create)(dg_solver *sv);
  /* dg_solver_start: sv->stepper and sv->report set. */
  dg_status (*start)(dg_solver *sv, const dg_solver_problem *p);
  /* DFT sums where the state lives (NULL: on the host), for a d with samples. */
  dg_status (*dft_create)(dg_solver *sv, dg_dft *d, void **impl, int *acc_double);
  dg_status (*dft_accumulate)(void *impl, double t);
  dg_status (*dft_fetch)(void *impl, double *seconds);
  void (*dft_destroy)(void **impl);
  /* dg_solver_programs, dg_solver_profile (NULL: none) */
  void (*programs)(const dg_solver *sv, int *built, int *loaded);
  int (*profile)(dg_solver *sv, dg_kernel_profile *p);
  /* What start opened, after the stepper is gone (may be NULL). */
  void (*destroy)(dg_solver *sv);
} dg_backend_ops;

extern const dg_backend_ops dg_backend_ref_ops, dg_backend_opencl_ops;

struct dg_solver {
  const dg_backend_ops *b;
  dg_solver_options o;
  dg_solver_comm comm;
  dg_solver_report report;
  int started;
  dg_stepper *stepper;
  void *impl;                    /* the backend's own (what start opened) */
};

/* What the backends share (solver/backend_util.c; below the registry, solver/solver.c,
 * which knows them all). */
/* dg_solver_memory_need on backend b. */
void dg_backend_memory_need(const dg_backend_ops *b, const dg_solver_options *o, double K,
                            int N, double *host, double *dev);
/* The face-trace exchange of values of value_bytes on several ranks (h set), or nothing on
 * one process (*halo NULL). */
dg_status dg_solver_halo(dg_solver *sv, size_t value_bytes, dg_trace_exchange *h,
                         const dg_trace_exchange **halo) DG_NODISCARD;

#endif

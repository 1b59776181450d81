/* The reference backend of the interface (solver/solver.h): the plain C double-precision
 * operator of dg/, stepped by LSERK4 (dg/stepper_ref.c) or the multirate schemes
 * (dg/stepper_multirate.c), on the host; its DFTs are the host sums of solver/solver.c. */
#include <stdio.h>

#include "core/log.h"
#include "solver/solver_impl.h"

/* It runs on the CPU: a device named in the options does nothing (rank 0 says so). */
static dg_status ref_create(dg_solver *sv) {
  const dg_solver_options *o = &sv->o;
  if (o->device && o->device[0] && sv->comm.rank == 0)
    dg_warn("%s: device %s has no effect with the reference backend (it runs on the CPU); "
            "drop --device (or \"device\") or run with --backend opencl",
            o->source, o->device);
  return DG_OK;
}

static dg_status ref_start(dg_solver *sv, const dg_solver_problem *p) {
  dg_trace_exchange h;
  const dg_trace_exchange *halo;
  DG_CALL(dg_solver_halo(sv, sizeof(double), &h, &halo));
  if (p->multirate)
    DG_CALL(dg_stepper_multirate_create(&sv->stepper, p->phys, p->level, p->n_levels, p->scheme,
                                        halo, p->rhs_evals));
  else
    DG_CALL(dg_stepper_ref_create(&sv->stepper, p->phys, halo));
  snprintf(sv->report.variant, sizeof sv->report.variant, "ref");
  sv->report.precision = DG_PREC_DOUBLE;
  return DG_OK;
}

const dg_backend_ops dg_backend_ref_ops = {
    .host_doubles_per_node = 18, /* the reference stepper's arrays */
    .create = ref_create,
    .start = ref_start,
};

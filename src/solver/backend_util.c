/* What the backends of solver/ share: their memory estimate and the MPI halo through the
 * caller's hooks (solver/solver_impl.h). */
#include "solver/solver_impl.h"

void dg_backend_memory_need(const dg_backend_ops *b, const dg_solver_options *o, double K,
                            int N, double *host, double *dev) {
  const double Np = (N + 1.0) * (N + 2.0) * (N + 3.0) / 6.0, nodes = K * Np;
  *host = nodes * 40 * 8;
  const double real = o->precision == DG_PREC_DOUBLE ? 8 : 4;
  *dev = b->device_reals_per_node > 0 ? nodes * b->device_reals_per_node * real : 0;
  if (b->host_doubles_per_node > 0) *host += nodes * b->host_doubles_per_node * 8;
}

dg_status dg_solver_halo(dg_solver *sv, size_t value_bytes, dg_trace_exchange *h,
                         const dg_trace_exchange **halo) {
  *halo = NULL;
  if (sv->comm.size <= 1) return DG_OK;
  DG_CALL(sv->comm.trace_exchange(sv->comm.ctx, value_bytes, h));
  *halo = h;
  return DG_OK;
}

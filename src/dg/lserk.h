/* Low-storage 5-stage 4th-order Runge-Kutta (Carpenter & Kennedy 1994). Per stage:
 *   res = a_i res + dt rhs(q, t + c_i dt);   q = q + b_i res */
#ifndef DG_DG_LSERK_H
#define DG_DG_LSERK_H

#include <stddef.h>

#include "core/status.h"

enum { DG_LSERK_STAGES = 5 };
extern const double dg_lserk_a[DG_LSERK_STAGES], dg_lserk_b[DG_LSERK_STAGES],
    dg_lserk_c[DG_LSERK_STAGES];

/* rhs = dq/dt at time t; a failure (e.g. a halo exchange) stops the step. */
typedef dg_status (*dg_rhs_fn)(void *ctx, double t, const double *q, double *rhs);

/* One step of length dt from time t on n unknowns; res and rhs are n-long scratch arrays
 * (res carries between stages only). */
dg_status dg_lserk_step(size_t n, double *q, double *res, double *rhs, double t, double dt,
                        dg_rhs_fn f, void *ctx) DG_NODISCARD;

#endif

#include "dg/lserk.h"

const double dg_lserk_a[DG_LSERK_STAGES] = {
    0.0, -567301805773.0 / 1357537059087.0, -2404267990393.0 / 2016746695238.0,
    -3550918686646.0 / 2091501179385.0, -1275806237668.0 / 842570457699.0};
const double dg_lserk_b[DG_LSERK_STAGES] = {
    1432997174477.0 / 9575080441755.0, 5161836677717.0 / 13612068292357.0,
    1720146321549.0 / 2090206949498.0, 3134564353537.0 / 4481467310338.0,
    2277821191437.0 / 14882151754819.0};
const double dg_lserk_c[DG_LSERK_STAGES] = {
    0.0, 1432997174477.0 / 9575080441755.0, 2526269341429.0 / 6820363962896.0,
    2006345519317.0 / 3224310063776.0, 2802321613138.0 / 2924317926251.0};

dg_status dg_lserk_step(size_t n, double *q, double *res, double *rhs, double t, double dt,
                        dg_rhs_fn f, void *ctx) {
  for (int s = 0; s < DG_LSERK_STAGES; ++s) {
    DG_CALL(f(ctx, t + dg_lserk_c[s] * dt, q, rhs));
    const double a = dg_lserk_a[s], b = dg_lserk_b[s];
    for (size_t i = 0; i < n; ++i) {
      res[i] = a * res[i] + dt * rhs[i];
      q[i] += b * res[i];
    }
  }
  return DG_OK;
}

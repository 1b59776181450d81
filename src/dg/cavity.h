/* Exact eigenmodes of a rectangular PEC cavity (eps = mu = 1), see docs/METHOD.md:
 *   E = Ehat(x) cos(wt),  H = -(curl Ehat) sin(wt)/w,
 *   Ehat = (A cx sy sz, B sx cy sz, C sx sy cz), c/s = cos/sin(k (x - x0)),
 *   k = (m pi/Lx, n pi/Ly, p pi/Lz), div Ehat = 0 <=> A kx + B ky + C kz = 0, w = |k|. */
#ifndef DG_DG_CAVITY_H
#define DG_DG_CAVITY_H

#include "core/status.h"

typedef struct {
  int m, n, p;
  double A, B, C;
  double lo[3], k[3];
  double omega;
} dg_cavity_mode;

/* amp = NULL picks a divergence-free default: (0,0,1) when p = 0, else A = B = 1 and C
 * from the constraint. Given amplitudes must satisfy the constraint. */
dg_status dg_cavity_mode_init(dg_cavity_mode *md, int m, int n, int p, const double *amp,
                              const double lo[3], const double hi[3]) DG_NODISCARD;

/* A dg_field_fn: ctx is a dg_cavity_mode. */
void dg_cavity_mode_eval(void *ctx, double x, double y, double z, double t, double e[3],
                         double h[3]);

#endif

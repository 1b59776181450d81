#include "dg/cavity.h"

#include <math.h>

dg_status dg_cavity_mode_init(dg_cavity_mode *md, int m, int n, int p, const double *amp,
                              const double lo[3], const double hi[3]) {
  DG_CHECK(m >= 0 && n >= 0 && p >= 0, DG_ERR_INPUT,
           "mode numbers must be non-negative, got %d,%d,%d", m, n, p);
  DG_CHECK((m > 0) + (n > 0) + (p > 0) >= 2, DG_ERR_INPUT,
           "mode %d,%d,%d is identically zero: at least two of m,n,p must be positive", m, n, p);
  const int wn[3] = {m, n, p};
  for (int d = 0; d < 3; ++d) {
    DG_CHECK(hi[d] > lo[d], DG_ERR_INPUT, "empty cavity extent in direction %d", d);
    md->lo[d] = lo[d];
    md->k[d] = wn[d] * M_PI / (hi[d] - lo[d]);
  }
  md->m = m, md->n = n, md->p = p;
  if (amp) {
    md->A = amp[0], md->B = amp[1], md->C = amp[2];
  } else if (p == 0) {
    md->A = 0, md->B = 0, md->C = 1;
  } else {
    md->A = 1, md->B = 1, md->C = -(md->k[0] + md->k[1]) / md->k[2];
  }
  const double div = md->A * md->k[0] + md->B * md->k[1] + md->C * md->k[2];
  const double scale = fabs(md->A * md->k[0]) + fabs(md->B * md->k[1]) + fabs(md->C * md->k[2]);
  DG_CHECK(fabs(div) <= 1e-12 * scale, DG_ERR_INPUT,
           "amplitudes (%g,%g,%g) are not divergence-free for mode %d,%d,%d: need "
           "A*m/Lx + B*n/Ly + C*p/Lz = 0", md->A, md->B, md->C, m, n, p);
  /* E_x = A cos sin(n..) sin(p..) vanishes when n or p is 0, and so on: the mode is zero
   * when every component with a non-zero amplitude has a zero sine factor (then so is H).
   * The divergence scale above is no test of that: with p = 0 and only C set it is 0. */
  const double size = fabs(md->A) * (n > 0 && p > 0) + fabs(md->B) * (m > 0 && p > 0) +
                      fabs(md->C) * (m > 0 && n > 0);
  DG_CHECK(size > 0, DG_ERR_INPUT, "mode %d,%d,%d with amplitudes (%g,%g,%g) is zero", m, n,
           p, md->A, md->B, md->C);
  md->omega = sqrt(md->k[0] * md->k[0] + md->k[1] * md->k[1] + md->k[2] * md->k[2]);
  return DG_OK;
}

void dg_cavity_mode_eval(void *ctx, double x, double y, double z, double t, double e[3],
                         double h[3]) {
  const dg_cavity_mode *md = ctx;
  const double kx = md->k[0], ky = md->k[1], kz = md->k[2];
  const double X = x - md->lo[0], Y = y - md->lo[1], Z = z - md->lo[2];
  const double cx = cos(kx * X), sx = sin(kx * X), cy = cos(ky * Y), sy = sin(ky * Y),
               cz = cos(kz * Z), sz = sin(kz * Z);
  const double ct = cos(md->omega * t), st = sin(md->omega * t) / md->omega;
  e[0] = md->A * cx * sy * sz * ct;
  e[1] = md->B * sx * cy * sz * ct;
  e[2] = md->C * sx * sy * cz * ct;
  h[0] = -(md->C * ky - md->B * kz) * sx * cy * cz * st;
  h[1] = -(md->A * kz - md->C * kx) * cx * sy * cz * st;
  h[2] = -(md->B * kx - md->A * ky) * cx * cy * sz * st;
}

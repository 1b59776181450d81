/* The reference operator on a curved element (geom.h, dg_geom_curved): the strong form of
 * docs/METHOD.md with every integral taken by quadrature, as Hesthaven & Warburton, Nodal
 * DG Methods (2008) sec. 6.6 do for curvilinear elements,
 *
 *   M_k du/dt = int_k l_i curl u dx + sum_f int_f l_i flux dS,
 *
 * M_k the element's own mass matrix. The volume rule (degree 2N+2k-3) and the face rule
 * (degree 2N+2k-2) are exact for these integrands (J rx ... and n sJ are polynomials of
 * degree 2(k-1) on an element of geometric order k, dg_geom_curved_degrees), so integrating by parts holds discretely and the energy
 * identity of the affine scheme carries over: central flux conserves, upwind dissipates.
 * The jumps are interpolated from the face nodes to the face rule's points, where the
 * traces of both sides are the same polynomials. On an affine element this is the affine
 * scheme (collocation is then exact). */
#include <math.h>

#include "dg/maxwell.h"

static void cross(const double a[3], const double b[3], double c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

void dg_maxwell_curved_terms(const dg_maxwell *p, int k, const double *q,
                             double *const jump[DG_NFIELDS], double *acc, double *out) {
  const dg_geom *g = p->geom;
  const dg_refel *re = g->ref;
  const dg_geom_curved *cv = &g->cv;
  const int Np = g->Np, Nfp = g->Nfp, nq = cv->nq, nfq = cv->nfq, c = g->curved[k];
  const size_t KNp = (size_t)g->K * Np;
  for (int i = 0; i < DG_NFIELDS * Np; ++i) acc[i] = 0;
  /* Volume: at each point, w J curl u from the cofactors w J (rx ...) and d_r u. */
  const double *W = cv->Wq + (size_t)c * 9 * nq;
  for (int pt = 0; pt < nq; ++pt) {
    const double *lr = cv->Lrq + (size_t)pt * Np, *ls = cv->Lsq + (size_t)pt * Np,
                 *lt = cv->Ltq + (size_t)pt * Np;
    double d[DG_NFIELDS][3]; /* w J d/dx, d/dy, d/dz of each field */
    for (int f = 0; f < DG_NFIELDS; ++f) {
      const double *u = q + f * KNp + (size_t)k * Np;
      double ur = 0, us = 0, ut = 0;
      for (int j = 0; j < Np; ++j) ur += lr[j] * u[j], us += ls[j] * u[j], ut += lt[j] * u[j];
      for (int x = 0; x < 3; ++x)
        d[f][x] = W[(size_t)x * nq + pt] * ur + W[(size_t)(3 + x) * nq + pt] * us +
                  W[(size_t)(6 + x) * nq + pt] * ut;
    }
    const double curl[DG_NFIELDS] = {
        d[DG_HZ][1] - d[DG_HY][2],    d[DG_HX][2] - d[DG_HZ][0],    d[DG_HY][0] - d[DG_HX][1],
        -(d[DG_EZ][1] - d[DG_EY][2]), -(d[DG_EX][2] - d[DG_EZ][0]), -(d[DG_EY][0] - d[DG_EX][1])};
    const double *l = cv->Lq + (size_t)pt * Np;
    for (int f = 0; f < DG_NFIELDS; ++f)
      for (int i = 0; i < Np; ++i) acc[f * Np + i] += l[i] * curl[f];
  }
  /* Faces: the flux of rhs_fields (maxwell.c) at each point, times w sJ, on the face nodes'
   * test functions (the only ones nonzero on the face). */
  const double ZM = sqrt(p->mu[k] / p->eps[k]);
  for (int face = 0; face < DG_NFACES; ++face) {
    const int fid = 4 * k + face, k2 = g->mesh->EToE[fid];
    const double ZP = p->bc[fid] == DG_BC_NONE ? sqrt(p->mu[k2] / p->eps[k2]) : ZM;
    const double YM = 1 / ZM, YP = 1 / ZP;
    const int *fm = re->Fmask + face * Nfp;
    for (int pt = 0; pt < nfq; ++pt) {
      const double *lf = cv->Lf + ((size_t)face * nfq + pt) * Nfp;
      const double *F = cv->Fq + (((size_t)c * DG_NFACES + face) * nfq + pt) * 4;
      const double n[3] = {F[0], F[1], F[2]};
      double dE[3] = {0, 0, 0}, dH[3] = {0, 0, 0}, ndE[3], ndH[3], a[3], b[3], fe[3], fh[3];
      for (int j = 0; j < Nfp; ++j)
        for (int x = 0; x < 3; ++x) {
          dE[x] += lf[j] * jump[x][face * Nfp + j];
          dH[x] += lf[j] * jump[3 + x][face * Nfp + j];
        }
      cross(n, dE, ndE);
      cross(n, dH, ndH);
      for (int x = 0; x < 3; ++x) {
        a[x] = ZP * dH[x] - p->alpha * ndE[x];
        b[x] = -YP * dE[x] - p->alpha * ndH[x];
      }
      cross(n, a, fe);
      cross(n, b, fh);
      for (int x = 0; x < 3; ++x) fe[x] *= F[3] / (ZM + ZP), fh[x] *= F[3] / (YM + YP);
      for (int j = 0; j < Nfp; ++j)
        for (int x = 0; x < 3; ++x) {
          acc[x * Np + fm[j]] += lf[j] * fe[x];
          acc[(3 + x) * Np + fm[j]] += lf[j] * fh[x];
        }
    }
  }
  /* out = M_k^-1 acc */
  const double *Minv = cv->Minv + (size_t)c * Np * Np;
  for (int f = 0; f < DG_NFIELDS; ++f)
    for (int i = 0; i < Np; ++i) {
      double sum = 0;
      for (int j = 0; j < Np; ++j) sum += Minv[i * Np + j] * acc[f * Np + j];
      out[f * Np + i] = sum;
    }
}

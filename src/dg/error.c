/* Sampling analytic fields at the nodes, and L2 errors against them by quadrature. */
#include <math.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "dg/maxwell.h"

void dg_maxwell_interpolate(const dg_geom *g, dg_field_fn f, void *ctx, double t, double *q) {
  const size_t KNp = (size_t)g->K * g->Np;
  for (size_t id = 0; id < KNp; ++id) {
    double e[3], h[3];
    f(ctx, g->x[id], g->y[id], g->z[id], t, e, h);
    for (int c = 0; c < 3; ++c) {
      q[c * KNp + id] = e[c];
      q[(3 + c) * KNp + id] = h[c];
    }
  }
}

dg_status dg_maxwell_l2_error(const dg_geom *g, const double *q, dg_field_fn f, void *ctx,
                              double t, double *err, double *norm) {
  dg_status st = DG_OK;
  const dg_refel *ref = g->ref;
  const dg_mesh *m = g->mesh;
  const int Np = g->Np;
  const size_t KNp = (size_t)g->K * Np;
  int nq = 0;
  double *qr = NULL, *qs = NULL, *qt = NULL, *qw = NULL, *interp = NULL, *psi = NULL, *col = NULL;
  DG_CALL(dg_cubature_tet(2 * g->N + 2, &nq, &qr, &qs, &qt, &qw));
  /* interp = Vq * V^-1 maps nodal values to values at the quadrature points. */
  DG_CALL_GOTO(done, DG_ALLOC(interp, (size_t)nq * Np));
  DG_CALL_GOTO(done, DG_ALLOC(psi, (size_t)nq * Np));
  DG_CALL_GOTO(done, DG_ALLOC(col, nq));
  for (int j = 0; j < Np; ++j) {
    dg_basis_tet(g->N, j, qr, qs, qt, nq, col);
    for (int i = 0; i < nq; ++i) psi[i * Np + j] = col[i];
  }
  dg_matmul(nq, Np, Np, psi, ref->Vinv, interp);

  double e2 = 0, n2 = 0;
  for (int k = 0; k < m->K_owned; ++k) { /* ghost copies belong to other ranks */
    const int *v = m->EToV + 4 * k;
    const int curved = dg_geom_curved_row(g, k) >= 0;
    for (int i = 0; i < nq; ++i) {
      const double l0 = -(qr[i] + qs[i] + qt[i] + 1), l1 = 1 + qr[i], l2 = 1 + qs[i],
                   l3 = 1 + qt[i];
      double x = 0.5 * (l0 * m->VX[v[0]] + l1 * m->VX[v[1]] + l2 * m->VX[v[2]] + l3 * m->VX[v[3]]);
      double y = 0.5 * (l0 * m->VY[v[0]] + l1 * m->VY[v[1]] + l2 * m->VY[v[2]] + l3 * m->VY[v[3]]);
      double z = 0.5 * (l0 * m->VZ[v[0]] + l1 * m->VZ[v[1]] + l2 * m->VZ[v[2]] + l3 * m->VZ[v[3]]);
      double Jq = g->J[k];
      if (curved) { /* the element's own map and its Jacobian at the point */
        const double rst[3] = {qr[i], qs[i], qt[i]};
        double xq[3], d[3][3];
        dg_mesh_elem_map(m, k, rst, xq, d);
        x = xq[0], y = xq[1], z = xq[2];
        Jq = d[0][0] * (d[1][1] * d[2][2] - d[2][1] * d[1][2]) -
             d[1][0] * (d[0][1] * d[2][2] - d[2][1] * d[0][2]) +
             d[2][0] * (d[0][1] * d[1][2] - d[1][1] * d[0][2]);
      }
      double e[3], h[3];
      f(ctx, x, y, z, t, e, h);
      const double exact[DG_NFIELDS] = {e[0], e[1], e[2], h[0], h[1], h[2]};
      for (int fld = 0; fld < DG_NFIELDS; ++fld) {
        const double *u = q + fld * KNp + (size_t)k * Np;
        double uh = 0;
        for (int j = 0; j < Np; ++j) uh += interp[i * Np + j] * u[j];
        const double d = uh - exact[fld];
        e2 += qw[i] * Jq * d * d;
        n2 += qw[i] * Jq * exact[fld] * exact[fld];
      }
    }
  }
  *err = sqrt(e2);
  *norm = sqrt(n2);
done:
  free(qr), free(qs), free(qt), free(qw);
  dg_free(&interp);
  dg_free(&psi);
  dg_free(&col);
  return st;
}

#include "dg/geom.h"

#include <math.h>
#include <stdlib.h>

#include "core/alloc.h"

void dg_geom_destroy(dg_geom **gp) {
  dg_geom *g = *gp;
  if (!g) return;
  double **arrays[] = {&g->x,  &g->y,  &g->z,  &g->rx, &g->ry, &g->rz, &g->sx, &g->sy,
                       &g->sz, &g->tx, &g->ty, &g->tz, &g->J,  &g->nx, &g->ny, &g->nz,
                       &g->sJ, &g->Fscale};
  for (size_t i = 0; i < sizeof arrays / sizeof *arrays; ++i) dg_free(arrays[i]);
  dg_free(&g->vmapM);
  dg_free(&g->vmapP);
  dg_geom_curved_free(g);
  dg_free(gp);
}

/* Metric terms and normals of one affine element (GeometricFactors3D, Normals3D). */
static dg_status element_metrics(dg_geom *g, int k) {
  const dg_mesh *m = g->mesh;
  const int *v = m->EToV + 4 * k;
  double d[3][3]; /* columns: d(x,y,z)/dr, /ds, /dt */
  for (int c = 0; c < 3; ++c) {
    d[0][c] = 0.5 * (m->VX[v[c + 1]] - m->VX[v[0]]);
    d[1][c] = 0.5 * (m->VY[v[c + 1]] - m->VY[v[0]]);
    d[2][c] = 0.5 * (m->VZ[v[c + 1]] - m->VZ[v[0]]);
  }
  const double xr = d[0][0], xs = d[0][1], xt = d[0][2];
  const double yr = d[1][0], ys = d[1][1], yt = d[1][2];
  const double zr = d[2][0], zs = d[2][1], zt = d[2][2];
  const double J = xr * (ys * zt - zs * yt) - yr * (xs * zt - zs * xt) + zr * (xs * yt - ys * xt);
  DG_CHECK(J > 0, DG_ERR_MESH, "element %d has non-positive Jacobian %g (mesh not oriented)",
           k + 1, J);
  g->J[k] = J;
  g->rx[k] = (ys * zt - zs * yt) / J;
  g->ry[k] = -(xs * zt - zs * xt) / J;
  g->rz[k] = (xs * yt - ys * xt) / J;
  g->sx[k] = -(yr * zt - zr * yt) / J;
  g->sy[k] = (xr * zt - zr * xt) / J;
  g->sz[k] = -(xr * yt - yr * xt) / J;
  g->tx[k] = (yr * zs - zr * ys) / J;
  g->ty[k] = -(xr * zs - zr * xs) / J;
  g->tz[k] = (xr * ys - yr * xs) / J;
  /* Outward normals are gradients of the face equations t=-1, s=-1, r+s+t=-1, r=-1. */
  const double n[4][3] = {
      {-g->tx[k], -g->ty[k], -g->tz[k]},
      {-g->sx[k], -g->sy[k], -g->sz[k]},
      {g->rx[k] + g->sx[k] + g->tx[k], g->ry[k] + g->sy[k] + g->ty[k],
       g->rz[k] + g->sz[k] + g->tz[k]},
      {-g->rx[k], -g->ry[k], -g->rz[k]},
  };
  for (int f = 0; f < DG_NFACES; ++f) {
    const double len = sqrt(n[f][0] * n[f][0] + n[f][1] * n[f][1] + n[f][2] * n[f][2]);
    const int id = 4 * k + f;
    g->nx[id] = n[f][0] / len;
    g->ny[id] = n[f][1] / len;
    g->nz[id] = n[f][2] / len;
    g->sJ[id] = len * J;
    g->Fscale[id] = len;
  }
  return DG_OK;
}

/* vmapP by matching each face node with the neighbour's face node at the same place (on a
 * periodic face, one translation away: mesh.h's face_period). */
static dg_status match_face_nodes(dg_geom *g) {
  const dg_mesh *m = g->mesh;
  const int Np = g->Np, Nfp = g->Nfp;
  for (int k = 0; k < g->K; ++k) {
    const double tol = 1e-7 * dg_mesh_longest_edge(m, k);
    for (int f = 0; f < DG_NFACES; ++f) {
      const int k2 = m->EToE[4 * k + f], f2 = m->EToF[4 * k + f];
      const int per = m->face_period ? m->face_period[4 * k + f] : 0;
      double sh[3] = {0, 0, 0};
      if (per)
        for (int d = 0; d < 3; ++d) sh[d] = (per > 0 ? 1 : -1) * m->period[abs(per) - 1][d];
      int *M = g->vmapM + (4 * k + f) * Nfp, *P = g->vmapP + (4 * k + f) * Nfp;
      for (int i = 0; i < Nfp; ++i) {
        M[i] = k * Np + g->ref->Fmask[f * Nfp + i];
        P[i] = M[i];
      }
      if (k2 == k && f2 == f) continue; /* boundary face */
      for (int i = 0; i < Nfp; ++i) {
        int found = -1;
        for (int j = 0; j < Nfp && found < 0; ++j) {
          const int id2 = k2 * Np + g->ref->Fmask[f2 * Nfp + j];
          const double dx = g->x[M[i]] + sh[0] - g->x[id2], dy = g->y[M[i]] + sh[1] - g->y[id2],
                       dz = g->z[M[i]] + sh[2] - g->z[id2];
          if (dx * dx + dy * dy + dz * dz < tol * tol) found = id2;
        }
        DG_CHECK(found >= 0, DG_ERR_MESH,
                 "face %d of element %d: node %d has no partner on face %d of element %d "
                 "(non-conforming faces?)", f, k + 1, i, f2, k2 + 1);
        P[i] = found;
      }
    }
  }
  return DG_OK;
}

dg_status dg_geom_create(dg_geom **out, const dg_mesh *m, const dg_refel *r) {
  dg_status st = DG_OK;
  dg_geom *g = NULL;
  DG_CALL(DG_ALLOC(g, 1));
  g->K = m->K;
  g->N = r->N;
  g->Np = r->Np;
  g->Nfp = r->Nfp;
  g->mesh = m;
  g->ref = r;
  const size_t K = (size_t)m->K, nodes = K * (size_t)r->Np, fnodes = K * 4 * (size_t)r->Nfp;
  double **per_node[] = {&g->x, &g->y, &g->z};
  double **per_elem[] = {&g->rx, &g->ry, &g->rz, &g->sx, &g->sy, &g->sz,
                         &g->tx, &g->ty, &g->tz, &g->J};
  double **per_face[] = {&g->nx, &g->ny, &g->nz, &g->sJ, &g->Fscale};
  for (int i = 0; i < 3; ++i) DG_CALL_GOTO(fail, dg_calloc(per_node[i], nodes, sizeof(double)));
  for (int i = 0; i < 10; ++i) DG_CALL_GOTO(fail, dg_calloc(per_elem[i], K, sizeof(double)));
  for (int i = 0; i < 5; ++i) DG_CALL_GOTO(fail, dg_calloc(per_face[i], 4 * K, sizeof(double)));
  DG_CALL_GOTO(fail, DG_ALLOC(g->vmapM, fnodes));
  DG_CALL_GOTO(fail, DG_ALLOC(g->vmapP, fnodes));

  for (int k = 0; k < g->K; ++k) {
    if (m->curved && m->curved[k]) { /* its own data: dg_geom_curved_create */
      for (int i = 0; i < 10; ++i) (*per_elem[i])[k] = NAN;
      for (int i = 0; i < 5; ++i)
        for (int f = 0; f < 4; ++f) (*per_face[i])[4 * k + f] = NAN;
      continue;
    }
    const int *v = m->EToV + 4 * k;
    for (int i = 0; i < r->Np; ++i) {
      /* x = 0.5 * (-(1+r+s+t) v0 + (1+r) v1 + (1+s) v2 + (1+t) v3) */
      const double l1 = 1 + r->r[i], l2 = 1 + r->s[i], l3 = 1 + r->t[i];
      const double l0 = -(r->r[i] + r->s[i] + r->t[i] + 1);
      const size_t id = (size_t)k * r->Np + i;
      g->x[id] = 0.5 * (l0 * m->VX[v[0]] + l1 * m->VX[v[1]] + l2 * m->VX[v[2]] + l3 * m->VX[v[3]]);
      g->y[id] = 0.5 * (l0 * m->VY[v[0]] + l1 * m->VY[v[1]] + l2 * m->VY[v[2]] + l3 * m->VY[v[3]]);
      g->z[id] = 0.5 * (l0 * m->VZ[v[0]] + l1 * m->VZ[v[1]] + l2 * m->VZ[v[2]] + l3 * m->VZ[v[3]]);
    }
    DG_CALL_GOTO(fail, element_metrics(g, k));
  }
  DG_CALL_GOTO(fail, dg_geom_curved_create(g));
  DG_CALL_GOTO(fail, match_face_nodes(g));
  *out = g;
  return DG_OK;
fail:
  dg_geom_destroy(&g);
  return st;
}

/* Node permutations for shared faces: the two elements on a face number its nodes from
 * their own vertices, so the same physical node has different indices on the two sides
 * (the faces are rotated and/or reflected relative to each other). Matching is by
 * physical position, as dg_geom does for vmapP. */
#include <math.h>

#include "core/alloc.h"
#include "part/part.h"

/* Reference node i as barycentric weights of the element's vertices v0..v3. */
static void barycentric(const double *r, const double *s, const double *t, int i,
                        double lam[4]) {
  lam[0] = -0.5 * (1.0 + r[i] + s[i] + t[i]);
  lam[1] = 0.5 * (1.0 + r[i]);
  lam[2] = 0.5 * (1.0 + s[i]);
  lam[3] = 0.5 * (1.0 + t[i]);
}

/* Position of node `node` of a face whose three vertices (in dg_face_vertices[f] order)
 * are the local vertices fv. Only the face vertices are needed: the fourth vertex's weight
 * is zero on the face, which the caller has checked. */
static void face_point(const dg_mesh *m, int f, const int fv[3], const double lam[4],
                       double x[3]) {
  x[0] = x[1] = x[2] = 0.0;
  for (int c = 0; c < 3; c++) {
    const double w = lam[dg_face_vertices[f][c]];
    x[0] += w * m->VX[fv[c]];
    x[1] += w * m->VY[fv[c]];
    x[2] += w * m->VZ[fv[c]];
  }
}

/* Reference node `node` must lie on face f: the vertex opposite f has weight 0 there. */
static dg_status check_on_face(int f, int node, const double lam[4]) {
  const int off = 6 - dg_face_vertices[f][0] - dg_face_vertices[f][1] - dg_face_vertices[f][2];
  DG_CHECK(fabs(lam[off]) < 1e-10, DG_ERR_INTERNAL,
           "Fmask lists node %d for face %d but it is not on that face", node, f);
  return DG_OK;
}

dg_status dg_halo_node_perm(const dg_submesh *sub, int Np, int Nfp, const double *r,
                            const double *s, const double *t, const int *Fmask, int *perm) {
  DG_CHECK(sub != NULL && sub->mesh != NULL, DG_ERR_INTERNAL, "dg_halo_node_perm: no submesh");
  DG_CHECK(Np > 0 && Nfp > 0 && Nfp <= Np && r && s && t && Fmask && (perm || sub->halo.nface == 0),
           DG_ERR_INTERNAL, "dg_halo_node_perm: bad reference element (Np %d, Nfp %d)", Np, Nfp);
  for (int i = 0; i < 4 * Nfp; i++)
    DG_CHECK(Fmask[i] >= 0 && Fmask[i] < Np, DG_ERR_INTERNAL,
             "Fmask entry %d is %d, outside [0, %d)", i, Fmask[i], Np);

  const dg_mesh *m = sub->mesh;
  const dg_halo *h = &sub->halo;
  dg_status st = DG_OK;
  double *rx = NULL; /* remote face node positions, 3 per node */
  unsigned char *used = NULL;
  DG_CALL_GOTO(done, DG_ALLOC(rx, 3 * (size_t)Nfp));
  DG_CALL_GOTO(done, DG_ALLOC(used, Nfp));

  for (int i = 0; i < h->nface; i++) {
    const int k = h->elem[i], f = h->face[i], rf = h->remote_face[i];
    const int *rv = h->remote_vert + 3 * (size_t)i;
    int lv[3];
    for (int c = 0; c < 3; c++) lv[c] = m->EToV[4 * (size_t)k + dg_face_vertices[f][c]];
    double lam[4];
    for (int j = 0; j < Nfp; j++) {
      const int node = Fmask[rf * Nfp + j];
      barycentric(r, s, t, node, lam);
      DG_CALL_GOTO(done, check_on_face(rf, node, lam));
      face_point(m, rf, rv, lam, rx + 3 * (size_t)j);
      used[j] = 0;
    }
    /* Face nodes are O(h/N^2) apart and rounding is O(1e-16 h): 1e-7 h separates them. */
    const double tol = 1e-7 * dg_mesh_longest_edge(m, k);
    for (int j = 0; j < Nfp; j++) {
      const int node = Fmask[f * Nfp + j];
      barycentric(r, s, t, node, lam);
      DG_CALL_GOTO(done, check_on_face(f, node, lam));
      double x[3];
      face_point(m, f, lv, lam, x);
      int found = -1, nfound = 0;
      for (int jr = 0; jr < Nfp; jr++) {
        const double *y = rx + 3 * (size_t)jr;
        const double dx = x[0] - y[0], dy = x[1] - y[1], dz = x[2] - y[2];
        if (dx * dx + dy * dy + dz * dz < tol * tol) {
          found = jr;
          nfound++;
        }
      }
      DG_CHECK_GOTO(done, nfound == 1 && !used[found], DG_ERR_MESH,
                    "shared face %d (global element %d face %d, towards global element %d "
                    "face %d): node %d at (%g,%g,%g) has %d partners on the other side%s",
                    i, sub->elem_l2g ? sub->elem_l2g[k] + 1 : k + 1, f, h->remote_elem[i] + 1,
                    rf, j, x[0], x[1], x[2], nfound,
                    nfound == 1 ? " (already taken by another node)" : "");
      used[found] = 1;
      perm[(size_t)i * Nfp + j] = found;
    }
  }
done:
  dg_free(&rx);
  dg_free(&used);
  return st;
}

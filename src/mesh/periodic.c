/* Periodic pairs of boundary surfaces (mesh.h, dg_mesh_make_periodic): each face of one
 * surface joined to the face of the other that lies one translation away, as an interior
 * face. The faces are matched by their centroids, sorted along the direction they spread
 * most, then vertex by vertex. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "mesh/mesh.h"

typedef struct {
  int fid;      /* 4 k + f */
  double c[3];  /* centroid */
  double x[3][3]; /* vertices */
  double h;     /* longest edge */
} pface;

static int sort_dim; /* the coordinate the B faces are sorted by (qsort has no context) */

static int cmp_pface(const void *a, const void *b) {
  const double u = ((const pface *)a)->c[sort_dim], v = ((const pface *)b)->c[sort_dim];
  return u < v ? -1 : u > v;
}

static void face_of(const dg_mesh *m, int fid, pface *p) {
  const int k = fid / 4, f = fid % 4;
  p->fid = fid;
  p->h = 0;
  for (int d = 0; d < 3; ++d) p->c[d] = 0;
  for (int i = 0; i < 3; ++i) {
    const int v = m->EToV[4 * k + dg_face_vertices[f][i]];
    const double x[3] = {m->VX[v], m->VY[v], m->VZ[v]};
    for (int d = 0; d < 3; ++d) {
      p->x[i][d] = x[d];
      p->c[d] += x[d] / 3;
    }
  }
  for (int i = 0; i < 3; ++i) {
    double e = 0;
    for (int d = 0; d < 3; ++d) e += pow(p->x[i][d] - p->x[(i + 1) % 3][d], 2);
    p->h = fmax(p->h, sqrt(e));
  }
}

/* The boundary faces of tag into *out (allocated), their number in *n. */
static dg_status collect(const dg_mesh *m, int tag, pface **out, int *n) {
  int c = 0;
  for (int i = 0; i < 4 * m->K; ++i)
    c += m->face_tag[i] == tag && m->EToE[i] == i / 4 && m->EToF[i] == i % 4;
  *n = c;
  *out = NULL;
  if (!c) return DG_OK;
  DG_CALL(DG_ALLOC(*out, c));
  c = 0;
  for (int i = 0; i < 4 * m->K; ++i)
    if (m->face_tag[i] == tag && m->EToE[i] == i / 4 && m->EToF[i] == i % 4)
      face_of(m, i, &(*out)[c++]);
  return DG_OK;
}

/* Does b hold every vertex of a moved by t, within tol? */
static int same_face(const pface *a, const pface *b, const double t[3], double tol) {
  for (int i = 0; i < 3; ++i) {
    int hit = 0;
    for (int j = 0; j < 3 && !hit; ++j) {
      double e = 0;
      for (int d = 0; d < 3; ++d) e += pow(a->x[i][d] + t[d] - b->x[j][d], 2);
      hit = e <= tol * tol;
    }
    if (!hit) return 0;
  }
  return 1;
}

dg_status dg_mesh_make_periodic(dg_mesh *m, int tag_a, int tag_b, const double *t,
                                double t_used[3]) {
  DG_CHECK(m->EToE && m->face_tag, DG_ERR_INTERNAL,
           "periodic pair: the mesh is not connected (dg_mesh_connect has not run)");
  DG_CHECK(m->K_owned == m->K, DG_ERR_UNSUPPORTED,
           "periodic pair on a rank's part of a distributed mesh: pair the faces on the "
           "whole mesh before it is distributed");
  DG_CHECK(tag_a != tag_b, DG_ERR_INPUT,
           "periodic pair: both surfaces are tag %d; name two different surfaces", tag_a);
  DG_CHECK(m->n_periods < DG_MESH_MAX_PERIODS, DG_ERR_INPUT,
           "periodic pair of tags %d and %d: the mesh has %d pairs already, at most %d", tag_a,
           tag_b, m->n_periods, DG_MESH_MAX_PERIODS);
  dg_status st = DG_OK;
  pface *A = NULL, *B = NULL;
  int na = 0, nb = 0;
  DG_CALL_GOTO(done, collect(m, tag_a, &A, &na));
  DG_CALL_GOTO(done, collect(m, tag_b, &B, &nb));
  DG_CHECK_GOTO(done, na > 0 && nb > 0, DG_ERR_INPUT,
                "periodic pair: surface tag %d has no boundary face (is it a surface of "
                "this mesh, and not already paired?)", na ? tag_b : tag_a);
  DG_CHECK_GOTO(done, na == nb, DG_ERR_INPUT,
                "periodic pair: surface tag %d has %d faces, tag %d has %d: periodic "
                "surfaces must be meshed alike (Gmsh: Periodic Surface)", tag_a, na, tag_b, nb);
  double tr[3], lo[3], hi[3];
  if (t) {
    for (int d = 0; d < 3; ++d) tr[d] = t[d];
  } else { /* the centroids' difference (faces weighted alike) */
    for (int d = 0; d < 3; ++d) {
      double ca = 0, cb = 0;
      for (int i = 0; i < na; ++i) ca += A[i].c[d] / na;
      for (int i = 0; i < nb; ++i) cb += B[i].c[d] / nb;
      tr[d] = cb - ca;
    }
  }
  double hmin = INFINITY;
  for (int i = 0; i < na; ++i) hmin = fmin(hmin, A[i].h);
  DG_CHECK_GOTO(done, sqrt(tr[0] * tr[0] + tr[1] * tr[1] + tr[2] * tr[2]) > 1e-6 * hmin,
                DG_ERR_INPUT, "periodic pair of tags %d and %d: translation (%g, %g, %g) is "
                "zero: the two surfaces lie on each other", tag_a, tag_b, tr[0], tr[1], tr[2]);
  for (int d = 0; d < 3; ++d) lo[d] = INFINITY, hi[d] = -INFINITY;
  for (int i = 0; i < nb; ++i)
    for (int d = 0; d < 3; ++d) lo[d] = fmin(lo[d], B[i].c[d]), hi[d] = fmax(hi[d], B[i].c[d]);
  sort_dim = 0;
  for (int d = 1; d < 3; ++d)
    if (hi[d] - lo[d] > hi[sort_dim] - lo[sort_dim]) sort_dim = d;
  qsort(B, (size_t)nb, sizeof *B, cmp_pface);
  const int p = m->n_periods;
  if (!m->face_period) DG_CALL_GOTO(done, DG_ALLOC(m->face_period, 4 * (size_t)m->K));
  for (int i = 0; i < na; ++i) {
    const pface *a = &A[i];
    const double tol = 1e-6 * a->h, want = a->c[sort_dim] + tr[sort_dim];
    /* the first B face at or past want - tol along sort_dim */
    int lo_i = 0, hi_i = nb;
    while (lo_i < hi_i) {
      const int mid = (lo_i + hi_i) / 2;
      if (B[mid].c[sort_dim] < want - tol) lo_i = mid + 1;
      else hi_i = mid;
    }
    int found = -1;
    for (int j = lo_i; j < nb && B[j].c[sort_dim] <= want + tol && found < 0; ++j)
      if (B[j].fid >= 0 && same_face(a, &B[j], tr, tol)) found = j;
    if (found < 0) {
      double best = INFINITY;
      for (int j = 0; j < nb; ++j) {
        double e = 0;
        for (int d = 0; d < 3; ++d) e += pow(a->c[d] + tr[d] - B[j].c[d], 2);
        best = fmin(best, sqrt(e));
      }
      DG_CHECK_GOTO(done, 0, DG_ERR_INPUT,
                    "periodic pair of tags %d and %d: face %d of element %d (centroid %g, %g, "
                    "%g) moved by (%g, %g, %g) meets no face of tag %d (the nearest centroid is "
                    "%g away, tolerance %g): the two surfaces' meshes do not match (Gmsh: "
                    "Periodic Surface) or the translation is wrong", tag_a, tag_b, a->fid % 4,
                    a->fid / 4 + 1, a->c[0], a->c[1], a->c[2], tr[0], tr[1], tr[2], tag_b, best,
                    tol);
    }
    const int fa = a->fid, fb = B[found].fid;
    B[found].fid = -1; /* taken */
    m->EToE[fa] = fb / 4, m->EToF[fa] = fb % 4;
    m->EToE[fb] = fa / 4, m->EToF[fb] = fa % 4;
    m->face_tag[fa] = m->face_tag[fb] = -1;
    if (m->iface_tag) m->iface_tag[fa] = m->iface_tag[fb] = 0;
    m->face_period[fa] = (signed char)(p + 1);
    m->face_period[fb] = (signed char)-(p + 1);
  }
  for (int d = 0; d < 3; ++d) m->period[p][d] = tr[d];
  m->n_periods = p + 1;
  if (t_used)
    for (int d = 0; d < 3; ++d) t_used[d] = tr[d];
done:
  dg_free(&A);
  dg_free(&B);
  return st;
}

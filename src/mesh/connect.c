/* Face-to-face connectivity. Every element face is keyed by its sorted vertex triple; after
 * one qsort equal keys are adjacent, so matching is O(K log K) and needs no hash table.
 * Boundary triangles are then looked up by the same key with bsearch. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "mesh/mesh.h"
#include "mesh/mesh_internal.h"

typedef struct {
  int v[3]; /* sorted vertex indices */
  int id;   /* 4*k + f */
} face_key;

static void sort3(int *v) {
  int t;
  if (v[0] > v[1]) { t = v[0]; v[0] = v[1]; v[1] = t; }
  if (v[1] > v[2]) { t = v[1]; v[1] = v[2]; v[2] = t; }
  if (v[0] > v[1]) { t = v[0]; v[0] = v[1]; v[1] = t; }
}

static int cmp_vertices(const void *a, const void *b) {
  const face_key *x = a, *y = b;
  for (int i = 0; i < 3; i++)
    if (x->v[i] != y->v[i]) return (x->v[i] > y->v[i]) - (x->v[i] < y->v[i]);
  return 0;
}

/* Ties broken by id so the order (and thus any error message) is reproducible. */
static int cmp_key(const void *a, const void *b) {
  int c = cmp_vertices(a, b);
  if (c) return c;
  const face_key *x = a, *y = b;
  return (x->id > y->id) - (x->id < y->id);
}

static void tri_name(char *out, size_t n, const dg_mesh_src *src, int i) {
  if (src && src->path && src->tri_id)
    snprintf(out, n, "%s: boundary triangle %ld", src->path, src->tri_id[i]);
  else
    snprintf(out, n, "boundary triangle %d", i + 1);
}

static dg_status shared_face_error(const dg_mesh *m, const face_key *run, int n,
                                   const dg_mesh_src *src) {
  char list[256] = "";
  size_t used = 0;
  for (int i = 0; i < n && i < 4 && used < sizeof list; i++)
    used += (size_t)snprintf(list + used, sizeof list - used, "%s%ld",
                             i == 0 ? "" : (i == n - 1 ? " and " : ", "),
                             dg_mesh_elem_number(src, run[i].id / 4));
  const int *v = run[0].v;
  return DG_ERROR(DG_ERR_MESH,
                  "%s%selements %s%s share one face (%d elements; at most 2 may): vertices "
                  "(%g,%g,%g) (%g,%g,%g) (%g,%g,%g)",
                  src && src->path ? src->path : "", src && src->path ? ": " : "", list,
                  n > 4 ? " and more" : "", n, m->VX[v[0]], m->VY[v[0]], m->VZ[v[0]],
                  m->VX[v[1]], m->VY[v[1]], m->VZ[v[1]], m->VX[v[2]], m->VY[v[2]],
                  m->VZ[v[2]]);
}

/* ---- Non-conforming interfaces -----------------------------------------------------------
 * A face matched by no other face is a boundary face. Where two such faces lie in one plane
 * with opposite outward normals and overlap with positive area, the mesh is non-conforming
 * there (a hanging node, a diagonal split mirrored across an interface, or a crack of
 * duplicated vertices): the faces are inside the domain, and treating them as boundary would
 * put a wall in it. Candidate pairs come from a hash grid of the faces' bounding boxes, so
 * the search is linear in the number of boundary faces. */

typedef struct {
  double p[3][3]; /* vertices */
  double n[3];    /* outward unit normal */
  double lo[3], hi[3];
  double size;    /* longest edge */
} bface;

typedef struct {
  uint64_t cell;
  int face;
} cell_entry;

static int cmp_cell(const void *a, const void *b) {
  const cell_entry *x = a, *y = b;
  if (x->cell != y->cell) return (x->cell > y->cell) - (x->cell < y->cell);
  return (x->face > y->face) - (x->face < y->face);
}

static void vsub(const double *a, const double *b, double *o) {
  o[0] = a[0] - b[0], o[1] = a[1] - b[1], o[2] = a[2] - b[2];
}
static void vcross(const double *a, const double *b, double *o) {
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}
static double vdot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Face id (4k+f) as a bface; 0 when degenerate or not finite. */
static int make_bface(const dg_mesh *m, int id, bface *b) {
  const int k = id / 4, f = id % 4;
  double c[3] = {0, 0, 0};
  for (int i = 0; i < 4; i++) {
    const int v = m->EToV[4 * (size_t)k + i];
    c[0] += 0.25 * m->VX[v], c[1] += 0.25 * m->VY[v], c[2] += 0.25 * m->VZ[v];
  }
  for (int i = 0; i < 3; i++) {
    const int v = m->EToV[4 * (size_t)k + dg_face_vertices[f][i]];
    b->p[i][0] = m->VX[v], b->p[i][1] = m->VY[v], b->p[i][2] = m->VZ[v];
  }
  double e1[3], e2[3], e3[3], fc[3];
  vsub(b->p[1], b->p[0], e1);
  vsub(b->p[2], b->p[0], e2);
  vsub(b->p[2], b->p[1], e3);
  vcross(e1, e2, b->n);
  const double len = sqrt(vdot(b->n, b->n));
  if (!(len > 0) || !isfinite(len)) return 0;
  for (int d = 0; d < 3; d++) fc[d] = (b->p[0][d] + b->p[1][d] + b->p[2][d]) / 3 - c[d];
  const double sgn = vdot(b->n, fc) < 0 ? -1.0 : 1.0;
  for (int d = 0; d < 3; d++) b->n[d] *= sgn / len;
  b->size = sqrt(fmax(vdot(e1, e1), fmax(vdot(e2, e2), vdot(e3, e3))));
  for (int d = 0; d < 3; d++) {
    b->lo[d] = fmin(b->p[0][d], fmin(b->p[1][d], b->p[2][d]));
    b->hi[d] = fmax(b->p[0][d], fmax(b->p[1][d], b->p[2][d]));
  }
  return 1;
}

/* Do two boundary faces lie on each other (one plane, opposite normals, an overlap of
 * positive area)? Separating-axis test with the six in-plane edge normals. */
static int faces_overlap(const bface *a, const bface *b) {
  const double tol = 1e-6 * fmax(a->size, b->size);
  for (int d = 0; d < 3; d++)
    if (a->lo[d] > b->hi[d] + tol || b->lo[d] > a->hi[d] + tol) return 0;
  if (vdot(a->n, b->n) > -1 + 1e-6) return 0;
  for (int i = 0; i < 3; i++) {
    double r[3];
    vsub(b->p[i], a->p[0], r);
    if (fabs(vdot(a->n, r)) > tol) return 0;
  }
  for (int t = 0; t < 2; t++) {
    const bface *s = t ? b : a;
    for (int e = 0; e < 3; e++) {
      double edge[3], axis[3];
      vsub(s->p[(e + 1) % 3], s->p[e], edge);
      vcross(a->n, edge, axis);
      const double len = sqrt(vdot(axis, axis));
      if (!(len > 0)) continue;
      double amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
      for (int i = 0; i < 3; i++) {
        const double x = vdot(axis, a->p[i]) / len, y = vdot(axis, b->p[i]) / len;
        amin = fmin(amin, x), amax = fmax(amax, x);
        bmin = fmin(bmin, y), bmax = fmax(bmax, y);
      }
      if (fmin(amax, bmax) - fmax(amin, bmin) <= tol) return 0;
    }
  }
  return 1;
}

static uint64_t cell_key(long long i, long long j, long long k) {
  const uint64_t mask = (1u << 21) - 1;
  return ((uint64_t)i & mask) << 42 | ((uint64_t)j & mask) << 21 | ((uint64_t)k & mask);
}

/* Finds boundary faces (EToE[id] == id/4) that overlap another: *count of them, and the
 * first pair found (-1 when none). */
static dg_status find_unmatched_overlaps(const dg_mesh *m, const int *EToE, const int *EToF,
                                         int *count, int pair[2]) {
  *count = 0;
  pair[0] = pair[1] = -1;
  const size_t nf = 4 * (size_t)m->K;
  int nb = 0;
  for (size_t i = 0; i < nf; i++) nb += EToE[i] == (int)(i / 4) && EToF[i] == (int)(i % 4);
  if (nb < 2) return DG_OK;
  dg_status st = DG_OK;
  bface *bf = NULL;
  int *ids = NULL;
  unsigned char *hit = NULL;
  cell_entry *cells = NULL;
  DG_CALL_GOTO(done, DG_ALLOC(bf, nb));
  DG_CALL_GOTO(done, DG_ALLOC(ids, nb));
  DG_CALL_GOTO(done, DG_ALLOC(hit, nb));
  int n = 0;
  double lo[3] = {INFINITY, INFINITY, INFINITY}, h = 0;
  for (size_t i = 0; i < nf; i++) {
    if (!(EToE[i] == (int)(i / 4) && EToF[i] == (int)(i % 4))) continue;
    if (!make_bface(m, (int)i, &bf[n])) continue;
    ids[n] = (int)i;
    for (int d = 0; d < 3; d++) lo[d] = fmin(lo[d], bf[n].lo[d]);
    h += bf[n].size;
    n++;
  }
  if (n < 2) goto done;
  h /= n;
  /* Grid cells of about a face's size; coarser while the faces would fill too many. */
  size_t total = 0;
  for (int iter = 0; iter < 60; iter++, h *= 2) {
    total = 0;
    for (int i = 0; i < n && total <= 16 * (size_t)n + 64; i++) {
      size_t c = 1;
      for (int d = 0; d < 3; d++)
        c *= (size_t)(floor((bf[i].hi[d] - lo[d]) / h) - floor((bf[i].lo[d] - lo[d]) / h) + 1);
      total += c;
    }
    if (total <= 16 * (size_t)n + 64) break;
  }
  DG_CALL_GOTO(done, DG_ALLOC(cells, total));
  size_t nc = 0;
  for (int i = 0; i < n; i++) {
    long long a[3], b[3];
    for (int d = 0; d < 3; d++) {
      a[d] = (long long)floor((bf[i].lo[d] - lo[d]) / h);
      b[d] = (long long)floor((bf[i].hi[d] - lo[d]) / h);
    }
    for (long long x = a[0]; x <= b[0]; x++)
      for (long long y = a[1]; y <= b[1]; y++)
        for (long long z = a[2]; z <= b[2] && nc < total; z++) {
          cells[nc].cell = cell_key(x, y, z);
          cells[nc].face = i;
          nc++;
        }
  }
  qsort(cells, nc, sizeof *cells, cmp_cell);
  for (size_t i = 0; i < nc;) {
    size_t j = i + 1;
    while (j < nc && cells[j].cell == cells[i].cell) j++;
    for (size_t a = i; a < j; a++)
      for (size_t b = a + 1; b < j; b++) {
        const int fa = cells[a].face, fb = cells[b].face;
        if (hit[fa] && hit[fb]) continue;
        if (!faces_overlap(&bf[fa], &bf[fb])) continue;
        if (pair[0] < 0 || ids[fa] < pair[0]) pair[0] = ids[fa], pair[1] = ids[fb];
        hit[fa] = hit[fb] = 1;
      }
    i = j;
  }
  for (int i = 0; i < n; i++) *count += hit[i];
done:
  dg_free(&bf);
  dg_free(&ids);
  dg_free(&hit);
  dg_free(&cells);
  return st;
}

static dg_status unmatched_error(const dg_mesh *m, int count, const int pair[2],
                                 const dg_mesh_src *src) {
  const int *v = m->EToV + 4 * (size_t)(pair[0] / 4);
  const int *f = dg_face_vertices[pair[0] % 4];
  return DG_ERROR(DG_ERR_MESH,
                  "%s%snon-conforming mesh: %d interior faces have no matching neighbour face "
                  "(hanging nodes or a crack), e.g. element %ld face %d overlaps element %ld "
                  "face %d at vertices (%g,%g,%g) (%g,%g,%g) (%g,%g,%g); they would become "
                  "boundary faces inside the domain (a case can accept this with "
                  "\"allow_unmatched_faces\": true in \"mesh\")",
                  src && src->path ? src->path : "", src && src->path ? ": " : "", count,
                  dg_mesh_elem_number(src, pair[0] / 4), pair[0] % 4,
                  dg_mesh_elem_number(src, pair[1] / 4), pair[1] % 4, m->VX[v[f[0]]],
                  m->VY[v[f[0]]], m->VZ[v[f[0]]], m->VX[v[f[1]]], m->VY[v[f[1]]],
                  m->VZ[v[f[1]]], m->VX[v[f[2]]], m->VY[v[f[2]]], m->VZ[v[f[2]]]);
}

/* Every element has 4 distinct vertices of the mesh, every triangle 3. */
static dg_status check_indices(const dg_mesh *m, int ntri, const int *tri,
                               const dg_mesh_src *src) {
  char name[600];
  for (int k = 0; k < m->K; k++) {
    const int *v = m->EToV + 4 * (size_t)k;
    for (int i = 0; i < 4; i++) {
      int bad = v[i] < 0 || v[i] >= m->Nv;
      for (int j = 0; j < i; j++) bad |= v[j] == v[i];
      if (bad) {
        dg_mesh_elem_name(name, sizeof name, src, k);
        return DG_ERROR(DG_ERR_MESH, "%s: vertices %d %d %d %d are not 4 distinct indices in [0, %d)",
                        name, v[0], v[1], v[2], v[3], m->Nv);
      }
    }
  }
  for (int i = 0; i < ntri; i++) {
    const int *v = tri + 3 * (size_t)i;
    if (v[0] < 0 || v[0] >= m->Nv || v[1] < 0 || v[1] >= m->Nv || v[2] < 0 || v[2] >= m->Nv ||
        v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) {
      tri_name(name, sizeof name, src, i);
      return DG_ERROR(DG_ERR_MESH, "%s: vertices %d %d %d are not 3 distinct indices in [0, %d)",
                      name, v[0], v[1], v[2], m->Nv);
    }
  }
  return DG_OK;
}

/* The connectivity being built: K x 4 each. */
typedef struct {
  face_key *keys; /* every face's key, sorted */
  int *EToE, *EToF, *ftag, *itag;
  unsigned char *tagged; /* a triangle has tagged the face */
} links;

/* Sort the faces' keys and pair equal ones; a key on one face only is a boundary face. */
static dg_status pair_faces(const dg_mesh *m, links *l, const dg_mesh_src *src) {
  const size_t nf = 4 * (size_t)m->K;
  face_key *keys = l->keys;
  for (size_t i = 0; i < nf; i++) {
    size_t k = i / 4;
    int f = (int)(i % 4);
    for (int j = 0; j < 3; j++) keys[i].v[j] = m->EToV[4 * k + (size_t)dg_face_vertices[f][j]];
    sort3(keys[i].v);
    keys[i].id = (int)i;
  }
  qsort(keys, nf, sizeof *keys, cmp_key);
  for (size_t i = 0; i < nf;) {
    size_t j = i + 1;
    while (j < nf && cmp_vertices(&keys[i], &keys[j]) == 0) j++;
    int a = keys[i].id;
    if (j - i == 1) { /* boundary: points to itself */
      l->EToE[a] = a / 4;
      l->EToF[a] = a % 4;
      l->ftag[a] = 0;
    } else if (j - i == 2) {
      int b = keys[i + 1].id;
      l->EToE[a] = b / 4;
      l->EToF[a] = b % 4;
      l->EToE[b] = a / 4;
      l->EToF[b] = a % 4;
      l->ftag[a] = l->ftag[b] = -1;
    } else {
      return shared_face_error(m, keys + i, (int)(j - i), src);
    }
    i = j;
  }
  return DG_OK;
}

/* Each triangle's tag on the face it lies on. */
static dg_status tag_faces(const dg_mesh *m, links *l, int ntri, const int *tri,
                           const int *tri_tag, const dg_mesh_src *src) {
  const size_t nf = 4 * (size_t)m->K;
  for (int i = 0; i < ntri; i++) {
    face_key key;
    memcpy(key.v, tri + 3 * (size_t)i, sizeof key.v);
    sort3(key.v);
    key.id = 0;
    const face_key *hit = bsearch(&key, l->keys, nf, sizeof *l->keys, cmp_vertices);
    if (!hit) {
      char name[600];
      tri_name(name, sizeof name, src, i);
      const int *v = key.v;
      return DG_ERROR(DG_ERR_MESH,
                      "%s is not a face of any tetrahedron: vertices (%g,%g,%g) (%g,%g,%g) "
                      "(%g,%g,%g)",
                      name, m->VX[v[0]], m->VY[v[0]], m->VZ[v[0]], m->VX[v[1]], m->VY[v[1]],
                      m->VZ[v[1]], m->VX[v[2]], m->VY[v[2]], m->VZ[v[2]]);
    }
    int a = hit->id;
    /* Triangles on interior faces (material interfaces, a total-field/scattered-field
     * surface) carry no boundary condition but keep their tag, on both sides; when several
     * triangles cover one face the first in the file wins. */
    const int b = 4 * l->EToE[a] + l->EToF[a];
    if (!l->tagged[a]) {
      if (b == a) l->ftag[a] = tri_tag[i];
      else l->itag[a] = l->itag[b] = tri_tag[i], l->tagged[b] = 1;
      l->tagged[a] = 1;
    }
  }
  return DG_OK;
}

static void links_free(links *l) {
  dg_free(&l->keys);
  dg_free(&l->EToE);
  dg_free(&l->EToF);
  dg_free(&l->ftag);
  dg_free(&l->itag);
  dg_free(&l->tagged);
}

dg_status dg_mesh_connect_src(dg_mesh *m, int ntri, const int *tri, const int *tri_tag,
                              const dg_mesh_src *src) {
  DG_CHECK(m != NULL, DG_ERR_INTERNAL, "dg_mesh_connect: no mesh");
  DG_CHECK(ntri >= 0 && (ntri == 0 || (tri && tri_tag)), DG_ERR_INTERNAL,
           "dg_mesh_connect: %d boundary triangles but no arrays", ntri);
  DG_CALL(check_indices(m, ntri, tri, src));
  dg_status st = DG_OK;
  size_t nf = 4 * (size_t)m->K;
  links l = {0};
  DG_CALL_GOTO(done, DG_ALLOC(l.keys, nf));
  DG_CALL_GOTO(done, DG_ALLOC(l.EToE, nf));
  DG_CALL_GOTO(done, DG_ALLOC(l.EToF, nf));
  DG_CALL_GOTO(done, DG_ALLOC(l.ftag, nf));
  DG_CALL_GOTO(done, DG_ALLOC(l.itag, nf));
  DG_CALL_GOTO(done, DG_ALLOC(l.tagged, nf));
  DG_CALL_GOTO(done, pair_faces(m, &l, src));
  int n_unmatched = 0, pair[2];
  DG_CALL_GOTO(done, find_unmatched_overlaps(m, l.EToE, l.EToF, &n_unmatched, pair));
  if (n_unmatched && !(src && (src->flags & DG_MESH_ALLOW_UNMATCHED))) {
    st = unmatched_error(m, n_unmatched, pair, src);
    goto done;
  }
  m->n_unmatched = n_unmatched;
  DG_CALL_GOTO(done, tag_faces(m, &l, ntri, tri, tri_tag, src));
  dg_free(&m->EToE);
  dg_free(&m->EToF);
  dg_free(&m->face_tag);
  dg_free(&m->iface_tag);
  m->EToE = l.EToE;
  m->EToF = l.EToF;
  m->face_tag = l.ftag;
  m->iface_tag = l.itag;
  l.EToE = l.EToF = l.ftag = l.itag = NULL;
done:
  links_free(&l);
  return st;
}

dg_status dg_mesh_connect(dg_mesh *m, int ntri, const int *tri, const int *tri_tag) {
  DG_CALL(dg_mesh_connect_src(m, ntri, tri, tri_tag, NULL));
  return DG_OK;
}

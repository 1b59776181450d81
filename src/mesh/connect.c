/* Face-to-face connectivity. Every element face is keyed by its sorted vertex triple; after
 * one qsort equal keys are adjacent, so matching is O(K log K) and needs no hash table.
 * Boundary triangles are then looked up by the same key with bsearch. */
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

dg_status dg_mesh_connect_src(dg_mesh *m, int ntri, const int *tri, const int *tri_tag,
                              const dg_mesh_src *src) {
  DG_CHECK(m != NULL, DG_ERR_INTERNAL, "dg_mesh_connect: no mesh");
  DG_CHECK(ntri >= 0 && (ntri == 0 || (tri && tri_tag)), DG_ERR_INTERNAL,
           "dg_mesh_connect: %d boundary triangles but no arrays", ntri);
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

  dg_status st = DG_OK;
  size_t nf = 4 * (size_t)m->K;
  face_key *keys = NULL;
  int *EToE = NULL, *EToF = NULL, *ftag = NULL;
  unsigned char *tagged = NULL;
  DG_CALL_GOTO(done, DG_ALLOC(keys, nf));
  DG_CALL_GOTO(done, DG_ALLOC(EToE, nf));
  DG_CALL_GOTO(done, DG_ALLOC(EToF, nf));
  DG_CALL_GOTO(done, DG_ALLOC(ftag, nf));
  DG_CALL_GOTO(done, DG_ALLOC(tagged, nf));
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
      EToE[a] = a / 4;
      EToF[a] = a % 4;
      ftag[a] = 0;
    } else if (j - i == 2) {
      int b = keys[i + 1].id;
      EToE[a] = b / 4;
      EToF[a] = b % 4;
      EToE[b] = a / 4;
      EToF[b] = a % 4;
      ftag[a] = ftag[b] = -1;
    } else {
      st = shared_face_error(m, keys + i, (int)(j - i), src);
      goto done;
    }
    i = j;
  }

  for (int i = 0; i < ntri; i++) {
    face_key key;
    memcpy(key.v, tri + 3 * (size_t)i, sizeof key.v);
    sort3(key.v);
    key.id = 0;
    const face_key *hit = bsearch(&key, keys, nf, sizeof *keys, cmp_vertices);
    if (!hit) {
      tri_name(name, sizeof name, src, i);
      const int *v = key.v;
      st = DG_ERROR(DG_ERR_MESH,
                    "%s is not a face of any tetrahedron: vertices (%g,%g,%g) (%g,%g,%g) "
                    "(%g,%g,%g)",
                    name, m->VX[v[0]], m->VY[v[0]], m->VZ[v[0]], m->VX[v[1]], m->VY[v[1]],
                    m->VZ[v[1]], m->VX[v[2]], m->VY[v[2]], m->VZ[v[2]]);
      goto done;
    }
    int a = hit->id;
    /* Triangles on interior faces (material interfaces) carry no boundary condition; when
     * several triangles cover one boundary face the first in the file wins. */
    if (EToE[a] == a / 4 && EToF[a] == a % 4 && !tagged[a]) {
      ftag[a] = tri_tag[i];
      tagged[a] = 1;
    }
  }

  dg_free(&m->EToE);
  dg_free(&m->EToF);
  dg_free(&m->face_tag);
  m->EToE = EToE;
  m->EToF = EToF;
  m->face_tag = ftag;
  EToE = EToF = ftag = NULL;
done:
  dg_free(&keys);
  dg_free(&EToE);
  dg_free(&EToF);
  dg_free(&ftag);
  dg_free(&tagged);
  return st;
}

dg_status dg_mesh_connect(dg_mesh *m, int ntri, const int *tri, const int *tri_tag) {
  DG_CALL(dg_mesh_connect_src(m, ntri, tri, tri_tag, NULL));
  return DG_OK;
}

/* Mesh object: allocation, orientation, simple geometric queries. */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "mesh/mesh.h"
#include "mesh/mesh_internal.h"

/* Must agree with refel.h: face f of the reference tetrahedron has these local vertices. */
const int dg_face_vertices[4][3] = {{0, 1, 2}, {0, 1, 3}, {1, 2, 3}, {0, 2, 3}};
const int dg_edge_vertices[6][2] = {{0, 1}, {1, 2}, {0, 2}, {0, 3}, {2, 3}, {1, 3}};

dg_status dg_mesh_alloc(dg_mesh **out, int Nv, int K) {
  *out = NULL;
  DG_CHECK(Nv >= 0 && K >= 0 && K <= INT_MAX / 4, DG_ERR_INPUT,
           "invalid mesh size: %d vertices, %d elements", Nv, K);
  dg_status st = DG_OK;
  dg_mesh *m = NULL;
  DG_CALL(DG_ALLOC(m, 1));
  m->Nv = Nv;
  m->K = K;
  m->K_owned = K;
  DG_CALL_GOTO(fail, DG_ALLOC(m->VX, Nv));
  DG_CALL_GOTO(fail, DG_ALLOC(m->VY, Nv));
  DG_CALL_GOTO(fail, DG_ALLOC(m->VZ, Nv));
  DG_CALL_GOTO(fail, DG_ALLOC(m->EToV, 4 * (size_t)K));
  DG_CALL_GOTO(fail, DG_ALLOC(m->elem_tag, K));
  /* EToE, EToF and face_tag stay NULL until dg_mesh_connect() fills them. */
  *out = m;
  return DG_OK;
fail:
  dg_mesh_destroy(&m);
  return st;
}

void dg_mesh_destroy(dg_mesh **pm) {
  if (!pm || !*pm) return;
  dg_mesh *m = *pm;
  DG_FREE_ALL(&m->VX, &m->VY, &m->VZ, &m->EToV, &m->elem_tag, &m->EToE, &m->EToF, &m->face_tag,
              &m->iface_tag, &m->phys, &m->curved, &m->ho_xyz, &m->face_period);
  dg_free(pm);
}

long dg_mesh_elem_number(const dg_mesh_src *src, int k) {
  return src && src->elem_id ? src->elem_id[k] : (long)k + 1;
}

void dg_mesh_elem_name(char *out, size_t n, const dg_mesh_src *src, int k) {
  if (src && src->path)
    snprintf(out, n, "%s: element %ld", src->path, dg_mesh_elem_number(src, k));
  else
    snprintf(out, n, "element %ld", dg_mesh_elem_number(src, k));
}

double dg_mesh_elem_volume(const dg_mesh *m, int k) {
  const int *v = m->EToV + 4 * (size_t)k;
  double a[3], b[3], c[3];
  a[0] = m->VX[v[1]] - m->VX[v[0]];
  a[1] = m->VY[v[1]] - m->VY[v[0]];
  a[2] = m->VZ[v[1]] - m->VZ[v[0]];
  b[0] = m->VX[v[2]] - m->VX[v[0]];
  b[1] = m->VY[v[2]] - m->VY[v[0]];
  b[2] = m->VZ[v[2]] - m->VZ[v[0]];
  c[0] = m->VX[v[3]] - m->VX[v[0]];
  c[1] = m->VY[v[3]] - m->VY[v[0]];
  c[2] = m->VZ[v[3]] - m->VZ[v[0]];
  double det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
               a[2] * (b[0] * c[1] - b[1] * c[0]);
  return det / 6.0;
}

double dg_mesh_longest_edge(const dg_mesh *m, int k) {
  const int *v = m->EToV + 4 * (size_t)k;
  double L2 = 0.0;
  for (int i = 0; i < 4; i++)
    for (int j = i + 1; j < 4; j++) {
      double dx = m->VX[v[i]] - m->VX[v[j]], dy = m->VY[v[i]] - m->VY[v[j]],
             dz = m->VZ[v[i]] - m->VZ[v[j]];
      double d2 = dx * dx + dy * dy + dz * dz;
      if (d2 > L2 || d2 != d2) L2 = d2;
    }
  return sqrt(L2);
}

/* Swapping v2 and v3 exchanges local faces 0=(v0,v1,v2) and 1=(v0,v1,v3); faces 2 and 3
 * keep their vertex sets. */
static int flipped_face(int f) { return f == 0 ? 1 : f == 1 ? 0 : f; }

dg_status dg_mesh_orient_src(dg_mesh *m, const dg_mesh_src *src) {
  char name[600];
  /* First check everything, so a rejected mesh is left untouched. */
  for (int k = 0; k < m->K; k++) {
    const int *v = m->EToV + 4 * (size_t)k;
    for (int i = 0; i < 4; i++)
      if (v[i] < 0 || v[i] >= m->Nv) {
        dg_mesh_elem_name(name, sizeof name, src, k);
        return DG_ERROR(DG_ERR_MESH, "%s: vertex index %d out of range [0, %d)", name, v[i],
                        m->Nv);
      }
    double vol = dg_mesh_elem_volume(m, k), L = dg_mesh_longest_edge(m, k);
    int nan_coord = 0;
    for (int i = 0; i < 4; i++) nan_coord |= isnan(m->VX[v[i]] + m->VY[v[i]] + m->VZ[v[i]]);
    const double L3 = L * L * L;
    if (!nan_coord && (!isfinite(vol) || !isfinite(L3) || (L > 0.0 && L3 < 1e-285))) {
      /* Volumes and Jacobians are products of three coordinate differences: they overflow
       * or underflow double precision long before the coordinates themselves do. */
      dg_mesh_elem_name(name, sizeof name, src, k);
      return DG_ERROR(DG_ERR_MESH,
                      "%s: coordinates out of the range double precision can handle: volume "
                      "%.3g, longest edge %.3g (vertex (%g,%g,%g)); scale the mesh to lengths "
                      "between about 1e-90 and 1e90",
                      name, vol, L, m->VX[v[0]], m->VY[v[0]], m->VZ[v[0]]);
    }
    /* A regular tetrahedron has volume 0.118 L^3; 1e-12 L^3 is flat to rounding. The
     * negated test also catches NaN coordinates. */
    if (!(fabs(vol) >= 1e-12 * L * L * L) || !(L > 0.0) || !isfinite(vol)) {
      dg_mesh_elem_name(name, sizeof name, src, k);
      return DG_ERROR(DG_ERR_MESH,
                      "%s is degenerate: volume %.3g with longest edge %.3g (vertices at "
                      "(%g,%g,%g) (%g,%g,%g) (%g,%g,%g) (%g,%g,%g))",
                      name, vol, L, m->VX[v[0]], m->VY[v[0]], m->VZ[v[0]], m->VX[v[1]],
                      m->VY[v[1]], m->VZ[v[1]], m->VX[v[2]], m->VY[v[2]], m->VZ[v[2]],
                      m->VX[v[3]], m->VY[v[3]], m->VZ[v[3]]);
    }
  }
  int nflip = 0;
  unsigned char *flipped = NULL;
  if (m->EToE) DG_CALL(DG_ALLOC(flipped, m->K));
  for (int k = 0; k < m->K; k++) {
    if (dg_mesh_elem_volume(m, k) > 0.0) continue;
    int *v = m->EToV + 4 * (size_t)k;
    int t = v[2];
    v[2] = v[3];
    v[3] = t;
    if (m->ho_xyz)
      dg_mesh_ho_flip(m->geom_order, m->ho_xyz + 3 * (size_t)dg_mesh_ho_nodes(m->geom_order) * k);
    nflip++;
    if (flipped) flipped[k] = 1;
  }
  m->n_fixed += nflip;
  if (flipped && nflip > 0) {
    /* Already connected: permute the flipped elements' face columns, then renumber every
     * reference to a face of a flipped element. */
    for (int k = 0; k < m->K; k++) {
      if (!flipped[k]) continue;
      size_t r = 4 * (size_t)k;
      int t;
      t = m->EToE[r]; m->EToE[r] = m->EToE[r + 1]; m->EToE[r + 1] = t;
      t = m->EToF[r]; m->EToF[r] = m->EToF[r + 1]; m->EToF[r + 1] = t;
      t = m->face_tag[r]; m->face_tag[r] = m->face_tag[r + 1]; m->face_tag[r + 1] = t;
      if (m->iface_tag) {
        t = m->iface_tag[r]; m->iface_tag[r] = m->iface_tag[r + 1]; m->iface_tag[r + 1] = t;
      }
    }
    for (size_t i = 0; i < 4 * (size_t)m->K; i++)
      if (flipped[m->EToE[i]]) m->EToF[i] = flipped_face(m->EToF[i]);
  }
  dg_free(&flipped);
  return DG_OK;
}

dg_status dg_mesh_orient(dg_mesh *m) {
  DG_CHECK(m != NULL, DG_ERR_INTERNAL, "dg_mesh_orient: no mesh");
  DG_CALL(dg_mesh_orient_src(m, NULL));
  return DG_OK;
}

int dg_mesh_phys_tag(const dg_mesh *m, int dim, const char *name) {
  if (!m || !name) return -1;
  for (int i = 0; i < m->nphys; i++)
    if (m->phys[i].dim == dim && strcmp(m->phys[i].name, name) == 0) return m->phys[i].tag;
  return -1;
}

void dg_mesh_bbox(const dg_mesh *m, double lo[3], double hi[3]) {
  lo[0] = lo[1] = lo[2] = 0.0;
  hi[0] = hi[1] = hi[2] = 0.0;
  if (!m || m->Nv <= 0) return;
  lo[0] = hi[0] = m->VX[0];
  lo[1] = hi[1] = m->VY[0];
  lo[2] = hi[2] = m->VZ[0];
  for (int i = 1; i < m->Nv; i++) {
    lo[0] = fmin(lo[0], m->VX[i]);
    hi[0] = fmax(hi[0], m->VX[i]);
    lo[1] = fmin(lo[1], m->VY[i]);
    hi[1] = fmax(hi[1], m->VY[i]);
    lo[2] = fmin(lo[2], m->VZ[i]);
    hi[2] = fmax(hi[2], m->VZ[i]);
  }
}

dg_status dg_mesh_set_ho_nodes(dg_mesh *m, int order, double *ho_xyz) {
  DG_FREE_ALL(&m->curved, &m->ho_xyz);
  m->n_curved = 0;
  m->geom_order = 0;
  if (!ho_xyz) return DG_OK;
  if (order < 2 || order > DG_MESH_MAX_GEOM_ORDER) {
    dg_free(&ho_xyz);
    return DG_ERROR(DG_ERR_INTERNAL, "dg_mesh_set_ho_nodes: geometric order %d (2 to %d)", order,
                    DG_MESH_MAX_GEOM_ORDER);
  }
  unsigned char *curved = NULL;
  const dg_status st = DG_ALLOC(curved, m->K + 1);
  if (st != DG_OK) {
    dg_free(&ho_xyz);
    return st;
  }
  int idx[DG_MESH_LATTICE_MAX][4];
  const int nho = dg_mesh_ho_nodes(order);
  (void)dg_mesh_gmsh_tet_lattice(order, idx);
  int n = 0;
  for (int k = 0; k < m->K; k++) {
    const double *e = ho_xyz + 3 * (size_t)nho * k;
    const double tol = DG_MESH_CURVED_TOL * dg_mesh_longest_edge(m, k);
    for (int j = 0; j < nho && !curved[k]; j++) {
      double a[3];
      dg_mesh_lattice_affine(m, k, order, idx[4 + j], a);
      const double d = hypot(hypot(e[3 * j] - a[0], e[3 * j + 1] - a[1]), e[3 * j + 2] - a[2]);
      curved[k] = !(d <= tol);
    }
    n += curved[k];
  }
  if (n == 0) {
    DG_FREE_ALL(&curved, &ho_xyz);
    return DG_OK;
  }
  m->curved = curved;
  m->ho_xyz = ho_xyz;
  m->n_curved = n;
  m->geom_order = order;
  return DG_OK;
}

dg_status dg_mesh_copy_curved(dg_mesh *dst, const dg_mesh *src, const int *l2g) {
  DG_FREE_ALL(&dst->curved, &dst->ho_xyz);
  dst->n_curved = 0;
  dst->geom_order = 0;
  if (!src->n_curved) return DG_OK;
  const size_t row = 3 * (size_t)dg_mesh_ho_nodes(src->geom_order);
  DG_CALL(DG_ALLOC(dst->curved, dst->K + 1));
  dg_status st = DG_OK;
  DG_CALL_GOTO(fail, DG_ALLOC(dst->ho_xyz, row * dst->K + 1));
  for (int k = 0; k < dst->K; k++) {
    const int g = l2g[k];
    DG_CHECK_GOTO(fail, g >= 0 && g < src->K, DG_ERR_INTERNAL, "element map: %d of %d", g,
                  src->K);
    dst->curved[k] = src->curved[g];
    dst->n_curved += src->curved[g];
    memcpy(dst->ho_xyz + row * k, src->ho_xyz + row * g, row * sizeof(double));
  }
  dst->geom_order = src->geom_order;
  return DG_OK;
fail:
  DG_FREE_ALL(&dst->curved, &dst->ho_xyz);
  dst->n_curved = 0;
  return st;
}

/* The map of order 3 and more (dg_mesh_elem_map): the equispaced Lagrange basis. */
static void elem_map_lattice(const dg_mesh *m, int k, const double l[4], const double dl[4][3],
                             double x[3], double dxdr[3][3]) {
  const int order = m->geom_order, nho = dg_mesh_ho_nodes(order);
  int idx[DG_MESH_LATTICE_MAX][4];
  const int n = dg_mesh_gmsh_tet_lattice(order, idx);
  double w[DG_MESH_LATTICE_MAX], dw[DG_MESH_LATTICE_MAX][4];
  dg_mesh_lattice_basis(order, n, (const int(*)[4])idx, l, w, dxdr ? dw : NULL);
  const int *v = m->EToV + 4 * (size_t)k;
  const double *ho = m->ho_xyz + 3 * (size_t)nho * k;
  for (int d = 0; d < 3; d++) {
    x[d] = 0;
    for (int j = 0; dxdr && j < 3; j++) dxdr[d][j] = 0;
  }
  for (int i = 0; i < n; i++) {
    double p[3];
    if (i < 4)
      p[0] = m->VX[v[i]], p[1] = m->VY[v[i]], p[2] = m->VZ[v[i]];
    else
      p[0] = ho[3 * (i - 4)], p[1] = ho[3 * (i - 4) + 1], p[2] = ho[3 * (i - 4) + 2];
    for (int d = 0; d < 3; d++) {
      x[d] += w[i] * p[d];
      for (int j = 0; dxdr && j < 3; j++) {
        const double dr = dw[i][0] * dl[0][j] + dw[i][1] * dl[1][j] + dw[i][2] * dl[2][j] +
                          dw[i][3] * dl[3][j];
        dxdr[d][j] += dr * p[d];
      }
    }
  }
}

void dg_mesh_elem_map(const dg_mesh *m, int k, const double rst[3], double x[3],
                      double dxdr[3][3]) {
  const int *v = m->EToV + 4 * (size_t)k;
  /* barycentric coordinates and their (constant) derivatives in r, s, t */
  const double l[4] = {-0.5 * (1 + rst[0] + rst[1] + rst[2]), 0.5 * (1 + rst[0]),
                       0.5 * (1 + rst[1]), 0.5 * (1 + rst[2])};
  static const double dl[4][3] = {
      {-0.5, -0.5, -0.5}, {0.5, 0, 0}, {0, 0.5, 0}, {0, 0, 0.5}};
  const int curved = m->curved && m->curved[k];
  if (curved && m->geom_order > 2) {
    elem_map_lattice(m, k, l, dl, x, dxdr);
    return;
  }
  /* Affine, or quadratic (its own closed form, as before the higher orders). */
  double w[10], dw[10][3], p[10][3];
  for (int a = 0; a < 4; a++) {
    p[a][0] = m->VX[v[a]], p[a][1] = m->VY[v[a]], p[a][2] = m->VZ[v[a]];
    w[a] = curved ? l[a] * (2 * l[a] - 1) : l[a];
    for (int j = 0; j < 3; j++) dw[a][j] = (curved ? 4 * l[a] - 1 : 1) * dl[a][j];
  }
  const int n = curved ? 10 : 4;
  for (int e = 0; curved && e < 6; e++) {
    const int a = dg_edge_vertices[e][0], b = dg_edge_vertices[e][1];
    for (int d = 0; d < 3; d++) p[4 + e][d] = m->ho_xyz[18 * (size_t)k + 3 * e + d];
    w[4 + e] = 4 * l[a] * l[b];
    for (int j = 0; j < 3; j++) dw[4 + e][j] = 4 * (l[b] * dl[a][j] + l[a] * dl[b][j]);
  }
  for (int d = 0; d < 3; d++) {
    x[d] = 0;
    for (int i = 0; i < n; i++) x[d] += w[i] * p[i][d];
    for (int j = 0; dxdr && j < 3; j++) {
      dxdr[d][j] = 0;
      for (int i = 0; i < n; i++) dxdr[d][j] += dw[i][j] * p[i][d];
    }
  }
}

/* The re-placement of a curved element's nodes inside its faces and inside the element
 * (dg_mesh_smooth_ho_nodes; mesh.h says why and how). Apart from ho_nodes.c, whose node
 * lattices it uses, because it also needs mesh.c (the element's map, setting the nodes):
 * ho_nodes.c needs nothing of mesh.c. */
#include <math.h>
#include <string.h>

#include "mesh/mesh.h"
#include "mesh/mesh_internal.h"

/* The Lagrange interpolant through (s[i], v[i]), i < n (distinct s), at x. */
static double lagrange_1d(int n, const double *s, const double *v, double x) {
  double r = 0;
  for (int i = 0; i < n; ++i) {
    double w = 1;
    for (int j = 0; j < n; ++j)
      if (j != i) w *= (x - s[j]) / (s[i] - s[j]);
    r += w * v[i];
  }
  return r;
}

/* The determinant of a 3x3 matrix. */
static double det3(const double A[3][3]) {
  return A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
         A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
         A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
}

/* One element's map as a sum of parts (the polynomial of degree k its nodes define, with
 * every part of the lowest degree its data allow):
 *   x(l) = sum_a l_a X_a                                    the affine map
 *        + sum_edges l_a l_b p_e(l_b - l_a)                 each edge's bend, p_e of degree k-2
 *        + sum_kept faces l_a l_b l_c q_f(l_b - l_a, l_c - l_a)   a face's bulge, q_f of degree k-3
 * p_e from the edge's nodes, q_f from a kept face's nodes (what the first two parts leave). */
typedef struct {
  int order;
  double X[4][3];
  double es[6][DG_MESH_MAX_GEOM_ORDER], ev[6][DG_MESH_MAX_GEOM_ORDER][3]; /* p_e at its nodes */
  int keep[4];
  double q[4][3][3]; /* q_f = q[f][c][0] + q[f][c][1] (l_b - l_a) + q[f][c][2] (l_c - l_a) */
} elem_parts;

static const int part_edge[6][2] = {{0, 1}, {1, 2}, {2, 0}, {3, 0}, {3, 2}, {3, 1}};

/* The affine map and the edges' bends at barycentric l. */
static void parts_edges(const elem_parts *p, const double l[4], double x[3]) {
  for (int c = 0; c < 3; ++c) {
    x[c] = 0;
    for (int a = 0; a < 4; ++a) x[c] += l[a] * p->X[a][c];
  }
  for (int e = 0; e < 6; ++e) {
    const int a = part_edge[e][0], b = part_edge[e][1];
    const double w = l[a] * l[b];
    if (w == 0) continue;
    for (int c = 0; c < 3; ++c) {
      double v[DG_MESH_MAX_GEOM_ORDER];
      for (int j = 0; j < p->order - 1; ++j) v[j] = p->ev[e][j][c];
      x[c] += w * lagrange_1d(p->order - 1, p->es[e], v, l[b] - l[a]);
    }
  }
}

/* Face f's bulge basis at l: l_a l_b l_c times 1, l_b - l_a, l_c - l_a. */
static void bulge_basis(int f, const double l[4], double B[3]) {
  const int *v = dg_face_vertices[f];
  const double bub = l[v[0]] * l[v[1]] * l[v[2]];
  B[0] = bub, B[1] = bub * (l[v[1]] - l[v[0]]), B[2] = bub * (l[v[2]] - l[v[0]]);
}

/* Reference coordinates of the tetrahedron's vertices (refel.h). */
static const double ref_vertex[4][3] = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};

/* Element k's parts from its nodes (X: its n lattice nodes' coordinates; a kept face's inner
 * nodes are moved along the surface there, see dg_mesh_smooth_ho_nodes). Fails only for a
 * kept face whose bulge cannot be fitted (never for Gmsh's lattices). */
static int parts_fit(const dg_mesh *m, int k, int order, int n, const int (*idx)[4],
                     double (*X)[3], elem_parts *p) {
  p->order = order;
  memcpy(p->X, X, sizeof p->X);
  for (int e = 0; e < 6; ++e) {
    const int a = part_edge[e][0], b = part_edge[e][1];
    int j = 0;
    for (int i = 4; i < n; ++i) {
      if (idx[i][a] + idx[i][b] != order) continue;
      const double la = (double)idx[i][a] / order, lb = (double)idx[i][b] / order;
      p->es[e][j] = lb - la;
      for (int c = 0; c < 3; ++c)
        p->ev[e][j][c] = (X[i][c] - la * X[a][c] - lb * X[b][c]) / (la * lb);
      ++j;
    }
  }
  double L = 0;
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b)
      L = fmax(L, hypot(hypot(X[a][0] - X[b][0], X[a][1] - X[b][1]), X[a][2] - X[b][2]));
  for (int f = 0; f < 4; ++f) {
    const int *v = dg_face_vertices[f], opp = 6 - v[0] - v[1] - v[2];
    const int nb = m->EToE[4 * (size_t)k + f];
    const int surface = nb == k || m->elem_tag[nb] != m->elem_tag[k] ||
                        (m->iface_tag && m->iface_tag[4 * (size_t)k + f] != 0);
    double u[3], w[3], nr[3];
    for (int c = 0; c < 3; ++c) u[c] = X[v[1]][c] - X[v[0]][c], w[c] = X[v[2]][c] - X[v[0]][c];
    nr[0] = u[1] * w[2] - u[2] * w[1];
    nr[1] = u[2] * w[0] - u[0] * w[2];
    nr[2] = u[0] * w[1] - u[1] * w[0];
    const double nn = sqrt(nr[0] * nr[0] + nr[1] * nr[1] + nr[2] * nr[2]);
    int off = 0; /* a node of the face off its vertices' plane: it lies on a curved surface */
    for (int i = 4; i < n && !off; ++i) {
      if (idx[i][opp]) continue;
      double d = 0;
      for (int c = 0; c < 3; ++c) d += (X[i][c] - X[v[0]][c]) * nr[c] / nn;
      off = !(fabs(d) <= DG_MESH_CURVED_TOL * L);
    }
    p->keep[f] = surface && off;
    memset(p->q[f], 0, sizeof p->q[f]);
    if (!p->keep[f]) continue;
    double A[3][3] = {{0}}, R[3][3] = {{0}};
    int ni = 0;
    for (int i = 4; i < n; ++i) {
      if (idx[i][opp] || !idx[i][v[0]] || !idx[i][v[1]] || !idx[i][v[2]]) continue;
      double l[4], y[3], rst[3], x[3], d[3][3], t[2][3], nu[3];
      for (int a = 0; a < 4; ++a) l[a] = (double)idx[i][a] / order;
      parts_edges(p, l, y);
      /* the surface's normal at the node, from the element's map through the file's nodes:
       * the node moves along the surface (its tangent plane) to where the edges put it */
      for (int j = 0; j < 3; ++j) rst[j] = -1 + 2 * l[j + 1];
      dg_mesh_elem_map(m, k, rst, x, d);
      for (int c = 0; c < 3; ++c)
        for (int j = 0; j < 2; ++j) {
          t[j][c] = 0;
          for (int r = 0; r < 3; ++r)
            t[j][c] += d[c][r] * (ref_vertex[v[j + 1]][r] - ref_vertex[v[0]][r]);
        }
      nu[0] = t[0][1] * t[1][2] - t[0][2] * t[1][1];
      nu[1] = t[0][2] * t[1][0] - t[0][0] * t[1][2];
      nu[2] = t[0][0] * t[1][1] - t[0][1] * t[1][0];
      const double nl = sqrt(nu[0] * nu[0] + nu[1] * nu[1] + nu[2] * nu[2]);
      double h = 0; /* the node's height above y along the normal */
      for (int c = 0; c < 3; ++c) h += (X[i][c] - y[c]) * nu[c] / (nl * nl);
      for (int c = 0; c < 3; ++c) X[i][c] = y[c] + h * nu[c];
      bulge_basis(f, l, A[ni]);
      for (int c = 0; c < 3; ++c) R[ni][c] = X[i][c] - y[c];
      ++ni;
    }
    if (ni == 1) { /* order 3: a constant bulge */
      for (int c = 0; c < 3; ++c) p->q[f][c][0] = R[0][c] / A[0][0];
      continue;
    }
    const double det = det3(A);
    if (!(fabs(det) > 0)) return 0;
    for (int c = 0; c < 3; ++c)
      for (int col = 0; col < 3; ++col) { /* Cramer's rule */
        double T[3][3];
        for (int r = 0; r < 3; ++r)
          for (int j = 0; j < 3; ++j) T[r][j] = j == col ? R[r][c] : A[r][j];
        p->q[f][c][col] = det3(T) / det;
      }
  }
  return 1;
}

dg_status dg_mesh_smooth_ho_nodes(dg_mesh *m) {
  const int order = m->geom_order, nho = dg_mesh_ho_nodes(order);
  if (order < 3 || !m->ho_xyz) return DG_OK; /* order 2 has no nodes inside faces */
  DG_CHECK(m->EToE && m->elem_tag, DG_ERR_INTERNAL, "dg_mesh_smooth_ho_nodes: mesh not connected");
  int idx[DG_MESH_LATTICE_MAX][4];
  const int n = dg_mesh_gmsh_tet_lattice(order, idx);
  for (int k = 0; k < m->K; ++k) {
    if (!m->curved[k]) continue;
    double *ho = m->ho_xyz + 3 * (size_t)nho * k, X[DG_MESH_LATTICE_MAX][3];
    const int *v = m->EToV + 4 * (size_t)k;
    for (int a = 0; a < 4; ++a) X[a][0] = m->VX[v[a]], X[a][1] = m->VY[v[a]], X[a][2] = m->VZ[v[a]];
    memcpy(X[4], ho, 3 * (size_t)nho * sizeof *ho);
    elem_parts p;
    DG_CHECK(parts_fit(m, k, order, n, (const int(*)[4])idx, X, &p), DG_ERR_MESH,
             "element %d: the nodes of one of its faces are degenerate", k + 1);
    for (int i = 4; i < n; ++i) {
      int nz = 0, zero = -1;
      for (int a = 0; a < 4; ++a) {
        nz += idx[i][a] > 0;
        if (!idx[i][a]) zero = a;
      }
      if (nz == 2) continue; /* edge nodes stay */
      if (nz == 3) {         /* inside a face: a kept face's stay */
        int f = 0;
        while (6 - dg_face_vertices[f][0] - dg_face_vertices[f][1] - dg_face_vertices[f][2] != zero)
          ++f;
        if (p.keep[f]) { /* moved along its surface (parts_fit) */
          memcpy(ho + 3 * (i - 4), X[i], sizeof X[i]);
          continue;
        }
      }
      double l[4], y[3];
      for (int a = 0; a < 4; ++a) l[a] = (double)idx[i][a] / order;
      parts_edges(&p, l, y);
      for (int f = 0; nz == 4 && f < 4; ++f) {
        if (!p.keep[f]) continue;
        double B[3];
        bulge_basis(f, l, B);
        for (int c = 0; c < 3; ++c)
          y[c] += p.q[f][c][0] * B[0] + p.q[f][c][1] * B[1] + p.q[f][c][2] * B[2];
      }
      memcpy(ho + 3 * (i - 4), y, sizeof y);
    }
  }
  /* decide again which elements are curved (one whose only bend was inside a face may not be) */
  double *xyz = m->ho_xyz;
  m->ho_xyz = NULL;
  DG_CALL(dg_mesh_set_ho_nodes(m, order, xyz));
  return DG_OK;
}

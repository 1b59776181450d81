/* Gmsh's high-order tetrahedra (order 2 to 4): where their nodes lie on the reference element
 * and in what order (Gmsh reference manual, "Node ordering": vertices, then the edge nodes
 * edge by edge in Gmsh's edge order and direction, then the face nodes face by face, each
 * face's ordered as a triangle of lower order, then the interior nodes as a tetrahedron of
 * lower order, both recursively), the Lagrange basis of those equispaced nodes (the element's
 * map, dg_mesh_elem_map), and how a reorientation permutes them. The smoothing of the nodes
 * inside faces and elements is ho_smooth.c's. */
#include <string.h>

#include "mesh/mesh.h"
#include "mesh/mesh_internal.h"

/* Gmsh's tetrahedron: its edges and faces in order, each with its direction (MTetrahedron);
 * the triangle's edges. */
static const int gmsh_tet_edge[6][2] = {{0, 1}, {1, 2}, {2, 0}, {3, 0}, {3, 2}, {3, 1}};
static const int gmsh_tet_face[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {3, 1, 2}};
static const int gmsh_tri_edge[3][2] = {{0, 1}, {1, 2}, {2, 0}};

int dg_mesh_ho_nodes(int k) {
  return k < 2 || k > DG_MESH_MAX_GEOM_ORDER ? 0 : (k + 1) * (k + 2) * (k + 3) / 6 - 4;
}

/* The order-m triangle's nodes in Gmsh's order (m >= 0; none for m < 0), integer barycentric
 * coordinates summing to m: vertices, edge nodes, then the interior as the order m - 3
 * triangle shifted by one in every coordinate. Returns the count, (m+1)(m+2)/2. */
static int tri_lattice(int m, int (*idx)[3]) {
  if (m < 0) return 0;
  if (m == 0) {
    idx[0][0] = idx[0][1] = idx[0][2] = 0;
    return 1;
  }
  int n = 0;
  for (int a = 0; a < 3; ++a, ++n)
    for (int c = 0; c < 3; ++c) idx[n][c] = c == a ? m : 0;
  for (int e = 0; e < 3; ++e)
    for (int j = 1; j < m; ++j, ++n) {
      for (int c = 0; c < 3; ++c) idx[n][c] = 0;
      idx[n][gmsh_tri_edge[e][0]] = m - j;
      idx[n][gmsh_tri_edge[e][1]] = j;
    }
  const int in = tri_lattice(m - 3, idx + n);
  for (int i = n; i < n + in; ++i)
    for (int c = 0; c < 3; ++c) idx[i][c] += 1;
  return n + in;
}

/* The same for the tetrahedron (m >= 0). */
static int tet_lattice(int m, int (*idx)[4]) {
  if (m < 0) return 0;
  if (m == 0) {
    idx[0][0] = idx[0][1] = idx[0][2] = idx[0][3] = 0;
    return 1;
  }
  int n = 0;
  for (int a = 0; a < 4; ++a, ++n)
    for (int c = 0; c < 4; ++c) idx[n][c] = c == a ? m : 0;
  for (int e = 0; e < 6; ++e)
    for (int j = 1; j < m; ++j, ++n) {
      for (int c = 0; c < 4; ++c) idx[n][c] = 0;
      idx[n][gmsh_tet_edge[e][0]] = m - j;
      idx[n][gmsh_tet_edge[e][1]] = j;
    }
  for (int f = 0; f < 4; ++f) {
    int sub[DG_MESH_LATTICE_MAX][3];
    const int ns = tri_lattice(m - 3, sub);
    for (int i = 0; i < ns; ++i, ++n) {
      for (int c = 0; c < 4; ++c) idx[n][c] = 0;
      for (int c = 0; c < 3; ++c) idx[n][gmsh_tet_face[f][c]] = sub[i][c] + 1;
    }
  }
  const int in = tet_lattice(m - 4, idx + n);
  for (int i = n; i < n + in; ++i)
    for (int c = 0; c < 4; ++c) idx[i][c] += 1;
  return n + in;
}

int dg_mesh_gmsh_tet_lattice(int k, int (*idx)[4]) {
  if (k < 1 || k > DG_MESH_MAX_GEOM_ORDER) return 0;
  return tet_lattice(k, idx);
}

/* P_p(l) = prod_{j<p} (k l - j) / (j + 1), the factor of the equispaced basis for a node p/k
 * along one barycentric coordinate, and its derivative in l, for p = 0..k. */
static void factors(int k, double l, double P[DG_MESH_MAX_GEOM_ORDER + 1],
                    double dP[DG_MESH_MAX_GEOM_ORDER + 1]) {
  P[0] = 1, dP[0] = 0;
  for (int p = 0; p < k; ++p) {
    P[p + 1] = P[p] * (k * l - p) / (p + 1);
    dP[p + 1] = (dP[p] * (k * l - p) + P[p] * k) / (p + 1);
  }
}

void dg_mesh_lattice_basis(int k, int n, const int (*idx)[4], const double l[4], double *w,
                           double (*dw)[4]) {
  double P[4][DG_MESH_MAX_GEOM_ORDER + 1], dP[4][DG_MESH_MAX_GEOM_ORDER + 1];
  for (int a = 0; a < 4; ++a) factors(k, l[a], P[a], dP[a]);
  for (int i = 0; i < n; ++i) {
    const int *p = idx[i];
    w[i] = P[0][p[0]] * P[1][p[1]] * P[2][p[2]] * P[3][p[3]];
    if (!dw) continue;
    for (int a = 0; a < 4; ++a) {
      double d = dP[a][p[a]];
      for (int b = 0; b < 4; ++b)
        if (b != a) d *= P[b][p[b]];
      dw[i][a] = d;
    }
  }
}

void dg_mesh_lattice_affine(const dg_mesh *m, int k, int order, const int idx[4], double x[3]) {
  const int *v = m->EToV + 4 * (size_t)k;
  const double *X[3] = {m->VX, m->VY, m->VZ};
  for (int d = 0; d < 3; ++d) {
    double s = 0;
    for (int a = 0; a < 4; ++a)
      if (idx[a]) s += idx[a] * X[d][v[a]];
    x[d] = s / order;
  }
}

void dg_mesh_ho_flip(int order, double *xyz) {
  int idx[DG_MESH_LATTICE_MAX][4];
  const int n = dg_mesh_gmsh_tet_lattice(order, idx), nho = n - 4;
  if (nho <= 0) return;
  double old[3 * DG_MESH_LATTICE_MAX];
  memcpy(old, xyz, 3 * (size_t)nho * sizeof *xyz);
  /* With vertices 2 and 3 swapped, node i (barycentric idx[i] in the new vertex order) is the
   * old node whose coordinates are idx[i] with entries 2 and 3 exchanged. */
  for (int i = 4; i < n; ++i) {
    const int want[4] = {idx[i][0], idx[i][1], idx[i][3], idx[i][2]};
    for (int j = 4; j < n; ++j)
      if (memcmp(idx[j], want, sizeof want) == 0) {
        memcpy(xyz + 3 * (i - 4), old + 3 * (j - 4), 3 * sizeof *xyz);
        break;
      }
  }
}

/* Geometry of a mesh for a given reference element: physical node coordinates, the affine
 * map's metric terms, face normals and surface Jacobians, and the node connectivity
 * vmapM/vmapP (Hesthaven & Warburton ch. 6 and 10). Curved elements (mesh.h) have their own
 * data, per node, per face node and per element matrices (dg_geom_curved). */
#ifndef DG_DG_GEOM_H
#define DG_DG_GEOM_H

#include "core/status.h"
#include "mesh/mesh.h"
#include "refel/refel.h"

/* The curved elements' geometry, row c for the c-th curved element (in element order).
 * Their map is the mesh's own, of its geometric order k = 2..4 (dg_mesh_elem_map), at every
 * order N: for k <= N it is its own interpolant at the element's nodes (the isoparametric
 * map when k = N); for k > N (N = 1 on a second-order mesh, N < 4 on a fourth-order one) it
 * stays the order-k map, not its interpolant at the N-th order nodes, the geometry the mesh
 * gives; the metric terms are its exact derivatives. On such an element J varies, so the
 * mass matrix is no scaled reference matrix and the operator's integrals are taken by
 * quadrature, as for the curvilinear elements of Hesthaven & Warburton, Nodal DG Methods
 * (2008) sec. 6.6 (per-element mass matrix from a cubature, face integrals from Gauss rules
 * on the faces): the rules below (dg_geom_curved_degrees) are exact for the strong form's
 * volume and face terms, so the discrete energy identity of the affine scheme holds
 * (dg/maxwell_curved.c). */
typedef struct {
  double *rx, *ry, *rz, *sx, *sy, *sz, *tx, *ty, *tz, *J; /* n_curved x Np: at each node */
  /* n_curved x 4Nfp, face f's node i at f*Nfp + i: outward unit normal, surface Jacobian
   * (with respect to the face's parameter triangle, as sJ below) and sJ/J, at that node */
  double *nx, *ny, *nz, *sJ, *Fscale;
  int order;    /* the map's geometric order k (the mesh's geom_order) */
  /* n_curved x Np x Np: mass matrix int l_i l_j dx (exact: J has degree 3(k - 1)) */
  double *M;
  double *Minv; /* n_curved x Np x Np: its inverse */
  /* Volume rule of degree 2N+2k-3, the same on every curved element: nq points, the nodal
   * basis (nq x Np, point-major) and its r, s, t derivatives there. */
  int nq;
  double *Lq, *Lrq, *Lsq, *Ltq;
  /* n_curved x 9 x nq: the weight times J times rx ry rz sx sy sz tx ty tz at each point
   * (J rx etc. are the cofactors of the order-k map: polynomials of degree 2(k - 1)). */
  double *Wq;
  /* Face rule of degree 2N+2k-2 on each face's parameter triangle: nfq points per face, face
   * f's nodal basis (its Nfp face nodes) at them, 4 x nfq x Nfp. */
  int nfq;
  double *Lf;
  /* n_curved x 4 x nfq x 4: at face f's point p, the outward unit normal and the weight
   * times sJ (nx, ny, nz, w sJ). */
  double *Fq;
} dg_geom_curved;

typedef struct {
  int K, N, Np, Nfp;
  const dg_mesh *mesh;  /* borrowed */
  const dg_refel *ref;  /* borrowed */
  double *x, *y, *z;    /* K*Np physical coordinates of the nodes, element-major */
  /* Metric terms of the affine map, one per element: rx = dr/dx etc., J = det(dx/dr);
   * NaN for a curved element (its own are in cv). */
  double *rx, *ry, *rz, *sx, *sy, *sz, *tx, *ty, *tz, *J;
  /* Per face (K*4): outward unit normal, surface Jacobian, Fscale = sJ/J; NaN on a curved
   * element's faces. */
  double *nx, *ny, *nz, *sJ, *Fscale;
  /* Curved elements: how many, each element's row in cv (-1 for an affine one; NULL when
   * there are none) and their data. */
  int n_curved;
  int *curved;
  dg_geom_curved cv;
  /* Per face node (K*4*Nfp), indices into K*Np: own node, and the matching node of the
   * neighbour (the own node again on a boundary face). */
  int *vmapM, *vmapP;
} dg_geom;

dg_status dg_geom_create(dg_geom **out, const dg_mesh *m, const dg_refel *r) DG_NODISCARD;
void dg_geom_destroy(dg_geom **g);

/* Element k's row in g->cv, or -1 when it is affine. */
static inline int dg_geom_curved_row(const dg_geom *g, int k) { return g->curved ? g->curved[k] : -1; }

/* The degrees of the curved elements' rules at order N on a map of geometric order k: the
 * volume rule 2N + 2k - 3 (l_i, J rx ..., d_r u), the face rule 2N + 2k - 2 (l_i, n sJ, u),
 * the mass matrix's 2N + 3k - 3 (l_i l_j J); at k = 2: 2N + 1, 2N + 2, 2N + 3. */
void dg_geom_curved_degrees(int N, int k, int *volume, int *face, int *mass);

/* Internal to dg_geom_create (geom_curved.c): the curved elements' coordinates and data. */
dg_status dg_geom_curved_create(dg_geom *g) DG_NODISCARD;
void dg_geom_curved_free(dg_geom *g);

#endif

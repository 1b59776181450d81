/* Geometry of a mesh for a given reference element: physical node coordinates, the affine
 * map's metric terms, face normals and surface Jacobians, and the node connectivity
 * vmapM/vmapP (Hesthaven & Warburton ch. 6 and 10). */
#ifndef DG_DG_GEOM_H
#define DG_DG_GEOM_H

#include "core/status.h"
#include "mesh/mesh.h"
#include "refel/refel.h"

typedef struct {
  int K, N, Np, Nfp;
  const dg_mesh *mesh;  /* borrowed */
  const dg_refel *ref;  /* borrowed */
  double *x, *y, *z;    /* K*Np physical coordinates of the nodes, element-major */
  /* Metric terms of the affine map, one per element: rx = dr/dx etc., J = det(dx/dr). */
  double *rx, *ry, *rz, *sx, *sy, *sz, *tx, *ty, *tz, *J;
  /* Per face (K*4): outward unit normal, surface Jacobian, Fscale = sJ/J. */
  double *nx, *ny, *nz, *sJ, *Fscale;
  /* Per face node (K*4*Nfp), indices into K*Np: own node, and the matching node of the
   * neighbour (the own node again on a boundary face). */
  int *vmapM, *vmapP;
} dg_geom;

dg_status dg_geom_create(dg_geom **out, const dg_mesh *m, const dg_refel *r) DG_NODISCARD;
void dg_geom_destroy(dg_geom **g);

#endif

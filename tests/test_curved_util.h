/* Helpers of the curved-element and high-order mesh tests: an element's volume from its
 * geometry, and two meshes' linear parts compared. */
#ifndef DGTD_TEST_CURVED_UTIL_H
#define DGTD_TEST_CURVED_UTIL_H

#include <stddef.h>

#include "dg/geom.h"
#include "mesh/mesh.h"

/* Volume int 1 dx of element k: sum of its mass matrix (the nodal basis sums to 1), or the
 * affine element's 4/3 J. */
static inline double curved_test_volume(const dg_geom *g, int k) {
  const int c = dg_geom_curved_row(g, k), Np = g->Np;
  if (c < 0) return g->J[k] * 4.0 / 3.0;
  double v = 0;
  for (int i = 0; i < Np * Np; ++i) v += g->cv.M[(size_t)c * Np * Np + i];
  return v;
}

/* Two meshes with the same vertices, elements, connectivity and tags. */
static inline void assert_same_linear_part(const dg_mesh *a, const dg_mesh *b) {
  assert_int_equal(a->Nv, b->Nv);
  assert_int_equal(a->K, b->K);
  for (int v = 0; v < a->Nv; v++) {
    assert_true(fabs(a->VX[v] - b->VX[v]) <= 1e-14);
    assert_true(fabs(a->VY[v] - b->VY[v]) <= 1e-14);
    assert_true(fabs(a->VZ[v] - b->VZ[v]) <= 1e-14);
  }
  assert_memory_equal(a->EToV, b->EToV, 4 * (size_t)a->K * sizeof(int));
  assert_memory_equal(a->EToE, b->EToE, 4 * (size_t)a->K * sizeof(int));
  assert_memory_equal(a->face_tag, b->face_tag, 4 * (size_t)a->K * sizeof(int));
  assert_memory_equal(a->elem_tag, b->elem_tag, (size_t)a->K * sizeof(int));
}

#endif

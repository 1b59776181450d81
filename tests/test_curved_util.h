/* Helpers of the curved-element and high-order mesh tests: an element's volume from its
 * geometry, and two meshes' linear parts compared. */
#ifndef DGTD_TEST_CURVED_UTIL_H
#define DGTD_TEST_CURVED_UTIL_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "dg/geom.h"
#include "dg/maxwell.h"
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

/* The energy identity of p's operator (K elements of Np nodes; eps and mu varied from
 * element to element, random fields): d/dt of the discrete energy along the right-hand side,
 * by central differences (exact: the energy is quadratic), is 0 with the central flux on PEC
 * walls and < 0 with upwinding, against the scale |q|_M |rhs|_M. label starts the printed
 * lines; p->alpha is left at 1. */
static inline void assert_energy_identity(dg_maxwell *p, int K, int Np, const char *label) {
  const size_t n = 6 * (size_t)K * Np;
  double *q = calloc(n, sizeof *q), *rhs = calloc(n, sizeof *rhs), *qp = calloc(n, sizeof *qp),
         *qm = calloc(n, sizeof *qm);
  assert_true(q && rhs && qp && qm);
  srand(7);
  for (size_t i = 0; i < n; ++i) q[i] = rand() / (double)RAND_MAX - 0.5;
  for (int k = 0; k < K; ++k) p->eps[k] = 1 + (k % 2), p->mu[k] = 1 + 0.5 * (k % 3);
  for (int alpha = 0; alpha <= 1; ++alpha) {
    p->alpha = alpha;
    dg_maxwell_rhs(p, 0.0, q, NULL, rhs);
    const double eps = 1e-3;
    for (size_t i = 0; i < n; ++i) qp[i] = q[i] + eps * rhs[i], qm[i] = q[i] - eps * rhs[i];
    const double rate = (dg_maxwell_energy(p, qp) - dg_maxwell_energy(p, qm)) / (2 * eps);
    const double rr = sqrt(dg_maxwell_energy(p, q) * dg_maxwell_energy(p, rhs));
    printf("# %salpha %d: dW/dt = %.3e (scale %.3e)\n", label, alpha, rate, rr);
    if (alpha == 0)
      assert_true(fabs(rate) < 1e-12 * rr);
    else
      assert_true(rate < -1e-3 * rr);
  }
  free(q), free(rhs), free(qp), free(qm);
}

#endif

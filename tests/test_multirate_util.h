/* The graded cavity both multirate tests step: the unit cube, 3 x 2 x 2 cells whose x widths
 * grow 1 : 3 : 9, so the elements fall on several rate levels. */
#ifndef DGTD_TEST_MULTIRATE_UTIL_H
#define DGTD_TEST_MULTIRATE_UTIL_H

#include <math.h>
#include <stdlib.h>

#include "dg/cavity.h"
#include "dg/geom.h"
#include "dg/maxwell.h"
#include "dg/multirate.h"
#include "mesh/mesh.h"
#include "refel/refel.h"

typedef struct {
  dg_mesh *m;
  dg_refel *ref;
  dg_geom *g;
  dg_maxwell *p;
  size_t n;
  int *level;
  dg_mr_plan plan;
  dg_cavity_mode mode;
} setup;

/* x -> the graded coordinate: 3 cells of widths 1, 3, 9 (/13). */
static inline double graded(double x) {
  static const double nodes[4] = {0, 1.0 / 13, 4.0 / 13, 1};
  int i = (int)floor(x * 3 + 1e-9);
  if (i > 2) i = 2;
  const double f = x * 3 - i;
  return nodes[i] + f * (nodes[i + 1] - nodes[i]);
}

/* Order N, flux parameter alpha, at most max_levels rate levels of the scheme; the (1,1,1)
 * cavity mode. */
static inline dg_status setup_make(setup *s, int N, double alpha, int max_levels,
                                   dg_mr_scheme scheme) {
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  DG_CALL(dg_mesh_box(&s->m, lo, hi, 3, 2, 2));
  for (int v = 0; v < s->m->Nv; ++v) s->m->VX[v] = graded(s->m->VX[v]);
  DG_CALL(dg_refel_create(&s->ref, N));
  DG_CALL(dg_geom_create(&s->g, s->m, s->ref));
  DG_CALL(dg_maxwell_create(&s->p, s->g));
  s->p->alpha = alpha;
  s->n = 6 * (size_t)s->m->K * s->ref->Np;
  s->level = calloc((size_t)s->m->K, sizeof *s->level);
  DG_CHECK(s->level, DG_ERR_MEMORY, "test: out of memory");
  DG_CALL(dg_multirate_levels(s->p, scheme, max_levels, 0, s->level, &s->plan));
  DG_CALL(dg_cavity_mode_init(&s->mode, 1, 1, 1, NULL, lo, hi));
  return DG_OK;
}

static inline void setup_destroy(setup *s) {
  free(s->level);
  dg_maxwell_destroy(&s->p);
  dg_geom_destroy(&s->g);
  dg_refel_destroy(&s->ref);
  dg_mesh_destroy(&s->m);
}

#endif

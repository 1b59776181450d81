/* The semi-discrete energy rate of the Maxwell operator, for the energy tests: with
 * energy = 1/2 sum_k J_k (eps E.M E + mu H.M H), d/dt energy = sum_k J_k (eps E.M rhsE +
 * mu H.M rhsH) for rhs = dq/dt (straight-sided elements: J constant per element). */
#ifndef DG_TEST_ENERGY_UTIL_H
#define DG_TEST_ENERGY_UTIL_H

#include <math.h>

#include "dg/maxwell.h"

/* The rate, and in *scale the sum of its terms' magnitudes (the rounding it can carry). */
static inline double test_energy_rate(const dg_maxwell *p, const double *q, const double *rhs,
                                      double *scale) {
  const dg_geom *g = p->geom;
  const int Np = g->Np;
  const size_t KNp = (size_t)g->K * Np;
  double rate = 0;
  *scale = 0;
  for (int k = 0; k < g->K; ++k)
    for (int f = 0; f < 6; ++f) {
      const double w = (f < 3 ? p->eps[k] : p->mu[k]) * g->J[k];
      for (int i = 0; i < Np; ++i)
        for (int j = 0; j < Np; ++j) {
          const double t = w * q[f * KNp + k * Np + i] * g->ref->M[i * Np + j] *
                           rhs[f * KNp + k * Np + j];
          rate += t;
          *scale += fabs(t);
        }
    }
  return rate;
}

#endif

/* Test helpers for the near-to-far-field transform: closed surfaces of quadrature points
 * (boxes and spheres, Gauss-Legendre rules) carrying the exact frequency-domain fields of
 * point electric dipoles, in the layout of dg_surface_dft (dg/dft.h). Phasors e^{+i w t},
 * c0 = eta = 1, k = 2 pi f. */
#ifndef DG_TESTS_NTFF_UTIL_H
#define DG_TESTS_NTFF_UTIL_H

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dg/dft.h"

static const double NTFF_PI = 3.14159265358979323846;

/* Gauss-Legendre nodes x and weights w of q points on [-1, 1] (Newton on P_q). */
static inline void ntff_gauss(int q, double *x, double *w) {
  for (int i = 0; i < q; i++) {
    double z = cos(NTFF_PI * (i + 0.75) / (q + 0.5)), dp = 1;
    for (int it = 0; it < 100; it++) {
      double p0 = 1, p1 = z;
      for (int n = 2; n <= q; n++) {
        double p2 = ((2 * n - 1) * z * p1 - (n - 1) * p0) / n;
        p0 = p1, p1 = p2;
      }
      dp = q * (z * p1 - p0) / (z * z - 1);
      double dz = p1 / dp;
      z -= dz;
      if (fabs(dz) < 1e-16) break;
    }
    x[i] = z;
    w[i] = 2 / ((1 - z * z) * dp * dp);
  }
}

static inline dg_surface_dft *ntff_surface_alloc(int npts, int nfreq, const double *freq) {
  dg_surface_dft *s = calloc(1, sizeof *s);
  s->nfreq = nfreq;
  s->npts = npts;
  s->freq = calloc((size_t)nfreq, sizeof *s->freq);
  memcpy(s->freq, freq, (size_t)nfreq * sizeof *freq);
  s->xyz = calloc((size_t)npts * 3, sizeof(double));
  s->n = calloc((size_t)npts * 3, sizeof(double));
  s->w = calloc((size_t)npts, sizeof(double));
  s->re = calloc((size_t)npts * 6 * nfreq, sizeof(double));
  s->im = calloc((size_t)npts * 6 * nfreq, sizeof(double));
  return s;
}

static inline void ntff_surface_free(dg_surface_dft *s) {
  if (!s) return;
  free(s->freq), free(s->xyz), free(s->n), free(s->w), free(s->re), free(s->im);
  free(s);
}

/* The box [lo, hi]: each face cut into panels x panels rectangles with q x q Gauss points. */
static inline dg_surface_dft *ntff_surface_box(const double lo[3], const double hi[3],
                                               int panels, int q, int nfreq,
                                               const double *freq) {
  int per = panels * panels * q * q;
  dg_surface_dft *s = ntff_surface_alloc(6 * per, nfreq, freq);
  double gx[64], gw[64];
  ntff_gauss(q, gx, gw);
  int p = 0;
  for (int axis = 0; axis < 3; axis++)
    for (int side = 0; side < 2; side++) {
      int a = (axis + 1) % 3, b = (axis + 2) % 3;
      double ha = (hi[a] - lo[a]) / panels, hb = (hi[b] - lo[b]) / panels;
      for (int pa = 0; pa < panels; pa++)
        for (int pb = 0; pb < panels; pb++)
          for (int i = 0; i < q; i++)
            for (int j = 0; j < q; j++, p++) {
              double *x = s->xyz + 3 * p, *n = s->n + 3 * p;
              x[axis] = side ? hi[axis] : lo[axis];
              x[a] = lo[a] + ha * (pa + 0.5 * (gx[i] + 1));
              x[b] = lo[b] + hb * (pb + 0.5 * (gx[j] + 1));
              n[axis] = side ? 1 : -1;
              s->w[p] = 0.25 * ha * hb * gw[i] * gw[j];
            }
    }
  return s;
}

/* The sphere of centre c and radius R: nt Gauss points in cos(theta) times np equal steps in
 * phi (exact for trigonometric polynomials of degree < np in phi). */
static inline dg_surface_dft *ntff_surface_sphere(const double c[3], double R, int nt, int np,
                                                  int nfreq, const double *freq) {
  dg_surface_dft *s = ntff_surface_alloc(nt * np, nfreq, freq);
  double gx[64], gw[64];
  ntff_gauss(nt, gx, gw);
  int p = 0;
  for (int i = 0; i < nt; i++)
    for (int j = 0; j < np; j++, p++) {
      double ct = gx[i], st = sqrt(1 - ct * ct), ph = 2 * NTFF_PI * (j + 0.5) / np;
      double n[3] = {st * cos(ph), st * sin(ph), ct};
      for (int d = 0; d < 3; d++) {
        s->n[3 * p + d] = n[d];
        s->xyz[3 * p + d] = c[d] + R * n[d];
      }
      s->w[p] = R * R * gw[i] * 2 * NTFF_PI / np;
    }
  return s;
}

/* Exact E, H at x of the current element (moment) p (I l, complex vector) at x0, frequency f:
 *   H = i k/(4 pi r) (1 + 1/(ikr)) e^{-ikr} (p x r^)
 *   E = e^{-ikr}/(4 pi r) [ -i k (1 + 1/(ikr) - 1/(kr)^2) (p - (p.r^) r^)
 *                           + (2/r) (1 + 1/(ikr)) (p.r^) r^ ]
 * (Balanis, Antenna Theory, 3rd ed., §4.2, in vector form, eta = 1). */
static inline void ntff_dipole_field(double f, const double x0[3], const double complex p[3],
                                     const double x[3], double complex E[3],
                                     double complex H[3]) {
  double k = 2 * NTFF_PI * f, d[3] = {x[0] - x0[0], x[1] - x0[1], x[2] - x0[2]};
  double r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  double u[3] = {d[0] / r, d[1] / r, d[2] / r};
  double complex ph = cexp(-I * k * r) / (4 * NTFF_PI * r);
  double complex a1 = 1 + 1 / (I * k * r);
  double complex pr = p[0] * u[0] + p[1] * u[1] + p[2] * u[2];
  double complex pxu[3] = {p[1] * u[2] - p[2] * u[1], p[2] * u[0] - p[0] * u[2],
                           p[0] * u[1] - p[1] * u[0]};
  for (int c = 0; c < 3; c++) {
    H[c] = I * k * a1 * ph * pxu[c];
    E[c] = ph * (-I * k * (a1 - 1 / (k * k * r * r)) * (p[c] - pr * u[c]) +
                 2 / r * a1 * pr * u[c]);
  }
}

/* Adds the dipole's fields at frequency index i to every point of s. */
static inline void ntff_add_dipole(dg_surface_dft *s, int i, const double x0[3],
                                   const double complex p[3]) {
  for (int q = 0; q < s->npts; q++) {
    double complex E[3], H[3];
    ntff_dipole_field(s->freq[i], x0, p, s->xyz + 3 * q, E, H);
    size_t o = ((size_t)i * (size_t)s->npts + (size_t)q) * 6;
    for (int c = 0; c < 3; c++) {
      s->re[o + c] += creal(E[c]), s->im[o + c] += cimag(E[c]);
      s->re[o + 3 + c] += creal(H[c]), s->im[o + 3 + c] += cimag(H[c]);
    }
  }
}

#endif

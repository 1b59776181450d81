/* Running discrete Fourier transforms of the fields, and the tangential fields they give on a
 * closed surface (the input of the near-to-far-field transform, dg/ntff.h).
 *
 * Convention (engineering, phasors e^{+i w t}): the transform of a field sample x(t) at
 * frequency f is X(f) = sum_n x(t_n) exp(-2 pi i f t_n) dt over the recorded steps, so a
 * time-harmonic x(t) = Re(X e^{2 pi i f t}) radiates like e^{-ikr}/r with k = 2 pi f (c0 = 1).
 * Normalised units: c0 = 1, Z0 = 1 (dg/source.h). */
#ifndef DG_DG_DFT_H
#define DG_DG_DFT_H

#include "core/status.h"

/* The transformed E and H on a closed surface, sampled at surface quadrature points.
 * Point p at xyz[3p..3p+2] carries the area weight w[p] (sum of w = surface area) and the
 * unit normal n[3p..3p+2] pointing out of the enclosed region. Field c (Ex,Ey,Ez,Hx,Hy,Hz)
 * at frequency i and point p is re[(i*npts + p)*6 + c] + I im[(i*npts + p)*6 + c]. The
 * equivalent currents are J = n x H and M = -n x E. */
typedef struct {
  int nfreq;
  double *freq;  /* nfreq frequencies (1/time unit) */
  int npts;
  double *xyz, *n, *w;
  double *re, *im;
} dg_surface_dft;

void dg_surface_dft_destroy(dg_surface_dft **s);

#endif

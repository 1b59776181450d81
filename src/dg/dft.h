/* Running discrete Fourier transforms of the fields, and the tangential fields they give on a
 * closed surface (the input of the near-to-far-field transform, dg/ntff.h).
 *
 * Convention (engineering, phasors e^{+i w t}): the transform of a field sample x(t) at
 * frequency f is X(f) = sum_n x(t_n) exp(-2 pi i f t_n) dt over the recorded steps, so a
 * time-harmonic x(t) = Re(X e^{2 pi i f t}) radiates like e^{-ikr}/r with k = 2 pi f (c0 = 1).
 * Normalised units: c0 = 1, Z0 = 1 (dg/source.h). */
#ifndef DG_DG_DFT_H
#define DG_DG_DFT_H

#include <stddef.h>

#include "core/status.h"
#include "dg/geom.h"
#include "dg/source.h"

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

/* The surface DFT as CSV (header freq,x,y,z,nx,ny,nz,w,Ex_re,Ex_im,...,Hz_re,Hz_im; one row
 * per frequency and point, frequencies in order), and back. */
dg_status dg_surface_dft_write_csv(const char *path, const dg_surface_dft *s) DG_NODISCARD;
dg_status dg_surface_dft_read_csv(const char *path, dg_surface_dft **out) DG_NODISCARD;

/* DFT monitors on one mesh (one rank's part): the running sums of the six fields at a set
 * of samples, each a fixed linear combination of nodal values,
 *   x_s(t) = sum_{e in row s} wt[e] q[c*KNp + node[e]]  (field c, layout of dg/maxwell.h),
 * accumulated as X_s(f) += x_s(t_n) exp(-2 pi i f t_n) every dt at the steps n = 0, every,
 * 2 every, ... (the rectangle rule; for a signal that starts and ends at zero it is the
 * trapezoidal rule, spectrally accurate for a band-limited signal sampled above Nyquist:
 * the only error is aliasing of the spectrum from f +- m/(every dt), and dividing by the
 * same sum of the source pulse cancels the sampling altogether for linear problems).
 * Samples come in three ranges, in this order: probes, volume nodes, surface face nodes. */
typedef struct {
  int nfreq;
  double *freq;
  int every;          /* steps between samples (>= 1) */
  double dt;          /* the time step; each sample is weighted every * dt */
  int Np, Nfp;
  size_t KNp;         /* stride between fields in q */
  int nsamp, n_probe, n_vol, n_surf;
  int *start;         /* nsamp + 1: sample s uses entries start[s] .. start[s+1]-1 */
  int *node;          /* entries: node index k*Np + j in the reference layout */
  double *wt;         /* entries: weights */
  int n_vol_elem, *vol_elem; /* the elements whose Np nodes are the volume samples, in order */
  double *sxyz, *sn, *sw;    /* n_surf surface points: coordinates, unit normal, area weight */
  double *re, *im;    /* running sums: sample s, field c, frequency i at (i*6 + c)*nsamp + s */
  long long nsum;     /* samples summed so far (steps 0, every, ..., (nsum-1) every) */
} dg_dft;

/* nfreq > 0 frequencies (finite, >= 0), every >= 1, dt > 0. */
dg_status dg_dft_create(dg_dft **out, const dg_geom *g, int nfreq, const double *freq,
                        int every, double dt) DG_NODISCARD;
void dg_dft_destroy(dg_dft **d);
/* Add the sample ranges, in this order and before any sum (each at most once). Probes: n
 * points in elements elem[i] with interpolation rows w[i*Np..] (io/probe.h's dg_probes). */
dg_status dg_dft_add_probes(dg_dft *d, int n, const int *elem, const double *w) DG_NODISCARD;
/* Volume: every node of the owned elements k with in_set[k] != 0 (in_set NULL: all owned). */
dg_status dg_dft_add_volume(dg_dft *d, const dg_geom *g, const unsigned char *in_set) DG_NODISCARD;
/* Surface: the face nodes of each face (k, f) with sel[4k + f] != 0, element k being the
 * one OUTSIDE the enclosed region: the values are k's traces, the normal is minus k's
 * outward normal (it points out of the enclosed region) and the weights integrate the
 * face's degree-N interpolant exactly (sJ times the face mass matrix's column sums). */
dg_status dg_dft_add_surface(dg_dft *d, const dg_geom *g, const unsigned char *sel) DG_NODISCARD;

/* The faces of the boundary of a set of elements (in_set[k] != 0, K entries: ghosts too),
 * selected on the element outside the set: sel[4k + f] = 1 for k owned and outside, its
 * neighbour across f inside. Returns the number of faces selected. */
int dg_dft_faces_enclosing(const dg_mesh *m, const unsigned char *in_set, unsigned char *sel);
/* The faces of a closed interior surface (iface_tag == tag; none on a mesh without
 * iface_tag), selected on the outside element given side[] (dg_mesh_surface_sides: -1
 * outside). Returns the number of faces selected. */
int dg_dft_faces_of_surface(const dg_mesh *m, int tag, const signed char *side,
                            unsigned char *sel);

/* Allocate the (zero) sums once every sample range is added (dg_dft_accumulate does it). */
dg_status dg_dft_start(dg_dft *d) DG_NODISCARD;
/* Is step n one that is summed? */
int dg_dft_due(const dg_dft *d, long long step);
/* The weights of sample time t: c[i] = every dt cos(2 pi f_i t), s[i] = every dt
 * sin(2 pi f_i t), in double (the device gets them as kernel arguments). */
void dg_dft_phases(const dg_dft *d, double t, double *c, double *s);
/* The reference sum: add the samples of q (time t) and count it. */
dg_status dg_dft_accumulate(dg_dft *d, const double *q, double t) DG_NODISCARD;
/* The same discrete transform of a source pulse over the steps summed so far:
 * G(f_i) = sum_{j < nsum} g(j every dt) exp(-2 pi i f_i j every dt) every dt. */
void dg_dft_pulse_spectrum(const dg_dft *d, const dg_pulse *g, double *g_re, double *g_im);
/* The same transform at one frequency f over n samples w apart: sum_{j < n} g(j w)
 * exp(-2 pi i f j w) w. */
void dg_pulse_transform(const dg_pulse *g, double w, long long n, double f, double *g_re,
                        double *g_im);
/* X(f_i) of sample s, field c, divided by G(f_i) when g_re is non-NULL. */
void dg_dft_value(const dg_dft *d, int i, int s, int c, const double *g_re, const double *g_im,
                  double *re, double *im);
/* The volume samples of frequency i as two fields in the reference layout (6 K Np each,
 * zero outside the volume set), normalised as dg_dft_value. */
void dg_dft_volume_fields(const dg_dft *d, int i, const double *g_re, const double *g_im,
                          double *q_re, double *q_im);
/* The surface samples as a dg_surface_dft (normalised as dg_dft_value). */
dg_status dg_dft_surface(const dg_dft *d, const double *g_re, const double *g_im,
                         dg_surface_dft **out) DG_NODISCARD;

#endif

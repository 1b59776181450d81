/* Sources: time pulses, point dipoles and incident plane waves (normalised units, c0 = 1,
 * Z0 = 1).
 *
 * Pulses (f0 = the pulse's "frequency", t0 = delay, A = amplitude, s = t - t0):
 *   gaussian  g(t) = A exp(-(pi f0 s)^2): baseband, |G(f)| ~ exp(-(f/f0)^2), so f0 is a
 *             spectral width (1/e at f0), not a centre frequency
 *   ricker    g(t) = A (1 - 2 (pi f0 s)^2) exp(-(pi f0 s)^2): spectral peak at f0
 *   harmonic  g(t) = A sin(2 pi f0 s) r(s), r a smooth ramp from 0 to 1 over `ramp` periods
 *             (r = 0 before t0; r = 1 after t0 + ramp/f0; r = 1 when ramp = 0)
 *   modulated_gaussian  g(t) = A exp(-(b s)^2) sin(2 pi f0 s), b = pi B / (2 sqrt(ln 10)):
 *             centre frequency f0, and |G(f)| within 20 dB of its peak for |f - f0| <= B/2
 *             (B the bandwidth; the image at -f0 neglected), no DC component
 *
 * A point dipole is the current density J(x, t) = dir g(t) delta(x - pos); in the DG space
 * its projection lives in the element containing pos: J_h = dir g(t) (1/J_k) M^-1 phi(pos),
 * phi the nodal basis.
 *
 * A plane wave travelling along the unit vector k with unit polarisation p (p . k = 0):
 *   E_inc(x, t) = p g(t - k . (x - x0)),   H_inc = (k x p) g(t - k . (x - x0))
 * It enters through absorbing faces (their exterior state is the incident field: the total-
 * field formulation) or, in the scattered-field formulation, PEC faces see the mirror of
 * -E_inc (the unknowns are then the scattered field). */
#ifndef DG_DG_SOURCE_H
#define DG_DG_SOURCE_H

#include "core/status.h"
#include "dg/geom.h"

typedef enum {
  DG_PULSE_GAUSSIAN = 0,
  DG_PULSE_RICKER,
  DG_PULSE_HARMONIC,
  DG_PULSE_MODULATED_GAUSSIAN
} dg_pulse_shape;

typedef struct {
  dg_pulse_shape shape;
  double f0;        /* the "frequency" (> 0): a width, a peak or the centre (above) */
  double t0;        /* delay */
  double amplitude;
  double ramp;      /* harmonic only: ramp length in periods (>= 0) */
  double bandwidth; /* modulated_gaussian only: B (> 0), the band within 20 dB of the peak */
} dg_pulse;

double dg_pulse_eval(const dg_pulse *p, double t);
/* The modulated Gaussian's envelope rate b = pi B / (2 sqrt(ln 10)) (the device evaluates
 * the same pulse with it, cl_templates/incident.cl). */
double dg_pulse_envelope_rate(const dg_pulse *p);
/* The modulated Gaussian's default delay: its envelope starts from 2e-10 of its peak, as a
 * Gaussian delayed by 1.5 / f0 does. */
double dg_pulse_modulated_delay(double bandwidth);
/* DG_ERR_INPUT unless f0 > 0, ramp >= 0, a modulated Gaussian's bandwidth > 0 and every
 * value is finite; `what` names the pulse in the message ("dipole 2"). */
dg_status dg_pulse_check(const dg_pulse *p, const char *what) DG_NODISCARD;

typedef struct {
  double pos[3];
  double dir[3];    /* direction and strength of the current (J = dir g(t) delta) */
  dg_pulse pulse;
} dg_dipole;

typedef struct {
  double k[3];      /* unit propagation direction */
  double pol[3];    /* unit polarisation of E, orthogonal to k */
  double x0[3];     /* reference point: the pulse is g(t) there */
  dg_pulse pulse;
  int scattered;    /* 1: scattered-field formulation (PEC faces see -E_inc) */
} dg_plane_wave;

/* Normalise k and pol and check they are orthogonal (DG_ERR_INPUT otherwise). */
dg_status dg_plane_wave_init(dg_plane_wave *pw) DG_NODISCARD;
/* A dg_field_fn (dg/maxwell.h): ctx is a dg_plane_wave. */
void dg_plane_wave_eval(void *ctx, double x, double y, double z, double t, double e[3],
                        double h[3]);

/* The DG projection of a unit point current at reference coordinates rst of element elem:
 * profile (Np values) = (1/J_k) M^-1 phi(rst) = (1/J_k) V psi(rst), psi the orthonormal
 * basis (since M^-1 = V V^T and phi = V^-T psi); on a curved element M_k^-1 phi(rst) with
 * its own mass matrix M_k (geom.h). It integrates the nodal basis exactly:
 * int_k l_i profile dx = l_i(pos). */
void dg_dipole_profile(const dg_geom *g, int elem, const double rst[3], double *profile);

#endif

#include "dg/source.h"

#include <math.h>

static const double pi = 3.14159265358979323846;

/* Smooth switch-on of the harmonic pulse: sin^2 has zero slope at both ends, so neither g
 * nor g' jumps. The clamp form is what the OpenCL incident field evaluates too
 * (cl_templates/incident.cl), so host and device agree to rounding. */
static double harmonic_ramp(double s, double f0, double ramp) {
  if (ramp <= 0) return 1;
  double u = s * f0 / ramp;
  u = u < 0 ? 0 : u > 1 ? 1 : u;
  const double r = sin(0.5 * pi * u);
  return r * r;
}

double dg_pulse_envelope_rate(const dg_pulse *p) {
  return pi * p->bandwidth / (2 * sqrt(log(10.0)));
}

double dg_pulse_modulated_delay(double bandwidth) {
  const dg_pulse p = {.bandwidth = bandwidth};
  return 1.5 * pi / dg_pulse_envelope_rate(&p);
}

double dg_pulse_eval(const dg_pulse *p, double t) {
  const double s = t - p->t0;
  /* The Gaussian's argument: the envelope's for the modulated pulse. */
  const double a = p->shape == DG_PULSE_MODULATED_GAUSSIAN ? dg_pulse_envelope_rate(p) * s
                                                           : pi * p->f0 * s;
  /* exp(-a^2) is 0 in double beyond |a| = 27.3; past it a^2 could overflow and the Ricker
   * pulse's (1 - 2 a^2) * 0 be NaN (f0 >= 1e154). */
  if (fabs(a) > 40 && p->shape != DG_PULSE_HARMONIC) return 0;
  switch (p->shape) {
  case DG_PULSE_GAUSSIAN: return p->amplitude * exp(-a * a);
  case DG_PULSE_RICKER: return p->amplitude * (1 - 2 * a * a) * exp(-a * a);
  case DG_PULSE_HARMONIC:
    return p->amplitude * sin(2 * pi * p->f0 * s) * harmonic_ramp(s, p->f0, p->ramp);
  case DG_PULSE_MODULATED_GAUSSIAN:
    return p->amplitude * exp(-a * a) * sin(2 * pi * p->f0 * s);
  }
  return 0;
}

dg_status dg_pulse_check(const dg_pulse *p, const char *what) {
  DG_CHECK(p->shape == DG_PULSE_GAUSSIAN || p->shape == DG_PULSE_RICKER ||
               p->shape == DG_PULSE_HARMONIC || p->shape == DG_PULSE_MODULATED_GAUSSIAN,
           DG_ERR_INPUT, "%s: unknown pulse shape %d", what, (int)p->shape);
  DG_CHECK(p->shape != DG_PULSE_MODULATED_GAUSSIAN || (isfinite(p->bandwidth) && p->bandwidth > 0),
           DG_ERR_INPUT, "%s: the modulated Gaussian's bandwidth = %g must be positive", what,
           p->bandwidth);
  DG_CHECK(isfinite(p->f0) && p->f0 > 0, DG_ERR_INPUT,
           "%s: pulse frequency f0 = %g must be positive", what, p->f0);
  DG_CHECK(isfinite(p->t0) && isfinite(p->amplitude), DG_ERR_INPUT,
           "%s: pulse delay t0 = %g and amplitude = %g must be finite", what, p->t0,
           p->amplitude);
  DG_CHECK(isfinite(p->ramp) && p->ramp >= 0, DG_ERR_INPUT,
           "%s: ramp = %g periods must be >= 0", what, p->ramp);
  return DG_OK;
}

static double norm3(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

dg_status dg_plane_wave_init(dg_plane_wave *pw) {
  const double nk = norm3(pw->k), np = norm3(pw->pol);
  DG_CHECK(isfinite(nk) && nk > 0, DG_ERR_INPUT,
           "plane wave: direction k = (%g, %g, %g) must be a nonzero vector", pw->k[0],
           pw->k[1], pw->k[2]);
  DG_CHECK(isfinite(np) && np > 0, DG_ERR_INPUT,
           "plane wave: polarisation = (%g, %g, %g) must be a nonzero vector", pw->pol[0],
           pw->pol[1], pw->pol[2]);
  double k[3], p[3];
  for (int c = 0; c < 3; ++c) k[c] = pw->k[c] / nk, p[c] = pw->pol[c] / np;
  const double kp = k[0] * p[0] + k[1] * p[1] + k[2] * p[2];
  DG_CHECK(fabs(kp) <= 1e-9, DG_ERR_INPUT,
           "plane wave: polarisation (%g, %g, %g) is not orthogonal to k = (%g, %g, %g) "
           "(k.pol = %.3g after normalising)",
           pw->pol[0], pw->pol[1], pw->pol[2], pw->k[0], pw->k[1], pw->k[2], kp);
  DG_CHECK(isfinite(pw->x0[0]) && isfinite(pw->x0[1]) && isfinite(pw->x0[2]), DG_ERR_INPUT,
           "plane wave: reference point x0 must be finite");
  DG_CALL(dg_pulse_check(&pw->pulse, "plane wave"));
  for (int c = 0; c < 3; ++c) pw->k[c] = k[c], pw->pol[c] = p[c];
  return DG_OK;
}

void dg_plane_wave_eval(void *ctx, double x, double y, double z, double t, double e[3],
                        double h[3]) {
  const dg_plane_wave *pw = ctx;
  const double *k = pw->k, *p = pw->pol;
  const double tau =
      t - (k[0] * (x - pw->x0[0]) + k[1] * (y - pw->x0[1]) + k[2] * (z - pw->x0[2]));
  const double g = dg_pulse_eval(&pw->pulse, tau);
  const double kp[3] = {k[1] * p[2] - k[2] * p[1], k[2] * p[0] - k[0] * p[2],
                        k[0] * p[1] - k[1] * p[0]};
  for (int c = 0; c < 3; ++c) {
    e[c] = p[c] * g;
    h[c] = kp[c] * g;
  }
}

/* ---- point sources -------------------------------------------------------------------- */

void dg_dipole_profile(const dg_geom *g, int elem, const double rst[3], double *profile) {
  const dg_refel *ref = g->ref;
  const int Np = ref->Np;
  for (int i = 0; i < Np; ++i) profile[i] = 0;
  for (int j = 0; j < Np; ++j) {
    double psi = 0;
    dg_basis_tet(ref->N, j, &rst[0], &rst[1], &rst[2], 1, &psi);
    for (int i = 0; i < Np; ++i) profile[i] += ref->V[i * Np + j] * psi;
  }
  const int c = dg_geom_curved_row(g, elem);
  if (c >= 0) { /* M_k^-1 phi with phi_l = sum_j Vinv[j][l] psi_j, one psi_j at a time */
    const double *Minv = g->cv.Minv + (size_t)c * Np * Np;
    for (int i = 0; i < Np; ++i) profile[i] = 0;
    for (int j = 0; j < Np; ++j) {
      double psi = 0;
      dg_basis_tet(ref->N, j, &rst[0], &rst[1], &rst[2], 1, &psi);
      for (int i = 0; i < Np; ++i) {
        double sum = 0;
        for (int l = 0; l < Np; ++l) sum += Minv[i * Np + l] * ref->Vinv[j * Np + l];
        profile[i] += sum * psi;
      }
    }
    return;
  }
  const double iJ = 1 / g->J[elem];
  for (int i = 0; i < Np; ++i) profile[i] *= iJ;
}

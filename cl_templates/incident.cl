/* incident.cl: the incident plane wave (dg/source.h), only with DG_INCIDENT:
 *   E_inc = P g(tau), H_inc = (k x P) g(tau), tau = t - k.x + k.x0,
 * evaluated at face nodes by the flux (flux.cl). The host bakes the wave in (DG_INC_*);
 * the defaults are a Gaussian along x. */
#if DG_INCIDENT
#ifndef DG_INC_KX /* unit propagation direction k */
#define DG_INC_KX ((real_t)1)
#define DG_INC_KY ((real_t)0)
#define DG_INC_KZ ((real_t)0)
#endif
#ifndef DG_INC_KX0 /* k . x0, x0 the reference point */
#define DG_INC_KX0 ((real_t)0)
#endif
#ifndef DG_INC_PX /* unit polarisation P of E */
#define DG_INC_PX ((real_t)0)
#define DG_INC_PY ((real_t)1)
#define DG_INC_PZ ((real_t)0)
#endif
#ifndef DG_INC_HX /* k x P, the direction of H */
#define DG_INC_HX ((real_t)0)
#define DG_INC_HY ((real_t)0)
#define DG_INC_HZ ((real_t)1)
#endif
#ifndef DG_INC_SHAPE /* one of contract.h's INC_* names */
#define DG_INC_SHAPE INC_GAUSSIAN
#endif
#if DG_INC_SHAPE < INC_GAUSSIAN || DG_INC_SHAPE > INC_MODULATED_GAUSSIAN
#error "DG_INC_SHAPE: not one of contract.h's INC_* names"
#endif
#ifndef DG_INC_F0 /* centre frequency */
#define DG_INC_F0 ((real_t)1)
#endif
#ifndef DG_INC_T0 /* delay */
#define DG_INC_T0 ((real_t)0)
#endif
#ifndef DG_INC_AMP /* amplitude */
#define DG_INC_AMP ((real_t)1)
#endif
#ifndef DG_INC_RAMP_ON /* harmonic: 1 with a switch-on ramp, 0 without */
#define DG_INC_RAMP_ON 0
#endif
#ifndef DG_INC_F0_RAMP /* harmonic: f0 / (ramp length in periods) */
#define DG_INC_F0_RAMP ((real_t)1)
#endif
#ifndef DG_INC_BWA /* modulated Gaussian: the envelope's rate pi B / (2 sqrt(ln 10)) */
#define DG_INC_BWA ((real_t)1)
#endif

/* g(tau) as dg_pulse_eval computes it, lane by lane. */
inline vreal inc_pulse(const vreal tau) {
  const vreal s = tau - DG_INC_T0;
#if DG_INC_SHAPE == INC_HARMONIC
  vreal g = DG_INC_AMP * sin((real_t)6.28318530717958647692 * DG_INC_F0 * s);
#if DG_INC_RAMP_ON
  /* sin^2 ramp over the first `ramp` periods: zero slope at both ends. */
  const vreal r = sin((real_t)1.57079632679489661923 *
                      clamp(s * DG_INC_F0_RAMP, (real_t)0, (real_t)1));
  g *= r * r;
#endif
  return g;
#elif DG_INC_SHAPE == INC_MODULATED_GAUSSIAN
  const vreal e = DG_INC_BWA * s;
  return DG_INC_AMP * exp(-e * e) * sin((real_t)6.28318530717958647692 * DG_INC_F0 * s);
#else
  const vreal a = (real_t)3.14159265358979323846 * DG_INC_F0 * s;
#if DG_INC_SHAPE == INC_RICKER
  return DG_INC_AMP * ((real_t)1 - (real_t)2 * a * a) * exp(-a * a);
#else
  return DG_INC_AMP * exp(-a * a);
#endif
#endif
}

/* The incident field's part of the jumps at the face node with device index m:
 * dE += incE E_inc, dH += incH H_inc (xyz: node coordinates, 3 fields in the field
 * layout; t: the stage time). */
__attribute__((always_inline)) inline void
add_incident(vreal dE[3], vreal dH[3], const vreal incE, const vreal incH,
             __global const real_t *xyz, const int fs, const int m, const real_t t) {
  const vreal x = VLOAD(xyz + m), y = VLOAD(xyz + fs + m), z = VLOAD(xyz + 2 * fs + m);
  const vreal g = inc_pulse(t - (DG_INC_KX * x + DG_INC_KY * y + DG_INC_KZ * z) + DG_INC_KX0);
  const vreal gE = incE * g, gH = incH * g;
  dE[0] += gE * DG_INC_PX;
  dE[1] += gE * DG_INC_PY;
  dE[2] += gE * DG_INC_PZ;
  dH[0] += gH * DG_INC_HX;
  dH[1] += gH * DG_INC_HY;
  dH[2] += gH * DG_INC_HZ;
}
#endif

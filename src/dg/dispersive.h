/* Dispersive media (Debye, Drude and Lorentz poles) in the auxiliary-differential-equation
 * (ADE) form: one polarisation current per pole per electric component, stored only for the
 * dispersive elements and integrated by the same LSERK4 stages as the fields (as the PML's
 * auxiliary fields are, dg/pml.h).
 *
 * In an element of relative permittivity eps_inf (dg_maxwell.eps), conductivity sigma and
 * poles p, with phasors e^{+i w t} (the convention of dg/dft.h),
 *
 *   eps(w) = eps_inf - i sigma/w + sum_p chi_p(w),
 *   Debye    chi = delta_eps / (1 + i w tau)
 *   Drude    chi = -omega_p^2 / (w^2 - i gamma w)
 *   Lorentz  chi = delta_eps omega_0^2 / (omega_0^2 + 2 i delta w - w^2)
 *
 * and in time, with J_p = dP_p/dt the pole's polarisation current (c0 = 1, so eps0 = 1),
 *
 *   eps_inf dE/dt = curl H - sigma E - sum_p J_p - J_source
 *   Debye    tau dP/dt + P = delta_eps E                  state P;    J = (delta_eps E - P)/tau
 *   Drude    dJ/dt + gamma J = omega_p^2 E                state J
 *   Lorentz  d2P/dt2 + 2 delta dP/dt + omega_0^2 P = delta_eps omega_0^2 E
 *                                                         state P, J = dP/dt
 *
 * the ADE forms of Taflove & Hagness, Computational Electrodynamics, 3rd ed. (2005), ch. 9
 * (sec. 9.4: Debye, Drude and Lorentz media by the auxiliary differential equation method),
 * here written as first-order ODEs for explicit Runge-Kutta stages. Each is pointwise at the
 * nodes with constant coefficients per element, so it keeps the DG polynomial space and
 * adds no flux. Writing E from each pole's equation into E.J_p gives its stored energy and
 * its loss (dW/dt = -(loss) <= 0 with the field energy):
 *
 *   Debye    W_p = P^2 / (2 delta_eps),   loss tau J^2 / delta_eps
 *   Drude    W_p = J^2 / (2 omega_p^2),   loss gamma J^2 / omega_p^2
 *   Lorentz  W_p = P^2 / (2 delta_eps) + J^2 / (2 delta_eps omega_0^2),
 *            loss 2 delta J^2 / (delta_eps omega_0^2)
 *
 * so positive delta_eps, tau, omega_p, omega_0 and non-negative gamma, delta make the medium
 * passive (dg_pole_check refuses the rest). Frequencies are angular (rad per unit of time,
 * omega = 2 pi f with f in dgtd's units), times in dgtd's time unit (docs/UNITS.md). */
#ifndef DG_DG_DISPERSIVE_H
#define DG_DG_DISPERSIVE_H

#include <stddef.h>

#include "core/status.h"
#include "dg/maxwell.h"

typedef enum { DG_POLE_DEBYE = 0, DG_POLE_DRUDE = 1, DG_POLE_LORENTZ = 2 } dg_pole_type;

enum { DG_MAX_POLES = 8 }; /* poles per material */

/* One pole; only the parameters of its type are used. */
typedef struct {
  dg_pole_type type;
  double delta_eps; /* Debye, Lorentz: the pole's strength, eps(0) - eps(inf) of the pole */
  double tau;       /* Debye: relaxation time */
  double omega_p;   /* Drude: plasma frequency (angular) */
  double gamma;     /* Drude: collision rate (1/time) */
  double omega_0;   /* Lorentz: resonance frequency (angular) */
  double delta;     /* Lorentz: damping (1/time; the resonance's half width) */
} dg_pole;

/* A material's poles (its eps_inf and sigma are dg_maxwell.eps and .sigma). */
typedef struct dg_dispersion {
  int n_poles;
  dg_pole pole[DG_MAX_POLES];
} dg_dispersion;

/* The pole's name ("debye", "drude", "lorentz"), and the states it keeps per electric
 * component (Debye 1: P; Drude 1: J; Lorentz 2: P, J). */
const char *dg_pole_name(dg_pole_type t);
int dg_pole_states(dg_pole_type t);

/* Range checks of one pole, naming its keys under `where` (e.g. "case.json:
 * materials[0].poles[1]"): finite values, delta_eps, tau, omega_p, omega_0 > 0 and gamma,
 * delta >= 0 (a passive medium). */
dg_status dg_pole_check(const dg_pole *p, const char *where) DG_NODISCARD;

/* The largest decay or oscillation rate of a dispersive element's local ODEs, a bound on
 * the spectral radius of the pointwise system (E, pole states) in its energy norm:
 *   sigma/eps_inf + sum over poles of
 *   Debye (1 + delta_eps/eps_inf)/tau, Drude gamma + omega_p/sqrt(eps_inf),
 *   Lorentz 2 delta + omega_0 sqrt(1 + delta_eps/eps_inf)
 * (each term is the norm of that pole's part of the system; the time step keeps
 * dt * rate <= cfl, dg_maxwell_dt). */
double dg_dispersion_rate(const dg_dispersion *d, double eps_inf, double sigma);

/* eps(w) of a material (the formula above) at angular frequency omega > 0, as its real and
 * imaginary parts (Im <= 0 in a passive medium). */
void dg_dispersion_eps(const dg_dispersion *d, double eps_inf, double sigma, double omega,
                       double *re, double *im);

/* The step the poles allow, cfl / (the largest dg_dispersion_rate over the dispersive
 * elements), INFINITY without any; *elem (may be NULL) is the dispersive element (an index
 * into disp_elem; -1 without any) with that rate. LSERK4's stability region reaches 4.66 on
 * the negative real axis and 3.34 on the imaginary one and holds the left half-disc of
 * radius 3.16, which leaves room for the mesh's own modes at the same step. */
double dg_dispersion_dt(const dg_maxwell *p, double cfl, int *elem);

/* Make the elements with model[k] >= 0 dispersive with the poles models[model[k]]
 * (model: K values, -1 for none; models[0..n_models) copied; a model without poles leaves
 * its elements plain). A dispersive element may not be a PML element (DG_ERR_INPUT naming
 * it). Replaces any earlier dispersion. */
dg_status dg_maxwell_set_dispersion(dg_maxwell *p, const int *model, const dg_dispersion *models,
                                    int n_models) DG_NODISCARD;

/* Pole state values (after the PML's auxiliary fields in the auxiliary state,
 * dg_maxwell_aux_size): dispersive element e (index into disp_elem) holds its model's states
 * s = 0.. in pole order, component c, node n at disp_off[e] + (3 s + c) Np + n. */
size_t dg_maxwell_pole_size(const dg_maxwell *p);

/* The poles' part of the right-hand side (used by dg_maxwell_rhs_aux): subtracts
 * sum_p J_p / eps_inf from the E rows of rhs on the dispersive nodes and writes the pole
 * states' rates into rhs_w (NULL: not computed); w (the pole states, dg_maxwell_pole_size
 * values; NULL: zero). q is the field state. */
void dg_dispersion_apply(const dg_maxwell *p, const double *q, const double *w, double *rhs,
                         double *rhs_w);

/* The poles' stored energy, sum over the owned dispersive elements of int W_p dx (mass
 * matrix), for the pole states w (dg_maxwell_pole_size values). */
double dg_dispersion_energy(const dg_maxwell *p, const double *w);

#endif

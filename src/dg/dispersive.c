/* Dispersive media: pole checks, the pole states' right-hand side and energy (see
 * dg/dispersive.h). */
#include "dg/dispersive.h"

#include <complex.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"

const char *dg_pole_name(dg_pole_type t) {
  switch (t) {
  case DG_POLE_DEBYE: return "debye";
  case DG_POLE_DRUDE: return "drude";
  case DG_POLE_LORENTZ: return "lorentz";
  }
  return "?";
}

int dg_pole_states(dg_pole_type t) { return t == DG_POLE_LORENTZ ? 2 : 1; }

/* value must be finite and > 0 (positive) or >= 0. */
static dg_status check_value(double v, int positive, const char *where, const char *key,
                             const char *what) {
  DG_CHECK(isfinite(v) && (positive ? v > 0 : v >= 0), DG_ERR_INPUT,
           "%s.%s: must be %s (%s), got %g", where, key,
           positive ? "a positive number" : "a number >= 0", what, v);
  return DG_OK;
}

dg_status dg_pole_check(const dg_pole *p, const char *where) {
  switch (p->type) {
  case DG_POLE_DEBYE:
    DG_CALL(check_value(p->delta_eps, 1, where, "delta_eps",
                        "a negative strength makes the medium active: its field would grow"));
    DG_CALL(check_value(p->tau, 1, where, "tau", "the relaxation time"));
    break;
  case DG_POLE_DRUDE:
    DG_CALL(check_value(p->omega_p, 1, where, "omega_p", "the angular plasma frequency"));
    DG_CALL(check_value(p->gamma, 0, where, "gamma",
                        "a negative collision rate makes the medium active: its field would grow"));
    break;
  case DG_POLE_LORENTZ:
    DG_CALL(check_value(p->delta_eps, 1, where, "delta_eps",
                        "a negative strength makes the medium active: its field would grow"));
    DG_CALL(check_value(p->omega_0, 1, where, "omega_0", "the angular resonance frequency"));
    DG_CALL(check_value(p->delta, 0, where, "delta",
                        "negative damping makes the medium active: its field would grow"));
    break;
  default:
    return DG_ERROR(DG_ERR_INPUT, "%s.type: not a pole type (%d)", where, (int)p->type);
  }
  /* What the stepper and the energy divide by (delta_eps, tau, omega_p^2, delta_eps
   * omega_0^2) must be a normal double: a value whose square or reciprocal leaves the range
   * (omega_p = 1e-300 made the weight 1/omega_p^2 infinite, and the run stopped as
   * "non-finite" with a cfl hint) is refused by name. */
  const int drude = p->type == DG_POLE_DRUDE, debye = p->type == DG_POLE_DEBYE;
  const struct {
    const char *key;
    double value, divisor;
  } d[2] = {{drude ? "omega_p" : "delta_eps", drude ? p->omega_p : p->delta_eps,
             drude ? p->omega_p * p->omega_p : p->delta_eps},
            {debye ? "tau" : "omega_0", debye ? p->tau : p->omega_0,
             debye ? p->tau : p->delta_eps * p->omega_0 * p->omega_0}};
  for (int i = 0; i < (drude ? 1 : 2); ++i)
    DG_CHECK(isnormal(d[i].divisor) && isfinite(1 / d[i].divisor), DG_ERR_INPUT,
             "%s.%s = %g is too %s to compute with (its square or reciprocal is out of a "
             "double's range); a pole like that has no effect or no meaning: leave it out, or "
             "check its units (docs/UNITS.md#dispersive-materials)",
             where, d[i].key, d[i].value, fabs(d[i].value) < 1 ? "small" : "large");
  return DG_OK;
}

double dg_dispersion_rate(const dg_dispersion *d, double eps_inf, double sigma) {
  double rate = sigma / eps_inf;
  for (int i = 0; i < d->n_poles; ++i) {
    const dg_pole *p = &d->pole[i];
    switch (p->type) {
    case DG_POLE_DEBYE: rate += (1 + p->delta_eps / eps_inf) / p->tau; break;
    case DG_POLE_DRUDE: rate += p->gamma + p->omega_p / sqrt(eps_inf); break;
    case DG_POLE_LORENTZ:
      rate += 2 * p->delta + p->omega_0 * sqrt(1 + p->delta_eps / eps_inf);
      break;
    }
  }
  return rate;
}

void dg_dispersion_eps(const dg_dispersion *d, double eps_inf, double sigma, double omega,
                       double *re, double *im) {
  double complex e = eps_inf - I * sigma / omega;
  for (int i = 0; i < d->n_poles; ++i) {
    const dg_pole *p = &d->pole[i];
    switch (p->type) {
    case DG_POLE_DEBYE: e += p->delta_eps / (1 + I * omega * p->tau); break;
    case DG_POLE_DRUDE: e += -p->omega_p * p->omega_p / (omega * omega - I * p->gamma * omega); break;
    case DG_POLE_LORENTZ:
      e += p->delta_eps * p->omega_0 * p->omega_0 /
           (p->omega_0 * p->omega_0 + 2 * I * p->delta * omega - omega * omega);
      break;
    }
  }
  *re = creal(e);
  *im = cimag(e);
}

double dg_dispersion_dt(const dg_maxwell *p, double cfl, int *elem) {
  double rate = 0;
  int at = -1;
  for (int e = 0; e < p->disp_K; ++e) {
    const int k = p->disp_elem[e];
    const double r = dg_dispersion_rate(&p->disp_models[p->disp_model[e]], p->eps[k], p->sigma[k]);
    if (r > rate) rate = r, at = e;
  }
  if (elem) *elem = at;
  return at < 0 ? INFINITY : cfl / rate;
}

static void clear(dg_maxwell *p) {
  DG_FREE_ALL(&p->disp_elem, &p->disp_model, &p->disp_off, &p->disp_models);
  p->disp_K = p->n_disp_models = 0;
}

dg_status dg_maxwell_set_dispersion(dg_maxwell *p, const int *model, const dg_dispersion *models,
                                    int n_models) {
  const dg_geom *g = p->geom;
  clear(p);
  for (int i = 0; i < n_models; ++i) {
    DG_CHECK(models[i].n_poles >= 0 && models[i].n_poles <= DG_MAX_POLES, DG_ERR_INPUT,
             "dispersion model %d: %d poles (at most %d)", i, models[i].n_poles, DG_MAX_POLES);
    for (int j = 0; j < models[i].n_poles; ++j) {
      char where[64];
      snprintf(where, sizeof where, "dispersion model %d, pole %d", i, j);
      DG_CALL(dg_pole_check(&models[i].pole[j], where));
    }
  }
  int n = 0;
  for (int k = 0; k < g->K; ++k) {
    DG_CHECK(model[k] < n_models, DG_ERR_INPUT, "element %d: dispersion model %d of %d", k + 1,
             model[k], n_models);
    n += model[k] >= 0 && models[model[k]].n_poles > 0;
  }
  if (!n) return DG_OK;
  for (int e = 0; e < p->pml_K; ++e) {
    const int k = p->pml_elem[e];
    DG_CHECK(model[k] < 0 || models[model[k]].n_poles == 0, DG_ERR_INPUT,
             "element %d is both dispersive and in the PML: the layer is matched to "
             "non-dispersive media only", k + 1);
  }
  dg_status st = DG_OK;
  DG_CALL_GOTO(fail, DG_ALLOC(p->disp_elem, n));
  DG_CALL_GOTO(fail, DG_ALLOC(p->disp_model, n));
  DG_CALL_GOTO(fail, DG_ALLOC(p->disp_off, n + 1));
  DG_CALL_GOTO(fail, DG_ALLOC(p->disp_models, n_models));
  memcpy(p->disp_models, models, (size_t)n_models * sizeof *models);
  p->n_disp_models = n_models;
  int e = 0;
  for (int k = 0; k < g->K; ++k) {
    if (model[k] < 0 || models[model[k]].n_poles == 0) continue;
    const dg_dispersion *d = &models[model[k]];
    int states = 0;
    for (int j = 0; j < d->n_poles; ++j) states += dg_pole_states(d->pole[j].type);
    p->disp_elem[e] = k;
    p->disp_model[e] = model[k];
    p->disp_off[e + 1] = p->disp_off[e] + 3 * (size_t)states * g->Np;
    ++e;
  }
  p->disp_K = n;
  return DG_OK;
fail:
  clear(p);
  return st;
}

size_t dg_maxwell_pole_size(const dg_maxwell *p) {
  return p->disp_K ? p->disp_off[p->disp_K] : 0;
}

void dg_dispersion_apply(const dg_maxwell *p, const double *q, const double *w, double *rhs,
                         double *rhs_w) {
  const dg_geom *g = p->geom;
  const int Np = g->Np;
  const size_t KNp = (size_t)g->K * Np;
  for (int e = 0; e < p->disp_K; ++e) {
    const int k = p->disp_elem[e];
    const dg_dispersion *d = &p->disp_models[p->disp_model[e]];
    const double inv_eps = 1 / p->eps[k];
    size_t o = p->disp_off[e]; /* this pole's first state, component x */
    for (int j = 0; j < d->n_poles; ++j) {
      const dg_pole *pl = &d->pole[j];
      for (int c = 0; c < 3; ++c) {
        const double *E = q + c * KNp + (size_t)k * Np;
        double *dE = rhs + c * KNp + (size_t)k * Np;
        const size_t s0 = o + (size_t)c * Np;      /* the first state of component c */
        const size_t s1 = o + (size_t)(3 + c) * Np; /* Lorentz: the second (J) */
        for (int n = 0; n < Np; ++n) {
          double J;
          switch (pl->type) {
          case DG_POLE_DEBYE: {
            const double P = w ? w[s0 + n] : 0;
            J = (pl->delta_eps * E[n] - P) / pl->tau;
            if (rhs_w) rhs_w[s0 + n] = J;
            break;
          }
          case DG_POLE_DRUDE:
            J = w ? w[s0 + n] : 0;
            if (rhs_w) rhs_w[s0 + n] = pl->omega_p * pl->omega_p * E[n] - pl->gamma * J;
            break;
          default: { /* Lorentz */
            const double P = w ? w[s0 + n] : 0, w2 = pl->omega_0 * pl->omega_0;
            J = w ? w[s1 + n] : 0;
            if (rhs_w) {
              rhs_w[s0 + n] = J;
              rhs_w[s1 + n] = w2 * (pl->delta_eps * E[n] - P) - 2 * pl->delta * J;
            }
            break;
          }
          }
          dE[n] -= J * inv_eps;
        }
      }
      o += 3 * (size_t)dg_pole_states(pl->type) * Np;
    }
  }
}

/* u^T M u J_k for one element's nodal values u (a curved element: u^T M_k u, its own mass
 * matrix, geom.h). */
static double mass_norm2(const dg_geom *g, int k, const double *u) {
  const int Np = g->Np, c = dg_geom_curved_row(g, k);
  const double *M = c >= 0 ? g->cv.M + (size_t)c * Np * Np : g->ref->M;
  double uMu = 0;
  for (int i = 0; i < Np; ++i) {
    double Mu = 0;
    for (int j = 0; j < Np; ++j) Mu += M[i * Np + j] * u[j];
    uMu += u[i] * Mu;
  }
  return (c >= 0 ? 1 : g->J[k]) * uMu;
}

double dg_dispersion_energy(const dg_maxwell *p, const double *w) {
  const dg_geom *g = p->geom;
  const int Np = g->Np;
  double total = 0;
  for (int e = 0; e < p->disp_K; ++e) {
    const int k = p->disp_elem[e];
    if (k >= g->mesh->K_owned) continue; /* ghost copies belong to other ranks */
    const dg_dispersion *d = &p->disp_models[p->disp_model[e]];
    size_t o = p->disp_off[e];
    for (int j = 0; j < d->n_poles; ++j) {
      const dg_pole *pl = &d->pole[j];
      /* Each state's weight in W_p (dg/dispersive.h). */
      double wt[2];
      switch (pl->type) {
      case DG_POLE_DEBYE: wt[0] = 1 / (2 * pl->delta_eps); break;
      case DG_POLE_DRUDE: wt[0] = 1 / (2 * pl->omega_p * pl->omega_p); break;
      default:
        wt[0] = 1 / (2 * pl->delta_eps);
        wt[1] = 1 / (2 * pl->delta_eps * pl->omega_0 * pl->omega_0);
        break;
      }
      const int ns = dg_pole_states(pl->type);
      for (int s = 0; s < ns; ++s)
        for (int c = 0; c < 3; ++c)
          total += wt[s] * mass_norm2(g, k, w + o + (size_t)(3 * s + c) * Np);
      o += 3 * (size_t)ns * Np;
    }
  }
  return total;
}

#include "dg/maxwell.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "dg/dispersive.h"
#include "dg/pml.h"

dg_status dg_maxwell_create(dg_maxwell **out, const dg_geom *g) {
  dg_status st = DG_OK;
  dg_maxwell *p = NULL;
  DG_CALL(DG_ALLOC(p, 1));
  p->geom = g;
  p->alpha = 1.0;
  DG_CALL_GOTO(fail, DG_ALLOC(p->eps, g->K));
  DG_CALL_GOTO(fail, DG_ALLOC(p->mu, g->K));
  DG_CALL_GOTO(fail, DG_ALLOC(p->sigma, g->K));
  DG_CALL_GOTO(fail, DG_ALLOC(p->bc, 4 * (size_t)g->K));
  DG_CALL_GOTO(fail, DG_ALLOC(p->work, 24 * (size_t)g->Np + 24 * (size_t)g->Nfp));
  /* Transposed operators for the column-oriented loops of dg_maxwell_rhs. */
  const int Np = g->Np, nl = 4 * g->Nfp;
  DG_CALL_GOTO(fail, DG_ALLOC(p->DrT, (size_t)Np * Np));
  DG_CALL_GOTO(fail, DG_ALLOC(p->DsT, (size_t)Np * Np));
  DG_CALL_GOTO(fail, DG_ALLOC(p->DtT, (size_t)Np * Np));
  DG_CALL_GOTO(fail, DG_ALLOC(p->LIFTT, (size_t)Np * nl));
  for (int i = 0; i < Np; ++i) {
    for (int j = 0; j < Np; ++j) {
      p->DrT[j * Np + i] = g->ref->Dr[i * Np + j];
      p->DsT[j * Np + i] = g->ref->Ds[i * Np + j];
      p->DtT[j * Np + i] = g->ref->Dt[i * Np + j];
    }
    for (int j = 0; j < nl; ++j) p->LIFTT[j * Np + i] = g->ref->LIFT[i * nl + j];
  }
  for (int k = 0; k < g->K; ++k) {
    p->eps[k] = 1.0;
    p->mu[k] = 1.0;
    for (int f = 0; f < 4; ++f) {
      const int boundary = g->mesh->EToE[4 * k + f] == k && g->mesh->EToF[4 * k + f] == f;
      p->bc[4 * k + f] = boundary ? DG_BC_PEC : DG_BC_NONE;
    }
  }
  *out = p;
  return DG_OK;
fail:
  dg_maxwell_destroy(&p);
  return st;
}

void dg_maxwell_destroy(dg_maxwell **pp) {
  dg_maxwell *p = *pp;
  if (!p) return;
  DG_FREE_ALL(&p->eps, &p->mu, &p->sigma, &p->bc, &p->work, &p->DrT, &p->DsT, &p->DtT,
              &p->LIFTT, &p->pml_elem, &p->pml_mat_of, &p->pml_alpha, &p->pml_beta,
              &p->pml_mat, &p->tfsf, &p->disp_elem, &p->disp_model, &p->disp_off,
              &p->disp_models);
  for (int i = 0; i < p->n_sources; ++i) dg_free(&p->sources[i].profile);
  dg_free(&p->sources);
  dg_free(pp);
}

dg_status dg_maxwell_add_dipole(dg_maxwell *p, const dg_dipole *d, int elem,
                                const double rst[3]) {
  const dg_geom *g = p->geom;
  char what[48];
  snprintf(what, sizeof what, "dipole %d", p->n_sources + 1);
  DG_CHECK(elem >= 0 && elem < g->K, DG_ERR_INPUT, "%s: element %d out of range 0..%d", what,
           elem, g->K - 1);
  DG_CHECK(isfinite(d->dir[0]) && isfinite(d->dir[1]) && isfinite(d->dir[2]), DG_ERR_INPUT,
           "%s: direction must be finite", what);
  DG_CALL(dg_pulse_check(&d->pulse, what));
  double *profile = NULL;
  DG_CALL(DG_ALLOC(profile, g->Np));
  dg_point_source *grown = realloc(p->sources, (size_t)(p->n_sources + 1) * sizeof *grown);
  if (!grown) {
    dg_free(&profile);
    return DG_ERROR(DG_ERR_MEMORY, "%s: out of memory", what);
  }
  p->sources = grown;
  dg_dipole_profile(g, elem, rst, profile);
  dg_point_source *s = &p->sources[p->n_sources++];
  s->elem = elem;
  s->profile = profile;
  for (int c = 0; c < 3; ++c) s->dir[c] = d->dir[c];
  s->pulse = d->pulse;
  /* An affine element's mass matrix is J M, a curved one's its own. */
  const int c = dg_geom_curved_row(g, elem);
  const double *M = c >= 0 ? g->cv.M + (size_t)c * g->Np * g->Np : g->ref->M;
  double pMp = 0;
  for (int i = 0; i < g->Np; ++i) {
    double Mp = 0;
    for (int j = 0; j < g->Np; ++j) Mp += M[i * g->Np + j] * profile[j];
    pMp += profile[i] * Mp;
  }
  s->norm = sqrt(fmax(0, (c >= 0 ? 1 : g->J[elem]) * pMp));
  return DG_OK;
}

void dg_maxwell_set_plane_wave(dg_maxwell *p, dg_plane_wave *pw) {
  p->incident = dg_plane_wave_eval;
  p->incident_ctx = pw;
  p->scattered = pw->scattered;
}

dg_status dg_maxwell_set_tfsf(dg_maxwell *p, const signed char *face_sign) {
  dg_free(&p->tfsf);
  if (!face_sign) return DG_OK;
  DG_CHECK(!p->scattered, DG_ERR_INPUT,
           "a total-field/scattered-field surface needs the total-field formulation of the "
           "plane wave");
  const int K = p->geom->K;
  int n = 0;
  for (int i = 0; i < 4 * K; ++i) {
    DG_CHECK(face_sign[i] >= -1 && face_sign[i] <= 1, DG_ERR_INPUT,
             "TF/SF surface: face sign %d of face %d of element %d is not -1, 0 or 1",
             face_sign[i], i % 4, i / 4 + 1);
    DG_CHECK(!face_sign[i] || p->bc[i] == DG_BC_NONE, DG_ERR_INPUT,
             "TF/SF surface: face %d of element %d is a boundary face; the surface must lie "
             "inside the domain", i % 4, i / 4 + 1);
    n += face_sign[i] != 0;
  }
  DG_CHECK(n > 0, DG_ERR_INPUT, "TF/SF surface: no face carries it");
  DG_CALL(DG_ALLOC(p->tfsf, 4 * (size_t)K));
  for (int i = 0; i < 4 * K; ++i) p->tfsf[i] = face_sign[i];
  return DG_OK;
}

static void cross(const double a[3], const double b[3], double c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

/* Jumps dE = E+ - E-, dH = H+ - H- at one face node, with the exterior state of a
 * boundary face given by its condition. */
static void face_jumps(const dg_maxwell *p, int face, int idM, int idP, double t,
                       const double *q, size_t KNp, double dE[3], double dH[3]) {
  const dg_geom *g = p->geom;
  double Em[3], Hm[3], Ep[3], Hp[3];
  for (int c = 0; c < 3; ++c) {
    Em[c] = q[c * KNp + idM];
    Hm[c] = q[(3 + c) * KNp + idM];
    Ep[c] = q[c * KNp + idP];
    Hp[c] = q[(3 + c) * KNp + idP];
  }
  switch ((dg_bc)p->bc[face]) {
  case DG_BC_NONE:
    if (p->tfsf && p->tfsf[face] && p->incident) {
      /* TF/SF surface: the neighbour's field is on the other side's footing. */
      double Ei[3], Hi[3];
      p->incident(p->incident_ctx, g->x[idM], g->y[idM], g->z[idM], t, Ei, Hi);
      for (int c = 0; c < 3; ++c) Ep[c] += p->tfsf[face] * Ei[c], Hp[c] += p->tfsf[face] * Hi[c];
    }
    break;
  case DG_BC_PEC:
    for (int c = 0; c < 3; ++c) Ep[c] = -Em[c], Hp[c] = Hm[c];
    if (p->scattered && p->incident) { /* the total field E + E_inc is mirrored */
      double Ei[3], Hi[3];
      p->incident(p->incident_ctx, g->x[idM], g->y[idM], g->z[idM], t, Ei, Hi);
      for (int c = 0; c < 3; ++c) Ep[c] -= 2 * Ei[c];
    }
    break;
  case DG_BC_PMC:
    for (int c = 0; c < 3; ++c) Ep[c] = Em[c], Hp[c] = -Hm[c];
    break;
  case DG_BC_ABC:
    for (int c = 0; c < 3; ++c) Ep[c] = 0, Hp[c] = 0;
    if (p->incident && !p->scattered && !p->tfsf) /* total field: the wave comes in from outside */
      p->incident(p->incident_ctx, g->x[idM], g->y[idM], g->z[idM], t, Ep, Hp);
    break;
  }
  for (int c = 0; c < 3; ++c) {
    dE[c] = Ep[c] - Em[c];
    dH[c] = Hp[c] - Hm[c];
  }
}

/* The field terms of the right-hand side (curl, lifted flux, conductivity, J) of the
 * elements in elems (n_elems of them; all K when elems is NULL). */
static void rhs_fields(dg_maxwell *p, double t, const double *q, const double *J, double *rhs,
                       const int *elems, int n_elems) {
  const dg_geom *g = p->geom;
  const dg_refel *r = g->ref;
  const int Np = r->Np, Nfp = r->Nfp, K = g->K;
  const size_t KNp = (size_t)K * Np;
  /* Per-element scratch, preallocated: reference derivatives and scaled face fluxes. */
  double *dr[DG_NFIELDS], *ds[DG_NFIELDS], *dt[DG_NFIELDS], *flux[DG_NFIELDS];
  for (int f = 0; f < DG_NFIELDS; ++f) {
    dr[f] = p->work + (size_t)(3 * f) * Np;
    ds[f] = p->work + (size_t)(3 * f + 1) * Np;
    dt[f] = p->work + (size_t)(3 * f + 2) * Np;
    flux[f] = p->work + (size_t)18 * Np + (size_t)f * 4 * Nfp;
  }

  for (int e = 0; e < n_elems; ++e) {
    const int k = elems ? elems[e] : e;
    const int cv = dg_geom_curved_row(g, k); /* a curved element's row, else -1 */
    /* Reference derivatives of all six fields: d = D u as a sum of columns of D (the
     * transposed operators make the inner loop contiguous, which lets it vectorise). */
    for (int f = 0; f < DG_NFIELDS; ++f) {
      const double *u = q + f * KNp + (size_t)k * Np;
      for (int i = 0; i < Np; ++i) dr[f][i] = ds[f][i] = dt[f][i] = 0;
      for (int j = 0; j < Np; ++j) {
        const double uj = u[j];
        const double *cr = p->DrT + (size_t)j * Np, *cs = p->DsT + (size_t)j * Np,
                     *ct = p->DtT + (size_t)j * Np;
        for (int i = 0; i < Np; ++i) {
          dr[f][i] += cr[i] * uj;
          ds[f][i] += cs[i] * uj;
          dt[f][i] += ct[i] * uj;
        }
      }
    }
    /* Surface flux at every face node, already scaled by Fscale. */
    const double ZM = sqrt(p->mu[k] / p->eps[k]);
    for (int face = 0; face < 4; ++face) {
      const int fid = 4 * k + face;
      const int k2 = g->mesh->EToE[fid];
      const double ZP = p->bc[fid] == DG_BC_NONE ? sqrt(p->mu[k2] / p->eps[k2]) : ZM;
      const double YM = 1 / ZM, YP = 1 / ZP;
      const double n[3] = {g->nx[fid], g->ny[fid], g->nz[fid]};
      for (int i = 0; i < Nfp; ++i) {
        const int m = fid * Nfp + i;
        double dE[3], dH[3], ndE[3], ndH[3], a[3], b[3], fe[3], fh[3];
        face_jumps(p, fid, g->vmapM[m], g->vmapP[m], t, q, KNp, dE, dH);
        if (cv >= 0) { /* a curved element takes the jumps to its face rule's points */
          for (int c = 0; c < 3; ++c)
            flux[c][face * Nfp + i] = dE[c], flux[3 + c][face * Nfp + i] = dH[c];
          continue;
        }
        cross(n, dE, ndE);
        cross(n, dH, ndH);
        for (int c = 0; c < 3; ++c) {
          a[c] = ZP * dH[c] - p->alpha * ndE[c];
          b[c] = -YP * dE[c] - p->alpha * ndH[c];
        }
        cross(n, a, fe);
        cross(n, b, fh);
        for (int c = 0; c < 3; ++c) {
          flux[c][face * Nfp + i] = g->Fscale[fid] * fe[c] / (ZM + ZP);
          flux[3 + c][face * Nfp + i] = g->Fscale[fid] * fh[c] / (YM + YP);
        }
      }
    }
    /* Curl in physical coordinates, lift, material scaling. */
    const double rx = g->rx[k], ry = g->ry[k], rz = g->rz[k], sx = g->sx[k], sy = g->sy[k],
                 sz = g->sz[k], tx = g->tx[k], ty = g->ty[k], tz = g->tz[k];
#define DX(f, i) (rx * dr[f][i] + sx * ds[f][i] + tx * dt[f][i])
#define DY(f, i) (ry * dr[f][i] + sy * ds[f][i] + ty * dt[f][i])
#define DZ(f, i) (rz * dr[f][i] + sz * ds[f][i] + tz * dt[f][i])
    /* curl of each field at the nodes, then + LIFT flux (column by column). */
    double *curl = p->work + (size_t)18 * Np + (size_t)24 * Nfp; /* 6 x Np */
    if (cv >= 0) /* a curved element's curl and lift by quadrature (its own data) */
      dg_maxwell_curved_terms(p, k, q, flux, p->work, curl);
    for (int i = 0; i < Np && cv < 0; ++i) {
      curl[DG_EX * Np + i] = DY(DG_HZ, i) - DZ(DG_HY, i);
      curl[DG_EY * Np + i] = DZ(DG_HX, i) - DX(DG_HZ, i);
      curl[DG_EZ * Np + i] = DX(DG_HY, i) - DY(DG_HX, i);
      curl[DG_HX * Np + i] = -(DY(DG_EZ, i) - DZ(DG_EY, i));
      curl[DG_HY * Np + i] = -(DZ(DG_EX, i) - DX(DG_EZ, i));
      curl[DG_HZ * Np + i] = -(DX(DG_EY, i) - DY(DG_EX, i));
    }
    for (int f = 0; f < DG_NFIELDS && cv < 0; ++f) {
      double *acc = curl + (size_t)f * Np;
      for (int j = 0; j < 4 * Nfp; ++j) {
        const double fj = flux[f][j];
        const double *col = p->LIFTT + (size_t)j * Np;
        for (int i = 0; i < Np; ++i) acc[i] += col[i] * fj;
      }
    }
    /* Material scaling: eps dE/dt = curl H + lift - sigma E - J, mu dH/dt = -curl E + lift. */
    for (int f = 0; f < DG_NFIELDS; ++f)
      for (int i = 0; i < Np; ++i) {
        const size_t id = (size_t)k * Np + i;
        double v = curl[f * Np + i];
        if (f < 3) {
          v -= p->sigma[k] * q[f * KNp + id];
          if (J) v -= J[f * KNp + id];
          v /= p->eps[k];
        } else {
          v /= p->mu[k];
        }
        rhs[f * KNp + id] = v;
      }
#undef DX
#undef DY
#undef DZ
  }
}

/* A point dipole's term: eps dE/dt gets -J_h, J_h = dir g(t) profile, in its element. */
static void add_point_source(const dg_maxwell *p, const dg_point_source *s, double t,
                             double *rhs) {
  const int Np = p->geom->Np;
  const size_t KNp = (size_t)p->geom->K * Np;
  const double gt = dg_pulse_eval(&s->pulse, t);
  for (int c = 0; c < 3; ++c) {
    const double w = s->dir[c] * gt / p->eps[s->elem];
    double *out = rhs + c * KNp + (size_t)s->elem * Np;
    for (int n = 0; n < Np; ++n) out[n] -= w * s->profile[n];
  }
}

void dg_maxwell_rhs_aux(dg_maxwell *p, double t, const double *q, const double *J,
                        const double *w, double *rhs, double *rhs_w) {
  rhs_fields(p, t, q, J, rhs, NULL, p->geom->K);
  if (p->pml_K) dg_pml_apply(p, w, rhs, rhs_w);
  if (p->disp_K) { /* the pole states follow the PML's fields */
    const size_t off = dg_maxwell_aux_size(p) - dg_maxwell_pole_size(p);
    dg_dispersion_apply(p, q, w ? w + off : NULL, rhs, rhs_w ? rhs_w + off : NULL);
  }
  for (int i = 0; i < p->n_sources; ++i) add_point_source(p, &p->sources[i], t, rhs);
}

void dg_maxwell_rhs(dg_maxwell *p, double t, const double *q, const double *J, double *rhs) {
  dg_maxwell_rhs_aux(p, t, q, J, NULL, rhs, NULL);
}

void dg_maxwell_rhs_elems(dg_maxwell *p, double t, const double *q, const double *J,
                          double *rhs, const int *elems, int n_elems) {
  dg_maxwell_rhs_elems_aux(p, t, q, J, NULL, rhs, NULL, elems, n_elems, NULL, 0);
}

void dg_maxwell_rhs_elems_aux(dg_maxwell *p, double t, const double *q, const double *J,
                              const double *w, double *rhs, double *rhs_w, const int *elems,
                              int n_elems, const int *pml_e, int n_pml) {
  rhs_fields(p, t, q, J, rhs, elems, n_elems);
  if (n_pml) dg_pml_apply_elems(p, w, rhs, rhs_w, pml_e, n_pml);
  for (int e = 0; e < n_elems; ++e) {
    const int k = elems ? elems[e] : e;
    for (int i = 0; i < p->n_sources; ++i) /* point dipoles in this element */
      if (p->sources[i].elem == k) add_point_source(p, &p->sources[i], t, rhs);
  }
}

size_t dg_maxwell_aux_size(const dg_maxwell *p) {
  return (size_t)DG_PML_AUX * (size_t)p->pml_K * (size_t)p->geom->Np + dg_maxwell_pole_size(p);
}

double dg_maxwell_energy_aux(const dg_maxwell *p, const double *q, const double *w) {
  double e = dg_maxwell_energy(p, q);
  if (p->disp_K && w) /* the pole states follow the PML's fields */
    e += dg_dispersion_energy(p, w + (dg_maxwell_aux_size(p) - dg_maxwell_pole_size(p)));
  return e;
}

double dg_maxwell_energy(const dg_maxwell *p, const double *q) {
  const dg_geom *g = p->geom;
  const int Np = g->Np;
  const size_t KNp = (size_t)g->K * Np;
  double total = 0;
  for (int k = 0; k < g->mesh->K_owned; ++k) { /* ghost copies belong to other ranks */
    /* An affine element's mass matrix is J M, a curved one's its own. */
    const int c = dg_geom_curved_row(g, k);
    const double *M = c >= 0 ? g->cv.M + (size_t)c * Np * Np : g->ref->M;
    for (int f = 0; f < DG_NFIELDS; ++f) {
      const double *u = q + f * KNp + (size_t)k * Np;
      double uMu = 0;
      for (int i = 0; i < Np; ++i) {
        double Mu = 0;
        for (int j = 0; j < Np; ++j) Mu += M[i * Np + j] * u[j];
        uMu += u[i] * Mu;
      }
      total += 0.5 * (f < 3 ? p->eps[k] : p->mu[k]) * (c >= 0 ? 1 : g->J[k]) * uMu;
    }
  }
  return total;
}

double dg_maxwell_element_dt(const dg_maxwell *p, int k) {
  const dg_geom *g = p->geom;
  const double n1 = g->N + 1.0;
  double fs = 0;
  const int c = dg_geom_curved_row(g, k);
  if (c >= 0) /* a curved element: the largest sJ/J at its face nodes */
    for (int i = 0; i < 4 * g->Nfp; ++i) fs = fmax(fs, g->cv.Fscale[(size_t)c * 4 * g->Nfp + i]);
  else
    for (int f = 0; f < 4; ++f) fs = fmax(fs, g->Fscale[4 * k + f]);
  return sqrt(p->eps[k] * p->mu[k]) / (fs * n1 * n1);
}

double dg_maxwell_dt(const dg_maxwell *p, double cfl) {
  const dg_geom *g = p->geom;
  double dt = INFINITY;
  for (int k = 0; k < g->K; ++k) dt = fmin(dt, dg_maxwell_element_dt(p, k));
  /* The PML's filters decay at rates up to beta, a conductivity at sigma/eps: keep
   * (beta + sigma/eps) dt <= cfl (LSERK4's stability region reaches 4.66 on the negative
   * real axis and 3.34 on the imaginary axis, so this keeps a margin; sigma = 150 with the
   * step of sigma = 0 went unstable). A dispersive element's poles
   * bound it the same way (dg_dispersion_dt). */
  double rate = 0;
  for (int k = 0; k < g->K; ++k)
    if (p->sigma[k] > 0) rate = fmax(rate, p->sigma[k] / p->eps[k]);
  if (p->pml_K && p->pml_beta_max > 0) rate += p->pml_beta_max;
  if (rate > 0) dt = fmin(dt, 1 / rate);
  return fmin(cfl * dt, dg_dispersion_dt(p, cfl, NULL));
}

/* The largest |g| over [ta, tb] can be: the amplitude for a harmonic pulse, the envelope's
 * largest value for a modulated Gaussian; for a Gaussian
 * or a Ricker pulse |g| <= |A| (1 + 2x^2) exp(-x^2), x = pi f0 (t - t0), made non-increasing
 * in |x| by its maximum 2 exp(-1/2) below |x| = 1/sqrt(2), and taken at the point of the
 * interval nearest the delay (a step longer than the pulse must still count its peak). */
static double pulse_bound(const dg_pulse *g, double ta, double tb) {
  const double A = fabs(g->amplitude);
  if (g->shape == DG_PULSE_HARMONIC) return A;
  const double t = g->t0 < ta ? ta : g->t0 > tb ? tb : g->t0;
  if (g->shape == DG_PULSE_MODULATED_GAUSSIAN) { /* |g| <= |A| exp(-(b s)^2), its envelope */
    const double e = dg_pulse_envelope_rate(g) * (t - g->t0);
    return A * exp(-e * e);
  }
  const double x = M_PI * g->f0 * (t - g->t0);
  if (x * x < 0.5) return A * 2 * exp(-0.5);
  return A * (1 + 2 * x * x) * exp(-x * x);
}

double dg_maxwell_source_growth(const dg_maxwell *p, double t0, double t1) {
  double sum = 0;
  for (int i = 0; i < p->n_sources; ++i) {
    const dg_point_source *s = &p->sources[i];
    const double g = pulse_bound(&s->pulse, fmin(t0, t1), fmax(t0, t1));
    const double d = sqrt(s->dir[0] * s->dir[0] + s->dir[1] * s->dir[1] + s->dir[2] * s->dir[2]);
    sum += d * g * s->norm / sqrt(2 * p->eps[s->elem]);
  }
  return sum * fabs(t1 - t0);
}

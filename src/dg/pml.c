/* CFS-PML: profiles and the auxiliary-field right-hand side (see dg/pml.h). */
#include "dg/pml.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"

void dg_pml_params_default(dg_pml_params *par) {
  par->thickness = 0;
  par->order = 3;
  par->reflection = 1e-6;
  par->kappa_max = 1;
  par->alpha_max = -1;
  par->element_profile = 0;
}

dg_status dg_pml_params_check(const dg_pml_params *par, const char *where) {
  DG_CHECK(isfinite(par->thickness) && par->thickness >= 0, DG_ERR_INPUT,
           "%s.thickness: must be a positive length (or left out), got %g", where, par->thickness);
  DG_CHECK(par->order >= 0 && par->order <= 10, DG_ERR_INPUT,
           "%s.profile_order: expected an integer in [0, 10], got %d", where, par->order);
  DG_CHECK(par->reflection > 0 && par->reflection < 1, DG_ERR_INPUT,
           "%s.reflection: expected a number in (0, 1), got %g", where, par->reflection);
  DG_CHECK(isfinite(par->kappa_max) && par->kappa_max >= 1 && par->kappa_max <= 100, DG_ERR_INPUT,
           "%s.kappa_max: expected a number in [1, 100], got %g", where, par->kappa_max);
  DG_CHECK(isfinite(par->alpha_max) && (par->alpha_max > 0 || par->alpha_max == -1), DG_ERR_INPUT,
           "%s.alpha_max: must be positive (alpha = 0 is the plain UPML, which grows at late "
           "times), got %g", where, par->alpha_max);
  return DG_OK;
}

/* The graded profile at the point x of an element of wave speed c: sigma, kappa and alpha
 * of each direction (dg_maxwell_set_pml). */
static void pml_profile(const dg_pml_params *par, double c, const double x[3],
                        const double ilo[3], const double ihi[3], const double olo[3],
                        const double ohi[3], double sig[3], double kappa[3], double alpha[3]) {
  const int m = par->order;
  for (int d = 0; d < 3; ++d) {
    double rho = 0, depth = 1;
    /* a side without a layer (inner = outer) has none, even for a node a rounding error
     * outside it (a Gmsh node at z = -3e-17 made its depth 0 and its coefficients NaN) */
    if (x[d] < ilo[d] && ilo[d] > olo[d]) rho = ilo[d] - x[d], depth = ilo[d] - olo[d];
    if (x[d] > ihi[d] && ohi[d] > ihi[d]) rho = x[d] - ihi[d], depth = ohi[d] - ihi[d];
    if (par->thickness > 0) depth = par->thickness;
    double u = depth > 0 ? rho / depth : 0;
    if (u > 1) u = 1;
    const double d_ref = par->thickness > 0 ? par->thickness : depth;
    const double smax = -(m + 1) * c * log(par->reflection) / (2 * d_ref);
    const double um = m ? pow(u, m) : (u > 0 ? 1 : 0);
    sig[d] = smax * um;
    kappa[d] = 1 + (par->kappa_max - 1) * um;
    alpha[d] = par->alpha_max > 0 ? par->alpha_max : 0.2 * c / d_ref;
  }
}

dg_status dg_maxwell_set_pml(dg_maxwell *p, const unsigned char *in_pml, const dg_pml_params *par,
                             const double ilo[3], const double ihi[3], const double olo[3],
                             const double ohi[3]) {
  const dg_geom *g = p->geom;
  const int Np = g->Np;
  DG_CALL(dg_pml_params_check(par, "pml"));
  dg_free(&p->pml_elem);
  dg_free(&p->pml_coef);
  p->pml_K = 0;
  p->pml_beta_max = 0;
  int n = 0;
  for (int k = 0; k < g->K; ++k) n += in_pml[k] != 0;
  if (!n) return DG_OK;
  for (int e = 0; e < p->disp_K; ++e)
    DG_CHECK(!in_pml[p->disp_elem[e]], DG_ERR_INPUT,
             "element %d is both dispersive and in the PML: the layer is matched to "
             "non-dispersive media only", p->disp_elem[e] + 1);
  for (int d = 0; d < 3; ++d)
    DG_CHECK(olo[d] <= ilo[d] && ilo[d] < ihi[d] && ihi[d] <= ohi[d], DG_ERR_INPUT,
             "pml: the inner box [%g, %g] in %c is not inside the outer box [%g, %g]", ilo[d],
             ihi[d], "xyz"[d], olo[d], ohi[d]);
  DG_CALL(DG_ALLOC(p->pml_elem, n));
  const size_t nP = (size_t)n * Np;
  DG_CALL(DG_ALLOC(p->pml_coef, DG_PML_COEFS * nP));
  int e = 0;
  for (int k = 0; k < g->K; ++k)
    if (in_pml[k]) p->pml_elem[e++] = k;
  p->pml_K = n;
  /* With element_profile, sigma_d and kappa_d are constant in each element, the element's
   * means of the graded profile (weights sum_i M_ij of the reference mass matrix, the integral
   * mean of its interpolant on an affine element); else each node takes the profile at its
   * own position. Evaluated per node the filters do not commute with the element's mass
   * matrix, and the layer can grow at late times (docs/OPEN_REGIONS.md). */
  const double *M = g->ref->M;
  double *wgt = NULL;
  DG_CALL(DG_ALLOC(wgt, Np));
  double wsum = 0;
  for (int i = 0; i < Np; ++i) {
    wgt[i] = 0;
    for (int l = 0; l < Np; ++l) wgt[i] += M[l * Np + i];
    wsum += wgt[i];
  }
  for (e = 0; e < n; ++e) {
    const int k = p->pml_elem[e];
    const double c = 1 / sqrt(p->eps[k] * p->mu[k]);
    double mean_sig[3] = {0, 0, 0}, mean_kappa[3] = {0, 0, 0}, alpha[3];
    for (int i = 0; par->element_profile && i < Np; ++i) {
      const size_t id = (size_t)k * Np + i;
      const double x[3] = {g->x[id], g->y[id], g->z[id]};
      double sn[3], kn[3];
      pml_profile(par, c, x, ilo, ihi, olo, ohi, sn, kn, alpha);
      for (int d = 0; d < 3; ++d) {
        mean_sig[d] += wgt[i] / wsum * sn[d];
        mean_kappa[d] += wgt[i] / wsum * kn[d];
      }
    }
    for (int i = 0; i < Np; ++i) {
      const size_t j = (size_t)e * Np + i, id = (size_t)k * Np + i;
      const double x[3] = {g->x[id], g->y[id], g->z[id]};
      double sig[3], kappa[3];
      pml_profile(par, c, x, ilo, ihi, olo, ohi, sig, kappa, alpha);
      for (int d = 0; par->element_profile && d < 3; ++d)
        sig[d] = mean_sig[d], kappa[d] = mean_kappa[d];
      /* Directions without a layer on either side: any positive alpha (their factors are 1). */
      for (int d = 0; d < 3; ++d) {
        const double s = sig[d] / kappa[d];
        const int a = (d + 1) % 3, b = (d + 2) % 3;
        p->pml_coef[(DG_PML_S + d) * nP + j] = s;
        p->pml_coef[(DG_PML_BETA + d) * nP + j] = alpha[d] + s;
        p->pml_coef[(DG_PML_ALPHA + d) * nP + j] = alpha[d];
        p->pml_coef[(DG_PML_GAMMA + d) * nP + j] = kappa[d] / (kappa[a] * kappa[b]);
        if (alpha[d] + s > p->pml_beta_max) p->pml_beta_max = alpha[d] + s;
      }
    }
  }
  dg_free(&wgt);
  return DG_OK;
}

void dg_pml_apply(const dg_maxwell *p, const double *w, double *rhs, double *rhs_w) {
  dg_pml_apply_elems(p, w, rhs, rhs_w, NULL, p->pml_K);
}

void dg_pml_apply_elems(const dg_maxwell *p, const double *w, double *rhs, double *rhs_w,
                        const int *pml_e, int n) {
  const dg_geom *g = p->geom;
  const int Np = g->Np;
  const size_t KNp = (size_t)g->K * Np, nP = (size_t)p->pml_K * Np;
  const double *C = p->pml_coef;
  for (int ei = 0; ei < n; ++ei) {
    const int e = pml_e ? pml_e[ei] : ei;
    const int k = p->pml_elem[e];
    for (int i = 0; i < Np; ++i) {
      const size_t j = (size_t)e * Np + i, id = (size_t)k * Np + i;
      for (int f = 0; f < DG_NFIELDS; ++f) {
        const int d = f % 3, a = (d + 1) % 3, b = (d + 2) % 3;
        const double w1 = w ? w[(3 * f) * nP + j] : 0, w2 = w ? w[(3 * f + 1) * nP + j] : 0,
                     w3 = w ? w[(3 * f + 2) * nP + j] : 0;
        const double c = rhs[f * KNp + id];
        const double u1 = c - C[(DG_PML_S + a) * nP + j] * w1;
        const double u2 = u1 - C[(DG_PML_S + b) * nP + j] * w2;
        const double u3 = u2 + C[(DG_PML_S + d) * nP + j] * w3;
        rhs[f * KNp + id] = C[(DG_PML_GAMMA + d) * nP + j] * u3;
        if (rhs_w) {
          rhs_w[(3 * f) * nP + j] = c - C[(DG_PML_BETA + a) * nP + j] * w1;
          rhs_w[(3 * f + 1) * nP + j] = u1 - C[(DG_PML_BETA + b) * nP + j] * w2;
          rhs_w[(3 * f + 2) * nP + j] = u2 - C[(DG_PML_ALPHA + d) * nP + j] * w3;
        }
      }
    }
  }
}

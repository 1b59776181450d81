/* Complex-frequency-shifted perfectly matched layers (CFS-PML) in Cartesian, box-aligned
 * layers, in the uniaxial (UPML) form of Gedney (1996) with the CFS stretching of Kuzuoglu &
 * Mittra (1996) / Roden & Gedney (2000), written as auxiliary ODEs driven by the DG
 * right-hand side (docs/OPEN_REGIONS.md).
 *
 * In a PML element the medium is the uniaxial tensor Lambda = diag(sy sz/sx, sx sz/sy,
 * sx sy/sz) with the stretching s_d = kappa_d + sigma_d/(alpha_d + i omega) of each
 * direction d:  i omega eps Lambda E = curl H,  i omega mu Lambda H = -curl E. Writing
 * s_d = kappa_d (i omega + beta_d)/(i omega + alpha_d), beta_d = alpha_d + sigma_d/kappa_d,
 * the x component (others by cyclic permutation, a = y, b = z) reads
 *
 *   dEx/dt = gamma_x R(d/dt) c_x,   gamma_x = kappa_x/(kappa_y kappa_z),
 *   R = (i omega + alpha_y)/(i omega + beta_y) . (i omega + alpha_z)/(i omega + beta_z)
 *       . (i omega + beta_x)/(i omega + alpha_x),
 *
 * c_x the ordinary DG right-hand side of Ex (curl, lifted flux, conductivity). Each factor
 * (i omega + p)/(i omega + q) = 1 + (p - q)/(i omega + q) is one first-order filter with
 * one auxiliary field, so with s_d = sigma_d/kappa_d:
 *
 *   u1 = c - s_a w1,        dw1/dt = c  - beta_a  w1
 *   u2 = u1 - s_b w2,       dw2/dt = u1 - beta_b  w2
 *   u3 = u2 + s_d w3,       dw3/dt = u2 - alpha_d w3
 *   dE_d/dt = gamma_d u3
 *
 * three auxiliary fields per field component, 18 per PML node. All filter poles are at
 * -alpha or -beta <= -alpha < 0: with alpha > 0 everywhere in the layer no filter integrates
 * (the linear late-time growth of the plain UPML, Becache, Petropoulos & Gedney 2004, does
 * not occur). Outside the layer (sigma = 0, kappa = 1) every factor is 1, so the equations
 * are Maxwell's: the layer is matched to the inner domain for every angle and frequency
 * before discretisation.
 *
 * Discretely, c and the w are polynomials of the element (nodal values), and every product
 * of a profile coefficient f with a field v is applied in the L2 sense, as weight-adjusted DG
 * treats variable coefficients (Chan, Hewett & Warburton, SIAM J. Sci. Comput. 39 (2017)
 * A2395): the L2 projection of f v onto the element's polynomials, F v = M^-1 M_f v, with
 * M_f = Vq^T W diag(J f) Vq on a quadrature rule of degree 2N+1 (Vq the interpolation to its
 * points, W their weights, J the element's Jacobian there), so F is self-adjoint in the M inner product like the rest of the
 * DG operator. Applied node by node instead (diag(f) M^-1 r, not self-adjoint), the default
 * cubic profile, which rises by up to sigma_max across one element, let the energy grow again
 * at late times at N = 1 and 3; in the L2 sense it does not, and it reflects less than the
 * node-wise profile (docs/OPEN_REGIONS.md, docs/notes/pml-late-growth-2026-11-28.md).
 *
 * alpha is constant in an element (per direction), so with S_d = M^-1 M_{s_d} (zero where
 * direction d is not stretched in the element) and G_d = M^-1 M_{gamma_d} (the identity where
 * gamma_d = 1, always with kappa_max = 1; as weight-adjusted DG approximates M_{1/gamma}^-1 M)
 * the filters are
 *
 *   A = S_a w1,  B = S_b w2,  D = S_d w3,  u3 = c - A - B + D,  PML rhs = G_d u3,
 *   dw1/dt = c - alpha_a w1 - A,  dw2/dt = c - A - alpha_b w2 - B,
 *   dw3/dt = c - A - B - alpha_d w3.
 *
 * The S_d and G_d that are not zero or the identity are Np x Np matrices per PML element
 * (dg_maxwell.pml_mat; elements whose matrices agree to rounding, translates at the same
 * depth as in a box mesh's layer, share one): a face element of the layer (one stretched
 * direction) costs one matrix-vector product per field. */
#ifndef DG_DG_PML_H
#define DG_DG_PML_H

#include <stddef.h>

#include "core/status.h"
#include "dg/maxwell.h"

/* Per PML element (dg_maxwell.pml_mat_of): the matrix of S_x, S_y, S_z, G_x, G_y, G_z, an
 * index into pml_mat, or -1 (S_d zero, G_d the identity). */
enum { DG_PML_S = 0, DG_PML_G = 3, DG_PML_MATS = 6 };
/* Auxiliary fields per PML node: field f (Ex..Hz) filter i (0..2) is number 3 f + i. */
enum { DG_PML_AUX = 18 };

typedef struct {
  double thickness;  /* > 0: the layer's depth on every side; 0: each side's from the mesh */
  int order;         /* profile exponent m: sigma(rho) = sigma_max (rho/d)^m */
  double reflection; /* theoretical normal-incidence reflection R0 of the PEC-backed layer */
  double kappa_max;  /* kappa(rho) = 1 + (kappa_max - 1)(rho/d)^m */
  double alpha_max;  /* CFS shift, constant in the layer; < 0: default 0.2 c/d */
} dg_pml_params;

/* Defaults: thickness from the mesh, m = 3, R0 = 1e-6, kappa_max = 1, alpha_max default. */
void dg_pml_params_default(dg_pml_params *par);
/* Range checks, naming the keys under `where` (e.g. "case.json: pml"). */
dg_status dg_pml_params_check(const dg_pml_params *par, const char *where) DG_NODISCARD;

/* Make the elements with in_pml[k] != 0 the PML of p. The layer surrounds the inner box
 * [ilo, ihi] and ends at the outer box [olo, ohi] (both of the whole mesh, the same on every
 * rank): a node x is at depth rho_d = max(ilo_d - x_d, x_d - ihi_d, 0) in direction d, on a
 * side whose thickness is that side's olo/ohi distance (or par->thickness). Corners and edges
 * stretch in 2 or 3 directions. sigma_max = -(m+1) c ln(R0) / (2 d), c = 1/sqrt(eps mu) of
 * the element, evaluated at each PML element's quadrature points into its matrices (on a
 * curved element with its own J and mass matrix). Replaces any earlier PML. */
dg_status dg_maxwell_set_pml(dg_maxwell *p, const unsigned char *in_pml, const dg_pml_params *par,
                             const double ilo[3], const double ihi[3], const double olo[3],
                             const double ohi[3]) DG_NODISCARD;

/* The PML part of the right-hand side (used by dg_maxwell_rhs_aux): replaces rhs (the plain
 * DG right-hand side, 6*K*Np) on the PML nodes by the filtered one and writes rhs_w (may be
 * NULL); w NULL means zero auxiliary fields. */
void dg_pml_apply(const dg_maxwell *p, const double *w, double *rhs, double *rhs_w);
/* The same on the PML elements pml_e[0..n) only (indices into p->pml_elem; the multirate
 * stepper's rate levels): rhs and rhs_w are written on those only. */
void dg_pml_apply_elems(const dg_maxwell *p, const double *w, double *rhs, double *rhs_w,
                        const int *pml_e, int n);

#endif

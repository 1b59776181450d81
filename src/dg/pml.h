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
 * three auxiliary fields per field component, 18 per PML node, pointwise at the nodes. All
 * filter poles are at -alpha or -beta <= -alpha < 0: with alpha > 0 everywhere in the layer
 * no filter integrates (the linear late-time growth of the plain UPML, Becache, Petropoulos
 * & Gedney 2004, does not occur). Outside the layer (sigma = 0, kappa = 1) every factor is 1,
 * so the equations are Maxwell's: the layer is matched to the inner domain for every angle
 * and frequency before discretisation.
 *
 * By default the coefficients are the graded profile at each node. c is M^-1 times the
 * element's weak residual, and a filter whose coefficients vary from node to node does not
 * commute with the mass matrix M (diag(D) M^-1 is not self-adjoint in the M inner product),
 * which with the default cubic profile (sigma rising by up to sigma_max across one element)
 * lets the energy grow at late times at N = 1 and 3 (docs/OPEN_REGIONS.md). With
 * element_profile the coefficients are constant in each element (the element's mean of the
 * profile): each element's filters are then scalars that commute with its DG operator, as
 * for a constant-coefficient layer, and the measured cases stay stable, at the price of a
 * stepped profile that reflects up to 2.3x more. */
#ifndef DG_DG_PML_H
#define DG_DG_PML_H

#include <stddef.h>

#include "core/status.h"
#include "dg/maxwell.h"

/* Coefficients per PML node (dg_maxwell.pml_coef): s = sigma/kappa (3), beta (3), alpha (3),
 * gamma (3), direction x, y, z in each group. */
enum { DG_PML_S = 0, DG_PML_BETA = 3, DG_PML_ALPHA = 6, DG_PML_GAMMA = 9, DG_PML_COEFS = 12 };
/* Auxiliary fields per PML node: field f (Ex..Hz) filter i (0..2) is number 3 f + i. */
enum { DG_PML_AUX = 18 };

typedef struct {
  double thickness;  /* > 0: the layer's depth on every side; 0: each side's from the mesh */
  int order;         /* profile exponent m: sigma(rho) = sigma_max (rho/d)^m */
  double reflection; /* theoretical normal-incidence reflection R0 of the PEC-backed layer */
  double kappa_max;  /* kappa(rho) = 1 + (kappa_max - 1)(rho/d)^m */
  double alpha_max;  /* CFS shift, constant in the layer; < 0: default 0.2 c/d */
  int element_profile; /* 1: sigma and kappa constant in each element (their means) */
} dg_pml_params;

/* Defaults: thickness from the mesh, m = 3, R0 = 1e-6, kappa_max = 1, alpha_max default, the
 * profile graded per node. */
void dg_pml_params_default(dg_pml_params *par);
/* Range checks, naming the keys under `where` (e.g. "case.json: pml"). */
dg_status dg_pml_params_check(const dg_pml_params *par, const char *where) DG_NODISCARD;

/* Make the elements with in_pml[k] != 0 the PML of p. The layer surrounds the inner box
 * [ilo, ihi] and ends at the outer box [olo, ohi] (both of the whole mesh, the same on every
 * rank): a node x is at depth rho_d = max(ilo_d - x_d, x_d - ihi_d, 0) in direction d, on a
 * side whose thickness is that side's olo/ohi distance (or par->thickness). Corners and edges
 * stretch in 2 or 3 directions. sigma_max = -(m+1) c ln(R0) / (2 d), c = 1/sqrt(eps mu) of
 * the element. Each element gets the mean over it of sigma_d and kappa_d (weights: the column
 * sums of the reference mass matrix) on all its nodes. Replaces any earlier PML. */
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

/* Near-to-far-field transform: from the DFT of E and H on a closed surface (dg/dft.h) to the
 * far-zone field, the bistatic radar cross section and the directivity.
 *
 * Formulation (surface equivalence principle; Balanis, "Advanced Engineering
 * Electromagnetics", 2nd ed., §6.7 and §12.2; Taflove & Hagness, "Computational
 * Electrodynamics", 3rd ed., ch. 8): outside a closed surface S that holds every source and
 * scatterer, the field is radiated by the currents J = n x H and M = -n x E on S (n the
 * outward normal). In the far zone (r -> infinity in direction r^), with phasors e^{+i w t},
 * k = 2 pi f (c0 = 1) and the normalised impedance eta = Z0 = 1,
 *
 *   N = int_S J(r') e^{+i k r^.r'} dS',   L = int_S M(r') e^{+i k r^.r'} dS'
 *   E_theta = -i k e^{-ikr} / (4 pi r) (L_phi + eta N_theta)
 *   E_phi   = +i k e^{-ikr} / (4 pi r) (L_theta - eta N_phi)
 *
 * (Balanis 12-10a,b). The functions here return the far-field amplitude F with
 * E = F e^{-ikr}/r, i.e. the factor e^{-ikr}/r is dropped; r' is measured from `origin`,
 * which only moves F's phase. From F:
 *   bistatic RCS  sigma = lim 4 pi r^2 |E_s|^2 / |E_inc|^2 = 4 pi |F|^2 / |E_inc|^2, in the
 *                 mesh's length unit squared (dBsm: 10 log10 sigma), E_inc the incident
 *                 plane wave's complex amplitude at the same frequency (same DFT);
 *   radiation intensity U = r^2 |E|^2 / (2 eta) = |F|^2 / 2, and the directivity
 *                 D = 4 pi U / P_rad, with P_rad = 1/2 Re int_S (E x H*) . n dS the power
 *                 leaving S (for a lossless antenna the gain equals D).
 * The surface integrals are the quadrature sum_p w_p (...)(x_p) over the surface points. */
#ifndef DG_DG_NTFF_H
#define DG_DG_NTFF_H

#include "core/status.h"
#include "dg/dft.h"

/* Directions of observation: theta (from +z) and phi (from +x in the xy plane), radians.
 * `cut` is the in-plane angle (degrees) of a planar cut, plane[i] its name ("xy", "xz",
 * "yz"; "sphere" for a theta-phi grid) — for tables and polar plots only. */
typedef struct {
  int n;
  double *theta, *phi;
  double *cut;
  const char **plane;  /* static strings */
} dg_ntff_dirs;

/* Appends the cut of plane "xy" (theta = 90 deg, phi = a), "xz" (direction (sin a, 0, cos a))
 * or "yz" ((0, sin a, cos a)) for a = 0, step, ... < 360 degrees (0 < step <= 360). */
dg_status dg_ntff_dirs_add_plane(dg_ntff_dirs *d, const char *plane, double step_deg)
    DG_NODISCARD;
/* Appends the grid theta = 0, dtheta, ..., 180 and phi = 0, dphi, ... < 360 (degrees). */
dg_status dg_ntff_dirs_add_sphere(dg_ntff_dirs *d, double dtheta_deg, double dphi_deg)
    DG_NODISCARD;
void dg_ntff_dirs_free(dg_ntff_dirs *d);

/* The unit vector r^ of (theta, phi) and the unit vectors theta^, phi^ there. */
void dg_ntff_basis(double theta, double phi, double r[3], double th[3], double ph[3]);

/* Far-field amplitude at frequency index ifreq for the ndir directions:
 * F[4*j .. 4*j+3] = Re F_theta, Im F_theta, Re F_phi, Im F_phi (E = F e^{-ikr}/r).
 * DG_ERR_INPUT for a frequency index out of range or a frequency <= 0. */
dg_status dg_ntff_far_field(const dg_surface_dft *s, int ifreq, const double origin[3],
                            int ndir, const double *theta, const double *phi, double *F)
    DG_NODISCARD;

/* P_rad = 1/2 Re int_S (E x H*) . n dS at frequency index ifreq (the power through S, out
 * positive; units of the normalised fields, eta = 1). */
dg_status dg_ntff_radiated_power(const dg_surface_dft *s, int ifreq, double *P) DG_NODISCARD;

/* |F|^2 = |F_theta|^2 + |F_phi|^2 of one direction's four numbers. */
double dg_ntff_abs2(const double F[4]);
/* sigma = 4 pi |F|^2 / |E_inc|^2 (E_inc2 = |E_inc|^2 > 0). */
double dg_ntff_rcs(const double F[4], double E_inc2);
/* D = 4 pi U / P_rad = 2 pi |F|^2 / P_rad (P_rad > 0). */
double dg_ntff_directivity(const double F[4], double P_rad);

#endif

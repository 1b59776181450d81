/* far_field.csv: the near-to-far-field transform (dg/ntff.h) of a surface DFT at a list of
 * directions, for every frequency of the surface, one row per (frequency, direction):
 *
 *   freq,plane,cut_deg,theta_deg,phi_deg,Etheta_abs,Etheta_phase_deg,Ephi_abs,Ephi_phase_deg,
 *   then  rcs,rcs_dbsm                     (plane-wave cases: DG_FF_RCS)
 *   or    directivity,directivity_dbi,prad (antenna cases: DG_FF_DIRECTIVITY)
 *
 * plane is "xy", "xz", "yz" (a cut; cut_deg its in-plane angle, ntff.h) or "sphere" (a
 * theta-phi grid; cut_deg = theta). E is the far-field amplitude F = r E e^{+ikr} (the
 * e^{-ikr}/r factor dropped) of the surface's fields as they are (divided by the source
 * spectrum when the DFT was normalised); phases in degrees, e^{+i w t} convention. rcs is
 * 4 pi |F|^2 / |E_inc|^2 in the mesh's length unit squared, rcs_dbsm = 10 log10(rcs);
 * directivity = 4 pi U / P_rad (dBi: 10 log10), prad = the power through the surface. */
#ifndef DG_IO_FARFIELD_H
#define DG_IO_FARFIELD_H

#include "core/status.h"
#include "dg/dft.h"
#include "dg/ntff.h"

typedef enum { DG_FF_DIRECTIVITY = 0, DG_FF_RCS } dg_ff_mode;

/* Per frequency, what a run reports on the terminal. */
typedef struct {
  double freq;
  double max_value;       /* largest rcs (length^2) or directivity */
  double max_theta, max_phi; /* where (degrees) */
  double prad;            /* power through the surface */
} dg_ff_summary;

/* Transforms s at every frequency and direction of d and writes path atomically. E_inc2
 * (DG_FF_RCS only): |E_inc(f)|^2 per frequency of s (> 0). summary: NULL or s->nfreq
 * entries. DG_ERR_INPUT for a non-positive |E_inc|^2 or radiated power (directivity). */
dg_status dg_far_field_write(const char *path, const dg_surface_dft *s, const dg_ntff_dirs *d,
                             const double origin[3], dg_ff_mode mode, const double *E_inc2,
                             dg_ff_summary *summary) DG_NODISCARD;

#endif

/* The far field of a run ("far_field" in the case; docs/OUTPUTS.md, "Far field and
 * radar cross section"): the near-to-far-field transform (dg/ntff.h) of the surface DFT (app/dft.c) at
 * the case's directions, written as far_field.csv (io/farfield.h), with the figures the run
 * prints. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app/run_state.h"
#include "core/alloc.h"
#include "dg/ntff.h"
#include "io/farfield.h"

static const double PI = 3.14159265358979323846;

/* The source pulse the DFT was divided by (app/dft.c: the first dipole's, else the plane
 * wave's). */
static const dg_pulse *normalising_pulse(const dg_case *c) {
  return c->n_dipoles ? &c->dipoles[0].pulse : &c->plane_wave.pulse;
}

/* |F|^2 in the direction of the unit vector v (RCS: the backscatter and forward figures). */
static dg_status far_abs2(const run_state *s, const double v[3], int i, double *out) {
  const double th = acos(fmax(-1.0, fmin(1.0, v[2]))), ph = atan2(v[1], v[0]);
  double F[4];
  DG_CALL(dg_ntff_far_field(s->surface_dft, i, s->c->far_field.origin, 1, &th, &ph, F));
  *out = dg_ntff_abs2(F);
  return DG_OK;
}

dg_status run_far_field(run_state *s, dg_run_result *r) {
  const dg_case *c = s->c;
  const dg_case_far_field *ff = &c->far_field;
  if (!ff->on || s->rank != 0) return DG_OK; /* the surface DFT is gathered to rank 0 */
  const dg_surface_dft *sd = s->surface_dft;
  DG_CHECK(sd && s->dft, DG_ERR_INTERNAL, "far_field: no surface DFT after the run");
  dg_ntff_dirs d = {0};
  double *E2 = NULL, *gr = NULL, *gi = NULL;
  dg_ff_summary *sum = NULL;
  dg_status st = DG_OK;
  for (int i = 0; i < ff->n_planes; ++i)
    DG_CALL_GOTO(done, dg_ntff_dirs_add_plane(&d, ff->planes[i], ff->step));
  if (ff->has_sphere)
    DG_CALL_GOTO(done, dg_ntff_dirs_add_sphere(&d, ff->sphere_step[0], ff->sphere_step[1]));
  DG_CALL_GOTO(done, DG_ALLOC(sum, sd->nfreq));
  if (ff->rcs) {
    /* |E_inc(f)|^2: the plane wave's pulse spectrum (from the same samples as the DFT), over
     * that of the pulse the surface fields were divided by. */
    DG_CALL_GOTO(done, DG_ALLOC(E2, sd->nfreq));
    DG_CALL_GOTO(done, DG_ALLOC(gr, sd->nfreq));
    DG_CALL_GOTO(done, DG_ALLOC(gi, sd->nfreq));
    dg_dft_pulse_spectrum(s->dft, &c->plane_wave.pulse, gr, gi);
    for (int i = 0; i < sd->nfreq; ++i) E2[i] = gr[i] * gr[i] + gi[i] * gi[i];
    if (c->dft.normalize) {
      dg_dft_pulse_spectrum(s->dft, normalising_pulse(c), gr, gi);
      for (int i = 0; i < sd->nfreq; ++i) {
        const double g2 = gr[i] * gr[i] + gi[i] * gi[i];
        E2[i] = g2 > 0 ? E2[i] / g2 : 0;
      }
    }
  }
  char path[DG_CASE_PATH + 32];
  snprintf(path, sizeof path, "%s/far_field.csv", c->output_dir);
  st = dg_far_field_write(path, sd, &d, ff->origin, ff->rcs ? DG_FF_RCS : DG_FF_DIRECTIVITY, E2,
                          sum);
  if (st != DG_OK) {
    st = dg_error_prefix(st, "%s: far_field: ", c->source);
    goto done;
  }
  r->ff_on = 1;
  r->ff_rcs = ff->rcs;
  r->ff_dirs = d.n;
  r->ff_nfreq = sd->nfreq;
  for (int i = 0; i < sd->nfreq && i < DG_RUN_FF_SHOWN; ++i) {
    r->ff[i].freq = sum[i].freq;
    r->ff[i].max_value = sum[i].max_value;
    r->ff[i].max_theta = sum[i].max_theta;
    r->ff[i].max_phi = sum[i].max_phi;
    r->ff[i].prad = sum[i].prad;
    if (ff->rcs) {
      const double *k = c->plane_wave.k, back[3] = {-k[0], -k[1], -k[2]};
      double b2, f2;
      DG_CALL_GOTO(done, far_abs2(s, back, i, &b2));
      DG_CALL_GOTO(done, far_abs2(s, k, i, &f2));
      r->ff[i].back = 4 * PI * b2 / E2[i];
      r->ff[i].forward = 4 * PI * f2 / E2[i];
    }
  }
done:
  dg_ntff_dirs_free(&d);
  dg_free(&E2);
  dg_free(&gr);
  dg_free(&gi);
  dg_free(&sum);
  return st;
}

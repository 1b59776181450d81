/* far_field.csv (format in farfield.h). */
#include "io/farfield.h"

#include <math.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "core/files.h"

static const double PI = 3.14159265358979323846;

static double deg(double rad) { return rad * 180.0 / PI; }

dg_status dg_far_field_write(const char *path, const dg_surface_dft *s, const dg_ntff_dirs *d,
                             const double origin[3], dg_ff_mode mode, const double *E_inc2,
                             dg_ff_summary *summary) {
  DG_CHECK(d->n > 0, DG_ERR_INPUT, "far field: no directions to write to %s", path);
  for (int i = 0; mode == DG_FF_RCS && i < s->nfreq; i++)
    DG_CHECK(isfinite(E_inc2[i]) && E_inc2[i] > 0, DG_ERR_INPUT,
             "far field: the incident amplitude at f = %g is %g: no RCS (is the frequency "
             "outside the pulse's spectrum?)", s->freq[i], sqrt(fabs(E_inc2[i])));
  double *F = NULL;
  DG_CALL(DG_ALLOC(F, 4 * (size_t)d->n));
  dg_atomic_file f = {0};
  dg_status st = DG_OK;
  DG_CALL_GOTO(done, dg_atomic_open(&f, path));
  fprintf(f.fp, "freq,plane,cut_deg,theta_deg,phi_deg,Etheta_abs,Etheta_phase_deg,Ephi_abs,"
                "Ephi_phase_deg,%s\n",
          mode == DG_FF_RCS ? "rcs,rcs_dbsm" : "directivity,directivity_dbi,prad");
  for (int i = 0; i < s->nfreq; i++) {
    double P = 0;
    DG_CALL_GOTO(done, dg_ntff_radiated_power(s, i, &P));
    DG_CALL_GOTO(done, dg_ntff_far_field(s, i, origin, d->n, d->theta, d->phi, F));
    if (mode == DG_FF_DIRECTIVITY && !(P > 0)) {
      st = DG_ERROR(DG_ERR_INPUT, "far field: the power through the surface at f = %g is %g: "
                    "no directivity (does the surface enclose the source?)", s->freq[i], P);
      goto done;
    }
    dg_ff_summary sm = {s->freq[i], -1, 0, 0, P};
    for (int j = 0; j < d->n; j++) {
      const double *Fj = F + 4 * j;
      double v = mode == DG_FF_RCS ? dg_ntff_rcs(Fj, E_inc2[i]) : dg_ntff_directivity(Fj, P);
      if (v > sm.max_value) sm.max_value = v, sm.max_theta = deg(d->theta[j]), sm.max_phi = deg(d->phi[j]);
      fprintf(f.fp, "%.17g,%s,%.10g,%.10g,%.10g,%.10e,%.6f,%.10e,%.6f,%.10e,%.6f", s->freq[i],
              d->plane[j], d->cut[j], deg(d->theta[j]), deg(d->phi[j]), hypot(Fj[0], Fj[1]),
              deg(atan2(Fj[1], Fj[0])), hypot(Fj[2], Fj[3]), deg(atan2(Fj[3], Fj[2])), v,
              10 * log10(fmax(v, 1e-300)));
      if (mode == DG_FF_DIRECTIVITY) fprintf(f.fp, ",%.10e", P);
      fputc('\n', f.fp);
    }
    if (summary) summary[i] = sm;
  }
  DG_CALL_GOTO(done, dg_atomic_commit(&f));
done:
  dg_atomic_abort(&f);
  dg_free(&F);
  return st;
}

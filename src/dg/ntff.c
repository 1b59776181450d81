/* Near-to-far-field transform (formulation and references in ntff.h). */
#include "dg/ntff.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846;

static dg_status dirs_grow(dg_ntff_dirs *d, int add) {
  int n = d->n + add;
  double *t = realloc(d->theta, (size_t)n * sizeof *t);
  if (t) d->theta = t;
  double *p = realloc(d->phi, (size_t)n * sizeof *p);
  if (p) d->phi = p;
  double *c = realloc(d->cut, (size_t)n * sizeof *c);
  if (c) d->cut = c;
  const char **pl = realloc(d->plane, (size_t)n * sizeof *pl);
  if (pl) d->plane = pl;
  DG_CHECK(t && p && c && pl, DG_ERR_MEMORY, "far-field directions: out of memory (%d)", n);
  return DG_OK;
}

/* Number of steps a = 0, step, ... strictly below `end` (a tolerance keeps 360/step exact). */
static int count_steps(double step, double end) {
  return (int)floor((end - 1e-9 * step) / step) + 1;
}

dg_status dg_ntff_dirs_add_plane(dg_ntff_dirs *d, const char *plane, double step_deg) {
  DG_CHECK(isfinite(step_deg) && step_deg > 0 && step_deg <= 360, DG_ERR_INPUT,
           "far-field plane %s: step must be in (0, 360] degrees, got %g", plane, step_deg);
  int which = !strcmp(plane, "xy") ? 0 : !strcmp(plane, "xz") ? 1 : !strcmp(plane, "yz") ? 2 : -1;
  DG_CHECK(which >= 0, DG_ERR_INPUT, "far-field plane \"%s\": expected \"xy\", \"xz\" or \"yz\"",
           plane);
  static const char *names[3] = {"xy", "xz", "yz"};
  int m = count_steps(step_deg, 360.0);
  DG_CALL(dirs_grow(d, m));
  for (int i = 0; i < m; i++) {
    double a = i * step_deg, ar = a * PI / 180.0;
    double v[3];
    if (which == 0) {
      v[0] = cos(ar), v[1] = sin(ar), v[2] = 0;
    } else if (which == 1) {
      v[0] = sin(ar), v[1] = 0, v[2] = cos(ar);
    } else {
      v[0] = 0, v[1] = sin(ar), v[2] = cos(ar);
    }
    int j = d->n + i;
    d->theta[j] = acos(fmax(-1.0, fmin(1.0, v[2])));
    /* On the axis phi is arbitrary: keep the plane's own so theta^ lies in the plane. */
    double ph = atan2(v[1], v[0]);
    if (fabs(v[0]) < 1e-15 && fabs(v[1]) < 1e-15) ph = which == 2 ? PI / 2 : 0.0;
    if (ph < 0) ph += 2 * PI;
    d->phi[j] = ph;
    d->cut[j] = a;
    d->plane[j] = names[which];
  }
  d->n += m;
  return DG_OK;
}

dg_status dg_ntff_dirs_add_sphere(dg_ntff_dirs *d, double dtheta_deg, double dphi_deg) {
  DG_CHECK(isfinite(dtheta_deg) && dtheta_deg > 0 && dtheta_deg <= 180, DG_ERR_INPUT,
           "far-field sphere: theta step must be in (0, 180] degrees, got %g", dtheta_deg);
  DG_CHECK(isfinite(dphi_deg) && dphi_deg > 0 && dphi_deg <= 360, DG_ERR_INPUT,
           "far-field sphere: phi step must be in (0, 360] degrees, got %g", dphi_deg);
  int nt = (int)floor(180.0 / dtheta_deg + 1e-9) + 1, np = count_steps(dphi_deg, 360.0);
  DG_CHECK((double)nt * np < 1e7, DG_ERR_INPUT, "far-field sphere: %d x %d directions is too many",
           nt, np);
  DG_CALL(dirs_grow(d, nt * np));
  for (int i = 0; i < nt; i++)
    for (int j = 0; j < np; j++) {
      int q = d->n + i * np + j;
      d->theta[q] = i * dtheta_deg * PI / 180.0;
      d->phi[q] = j * dphi_deg * PI / 180.0;
      d->cut[q] = i * dtheta_deg;
      d->plane[q] = "sphere";
    }
  d->n += nt * np;
  return DG_OK;
}

void dg_ntff_dirs_free(dg_ntff_dirs *d) {
  free(d->theta);
  free(d->phi);
  free(d->cut);
  free(d->plane);
  memset(d, 0, sizeof *d);
}

void dg_ntff_basis(double theta, double phi, double r[3], double th[3], double ph[3]) {
  double st = sin(theta), ct = cos(theta), sp = sin(phi), cp = cos(phi);
  r[0] = st * cp, r[1] = st * sp, r[2] = ct;
  th[0] = ct * cp, th[1] = ct * sp, th[2] = -st;
  ph[0] = -sp, ph[1] = cp, ph[2] = 0;
}

static void cross(const double complex a[3], const double complex b[3], double complex c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static dg_status check_freq(const dg_surface_dft *s, int ifreq) {
  DG_CHECK(s && ifreq >= 0 && ifreq < s->nfreq, DG_ERR_INPUT,
           "far field: frequency index %d out of range (%d frequencies)", ifreq,
           s ? s->nfreq : 0);
  DG_CHECK(isfinite(s->freq[ifreq]) && s->freq[ifreq] > 0, DG_ERR_INPUT,
           "far field: frequency %g must be positive", s->freq[ifreq]);
  return DG_OK;
}

/* E and H at point p of frequency i. */
static void point_fields(const dg_surface_dft *s, int i, int p, double complex E[3],
                         double complex H[3]) {
  size_t o = ((size_t)i * (size_t)s->npts + (size_t)p) * 6;
  for (int c = 0; c < 3; c++) {
    E[c] = s->re[o + c] + I * s->im[o + c];
    H[c] = s->re[o + 3 + c] + I * s->im[o + 3 + c];
  }
}

dg_status dg_ntff_far_field(const dg_surface_dft *s, int ifreq, const double origin[3],
                            int ndir, const double *theta, const double *phi, double *F) {
  DG_CALL(check_freq(s, ifreq));
  double k = 2 * PI * s->freq[ifreq];
  /* The weighted currents w J and w M once, then one phase sum per direction. */
  double complex *JM = malloc((size_t)s->npts * 6 * sizeof *JM);
  DG_CHECK(JM || s->npts == 0, DG_ERR_MEMORY, "far field: out of memory (%d points)", s->npts);
  for (int p = 0; p < s->npts; p++) {
    double complex E[3], H[3], n[3], J[3], M[3];
    point_fields(s, ifreq, p, E, H);
    for (int c = 0; c < 3; c++) n[c] = s->n[3 * p + c];
    cross(n, H, J);
    cross(n, E, M);
    for (int c = 0; c < 3; c++) {
      JM[6 * p + c] = s->w[p] * J[c];
      JM[6 * p + 3 + c] = -s->w[p] * M[c];
    }
  }
  for (int j = 0; j < ndir; j++) {
    double r[3], th[3], ph[3];
    dg_ntff_basis(theta[j], phi[j], r, th, ph);
    double complex N[3] = {0, 0, 0}, L[3] = {0, 0, 0};
    for (int p = 0; p < s->npts; p++) {
      const double *x = s->xyz + 3 * p;
      double arg = k * (r[0] * (x[0] - origin[0]) + r[1] * (x[1] - origin[1]) +
                        r[2] * (x[2] - origin[2]));
      double complex e = cos(arg) + I * sin(arg);
      for (int c = 0; c < 3; c++) {
        N[c] += JM[6 * p + c] * e;
        L[c] += JM[6 * p + 3 + c] * e;
      }
    }
    double complex Nt = N[0] * th[0] + N[1] * th[1] + N[2] * th[2];
    double complex Np = N[0] * ph[0] + N[1] * ph[1] + N[2] * ph[2];
    double complex Lt = L[0] * th[0] + L[1] * th[1] + L[2] * th[2];
    double complex Lp = L[0] * ph[0] + L[1] * ph[1] + L[2] * ph[2];
    double complex Ft = -I * k / (4 * PI) * (Lp + Nt);
    double complex Fp = I * k / (4 * PI) * (Lt - Np);
    F[4 * j] = creal(Ft), F[4 * j + 1] = cimag(Ft);
    F[4 * j + 2] = creal(Fp), F[4 * j + 3] = cimag(Fp);
  }
  free(JM);
  return DG_OK;
}

dg_status dg_ntff_radiated_power(const dg_surface_dft *s, int ifreq, double *P) {
  DG_CALL(check_freq(s, ifreq));
  double sum = 0;
  for (int p = 0; p < s->npts; p++) {
    double complex E[3], H[3], Hc[3], S[3];
    point_fields(s, ifreq, p, E, H);
    for (int c = 0; c < 3; c++) Hc[c] = conj(H[c]);
    cross(E, Hc, S);
    sum += s->w[p] * (creal(S[0]) * s->n[3 * p] + creal(S[1]) * s->n[3 * p + 1] +
                      creal(S[2]) * s->n[3 * p + 2]);
  }
  *P = 0.5 * sum;
  return DG_OK;
}

double dg_ntff_abs2(const double F[4]) {
  return F[0] * F[0] + F[1] * F[1] + F[2] * F[2] + F[3] * F[3];
}

double dg_ntff_rcs(const double F[4], double E_inc2) {
  return 4 * PI * dg_ntff_abs2(F) / E_inc2;
}

double dg_ntff_directivity(const double F[4], double P_rad) {
  return 2 * PI * dg_ntff_abs2(F) / P_rad;
}

/* run_setup_time_step: the run's time step and step count, with the checks that belong to
 * them: the sources' pulses against the step and the mesh, sliver elements that shrink the
 * step, and numbers that look like SI values given to a unitless case. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/run_state.h"
#include "core/alloc.h"
#include "core/log.h"
#include "dg/dispersive.h"

/* The sources' pulses against the time step and the mesh. A pulse frequency f0 at or above
 * the step's Nyquist frequency 1/(2 dt) is refused naming the pulse: the pulse falls between
 * the steps (at f0 >= 1e154 the Ricker pulse was NaN and the run was called a blow-up of the
 * time step). A frequency beyond what the mesh resolves is warned about: N lambda / h points
 * per wavelength (order N, h an element's longest edge, lambda = c / f0 with the element's
 * c = 1/sqrt(eps mu)) below 2 on every element, even the best-resolved one. In a dispersive
 * element eps is the larger of eps_inf and |eps(2 pi f0)| (its poles and sigma at the
 * pulse's frequency): the wavelength, or in a metal the skin depth, at f0 scales with
 * 1/sqrt|eps(w)|, which eps_inf alone can overstate many times (water: eps_inf 5, eps(1 GHz)
 * about 78). */
static dg_status check_source_pulses(const run_state *s) {
  const dg_case *c = s->c;
  const dg_mesh *m = s->mesh;
  const dg_maxwell *ph = s->phys;
  const int n_src = c->n_dipoles + c->has_plane_wave;
  if (!n_src) return DG_OK;
  const int K = m->K_owned;
  double *h = NULL, *eps = NULL;
  dg_status st = DG_OK;
  DG_CALL_GOTO(done, DG_ALLOC(h, K));
  DG_CALL_GOTO(done, DG_ALLOC(eps, K));
  for (int k = 0; k < K; ++k) {
    h[k] = 0;
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b) {
        const int va = m->EToV[4 * k + a], vb = m->EToV[4 * k + b];
        h[k] = fmax(h[k], hypot(hypot(m->VX[va] - m->VX[vb], m->VY[va] - m->VY[vb]), m->VZ[va] - m->VZ[vb]));
      }
  }
  const int N = s->ref->N;
  /* Multirate: the finest level's step (a point source is evaluated there if it lies there). */
  const double dt = c->multirate ? s->dt / ldexp(1, s->mr_plan.n_levels - 1) : s->dt;
  for (int i = 0; i < n_src; ++i) {
    const int pw = c->has_plane_wave && i == c->n_dipoles;
    const dg_pulse *p = pw ? &c->plane_wave.pulse : &c->dipoles[i].pulse;
    const int idx = pw ? c->plane_wave_index : i + (c->has_plane_wave && i >= c->plane_wave_index);
    /* eps of each element at this pulse's frequency */
    for (int k = 0; k < K; ++k) eps[k] = ph->eps[k];
    for (int e = 0; e < ph->disp_K; ++e) {
      const int k = ph->disp_elem[e];
      if (k >= K) continue;
      double re, im;
      dg_dispersion_eps(&ph->disp_models[ph->disp_model[e]], ph->eps[k], ph->sigma[k],
                        2 * 3.14159265358979323846 * p->f0, &re, &im);
      eps[k] = fmax(eps[k], hypot(re, im));
    }
    double best = 0; /* the largest c / h over the elements */
    for (int k = 0; k < K; ++k) best = fmax(best, 1 / sqrt(eps[k] * ph->mu[k]) / h[k]);
    DG_CALL_GOTO(done, run_max(s, &best));
    const double f_mesh = 0.5 * N * best; /* 2 points per wavelength on the best element */
    DG_CHECK_GOTO(done, p->f0 * dt < 0.5, DG_ERR_INPUT,
                  "%s: sources[%d].pulse.frequency = %g is at or above the time step's Nyquist "
                  "frequency 1/(2 dt) = %g (dt = %g): the pulse falls between the steps, so the "
                  "run would be meaningless; the mesh resolves frequencies up to about %g (order "
                  "%d, 2 points per wavelength): lower the frequency", c->source, idx, p->f0,
                  0.5 / dt, dt, f_mesh, N);
    if (p->f0 > f_mesh && s->rank == 0)
      dg_warn("%s: sources[%d].pulse.frequency = %g is beyond what the mesh resolves: at order "
              "%d even its best-resolved element has %.2g points per wavelength (N lambda / h, h "
              "the longest edge, lambda with |eps(w)| at that frequency in a dispersive medium; "
              "2 at least, more for accuracy), so the field is mostly discretisation error; "
              "refine the mesh, raise the order or keep the frequency below %g",
              c->source, idx, p->f0, N, N * best / p->f0, f_mesh);
  }
done:
  DG_FREE_ALL(&h, &eps);
  return st;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* A sliver: the element that sets the step when its own step is below 1e-2 of the median
 * element's is named (index, centroid, height = 3 V / largest face area, longest edge), so
 * that it can be found and remeshed; the rank holding it warns. Not under multirate, whose
 * levels give such an element its own small step. */
static dg_status warn_sliver(const run_state *s, double dt_run) {
  const dg_maxwell *p = s->phys;
  const dg_mesh *m = s->mesh;
  const int K = p->geom->K < m->K_owned ? p->geom->K : m->K_owned;
  if (K < 2 || s->c->multirate) return DG_OK;
  double *dt = NULL;
  DG_CALL(DG_ALLOC(dt, K));
  int kmin = 0;
  for (int k = 0; k < K; ++k) {
    dt[k] = dg_maxwell_element_dt(p, k);
    if (dt[k] < dt[kmin]) kmin = k;
  }
  const double dt_min = dt[kmin];
  qsort(dt, (size_t)K, sizeof *dt, cmp_double);
  const double median = dt[K / 2];
  dg_free(&dt);
  /* Only the rank whose element sets the run's step (dt_run: cfl times the smallest term,
   * unless a conductivity or PML bounds it more). */
  if (!(dt_min < 1e-2 * median) || !(s->c->cfl * dt_min <= dt_run * (1 + 1e-12))) return DG_OK;
  const int *v = m->EToV + 4 * kmin;
  double x[4][3], c[3] = {0, 0, 0}, edge = 0, area = 0;
  for (int i = 0; i < 4; ++i) {
    x[i][0] = m->VX[v[i]], x[i][1] = m->VY[v[i]], x[i][2] = m->VZ[v[i]];
    for (int d = 0; d < 3; ++d) c[d] += x[i][d] / 4;
  }
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j)
      edge = fmax(edge, hypot(hypot(x[i][0] - x[j][0], x[i][1] - x[j][1]), x[i][2] - x[j][2]));
  static const int face[4][3] = {{0, 1, 2}, {0, 1, 3}, {1, 2, 3}, {0, 2, 3}};
  double a[3], b[3], n[3];
  for (int f = 0; f < 4; ++f) {
    for (int d = 0; d < 3; ++d) {
      a[d] = x[face[f][1]][d] - x[face[f][0]][d];
      b[d] = x[face[f][2]][d] - x[face[f][0]][d];
    }
    n[0] = a[1] * b[2] - a[2] * b[1], n[1] = a[2] * b[0] - a[0] * b[2];
    n[2] = a[0] * b[1] - a[1] * b[0];
    area = fmax(area, 0.5 * sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]));
  }
  double e[3][3];
  for (int i = 0; i < 3; ++i)
    for (int d = 0; d < 3; ++d) e[i][d] = x[i + 1][d] - x[0][d];
  const double vol = fabs(e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
                          e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
                          e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0])) / 6;
  const int index = s->size > 1 && s->dist ? s->dist->l2g[kmin] : kmin;
  dg_warn("%s: the time step is set by element %d at (%g, %g, %g), a sliver (height %.3g, "
          "longest edge %.3g): its step is %.2g of the median element's, so the run takes "
          "about %.3g times the steps the median element needs; remesh it or step it on its "
          "own (--time-stepping multirate)", s->c->source, index, c[0], c[1], c[2],
          area > 0 ? 3 * vol / area : 0, edge, dt_min / median, median / dt_min);
  return DG_OK;
}

/* The step's cost, against what the mesh allows, from which a pole-limited step suggests the
 * poles' units are wrong. */
#define DG_POLE_UNITS_COST 1000.0

/* Poles that shorten the step (dg_dispersion_dt) to under half of what the mesh allows are
 * named, with the cost in steps, by the rank that holds them: a fast pole (a short Debye
 * tau, a large omega_p or omega_0) is easily given by mistake in the wrong units. */
static dg_status warn_fast_poles(const run_state *s, double dt_run) {
  const dg_maxwell *p = s->phys;
  double mesh_dt = INFINITY;
  for (int k = 0; k < p->geom->K; ++k) mesh_dt = fmin(mesh_dt, dg_maxwell_element_dt(p, k));
  mesh_dt *= s->c->cfl;
  DG_CALL(run_min(s, &mesh_dt));
  int e = -1;
  const double pole_dt = dg_dispersion_dt(p, s->c->cfl, &e);
  if (e < 0 || !(pole_dt <= dt_run * (1 + 1e-12)) || !(pole_dt < 0.5 * mesh_dt)) return DG_OK;
  /* A real fast pole (water's Debye pole on a fine mesh) costs a few times the steps; one in
   * SI units (tau in seconds, omega in rad/s) thousands to millions: only then the units. */
  const double cost = mesh_dt / pole_dt;
  dg_warn("%s: the poles of materials[%d] set the time step: dt = %.3g where the mesh allows "
          "%.3g, so the run takes %.3g times the steps (the step keeps dt times sigma/eps_inf "
          "plus the poles' rates at most cfl: docs/TIME_STEPPING.md)%s", s->c->source,
          s->material[p->disp_elem[e]], pole_dt, mesh_dt, cost,
          cost >= DG_POLE_UNITS_COST ? "; a pole this fast for the mesh suggests SI units: "
                                       "check them (angular frequencies, times in L / c0, "
                                       "docs/UNITS.md#dispersive-materials)"
                                     : "");
  return DG_OK;
}

/* A conductivity that shortens the step (sigma/eps dt <= cfl, dg_maxwell_dt) to under half of
 * what the mesh allows is named, with the cost in steps, by the rank that holds it: sigma in
 * S/m given as it is (copper, 5.8e7, cut the step 150 000 times) instead of sigma Z0 L
 * (docs/UNITS.md), or a good conductor better modelled as a PEC boundary. */
static dg_status warn_conductivity(const run_state *s, double dt_run) {
  const dg_maxwell *p = s->phys;
  double mesh_dt = INFINITY, rate = 0;
  int e = -1;
  for (int k = 0; k < p->geom->K; ++k) {
    mesh_dt = fmin(mesh_dt, dg_maxwell_element_dt(p, k));
    if (p->sigma[k] / p->eps[k] > rate) rate = p->sigma[k] / p->eps[k], e = k;
  }
  mesh_dt *= s->c->cfl;
  DG_CALL(run_min(s, &mesh_dt));
  const double sigma_dt = e >= 0 ? s->c->cfl / rate : INFINITY;
  if (e < 0 || !(sigma_dt <= dt_run * (1 + 1e-12)) || !(sigma_dt < 0.5 * mesh_dt)) return DG_OK;
  dg_warn("%s: the conductivity of materials[%d] (sigma = %g) sets the time step: dt = %.3g "
          "where the mesh allows %.3g, so the run takes %.3g times the steps (the step keeps "
          "dt sigma/eps at most cfl: docs/TIME_STEPPING.md); sigma is in normalised units, "
          "sigma_SI Z0 L (docs/UNITS.md), and a good conductor is better a \"pec\" boundary",
          s->c->source, s->material[e], p->sigma[e], sigma_dt, mesh_dt, mesh_dt / sigma_dt);
  return DG_OK;
}

/* Values that look like SI units given to dgtd's normalised units (c0 = 1: times in the
 * mesh's length unit over c0, frequencies in cycles per such time; docs/UNITS.md): a final
 * time shorter than one stable step, so that the run ends after one step, or a frequency (a
 * pulse's or a DFT monitor's) at which the mesh would span more than 1e4 wavelengths. A
 * warning, not an error: either can be meant. */
static void warn_si_units(const run_state *s, double dt_max) {
  const dg_case *c = s->c;
  if (s->rank != 0) return;
  if (c->steps == 0 && c->final_time < dt_max)
    dg_warn("%s: final_time = %g is shorter than one stable time step (%g), so the run ends "
            "after one step: is it in seconds? dgtd's times are in the mesh's length unit over "
            "c0 (1 ns is 0.2998 on a mesh in metres, 299.8 in millimetres; docs/UNITS.md)",
            c->source, c->final_time, dt_max);
  const dg_mesh *m = s->mesh;
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int v = 0; v < m->Nv; ++v) {
    const double x[3] = {m->VX[v], m->VY[v], m->VZ[v]};
    for (int d = 0; d < 3; ++d) lo[d] = fmin(lo[d], x[d]), hi[d] = fmax(hi[d], x[d]);
  }
  const double extent = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
  double f = 0;
  for (int i = 0; i < c->n_dipoles; ++i) f = fmax(f, c->dipoles[i].pulse.f0);
  if (c->has_plane_wave) f = fmax(f, c->plane_wave.pulse.f0);
  for (int i = 0; c->dft.on && i < c->dft.nfreq; ++i) f = fmax(f, c->dft.freq[i]);
  if (f * extent > 1e4)
    dg_warn("%s: a frequency of %g makes the mesh (%g across) %.3g wavelengths wide: is it in "
            "hertz? dgtd's frequencies are in cycles per unit time with c0 = 1 (2.4 GHz is "
            "8.006 on a mesh in metres, 0.008006 in millimetres; docs/UNITS.md)", c->source, f,
            extent, f * extent);
}

/* The stable automatic step (the smallest over all ranks), shortened so that a whole number
 * of steps lands exactly on the final time. A step that is not a positive finite number
 * (a material with eps or mu that overflows) or a step count past INT_MAX is refused rather
 * than run as zero or negative steps. */
dg_status run_setup_time_step(run_state *s) {
  const dg_case *c = s->c;
  double dt_max = dg_maxwell_dt(s->phys, c->cfl);
  DG_CALL(run_min(s, &dt_max));
  DG_CALL(warn_sliver(s, dt_max));
  DG_CALL(warn_fast_poles(s, dt_max));
  DG_CALL(warn_conductivity(s, dt_max));
  if (c->multirate) DG_CALL(run_multirate_time_step(s, &dt_max)); /* the macro step */
  DG_CHECK(isfinite(dt_max) && dt_max > 0, DG_ERR_INPUT,
           "%s: the stable time step is %g, not a positive finite number: check the materials' "
           "eps and mu (and cfl = %g)", c->source, dt_max, c->cfl);
  warn_si_units(s, dt_max);
  s->dt_max = dt_max;
  if (c->steps > 0) {
    s->steps = c->steps;
    s->dt = dt_max;
    return check_source_pulses(s);
  }
  const double n = ceil(c->final_time / dt_max - 1e-12);
  DG_CHECK(isfinite(n) && n <= INT_MAX, DG_ERR_INPUT,
           "too many steps: final time %g with a stable step of %g needs %.3g steps (at most %d); "
           "shorten the final time or raise cfl", c->final_time, dt_max, n, INT_MAX);
  s->steps = n < 1 ? 1 : (int)n;
  s->dt = c->final_time / s->steps;
  return check_source_pulses(s);
}

/* Lab driver of docs/notes/pml-late-growth-2026-11-28.md (not built by make): the octant box of
 * tests/test_pml_util.h stepped by the reference or OpenCL stepper, energy block maxima. Build
 * it like a test, against build/libdgtd.a. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/alloc.h"
#include "dg/pml.h"
#include "dg/stepper.h"
#include "mesh/mesh.h"
#include "refel/refel.h"
#include "dg/geom.h"
#include "dg/maxwell.h"
#include "device/device.h"
#include "backend/cl_maxwell.h"
#include "backend/variant.h"
#define OK(x) do { dg_status s_ = (x); if (s_) { fprintf(stderr, "fail %s\n", #x); exit(1);} } while (0)
static double arg(int argc, char **argv, const char *k, double d) {
  for (int i = 1; i + 1 < argc; ++i) if (!strcmp(argv[i], k)) return atof(argv[i + 1]);
  return d;
}
int main(int argc, char **argv) {
  int N = arg(argc, argv, "-N", 1), cells = arg(argc, argv, "-cells", 2), extra = arg(argc, argv, "-extra", 2);
  double T = arg(argc, argv, "-T", 60), cfl = arg(argc, argv, "-cfl", 1);
  int slab = arg(argc, argv, "-slab", 0); /* 0 all 3 far sides, 1 x only, 2 x and y */
  dg_pml_params par; dg_pml_params_default(&par);
  par.order = arg(argc, argv, "-m", par.order);
  par.reflection = arg(argc, argv, "-R", par.reflection);
  par.kappa_max = arg(argc, argv, "-kappa", par.kappa_max);
  par.alpha_max = arg(argc, argv, "-alpha", par.alpha_max);
  int every = arg(argc, argv, "-every", 100);
  double h = 1.0 / cells, H = 1.0 + extra * h;
  int full = arg(argc, argv, "-full", 0);
  double lo[3] = {full ? -H : 0, full ? -H : 0, full ? -H : 0}, hi[3] = {H, H, H};
  int n = (cells + extra) * (full ? 2 : 1);
  dg_mesh *m; dg_refel *r; dg_geom *g; dg_maxwell *p;
  OK(dg_mesh_box(&m, lo, hi, n, n, n));
  OK(dg_refel_create(&r, N)); OK(dg_geom_create(&g, m, r)); OK(dg_maxwell_create(&p, g));
  unsigned char *in = calloc(m->K, 1);
  double ihi[3] = {1, 1, 1};
  if (slab >= 1) ihi[1] = ihi[2] = H;
  if (slab >= 2) ihi[1] = 1;
  for (int k = 0; k < m->K; ++k) {
    double c[3] = {0, 0, 0};
    for (int v = 0; v < 4; ++v) { int vi = m->EToV[4 * k + v]; c[0] += .25 * m->VX[vi]; c[1] += .25 * m->VY[vi]; c[2] += .25 * m->VZ[vi]; }
    in[k] = c[0] > ihi[0] || c[1] > ihi[1] || c[2] > ihi[2];
    if (full) in[k] = in[k] || c[0] < -1 || c[1] < -1 || c[2] < -1;
    for (int f = 0; f < 4; ++f) { int tag = m->face_tag[4 * k + f]; if (tag < 0) continue;
      p->bc[4 * k + f] = !full && (tag == 1 || tag == 3) ? DG_BC_PMC : DG_BC_PEC; }
  }
  double ilo[3] = {-1, -1, -1}, olo[3] = {-1, -1, -1};
  if (full) for (int d = 0; d < 3; ++d) olo[d] = -H;
  OK(dg_maxwell_set_pml(p, in, &par, ilo, ihi, olo, hi));
  dg_dipole d = {{0.3, 0.35, 0.25}, {0.4, 0.6, 1.0}, {DG_PULSE_RICKER, 1.0, 1.2, 1.0, 0, 0}};
  double rst[3]; int k0 = dg_mesh_locate(m, d.pos, rst);
  OK(dg_maxwell_add_dipole(p, &d, k0, rst));
  double dt = dg_maxwell_dt(p, cfl);
  int steps = (int)ceil(T / dt); dt = T / steps;
  dg_stepper *st;
  int cl = arg(argc, argv, "-cl", 0); /* 0 ref, 1 CL double, 2 CL float */
  if (!cl) OK(dg_stepper_ref_create(&st, p, NULL));
  else {
    dg_device *dev; OK(dg_device_create(&dev, NULL));
    dg_variant v = dg_variant_default(&dev->info, N, cl == 1 ? DG_PREC_DOUBLE : DG_PREC_FLOAT);
    dg_cl_maxwell *op = NULL; OK(dg_cl_maxwell_create(&op, dev, p, &v, NULL));
    OK(dg_stepper_cl_create(&st, op));
  }
  size_t nq = 6 * (size_t)g->K * g->Np, na = dg_maxwell_aux_size(p);
  double *q = calloc(nq, 8), *qm = calloc(nq, 8), *w = calloc(na + 1, 8);
  OK(dg_stepper_put_state(st, q));
  double peak = 0, prev = INFINITY, bmax = 0, first = -1, worst = 0;
  int from = (int)ceil(4.0 / dt);
  printf("# N=%d K=%d pmlK=%d dt=%g steps=%d beta_max=%g\n", N, g->K, p->pml_K, dt, steps, p->pml_beta_max);
  for (int i = 0; i < steps; ++i) {
    OK(dg_stepper_step(st, i * dt, dt));
    double e; OK(dg_stepper_energy(st, &e));
    if (!isfinite(e) || (peak > 0 && e > 1e4 * peak)) { printf("blowup t=%g\n", (i + 1) * dt); break; }
    peak = fmax(peak, e);
    if (i >= from) {
      bmax = fmax(bmax, e);
      if ((i - from + 1) % every == 0) {
        if (isfinite(prev) && bmax > prev + 1e-6 * peak && first < 0) first = (i + 1) * dt;
        if (isfinite(prev)) worst = fmax(worst, (bmax - prev) / peak);
        prev = bmax;
        if (((i - from + 1) / every) % 10 == 0 || getenv("V")) {
          OK(dg_stepper_get_state(st, q));
          memcpy(qm, q, nq * 8);
          for (int e2 = 0; e2 < p->pml_K; ++e2) { int kk = p->pml_elem[e2];
            for (int f = 0; f < 6; ++f) memset(qm + f * (size_t)g->K * g->Np + (size_t)kk * g->Np, 0, g->Np * 8); }
          double eint = dg_maxwell_energy(p, qm);
          OK(dg_stepper_get_aux(st, w));
          double wn = 0; for (size_t j = 0; j < na; ++j) wn = fmax(wn, fabs(w[j]));
          /* location of max |q| */
          size_t jm = 0; for (size_t j = 0; j < nq; ++j) if (fabs(q[j]) > fabs(q[jm])) jm = j;
          size_t id = jm % ((size_t)g->K * g->Np);
          printf("t=%7.2f E/peak=%.3e int=%.3e pml=%.3e maxaux=%.2e argmax f%d x=(%.2f %.2f %.2f)\n", (i + 1) * dt, e / peak, eint / peak, (e - eint) / peak, wn,
                 (int)(jm / ((size_t)g->K * g->Np)), g->x[id], g->y[id], g->z[id]);
        }
        bmax = 0;
      }
    }
  }
  double ef; OK(dg_stepper_energy(st, &ef)); printf("RESULT cl=%d T=%g N=%d first_growth=%g worst_rise=%.2e final=%.2e\n", cl, T, N, first, worst, ef / peak);
  return 0;
}

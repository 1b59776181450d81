/* Shared set-up of the PML tests: a dipole pulse in the box [0, H]^3 whose inner part
 * [0, 1]^3 is the domain looked at; the planes x = 0, y = 0 are PMC and z = 0 PEC (a
 * symmetric octant, so the box is an eighth of the size), the far sides x, y, z = H are the
 * truncation: a CFS-PML of npml cells backed by PEC, Silver-Mueller, or (the reference) a
 * box so large that nothing comes back from it within the time window. Probes near the
 * inner box's far faces, edges and corner record E over time. */
#ifndef DG_TEST_PML_UTIL_H
#define DG_TEST_PML_UTIL_H

#include "test_device.h"

#include "backend/cl_maxwell.h"

#include "core/alloc.h"
#include "dg/pml.h"
#include "dg/stepper.h"
#include "io/probe.h"
#include "mesh/mesh.h"
#include "refel/refel.h"

enum { PML_PROBES = 4 };
typedef enum { TRUNC_PML, TRUNC_ABC, TRUNC_BIG } pml_trunc;

typedef struct {
  int N;            /* order */
  int cells;        /* cells across the inner unit box */
  int extra;        /* cells beyond it: the PML, or the reference's extension */
  pml_trunc trunc;
  dg_pml_params par;
  double T;         /* final time */
  double cfl;
  double dt;        /* > 0: this step (the same for runs to be compared), if stable */
  const char *variant; /* device runs: this variant spec (without prec); NULL: the default */
} pml_setup;

typedef struct {
  dg_mesh *m;
  dg_refel *r;
  dg_geom *g;
  dg_maxwell *p;
  dg_probes *probes;
  double dt;
  int steps;
} pml_problem;

static const double pml_probe_xyz[3 * PML_PROBES] = {0.85, 0.45, 0.4, 0.45, 0.85, 0.4,
                                                     0.4,  0.45, 0.85, 0.8, 0.8, 0.8};

static inline void pml_problem_create(pml_problem *b, const pml_setup *s) {
  memset(b, 0, sizeof *b);
  const double h = 1.0 / s->cells, H = 1.0 + s->extra * h;
  const double lo[3] = {0, 0, 0}, hi[3] = {H, H, H};
  const int n = s->cells + s->extra;
  assert_dg_ok(dg_mesh_box(&b->m, lo, hi, n, n, n));
  assert_dg_ok(dg_refel_create(&b->r, s->N));
  assert_dg_ok(dg_geom_create(&b->g, b->m, b->r));
  assert_dg_ok(dg_maxwell_create(&b->p, b->g));
  const dg_mesh *m = b->m;
  unsigned char *in = NULL;
  assert_dg_ok(DG_ALLOC(in, m->K));
  for (int k = 0; k < m->K; ++k) {
    double c[3] = {0, 0, 0};
    for (int v = 0; v < 4; ++v) {
      const int vi = m->EToV[4 * k + v];
      c[0] += 0.25 * m->VX[vi], c[1] += 0.25 * m->VY[vi], c[2] += 0.25 * m->VZ[vi];
    }
    in[k] = s->trunc == TRUNC_PML && (c[0] > 1 || c[1] > 1 || c[2] > 1);
    for (int f = 0; f < 4; ++f) {
      const int tag = m->face_tag[4 * k + f];
      if (tag < 0) continue;
      b->p->bc[4 * k + f] = tag == 1 || tag == 3 ? DG_BC_PMC
                            : tag == 5           ? DG_BC_PEC
                            : s->trunc == TRUNC_PML ? DG_BC_PEC
                                                    : DG_BC_ABC;
    }
  }
  if (s->trunc == TRUNC_PML) {
    const double ilo[3] = {-1, -1, -1}, ihi[3] = {1, 1, 1}, olo[3] = {-1, -1, -1};
    assert_dg_ok(dg_maxwell_set_pml(b->p, in, &s->par, ilo, ihi, olo, hi));
    assert_true(b->p->pml_K > 0);
  }
  dg_free(&in);
  /* A Ricker pulse of centre frequency 1 (wavelength 1) from a dipole inside the box. */
  const dg_dipole d = {{0.3, 0.35, 0.25}, {0.4, 0.6, 1.0}, {DG_PULSE_RICKER, 1.0, 1.2, 1.0, 0, 0}};
  double rst[3];
  const int k = dg_mesh_locate(m, d.pos, rst);
  assert_true(k >= 0);
  assert_dg_ok(dg_maxwell_add_dipole(b->p, &d, k, rst));
  assert_dg_ok(dg_probes_create(&b->probes, b->g, PML_PROBES, pml_probe_xyz));
  double dt = dg_maxwell_dt(b->p, s->cfl);
  if (s->dt > 0) {
    assert_true(s->dt <= dt);
    dt = s->dt;
  }
  b->steps = (int)ceil(s->T / dt - 1e-12);
  b->dt = s->T / b->steps;
}

static inline void pml_problem_destroy(pml_problem *b) {
  dg_probes_destroy(&b->probes);
  dg_maxwell_destroy(&b->p);
  dg_geom_destroy(&b->g);
  dg_refel_destroy(&b->r);
  dg_mesh_destroy(&b->m);
}

/* Run b with stepper st from rest; E at the probes after every PML_EVERY-th step into rec
 * (steps x PML_PROBES x 3, the others left zero), and the energy after every step into
 * energy (may be NULL). */
enum { PML_EVERY = 4 };
static inline void pml_record(pml_problem *b, dg_stepper *st, double *rec, double *energy) {
  const size_t n = 6 * (size_t)b->g->K * b->g->Np;
  double *q = NULL, vals[6 * PML_PROBES];
  assert_dg_ok(DG_ALLOC(q, n));
  assert_dg_ok(dg_stepper_put_state(st, q));
  for (int i = 0; i < b->steps; ++i) {
    assert_dg_ok(dg_stepper_step(st, i * b->dt, b->dt));
    if (!energy && (!rec || i % PML_EVERY)) continue;
    assert_dg_ok(dg_stepper_get_state(st, q));
    if (rec) {
      dg_probes_eval(b->probes, q, vals);
      for (int p = 0; p < PML_PROBES; ++p)
        for (int c = 0; c < 3; ++c) rec[((size_t)i * PML_PROBES + p) * 3 + c] = vals[6 * p + c];
    }
    if (energy) energy[i] = dg_maxwell_energy(b->p, q);
  }
  dg_free(&q);
}

/* max over time and probes |a - b| / max |ref| for two records of `steps` steps. */
static inline double pml_rel_diff(const double *a, const double *ref, int steps) {
  double num = 0, den = 0;
  for (size_t i = 0; i < (size_t)steps * PML_PROBES * 3; ++i) {
    num = fmax(num, fabs(a[i] - ref[i]));
    den = fmax(den, fabs(ref[i]));
  }
  return num / den;
}

/* A stepper for b: the reference (dev NULL) or variant spec (NULL: the device's default) in
 * prec. */
static inline dg_stepper *pml_stepper(pml_problem *b, dg_device *dev, dg_precision prec,
                                      const char *spec) {
  dg_stepper *st = NULL;
  if (!dev) {
    assert_dg_ok(dg_stepper_ref_create(&st, b->p, NULL));
    return st;
  }
  dg_variant v = dg_variant_default(&dev->info, b->g->N, prec);
  if (spec) {
    assert_dg_ok(dg_variant_parse(spec, &v));
    v.precision = prec;
  }
  dg_cl_maxwell *op = NULL;
  assert_dg_ok(dg_cl_maxwell_create(&op, dev, b->p, &v, NULL));
  assert_dg_ok(dg_stepper_cl_create(&st, op));
  return st;
}

/* Run setup s on dev (NULL: reference) in prec, recording the probes (and energies); returns
 * the number of steps. */
static inline int pml_run(const pml_setup *s, dg_device *dev, dg_precision prec, double *rec,
                          double *energy) {
  pml_problem b;
  pml_problem_create(&b, s);
  dg_stepper *st = pml_stepper(&b, dev, prec, s->variant);
  pml_record(&b, st, rec, energy);
  dg_stepper_destroy(&st);
  const int steps = b.steps;
  pml_problem_destroy(&b);
  return steps;
}

#endif

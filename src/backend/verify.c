#include "backend/verify.h"

#include <math.h>
#include <string.h>

#include "backend/cl_maxwell.h"
#include "core/alloc.h"

double dg_verify_tolerance(dg_precision p) {
  return p == DG_PREC_DOUBLE ? DG_VERIFY_TOL_DOUBLE : DG_VERIFY_TOL_FLOAT;
}

dg_status dg_verify_case_create(dg_verify_case **out, int N, int n) {
  dg_status st = DG_OK;
  dg_verify_case *c = NULL;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  DG_CALL(DG_ALLOC(c, 1));
  DG_CALL_GOTO(fail, dg_mesh_box(&c->mesh, lo, hi, n, n, n));
  DG_CALL_GOTO(fail, dg_refel_create(&c->ref, N));
  DG_CALL_GOTO(fail, dg_geom_create(&c->geom, c->mesh, c->ref));
  DG_CALL_GOTO(fail, dg_maxwell_create(&c->phys, c->geom));
  const dg_mesh *m = c->mesh;
  for (int k = 0; k < m->K; ++k) {
    for (int f = 0; f < 4; ++f) {
      const int tag = m->face_tag[4 * k + f];
      if (tag < 0) continue;
      c->phys->bc[4 * k + f] = tag <= 2 ? DG_BC_PEC : tag <= 4 ? DG_BC_PMC : DG_BC_ABC;
    }
    double cx = 0;
    for (int v = 0; v < 4; ++v) cx += 0.25 * m->VX[m->EToV[4 * k + v]];
    if (cx < 0.5) {
      c->phys->eps[k] = 2.0;
      c->phys->mu[k] = 1.5;
      c->phys->sigma[k] = 0.5;
    }
  }
  *out = c;
  return DG_OK;
fail:
  dg_verify_case_destroy(&c);
  return st;
}

void dg_verify_case_destroy(dg_verify_case **pc) {
  dg_verify_case *c = *pc;
  if (!c) return;
  dg_maxwell_destroy(&c->phys);
  dg_geom_destroy(&c->geom);
  dg_refel_destroy(&c->ref);
  dg_mesh_destroy(&c->mesh);
  dg_free(pc);
}

static uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void dg_verify_random_fields(uint64_t seed, size_t n, double *q) {
  uint64_t s = seed;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = splitmix64(&s);
    const double u = (double)(r >> 11) * 0x1.0p-53; /* [0, 1) */
    q[i] = (r & 1 ? 1 : -1) * (0.5 + 0.5 * u);
  }
}

dg_status dg_cl_verify_op(dg_cl_maxwell *op, dg_maxwell *phys, uint64_t seed, double *rel_diff,
                          int *pass) {
  dg_status st = DG_OK;
  const dg_geom *g = phys->geom;
  const dg_variant *v = dg_cl_maxwell_variant(op);
  const size_t n = 6 * (size_t)g->K * g->Np;
  double *q = NULL, *ref = NULL, *got = NULL;
  *pass = 0;
  *rel_diff = INFINITY;
  DG_CALL_GOTO(done, DG_ALLOC(q, n));
  DG_CALL_GOTO(done, DG_ALLOC(ref, n));
  DG_CALL_GOTO(done, DG_ALLOC(got, n));
  dg_verify_random_fields(seed, n, q);
  dg_maxwell_rhs(phys, 0.0, q, NULL, ref);
  DG_CALL_GOTO(done, dg_cl_maxwell_rhs(op, 0.0, q, got));
  double num = 0, den = 0;
  for (size_t i = 0; i < n; ++i) {
    num += (got[i] - ref[i]) * (got[i] - ref[i]);
    den += ref[i] * ref[i];
  }
  *rel_diff = den > 0 ? sqrt(num / den) : sqrt(num);
  const double tol = dg_verify_tolerance(v->precision);
  *pass = *rel_diff <= tol; /* NaN fails */
  if (!*pass) {
    char spec[DG_VARIANT_SPEC_MAX];
    st = DG_ERROR(DG_ERR_NUMERIC,
                  "variant '%s' failed verification at N=%d: relative L2 difference %.3e > %.0e",
                  dg_variant_print(v, spec, sizeof spec), g->N, *rel_diff, tol);
  }
done:
  dg_free(&q);
  dg_free(&ref);
  dg_free(&got);
  return st;
}

dg_status dg_cl_verify_problem(dg_device *dev, const dg_variant *v, dg_maxwell *phys,
                               uint64_t seed, double *rel_diff, int *pass) {
  dg_status st = DG_OK;
  dg_cl_maxwell *op = NULL;
  *pass = 0;
  *rel_diff = INFINITY;
  DG_CALL_GOTO(done, dg_cl_maxwell_create(&op, dev, phys, v, NULL));
  DG_CALL_GOTO(done, dg_cl_verify_op(op, phys, seed, rel_diff, pass));
done:
  dg_cl_maxwell_destroy(&op);
  return st;
}

dg_status dg_cl_verify(dg_device *dev, const dg_variant *v, int N, uint64_t seed,
                       double *rel_diff, int *pass) {
  dg_status st = DG_OK;
  dg_verify_case *c = NULL;
  *pass = 0;
  *rel_diff = INFINITY;
  DG_CALL(dg_verify_case_create(&c, N, 2));
  st = dg_cl_verify_problem(dev, v, c->phys, seed, rel_diff, pass);
  if (st != DG_OK) dg_error_trace(st, __FILE__, __LINE__, __func__, "dg_cl_verify_problem");
  dg_verify_case_destroy(&c);
  return st;
}

#include "backend/verify.h"

#include <math.h>
#include <string.h>

#include "backend/cl_maxwell.h"
#include "core/alloc.h"
#include "dg/pml.h"

double dg_verify_tolerance(dg_precision p) {
  return p == DG_PREC_DOUBLE ? DG_VERIFY_TOL_DOUBLE : DG_VERIFY_TOL_FLOAT;
}

dg_status dg_verify_case_create(dg_verify_case **out, int N, int n) {
  dg_mesh *mesh = NULL;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  DG_CALL(dg_mesh_box(&mesh, lo, hi, n, n, n));
  DG_CALL(dg_verify_case_from_mesh(out, mesh, N));
  return DG_OK;
}

dg_status dg_verify_case_create_pml(dg_verify_case **out, int N, int n, int cells) {
  dg_mesh *mesh = NULL;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  DG_CALL(dg_mesh_box_pml(&mesh, lo, hi, n, n, n, cells));
  DG_CALL(dg_verify_case_from_mesh(out, mesh, N));
  if (cells == 0) return DG_OK;
  dg_verify_case *c = *out;
  const dg_mesh *m = c->mesh;
  unsigned char *in = NULL;
  dg_status st = DG_ALLOC(in, m->K);
  if (st != DG_OK) {
    dg_verify_case_destroy(out);
    return dg_error_trace(st, __FILE__, __LINE__, __func__, "DG_ALLOC(in, K)");
  }
  for (int k = 0; k < m->K; ++k) in[k] = m->elem_tag[k] == 2; /* the layer's volume tag */
  dg_pml_params par;
  dg_pml_params_default(&par);
  par.kappa_max = 2;
  const double w = (double)cells / n;
  const double olo[3] = {-w, -w, -w}, ohi[3] = {1 + w, 1 + w, 1 + w};
  st = dg_maxwell_set_pml(c->phys, in, &par, lo, hi, olo, ohi);
  dg_free(&in);
  if (st != DG_OK) {
    dg_verify_case_destroy(out);
    return dg_error_trace(st, __FILE__, __LINE__, __func__, "dg_maxwell_set_pml");
  }
  return DG_OK;
}

dg_status dg_verify_case_from_mesh(dg_verify_case **out, dg_mesh *mesh, int N) {
  dg_status st = DG_OK;
  dg_verify_case *c = NULL;
  *out = NULL;
  DG_CALL_GOTO(fail, DG_ALLOC(c, 1));
  c->mesh = mesh;
  mesh = NULL;
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
  dg_mesh_destroy(&mesh);
  dg_verify_case_destroy(&c);
  return st;
}

static dg_status add_dipole_at(dg_verify_case *c, const double x[3], const double dir[3],
                               dg_pulse pulse) {
  double rst[3];
  const int k = dg_mesh_locate(c->mesh, x, rst);
  DG_CHECK(k >= 0, DG_ERR_INTERNAL, "verification dipole (%g, %g, %g) outside the mesh", x[0], x[1], x[2]);
  const dg_dipole d = {{x[0], x[1], x[2]}, {dir[0], dir[1], dir[2]}, pulse};
  DG_CALL(dg_maxwell_add_dipole(c->phys, &d, k, rst));
  return DG_OK;
}

dg_status dg_verify_case_add_sources(dg_verify_case *c, unsigned flags) {
  const dg_pulse ricker = {DG_PULSE_RICKER, 1.0, 0.7, 1.5, 0, 0};
  const dg_pulse gauss = {DG_PULSE_GAUSSIAN, 2.0, 0.9, -0.8, 0, 0};
  const dg_pulse harm = {DG_PULSE_HARMONIC, 1.3, 0.2, 1.1, 1.0, 0};
  if (flags & DG_VERIFY_DIPOLES) {
    /* Two in one element of the eps = 2 half (they must add up), one in vacuum ... */
    const double x0[3] = {0.2, 0.3, 0.7}, d0[3] = {1, -0.5, 0.25};
    double rst[3];
    const int k = dg_mesh_locate(c->mesh, x0, rst);
    DG_CHECK(k >= 0, DG_ERR_INTERNAL, "verification dipole outside the mesh");
    DG_CALL(add_dipole_at(c, x0, d0, ricker));
    const double rst2[3] = {-0.6, -0.5, -0.4}, d1[3] = {0, 1, 0};
    const dg_dipole second = {{x0[0], x0[1], x0[2]}, {d1[0], d1[1], d1[2]}, gauss}; /* nearby */
    DG_CALL(dg_maxwell_add_dipole(c->phys, &second, k, rst2));
    const double x2[3] = {0.8, 0.6, 0.3}, d2[3] = {0.3, 0.3, -1};
    DG_CALL(add_dipole_at(c, x2, d2, harm));
    /* ... and 16 more along a diagonal, so the sources take two device launches. */
    for (int i = 0; i < 16; ++i) {
      const double u = (i + 0.5) / 16;
      const double x[3] = {u, 0.1 + 0.8 * u, 0.9 - 0.7 * u}, d[3] = {u, 1 - u, 0.5};
      DG_CALL(add_dipole_at(c, x, d, i % 3 == 0 ? ricker : i % 3 == 1 ? gauss : harm));
    }
  }
  if (flags & DG_VERIFY_PLANE_WAVE) {
    const int scat = (flags & DG_VERIFY_SCATTERED) != 0;
    /* Oblique, so every face normal sees it; k.x0 != 0 checks the reference point. */
    const dg_plane_wave pw = {{1, 0.4, -0.3},
                              {0.3, 0, 1},
                              {0.1, -0.2, 0.05},
                              scat ? (dg_pulse){DG_PULSE_HARMONIC, 1.0, 0.1, 1.2, 0.5, 0}
                                   : (dg_pulse){DG_PULSE_RICKER, 1.0, 0.5, 1.5, 0, 0},
                              scat};
    c->pw = pw;
    DG_CALL(dg_plane_wave_init(&c->pw));
    dg_maxwell_set_plane_wave(c->phys, &c->pw);
  }
  if (flags & DG_VERIFY_TFSF) {
    const dg_mesh *m = c->mesh;
    signed char *sign = NULL;
    DG_CALL(DG_ALLOC(sign, 4 * (size_t)m->K));
    for (int k = 0; k < m->K; ++k)
      for (int f = 0; f < 4; ++f) {
        const int k2 = m->EToE[4 * k + f];
        double cx = 0, cx2 = 0;
        for (int v = 0; v < 4; ++v) {
          cx += 0.25 * m->VX[m->EToV[4 * k + v]];
          cx2 += 0.25 * m->VX[m->EToV[4 * k2 + v]];
        }
        if (k2 != k && (cx - 0.5) * (cx2 - 0.5) < 0) sign[4 * k + f] = cx < 0.5 ? 1 : -1;
      }
    const dg_status st = dg_maxwell_set_tfsf(c->phys, sign);
    dg_free(&sign);
    DG_CALL(st);
  }
  if (flags & DG_VERIFY_PML) {
    const dg_mesh *m = c->mesh;
    unsigned char *in = NULL;
    DG_CALL(DG_ALLOC(in, m->K));
    for (int k = 0; k < m->K; ++k) {
      double cy = 0, cz = 0;
      for (int v = 0; v < 4; ++v) {
        cy += 0.25 * m->VY[m->EToV[4 * k + v]];
        cz += 0.25 * m->VZ[m->EToV[4 * k + v]];
      }
      in[k] = cy > 0.5 || cz > 0.5;
    }
    dg_pml_params par;
    dg_pml_params_default(&par);
    par.kappa_max = 2;
    const double ilo[3] = {-1, 0, 0}, ihi[3] = {2, 0.5, 0.5}, olo[3] = {-1, 0, 0},
                 ohi[3] = {2, 1, 1};
    const dg_status st = dg_maxwell_set_pml(c->phys, in, &par, ilo, ihi, olo, ohi);
    dg_free(&in);
    DG_CALL(st);
  }
  return DG_OK;
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
  DG_CALL(dg_cl_verify_op_at(op, phys, 0.0, seed, rel_diff, pass));
  return DG_OK;
}

dg_status dg_cl_verify_op_at(dg_cl_maxwell *op, dg_maxwell *phys, double t, uint64_t seed,
                             double *rel_diff, int *pass) {
  dg_status st = DG_OK;
  const dg_geom *g = phys->geom;
  const dg_variant *v = dg_cl_maxwell_variant(op);
  /* The fields and, with a PML, its auxiliary fields (random too) and their derivatives. */
  const size_t nq = 6 * (size_t)g->K * g->Np, n = nq + dg_maxwell_aux_size(phys);
  double *q = NULL, *ref = NULL, *got = NULL;
  *pass = 0;
  *rel_diff = INFINITY;
  DG_CALL_GOTO(done, DG_ALLOC(q, n));
  DG_CALL_GOTO(done, DG_ALLOC(ref, n));
  DG_CALL_GOTO(done, DG_ALLOC(got, n));
  dg_verify_random_fields(seed, n, q);
  dg_maxwell_rhs_aux(phys, t, q, NULL, q + nq, ref, ref + nq);
  DG_CALL_GOTO(done, dg_cl_maxwell_rhs_aux(op, t, q, q + nq, got, got + nq));
  double num = 0, den = 0;
  for (size_t i = 0; i < n; ++i) {
    num += (got[i] - ref[i]) * (got[i] - ref[i]);
    den += ref[i] * ref[i];
  }
  *rel_diff = den > 0 ? sqrt(num / den) : sqrt(num);
  const double tol = dg_verify_tolerance(v->precision);
  *pass = *rel_diff <= tol; /* NaN fails */
  char spec[DG_VARIANT_SPEC_MAX];
  if (!*pass) {
    st = DG_ERROR(DG_ERR_NUMERIC,
                  "variant '%s' failed verification at N=%d, t=%g: relative L2 difference "
                  "%.3e > %.0e",
                  dg_variant_print(v, spec, sizeof spec), g->N, t, *rel_diff, tol);
    goto done;
  }
  /* The energy kernel of the same program, on the same state (q is on the device now):
   * sums of Np^2 products per element, so 10x the RHS tolerance. */
  double e_dev = 0;
  DG_CALL_GOTO(done, dg_cl_maxwell_energy(op, &e_dev));
  const double e_ref = dg_maxwell_energy(phys, q);
  const double e_diff = fabs(e_dev - e_ref) / fabs(e_ref);
  if (!(e_diff <= 10 * tol)) {
    *pass = 0;
    st = DG_ERROR(DG_ERR_NUMERIC,
                  "variant '%s' failed verification at N=%d: device energy %.17g, reference "
                  "%.17g (relative difference %.3e > %.0e)",
                  dg_variant_print(v, spec, sizeof spec), g->N, e_dev, e_ref, e_diff, 10 * tol);
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

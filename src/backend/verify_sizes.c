#include "backend/verify_sizes.h"

#include <math.h>
#include <string.h>

#include "backend/cl_maxwell.h"
#include "backend/verify.h"
#include "core/alloc.h"
#include "part/dist.h"

const char *dg_verify_size_name(dg_verify_size s) {
  static const char *const names[DG_VSIZE_COUNT] = {"K=1", "K=6", "K=18", "K=48"};
  return s >= 0 && s < DG_VSIZE_COUNT ? names[s] : "?";
}

/* The tetrahedron (0,0,0), (1,0,0), (0,1,0), (0,0,1): faces z=0, y=0, x=0 tagged 5, 3, 1
 * (absorbing, PMC, PEC) and the slanted one 2 (PEC). */
static dg_status single_tet(dg_mesh **out) {
  dg_status st = DG_OK;
  dg_mesh *m = NULL;
  DG_CALL(dg_mesh_alloc(&m, 4, 1));
  const double x[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int v = 0; v < 4; ++v) {
    m->VX[v] = x[v][0];
    m->VY[v] = x[v][1];
    m->VZ[v] = x[v][2];
    m->EToV[v] = v;
  }
  const int tri[12] = {0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3}, tag[4] = {5, 3, 1, 2};
  DG_CALL_GOTO(fail, dg_mesh_orient(m));
  DG_CALL_GOTO(fail, dg_mesh_connect(m, 4, tri, tag));
  *out = m;
  return DG_OK;
fail:
  dg_mesh_destroy(&m);
  return st;
}

dg_status dg_verify_mesh_create(dg_mesh **out, dg_verify_size s) {
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  *out = NULL;
  switch (s) {
  case DG_VSIZE_ONE: DG_CALL(single_tet(out)); break;
  case DG_VSIZE_BOX1: DG_CALL(dg_mesh_box(out, lo, hi, 1, 1, 1)); break;
  case DG_VSIZE_ROW3: DG_CALL(dg_mesh_box(out, lo, hi, 3, 1, 1)); break;
  case DG_VSIZE_BOX2: DG_CALL(dg_mesh_box(out, lo, hi, 2, 2, 2)); break;
  default: return DG_ERROR(DG_ERR_INTERNAL, "verification mesh %d", (int)s);
  }
  return DG_OK;
}

dg_status dg_cl_verify_size(dg_device *dev, const dg_variant *v, int N, dg_verify_size s,
                            uint64_t seed, double *rel_diff, int *pass) {
  dg_status st = DG_OK;
  dg_mesh *mesh = NULL;
  dg_verify_case *c = NULL;
  *pass = 0;
  *rel_diff = INFINITY;
  DG_CALL(dg_verify_mesh_create(&mesh, s));
  DG_CALL(dg_verify_case_from_mesh(&c, mesh, N));
  st = dg_cl_verify_problem(dev, v, c->phys, seed, rel_diff, pass);
  if (st != DG_OK)
    dg_error_trace(st, __FILE__, __LINE__, __func__, "dg_cl_verify_problem");
  dg_verify_case_destroy(&c);
  return st;
}

/* ---- the halo path ------------------------------------------------------------------- */

/* The host side of one part's emulated exchange. */
typedef struct {
  size_t n;
  int dbl;                /* values are doubles (else floats) */
  void *send, *recv;      /* n values each, what dg_cl_maxwell_set_halo reads and writes */
  const double *expect;   /* n: what pack must produce */
  const double *incoming; /* n: the neighbours' traces */
  double pack_diff;       /* largest relative difference seen in send */
  int exchanges;
  int drop;               /* deliver zeros (DG_VHALO_DROP) */
} halo_emu;

static dg_status emu_begin(void *ctx) {
  halo_emu *h = ctx;
  for (size_t b = 0; b < h->n; ++b) {
    const double got = h->dbl ? ((const double *)h->send)[b] : ((const float *)h->send)[b];
    const double d = fabs(got - h->expect[b]) / fmax(fabs(h->expect[b]), 1e-300);
    if (!(d <= h->pack_diff)) h->pack_diff = d; /* NaN sticks */
  }
  return DG_OK;
}

static dg_status emu_end(void *ctx) {
  halo_emu *h = ctx;
  for (size_t b = 0; b < h->n; ++b) {
    const double x = h->drop ? 0.0 : h->incoming[b];
    if (h->dbl)
      ((double *)h->recv)[b] = x;
    else
      ((float *)h->recv)[b] = (float)x;
  }
  ++h->exchanges;
  return DG_OK;
}

/* One part: build its mesh, problem and operator, run one RHS with the emulated exchange,
 * add its owned elements' squared differences to *num and the reference's to *den. */
static dg_status verify_part(dg_device *dev, const dg_variant *v, const dg_verify_case *c,
                             const int *part, int nparts, int rank, unsigned flags,
                             const double *qg,
                             const double *ref, double *num, double *den, double *pack_diff) {
  dg_status st = DG_OK;
  dg_dist_mesh *d = NULL;
  dg_geom *geom = NULL;
  dg_maxwell *phys = NULL;
  dg_cl_maxwell *op = NULL;
  int *send_slot = NULL, *recv_slot = NULL;
  double *q = NULL, *rhs = NULL, *expect = NULL, *incoming = NULL;
  void *sbuf = NULL, *rbuf = NULL;
  const int Np = c->ref->Np, Kg = c->mesh->K;
  DG_CALL(dg_dist_mesh_create(&d, c->mesh, nparts, part, rank));
  const dg_mesh *m = d->mesh;
  const int K = m->K, Ko = m->K_owned;
  DG_CALL_GOTO(done, dg_geom_create(&geom, m, c->ref));
  DG_CALL_GOTO(done, dg_maxwell_create(&phys, geom));
  for (int k = 0; k < K; ++k) {
    const int g = d->l2g[k];
    phys->eps[k] = c->phys->eps[g];
    phys->mu[k] = c->phys->mu[g];
    phys->sigma[k] = c->phys->sigma[g];
    for (int f = 0; f < 4; ++f) /* same vertex order as the global element */
      phys->bc[4 * k + f] = k < Ko ? c->phys->bc[4 * g + f] : DG_BC_NONE;
  }
  DG_CALL_GOTO(done, dg_dist_slots(d, Np, c->ref->Nfp, c->ref->Fmask, &send_slot, &recv_slot));
  const size_t n = 6 * (size_t)d->nface * (size_t)c->ref->Nfp;
  const size_t nq = 6 * (size_t)K * Np, KNp = (size_t)K * Np;
  DG_CALL_GOTO(done, DG_ALLOC(q, nq));
  DG_CALL_GOTO(done, DG_ALLOC(rhs, nq));
  /* The owned elements' fields are the global ones; the ghosts' are scrambled, so only the
   * traces the unpack kernel writes can make their faces right. */
  for (size_t i = 0; i < nq; ++i) {
    const size_t f = i / KNp, k = i % KNp / (size_t)Np, node = i % (size_t)Np;
    const double x = qg[f * (size_t)Kg * Np + (size_t)d->l2g[k] * Np + node];
    q[i] = (int)k < Ko ? x : 3.0 - 2.0 * x;
  }
  DG_CALL_GOTO(done, dg_cl_maxwell_create(&op, dev, phys, v, NULL));
  halo_emu h = {0};
  if (n) {
    const size_t rs = v->precision == DG_PREC_DOUBLE ? sizeof(double) : sizeof(float);
    DG_CALL_GOTO(done, DG_ALLOC(expect, n));
    DG_CALL_GOTO(done, DG_ALLOC(incoming, n));
    sbuf = calloc(n, rs);
    rbuf = calloc(n, rs);
    DG_CHECK_GOTO(done, sbuf && rbuf, DG_ERR_MEMORY, "halo buffers: out of memory");
    for (size_t b = 0; b < n; ++b) {
      expect[b] = q[send_slot[b]];
      const size_t r = (size_t)recv_slot[b], f = r / KNp, k = r % KNp / (size_t)Np;
      incoming[b] = qg[f * (size_t)Kg * Np + (size_t)d->l2g[k] * Np + r % (size_t)Np];
    }
    h = (halo_emu){n, rs == sizeof(double), sbuf, rbuf, expect, incoming, 0.0, 0,
                   (flags & DG_VHALO_DROP) != 0};
    const dg_trace_exchange hh = {n, send_slot, recv_slot, sbuf, rbuf, emu_begin, emu_end, &h};
    DG_CALL_GOTO(done, dg_cl_maxwell_set_halo(op, &hh));
  }
  DG_CALL_GOTO(done, dg_cl_maxwell_rhs(op, 0.0, q, rhs));
  DG_CHECK_GOTO(done, !n || h.exchanges == 1, DG_ERR_INTERNAL,
                "part %d: %d exchanges in one RHS, expected 1", rank, h.exchanges);
  if (!(h.pack_diff <= *pack_diff)) *pack_diff = h.pack_diff;
  for (size_t i = 0; i < nq; ++i) {
    const size_t f = i / KNp, k = i % KNp / (size_t)Np, node = i % (size_t)Np;
    if ((int)k >= Ko) continue;
    const double r = ref[f * (size_t)Kg * Np + (size_t)d->l2g[k] * Np + node];
    *num += (rhs[i] - r) * (rhs[i] - r);
    *den += r * r;
  }
done:
  dg_cl_maxwell_destroy(&op);
  free(sbuf);
  free(rbuf);
  dg_free(&q);
  dg_free(&rhs);
  dg_free(&expect);
  dg_free(&incoming);
  dg_free(&send_slot);
  dg_free(&recv_slot);
  dg_maxwell_destroy(&phys);
  dg_geom_destroy(&geom);
  dg_dist_mesh_destroy(&d);
  return st;
}

dg_status dg_cl_verify_halo(dg_device *dev, const dg_variant *v, int N, int nparts, int run,
                            unsigned flags, uint64_t seed, double *rel_diff, double *pack_diff,
                            int *pass) {
  dg_status st = DG_OK;
  dg_verify_case *c = NULL;
  int *part = NULL;
  double *qg = NULL, *ref = NULL;
  *pass = 0;
  *rel_diff = INFINITY;
  *pack_diff = INFINITY;
  DG_CHECK(nparts >= 2 && run >= 1, DG_ERR_INPUT, "halo check: %d parts, runs of %d", nparts,
           run);
  DG_CALL(dg_verify_case_create(&c, N, 2));
  const int Kg = c->mesh->K, Np = c->ref->Np;
  DG_CALL_GOTO(done, DG_ALLOC(part, Kg));
  for (int k = 0; k < Kg; ++k) part[k] = (k / run) % nparts;
  const size_t nq = 6 * (size_t)Kg * Np;
  DG_CALL_GOTO(done, DG_ALLOC(qg, nq));
  DG_CALL_GOTO(done, DG_ALLOC(ref, nq));
  dg_verify_random_fields(seed, nq, qg);
  dg_maxwell_rhs(c->phys, 0.0, qg, NULL, ref);
  double num = 0, den = 0, pd = 0;
  for (int r = 0; r < nparts; ++r)
    DG_CALL_GOTO(done, verify_part(dev, v, c, part, nparts, r, flags, qg, ref, &num, &den, &pd));
  *rel_diff = den > 0 ? sqrt(num / den) : sqrt(num);
  *pack_diff = pd;
  /* packing copies values: exact in double, one rounding in float */
  const double tol = dg_verify_tolerance(v->precision);
  const double pack_tol = v->precision == DG_PREC_DOUBLE ? 0.0 : 1e-7;
  *pass = *rel_diff <= tol && pd <= pack_tol;
  if (!*pass) {
    char spec[DG_VARIANT_SPEC_MAX];
    st = DG_ERROR(DG_ERR_NUMERIC,
                  "variant '%s' failed the halo check at N=%d (%d parts, runs of %d): relative "
                  "L2 difference %.3e (tolerance %.0e), packed traces off by %.3e",
                  dg_variant_print(v, spec, sizeof spec), N, nparts, run, *rel_diff, tol, pd);
  }
done:
  dg_free(&part);
  dg_free(&qg);
  dg_free(&ref);
  dg_verify_case_destroy(&c);
  return st;
}

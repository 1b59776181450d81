/* The reference stepper: dg_maxwell_rhs in every LSERK4 stage, in double precision on the
 * host. On several ranks the ghosts' face traces are exchanged before each RHS, without
 * overlap: the reference is for checking, not for speed. */
#include <string.h>

#include "core/alloc.h"
#include "dg/lserk.h"
#include "dg/pml.h"
#include "dg/stepper.h"

typedef struct {
  dg_maxwell *phys; /* borrowed; its scratch is used */
  dg_trace_exchange halo; /* n = 0 on one process */
  size_t n;     /* 6 K Np */
  size_t n_all; /* n + the auxiliary state (the PML's fields, the poles' states), stored
                   after the fields */
  double *q, *res, *rhs;
} ref_stepper;

static dg_status ref_rhs(void *ctx, double t, const double *q, double *rhs) {
  ref_stepper *r = ctx;
  const dg_trace_exchange *h = &r->halo;
  if (h->n) {
    double *send = h->send, *recv = h->recv, *qw = (double *)q; /* q is r->q */
    for (size_t b = 0; b < h->n; ++b) send[b] = q[h->send_slot[b]];
    DG_CALL(h->begin(h->ctx));
    DG_CALL(h->end(h->ctx));
    for (size_t b = 0; b < h->n; ++b) qw[h->recv_slot[b]] = recv[b];
  }
  if (r->n_all > r->n)
    dg_maxwell_rhs_aux(r->phys, t, q, NULL, q + r->n, rhs, rhs + r->n);
  else
    dg_maxwell_rhs(r->phys, t, q, NULL, rhs);
  return DG_OK;
}

static dg_status ref_step(void *impl, double t, double dt) {
  ref_stepper *r = impl;
  DG_CALL(dg_lserk_step(r->n_all, r->q, r->res, r->rhs, t, dt, ref_rhs, r));
  return DG_OK;
}

static dg_status ref_get_state(void *impl, double *q) {
  const ref_stepper *r = impl;
  memcpy(q, r->q, r->n * sizeof *q);
  return DG_OK;
}

static dg_status ref_put_state(void *impl, const double *q) {
  ref_stepper *r = impl;
  memcpy(r->q, q, r->n * sizeof *q);
  memset(r->q + r->n, 0, (r->n_all - r->n) * sizeof *r->q); /* the PML, poles at rest */
  memset(r->res, 0, r->n_all * sizeof *r->res);
  return DG_OK;
}

static dg_status ref_get_aux(void *impl, double *w) {
  const ref_stepper *r = impl;
  memcpy(w, r->q + r->n, (r->n_all - r->n) * sizeof *w);
  return DG_OK;
}

static dg_status ref_put_aux(void *impl, const double *w) {
  ref_stepper *r = impl;
  memcpy(r->q + r->n, w, (r->n_all - r->n) * sizeof *w);
  memset(r->res + r->n, 0, (r->n_all - r->n) * sizeof *r->res);
  return DG_OK;
}

static dg_status ref_energy(void *impl, double *e) {
  const ref_stepper *r = impl;
  *e = dg_maxwell_energy_aux(r->phys, r->q, r->n_all > r->n ? r->q + r->n : NULL);
  return DG_OK;
}

static void ref_destroy(void *impl) {
  ref_stepper *r = impl;
  if (!r) return;
  dg_free(&r->q);
  dg_free(&r->res);
  dg_free(&r->rhs);
  dg_free(&r);
}

static const dg_stepper_ops ref_ops = {ref_step,   ref_get_state, ref_put_state, NULL,
                                       ref_energy, ref_destroy,   ref_get_aux,   ref_put_aux};

dg_status dg_stepper_ref_create(dg_stepper **out, dg_maxwell *phys, const dg_trace_exchange *halo) {
  dg_status st = DG_OK;
  ref_stepper *r = NULL;
  DG_CALL(DG_ALLOC(r, 1));
  r->phys = phys;
  if (halo) r->halo = *halo;
  r->n = DG_NFIELDS * (size_t)phys->geom->K * phys->geom->Np;
  r->n_all = r->n + dg_maxwell_aux_size(phys);
  DG_CALL_GOTO(fail, DG_ALLOC(r->q, r->n_all));
  DG_CALL_GOTO(fail, DG_ALLOC(r->res, r->n_all));
  DG_CALL_GOTO(fail, DG_ALLOC(r->rhs, r->n_all));
  DG_CALL(dg_stepper_wrap(out, &ref_ops, r));
  return DG_OK;
fail:
  ref_destroy(r);
  return st;
}

/* The OpenCL stepper: dg/stepper.h over a dg_cl_maxwell operator. Steps are only queued;
 * get_state and finish wait for them. */
#include "backend/cl_maxwell.h"

static dg_status cl_step(void *impl, double t, double dt) {
  DG_CALL(dg_cl_maxwell_step(impl, t, dt));
  return DG_OK;
}

static dg_status cl_get_state(void *impl, double *q) {
  DG_CALL(dg_cl_maxwell_get_state(impl, q));
  return DG_OK;
}

static dg_status cl_put_state(void *impl, const double *q) {
  DG_CALL(dg_cl_maxwell_set_state(impl, q));
  return DG_OK;
}

static dg_status cl_finish(void *impl) {
  DG_CALL(dg_cl_maxwell_finish(impl));
  return DG_OK;
}

/* The fields' energy on the device plus the poles' (dg_maxwell_energy_aux). */
static dg_status cl_energy(void *impl, double *e) {
  double poles = 0;
  DG_CALL(dg_cl_maxwell_energy(impl, e));
  DG_CALL(dg_cl_maxwell_pole_energy(impl, &poles));
  *e += poles;
  return DG_OK;
}

static dg_status cl_get_aux(void *impl, double *w) {
  DG_CALL(dg_cl_maxwell_get_aux(impl, w));
  return DG_OK;
}

static dg_status cl_put_aux(void *impl, const double *w) {
  DG_CALL(dg_cl_maxwell_set_aux(impl, w));
  return DG_OK;
}

static void cl_destroy(void *impl) {
  dg_cl_maxwell *op = impl;
  dg_cl_maxwell_destroy(&op);
}

static const dg_stepper_ops cl_ops = {cl_step,   cl_get_state, cl_put_state, cl_finish,
                                      cl_energy, cl_destroy,   cl_get_aux,   cl_put_aux};

dg_status dg_stepper_cl_create(dg_stepper **out, dg_cl_maxwell *op) {
  DG_CALL(dg_stepper_wrap(out, &cl_ops, op));
  return DG_OK;
}

#include "dg/stepper.h"

#include "core/alloc.h"

struct dg_stepper {
  const dg_stepper_ops *ops;
  void *impl;
};

dg_status dg_stepper_wrap(dg_stepper **out, const dg_stepper_ops *ops, void *impl) {
  *out = NULL;
  dg_stepper *s = NULL;
  const dg_status st = DG_ALLOC(s, 1);
  if (st != DG_OK) {
    ops->destroy(impl);
    return dg_error_trace(st, __FILE__, __LINE__, __func__, "DG_ALLOC(s, 1)");
  }
  s->ops = ops;
  s->impl = impl;
  *out = s;
  return DG_OK;
}

dg_status dg_stepper_step(dg_stepper *s, double t, double dt) {
  DG_CALL(s->ops->step(s->impl, t, dt));
  return DG_OK;
}

dg_status dg_stepper_get_state(dg_stepper *s, double *q) {
  DG_CALL(s->ops->get_state(s->impl, q));
  return DG_OK;
}

dg_status dg_stepper_put_state(dg_stepper *s, const double *q) {
  DG_CALL(s->ops->put_state(s->impl, q));
  return DG_OK;
}

dg_status dg_stepper_get_aux(dg_stepper *s, double *w) {
  DG_CHECK(s->ops->get_aux, DG_ERR_UNSUPPORTED,
           "this time stepper keeps no auxiliary state (PML fields, pole states) to save");
  DG_CALL(s->ops->get_aux(s->impl, w));
  return DG_OK;
}

dg_status dg_stepper_put_aux(dg_stepper *s, const double *w) {
  DG_CHECK(s->ops->put_aux, DG_ERR_UNSUPPORTED,
           "this time stepper keeps no auxiliary state (PML fields, pole states) to restore");
  DG_CALL(s->ops->put_aux(s->impl, w));
  return DG_OK;
}

dg_status dg_stepper_energy(dg_stepper *s, double *e) {
  DG_CALL(s->ops->energy(s->impl, e));
  return DG_OK;
}

dg_status dg_stepper_finish(dg_stepper *s) {
  if (s->ops->finish) DG_CALL(s->ops->finish(s->impl));
  return DG_OK;
}

void dg_stepper_destroy(dg_stepper **ps) {
  dg_stepper *s = *ps;
  if (!s) return;
  s->ops->destroy(s->impl);
  dg_free(ps);
}

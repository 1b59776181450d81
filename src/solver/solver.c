/* The backend registry and the solver object of solver/solver.h: each call looks its backend
 * up and hands over to its entry (solver/backend_ref.c, solver/backend_opencl.c); host DFT
 * sums, which any backend without its own can use, are here. */
#include "solver/solver.h"

#include <string.h>

#include "core/alloc.h"
#include "core/clock.h"
#include "solver/solver_impl.h"

/* In dg_backend order: the backends, and the words the case file and --backend take. */
static const dg_backend_ops *const registry[DG_BACKEND_COUNT] = {&dg_backend_opencl_ops,
                                                                 &dg_backend_ref_ops};
const char *const dg_backend_names[DG_BACKEND_COUNT + 1] = {"opencl", "ref", NULL};

static const dg_backend_ops *ops_of(dg_backend b) {
  return registry[(unsigned)b < DG_BACKEND_COUNT ? b : DG_BACKEND_DEFAULT];
}

int dg_backend_find(const char *name) {
  for (int i = 0; i < DG_BACKEND_COUNT; ++i)
    if (!strcmp(name, dg_backend_names[i])) return i;
  return -1;
}

const char *dg_backend_name(dg_backend b) {
  return dg_backend_names[(unsigned)b < DG_BACKEND_COUNT ? b : DG_BACKEND_DEFAULT];
}
int dg_backend_uses_device(dg_backend b) { return ops_of(b)->uses_device; }

dg_precision dg_backend_precision(dg_backend b, dg_precision asked) {
  return ops_of(b)->has_float && asked == DG_PREC_FLOAT ? DG_PREC_FLOAT : DG_PREC_DOUBLE;
}

void dg_solver_memory_need(const dg_solver_options *o, double K, int N, double *host,
                           double *dev) {
  dg_backend_memory_need(ops_of(o->backend), o, K, N, host, dev);
}

double dg_solver_stage_cost(const dg_solver_options *o) {
  const dg_backend_ops *b = ops_of(o->backend);
  return b->stage_cost ? b->stage_cost(o) : 0;
}

double dg_solver_dense_cost(const dg_solver_options *o) { return ops_of(o->backend)->dense_cost; }

dg_status dg_solver_create(dg_solver **out, const dg_solver_options *o,
                           const dg_solver_comm *comm) {
  *out = NULL;
  dg_solver *sv = NULL;
  DG_CALL(DG_ALLOC(sv, 1));
  sv->b = ops_of(o->backend);
  sv->o = *o;
  sv->comm = *comm;
  if (sv->b->create) {
    const dg_status st = sv->b->create(sv);
    if (st != DG_OK) {
      dg_free(&sv);
      return dg_error_trace(st, __FILE__, __LINE__, __func__, "sv->b->create(sv)");
    }
  }
  *out = sv;
  return DG_OK;
}

dg_status dg_solver_start(dg_solver *sv, const dg_solver_problem *p) {
  DG_CHECK(!sv->started, DG_ERR_INTERNAL, "dg_solver_start: the solver is started already");
  sv->started = 1;
  DG_CALL(sv->b->start(sv, p));
  return DG_OK;
}

const dg_solver_report *dg_solver_get_report(const dg_solver *sv) { return &sv->report; }

dg_stepper *dg_solver_stepper(const dg_solver *sv) { return sv ? sv->stepper : NULL; }

void dg_solver_programs(const dg_solver *sv, int *built, int *loaded) {
  *built = *loaded = 0;
  if (sv && sv->b->programs) sv->b->programs(sv, built, loaded);
}

int dg_solver_profile(dg_solver *sv, dg_kernel_profile *p) {
  return sv && sv->b->profile ? sv->b->profile(sv, p) : 0;
}

void dg_solver_destroy(dg_solver **sv) {
  if (!*sv) return;
  dg_stepper_destroy(&(*sv)->stepper);
  if ((*sv)->b->destroy) (*sv)->b->destroy(*sv);
  dg_free(sv);
}

/* DFT sums: the backend's (impl set) or the host's from the stepper's state. */
struct dg_solver_dft {
  const dg_backend_ops *b;
  void *impl;
  int acc_double;
  dg_solver *sv;
  dg_dft *d;
  double *host_state;
  double host_s; /* host sums: wall time spent fetching and summing */
};

dg_status dg_solver_dft_create(dg_solver_dft **out, dg_solver *sv, dg_dft *d,
                               double *host_state) {
  *out = NULL;
  DG_CHECK(sv->stepper, DG_ERR_INTERNAL, "DFT sums before the solver was started");
  dg_solver_dft *h = NULL;
  DG_CALL(DG_ALLOC(h, 1));
  h->b = sv->b, h->sv = sv, h->d = d, h->host_state = host_state;
  dg_status st = DG_OK;
  if (sv->b->dft_create && d->nsamp > 0) st = sv->b->dft_create(sv, d, &h->impl, &h->acc_double);
  else st = dg_dft_start(d);
  if (st != DG_OK) {
    dg_free(&h);
    return dg_error_trace(st, __FILE__, __LINE__, __func__, "creating the DFT sums");
  }
  *out = h;
  return DG_OK;
}

dg_status dg_solver_dft_accumulate(dg_solver_dft *h, double t) {
  if (h->impl) {
    DG_CALL(h->b->dft_accumulate(h->impl, t));
    return DG_OK;
  }
  const double t0 = dg_now_s();
  DG_CALL(dg_stepper_get_state(h->sv->stepper, h->host_state));
  DG_CALL(dg_dft_accumulate(h->d, h->host_state, t));
  h->host_s += dg_now_s() - t0;
  return DG_OK;
}

dg_status dg_solver_dft_fetch(dg_solver_dft *h, double *seconds) {
  *seconds = 0;
  if (!h) return DG_OK;
  if (h->impl) {
    DG_CALL(h->b->dft_fetch(h->impl, seconds));
    return DG_OK;
  }
  *seconds = h->host_s;
  return DG_OK;
}

int dg_solver_dft_acc_double(const dg_solver_dft *h) { return h->impl ? h->acc_double : 0; }

void dg_solver_dft_destroy(dg_solver_dft **h) {
  if (!*h) return;
  if ((*h)->impl) (*h)->b->dft_destroy(&(*h)->impl);
  dg_free(h);
}

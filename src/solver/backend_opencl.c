/* The OpenCL backend of the interface (solver/solver.h): the device (device/), the kernel
 * variant (tune/choose.c: forced, cached, tuned or the device default; rank 0 chooses and
 * broadcasts it), the generated operator (backend/cl_maxwell.h; grouped by rate level for
 * multirate), verified against the reference (backend/verify.h) before it runs, the MPI halo
 * on the device, the global (backend/cl_stepper.c) or multirate (backend/cl_multirate.h)
 * stepper, and DFT sums on the device (backend/cl_dft.h). */
#include <stdio.h>

#include "backend/cl_dft.h"
#include "backend/cl_maxwell.h"
#include "backend/cl_multirate.h"
#include "backend/verify.h"
#include "core/alloc.h"
#include "core/log.h"
#include "device/binary_cache.h"
#include "solver/solver_impl.h"

typedef struct {
  dg_device *dev;
  dg_binary_cache binaries;  /* compiled programs kept between runs */
  dg_cl_maxwell *op;         /* inside the stepper (borrowed): the DFT kernels' state */
} cl_backend;

/* The type of the device a run would open (CPU when none is found: the run says why). */
static double cl_stage_cost(const dg_solver_options *o) {
  dg_device_info *list = NULL;
  int n = 0, i = -1;
  cl_device_type type = CL_DEVICE_TYPE_CPU;
  if (dg_device_list(&list, &n) == DG_OK && n > 0 &&
      dg_device_select(list, n, o->device && o->device[0] ? o->device : NULL, &i) == DG_OK)
    type = list[i].type;
  dg_error_clear(); /* no device: the run itself will say so */
  dg_free(&list);
  return dg_cl_multirate_stage_cost(type);
}

static dg_status cl_create(dg_solver *sv) {
  cl_backend *cl = NULL;
  DG_CALL(DG_ALLOC(cl, 1));
  sv->impl = cl;
  return DG_OK;
}

/* The variant: rank 0 chooses (so only one process tunes and writes the cache) and the
 * others take its spec. */
static dg_status choose_variant(dg_solver *sv, const dg_solver_problem *p, dg_variant *v) {
  const dg_solver_options *o = &sv->o;
  cl_backend *cl = sv->impl;
  dg_solver_report *r = &sv->report;
  char spec[DG_VARIANT_SPEC_MAX] = "";
  dg_status st = DG_OK;
  if (sv->comm.rank == 0) {
    /* The run's size and length: its bucket, and how much tuning it can pay for. */
    const dg_tune_choice how = {.spec = o->variant, .precision = o->precision, .mode = o->tune,
                                .budget_s = o->tune_budget, .log = o->tune_log,
                                .K = p->K, .pml_K = p->phys->pml_K, .steps = p->steps};
    dg_tune_chosen chosen;
    st = dg_tune_choose(cl->dev, p->N, &how, &chosen);
    if (st == DG_OK) {
      *v = chosen.v;
      r->tuned = chosen.tuned;
      snprintf(r->variant_source, sizeof r->variant_source, "%s", chosen.source);
      dg_variant_print(v, spec, sizeof spec);
    }
  }
  if (sv->comm.size > 1) {
    DG_CALL(sv->comm.share_status(sv->comm.ctx, st, "choosing the kernel variant"));
    DG_CALL(sv->comm.bcast(sv->comm.ctx, spec, (int)sizeof spec));
    if (sv->comm.rank != 0) {
      DG_CALL(dg_variant_parse(spec, v));
      snprintf(r->variant_source, sizeof r->variant_source, "rank 0's choice");
    }
  }
  DG_CALL(st);
  return DG_OK;
}

/* Device, variant, operator; the variant is verified against the reference before it runs. */
static dg_status cl_start(dg_solver *sv, const dg_solver_problem *p) {
  const dg_solver_options *o = &sv->o;
  cl_backend *cl = sv->impl;
  dg_solver_report *r = &sv->report;
  const char *dump = o->dump_dir && o->dump_dir[0] ? o->dump_dir : NULL;
  char node_spec[32] = "";
  dg_variant v;
  dg_cl_maxwell *op = NULL;
  int pass = 0;
  /* multirate refuses curved elements: before a device or tuning */
  DG_CALL(dg_cl_maxwell_check_curved(p->n_curved, p->multirate));
  if (sv->comm.node_device) DG_CALL(sv->comm.node_device(sv->comm.ctx, node_spec, sizeof node_spec));
  DG_CALL(dg_device_create(&cl->dev, o->device && o->device[0] ? o->device
                                     : node_spec[0]            ? node_spec
                                                               : NULL));
  double need_host, need_dev;
  dg_backend_memory_need(&dg_backend_opencl_ops, o, p->K, p->N, &need_host, &need_dev);
  DG_CHECK(need_dev <= (double)cl->dev->info.global_mem_size, DG_ERR_INPUT,
           "%s: this run needs about %.1f GB of device memory (%d elements at order %d in %s) and "
           "'%s' has %.1f GB: use a coarser mesh, a lower order, float, or more MPI ranks",
           o->source, need_dev / 1e9, p->K, p->N, dg_precision_name(o->precision),
           cl->dev->info.name, (double)cl->dev->info.global_mem_size / 1e9);
  dg_binary_cache_init(&cl->binaries, NULL);
  cl->dev->binaries = &cl->binaries;
  snprintf(r->device, sizeof r->device, "%d:%d %s", cl->dev->info.P, cl->dev->info.D,
           cl->dev->info.name);
  DG_CALL(choose_variant(sv, p, &v));
  dg_variant_print(&v, r->variant, sizeof r->variant);
  r->precision = v.precision;
  if (p->multirate) /* each rate level a contiguous range of the layout */
    DG_CALL(dg_cl_maxwell_create_grouped(&op, cl->dev, p->phys, &v, dump, p->level,
                                         p->n_levels));
  else
    DG_CALL(dg_cl_maxwell_create(&op, cl->dev, p->phys, &v, dump));
  if (cl->binaries.warning[0]) dg_warn("%s", cl->binaries.warning);
  /* Never run an unverified variant: its RHS on random fields against the reference, at a
   * time when the sources are on (p->t_verify) so their kernels are checked too; before the
   * exchange is installed (this compares one rank's operator on its own). */
  dg_status st = dg_cl_verify_op_at(op, p->phys, p->t_verify, 20261121, &r->verify_rel_diff, &pass);
  if (st == DG_OK && sv->comm.size > 1) {
    dg_trace_exchange h;
    const dg_trace_exchange *halo;
    st = dg_solver_halo(sv, v.precision == DG_PREC_DOUBLE ? 8 : 4, &h, &halo);
    if (st == DG_OK) st = dg_cl_maxwell_set_halo(op, halo);
  }
  if (st != DG_OK) {
    dg_cl_maxwell_destroy(&op);
    return dg_error_trace(st, __FILE__, __LINE__, __func__, "verifying the operator");
  }
  cl->op = op; /* for the DFT kernels; the stepper owns it (also when its creation fails) */
  if (p->multirate)
    DG_CALL(dg_stepper_cl_multirate_create(&sv->stepper, op, p->level, p->n_levels, p->scheme,
                                           p->rhs_evals, NULL));
  else
    DG_CALL(dg_stepper_cl_create(&sv->stepper, op));
  return DG_OK;
}

static dg_status cl_dft_create(dg_solver *sv, dg_dft *d, void **impl, int *acc_double) {
  cl_backend *cl = sv->impl;
  dg_cl_dft *cd = NULL;
  DG_CALL(dg_cl_dft_create(&cd, cl->op, d, -1,
                           sv->o.dump_dir && sv->o.dump_dir[0] ? sv->o.dump_dir : NULL));
  *acc_double = dg_cl_dft_acc_double(cd);
  *impl = cd;
  return DG_OK;
}

static dg_status cl_dft_accumulate(void *impl, double t) {
  DG_CALL(dg_cl_dft_accumulate(impl, t));
  return DG_OK;
}

static dg_status cl_dft_fetch(void *impl, double *seconds) {
  DG_CALL(dg_cl_dft_fetch(impl));
  DG_CALL(dg_cl_dft_kernel_seconds(impl, seconds));
  return DG_OK;
}

static void cl_dft_destroy(void **impl) {
  dg_cl_dft *cd = *impl;
  dg_cl_dft_destroy(&cd);
  *impl = NULL;
}

static void cl_programs(const dg_solver *sv, int *built, int *loaded) {
  const cl_backend *cl = sv->impl;
  *built = cl->binaries.misses;
  *loaded = cl->binaries.loads;
}

static int cl_profile(dg_solver *sv, dg_kernel_profile *p) {
  cl_backend *cl = sv->impl;
  if (!cl->dev) return 0;
  cl->dev->profile = p;
  return 1;
}

static void cl_destroy(dg_solver *sv) {
  cl_backend *cl = sv->impl;
  if (!cl) return;
  dg_device_destroy(&cl->dev);
  dg_free(&cl);
  sv->impl = NULL;
}

const dg_backend_ops dg_backend_opencl_ops = {
    .uses_device = 1,
    .has_float = 1,
    .device_reals_per_node = 30,
    .dense_cost = DG_CL_MULTIRATE_DENSE_COST,
    .stage_cost = cl_stage_cost,
    .create = cl_create,
    .start = cl_start,
    .dft_create = cl_dft_create,
    .dft_accumulate = cl_dft_accumulate,
    .dft_fetch = cl_dft_fetch,
    .dft_destroy = cl_dft_destroy,
    .programs = cl_programs,
    .profile = cl_profile,
    .destroy = cl_destroy,
};

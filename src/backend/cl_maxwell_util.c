/* cl_maxwell_util.c: what the OpenCL operator's terms (cl_term.h) and the operator itself
 * share: buffers of the operator's precision, kernels made from the kernel table
 * (cl_kernels.h) with their arguments set by the table's names, launches and their timing,
 * and a stage's coefficients. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cl_maxwell_impl.h"
#include "core/alloc.h"

/* ---- buffers ---------------------------------------------------------------------------- */
dg_status dg_clm_upload(dg_cl_maxwell *op, const double *x, size_t n, cl_mem *out) {
  dg_status st = DG_OK;
  void *tmp = NULL;
  DG_CALL(dg_calloc(&tmp, n, op->rs));
  for (size_t i = 0; i < n; ++i) dg_clm_put(op, tmp, i, x[i]);
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, n * op->rs, tmp, out));
done:
  free(tmp);
  return st;
}

dg_status dg_clm_upload_ints(dg_cl_maxwell *op, const int *x, size_t n, cl_mem *out) {
  DG_CALL(dg_buffer_create(op->dev, CL_MEM_READ_ONLY, n * sizeof(int), x, out));
  return DG_OK;
}

dg_status dg_clm_zeros(dg_cl_maxwell *op, size_t n, cl_mem *out) {
  void *zeros = NULL;
  DG_CALL(dg_calloc(&zeros, n, op->rs));
  const dg_status st = dg_buffer_create(op->dev, CL_MEM_READ_WRITE, n * op->rs, zeros, out);
  free(zeros);
  DG_CALL(st);
  return DG_OK;
}

dg_status dg_clm_put_reals(dg_cl_maxwell *op, cl_mem buf, size_t n, const double *x,
                           dg_clm_index_map map, const void *ctx) {
  dg_status st = DG_OK;
  void *h = NULL;
  DG_CALL(dg_calloc(&h, n, op->rs));
  if (x)
    for (size_t i = 0; i < n; ++i) dg_clm_put(op, h, map ? map(ctx, i) : i, x[i]);
  st = dg_buffer_write(op->dev, buf, 0, n * op->rs, h);
  free(h);
  DG_CALL(st);
  return DG_OK;
}

dg_status dg_clm_get_reals(dg_cl_maxwell *op, cl_mem buf, size_t n, double *x,
                           dg_clm_index_map map, const void *ctx) {
  dg_status st = DG_OK;
  void *h = NULL;
  DG_CALL(dg_calloc(&h, n, op->rs));
  st = dg_buffer_read(op->dev, buf, 0, n * op->rs, h);
  if (st == DG_OK)
    for (size_t i = 0; i < n; ++i) x[i] = dg_clm_get(op, h, map ? map(ctx, i) : i);
  free(h);
  DG_CALL(st);
  return DG_OK;
}

/* The stage coefficients' parameter names, in the order of dg_cl_maxwell.coef_arg. */
static const char *const coef_names[5] = {"rk_a", "rk_dt", "rk_b", "sa", "sb"};

/* ---- kernels ---------------------------------------------------------------------------- */

dg_status dg_clm_set_real_arg(const dg_cl_maxwell *op, cl_kernel k, cl_uint i, double x) {
  if (op->rs == 8) return DG_KERNEL_ARG(k, i, x);
  const float f = (float)x;
  return DG_KERNEL_ARG(k, i, f);
}

static dg_status clear_args(dg_cl_maxwell *op, dg_clk_id id) {
  const dg_clk_info *info = dg_clk_info_of(id);
  const cl_mem none = NULL;
  const int zero = 0;
  for (int i = 0; i < info->n_args; ++i) {
    const cl_uint a = (cl_uint)i;
    switch (info->args[i].type) {
    case DG_CLK_MEM: DG_CALL(DG_KERNEL_ARG(op->k[id], a, none)); break;
    case DG_CLK_INT: DG_CALL(DG_KERNEL_ARG(op->k[id], a, zero)); break;
    case DG_CLK_REAL: DG_CALL(dg_clm_set_real_arg(op, op->k[id], a, 0.0)); break;
    case DG_CLK_REAL16: /* set before every launch (the sources' pulses) */
    case DG_CLK_VEC: break;
    }
  }
  return DG_OK;
}

dg_status dg_clm_make_kernel(dg_cl_maxwell *op, dg_clk_id id) {
  char suffix[16];
  dg_variant_kernel_suffix(&op->v, suffix, sizeof suffix);
  snprintf(op->kname[id], sizeof op->kname[id], "%.12s_%s", dg_clk_info_of(id)->name, suffix);
  DG_CALL(dg_kernel_create(op->prog, op->kname[id], &op->k[id]));
  for (int c = 0; c < 5; ++c)
    op->coef_arg[id][c] = (signed char)dg_clk_arg_index(id, coef_names[c]);
  DG_CALL(clear_args(op, id));
  return DG_OK;
}

dg_status dg_clm_bind_named(dg_cl_maxwell *op, const char *param, cl_mem m) {
  for (int id = 0; id < DG_CLK_COUNT; ++id) {
    const int a = op->k[id] ? dg_clk_arg_index((dg_clk_id)id, param) : -1;
    if (a >= 0) DG_CALL(DG_KERNEL_ARG(op->k[id], (cl_uint)a, m));
  }
  return DG_OK;
}

/* ---- launches --------------------------------------------------------------------------- */

void dg_clm_time_entry(dg_cl_stage_timing *t, const char *name, cl_ulong ns) {
  if (t->n < DG_CL_MAX_STAGE_KERNELS) {
    snprintf(t->name[t->n], sizeof t->name[t->n], "%s", name);
    t->ns[t->n++] = ns;
  }
  t->total_ns += ns; /* counted even when the list is full (many source batches) */
}

dg_status dg_clm_launch(dg_cl_maxwell *op, dg_clk_id id, cl_uint dims, const size_t *offset,
                        const size_t *global, const size_t *local, dg_cl_stage_timing *t) {
  cl_ulong ns = 0;
  DG_CALL(dg_kernel_run_at(op->dev, op->k[id], dims, offset, global, local, t ? &ns : NULL));
  if (t) dg_clm_time_entry(t, op->kname[id], ns);
  return DG_OK;
}

dg_status dg_clm_launch_items(dg_cl_maxwell *op, dg_clk_id id, size_t first, size_t n,
                              dg_cl_stage_timing *t) {
  const size_t g = dg_clm_items(n), l = WG1;
  DG_CALL(dg_clm_launch(op, id, 1, first ? &first : NULL, &g, &l, t));
  return DG_OK;
}

dg_status dg_clm_set_stage_coefs(dg_cl_maxwell *op, dg_clk_id id, const dg_clm_stage *s) {
  const int u = s->update;
  const double x[5] = {u ? s->a : 0.0, u ? s->dt : 1.0, u ? s->b : 0.0, u ? s->dt : 1.0,
                       u ? s->b * s->dt : 0.0};
  for (int c = 0; c < 5; ++c)
    if (op->coef_arg[id][c] >= 0)
      DG_CALL(dg_clm_set_real_arg(op, op->k[id], (cl_uint)op->coef_arg[id][c], x[c]));
  return DG_OK;
}


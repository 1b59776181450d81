/* cl_kernels.c: the kernel table of cl_kernels.h as data, and the work models' counts. */
#include "backend/cl_kernels.h"

#include <string.h>

#include "dg/lserk.h"

#define ARG_ROW_(P, NAME, param, type) {#param, DG_CLK_##type},
#define ARG_LIST_(P) static const dg_clk_arg args_##P[] = {DG_CLK_ARGS_##P(ARG_ROW_, P)};
DG_CLK_ARG_LISTS(ARG_LIST_)
#undef ARG_LIST_
#undef ARG_ROW_

static const dg_clk_info table[DG_CLK_COUNT] = {
#define ROW_(ID, name, tmpl, ARGS, WORK, PROG)                                               \
  [DG_CLK_##ID] = {#name, tmpl, args_##ARGS, (int)(sizeof args_##ARGS / sizeof args_##ARGS[0]), \
                   DG_KERNEL_##WORK, DG_CLK_PROG_##PROG},
    DG_CL_KERNELS(ROW_)
#undef ROW_
};

static const char *const work_names[DG_KERNEL_KINDS] = {
#define NAME_(ID, name, flops, bytes, ops) [DG_KERNEL_##ID] = #name,
    DG_CL_WORK(NAME_)
#undef NAME_
};

const dg_clk_info *dg_clk_info_of(dg_clk_id id) {
  return id >= 0 && id < DG_CLK_COUNT ? &table[id] : NULL;
}

int dg_clk_find(const char *name, const char *tmpl) {
  for (int i = 0; i < DG_CLK_COUNT; ++i)
    if (!strcmp(table[i].name, name) && (!tmpl || !strcmp(table[i].tmpl, tmpl))) return i;
  return -1;
}

int dg_clk_arg_index(dg_clk_id id, const char *param) {
  const dg_clk_info *k = dg_clk_info_of(id);
  for (int i = 0; k && i < k->n_args; ++i)
    if (!strcmp(k->args[i].param, param)) return i;
  return -1;
}

const char *dg_kernel_kind_name(dg_kernel_kind k) {
  return k >= 0 && k < DG_KERNEL_KINDS ? work_names[k] : work_names[DG_KERNEL_OTHER];
}

dg_kernel_kind dg_kernel_kind_of(const char *name) {
  const size_t len = strcspn(name, "_");
  if (!strncmp(name, "gemm_", 5)) { /* CLBlast's calls go by their own names */
    for (int k = 0; k < DG_KERNEL_KINDS; ++k)
      if (!strcmp(name, work_names[k])) return (dg_kernel_kind)k;
    return DG_KERNEL_OTHER;
  }
  if (name[len] != '_') return DG_KERNEL_OTHER; /* every kernel is <name>_<variant> */
  for (int i = 0; i < DG_CLK_COUNT; ++i)
    if (strlen(table[i].name) == len && !strncmp(table[i].name, name, len)) return table[i].work;
  return DG_KERNEL_OTHER;
}

double dg_kernel_flops(dg_kernel_kind k, int N) {
  const double np = dg_variant_np(N), nfp = dg_variant_nfp(N);
  switch (k) {
#define FLOPS_(ID, name, flops, bytes, ops) \
  case DG_KERNEL_##ID: return flops;
    DG_CL_WORK(FLOPS_)
#undef FLOPS_
  default: break;
  }
  (void)nfp;
  return 0;
}

double dg_kernel_bytes(dg_kernel_kind k, int N, dg_precision p) {
  const double rs = p == DG_PREC_DOUBLE ? 8 : 4;
  const double np = dg_variant_np(N), nfp = dg_variant_nfp(N), idx = 4.0 * 4.0 * nfp;
  switch (k) {
#define BYTES_(ID, name, flops, bytes, ops) \
  case DG_KERNEL_##ID: return bytes;
    DG_CL_WORK(BYTES_)
#undef BYTES_
  default: break;
  }
  return 0;
}

double dg_kernel_operator_bytes(dg_kernel_kind k, int N, dg_precision p) {
  const double rs = p == DG_PREC_DOUBLE ? 8 : 4;
  const double np = dg_variant_np(N), nfp = dg_variant_nfp(N);
  switch (k) {
#define OPS_(ID, name, flops, bytes, ops) \
  case DG_KERNEL_##ID: return ops;
    DG_CL_WORK(OPS_)
#undef OPS_
  default: break;
  }
  return 0;
}

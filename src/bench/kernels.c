/* Flops and fewest bytes of each kernel of an RK stage (bench/bench.h lists them). */
#include "bench/bench.h"

#include <string.h>

#include "dg/lserk.h"
#include "tune/counts.h"

static const char *const kind_names[DG_KERNEL_KINDS] = {
    "volume", "flux", "lift",        "liftupdate", "fluxlift",
    "update", "curl", "gemm_volume", "gemm_lift",  "rhs",
    "rhsres", "qupdate", "rhsstep", "qcopy", "pml", "other"};

dg_kernel_kind dg_kernel_kind_of(const char *name) {
  /* Kernel names are <op>_<variant> (cl_maxwell.c) or the GEMM's own name; the longest
   * matching prefix wins ("liftupdate_" before "lift_"). */
  if (!strncmp(name, "pml", 3)) return DG_KERNEL_PML; /* pml_<v>, pmlsave_<v> */
  int best = DG_KERNEL_OTHER;
  size_t best_len = 0;
  for (int k = 0; k < DG_KERNEL_PML; ++k) {
    const size_t len = strlen(kind_names[k]);
    const int gemm = k == DG_KERNEL_GEMM_VOLUME || k == DG_KERNEL_GEMM_LIFT;
    const int match = !strncmp(name, kind_names[k], len) &&
                      (gemm ? name[len] == '\0' || name[len] == '_' : name[len] == '_');
    if (match && len > best_len) best = k, best_len = len;
  }
  return (dg_kernel_kind)best;
}

const char *dg_kernel_kind_name(dg_kernel_kind k) {
  return k >= 0 && k < DG_KERNEL_KINDS ? kind_names[k] : "other";
}

double dg_kernel_flops(dg_kernel_kind k, int N) {
  const double np = dg_variant_np(N);
  /* The curl's pointwise part of the volume term: chain rule, curl and material terms
   * (the 78 Np of tune/counts.h's volume count); the GEMM does the rest. */
  const double pointwise = 78.0 * np;
  switch (k) {
  case DG_KERNEL_VOLUME: return dg_count_flops_volume(N);
  case DG_KERNEL_FLUX: return dg_count_flops_flux(N);
  case DG_KERNEL_LIFT: return dg_count_flops_lift(N);
  case DG_KERNEL_LIFTUPDATE: return dg_count_flops_lift(N) + dg_count_flops_update(N);
  case DG_KERNEL_FLUXLIFT: return dg_count_flops_flux(N) + dg_count_flops_lift(N);
  case DG_KERNEL_UPDATE: return dg_count_flops_update(N);
  case DG_KERNEL_CURL: return pointwise;
  case DG_KERNEL_GEMM_VOLUME: return dg_count_flops_volume(N) - pointwise;
  case DG_KERNEL_GEMM_LIFT: return dg_count_flops_lift(N);
  case DG_KERNEL_RHS:
    return dg_count_flops_volume(N) + dg_count_flops_flux(N) + dg_count_flops_lift(N);
  /* res = a res + dt rhs: 3 of the update's 5 flops per DOF */
  case DG_KERNEL_RHSRES:
    return dg_count_flops_volume(N) + dg_count_flops_flux(N) + dg_count_flops_lift(N) +
           18.0 * np;
  case DG_KERNEL_QUPDATE: return 12.0 * np; /* q += b res: 2 per DOF */
  case DG_KERNEL_RHSSTEP: /* rhsres and qupdate's flops in one kernel */
    return dg_count_flops_volume(N) + dg_count_flops_flux(N) + dg_count_flops_lift(N) +
           dg_count_flops_update(N);
  default: return 0;
  }
}

double dg_kernel_bytes(dg_kernel_kind k, int N, dg_precision p) {
  const double rs = p == DG_PREC_DOUBLE ? 8 : 4;
  const double np = dg_variant_np(N), nfp = dg_variant_nfp(N);
  const double idx = 4.0 * 4.0 * nfp; /* one 4-byte neighbour index per face node */
  switch (k) {
  case DG_KERNEL_VOLUME: return (12.0 * np + 12.0) * rs;
  case DG_KERNEL_FLUX: return (48.0 * nfp + 36.0) * rs + idx;
  case DG_KERNEL_LIFT: return (24.0 * nfp + 12.0 * np) * rs;
  case DG_KERNEL_LIFTUPDATE: return (24.0 * nfp + 30.0 * np) * rs;
  case DG_KERNEL_FLUXLIFT: return (24.0 * nfp + 36.0 + 12.0 * np) * rs + idx;
  case DG_KERNEL_UPDATE: return 30.0 * np * rs;
  case DG_KERNEL_CURL: return (27.0 * np + 12.0) * rs;
  case DG_KERNEL_GEMM_VOLUME: return 24.0 * np * rs;
  case DG_KERNEL_GEMM_LIFT: return (24.0 * nfp + 12.0 * np) * rs;
  case DG_KERNEL_RHS: return (12.0 * np + 48.0) * rs + idx;
  case DG_KERNEL_RHSRES: return (18.0 * np + 48.0) * rs + idx;
  case DG_KERNEL_QUPDATE: return 18.0 * np * rs;
  /* q and res read and written once: the stage's minimum (tune/counts.c) */
  case DG_KERNEL_RHSSTEP: return (24.0 * np + 48.0) * rs + idx;
  /* 6 Np reals read and written once per step of DG_LSERK_STAGES stages */
  case DG_KERNEL_QCOPY: return 12.0 * np * rs / DG_LSERK_STAGES;
  default: return 0;
  }
}

double dg_kernel_operator_bytes(dg_kernel_kind k, int N, dg_precision p) {
  const double rs = p == DG_PREC_DOUBLE ? 8 : 4;
  const double np = dg_variant_np(N), nfp = dg_variant_nfp(N);
  switch (k) {
  case DG_KERNEL_VOLUME:
  case DG_KERNEL_GEMM_VOLUME: return 3.0 * np * np * rs;
  case DG_KERNEL_LIFT:
  case DG_KERNEL_LIFTUPDATE:
  case DG_KERNEL_FLUXLIFT:
  case DG_KERNEL_GEMM_LIFT: return 4.0 * np * nfp * rs;
  case DG_KERNEL_RHS:
  case DG_KERNEL_RHSRES:
  case DG_KERNEL_RHSSTEP: return (3.0 * np * np + 4.0 * np * nfp) * rs;
  default: return 0;
  }
}

#include "tune/counts.h"

#include "backend/cl_kernels.h"

/* The terms' flops are the kernel table's work models (backend/cl_kernels.h); here is how each
 * is derived. Derivations follow the operations of the method (cl_templates/volume.cl, flux.cl and lift.cl
 * perform exactly these, plus padding work that is not counted). */

double dg_count_flops_volume(int N) {
  /* 6 fields x 3 reference derivatives = 18 mat-vecs of length Np: 18 * 2 Np^2. Per node:
   * 12 physical derivatives by the chain rule (3 mul + 2 add = 5 each) = 60; 6 curl
   * differences = 6; rhsE = curlH/eps - (sigma/eps) E: 3 flops x 3; rhsH = -curlE/mu:
   * 1 x 3. Total per node 60 + 6 + 9 + 3 = 78. */
  return dg_kernel_flops(DG_KERNEL_VOLUME, N); /* 36 Np^2 + 78 Np (backend/cl_kernels.h) */
}

double dg_count_flops_flux(int N) {
  /* Per face node: jumps with boundary factor dq = q+ - q- + bc q- (3 x 6 = 18); n x dE and
   * n x dH (9 + 9); a = cEH dH - cEE n x dE and b = -cHE dE - cHH n x dH (9 + 9); the
   * outer n x a and n x b (9 + 9). 72 per face node, 4 Nfp face nodes. */
  return dg_kernel_flops(DG_KERNEL_FLUX, N);
}

double dg_count_flops_lift(int N) {
  /* LIFT (Np x 4Nfp) times 6 flux fields: 6 * 2 Np * 4 Nfp = 48 Np Nfp; then rhs += lifted
   * term, 6 adds per node. */
  return dg_kernel_flops(DG_KERNEL_LIFT, N);
}

double dg_count_flops_update(int N) {
  /* res = a res + dt rhs (2 mul + 1 add), q = q + b res (1 mul + 1 add): 5 per DOF, 6 DOF
   * per node. */
  return dg_kernel_flops(DG_KERNEL_UPDATE, N);
}

double dg_count_flops_element(int N) {
  return dg_count_flops_volume(N) + dg_count_flops_flux(N) + dg_count_flops_lift(N) +
         dg_count_flops_update(N);
}

double dg_count_bytes_element(int N, dg_precision p) {
  const double rs = p == DG_PREC_DOUBLE ? 8 : 4;
  const double np = dg_variant_np(N), nfp = dg_variant_nfp(N);
  /* q and res: read + write = 4 x 6 Np reals; element data 12 reals; face data 4 x 9
   * reals; neighbour indices 4 Nfp ints. */
  return (24.0 * np + 12.0 + 36.0) * rs + 4.0 * 4.0 * nfp;
}

dg_stage_counts dg_count_stage(int N, dg_precision p, long K) {
  const double rs = p == DG_PREC_DOUBLE ? 8 : 4;
  const double np = dg_variant_np(N), nfp = dg_variant_nfp(N);
  dg_stage_counts c;
  c.flops = dg_count_flops_element(N) * (double)K;
  /* Dr, Ds, Dt (3 Np^2) and LIFT (4 Np Nfp) are read once per stage. */
  c.bytes = dg_count_bytes_element(N, p) * (double)K + (3.0 * np * np + 4.0 * np * nfp) * rs;
  c.dofs = 6.0 * np * (double)K;
  return c;
}

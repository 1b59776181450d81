/* energy_block.cl: energy.cl's per-element energy for the interleaved layouts (VL > 1),
 *   e_k = 1/2 J_k (eps_k sum_E u^T M u + mu_k sum_H u^T M u),
 * with one work-item per block of VL elements (EPW vreals of VW lanes, common.cl): the lanes
 * are elements and every load of u is a vector load. energy.cl's one work-item per element
 * reads the fields VL apart; on the Intel Xeon PoCL device it took 13.2 ms at N = 3 on
 * 24 576 elements in double (vw=8), this kernel 2.4 ms. Padding elements and ghost copies
 * (k >= k_owned) write 0; a non-finite value anywhere in an element makes its energy
 * non-finite. M is the reference mass matrix (NP x NP, row-major); ew holds 1/2 eps J and
 * 1/2 mu J per element, interleaved like the element data: (k / VL) * 2 VL + c VL + k % VL.
 * n_blocks: the blocks of out to write. */
__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(energy)(__global const real_t *restrict q, const int fs,
                   __global const real_t *restrict M, __global const real_t *restrict ew,
                   __global real_t *restrict out, const int k_owned, const int n_blocks) {
  const int blk = get_global_id(0);
  if (blk >= n_blocks) return;
  if (blk * VL >= k_owned) { /* padding only: q ends at the last block with an element */
    for (int l = 0; l < VL; ++l) out[blk * VL + l] = (real_t)0;
    return;
  }
  for (int e = 0; e < EPW; ++e) {
    const int k0 = blk * VL + e * VW; /* the element in lane 0 */
    vreal part[2] = {(vreal)(0), (vreal)(0)};
    for (int f = 0; f < 6; ++f) {
      __global const real_t *u = q + f * fs + blk * NPP * VL + e * VW;
      vreal uMu = (vreal)(0);
      /* Four rows of M u at a time: four independent sums instead of one chain of NP
       * dependent additions (latency-bound otherwise). Rows past NP repeat row NP-1 and
       * are not added. */
      for (int i0 = 0; i0 < NP; i0 += 4) {
        vreal a[4] = {(vreal)(0), (vreal)(0), (vreal)(0), (vreal)(0)};
        for (int j = 0; j < NP; ++j) {
          const vreal x = VLOAD(u + j * VL);
#pragma unroll
          for (int c = 0; c < 4; ++c) a[c] += M[min(i0 + c, NP - 1) * NP + j] * x;
        }
#pragma unroll
        for (int c = 0; c < 4; ++c)
          if (i0 + c < NP) uMu += VLOAD(u + (i0 + c) * VL) * a[c];
      }
      part[f / 3] += uMu;
    }
    __global const real_t *w = ew + blk * EW * VL + e * VW;
    VSTORE(VLOAD(w + EW_E * VL) * part[0] + VLOAD(w + EW_H * VL) * part[1], out + k0);
    for (int l = 0; l < VW; ++l)
      if (k0 + l >= k_owned) out[k0 + l] = (real_t)0;
  }
}

/* energy.cl: the discrete electromagnetic energy of each element,
 *   e_k = 1/2 J_k (eps_k sum_E u^T M u + mu_k sum_H u^T M u),
 * so the host's health check and energy log read K numbers instead of the whole state.
 * One work-item per element (padding elements and ghost copies write 0); a non-finite
 * value anywhere in an element makes its energy non-finite. M is the reference mass
 * matrix (NP x NP, row-major); ew holds 1/2 eps J and 1/2 mu J per element. */
__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(energy)(__global const real_t *restrict q, const int fs,
                   __global const real_t *restrict M, __global const real_t *restrict ew,
                   __global real_t *restrict out, const int k_owned) {
  const int k = get_global_id(0);
  if (k >= k_owned) {
    out[k] = (real_t)0;
    return;
  }
  /* Node n of element k in the interleaved field layout (common.cl). VL is a power of two;
   * the mask rather than k % VL keeps LLVM from pairing the division and remainder with a
   * `freeze` instruction, which Oclgrind cannot execute. */
  const int base = (k / VL) * NPP * VL + (k & (VL - 1));
  real_t e[2] = {(real_t)0, (real_t)0};
  for (int f = 0; f < 6; ++f) {
    __global const real_t *u = q + f * fs + base;
    real_t uMu = (real_t)0;
    for (int i = 0; i < NP; ++i) {
      real_t Mu = (real_t)0;
      for (int j = 0; j < NP; ++j) Mu += M[i * NP + j] * u[j * VL];
      uMu += u[i * VL] * Mu;
    }
    e[f / 3] += uMu;
  }
  out[k] = ew[EW * k + EW_E] * e[0] + ew[EW * k + EW_H] * e[1];
}

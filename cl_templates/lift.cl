/* lift.cl: the lift kernel, rhs += LIFT * flux over the 4 NFP face nodes of each element,
 * in one of three roles by LIFT_MODE (common.cl), each a kernel of the same signature:
 *   lift        (LIFT_SEPARATE)      the fluxes come from the flux kernel (flux.cl);
 *   liftupdate  (LIFT_FUSED_UPDATE)  the same, fused with the LSERK update
 *                                    res = rk_a res + rk_dt (rhs + lift), q += rk_b res;
 *   fluxlift    (LIFT_FUSED)         the fluxes are computed here (flux_point) into local
 *                                    memory first.
 * Arguments a role does not use are NULL or 0 (src/backend/cl_maxwell.c, LIFT_ARG_*).
 *
 * Work-item (n0, b) of an LWI x LKB work-group lifts nodes n0, n0 + LWI, ... (LNPW of them,
 * those < NP) of the VL elements of block blk: every flux value loaded feeds LNPW nodes.
 * LWI = ceil(NP / LNPW) comes from the host. */
#if LIFT_MODE != LIFT_FLUX_ONLY

#if DG_LITERAL_OPS
#define LIFT_SRC c_LIFTT
#else
#define LIFT_SRC LIFTT
#endif

__kernel __attribute__((reqd_work_group_size(LWI, LKB, 1)))
void KNAME(LIFT_KERNEL)(__global const real_t *restrict flux, const int ffs,
                        __global real_t *restrict rhs, __global const real_t *restrict LIFTT,
                        const int fs, __global real_t *restrict q, __global real_t *restrict res,
                        const real_t rk_a, const real_t rk_dt, const real_t rk_b,
                        __global const int *restrict vmapM, __global const int *restrict vmapP,
                        __global const real_t *restrict fdata,
                        __global const real_t *restrict xyz, const real_t t_inc) {
#if LIFT_MODE != LIFT_FUSED
  (void)vmapM, (void)vmapP, (void)fdata, (void)xyz, (void)t_inc;
#endif
#if LIFT_MODE != LIFT_FUSED_UPDATE
  (void)res, (void)rk_a, (void)rk_dt, (void)rk_b;
#endif
  const int n0 = get_local_id(0);
  const int b = get_local_id(1);
  const int blk = get_global_id(1);
  const int lid = b * LWI + n0;
  (void)lid;

#if LPLACE == PLACE_MATRIX
  __local real_t s_L[4 * NFP * NP];
  for (int i = lid; i < 4 * NFP * NP; i += LWI * LKB) s_L[i] = LIFT_SRC[i];
#define LOP(j, n) s_L[(j) * NP + (n)]
#else
#define LOP(j, n) LIFT_SRC[(j) * NP + (n)]
#endif

#if LIFT_MODE == LIFT_FUSED || LPLACE == PLACE_FIELD
  /* The group's LKB blocks of fluxes, contiguous in the flux layout. */
  __local real_t s_f[6 * LKB * FLUXP * VL];
  {
    const int base = (blk - b) * FLUXP * VL;
#if LIFT_MODE == LIFT_FUSED
    for (int p = lid * VW; p < LKB * FLUXP * VL; p += LWI * LKB * VW) {
      vreal o[6];
      flux_point(base + p, q, fs, vmapM, vmapP, fdata, xyz, t_inc, o);
      for (int f = 0; f < 6; ++f) VSTORE(o[f], s_f + f * LKB * FLUXP * VL + p);
    }
#else
    for (int p = lid; p < LKB * FLUXP * VL; p += LWI * LKB)
      for (int f = 0; f < 6; ++f) s_f[f * LKB * FLUXP * VL + p] = flux[f * ffs + base + p];
#endif
  }
#define FAT(f, j, e) VLOAD(s_f + (f) * LKB * FLUXP * VL + b * FLUXP * VL + (j) * VL + (e) * VW)
#else
#define FAT(f, j, e) VLOAD(flux + (f) * ffs + blk * FLUXP * VL + (j) * VL + (e) * VW)
#endif
#if LPLACE == PLACE_MATRIX || LIFT_MODE == LIFT_FUSED || LPLACE == PLACE_FIELD
  barrier(CLK_LOCAL_MEM_FENCE);
#endif

  /* The nodes of this work-item; past NP (the last work-items when LNPW does not divide
   * NP) a valid node is computed and not stored, so the loop stays branch-free. */
  int nu[LNPW];
#pragma unroll
  for (int u = 0; u < LNPW; ++u) nu[u] = min(n0 + u * LWI, NP - 1);

  vreal acc[LNPW][EPW][6];
#pragma unroll
  for (int u = 0; u < LNPW; ++u)
#pragma unroll
    for (int e = 0; e < EPW; ++e)
#pragma unroll
      for (int f = 0; f < 6; ++f) acc[u][e][f] = (vreal)(0);

  UNROLL_LOOP
  for (int j = 0; j < 4 * NFP; ++j) {
    real_t l[LNPW];
#pragma unroll
    for (int u = 0; u < LNPW; ++u) l[u] = LOP(j, nu[u]);
#pragma unroll
    for (int e = 0; e < EPW; ++e)
#pragma unroll
      for (int f = 0; f < 6; ++f) {
        const vreal x = FAT(f, j, e);
#pragma unroll
        for (int u = 0; u < LNPW; ++u) acc[u][e][f] += l[u] * x;
      }
  }

#pragma unroll
  for (int u = 0; u < LNPW; ++u) {
    if (LNPW > 1 && n0 + u * LWI >= NP) break;
    const int n = n0 + u * LWI;
#pragma unroll
    for (int e = 0; e < EPW; ++e) {
      const int o = blk * NPP * VL + n * VL + e * VW;
#pragma unroll
      for (int f = 0; f < 6; ++f) {
#if LIFT_MODE == LIFT_FUSED_UPDATE
        /* The fluxes were computed from q by an earlier kernel, so q may change here. With
         * rk_a = 0 (LSERK4's first stage, and the right-hand side alone) res is not read,
         * with rk_b = 0 (the right-hand side alone: the multirate stepper's evaluations) q is
         * not touched; for finite values the results are the same as the full update. */
        vreal r = rk_dt * (VLOAD(rhs + f * fs + o) + acc[u][e][f]);
        if (rk_a != (real_t)0) r += rk_a * VLOAD(res + f * fs + o);
        VSTORE(r, res + f * fs + o);
        if (rk_b != (real_t)0) VSTORE(VLOAD(q + f * fs + o) + rk_b * r, q + f * fs + o);
#else
        VSTORE(VLOAD(rhs + f * fs + o) + acc[u][e][f], rhs + f * fs + o);
#endif
      }
    }
  }
}
#undef LOP
#undef FAT
#endif

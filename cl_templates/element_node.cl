/* element_node.cl: the whole right-hand side of KB x NODE_EPW elements in one work-group of
 * NP x KB work-items, one per node of NODE_EPW elements (FUSE_MODE with work=node, vw =
 * NODE_EPW: the GPU form of element.cl, whose one-element-per-work-item loops leave a GPU's
 * lanes uncoalesced and its registers full).
 * The group puts its elements' fields and their 4 NFP face fluxes (flux.cl's flux_point) in
 * local memory; after one barrier each work-item sums its node's volume term and lift and
 * writes it once:
 *   rhs     (FUSE_RHS)  out = rhs; the update kernel (update.cl) follows;
 *   rhsres  (FUSE_RES)  out = res = rk_a res + rk_dt rhs; qupdate (update.cl) follows;
 *   rhsstep (FUSE_STEP) the same, and qout = q + rk_b res: the whole LSERK stage.
 * Against volume + fluxlift + update no rhs makes a round trip through global memory (it is
 * written, read and written again there: 3 x 6 NP reals per element) and one launch fewer.
 * q cannot be updated in place: other groups still read its traces. rhsstep writes the new
 * q into a second buffer instead (the host swaps the two every stage), so a stage reads q,
 * res and the element data once and writes res and q once, the least a stage can move.
 * With UNROLL != 1 the node loops read the local fields and fluxes 4 at a time (one 4-wide
 * local load per field feeds 4 multiply-adds instead of one: otherwise the loops issue as
 * many local loads as multiply-adds and are bound by the local-memory pipe). */
#if FUSE_MODE != FUSE_NONE

#define REAL4 DG_CAT(REAL, 4)
#if DG_LITERAL_OPS
#define E_DR(i) c_DrT[i]
#define E_DS(i) c_DsT[i]
#define E_DT(i) c_DtT[i]
#define E_LIFT(i) c_LIFTT[i]
#else
#define E_DR(i) DrT[i]
#define E_DS(i) DsT[i]
#define E_DT(i) DtT[i]
#define E_LIFT(i) LIFTT[i]
#endif

/* Work-item (n, b) computes node n of NODE_EPW elements of its group (register blocking:
 * each operator entry it loads feeds NODE_EPW x 6 multiply-adds): the group's LB = KB x
 * NODE_EPW elements are kbase + r KB + b, r = 0..NODE_EPW-1, kbase = (get_global_id(1) - b)
 * NODE_EPW (the host launches K / NODE_EPW work-items in dimension 1, element-major layout).
 * rk_a, rk_dt: FUSE_RES and FUSE_STEP only (0, 1 leave the right-hand side itself in res);
 * qout, rk_b: FUSE_STEP only (rk_b = 0: q is not advanced and qout not written). */
#define LB (KB * NODE_EPW)
__kernel __attribute__((reqd_work_group_size(NP, KB, 1)))
void KNAME(FUSE_KERNEL)(__global const real_t *restrict q, __global real_t *restrict out,
                        const int fs, __global const real_t *restrict egeo,
                        __global const real_t *restrict DrT, __global const real_t *restrict DsT,
                        __global const real_t *restrict DtT,
                        __global const real_t *restrict LIFTT,
                        __global const int *restrict vmapM, __global const int *restrict vmapP,
                        __global const real_t *restrict fdata,
                        __global const real_t *restrict xyz, const real_t t_inc,
                        const real_t rk_a, const real_t rk_dt,
                        __global real_t *restrict qout, const real_t rk_b) {
#if FUSE_MODE != FUSE_RES && FUSE_MODE != FUSE_STEP
  (void)rk_a, (void)rk_dt;
#endif
#if FUSE_MODE != FUSE_STEP
  (void)qout, (void)rk_b;
#endif
#if DG_LITERAL_OPS
  (void)DrT, (void)DsT, (void)DtT, (void)LIFTT;
#endif
  const int n = get_local_id(0);
  const int b = get_local_id(1);
  const int kbase = (get_global_id(1) - b) * NODE_EPW;
  const int lid = b * NP + n;

  /* Declared as 4-vectors so 4-wide reads are aligned (NPP and FLUXP = 4 NFP are multiples
   * of 4); element e (0..LB-1) of the group: s_q[(f LB + e) NPP + j], s_f[(f LB + e) FLUXP +
   * j]; this work-item's r-th element is e = r KB + b. */
  __local REAL4 s_q4[6 * LB * NPP / 4];
  __local REAL4 s_f4[6 * LB * FLUXP / 4];
  __local real_t *s_q = (__local real_t *)s_q4, *s_f = (__local real_t *)s_f4;
#define SQ(f, r) (((f) * LB + (r) * KB + b) * NPP)
#define SF(f, r) (((f) * LB + (r) * KB + b) * FLUXP)
#pragma unroll
  for (int r = 0; r < NODE_EPW; ++r)
#pragma unroll
    for (int f = 0; f < 6; ++f)
      s_q[SQ(f, r) + n] = q[f * fs + (kbase + r * KB + b) * NPP + n];
  /* The group's LB elements' face nodes are contiguous flux indices; padding face nodes
   * (j >= 4 NFP) come out zero and are never read. */
  const int first = kbase * FLUXP;
  for (int p = lid; p < LB * FLUXP; p += NP * KB) {
    const int e = p / FLUXP, j = p - e * FLUXP;
    real_t o[6];
    flux_point(first + p, q, fs, vmapM, vmapP, fdata, xyz, t_inc, o);
#pragma unroll
    for (int f = 0; f < 6; ++f) s_f[(f * LB + e) * FLUXP + j] = o[f];
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  /* acc[r][3f + d]: derivative d (r, s, t) of field f at node n of element r */
  real_t acc[NODE_EPW][18];
#pragma unroll
  for (int r = 0; r < NODE_EPW; ++r)
#pragma unroll
    for (int i = 0; i < 18; ++i) acc[r][i] = 0;
  int j0 = 0;
#if UNROLL != 1
  UNROLL_LOOP
  for (; j0 + 4 <= NP; j0 += 4) {
    real_t dr[4], ds[4], dt[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      dr[u] = E_DR((j0 + u) * NP + n), ds[u] = E_DS((j0 + u) * NP + n);
      dt[u] = E_DT((j0 + u) * NP + n);
    }
#pragma unroll
    for (int r = 0; r < NODE_EPW; ++r)
#pragma unroll
      for (int f = 0; f < 6; ++f) {
        const REAL4 x = s_q4[(SQ(f, r) + j0) / 4];
        acc[r][3 * f + 0] += dr[0] * x.s0 + dr[1] * x.s1 + dr[2] * x.s2 + dr[3] * x.s3;
        acc[r][3 * f + 1] += ds[0] * x.s0 + ds[1] * x.s1 + ds[2] * x.s2 + ds[3] * x.s3;
        acc[r][3 * f + 2] += dt[0] * x.s0 + dt[1] * x.s1 + dt[2] * x.s2 + dt[3] * x.s3;
      }
  }
#endif
  UNROLL_LOOP
  for (int j = j0; j < NP; ++j) {
    const real_t dr = E_DR(j * NP + n), ds = E_DS(j * NP + n), dt = E_DT(j * NP + n);
#pragma unroll
    for (int r = 0; r < NODE_EPW; ++r)
#pragma unroll
      for (int f = 0; f < 6; ++f) {
        const real_t x = s_q[SQ(f, r) + j];
        acc[r][3 * f + 0] += dr * x;
        acc[r][3 * f + 1] += ds * x;
        acc[r][3 * f + 2] += dt * x;
      }
  }
  const real_t hsign = DG_TEST_FLIP ? 1 : -1; /* -curl E; +1 only in the sign-flip test */
  real_t rr[NODE_EPW][6];
#pragma unroll
  for (int r = 0; r < NODE_EPW; ++r) {
    __global const real_t *g = egeo + (kbase + r * KB + b) * EG;
    const real_t rx = g[EG_RX], ry = g[EG_RY], rz = g[EG_RZ];
    const real_t sx = g[EG_SX], sy = g[EG_SY], sz = g[EG_SZ];
    const real_t tx = g[EG_TX], ty = g[EG_TY], tz = g[EG_TZ];
    const real_t ieps = g[EG_INV_EPS], imu = g[EG_INV_MU], sige = g[EG_SIGMA_EPS];
#define DX(f) (rx * acc[r][3 * (f)] + sx * acc[r][3 * (f) + 1] + tx * acc[r][3 * (f) + 2])
#define DY(f) (ry * acc[r][3 * (f)] + sy * acc[r][3 * (f) + 1] + ty * acc[r][3 * (f) + 2])
#define DZ(f) (rz * acc[r][3 * (f)] + sz * acc[r][3 * (f) + 1] + tz * acc[r][3 * (f) + 2])
    rr[r][0] = ieps * (DY(5) - DZ(4)) - sige * s_q[SQ(0, r) + n];
    rr[r][1] = ieps * (DZ(3) - DX(5)) - sige * s_q[SQ(1, r) + n];
    rr[r][2] = ieps * (DX(4) - DY(3)) - sige * s_q[SQ(2, r) + n];
    rr[r][3] = hsign * imu * (DY(2) - DZ(1));
    rr[r][4] = hsign * imu * (DZ(0) - DX(2));
    rr[r][5] = hsign * imu * (DX(1) - DY(0));
#undef DX
#undef DY
#undef DZ
  }
#if UNROLL != 1
  UNROLL_LOOP
  for (int j = 0; j < 4 * NFP; j += 4) {
    const real_t l0 = E_LIFT(j * NP + n), l1 = E_LIFT((j + 1) * NP + n);
    const real_t l2 = E_LIFT((j + 2) * NP + n), l3 = E_LIFT((j + 3) * NP + n);
#pragma unroll
    for (int r = 0; r < NODE_EPW; ++r)
#pragma unroll
      for (int f = 0; f < 6; ++f) {
        const REAL4 x = s_f4[(SF(f, r) + j) / 4];
        rr[r][f] += l0 * x.s0 + l1 * x.s1 + l2 * x.s2 + l3 * x.s3;
      }
  }
#else
  UNROLL_LOOP
  for (int j = 0; j < 4 * NFP; ++j) {
    const real_t l = E_LIFT(j * NP + n);
#pragma unroll
    for (int r = 0; r < NODE_EPW; ++r)
#pragma unroll
      for (int f = 0; f < 6; ++f) rr[r][f] += l * s_f[SF(f, r) + j];
  }
#endif
#pragma unroll
  for (int r = 0; r < NODE_EPW; ++r) {
    const int o = (kbase + r * KB + b) * NPP + n;
#pragma unroll
    for (int f = 0; f < 6; ++f) {
#if FUSE_MODE == FUSE_STEP
      const real_t rn = rk_a * out[f * fs + o] + rk_dt * rr[r][f];
      out[f * fs + o] = rn;
      if (rk_b != 0) qout[f * fs + o] = s_q[SQ(f, r) + n] + rk_b * rn;
#elif FUSE_MODE == FUSE_RES
      out[f * fs + o] = rk_a * out[f * fs + o] + rk_dt * rr[r][f];
#else
      out[f * fs + o] = rr[r][f];
#endif
    }
  }
}
#undef SQ
#undef SF
#undef LB
#undef E_DR
#undef E_DS
#undef E_DT
#undef E_LIFT
#undef REAL4
#endif

/* volume.cl: the volume term of the Maxwell RHS for a block of elements,
 *   rhs_E = (curl H)/eps - (sigma/eps) E,   rhs_H = -(curl E)/mu,
 * with the physical derivatives from Dr, Ds, Dt and the affine metric terms. The lift kernel
 * adds the surface term (its fluxes already carry 1/eps and 1/mu).
 *
 * Work-item (n, b) of a work-group computes output node n of EPW vreals = VL elements of
 * block blk; the work-group is NP x KB. Operators are stored transposed, OpT[j*NP + n] =
 * Op[n][j], so neighbouring work-items read neighbouring entries. */

#if DG_LITERAL_OPS
#define DR_SRC c_DrT
#define DS_SRC c_DsT
#define DT_SRC c_DtT
#else
#define DR_SRC DrT
#define DS_SRC DsT
#define DT_SRC DtT
#endif

__kernel __attribute__((reqd_work_group_size(NP, KB, 1)))
void KNAME(volume)(__global const real_t *restrict q, __global real_t *restrict rhs,
                   __global const real_t *restrict egeo, __global const real_t *restrict DrT,
                   __global const real_t *restrict DsT, __global const real_t *restrict DtT,
                   const int fs) {
  const int n = get_local_id(0);
  const int b = get_local_id(1);
  const int blk = get_global_id(1);
  const int lid = b * NP + n;
  (void)lid;

#if VPLACE == PLACE_MATRIX
  /* matrix-in-local: every work-item of the group reads all of Dr, Ds, Dt. */
  __local real_t s_D[3 * NP * NP];
  for (int i = lid; i < NP * NP; i += NP * KB) {
    s_D[i] = DR_SRC[i];
    s_D[NP * NP + i] = DS_SRC[i];
    s_D[2 * NP * NP + i] = DT_SRC[i];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#define OP_DR(j) s_D[(j) * NP + n]
#define OP_DS(j) s_D[NP * NP + (j) * NP + n]
#define OP_DT(j) s_D[2 * NP * NP + (j) * NP + n]
#else
#define OP_DR(j) DR_SRC[(j) * NP + n]
#define OP_DS(j) DS_SRC[(j) * NP + n]
#define OP_DT(j) DT_SRC[(j) * NP + n]
#endif

#if VPLACE == PLACE_FIELD
  /* field-in-local: the group's KB blocks are contiguous in every field. */
  __local real_t s_q[6 * KB * NPP * VL];
  {
    const int base = (blk - b) * NPP * VL;
    for (int f = 0; f < 6; ++f)
      for (int i = lid; i < KB * NPP * VL; i += NP * KB)
        s_q[f * KB * NPP * VL + i] = q[f * fs + base + i];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#define QAT(f, j, e) VLOAD(s_q + (f) * KB * NPP * VL + b * NPP * VL + (j) * VL + (e) * VW)
#else
#define QAT(f, j, e) VLOAD(q + (f) * fs + blk * NPP * VL + (j) * VL + (e) * VW)
#endif

  /* acc[e][3f + d]: derivative d (r, s, t) of field f for vreal e. */
  vreal acc[EPW][18];
#pragma unroll
  for (int e = 0; e < EPW; ++e)
#pragma unroll
    for (int i = 0; i < 18; ++i) acc[e][i] = (vreal)(0);

  UNROLL_LOOP
  for (int j = 0; j < NP; ++j) {
    const real_t dr = OP_DR(j), ds = OP_DS(j), dt = OP_DT(j);
#pragma unroll
    for (int e = 0; e < EPW; ++e)
#pragma unroll
      for (int f = 0; f < 6; ++f) {
        const vreal u = QAT(f, j, e);
        acc[e][3 * f + 0] += dr * u;
        acc[e][3 * f + 1] += ds * u;
        acc[e][3 * f + 2] += dt * u;
      }
  }

  const real_t hsign = DG_TEST_FLIP ? 1 : -1; /* -curl E; +1 only in the sign-flip test */
#pragma unroll
  for (int e = 0; e < EPW; ++e) {
    __global const real_t *g = egeo + blk * EG * VL + e * VW;
    const vreal rx = VLOAD(g + EG_RX * VL), ry = VLOAD(g + EG_RY * VL), rz = VLOAD(g + EG_RZ * VL);
    const vreal sx = VLOAD(g + EG_SX * VL), sy = VLOAD(g + EG_SY * VL), sz = VLOAD(g + EG_SZ * VL);
    const vreal tx = VLOAD(g + EG_TX * VL), ty = VLOAD(g + EG_TY * VL), tz = VLOAD(g + EG_TZ * VL);
    const vreal ieps = VLOAD(g + EG_INV_EPS * VL), imu = VLOAD(g + EG_INV_MU * VL);
    const vreal sige = VLOAD(g + EG_SIGMA_EPS * VL);
#define DX(f) (rx * acc[e][3 * (f)] + sx * acc[e][3 * (f) + 1] + tx * acc[e][3 * (f) + 2])
#define DY(f) (ry * acc[e][3 * (f)] + sy * acc[e][3 * (f) + 1] + ty * acc[e][3 * (f) + 2])
#define DZ(f) (rz * acc[e][3 * (f)] + sz * acc[e][3 * (f) + 1] + tz * acc[e][3 * (f) + 2])
    const vreal cHx = DY(5) - DZ(4), cHy = DZ(3) - DX(5), cHz = DX(4) - DY(3);
    const vreal cEx = DY(2) - DZ(1), cEy = DZ(0) - DX(2), cEz = DX(1) - DY(0);
#undef DX
#undef DY
#undef DZ
    __global real_t *o = rhs + blk * NPP * VL + n * VL + e * VW;
    VSTORE(ieps * cHx - sige * QAT(0, n, e), o);
    VSTORE(ieps * cHy - sige * QAT(1, n, e), o + fs);
    VSTORE(ieps * cHz - sige * QAT(2, n, e), o + 2 * fs);
    VSTORE(hsign * imu * cEx, o + 3 * fs);
    VSTORE(hsign * imu * cEy, o + 4 * fs);
    VSTORE(hsign * imu * cEz, o + 5 * fs);
  }
}

#undef QAT
#undef OP_DR
#undef OP_DS
#undef OP_DT

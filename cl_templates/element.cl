/* element.cl: the whole right-hand side of a block of VL elements in one work-item
 * (FUSE_MODE, the variant key fuse). The 4 NFP face fluxes of the block go into a private
 * array (registers, or the stack, i.e. the L1 cache, on a CPU) instead of a global flux
 * array; then each node's volume term and lift are summed in registers and written once:
 *   rhs     (FUSE_RHS)  out = rhs; the update kernel (update.cl) follows;
 *   rhsres  (FUSE_RES)  out = res = rk_a res + rk_dt rhs; qupdate (update.cl) follows;
 *   rhsstep (FUSE_STEP) the same, and qout = q + rk_b res into q's second buffer.
 * Per element it reads q (6 NP, plus the neighbours' traces, which are their own q), the
 * element and face data, and writes one 6-field array: against volume + flux + liftupdate
 * no flux array is written and read back (2 x 24 NFP reals) and no rhs makes a round trip
 * (12 NP). q cannot be updated in place: the neighbours still read its traces, hence the
 * separate q pass, or (rhsstep) the new q written into a second buffer (element_node.cl).
 * LNPW (variant key lnpw) nodes share each flux value loaded in the lift.
 * Traces, boundary factors, incident wave and flux are flux.cl's (load_face,
 * flux_from_jumps, VLOADI/GATHER); the volume term is volume.cl's arithmetic. */
#if FUSE_MODE != FUSE_NONE

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

/* Work-item g: block g (VL = VW elements, one per lane); KB blocks per work-group. rk_a,
 * rk_dt: FUSE_RES and FUSE_STEP only (0, 1 leaves the right-hand side itself in res); qout,
 * rk_b: FUSE_STEP only (rk_b = 0: qout is not written). */
__kernel __attribute__((reqd_work_group_size(KB, 1, 1)))
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
#if !DG_INCIDENT
  (void)xyz, (void)t_inc;
#endif
  const int blk = get_global_id(0);

  /* The fluxes, face by face: the face's data loaded once, the neighbours' traces gathered
   * by lane straight into registers. */
  vreal fl[6][4 * NFP];
  for (int face = 0; face < 4; ++face) {
    const face_data F = load_face(fdata + (blk * 4 + face) * FD * VL);
    for (int n = 0; n < NFP; ++n) {
      const int j = face * NFP + n;
      const int i = blk * FLUXP * VL + j * VL;
      const int m = vmapM[i]; /* lane 0's own node; the lanes' are contiguous */
      const vint p = VLOADI(vmapP + i);
      vreal dE[3], dH[3];
#pragma unroll
      for (int c = 0; c < 3; ++c) {
        const vreal em = VLOAD(q + c * fs + m), hm = VLOAD(q + (3 + c) * fs + m);
        /* the field's base pointer, not p + c fs: the lanes' indices are extracted once
         * and serve all six fields (scalar loads; no vector gather on the CPUs measured) */
        dE[c] = GATHER(q + c * fs, p) - em + F.bcE * em;
        dH[c] = GATHER(q + (3 + c) * fs, p) - hm + F.bcH * hm;
      }
#if DG_INCIDENT
      add_incident(dE, dH, F.incE, F.incH, xyz, fs, m, t_inc);
#endif
      vreal o[6];
      flux_from_jumps(&F, dE, dH, o);
#pragma unroll
      for (int f = 0; f < 6; ++f) fl[f][j] = o[f];
    }
  }

  __global const real_t *qb = q + blk * NPP * VL;
  __global const real_t *g = egeo + blk * EG * VL;
  const real_t hsign = DG_TEST_FLIP ? 1 : -1; /* -curl E; +1 only in the sign-flip test */
  /* LNPW nodes at a time: each flux value loaded in the lift feeds LNPW nodes. Past NP (when
   * LNPW does not divide NP) node NP-1 is computed again and not stored. */
  for (int n0 = 0; n0 < NP; n0 += LNPW) {
    vreal r[LNPW][6];
#pragma unroll
    for (int u = 0; u < LNPW; ++u) {
      const int n = min(n0 + u, NP - 1);
      /* acc[3f + d]: derivative d (r, s, t) of field f at node n */
      vreal acc[18];
#pragma unroll
      for (int i = 0; i < 18; ++i) acc[i] = (vreal)(0);
      UNROLL_LOOP
      for (int j = 0; j < NP; ++j) {
        const real_t dr = E_DR(j * NP + n), ds = E_DS(j * NP + n), dt = E_DT(j * NP + n);
#pragma unroll
        for (int f = 0; f < 6; ++f) {
          const vreal x = VLOAD(qb + f * fs + j * VL);
          acc[3 * f + 0] += dr * x;
          acc[3 * f + 1] += ds * x;
          acc[3 * f + 2] += dt * x;
        }
      }
      /* The metric terms again for every node: L1 hits, and fewer live registers. */
      const vreal rx = VLOAD(g + EG_RX * VL), ry = VLOAD(g + EG_RY * VL), rz = VLOAD(g + EG_RZ * VL);
      const vreal sx = VLOAD(g + EG_SX * VL), sy = VLOAD(g + EG_SY * VL), sz = VLOAD(g + EG_SZ * VL);
      const vreal tx = VLOAD(g + EG_TX * VL), ty = VLOAD(g + EG_TY * VL), tz = VLOAD(g + EG_TZ * VL);
      const vreal ieps = VLOAD(g + EG_INV_EPS * VL), imu = VLOAD(g + EG_INV_MU * VL);
      const vreal sige = VLOAD(g + EG_SIGMA_EPS * VL);
#define DX(f) (rx * acc[3 * (f)] + sx * acc[3 * (f) + 1] + tx * acc[3 * (f) + 2])
#define DY(f) (ry * acc[3 * (f)] + sy * acc[3 * (f) + 1] + ty * acc[3 * (f) + 2])
#define DZ(f) (rz * acc[3 * (f)] + sz * acc[3 * (f) + 1] + tz * acc[3 * (f) + 2])
      r[u][0] = ieps * (DY(5) - DZ(4)) - sige * VLOAD(qb + n * VL);
      r[u][1] = ieps * (DZ(3) - DX(5)) - sige * VLOAD(qb + fs + n * VL);
      r[u][2] = ieps * (DX(4) - DY(3)) - sige * VLOAD(qb + 2 * fs + n * VL);
      r[u][3] = hsign * imu * (DY(2) - DZ(1));
      r[u][4] = hsign * imu * (DZ(0) - DX(2));
      r[u][5] = hsign * imu * (DX(1) - DY(0));
#undef DX
#undef DY
#undef DZ
    }
    UNROLL_LOOP
    for (int j = 0; j < 4 * NFP; ++j) {
      real_t l[LNPW];
#pragma unroll
      for (int u = 0; u < LNPW; ++u) l[u] = E_LIFT(j * NP + min(n0 + u, NP - 1));
#pragma unroll
      for (int f = 0; f < 6; ++f) {
        const vreal x = fl[f][j];
#pragma unroll
        for (int u = 0; u < LNPW; ++u) r[u][f] += l[u] * x;
      }
    }
#pragma unroll
    for (int u = 0; u < LNPW; ++u) {
      if (LNPW > 1 && n0 + u >= NP) break;
      const int o = blk * NPP * VL + (n0 + u) * VL;
#pragma unroll
      for (int f = 0; f < 6; ++f) {
#if FUSE_MODE == FUSE_STEP
        const vreal rn = rk_a * VLOAD(out + f * fs + o) + rk_dt * r[u][f];
        VSTORE(rn, out + f * fs + o);
        if (rk_b != 0) VSTORE(VLOAD(q + f * fs + o) + rk_b * rn, qout + f * fs + o);
#elif FUSE_MODE == FUSE_RES
        VSTORE(rk_a * VLOAD(out + f * fs + o) + rk_dt * r[u][f], out + f * fs + o);
#else
        VSTORE(r[u][f], out + f * fs + o);
#endif
      }
    }
  }
}
#undef E_DR
#undef E_DS
#undef E_DT
#undef E_LIFT
#endif

/* curved.cl: the curved elements (src/dg/geom_curved.c, src/dg/maxwell_curved.c) on the list
 * of curved elements only, so straight-sided ones run exactly the kernels they run without
 * it. The variant's kernels compute every element's right-hand side with the affine formula;
 * a curved element's per-element metric and face weights are 0 there (the host packs them
 * so), which leaves a finite stand-in. Its own right-hand side, the strong form with every
 * integral taken by quadrature (Hesthaven & Warburton, Nodal DG Methods, 2008, sec. 6.6),
 *
 *   rhs = M_k^-1 ( sum_q w J curl u(x_q) l_i(x_q) + sum_f sum_p w sJ flux(x_p) l_i(x_p) ),
 *
 * then the material scaling (E: 1/eps and -sigma/eps E; H: 1/mu), is computed by `curved`
 * at the stage's start (q not yet moved by any update) into crhs, which also saves res and q
 * of the curved nodes (csave; contract_curved.h names this file's layouts); after the
 * variant's kernels and their update, `curvfix` puts it where the stage's result went: out_r = crhs (rhs, or the result buffer
 * of a stage without update) and, with an update, res = rk_a res_saved + rk_dt crhs and
 * q_out = q_saved + rk_b res, as the reference's LSERK stage does. The PML, pole and source
 * kernels run after it and see the curved elements' right-hand side like any other.
 *
 * `curved`: one work-group of CWG work-items per curved element c (in element order; cslot[c]
 * its slot in the field layout), the element's fields, the jumps at its face nodes, the curl
 * at the volume rule's NQ points, the flux at the face rule's NFQ points per face and the
 * integrals in local memory. The jumps are flux.cl's (boundary factors and incident wave from
 * cface), interpolated to the face points by cLf (4 x NFQ x NFP), where the
 * normal and w sJ come from cfq (CQ_*); the volume rule's basis and its r, s, t derivatives
 * are cL (4 blocks of NQ x NP, point-major), w J rx .. w J tz at its points cwq (9 x NQ per
 * element); cfpos[f NP + i] is node i's position among face f's nodes (-1: not on it); cminv
 * the element's inverse mass matrix (NP x NP, row-major). `curvenergy`: the energy of the
 * owned curved elements with their own mass matrix (cM), written over energy.cl's value in
 * out[slot]; cew holds 1/2 eps and 1/2 mu (EW_* per element).
 *
 * Helpers take no restrict-qualified pointers (flux.cl says why). */

#ifndef NQ /* points of the curved elements' volume rule (degree 2N + 1) */
#define NQ 4
#endif
#ifndef NFQ /* points of their face rule (degree 2N + 2) on each face */
#define NFQ 6
#endif
#ifndef CWG /* work-items per curved element in `curved` */
#define CWG 32
#endif

/* Lane 0 of a vreal: the incident pulse (incident.cl) is written for vreals. */
#if VW == 1
#define CV_LANE0(v) (v)
#else
#define CV_LANE0(v) ((v).s0)
#endif

__kernel __attribute__((reqd_work_group_size(CWG, 1, 1)))
void KNAME(curved)(__global const real_t *restrict q, const int fs,
                   __global const real_t *restrict res, __global const int *restrict vmapM,
                   __global const int *restrict vmapP, __global const real_t *restrict xyz,
                   const real_t t_inc, __global const real_t *restrict egeo,
                   __global const int *restrict cslot, __global const real_t *restrict cface,
                   __global const real_t *restrict cwq, __global const real_t *restrict cfq,
                   __global const real_t *restrict cminv, __global const real_t *restrict cL,
                   __global const real_t *restrict cLf, __global const int *restrict cfpos,
                   __global real_t *restrict crhs, __global real_t *restrict csave,
                   const int ncn) {
  __local real_t sq[6 * NP], sjump[6 * 4 * NFP], scurl[6 * NQ], sflux[6 * 4 * NFQ],
      sacc[6 * NP];
  const int c = get_group_id(0), l = get_local_id(0);
  const int k = cslot[c];
  /* the mask rather than k % VL: Oclgrind cannot run LLVM's `freeze` (energy.cl) */
  const int blk = k / VL, lane = k & (VL - 1);
  const int base = blk * NPP * VL + lane;
  /* 1. the element's fields (and res, q saved for curvfix), the jumps at its face nodes */
  for (int i = l; i < 6 * NP; i += CWG) {
    const int f = i / NP, n = i - f * NP, o = f * fs + base + n * VL;
    const real_t u = q[o];
    sq[i] = u;
    csave[(CS_Q + f) * ncn + c * NP + n] = u;
    csave[(CS_RES + f) * ncn + c * NP + n] = res[o];
  }
  for (int j = l; j < 4 * NFP; j += CWG) {
    const int fi = blk * FLUXP * VL + j * VL + lane;
    const int m = vmapM[fi], p = vmapP[fi];
    __global const real_t *F = cface + (4 * c + j / NFP) * FD;
    real_t dE[3], dH[3];
    for (int x = 0; x < 3; ++x) {
      const real_t em = q[x * fs + m], hm = q[(3 + x) * fs + m];
      dE[x] = q[x * fs + p] - em + F[FD_BCE] * em;
      dH[x] = q[(3 + x) * fs + p] - hm + F[FD_BCH] * hm;
    }
#if DG_INCIDENT
    const real_t tau = t_inc - (DG_INC_KX * xyz[m] + DG_INC_KY * xyz[fs + m] +
                                DG_INC_KZ * xyz[2 * fs + m]) + DG_INC_KX0;
    const real_t g = CV_LANE0(inc_pulse((vreal)(tau)));
    const real_t gE = F[FD_INCE] * g, gH = F[FD_INCH] * g;
    dE[0] += gE * DG_INC_PX;
    dE[1] += gE * DG_INC_PY;
    dE[2] += gE * DG_INC_PZ;
    dH[0] += gH * DG_INC_HX;
    dH[1] += gH * DG_INC_HY;
    dH[2] += gH * DG_INC_HZ;
#else
    (void)xyz, (void)t_inc;
#endif
    for (int x = 0; x < 3; ++x) {
      sjump[x * 4 * NFP + j] = dE[x];
      sjump[(3 + x) * 4 * NFP + j] = dH[x];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  /* 2. w J curl u at the volume points; the flux times w sJ at the face points */
  __global const real_t *W = cwq + c * 9 * NQ;
  for (int pt = l; pt < NQ; pt += CWG) {
    real_t d[6][3];
    for (int f = 0; f < 6; ++f) {
      real_t ur = (real_t)0, us = (real_t)0, ut = (real_t)0;
      for (int j = 0; j < NP; ++j) {
        const real_t u = sq[f * NP + j];
        ur += cL[(NQ + pt) * NP + j] * u;
        us += cL[(2 * NQ + pt) * NP + j] * u;
        ut += cL[(3 * NQ + pt) * NP + j] * u;
      }
      for (int x = 0; x < 3; ++x)
        d[f][x] = W[x * NQ + pt] * ur + W[(3 + x) * NQ + pt] * us + W[(6 + x) * NQ + pt] * ut;
    }
    scurl[0 * NQ + pt] = d[5][1] - d[4][2];
    scurl[1 * NQ + pt] = d[3][2] - d[5][0];
    scurl[2 * NQ + pt] = d[4][0] - d[3][1];
    scurl[3 * NQ + pt] = -(d[2][1] - d[1][2]);
    scurl[4 * NQ + pt] = -(d[0][2] - d[2][0]);
    scurl[5 * NQ + pt] = -(d[1][0] - d[0][1]);
  }
  for (int i = l; i < 4 * NFQ; i += CWG) {
    const int f = i / NFQ;
    real_t dE[3] = {(real_t)0, (real_t)0, (real_t)0}, dH[3] = {(real_t)0, (real_t)0, (real_t)0};
    for (int j = 0; j < NFP; ++j) {
      const real_t lf = cLf[i * NFP + j];
      for (int x = 0; x < 3; ++x) {
        dE[x] += lf * sjump[x * 4 * NFP + f * NFP + j];
        dH[x] += lf * sjump[(3 + x) * 4 * NFP + f * NFP + j];
      }
    }
    __global const real_t *P = cfq + (4 * c * NFQ + i) * CQ;
    __global const real_t *F = cface + (4 * c + f) * FD;
    const real_t nx = P[CQ_NX], ny = P[CQ_NY], nz = P[CQ_NZ], w = P[CQ_WSJ];
    const real_t ndEx = ny * dE[2] - nz * dE[1], ndEy = nz * dE[0] - nx * dE[2],
                 ndEz = nx * dE[1] - ny * dE[0];
    const real_t ndHx = ny * dH[2] - nz * dH[1], ndHy = nz * dH[0] - nx * dH[2],
                 ndHz = nx * dH[1] - ny * dH[0];
    const real_t ax = F[FD_CEH] * dH[0] - F[FD_CEE] * ndEx,
                 ay = F[FD_CEH] * dH[1] - F[FD_CEE] * ndEy,
                 az = F[FD_CEH] * dH[2] - F[FD_CEE] * ndEz;
    const real_t bx = -F[FD_CHE] * dE[0] - F[FD_CHH] * ndHx,
                 by = -F[FD_CHE] * dE[1] - F[FD_CHH] * ndHy,
                 bz = -F[FD_CHE] * dE[2] - F[FD_CHH] * ndHz;
    sflux[0 * 4 * NFQ + i] = w * (ny * az - nz * ay);
    sflux[1 * 4 * NFQ + i] = w * (nz * ax - nx * az);
    sflux[2 * 4 * NFQ + i] = w * (nx * ay - ny * ax);
    sflux[3 * 4 * NFQ + i] = w * (ny * bz - nz * by);
    sflux[4 * 4 * NFQ + i] = w * (nz * bx - nx * bz);
    sflux[5 * 4 * NFQ + i] = w * (nx * by - ny * bx);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  /* 3. the integrals against each node's test function */
  for (int i = l; i < 6 * NP; i += CWG) {
    const int f = i / NP, n = i - f * NP;
    real_t a = (real_t)0;
    for (int pt = 0; pt < NQ; ++pt) a += cL[pt * NP + n] * scurl[f * NQ + pt];
    for (int ff = 0; ff < 4; ++ff) {
      const int jj = cfpos[ff * NP + n];
      if (jj < 0) continue;
      for (int pt = 0; pt < NFQ; ++pt)
        a += cLf[(ff * NFQ + pt) * NFP + jj] * sflux[f * 4 * NFQ + ff * NFQ + pt];
    }
    sacc[i] = a;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  /* 4. M_k^-1, the material scaling */
  __global const real_t *Mi = cminv + c * NP * NP;
  __global const real_t *g = egeo + blk * EG * VL + lane;
  const real_t inv_eps = g[EG_INV_EPS * VL], inv_mu = g[EG_INV_MU * VL];
  const real_t sig_eps = g[EG_SIGMA_EPS * VL];
  for (int i = l; i < 6 * NP; i += CWG) {
    const int f = i / NP, n = i - f * NP;
    real_t s = (real_t)0;
    for (int j = 0; j < NP; ++j) s += Mi[n * NP + j] * sacc[f * NP + j];
    s = f < 3 ? s * inv_eps - sig_eps * sq[i] : s * inv_mu;
    crhs[f * ncn + c * NP + n] = s;
  }
}

/* Work-item j: curved node j (node n of curved element c, j = c NP + n). out_r, res and q_out
 * may be one buffer (out_r = res for a stage without update that leaves its result in res),
 * so they are not restrict. */
__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(curvfix)(__global const real_t *restrict crhs, __global const real_t *restrict csave,
                    __global const int *restrict cslot, __global real_t *out_r,
                    __global real_t *res, __global real_t *q_out, const int fs, const int ncn,
                    const int update, const real_t rk_a, const real_t rk_dt,
                    const real_t rk_b) {
  const int j = get_global_id(0);
  if (j >= ncn) return;
  const int c = j / NP, n = j - c * NP, k = cslot[c];
  const int o = (k / VL) * NPP * VL + n * VL + (k & (VL - 1));
  for (int f = 0; f < 6; ++f) {
    const real_t r = crhs[f * ncn + j];
    out_r[f * fs + o] = r;
    if (update) {
      const real_t rc = rk_a * csave[(CS_RES + f) * ncn + j] + rk_dt * r;
      res[f * fs + o] = rc;
      q_out[f * fs + o] = csave[(CS_Q + f) * ncn + j] + rk_b * rc;
    }
  }
}

/* Work-item c: owned curved element c (the first n_owned of the list). */
__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(curvenergy)(__global const real_t *restrict q, const int fs,
                       __global const int *restrict cslot, __global const real_t *restrict cM,
                       __global const real_t *restrict cew, __global real_t *restrict out,
                       const int n_owned) {
  const int c = get_global_id(0);
  if (c >= n_owned) return;
  const int k = cslot[c];
  const int base = (k / VL) * NPP * VL + (k & (VL - 1));
  __global const real_t *M = cM + c * NP * NP;
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
  out[k] = cew[EW * c + EW_E] * e[0] + cew[EW * c + EW_H] * e[1];
}

/* surface.cl: the surface term of the Maxwell RHS. flux_point gathers the traces through
 * vmapM/vmapP and evaluates the upwind/central material flux at one face node; the kernels
 * are the flux alone, the lift alone (rhs += LIFT * flux), flux+lift fused (fluxes through
 * local memory), and the lift fused with the LSERK update.
 *
 * Boundaries are branch-free: on a boundary face vmapP = vmapM and
 *   dE = E(P) - E(M) + bcE E(M) + incE E_inc,  dH = H(P) - H(M) + bcH H(M) + incH H_inc,
 * with (bcE, bcH) = (-2, 0) PEC, (0, -2) PMC, (-1, -1) absorbing, (0, 0) interior, and the
 * incident plane wave (only with DG_INCIDENT) weighted by (incE, incH) = (1, 1) on absorbing
 * faces in the total-field formulation (exterior state = incident field), (-2, 0) on PEC
 * faces in the scattered-field formulation (E+ = -E- - 2 E_inc), (0, 0) elsewhere.
 * The host folds Fscale, the impedances, alpha and 1/eps, 1/mu into cEH cEE cHE cHH:
 *   flux_E = n x (cEH dH - cEE n x dE),  flux_H = n x (-cHE dE - cHH n x dH). */

#define LIFT_SEPARATE 0     /* kernels flux + lift */
#define LIFT_FUSED 1        /* kernel fluxlift */
#define LIFT_FUSED_UPDATE 2 /* kernels flux + liftupdate */
#define LIFT_FLUX_ONLY 3    /* kernel flux (the CLBlast path lifts with a GEMM) */
#ifndef LIFT_MODE /* which surface kernels this program holds (above) */
#define LIFT_MODE LIFT_SEPARATE
#endif
#ifndef LNPW /* lift: output nodes per work-item (each flux value loaded feeds LNPW nodes) */
#define LNPW 1
#endif
#define FLUX_POINT 0 /* flux kernel: one work-item per VW face nodes (flux_point) */
#define FLUX_FACE 1  /* flux kernel: one work-item per face of VL elements (face_flux_eval) */
#ifndef FLUX_MODE /* how the flux kernel divides the work (above) */
#define FLUX_MODE FLUX_POINT
#endif

#if DG_LITERAL_OPS
#define LIFT_SRC c_LIFTT
#else
#define LIFT_SRC LIFTT
#endif

#if DG_INCIDENT
/* The incident plane wave (dg/source.h): E_inc = P g(tau), H_inc = (k x P) g(tau),
 * tau = t - k.x + k.x0. The host bakes the wave in; the defaults are a Gaussian along x. */
#ifndef DG_INC_KX /* unit propagation direction k */
#define DG_INC_KX ((real_t)1)
#define DG_INC_KY ((real_t)0)
#define DG_INC_KZ ((real_t)0)
#endif
#ifndef DG_INC_KX0 /* k . x0, x0 the reference point */
#define DG_INC_KX0 ((real_t)0)
#endif
#ifndef DG_INC_PX /* unit polarisation P of E */
#define DG_INC_PX ((real_t)0)
#define DG_INC_PY ((real_t)1)
#define DG_INC_PZ ((real_t)0)
#endif
#ifndef DG_INC_HX /* k x P, the direction of H */
#define DG_INC_HX ((real_t)0)
#define DG_INC_HY ((real_t)0)
#define DG_INC_HZ ((real_t)1)
#endif
#ifndef DG_INC_SHAPE /* INC_GAUSSIAN, INC_RICKER or INC_HARMONIC (dg_pulse_shape order) */
#define DG_INC_SHAPE 0
#endif
#ifndef DG_INC_F0 /* centre frequency */
#define DG_INC_F0 ((real_t)1)
#endif
#ifndef DG_INC_T0 /* delay */
#define DG_INC_T0 ((real_t)0)
#endif
#ifndef DG_INC_AMP /* amplitude */
#define DG_INC_AMP ((real_t)1)
#endif
#ifndef DG_INC_RAMP_ON /* harmonic: 1 with a switch-on ramp, 0 without */
#define DG_INC_RAMP_ON 0
#endif
#ifndef DG_INC_F0_RAMP /* harmonic: f0 / (ramp length in periods) */
#define DG_INC_F0_RAMP ((real_t)1)
#endif
#define INC_GAUSSIAN 0
#define INC_RICKER 1
#define INC_HARMONIC 2

/* g(tau) as dg_pulse_eval computes it, lane by lane. */
inline vreal inc_pulse(const vreal tau) {
  const vreal s = tau - DG_INC_T0;
#if DG_INC_SHAPE == INC_HARMONIC
  vreal g = DG_INC_AMP * sin((real_t)6.28318530717958647692 * DG_INC_F0 * s);
#if DG_INC_RAMP_ON
  /* sin^2 ramp over the first `ramp` periods: zero slope at both ends. */
  const vreal r = sin((real_t)1.57079632679489661923 *
                      clamp(s * DG_INC_F0_RAMP, (real_t)0, (real_t)1));
  g *= r * r;
#endif
  return g;
#else
  const vreal a = (real_t)3.14159265358979323846 * DG_INC_F0 * s;
#if DG_INC_SHAPE == INC_RICKER
  return DG_INC_AMP * ((real_t)1 - (real_t)2 * a * a) * exp(-a * a);
#else
  return DG_INC_AMP * exp(-a * a);
#endif
#endif
}
/* Extra kernel parameters: the physical node coordinates x, y, z (3 fields in the field
 * layout) and the stage time. */
#define INC_PARAMS , __global const real_t *xyz, const real_t t_inc
#define INC_ARGS , xyz, t_inc
#else
#define INC_PARAMS
#define INC_ARGS
#endif

/* The six flux values at the VW flux indices i..i+VW-1 (i a multiple of VW; flux index
 * blk*FLUXP*VL + j*VL + lane is face node j of element blk*VL + lane), as vreals: lanes are
 * elements. The own traces load as vectors (the VW elements' node Fmask[j] is contiguous in
 * the interleaved layout); the neighbours' are gathered lane by lane. Padding face nodes
 * (j >= 4 NFP) and padding elements (zero face data) give zero. */
inline void flux_point(const int i, __global const real_t *restrict q, const int fs,
                       __global const int *restrict vmapM, __global const int *restrict vmapP,
                       __global const real_t *restrict fdata, vreal out[6] INC_PARAMS) {
  const int blk = i / (FLUXP * VL);
  const int r = i - blk * (FLUXP * VL);
  const int j = r / VL;
  const int lane0 = r - j * VL;
  if (j >= 4 * NFP) {
    for (int c = 0; c < 6; ++c) out[c] = (vreal)(0);
    return;
  }
  /* Face data interleaved like the fields: (k/VL)*4*FD*VL + (face*FD + c)*VL + k%VL. */
  __global const real_t *fd = fdata + blk * 4 * FD * VL + (j / NFP) * FD * VL + lane0;
  const vreal nx = VLOAD(fd), ny = VLOAD(fd + VL), nz = VLOAD(fd + 2 * VL);
  const vreal cEH = VLOAD(fd + 3 * VL), cEE = VLOAD(fd + 4 * VL);
  const vreal cHE = VLOAD(fd + 5 * VL), cHH = VLOAD(fd + 6 * VL);
  const vreal bcE = VLOAD(fd + 7 * VL), bcH = VLOAD(fd + 8 * VL);
  const int m = vmapM[i];
  vreal qP[6];
#if VW == 1
  const int p = vmapP[i];
  for (int c = 0; c < 6; ++c) qP[c] = q[c * fs + p];
#else
  real_t t[6][VW];
  for (int l = 0; l < VW; ++l) {
    const int p = vmapP[i + l];
    for (int c = 0; c < 6; ++c) t[c][l] = q[c * fs + p];
  }
  for (int c = 0; c < 6; ++c) qP[c] = VLOAD(t[c]);
#endif
  vreal dE[3], dH[3];
  for (int c = 0; c < 3; ++c) {
    const vreal em = VLOAD(q + c * fs + m), hm = VLOAD(q + (3 + c) * fs + m);
    dE[c] = qP[c] - em + bcE * em;
    dH[c] = qP[3 + c] - hm + bcH * hm;
  }
#if DG_INCIDENT
  {
    const vreal incE = VLOAD(fd + 9 * VL), incH = VLOAD(fd + 10 * VL);
    const vreal x = VLOAD(xyz + m), y = VLOAD(xyz + fs + m), z = VLOAD(xyz + 2 * fs + m);
    const vreal g = inc_pulse(t_inc - (DG_INC_KX * x + DG_INC_KY * y + DG_INC_KZ * z) +
                              DG_INC_KX0);
    const vreal gE = incE * g, gH = incH * g;
    dE[0] += gE * DG_INC_PX;
    dE[1] += gE * DG_INC_PY;
    dE[2] += gE * DG_INC_PZ;
    dH[0] += gH * DG_INC_HX;
    dH[1] += gH * DG_INC_HY;
    dH[2] += gH * DG_INC_HZ;
  }
#endif
  const vreal ndEx = ny * dE[2] - nz * dE[1], ndEy = nz * dE[0] - nx * dE[2],
              ndEz = nx * dE[1] - ny * dE[0];
  const vreal ndHx = ny * dH[2] - nz * dH[1], ndHy = nz * dH[0] - nx * dH[2],
              ndHz = nx * dH[1] - ny * dH[0];
  const vreal ax = cEH * dH[0] - cEE * ndEx, ay = cEH * dH[1] - cEE * ndEy,
              az = cEH * dH[2] - cEE * ndEz;
  const vreal bx = -cHE * dE[0] - cHH * ndHx, by = -cHE * dE[1] - cHH * ndHy,
              bz = -cHE * dE[2] - cHH * ndHz;
  out[0] = ny * az - nz * ay;
  out[1] = nz * ax - nx * az;
  out[2] = nx * ay - ny * ax;
  out[3] = ny * bz - nz * by;
  out[4] = nz * bx - nx * bz;
  out[5] = nx * by - ny * bx;
}

#if FLUX_MODE != FLUX_POINT
/* Lane l of a vreal from VW device indices: the neighbours' traces, gathered straight into
 * registers (no private array, which PoCL spills to the stack). */
#if VW == 1
typedef int vint;
#define VLOADI(p) (*(p))
#define GATHER(b, p) ((b)[p])
#elif VW == 2
typedef int2 vint;
#define VLOADI(p) vload2(0, (p))
#define GATHER(b, p) ((vreal)((b)[(p).s0], (b)[(p).s1]))
#elif VW == 4
typedef int4 vint;
#define VLOADI(p) vload4(0, (p))
#define GATHER(b, p) ((vreal)((b)[(p).s0], (b)[(p).s1], (b)[(p).s2], (b)[(p).s3]))
#elif VW == 8
typedef int8 vint;
#define VLOADI(p) vload8(0, (p))
#define GATHER(b, p)                                                                        \
  ((vreal)((b)[(p).s0], (b)[(p).s1], (b)[(p).s2], (b)[(p).s3], (b)[(p).s4], (b)[(p).s5],   \
           (b)[(p).s6], (b)[(p).s7]))
#else
typedef int16 vint;
#define VLOADI(p) vload16(0, (p))
#define GATHER(b, p)                                                                        \
  ((vreal)((b)[(p).s0], (b)[(p).s1], (b)[(p).s2], (b)[(p).s3], (b)[(p).s4], (b)[(p).s5],   \
           (b)[(p).s6], (b)[(p).s7], (b)[(p).s8], (b)[(p).s9], (b)[(p).sa], (b)[(p).sb],   \
           (b)[(p).sc], (b)[(p).sd], (b)[(p).se], (b)[(p).sf]))
#endif

/* One face's data for VW elements (the lanes). */
typedef struct {
  vreal nx, ny, nz, cEH, cEE, cHE, cHH, bcE, bcH;
#if DG_INCIDENT
  vreal incE, incH;
#endif
} face_data;

/* fd: the face's first datum of the lanes' elements (interleaved like the fields). Both
 * helpers must be inlined: called, PoCL passes the struct through memory (measured 2x). */
__attribute__((always_inline)) inline face_data load_face(__global const real_t *fd) {
  face_data F;
  F.nx = VLOAD(fd), F.ny = VLOAD(fd + VL), F.nz = VLOAD(fd + 2 * VL);
  F.cEH = VLOAD(fd + 3 * VL), F.cEE = VLOAD(fd + 4 * VL);
  F.cHE = VLOAD(fd + 5 * VL), F.cHH = VLOAD(fd + 6 * VL);
  F.bcE = VLOAD(fd + 7 * VL), F.bcH = VLOAD(fd + 8 * VL);
#if DG_INCIDENT
  F.incE = VLOAD(fd + 9 * VL), F.incH = VLOAD(fd + 10 * VL);
#endif
  return F;
}

/* The six fluxes at flux index i (face node of VW elements, as flux_point), into flux at
 * f*ffs + i: the same arithmetic as flux_point, straight-line, the neighbours' traces
 * gathered by lane. */
__attribute__((always_inline)) inline void
face_flux_eval(const face_data *F, const int i, __global const real_t *q, const int fs,
               __global const int *vmapM, __global const int *vmapP, __global real_t *flux,
               const int ffs INC_PARAMS) {
  const vreal nx = F->nx, ny = F->ny, nz = F->nz;
  const int m = vmapM[i];
  const vint p = VLOADI(vmapP + i);
  vreal dE[3], dH[3];
#pragma unroll
  for (int c = 0; c < 3; ++c) {
    const vreal em = VLOAD(q + c * fs + m), hm = VLOAD(q + (3 + c) * fs + m);
    /* 32-bit lane indices, so the gather takes them as they are (vgatherdps) */
    const vint pE = p + c * fs, pH = p + (3 + c) * fs;
    dE[c] = GATHER(q, pE) - em + F->bcE * em;
    dH[c] = GATHER(q, pH) - hm + F->bcH * hm;
  }
#if DG_INCIDENT
  {
    const vreal x = VLOAD(xyz + m), y = VLOAD(xyz + fs + m), z = VLOAD(xyz + 2 * fs + m);
    const vreal gi = inc_pulse(t_inc - (DG_INC_KX * x + DG_INC_KY * y + DG_INC_KZ * z) +
                               DG_INC_KX0);
    const vreal gE = F->incE * gi, gH = F->incH * gi;
    dE[0] += gE * DG_INC_PX;
    dE[1] += gE * DG_INC_PY;
    dE[2] += gE * DG_INC_PZ;
    dH[0] += gH * DG_INC_HX;
    dH[1] += gH * DG_INC_HY;
    dH[2] += gH * DG_INC_HZ;
  }
#endif
  const vreal ndEx = ny * dE[2] - nz * dE[1], ndEy = nz * dE[0] - nx * dE[2],
              ndEz = nx * dE[1] - ny * dE[0];
  const vreal ndHx = ny * dH[2] - nz * dH[1], ndHy = nz * dH[0] - nx * dH[2],
              ndHz = nx * dH[1] - ny * dH[0];
  const vreal ax = F->cEH * dH[0] - F->cEE * ndEx, ay = F->cEH * dH[1] - F->cEE * ndEy,
              az = F->cEH * dH[2] - F->cEE * ndEz;
  const vreal bx = -F->cHE * dE[0] - F->cHH * ndHx, by = -F->cHE * dE[1] - F->cHH * ndHy,
              bz = -F->cHE * dE[2] - F->cHH * ndHz;
  VSTORE(ny * az - nz * ay, flux + i);
  VSTORE(nz * ax - nx * az, flux + ffs + i);
  VSTORE(nx * ay - ny * ax, flux + 2 * ffs + i);
  VSTORE(ny * bz - nz * by, flux + 3 * ffs + i);
  VSTORE(nz * bx - nx * bz, flux + 4 * ffs + i);
  VSTORE(nx * by - ny * bx, flux + 5 * ffs + i);
}
#endif

#if LIFT_MODE != LIFT_FUSED && FLUX_MODE == FLUX_FACE
/* One work-item per face of the VL elements of a block (work-item g: block g/4, face g%4),
 * the NFP face nodes in a loop: the face data is loaded once per face rather than once per
 * node. Flux f at flux[f*ffs + i], ffs = Kpad*FLUXP. */
__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(flux)(__global const real_t *restrict q, const int fs,
                 __global const int *restrict vmapM, __global const int *restrict vmapP,
                 __global const real_t *restrict fdata, __global real_t *restrict flux
                 INC_PARAMS) {
  const int g = get_global_id(0);
  const int blk = g / 4, face = g - 4 * blk;
  const int ffs = get_global_size(0) / 4 * FLUXP * VL;
  for (int e = 0; e < EPW; ++e) {
    const face_data F = load_face(fdata + (blk * 4 + face) * FD * VL + e * VW);
    for (int n = 0; n < NFP; ++n)
      face_flux_eval(&F, blk * FLUXP * VL + (face * NFP + n) * VL + e * VW, q, fs, vmapM,
                     vmapP, flux, ffs INC_ARGS);
  }
}
#endif

#if LIFT_MODE != LIFT_FUSED && FLUX_MODE == FLUX_POINT
/* One work-item per VW face nodes; flux f at flux[f*ffs + i], ffs = VW * the global size. */
__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(flux)(__global const real_t *restrict q, const int fs,
                 __global const int *restrict vmapM, __global const int *restrict vmapP,
                 __global const real_t *restrict fdata, __global real_t *restrict flux
                 INC_PARAMS) {
  const int i = get_global_id(0) * VW;
  const int ffs = get_global_size(0) * VW;
  vreal o[6];
  flux_point(i, q, fs, vmapM, vmapP, fdata, o INC_ARGS);
  for (int f = 0; f < 6; ++f) VSTORE(o[f], flux + f * ffs + i);
}
#endif

#if LIFT_MODE != LIFT_FLUX_ONLY
/* Work-item (n0, b) of an LWI x LKB work-group lifts nodes n0, n0 + LWI, ... (LNPW of them,
 * those < NP) of the VL elements of block blk: every flux value loaded feeds LNPW nodes. */
#define LWI ((NP + LNPW - 1) / LNPW)
__kernel __attribute__((reqd_work_group_size(LWI, LKB, 1)))
#if LIFT_MODE == LIFT_FUSED
void KNAME(fluxlift)(__global const real_t *restrict q, const int fs,
                     __global const int *restrict vmapM, __global const int *restrict vmapP,
                     __global const real_t *restrict fdata, __global real_t *restrict rhs,
                     __global const real_t *restrict LIFTT INC_PARAMS)
#elif LIFT_MODE == LIFT_FUSED_UPDATE
void KNAME(liftupdate)(__global const real_t *restrict flux, const int ffs,
                       __global const real_t *restrict rhs, __global const real_t *restrict LIFTT,
                       const int fs, __global real_t *restrict q, __global real_t *restrict res,
                       const real_t rk_a, const real_t rk_dt, const real_t rk_b)
#else
void KNAME(lift)(__global const real_t *restrict flux, const int ffs,
                 __global real_t *restrict rhs, __global const real_t *restrict LIFTT,
                 const int fs)
#endif
{
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
      flux_point(base + p, q, fs, vmapM, vmapP, fdata, o INC_ARGS);
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
        /* The fluxes were computed from q by an earlier kernel, so q may change here. */
        const vreal r = rk_a * VLOAD(res + f * fs + o) +
                        rk_dt * (VLOAD(rhs + f * fs + o) + acc[u][e][f]);
        VSTORE(r, res + f * fs + o);
        VSTORE(VLOAD(q + f * fs + o) + rk_b * r, q + f * fs + o);
#else
        VSTORE(VLOAD(rhs + f * fs + o) + acc[u][e][f], rhs + f * fs + o);
#endif
      }
    }
  }
}
#undef LOP
#undef FAT
#undef LWI
#endif

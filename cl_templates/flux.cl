/* flux.cl: the numerical flux at face nodes and the flux kernel.
 *
 * Boundaries are branch-free: on a boundary face vmapP = vmapM and
 *   dE = E(P) - E(M) + bcE E(M) + incE E_inc,  dH = H(P) - H(M) + bcH H(M) + incH H_inc,
 * with (bcE, bcH) = (-2, 0) PEC, (0, -2) PMC, (-1, -1) absorbing, (0, 0) interior, and the
 * incident plane wave (incident.cl, only with DG_INCIDENT) weighted by (incE, incH) =
 * (1, 1) on absorbing faces in the total-field formulation (exterior state = incident
 * field), (-2, 0) on PEC faces in the scattered-field formulation (E+ = -E- - 2 E_inc),
 * (s, s) on the interior faces of a total-field/scattered-field surface (s = +1 on the
 * total-field side, -1 on the scattered side: the neighbour's field plus or minus the
 * incident one), (0, 0) elsewhere. The host folds Fscale, the impedances, alpha and 1/eps, 1/mu into
 * cEH cEE cHE cHH:
 *   flux_E = n x (cEH dH - cEE n x dE),  flux_H = n x (-cHE dE - cHH n x dH)
 * (flux_from_jumps, shared by both work splits).
 *
 * Flux index i = blk*FLUXP*VL + j*VL + lane is face node j of element blk*VL + lane; the
 * six fluxes of index i live at flux[f*ffs + i]. Padding face nodes (j >= 4 NFP) and
 * padding elements (zero face data) give zero.
 *
 * Helpers take no restrict-qualified pointers: inlined, those become LLVM noalias scope
 * intrinsics that other OpenCL compilers (Oclgrind's) do not know. */

/* One face's data for VW elements (the lanes). */
typedef struct {
  vreal nx, ny, nz, cEH, cEE, cHE, cHH, bcE, bcH;
#if DG_INCIDENT
  vreal incE, incH;
#endif
} face_data;

/* fd: the face's first datum of the lanes' elements (interleaved like the fields). The
 * helpers here must be inlined: called, PoCL passes structs and arrays through memory
 * (measured 2x). */
__attribute__((always_inline)) inline face_data load_face(__global const real_t *fd) {
  face_data F;
  F.nx = VLOAD(fd + FD_NX * VL), F.ny = VLOAD(fd + FD_NY * VL), F.nz = VLOAD(fd + FD_NZ * VL);
  F.cEH = VLOAD(fd + FD_CEH * VL), F.cEE = VLOAD(fd + FD_CEE * VL);
  F.cHE = VLOAD(fd + FD_CHE * VL), F.cHH = VLOAD(fd + FD_CHH * VL);
  F.bcE = VLOAD(fd + FD_BCE * VL), F.bcH = VLOAD(fd + FD_BCH * VL);
#if DG_INCIDENT
  F.incE = VLOAD(fd + FD_INCE * VL), F.incH = VLOAD(fd + FD_INCH * VL);
#endif
  return F;
}

/* The six fluxes from the jumps dE, dH across one face node. */
__attribute__((always_inline)) inline void flux_from_jumps(const face_data *F, const vreal dE[3],
                                                           const vreal dH[3], vreal out[6]) {
  const vreal nx = F->nx, ny = F->ny, nz = F->nz;
  const vreal ndEx = ny * dE[2] - nz * dE[1], ndEy = nz * dE[0] - nx * dE[2],
              ndEz = nx * dE[1] - ny * dE[0];
  const vreal ndHx = ny * dH[2] - nz * dH[1], ndHy = nz * dH[0] - nx * dH[2],
              ndHz = nx * dH[1] - ny * dH[0];
  const vreal ax = F->cEH * dH[0] - F->cEE * ndEx, ay = F->cEH * dH[1] - F->cEE * ndEy,
              az = F->cEH * dH[2] - F->cEE * ndEz;
  const vreal bx = -F->cHE * dE[0] - F->cHH * ndHx, by = -F->cHE * dE[1] - F->cHH * ndHy,
              bz = -F->cHE * dE[2] - F->cHH * ndHz;
  out[0] = ny * az - nz * ay;
  out[1] = nz * ax - nx * az;
  out[2] = nx * ay - ny * ax;
  out[3] = ny * bz - nz * by;
  out[4] = nz * bx - nx * bz;
  out[5] = nx * by - ny * bx;
}

/* Point split: the six fluxes at the VW flux indices i..i+VW-1 (i a multiple of VW), as
 * vreals whose lanes are elements. The own traces load as vectors (the VW elements' node
 * Fmask[j] is contiguous in the interleaved layout); the neighbours' are gathered lane by
 * lane through a private array. */
__attribute__((always_inline)) inline void
flux_point(const int i, __global const real_t *q, const int fs, __global const int *vmapM,
           __global const int *vmapP, __global const real_t *fdata,
           __global const real_t *xyz, const real_t t_inc, vreal out[6]) {
  const int blk = i / (FLUXP * VL);
  const int r = i - blk * (FLUXP * VL);
  const int j = r / VL;
  const int lane0 = r - j * VL;
  if (j >= 4 * NFP) {
    for (int c = 0; c < 6; ++c) out[c] = (vreal)(0);
    return;
  }
  const face_data F = load_face(fdata + blk * 4 * FD * VL + (j / NFP) * FD * VL + lane0);
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
    dE[c] = qP[c] - em + F.bcE * em;
    dH[c] = qP[3 + c] - hm + F.bcH * hm;
  }
#if DG_INCIDENT
  add_incident(dE, dH, F.incE, F.incH, xyz, fs, m, t_inc);
#else
  (void)xyz, (void)t_inc;
#endif
  flux_from_jumps(&F, dE, dH, out);
}

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

/* Face split: the six fluxes at flux index i of face F, stored to flux; straight-line, the
 * neighbours' traces gathered by lane. */
__attribute__((always_inline)) inline void
face_flux_eval(const face_data *F, const int i, __global const real_t *q, const int fs,
               __global const int *vmapM, __global const int *vmapP, __global real_t *flux,
               const int ffs, __global const real_t *xyz, const real_t t_inc) {
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
  add_incident(dE, dH, F->incE, F->incH, xyz, fs, m, t_inc);
#else
  (void)xyz, (void)t_inc;
#endif
  vreal o[6];
  flux_from_jumps(F, dE, dH, o);
  for (int f = 0; f < 6; ++f) VSTORE(o[f], flux + f * ffs + i);
}

#if LIFT_MODE != LIFT_FUSED
/* The flux kernel. FLUX_POINT: one work-item per VW face nodes. FLUX_FACE: one work-item per
 * face of the VL elements of a block (work-item g:
 * block g/4, face g%4), the NFP face nodes in a loop, so the face data is loaded once per
 * face rather than once per node. ffs = Kpad*FLUXP, the flux field stride, is an argument
 * rather than derived from the global size so a launch may cover a range of blocks (the
 * multirate levels, with a global offset). xyz and t_inc: the node coordinates
 * and the stage time for the incident wave (unused without one). */
__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(flux)(__global const real_t *restrict q, const int fs,
                 __global const int *restrict vmapM, __global const int *restrict vmapP,
                 __global const real_t *restrict fdata, __global real_t *restrict flux,
                 __global const real_t *restrict xyz, const real_t t_inc, const int ffs) {
#if FLUX_MODE == FLUX_FACE
  const int g = get_global_id(0);
  const int blk = g / 4, face = g - 4 * blk;
  for (int e = 0; e < EPW; ++e) {
    const face_data F = load_face(fdata + (blk * 4 + face) * FD * VL + e * VW);
    for (int n = 0; n < NFP; ++n)
      face_flux_eval(&F, blk * FLUXP * VL + (face * NFP + n) * VL + e * VW, q, fs, vmapM,
                     vmapP, flux, ffs, xyz, t_inc);
  }
#else
  const int i = get_global_id(0) * VW;
  vreal o[6];
  flux_point(i, q, fs, vmapM, vmapP, fdata, xyz, t_inc, o);
  for (int f = 0; f < 6; ++f) VSTORE(o[f], flux + f * ffs + i);
#endif
}
#endif

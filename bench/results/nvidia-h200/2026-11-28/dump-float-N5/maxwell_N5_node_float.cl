/* dgtd generated source: templates common.cl operator.cl volume.cl incident.cl flux.cl lift.cl update.cl element_node.cl energy.cl from /tmp/dgtd-gpu/cl_templates */
#define DG_DOUBLE 0
#define NP 56
#define NFP 21
#define NPP 56
#define FLUXP 84
#define VW 1
#define EPW 1
#define NODE_EPW 1
#define KB 4
#define LKB 1
#define VPLACE PLACE_NONE
#define LPLACE PLACE_NONE
#define UNROLL 0
#define LIFT_MODE LIFT_SEPARATE
#define LIFT_KERNEL lift
#define FLUX_MODE FLUX_POINT
#define LNPW 1
#define FUSE_MODE FUSE_STEP
#define FUSE_KERNEL rhsstep
#define LWI 56
#define DG_LITERAL_OPS 0
#define VARIANT node
#define DG_TEST_FLIP 0
#define DG_TEST_SYNTAX 0
#define DG_INCIDENT 0

/* ---- contract.h ---- */
/* contract.h: what the host (C) and the kernels (OpenCL C) agree on, written once.
 *
 * Valid C and OpenCL C. The host includes it (src/backend); dg_codegen_render puts it at the
 * top of every program, right after the host's #define lines, so a kernel reads the same
 * names the host writes and fills. docs/KERNELS.md says where a new kernel's names go.
 *
 *   1. The names of the host's choices, one table per choice.
 *   2. The layout of the per-element, per-face, energy and multirate data, field by field.
 *   3. The work-group width of the one-dimensional kernels.
 *
 * 1. Each choice is a table X(c_enum, cl_name, spec_word[, kernel]) in the order of its C
 * enum. The C enum is generated from it (c_enum = cl_name - 1: 0-based, as the struct fields
 * have always been), and so are the spec words (backend/variant.c) and the names the host
 * writes into a program ("#define VPLACE PLACE_MATRIX", backend/cl_maxwell_program.c). The
 * names are numbered from 1: a name the host or a template misspells is 0 inside #if, and
 * common.cl refuses a setting outside its table with #error rather than taking a branch. */
#ifndef DG_CONTRACT_H
#define DG_CONTRACT_H

/* path: hand-written kernels, or GEMMs through CLBlast + pointwise kernels */
#define PATH_KERNELS 1
#define PATH_CLBLAST 2
#define DG_PATH_CHOICES(X) X(DG_PATH_KERNELS, PATH_KERNELS, "kernels") \
                           X(DG_PATH_CLBLAST, PATH_CLBLAST, "clblast")

/* work: one node per work-item; vw elements per work-item in scalars or in vector lanes
 * (the kernels see VW and EPW, not the name) */
#define WORK_NODE 1
#define WORK_ELEM 2
#define WORK_VEC 3
#define DG_WORK_CHOICES(X) X(DG_WORK_NODE, WORK_NODE, "node") \
                           X(DG_WORK_ELEM, WORK_ELEM, "elem") \
                           X(DG_WORK_VEC, WORK_VEC, "vec")

/* VPLACE, LPLACE: what the volume (lift) kernel holds in local memory */
#define PLACE_NONE 1   /* nothing: operators and fields from global memory */
#define PLACE_MATRIX 2 /* the operator matrices */
#define PLACE_FIELD 3  /* the work-group's fields (volume) or fluxes (lift) */
#define DG_PLACE_CHOICES(X) X(DG_PLACE_NONE, PLACE_NONE, "none") \
                            X(DG_PLACE_MATRIX, PLACE_MATRIX, "matrix") \
                            X(DG_PLACE_FIELD, PLACE_FIELD, "field")

/* LIFT_MODE: which surface kernels the program holds; the fourth column is the lift
 * kernel's name (LIFT_KERNEL), the part before _<VARIANT> */
#define LIFT_SEPARATE 1     /* kernels flux + lift */
#define LIFT_FUSED 2        /* kernel fluxlift (fluxes through local memory) */
#define LIFT_FUSED_UPDATE 3 /* kernels flux + liftupdate (lift fused with the LSERK update) */
#define LIFT_FLUX_ONLY 4    /* kernel flux only: path=clblast lifts with a GEMM */
#define DG_LIFT_CHOICES(X) X(DG_LIFT_SEPARATE, LIFT_SEPARATE, "separate", lift) \
                           X(DG_LIFT_FUSED, LIFT_FUSED, "fused", fluxlift) \
                           X(DG_LIFT_FUSED_UPDATE, LIFT_FUSED_UPDATE, "fused-update", liftupdate)

/* FLUX_MODE: how the flux kernel divides the work */
#define FLUX_POINT 1 /* one work-item per VW face nodes */
#define FLUX_FACE 2  /* one work-item per face of VL elements */
#define DG_FLUX_CHOICES(X) X(DG_FLUX_POINT, FLUX_POINT, "point") \
                           X(DG_FLUX_FACE, FLUX_FACE, "face")

/* FUSE_MODE: one kernel for the whole right-hand side of a block, or none; the fourth column
 * is that kernel's name (FUSE_KERNEL) */
#define FUSE_NONE 1 /* the split kernels above */
#define FUSE_RHS 2  /* kernel rhs: writes rhs (element.cl, element_node.cl) */
#define FUSE_RES 3  /* kernel rhsres: res = a res + dt rhs, then qupdate (update.cl) */
#define FUSE_STEP 4 /* kernel rhsstep: res = a res + dt rhs and q_out = q_in + b res: the
                       whole stage; q ping-pongs between two buffers (qcopy once a step) */
#define DG_FUSE_CHOICES(X) X(DG_FUSE_NONE, FUSE_NONE, "none", none) \
                           X(DG_FUSE_RHS, FUSE_RHS, "rhs", rhs) \
                           X(DG_FUSE_RES, FUSE_RES, "res", rhsres) \
                           X(DG_FUSE_STEP, FUSE_STEP, "step", rhsstep)

/* prec (the kernels see DG_DOUBLE 0 or 1) */
#define PREC_FLOAT 1
#define PREC_DOUBLE 2
#define DG_PREC_CHOICES(X) X(DG_PREC_FLOAT, PREC_FLOAT, "float") \
                           X(DG_PREC_DOUBLE, PREC_DOUBLE, "double")

/* test: variants for the tests only (the kernels see DG_TEST_FLIP, DG_TEST_SYNTAX 0 or 1) */
#define TEST_NONE 1
#define TEST_FLIP 2   /* a sign flipped in the volume kernel */
#define TEST_SYNTAX 3 /* a syntax error in common.cl */
#define TEST_CRASH 4  /* the tuner's verification worker crashes on it */
#define DG_TEST_CHOICES(X) X(DG_VTEST_NONE, TEST_NONE, "none") \
                           X(DG_VTEST_FLIP, TEST_FLIP, "flip") \
                           X(DG_VTEST_SYNTAX, TEST_SYNTAX, "syntax") \
                           X(DG_VTEST_CRASH, TEST_CRASH, "crash")

/* DG_INC_SHAPE: the incident plane wave's pulse, in the order of dg/source.h's dg_pulse_shape */
#define INC_GAUSSIAN 1
#define INC_RICKER 2
#define INC_HARMONIC 3
#define INC_MODULATED_GAUSSIAN 4
#define DG_INC_CHOICES(X) X(DG_PULSE_GAUSSIAN, INC_GAUSSIAN, "gaussian") \
                          X(DG_PULSE_RICKER, INC_RICKER, "ricker") \
                          X(DG_PULSE_HARMONIC, INC_HARMONIC, "harmonic") \
                          X(DG_PULSE_MODULATED_GAUSSIAN, INC_MODULATED_GAUSSIAN, "modulated_gaussian")

/* Pole types of a dispersive medium (dispersive.cl), in the order of dg/dispersive.h's
 * dg_pole_type: the host writes these numbers into the pole table (DG_CHOICE_CODE). */
#define POLE_DEBYE 1
#define POLE_DRUDE 2
#define POLE_LORENTZ 3
#define DG_POLE_CHOICES(X) X(DG_POLE_DEBYE, POLE_DEBYE, "debye") \
                           X(DG_POLE_DRUDE, POLE_DRUDE, "drude") \
                           X(DG_POLE_LORENTZ, POLE_LORENTZ, "lorentz")

/* 2. Per-element data: EG reals per element, interleaved like the fields in blocks of VL
 * elements, (k / VL) * EG * VL + c * VL + k % VL for field c: the metric terms, 1/eps, 1/mu
 * and sigma/eps. */
#define EG_RX 0
#define EG_RY 1
#define EG_RZ 2
#define EG_SX 3
#define EG_SY 4
#define EG_SZ 5
#define EG_TX 6
#define EG_TY 7
#define EG_TZ 8
#define EG_INV_EPS 9
#define EG_INV_MU 10
#define EG_SIGMA_EPS 11
#define EG 12

/* Per-face data: FD reals per face, interleaved the same way,
 * (k / VL) * 4 * FD * VL + (face * FD + c) * VL + k % VL: the outward normal, the four
 * upwind flux weights, the boundary factors of E and H (-2 PEC/PMC, -1 absorbing, 0 none)
 * and the weights of the incident field (TF/SF, total- or scattered-field boundaries). */
#define FD_NX 0
#define FD_NY 1
#define FD_NZ 2
#define FD_CEH 3
#define FD_CEE 4
#define FD_CHE 5
#define FD_CHH 6
#define FD_BCE 7
#define FD_BCH 8
#define FD_INCE 9
#define FD_INCH 10
#define FD 12 /* one spare keeps a face's data a multiple of 4 reals */

/* Energy weights: EW reals per element, interleaved in blocks of VL like the element data:
 * 1/2 eps J and 1/2 mu J (energy.cl, energy_block.cl). */
#define EW_E 0
#define EW_H 1
#define EW 2

/* Multirate trajectory entries (multirate.cl): MR_ENT ints per element: its slot, its level,
 * the level top of its trajectory and its offsets in the trajectory states tq and tf. */
#define MR_SLOT 0
#define MR_LVL 1
#define MR_TOP 2
#define MR_OFFQ 3
#define MR_OFFF 4
#define MR_ENT 5

/* Dispersive elements (dispersive.cl): DE ints per dispersive element, the offset of its
 * first pole state (dg_maxwell_pole_size's layout) and its poles [DE_P0, DE_P1) in the pole
 * tables; PC reals per pole: Debye delta_eps, 1/tau, -; Drude omega_p^2, -, gamma;
 * Lorentz delta_eps, omega_0^2, 2 delta. */
#define DE_OFF 0
#define DE_P0 1
#define DE_P1 2
#define DE 3
#define PC_STRENGTH 0
#define PC_RATE 1
#define PC_DAMP 2
#define PC 3

/* 3. The work-group width of the one-dimensional kernels (flux, update, energy, halo, DFT,
 * multirate, PML, poles, sources); their global sizes are padded to it. */
#define WG1 64

/* Generators for the tables of part 1 (the host's side; the kernels use the names only). */
#define DG_CHOICE_ENUM(e, cl, ...) e = cl - 1,
#define DG_CHOICE_ARG1_(a, ...) a
#define DG_CHOICE_WORD(e, cl, ...) [e] = DG_CHOICE_ARG1_(__VA_ARGS__, 0),
#define DG_CHOICE_CLNAME(e, cl, ...) [e] = #cl,
#define DG_CHOICE_COUNT(e, cl, ...) +1
#define DG_CHOICE_KERNEL(e, cl, word, kernel) [e] = #kernel,
#define DG_CHOICE_CODE(e, cl, ...) [e] = cl,

#endif

/* ---- common.cl ---- */
/* common.cl: what every dgtd program shares: the real type, the element-interleaved layout
 * of the fields (VL, vreal, VLOAD) and its sizes. The host's #define lines and
 * cl_templates/contract.h come before it (src/backend decides every value; nothing is
 * re-decided here: the defaults below only let a template build on its own). The Maxwell
 * operator's own settings are operator.cl's. */

/* ---- the host's settings, with defaults for building a template alone ---- */

#ifndef DG_DOUBLE /* 1: real_t is double (needs cl_khr_fp64), 0: float */
#define DG_DOUBLE 0
#endif
#ifndef NP /* nodes per element at order N, (N+1)(N+2)(N+3)/6 */
#define NP 4
#endif
#ifndef NPP /* node stride of a field: NP padded to a multiple of 4 */
#define NPP 4
#endif
#ifndef VW /* vector width: elements held in the lanes of one vreal (1 = scalar) */
#define VW 1
#endif
#ifndef EPW /* vreals per work-item, each with its own accumulators (register blocking) */
#define EPW 1
#endif

#if DG_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define REAL double
#else
#define REAL float
#endif
typedef REAL real_t;
#pragma OPENCL FP_CONTRACT ON

#define DG_CAT_(a, b) a##b
#define DG_CAT(a, b) DG_CAT_(a, b)
/* Elements per interleaved block: the fields of VL consecutive elements are stored node by
 * node, (k / VL) * NPP * VL + n * VL + k % VL, so the VW lanes of a vreal are VW elements at
 * the same node and load with one vloadn. VL = 1 is plain element-major. */
#define VL (VW * EPW)
/* The per-element (EG_*), per-face (FD_*) and energy (EW_*) data are interleaved the same
 * way, field by field as contract.h names them. */

#if VW == 1
typedef real_t vreal;
#define VLOAD(p) (*(p))
#define VSTORE(v, p) (*(p) = (v))
#else
typedef DG_CAT(REAL, VW) vreal;
#define VLOAD(p) DG_CAT(vload, VW)(0, (p))
#define VSTORE(v, p) DG_CAT(vstore, VW)((v), 0, (p))
#endif

/* ---- operator.cl ---- */
/* operator.cl: the Maxwell operator's settings (the program of src/backend/cl_maxwell*.c:
 * volume, flux, lift, update, fused, energy, source and PML kernels), after common.cl. Where a
 * setting is a choice the host writes it by its name in contract.h
 * ("#define LIFT_MODE LIFT_FUSED_UPDATE"); a choice that is not one of its table's names
 * stops the build (#error below) instead of taking a branch. The defaults only let a
 * template build on its own. */

#ifndef NFP /* nodes per face, (N+1)(N+2)/2 */
#define NFP 3
#endif
#ifndef FLUXP /* face-node stride of the flux array: 4 NFP padded to a multiple of 4 */
#define FLUXP 12
#endif
#ifndef KB /* volume kernel: work-items along the element axis per work-group */
#define KB 1
#endif
#ifndef LKB /* lift kernel: the same */
#define LKB 1
#endif
#ifndef VPLACE /* volume: PLACE_NONE, PLACE_MATRIX (Dr,Ds,Dt local) or PLACE_FIELD (q local) */
#define VPLACE PLACE_NONE
#endif
#ifndef LPLACE /* lift: PLACE_NONE, PLACE_MATRIX (LIFT local) or PLACE_FIELD (fluxes local) */
#define LPLACE PLACE_NONE
#endif
#ifndef LIFT_MODE /* which surface kernels the program holds (LIFT_* above) */
#define LIFT_MODE LIFT_SEPARATE
#endif
#ifndef FLUX_MODE /* how the flux kernel divides the work (FLUX_* above) */
#define FLUX_MODE FLUX_POINT
#endif
#ifndef FUSE_MODE /* FUSE_* above: one kernel for the whole right-hand side, or none */
#define FUSE_MODE FUSE_NONE
#endif
#ifndef LIFT_KERNEL /* the lift kernel's name for LIFT_MODE (contract.h) */
#define LIFT_KERNEL lift
#endif
#ifndef FUSE_KERNEL /* the fused kernel's name for FUSE_MODE (contract.h) */
#define FUSE_KERNEL none
#endif
#ifndef LNPW /* lift: output nodes per work-item (each flux value loaded feeds LNPW nodes) */
#define LNPW 1
#endif
#ifndef LWI /* lift: work-items along the node axis of a work-group, ceil(NP / LNPW) */
#define LWI 4
#endif
#ifndef UNROLL /* unroll factor of the inner node loops; 0 = full */
#define UNROLL 1
#endif
#ifndef DG_LITERAL_OPS /* 1: operators come from the literal __constant arrays c_DrT... */
#define DG_LITERAL_OPS 0
#endif
#ifndef VARIANT /* suffix of the kernel names: volume_VARIANT, lift_VARIANT, ... */
#define VARIANT node
#endif
#ifndef DG_INCIDENT /* 1: a plane wave enters through the boundary (DG_INC_* in incident.cl) */
#define DG_INCIDENT 0
#endif
#ifndef DG_TEST_FLIP /* test only: 1 flips a sign in the volume kernel */
#define DG_TEST_FLIP 0
#endif
#ifndef DG_TEST_SYNTAX /* test only: 1 plants a syntax error here */
#define DG_TEST_SYNTAX 0
#endif

#if DG_TEST_SYNTAX
this is not OpenCL C;
#endif

/* A choice the host wrote by a name contract.h does not define is 0 here, below every name. */
#if VPLACE < PLACE_NONE || VPLACE > PLACE_FIELD || LPLACE < PLACE_NONE || LPLACE > PLACE_FIELD
#error "VPLACE, LPLACE: not one of contract.h's PLACE_* names"
#endif
#if LIFT_MODE < LIFT_SEPARATE || LIFT_MODE > LIFT_FLUX_ONLY
#error "LIFT_MODE: not one of contract.h's LIFT_* names"
#endif
#if FLUX_MODE < FLUX_POINT || FLUX_MODE > FLUX_FACE
#error "FLUX_MODE: not one of contract.h's FLUX_* names"
#endif
#if FUSE_MODE < FUSE_NONE || FUSE_MODE > FUSE_STEP
#error "FUSE_MODE: not one of contract.h's FUSE_* names"
#endif

/* Whether a stage leaves res = rk_a res + rk_dt rhs rather than rhs (the host's
 * dg_clm_result_in_res): the PML recovers rhs from it. */
#define RESULT_IN_RES \
  (LIFT_MODE == LIFT_FUSED_UPDATE || FUSE_MODE == FUSE_RES || FUSE_MODE == FUSE_STEP)

/* Kernel names <op>_<variant>. */
#define KNAME(op) DG_CAT(DG_CAT(op, _), VARIANT)

#define DG_PRAGMA_(x) _Pragma(#x)
#define DG_UNROLL_(n) DG_PRAGMA_(unroll n)
#if UNROLL == 0
#define UNROLL_LOOP DG_PRAGMA_(unroll)
#else
#define UNROLL_LOOP DG_UNROLL_(UNROLL)
#endif

/* ---- volume.cl ---- */
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

/* ---- incident.cl ---- */
/* incident.cl: the incident plane wave (dg/source.h), only with DG_INCIDENT:
 *   E_inc = P g(tau), H_inc = (k x P) g(tau), tau = t - k.x + k.x0,
 * evaluated at face nodes by the flux (flux.cl). The host bakes the wave in (DG_INC_*);
 * the defaults are a Gaussian along x. */
#if DG_INCIDENT
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
#ifndef DG_INC_SHAPE /* one of contract.h's INC_* names */
#define DG_INC_SHAPE INC_GAUSSIAN
#endif
#if DG_INC_SHAPE < INC_GAUSSIAN || DG_INC_SHAPE > INC_MODULATED_GAUSSIAN
#error "DG_INC_SHAPE: not one of contract.h's INC_* names"
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
#ifndef DG_INC_BWA /* modulated Gaussian: the envelope's rate pi B / (2 sqrt(ln 10)) */
#define DG_INC_BWA ((real_t)1)
#endif

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
#elif DG_INC_SHAPE == INC_MODULATED_GAUSSIAN
  const vreal e = DG_INC_BWA * s;
  return DG_INC_AMP * exp(-e * e) * sin((real_t)6.28318530717958647692 * DG_INC_F0 * s);
#else
  const vreal a = (real_t)3.14159265358979323846 * DG_INC_F0 * s;
#if DG_INC_SHAPE == INC_RICKER
  return DG_INC_AMP * ((real_t)1 - (real_t)2 * a * a) * exp(-a * a);
#else
  return DG_INC_AMP * exp(-a * a);
#endif
#endif
}

/* The incident field's part of the jumps at the face node with device index m:
 * dE += incE E_inc, dH += incH H_inc (xyz: node coordinates, 3 fields in the field
 * layout; t: the stage time). */
__attribute__((always_inline)) inline void
add_incident(vreal dE[3], vreal dH[3], const vreal incE, const vreal incH,
             __global const real_t *xyz, const int fs, const int m, const real_t t) {
  const vreal x = VLOAD(xyz + m), y = VLOAD(xyz + fs + m), z = VLOAD(xyz + 2 * fs + m);
  const vreal g = inc_pulse(t - (DG_INC_KX * x + DG_INC_KY * y + DG_INC_KZ * z) + DG_INC_KX0);
  const vreal gE = incE * g, gH = incH * g;
  dE[0] += gE * DG_INC_PX;
  dE[1] += gE * DG_INC_PY;
  dE[2] += gE * DG_INC_PZ;
  dH[0] += gH * DG_INC_HX;
  dH[1] += gH * DG_INC_HY;
  dH[2] += gH * DG_INC_HZ;
}
#endif

/* ---- flux.cl ---- */
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

/* ---- lift.cl ---- */
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

/* ---- update.cl ---- */
/* update.cl: one LSERK stage's axpys over all 6 fields,
 *   res = rk_a res + rk_dt rhs;  q = q + rk_b res
 * (update), or only the second (qupdate, after the fused rhsres kernel of element.cl); and
 * qcopy, dst = src, which brings q home to its first buffer after a step of rhsstep stages
 * (an odd number of them leaves it in the second).
 * Two reals per work-item: with one float each, an H100 moved 67% of its bandwidth in
 * these kernels against 100% with one double (too few bytes in flight per work-item). */
#define REAL2 DG_CAT(REAL, 2)

__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(update)(__global real_t *restrict q, __global real_t *restrict res,
                   __global const real_t *restrict rhs, const real_t rk_a, const real_t rk_dt,
                   const real_t rk_b) {
  const int i = get_global_id(0);
  const REAL2 r = rk_a * vload2(i, res) + rk_dt * vload2(i, rhs);
  vstore2(r, i, res);
  vstore2(vload2(i, q) + rk_b * r, i, q);
}

__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(qupdate)(__global real_t *restrict q, __global const real_t *restrict res,
                    const real_t rk_b) {
  const int i = get_global_id(0);
  vstore2(vload2(i, q) + rk_b * vload2(i, res), i, q);
}
__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(qcopy)(__global real_t *restrict dst, __global const real_t *restrict src) {
  const int i = get_global_id(0);
  vstore2(vload2(i, src), i, dst);
}
#undef REAL2

/* ---- element_node.cl ---- */
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

/* ---- energy.cl ---- */
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

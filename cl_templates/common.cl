/* common.cl: the real type, the problem sizes, the device data layout and small helpers
 * shared by every dgtd kernel. The host prepends #define lines that override the defaults
 * below (src/backend/cl_maxwell.c decides every value; nothing is re-decided here: the
 * defaults only let a template build on its own). Where a setting is a choice, the host
 * writes it by name ("#define LIFT_MODE LIFT_FUSED_UPDATE"); the names are defined once,
 * here. */

/* ---- names of the host's choices ---- */
#define PLACE_NONE 0        /* VPLACE, LPLACE: operators and fields from global memory */
#define PLACE_MATRIX 1      /* the operator matrices in local memory */
#define PLACE_FIELD 2       /* the work-group's fields (volume) or fluxes (lift) in local memory */
#define LIFT_SEPARATE 0     /* LIFT_MODE: kernels flux + lift */
#define LIFT_FUSED 1        /* kernel fluxlift (fluxes through local memory) */
#define LIFT_FUSED_UPDATE 2 /* kernels flux + liftupdate (lift fused with the LSERK update) */
#define LIFT_FLUX_ONLY 3    /* kernel flux (the CLBlast path lifts with a GEMM) */
#define FLUX_POINT 0        /* FLUX_MODE: one work-item per VW face nodes */
#define FLUX_FACE 1         /* one work-item per face of VL elements */
#define FUSE_NONE 0         /* FUSE_MODE: the split kernels above */
#define FUSE_RHS 1          /* kernel rhs: the whole rhs of a block per work-item (element.cl) */
#define FUSE_RES 2          /* kernel rhsres: the same into res = a res + dt rhs, then qupdate */
#define INC_GAUSSIAN 0      /* DG_INC_SHAPE: the incident pulse (dg_pulse_shape) */
#define INC_RICKER 1
#define INC_HARMONIC 2
#define INC_MODULATED_GAUSSIAN 3

/* ---- the host's settings, with defaults for building a template alone ---- */

#ifndef DG_DOUBLE /* 1: real_t is double (needs cl_khr_fp64), 0: float */
#define DG_DOUBLE 0
#endif
#ifndef N /* polynomial order */
#define N 1
#endif
#ifndef NP /* nodes per element, (N+1)(N+2)(N+3)/6 */
#define NP 4
#endif
#ifndef NFP /* nodes per face, (N+1)(N+2)/2 */
#define NFP 3
#endif
#ifndef NPP /* node stride of a field: NP padded to a multiple of 4 */
#define NPP 4
#endif
#ifndef FLUXP /* face-node stride of the flux array: 4 NFP padded to a multiple of 4 */
#define FLUXP 12
#endif
#ifndef VW /* vector width: elements held in the lanes of one vreal (1 = scalar) */
#define VW 1
#endif
#ifndef EPW /* vreals per work-item, each with its own accumulators (register blocking) */
#define EPW 1
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
#ifndef LNPW /* lift: output nodes per work-item (each flux value loaded feeds LNPW nodes) */
#define LNPW 1
#endif
#ifndef LWI /* lift: work-items along the node axis of a work-group, ceil(NP / LNPW) */
#define LWI 4
#endif
#ifndef EG /* reals of per-element data (layout below) */
#define EG 12
#endif
#ifndef FD /* reals of per-face data (layout below) */
#define FD 12
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
#ifndef WG1 /* work-group size of the 1D pointwise kernels (flux, update, curl) */
#define WG1 64
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
/* Kernel names <op>_<variant>. */
#define KNAME(op) DG_CAT(DG_CAT(op, _), VARIANT)

/* Elements per interleaved block: the fields of VL consecutive elements are stored node by
 * node, (k / VL) * NPP * VL + n * VL + k % VL, so the VW lanes of a vreal are VW elements at
 * the same node and load with one vloadn. VL = 1 is plain element-major. */
#define VL (VW * EPW)
/* Per-element data (EG reals): rx ry rz sx sy sz tx ty tz 1/eps 1/mu sigma/eps, interleaved
 * like the fields: (k / VL) * EG * VL + g * VL + k % VL. */
/* Per-face data (FD reals): nx ny nz cEH cEE cHE cHH bcE bcH incE incH (+1 unused),
 * interleaved like the fields: (k / VL) * 4 * FD * VL + (face * FD + c) * VL + k % VL. */

#if VW == 1
typedef real_t vreal;
#define VLOAD(p) (*(p))
#define VSTORE(v, p) (*(p) = (v))
#else
typedef DG_CAT(REAL, VW) vreal;
#define VLOAD(p) DG_CAT(vload, VW)(0, (p))
#define VSTORE(v, p) DG_CAT(vstore, VW)((v), 0, (p))
#endif

#define DG_PRAGMA_(x) _Pragma(#x)
#define DG_UNROLL_(n) DG_PRAGMA_(unroll n)
#if UNROLL == 0
#define UNROLL_LOOP DG_PRAGMA_(unroll)
#else
#define UNROLL_LOOP DG_UNROLL_(UNROLL)
#endif

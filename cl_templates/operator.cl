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

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

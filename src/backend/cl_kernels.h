/* cl_kernels.h: every kernel of the OpenCL Maxwell operator in one table, and the work
 * model (flops and fewest bytes) each is counted by. Everything that names a kernel comes
 * from here: the argument enums the host sets arguments by, the handles (dg_cl_maxwell.k[],
 * indexed by DG_CLK_<ID>) and their release, the kinds `dgtd bench` reports and the counts
 * it and the tuner divide by (bench/, tune/counts.c);
 * tests/backend/test_cl_kernel_table_matches_templates.c builds every kernel and checks its
 * arguments against the table.
 *
 * A kernel row: X(ID, name, template, ARGS, WORK, PROG)
 *   ID        DG_CLK_<ID>: the kernel's index in the table and in the operator's handles
 *   name      the kernel's name in its template, before the variant suffix (KNAME(name))
 *   template  the file of cl_templates/ it is written in
 *   ARGS      its argument list DG_CLK_ARGS_<ARGS>, in the order of the signature: rows
 *             ROW(P, NAME, param, type), from which the enum <ARGS>_ARG_<NAME> comes; param is
 *             the parameter's name in the template, type MEM (a __global pointer), INT, REAL
 *             (real_t), REAL16 (real16_t) or VEC (another vector by value); kernels with
 *             one signature share a list
 *   WORK      its work model DG_KERNEL_<WORK> (below)
 *   PROG      the program it is in, DG_CLK_PROG_<PROG> (below the table)
 * The ISA profiles, verification and Oclgrind cover every row (docs/KERNELS.md). A new
 * kernel: its template, a row here (and an argument list), the term that makes and
 * launches it (backend/cl_term.h). */
#ifndef DG_BACKEND_CL_KERNELS_H
#define DG_BACKEND_CL_KERNELS_H

#include "backend/variant.h"

#define DG_CL_KERNELS(X)                                                     \
  X(VOLUME, volume, "volume.cl", VOL, VOLUME, OP)                            \
  X(CURL, curl, "blas_pointwise.cl", CURL, CURL, OP)                         \
  X(FLUX, flux, "flux.cl", FLUX, FLUX, OP)                                   \
  X(LIFT, lift, "lift.cl", LIFT, LIFT, OP)                                   \
  X(FLUXLIFT, fluxlift, "lift.cl", LIFT, FLUXLIFT, OP)                       \
  X(LIFTUPDATE, liftupdate, "lift.cl", LIFT, LIFTUPDATE, OP)                 \
  X(UPDATE, update, "update.cl", UPD, UPDATE, OP)                            \
  X(RHS, rhs, "element.cl", FUSE, RHS, OP)                                   \
  X(RHSRES, rhsres, "element.cl", FUSE, RHSRES, OP)                          \
  X(RHSSTEP, rhsstep, "element.cl", FUSE, RHSSTEP, OP)                       \
  X(QUPDATE, qupdate, "update.cl", QUPD, QUPDATE, OP)                        \
  X(QCOPY, qcopy, "update.cl", QCOPY, QCOPY, OP)                             \
  X(ENERGY, energy, "energy.cl", EN, OTHER, OP)                              \
  X(ENERGY_BLOCK, energy, "energy_block.cl", ENB, OTHER, OP)                 \
  X(CURVED, curved, "curved.cl", CURV, OTHER, OP)                            \
  X(CURVFIX, curvfix, "curved.cl", CFIX, OTHER, OP)                          \
  X(CURVENERGY, curvenergy, "curved.cl", CEN, OTHER, OP)                     \
  X(PMLSAVE, pmlsave, "pml.cl", PMLSAVE, PML, OP)                            \
  X(PML, pml, "pml.cl", PML, PML, OP)                                        \
  X(PMLEND, pmlend, "pml.cl", PMLEND, PML, OP)                               \
  X(DISPSAVE, dispsave, "dispersive.cl", DSAVE, OTHER, OP)                   \
  X(DISP, disp, "dispersive.cl", DISP, OTHER, OP)                            \
  X(SOURCE, source, "source.cl", SRC, OTHER, OP)                             \
  X(MR_COMPLETE, mr_complete, "multirate.cl", MRCO, OTHER, MR)               \
  X(MR_DENSE, mr_dense, "multirate.cl", MRDE, OTHER, MR)                     \
  X(MR_ADVANCE, mr_advance, "multirate.cl", MRAD, OTHER, MR)                 \
  X(MR_COPY, mr_copy, "multirate.cl", MRCP, OTHER, MR)                       \
  X(MR_LSERK, mr_lserk, "multirate.cl", MRLS, OTHER, MR)                     \
  X(MR_COMPLETE_LEVELS, mr_complete_levels, "multirate.cl", MRCL, OTHER, MR) \
  X(MR_TRAJ_RECORD, mr_traj_record, "multirate.cl", MRTR, OTHER, MR)         \
  X(MR_TRAJ_EVAL, mr_traj_eval, "multirate.cl", MRTE, OTHER, MR)             \
  X(MR_DENSE_AT, mr_dense_at, "multirate.cl", MRDA, OTHER, MR)               \
  X(MR_STAGE, mr_stage, "multirate.cl", MRST, OTHER, MR)                     \
  X(HALO_PACK, halo_pack, "halo.cl", HALO, OTHER, HALO)                      \
  X(HALO_UNPACK, halo_unpack, "halo.cl", HALO, OTHER, HALO)                  \
  X(DFT_ACCUMULATE, dft_accumulate, "dft.cl", DFT, OTHER, DFT)
/* rhs, rhsres and rhsstep: element.cl, or element_node.cl for work=node (one signature). The
 * programs (PROG): OP the operator's (cl_maxwell_program.c; kernels named
 * <name>_<variant suffix>), MR the multirate stepper's (cl_multirate.c), HALO the MPI halo's
 * (cl_maxwell_halo.c), DFT the running DFTs' (cl_dft.c); the last three named as is. */

#define DG_CLK_ARGS_VOL(ROW, P)                                                         \
  ROW(P, Q, q, MEM) ROW(P, RHS, rhs, MEM) ROW(P, EGEO, egeo, MEM) ROW(P, DRT, DrT, MEM) \
  ROW(P, DST, DsT, MEM) ROW(P, DTT, DtT, MEM) ROW(P, FS, fs, INT)
#define DG_CLK_ARGS_CURL(ROW, P)                                                    \
  ROW(P, D, D, MEM) ROW(P, Q, q, MEM) ROW(P, EGEO, egeo, MEM) ROW(P, RHS, rhs, MEM)
#define DG_CLK_ARGS_FLUX(ROW, P)                                                            \
  ROW(P, Q, q, MEM) ROW(P, FS, fs, INT) ROW(P, VMAPM, vmapM, MEM) ROW(P, VMAPP, vmapP, MEM) \
  ROW(P, FDATA, fdata, MEM) ROW(P, FLUX, flux, MEM) ROW(P, XYZ, xyz, MEM)                   \
  ROW(P, T, t_inc, REAL) ROW(P, FFS, ffs, INT)
#define DG_CLK_ARGS_LIFT(ROW, P)                                                        \
  ROW(P, FLUX, flux, MEM) ROW(P, FFS, ffs, INT) ROW(P, RHS, rhs, MEM)                   \
  ROW(P, LIFTT, LIFTT, MEM) ROW(P, FS, fs, INT) ROW(P, Q, q, MEM) ROW(P, RES, res, MEM) \
  ROW(P, A, rk_a, REAL) ROW(P, DT, rk_dt, REAL) ROW(P, B, rk_b, REAL)                   \
  ROW(P, VMAPM, vmapM, MEM) ROW(P, VMAPP, vmapP, MEM) ROW(P, FDATA, fdata, MEM)         \
  ROW(P, XYZ, xyz, MEM) ROW(P, T, t_inc, REAL)
#define DG_CLK_ARGS_UPD(ROW, P)                                                       \
  ROW(P, Q, q, MEM) ROW(P, RES, res, MEM) ROW(P, RHS, rhs, MEM) ROW(P, A, rk_a, REAL) \
  ROW(P, DT, rk_dt, REAL) ROW(P, B, rk_b, REAL)
#define DG_CLK_ARGS_FUSE(ROW, P)                                                              \
  ROW(P, Q, q, MEM) ROW(P, OUT, out, MEM) ROW(P, FS, fs, INT) ROW(P, EGEO, egeo, MEM)         \
  ROW(P, DRT, DrT, MEM) ROW(P, DST, DsT, MEM) ROW(P, DTT, DtT, MEM) ROW(P, LIFTT, LIFTT, MEM) \
  ROW(P, VMAPM, vmapM, MEM) ROW(P, VMAPP, vmapP, MEM) ROW(P, FDATA, fdata, MEM)               \
  ROW(P, XYZ, xyz, MEM) ROW(P, T, t_inc, REAL) ROW(P, A, rk_a, REAL) ROW(P, DT, rk_dt, REAL)  \
  ROW(P, QOUT, qout, MEM) ROW(P, B, rk_b, REAL)
#define DG_CLK_ARGS_QUPD(ROW, P) ROW(P, Q, q, MEM) ROW(P, RES, res, MEM) ROW(P, B, rk_b, REAL)
#define DG_CLK_ARGS_QCOPY(ROW, P) ROW(P, DST, dst, MEM) ROW(P, SRC, src, MEM)
#define DG_CLK_ARGS_EN(ROW, P)                                                \
  ROW(P, Q, q, MEM) ROW(P, FS, fs, INT) ROW(P, M, M, MEM) ROW(P, EW, ew, MEM) \
  ROW(P, OUT, out, MEM) ROW(P, KOWNED, k_owned, INT)
#define DG_CLK_ARGS_ENB(ROW, P) DG_CLK_ARGS_EN(ROW, P) ROW(P, NBLK, n_blocks, INT)
#define DG_CLK_ARGS_CURV(ROW, P)                                                            \
  ROW(P, Q, q, MEM) ROW(P, FS, fs, INT) ROW(P, RES, res, MEM) ROW(P, VMAPM, vmapM, MEM)     \
  ROW(P, VMAPP, vmapP, MEM) ROW(P, XYZ, xyz, MEM) ROW(P, T, t_inc, REAL)                    \
  ROW(P, EGEO, egeo, MEM) ROW(P, CSLOT, cslot, MEM) ROW(P, CFACE, cface, MEM)               \
  ROW(P, CWQ, cwq, MEM) ROW(P, CFQ, cfq, MEM) ROW(P, CMINV, cminv, MEM) ROW(P, CL, cL, MEM) \
  ROW(P, CLF, cLf, MEM) ROW(P, CFPOS, cfpos, MEM) ROW(P, CRHS, crhs, MEM)                   \
  ROW(P, CSAVE, csave, MEM) ROW(P, NCN, ncn, INT)
#define DG_CLK_ARGS_CFIX(ROW, P)                                                              \
  ROW(P, CRHS, crhs, MEM) ROW(P, CSAVE, csave, MEM) ROW(P, CSLOT, cslot, MEM)                 \
  ROW(P, OUT_R, out_r, MEM) ROW(P, RES, res, MEM) ROW(P, QOUT, q_out, MEM)                    \
  ROW(P, FS, fs, INT) ROW(P, NCN, ncn, INT) ROW(P, UPDATE, update, INT) ROW(P, A, rk_a, REAL) \
  ROW(P, DT, rk_dt, REAL) ROW(P, B, rk_b, REAL)
#define DG_CLK_ARGS_CEN(ROW, P)                                                       \
  ROW(P, Q, q, MEM) ROW(P, FS, fs, INT) ROW(P, CSLOT, cslot, MEM) ROW(P, CM, cM, MEM) \
  ROW(P, CEW, cew, MEM) ROW(P, OUT, out, MEM) ROW(P, NOWNED, n_owned, INT)
#define DG_CLK_ARGS_PMLSAVE(ROW, P)                                                           \
  ROW(P, RES, res, MEM) ROW(P, SAVED, saved, MEM) ROW(P, NODE, node, MEM) ROW(P, FS, fs, INT) \
  ROW(P, NPN, npn, INT) ROW(P, JEND, j_end, INT)
#define DG_CLK_ARGS_PML(ROW, P)                                                                \
  ROW(P, C, cbuf, MEM) ROW(P, SAVED, saved, MEM) ROW(P, W, w, MEM) ROW(P, WRES, wres, MEM)     \
  ROW(P, PU3, pu3, MEM) ROW(P, MATS, mats, MEM) ROW(P, MAT_OF, mat_of, MEM)                    \
  ROW(P, ALPHA, alpha, MEM) ROW(P, NODE, node, MEM) ROW(P, FS, fs, INT) ROW(P, NPN, npn, INT) \
  ROW(P, A, rk_a, REAL) ROW(P, DT, rk_dt, REAL) ROW(P, JEND, j_end, INT)
#define DG_CLK_ARGS_PMLEND(ROW, P)                                                              \
  ROW(P, OUT_A, out_a, MEM) ROW(P, OUT_B, out_b, MEM) ROW(P, C, cbuf, MEM)                      \
  ROW(P, SAVED, saved, MEM) ROW(P, W, w, MEM) ROW(P, WRES, wres, MEM) ROW(P, PU3, pu3, MEM)     \
  ROW(P, MATS, mats, MEM) ROW(P, MAT_OF, mat_of, MEM) ROW(P, NODE, node, MEM) ROW(P, FS, fs, INT) \
  ROW(P, NPN, npn, INT) ROW(P, A, rk_a, REAL) ROW(P, DT, rk_dt, REAL) ROW(P, B, rk_b, REAL)     \
  ROW(P, SA, sa, REAL) ROW(P, SB, sb, REAL) ROW(P, JEND, j_end, INT)
#define DG_CLK_ARGS_DSAVE(ROW, P)                                                         \
  ROW(P, Q, q, MEM) ROW(P, SAVED, saved, MEM) ROW(P, NODE, node, MEM) ROW(P, FS, fs, INT) \
  ROW(P, NDN, ndn, INT)
#define DG_CLK_ARGS_DISP(ROW, P)                                                          \
  ROW(P, OUT_A, out_a, MEM) ROW(P, OUT_B, out_b, MEM) ROW(P, SAVED, saved, MEM)           \
  ROW(P, W, w, MEM) ROW(P, WRES, wres, MEM) ROW(P, DELEM, delem, MEM)                     \
  ROW(P, INV_EPS, inv_eps, MEM) ROW(P, PTYPE, ptype, MEM) ROW(P, PCOEF, pcoef, MEM)       \
  ROW(P, NODE, node, MEM) ROW(P, FS, fs, INT) ROW(P, NDN, ndn, INT) ROW(P, A, rk_a, REAL) \
  ROW(P, DT, rk_dt, REAL) ROW(P, B, rk_b, REAL) ROW(P, SA, sa, REAL) ROW(P, SB, sb, REAL)
#define DG_CLK_ARGS_SRC(ROW, P)                                             \
  ROW(P, OUT_A, out_a, MEM) ROW(P, OUT_B, out_b, MEM) ROW(P, FS, fs, INT)   \
  ROW(P, PROF, prof, MEM) ROW(P, NODE, node, MEM) ROW(P, FIRST, first, INT) \
  ROW(P, COUNT, count, INT) ROW(P, GA, ga, REAL16) ROW(P, GB, gb, REAL16)

#define DG_CLK_ARGS_MRCO(ROW, P)                                                            \
  ROW(P, Q, q, MEM) ROW(P, QE, qe, MEM) ROW(P, F0, f0, MEM) ROW(P, F1, f1, MEM)               \
  ROW(P, F2, f2, MEM) ROW(P, FS, fs, INT) ROW(P, I1, i1, INT) ROW(P, C0, c0, REAL)            \
  ROW(P, C1, c1, REAL) ROW(P, C2, c2, REAL)
#define DG_CLK_ARGS_MRDE(ROW, P)                                                            \
  ROW(P, QE, qe, MEM) ROW(P, Q, q, MEM) ROW(P, F0, f0, MEM) ROW(P, F1, f1, MEM)               \
  ROW(P, F2, f2, MEM) ROW(P, FS, fs, INT) ROW(P, LIST, list, MEM) ROW(P, FIRST, first, INT)   \
  ROW(P, C0, c0, REAL) ROW(P, C1, c1, REAL) ROW(P, C2, c2, REAL) ROW(P, N, count, INT)
#define DG_CLK_ARGS_MRAD(ROW, P)                                                            \
  ROW(P, W, w, MEM) ROW(P, F0, f0, MEM) ROW(P, F1, f1, MEM) ROW(P, F2, f2, MEM)               \
  ROW(P, FS, fs, INT) ROW(P, I1, i1, INT) ROW(P, C0, c0, REAL) ROW(P, C1, c1, REAL)           \
  ROW(P, C2, c2, REAL)
#define DG_CLK_ARGS_MRCP(ROW, P)                                                            \
  ROW(P, DST, dst, MEM) ROW(P, SRC, src, MEM) ROW(P, FS, fs, INT) ROW(P, I1, i1, INT)         \
  ROW(P, DST2, dst2, MEM)
#define DG_CLK_ARGS_MRLS(ROW, P)                                                            \
  ROW(P, Q, q, MEM) ROW(P, RES, res, MEM) ROW(P, F, F, MEM) ROW(P, FS, fs, INT)               \
  ROW(P, I1, i1, INT) ROW(P, A, a, REAL) ROW(P, DT, dt, REAL) ROW(P, B, b, REAL)
#define DG_CLK_ARGS_MRCL(ROW, P)                                                            \
  ROW(P, Q, q, MEM) ROW(P, QE, qe, MEM) ROW(P, H0, h0, MEM) ROW(P, H1, h1, MEM)               \
  ROW(P, H2, h2, MEM) ROW(P, FS, fs, INT) ROW(P, I1, i1, INT) ROW(P, BND, bnd, MEM)           \
  ROW(P, HEADS, heads, INT) ROW(P, C0, c0, REAL) ROW(P, C1, c1, REAL) ROW(P, C2, c2, REAL)
#define DG_CLK_ARGS_MRTR(ROW, P)                                                            \
  ROW(P, TQ, tq, MEM) ROW(P, TF, tf, MEM) ROW(P, Q, q, MEM) ROW(P, F, f, MEM)                 \
  ROW(P, FS, fs, INT) ROW(P, ENT, ent, MEM) ROW(P, FIRST, first, INT) ROW(P, M, m, INT)       \
  ROW(P, N, count, INT)
#define DG_CLK_ARGS_MRTE(ROW, P)                                                            \
  ROW(P, QE, qe, MEM) ROW(P, TQ, tq, MEM) ROW(P, TF, tf, MEM) ROW(P, FS, fs, INT)             \
  ROW(P, ENT, ent, MEM) ROW(P, LIST, list, MEM) ROW(P, FIRST, first, INT) ROW(P, T, T, INT)   \
  ROW(P, TAU, tau, REAL) ROW(P, H0, h0, REAL) ROW(P, N, count, INT)
#define DG_CLK_ARGS_MRDA(ROW, P)                                                            \
  ROW(P, QE, qe, MEM) ROW(P, Q, q, MEM) ROW(P, H0, h0b, MEM) ROW(P, H1, h1b, MEM)             \
  ROW(P, H2, h2b, MEM) ROW(P, FS, fs, INT) ROW(P, LIST, list, MEM) ROW(P, FIRST, first, INT)  \
  ROW(P, BND, bnd, MEM) ROW(P, HEADS, heads, INT) ROW(P, T, T, INT) ROW(P, TAU, tau, REAL)    \
  ROW(P, STEP, h0, REAL) ROW(P, N, count, INT)
#define DG_CLK_ARGS_MRST(ROW, P)                                                            \
  ROW(P, Q, q, MEM) ROW(P, QE, qe, MEM) ROW(P, RES, res, MEM) ROW(P, F, F, MEM)               \
  ROW(P, FS, fs, INT) ROW(P, I0, i0, INT) ROW(P, I1, i1, INT) ROW(P, W, w, MEM)               \
  ROW(P, WRES, wres, MEM) ROW(P, WF, wF, MEM) ROW(P, WS, ws, INT) ROW(P, J0, j0, INT)         \
  ROW(P, J1, j1, INT) ROW(P, A, a, REAL) ROW(P, DT, dt, REAL) ROW(P, B, b, REAL)
#define DG_CLK_ARGS_HALO(ROW, P)                                                            \
  ROW(P, Q, q, MEM) ROW(P, SLOT, slot, MEM) ROW(P, BUF, buf, MEM) ROW(P, N, n, INT)
#define DG_CLK_ARGS_DFT(ROW, P)                                                             \
  ROW(P, Q, q, MEM) ROW(P, FS, fs, INT) ROW(P, START, start, MEM) ROW(P, NODE, node, MEM)     \
  ROW(P, WT, wt, MEM) ROW(P, NSAMP, nsamp, INT) ROW(P, F0, f0, INT) ROW(P, NF, nf, INT)       \
  ROW(P, RE, re, MEM) ROW(P, IM, im, MEM) ROW(P, CRE, cre, MEM) ROW(P, CIM, cim, MEM)         \
  ROW(P, C, cv, VEC) ROW(P, S, sv, VEC)

/* The argument lists, for the enums below and the table of cl_kernels.c. */
#define DG_CLK_ARG_LISTS(L)                                                        \
  L(VOL) L(CURL) L(FLUX) L(LIFT) L(UPD) L(FUSE) L(QUPD) L(QCOPY) L(EN) L(ENB) L(CURV) \
  L(CFIX) L(CEN) L(PMLSAVE) L(PML) L(PMLEND) L(DSAVE) L(DISP) L(SRC) L(MRCO) L(MRDE) L(MRAD) L(MRCP) \
  L(MRLS) L(MRCL) L(MRTR) L(MRTE) L(MRDA) L(MRST) L(HALO) L(DFT)

/* The argument enums, by list: VOL_ARG_Q, ..., VOL_ARG_COUNT_. */
#define DG_CLK_ARG_ENUM_(P, NAME, param, type) P##_ARG_##NAME,
#define DG_CLK_ARG_ENUMS_(P) enum { DG_CLK_ARGS_##P(DG_CLK_ARG_ENUM_, P) P##_ARG_COUNT_ };
DG_CLK_ARG_LISTS(DG_CLK_ARG_ENUMS_)
#undef DG_CLK_ARG_ENUMS_
#undef DG_CLK_ARG_ENUM_

/* The kernels' ids (the operator's handles, dg_cl_maxwell.k[], cover every row; only the
 * OP rows are made there). */
typedef enum {
#define DG_CLK_ID_(ID, name, tmpl, ARGS, WORK, PROG) DG_CLK_##ID,
  DG_CL_KERNELS(DG_CLK_ID_)
#undef DG_CLK_ID_
  DG_CLK_COUNT
} dg_clk_id;

/* The work models, in the order `dgtd bench` reports them: W(ID, name, flops, bytes, ops)
 * per element per launch (bytes: the fewest, of the fields, element and face data and
 * neighbour indices; ops: the operator matrices, read once per launch), in terms of
 * np = Np, nfp = Nfp, rs (the real size) and idx = 16 Nfp (one 4-byte neighbour index per
 * face node). The terms (tune/counts.h says how each is derived): volume 36 Np^2 + 78 Np
 * (of which the GEMM path's curl does the pointwise 78 Np), flux 288 Nfp, lift
 * 48 Np Nfp + 6 Np, update 30 Np (res = a res + dt rhs: 18 Np of them, q += b res: 12 Np).
 * GEMM_VOLUME and GEMM_LIFT are CLBlast's calls on the GEMM path; PML (pml and pmlsave)
 * and OTHER (sources, poles, curved elements, energy, the halo) are timed, not counted. */
#define DG_CLW_VOL_ (36.0 * np * np + 78.0 * np)
#define DG_CLW_FLUX_ (288.0 * nfp)
#define DG_CLW_LIFT_ (48.0 * np * nfp + 6.0 * np)
#define DG_CLW_UPD_ (30.0 * np)
#define DG_CL_WORK(W)                                                                      \
  W(VOLUME, volume, DG_CLW_VOL_, (12.0 * np + 12.0) * rs, 3.0 * np * np * rs)              \
  W(FLUX, flux, DG_CLW_FLUX_, (48.0 * nfp + 36.0) * rs + idx, 0)                           \
  W(LIFT, lift, DG_CLW_LIFT_, (24.0 * nfp + 12.0 * np) * rs, 4.0 * np * nfp * rs)          \
  W(LIFTUPDATE, liftupdate, DG_CLW_LIFT_ + DG_CLW_UPD_, (24.0 * nfp + 30.0 * np) * rs,     \
    4.0 * np * nfp * rs)                                                                   \
  W(FLUXLIFT, fluxlift, DG_CLW_FLUX_ + DG_CLW_LIFT_,                                       \
    (24.0 * nfp + 36.0 + 12.0 * np) * rs + idx, 4.0 * np * nfp * rs)                       \
  W(UPDATE, update, DG_CLW_UPD_, 30.0 * np * rs, 0)                                        \
  W(CURL, curl, 78.0 * np, (27.0 * np + 12.0) * rs, 0)                                     \
  W(GEMM_VOLUME, gemm_volume, DG_CLW_VOL_ - 78.0 * np, 24.0 * np * rs, 3.0 * np * np * rs) \
  W(GEMM_LIFT, gemm_lift, DG_CLW_LIFT_, (24.0 * nfp + 12.0 * np) * rs, 4.0 * np * nfp * rs) \
  W(RHS, rhs, DG_CLW_VOL_ + DG_CLW_FLUX_ + DG_CLW_LIFT_, (12.0 * np + 48.0) * rs + idx,     \
    (3.0 * np * np + 4.0 * np * nfp) * rs)                                                 \
  W(RHSRES, rhsres, DG_CLW_VOL_ + DG_CLW_FLUX_ + DG_CLW_LIFT_ + 18.0 * np,                  \
    (18.0 * np + 48.0) * rs + idx, (3.0 * np * np + 4.0 * np * nfp) * rs)                  \
  W(QUPDATE, qupdate, 12.0 * np, 18.0 * np * rs, 0)                                        \
  W(RHSSTEP, rhsstep, DG_CLW_VOL_ + DG_CLW_FLUX_ + DG_CLW_LIFT_ + DG_CLW_UPD_,              \
    (24.0 * np + 48.0) * rs + idx, (3.0 * np * np + 4.0 * np * nfp) * rs)                  \
  W(QCOPY, qcopy, 0, 12.0 * np * rs / DG_LSERK_STAGES, 0)                                  \
  W(PML, pml, 0, 0, 0)                                                                     \
  W(OTHER, other, 0, 0, 0)
/* rhsstep: q and res read and written once, the stage's minimum (tune/counts.c); qcopy:
 * 6 Np reals read and written once per step of DG_LSERK_STAGES stages (its share of one). */

typedef enum {
#define DG_CLW_ID_(ID, name, flops, bytes, ops) DG_KERNEL_##ID,
  DG_CL_WORK(DG_CLW_ID_)
#undef DG_CLW_ID_
  DG_KERNEL_KINDS
} dg_kernel_kind;

/* How an argument is passed (the table's type column): a __global pointer, an int, a real_t,
 * a real16_t, a vector of another size by value (dft.cl's phase_t). */
typedef enum { DG_CLK_MEM, DG_CLK_INT, DG_CLK_REAL, DG_CLK_REAL16, DG_CLK_VEC } dg_clk_type;

/* The programs (the table's PROG column). */
typedef enum { DG_CLK_PROG_OP, DG_CLK_PROG_MR, DG_CLK_PROG_HALO, DG_CLK_PROG_DFT } dg_clk_prog;

typedef struct {
  const char *param; /* the template's parameter name */
  dg_clk_type type;
} dg_clk_arg;

/* A row of the table. */
typedef struct {
  const char *name, *tmpl;
  const dg_clk_arg *args;
  int n_args;
  dg_kernel_kind work;
  dg_clk_prog prog;
} dg_clk_info;

const dg_clk_info *dg_clk_info_of(dg_clk_id id);
/* The id of the kernel called name (before its variant suffix) in template tmpl (NULL: the
 * first row of that name); -1 if none. */
int dg_clk_find(const char *name, const char *tmpl);
/* The index of the argument called param, or -1. */
int dg_clk_arg_index(dg_clk_id id, const char *param);

/* A work model's name, and its counts for one element at order N in precision p. */
const char *dg_kernel_kind_name(dg_kernel_kind k);
double dg_kernel_flops(dg_kernel_kind k, int N);
double dg_kernel_bytes(dg_kernel_kind k, int N, dg_precision p);
double dg_kernel_operator_bytes(dg_kernel_kind k, int N, dg_precision p);
/* The model of the kernel called name: "<name>_<variant suffix>" or a GEMM's own name
 * (gemm_volume); OTHER for a name not in the table. */
dg_kernel_kind dg_kernel_kind_of(const char *name);

#endif

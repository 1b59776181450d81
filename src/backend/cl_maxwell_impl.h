/* cl_maxwell_impl.h: the OpenCL operator's private struct and the helpers its files share
 * (cl_maxwell.c: life and state; cl_maxwell_data.c: the host-side data; cl_maxwell_program.c:
 * the program and its arguments; cl_maxwell_stage.c: a stage; cl_maxwell_halo.c: the MPI
 * halo). Nothing outside src/backend/cl_maxwell*.c includes it. */
#ifndef DG_BACKEND_CL_MAXWELL_IMPL_H
#define DG_BACKEND_CL_MAXWELL_IMPL_H

#include "backend/cl_maxwell.h"
#include "contract.h"
#include "contract_curved.h"
#include "device/program.h"
#include "dg/pml.h"

enum { SRC_BATCH = 16 }; /* sources per launch of the source kernel (source.cl) */

/* Kernel arguments by name, in the order of the templates' signatures. */
enum { VOL_ARG_Q, VOL_ARG_RHS, VOL_ARG_EGEO, VOL_ARG_DRT, VOL_ARG_DST, VOL_ARG_DTT, VOL_ARG_FS };
enum { CURL_ARG_D, CURL_ARG_Q, CURL_ARG_EGEO, CURL_ARG_RHS };
enum { FLUX_ARG_Q, FLUX_ARG_FS, FLUX_ARG_VMAPM, FLUX_ARG_VMAPP, FLUX_ARG_FDATA, FLUX_ARG_FLUX,
       FLUX_ARG_XYZ, FLUX_ARG_T, FLUX_ARG_FFS };
enum { LIFT_ARG_FLUX, LIFT_ARG_FFS, LIFT_ARG_RHS, LIFT_ARG_LIFTT, LIFT_ARG_FS, LIFT_ARG_Q,
       LIFT_ARG_RES, LIFT_ARG_A, LIFT_ARG_DT, LIFT_ARG_B, LIFT_ARG_VMAPM, LIFT_ARG_VMAPP,
       LIFT_ARG_FDATA, LIFT_ARG_XYZ, LIFT_ARG_T };
enum { UPD_ARG_Q, UPD_ARG_RES, UPD_ARG_RHS, UPD_ARG_A, UPD_ARG_DT, UPD_ARG_B };
enum { FUSE_ARG_Q, FUSE_ARG_OUT, FUSE_ARG_FS, FUSE_ARG_EGEO, FUSE_ARG_DRT, FUSE_ARG_DST,
       FUSE_ARG_DTT, FUSE_ARG_LIFTT, FUSE_ARG_VMAPM, FUSE_ARG_VMAPP, FUSE_ARG_FDATA,
       FUSE_ARG_XYZ, FUSE_ARG_T, FUSE_ARG_A, FUSE_ARG_DT, FUSE_ARG_QOUT, FUSE_ARG_B };
enum { QUPD_ARG_Q, QUPD_ARG_RES, QUPD_ARG_B };
enum { QCOPY_ARG_DST, QCOPY_ARG_SRC };
enum { SRC_ARG_OUT_A, SRC_ARG_OUT_B, SRC_ARG_FS, SRC_ARG_PROF, SRC_ARG_NODE, SRC_ARG_FIRST,
       SRC_ARG_COUNT, SRC_ARG_GA, SRC_ARG_GB };
enum { HALO_ARG_Q, HALO_ARG_SLOT, HALO_ARG_BUF, HALO_ARG_N };
enum { EN_ARG_Q, EN_ARG_FS, EN_ARG_M, EN_ARG_EW, EN_ARG_OUT, EN_ARG_KOWNED, EN_ARG_NBLK };
enum { PML_ARG_OUT_A, PML_ARG_OUT_B, PML_ARG_C, PML_ARG_SAVED, PML_ARG_W, PML_ARG_WRES,
       PML_ARG_COEF, PML_ARG_NODE, PML_ARG_FS, PML_ARG_NPN, PML_ARG_A, PML_ARG_DT, PML_ARG_B,
       PML_ARG_SA, PML_ARG_SB, PML_ARG_JEND };
enum { PMLSAVE_ARG_RES, PMLSAVE_ARG_SAVED, PMLSAVE_ARG_NODE, PMLSAVE_ARG_FS, PMLSAVE_ARG_NPN,
       PMLSAVE_ARG_JEND };
enum { DISP_ARG_OUT_A, DISP_ARG_OUT_B, DISP_ARG_SAVED, DISP_ARG_W, DISP_ARG_WRES,
       DISP_ARG_DELEM, DISP_ARG_INV_EPS, DISP_ARG_PTYPE, DISP_ARG_PCOEF, DISP_ARG_NODE,
       DISP_ARG_FS, DISP_ARG_NDN, DISP_ARG_A, DISP_ARG_DT, DISP_ARG_B, DISP_ARG_SA, DISP_ARG_SB };
enum { DSAVE_ARG_Q, DSAVE_ARG_SAVED, DSAVE_ARG_NODE, DSAVE_ARG_FS, DSAVE_ARG_NDN };
enum { CURV_ARG_Q, CURV_ARG_FS, CURV_ARG_RES, CURV_ARG_VMAPM, CURV_ARG_VMAPP, CURV_ARG_XYZ,
       CURV_ARG_T, CURV_ARG_EGEO, CURV_ARG_CSLOT, CURV_ARG_CFACE, CURV_ARG_CWQ, CURV_ARG_CFQ,
       CURV_ARG_CMINV, CURV_ARG_CL, CURV_ARG_CLF, CURV_ARG_CFPOS, CURV_ARG_CRHS, CURV_ARG_CSAVE,
       CURV_ARG_NCN };
enum { CFIX_ARG_CRHS, CFIX_ARG_CSAVE, CFIX_ARG_CSLOT, CFIX_ARG_OUT_R, CFIX_ARG_RES,
       CFIX_ARG_QOUT, CFIX_ARG_FS, CFIX_ARG_NCN, CFIX_ARG_UPDATE, CFIX_ARG_A, CFIX_ARG_DT,
       CFIX_ARG_B };
enum { CEN_ARG_Q, CEN_ARG_FS, CEN_ARG_CSLOT, CEN_ARG_CM, CEN_ARG_CEW, CEN_ARG_OUT,
       CEN_ARG_NOWNED };

struct dg_cl_maxwell {
  dg_device *dev;      /* borrowed */
  const dg_maxwell *phys; /* borrowed */
  dg_variant v;
  int N, K, Kpad, NP, NFP, NPP, FLUXP, VL, nblk;
  size_t fs, ffs, rs;  /* field stride, flux field stride (reals), real size */
  cl_program prog;
  cl_kernel k_volume, k_flux, k_lift, k_update, k_curl, k_source, k_energy;
  char name_volume[32], name_flux[32], name_lift[32], name_update[32], name_curl[32],
      name_source[32], name_energy[32];
  cl_kernel k_fuse, k_qupdate; /* fuse=rhs|res|step (element.cl, update.cl) */
  char name_fuse[32], name_qupdate[32];
  cl_mem d_q, d_res, d_rhs, d_flux, d_egeo, d_fdata, d_vmapM, d_vmapP;
  /* fuse=step: q's second and third buffers; q_live is the one that holds q now: d_q between
   * steps; a stage reads q_live and writes another (next_q, cl_maxwell_stage.c), d_q2, d_q,
   * d_q2, d_q3, d_q over one LSERK4 step, so q ends it at home; ping counts the stages of
   * the step under way (0 between steps). qcopy brings q home after stages that are not a
   * whole step. */
  cl_mem d_q2, d_q3, q_live;
  int ping;
  cl_kernel k_qcopy;
  char name_qcopy[32];
  const dg_plane_wave *pw; /* borrowed from phys; NULL without an incident wave */
  cl_mem d_xyz;            /* with pw: node coordinates, 3 fields in the field layout */
  cl_mem d_sprof, d_snode; /* point sources: dir profile / eps (3 x NP), node indices */
  cl_mem d_M, d_ew, d_eout; /* energy (energy.cl): mass matrix, weights, per-element result */
  size_t n_eout;            /* elements the energy kernel covers (Kpad rounded up to WG1) */
  cl_mem d_DrT, d_DsT, d_DtT, d_LIFTT; /* operators, transposed: OpT[j*NP + n] */
  cl_mem d_Dall, d_D, d_LIFTrm;        /* CLBlast path: [Dr;Ds;Dt] (3NPP x NP), D, LIFT */
  void *stage;                         /* host staging, 6*fs reals */
  /* CFS-PML (pml.cl), when phys->pml_K > 0: npn = pml_K*NP PML nodes (padded to npn_pad for
   * the launch); auxiliary fields w and their RK residual (DG_PML_AUX x npn), coefficients
   * (DG_PML_COEFS x npn), field-layout index of each PML node, res saved before a fused
   * lift-update (6 x npn). */
  int npn;
  cl_kernel k_pml, k_pmlsave;
  char name_pml[32], name_pmlsave[32];
  cl_mem d_pw, d_pwres, d_pcoef, d_pnode, d_psaved;
  /* Dispersive media (dispersive.cl), when phys->disp_K > 0: ndn = disp_K*NP dispersive
   * nodes; pole states and their RK residual (ndw values, the reference layout of
   * dg_maxwell_pole_size), the per-element data (DE ints, 1/eps_inf), the pole tables (type,
   * PC coefficients), the field-layout index of each node and E at the stage's start
   * (3 x ndn, dispsave). */
  int ndn;
  size_t ndw;
  cl_kernel k_disp, k_dispsave;
  char name_disp[32], name_dispsave[32];
  cl_mem d_dw, d_dwres, d_delem, d_dinv, d_dtype, d_dcoef, d_dnode, d_dsaved;
  /* Curved elements (curved.cl), when phys->geom->n_curved > 0: nc of them in element order
   * (nc_owned not ghosts), ncn = nc NP curved nodes; NQ, NFQ the points of their volume and
   * face rules, cwg the work-items per element of `curved`; their slots, face weights (FD per
   * face), w J metric at the volume points (9 x NQ), normal and w sJ at the face points
   * (CQ per point), inverse mass and mass matrices, energy weights (EW), the rules' bases
   * (cL: Lq, Lrq, Lsq, Ltq; cLf), each node's position on each face, and per stage the
   * right-hand side (6 x ncn) and the saved res and q (CS x ncn). */
  int nc, nc_owned, ncn, nq, nfq, cwg;
  cl_kernel k_curved, k_curvfix, k_curvenergy;
  char name_curved[32], name_curvfix[32], name_curvenergy[32];
  cl_mem d_cslot, d_cface, d_cwq, d_cfq, d_cminv, d_cM, d_cew, d_cL, d_cLf, d_cfpos, d_crhs,
      d_csave;
  char dump_dir[1024];                 /* "" or where the programs' sources go */
  /* MPI halo (dg_cl_maxwell_set_halo): n trace values each way */
  size_t halo_n;
  dg_trace_exchange halo;
  cl_program halo_prog;
  cl_kernel k_pack, k_unpack;
  cl_mem d_send, d_recv, d_sslot, d_rslot;
  /* Element groups (dg_cl_maxwell_create_grouped; the multirate levels): element k lives in
   * slot slot[k] (NULL: slot k); group g occupies slots [gfirst[g], gfirst[g+1]), each start
   * aligned to the launch granularity, so every kernel can run over one group's range. */
  int *slot, *group_of;
  int n_groups, gfirst[DG_CL_MAX_GROUPS + 1];
  /* grouped with a PML: PML element e is at position pml_pos[e] of the device's PML node
   * list (NULL: e), group g's PML elements at positions [pfirst[g], pfirst[g+1]) */
  int *pml_pos;
  int pfirst[DG_CL_MAX_GROUPS + 1];
};


/* Device index of the host's PML auxiliary value i (dg/pml.h layout a*npn + e*NP + n). */
static inline size_t dg_clm_aux_index(const dg_cl_maxwell *op, size_t i) {
  if (!op->pml_pos) return i;
  const size_t npn = (size_t)op->npn, a = i / npn, r = i - a * npn, e = r / (size_t)op->NP;
  return a * npn + (size_t)op->pml_pos[e] * op->NP + (r - e * op->NP);
}

/* The slot of element k (grouped operators reorder them). */
static inline int dg_clm_slot(const dg_cl_maxwell *op, int k) { return op->slot ? op->slot[k] : k; }

/* Device index of node n of element k (variant.h). */
static inline size_t dg_clm_index(const dg_cl_maxwell *op, int e, int n) {
  const int VL = op->VL, k = dg_clm_slot(op, e);
  return (size_t)(k / VL) * op->NPP * VL + (size_t)n * VL + (size_t)(k % VL);
}

static inline void dg_clm_put(const dg_cl_maxwell *op, void *buf, size_t i, double x) {
  if (op->rs == 8)
    ((double *)buf)[i] = x;
  else
    ((float *)buf)[i] = (float)x;
}

static inline double dg_clm_get(const dg_cl_maxwell *op, const void *buf, size_t i) {
  return op->rs == 8 ? ((const double *)buf)[i] : (double)((const float *)buf)[i];
}

/* Whether the right-hand side of a stage run without update lands in res (lift=fused-update,
 * fuse=res|step) rather than rhs (operator.cl's RESULT_IN_RES). */
static inline int dg_clm_result_in_res(const dg_cl_maxwell *op) {
  return op->v.path == DG_PATH_KERNELS &&
         (op->v.lift == DG_LIFT_FUSED_UPDATE || op->v.fuse == DG_FUSE_RES ||
          op->v.fuse == DG_FUSE_STEP);
}

/* Whether q ping-pongs between d_q and d_q2 (fuse=step). */
static inline int dg_clm_ping_pong(const dg_cl_maxwell *op) {
  return op->v.path == DG_PATH_KERNELS && op->v.fuse == DG_FUSE_STEP;
}


/* cl_maxwell_data.c: a buffer of n reals from doubles; the transposed operators
 * OpT[j*NP + n] of Dr, Ds, Dt and LIFT (free with dg_clm_free_ops); every buffer of op's
 * data (element, face, coordinates, sources, energy, PML, operators). */
dg_status dg_clm_upload(dg_cl_maxwell *op, const double *x, size_t n, cl_mem *out) DG_NODISCARD;
dg_status dg_clm_transposed_ops(const dg_refel *r, double *ops_t[4]) DG_NODISCARD;
void dg_clm_free_ops(double *ops_t[4]);
dg_status dg_clm_build_data(dg_cl_maxwell *op, double *const ops_t[4]) DG_NODISCARD;

/* cl_maxwell_program.c: render and build op's program and make its kernels; bind the
 * arguments that do not change between stages; a real argument in op's precision. */
dg_status dg_clm_build_program(dg_cl_maxwell *op, const double *ops_t[4], const char *dump_dir)
    DG_NODISCARD;
dg_status dg_clm_set_static_args(dg_cl_maxwell *op) DG_NODISCARD;
dg_status dg_clm_set_real_arg(const dg_cl_maxwell *op, cl_kernel k, cl_uint i, double x) DG_NODISCARD;

/* cl_maxwell.c: the auxiliary state (the PML's fields, the poles' states: the reference
 * layout of dg_maxwell_aux_size) from host w (NULL: zero), residuals zeroed; the auxiliary
 * state (residual = 0) or its RK residual (residual = 1) into the reference layout; a field
 * buffer (the device layout) into the reference layout q. */
dg_status dg_clm_put_aux(dg_cl_maxwell *op, const double *w) DG_NODISCARD;
dg_status dg_clm_read_aux(dg_cl_maxwell *op, int residual, double *w) DG_NODISCARD;
dg_status dg_clm_download(dg_cl_maxwell *op, cl_mem buf, double *q) DG_NODISCARD;

/* cl_maxwell_halo.c: pack the outgoing traces and start the exchange; wait for the incoming
 * ones and scatter them into the ghosts; point both at q's buffer. */
dg_status dg_clm_halo_begin(dg_cl_maxwell *op) DG_NODISCARD;
dg_status dg_clm_halo_bind(dg_cl_maxwell *op, cl_mem q) DG_NODISCARD;
dg_status dg_clm_halo_end(dg_cl_maxwell *op) DG_NODISCARD;

#endif

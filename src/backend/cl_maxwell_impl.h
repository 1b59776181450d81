/* cl_maxwell_impl.h: the OpenCL operator's private struct and what its files share.
 *
 * The operator is the Maxwell volume and surface operator (term_maxwell.c) plus the terms a
 * problem adds to it (cl_term.h: the incident wave, curved elements, the PML, dispersive
 * poles, point sources, each in its term_*.c with its templates; the list in cl_term.c).
 * Its kernels are the rows of the kernel table (cl_kernels.h) its terms make; cl_maxwell.c
 * holds its life and state, cl_maxwell_program.c renders and builds its program,
 * cl_maxwell_stage.c runs a stage as a sequence over the terms, cl_maxwell_util.c has the
 * buffer, kernel and launch helpers they all use, cl_maxwell_halo.c the MPI halo. Nothing
 * outside src/backend/ includes it. */
#ifndef DG_BACKEND_CL_MAXWELL_IMPL_H
#define DG_BACKEND_CL_MAXWELL_IMPL_H

#include "backend/cl_kernels.h"
#include "backend/cl_maxwell.h"
#include "backend/cl_term.h"
#include "contract.h"
#include "device/program.h"

struct dg_cl_maxwell {
  dg_device *dev;         /* borrowed */
  const dg_maxwell *phys; /* borrowed */
  dg_variant v;
  dg_cl_terms terms; /* which terms the problem has */
  int N, K, Kpad, NP, NFP, NPP, FLUXP, VL, nblk;
  size_t fs, ffs, rs; /* field stride, flux field stride (reals), real size */
  cl_program prog;
  /* The kernels the terms made (NULL: not in this program), by the table's ids, and their
   * full names (<name>_<variant suffix>). */
  cl_kernel k[DG_CLK_COUNT];
  char kname[DG_CLK_COUNT][32];
  /* Each made kernel's index of its stage coefficients rk_a, rk_dt, rk_b, sa, sb (-1: none;
   * looked up once, dg_clm_make_kernel) for dg_clm_set_stage_coefs. */
  signed char coef_arg[DG_CLK_COUNT][5];
  /* The variant's lift, fused (-1: none) and energy kernels (term_maxwell.c). */
  dg_clk_id lift_id, energy_id;
  int fuse_id;
  /* The Maxwell operator's data (term_maxwell.c): the state q, the RK residual res, the
   * right-hand side rhs, the face fluxes, element and face data, face-node maps. */
  cl_mem d_q, d_res, d_rhs, d_flux, d_egeo, d_fdata, d_vmapM, d_vmapP;
  /* fuse=step: q's second and third buffers; q_live is the one that holds q now: d_q between
   * steps; a stage reads q_live and writes another (term_maxwell.c, next_q), d_q2, d_q,
   * d_q2, d_q3, d_q over one LSERK4 step, so q ends it at home; ping counts the stages of
   * the step under way (0 between steps). qcopy brings q home after stages that are not a
   * whole step. */
  cl_mem d_q2, d_q3, q_live;
  int ping;
  cl_mem d_M, d_ew, d_eout; /* energy (energy.cl): mass matrix, weights, per-element result */
  size_t n_eout;            /* elements the energy kernel covers (Kpad rounded up to WG1) */
  cl_mem d_DrT, d_DsT, d_DtT, d_LIFTT; /* operators, transposed: OpT[j*NP + n] */
  cl_mem d_Dall, d_D, d_LIFTrm;        /* CLBlast path: [Dr;Ds;Dt] (3NPP x NP), D, LIFT */
  void *stage;                         /* host staging, 6*fs reals */
  /* Each term's own state (cl_term.h), by its index in dg_clm_terms; NULL when absent. */
  void *term[DG_CLM_TERMS];
  char dump_dir[1024]; /* "" or where the programs' sources go */
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
};

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

/* Global size of a one-dimensional launch over n items: whole work-groups of WG1. */
static inline size_t dg_clm_items(size_t n) { return (n + WG1 - 1) / WG1 * WG1; }

/* cl_maxwell.c: the terms' auxiliary state (the reference layout of dg_maxwell_aux_size)
 * from host w (NULL: zero), residuals zeroed; the auxiliary state (residual = 0) or its RK
 * residual (residual = 1) into the reference layout; a field buffer (the device layout)
 * into the reference layout q. */
dg_status dg_clm_put_aux(dg_cl_maxwell *op, const double *w) DG_NODISCARD;
dg_status dg_clm_read_aux(dg_cl_maxwell *op, int residual, double *w) DG_NODISCARD;
dg_status dg_clm_download(dg_cl_maxwell *op, cl_mem buf, double *q) DG_NODISCARD;

/* cl_maxwell_util.c: n reals of op's precision from doubles into a new read-only buffer; n reals
 * of a buffer from host x (NULL: zeros) and back, value i at device index map(ctx, i) (map
 * NULL: i). */
dg_status dg_clm_upload(dg_cl_maxwell *op, const double *x, size_t n, cl_mem *out) DG_NODISCARD;
typedef size_t (*dg_clm_index_map)(const void *ctx, size_t i);
dg_status dg_clm_put_reals(dg_cl_maxwell *op, cl_mem buf, size_t n, const double *x,
                           dg_clm_index_map map, const void *ctx) DG_NODISCARD;
dg_status dg_clm_get_reals(dg_cl_maxwell *op, cl_mem buf, size_t n, double *x,
                           dg_clm_index_map map, const void *ctx) DG_NODISCARD;
/* A zeroed read-write buffer of n reals. */
dg_status dg_clm_zeros(dg_cl_maxwell *op, size_t n, cl_mem *out) DG_NODISCARD;
/* A read-only buffer of n ints. */
dg_status dg_clm_upload_ints(dg_cl_maxwell *op, const int *x, size_t n, cl_mem *out) DG_NODISCARD;

/* cl_maxwell_util.c: kernel id of the table out of op's program, named
 * <name>_<variant suffix> (op->kname[id]), every argument NULL or 0 (by the table's types)
 * until set, so an argument a kernel's role does not use stays so; a real argument in op's
 * precision; each made kernel's argument called param (the table's name: "xyz") to a
 * buffer, where it has one. */
dg_status dg_clm_make_kernel(dg_cl_maxwell *op, dg_clk_id id) DG_NODISCARD;
dg_status dg_clm_set_real_arg(const dg_cl_maxwell *op, cl_kernel k, cl_uint i, double x) DG_NODISCARD;
dg_status dg_clm_bind_named(dg_cl_maxwell *op, const char *param, cl_mem m) DG_NODISCARD;

/* cl_maxwell_util.c: one launch of kernel id, timed into t when t is given; offset (NULL:
 * none) selects the blocks of a range (the multirate levels). A one-dimensional launch over
 * n items in work-groups of WG1 starting at item first. */
dg_status dg_clm_launch(dg_cl_maxwell *op, dg_clk_id id, cl_uint dims, const size_t *offset,
                        const size_t *global, const size_t *local,
                        dg_cl_stage_timing *t) DG_NODISCARD;
dg_status dg_clm_launch_items(dg_cl_maxwell *op, dg_clk_id id, size_t first, size_t n,
                              dg_cl_stage_timing *t) DG_NODISCARD;
/* Kernel id's stage coefficients, where it has them: rk_a, rk_dt, rk_b = a, dt, b when the
 * stage updates, else 0, 1, 0 (the right-hand side alone); a correction's factors on res and
 * q, sa = dt and sb = b dt, else 1 and 0. */
dg_status dg_clm_set_stage_coefs(dg_cl_maxwell *op, dg_clk_id id, const dg_clm_stage *s)
    DG_NODISCARD;
/* Add one timed entry (a CLBlast call) to t. */
void dg_clm_time_entry(dg_cl_stage_timing *t, const char *name, cl_ulong ns);

/* cl_maxwell_halo.c: pack the outgoing traces and start the exchange; wait for the incoming
 * ones and scatter them into the ghosts; point both at q's buffer. */
dg_status dg_clm_halo_begin(dg_cl_maxwell *op) DG_NODISCARD;
dg_status dg_clm_halo_bind(dg_cl_maxwell *op, cl_mem q) DG_NODISCARD;
dg_status dg_clm_halo_end(dg_cl_maxwell *op) DG_NODISCARD;

/* cl_maxwell_program.c: render and build op's program. */
dg_status dg_clm_build_program(dg_cl_maxwell *op, const double *ops_t[4], const char *dump_dir)
    DG_NODISCARD;

/* cl_maxwell_stage.c: every present term's hook h of a stage, in term order. */
typedef enum { DG_CLM_BEGIN, DG_CLM_TRACES, DG_CLM_BEFORE_RES, DG_CLM_AFTER } dg_clm_hook;
dg_status dg_clm_run_terms(dg_cl_maxwell *op, dg_clm_hook h, const dg_clm_stage *s) DG_NODISCARD;

/* term_maxwell.c: the operator's templates (for_hash: as the tuning hash lists them), its
 * #defines and its operators as literals (ops=literal); its data, kernels and fixed
 * arguments, and their release; its part of a stage (the right-hand side by the variant's
 * path in three parts: before the neighbours' traces, the fluxes, the kernel that writes the
 * result; the LSERK update; where the right-hand side goes; fuse=step's next q buffer and q
 * brought home);
 * the energy kernel; the transposed operators OpT[j*NP + n] of Dr, Ds, Dt and LIFT (free
 * with dg_clm_free_ops). */
int dg_clm_maxwell_templates(const dg_variant *v, int for_hash,
                             const char *names[DG_CL_MAX_TEMPLATE_FILES]);
dg_status dg_clm_maxwell_define(dg_kernel_spec *s, const dg_variant *v,
                                const dg_clm_program *p) DG_NODISCARD;
dg_status dg_clm_maxwell_literals(dg_kernel_spec *s, const dg_variant *v,
                                  const dg_clm_program *p, const double *ops_t[4]) DG_NODISCARD;
dg_status dg_clm_maxwell_create(dg_cl_maxwell *op) DG_NODISCARD;
void dg_clm_maxwell_destroy(dg_cl_maxwell *op);
dg_status dg_clm_maxwell_rhs_begin(dg_cl_maxwell *op, const dg_clm_stage *s) DG_NODISCARD;
dg_status dg_clm_maxwell_rhs_faces(dg_cl_maxwell *op, const dg_clm_stage *s) DG_NODISCARD;
dg_status dg_clm_maxwell_rhs_end(dg_cl_maxwell *op, const dg_clm_stage *s) DG_NODISCARD;
dg_status dg_clm_maxwell_update(dg_cl_maxwell *op, const dg_clm_stage *s) DG_NODISCARD;
dg_status dg_clm_maxwell_result(dg_cl_maxwell *op, cl_mem r) DG_NODISCARD;
cl_mem dg_clm_maxwell_next_q(const dg_cl_maxwell *op);
dg_status dg_clm_maxwell_q_home(dg_cl_maxwell *op) DG_NODISCARD;
dg_status dg_clm_maxwell_energy(dg_cl_maxwell *op) DG_NODISCARD;
dg_status dg_clm_transposed_ops(const dg_refel *r, double *ops_t[4]) DG_NODISCARD;
void dg_clm_free_ops(double *ops_t[4]);
/* Face f of element k's flux data (contract.h FD): normal n, the flux weights with the
 * factor scale (mat: 1/eps and 1/mu folded in), boundary factors, incident weights. */
void dg_clm_face_values(const dg_cl_maxwell *op, int k, int f, const double n[3], double scale,
                        int mat, double val[FD]);

#endif

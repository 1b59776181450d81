/* cl_maxwell_stage.c: running the OpenCL operator: one RK stage over all elements or a range
 * of element groups (the kernels of the variant's path, then the update, the PML and the
 * point sources), and the calls built on it (right-hand sides, steps, timing, energy). */
#include <stdio.h>
#include <string.h>

#include "backend/clblast_check.h"
#include "backend/cl_maxwell_impl.h"
#include "core/alloc.h"
#include "dg/lserk.h"

/* One launch, timed into t when t is given. offset (NULL: none) selects the blocks of a
 * range (the multirate levels): the kernels index by get_global_id. */
static dg_status launch(dg_cl_maxwell *op, cl_kernel k, const char *name, cl_uint dims,
                        const size_t *offset, const size_t *global, const size_t *local,
                        dg_cl_stage_timing *t) {
  cl_ulong ns = 0;
  DG_CALL(dg_kernel_run_at(op->dev, k, dims, offset, global, local, t ? &ns : NULL));
  if (t && t->n < DG_CL_MAX_STAGE_KERNELS) {
    snprintf(t->name[t->n], sizeof t->name[t->n], "%s", name);
    t->ns[t->n++] = ns;
  }
  if (t) t->total_ns += ns; /* counted even when the list is full (many source batches) */
  return DG_OK;
}

/* C = op(A) B (+ beta C) through CLBlast in the operator's precision. */
static dg_status gemm(dg_cl_maxwell *op, size_t m, size_t n, size_t k, cl_mem A, size_t lda,
                      cl_mem B, size_t ldb, double beta, cl_mem C, size_t ldc, const char *name,
                      dg_cl_stage_timing *t) {
  dg_status st = DG_OK;
  cl_event ev = NULL;
  cl_command_queue q = op->dev->queue;
  if (op->rs == 8)
    DG_CLBLAST_GOTO(done, CLBlastDgemm(CLBlastLayoutColMajor, CLBlastTransposeYes,
                                       CLBlastTransposeNo, m, n, k, 1.0, A, 0, lda, B, 0, ldb,
                                       beta, C, 0, ldc, &q, &ev));
  else
    DG_CLBLAST_GOTO(done, CLBlastSgemm(CLBlastLayoutColMajor, CLBlastTransposeYes,
                                       CLBlastTransposeNo, m, n, k, 1.0f, A, 0, lda, B, 0, ldb,
                                       (float)beta, C, 0, ldc, &q, &ev));
  if (t && t->n < DG_CL_MAX_STAGE_KERNELS) {
    cl_ulong t0 = 0, t1 = 0;
    DG_CL_GOTO(done, clWaitForEvents(1, &ev));
    DG_CL_GOTO(done, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
    DG_CL_GOTO(done, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
    snprintf(t->name[t->n], sizeof t->name[t->n], "%s", name);
    t->ns[t->n++] = t1 - t0;
    t->total_ns += t1 - t0;
  }
done:
  if (ev) clReleaseEvent(ev);
  return st;
}

/* A by-value real16 argument from 16 doubles. */
static dg_status set_real16_arg(const dg_cl_maxwell *op, cl_kernel k, cl_uint i,
                                const double x[SRC_BATCH]) {
  if (op->rs == 8) return dg_kernel_set_arg(k, i, SRC_BATCH * sizeof(double), x);
  float f[SRC_BATCH];
  for (int j = 0; j < SRC_BATCH; ++j) f[j] = (float)x[j];
  return dg_kernel_set_arg(k, i, sizeof f, f);
}

/* The point sources at time t (source.cl): out_a -= sa g P and out_b -= sb g P, in batches
 * of SRC_BATCH sources. */
static dg_status apply_sources(dg_cl_maxwell *op, double t, cl_mem out_a, double sa,
                               cl_mem out_b, double sb, int s0, int s1,
                               dg_cl_stage_timing *tm) {
  const dg_maxwell *p = op->phys;
  const size_t l1 = WG1, g1 = (size_t)(3 * op->NP + WG1 - 1) / WG1 * WG1;
  cl_kernel k = op->k_source;
  DG_CALL(DG_KERNEL_ARG(k, SRC_ARG_OUT_A, out_a));
  DG_CALL(DG_KERNEL_ARG(k, SRC_ARG_OUT_B, out_b));
  for (int first = 0; first < p->n_sources; first += SRC_BATCH) {
    const int count = p->n_sources - first < SRC_BATCH ? p->n_sources - first : SRC_BATCH;
    double ga[SRC_BATCH] = {0}, gb[SRC_BATCH] = {0};
    for (int s = 0; s < count; ++s) {
      /* a source outside the slots [s0, s1) gets g = 0: its buffers keep their values */
      const int k = dg_clm_slot(op, p->sources[first + s].elem);
      const double g = k >= s0 && k < s1 ? dg_pulse_eval(&p->sources[first + s].pulse, t) : 0;
      ga[s] = sa * g;
      gb[s] = sb * g;
    }
    DG_CALL(DG_KERNEL_ARG(k, SRC_ARG_FIRST, first));
    DG_CALL(DG_KERNEL_ARG(k, SRC_ARG_COUNT, count));
    DG_CALL(set_real16_arg(op, k, SRC_ARG_GA, ga));
    DG_CALL(set_real16_arg(op, k, SRC_ARG_GB, gb));
    DG_CALL(launch(op, k, op->name_source, 1, NULL, &g1, &l1, tm));
  }
  return DG_OK;
}

/* Point the kernels' result at buffer r (the right-hand side alone: rhs, or res for the
 * fused lift-update and fuse=res) and the PML's dw/dt at wr. */
static dg_status set_result(dg_cl_maxwell *op, cl_mem r, cl_mem wr) {
  if (op->k_fuse) {
    DG_CALL(DG_KERNEL_ARG(op->k_fuse, FUSE_ARG_OUT, r));
    if (op->k_pmlsave) DG_CALL(DG_KERNEL_ARG(op->k_pmlsave, PMLSAVE_ARG_RES, r));
  } else if (op->v.lift == DG_LIFT_FUSED_UPDATE) {
    DG_CALL(DG_KERNEL_ARG(op->k_lift, LIFT_ARG_RES, r));
    if (op->k_pmlsave) DG_CALL(DG_KERNEL_ARG(op->k_pmlsave, PMLSAVE_ARG_RES, r));
  } else {
    DG_CALL(DG_KERNEL_ARG(op->k_volume, VOL_ARG_RHS, r));
    DG_CALL(DG_KERNEL_ARG(op->k_lift, LIFT_ARG_RHS, r));
  }
  if (op->k_pml) DG_CALL(DG_KERNEL_ARG(op->k_pml, PML_ARG_WRES, wr));
  return DG_OK;
}

/* One stage over the element slots [s0, s1): its coefficients, its blocks [b0, b0 + nb), its
 * PML nodes [j0, j1), where its result goes (R), where q is read (qin) and where the stage
 * leaves it (qout: the other buffer for fuse=step with update, else qin), and the timing.
 * fuse_res: the fused kernel advances res (fuse=res|step). */
typedef struct {
  double ts, a, dt, b;
  int update, s0, s1, part, fuse_res, fused_update, j0, j1;
  size_t b0, nb;
  cl_mem R, qin, qout;
  dg_cl_stage_timing *t;
} stage_t;

/* The PML launch over the stage's nodes (none without a PML or when it has none). */
static dg_status run_pml_kernel(dg_cl_maxwell *op, const stage_t *s, cl_kernel k,
                                const char *name) {
  if (s->j1 <= s->j0) return DG_OK;
  const size_t l1 = WG1, g = ((size_t)(s->j1 - s->j0) + WG1 - 1) / WG1 * WG1;
  const size_t o = (size_t)s->j0;
  DG_CALL(launch(op, k, name, 1, s->j0 ? &o : NULL, &g, &l1, s->t));
  return DG_OK;
}

/* The PML nodes of the range: a group's when the range is one group (grouped op). */
static dg_status pml_range(const dg_cl_maxwell *op, stage_t *s) {
  s->j0 = 0, s->j1 = op->npn;
  if (!s->part || !op->pml_pos) return DG_OK;
  int g0 = -1, g1 = -1; /* groups [g0, g1) with gfirst[g0] = s0, gfirst[g1] = s1 */
  for (int g = 0; g <= op->n_groups; ++g) {
    if (g0 < 0 && op->gfirst[g] == s->s0) g0 = g;
    if (op->gfirst[g] == s->s1) g1 = g;
  }
  DG_CHECK(g0 >= 0 && g1 >= g0, DG_ERR_INTERNAL, "stage range %d..%d is not whole groups",
           s->s0, s->s1);
  s->j0 = op->pfirst[g0] * op->NP, s->j1 = op->pfirst[g1] * op->NP;
  return DG_OK;
}

/* The curved elements' right-hand side (curved.cl) from the stage's q, before any kernel of
 * the stage moves q or res (the neighbours' traces, ghosts included, have arrived): one
 * work-group per curved element. */
static dg_status run_curved(dg_cl_maxwell *op, const stage_t *s) {
  if (!op->nc) return DG_OK;
  cl_kernel k = op->k_curved;
  const size_t l = (size_t)op->cwg, g = (size_t)op->nc * l;
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_Q, s->qin));
  if (op->pw) DG_CALL(dg_clm_set_real_arg(op, k, CURV_ARG_T, s->ts));
  DG_CALL(launch(op, k, op->name_curved, 1, NULL, &g, &l, s->t));
  return DG_OK;
}

/* After the variant's kernels and their update: the curved elements' right-hand side where
 * the stage's result went (curved.cl's curvfix), before the PML, the poles and the sources
 * correct it. */
static dg_status run_curvfix(dg_cl_maxwell *op, const stage_t *s) {
  if (!op->nc) return DG_OK;
  cl_kernel k = op->k_curvfix;
  const size_t l1 = WG1, g = ((size_t)op->ncn + WG1 - 1) / WG1 * WG1;
  const int update = s->update;
  const cl_mem out_r = update ? op->d_rhs : s->R;
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_OUT_R, out_r));
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_QOUT, s->qout));
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_UPDATE, update));
  DG_CALL(dg_clm_set_real_arg(op, k, CFIX_ARG_A, update ? s->a : 0.0));
  DG_CALL(dg_clm_set_real_arg(op, k, CFIX_ARG_DT, update ? s->dt : 1.0));
  DG_CALL(dg_clm_set_real_arg(op, k, CFIX_ARG_B, update ? s->b : 0.0));
  DG_CALL(launch(op, k, op->name_curvfix, 1, NULL, &g, &l1, s->t));
  return DG_OK;
}

/* fuse=rhs|res|step: one kernel for the whole rhs. It reads the neighbours' traces at once, so
 * the halo has arrived before it starts (no overlap). Then, for fuse=res, the q update
 * (fuse=step writes the new q into the other buffer itself). Over a
 * range (a multirate level) the launch starts at the range's first block (global offset) and
 * covers exactly its blocks: the grouped layout starts and pads every group to whole
 * work-groups of kb blocks (dg_cl_maxwell_create_grouped), so no work-item falls past the
 * range, where other levels' results (their history) must stay as they are. Checked, rather
 * than guarded in the kernel, to keep element.cl as it is. */
static dg_status stage_fused(dg_cl_maxwell *op, const stage_t *s) {
  const dg_variant *v = &op->v;
  DG_CALL(dg_clm_halo_end(op));
  DG_CALL(run_curved(op, s));
  /* work=node: NP x kb work-items per group (element_node.cl); else kb blocks */
  const size_t lf = (size_t)v->kb, gf = s->nb, of = s->b0;
  DG_CHECK(s->b0 % lf == 0 && s->nb % lf == 0, DG_ERR_INTERNAL,
           "fused right-hand side over blocks %zu..%zu: not whole work-groups of %zu", s->b0,
           s->b0 + s->nb, lf);
  const size_t np = (size_t)op->NP, gf2[2] = {np, gf}, lf2[2] = {np, lf}, of2[2] = {0, of};
  cl_kernel k = op->k_fuse;
  if (op->pw) DG_CALL(dg_clm_set_real_arg(op, k, FUSE_ARG_T, s->ts));
  if (s->fuse_res) {
    DG_CALL(dg_clm_set_real_arg(op, k, FUSE_ARG_A, s->update ? s->a : 0.0));
    DG_CALL(dg_clm_set_real_arg(op, k, FUSE_ARG_DT, s->update ? s->dt : 1.0));
    if (op->k_pmlsave) DG_CALL(run_pml_kernel(op, s, op->k_pmlsave, op->name_pmlsave));
  }
  if (dg_clm_ping_pong(op)) { /* rk_b = 0: q stays where it is, the other buffer unwritten */
    const cl_mem other = s->update ? s->qout : s->qin == op->d_q ? op->d_q2 : op->d_q;
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_Q, s->qin));
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_QOUT, other));
    DG_CALL(dg_clm_set_real_arg(op, k, FUSE_ARG_B, s->update ? s->b : 0.0));
  }
  if (v->work == DG_WORK_NODE)
    DG_CALL(launch(op, k, op->name_fuse, 2, s->part ? of2 : NULL, gf2, lf2, s->t));
  else
    DG_CALL(launch(op, k, op->name_fuse, 1, s->part ? &of : NULL, &gf, &lf, s->t));
  if (v->fuse == DG_FUSE_RES && s->update) {
    const size_t gupd = 6 * op->fs / 2, l1 = WG1;
    DG_CALL(dg_clm_set_real_arg(op, op->k_qupdate, QUPD_ARG_B, s->b));
    DG_CALL(launch(op, op->k_qupdate, op->name_qupdate, 1, NULL, &gupd, &l1, s->t));
  }
  return DG_OK;
}

/* path=clblast: whole-mesh launches whatever the range. */
static dg_status stage_clblast(dg_cl_maxwell *op, const stage_t *s) {
  const size_t gfull = op->ffs, gcurl = op->fs, l1 = WG1;
  const size_t NPP = (size_t)op->NPP, NP = (size_t)op->NP, K6 = 6 * (size_t)op->Kpad;
  DG_CALL(gemm(op, 3 * NPP, K6, NP, op->d_Dall, NP, op->d_q, NPP, 0.0, op->d_D, 3 * NPP,
               "gemm_volume", s->t));
  DG_CALL(launch(op, op->k_curl, op->name_curl, 1, NULL, &gcurl, &l1, s->t));
  DG_CALL(dg_clm_halo_end(op));
  DG_CALL(run_curved(op, s));
  if (op->pw) DG_CALL(dg_clm_set_real_arg(op, op->k_flux, FLUX_ARG_T, s->ts));
  DG_CALL(launch(op, op->k_flux, op->name_flux, 1, NULL, &gfull, &l1, s->t));
  DG_CALL(gemm(op, NP, K6, 4 * (size_t)op->NFP, op->d_LIFTrm, 4 * (size_t)op->NFP, op->d_flux,
               (size_t)op->FLUXP, 1.0, op->d_rhs, NPP, "gemm_lift", s->t));
  return DG_OK;
}

/* The split kernels: volume, (halo), flux, lift (or fluxlift, or liftupdate). */
static dg_status stage_split(dg_cl_maxwell *op, const stage_t *s) {
  const dg_variant *v = &op->v;
  const size_t lwi = (size_t)dg_variant_lift_items(v, op->N); /* NP unless lnpw > 1 */
  const size_t g2[2] = {(size_t)op->NP, s->nb}, g2l[2] = {lwi, s->nb}, o2[2] = {0, s->b0};
  const size_t lv[2] = {(size_t)op->NP, (size_t)v->kb}, ll[2] = {lwi, (size_t)v->lkb};
  const int vw = v->work == DG_WORK_VEC ? v->vw : 1;
  /* flux=face: one work-item per face of a block (flux.cl); the launch over a group is
   * rounded up to whole work-groups (see dg_cl_maxwell_create_grouped) */
  const int fface = v->flux == DG_FLUX_FACE;
  const size_t gflux0 = fface ? 4 * s->nb : s->nb * op->VL * op->FLUXP / (size_t)vw;
  const size_t gflux = (gflux0 + WG1 - 1) / WG1 * WG1, l1 = WG1;
  const size_t oflux = fface ? 4 * s->b0 : s->b0 * op->VL * op->FLUXP / (size_t)vw;
  const size_t *o2p = s->part ? o2 : NULL, *ofp = s->part ? &oflux : NULL;
  DG_CALL(launch(op, op->k_volume, op->name_volume, 2, o2p, g2, lv, s->t));
  DG_CALL(dg_clm_halo_end(op));
  DG_CALL(run_curved(op, s));
  if (op->pw) { /* the incident wave is evaluated where the fluxes are */
    if (v->lift == DG_LIFT_FUSED) DG_CALL(dg_clm_set_real_arg(op, op->k_lift, LIFT_ARG_T, s->ts));
    else DG_CALL(dg_clm_set_real_arg(op, op->k_flux, FLUX_ARG_T, s->ts));
  }
  if (v->lift != DG_LIFT_FUSED)
    DG_CALL(launch(op, op->k_flux, op->name_flux, 1, ofp, &gflux, &l1, s->t));
  if (v->lift == DG_LIFT_FUSED_UPDATE) {
    DG_CALL(dg_clm_set_real_arg(op, op->k_lift, LIFT_ARG_A, s->update ? s->a : 0.0));
    DG_CALL(dg_clm_set_real_arg(op, op->k_lift, LIFT_ARG_DT, s->update ? s->dt : 1.0));
    DG_CALL(dg_clm_set_real_arg(op, op->k_lift, LIFT_ARG_B, s->update ? s->b : 0.0));
  }
  if (op->k_pmlsave) DG_CALL(run_pml_kernel(op, s, op->k_pmlsave, op->name_pmlsave));
  DG_CALL(launch(op, op->k_lift, op->name_lift, 2, o2p, g2l, ll, s->t));
  return DG_OK;
}

/* After the right-hand side: the LSERK update (unless a kernel fused it), the curved
 * elements' own result, the PML's correction on its nodes, the poles' on theirs, then the
 * point sources. */
static dg_status stage_corrections(dg_cl_maxwell *op, const stage_t *s) {
  const int update = s->update;
  if (update && !s->fused_update) {
    const size_t gupd = 6 * op->fs / 2, l1 = WG1; /* update.cl: two reals per work-item */
    DG_CALL(dg_clm_set_real_arg(op, op->k_update, UPD_ARG_A, s->a));
    DG_CALL(dg_clm_set_real_arg(op, op->k_update, UPD_ARG_DT, s->dt));
    DG_CALL(dg_clm_set_real_arg(op, op->k_update, UPD_ARG_B, s->b));
    DG_CALL(launch(op, op->k_update, op->name_update, 1, NULL, &gupd, &l1, s->t));
  }
  DG_CALL(run_curvfix(op, s));
  if (op->k_pml) {
    cl_kernel k = op->k_pml;
    const cl_mem out_a = update ? op->d_res : s->R;
    DG_CALL(DG_KERNEL_ARG(k, PML_ARG_OUT_A, out_a));
    DG_CALL(DG_KERNEL_ARG(k, PML_ARG_OUT_B, s->qout));
    const cl_mem cbuf = update ? (s->fused_update ? op->d_res : op->d_rhs) : s->R;
    DG_CALL(DG_KERNEL_ARG(k, PML_ARG_C, cbuf));
    DG_CALL(dg_clm_set_real_arg(op, k, PML_ARG_A, update ? s->a : 0.0));
    DG_CALL(dg_clm_set_real_arg(op, k, PML_ARG_DT, update ? s->dt : 1.0));
    DG_CALL(dg_clm_set_real_arg(op, k, PML_ARG_B, update ? s->b : 0.0));
    DG_CALL(dg_clm_set_real_arg(op, k, PML_ARG_SA, update ? s->dt : 1.0));
    DG_CALL(dg_clm_set_real_arg(op, k, PML_ARG_SB, update ? s->b * s->dt : 0.0));
    DG_CALL(run_pml_kernel(op, s, k, op->name_pml));
  }
  if (op->k_disp) { /* E at the stage's start is in dsaved (run_stage_range) */
    cl_kernel k = op->k_disp;
    const size_t l1 = WG1, g = ((size_t)op->ndn + WG1 - 1) / WG1 * WG1;
    const cl_mem out_a = update ? op->d_res : s->R;
    DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_OUT_A, out_a));
    DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_OUT_B, s->qout));
    DG_CALL(dg_clm_set_real_arg(op, k, DISP_ARG_A, update ? s->a : 0.0));
    DG_CALL(dg_clm_set_real_arg(op, k, DISP_ARG_DT, update ? s->dt : 1.0));
    DG_CALL(dg_clm_set_real_arg(op, k, DISP_ARG_B, update ? s->b : 0.0));
    DG_CALL(dg_clm_set_real_arg(op, k, DISP_ARG_SA, update ? s->dt : 1.0));
    DG_CALL(dg_clm_set_real_arg(op, k, DISP_ARG_SB, update ? s->b * s->dt : 0.0));
    DG_CALL(launch(op, k, op->name_disp, 1, NULL, &g, &l1, s->t));
  }
  if (op->k_source) {
    if (update) /* res = a res + dt (rhs - s), q += b res */
      DG_CALL(apply_sources(op, s->ts, op->d_res, s->dt, s->qout, s->b * s->dt, s->s0, s->s1, s->t));
    else        /* the result holds rhs; q is left as it is (times 0) */
      DG_CALL(apply_sources(op, s->ts, s->R, 1.0, s->qout, 0.0, s->s0, s->s1, s->t));
  }
  return DG_OK;
}

/* fuse=step: the buffer the ping-th stage of a step writes q into (cl_maxwell_impl.h,
 * q_live): each differs from the one before, and the fifth is home, so a whole LSERK4 step
 * ends with q at home and nothing to copy. */
static cl_mem next_q(const dg_cl_maxwell *op) {
  _Static_assert(DG_LSERK_STAGES == 5, "the sequence below is LSERK4's five stages");
  const cl_mem seq[DG_LSERK_STAGES] = {op->d_q2, op->d_q, op->d_q2, op->d_q3, op->d_q};
  return seq[op->ping];
}

/* One RK stage at time ts over the element slots [s0, s1) (whole groups, or 0..Kpad: all of
 * them): rhs from q, then (if update) res = a res + dt rhs, q += b res. Without update the
 * result is in rhs, except for lift=fused-update and fuse=res, which then run with
 * (a, dt, b) = (0, 1, 0) and leave the result in res. The volume, flux and lift kernels, the
 * PML and the point sources act on the range only; the rest (CLBlast path, update) on
 * everything, which leaves the range's result as it would be. out (update = 0, kernels path
 * only): the right-hand side goes into out rather than rhs/res, and with a PML dw/dt into
 * wout; nothing outside the range is written there. */
static dg_status run_stage_range(dg_cl_maxwell *op, double ts, double a, double dt, double b,
                                 int update, int s0, int s1, cl_mem out, cl_mem wout,
                                 dg_cl_stage_timing *t) {
  const dg_variant *v = &op->v;
  if (s1 <= s0) { /* nothing to evaluate here, but the neighbour ranks exchange with this one */
    DG_CALL(dg_clm_halo_begin(op));
    DG_CALL(dg_clm_halo_end(op));
    return DG_OK;
  }
  DG_CHECK(!out || (!update && v->path == DG_PATH_KERNELS && (wout || !op->k_pml)),
           DG_ERR_INTERNAL, "stage result buffer: the right-hand side alone, kernels path");
  stage_t s = {.ts = ts, .a = a, .dt = dt, .b = b, .update = update, .s0 = s0, .s1 = s1,
               .part = s0 != 0 || s1 != op->Kpad, .t = t};
  s.b0 = (size_t)s0 / (size_t)op->VL, s.nb = (size_t)(s1 - s0) / (size_t)op->VL;
  s.fuse_res = v->path == DG_PATH_KERNELS && (v->fuse == DG_FUSE_RES || v->fuse == DG_FUSE_STEP);
  s.qin = s.qout = op->q_live;
  if (dg_clm_ping_pong(op) && update) s.qout = next_q(op);
  /* fused_update: the stage's result goes to res = a res + dt rhs (and q is updated) */
  s.fused_update = dg_clm_result_in_res(op);
  s.R = out ? out : s.fused_update ? op->d_res : op->d_rhs;
  if (out) DG_CALL(set_result(op, out, wout));
  DG_CALL(pml_range(op, &s));
  if (op->k_pml) DG_CALL(DG_KERNEL_ARG(op->k_pml, PML_ARG_JEND, s.j1));
  if (op->k_pmlsave) DG_CALL(DG_KERNEL_ARG(op->k_pmlsave, PMLSAVE_ARG_JEND, s.j1));
  if (t) memset(t, 0, sizeof *t);
  if (op->k_dispsave) { /* E at the stage's start, before any kernel moves q */
    const size_t l1 = WG1, g = ((size_t)op->ndn + WG1 - 1) / WG1 * WG1;
    DG_CALL(DG_KERNEL_ARG(op->k_dispsave, DSAVE_ARG_Q, s.qin));
    DG_CALL(launch(op, op->k_dispsave, op->name_dispsave, 1, NULL, &g, &l1, t));
  }
  DG_CALL(dg_clm_halo_bind(op, s.qin));
  DG_CALL(dg_clm_halo_begin(op));
  if (op->k_fuse)
    DG_CALL(stage_fused(op, &s));
  else if (v->path == DG_PATH_CLBLAST)
    DG_CALL(stage_clblast(op, &s));
  else
    DG_CALL(stage_split(op, &s));
  DG_CALL(stage_corrections(op, &s));
  if (s.qout != s.qin) op->ping = (op->ping + 1) % DG_LSERK_STAGES;
  op->q_live = s.qout;
  if (out) DG_CALL(set_result(op, s.fused_update ? op->d_res : op->d_rhs, op->d_pwres));
  return DG_OK;
}

/* fuse=step: after stages that are not a whole LSERK4 step, copy q home (between steps q is in
 * d_q, where everything else reads it; a whole step ends there, cl_maxwell_impl.h). */
static dg_status q_home(dg_cl_maxwell *op) {
  op->ping = 0;
  if (op->q_live == op->d_q) return DG_OK;
  const size_t g = 6 * op->fs / 2, l1 = WG1; /* update.cl: two reals per work-item */
  DG_CALL(DG_KERNEL_ARG(op->k_qcopy, QCOPY_ARG_SRC, op->q_live));
  DG_CALL(launch(op, op->k_qcopy, op->name_qcopy, 1, NULL, &g, &l1, NULL));
  op->q_live = op->d_q;
  return DG_OK;
}

static dg_status run_stage(dg_cl_maxwell *op, double ts, double a, double dt, double b,
                           int update, dg_cl_stage_timing *t) {
  DG_CALL(run_stage_range(op, ts, a, dt, b, update, 0, op->Kpad, NULL, NULL, t));
  return DG_OK;
}

dg_status dg_cl_maxwell_rhs(dg_cl_maxwell *op, double t, const double *q, double *rhs) {
  DG_CALL(dg_cl_maxwell_rhs_aux(op, t, q, NULL, rhs, NULL));
  return DG_OK;
}

dg_status dg_cl_maxwell_rhs_aux(dg_cl_maxwell *op, double t, const double *q, const double *w,
                                double *rhs, double *rhs_w) {
  DG_CALL(dg_cl_maxwell_set_state(op, q));
  DG_CALL(dg_clm_put_aux(op, w));
  DG_CALL(run_stage(op, t, 0, 1, 0, 0, NULL));
  DG_CALL(dg_clm_download(op, dg_clm_result_in_res(op) ? op->d_res : op->d_rhs, rhs));
  /* the stage ran with (a, dt, b) = (0, 1, 0): wres = dw/dt */
  if (rhs_w) DG_CALL(dg_clm_read_aux(op, 1, rhs_w));
  return DG_OK;
}

dg_status dg_cl_maxwell_step(dg_cl_maxwell *op, double t, double dt) {
  for (int s = 0; s < DG_LSERK_STAGES; ++s)
    DG_CALL(run_stage(op, t + dg_lserk_c[s] * dt, dg_lserk_a[s], dt, dg_lserk_b[s], 1, NULL));
  DG_CALL(q_home(op)); /* fuse=step: q is home already */
  return DG_OK;
}

dg_status dg_cl_maxwell_rhs_group(dg_cl_maxwell *op, double t, int g, cl_mem *result,
                                   dg_cl_stage_timing *tm) {
  DG_CALL(dg_cl_maxwell_rhs_groups(op, t, g, g + 1, result, tm));
  return DG_OK;
}

dg_status dg_cl_maxwell_rhs_groups(dg_cl_maxwell *op, double t, int g0, int g1, cl_mem *result,
                                   dg_cl_stage_timing *tm) {
  const int ng = op->n_groups ? op->n_groups : 1;
  DG_CHECK(g0 >= 0 && g0 < g1 && g1 <= ng, DG_ERR_INPUT,
           "OpenCL operator: no element groups %d..%d", g0, g1 - 1);
  const int s0 = op->n_groups ? op->gfirst[g0] : 0, s1 = op->n_groups ? op->gfirst[g1] : op->Kpad;
  DG_CALL(run_stage_range(op, t, 0, 1, 0, 0, s0, s1, NULL, NULL, tm));
  *result = dg_clm_result_in_res(op) ? op->d_res : op->d_rhs;
  return DG_OK;
}

dg_status dg_cl_maxwell_rhs_groups_into(dg_cl_maxwell *op, double t, int g0, int g1, cl_mem out,
                                        cl_mem wout) {
  DG_CHECK(op->n_groups && g0 >= 0 && g0 < g1 && g1 <= op->n_groups, DG_ERR_INPUT,
           "OpenCL operator: no element groups %d..%d", g0, g1 - 1);
  DG_CHECK(op->v.path == DG_PATH_KERNELS, DG_ERR_UNSUPPORTED,
           "OpenCL operator: the CLBlast path writes the whole mesh's right-hand side");
  DG_CALL(run_stage_range(op, t, 0, 1, 0, 0, op->gfirst[g0], op->gfirst[g1], out,
                          op->npn ? wout : NULL, NULL));
  return DG_OK;
}

dg_status dg_cl_maxwell_rhs_all(dg_cl_maxwell *op, double t, cl_mem *result) {
  DG_CALL(run_stage(op, t, 0, 1, 0, 0, NULL));
  *result = dg_clm_result_in_res(op) ? op->d_res : op->d_rhs;
  return DG_OK;
}

void dg_cl_maxwell_layout(const dg_cl_maxwell *op, dg_cl_layout *l) {
  l->dev = op->dev;
  l->phys = op->phys;
  l->q = op->d_q;
  l->fs = op->fs;
  l->rs = op->rs;
  l->VL = op->VL;
  l->NP = op->NP;
  l->NPP = op->NPP;
  l->Kpad = op->Kpad;
  l->n_groups = op->n_groups;
  for (int i = 0; i <= op->n_groups; ++i) l->gfirst[i] = op->gfirst[i];
  l->npn = op->npn;
  l->w = op->d_pw;
  l->wres = op->d_pwres;
  for (int i = 0; i <= op->n_groups; ++i) l->pfirst[i] = op->pml_pos ? op->pfirst[i] * op->NP : 0;
  l->slot = op->slot;
  l->halo = op->halo_n > 0;
}

dg_status dg_cl_maxwell_time_stage(dg_cl_maxwell *op, dg_cl_stage_timing *t) {
  DG_CALL(run_stage(op, 0.0, dg_lserk_a[1], 1e-3, dg_lserk_b[1], 1, t));
  DG_CALL(q_home(op)); /* fuse=step: untimed (a whole step ends at home, copying nothing) */
  return DG_OK;
}

dg_status dg_cl_maxwell_energy(dg_cl_maxwell *op, double *energy) {
  /* energy.cl: one work-item per element; energy_block.cl: one per block of VL */
  const size_t l1 = WG1, n = (op->n_eout / (size_t)op->VL + WG1 - 1) / WG1 * WG1;
  DG_CALL(dg_kernel_run(op->dev, op->k_energy, 1, &n, &l1, NULL));
  if (op->nc_owned) { /* the curved elements' energy over energy.cl's value (curved.cl) */
    const size_t gc = ((size_t)op->nc_owned + WG1 - 1) / WG1 * WG1;
    DG_CALL(dg_kernel_run(op->dev, op->k_curvenergy, 1, &gc, &l1, NULL));
  }
  const int k_owned = op->phys->geom->mesh->K_owned;
  DG_CALL(dg_buffer_read(op->dev, op->d_eout, 0, op->n_eout * op->rs, op->stage));
  double e = 0; /* summed in double, in element order, whatever the operator's precision */
  for (int k = 0; k < k_owned; ++k) e += dg_clm_get(op, op->stage, (size_t)dg_clm_slot(op, k));
  *energy = e;
  return DG_OK;
}


/* term_maxwell.c: the Maxwell volume and surface operator on the device, the part every
 * program has and the terms (cl_term.h) add to: its templates and #defines (the variant's
 * choices, by the names of cl_templates/contract.h), its data in the device layout (fields,
 * element and face data, face-node maps, energy weights, the operators), its kernels by the
 * variant's path (split volume/flux/lift, one fused kernel, or CLBlast GEMMs) and their
 * fixed arguments, and its part of a stage: the right-hand side and the LSERK update. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backend/cl_maxwell_impl.h"
#include "backend/clblast_check.h"
#include "core/alloc.h"
#include "dg/lserk.h"

/* The names the kernels know the host's choices by, and the kernel names that depend on a
 * choice, from the tables of contract.h. */
static const char *const place_names[] = {DG_PLACE_CHOICES(DG_CHOICE_CLNAME)};
static const char *const lift_names[] = {DG_LIFT_CHOICES(DG_CHOICE_CLNAME)};
static const char *const lift_kernels[] = {DG_LIFT_CHOICES(DG_CHOICE_KERNEL)};
static const char *const flux_names[] = {DG_FLUX_CHOICES(DG_CHOICE_CLNAME)};
static const char *const fuse_names[] = {DG_FUSE_CHOICES(DG_CHOICE_CLNAME)};
static const char *const fuse_kernels[] = {DG_FUSE_CHOICES(DG_CHOICE_KERNEL)};

/* ---- program ---------------------------------------------------------------------------- */

int dg_clm_maxwell_templates(const dg_variant *v, int for_hash,
                             const char *names[DG_CL_MAX_TEMPLATE_FILES]) {
  const int blas = v->path == DG_PATH_CLBLAST;
  int n = 0;
  names[n++] = "common.cl";
  names[n++] = "operator.cl";
  if (!blas) names[n++] = "volume.cl";
  names[n++] = "incident.cl"; /* flux.cl evaluates it (nothing without a wave: term_incident.c) */
  names[n++] = "flux.cl";
  names[n++] = "lift.cl";
  names[n++] = "update.cl";
  if (!blas && v->fuse != DG_FUSE_NONE)
    names[n++] = v->work == DG_WORK_NODE ? "element_node.cl" : "element.cl";
  /* The tuning hash (for_hash) names energy.cl whatever the layout: no energy kernel runs
   * in the timed stage, and entries tuned before energy_block.cl existed keep their hash. */
  names[n++] = dg_variant_layout_width(v) > 1 && !for_hash ? "energy_block.cl" : "energy.cl";
  if (blas) names[n++] = "blas_pointwise.cl";
  return n;
}

dg_status dg_clm_maxwell_define(dg_kernel_spec *s, const dg_variant *v, const dg_clm_program *p) {
  char suffix[32];
  dg_variant_kernel_suffix(v, suffix, sizeof suffix);
  const int blas = v->path == DG_PATH_CLBLAST;
  DG_CALL(dg_kernel_spec_define(s, "DG_DOUBLE", "%d", v->precision == DG_PREC_DOUBLE));
  DG_CALL(dg_kernel_spec_define(s, "NP", "%d", p->NP));
  DG_CALL(dg_kernel_spec_define(s, "NFP", "%d", p->NFP));
  DG_CALL(dg_kernel_spec_define(s, "NPP", "%d", p->NPP));
  DG_CALL(dg_kernel_spec_define(s, "FLUXP", "%d", p->FLUXP));
  DG_CALL(dg_kernel_spec_define(s, "VW", "%d", v->work == DG_WORK_VEC ? v->vw : 1));
  DG_CALL(dg_kernel_spec_define(s, "EPW", "%d", v->work == DG_WORK_ELEM ? v->vw : 1));
  if (!blas && v->fuse != DG_FUSE_NONE && v->work == DG_WORK_NODE) /* element_node.cl */
    DG_CALL(dg_kernel_spec_define(s, "NODE_EPW", "%d", dg_variant_node_elems(v)));
  if (!blas) DG_CALL(dg_kernel_spec_define(s, "KB", "%d", v->kb)); /* volume.cl */
  DG_CALL(dg_kernel_spec_define(s, "LKB", "%d", v->lkb));
  DG_CALL(dg_kernel_spec_define(s, "VPLACE", "%s", place_names[v->vplace]));
  DG_CALL(dg_kernel_spec_define(s, "LPLACE", "%s", place_names[v->lplace]));
  DG_CALL(dg_kernel_spec_define(s, "UNROLL", "%d", v->unroll));
  DG_CALL(dg_kernel_spec_define(s, "LIFT_MODE", "%s", blas ? "LIFT_FLUX_ONLY" : lift_names[v->lift]));
  DG_CALL(dg_kernel_spec_define(s, "LIFT_KERNEL", "%s", lift_kernels[v->lift]));
  DG_CALL(dg_kernel_spec_define(s, "FLUX_MODE", "%s", flux_names[blas ? DG_FLUX_POINT : v->flux]));
  DG_CALL(dg_kernel_spec_define(s, "LNPW", "%d", v->lnpw > 1 ? v->lnpw : 1));
  const dg_fuse fuse = blas ? DG_FUSE_NONE : v->fuse;
  DG_CALL(dg_kernel_spec_define(s, "FUSE_MODE", "%s", fuse_names[fuse]));
  DG_CALL(dg_kernel_spec_define(s, "FUSE_KERNEL", "%s", fuse_kernels[fuse]));
  DG_CALL(dg_kernel_spec_define(s, "LWI", "%d", dg_variant_lift_items(v, p->N)));
  DG_CALL(dg_kernel_spec_define(s, "DG_LITERAL_OPS", "%d", v->literal));
  DG_CALL(dg_kernel_spec_define(s, "VARIANT", "%s", suffix));
  DG_CALL(dg_kernel_spec_define(s, "DG_TEST_FLIP", "%d", v->test == DG_VTEST_FLIP));
  DG_CALL(dg_kernel_spec_define(s, "DG_TEST_SYNTAX", "%d", v->test == DG_VTEST_SYNTAX));
  return DG_OK;
}

dg_status dg_clm_maxwell_literals(dg_kernel_spec *s, const dg_variant *v, const dg_clm_program *p,
                                  const double *ops_t[4]) {
  if (!v->literal || v->path == DG_PATH_CLBLAST) return DG_OK;
  const int np2 = p->NP * p->NP;
  DG_CALL(dg_kernel_spec_array(s, "c_DrT", ops_t[0], np2));
  DG_CALL(dg_kernel_spec_array(s, "c_DsT", ops_t[1], np2));
  DG_CALL(dg_kernel_spec_array(s, "c_DtT", ops_t[2], np2));
  DG_CALL(dg_kernel_spec_array(s, "c_LIFTT", ops_t[3], p->NP * 4 * p->NFP));
  s->arrays_float = v->precision == DG_PREC_FLOAT;
  return DG_OK;
}

/* The ids of the variant's kernels, chosen once (dg_clm_maxwell_create): its lift (lift,
 * fluxlift or liftupdate), its fused kernel (rhs, rhsres or rhsstep; -1 without fusion),
 * its energy kernel. */
static void choose_kernels(dg_cl_maxwell *op) {
  op->lift_id = (dg_clk_id)dg_clk_find(lift_kernels[op->v.lift], NULL);
  op->fuse_id = op->v.path == DG_PATH_KERNELS && op->v.fuse != DG_FUSE_NONE
                    ? dg_clk_find(fuse_kernels[op->v.fuse], NULL)
                    : -1;
  op->energy_id = op->VL > 1 ? DG_CLK_ENERGY_BLOCK : DG_CLK_ENERGY;
}

/* ---- data ------------------------------------------------------------------------------- */

static dg_status build_element_data(dg_cl_maxwell *op) {
  const dg_maxwell *p = op->phys;
  const dg_geom *g = p->geom;
  dg_status st = DG_OK;
  double *e = NULL;
  DG_CALL(DG_ALLOC(e, (size_t)op->Kpad * EG));
  for (int e0 = 0; e0 < op->K; ++e0) {
    const int k = dg_clm_slot(op, e0);
    /* a curved element's metric varies (curved.cl): 0 here, so the affine kernels' stand-in
     * for it stays finite */
    const double m = dg_geom_curved_row(g, e0) >= 0 ? 0 : 1;
    const double val[EG] = {[EG_RX] = m ? g->rx[e0] : 0, [EG_RY] = m ? g->ry[e0] : 0,
                            [EG_RZ] = m ? g->rz[e0] : 0, [EG_SX] = m ? g->sx[e0] : 0,
                            [EG_SY] = m ? g->sy[e0] : 0, [EG_SZ] = m ? g->sz[e0] : 0,
                            [EG_TX] = m ? g->tx[e0] : 0, [EG_TY] = m ? g->ty[e0] : 0,
                            [EG_TZ] = m ? g->tz[e0] : 0,
                            [EG_INV_EPS] = 1 / p->eps[e0], [EG_INV_MU] = 1 / p->mu[e0],
                            [EG_SIGMA_EPS] = p->sigma[e0] / p->eps[e0]};
    for (int c = 0; c < EG; ++c)
      e[(size_t)(k / op->VL) * EG * op->VL + (size_t)c * op->VL + k % op->VL] = val[c];
  }
  DG_CALL_GOTO(done, dg_clm_upload(op, e, (size_t)op->Kpad * EG, &op->d_egeo));
done:
  dg_free(&e);
  return st;
}

/* The straight-sided faces take their normal and scale = Fscale, folding 1/eps and 1/mu in
 * (mat = 1); a curved element's faces (curved.cl) scale 1 without them (mat = 0) and their
 * normals per point. */
void dg_clm_face_values(const dg_cl_maxwell *op, int k, int f, const double n[3], double scale,
                        int mat, double val[FD]) {
  const dg_maxwell *p = op->phys;
  const dg_plane_wave *pw = op->terms.pw;
  const int fid = 4 * k + f, bc = p->bc[fid], k2 = p->geom->mesh->EToE[fid];
  const double ZM = sqrt(p->mu[k] / p->eps[k]), YM = 1 / ZM;
  const double ZP = bc == DG_BC_NONE ? sqrt(p->mu[k2] / p->eps[k2]) : ZM, YP = 1 / ZP;
  const double cE = scale / ((mat ? p->eps[k] : 1) * (ZM + ZP));
  const double cH = scale / ((mat ? p->mu[k] : 1) * (YM + YP));
  const double bcE = bc == DG_BC_PEC ? -2 : bc == DG_BC_ABC ? -1 : 0;
  const double bcH = bc == DG_BC_PMC ? -2 : bc == DG_BC_ABC ? -1 : 0;
  /* Incident weights, from the exterior states of dg_maxwell_rhs: total-field absorbing
   * E+ = E_inc, H+ = H_inc; scattered-field PEC E+ = -E- - 2 E_inc; a TF/SF surface face
   * E+ = E(P) +- E_inc, H+ = H(P) +- H_inc (+ on the total-field side). */
  const int total_abc = pw && !p->scattered && !p->tfsf && bc == DG_BC_ABC;
  const int scat_pec = pw && p->scattered && bc == DG_BC_PEC;
  const double tfsf = pw && p->tfsf && bc == DG_BC_NONE ? p->tfsf[fid] : 0;
  const double incE = total_abc ? 1 : scat_pec ? -2 : tfsf, incH = total_abc ? 1 : tfsf;
  for (int c = 0; c < FD; ++c) val[c] = 0;
  val[FD_NX] = n[0], val[FD_NY] = n[1], val[FD_NZ] = n[2];
  val[FD_CEH] = cE * ZP, val[FD_CEE] = cE * p->alpha;
  val[FD_CHE] = cH * YP, val[FD_CHH] = cH * p->alpha;
  val[FD_BCE] = bcE, val[FD_BCH] = bcH;
  val[FD_INCE] = incE, val[FD_INCH] = incH;
}

static dg_status build_face_data(dg_cl_maxwell *op) {
  const dg_maxwell *p = op->phys;
  const dg_geom *g = p->geom;
  const int Np = op->NP, Nfp = op->NFP;
  dg_status st = DG_OK;
  double *fd = NULL;
  int *vM = NULL, *vP = NULL;
  DG_CALL_GOTO(done, DG_ALLOC(fd, (size_t)op->Kpad * 4 * FD));
  DG_CALL_GOTO(done, DG_ALLOC(vM, op->ffs));
  DG_CALL_GOTO(done, DG_ALLOC(vP, op->ffs));
  /* Padding slots first: own node 0 on both sides, so vector loads stay contiguous. */
  for (int k = 0; k < op->Kpad; ++k)
    for (int j = 0; j < 4 * Nfp; ++j) {
      const size_t fi = (size_t)(k / op->VL) * op->FLUXP * op->VL + (size_t)j * op->VL +
                        (size_t)(k % op->VL);
      vM[fi] = vP[fi] = (int)((size_t)(k / op->VL) * op->NPP * op->VL + (size_t)(k % op->VL));
    }
  for (int k = 0; k < op->K; ++k) {
    const int ks = dg_clm_slot(op, k);
    /* a curved element's faces: zero weights here (curved.cl computes its terms) */
    const int curved = dg_geom_curved_row(g, k) >= 0;
    for (int f = 0; f < 4; ++f) {
      const int fid = 4 * k + f;
      const int bc = p->bc[fid];
      const double zero[3] = {0, 0, 0}, n[3] = {g->nx[fid], g->ny[fid], g->nz[fid]};
      double val[FD];
      dg_clm_face_values(op, k, f, curved ? zero : n, curved ? 0 : g->Fscale[fid], 1, val);
      for (int c = 0; c < FD; ++c)
        fd[(size_t)(ks / op->VL) * 4 * FD * op->VL + (size_t)(f * FD + c) * op->VL +
           (size_t)(ks % op->VL)] = val[c];
      for (int i = 0; i < Nfp; ++i) {
        const int m = g->vmapM[fid * Nfp + i];
        const int pp = bc == DG_BC_NONE ? g->vmapP[fid * Nfp + i] : m;
        const int j = f * Nfp + i;
        const size_t fi = (size_t)(ks / op->VL) * op->FLUXP * op->VL + (size_t)j * op->VL +
                          (size_t)(ks % op->VL);
        vM[fi] = (int)dg_clm_index(op, m / Np, m % Np);
        vP[fi] = (int)dg_clm_index(op, pp / Np, pp % Np);
      }
    }
  }
  DG_CALL_GOTO(done, dg_clm_upload(op, fd, (size_t)op->Kpad * 4 * FD, &op->d_fdata));
  DG_CALL_GOTO(done, dg_clm_upload_ints(op, vM, op->ffs, &op->d_vmapM));
  DG_CALL_GOTO(done, dg_clm_upload_ints(op, vP, op->ffs, &op->d_vmapP));
done:
  dg_free(&fd);
  dg_free(&vM);
  dg_free(&vP);
  return st;
}

/* The energy kernel's data: the mass matrix, 1/2 eps J and 1/2 mu J per element (zero for
 * padding; interleaved by blocks of VL like the element data, which for VL = 1 is
 * energy.cl's 2 k + c), and the per-element result. */
static dg_status build_energy_data(dg_cl_maxwell *op) {
  const dg_maxwell *p = op->phys;
  const dg_geom *g = p->geom;
  dg_status st = DG_OK;
  double *ew = NULL;
  op->n_eout = dg_clm_items((size_t)op->Kpad);
  const int VL = op->VL;
  DG_CHECK(op->n_eout % (size_t)VL == 0, DG_ERR_INTERNAL,
           "energy: %zu slots are not whole blocks of %d", op->n_eout, VL);
  DG_CALL(DG_ALLOC(ew, EW * op->n_eout));
  for (int k = 0; k < op->K; ++k) {
    const int j = dg_clm_slot(op, k), at = j / VL * EW * VL + j % VL;
    /* a curved element's energy: curvenergy (curved.cl), with its own mass matrix */
    const double J = dg_geom_curved_row(g, k) >= 0 ? 0 : g->J[k];
    ew[at + EW_E * VL] = 0.5 * p->eps[k] * J;
    ew[at + EW_H * VL] = 0.5 * p->mu[k] * J;
  }
  DG_CALL_GOTO(done, dg_clm_upload(op, ew, EW * op->n_eout, &op->d_ew));
  DG_CALL_GOTO(done, dg_clm_upload(op, g->ref->M, (size_t)op->NP * op->NP, &op->d_M));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_WRITE_ONLY, op->n_eout * op->rs, NULL,
                                      &op->d_eout));
done:
  dg_free(&ew);
  return st;
}

/* out[j*rows + n] = A[n][j] for a rows x cols row-major A. */
static void transpose(const double *A, int rows, int cols, double *out) {
  for (int n = 0; n < rows; ++n)
    for (int j = 0; j < cols; ++j) out[(size_t)j * rows + n] = A[(size_t)n * cols + j];
}

dg_status dg_clm_transposed_ops(const dg_refel *r, double *ops_t[4]) {
  const int Np = r->Np, L = 4 * r->Nfp;
  const double *A[4] = {r->Dr, r->Ds, r->Dt, r->LIFT};
  for (int i = 0; i < 4; ++i) ops_t[i] = NULL;
  for (int i = 0; i < 4; ++i) {
    const int cols = i < 3 ? Np : L;
    dg_status st = DG_ALLOC(ops_t[i], (size_t)Np * cols);
    if (st != DG_OK) {
      dg_clm_free_ops(ops_t);
      DG_CALL(st);
    }
    transpose(A[i], Np, cols, ops_t[i]);
  }
  return DG_OK;
}

void dg_clm_free_ops(double *ops_t[4]) {
  for (int i = 0; i < 4; ++i) dg_free(&ops_t[i]);
}

/* The CLBlast path's operators: [Dr; Ds; Dt] (each block padded to NPP rows with zeros,
 * row-major 3NPP x Np), LIFT row-major, and the derivatives' buffer. */
static dg_status build_blas_data(dg_cl_maxwell *op) {
  const dg_refel *r = op->phys->geom->ref;
  const int Np = op->NP;
  dg_status st = DG_OK;
  double *dall = NULL;
  DG_CALL(DG_ALLOC(dall, (size_t)3 * op->NPP * Np));
  const double *D3[3] = {r->Dr, r->Ds, r->Dt};
  for (int d = 0; d < 3; ++d)
    memcpy(dall + (size_t)d * op->NPP * Np, D3[d], sizeof(double) * Np * Np);
  DG_CALL_GOTO(done, dg_clm_upload(op, dall, (size_t)3 * op->NPP * Np, &op->d_Dall));
  DG_CALL_GOTO(done, dg_clm_upload(op, r->LIFT, (size_t)Np * 4 * op->NFP, &op->d_LIFTrm));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, 3 * 6 * op->fs * op->rs, NULL,
                                      &op->d_D));
done:
  dg_free(&dall);
  return st;
}

static dg_status build_data(dg_cl_maxwell *op, double *const ops_t[4]) {
  const int Np = op->NP, L = 4 * op->NFP;
  const size_t n6 = 6 * op->fs;
  DG_CALL(dg_calloc(&op->stage, n6, op->rs));
  DG_CALL(dg_clm_zeros(op, n6, &op->d_q));
  if (dg_clm_ping_pong(op)) {
    DG_CALL(dg_clm_zeros(op, n6, &op->d_q2));
    DG_CALL(dg_clm_zeros(op, n6, &op->d_q3));
  }
  op->q_live = op->d_q;
  DG_CALL(dg_clm_zeros(op, n6, &op->d_res));
  DG_CALL(dg_clm_zeros(op, n6, &op->d_rhs));
  DG_CALL(dg_buffer_create(op->dev, CL_MEM_READ_WRITE, 6 * op->ffs * op->rs, NULL, &op->d_flux));
  DG_CALL(build_element_data(op));
  DG_CALL(build_face_data(op));
  DG_CALL(build_energy_data(op));
  DG_CALL(dg_clm_upload(op, ops_t[0], (size_t)Np * Np, &op->d_DrT));
  DG_CALL(dg_clm_upload(op, ops_t[1], (size_t)Np * Np, &op->d_DsT));
  DG_CALL(dg_clm_upload(op, ops_t[2], (size_t)Np * Np, &op->d_DtT));
  DG_CALL(dg_clm_upload(op, ops_t[3], (size_t)Np * L, &op->d_LIFTT));
  if (op->v.path == DG_PATH_CLBLAST) DG_CALL(build_blas_data(op));
  return DG_OK;
}

/* ---- kernels and their fixed arguments ---------------------------------------------------
 * (the RK coefficients, the stage time and the buffers a stage moves are set per stage;
 * every argument starts NULL or 0, dg_clm_make_kernel) */

static dg_status make_kernels(dg_cl_maxwell *op) {
  const dg_variant *v = &op->v;
  const int fused = op->fuse_id >= 0;
  if (fused) {
    DG_CALL(dg_clm_make_kernel(op, (dg_clk_id)op->fuse_id));
    if (v->fuse == DG_FUSE_RES) DG_CALL(dg_clm_make_kernel(op, DG_CLK_QUPDATE));
    if (v->fuse == DG_FUSE_STEP) DG_CALL(dg_clm_make_kernel(op, DG_CLK_QCOPY));
  } else if (v->path == DG_PATH_CLBLAST) {
    DG_CALL(dg_clm_make_kernel(op, DG_CLK_CURL));
  } else {
    DG_CALL(dg_clm_make_kernel(op, DG_CLK_VOLUME));
  }
  if (!fused && (v->path == DG_PATH_CLBLAST || v->lift != DG_LIFT_FUSED))
    DG_CALL(dg_clm_make_kernel(op, DG_CLK_FLUX));
  if (!fused && v->path == DG_PATH_KERNELS) DG_CALL(dg_clm_make_kernel(op, op->lift_id));
  DG_CALL(dg_clm_make_kernel(op, DG_CLK_UPDATE));
  DG_CALL(dg_clm_make_kernel(op, op->energy_id));
  return DG_OK;
}

static dg_status set_volume_args(dg_cl_maxwell *op) {
  const int fs = (int)op->fs;
  cl_kernel k = op->k[DG_CLK_VOLUME];
  if (k) {
    DG_CALL(DG_KERNEL_ARG(k, VOL_ARG_Q, op->d_q));
    DG_CALL(DG_KERNEL_ARG(k, VOL_ARG_RHS, op->d_rhs));
    DG_CALL(DG_KERNEL_ARG(k, VOL_ARG_EGEO, op->d_egeo));
    DG_CALL(DG_KERNEL_ARG(k, VOL_ARG_DRT, op->d_DrT));
    DG_CALL(DG_KERNEL_ARG(k, VOL_ARG_DST, op->d_DsT));
    DG_CALL(DG_KERNEL_ARG(k, VOL_ARG_DTT, op->d_DtT));
    DG_CALL(DG_KERNEL_ARG(k, VOL_ARG_FS, fs));
  }
  if ((k = op->k[DG_CLK_CURL])) {
    DG_CALL(DG_KERNEL_ARG(k, CURL_ARG_D, op->d_D));
    DG_CALL(DG_KERNEL_ARG(k, CURL_ARG_Q, op->d_q));
    DG_CALL(DG_KERNEL_ARG(k, CURL_ARG_EGEO, op->d_egeo));
    DG_CALL(DG_KERNEL_ARG(k, CURL_ARG_RHS, op->d_rhs));
  }
  return DG_OK;
}

static dg_status set_surface_args(dg_cl_maxwell *op) {
  const int fs = (int)op->fs, ffs = (int)op->ffs;
  cl_kernel k = op->k[DG_CLK_FLUX];
  if (k) {
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_Q, op->d_q));
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_FS, fs));
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_VMAPM, op->d_vmapM));
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_VMAPP, op->d_vmapP));
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_FDATA, op->d_fdata));
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_FLUX, op->d_flux));
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_FFS, ffs));
  }
  const int lid = op->lift_id;
  if (lid >= 0 && (k = op->k[lid])) {
    /* lift=fused computes its fluxes (reads q and the face data), fused-update advances
     * res and q; the arguments a mode does not use stay NULL */
    const int fused = op->v.lift == DG_LIFT_FUSED, update = op->v.lift == DG_LIFT_FUSED_UPDATE;
    if (!fused) DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_FLUX, op->d_flux));
    DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_FFS, ffs));
    DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_RHS, op->d_rhs));
    DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_LIFTT, op->d_LIFTT));
    DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_FS, fs));
    if (fused || update) DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_Q, op->d_q));
    if (update) DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_RES, op->d_res));
    if (fused) {
      DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_VMAPM, op->d_vmapM));
      DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_VMAPP, op->d_vmapP));
      DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_FDATA, op->d_fdata));
    }
  }
  return DG_OK;
}

static dg_status set_fused_args(dg_cl_maxwell *op) {
  const int fs = (int)op->fs, fid = op->fuse_id;
  cl_kernel k = fid >= 0 ? op->k[fid] : NULL;
  if (k) {
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_Q, op->d_q));
    const cl_mem out = dg_clm_result_in_res(op) ? op->d_res : op->d_rhs;
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_OUT, out));
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_FS, fs));
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_EGEO, op->d_egeo));
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_DRT, op->d_DrT));
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_DST, op->d_DsT));
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_DTT, op->d_DtT));
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_LIFTT, op->d_LIFTT));
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_VMAPM, op->d_vmapM));
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_VMAPP, op->d_vmapP));
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_FDATA, op->d_fdata));
    DG_CALL(dg_clm_set_real_arg(op, k, FUSE_ARG_DT, 1.0));
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_QOUT, op->d_q2)); /* NULL unless fuse=step */
  }
  if ((k = op->k[DG_CLK_QCOPY])) /* its source, q_live, is set where it runs (q_home) */
    DG_CALL(DG_KERNEL_ARG(k, QCOPY_ARG_DST, op->d_q));
  if ((k = op->k[DG_CLK_QUPDATE])) {
    DG_CALL(DG_KERNEL_ARG(k, QUPD_ARG_Q, op->d_q));
    DG_CALL(DG_KERNEL_ARG(k, QUPD_ARG_RES, op->d_res));
  }
  k = op->k[DG_CLK_UPDATE];
  DG_CALL(DG_KERNEL_ARG(k, UPD_ARG_Q, op->d_q));
  DG_CALL(DG_KERNEL_ARG(k, UPD_ARG_RES, op->d_res));
  DG_CALL(DG_KERNEL_ARG(k, UPD_ARG_RHS, op->d_rhs));
  return DG_OK;
}

static dg_status set_energy_args(dg_cl_maxwell *op) {
  const dg_clk_id id = op->energy_id;
  cl_kernel k = op->k[id];
  const int fs = (int)op->fs;
  /* grouped: slots are not in element order, so every slot is summed (padding is 0) */
  const int k_owned = op->slot ? op->Kpad : op->phys->geom->mesh->K_owned;
  DG_CALL(DG_KERNEL_ARG(k, EN_ARG_Q, op->d_q));
  DG_CALL(DG_KERNEL_ARG(k, EN_ARG_FS, fs));
  DG_CALL(DG_KERNEL_ARG(k, EN_ARG_M, op->d_M));
  DG_CALL(DG_KERNEL_ARG(k, EN_ARG_EW, op->d_ew));
  DG_CALL(DG_KERNEL_ARG(k, EN_ARG_OUT, op->d_eout));
  DG_CALL(DG_KERNEL_ARG(k, EN_ARG_KOWNED, k_owned));
  if (id == DG_CLK_ENERGY_BLOCK) {
    const int n_blocks = (int)(op->n_eout / (size_t)op->VL);
    DG_CALL(DG_KERNEL_ARG(k, ENB_ARG_NBLK, n_blocks));
  }
  return DG_OK;
}

dg_status dg_clm_maxwell_create(dg_cl_maxwell *op) {
  double *ops_t[4] = {NULL, NULL, NULL, NULL};
  dg_status st = dg_clm_transposed_ops(op->phys->geom->ref, ops_t);
  if (st == DG_OK) st = build_data(op, ops_t);
  dg_clm_free_ops(ops_t);
  DG_CALL(st);
  choose_kernels(op);
  DG_CALL(make_kernels(op));
  DG_CALL(set_volume_args(op));
  DG_CALL(set_surface_args(op));
  DG_CALL(set_fused_args(op));
  DG_CALL(set_energy_args(op));
  return DG_OK;
}

void dg_clm_maxwell_destroy(dg_cl_maxwell *op) {
  cl_mem *bs[] = {&op->d_q,   &op->d_q2,  &op->d_q3,    &op->d_res,   &op->d_rhs,  &op->d_flux,
                  &op->d_egeo, &op->d_fdata, &op->d_vmapM, &op->d_vmapP, &op->d_M,  &op->d_ew,
                  &op->d_eout, &op->d_DrT, &op->d_DsT,   &op->d_DtT,   &op->d_LIFTT,
                  &op->d_Dall, &op->d_D,   &op->d_LIFTrm};
  for (size_t i = 0; i < sizeof bs / sizeof bs[0]; ++i) dg_buffer_release(bs[i]);
  free(op->stage);
  op->stage = NULL;
}

/* ---- a stage ---------------------------------------------------------------------------- */

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
    dg_clm_time_entry(t, name, t1 - t0);
  }
done:
  if (ev) clReleaseEvent(ev);
  return st;
}

/* The right-hand side, by the variant's path, in three parts around the terms' traces and
 * before_res hooks (cl_maxwell_stage.c runs them in this order):
 * - begin, what needs no neighbour traces: the volume kernel (split path), the volume GEMM and
 *   curl (CLBlast path), nothing for one fused kernel, which reads the traces at once (no
 *   overlap with the halo exchange);
 * - faces, once the traces are in: the flux kernel (split, CLBlast; none for lift=fused),
 *   the RK coefficients of a lift or fused kernel that advances res;
 * - end: the kernel that writes the result, lift / fluxlift / liftupdate, the lift GEMM, or
 *   the fused kernel (then, for fuse=res, the q update; fuse=step writes the new q into
 *   another of q's buffers itself).
 * Over a range (a multirate level) the fused launch starts at the range's first block (global
 * offset) and covers exactly its blocks: the grouped layout starts and pads every group to
 * whole work-groups of kb blocks (dg_cl_maxwell_create_grouped), so no work-item falls past
 * the range, where other levels' results (their history) must stay as they are. Checked,
 * rather than guarded in the kernel, to keep element.cl as it is. The CLBlast path launches
 * over the whole mesh whatever the range. */

dg_status dg_clm_maxwell_rhs_begin(dg_cl_maxwell *op, const dg_clm_stage *s) {
  const dg_variant *v = &op->v;
  if (op->fuse_id >= 0) return DG_OK;
  if (v->path == DG_PATH_CLBLAST) {
    const size_t NPP = (size_t)op->NPP, NP = (size_t)op->NP, K6 = 6 * (size_t)op->Kpad;
    DG_CALL(gemm(op, 3 * NPP, K6, NP, op->d_Dall, NP, op->d_q, NPP, 0.0, op->d_D, 3 * NPP,
                 "gemm_volume", s->t));
    DG_CALL(dg_clm_launch_items(op, DG_CLK_CURL, 0, op->fs, s->t));
    return DG_OK;
  }
  const size_t g2[2] = {(size_t)op->NP, s->nb}, o2[2] = {0, s->b0};
  const size_t lv[2] = {(size_t)op->NP, (size_t)v->kb};
  DG_CALL(dg_clm_launch(op, DG_CLK_VOLUME, 2, s->part ? o2 : NULL, g2, lv, s->t));
  return DG_OK;
}

dg_status dg_clm_maxwell_rhs_faces(dg_cl_maxwell *op, const dg_clm_stage *s) {
  const dg_variant *v = &op->v;
  const int fid = op->fuse_id;
  if (fid >= 0) {
    if (s->fuse_res) {
      DG_CALL(dg_clm_set_real_arg(op, op->k[fid], FUSE_ARG_A, s->update ? s->a : 0.0));
      DG_CALL(dg_clm_set_real_arg(op, op->k[fid], FUSE_ARG_DT, s->update ? s->dt : 1.0));
    }
    return DG_OK;
  }
  if (v->path == DG_PATH_CLBLAST) {
    DG_CALL(dg_clm_launch_items(op, DG_CLK_FLUX, 0, op->ffs, s->t));
    return DG_OK;
  }
  /* flux=face: one work-item per face of a block (flux.cl); the launch over a group is
   * rounded up to whole work-groups (see dg_cl_maxwell_create_grouped) */
  const int vw = v->work == DG_WORK_VEC ? v->vw : 1, fface = v->flux == DG_FLUX_FACE;
  const size_t nflux = fface ? 4 * s->nb : s->nb * op->VL * op->FLUXP / (size_t)vw;
  const size_t oflux = fface ? 4 * s->b0 : s->b0 * op->VL * op->FLUXP / (size_t)vw;
  if (v->lift != DG_LIFT_FUSED)
    DG_CALL(dg_clm_launch_items(op, DG_CLK_FLUX, s->part ? oflux : 0, nflux, s->t));
  if (v->lift == DG_LIFT_FUSED_UPDATE) DG_CALL(dg_clm_set_stage_coefs(op, op->lift_id, s));
  return DG_OK;
}

/* The fused kernel over the stage's blocks (work=node: NP x kb work-items per group, each
 * for NODE_EPW elements, element_node.cl; else kb blocks), then fuse=res's q update. */
static dg_status rhs_fused_end(dg_cl_maxwell *op, const dg_clm_stage *s) {
  const dg_variant *v = &op->v;
  const dg_clk_id id = (dg_clk_id)op->fuse_id;
  const size_t ne = (size_t)dg_variant_node_elems(v), lf = (size_t)v->kb;
  const size_t gf = s->nb / ne, of = s->b0 / ne;
  DG_CHECK(s->b0 % (lf * ne) == 0 && s->nb % (lf * ne) == 0, DG_ERR_INTERNAL,
           "fused right-hand side over blocks %zu..%zu: not whole work-groups of %zu", s->b0,
           s->b0 + s->nb, lf * ne);
  const size_t np = (size_t)op->NP, gf2[2] = {np, gf}, lf2[2] = {np, lf}, of2[2] = {0, of};
  cl_kernel k = op->k[id];
  if (dg_clm_ping_pong(op)) { /* rk_b = 0: q stays where it is, the other buffer unwritten */
    const cl_mem other = s->update ? s->qout : s->qin == op->d_q ? op->d_q2 : op->d_q;
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_Q, s->qin));
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_QOUT, other));
    DG_CALL(dg_clm_set_real_arg(op, k, FUSE_ARG_B, s->update ? s->b : 0.0));
  }
  if (v->work == DG_WORK_NODE)
    DG_CALL(dg_clm_launch(op, id, 2, s->part ? of2 : NULL, gf2, lf2, s->t));
  else
    DG_CALL(dg_clm_launch(op, id, 1, s->part ? &of : NULL, &gf, &lf, s->t));
  if (v->fuse == DG_FUSE_RES && s->update) {
    DG_CALL(dg_clm_set_real_arg(op, op->k[DG_CLK_QUPDATE], QUPD_ARG_B, s->b));
    DG_CALL(dg_clm_launch_items(op, DG_CLK_QUPDATE, 0, 6 * op->fs / 2, s->t));
  }
  return DG_OK;
}

dg_status dg_clm_maxwell_rhs_end(dg_cl_maxwell *op, const dg_clm_stage *s) {
  const dg_variant *v = &op->v;
  if (op->fuse_id >= 0) {
    DG_CALL(rhs_fused_end(op, s));
    return DG_OK;
  }
  if (v->path == DG_PATH_CLBLAST) {
    const size_t NPP = (size_t)op->NPP, NP = (size_t)op->NP, K6 = 6 * (size_t)op->Kpad;
    DG_CALL(gemm(op, NP, K6, 4 * (size_t)op->NFP, op->d_LIFTrm, 4 * (size_t)op->NFP,
                 op->d_flux, (size_t)op->FLUXP, 1.0, op->d_rhs, NPP, "gemm_lift", s->t));
    return DG_OK;
  }
  const size_t lwi = (size_t)dg_variant_lift_items(v, op->N); /* NP unless lnpw > 1 */
  const size_t g2l[2] = {lwi, s->nb}, o2[2] = {0, s->b0}, ll[2] = {lwi, (size_t)v->lkb};
  DG_CALL(dg_clm_launch(op, op->lift_id, 2, s->part ? o2 : NULL, g2l, ll, s->t));
  return DG_OK;
}

/* The LSERK update of a stage that updates, unless a kernel fused it. */
dg_status dg_clm_maxwell_update(dg_cl_maxwell *op, const dg_clm_stage *s) {
  if (!s->update || s->fused_update) return DG_OK;
  cl_kernel k = op->k[DG_CLK_UPDATE];
  DG_CALL(dg_clm_set_real_arg(op, k, UPD_ARG_A, s->a));
  DG_CALL(dg_clm_set_real_arg(op, k, UPD_ARG_DT, s->dt));
  DG_CALL(dg_clm_set_real_arg(op, k, UPD_ARG_B, s->b));
  /* update.cl: two reals per work-item */
  DG_CALL(dg_clm_launch_items(op, DG_CLK_UPDATE, 0, 6 * op->fs / 2, s->t));
  return DG_OK;
}

/* Point the kernels' result at buffer r (the right-hand side alone: rhs, or res for the
 * fused lift-update and fuse=res|step). */
dg_status dg_clm_maxwell_result(dg_cl_maxwell *op, cl_mem r) {
  const int fid = op->fuse_id, lid = op->lift_id;
  if (fid >= 0) {
    DG_CALL(DG_KERNEL_ARG(op->k[fid], FUSE_ARG_OUT, r));
  } else if (op->v.lift == DG_LIFT_FUSED_UPDATE) {
    DG_CALL(DG_KERNEL_ARG(op->k[lid], LIFT_ARG_RES, r));
  } else {
    DG_CALL(DG_KERNEL_ARG(op->k[DG_CLK_VOLUME], VOL_ARG_RHS, r));
    DG_CALL(DG_KERNEL_ARG(op->k[lid], LIFT_ARG_RHS, r));
  }
  return DG_OK;
}

/* fuse=step: the buffer the ping-th stage of a step writes q into (cl_maxwell_impl.h,
 * q_live): each differs from the one before, and the fifth is home, so a whole LSERK4 step
 * ends with q at home and nothing to copy. */
cl_mem dg_clm_maxwell_next_q(const dg_cl_maxwell *op) {
  _Static_assert(DG_LSERK_STAGES == 5, "the sequence below is LSERK4's five stages");
  const cl_mem seq[DG_LSERK_STAGES] = {op->d_q2, op->d_q, op->d_q2, op->d_q3, op->d_q};
  return seq[op->ping];
}

/* fuse=step: after stages that are not a whole LSERK4 step, copy q home (between steps q is in
 * d_q, where everything else reads it; a whole step ends there, cl_maxwell_impl.h). */
dg_status dg_clm_maxwell_q_home(dg_cl_maxwell *op) {
  op->ping = 0;
  if (op->q_live == op->d_q) return DG_OK;
  DG_CALL(DG_KERNEL_ARG(op->k[DG_CLK_QCOPY], QCOPY_ARG_SRC, op->q_live));
  /* update.cl: two reals per work-item */
  DG_CALL(dg_clm_launch_items(op, DG_CLK_QCOPY, 0, 6 * op->fs / 2, NULL));
  op->q_live = op->d_q;
  return DG_OK;
}

dg_status dg_clm_maxwell_energy(dg_cl_maxwell *op) {
  /* energy.cl: one work-item per element; energy_block.cl: one per block of VL */
  const size_t l1 = WG1, n = dg_clm_items(op->n_eout / (size_t)op->VL);
  DG_CALL(dg_kernel_run(op->dev, op->k[op->energy_id], 1, &n, &l1, NULL));
  return DG_OK;
}

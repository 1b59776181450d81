#include "backend/cl_maxwell.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backend/clblast_check.h"
#include "codegen/codegen.h"
#include "core/alloc.h"
#include "device/binary_cache.h"
#include "device/program.h"
#include "dg/lserk.h"
#include "dg/pml.h"

/* Sizes the host decides and writes into every program (common.cl): reals of per-element
 * and per-face data, the work-group size of the 1D kernels. */
enum { EG = 12, FD = 12, WG1 = 64 };
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
       FUSE_ARG_XYZ, FUSE_ARG_T, FUSE_ARG_A, FUSE_ARG_DT };
enum { QUPD_ARG_Q, QUPD_ARG_RES, QUPD_ARG_B };
enum { SRC_ARG_OUT_A, SRC_ARG_OUT_B, SRC_ARG_FS, SRC_ARG_PROF, SRC_ARG_NODE, SRC_ARG_FIRST,
       SRC_ARG_COUNT, SRC_ARG_GA, SRC_ARG_GB };
enum { HALO_ARG_Q, HALO_ARG_SLOT, HALO_ARG_BUF, HALO_ARG_N };
enum { EN_ARG_Q, EN_ARG_FS, EN_ARG_M, EN_ARG_EW, EN_ARG_OUT, EN_ARG_KOWNED, EN_ARG_NBLK };
enum { PML_ARG_OUT_A, PML_ARG_OUT_B, PML_ARG_C, PML_ARG_SAVED, PML_ARG_W, PML_ARG_WRES,
       PML_ARG_COEF, PML_ARG_NODE, PML_ARG_FS, PML_ARG_NPN, PML_ARG_A, PML_ARG_DT, PML_ARG_B,
       PML_ARG_SA, PML_ARG_SB, PML_ARG_JEND };
enum { PMLSAVE_ARG_RES, PMLSAVE_ARG_SAVED, PMLSAVE_ARG_NODE, PMLSAVE_ARG_FS, PMLSAVE_ARG_NPN,
       PMLSAVE_ARG_JEND };

/* The names the templates know the host's choices by (common.cl), indexed by the enums of
 * backend/variant.h. */
static const char *const place_names[] = {"PLACE_NONE", "PLACE_MATRIX", "PLACE_FIELD"};
static const char *const lift_names[] = {"LIFT_SEPARATE", "LIFT_FUSED", "LIFT_FUSED_UPDATE"};
static const char *const flux_names[] = {"FLUX_POINT", "FLUX_FACE"};
static const char *const fuse_names[] = {"FUSE_NONE", "FUSE_RHS", "FUSE_RES"};
static const char *const shape_names[] = {"INC_GAUSSIAN", "INC_RICKER", "INC_HARMONIC",
                                          "INC_MODULATED_GAUSSIAN"};

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
  cl_kernel k_fuse, k_qupdate; /* fuse=rhs|res (element.cl, update.cl) */
  char name_fuse[32], name_qupdate[32];
  cl_mem d_q, d_res, d_rhs, d_flux, d_egeo, d_fdata, d_vmapM, d_vmapP;
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
static size_t aux_index(const dg_cl_maxwell *op, size_t i) {
  if (!op->pml_pos) return i;
  const size_t npn = (size_t)op->npn, a = i / npn, r = i - a * npn, e = r / (size_t)op->NP;
  return a * npn + (size_t)op->pml_pos[e] * op->NP + (r - e * op->NP);
}

static int slot_of(const dg_cl_maxwell *op, int k) { return op->slot ? op->slot[k] : k; }

/* Device index of node n of element k (variant.h). */
static size_t dev_index(const dg_cl_maxwell *op, int e, int n) {
  const int VL = op->VL, k = slot_of(op, e);
  return (size_t)(k / VL) * op->NPP * VL + (size_t)n * VL + (size_t)(k % VL);
}

static void put_real(const dg_cl_maxwell *op, void *buf, size_t i, double x) {
  if (op->rs == 8)
    ((double *)buf)[i] = x;
  else
    ((float *)buf)[i] = (float)x;
}

static double get_real(const dg_cl_maxwell *op, const void *buf, size_t i) {
  return op->rs == 8 ? ((const double *)buf)[i] : (double)((const float *)buf)[i];
}

static dg_status set_real_arg(const dg_cl_maxwell *op, cl_kernel k, cl_uint i, double x) {
  if (op->rs == 8) return DG_KERNEL_ARG(k, i, x);
  const float f = (float)x;
  return DG_KERNEL_ARG(k, i, f);
}

/* A buffer of n reals from doubles (converted to the operator's precision). */
static dg_status upload_reals(dg_cl_maxwell *op, const double *x, size_t n, cl_mem *out) {
  dg_status st = DG_OK;
  void *tmp = NULL;
  DG_CALL(dg_calloc(&tmp, n, op->rs));
  for (size_t i = 0; i < n; ++i) put_real(op, tmp, i, x[i]);
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, n * op->rs, tmp, out));
done:
  free(tmp);
  return st;
}

/* ---- host-side data -------------------------------------------------------------------- */

static dg_status build_element_data(dg_cl_maxwell *op, cl_mem *out) {
  const dg_maxwell *p = op->phys;
  const dg_geom *g = p->geom;
  dg_status st = DG_OK;
  double *e = NULL;
  DG_CALL(DG_ALLOC(e, (size_t)op->Kpad * EG));
  for (int e0 = 0; e0 < op->K; ++e0) {
    const int k = slot_of(op, e0);
    const double val[EG] = {g->rx[e0], g->ry[e0], g->rz[e0], g->sx[e0], g->sy[e0], g->sz[e0],
                            g->tx[e0], g->ty[e0], g->tz[e0], 1 / p->eps[e0], 1 / p->mu[e0],
                            p->sigma[e0] / p->eps[e0]};
    for (int c = 0; c < EG; ++c)
      e[(size_t)(k / op->VL) * EG * op->VL + (size_t)c * op->VL + k % op->VL] = val[c];
  }
  DG_CALL_GOTO(done, upload_reals(op, e, (size_t)op->Kpad * EG, out));
done:
  dg_free(&e);
  return st;
}

static dg_status build_face_data(dg_cl_maxwell *op, cl_mem *d_fdata, cl_mem *d_vM,
                                 cl_mem *d_vP) {
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
    const int ks = slot_of(op, k);
    const double ZM = sqrt(p->mu[k] / p->eps[k]), YM = 1 / ZM;
    for (int f = 0; f < 4; ++f) {
      const int fid = 4 * k + f;
      const int bc = p->bc[fid];
      const int k2 = g->mesh->EToE[fid];
      const double ZP = bc == DG_BC_NONE ? sqrt(p->mu[k2] / p->eps[k2]) : ZM, YP = 1 / ZP;
      const double cE = g->Fscale[fid] / (p->eps[k] * (ZM + ZP));
      const double cH = g->Fscale[fid] / (p->mu[k] * (YM + YP));
      const double bcE = bc == DG_BC_PEC ? -2 : bc == DG_BC_ABC ? -1 : 0;
      const double bcH = bc == DG_BC_PMC ? -2 : bc == DG_BC_ABC ? -1 : 0;
      /* Incident weights, from the exterior states of dg_maxwell_rhs: total-field absorbing
       * E+ = E_inc, H+ = H_inc; scattered-field PEC E+ = -E- - 2 E_inc; a TF/SF surface face
       * E+ = E(P) +- E_inc, H+ = H(P) +- H_inc (+ on the total-field side). */
      const int total_abc = op->pw && !p->scattered && !p->tfsf && bc == DG_BC_ABC;
      const int scat_pec = op->pw && p->scattered && bc == DG_BC_PEC;
      const double tfsf = op->pw && p->tfsf && bc == DG_BC_NONE ? p->tfsf[fid] : 0;
      const double incE = total_abc ? 1 : scat_pec ? -2 : tfsf,
                   incH = total_abc ? 1 : tfsf;
      const double val[FD] = {g->nx[fid], g->ny[fid], g->nz[fid], cE * ZP, cE * p->alpha,
                              cH * YP, cH * p->alpha, bcE, bcH, incE, incH, 0};
      for (int c = 0; c < FD; ++c)
        fd[(size_t)(ks / op->VL) * 4 * FD * op->VL + (size_t)(f * FD + c) * op->VL +
           (size_t)(ks % op->VL)] = val[c];
      for (int i = 0; i < Nfp; ++i) {
        const int m = g->vmapM[fid * Nfp + i];
        const int pp = bc == DG_BC_NONE ? g->vmapP[fid * Nfp + i] : m;
        const int j = f * Nfp + i;
        const size_t fi = (size_t)(ks / op->VL) * op->FLUXP * op->VL + (size_t)j * op->VL +
                          (size_t)(ks % op->VL);
        vM[fi] = (int)dev_index(op, m / Np, m % Np);
        vP[fi] = (int)dev_index(op, pp / Np, pp % Np);
      }
    }
  }
  DG_CALL_GOTO(done, upload_reals(op, fd, (size_t)op->Kpad * 4 * FD, d_fdata));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, op->ffs * sizeof(int), vM, d_vM));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, op->ffs * sizeof(int), vP, d_vP));
done:
  dg_free(&fd);
  dg_free(&vM);
  dg_free(&vP);
  return st;
}

/* Node coordinates x, y, z in the field layout (for the incident wave at face nodes). */
static dg_status build_coordinates(dg_cl_maxwell *op, cl_mem *out) {
  const dg_geom *g = op->phys->geom;
  dg_status st = DG_OK;
  double *xyz = NULL;
  DG_CALL(DG_ALLOC(xyz, 3 * op->fs));
  const double *c3[3] = {g->x, g->y, g->z};
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k < op->K; ++k)
      for (int n = 0; n < op->NP; ++n)
        xyz[c * op->fs + dev_index(op, k, n)] = c3[c][(size_t)k * op->NP + n];
  DG_CALL_GOTO(done, upload_reals(op, xyz, 3 * op->fs, out));
done:
  dg_free(&xyz);
  return st;
}

/* Point sources: P = dir profile / eps (3 x NP per source) and the device index of each of
 * the source element's nodes (source.cl). */
static dg_status build_source_data(dg_cl_maxwell *op, cl_mem *d_prof, cl_mem *d_node) {
  const dg_maxwell *p = op->phys;
  const int S = p->n_sources, Np = op->NP;
  dg_status st = DG_OK;
  double *prof = NULL;
  int *node = NULL;
  DG_CALL_GOTO(done, DG_ALLOC(prof, (size_t)S * 3 * Np));
  DG_CALL_GOTO(done, DG_ALLOC(node, (size_t)S * Np));
  for (int s = 0; s < S; ++s) {
    const dg_point_source *src = &p->sources[s];
    for (int c = 0; c < 3; ++c)
      for (int n = 0; n < Np; ++n)
        prof[((size_t)s * 3 + c) * Np + n] = src->dir[c] * src->profile[n] / p->eps[src->elem];
    for (int n = 0; n < Np; ++n) node[(size_t)s * Np + n] = (int)dev_index(op, src->elem, n);
  }
  DG_CALL_GOTO(done, upload_reals(op, prof, (size_t)S * 3 * Np, d_prof));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, (size_t)S * Np * sizeof(int),
                                      node, d_node));
done:
  dg_free(&prof);
  dg_free(&node);
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
  op->n_eout = ((size_t)op->Kpad + WG1 - 1) / WG1 * WG1;
  const int VL = op->VL;
  DG_CHECK(op->n_eout % (size_t)VL == 0, DG_ERR_INTERNAL,
           "energy: %zu slots are not whole blocks of %d", op->n_eout, VL);
  DG_CALL(DG_ALLOC(ew, 2 * op->n_eout));
  for (int k = 0; k < op->K; ++k) {
    const int j = slot_of(op, k), at = j / VL * 2 * VL + j % VL;
    ew[at] = 0.5 * p->eps[k] * g->J[k];
    ew[at + VL] = 0.5 * p->mu[k] * g->J[k];
  }
  DG_CALL_GOTO(done, upload_reals(op, ew, 2 * op->n_eout, &op->d_ew));
  DG_CALL_GOTO(done, upload_reals(op, g->ref->M, (size_t)op->NP * op->NP, &op->d_M));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_WRITE_ONLY, op->n_eout * op->rs, NULL,
                                      &op->d_eout));
done:
  dg_free(&ew);
  return st;
}

/* The PML (pml.cl): coefficients as in dg_maxwell.pml_coef, the field-layout index of each PML
 * node, zeroed auxiliary fields and residual, and the res copy of pmlsave. */
static dg_status build_pml_data(dg_cl_maxwell *op) {
  const dg_maxwell *p = op->phys;
  const int Np = op->NP;
  dg_status st = DG_OK;
  int *node = NULL;
  void *zeros = NULL;
  op->npn = p->pml_K * Np;
  const size_t npn = (size_t)op->npn;
  double *coef = NULL;
  DG_CALL(DG_ALLOC(node, npn));
  if (op->slot) { /* grouped: the PML elements by group, so each group's nodes are a range */
    int next[DG_CL_MAX_GROUPS + 1] = {0};
    DG_CALL_GOTO(done, DG_ALLOC(op->pml_pos, p->pml_K + 1));
    for (int e = 0; e < p->pml_K; ++e) ++next[op->group_of[p->pml_elem[e]] + 1];
    for (int g = 0; g < op->n_groups; ++g) next[g + 1] += next[g];
    for (int g = 0; g <= op->n_groups; ++g) op->pfirst[g] = next[g];
    for (int e = 0; e < p->pml_K; ++e) op->pml_pos[e] = next[op->group_of[p->pml_elem[e]]]++;
  }
  for (int e = 0; e < p->pml_K; ++e)
    for (int n = 0; n < Np; ++n)
      node[(size_t)(op->pml_pos ? op->pml_pos[e] : e) * Np + n] =
          (int)dev_index(op, p->pml_elem[e], n);
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, npn * sizeof(int), node,
                                      &op->d_pnode));
  DG_CALL_GOTO(done, DG_ALLOC(coef, DG_PML_COEFS * npn));
  for (size_t i = 0; i < DG_PML_COEFS * npn; ++i) coef[aux_index(op, i)] = p->pml_coef[i];
  DG_CALL_GOTO(done, upload_reals(op, coef, DG_PML_COEFS * npn, &op->d_pcoef));
  DG_CALL_GOTO(done, dg_calloc(&zeros, DG_PML_AUX * npn, op->rs));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, DG_PML_AUX * npn * op->rs,
                                      zeros, &op->d_pw));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, DG_PML_AUX * npn * op->rs,
                                      zeros, &op->d_pwres));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, 6 * npn * op->rs, zeros,
                                      &op->d_psaved));
done:
  dg_free(&node);
  dg_free(&coef);
  free(zeros);
  return st;
}

/* Transposed operators: out[j*rows... ] = A[n][j] for an NP x cols row-major A. */
static void transpose(const double *A, int rows, int cols, double *out) {
  for (int n = 0; n < rows; ++n)
    for (int j = 0; j < cols; ++j) out[(size_t)j * rows + n] = A[(size_t)n * cols + j];
}

/* ---- program ---------------------------------------------------------------------------- */

/* A real constant for the source: full precision, an f suffix in float programs (so they
 * need no fp64). */
static dg_status define_real(dg_kernel_spec *s, const char *name, double x, int fl) {
  DG_CALL(dg_kernel_spec_define(s, name, "((real_t)%.17e%s)", x, fl ? "f" : ""));
  return DG_OK;
}

/* The plane wave baked into incident.cl (DG_INC_*), so a program without one pays nothing. */
static dg_status define_incident(dg_kernel_spec *s, const dg_plane_wave *pw, int fl) {
  const double *k = pw->k, *p = pw->pol;
  const double h[3] = {k[1] * p[2] - k[2] * p[1], k[2] * p[0] - k[0] * p[2],
                       k[0] * p[1] - k[1] * p[0]};
  const dg_pulse *g = &pw->pulse;
  DG_CALL(dg_kernel_spec_define(s, "DG_INCIDENT", "1"));
  DG_CALL(define_real(s, "DG_INC_KX", k[0], fl));
  DG_CALL(define_real(s, "DG_INC_KY", k[1], fl));
  DG_CALL(define_real(s, "DG_INC_KZ", k[2], fl));
  DG_CALL(define_real(s, "DG_INC_KX0", k[0] * pw->x0[0] + k[1] * pw->x0[1] + k[2] * pw->x0[2],
                      fl));
  DG_CALL(define_real(s, "DG_INC_PX", p[0], fl));
  DG_CALL(define_real(s, "DG_INC_PY", p[1], fl));
  DG_CALL(define_real(s, "DG_INC_PZ", p[2], fl));
  DG_CALL(define_real(s, "DG_INC_HX", h[0], fl));
  DG_CALL(define_real(s, "DG_INC_HY", h[1], fl));
  DG_CALL(define_real(s, "DG_INC_HZ", h[2], fl));
  DG_CALL(dg_kernel_spec_define(s, "DG_INC_SHAPE", "%s", shape_names[g->shape]));
  DG_CALL(define_real(s, "DG_INC_F0", g->f0, fl));
  DG_CALL(define_real(s, "DG_INC_T0", g->t0, fl));
  DG_CALL(define_real(s, "DG_INC_AMP", g->amplitude, fl));
  const int ramp_on = g->shape == DG_PULSE_HARMONIC && g->ramp > 0;
  DG_CALL(dg_kernel_spec_define(s, "DG_INC_RAMP_ON", "%d", ramp_on));
  DG_CALL(define_real(s, "DG_INC_F0_RAMP", ramp_on ? g->f0 / g->ramp : 0, fl));
  if (g->shape == DG_PULSE_MODULATED_GAUSSIAN)
    DG_CALL(define_real(s, "DG_INC_BWA", dg_pulse_envelope_rate(g), fl));
  return DG_OK;
}

int dg_cl_maxwell_template_files(const dg_variant *v, int sources, int pml, int for_hash,
                                 const char *names[DG_CL_MAX_TEMPLATE_FILES]) {
  const int blas = v->path == DG_PATH_CLBLAST;
  int n = 0;
  names[n++] = "common.cl";
  if (!blas) names[n++] = "volume.cl";
  names[n++] = "incident.cl";
  names[n++] = "flux.cl";
  names[n++] = "lift.cl";
  names[n++] = "update.cl";
  if (!blas && v->fuse != DG_FUSE_NONE)
    names[n++] = v->work == DG_WORK_NODE ? "element_node.cl" : "element.cl";
  /* The tuning hash (for_hash) names energy.cl whatever the layout: no energy kernel runs
   * in the timed stage, and entries tuned before energy_block.cl existed keep their hash. */
  names[n++] = dg_variant_layout_width(v) > 1 && !for_hash ? "energy_block.cl" : "energy.cl";
  if (blas) names[n++] = "blas_pointwise.cl";
  if (sources) names[n++] = "source.cl";
  if (pml) names[n++] = "pml.cl";
  return n;
}

dg_status dg_cl_maxwell_templates_hash(const dg_variant *v, uint64_t *hash) {
  const char *files[DG_CL_MAX_TEMPLATE_FILES];
  const int n = dg_cl_maxwell_template_files(v, 0, 0, 1, files);
  DG_CALL(dg_codegen_files_hash(NULL, files, n, hash));
  return DG_OK;
}

/* What a program's source depends on beyond the variant. */
typedef struct {
  int N, NP, NFP, NPP, FLUXP;
  const dg_plane_wave *pw; /* NULL: no incident wave */
  int sources, pml;        /* the source and PML templates */
} source_params;

static dg_status render(const dg_variant *v, const source_params *op, const double *ops_t[4],
                        char **src) {
  dg_kernel_spec s;
  memset(&s, 0, sizeof s);
  char suffix[32];
  dg_variant_kernel_suffix(v, suffix, sizeof suffix);
  const int blas = v->path == DG_PATH_CLBLAST;
  DG_CALL(dg_kernel_spec_define(&s, "DG_DOUBLE", "%d", v->precision == DG_PREC_DOUBLE));
  DG_CALL(dg_kernel_spec_define(&s, "N", "%d", op->N));
  DG_CALL(dg_kernel_spec_define(&s, "NP", "%d", op->NP));
  DG_CALL(dg_kernel_spec_define(&s, "NFP", "%d", op->NFP));
  DG_CALL(dg_kernel_spec_define(&s, "NPP", "%d", op->NPP));
  DG_CALL(dg_kernel_spec_define(&s, "FLUXP", "%d", op->FLUXP));
  DG_CALL(dg_kernel_spec_define(&s, "VW", "%d", v->work == DG_WORK_VEC ? v->vw : 1));
  DG_CALL(dg_kernel_spec_define(&s, "EPW", "%d", v->work == DG_WORK_ELEM ? v->vw : 1));
  DG_CALL(dg_kernel_spec_define(&s, "KB", "%d", v->kb));
  DG_CALL(dg_kernel_spec_define(&s, "LKB", "%d", v->lkb));
  DG_CALL(dg_kernel_spec_define(&s, "VPLACE", "%s", place_names[v->vplace]));
  DG_CALL(dg_kernel_spec_define(&s, "LPLACE", "%s", place_names[v->lplace]));
  DG_CALL(dg_kernel_spec_define(&s, "UNROLL", "%d", v->unroll));
  DG_CALL(dg_kernel_spec_define(&s, "LIFT_MODE", "%s", blas ? "LIFT_FLUX_ONLY" : lift_names[v->lift]));
  DG_CALL(dg_kernel_spec_define(&s, "FLUX_MODE", "%s", blas ? "FLUX_POINT" : flux_names[v->flux]));
  DG_CALL(dg_kernel_spec_define(&s, "LNPW", "%d", v->lnpw > 1 ? v->lnpw : 1));
  if (!blas && v->fuse != DG_FUSE_NONE)
    DG_CALL(dg_kernel_spec_define(&s, "FUSE_MODE", "%s", fuse_names[v->fuse]));
  DG_CALL(dg_kernel_spec_define(&s, "LWI", "%d", dg_variant_lift_items(v, op->N)));
  DG_CALL(dg_kernel_spec_define(&s, "EG", "%d", EG));
  DG_CALL(dg_kernel_spec_define(&s, "FD", "%d", FD));
  DG_CALL(dg_kernel_spec_define(&s, "DG_LITERAL_OPS", "%d", v->literal));
  DG_CALL(dg_kernel_spec_define(&s, "VARIANT", "%s", suffix));
  DG_CALL(dg_kernel_spec_define(&s, "WG1", "%d", WG1));
  if (op->pw) DG_CALL(define_incident(&s, op->pw, v->precision == DG_PREC_FLOAT));
  if (v->test == DG_VTEST_FLIP) DG_CALL(dg_kernel_spec_define(&s, "DG_TEST_FLIP", "1"));
  if (v->test == DG_VTEST_SYNTAX) DG_CALL(dg_kernel_spec_define(&s, "DG_TEST_SYNTAX", "1"));
  const char *files[DG_CL_MAX_TEMPLATE_FILES];
  const int nf = dg_cl_maxwell_template_files(v, op->sources, op->pml, 0, files);
  for (int i = 0; i < nf; ++i) DG_CALL(dg_kernel_spec_file(&s, files[i]));
  if (v->literal && !blas) {
    const int np2 = op->NP * op->NP;
    DG_CALL(dg_kernel_spec_array(&s, "c_DrT", ops_t[0], np2));
    DG_CALL(dg_kernel_spec_array(&s, "c_DsT", ops_t[1], np2));
    DG_CALL(dg_kernel_spec_array(&s, "c_DtT", ops_t[2], np2));
    DG_CALL(dg_kernel_spec_array(&s, "c_LIFTT", ops_t[3], op->NP * 4 * op->NFP));
    s.arrays_float = v->precision == DG_PREC_FLOAT;
  }
  DG_CALL(dg_codegen_render(&s, src));
  return DG_OK;
}

static dg_status render_source(dg_cl_maxwell *op, const double *ops_t[4], char **src) {
  const source_params p = {op->N, op->NP, op->NFP, op->NPP, op->FLUXP, op->pw,
                           op->phys->n_sources > 0, op->phys->pml_K > 0};
  DG_CALL(render(&op->v, &p, ops_t, src));
  return DG_OK;
}

dg_status dg_cl_maxwell_source(const dg_variant *v, int N, int sources, int pml, char **src) {
  dg_status st = DG_OK;
  dg_refel *r = NULL;
  double *ops_t[4] = {NULL, NULL, NULL, NULL};
  *src = NULL;
  DG_CALL(dg_refel_create(&r, N));
  const int Np = r->Np, L = 4 * r->Nfp;
  for (int i = 0; i < 3; ++i) DG_CALL_GOTO(done, DG_ALLOC(ops_t[i], (size_t)Np * Np));
  DG_CALL_GOTO(done, DG_ALLOC(ops_t[3], (size_t)Np * L));
  transpose(r->Dr, Np, Np, ops_t[0]);
  transpose(r->Ds, Np, Np, ops_t[1]);
  transpose(r->Dt, Np, Np, ops_t[2]);
  transpose(r->LIFT, Np, L, ops_t[3]);
  const source_params p = {N, Np, r->Nfp, dg_variant_npp(N), dg_variant_fluxp(N), NULL,
                           sources != 0, pml != 0};
  DG_CALL_GOTO(done, render(v, &p, (const double **)ops_t, src));
done:
  for (int i = 0; i < 4; ++i) dg_free(&ops_t[i]);
  dg_refel_destroy(&r);
  return st;
}

static dg_status make_kernel(dg_cl_maxwell *op, const char *op_name, char *name, cl_kernel *k) {
  char suffix[16];
  dg_variant_kernel_suffix(&op->v, suffix, sizeof suffix);
  snprintf(name, 32, "%.12s_%s", op_name, suffix);
  DG_CALL(dg_kernel_create(op->prog, name, k));
  return DG_OK;
}

static dg_status build_program(dg_cl_maxwell *op, const double *ops_t[4], const char *dump_dir) {
  dg_status st = DG_OK;
  char *src = NULL;
  char label[64], suffix[32];
  dg_variant_kernel_suffix(&op->v, suffix, sizeof suffix);
  snprintf(label, sizeof label, "maxwell_N%d_%s_%s", op->N, suffix,
           dg_precision_name(op->v.precision));
  DG_CALL(render_source(op, ops_t, &src));
  DG_CALL_GOTO(done, dg_program_build_cached(op->dev->binaries, op->dev, src, NULL, label,
                                             dump_dir, &op->prog));
  const dg_variant *v = &op->v;
  const int fused = v->path == DG_PATH_KERNELS && v->fuse != DG_FUSE_NONE;
  if (fused) {
    const int res = v->fuse == DG_FUSE_RES;
    DG_CALL_GOTO(done, make_kernel(op, res ? "rhsres" : "rhs", op->name_fuse, &op->k_fuse));
    if (res) DG_CALL_GOTO(done, make_kernel(op, "qupdate", op->name_qupdate, &op->k_qupdate));
  } else if (v->path == DG_PATH_CLBLAST) {
    DG_CALL_GOTO(done, make_kernel(op, "curl", op->name_curl, &op->k_curl));
  } else {
    DG_CALL_GOTO(done, make_kernel(op, "volume", op->name_volume, &op->k_volume));
  }
  if (!fused && (v->path == DG_PATH_CLBLAST || v->lift != DG_LIFT_FUSED))
    DG_CALL_GOTO(done, make_kernel(op, "flux", op->name_flux, &op->k_flux));
  if (!fused && v->path == DG_PATH_KERNELS) {
    const char *lift_name = v->lift == DG_LIFT_FUSED          ? "fluxlift"
                            : v->lift == DG_LIFT_FUSED_UPDATE ? "liftupdate"
                                                              : "lift";
    DG_CALL_GOTO(done, make_kernel(op, lift_name, op->name_lift, &op->k_lift));
  }
  DG_CALL_GOTO(done, make_kernel(op, "update", op->name_update, &op->k_update));
  DG_CALL_GOTO(done, make_kernel(op, "energy", op->name_energy, &op->k_energy));
  if (op->phys->n_sources)
    DG_CALL_GOTO(done, make_kernel(op, "source", op->name_source, &op->k_source));
  if (op->phys->pml_K) {
    DG_CALL_GOTO(done, make_kernel(op, "pml", op->name_pml, &op->k_pml));
    if (v->path == DG_PATH_KERNELS &&
        (v->lift == DG_LIFT_FUSED_UPDATE || v->fuse == DG_FUSE_RES))
      DG_CALL_GOTO(done, make_kernel(op, "pmlsave", op->name_pmlsave, &op->k_pmlsave));
  }
done:
  dg_free(&src);
  return st;
}

/* Arguments that do not change between stages (the RK coefficients and the stage time are
 * set per stage). Arguments a kernel's role does not use are NULL or 0. */
static dg_status set_static_args(dg_cl_maxwell *op) {
  const int fs = (int)op->fs, ffs = (int)op->ffs;
  const cl_mem none = NULL;
  const cl_mem xyz = op->pw ? op->d_xyz : NULL; /* the incident wave's node coordinates */
  if (op->k_volume) {
    cl_kernel k = op->k_volume;
    DG_CALL(DG_KERNEL_ARG(k, VOL_ARG_Q, op->d_q));
    DG_CALL(DG_KERNEL_ARG(k, VOL_ARG_RHS, op->d_rhs));
    DG_CALL(DG_KERNEL_ARG(k, VOL_ARG_EGEO, op->d_egeo));
    DG_CALL(DG_KERNEL_ARG(k, VOL_ARG_DRT, op->d_DrT));
    DG_CALL(DG_KERNEL_ARG(k, VOL_ARG_DST, op->d_DsT));
    DG_CALL(DG_KERNEL_ARG(k, VOL_ARG_DTT, op->d_DtT));
    DG_CALL(DG_KERNEL_ARG(k, VOL_ARG_FS, fs));
  }
  if (op->k_curl) {
    DG_CALL(DG_KERNEL_ARG(op->k_curl, CURL_ARG_D, op->d_D));
    DG_CALL(DG_KERNEL_ARG(op->k_curl, CURL_ARG_Q, op->d_q));
    DG_CALL(DG_KERNEL_ARG(op->k_curl, CURL_ARG_EGEO, op->d_egeo));
    DG_CALL(DG_KERNEL_ARG(op->k_curl, CURL_ARG_RHS, op->d_rhs));
  }
  if (op->k_flux) {
    cl_kernel k = op->k_flux;
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_Q, op->d_q));
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_FS, fs));
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_VMAPM, op->d_vmapM));
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_VMAPP, op->d_vmapP));
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_FDATA, op->d_fdata));
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_FLUX, op->d_flux));
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_XYZ, xyz));
    DG_CALL(set_real_arg(op, k, FLUX_ARG_T, 0.0));
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_FFS, ffs));
  }
  if (op->k_lift) {
    cl_kernel k = op->k_lift;
    const int fused = op->v.lift == DG_LIFT_FUSED, update = op->v.lift == DG_LIFT_FUSED_UPDATE;
    const cl_mem flux = fused ? none : op->d_flux, q = fused || update ? op->d_q : none;
    const cl_mem res = update ? op->d_res : none, vM = fused ? op->d_vmapM : none;
    const cl_mem vP = fused ? op->d_vmapP : none, fd = fused ? op->d_fdata : none;
    const cl_mem lxyz = fused ? xyz : none;
    DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_FLUX, flux));
    DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_FFS, ffs));
    DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_RHS, op->d_rhs));
    DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_LIFTT, op->d_LIFTT));
    DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_FS, fs));
    DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_Q, q));
    DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_RES, res));
    for (int i = LIFT_ARG_A; i <= LIFT_ARG_B; ++i) DG_CALL(set_real_arg(op, k, (cl_uint)i, 0.0));
    DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_VMAPM, vM));
    DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_VMAPP, vP));
    DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_FDATA, fd));
    DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_XYZ, lxyz));
    DG_CALL(set_real_arg(op, k, LIFT_ARG_T, 0.0));
  }
  if (op->k_fuse) {
    cl_kernel k = op->k_fuse;
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_Q, op->d_q));
    const cl_mem out = op->v.fuse == DG_FUSE_RES ? op->d_res : op->d_rhs;
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
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_XYZ, xyz));
    DG_CALL(set_real_arg(op, k, FUSE_ARG_T, 0.0));
    DG_CALL(set_real_arg(op, k, FUSE_ARG_A, 0.0));
    DG_CALL(set_real_arg(op, k, FUSE_ARG_DT, 1.0));
  }
  if (op->k_qupdate) {
    DG_CALL(DG_KERNEL_ARG(op->k_qupdate, QUPD_ARG_Q, op->d_q));
    DG_CALL(DG_KERNEL_ARG(op->k_qupdate, QUPD_ARG_RES, op->d_res));
    DG_CALL(set_real_arg(op, op->k_qupdate, QUPD_ARG_B, 0.0));
  }
  DG_CALL(DG_KERNEL_ARG(op->k_update, UPD_ARG_Q, op->d_q));
  DG_CALL(DG_KERNEL_ARG(op->k_update, UPD_ARG_RES, op->d_res));
  DG_CALL(DG_KERNEL_ARG(op->k_update, UPD_ARG_RHS, op->d_rhs));
  {
    cl_kernel k = op->k_energy;
    /* grouped: slots are not in element order, so every slot is summed (padding is 0) */
    const int k_owned = op->slot ? op->Kpad : op->phys->geom->mesh->K_owned;
    DG_CALL(DG_KERNEL_ARG(k, EN_ARG_Q, op->d_q));
    DG_CALL(DG_KERNEL_ARG(k, EN_ARG_FS, fs));
    DG_CALL(DG_KERNEL_ARG(k, EN_ARG_M, op->d_M));
    DG_CALL(DG_KERNEL_ARG(k, EN_ARG_EW, op->d_ew));
    DG_CALL(DG_KERNEL_ARG(k, EN_ARG_OUT, op->d_eout));
    DG_CALL(DG_KERNEL_ARG(k, EN_ARG_KOWNED, k_owned));
    if (op->VL > 1) { /* energy_block.cl */
      const int n_blocks = (int)(op->n_eout / (size_t)op->VL);
      DG_CALL(DG_KERNEL_ARG(k, EN_ARG_NBLK, n_blocks));
    }
  }
  if (op->k_pml) { /* the targets, c and the RK coefficients are set per launch */
    cl_kernel k = op->k_pml;
    const cl_mem saved = op->k_pmlsave ? op->d_psaved : none;
    DG_CALL(DG_KERNEL_ARG(k, PML_ARG_SAVED, saved));
    DG_CALL(DG_KERNEL_ARG(k, PML_ARG_W, op->d_pw));
    DG_CALL(DG_KERNEL_ARG(k, PML_ARG_WRES, op->d_pwres));
    DG_CALL(DG_KERNEL_ARG(k, PML_ARG_COEF, op->d_pcoef));
    DG_CALL(DG_KERNEL_ARG(k, PML_ARG_NODE, op->d_pnode));
    DG_CALL(DG_KERNEL_ARG(k, PML_ARG_FS, fs));
    DG_CALL(DG_KERNEL_ARG(k, PML_ARG_NPN, op->npn));
    DG_CALL(DG_KERNEL_ARG(k, PML_ARG_JEND, op->npn));
  }
  if (op->k_pmlsave) {
    cl_kernel k = op->k_pmlsave;
    DG_CALL(DG_KERNEL_ARG(k, PMLSAVE_ARG_RES, op->d_res));
    DG_CALL(DG_KERNEL_ARG(k, PMLSAVE_ARG_SAVED, op->d_psaved));
    DG_CALL(DG_KERNEL_ARG(k, PMLSAVE_ARG_NODE, op->d_pnode));
    DG_CALL(DG_KERNEL_ARG(k, PMLSAVE_ARG_FS, fs));
    DG_CALL(DG_KERNEL_ARG(k, PMLSAVE_ARG_NPN, op->npn));
    DG_CALL(DG_KERNEL_ARG(k, PMLSAVE_ARG_JEND, op->npn));
  }
  if (op->k_source) { /* the targets and the batch are set per launch */
    DG_CALL(DG_KERNEL_ARG(op->k_source, SRC_ARG_FS, fs));
    DG_CALL(DG_KERNEL_ARG(op->k_source, SRC_ARG_PROF, op->d_sprof));
    DG_CALL(DG_KERNEL_ARG(op->k_source, SRC_ARG_NODE, op->d_snode));
  }
  return DG_OK;
}

dg_status dg_cl_maxwell_create(dg_cl_maxwell **out, dg_device *dev, const dg_maxwell *phys,
                               const dg_variant *v, const char *dump_dir) {
  DG_CALL(dg_cl_maxwell_create_grouped(out, dev, phys, v, dump_dir, NULL, 0));
  return DG_OK;
}

dg_status dg_cl_maxwell_create_grouped(dg_cl_maxwell **out, dg_device *dev,
                                       const dg_maxwell *phys, const dg_variant *v,
                                       const char *dump_dir, const int *group, int n_groups) {
  dg_status st = DG_OK;
  dg_cl_maxwell *op = NULL;
  double *ops_t[4] = {NULL, NULL, NULL, NULL};
  double *dall = NULL, *zeros = NULL;
  const dg_geom *g = phys->geom;
  const dg_refel *r = g->ref;
  char why[128], spec[DG_VARIANT_SPEC_MAX];
  DG_CHECK(dg_variant_check(v, &dev->info, g->N, why, sizeof why), DG_ERR_INPUT,
           "variant '%s' cannot run on '%s' at N=%d: %s",
           dg_variant_print(v, spec, sizeof spec), dev->info.name, g->N, why);
  /* The kernels evaluate the incident field themselves, so it must be a known one. */
  DG_CHECK(!phys->incident || phys->incident == dg_plane_wave_eval, DG_ERR_UNSUPPORTED,
           "OpenCL operator: the incident field must be a plane wave (dg_plane_wave_eval)");
  const dg_plane_wave *pw = phys->incident ? phys->incident_ctx : NULL;
  DG_CHECK(!pw || pw->scattered == phys->scattered, DG_ERR_INPUT,
           "OpenCL operator: the plane wave says scattered=%d but the problem says %d (set "
           "both with dg_maxwell_set_plane_wave)", pw ? pw->scattered : 0, phys->scattered);
  DG_CALL(DG_ALLOC(op, 1));
  op->dev = dev;
  op->phys = phys;
  op->pw = pw;
  op->v = *v;
  if (dump_dir) snprintf(op->dump_dir, sizeof op->dump_dir, "%s", dump_dir);
  op->N = g->N;
  op->K = g->K;
  op->NP = r->Np;
  op->NFP = r->Nfp;
  op->NPP = dg_variant_npp(g->N);
  op->FLUXP = dg_variant_fluxp(g->N);
  op->VL = dg_variant_layout_width(v);
  op->rs = v->precision == DG_PREC_DOUBLE ? 8 : 4;
  /* Whole work-groups for the volume and lift kernels, and 16 | Kpad so the 1D kernels'
   * global sizes (Kpad*FLUXP/VW, 6*Kpad*NPP) are multiples of WG1 = 64. */
  int m = 16;
  if (v->path == DG_PATH_KERNELS) {
    if (16 * op->VL > m) m = 16 * op->VL; /* the flux kernel runs Kpad*FLUXP/VW items */
    if (op->VL * v->kb > m) m = op->VL * v->kb;
    if (op->VL * v->lkb > m) m = op->VL * v->lkb;
  }
  op->Kpad = (op->K + m - 1) / m * m;
  if (group) {
    DG_CHECK_GOTO(fail, n_groups >= 1 && n_groups <= DG_CL_MAX_GROUPS, DG_ERR_INPUT,
                  "OpenCL operator: %d element groups, must be 1..%d", n_groups, DG_CL_MAX_GROUPS);
    int count[DG_CL_MAX_GROUPS] = {0};
    for (int k = 0; k < op->K; ++k) {
      DG_CHECK_GOTO(fail, group[k] >= 0 && group[k] < n_groups, DG_ERR_INPUT,
                    "OpenCL operator: element %d in group %d, not in 0..%d", k, group[k],
                    n_groups - 1);
      ++count[group[k]];
    }
    op->n_groups = n_groups;
    for (int i = 0; i < n_groups; ++i)
    {
      /* A group starts at a whole work-group of the volume and lift kernels; the flux
       * kernel's launch over a group is rounded up to whole work-groups (it then computes
       * some fluxes of the next group, which are scratch), so the layout ends with m spare
       * slots, and Kpad stays a multiple of m for the whole-mesh launches. */
      int a = op->VL;
      if (v->path == DG_PATH_KERNELS) {
        if (op->VL * v->kb > a) a = op->VL * v->kb;
        if (op->VL * v->lkb > a) a = op->VL * v->lkb;
      }
      for (int i = 0; i < n_groups; ++i)
        op->gfirst[i + 1] = op->gfirst[i] + (count[i] + a - 1) / a * a;
    }
    op->Kpad = (op->gfirst[n_groups] + m - 1) / m * m + m;
    DG_CALL_GOTO(fail, DG_ALLOC(op->slot, op->K + 1));
    DG_CALL_GOTO(fail, DG_ALLOC(op->group_of, op->K + 1));
    for (int k = 0; k < op->K; ++k) op->group_of[k] = group[k];
    int next[DG_CL_MAX_GROUPS];
    for (int i = 0; i < n_groups; ++i) next[i] = op->gfirst[i];
    for (int k = 0; k < op->K; ++k) op->slot[k] = next[group[k]]++;
  }
  op->nblk = op->Kpad / op->VL;
  op->fs = (size_t)op->Kpad * op->NPP;
  op->ffs = (size_t)op->Kpad * op->FLUXP;
  DG_CHECK_GOTO(fail, 6 * op->fs < (size_t)1 << 31 && 6 * op->ffs < (size_t)1 << 31,
                DG_ERR_UNSUPPORTED, "OpenCL operator: mesh too large for 32-bit indices");

  const int Np = op->NP, L = 4 * op->NFP;
  for (int i = 0; i < 3; ++i) DG_CALL_GOTO(fail, DG_ALLOC(ops_t[i], (size_t)Np * Np));
  DG_CALL_GOTO(fail, DG_ALLOC(ops_t[3], (size_t)Np * L));
  transpose(r->Dr, Np, Np, ops_t[0]);
  transpose(r->Ds, Np, Np, ops_t[1]);
  transpose(r->Dt, Np, Np, ops_t[2]);
  transpose(r->LIFT, Np, L, ops_t[3]);
  DG_CALL_GOTO(fail, build_program(op, (const double **)ops_t, dump_dir));

  const size_t fbytes = 6 * op->fs * op->rs;
  DG_CALL_GOTO(fail, dg_calloc(&zeros, 6 * op->fs, op->rs));
  DG_CALL_GOTO(fail, dg_calloc(&op->stage, 6 * op->fs, op->rs));
  DG_CALL_GOTO(fail, dg_buffer_create(dev, CL_MEM_READ_WRITE, fbytes, zeros, &op->d_q));
  DG_CALL_GOTO(fail, dg_buffer_create(dev, CL_MEM_READ_WRITE, fbytes, zeros, &op->d_res));
  DG_CALL_GOTO(fail, dg_buffer_create(dev, CL_MEM_READ_WRITE, fbytes, zeros, &op->d_rhs));
  DG_CALL_GOTO(fail, dg_buffer_create(dev, CL_MEM_READ_WRITE, 6 * op->ffs * op->rs, NULL,
                                      &op->d_flux));
  DG_CALL_GOTO(fail, build_element_data(op, &op->d_egeo));
  DG_CALL_GOTO(fail, build_face_data(op, &op->d_fdata, &op->d_vmapM, &op->d_vmapP));
  if (op->pw) DG_CALL_GOTO(fail, build_coordinates(op, &op->d_xyz));
  if (phys->n_sources) DG_CALL_GOTO(fail, build_source_data(op, &op->d_sprof, &op->d_snode));
  DG_CALL_GOTO(fail, build_energy_data(op));
  if (phys->pml_K) DG_CALL_GOTO(fail, build_pml_data(op));
  DG_CALL_GOTO(fail, upload_reals(op, ops_t[0], (size_t)Np * Np, &op->d_DrT));
  DG_CALL_GOTO(fail, upload_reals(op, ops_t[1], (size_t)Np * Np, &op->d_DsT));
  DG_CALL_GOTO(fail, upload_reals(op, ops_t[2], (size_t)Np * Np, &op->d_DtT));
  DG_CALL_GOTO(fail, upload_reals(op, ops_t[3], (size_t)Np * L, &op->d_LIFTT));
  if (v->path == DG_PATH_CLBLAST) {
    /* [Dr; Ds; Dt], each block padded to NPP rows with zeros, row-major 3NPP x Np. */
    DG_CALL_GOTO(fail, DG_ALLOC(dall, (size_t)3 * op->NPP * Np));
    const double *D3[3] = {r->Dr, r->Ds, r->Dt};
    for (int d = 0; d < 3; ++d)
      memcpy(dall + (size_t)d * op->NPP * Np, D3[d], sizeof(double) * Np * Np);
    DG_CALL_GOTO(fail, upload_reals(op, dall, (size_t)3 * op->NPP * Np, &op->d_Dall));
    DG_CALL_GOTO(fail, upload_reals(op, r->LIFT, (size_t)Np * L, &op->d_LIFTrm));
    DG_CALL_GOTO(fail, dg_buffer_create(dev, CL_MEM_READ_WRITE, 3 * fbytes, NULL, &op->d_D));
  }
  DG_CALL_GOTO(fail, set_static_args(op));
  *out = op;
  goto done;
fail:
  dg_cl_maxwell_destroy(&op);
done:
  for (int i = 0; i < 4; ++i) dg_free(&ops_t[i]);
  dg_free(&dall);
  dg_free(&zeros);
  return st;
}

void dg_cl_maxwell_destroy(dg_cl_maxwell **pop) {
  dg_cl_maxwell *op = *pop;
  if (!op) return;
  if (op->dev && op->dev->queue) clFinish(op->dev->queue);
  cl_kernel *ks[] = {&op->k_volume, &op->k_flux, &op->k_lift,   &op->k_update, &op->k_curl,
                     &op->k_source, &op->k_pml,  &op->k_pmlsave, &op->k_energy,
                     &op->k_fuse,   &op->k_qupdate};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i) dg_kernel_release(ks[i]);
  dg_program_release(&op->prog);
  cl_mem *bs[] = {&op->d_q,    &op->d_res,   &op->d_rhs,  &op->d_flux,  &op->d_egeo,
                  &op->d_fdata, &op->d_vmapM, &op->d_vmapP, &op->d_DrT, &op->d_DsT,
                  &op->d_DtT,  &op->d_LIFTT, &op->d_Dall, &op->d_D,     &op->d_LIFTrm,
                  &op->d_xyz,  &op->d_sprof, &op->d_snode, &op->d_pw,   &op->d_pwres,
                  &op->d_pcoef, &op->d_pnode, &op->d_psaved, &op->d_M, &op->d_ew, &op->d_eout};
  for (size_t i = 0; i < sizeof bs / sizeof bs[0]; ++i) dg_buffer_release(bs[i]);
  dg_kernel_release(&op->k_pack);
  dg_kernel_release(&op->k_unpack);
  dg_program_release(&op->halo_prog);
  cl_mem *hb[] = {&op->d_send, &op->d_recv, &op->d_sslot, &op->d_rslot};
  for (size_t i = 0; i < sizeof hb / sizeof hb[0]; ++i) dg_buffer_release(hb[i]);
  free(op->stage);
  dg_free(&op->slot);
  dg_free(&op->group_of);
  dg_free(&op->pml_pos);
  dg_free(pop);
}

/* ---- state ------------------------------------------------------------------------------ */

/* The PML's auxiliary fields from host w (reference layout of dg/pml.h; NULL: zero), and
 * their RK residual zeroed. */
static dg_status put_aux(dg_cl_maxwell *op, const double *w) {
  if (!op->npn) return DG_OK;
  const size_t n = DG_PML_AUX * (size_t)op->npn;
  dg_status st = DG_OK;
  void *buf = NULL;
  DG_CALL(dg_calloc(&buf, n, op->rs));
  DG_CALL_GOTO(done, dg_buffer_write(op->dev, op->d_pwres, 0, n * op->rs, buf));
  if (w)
    for (size_t i = 0; i < n; ++i) put_real(op, buf, aux_index(op, i), w[i]);
  DG_CALL_GOTO(done, dg_buffer_write(op->dev, op->d_pw, 0, n * op->rs, buf));
done:
  free(buf);
  return st;
}

dg_status dg_cl_maxwell_set_aux(dg_cl_maxwell *op, const double *w) {
  DG_CALL(put_aux(op, w));
  return DG_OK;
}

dg_status dg_cl_maxwell_get_aux(dg_cl_maxwell *op, double *w) {
  if (!op->npn) return DG_OK;
  const size_t n = DG_PML_AUX * (size_t)op->npn;
  dg_status st = DG_OK;
  void *buf = NULL;
  DG_CALL(dg_calloc(&buf, n, op->rs));
  st = dg_buffer_read(op->dev, op->d_pw, 0, n * op->rs, buf);
  if (st == DG_OK)
    for (size_t i = 0; i < n; ++i) w[i] = get_real(op, buf, i);
  free(buf);
  DG_CALL(st);
  return DG_OK;
}

dg_status dg_cl_maxwell_set_state(dg_cl_maxwell *op, const double *q) {
  const size_t KNp = (size_t)op->K * op->NP, n6 = 6 * op->fs;
  memset(op->stage, 0, n6 * op->rs);
  for (int f = 0; f < 6; ++f)
    for (int k = 0; k < op->K; ++k)
      for (int n = 0; n < op->NP; ++n)
        put_real(op, op->stage, f * op->fs + dev_index(op, k, n),
                 q[f * KNp + (size_t)k * op->NP + n]);
  DG_CALL(dg_buffer_write(op->dev, op->d_q, 0, n6 * op->rs, op->stage));
  memset(op->stage, 0, n6 * op->rs);
  DG_CALL(dg_buffer_write(op->dev, op->d_res, 0, n6 * op->rs, op->stage));
  DG_CALL(put_aux(op, NULL)); /* the PML starts at rest */
  return DG_OK;
}

static dg_status download(dg_cl_maxwell *op, cl_mem buf, double *q) {
  const size_t KNp = (size_t)op->K * op->NP;
  DG_CALL(dg_buffer_read(op->dev, buf, 0, 6 * op->fs * op->rs, op->stage));
  for (int f = 0; f < 6; ++f)
    for (int k = 0; k < op->K; ++k)
      for (int n = 0; n < op->NP; ++n)
        q[f * KNp + (size_t)k * op->NP + n] =
            get_real(op, op->stage, f * op->fs + dev_index(op, k, n));
  return DG_OK;
}

dg_status dg_cl_maxwell_get_state(dg_cl_maxwell *op, double *q) {
  DG_CALL(download(op, op->d_q, q));
  return DG_OK;
}

dg_status dg_cl_maxwell_finish(dg_cl_maxwell *op) {
  DG_CL(clFinish(op->dev->queue));
  return DG_OK;
}

const dg_variant *dg_cl_maxwell_variant(const dg_cl_maxwell *op) { return &op->v; }
int dg_cl_maxwell_kpad(const dg_cl_maxwell *op) { return op->Kpad; }

cl_mem dg_cl_maxwell_state_buffer(const dg_cl_maxwell *op, size_t *fs, size_t *real_size) {
  *fs = op->fs;
  *real_size = op->rs;
  return op->d_q;
}
dg_device *dg_cl_maxwell_device(const dg_cl_maxwell *op) { return op->dev; }
size_t dg_cl_maxwell_node_index(const dg_cl_maxwell *op, int k, int n) { return dev_index(op, k, n); }

/* ---- running a stage ---------------------------------------------------------------------- */

static dg_status run(dg_cl_maxwell *op, cl_kernel k, const char *name, cl_uint dims,
                     const size_t *global, const size_t *local, dg_cl_stage_timing *t) {
  cl_ulong ns = 0;
  DG_CALL(dg_kernel_run(op->dev, k, dims, global, local, t ? &ns : NULL));
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
      const int k = slot_of(op, p->sources[first + s].elem);
      const double g = k >= s0 && k < s1 ? dg_pulse_eval(&p->sources[first + s].pulse, t) : 0;
      ga[s] = sa * g;
      gb[s] = sb * g;
    }
    DG_CALL(DG_KERNEL_ARG(k, SRC_ARG_FIRST, first));
    DG_CALL(DG_KERNEL_ARG(k, SRC_ARG_COUNT, count));
    DG_CALL(set_real16_arg(op, k, SRC_ARG_GA, ga));
    DG_CALL(set_real16_arg(op, k, SRC_ARG_GB, gb));
    DG_CALL(run(op, k, op->name_source, 1, &g1, &l1, tm));
  }
  return DG_OK;
}

/* ---- MPI halo ------------------------------------------------------------------------- */

dg_status dg_cl_maxwell_set_halo(dg_cl_maxwell *op, const dg_trace_exchange *h) {
  const size_t n = h->n;
  const int *send_slot = h->send_slot, *recv_slot = h->recv_slot;
  dg_status st = DG_OK;
  int *ds = NULL, *dr = NULL;
  char *src = NULL;
  op->halo_n = 0;
  if (n == 0) return DG_OK;
  DG_CHECK(n < (size_t)1 << 31, DG_ERR_UNSUPPORTED, "halo too large for 32-bit indices");
  /* Reference-layout slots f*K*Np + k*Np + node -> device indices. */
  DG_CALL(DG_ALLOC(ds, n));
  DG_CALL_GOTO(done, DG_ALLOC(dr, n));
  const size_t KNp = (size_t)op->K * op->NP;
  for (size_t i = 0; i < n; ++i) {
    const int *slot[2] = {send_slot, recv_slot};
    int *out[2] = {ds, dr};
    for (int w = 0; w < 2; ++w) {
      const size_t x = (size_t)slot[w][i], f = x / KNp, r = x % KNp;
      DG_CHECK_GOTO(done, f < 6, DG_ERR_INTERNAL, "halo slot %zu out of range", x);
      out[w][i] = (int)(f * op->fs + dev_index(op, (int)(r / op->NP), (int)(r % op->NP)));
    }
  }
  dg_kernel_spec s;
  memset(&s, 0, sizeof s);
  DG_CALL_GOTO(done, dg_kernel_spec_define(&s, "DG_DOUBLE", "%d", op->rs == 8));
  DG_CALL_GOTO(done, dg_kernel_spec_file(&s, "common.cl"));
  DG_CALL_GOTO(done, dg_kernel_spec_file(&s, "halo.cl"));
  DG_CALL_GOTO(done, dg_codegen_render(&s, &src));
  DG_CALL_GOTO(done, dg_program_build_cached(op->dev->binaries, op->dev, src, NULL,
                                             op->rs == 8 ? "halo_double" : "halo_float",
                                             op->dump_dir[0] ? op->dump_dir : NULL, &op->halo_prog));
  DG_CALL_GOTO(done, dg_kernel_create(op->halo_prog, "halo_pack", &op->k_pack));
  DG_CALL_GOTO(done, dg_kernel_create(op->halo_prog, "halo_unpack", &op->k_unpack));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, n * sizeof(int), ds, &op->d_sslot));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, n * sizeof(int), dr, &op->d_rslot));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, n * op->rs, NULL, &op->d_send));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, n * op->rs, NULL, &op->d_recv));
  const int ni = (int)n;
  DG_CALL_GOTO(done, DG_KERNEL_ARG(op->k_pack, HALO_ARG_Q, op->d_q));
  DG_CALL_GOTO(done, DG_KERNEL_ARG(op->k_pack, HALO_ARG_SLOT, op->d_sslot));
  DG_CALL_GOTO(done, DG_KERNEL_ARG(op->k_pack, HALO_ARG_BUF, op->d_send));
  DG_CALL_GOTO(done, DG_KERNEL_ARG(op->k_pack, HALO_ARG_N, ni));
  DG_CALL_GOTO(done, DG_KERNEL_ARG(op->k_unpack, HALO_ARG_Q, op->d_q));
  DG_CALL_GOTO(done, DG_KERNEL_ARG(op->k_unpack, HALO_ARG_SLOT, op->d_rslot));
  DG_CALL_GOTO(done, DG_KERNEL_ARG(op->k_unpack, HALO_ARG_BUF, op->d_recv));
  DG_CALL_GOTO(done, DG_KERNEL_ARG(op->k_unpack, HALO_ARG_N, ni));
  op->halo = *h;
  op->halo_n = n;
done:
  dg_free(&ds);
  dg_free(&dr);
  dg_free(&src);
  return st;
}

/* Pack the outgoing traces, bring them to the host and start the exchange. */
static dg_status halo_begin(dg_cl_maxwell *op) {
  if (!op->halo_n) return DG_OK;
  const size_t g = (op->halo_n + WG1 - 1) / WG1 * WG1, l = WG1;
  DG_CALL(dg_kernel_run(op->dev, op->k_pack, 1, &g, &l, NULL));
  DG_CALL(dg_buffer_read(op->dev, op->d_send, 0, op->halo_n * op->rs, op->halo.send));
  DG_CALL(op->halo.begin(op->halo.ctx));
  return DG_OK;
}

/* With the volume kernel queued: let it run while the neighbours' traces travel, then wait
 * for them and scatter them into the ghosts. The host waits for the kernel first (sleeping
 * in clFinish) rather than spinning in MPI_Waitall beside it: on a CPU device the spinning
 * thread would take a core from the kernel; small messages arrive meanwhile anyway (eager
 * protocol), so the wait that follows is short. */
static dg_status halo_end(dg_cl_maxwell *op) {
  if (!op->halo_n) return DG_OK;
  DG_CL(clFinish(op->dev->queue));
  DG_CALL(op->halo.end(op->halo.ctx));
  const size_t g = (op->halo_n + WG1 - 1) / WG1 * WG1, l = WG1;
  DG_CALL(dg_buffer_write(op->dev, op->d_recv, 0, op->halo_n * op->rs, op->halo.recv));
  DG_CALL(dg_kernel_run(op->dev, op->k_unpack, 1, &g, &l, NULL));
  return DG_OK;
}

/* One RK stage at time ts: rhs from q, then (if update) res = a res + dt rhs, q += b res.
 * Without update the result is in rhs, except for lift=fused-update and fuse=res, which then
 * run with (a, dt, b) = (0, 1, 0) and leave the result in res. Point sources come last, as a
 * correction of whichever buffer holds the result. */
static dg_status run_stage_range(dg_cl_maxwell *op, double ts, double a, double dt, double b,
                                 int update, int s0, int s1, cl_mem out, cl_mem wout,
                                 dg_cl_stage_timing *t);

static dg_status run_stage(dg_cl_maxwell *op, double ts, double a, double dt, double b,
                           int update, dg_cl_stage_timing *t) {
  DG_CALL(run_stage_range(op, ts, a, dt, b, update, 0, op->Kpad, NULL, NULL, t));
  return DG_OK;
}

/* A launch over part of the global range (the multirate levels): the kernels index by
 * get_global_id, so the offset selects the blocks. */
static dg_status run_at(dg_cl_maxwell *op, cl_kernel k, const char *name, cl_uint dims,
                        const size_t *offset, const size_t *global, const size_t *local,
                        dg_cl_stage_timing *t) {
  cl_ulong ns = 0;
  DG_CALL(dg_kernel_run_at(op->dev, k, dims, offset, global, local, t ? &ns : NULL));
  if (t && t->n < DG_CL_MAX_STAGE_KERNELS) {
    snprintf(t->name[t->n], sizeof t->name[t->n], "%s", name);
    t->ns[t->n++] = ns;
  }
  if (t) t->total_ns += ns;
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

/* One RK stage over the element slots [s0, s1) (whole groups, or 0..Kpad: all of them).
 * The volume, flux and lift kernels, the PML and the point sources act on the range only;
 * the rest (CLBlast path, update) on everything, which leaves the range's result as it would
 * be. out (update = 0, kernels path only): the right-hand side goes into out rather than
 * rhs/res, and with a PML dw/dt into wout; nothing outside the range is written there. */
static dg_status run_stage_range(dg_cl_maxwell *op, double ts, double a, double dt, double b,
                                 int update, int s0, int s1, cl_mem out, cl_mem wout,
                                 dg_cl_stage_timing *t) {
  const dg_variant *v = &op->v;
  const int part = s0 != 0 || s1 != op->Kpad;
  const size_t b0 = (size_t)s0 / (size_t)op->VL, nb = (size_t)(s1 - s0) / (size_t)op->VL;
  const size_t g2[2] = {(size_t)op->NP, nb};
  const size_t lwi = (size_t)dg_variant_lift_items(v, op->N); /* NP unless lnpw > 1 */
  const size_t lv[2] = {(size_t)op->NP, (size_t)v->kb}, ll[2] = {lwi, (size_t)v->lkb};
  const size_t g2l[2] = {lwi, nb}, o2[2] = {0, b0};
  const int vw = v->path == DG_PATH_KERNELS && v->work == DG_WORK_VEC ? v->vw : 1;
  /* flux=face: one work-item per face of a block (flux.cl) */
  const int fface = v->path == DG_PATH_KERNELS && v->flux == DG_FLUX_FACE;
  const size_t gflux0 = fface ? 4 * nb : nb * op->VL * op->FLUXP / (size_t)vw;
  const size_t gflux = (gflux0 + WG1 - 1) / WG1 * WG1; /* see dg_cl_maxwell_create_grouped */
  const size_t oflux = fface ? 4 * b0 : b0 * op->VL * op->FLUXP / (size_t)vw;
  const size_t *o2p = part ? o2 : NULL, *ofp = part ? &oflux : NULL;
  if (s1 <= s0) { /* nothing to evaluate here, but the neighbour ranks exchange with this one */
    DG_CALL(halo_begin(op));
    DG_CALL(halo_end(op));
    return DG_OK;
  }
  DG_CHECK(!out || (!update && v->path == DG_PATH_KERNELS && (wout || !op->k_pml)),
           DG_ERR_INTERNAL, "stage result buffer: the right-hand side alone, kernels path");
  const int fuse_res = v->path == DG_PATH_KERNELS && v->fuse == DG_FUSE_RES;
  /* fused_update: the stage's result goes to res = a res + dt rhs (and q is updated) */
  const int fused_update =
      (v->path == DG_PATH_KERNELS && v->lift == DG_LIFT_FUSED_UPDATE) || fuse_res;
  const cl_mem R = out ? out : fused_update ? op->d_res : op->d_rhs;
  if (out) DG_CALL(set_result(op, out, wout));
  /* update.cl: two reals per work-item (6 fs / 2 is a multiple of WG1: 16 | Kpad, 4 | NPP) */
  const size_t gupd = 6 * op->fs / 2, gcurl = op->fs, l1 = WG1;
  /* the PML nodes of the range: a group's when the range is one group (grouped op) */
  int j0 = 0, j1 = op->npn;
  if (part && op->pml_pos) { /* groups [g0, g1) with gfirst[g0] = s0, gfirst[g1] = s1 */
    int g0 = -1, g1 = -1;
    for (int g = 0; g <= op->n_groups; ++g) {
      if (g0 < 0 && op->gfirst[g] == s0) g0 = g;
      if (op->gfirst[g] == s1) g1 = g;
    }
    DG_CHECK(g0 >= 0 && g1 >= g0, DG_ERR_INTERNAL, "stage range %d..%d is not whole groups", s0, s1);
    j0 = op->pfirst[g0] * op->NP, j1 = op->pfirst[g1] * op->NP;
  }
  const size_t gpml = ((size_t)(j1 - j0) + WG1 - 1) / WG1 * WG1, opml = (size_t)j0;
  const size_t *opp = j0 ? &opml : NULL;
  if (op->k_pml) DG_CALL(DG_KERNEL_ARG(op->k_pml, PML_ARG_JEND, j1));
  if (op->k_pmlsave) DG_CALL(DG_KERNEL_ARG(op->k_pmlsave, PMLSAVE_ARG_JEND, j1));
  if (t) memset(t, 0, sizeof *t);
  DG_CALL(halo_begin(op));
  if (op->k_fuse) {
    /* One kernel for the whole rhs: it reads the neighbours' traces at once, so the halo
     * has arrived before it starts (no overlap). Then, for fuse=res, the q update. Over a
     * range (a multirate level) the launch starts at the range's first block (global
     * offset) and covers exactly its blocks: the grouped layout starts and pads every group
     * to whole work-groups of kb blocks (dg_cl_maxwell_create_grouped), so no work-item
     * falls past the range, where other levels' results (their history) must stay as they
     * are. Checked, rather than guarded in the kernel, to keep element.cl (and the tuning
     * results keyed by the templates' hash) as it is. */
    DG_CALL(halo_end(op));
    /* work=node: NP x kb work-items per group (element_node.cl); else kb blocks */
    const size_t lf = (size_t)v->kb, gf = nb, of = b0;
    DG_CHECK(b0 % lf == 0 && nb % lf == 0, DG_ERR_INTERNAL,
             "fused right-hand side over blocks %zu..%zu: not whole work-groups of %zu",
             b0, b0 + nb, lf);
    const int node = v->work == DG_WORK_NODE;
    const size_t np = (size_t)op->NP, gf2[2] = {np, gf}, lf2[2] = {np, lf}, of2[2] = {0, of};
    cl_kernel k = op->k_fuse;
    if (op->pw) DG_CALL(set_real_arg(op, k, FUSE_ARG_T, ts));
    if (fuse_res) {
      DG_CALL(set_real_arg(op, k, FUSE_ARG_A, update ? a : 0.0));
      DG_CALL(set_real_arg(op, k, FUSE_ARG_DT, update ? dt : 1.0));
      if (op->k_pmlsave && j1 > j0)
        DG_CALL(run_at(op, op->k_pmlsave, op->name_pmlsave, 1, opp, &gpml, &l1, t));
    }
    if (node)
      DG_CALL(run_at(op, k, op->name_fuse, 2, part ? of2 : NULL, gf2, lf2, t));
    else
      DG_CALL(run_at(op, k, op->name_fuse, 1, part ? &of : NULL, &gf, &lf, t));
    if (fuse_res && update) {
      DG_CALL(set_real_arg(op, op->k_qupdate, QUPD_ARG_B, b));
      DG_CALL(run(op, op->k_qupdate, op->name_qupdate, 1, &gupd, &l1, t));
    }
  } else if (v->path == DG_PATH_CLBLAST) { /* whole-mesh launches whatever the range */
    const size_t gfull = op->ffs;
    DG_CALL(gemm(op, 3 * (size_t)op->NPP, 6 * (size_t)op->Kpad, (size_t)op->NP, op->d_Dall,
                 (size_t)op->NP, op->d_q, (size_t)op->NPP, 0.0, op->d_D, 3 * (size_t)op->NPP,
                 "gemm_volume", t));
    DG_CALL(run(op, op->k_curl, op->name_curl, 1, &gcurl, &l1, t));
    DG_CALL(halo_end(op));
    if (op->pw) DG_CALL(set_real_arg(op, op->k_flux, FLUX_ARG_T, ts));
    DG_CALL(run(op, op->k_flux, op->name_flux, 1, &gfull, &l1, t));
    DG_CALL(gemm(op, (size_t)op->NP, 6 * (size_t)op->Kpad, 4 * (size_t)op->NFP, op->d_LIFTrm,
                 4 * (size_t)op->NFP, op->d_flux, (size_t)op->FLUXP, 1.0, op->d_rhs,
                 (size_t)op->NPP, "gemm_lift", t));
  } else {
    DG_CALL(run_at(op, op->k_volume, op->name_volume, 2, o2p, g2, lv, t));
    DG_CALL(halo_end(op));
    if (op->pw) { /* the incident wave is evaluated where the fluxes are */
      if (v->lift == DG_LIFT_FUSED) DG_CALL(set_real_arg(op, op->k_lift, LIFT_ARG_T, ts));
      else DG_CALL(set_real_arg(op, op->k_flux, FLUX_ARG_T, ts));
    }
    if (v->lift != DG_LIFT_FUSED)
      DG_CALL(run_at(op, op->k_flux, op->name_flux, 1, ofp, &gflux, &l1, t));
    if (v->lift == DG_LIFT_FUSED_UPDATE) {
      DG_CALL(set_real_arg(op, op->k_lift, LIFT_ARG_A, update ? a : 0.0));
      DG_CALL(set_real_arg(op, op->k_lift, LIFT_ARG_DT, update ? dt : 1.0));
      DG_CALL(set_real_arg(op, op->k_lift, LIFT_ARG_B, update ? b : 0.0));
    }
    if (op->k_pmlsave && j1 > j0)
      DG_CALL(run_at(op, op->k_pmlsave, op->name_pmlsave, 1, opp, &gpml, &l1, t));
    DG_CALL(run_at(op, op->k_lift, op->name_lift, 2, o2p, g2l, ll, t));
  }
  if (update && !fused_update) {
    DG_CALL(set_real_arg(op, op->k_update, UPD_ARG_A, a));
    DG_CALL(set_real_arg(op, op->k_update, UPD_ARG_DT, dt));
    DG_CALL(set_real_arg(op, op->k_update, UPD_ARG_B, b));
    DG_CALL(run(op, op->k_update, op->name_update, 1, &gupd, &l1, t));
  }
  if (op->k_pml) { /* corrects the stage on the PML nodes, before the point sources */
    cl_kernel k = op->k_pml;
    const cl_mem out_a = update ? op->d_res : R;
    DG_CALL(DG_KERNEL_ARG(k, PML_ARG_OUT_A, out_a));
    DG_CALL(DG_KERNEL_ARG(k, PML_ARG_OUT_B, op->d_q));
    const cl_mem cbuf = update ? (fused_update ? op->d_res : op->d_rhs) : R;
    DG_CALL(DG_KERNEL_ARG(k, PML_ARG_C, cbuf));
    DG_CALL(set_real_arg(op, k, PML_ARG_A, update ? a : 0.0));
    DG_CALL(set_real_arg(op, k, PML_ARG_DT, update ? dt : 1.0));
    DG_CALL(set_real_arg(op, k, PML_ARG_B, update ? b : 0.0));
    DG_CALL(set_real_arg(op, k, PML_ARG_SA, update ? dt : 1.0));
    DG_CALL(set_real_arg(op, k, PML_ARG_SB, update ? b * dt : 0.0));
    if (j1 > j0) DG_CALL(run_at(op, k, op->name_pml, 1, opp, &gpml, &l1, t));
  }
  if (op->k_source) {
    if (update) /* res = a res + dt (rhs - s), q += b res */
      DG_CALL(apply_sources(op, ts, op->d_res, dt, op->d_q, b * dt, s0, s1, t));
    else        /* the result holds rhs; q is left as it is (times 0) */
      DG_CALL(apply_sources(op, ts, R, 1.0, op->d_q, 0.0, s0, s1, t));
  }
  if (out) DG_CALL(set_result(op, fused_update ? op->d_res : op->d_rhs, op->d_pwres));
  return DG_OK;
}

dg_status dg_cl_maxwell_rhs(dg_cl_maxwell *op, double t, const double *q, double *rhs) {
  DG_CALL(dg_cl_maxwell_rhs_aux(op, t, q, NULL, rhs, NULL));
  return DG_OK;
}

dg_status dg_cl_maxwell_rhs_aux(dg_cl_maxwell *op, double t, const double *q, const double *w,
                                double *rhs, double *rhs_w) {
  DG_CALL(dg_cl_maxwell_set_state(op, q));
  DG_CALL(put_aux(op, w));
  DG_CALL(run_stage(op, t, 0, 1, 0, 0, NULL));
  const int in_res = op->v.path == DG_PATH_KERNELS &&
                     (op->v.lift == DG_LIFT_FUSED_UPDATE || op->v.fuse == DG_FUSE_RES);
  DG_CALL(download(op, in_res ? op->d_res : op->d_rhs, rhs));
  if (rhs_w && op->npn) { /* the stage ran with (a, dt, b) = (0, 1, 0): wres = dw/dt */
    const size_t n = DG_PML_AUX * (size_t)op->npn;
    dg_status st = DG_OK;
    void *buf = NULL;
    DG_CALL(dg_calloc(&buf, n, op->rs));
    st = dg_buffer_read(op->dev, op->d_pwres, 0, n * op->rs, buf);
    if (st == DG_OK)
      for (size_t i = 0; i < n; ++i) rhs_w[i] = get_real(op, buf, aux_index(op, i));
    free(buf);
    DG_CALL(st);
  }
  return DG_OK;
}

dg_status dg_cl_maxwell_step(dg_cl_maxwell *op, double t, double dt) {
  for (int s = 0; s < DG_LSERK_STAGES; ++s)
    DG_CALL(run_stage(op, t + dg_lserk_c[s] * dt, dg_lserk_a[s], dt, dg_lserk_b[s], 1, NULL));
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
  const int in_res = op->v.path == DG_PATH_KERNELS &&
                     (op->v.lift == DG_LIFT_FUSED_UPDATE || op->v.fuse == DG_FUSE_RES);
  *result = in_res ? op->d_res : op->d_rhs;
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
  const int in_res = op->v.path == DG_PATH_KERNELS &&
                     (op->v.lift == DG_LIFT_FUSED_UPDATE || op->v.fuse == DG_FUSE_RES);
  *result = in_res ? op->d_res : op->d_rhs;
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
  return DG_OK;
}

dg_status dg_cl_maxwell_energy(dg_cl_maxwell *op, double *energy) {
  /* energy.cl: one work-item per element; energy_block.cl: one per block of VL */
  const size_t l1 = WG1, n = (op->n_eout / (size_t)op->VL + WG1 - 1) / WG1 * WG1;
  DG_CALL(dg_kernel_run(op->dev, op->k_energy, 1, &n, &l1, NULL));
  const int k_owned = op->phys->geom->mesh->K_owned;
  DG_CALL(dg_buffer_read(op->dev, op->d_eout, 0, op->n_eout * op->rs, op->stage));
  double e = 0; /* summed in double, in element order, whatever the operator's precision */
  for (int k = 0; k < k_owned; ++k) e += get_real(op, op->stage, (size_t)slot_of(op, k));
  *energy = e;
  return DG_OK;
}

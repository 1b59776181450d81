/* cl_maxwell_program.c: the OpenCL operator's program: which templates, the #define lines
 * of a variant (the names of cl_templates/contract.h), rendering and building it, its
 * kernels, and the arguments that do not change between stages. */
#include <stdio.h>
#include <string.h>

#include "backend/cl_maxwell_impl.h"
#include "codegen/codegen.h"
#include "core/alloc.h"
#include "device/binary_cache.h"
#include "device/program.h"

/* The names the kernels know the host's choices by, and the kernel names that depend on a
 * choice, from the tables of contract.h. */
static const char *const place_names[] = {DG_PLACE_CHOICES(DG_CHOICE_CLNAME)};
static const char *const lift_names[] = {DG_LIFT_CHOICES(DG_CHOICE_CLNAME)};
static const char *const lift_kernels[] = {DG_LIFT_CHOICES(DG_CHOICE_KERNEL)};
static const char *const flux_names[] = {DG_FLUX_CHOICES(DG_CHOICE_CLNAME)};
static const char *const fuse_names[] = {DG_FUSE_CHOICES(DG_CHOICE_CLNAME)};
static const char *const fuse_kernels[] = {DG_FUSE_CHOICES(DG_CHOICE_KERNEL)};
static const char *const inc_names[] = {DG_INC_CHOICES(DG_CHOICE_CLNAME)};
_Static_assert(sizeof inc_names / sizeof inc_names[0] == DG_PULSE_MODULATED_GAUSSIAN + 1,
               "contract.h DG_INC_CHOICES: one name per dg_pulse_shape");

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
  DG_CALL(dg_kernel_spec_define(s, "DG_INC_SHAPE", "%s", inc_names[g->shape]));
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

int dg_cl_maxwell_template_files(const dg_variant *v, int sources, int pml, int disp, int curved,
                                 int for_hash, const char *names[DG_CL_MAX_TEMPLATE_FILES]) {
  const int blas = v->path == DG_PATH_CLBLAST;
  int n = 0;
  names[n++] = "common.cl";
  names[n++] = "operator.cl";
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
  if (disp) names[n++] = "dispersive.cl";
  if (curved) { /* its names apart from contract.h (contract_curved.h says why) */
    names[n++] = "contract_curved.h";
    names[n++] = "curved.cl";
  }
  return n;
}

dg_status dg_cl_maxwell_templates_hash(const dg_variant *v, uint64_t *hash) {
  const char *files[DG_CL_MAX_TEMPLATE_FILES];
  const int n = dg_cl_maxwell_template_files(v, 0, 0, 0, 0, 1, files);
  DG_CALL(dg_codegen_files_hash(NULL, files, n, hash));
  return DG_OK;
}

/* What a program's source depends on beyond the variant. */
typedef struct {
  int N, NP, NFP, NPP, FLUXP;
  const dg_plane_wave *pw; /* NULL: no incident wave */
  int sources, pml, disp;  /* the source, PML and dispersive templates */
  int curved, nq, nfq, cwg; /* curved.cl: its rules' points, its work-group */
} source_params;

static dg_status render(const dg_variant *v, const source_params *op, const double *ops_t[4],
                        char **src) {
  dg_kernel_spec s;
  memset(&s, 0, sizeof s);
  char suffix[32];
  dg_variant_kernel_suffix(v, suffix, sizeof suffix);
  const int blas = v->path == DG_PATH_CLBLAST;
  DG_CALL(dg_kernel_spec_define(&s, "DG_DOUBLE", "%d", v->precision == DG_PREC_DOUBLE));
  DG_CALL(dg_kernel_spec_define(&s, "NP", "%d", op->NP));
  DG_CALL(dg_kernel_spec_define(&s, "NFP", "%d", op->NFP));
  DG_CALL(dg_kernel_spec_define(&s, "NPP", "%d", op->NPP));
  DG_CALL(dg_kernel_spec_define(&s, "FLUXP", "%d", op->FLUXP));
  DG_CALL(dg_kernel_spec_define(&s, "VW", "%d", v->work == DG_WORK_VEC ? v->vw : 1));
  DG_CALL(dg_kernel_spec_define(&s, "EPW", "%d", v->work == DG_WORK_ELEM ? v->vw : 1));
  if (!blas) DG_CALL(dg_kernel_spec_define(&s, "KB", "%d", v->kb)); /* volume.cl */
  DG_CALL(dg_kernel_spec_define(&s, "LKB", "%d", v->lkb));
  DG_CALL(dg_kernel_spec_define(&s, "VPLACE", "%s", place_names[v->vplace]));
  DG_CALL(dg_kernel_spec_define(&s, "LPLACE", "%s", place_names[v->lplace]));
  DG_CALL(dg_kernel_spec_define(&s, "UNROLL", "%d", v->unroll));
  DG_CALL(dg_kernel_spec_define(&s, "LIFT_MODE", "%s", blas ? "LIFT_FLUX_ONLY" : lift_names[v->lift]));
  DG_CALL(dg_kernel_spec_define(&s, "LIFT_KERNEL", "%s", lift_kernels[v->lift]));
  DG_CALL(dg_kernel_spec_define(&s, "FLUX_MODE", "%s", flux_names[blas ? DG_FLUX_POINT : v->flux]));
  DG_CALL(dg_kernel_spec_define(&s, "LNPW", "%d", v->lnpw > 1 ? v->lnpw : 1));
  const dg_fuse fuse = blas ? DG_FUSE_NONE : v->fuse;
  DG_CALL(dg_kernel_spec_define(&s, "FUSE_MODE", "%s", fuse_names[fuse]));
  DG_CALL(dg_kernel_spec_define(&s, "FUSE_KERNEL", "%s", fuse_kernels[fuse]));
  DG_CALL(dg_kernel_spec_define(&s, "LWI", "%d", dg_variant_lift_items(v, op->N)));
  DG_CALL(dg_kernel_spec_define(&s, "DG_LITERAL_OPS", "%d", v->literal));
  DG_CALL(dg_kernel_spec_define(&s, "VARIANT", "%s", suffix));
  DG_CALL(dg_kernel_spec_define(&s, "DG_TEST_FLIP", "%d", v->test == DG_VTEST_FLIP));
  DG_CALL(dg_kernel_spec_define(&s, "DG_TEST_SYNTAX", "%d", v->test == DG_VTEST_SYNTAX));
  if (op->pw)
    DG_CALL(define_incident(&s, op->pw, v->precision == DG_PREC_FLOAT));
  else
    DG_CALL(dg_kernel_spec_define(&s, "DG_INCIDENT", "0"));
  if (op->curved) { /* curved.cl */
    DG_CALL(dg_kernel_spec_define(&s, "NQ", "%d", op->nq));
    DG_CALL(dg_kernel_spec_define(&s, "NFQ", "%d", op->nfq));
    DG_CALL(dg_kernel_spec_define(&s, "CWG", "%d", op->cwg));
  }
  const char *files[DG_CL_MAX_TEMPLATE_FILES];
  const int nf =
      dg_cl_maxwell_template_files(v, op->sources, op->pml, op->disp, op->curved, 0, files);
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

/* The curved elements' rules at order N on a map of geometric order k: the points of the
 * volume rule and of the face rule (dg_geom_curved_degrees), as dg_geom_curved has them
 * (geom_curved.c); the work-items per element of curved.cl's kernel. */
static dg_status curved_sizes(int N, int k, int NP, int *nq, int *nfq, int *cwg) {
  double *r = NULL, *s = NULL, *t = NULL, *w = NULL;
  int dv, df, dm;
  dg_geom_curved_degrees(N, k, &dv, &df, &dm);
  dg_status st = dg_cubature_tet(dv, nq, &r, &s, &t, &w);
  DG_FREE_ALL(&r, &s, &t, &w);
  DG_CALL(st);
  st = dg_cubature_tri(df, nfq, &r, &s, &w);
  DG_FREE_ALL(&r, &s, &w);
  DG_CALL(st);
  *cwg = NP < 20 ? 32 : 64;
  return DG_OK;
}

/* Local memory of one curved_* work-group (curved.cl: sq, sjump, scurl, sflux, sacc). */
static size_t curved_local_bytes(int NP, int NFP, int nq, int nfq, size_t rs) {
  return rs * (size_t)(12 * NP + 24 * NFP + 6 * nq + 24 * nfq);
}

/* `dgtd kernels` leaves the curved kernels out where they need more local memory than this
 * (NVIDIA's 48 KiB of static shared memory, the smallest of the GPUs gpu_isa.py compiles
 * for): a run on such a device refuses curved elements there (render_source). */
#define DG_CURVED_PORTABLE_LOCAL 49152

static dg_status render_source(dg_cl_maxwell *op, const double *ops_t[4], char **src) {
  if (op->nc > 0) {
    const size_t need = curved_local_bytes(op->NP, op->NFP, op->nq, op->nfq, op->rs);
    DG_CHECK(need <= op->dev->info.local_mem_size, DG_ERR_UNSUPPORTED,
             "curved elements at order %d in %s need %zu bytes of local memory per element "
             "(curved.cl), and '%s' has %llu: use a lower order, float, a mesh of lower "
             "geometric order, or straight-sided elements",
             op->N, op->rs == 8 ? "double" : "float", need, op->dev->info.name,
             (unsigned long long)op->dev->info.local_mem_size);
  }
  const source_params p = {op->N, op->NP, op->NFP, op->NPP, op->FLUXP, op->pw,
                           op->phys->n_sources > 0, op->phys->pml_K > 0, op->phys->disp_K > 0,
                           op->nc > 0, op->nq, op->nfq, op->cwg};
  DG_CALL(render(&op->v, &p, ops_t, src));
  return DG_OK;
}

dg_status dg_cl_maxwell_source(const dg_variant *v, int N, int sources, int pml, int disp,
                               int curved, const dg_plane_wave *pw, char **src) {
  dg_status st = DG_OK;
  dg_refel *r = NULL;
  double *ops_t[4] = {NULL, NULL, NULL, NULL};
  *src = NULL;
  DG_CALL(dg_refel_create(&r, N));
  DG_CALL_GOTO(done, dg_clm_transposed_ops(r, ops_t));
  source_params p = {N, r->Np, r->Nfp, dg_variant_npp(N), dg_variant_fluxp(N), pw,
                     sources != 0, pml != 0, disp != 0, curved != 0, 0, 0, 0};
  /* the rules of a second-order mesh's curved elements (a higher geometric order has more
   * points: dg_clm_build_program takes the mesh's) */
  if (curved) DG_CALL_GOTO(done, curved_sizes(N, 2, r->Np, &p.nq, &p.nfq, &p.cwg));
  if (curved && curved_local_bytes(r->Np, r->Nfp, p.nq, p.nfq,
                                   v->precision == DG_PREC_DOUBLE ? 8 : 4) >
                    DG_CURVED_PORTABLE_LOCAL)
    p.curved = 0;
  DG_CALL_GOTO(done, render(v, &p, (const double **)ops_t, src));
done:
  dg_clm_free_ops(ops_t);
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

dg_status dg_clm_build_program(dg_cl_maxwell *op, const double *ops_t[4], const char *dump_dir) {
  dg_status st = DG_OK;
  char *src = NULL;
  char label[64], suffix[32];
  dg_variant_kernel_suffix(&op->v, suffix, sizeof suffix);
  snprintf(label, sizeof label, "maxwell_N%d_%s_%s", op->N, suffix,
           dg_precision_name(op->v.precision));
  if (op->nc)
    DG_CALL(curved_sizes(op->N, op->phys->geom->cv.order, op->NP, &op->nq, &op->nfq, &op->cwg));
  DG_CALL(render_source(op, ops_t, &src));
  DG_CALL_GOTO(done, dg_program_build_cached(op->dev->binaries, op->dev, src, NULL, label,
                                             dump_dir, &op->prog));
  const dg_variant *v = &op->v;
  const int fused = v->path == DG_PATH_KERNELS && v->fuse != DG_FUSE_NONE;
  if (fused) {
    DG_CALL_GOTO(done, make_kernel(op, fuse_kernels[v->fuse], op->name_fuse, &op->k_fuse));
    if (v->fuse == DG_FUSE_RES)
      DG_CALL_GOTO(done, make_kernel(op, "qupdate", op->name_qupdate, &op->k_qupdate));
    if (v->fuse == DG_FUSE_STEP)
      DG_CALL_GOTO(done, make_kernel(op, "qcopy", op->name_qcopy, &op->k_qcopy));
  } else if (v->path == DG_PATH_CLBLAST) {
    DG_CALL_GOTO(done, make_kernel(op, "curl", op->name_curl, &op->k_curl));
  } else {
    DG_CALL_GOTO(done, make_kernel(op, "volume", op->name_volume, &op->k_volume));
  }
  if (!fused && (v->path == DG_PATH_CLBLAST || v->lift != DG_LIFT_FUSED))
    DG_CALL_GOTO(done, make_kernel(op, "flux", op->name_flux, &op->k_flux));
  if (!fused && v->path == DG_PATH_KERNELS)
    DG_CALL_GOTO(done, make_kernel(op, lift_kernels[v->lift], op->name_lift, &op->k_lift));
  DG_CALL_GOTO(done, make_kernel(op, "update", op->name_update, &op->k_update));
  DG_CALL_GOTO(done, make_kernel(op, "energy", op->name_energy, &op->k_energy));
  if (op->phys->n_sources)
    DG_CALL_GOTO(done, make_kernel(op, "source", op->name_source, &op->k_source));
  if (op->phys->pml_K) {
    DG_CALL_GOTO(done, make_kernel(op, "pml", op->name_pml, &op->k_pml));
    if (dg_clm_result_in_res(op))
      DG_CALL_GOTO(done, make_kernel(op, "pmlsave", op->name_pmlsave, &op->k_pmlsave));
  }
  if (op->phys->disp_K) {
    DG_CALL_GOTO(done, make_kernel(op, "disp", op->name_disp, &op->k_disp));
    DG_CALL_GOTO(done, make_kernel(op, "dispsave", op->name_dispsave, &op->k_dispsave));
  }
  if (op->nc) {
    DG_CALL_GOTO(done, make_kernel(op, "curved", op->name_curved, &op->k_curved));
    DG_CALL_GOTO(done, make_kernel(op, "curvfix", op->name_curvfix, &op->k_curvfix));
    DG_CALL_GOTO(done, make_kernel(op, "curvenergy", op->name_curvenergy, &op->k_curvenergy));
  }
done:
  dg_free(&src);
  return st;
}

dg_status dg_clm_set_real_arg(const dg_cl_maxwell *op, cl_kernel k, cl_uint i, double x) {
  if (op->rs == 8) return DG_KERNEL_ARG(k, i, x);
  const float f = (float)x;
  return DG_KERNEL_ARG(k, i, f);
}

/* ---- arguments that do not change between stages ------------------------------------------
 * (the RK coefficients and the stage time are set per stage). Arguments a kernel's role does
 * not use are NULL or 0. */

static dg_status set_volume_args(dg_cl_maxwell *op) {
  const int fs = (int)op->fs;
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
  return DG_OK;
}

static dg_status set_surface_args(dg_cl_maxwell *op) {
  const int fs = (int)op->fs, ffs = (int)op->ffs;
  const cl_mem none = NULL;
  const cl_mem xyz = op->pw ? op->d_xyz : NULL; /* the incident wave's node coordinates */
  if (op->k_flux) {
    cl_kernel k = op->k_flux;
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_Q, op->d_q));
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_FS, fs));
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_VMAPM, op->d_vmapM));
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_VMAPP, op->d_vmapP));
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_FDATA, op->d_fdata));
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_FLUX, op->d_flux));
    DG_CALL(DG_KERNEL_ARG(k, FLUX_ARG_XYZ, xyz));
    DG_CALL(dg_clm_set_real_arg(op, k, FLUX_ARG_T, 0.0));
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
    for (int i = LIFT_ARG_A; i <= LIFT_ARG_B; ++i)
      DG_CALL(dg_clm_set_real_arg(op, k, (cl_uint)i, 0.0));
    DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_VMAPM, vM));
    DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_VMAPP, vP));
    DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_FDATA, fd));
    DG_CALL(DG_KERNEL_ARG(k, LIFT_ARG_XYZ, lxyz));
    DG_CALL(dg_clm_set_real_arg(op, k, LIFT_ARG_T, 0.0));
  }
  return DG_OK;
}

static dg_status set_fused_args(dg_cl_maxwell *op) {
  const int fs = (int)op->fs;
  const cl_mem xyz = op->pw ? op->d_xyz : NULL;
  if (op->k_fuse) {
    cl_kernel k = op->k_fuse;
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
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_XYZ, xyz));
    DG_CALL(dg_clm_set_real_arg(op, k, FUSE_ARG_T, 0.0));
    DG_CALL(dg_clm_set_real_arg(op, k, FUSE_ARG_A, 0.0));
    DG_CALL(dg_clm_set_real_arg(op, k, FUSE_ARG_DT, 1.0));
    DG_CALL(DG_KERNEL_ARG(k, FUSE_ARG_QOUT, op->d_q2)); /* NULL unless fuse=step */
    DG_CALL(dg_clm_set_real_arg(op, k, FUSE_ARG_B, 0.0));
  }
  if (op->k_qcopy) /* its source, q_live, is set where it runs (cl_maxwell_stage.c, q_home) */
    DG_CALL(DG_KERNEL_ARG(op->k_qcopy, QCOPY_ARG_DST, op->d_q));
  if (op->k_qupdate) {
    DG_CALL(DG_KERNEL_ARG(op->k_qupdate, QUPD_ARG_Q, op->d_q));
    DG_CALL(DG_KERNEL_ARG(op->k_qupdate, QUPD_ARG_RES, op->d_res));
    DG_CALL(dg_clm_set_real_arg(op, op->k_qupdate, QUPD_ARG_B, 0.0));
  }
  DG_CALL(DG_KERNEL_ARG(op->k_update, UPD_ARG_Q, op->d_q));
  DG_CALL(DG_KERNEL_ARG(op->k_update, UPD_ARG_RES, op->d_res));
  DG_CALL(DG_KERNEL_ARG(op->k_update, UPD_ARG_RHS, op->d_rhs));
  return DG_OK;
}

static dg_status set_energy_args(dg_cl_maxwell *op) {
  cl_kernel k = op->k_energy;
  const int fs = (int)op->fs;
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
  return DG_OK;
}

/* The PML and pole kernels (the targets, c, q and the RK coefficients are set per launch)
 * and the point sources (the targets and the batch are set per launch). */
static dg_status set_pml_source_args(dg_cl_maxwell *op) {
  const int fs = (int)op->fs;
  if (op->k_pml) {
    cl_kernel k = op->k_pml;
    const cl_mem saved = op->k_pmlsave ? op->d_psaved : NULL;
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
  if (op->k_disp) {
    cl_kernel k = op->k_disp;
    DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_SAVED, op->d_dsaved));
    DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_W, op->d_dw));
    DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_WRES, op->d_dwres));
    DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_DELEM, op->d_delem));
    DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_INV_EPS, op->d_dinv));
    DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_PTYPE, op->d_dtype));
    DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_PCOEF, op->d_dcoef));
    DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_NODE, op->d_dnode));
    DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_FS, fs));
    DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_NDN, op->ndn));
    k = op->k_dispsave;
    DG_CALL(DG_KERNEL_ARG(k, DSAVE_ARG_Q, op->d_q));
    DG_CALL(DG_KERNEL_ARG(k, DSAVE_ARG_SAVED, op->d_dsaved));
    DG_CALL(DG_KERNEL_ARG(k, DSAVE_ARG_NODE, op->d_dnode));
    DG_CALL(DG_KERNEL_ARG(k, DSAVE_ARG_FS, fs));
    DG_CALL(DG_KERNEL_ARG(k, DSAVE_ARG_NDN, op->ndn));
  }
  if (op->k_source) {
    DG_CALL(DG_KERNEL_ARG(op->k_source, SRC_ARG_FS, fs));
    DG_CALL(DG_KERNEL_ARG(op->k_source, SRC_ARG_PROF, op->d_sprof));
    DG_CALL(DG_KERNEL_ARG(op->k_source, SRC_ARG_NODE, op->d_snode));
  }
  return DG_OK;
}

/* The curved elements' kernels (the stage time, the result buffers and the RK coefficients
 * are set per stage). */
static dg_status set_curved_args(dg_cl_maxwell *op) {
  const int fs = (int)op->fs;
  const cl_mem xyz = op->pw ? op->d_xyz : NULL;
  cl_kernel k = op->k_curved;
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_Q, op->d_q));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_FS, fs));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_RES, op->d_res));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_VMAPM, op->d_vmapM));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_VMAPP, op->d_vmapP));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_XYZ, xyz));
  DG_CALL(dg_clm_set_real_arg(op, k, CURV_ARG_T, 0.0));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_EGEO, op->d_egeo));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CSLOT, op->d_cslot));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CFACE, op->d_cface));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CWQ, op->d_cwq));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CFQ, op->d_cfq));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CMINV, op->d_cminv));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CL, op->d_cL));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CLF, op->d_cLf));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CFPOS, op->d_cfpos));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CRHS, op->d_crhs));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CSAVE, op->d_csave));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_NCN, op->ncn));
  k = op->k_curvfix;
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_CRHS, op->d_crhs));
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_CSAVE, op->d_csave));
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_CSLOT, op->d_cslot));
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_OUT_R, op->d_rhs));
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_RES, op->d_res));
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_QOUT, op->d_q));
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_FS, fs));
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_NCN, op->ncn));
  const int zero = 0;
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_UPDATE, zero));
  for (int i = CFIX_ARG_A; i <= CFIX_ARG_B; ++i)
    DG_CALL(dg_clm_set_real_arg(op, k, (cl_uint)i, 0.0));
  k = op->k_curvenergy;
  DG_CALL(DG_KERNEL_ARG(k, CEN_ARG_Q, op->d_q));
  DG_CALL(DG_KERNEL_ARG(k, CEN_ARG_FS, fs));
  DG_CALL(DG_KERNEL_ARG(k, CEN_ARG_CSLOT, op->d_cslot));
  DG_CALL(DG_KERNEL_ARG(k, CEN_ARG_CM, op->d_cM));
  DG_CALL(DG_KERNEL_ARG(k, CEN_ARG_CEW, op->d_cew));
  DG_CALL(DG_KERNEL_ARG(k, CEN_ARG_OUT, op->d_eout));
  DG_CALL(DG_KERNEL_ARG(k, CEN_ARG_NOWNED, op->nc_owned));
  return DG_OK;
}

dg_status dg_clm_set_static_args(dg_cl_maxwell *op) {
  DG_CALL(set_volume_args(op));
  DG_CALL(set_surface_args(op));
  DG_CALL(set_fused_args(op));
  DG_CALL(set_energy_args(op));
  DG_CALL(set_pml_source_args(op));
  if (op->nc) DG_CALL(set_curved_args(op));
  return DG_OK;
}

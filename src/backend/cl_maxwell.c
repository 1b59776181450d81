/* cl_maxwell.c: the OpenCL operator's life (create, with its element layout and groups: the
 * operator, then its terms; destroy) and state (fields, and the terms' auxiliary state in
 * and out; accessors). The operator's own data and stage, each term, the program, a stage,
 * the helpers they share and the MPI halo have files of their own (cl_maxwell_impl.h). */
#include <stdio.h>
#include <string.h>

#include "backend/cl_maxwell_impl.h"
#include "core/alloc.h"
#include "dg/multirate.h"

dg_status dg_cl_maxwell_create(dg_cl_maxwell **out, dg_device *dev, const dg_maxwell *phys,
                               const dg_variant *v, const char *dump_dir) {
  DG_CALL(dg_cl_maxwell_create_grouped(out, dev, phys, v, dump_dir, NULL, 0));
  return DG_OK;
}

dg_status dg_cl_maxwell_check_curved(int n_curved, int grouped) {
  if (grouped) DG_CALL(dg_multirate_refuse_curved(n_curved));
  return DG_OK;
}

/* What a variant and a problem must satisfy for the operator to be made. */
static dg_status check_inputs(const dg_device *dev, const dg_maxwell *phys, const dg_variant *v) {
  const int N = phys->geom->N;
  char why[128], spec[DG_VARIANT_SPEC_MAX];
  DG_CHECK(dg_variant_check(v, &dev->info, N, why, sizeof why), DG_ERR_INPUT,
           "variant '%s' cannot run on '%s' at N=%d: %s",
           dg_variant_print(v, spec, sizeof spec), dev->info.name, N, why);
  /* The kernels evaluate the incident field themselves, so it must be a known one. */
  DG_CHECK(!phys->incident || phys->incident == dg_plane_wave_eval, DG_ERR_UNSUPPORTED,
           "OpenCL operator: the incident field must be a plane wave (dg_plane_wave_eval)");
  const dg_plane_wave *pw = phys->incident ? phys->incident_ctx : NULL;
  DG_CHECK(!pw || pw->scattered == phys->scattered, DG_ERR_INPUT,
           "OpenCL operator: the plane wave says scattered=%d but the problem says %d (set "
           "both with dg_maxwell_set_plane_wave)", pw ? pw->scattered : 0, phys->scattered);
  return DG_OK;
}

/* The element slots: Kpad, and with groups where each group starts. Whole work-groups for the
 * volume and lift kernels, and 16 | Kpad so the 1D kernels' global sizes (Kpad*FLUXP/VW,
 * 6*Kpad*NPP) are multiples of WG1. */
static dg_status plan_slots(dg_cl_maxwell *op, const int *group, int n_groups) {
  const dg_variant *v = &op->v;
  int m = 16, a = op->VL; /* m: granularity of Kpad; a: of a group's start */
  if (v->path == DG_PATH_KERNELS) {
    if (16 * op->VL > m) m = 16 * op->VL; /* the flux kernel runs Kpad*FLUXP/VW items */
    const int be = dg_variant_block_elems(v);
    if (be > m) m = be;
    if (op->VL * v->lkb > m) m = op->VL * v->lkb;
    if (be > a) a = be;
    if (op->VL * v->lkb > a) a = op->VL * v->lkb;
  }
  op->Kpad = (op->K + m - 1) / m * m;
  if (!group) return DG_OK;
  DG_CHECK(n_groups >= 1 && n_groups <= DG_CL_MAX_GROUPS, DG_ERR_INPUT,
           "OpenCL operator: %d element groups, must be 1..%d", n_groups, DG_CL_MAX_GROUPS);
  int count[DG_CL_MAX_GROUPS] = {0};
  for (int k = 0; k < op->K; ++k) {
    DG_CHECK(group[k] >= 0 && group[k] < n_groups, DG_ERR_INPUT,
             "OpenCL operator: element %d in group %d, not in 0..%d", k, group[k], n_groups - 1);
    ++count[group[k]];
  }
  /* A group starts at a whole work-group of the volume and lift kernels; the flux kernel's
   * launch over a group is rounded up to whole work-groups (it then computes some fluxes of
   * the next group, which are scratch), so the layout ends with m spare slots, and Kpad stays
   * a multiple of m for the whole-mesh launches. */
  op->n_groups = n_groups;
  for (int i = 0; i < n_groups; ++i) op->gfirst[i + 1] = op->gfirst[i] + (count[i] + a - 1) / a * a;
  op->Kpad = (op->gfirst[n_groups] + m - 1) / m * m + m;
  DG_CALL(DG_ALLOC(op->slot, op->K + 1));
  DG_CALL(DG_ALLOC(op->group_of, op->K + 1));
  for (int k = 0; k < op->K; ++k) op->group_of[k] = group[k];
  /* Within a group, the elements next to a lower group first, by the lowest group they touch
   * (ties, and ghosts, in element order): the multirate stepper's lists of coarse elements
   * next to a finer level (backend/cl_multirate.c) are then runs of adjacent slots, which a
   * layout interleaving VL elements node by node reads in whole lines. */
  const dg_mesh *mesh = op->phys->geom->mesh;
  int *key = NULL;
  DG_CALL(DG_ALLOC(key, op->K + 1));
  int next[DG_CL_MAX_GROUPS][DG_CL_MAX_GROUPS] = {{0}};
  for (int k = 0; k < op->K; ++k) {
    key[k] = group[k];
    if (k < mesh->K_owned)
      for (int f = 0; f < 4; ++f) {
        const int gj = group[mesh->EToE[4 * k + f]];
        if (gj < key[k]) key[k] = gj;
      }
    ++next[group[k]][key[k]];
  }
  for (int i = 0; i < n_groups; ++i)
    for (int j = 0, at = op->gfirst[i]; j <= i; ++j) {
      const int c = next[i][j];
      next[i][j] = at;
      at += c;
    }
  for (int k = 0; k < op->K; ++k) op->slot[k] = next[group[k]][key[k]]++;
  dg_free(&key);
  return DG_OK;
}

dg_status dg_cl_maxwell_create_grouped(dg_cl_maxwell **out, dg_device *dev,
                                       const dg_maxwell *phys, const dg_variant *v,
                                       const char *dump_dir, const int *group, int n_groups) {
  dg_status st = DG_OK;
  dg_cl_maxwell *op = NULL;
  double *ops_t[4] = {NULL, NULL, NULL, NULL};
  const dg_geom *g = phys->geom;
  DG_CALL(check_inputs(dev, phys, v));
  DG_CALL(dg_cl_maxwell_check_curved(g->n_curved, group != NULL));
  /* Element groups are the multirate stepper's, which does not step poles (dg/stepper.h). */
  DG_CHECK(!group || !phys->disp_K, DG_ERR_UNSUPPORTED,
           "OpenCL operator: element groups (multirate) with %d dispersive elements: the "
           "multirate schemes do not step the poles", phys->disp_K);
  DG_CALL(DG_ALLOC(op, 1));
  op->dev = dev;
  op->phys = phys;
  op->terms = (dg_cl_terms){.sources = phys->n_sources > 0, .pml = phys->pml_K > 0,
                            .poles = phys->disp_K > 0, .curved = g->n_curved > 0,
                            .pw = phys->incident ? phys->incident_ctx : NULL};
  op->v = *v;
  if (dump_dir) snprintf(op->dump_dir, sizeof op->dump_dir, "%s", dump_dir);
  op->N = g->N;
  op->K = g->K;
  op->NP = g->ref->Np;
  op->NFP = g->ref->Nfp;
  op->NPP = dg_variant_npp(g->N);
  op->FLUXP = dg_variant_fluxp(g->N);
  op->VL = dg_variant_layout_width(v);
  op->rs = v->precision == DG_PREC_DOUBLE ? 8 : 4;
  DG_CALL_GOTO(fail, plan_slots(op, group, n_groups));
  op->nblk = op->Kpad / op->VL;
  op->fs = (size_t)op->Kpad * op->NPP;
  op->ffs = (size_t)op->Kpad * op->FLUXP;
  DG_CHECK_GOTO(fail, 6 * op->fs < (size_t)1 << 31 && 6 * op->ffs < (size_t)1 << 31,
                DG_ERR_UNSUPPORTED, "OpenCL operator: mesh too large for 32-bit indices");
  DG_CALL_GOTO(fail, dg_clm_transposed_ops(g->ref, ops_t));
  DG_CALL_GOTO(fail, dg_clm_build_program(op, (const double **)ops_t, dump_dir));
  DG_CALL_GOTO(fail, dg_clm_maxwell_create(op));
  for (int i = 0; i < DG_CLM_TERMS; ++i)
    if (dg_clm_terms[i]->present(&op->terms)) DG_CALL_GOTO(fail, dg_clm_terms[i]->create(op));
  for (int i = 0; i < DG_CLM_TERMS; ++i)
    if (op->term[i] && dg_clm_terms[i]->bind) DG_CALL_GOTO(fail, dg_clm_terms[i]->bind(op));
  *out = op;
  goto done;
fail:
  dg_cl_maxwell_destroy(&op);
done:
  dg_clm_free_ops(ops_t);
  return st;
}

void dg_cl_maxwell_destroy(dg_cl_maxwell **pop) {
  dg_cl_maxwell *op = *pop;
  if (!op) return;
  if (op->dev && op->dev->queue) clFinish(op->dev->queue);
  for (int i = 0; i < DG_CLM_TERMS; ++i) dg_clm_terms[i]->destroy(op);
  dg_clm_maxwell_destroy(op);
  for (int id = 0; id < DG_CLK_COUNT; ++id) dg_kernel_release(&op->k[id]);
  dg_program_release(&op->prog);
  dg_kernel_release(&op->k_pack);
  dg_kernel_release(&op->k_unpack);
  dg_program_release(&op->halo_prog);
  cl_mem *hb[] = {&op->d_send, &op->d_recv, &op->d_sslot, &op->d_rslot};
  for (size_t i = 0; i < sizeof hb / sizeof hb[0]; ++i) dg_buffer_release(hb[i]);
  dg_free(&op->slot);
  dg_free(&op->group_of);
  dg_free(pop);
}

/* ---- state ------------------------------------------------------------------------------ */

dg_status dg_clm_put_aux(dg_cl_maxwell *op, const double *w) {
  size_t at = 0; /* each term's part follows the one before (dg/maxwell.h) */
  for (int i = 0; i < DG_CLM_TERMS; ++i) {
    const dg_clm_term *term = dg_clm_terms[i];
    if (!op->term[i] || !term->aux_size) continue;
    DG_CALL(term->put_aux(op, w ? w + at : NULL));
    at += term->aux_size(op);
  }
  return DG_OK;
}

dg_status dg_cl_maxwell_set_aux(dg_cl_maxwell *op, const double *w) {
  DG_CALL(dg_clm_put_aux(op, w));
  return DG_OK;
}

dg_status dg_clm_read_aux(dg_cl_maxwell *op, int residual, double *w) {
  size_t at = 0;
  for (int i = 0; i < DG_CLM_TERMS; ++i) {
    const dg_clm_term *term = dg_clm_terms[i];
    if (!op->term[i] || !term->aux_size) continue;
    DG_CALL(term->read_aux(op, residual, w + at));
    at += term->aux_size(op);
  }
  return DG_OK;
}

dg_status dg_cl_maxwell_get_aux(dg_cl_maxwell *op, double *w) {
  DG_CALL(dg_clm_read_aux(op, 0, w));
  return DG_OK;
}

dg_status dg_cl_maxwell_set_state(dg_cl_maxwell *op, const double *q) {
  const size_t KNp = (size_t)op->K * op->NP, n6 = 6 * op->fs;
  memset(op->stage, 0, n6 * op->rs);
  for (int f = 0; f < 6; ++f)
    for (int k = 0; k < op->K; ++k)
      for (int n = 0; n < op->NP; ++n)
        dg_clm_put(op, op->stage, f * op->fs + dg_clm_index(op, k, n),
                 q[f * KNp + (size_t)k * op->NP + n]);
  DG_CALL(dg_buffer_write(op->dev, op->d_q, 0, n6 * op->rs, op->stage));
  op->q_live = op->d_q;
  op->ping = 0;
  memset(op->stage, 0, n6 * op->rs);
  DG_CALL(dg_buffer_write(op->dev, op->d_res, 0, n6 * op->rs, op->stage));
  DG_CALL(dg_clm_put_aux(op, NULL)); /* the PML and the poles start at rest */
  return DG_OK;
}

dg_status dg_clm_download(dg_cl_maxwell *op, cl_mem buf, double *q) {
  const size_t KNp = (size_t)op->K * op->NP;
  DG_CALL(dg_buffer_read(op->dev, buf, 0, 6 * op->fs * op->rs, op->stage));
  for (int f = 0; f < 6; ++f)
    for (int k = 0; k < op->K; ++k)
      for (int n = 0; n < op->NP; ++n)
        q[f * KNp + (size_t)k * op->NP + n] =
            dg_clm_get(op, op->stage, f * op->fs + dg_clm_index(op, k, n));
  return DG_OK;
}

dg_status dg_cl_maxwell_get_state(dg_cl_maxwell *op, double *q) {
  DG_CALL(dg_clm_download(op, op->d_q, q));
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
size_t dg_cl_maxwell_node_index(const dg_cl_maxwell *op, int k, int n) { return dg_clm_index(op, k, n); }


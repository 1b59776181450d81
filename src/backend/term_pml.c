/* term_pml.c: the convolutional PML (phys->pml_K elements; reference: src/dg/pml.c) on the
 * OpenCL operator (cl_templates/pml.cl): over the PML elements only, the CFS filters correct
 * the stage's result and advance their auxiliary fields. Its data: the elements' matrices
 * (transposed), which of them each element has and its alphas (dg_maxwell.pml_mat,
 * pml_mat_of, pml_alpha), the field-layout index of each PML node, the auxiliary fields w,
 * their RK residual (DG_PML_AUX x npn) and pml's u3 for pmlend (6 x npn), and, for kernels
 * that rewrite res before the PML sees it (lift=fused-update, fuse=res|step), the PML nodes'
 * res saved by pmlsave. On a grouped operator (multirate levels) the PML elements are
 * ordered by group, so each group's nodes are a range. */
#include "backend/cl_maxwell_impl.h"
#include "core/alloc.h"
#include "dg/pml.h"

typedef struct {
  int npn; /* PML nodes: pml_K NP */
  cl_mem w, wres, pu3, mats, mat_of, alpha, node, saved;
  /* grouped: PML element e is at position pos[e] of the node list (NULL: e), group g's at
   * positions [pfirst[g], pfirst[g+1]) */
  int *pos;
  int pfirst[DG_CL_MAX_GROUPS + 1];
  int j0, j1; /* the PML nodes of the stage under way */
} pml;

static int present(const dg_cl_terms *t) { return t->pml; }

/* Device index of the host's auxiliary value i (dg/pml.h layout a*npn + e*NP + n). */
static size_t aux_index(const void *ctx, size_t i) {
  const dg_cl_maxwell *op = ctx;
  const pml *m = op->term[DG_CLM_PML];
  if (!m->pos) return i;
  const size_t npn = (size_t)m->npn, a = i / npn, r = i - a * npn, e = r / (size_t)op->NP;
  return a * npn + (size_t)m->pos[e] * op->NP + (r - e * op->NP);
}

static dg_status build_data(dg_cl_maxwell *op, pml *m) {
  const dg_maxwell *p = op->phys;
  const int Np = op->NP;
  const size_t K = (size_t)p->pml_K;
  dg_status st = DG_OK;
  int *node = NULL, *mat_of = NULL;
  double *alpha = NULL, *mt = NULL;
  m->npn = p->pml_K * Np;
  const size_t npn = (size_t)m->npn;
  DG_CALL_GOTO(done, DG_ALLOC(node, npn));
  DG_CALL_GOTO(done, DG_ALLOC(mat_of, DG_PML_MATS * K));
  DG_CALL_GOTO(done, DG_ALLOC(alpha, 3 * K));
  if (op->slot) { /* grouped: the PML elements by group */
    int next[DG_CL_MAX_GROUPS + 1] = {0};
    DG_CALL_GOTO(done, DG_ALLOC(m->pos, p->pml_K + 1));
    for (int e = 0; e < p->pml_K; ++e) ++next[op->group_of[p->pml_elem[e]] + 1];
    for (int g = 0; g < op->n_groups; ++g) next[g + 1] += next[g];
    for (int g = 0; g <= op->n_groups; ++g) m->pfirst[g] = next[g];
    for (int e = 0; e < p->pml_K; ++e) m->pos[e] = next[op->group_of[p->pml_elem[e]]]++;
  }
  for (size_t e = 0; e < K; ++e) { /* by position */
    const size_t at = m->pos ? (size_t)m->pos[e] : e;
    for (int n = 0; n < Np; ++n) node[at * Np + n] = (int)dg_clm_index(op, p->pml_elem[e], n);
    for (int i = 0; i < DG_PML_MATS; ++i)
      mat_of[DG_PML_MATS * at + i] = p->pml_mat_of[DG_PML_MATS * e + i];
    for (int d = 0; d < 3; ++d) alpha[3 * at + d] = p->pml_alpha[3 * e + d];
  }
  DG_CALL_GOTO(done, dg_clm_upload_ints(op, node, npn, &m->node));
  DG_CALL_GOTO(done, dg_clm_upload_ints(op, mat_of, DG_PML_MATS * K, &m->mat_of));
  DG_CALL_GOTO(done, dg_clm_upload(op, alpha, 3 * K, &m->alpha));
  /* the matrices transposed (entry (i, j) at j NP + i): node i's work-items read along i */
  const size_t NN = (size_t)Np * Np, nmat = (size_t)(p->n_pml_mat ? p->n_pml_mat : 1);
  DG_CALL_GOTO(done, DG_ALLOC(mt, nmat * NN));
  for (size_t k = 0; k < (size_t)p->n_pml_mat; ++k)
    for (int i = 0; i < Np; ++i)
      for (int j = 0; j < Np; ++j) mt[k * NN + (size_t)j * Np + i] = p->pml_mat[k * NN + (size_t)i * Np + j];
  DG_CALL_GOTO(done, dg_clm_upload(op, mt, nmat * NN, &m->mats));
  DG_CALL_GOTO(done, dg_clm_zeros(op, DG_PML_AUX * npn, &m->w));
  DG_CALL_GOTO(done, dg_clm_zeros(op, DG_PML_AUX * npn, &m->wres));
  DG_CALL_GOTO(done, dg_clm_zeros(op, 6 * npn, &m->saved));
  DG_CALL_GOTO(done, dg_clm_zeros(op, 6 * npn, &m->pu3));
done:
  DG_FREE_ALL(&node, &mat_of, &alpha, &mt);
  return st;
}

/* The kernels (the targets, c, q and the RK coefficients are set per stage). */
static dg_status make_kernels(dg_cl_maxwell *op, const pml *m) {
  const int fs = (int)op->fs;
  DG_CALL(dg_clm_make_kernel(op, DG_CLK_PML));
  DG_CALL(dg_clm_make_kernel(op, DG_CLK_PMLEND));
  if (dg_clm_result_in_res(op)) DG_CALL(dg_clm_make_kernel(op, DG_CLK_PMLSAVE));
  const cl_mem saved = op->k[DG_CLK_PMLSAVE] ? m->saved : NULL;
  cl_kernel k = op->k[DG_CLK_PML];
  DG_CALL(DG_KERNEL_ARG(k, PML_ARG_SAVED, saved));
  DG_CALL(DG_KERNEL_ARG(k, PML_ARG_W, m->w));
  DG_CALL(DG_KERNEL_ARG(k, PML_ARG_WRES, m->wres));
  DG_CALL(DG_KERNEL_ARG(k, PML_ARG_PU3, m->pu3));
  DG_CALL(DG_KERNEL_ARG(k, PML_ARG_MATS, m->mats));
  DG_CALL(DG_KERNEL_ARG(k, PML_ARG_MAT_OF, m->mat_of));
  DG_CALL(DG_KERNEL_ARG(k, PML_ARG_ALPHA, m->alpha));
  DG_CALL(DG_KERNEL_ARG(k, PML_ARG_NODE, m->node));
  DG_CALL(DG_KERNEL_ARG(k, PML_ARG_FS, fs));
  DG_CALL(DG_KERNEL_ARG(k, PML_ARG_NPN, m->npn));
  DG_CALL(DG_KERNEL_ARG(k, PML_ARG_JEND, m->npn));
  k = op->k[DG_CLK_PMLEND];
  DG_CALL(DG_KERNEL_ARG(k, PMLEND_ARG_SAVED, saved));
  DG_CALL(DG_KERNEL_ARG(k, PMLEND_ARG_W, m->w));
  DG_CALL(DG_KERNEL_ARG(k, PMLEND_ARG_WRES, m->wres));
  DG_CALL(DG_KERNEL_ARG(k, PMLEND_ARG_PU3, m->pu3));
  DG_CALL(DG_KERNEL_ARG(k, PMLEND_ARG_MATS, m->mats));
  DG_CALL(DG_KERNEL_ARG(k, PMLEND_ARG_MAT_OF, m->mat_of));
  DG_CALL(DG_KERNEL_ARG(k, PMLEND_ARG_NODE, m->node));
  DG_CALL(DG_KERNEL_ARG(k, PMLEND_ARG_FS, fs));
  DG_CALL(DG_KERNEL_ARG(k, PMLEND_ARG_NPN, m->npn));
  DG_CALL(DG_KERNEL_ARG(k, PMLEND_ARG_JEND, m->npn));
  if ((k = op->k[DG_CLK_PMLSAVE])) {
    DG_CALL(DG_KERNEL_ARG(k, PMLSAVE_ARG_RES, op->d_res));
    DG_CALL(DG_KERNEL_ARG(k, PMLSAVE_ARG_SAVED, m->saved));
    DG_CALL(DG_KERNEL_ARG(k, PMLSAVE_ARG_NODE, m->node));
    DG_CALL(DG_KERNEL_ARG(k, PMLSAVE_ARG_FS, fs));
    DG_CALL(DG_KERNEL_ARG(k, PMLSAVE_ARG_NPN, m->npn));
    DG_CALL(DG_KERNEL_ARG(k, PMLSAVE_ARG_JEND, m->npn));
  }
  return DG_OK;
}

static dg_status create(dg_cl_maxwell *op) {
  pml *m = NULL;
  DG_CALL(DG_ALLOC(m, 1));
  op->term[DG_CLM_PML] = m;
  DG_CALL(build_data(op, m));
  DG_CALL(make_kernels(op, m));
  return DG_OK;
}

static void destroy(dg_cl_maxwell *op) {
  pml *m = op->term[DG_CLM_PML];
  if (!m) return;
  cl_mem *bs[] = {&m->w, &m->wres, &m->pu3, &m->mats, &m->mat_of, &m->alpha, &m->node, &m->saved};
  for (size_t i = 0; i < sizeof bs / sizeof bs[0]; ++i) dg_buffer_release(bs[i]);
  dg_free(&m->pos);
  dg_free(&op->term[DG_CLM_PML]);
}

/* The stage's PML nodes: a group's when the range is whole groups of a grouped operator. */
static dg_status begin(dg_cl_maxwell *op, const dg_clm_stage *s) {
  pml *m = op->term[DG_CLM_PML];
  m->j0 = 0, m->j1 = m->npn;
  if (s->part && m->pos) {
    int g0 = -1, g1 = -1; /* groups [g0, g1) with gfirst[g0] = s0, gfirst[g1] = s1 */
    for (int g = 0; g <= op->n_groups; ++g) {
      if (g0 < 0 && op->gfirst[g] == s->s0) g0 = g;
      if (op->gfirst[g] == s->s1) g1 = g;
    }
    DG_CHECK(g0 >= 0 && g1 >= g0, DG_ERR_INTERNAL, "stage range %d..%d is not whole groups",
             s->s0, s->s1);
    m->j0 = m->pfirst[g0] * op->NP, m->j1 = m->pfirst[g1] * op->NP;
  }
  DG_CALL(DG_KERNEL_ARG(op->k[DG_CLK_PML], PML_ARG_JEND, m->j1));
  DG_CALL(DG_KERNEL_ARG(op->k[DG_CLK_PMLEND], PMLEND_ARG_JEND, m->j1));
  if (op->k[DG_CLK_PMLSAVE]) DG_CALL(DG_KERNEL_ARG(op->k[DG_CLK_PMLSAVE], PMLSAVE_ARG_JEND, m->j1));
  return DG_OK;
}

/* A launch over the stage's nodes (none when the range has none). */
static dg_status launch(dg_cl_maxwell *op, dg_clk_id id, const dg_clm_stage *s) {
  const pml *m = op->term[DG_CLM_PML];
  if (m->j1 <= m->j0) return DG_OK;
  DG_CALL(dg_clm_launch_items(op, id, (size_t)m->j0, (size_t)(m->j1 - m->j0), s->t));
  return DG_OK;
}

/* Before a kernel rewrites res: keep the PML nodes' res for the correction. */
static dg_status before_res(dg_cl_maxwell *op, const dg_clm_stage *s) {
  if (op->k[DG_CLK_PMLSAVE]) DG_CALL(launch(op, DG_CLK_PMLSAVE, s));
  return DG_OK;
}

/* After the update: the filters' products and w's residual (pml), then w advanced and the
 * correction of the stage's result and q (pmlend). */
static dg_status after(dg_cl_maxwell *op, const dg_clm_stage *s) {
  const int update = s->update;
  const cl_mem cbuf = update ? (s->fused_update ? op->d_res : op->d_rhs) : s->R;
  cl_kernel k = op->k[DG_CLK_PML];
  DG_CALL(DG_KERNEL_ARG(k, PML_ARG_C, cbuf));
  DG_CALL(dg_clm_set_stage_coefs(op, DG_CLK_PML, s));
  DG_CALL(launch(op, DG_CLK_PML, s));
  k = op->k[DG_CLK_PMLEND];
  const cl_mem out_a = update ? op->d_res : s->R;
  DG_CALL(DG_KERNEL_ARG(k, PMLEND_ARG_OUT_A, out_a));
  DG_CALL(DG_KERNEL_ARG(k, PMLEND_ARG_OUT_B, s->qout));
  DG_CALL(DG_KERNEL_ARG(k, PMLEND_ARG_C, cbuf));
  DG_CALL(dg_clm_set_stage_coefs(op, DG_CLK_PMLEND, s));
  DG_CALL(launch(op, DG_CLK_PMLEND, s));
  return DG_OK;
}

static dg_status result(dg_cl_maxwell *op, cl_mem r, cl_mem wr) {
  const pml *m = op->term[DG_CLM_PML];
  if (op->k[DG_CLK_PMLSAVE]) DG_CALL(DG_KERNEL_ARG(op->k[DG_CLK_PMLSAVE], PMLSAVE_ARG_RES, r));
  const cl_mem w = wr ? wr : m->wres;
  DG_CALL(DG_KERNEL_ARG(op->k[DG_CLK_PML], PML_ARG_WRES, w));
  DG_CALL(DG_KERNEL_ARG(op->k[DG_CLK_PMLEND], PMLEND_ARG_WRES, w));
  return DG_OK;
}

static size_t aux_size(const dg_cl_maxwell *op) {
  const pml *m = op->term[DG_CLM_PML];
  return DG_PML_AUX * (size_t)m->npn;
}

static dg_status put_aux(dg_cl_maxwell *op, const double *w) {
  const pml *m = op->term[DG_CLM_PML];
  const size_t n = aux_size(op);
  DG_CALL(dg_clm_put_reals(op, m->wres, n, NULL, aux_index, op));
  DG_CALL(dg_clm_put_reals(op, m->w, n, w, aux_index, op));
  return DG_OK;
}

static dg_status read_aux(dg_cl_maxwell *op, int residual, double *w) {
  const pml *m = op->term[DG_CLM_PML];
  DG_CALL(dg_clm_get_reals(op, residual ? m->wres : m->w, aux_size(op), w, aux_index, op));
  return DG_OK;
}

void dg_clm_pml_layout(const dg_cl_maxwell *op, dg_cl_layout *l) {
  const pml *m = op->term[DG_CLM_PML];
  l->npn = m ? m->npn : 0;
  l->w = m ? m->w : NULL;
  l->wres = m ? m->wres : NULL;
  for (int i = 0; i <= op->n_groups; ++i) l->pfirst[i] = m && m->pos ? m->pfirst[i] * op->NP : 0;
}

const dg_clm_term dg_clm_term_pml = {
    .name = "PML",
    .present = present,
    .templates = {"pml.cl"},
    .create = create,
    .destroy = destroy,
    .begin = begin,
    .before_res = before_res,
    .after = after,
    .result = result,
    .aux_size = aux_size,
    .put_aux = put_aux,
    .read_aux = read_aux,
};

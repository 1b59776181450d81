/* term_sources.c: point dipoles (phys->sources) on the OpenCL operator (cl_templates/
 * source.cl): their profiles uploaded once (dir profile / eps, 3 x NP per source, and the
 * device index of each of the source element's nodes); in each stage the host evaluates the
 * pulses at the stage time and the kernel subtracts the current from the stage's update,
 * SRC_BATCH sources a launch (reference: dg_maxwell_rhs with J). Dipoles added to the problem
 * after the operator was made are not seen. */
#include "backend/cl_maxwell_impl.h"
#include "core/alloc.h"

enum { SRC_BATCH = 16 }; /* sources per launch (source.cl's real16_t pulse values) */

typedef struct {
  cl_mem prof, node;
} sources;

static int present(const dg_cl_terms *t) { return t->sources; }

static dg_status create(dg_cl_maxwell *op) {
  sources *src = NULL;
  DG_CALL(DG_ALLOC(src, 1));
  op->term[DG_CLM_SOURCES] = src;
  const dg_maxwell *p = op->phys;
  const int S = p->n_sources, Np = op->NP, fs = (int)op->fs;
  dg_status st = DG_OK;
  double *prof = NULL;
  int *node = NULL;
  DG_CALL_GOTO(done, DG_ALLOC(prof, (size_t)S * 3 * Np));
  DG_CALL_GOTO(done, DG_ALLOC(node, (size_t)S * Np));
  for (int s = 0; s < S; ++s) {
    const dg_point_source *ps = &p->sources[s];
    for (int c = 0; c < 3; ++c)
      for (int n = 0; n < Np; ++n)
        prof[((size_t)s * 3 + c) * Np + n] = ps->dir[c] * ps->profile[n] / p->eps[ps->elem];
    for (int n = 0; n < Np; ++n) node[(size_t)s * Np + n] = (int)dg_clm_index(op, ps->elem, n);
  }
  DG_CALL_GOTO(done, dg_clm_upload(op, prof, (size_t)S * 3 * Np, &src->prof));
  DG_CALL_GOTO(done, dg_clm_upload_ints(op, node, (size_t)S * Np, &src->node));
  DG_CALL_GOTO(done, dg_clm_make_kernel(op, DG_CLK_SOURCE));
  cl_kernel k = op->k[DG_CLK_SOURCE]; /* the targets and the batch are set per launch */
  DG_CALL_GOTO(done, DG_KERNEL_ARG(k, SRC_ARG_FS, fs));
  DG_CALL_GOTO(done, DG_KERNEL_ARG(k, SRC_ARG_PROF, src->prof));
  DG_CALL_GOTO(done, DG_KERNEL_ARG(k, SRC_ARG_NODE, src->node));
done:
  dg_free(&prof);
  dg_free(&node);
  return st;
}

static void destroy(dg_cl_maxwell *op) {
  sources *src = op->term[DG_CLM_SOURCES];
  if (!src) return;
  dg_buffer_release(&src->prof);
  dg_buffer_release(&src->node);
  dg_free(&op->term[DG_CLM_SOURCES]);
}

/* A by-value real16 argument from 16 doubles. */
static dg_status set_real16_arg(const dg_cl_maxwell *op, cl_kernel k, cl_uint i,
                                const double x[SRC_BATCH]) {
  if (op->rs == 8) return dg_kernel_set_arg(k, i, SRC_BATCH * sizeof(double), x);
  float f[SRC_BATCH];
  for (int j = 0; j < SRC_BATCH; ++j) f[j] = (float)x[j];
  return dg_kernel_set_arg(k, i, sizeof f, f);
}

/* The point sources at time t: out_a -= sa g P and out_b -= sb g P, in batches of
 * SRC_BATCH sources; a source outside the slots [s0, s1) gets g = 0 (its buffers keep
 * their values). */
static dg_status apply(dg_cl_maxwell *op, double t, cl_mem out_a, double sa, cl_mem out_b,
                       double sb, int s0, int s1, dg_cl_stage_timing *tm) {
  const dg_maxwell *p = op->phys;
  cl_kernel k = op->k[DG_CLK_SOURCE];
  DG_CALL(DG_KERNEL_ARG(k, SRC_ARG_OUT_A, out_a));
  DG_CALL(DG_KERNEL_ARG(k, SRC_ARG_OUT_B, out_b));
  for (int first = 0; first < p->n_sources; first += SRC_BATCH) {
    const int count = p->n_sources - first < SRC_BATCH ? p->n_sources - first : SRC_BATCH;
    double ga[SRC_BATCH] = {0}, gb[SRC_BATCH] = {0};
    for (int s = 0; s < count; ++s) {
      const int slot = dg_clm_slot(op, p->sources[first + s].elem);
      const double g =
          slot >= s0 && slot < s1 ? dg_pulse_eval(&p->sources[first + s].pulse, t) : 0;
      ga[s] = sa * g;
      gb[s] = sb * g;
    }
    DG_CALL(DG_KERNEL_ARG(k, SRC_ARG_FIRST, first));
    DG_CALL(DG_KERNEL_ARG(k, SRC_ARG_COUNT, count));
    DG_CALL(set_real16_arg(op, k, SRC_ARG_GA, ga));
    DG_CALL(set_real16_arg(op, k, SRC_ARG_GB, gb));
    DG_CALL(dg_clm_launch_items(op, DG_CLK_SOURCE, 0, (size_t)(3 * op->NP), tm));
  }
  return DG_OK;
}

/* Last in a stage, after the update and the other terms' corrections. */
static dg_status after(dg_cl_maxwell *op, const dg_clm_stage *s) {
  if (s->update) /* res = a res + dt (rhs - s), q += b res */
    DG_CALL(apply(op, s->ts, op->d_res, s->dt, s->qout, s->b * s->dt, s->s0, s->s1, s->t));
  else /* the result holds rhs; q is left as it is (times 0) */
    DG_CALL(apply(op, s->ts, s->R, 1.0, s->qout, 0.0, s->s0, s->s1, s->t));
  return DG_OK;
}

const dg_clm_term dg_clm_term_sources = {
    .name = "point sources",
    .present = present,
    .templates = {"source.cl"},
    .create = create,
    .destroy = destroy,
    .after = after,
};

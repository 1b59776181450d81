/* The OpenCL multirate steppers, AB3 and LSERK4 (backend/cl_multirate.h): the operations of
 * the multirate schedule (dg/multirate_schedule.h, the one sequence this stepper and the
 * reference, dg/stepper_multirate.c, run) over buffers in the operator's field layout:
 *   qe = the operator's state buffer (what the Maxwell kernels read), the evaluation state;
 *   qs = the state at each element's step start (the reference's q);
 *   hist[3] = the RHS history, indexed by the global sub-step c (multiples of h_0 since the
 *     AB3 start) mod 3: every level due at c evaluates into hist[c % 3] (directly, as the
 *     kernels' result buffer), so levels due together share one launch. Level l's last three
 *     evaluations, at c, c - 2^l, c - 2^(l+1), sit in distinct buffers since 2^l mod 3 is
 *     1 or 2: f_j of level l is hist[(f0[l] + j b_l) % 3], b_l = 2 for even l, 1 for odd l;
 *   res = the LSERK4 residual (start-up, multirate LSERK4).
 * Between macro steps qe = qs, so get_state, put_state and energy are the operator's. */
#include "backend/cl_multirate.h"

#include <stdlib.h>
#include <string.h>

#include "backend/cl_kernels.h"
#include "codegen/codegen.h"
#include "contract.h"
#include "core/alloc.h"
#include "core/clock.h"
#include "device/binary_cache.h"
#include "device/program.h"
#include "dg/multirate.h"
#include "dg/multirate_schedule.h"
#include "dg/pml.h"

typedef struct {
  dg_cl_maxwell *op; /* owned */
  dg_cl_layout lay;
  dg_mr_clock clk; /* L, M, scheme, start-up (dg/multirate_schedule.h) */
  long long n_elems[DG_CL_MAX_GROUPS];
  /* border slots: the elements of level l > d next to one of level <= d, for each d; in the
   * device list at bfirst[d][l], bcount[d][l] of them */
  int bfirst[DG_CL_MAX_GROUPS][DG_CL_MAX_GROUPS], bcount[DG_CL_MAX_GROUPS][DG_CL_MAX_GROUPS];
  cl_mem d_border, d_qs, d_res, d_hist[3];
  cl_mem d_wres, d_whist[3]; /* PML: start-up residual and history of the auxiliary fields */
  cl_program prog;
  cl_kernel k_complete, k_dense, k_copy, k_lserk, k_advance, k_complete_lv;
  cl_mem d_bnd_f, d_bnd_p; /* the levels' first items: field nodes, PML nodes (L + 1 each) */
  int f0[DG_CL_MAX_GROUPS]; /* the history buffer of each level's latest evaluation */
  int cbase;                /* the global sub-step at the macro step's start, mod 3 */
  int cur;                  /* the history buffer of the current sub-step's evaluation */
  int direct;               /* the kernels evaluate into the history (not on CLBlast) */
  cl_mem F_all;             /* start-up: the operator's buffer of the stage's f (borrowed) */
  long long *evals;
  dg_cl_mr_profile *prof;
  /* Multirate LSERK4: qw = the working state (qs: the step start, qe: the operator's
   * state); F, wF = a level's stage right-hand side (F_cur, wF_cur: where levels_rhs left
   * it, F or the operator's buffers on CLBlast); the
   * trajectory entries d_ent (elements next to a coarser level, sorted by level: level l's
   * are rfirst[l] .. rfirst[l+1]; MR_ENT ints each) and their states tq and right-hand
   * sides tf (multirate.cl); finer[l] (entries) and coarser[l] by their level lc (slots) in
   * d_finer and d_coarser */
  cl_mem F_cur, wF_cur;
  cl_mem d_qw, d_F, d_wF, d_tq, d_tf, d_ent, d_finer, d_coarser;
  cl_kernel k_trec, k_teval, k_dense_at, k_stage;
  int rfirst[DG_CL_MAX_GROUPS + 1], ffirst[DG_CL_MAX_GROUPS], fcount[DG_CL_MAX_GROUPS];
  int cfirst[DG_CL_MAX_GROUPS][DG_CL_MAX_GROUPS], ccount[DG_CL_MAX_GROUPS][DG_CL_MAX_GROUPS];
} clmr;

static dg_status real_arg(const clmr *s, cl_kernel k, cl_uint i, double x) {
  if (s->lay.rs == 8) return DG_KERNEL_ARG(k, i, x);
  const float f = (float)x;
  return DG_KERNEL_ARG(k, i, f);
}

/* Run k; with a profile, wait and add its time to *acc. */
static dg_status launch(clmr *s, cl_kernel k, const size_t *off, const size_t *g,
                        const size_t *l, double *acc) {
  cl_ulong ns = 0;
  DG_CALL(dg_kernel_run_at(s->lay.dev, k, 2, off, g, l, s->prof ? &ns : NULL));
  if (s->prof && acc) *acc += 1e-9 * (double)ns;
  return DG_OK;
}

/* A ranged kernel (complete, copy, lserk, advance) over items [i0, i1) of nf arrays of stride
 * fs (arguments fs_arg and i1_arg are set). */
static dg_status launch_items(clmr *s, cl_kernel k, cl_uint fs_arg, cl_uint i1_arg, size_t i0,
                              size_t i1, int fs, int nf, double *acc) {
  if (i1 <= i0) return DG_OK;
  const size_t n = i1 - i0;
  const size_t off[2] = {i0, 0}, g[2] = {(n + WG1 - 1) / WG1 * WG1, (size_t)nf}, l[2] = {WG1, 1};
  const int end = (int)i1;
  DG_CALL(DG_KERNEL_ARG(k, fs_arg, fs));
  DG_CALL(DG_KERNEL_ARG(k, i1_arg, end));
  DG_CALL(launch(s, k, off, g, l, acc));
  return DG_OK;
}

/* The same over element slots [s0, s1) of the 6 fields. */
static dg_status launch_range(clmr *s, cl_kernel k, cl_uint fs_arg, cl_uint i1_arg, int s0,
                              int s1, double *acc) {
  const size_t NPP = (size_t)s->lay.NPP;
  DG_CALL(launch_items(s, k, fs_arg, i1_arg, (size_t)s0 * NPP, (size_t)s1 * NPP, (int)s->lay.fs,
                       6, acc));
  return DG_OK;
}

/* The same over level l's PML nodes (l < 0: all) of the DG_PML_AUX auxiliary arrays. */
static dg_status launch_pml(clmr *s, cl_kernel k, cl_uint fs_arg, cl_uint i1_arg, int l,
                            double *acc) {
  if (!s->lay.npn) return DG_OK;
  const int j0 = l < 0 ? 0 : s->lay.pfirst[l], j1 = l < 0 ? s->lay.npn : s->lay.pfirst[l + 1];
  DG_CALL(launch_items(s, k, fs_arg, i1_arg, (size_t)j0, (size_t)j1, s->lay.npn, DG_PML_AUX, acc));
  return DG_OK;
}

/* A kernel over n listed elements (argument n_arg their count): NP x n work-items in groups
 * of NP x ly, about WG1 items (multirate.cl). */
static dg_status launch_list(clmr *s, cl_kernel k, cl_uint n_arg, int n, double *acc) {
  const size_t np = (size_t)s->lay.NP, ly = WG1 / np > 0 ? WG1 / np : 1;
  const size_t g[2] = {np, ((size_t)n + ly - 1) / ly * ly}, l[2] = {np, ly};
  DG_CALL(DG_KERNEL_ARG(k, n_arg, n));
  DG_CALL(launch(s, k, NULL, g, l, acc));
  return DG_OK;
}

static int cmp_int(const void *a, const void *b) {
  const int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* A list of n slots in ascending order: the kernels over it then read runs of adjacent
 * slots (dg_cl_maxwell_create_grouped puts a level's elements next to a finer level first). */
static void sort_slots(int *slots, int n) {
  if (n > 1) qsort(slots, (size_t)n, sizeof *slots, cmp_int);
}

static void level_range(const clmr *s, int l, int *s0, int *s1) {
  *s0 = s->lay.gfirst[l];
  *s1 = s->lay.gfirst[l + 1];
}

/* The history buffer of level l's evaluation j steps back. */
static int hidx(const clmr *s, int l, int j) { return (s->f0[l] + j * (l & 1 ? 1 : 2)) % 3; }

/* Point the three history arguments of k (from index a0) at level l's f0, f1, f2. */
static dg_status hist_args(clmr *s, cl_kernel k, cl_uint a0, int l) {
  for (int i = 0; i < 3; ++i) DG_CALL(DG_KERNEL_ARG(k, a0 + (cl_uint)i, s->d_hist[hidx(s, l, i)]));
  return DG_OK;
}

static dg_status complete_level(clmr *s, int l, double h0) {
  const double h = h0 * (double)(1 << l);
  int s0, s1;
  level_range(s, l, &s0, &s1);
  DG_CALL(hist_args(s, s->k_complete, MRCO_ARG_F0, l));
  DG_CALL(real_arg(s, s->k_complete, MRCO_ARG_C0, h * 23.0 / 12));
  DG_CALL(real_arg(s, s->k_complete, MRCO_ARG_C1, h * -16.0 / 12));
  DG_CALL(real_arg(s, s->k_complete, MRCO_ARG_C2, h * 5.0 / 12));
  DG_CALL(launch_range(s, s->k_complete, MRCO_ARG_FS, MRCO_ARG_I1, s0, s1, s->prof ? &s->prof->ab_s[l] : NULL));
  if (s->lay.npn) {
    cl_kernel k = s->k_advance;
    for (int i = 0; i < 3; ++i)
      DG_CALL(DG_KERNEL_ARG(k, MRAD_ARG_F0 + (cl_uint)i, s->d_whist[hidx(s, l, i)]));
    DG_CALL(real_arg(s, k, MRAD_ARG_C0, h * 23.0 / 12));
    DG_CALL(real_arg(s, k, MRAD_ARG_C1, h * -16.0 / 12));
    DG_CALL(real_arg(s, k, MRAD_ARG_C2, h * 5.0 / 12));
    DG_CALL(launch_pml(s, k, MRAD_ARG_FS, MRAD_ARG_I1, l, s->prof ? &s->prof->ab_s[l] : NULL));
  }
  return DG_OK;
}

/* Copy the right-hand side F (and the PML's wres) of levels l0..l1-1 into hist[c]. */
/* dst = src (and dst2 = src, dst2 not NULL) over the slots of levels l0..l1-1. */
static dg_status copy_range(clmr *s, cl_mem dst, cl_mem dst2, cl_mem src, int l0, int l1,
                            double *acc) {
  DG_CALL(DG_KERNEL_ARG(s->k_copy, MRCP_ARG_DST, dst));
  DG_CALL(DG_KERNEL_ARG(s->k_copy, MRCP_ARG_DST2, dst2));
  DG_CALL(DG_KERNEL_ARG(s->k_copy, MRCP_ARG_SRC, src));
  DG_CALL(launch_range(s, s->k_copy, MRCP_ARG_FS, MRCP_ARG_I1, s->lay.gfirst[l0], s->lay.gfirst[l1], acc));
  return DG_OK;
}

static dg_status copy_levels(clmr *s, cl_mem F, int l0, int l1, int c, double *acc) {
  DG_CALL(copy_range(s, s->d_hist[c], NULL, F, l0, l1, acc));
  if (s->lay.npn) { /* the same kernel, dst2 still NULL */
    DG_CALL(DG_KERNEL_ARG(s->k_copy, MRCP_ARG_DST, s->d_whist[c]));
    DG_CALL(DG_KERNEL_ARG(s->k_copy, MRCP_ARG_SRC, s->lay.wres));
    DG_CALL(launch_items(s, s->k_copy, MRCP_ARG_FS, MRCP_ARG_I1, (size_t)s->lay.pfirst[l0],
                         (size_t)s->lay.pfirst[l1], s->lay.npn, DG_PML_AUX, acc));
  }
  return DG_OK;
}

/* Levels l0..l1-1 evaluate at t (global sub-step c mod 3) into hist[c]. */
/* The right-hand side of levels l0..l1-1 at t (counted in evals): the kernels path writes
 * it into out and wout; the CLBlast path computes the whole mesh's into the operator's
 * buffers, which *F and *wF then name (the levels' slots of them are the result). A rank
 * with no element there still takes part in the trace exchange. */
static dg_status levels_rhs(clmr *s, int l0, int l1, double t, cl_mem out, cl_mem wout,
                            cl_mem *F, cl_mem *wF, dg_cl_stage_timing *tm) {
  *F = out, *wF = wout;
  if (tm) memset(tm, 0, sizeof *tm);
  for (int l = l0; l < l1; ++l)
    if (s->evals) *s->evals += s->n_elems[l];
  if (s->lay.gfirst[l1] <= s->lay.gfirst[l0] && !s->lay.halo) return DG_OK;
  if (s->direct) {
    DG_CALL(dg_cl_maxwell_rhs_groups_into(s->op, t, l0, l1, out, wout));
    return DG_OK;
  }
  DG_CALL(dg_cl_maxwell_rhs_groups(s->op, t, l0, l1, F, tm));
  *wF = s->lay.wres;
  return DG_OK;
}

static dg_status evaluate(clmr *s, int l0, int l1, double t, int c, dg_cl_stage_timing *tm,
                          double *acc) {
  for (int l = l0; l < l1; ++l) s->f0[l] = c;
  cl_mem F = NULL, wF = NULL;
  DG_CALL(levels_rhs(s, l0, l1, t, s->d_hist[c], s->d_whist[c], &F, &wF, tm));
  if (F != s->d_hist[c]) DG_CALL(copy_levels(s, F, l0, l1, c, acc));
  return DG_OK;
}

/* Level l alone, profiled (dgtd bench): the same results, each kernel waited for. The
 * direct evaluation is timed as a whole. */
static dg_status evaluate_level(clmr *s, int l, double t, int c) {
  dg_cl_stage_timing tm;
  const double t0 = dg_now_s();
  DG_CALL(evaluate(s, l, l + 1, t, c, &tm, &s->prof->ab_s[l]));
  if (s->direct) {
    DG_CALL(dg_cl_maxwell_finish(s->op));
    s->prof->rhs_s[l] += dg_now_s() - t0;
  } else {
    s->prof->rhs_s[l] += 1e-9 * (double)tm.total_ns;
  }
  s->prof->evals[l] += s->n_elems[l];
  return DG_OK;
}

/* The levels' latest history buffers, 2 bits each (multirate.cl, mr_hist). */
static int heads_bits(const clmr *s) {
  int b = 0;
  for (int l = 0; l < s->clk.L; ++l) b |= s->f0[l] << (2 * l);
  return b;
}

/* Levels 0..d complete their steps, in one launch over their slots (and their PML nodes). */
static dg_status complete_levels(clmr *s, int d, double h0) {
  const int heads = heads_bits(s);
  cl_kernel k = s->k_complete_lv;
  for (int pml = 0; pml < 2; ++pml) {
    if (pml && !s->lay.npn) break;
    const cl_mem q = pml ? s->lay.w : s->d_qs, qe = pml ? NULL : s->lay.q;
    const cl_mem *h = pml ? s->d_whist : s->d_hist;
    DG_CALL(DG_KERNEL_ARG(k, MRCL_ARG_Q, q));
    DG_CALL(DG_KERNEL_ARG(k, MRCL_ARG_QE, qe));
    for (int i = 0; i < 3; ++i) DG_CALL(DG_KERNEL_ARG(k, MRCL_ARG_H0 + (cl_uint)i, h[i]));
    const cl_mem bnd = pml ? s->d_bnd_p : s->d_bnd_f;
    DG_CALL(DG_KERNEL_ARG(k, MRCL_ARG_BND, bnd));
    DG_CALL(DG_KERNEL_ARG(k, MRCL_ARG_HEADS, heads));
    DG_CALL(real_arg(s, k, MRCL_ARG_C0, h0 * 23.0 / 12));
    DG_CALL(real_arg(s, k, MRCL_ARG_C1, h0 * -16.0 / 12));
    DG_CALL(real_arg(s, k, MRCL_ARG_C2, h0 * 5.0 / 12));
    if (pml)
      DG_CALL(launch_items(s, k, MRCL_ARG_FS, MRCL_ARG_I1, (size_t)s->lay.pfirst[0],
                           (size_t)s->lay.pfirst[d + 1], s->lay.npn, DG_PML_AUX, NULL));
    else
      DG_CALL(launch_range(s, k, MRCL_ARG_FS, MRCL_ARG_I1, s->lay.gfirst[0], s->lay.gfirst[d + 1], NULL));
  }
  return DG_OK;
}

/* The AB3 polynomial at th (0..1 of their step) of the level-l elements list[first ..
 * first + n) (slots) into qe, from their step-start state qs and history. */
static dg_status dense(clmr *s, cl_mem list, int first, int n, int l, double th, double h0) {
  if (!n) return DG_OK;
  const double h = h0 * (1 << l);
  double c[3];
  dg_mr_ab3_weights(th, c);
  cl_kernel k = s->k_dense;
  DG_CALL(hist_args(s, k, MRDE_ARG_F0, l));
  DG_CALL(DG_KERNEL_ARG(k, MRDE_ARG_LIST, list));
  DG_CALL(DG_KERNEL_ARG(k, MRDE_ARG_FIRST, first));
  DG_CALL(real_arg(s, k, MRDE_ARG_C0, h * c[0]));
  DG_CALL(real_arg(s, k, MRDE_ARG_C1, h * c[1]));
  DG_CALL(real_arg(s, k, MRDE_ARG_C2, h * c[2]));
  DG_CALL(launch_list(s, k, MRDE_ARG_N, n, s->prof ? &s->prof->ab_s[l] : NULL));
  return DG_OK;
}

/* The AB3 polynomials at sub-time tau of the elements in list[first .. first + n), of any
 * levels, each in its step that started at or before sub-time T: one launch. */
static dg_status dense_at(clmr *s, cl_mem list, int first, int n, int T, double tau, double h0) {
  if (n <= 0) return DG_OK;
  cl_kernel k = s->k_dense_at;
  for (int i = 0; i < 3; ++i) DG_CALL(DG_KERNEL_ARG(k, MRDA_ARG_H0 + (cl_uint)i, s->d_hist[i]));
  DG_CALL(DG_KERNEL_ARG(k, MRDA_ARG_LIST, list));
  DG_CALL(DG_KERNEL_ARG(k, MRDA_ARG_FIRST, first));
  const int heads = heads_bits(s);
  DG_CALL(DG_KERNEL_ARG(k, MRDA_ARG_HEADS, heads));
  DG_CALL(DG_KERNEL_ARG(k, MRDA_ARG_T, T));
  DG_CALL(real_arg(s, k, MRDA_ARG_TAU, tau));
  DG_CALL(real_arg(s, k, MRDA_ARG_STEP, h0));
  DG_CALL(launch_list(s, k, MRDA_ARG_N, n, NULL));
  return DG_OK;
}

/* At sub-time m with levels 0..d due (d < L - 1): the coarser elements next to them, by their
 * AB3 polynomials (one launch; level by level when profiled, each level's time its own). */
static dg_status op_dense_borders(void *x, int d, int m, double h0) {
  clmr *s = x;
  if (!s->prof) {
    const int first = s->bfirst[d][d + 1];
    return dense_at(s, s->d_border, first, s->bfirst[d][s->clk.L - 1] + s->bcount[d][s->clk.L - 1] - first,
                    m, m, h0);
  }
  for (int l = d + 1; l < s->clk.L; ++l) {
    const int span = 1 << l;
    DG_CALL(dense(s, s->d_border, s->bfirst[d][l], s->bcount[d][l], l, (double)(m % span) / span, h0));
  }
  return DG_OK;
}

/* ---- multirate LSERK4 ---------------------------------------------------------------- */

/* One LSERK4 stage of level l: res = a res + h F, q += b res and qe = q (fields), and the
 * PML aux likewise (no evaluation copy: only their own element reads them). */
static dg_status stage_update(clmr *s, int l, cl_mem F, cl_mem wF, double a, double h, double b) {
  cl_kernel k = s->k_stage;
  const int i0 = s->lay.gfirst[l] * s->lay.NPP, i1 = s->lay.gfirst[l + 1] * s->lay.NPP;
  const int j0 = s->lay.npn ? s->lay.pfirst[l] : 0, j1 = s->lay.npn ? s->lay.pfirst[l + 1] : 0;
  if (i1 <= i0 && j1 <= j0) return DG_OK;
  DG_CALL(DG_KERNEL_ARG(k, MRST_ARG_F, F));
  DG_CALL(DG_KERNEL_ARG(k, MRST_ARG_WF, wF));
  DG_CALL(DG_KERNEL_ARG(k, MRST_ARG_I0, i0));
  DG_CALL(DG_KERNEL_ARG(k, MRST_ARG_I1, i1));
  DG_CALL(DG_KERNEL_ARG(k, MRST_ARG_J0, j0));
  DG_CALL(DG_KERNEL_ARG(k, MRST_ARG_J1, j1));
  DG_CALL(real_arg(s, k, MRST_ARG_A, a));
  DG_CALL(real_arg(s, k, MRST_ARG_DT, h));
  DG_CALL(real_arg(s, k, MRST_ARG_B, b));
  /* the fields' rows, then the auxiliary arrays' rows (a global offset in dimension 1), each
   * launch as long as its own range: one launch as long as the longer left most items of the
   * other idle (a coarse level's PML nodes are a fraction of its field nodes) */
  const size_t lw[2] = {WG1, 1};
  if (i1 > i0) {
    const size_t g[2] = {((size_t)(i1 - i0) + WG1 - 1) / WG1 * WG1, 6};
    DG_CALL(launch(s, k, NULL, g, lw, NULL));
  }
  if (j1 > j0) {
    const size_t off[2] = {0, 6}, g[2] = {((size_t)(j1 - j0) + WG1 - 1) / WG1 * WG1, DG_PML_AUX};
    DG_CALL(launch(s, k, off, g, lw, NULL));
  }
  return DG_OK;
}

/* Trajectory points of the entries of levels l0..l1-1 at sub-time m (multirate.cl,
 * mr_traj_record): the states q after a completed step (f NULL), or the right-hand sides f
 * of a synchronous evaluation and, at a step start, the states q. */
static dg_status traj_record(clmr *s, int l0, int l1, cl_mem q, cl_mem f, int m) {
  const int e0 = s->rfirst[l0], n = s->rfirst[l1] - e0;
  if (n <= 0) return DG_OK;
  cl_kernel k = s->k_trec;
  DG_CALL(DG_KERNEL_ARG(k, MRTR_ARG_Q, q));
  DG_CALL(DG_KERNEL_ARG(k, MRTR_ARG_F, f));
  DG_CALL(DG_KERNEL_ARG(k, MRTR_ARG_FIRST, e0));
  DG_CALL(DG_KERNEL_ARG(k, MRTR_ARG_M, m));
  DG_CALL(launch_list(s, k, MRTR_ARG_N, n, NULL));
  return DG_OK;
}

/* ---- the schedule's operations (dg/multirate_schedule.h) ------------------------------- */

/* Start-up: global LSERK4 at h_0 on qe (the operator's state); F_all the operator's buffer
 * of the whole mesh's right-hand side. */
static dg_status op_rhs_all(void *x, double t) {
  clmr *s = x;
  DG_CALL(dg_cl_maxwell_rhs_all(s->op, t, &s->F_all));
  long long K = 0;
  for (int l = 0; l < s->clk.L; ++l) K += s->n_elems[l];
  if (s->evals) *s->evals += K;
  return DG_OK;
}

/* f(T - h_l) at global sub-step -2^l, f(T - 2 h_l) at -2^(l+1) (mod 3) */
static dg_status op_keep_history(void *x, int l, int back) {
  clmr *s = x;
  const int a = l & 1 ? 2 : 1, slot = back == 1 ? 3 - a : (6 - 2 * a) % 3;
  DG_CALL(copy_levels(s, s->F_all, l, l + 1, slot, NULL));
  if (back == 1) s->f0[l] = slot;
  return DG_OK;
}

static dg_status op_update_all(void *x, double a, double h, double b) {
  clmr *s = x;
  cl_kernel k = s->k_lserk;
  DG_CALL(DG_KERNEL_ARG(k, MRLS_ARG_Q, s->lay.q));
  DG_CALL(DG_KERNEL_ARG(k, MRLS_ARG_RES, s->d_res));
  DG_CALL(DG_KERNEL_ARG(k, MRLS_ARG_F, s->F_all));
  DG_CALL(real_arg(s, k, MRLS_ARG_A, a));
  DG_CALL(real_arg(s, k, MRLS_ARG_DT, h));
  DG_CALL(real_arg(s, k, MRLS_ARG_B, b));
  DG_CALL(launch_range(s, k, MRLS_ARG_FS, MRLS_ARG_I1, 0, s->lay.Kpad, NULL));
  if (s->lay.npn) { /* the auxiliary fields by the same stage */
    DG_CALL(DG_KERNEL_ARG(k, MRLS_ARG_Q, s->lay.w));
    DG_CALL(DG_KERNEL_ARG(k, MRLS_ARG_RES, s->d_wres));
    DG_CALL(DG_KERNEL_ARG(k, MRLS_ARG_F, s->lay.wres));
    DG_CALL(launch_pml(s, k, MRLS_ARG_FS, MRLS_ARG_I1, -1, NULL));
  }
  return DG_OK;
}

static dg_status op_startup_end(void *x) {
  clmr *s = x;
  s->cbase = 0;
  DG_CL(clEnqueueCopyBuffer(s->lay.dev->queue, s->lay.q, s->d_qs, 0, 0,
                            6 * s->lay.fs * s->lay.rs, 0, NULL, NULL));
  if (s->clk.scheme == DG_MR_LSERK4)
    DG_CL(clEnqueueCopyBuffer(s->lay.dev->queue, s->lay.q, s->d_qw, 0, 0,
                              6 * s->lay.fs * s->lay.rs, 0, NULL, NULL));
  return DG_OK;
}

/* Levels 0..d due together evaluate in single launches into hist[cur], cur the global
 * sub-step mod 3; with a profile, level by level (each launch waited for and timed), which
 * computes the same. */
static dg_status op_evaluate(void *x, int d, int m, double t) {
  clmr *s = x;
  s->cur = (s->cbase + m) % 3;
  if (!s->prof) return evaluate(s, 0, d + 1, t, s->cur, NULL, NULL);
  for (int l = 0; l <= d; ++l) DG_CALL(evaluate_level(s, l, t, s->cur));
  return DG_OK;
}

static dg_status op_ab3_complete(void *x, int d, double h0) {
  clmr *s = x;
  if (!s->prof) return complete_levels(s, d, h0);
  for (int l = 0; l <= d; ++l) DG_CALL(complete_level(s, l, h0));
  return DG_OK;
}

/* the due levels' state into qe (coarser levels' stages left values there) and into qs,
 * their steps' start */
static dg_status op_rk_start(void *x, int d) {
  clmr *s = x;
  return copy_range(s, s->lay.q, s->d_qs, s->d_qw, 0, d + 1, NULL);
}

static dg_status op_rk_traj_start(void *x, int d, int m) {
  clmr *s = x;
  return traj_record(s, 0, d + 1, s->d_qw, s->d_hist[s->cur], m);
}

static dg_status op_rk_update(void *x, int l, int history, double a, double h, double b) {
  clmr *s = x;
  if (history) return stage_update(s, l, s->d_hist[s->cur], s->d_whist[s->cur], a, h, b);
  return stage_update(s, l, s->F_cur, s->wF_cur, a, h, b);
}

/* qe of the level itself: its stage state, which stage_update writes there too; before stage
 * 2 the finer levels' stages since the step began may have left dense outputs */
static dg_status op_rk_own(void *x, int l) {
  clmr *s = x;
  return copy_range(s, s->lay.q, NULL, s->d_qw, l, l + 1, NULL);
}

static dg_status op_rk_finer(void *x, int l, int T, double tau, double h0) {
  clmr *s = x;
  if (!s->fcount[l]) return DG_OK;
  cl_kernel k = s->k_teval;
  DG_CALL(DG_KERNEL_ARG(k, MRTE_ARG_FIRST, s->ffirst[l]));
  DG_CALL(DG_KERNEL_ARG(k, MRTE_ARG_T, T));
  DG_CALL(real_arg(s, k, MRTE_ARG_TAU, tau));
  DG_CALL(real_arg(s, k, MRTE_ARG_H0, h0));
  DG_CALL(launch_list(s, k, MRTE_ARG_N, s->fcount[l], NULL));
  return DG_OK;
}

static dg_status op_rk_coarser(void *x, int l, int T, double tau, double h0) {
  clmr *s = x;
  const int first = s->cfirst[l][l + 1];
  return dense_at(s, s->d_coarser, first, s->cfirst[l][s->clk.L - 1] + s->ccount[l][s->clk.L - 1] - first,
                  T, tau, h0);
}

static dg_status op_rk_stage_rhs(void *x, int l, double t) {
  clmr *s = x;
  return levels_rhs(s, l, l + 1, t, s->d_F, s->d_wF, &s->F_cur, &s->wF_cur, NULL);
}

static dg_status op_rk_traj_end(void *x, int l, int m) {
  clmr *s = x;
  return traj_record(s, l, l + 1, s->d_qw, NULL, m);
}

static dg_status op_macro_end(void *x) {
  clmr *s = x;
  s->cbase = (s->cbase + s->clk.M) % 3;
  /* the coarser levels' last stages left interpolated values in qe: between macro steps it
   * is the state (get_state, energy) */
  if (s->clk.scheme == DG_MR_LSERK4)
    DG_CALL(copy_range(s, s->lay.q, NULL, s->d_qw, 0, s->clk.L, NULL));
  return DG_OK;
}

static const dg_mr_ops clmr_sched_ops = {
    .startup_begin = NULL,             .rhs_all = op_rhs_all,
    .keep_history = op_keep_history,   .update_all = op_update_all,
    .startup_end = op_startup_end,     .dense_borders = op_dense_borders,
    .evaluate = op_evaluate,           .ab3_complete = op_ab3_complete,
    .rk_start = op_rk_start,           .rk_traj_start = op_rk_traj_start,
    .rk_update = op_rk_update,         .rk_own = op_rk_own,
    .rk_finer = op_rk_finer,           .rk_coarser = op_rk_coarser,
    .rk_stage_rhs = op_rk_stage_rhs,   .rk_traj_end = op_rk_traj_end,
    .macro_end = op_macro_end};

static dg_status clmr_step(void *impl, double t, double dt) {
  clmr *s = impl;
  DG_CHECK(dt > 0 && dt == dt, DG_ERR_INPUT, "multirate step: dt = %g", dt);
  DG_CALL(dg_mr_schedule_step(&clmr_sched_ops, s, &s->clk, t, dt));
  return DG_OK;
}

double dg_cl_multirate_stage_cost(cl_device_type type) {
  return type & CL_DEVICE_TYPE_GPU ? 1000 : 800;
}

static dg_status clmr_get_state(void *impl, double *q) {
  clmr *s = impl;
  DG_CALL(dg_cl_maxwell_get_state(s->op, q));
  return DG_OK;
}

static dg_status clmr_put_state(void *impl, const double *q) {
  clmr *s = impl;
  DG_CALL(dg_cl_maxwell_set_state(s->op, q));
  s->clk.started = 0;
  return DG_OK;
}

static dg_status clmr_finish(void *impl) {
  clmr *s = impl;
  DG_CALL(dg_cl_maxwell_finish(s->op));
  return DG_OK;
}

static dg_status clmr_energy(void *impl, double *e) {
  clmr *s = impl;
  DG_CALL(dg_cl_maxwell_energy(s->op, e));
  return DG_OK;
}

static void clmr_destroy(void *impl) {
  clmr *s = impl;
  if (!s) return;
  dg_cl_maxwell_destroy(&s->op);
  cl_kernel *ks[] = {&s->k_complete, &s->k_dense,      &s->k_copy,  &s->k_lserk,
                     &s->k_advance,  &s->k_complete_lv, &s->k_trec,  &s->k_teval,
                     &s->k_dense_at, &s->k_stage};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i) dg_kernel_release(ks[i]);
  dg_program_release(&s->prog);
  cl_mem *bs[] = {&s->d_border,   &s->d_qs,       &s->d_res,     &s->d_hist[0],
                  &s->d_hist[1],  &s->d_hist[2],  &s->d_wres,    &s->d_whist[0],
                  &s->d_whist[1], &s->d_whist[2], &s->d_bnd_f,   &s->d_bnd_p,
                  &s->d_qw,       &s->d_F,        &s->d_wF,      &s->d_tq,
                  &s->d_tf,       &s->d_ent,      &s->d_finer,   &s->d_coarser};
  for (size_t i = 0; i < sizeof bs / sizeof bs[0]; ++i) dg_buffer_release(bs[i]);
  dg_free(&s);
}

/* No aux get/put: multirate runs take no checkpoints (their history is not saved). */
static const dg_stepper_ops clmr_ops = {clmr_step,   clmr_get_state, clmr_put_state,
                                        clmr_finish, clmr_energy,    clmr_destroy,
                                        NULL,        NULL};

static dg_status render(int NP, int NPP, int VL, int dbl, char **src) {
  dg_kernel_spec sp;
  memset(&sp, 0, sizeof sp);
  DG_CALL(dg_kernel_spec_define(&sp, "DG_DOUBLE", "%d", dbl));
  DG_CALL(dg_kernel_spec_define(&sp, "NP", "%d", NP));
  DG_CALL(dg_kernel_spec_define(&sp, "NPP", "%d", NPP));
  /* common.cl derives VL = VW * EPW */
  DG_CALL(dg_kernel_spec_define(&sp, "VW", "%d", VL));
  DG_CALL(dg_kernel_spec_define(&sp, "EPW", "1"));
  DG_CALL(dg_kernel_spec_file(&sp, "common.cl"));
  DG_CALL(dg_kernel_spec_file(&sp, "multirate.cl"));
  DG_CALL(dg_codegen_render(&sp, src));
  return DG_OK;
}

dg_status dg_cl_multirate_source(const dg_variant *v, int N, char **src) {
  *src = NULL;
  DG_CALL(render(dg_variant_np(N), dg_variant_npp(N), dg_variant_layout_width(v),
                 v->precision == DG_PREC_DOUBLE, src));
  return DG_OK;
}

static dg_status build_kernels(clmr *s) {
  dg_status st = DG_OK;
  char *src = NULL;
  const int dbl = s->lay.rs == 8;
  DG_CALL_GOTO(done, render(s->lay.NP, s->lay.NPP, s->lay.VL, dbl, &src));
  char label[64];
  snprintf(label, sizeof label, "multirate_np%d_vl%d_%s", s->lay.NP, s->lay.VL,
           dbl ? "double" : "float");
  DG_CALL_GOTO(done, dg_program_build_cached(s->lay.dev->binaries, s->lay.dev, src, NULL, label,
                                             NULL, &s->prog));
  DG_CALL_GOTO(done, dg_kernel_create(s->prog, "mr_complete", &s->k_complete));
  DG_CALL_GOTO(done, dg_kernel_create(s->prog, "mr_dense", &s->k_dense));
  DG_CALL_GOTO(done, dg_kernel_create(s->prog, "mr_copy", &s->k_copy));
  DG_CALL_GOTO(done, dg_kernel_create(s->prog, "mr_lserk", &s->k_lserk));
  DG_CALL_GOTO(done, dg_kernel_create(s->prog, "mr_advance", &s->k_advance));
  DG_CALL_GOTO(done, dg_kernel_create(s->prog, "mr_complete_levels", &s->k_complete_lv));
  DG_CALL_GOTO(done, dg_kernel_create(s->prog, "mr_traj_record", &s->k_trec));
  DG_CALL_GOTO(done, dg_kernel_create(s->prog, "mr_traj_eval", &s->k_teval));
  DG_CALL_GOTO(done, dg_kernel_create(s->prog, "mr_dense_at", &s->k_dense_at));
  DG_CALL_GOTO(done, dg_kernel_create(s->prog, "mr_stage", &s->k_stage));
done:
  dg_free(&src);
  return st;
}

static dg_status set_static_args(clmr *s) {
  const int fs = (int)s->lay.fs;
  DG_CALL(DG_KERNEL_ARG(s->k_complete, MRCO_ARG_Q, s->d_qs));
  DG_CALL(DG_KERNEL_ARG(s->k_complete, MRCO_ARG_QE, s->lay.q));
  DG_CALL(DG_KERNEL_ARG(s->k_complete, MRCO_ARG_FS, fs));
  DG_CALL(DG_KERNEL_ARG(s->k_dense, MRDE_ARG_QE, s->lay.q));
  DG_CALL(DG_KERNEL_ARG(s->k_dense, MRDE_ARG_Q, s->d_qs));
  DG_CALL(DG_KERNEL_ARG(s->k_dense, MRDE_ARG_FS, fs));
  DG_CALL(DG_KERNEL_ARG(s->k_dense, MRDE_ARG_LIST, s->d_border));
  if (s->lay.npn) DG_CALL(DG_KERNEL_ARG(s->k_advance, MRAD_ARG_W, s->lay.w));
  DG_CALL(DG_KERNEL_ARG(s->k_dense_at, MRDA_ARG_QE, s->lay.q));
  DG_CALL(DG_KERNEL_ARG(s->k_dense_at, MRDA_ARG_Q, s->d_qs));
  DG_CALL(DG_KERNEL_ARG(s->k_dense_at, MRDA_ARG_FS, fs));
  DG_CALL(DG_KERNEL_ARG(s->k_dense_at, MRDA_ARG_BND, s->d_bnd_f));
  if (s->clk.scheme == DG_MR_LSERK4) {
    cl_kernel r = s->k_trec, e = s->k_teval, u = s->k_stage;
    DG_CALL(DG_KERNEL_ARG(r, MRTR_ARG_TQ, s->d_tq));
    DG_CALL(DG_KERNEL_ARG(r, MRTR_ARG_TF, s->d_tf));
    DG_CALL(DG_KERNEL_ARG(r, MRTR_ARG_FS, fs));
    DG_CALL(DG_KERNEL_ARG(r, MRTR_ARG_ENT, s->d_ent));
    const int ws = s->lay.npn;
    DG_CALL(DG_KERNEL_ARG(u, MRST_ARG_Q, s->d_qw));
    DG_CALL(DG_KERNEL_ARG(u, MRST_ARG_QE, s->lay.q));
    DG_CALL(DG_KERNEL_ARG(u, MRST_ARG_RES, s->d_res));
    DG_CALL(DG_KERNEL_ARG(u, MRST_ARG_FS, fs));
    DG_CALL(DG_KERNEL_ARG(u, MRST_ARG_W, s->lay.w));
    DG_CALL(DG_KERNEL_ARG(u, MRST_ARG_WRES, s->d_wres));
    DG_CALL(DG_KERNEL_ARG(u, MRST_ARG_WS, ws));
    DG_CALL(DG_KERNEL_ARG(e, MRTE_ARG_QE, s->lay.q));
    DG_CALL(DG_KERNEL_ARG(e, MRTE_ARG_TQ, s->d_tq));
    DG_CALL(DG_KERNEL_ARG(e, MRTE_ARG_TF, s->d_tf));
    DG_CALL(DG_KERNEL_ARG(e, MRTE_ARG_FS, fs));
    DG_CALL(DG_KERNEL_ARG(e, MRTE_ARG_ENT, s->d_ent));
    DG_CALL(DG_KERNEL_ARG(e, MRTE_ARG_LIST, s->d_finer));
  }
  return DG_OK;
}

/* Multirate LSERK4's lists and buffers (see clmr): level is per element (ghosts included),
 * lists hold owned elements next to one of another level (a ghost's included). */
static dg_status rk_setup(clmr *s, const int *level) {
  const dg_mesh *m = s->lay.phys->geom->mesh;
  const int K = m->K, Ko = m->K_owned, L = s->clk.L, NP = s->lay.NP;
  dg_status st = DG_OK;
  int *top = NULL, *eidx = NULL, *next = NULL, *tr = NULL, *fl = NULL, *cl = NULL;
  void *zeros = NULL;
  DG_CALL_GOTO(done, DG_ALLOC(top, K + 1));
  DG_CALL_GOTO(done, DG_ALLOC(eidx, K + 1));
  DG_CALL_GOTO(done, DG_ALLOC(next, (size_t)K * L + 1)); /* next[k L + l]: k touches level l */
  DG_CALL_GOTO(done, DG_ALLOC(tr, MR_ENT * (size_t)K + 1));
  DG_CALL_GOTO(done, DG_ALLOC(fl, (size_t)Ko * L + 1));
  DG_CALL_GOTO(done, DG_ALLOC(cl, (size_t)Ko * L + 1));
  for (int k = 0; k < Ko; ++k) {
    eidx[k] = -1;
    top[k] = level[k];
    for (int f = 0; f < 4; ++f) {
      const int lj = level[m->EToE[4 * k + f]];
      next[(size_t)k * L + lj] = 1;
      if (lj > top[k]) top[k] = lj;
    }
  }
  int ne = 0;
  long oq = 0, of = 0;
  for (int l = 0; l < L; ++l) {
    s->rfirst[l] = ne;
    for (int k = 0; k < Ko; ++k) {
      if (level[k] != l || top[k] <= l) continue;
      const long P = 1L << (top[k] - l);
      int *e = tr + MR_ENT * (size_t)ne;
      e[MR_SLOT] = s->lay.slot[k], e[MR_LVL] = l, e[MR_TOP] = top[k];
      e[MR_OFFQ] = (int)oq, e[MR_OFFF] = (int)of;
      eidx[k] = ne++;
      oq += (P + 1) * 6 * NP;
      of += P * 6 * NP;
      DG_CHECK_GOTO(done, oq < (1L << 31), DG_ERR_UNSUPPORTED,
                    "OpenCL multirate: trajectories too large for 32-bit offsets");
    }
  }
  s->rfirst[L] = ne;
  int nf = 0, nc = 0;
  for (int l = 0; l < L; ++l) {
    s->ffirst[l] = nf;
    for (int k = 0; k < Ko; ++k)
      if (level[k] < l && next[(size_t)k * L + l]) fl[nf++] = eidx[k];
    s->fcount[l] = nf - s->ffirst[l];
    for (int lc = l + 1; lc < L; ++lc) {
      s->cfirst[l][lc] = nc;
      for (int k = 0; k < Ko; ++k)
        if (level[k] == lc && next[(size_t)k * L + l]) cl[nc++] = s->lay.slot[k];
      s->ccount[l][lc] = nc - s->cfirst[l][lc];
      sort_slots(cl + s->cfirst[l][lc], s->ccount[l][lc]);
    }
  }
  DG_CALL_GOTO(done, dg_buffer_create(s->lay.dev, CL_MEM_READ_ONLY,
                                      (MR_ENT * (size_t)ne + 1) * sizeof(int), tr, &s->d_ent));
  DG_CALL_GOTO(done, dg_buffer_create(s->lay.dev, CL_MEM_READ_ONLY, (size_t)(nf + 1) * sizeof(int),
                                      fl, &s->d_finer));
  DG_CALL_GOTO(done, dg_buffer_create(s->lay.dev, CL_MEM_READ_ONLY, (size_t)(nc + 1) * sizeof(int),
                                      cl, &s->d_coarser));
  /* zero-filled: the fused fuse=res kernel reads its result buffer even at a = 0 (0 x a
   * stale NaN would not be 0), and padding slots are never written */
  const size_t rs = s->lay.rs, bytes = 6 * s->lay.fs * rs, wbytes = DG_PML_AUX * (size_t)s->lay.npn * rs;
  size_t most = bytes > wbytes ? bytes : wbytes;
  most = most > (size_t)(oq + 1) * rs ? most : (size_t)(oq + 1) * rs;
  DG_CALL_GOTO(done, dg_calloc(&zeros, most, 1));
  DG_CALL_GOTO(done, dg_buffer_create(s->lay.dev, CL_MEM_READ_WRITE, (size_t)(oq + 1) * rs, zeros, &s->d_tq));
  DG_CALL_GOTO(done, dg_buffer_create(s->lay.dev, CL_MEM_READ_WRITE, (size_t)(of + 1) * rs, zeros, &s->d_tf));
  DG_CALL_GOTO(done, dg_buffer_create(s->lay.dev, CL_MEM_READ_WRITE, bytes, zeros, &s->d_qw));
  DG_CALL_GOTO(done, dg_buffer_create(s->lay.dev, CL_MEM_READ_WRITE, bytes, zeros, &s->d_F));
  if (s->lay.npn)
    DG_CALL_GOTO(done, dg_buffer_create(s->lay.dev, CL_MEM_READ_WRITE, wbytes, zeros, &s->d_wF));
done:
  free(zeros);
  dg_free(&top);
  dg_free(&eidx);
  dg_free(&next);
  dg_free(&tr);
  dg_free(&fl);
  dg_free(&cl);
  return st;
}

dg_status dg_stepper_cl_multirate_create(dg_stepper **out, dg_cl_maxwell *op, const int *level,
                                         int n_levels, dg_mr_scheme scheme, long long *evals,
                                         dg_cl_mr_profile *profile) {
  dg_status st = DG_OK;
  clmr *s = NULL;
  int *list = NULL;
  void *zeros = NULL;
  DG_CALL_GOTO(fail_op, DG_ALLOC(s, 1));
  s->op = op;
  op = NULL;
  dg_cl_maxwell_layout(s->op, &s->lay);
  const dg_maxwell *phys = s->lay.phys;
  const dg_geom *g = phys->geom;
  const int K = g->K, Ko = g->mesh->K_owned;
  DG_CHECK_GOTO(fail, n_levels >= 1 && n_levels <= DG_MR_MAX_LEVELS &&
                          n_levels <= DG_CL_MAX_GROUPS && s->lay.n_groups == n_levels &&
                          s->lay.slot,
                DG_ERR_INPUT, "OpenCL multirate: the operator must be grouped by the %d levels "
                "(dg_cl_maxwell_create_grouped)", n_levels);
  s->clk.L = n_levels;
  s->clk.M = 1 << (n_levels - 1);
  s->clk.H = -1;
  s->evals = evals;
  s->prof = profile;
  s->clk.scheme = scheme;
  DG_CHECK_GOTO(fail, !profile || scheme == DG_MR_AB3, DG_ERR_UNSUPPORTED,
                "OpenCL multirate: the per-level profile is of the AB3 scheme only");
  s->direct = dg_cl_maxwell_variant(s->op)->path == DG_PATH_KERNELS;
  if (profile) {
    memset(profile, 0, sizeof *profile);
    profile->n_levels = n_levels;
  }
  for (int k = 0; k < K; ++k) {
    DG_CHECK_GOTO(fail, level[k] >= 0 && level[k] < n_levels, DG_ERR_INPUT,
                  "OpenCL multirate: element %d has level %d, not in 0..%d", k, level[k],
                  n_levels - 1);
    DG_CHECK_GOTO(fail, s->lay.slot[k] >= s->lay.gfirst[level[k]] &&
                            s->lay.slot[k] < s->lay.gfirst[level[k] + 1],
                  DG_ERR_INPUT, "OpenCL multirate: element %d is not in its level's group", k);
    if (k < Ko) ++s->n_elems[level[k]]; /* ghosts are stepped (as scratch) but not counted */
  }
  /* Border lists, grouped by d then by level, as slots. */
  DG_CALL_GOTO(fail, DG_ALLOC(list, (size_t)K * (n_levels > 1 ? n_levels - 1 : 1) + 1));
  int n = 0;
  for (int d = 0; d + 1 < n_levels; ++d)
    for (int l = d + 1; l < n_levels; ++l) {
      s->bfirst[d][l] = n;
      for (int k = 0; k < Ko; ++k) {
        if (level[k] != l) continue;
        int touches = 0;
        for (int f = 0; f < 4; ++f) touches |= level[g->mesh->EToE[4 * k + f]] <= d;
        if (touches) list[n++] = s->lay.slot[k];
      }
      s->bcount[d][l] = n - s->bfirst[d][l];
      sort_slots(list + s->bfirst[d][l], s->bcount[d][l]);
    }
  DG_CALL_GOTO(fail, dg_buffer_create(s->lay.dev, CL_MEM_READ_ONLY, (size_t)(n + 1) * sizeof(int),
                                      list, &s->d_border));
  const size_t bytes = 6 * s->lay.fs * s->lay.rs;
  DG_CALL_GOTO(fail, dg_calloc(&zeros, bytes, 1));
  cl_mem *bufs[] = {&s->d_qs, &s->d_res, &s->d_hist[0], &s->d_hist[1], &s->d_hist[2]};
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; ++i)
    DG_CALL_GOTO(fail, dg_buffer_create(s->lay.dev, CL_MEM_READ_WRITE, bytes, zeros, bufs[i]));
  if (s->lay.npn) {
    const size_t wbytes = DG_PML_AUX * (size_t)s->lay.npn * s->lay.rs;
    free(zeros);
    zeros = NULL;
    DG_CALL_GOTO(fail, dg_calloc(&zeros, wbytes, 1));
    cl_mem *wb[] = {&s->d_wres, &s->d_whist[0], &s->d_whist[1], &s->d_whist[2]};
    for (size_t i = 0; i < sizeof wb / sizeof wb[0]; ++i)
      DG_CALL_GOTO(fail, dg_buffer_create(s->lay.dev, CL_MEM_READ_WRITE, wbytes, zeros, wb[i]));
  }
  {
    int bf[DG_CL_MAX_GROUPS + 1], bp[DG_CL_MAX_GROUPS + 1];
    for (int l = 0; l <= n_levels; ++l) {
      bf[l] = s->lay.gfirst[l] * s->lay.NPP;
      bp[l] = s->lay.pfirst[l];
    }
    DG_CALL_GOTO(fail, dg_buffer_create(s->lay.dev, CL_MEM_READ_ONLY,
                                        (size_t)(n_levels + 1) * sizeof(int), bf, &s->d_bnd_f));
    DG_CALL_GOTO(fail, dg_buffer_create(s->lay.dev, CL_MEM_READ_ONLY,
                                        (size_t)(n_levels + 1) * sizeof(int), bp, &s->d_bnd_p));
  }
  if (scheme == DG_MR_LSERK4) DG_CALL_GOTO(fail, rk_setup(s, level));
  DG_CALL_GOTO(fail, build_kernels(s));
  DG_CALL_GOTO(fail, set_static_args(s));
  clmr *w = s;
  s = NULL; /* dg_stepper_wrap owns it now, also when it fails */
  DG_CALL_GOTO(fail, dg_stepper_wrap(out, &clmr_ops, w));
fail:
  clmr_destroy(s);
  dg_free(&list);
  free(zeros);
  return st;
fail_op:
  dg_cl_maxwell_destroy(&op);
  return st;
}

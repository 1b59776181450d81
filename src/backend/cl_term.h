/* cl_term.h: a term of the OpenCL operator — a piece of physics a problem adds to the
 * Maxwell volume and surface operator (term_maxwell.c) — kept whole in one file with its
 * template(s): what it needs of the problem, its #defines, its data, its kernels (rows of
 * cl_kernels.h) and their fixed arguments, what it does in a stage before and after the
 * operator's right-hand side, its auxiliary state and its release.
 *
 * A stage (cl_maxwell_stage.c) runs: every term's begin; the halo exchange starts; the
 * operator's right-hand side (which calls every term's traces once the neighbours' traces
 * are in, and before_res before a kernel rewrites res); the operator's LSERK update; every
 * term's after. Terms run in the order of dg_clm_terms, which is also the order of their
 * templates in the program. Adding a term: its term_*.c and template, its kernels' rows in
 * cl_kernels.h, its row in DG_CLM_TERM_LIST below, and its switch in dg_cl_terms
 * (backend/cl_maxwell.h), set from the problem in dg_cl_maxwell_create_grouped. */
#ifndef DG_BACKEND_CL_TERM_H
#define DG_BACKEND_CL_TERM_H

#include <CL/cl.h>

#include "backend/cl_maxwell.h"
#include "codegen/codegen.h"

/* One stage as the terms see it: its time ts and LSERK coefficients, whether it updates
 * (update = 0: the right-hand side alone, with (a, dt, b) = (0, 1, 0)), its element slots
 * [s0, s1) (part: not the whole mesh) and blocks [b0, b0 + nb), fuse_res: the fused kernel
 * advances res (fuse=res|step), fused_update: the stage's result goes to res = a res +
 * dt rhs, R: where the right-hand side alone goes, qin / qout: where q is read and where the
 * stage leaves it, t: the timing (NULL: untimed). */
typedef struct {
  double ts, a, dt, b;
  int update, s0, s1, part, fuse_res, fused_update;
  size_t b0, nb;
  cl_mem R, qin, qout;
  dg_cl_stage_timing *t;
} dg_clm_stage;

/* What a program's source depends on beyond the variant: sizes (rs: the real's), which
 * terms, and the curved elements' rules (the points of the volume and face rules, the
 * work-items per element of curved.cl). */
typedef struct {
  int N, NP, NFP, NPP, FLUXP;
  size_t rs;
  dg_cl_terms terms;
  int nq, nfq, cwg;
} dg_clm_program;

typedef struct dg_clm_term {
  const char *name;
  /* Whether a problem with these terms has this one. */
  int (*present)(const dg_cl_terms *t);
  /* Its templates, after the operator's, in this order. */
  const char *templates[2];
  /* Its part of p before the program is rendered: with op (NULL when rendered without a
   * device, dgtd kernels) from the problem and checked against op's device; may switch
   * itself off in p->terms when it cannot be rendered portably. Optional. */
  dg_status (*describe)(dg_clm_program *p, dg_cl_maxwell *op);
  /* Its #define lines (after the operator's). Optional. */
  dg_status (*define)(dg_kernel_spec *s, const dg_variant *v, const dg_clm_program *p);
  /* Once the program is built: its state (op->term[i]), data, kernels (dg_clm_make_kernel)
   * and their fixed arguments; release all of it (also after a failed create). */
  dg_status (*create)(dg_cl_maxwell *op);
  void (*destroy)(dg_cl_maxwell *op);
  /* After every term's create: the arguments it gives other kernels (by the table's
   * parameter names, dg_clm_bind_named). Optional. */
  dg_status (*bind)(dg_cl_maxwell *op);
  /* A stage's steps (optional; see above). */
  dg_status (*begin)(dg_cl_maxwell *op, const dg_clm_stage *s);
  dg_status (*traces)(dg_cl_maxwell *op, const dg_clm_stage *s);
  dg_status (*before_res)(dg_cl_maxwell *op, const dg_clm_stage *s);
  dg_status (*after)(dg_cl_maxwell *op, const dg_clm_stage *s);
  /* Where the right-hand side goes: r for the fields, wr for the term's auxiliary fields. */
  dg_status (*result)(dg_cl_maxwell *op, cl_mem r, cl_mem wr);
  /* Its auxiliary state, its part of the reference layout of dg_maxwell_aux_size, in term
   * order: the number of values; set (w NULL: zero; the RK residual zeroed); read the state
   * (residual = 0) or its RK residual (1). Optional. */
  size_t (*aux_size)(const dg_cl_maxwell *op);
  dg_status (*put_aux)(dg_cl_maxwell *op, const double *w);
  dg_status (*read_aux)(dg_cl_maxwell *op, int residual, double *w);
  /* After the energy kernel, its own share of the per-element energies. Optional. */
  dg_status (*energy)(dg_cl_maxwell *op);
} dg_clm_term;

/* The terms, in stage order: T(ID, name), the term dg_clm_term_<name> of term_<name>.c at
 * index DG_CLM_<ID> of dg_clm_terms and of the operator's term states. */
#define DG_CLM_TERM_LIST(T) \
  T(INCIDENT, incident) T(CURVED, curved) T(PML, pml) T(POLES, poles) T(SOURCES, sources)

#define DG_CLM_TERM_ID_(ID, name) DG_CLM_##ID,
enum { DG_CLM_TERM_LIST(DG_CLM_TERM_ID_) DG_CLM_TERMS };
#undef DG_CLM_TERM_ID_
#define DG_CLM_TERM_DECL_(ID, name) extern const dg_clm_term dg_clm_term_##name;
DG_CLM_TERM_LIST(DG_CLM_TERM_DECL_)
#undef DG_CLM_TERM_DECL_
extern const dg_clm_term *const dg_clm_terms[DG_CLM_TERMS];

/* The PML's part of the layout a stepper sees (term_pml.c; none without a PML). */
void dg_clm_pml_layout(const dg_cl_maxwell *op, dg_cl_layout *l);

#endif

/* cl_maxwell_program.c: the OpenCL operator's program: its templates and #define lines (the
 * operator's, then each term's: cl_term.h), rendering and building it. */
#include <stdio.h>
#include <string.h>

#include "backend/cl_maxwell_impl.h"
#include "codegen/codegen.h"
#include "core/alloc.h"
#include "device/binary_cache.h"
#include "device/program.h"

int dg_cl_maxwell_template_files(const dg_variant *v, const dg_cl_terms *t, int for_hash,
                                 const char *names[DG_CL_MAX_TEMPLATE_FILES]) {
  int n = dg_clm_maxwell_templates(v, for_hash, names);
  for (int i = 0; i < DG_CLM_TERMS; ++i) {
    const dg_clm_term *term = dg_clm_terms[i];
    if (!term->present(t)) continue;
    for (int j = 0; j < 2 && term->templates[j]; ++j) names[n++] = term->templates[j];
  }
  return n;
}

dg_status dg_cl_maxwell_templates_hash(const dg_variant *v, uint64_t *hash) {
  const char *files[DG_CL_MAX_TEMPLATE_FILES];
  const dg_cl_terms none = {0, 0, 0, 0, NULL};
  const int n = dg_cl_maxwell_template_files(v, &none, 1, files);
  DG_CALL(dg_codegen_files_hash(NULL, files, n, hash));
  return DG_OK;
}

static dg_status render(const dg_variant *v, const dg_clm_program *p, const double *ops_t[4],
                        char **src) {
  dg_kernel_spec s;
  memset(&s, 0, sizeof s);
  DG_CALL(dg_clm_maxwell_define(&s, v, p));
  for (int i = 0; i < DG_CLM_TERMS; ++i) {
    const dg_clm_term *term = dg_clm_terms[i];
    if (term->present(&p->terms) && term->define) DG_CALL(term->define(&s, v, p));
  }
  const char *files[DG_CL_MAX_TEMPLATE_FILES];
  const int nf = dg_cl_maxwell_template_files(v, &p->terms, 0, files);
  for (int i = 0; i < nf; ++i) DG_CALL(dg_kernel_spec_file(&s, files[i]));
  DG_CALL(dg_clm_maxwell_literals(&s, v, p, ops_t));
  DG_CALL(dg_codegen_render(&s, src));
  return DG_OK;
}

/* Each present term's part of p (op NULL: without a device). */
static dg_status describe(dg_clm_program *p, dg_cl_maxwell *op) {
  for (int i = 0; i < DG_CLM_TERMS; ++i) {
    const dg_clm_term *term = dg_clm_terms[i];
    if (term->present(&p->terms) && term->describe) DG_CALL(term->describe(p, op));
  }
  return DG_OK;
}

dg_status dg_cl_maxwell_source(const dg_variant *v, int N, const dg_cl_terms *t, char **src) {
  dg_status st = DG_OK;
  dg_refel *r = NULL;
  double *ops_t[4] = {NULL, NULL, NULL, NULL};
  *src = NULL;
  DG_CALL(dg_refel_create(&r, N));
  DG_CALL_GOTO(done, dg_clm_transposed_ops(r, ops_t));
  dg_clm_program p = {N, r->Np, r->Nfp, dg_variant_npp(N), dg_variant_fluxp(N),
                      v->precision == DG_PREC_DOUBLE ? 8 : 4, *t, 0, 0, 0};
  DG_CALL_GOTO(done, describe(&p, NULL));
  DG_CALL_GOTO(done, render(v, &p, (const double **)ops_t, src));
done:
  dg_clm_free_ops(ops_t);
  dg_refel_destroy(&r);
  return st;
}

dg_status dg_clm_build_program(dg_cl_maxwell *op, const double *ops_t[4], const char *dump_dir) {
  dg_status st = DG_OK;
  char *src = NULL;
  char label[64], suffix[32];
  dg_variant_kernel_suffix(&op->v, suffix, sizeof suffix);
  snprintf(label, sizeof label, "maxwell_N%d_%s_%s", op->N, suffix,
           dg_precision_name(op->v.precision));
  dg_clm_program p = {op->N, op->NP, op->NFP, op->NPP, op->FLUXP, op->rs, op->terms, 0, 0, 0};
  DG_CALL(describe(&p, op));
  DG_CALL(render(&op->v, &p, ops_t, &src));
  DG_CALL_GOTO(done, dg_program_build_cached(op->dev->binaries, op->dev, src, NULL, label,
                                             dump_dir, &op->prog));
done:
  dg_free(&src);
  return st;
}


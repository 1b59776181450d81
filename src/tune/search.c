/* The staged search (tune/tune.h): the candidates of each stage, and the final round. */
#include <stdlib.h>

#include "core/alloc.h"
#include "tune/tune_ctx.h"

enum {
  FAMILIES = 2,  /* families carried into stages 2 and 3 */
  MAX_LIST = 256 /* candidates of one stage */
};

static int valid_on(const tune_ctx *c, const dg_variant *v) {
  char why[128];
  return dg_variant_check(v, &c->dev->info, c->r->N, why, sizeof why);
}

static int same_family(const dg_variant *a, const dg_variant *b) {
  if (a->path != b->path) return 0;
  if (a->path == DG_PATH_CLBLAST) return 1;
  return a->work == b->work && a->lift == b->lift && a->fuse == b->fuse;
}

/* Up to m distinct families (kernel path only), fastest first, as their best candidate. */
static int best_families(const tune_ctx *c, int m, int *out) {
  int *rk = malloc(sizeof(int) * (size_t)(c->r->n ? c->r->n : 1));
  if (!rk) return 0;
  const int n = tune_ranked(c, rk);
  int k = 0;
  for (int i = 0; i < n && k < m; ++i) {
    const dg_variant *v = &c->r->c[rk[i]].v;
    if (v->path != DG_PATH_KERNELS) continue;
    int dup = 0;
    for (int j = 0; j < k; ++j) dup |= same_family(v, &c->r->c[out[j]].v);
    if (!dup) out[k++] = rk[i];
  }
  free(rk);
  return k;
}

/* Add v (if valid) to list; returns the new count. */
static dg_status push(tune_ctx *c, const dg_variant *v, int *list, int *n) {
  if (!valid_on(c, v)) return DG_OK;
  int i;
  DG_CALL(tune_add_cand(c, v, &i));
  for (int j = 0; j < *n; ++j)
    if (list[j] == i) return DG_OK;
  list[(*n)++] = i;
  return DG_OK;
}

static int pending_in(const tune_ctx *c, const int *list, int n) {
  int p = 0;
  for (int i = 0; i < n; ++i) p += c->r->c[list[i]].status == DG_CAND_PENDING;
  return p;
}

static dg_status run_list(tune_ctx *c, int stage, int *list, int n, int future) {
  c->stage = stage;
  if (stage > 0) n = tune_model_order(c, list, n);
  c->planned = c->done + pending_in(c, list, n) + future;
  DG_CALL(tune_evaluate(c, list, n, 0));
  return DG_OK;
}

/* Widest vector width the enumeration offers for work=vec. */
static int widest_vec(dg_precision p) { return p == DG_PREC_DOUBLE ? 8 : 16; }

int dg_tune_stage1_variants(const dg_device_info *info, int N, dg_precision p,
                            dg_variant out[DG_TUNE_STAGE1_MAX]) {
  const dg_variant dflt = dg_variant_default(info, N, p);
  char why[128];
  int n = 0;
  /* On a GPU a lane is a register of one work-item: vector lanes (work=vec) spill on every
   * vendor's compiler, even 4 wide, and 2 or 4 elements per work-item (work=elem) spill in
   * Intel's PVC volume kernel (scripts/gpu_isa.py, docs/PORTABILITY.md; the H100 never chose
   * either). Stage 1 there takes one node per work-item; later stages still try the rest. */
  const int gpu = info && (info->type & CL_DEVICE_TYPE_GPU);
  const struct { dg_work w; int vw; } works[] = {
      {DG_WORK_NODE, 1}, {DG_WORK_ELEM, 4}, {DG_WORK_VEC, widest_vec(p)}};
  for (int w = 0; w < (gpu ? 1 : 3); ++w)
    for (int lift = 0; lift < 3; ++lift) {
      dg_variant v = dg_variant_baseline(p);
      v.work = works[w].w;
      v.vw = works[w].vw;
      v.kb = v.lkb = dflt.kb;
      v.unroll = dflt.unroll;
      v.lift = (dg_lift_mode)lift;
      if (!dg_variant_check(&v, info, N, why, sizeof why)) v.kb = v.lkb = 1;
      if (dg_variant_check(&v, info, N, why, sizeof why)) out[n++] = v;
    }
  /* the fused right-hand side (fuse=rhs|res|step) with vector lanes (not on a GPU), and one
   * work-item per node (work=node: element_node.cl, the GPU form; its register-blocked
   * forms, vw = 2 and 4, spill in Intel's PVC compiler and are left to the refinement) */
  for (int w = gpu; w < 2; ++w)
    for (int fz = DG_FUSE_RHS; fz < DG_FUSE_COUNT; ++fz) {
      dg_variant v = dg_variant_baseline(p);
      v.work = w ? DG_WORK_NODE : DG_WORK_VEC;
      v.vw = w ? 1 : widest_vec(p);
      v.kb = w ? dflt.kb : v.kb;
      v.unroll = dflt.unroll;
      v.fuse = (dg_fuse)fz;
      while (v.kb > 1 && !dg_variant_check(&v, info, N, why, sizeof why)) v.kb /= 2;
      if (dg_variant_check(&v, info, N, why, sizeof why)) out[n++] = v;
    }
  dg_variant blas = dg_variant_baseline(p);
  blas.path = DG_PATH_CLBLAST;
  if (dg_variant_check(&blas, info, N, why, sizeof why)) out[n++] = blas;
  return n;
}

int dg_tune_seed_siblings(const dg_device_info *info, int N, const dg_variant *seed,
                          dg_variant out[DG_TUNE_SIBLINGS_MAX]) {
  char why[128];
  int n = 0;
  if (seed->path != DG_PATH_KERNELS) return 0;
  for (int fz = 0; fz < DG_FUSE_COUNT; ++fz) {
    if (fz == (int)seed->fuse) continue;
    dg_variant v = *seed;
    v.fuse = (dg_fuse)fz;
    if (!dg_variant_check(&v, info, N, why, sizeof why)) v.lift = DG_LIFT_SEPARATE;
    if (dg_variant_check(&v, info, N, why, sizeof why)) out[n++] = v;
  }
  if (!seed->literal && N <= DG_VARIANT_LITERAL_MAX_N) {
    dg_variant v = *seed;
    v.literal = 1;
    if (dg_variant_check(&v, info, N, why, sizeof why)) out[n++] = v;
  }
  return n;
}

/* Stage 0: the baseline, the device default, the seeds and the first seed's siblings
 * (tune/tune.h). */
static dg_status stage_anchors(tune_ctx *c, int *list) {
  const dg_precision p = c->r->precision;
  int n = 0;
  dg_variant base = dg_variant_baseline(p);
  DG_CALL(push(c, &base, list, &n));
  DG_CALL(push(c, &c->dflt, list, &n));
  tune_anchors(c);
  for (int i = 0; i < c->known.n_seeds; ++i) {
    dg_variant v;
    if (dg_variant_parse(c->known.seeds[i], &v) != DG_OK) {
      dg_error_clear();
      continue;
    }
    v.precision = p;
    const int before = n;
    DG_CALL(push(c, &v, list, &n));
    if (n > before) {
      c->r->c[list[n - 1]].seed = 1;
      c->r->n_seeds++;
    }
    if (i == 0) {
      dg_variant sib[DG_TUNE_SIBLINGS_MAX];
      const int ns = dg_tune_seed_siblings(&c->dev->info, c->r->N, &v, sib);
      for (int j = 0; j < ns; ++j) DG_CALL(push(c, &sib[j], list, &n));
    }
  }
  DG_CALL(run_list(c, 0, list, n, 10 + 2 * 8 + 2 * 16));
  return DG_OK;
}

/* Confirming a stored result: the stored winner still wins (within the noise) and has not
 * slowed down against the baseline: nothing more to search. Returns 1 when it held. */
static int confirm_held(tune_ctx *c) {
  const int w = tune_find_cand(c->r, c->known.self.winner);
  const int b = c->r->baseline >= 0 ? c->r->baseline : -1;
  double noise, err;
  int nerr;
  tune_noise_and_error(c, &noise, &err, &nerr);
  c->r->noise = noise;
  int held = w >= 0 && c->r->c[w].status == DG_CAND_TIMED &&
             c->r->c[w].median_ns <= tune_best_timed_ns(c) * (1 + noise);
  if (held && b >= 0 && c->r->c[b].status == DG_CAND_TIMED && c->known.self.baseline_ns > 0) {
    const double then = c->known.self.median_ns / c->known.self.baseline_ns;
    const double now = c->r->c[w].median_ns / c->r->c[b].median_ns;
    held = now <= then * (1 + 2 * noise);
  }
  c->r->confirmed = held ? 1 : 2;
  if (c->log && c->opt->verbose)
    fprintf(c->log, "%s confirm: cached winner %s\n", c->tag,
            held ? "holds (within the noise): no search" : "regressed: searching again");
  return held;
}

/* Stage 1: families with nothing in local memory. */
static dg_status stage_families(tune_ctx *c, int *list) {
  int n = 0;
  dg_variant s1[DG_TUNE_STAGE1_MAX];
  const int n1 = dg_tune_stage1_variants(&c->dev->info, c->r->N, c->r->precision, s1);
  for (int i = 0; i < n1; ++i) DG_CALL(push(c, &s1[i], list, &n));
  DG_CALL(run_list(c, 1, list, n, 2 * 8 + 2 * 16));
  return DG_OK;
}

/* Stage 2: placements of the best families. */
static dg_status stage_placements(tune_ctx *c, int *list) {
  int fam[FAMILIES];
  const int nf = best_families(c, FAMILIES, fam);
  int n = 0;
  for (int f = 0; f < nf; ++f)
    for (int vp = 0; vp < 3; ++vp)
      for (int lp = 0; lp < 3; ++lp) {
        dg_variant v = c->r->c[fam[f]].v;
        v.vplace = (dg_place)vp;
        v.lplace = (dg_place)lp;
        DG_CALL(push(c, &v, list, &n));
      }
  DG_CALL(run_list(c, 2, list, n, 2 * 16));
  return DG_OK;
}

/* The values stage 3 tries in dimension dim (vw, kb, lkb, unroll, literal, flux, lnpw) of
 * b at order N, precision p; returns how many. */
static int refine_values(const dg_variant *b, int dim, int N, dg_precision p, int vals[5]) {
  int nv = 0;
  if (dim == 0) {
    if (b->work == DG_WORK_ELEM) vals[nv++] = 2, vals[nv++] = 4;
    if (b->work == DG_WORK_NODE && b->fuse != DG_FUSE_NONE) /* element_node.cl's blocking */
      for (int w = 1; w <= DG_VARIANT_NODE_EPW_MAX; w *= 2) vals[nv++] = w;
    if (b->work == DG_WORK_VEC) {
      const int w0 = p == DG_PREC_DOUBLE ? 2 : 4;
      for (int w = w0; w <= widest_vec(p); w *= 2) vals[nv++] = w;
    }
  } else if (dim == 1 || dim == 2) {
    for (int kb = 1; kb <= 16; kb *= 2) vals[nv++] = kb;
  } else if (dim == 3) {
    vals[nv++] = 1, vals[nv++] = 4, vals[nv++] = 0;
  } else if (dim == 4) {
    if (N <= DG_VARIANT_LITERAL_MAX_N) vals[nv++] = 0, vals[nv++] = 1;
  } else if (dim == 5) {
    vals[nv++] = DG_FLUX_POINT, vals[nv++] = DG_FLUX_FACE;
  } else {
    vals[nv++] = 1, vals[nv++] = 2; /* lnpw=4 spills on PoCL and is not enumerated */
  }
  return nv;
}

/* v with dimension dim (as in refine_values) set to x. */
static dg_variant with_value(dg_variant v, int dim, int x) {
  switch (dim) {
  case 0: v.vw = x; break;
  case 1: v.kb = x; break;
  case 2: v.lkb = x; break;
  case 3: v.unroll = x; break;
  case 4: v.literal = x; break;
  case 5: v.flux = (dg_flux_work)x; break;
  default: v.lnpw = x; break;
  }
  return v;
}

/* Stage 3 for one family: coordinate descent from its best candidate, one dimension at a
 * time; families_left: the families after it (for the progress estimate). */
static dg_status refine_family(tune_ctx *c, int *list, int best, int families_left) {
  for (int dim = 0; dim < 7; ++dim) {
    int n = 0;
    const dg_variant b = c->r->c[best].v;
    int vals[5];
    const int nv = refine_values(&b, dim, c->r->N, c->r->precision, vals);
    for (int i = 0; i < nv; ++i) {
      const dg_variant v = with_value(b, dim, vals[i]);
      DG_CALL(push(c, &v, list, &n));
    }
    const int future = families_left * 16 + (6 - dim) * 2;
    /* The vector width interacts with the family (fuse=res wants vw=4 in double on AVX2
     * where the split kernels want 8): the model has family x width factors, and a width
     * this family was never timed at is not covered, hence timed (model.c, features). */
    const dg_status st = run_list(c, 3, list, n, future);
    if (st != DG_OK) return st;
    for (int i = 0; i < n; ++i)
      if (c->r->c[list[i]].status == DG_CAND_TIMED &&
          tune_timed_better(&c->r->c[list[i]], &c->r->c[best]))
        best = list[i];
    if (c->r->budget_hit) break;
  }
  return DG_OK;
}

/* Stage 3: coordinate descent within the best families, each from its best placement.
 * Distinct kernel families, not placements: two placements of one family crowded out a
 * family whose other vector width won (N = 5, 6 float: fuse=rhs at vw=8). */
static dg_status stage_refine(tune_ctx *c, int *list) {
  int fam[FAMILIES];
  const int nf = best_families(c, FAMILIES, fam);
  for (int f = 0; f < nf; ++f) {
    DG_CALL(refine_family(c, list, fam[f], nf - f - 1));
    if (c->r->budget_hit) break;
  }
  return DG_OK;
}

dg_status tune_staged_search(tune_ctx *c) {
  int *list = NULL;
  dg_status st = DG_OK;
  DG_CALL(DG_ALLOC(list, MAX_LIST));
  DG_CALL_GOTO(done, stage_anchors(c, list));
  if (c->opt->confirm && c->known.self.n_rank && !c->known.self_stale && confirm_held(c))
    goto done;
  DG_CALL_GOTO(done, stage_families(c, list));
  DG_CALL_GOTO(done, stage_placements(c, list));
  DG_CALL_GOTO(done, stage_refine(c, list));
done:
  dg_free(&list);
  return st;
}

/* Stage 4: the finalists, baseline and default, re-timed together. */
dg_status tune_final_round(tune_ctx *c) {
  int *rk = NULL, list[TUNE_FINALISTS + 2], n = 0;
  DG_CALL(DG_ALLOC(rk, c->r->n ? c->r->n : 1));
  const int nr = tune_ranked(c, rk);
  for (int i = 0; i < nr && n < TUNE_FINALISTS; ++i) list[n++] = rk[i];
  const int anchors[2] = {c->r->baseline, c->r->dflt};
  for (int a = 0; a < 2; ++a) {
    int dup = anchors[a] < 0 || c->r->c[anchors[a]].status != DG_CAND_TIMED;
    for (int j = 0; j < n; ++j) dup |= list[j] == anchors[a];
    if (!dup) list[n++] = anchors[a];
  }
  dg_free(&rk);
  if (n < 2) return DG_OK;
  c->stage = 4;
  c->planned = c->done + n;
  const int saved = c->batch;
  c->batch = n < TUNE_MAX_BATCH ? n : TUNE_MAX_BATCH; /* one batch: every ratio from one round */
  const dg_status st = tune_evaluate(c, list, n, 1);
  c->batch = saved;
  return st;
}

dg_status tune_run_specs(tune_ctx *c) {
  const dg_tune_options *opt = c->opt;
  dg_status st = DG_OK;
  int *list = NULL, n = 0;
  DG_CALL(DG_ALLOC(list, opt->n_specs + 2));
  for (int i = 0; i < opt->n_specs && st == DG_OK; ++i) {
    dg_variant v;
    st = dg_variant_parse(opt->specs[i], &v);
    if (st == DG_OK) {
      v.precision = c->r->precision;
      int j;
      st = tune_add_cand(c, &v, &j);
      int seen = 0; /* the same variant given twice (other spellings too) is timed once */
      for (int k = 0; st == DG_OK && k < n; ++k) seen |= list[k] == j;
      if (st == DG_OK && !seen) list[n++] = j;
    }
  }
  if (st == DG_OK) st = run_list(c, 1, list, n, 0);
  dg_free(&list);
  return st;
}

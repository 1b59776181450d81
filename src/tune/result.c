/* The result of a tune: its cache entry, a cached entry read back as a result, freeing it. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/clock.h"
#include "tune/tune_ctx.h"

dg_status tune_make_entry(tune_ctx *c) {
  dg_tune_result *r = c->r;
  dg_tune_entry *e = &r->entry;
  int *rk = NULL;
  DG_CALL(DG_ALLOC(rk, r->n ? r->n : 1));
  const int nr = tune_ranked(c, rk);
  /* The winner comes from the final round when there was one: same-round numbers. */
  int w = -1;
  for (int i = 0; i < nr; ++i)
    if (r->c[rk[i]].in_final) {
      w = rk[i];
      break;
    }
  if (w < 0 && nr) w = rk[0];
  r->winner = w;
  e->N = r->N;
  e->precision = r->precision;
  e->template_hash = c->hash;
  e->K = r->K;
  e->dofs = r->counts.dofs;
  e->variants_valid = r->n_valid;
  e->budget_hit = r->budget_hit;
  e->tune_seconds = tune_elapsed(c);
  dg_utc_date(e->date, sizeof e->date);
  dg_variant_print(&c->dflt, e->default_spec, sizeof e->default_spec);
  if (r->baseline >= 0 && r->c[r->baseline].status == DG_CAND_TIMED)
    e->baseline_ns = r->c[r->baseline].median_ns;
  if (r->dflt >= 0 && r->c[r->dflt].status == DG_CAND_TIMED)
    e->default_ns = r->c[r->dflt].median_ns;
  if (w >= 0) {
    const dg_tune_candidate *k = &r->c[w];
    snprintf(e->winner, sizeof e->winner, "%s", k->spec);
    /* Fresh while the templates the winner is built from are unchanged (tune/cache.h). */
    DG_CALL(dg_cl_maxwell_templates_hash(&k->v, &e->template_hash));
    e->median_ns = k->median_ns;
    e->min_ns = k->min_ns;
    e->max_ns = k->max_ns;
    for (int i = 0; i < nr; ++i)
      if (rk[i] != w && (!r->c[w].in_final || r->c[rk[i]].in_final)) {
        snprintf(e->runner_up, sizeof e->runner_up, "%s", r->c[rk[i]].spec);
        e->runner_up_margin = r->c[rk[i]].median_ns / k->median_ns - 1;
        break;
      }
  }
  int nbad = 0;
  for (int i = 0; i < r->n; ++i)
    nbad += r->c[i].status == DG_CAND_FAILED || r->c[i].status == DG_CAND_REJECTED;
  if (nr) DG_CALL(DG_ALLOC(e->rank, nr));
  if (nbad) DG_CALL(DG_ALLOC(e->reject, nbad));
  for (int i = 0; i < nr; ++i) {
    const dg_tune_candidate *k = &r->c[rk[i]];
    dg_tune_rank *q = &e->rank[e->n_rank++];
    snprintf(q->spec, sizeof q->spec, "%s", k->spec);
    q->median_ns = k->median_ns;
    q->min_ns = k->min_ns;
    q->max_ns = k->max_ns;
    q->stage = k->in_final ? 4 : k->stage;
  }
  for (int i = 0; i < r->n; ++i)
    if (r->c[i].status == DG_CAND_FAILED || r->c[i].status == DG_CAND_REJECTED) {
      dg_tune_reject *q = &e->reject[e->n_reject++];
      snprintf(q->spec, sizeof q->spec, "%s", r->c[i].spec);
      snprintf(q->reason, sizeof q->reason, "%s", r->c[i].reason);
    }
  dg_free(&rk);
  return DG_OK;
}

/* A confirmed stored entry: the variants not re-timed keep their stored numbers after the
 * re-timed ones, so nothing measured is lost. */
dg_status tune_keep_untimed(tune_ctx *c) {
  dg_tune_entry *e = &c->r->entry;
  const dg_tune_entry *old = &c->known.self;
  int add = 0;
  for (int i = 0; i < old->n_rank; ++i) add += tune_find_cand(c->r, old->rank[i].spec) < 0;
  if (!add) return DG_OK;
  dg_tune_rank *nr = realloc(e->rank, sizeof *nr * (size_t)(e->n_rank + add));
  DG_CHECK(nr, DG_ERR_MEMORY, "tune: out of memory");
  e->rank = nr;
  for (int i = 0; i < old->n_rank; ++i)
    if (tune_find_cand(c->r, old->rank[i].spec) < 0) e->rank[e->n_rank++] = old->rank[i];
  return DG_OK;
}

/* A result that reports a cached entry (nothing timed now). */
/* The candidate of a stored spec into *k (NULL when the spec no longer parses). */
static dg_status stored_cand(tune_ctx *c, const char *spec, dg_tune_candidate **k) {
  dg_variant v;
  *k = NULL;
  if (dg_variant_parse(spec, &v) != DG_OK) {
    dg_error_clear();
    return DG_OK;
  }
  int j;
  DG_CALL(tune_add_cand(c, &v, &j));
  *k = &c->r->c[j];
  return DG_OK;
}

dg_status tune_result_from_entry(tune_ctx *c, const dg_tune_entry *e) {
  dg_tune_result *r = c->r;
  r->from_cache = 1;
  for (int i = 0; i < e->n_rank; ++i) {
    dg_tune_candidate *k;
    DG_CALL(stored_cand(c, e->rank[i].spec, &k));
    if (!k) continue;
    k->status = DG_CAND_TIMED;
    k->median_ns = e->rank[i].median_ns;
    k->min_ns = e->rank[i].min_ns;
    k->max_ns = e->rank[i].max_ns;
    k->stage = e->rank[i].stage;
    k->in_final = k->stage == 4;
  }
  for (int i = 0; i < e->n_reject; ++i) {
    dg_tune_candidate *k;
    DG_CALL(stored_cand(c, e->reject[i].spec, &k));
    if (!k) continue;
    k->status = DG_CAND_FAILED;
    snprintf(k->reason, sizeof k->reason, "%s", e->reject[i].reason);
  }
  r->winner = tune_find_cand(r, e->winner);
  r->K = e->K;
  r->counts = dg_count_stage(r->N, r->precision, e->K);
  r->entry = *e;
  r->entry.rank = NULL;
  r->entry.reject = NULL;
  r->entry.n_rank = r->entry.n_reject = 0;
  return DG_OK;
}

void dg_tune_result_free(dg_tune_result *r) {
  if (!r) return;
  dg_free(&r->pruned);
  free(r->c);
  r->c = NULL;
  r->n = 0;
  dg_tune_entry_free(&r->entry);
}

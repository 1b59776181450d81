/* The candidate list of one tune (tune/tune_ctx.h): finding, adding and ranking candidates,
 * their timing statistics, the anchors. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tune/timing.h"
#include "tune/tune_ctx.h"

int tune_find_cand(const dg_tune_result *r, const char *spec) {
  for (int i = 0; i < r->n; ++i)
    if (!strcmp(r->c[i].spec, spec)) return i;
  return -1;
}

/* Index of v's candidate (added if new). */
dg_status tune_add_cand(tune_ctx *c, const dg_variant *v, int *idx) {
  char spec[DG_VARIANT_SPEC_MAX];
  dg_variant_print(v, spec, sizeof spec);
  int i = tune_find_cand(c->r, spec);
  if (i < 0) {
    if (c->r->n == c->cap) {
      const int ncap = c->cap ? 2 * c->cap : 64;
      dg_tune_candidate *nc = realloc(c->r->c, (size_t)ncap * sizeof *nc);
      DG_CHECK(nc, DG_ERR_MEMORY, "tune: out of memory (%d candidates)", ncap);
      c->r->c = nc;
      c->cap = ncap;
    }
    i = c->r->n++;
    dg_tune_candidate *k = &c->r->c[i];
    memset(k, 0, sizeof *k);
    k->v = *v;
    snprintf(k->spec, sizeof k->spec, "%s", spec);
    k->rel_diff = NAN;
    k->stage = -1;
  }
  *idx = i;
  return DG_OK;
}

void tune_summarize(dg_tune_candidate *k) {
  double s[DG_TUNE_MAX_SAMPLES], st[3];
  memcpy(s, k->samples, sizeof(double) * (size_t)k->nsamples);
  dg_timing_stats(s, k->nsamples, st);
  k->median_ns = st[0];
  k->min_ns = st[1];
  k->max_ns = st[2];
}

int tune_timed_better(const dg_tune_candidate *a, const dg_tune_candidate *b) {
  return a->median_ns < b->median_ns;
}

/* Indices of timed candidates, fastest first. */
int tune_ranked(const tune_ctx *c, int *out) {
  int n = 0;
  for (int i = 0; i < c->r->n; ++i)
    if (c->r->c[i].status == DG_CAND_TIMED) {
      int j = n++;
      while (j > 0 && tune_timed_better(&c->r->c[i], &c->r->c[out[j - 1]])) {
        out[j] = out[j - 1];
        --j;
      }
      out[j] = i;
    }
  return n;
}

double tune_best_timed_ns(const tune_ctx *c) {
  double b = INFINITY;
  for (int i = 0; i < c->r->n; ++i)
    if (c->r->c[i].status == DG_CAND_TIMED && c->r->c[i].median_ns < b) b = c->r->c[i].median_ns;
  return b;
}

void tune_anchors(tune_ctx *c) {
  char spec[DG_VARIANT_SPEC_MAX];
  dg_variant b = dg_variant_baseline(c->r->precision);
  c->r->baseline = tune_find_cand(c->r, dg_variant_print(&b, spec, sizeof spec));
  c->r->dflt = tune_find_cand(c->r, dg_variant_print(&c->dflt, spec, sizeof spec));
}

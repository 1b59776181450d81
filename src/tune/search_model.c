/* The cost model inside a search: refitting it, ordering and pruning a stage's candidates,
 * and how well it ranked the winner. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tune/tune_ctx.h"

/* Refit on what is known plus this search's timings (weighted up: they are this device, this
 * problem, now). */
static void model_refit(tune_ctx *c) {
  const int extra = c->r->n;
  dg_model_sample *s = malloc(sizeof *s * (size_t)(c->known.n + extra + 1));
  if (!s) return;
  int n = 0;
  for (int i = 0; i < c->known.n; ++i) s[n++] = c->known.s[i];
  for (int i = 0; i < c->r->n; ++i) {
    const dg_tune_candidate *k = &c->r->c[i];
    if (k->status != DG_CAND_TIMED) continue;
    dg_model_sample *q = &s[n++];
    q->v = k->v;
    q->N = c->r->N;
    q->p = c->r->precision;
    q->K = c->r->K;
    q->ns = k->median_ns;
    q->w = 8;
    q->bound_s = 0;
  }
  dg_model_fit(&c->model, s, n);
  free(s);
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The relative timing noise (half the median min-max spread, 2%..15%) and the model's
 * out-of-sample error (median |log(measured / predicted)| over the timed candidates that
 * had a prediction), from this search. *nerr: how many predictions were checked. */
void tune_noise_and_error(const tune_ctx *c, double *noise, double *err, int *nerr) {
  double *sp = malloc(sizeof *sp * (size_t)(c->r->n + 1));
  double *er = malloc(sizeof *er * (size_t)(c->r->n + 1));
  int ns = 0, ne = 0;
  *noise = 0.05;
  *err = 1;
  *nerr = 0;
  if (!sp || !er) goto out;
  for (int i = 0; i < c->r->n; ++i) {
    const dg_tune_candidate *k = &c->r->c[i];
    if (k->status != DG_CAND_TIMED || !(k->median_ns > 0)) continue;
    sp[ns++] = (k->max_ns - k->min_ns) / (2 * k->median_ns);
    if (k->pred_ns > 0 && !k->seed && k->stage > 0) er[ne++] = fabs(log(k->median_ns / k->pred_ns));
  }
  if (ns) {
    qsort(sp, (size_t)ns, sizeof *sp, cmp_double);
    *noise = fmin(0.15, fmax(0.02, sp[ns / 2]));
  }
  if (ne) {
    qsort(er, (size_t)ne, sizeof *er, cmp_double);
    *err = er[ne / 2];
  }
  *nerr = ne;
out:
  free(sp);
  free(er);
}

/* Order list by prediction (fastest first) and drop the pending candidates that, even as
 * much faster than predicted as the model has been wrong (1.5 x its median error, at least
 * 10%), would not beat the best measured time by more than the noise; a candidate with a
 * feature value the model has no data on is never dropped (the model knows nothing of it). Pruning starts once
 * the model has proved itself on 3 predictions, or at once when it was trained on data
 * from before this search. Returns the new count. */
int tune_model_order(tune_ctx *c, int *list, int n) {
  if (!c->model_on || n <= 0) return n;
  model_refit(c);
  double *pred = malloc(sizeof *pred * (size_t)n);
  if (!pred) return n;
  for (int i = 0; i < n; ++i) {
    dg_tune_candidate *k = &c->r->c[list[i]];
    pred[i] = dg_model_predict_ns(&c->model, &k->v, c->r->N, c->r->precision, c->r->K);
    if (k->status == DG_CAND_PENDING) k->pred_ns = pred[i];
  }
  for (int i = 1; i < n; ++i) /* insertion sort: lists are short */
    for (int j = i; j > 0 && pred[j] < pred[j - 1]; --j) {
      const double t = pred[j];
      pred[j] = pred[j - 1];
      pred[j - 1] = t;
      const int u = list[j];
      list[j] = list[j - 1];
      list[j - 1] = u;
    }
  double noise, err;
  int nerr;
  tune_noise_and_error(c, &noise, &err, &nerr);
  c->r->noise = noise;
  const double best = tune_best_timed_ns(c);
  int m = 0;
  /* Prior data alone may prune the families of stage 1 only when this device measured some
   * of it (a sweep's earlier orders): another device's family factors can mislead. */
  const int prior_ok = c->trained_prior && (c->stage > 1 || c->own_prior);
  if ((nerr >= 3 || prior_ok) && isfinite(best)) {
    const double u = fmax(0.10, 1.5 * (nerr >= 3 ? err : 0.3));
    for (int i = 0; i < n; ++i) {
      const dg_tune_candidate *k = &c->r->c[list[i]];
      if (k->status == DG_CAND_PENDING && pred[i] * exp(-u) >= best * (1 - noise) &&
          dg_model_covers(&c->model, &k->v, c->r->N, c->r->precision)) {
        c->r->model_skipped++;
        if (c->opt->verbose >= 2 && c->log)
          fprintf(c->log, "%s stage %d  model: skip %s (predicted %.3f ms, best %.3f ms)\n",
                  c->tag, c->stage, k->spec, pred[i] * 1e-6, best * 1e-6);
        continue;
      }
      list[m++] = list[i];
    }
  } else {
    m = n;
  }
  free(pred);
  return m;
}

/* The model's rank of the winner among the timed candidates and its prediction error, both
 * under the model as trained before this search (what was known); bucket and seeds into the
 * entry. */
void tune_model_report(tune_ctx *c) {
  dg_tune_result *r = c->r;
  r->entry.bucket = r->bucket;
  snprintf(r->entry.seeded_from, sizeof r->entry.seeded_from, "%.199s", r->seeded_from);
  if (r->winner < 0 || !c->model_on) return;
  if (!c->known.n) { /* nothing known before: each candidate's prediction when it was queued */
    const dg_tune_candidate *w = &r->c[r->winner];
    if (!(w->pred_ns > 0)) return;
    int rank = 1;
    for (int i = 0; i < r->n; ++i)
      rank += i != r->winner && r->c[i].status == DG_CAND_TIMED && r->c[i].pred_ns > 0 &&
              r->c[i].pred_ns < w->pred_ns;
    r->model_rank = r->entry.model_rank = rank;
    r->model_err = r->entry.model_err = w->pred_ns / w->median_ns - 1;
    return;
  }
  /* The model as it was before this search timed anything. */
  dg_cost_model prior = c->model;
  dg_model_fit(&prior, c->known.s, c->known.n);
  const dg_tune_candidate *w = &r->c[r->winner];
  const double pw = dg_model_predict_ns(&prior, &w->v, r->N, r->precision, r->K);
  if (!(pw > 0)) return;
  int rank = 1;
  for (int i = 0; i < r->n; ++i) {
    const dg_tune_candidate *k = &r->c[i];
    if (i == r->winner || k->status != DG_CAND_TIMED) continue;
    rank += dg_model_predict_ns(&prior, &k->v, r->N, r->precision, r->K) < pw;
  }
  r->model_rank = rank;
  r->model_err = pw / w->median_ns - 1;
  r->entry.model_rank = rank;
  r->entry.model_err = r->model_err;
}

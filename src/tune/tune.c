#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "backend/verify.h"
#include "codegen/codegen.h"
#include "core/alloc.h"
#include "core/clock.h"
#include "core/files.h"
#include "core/log.h"
#include "tune/model.h"
#include "tune/timing.h"
#include "tune/tune.h"
#include "tune/verify_pool.h"

#include "backend/cl_maxwell.h"

enum {
  FAMILIES = 2,      /* families carried into stages 2 and 3 */
  FINALISTS = 4,     /* variants re-timed in stage 4 besides baseline and default */
  MAX_BATCH = 12     /* operators alive at once */
};
static const double RESERVE = 0.15; /* budget share kept for stage 4 */

dg_status dg_tune_options_default(dg_tune_options *o) {
  memset(o, 0, sizeof *o);
  o->verbose = 1;
  o->repeats = 7;
  o->write_cache = 1;
  o->lock_wait_s = -1;
  o->contention_max = 0.25;
  o->use_known = 1;
  o->use_model = 1;
  DG_CALL(dg_tune_paths_default(&o->paths));
  return DG_OK;
}

/* ---- the tuning context -------------------------------------------------------------------- */

typedef struct {
  dg_device *dev;
  const dg_tune_options *opt;
  dg_tune_result *r;
  dg_verify_case *small; /* in-process verification problem */
  dg_verify_case *big;   /* timing problem */
  FILE *log;
  FILE *journal;
  char journal_path[DG_TUNE_PATH + 256];
  uint64_t hash;
  int cap;
  double t0, cost_sum;
  int cost_n, done, planned, stage, batch;
  dg_variant dflt;
  char tag[32];
  dg_known known;        /* measurements of this and similar devices */
  dg_cost_model model;
  dg_verify_pool *own_pool; /* verification workers when the caller shares none */
  int model_on;          /* rank and prune by the model */
  int trained_prior;     /* the model had data before this search timed anything */
  int own_prior;         /* ... some of it measured on this device (earlier orders) */
} ctx_t;

static double elapsed(const ctx_t *c) { return dg_now_s() - c->t0; }

/* Should stages 1-3 start one more candidate? */
static int budget_allows(ctx_t *c) {
  const double b = c->opt->budget_s;
  if (b <= 0 || c->stage == 0) return 1;
  const double avg = c->cost_n ? c->cost_sum / c->cost_n : 5.0;
  if (c->stage < 4 && elapsed(c) + avg > (1 - RESERVE) * b) {
    c->r->budget_hit = 1;
    return 0;
  }
  if (c->stage == 4 && elapsed(c) > b + avg * FINALISTS) { /* runaway guard only */
    c->r->budget_hit = 1;
    return 0;
  }
  return 1;
}

static int find_cand(const dg_tune_result *r, const char *spec) {
  for (int i = 0; i < r->n; ++i)
    if (!strcmp(r->c[i].spec, spec)) return i;
  return -1;
}

/* Index of v's candidate (added if new). */
static dg_status add_cand(ctx_t *c, const dg_variant *v, int *idx) {
  char spec[DG_VARIANT_SPEC_MAX];
  dg_variant_print(v, spec, sizeof spec);
  int i = find_cand(c->r, spec);
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

/* ---- journal ------------------------------------------------------------------------------- */

static void journal(ctx_t *c, const dg_tune_candidate *k, const char *event) {
  if (!c->journal) return;
  cJSON *o = cJSON_CreateObject();
  char hash[32];
  snprintf(hash, sizeof hash, "%016" PRIx64, c->hash);
  int ok = o && cJSON_AddStringToObject(o, "hash", hash) &&
           cJSON_AddNumberToObject(o, "K", (double)c->r->K) &&
           cJSON_AddStringToObject(o, "spec", k->spec) &&
           cJSON_AddStringToObject(o, "event", event);
  if (ok && !strcmp(event, "timed")) {
    cJSON *s = cJSON_AddArrayToObject(o, "samples");
    ok = s && cJSON_AddNumberToObject(o, "stage", k->stage) &&
         cJSON_AddNumberToObject(o, "rel_diff", k->rel_diff);
    for (int i = 0; ok && i < k->nsamples; ++i)
      ok = cJSON_AddItemToArray(s, cJSON_CreateNumber(k->samples[i]));
  }
  if (ok && (!strcmp(event, "failed") || !strcmp(event, "rejected")))
    ok = cJSON_AddStringToObject(o, "reason", k->reason) != NULL;
  char *line = ok ? cJSON_PrintUnformatted(o) : NULL;
  if (line) {
    fprintf(c->journal, "%s\n", line);
    fflush(c->journal);
    fsync(fileno(c->journal)); /* the line must survive a crash that follows */
  }
  cJSON_free(line);
  cJSON_Delete(o);
}

static void summarize(dg_tune_candidate *k) {
  double s[DG_TUNE_MAX_SAMPLES], st[3];
  memcpy(s, k->samples, sizeof(double) * (size_t)k->nsamples);
  dg_timing_stats(s, k->nsamples, st);
  k->median_ns = st[0];
  k->min_ns = st[1];
  k->max_ns = st[2];
}

/* Earlier results of the same problem (template hash and K) from an interrupted run. */
static dg_status journal_replay(ctx_t *c) {
  FILE *f = fopen(c->journal_path, "r");
  if (!f) return DG_OK;
  char hash[32];
  snprintf(hash, sizeof hash, "%016" PRIx64, c->hash);
  char *line = NULL;
  size_t cap = 0;
  int replayed = 0;
  dg_status st = DG_OK;
  while (getline(&line, &cap, f) > 0) {
    cJSON *o = cJSON_Parse(line);
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(o, "hash");
    const cJSON *K = cJSON_GetObjectItemCaseSensitive(o, "K");
    const cJSON *sp = cJSON_GetObjectItemCaseSensitive(o, "spec");
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(o, "event");
    dg_variant v;
    if (!cJSON_IsString(h) || strcmp(h->valuestring, hash) || !cJSON_IsNumber(K) ||
        K->valuedouble != (double)c->r->K || !cJSON_IsString(sp) || !cJSON_IsString(ev) ||
        dg_variant_parse(sp->valuestring, &v) != DG_OK) {
      dg_error_clear();
      cJSON_Delete(o); /* a torn last line or another problem's line */
      continue;
    }
    int i;
    DG_CALL_GOTO(done, add_cand(c, &v, &i));
    dg_tune_candidate *k = &c->r->c[i];
    const char *e = ev->valuestring;
    if (!strcmp(e, "attempt")) {
      k->unfinished++; /* until an outcome line says otherwise */
    } else if (!strcmp(e, "failed") || !strcmp(e, "rejected")) {
      k->unfinished = 0;
      const cJSON *why = cJSON_GetObjectItemCaseSensitive(o, "reason");
      k->status = e[0] == 'f' ? DG_CAND_FAILED : DG_CAND_REJECTED;
      snprintf(k->reason, sizeof k->reason, "%s", cJSON_IsString(why) ? why->valuestring : "");
    } else if (!strcmp(e, "timed")) {
      k->unfinished = 0;
      const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "samples"), *x;
      const cJSON *stg = cJSON_GetObjectItemCaseSensitive(o, "stage");
      const cJSON *rd = cJSON_GetObjectItemCaseSensitive(o, "rel_diff");
      k->nsamples = 0;
      cJSON_ArrayForEach(x, s) if (cJSON_IsNumber(x) && k->nsamples < DG_TUNE_MAX_SAMPLES)
          k->samples[k->nsamples++] = x->valuedouble;
      if (k->nsamples) {
        k->status = DG_CAND_TIMED;
        k->reason[0] = '\0';
        k->stage = cJSON_IsNumber(stg) && stg->valuedouble >= 0 && stg->valuedouble <= 4
                       ? (int)stg->valuedouble : 0;
        k->rel_diff = cJSON_IsNumber(rd) ? rd->valuedouble : NAN;
        summarize(k);
        ++replayed;
      }
    }
    cJSON_Delete(o);
  }
  /* A variant in flight when an earlier run died gets one more try: the kill may have had
   * nothing to do with it. Twice unfinished, it is what kills the run. */
  int retried = 0;
  for (int i = 0; i < c->r->n; ++i) {
    dg_tune_candidate *k = &c->r->c[i];
    if (k->status != DG_CAND_PENDING || !k->unfinished) continue;
    if (k->unfinished == 1) {
      ++retried;
      continue;
    }
    k->status = DG_CAND_FAILED;
    snprintf(k->reason, sizeof k->reason,
             "did not finish in %d earlier runs (crashed, hung or was killed while building)",
             k->unfinished);
  }
  if ((replayed || retried) && c->opt->verbose)
    fprintf(c->log, "%s resuming: %d variants already timed, %d unfinished one%s tried again "
                    "(journal %s)\n", c->tag, replayed, retried, retried == 1 ? "" : "s",
            c->journal_path);
done:
  free(line);
  fclose(f);
  return st;
}

/* ---- verification ---------------------------------------------------------------------------- */

/* The first line of the current error message, for a one-line reason. */
static void error_reason(const char *prefix, char *buf, size_t cap) {
  const char *m = dg_error_message();
  const char *nl = strchr(m, '\n');
  const int len = nl ? (int)(nl - m) : (int)strlen(m);
  snprintf(buf, cap, "%s%.*s", prefix, len, m);
  dg_error_clear();
}

/* Verify ks[0..n) in the worker processes (tune/verify_pool.h: crash and hang isolation), as
 * many at once as the host has cores: building (the slow part: a compiler run per variant)
 * needs no quiet machine, unlike timing, which only starts once the batch is verified. */
static void verify_children(ctx_t *c, dg_tune_candidate **ks, int n, int *verdicts) {
  dg_verify_pool_run(c->opt->pool ? c->opt->pool : c->own_pool, c->r->N, ks, n, verdicts);
}

static dg_status verify_inproc(ctx_t *c, dg_tune_candidate *k, int *verdict) {
  double diff = NAN;
  int pass = 0;
  *verdict = -1;
  if (!c->small) DG_CALL(dg_tune_verify_case(&c->small, c->r->N, c->opt->pml_cells > 0));
  const dg_status st = dg_cl_verify_problem(c->dev, &k->v, c->small->phys,
                                            dg_tune_verify_seed(c->r->N),
                                            &diff, &pass);
  k->rel_diff = diff;
  if (st == DG_OK && pass) {
    *verdict = 1;
  } else if (st == DG_ERR_NUMERIC || (st == DG_OK && !pass)) {
    *verdict = 0;
    dg_error_clear();
    snprintf(k->reason, sizeof k->reason, "wrong result: relative L2 difference %.3e > %.0e",
             diff, dg_verify_tolerance(k->v.precision));
  } else if (st == DG_ERR_MEMORY) {
    return st;
  } else {
    error_reason("", k->reason, sizeof k->reason);
  }
  return DG_OK;
}

/* ---- timing ------------------------------------------------------------------------------- */

static void progress(ctx_t *c, const dg_tune_candidate *k) {
  if (!c->opt->verbose) return;
  const double t = elapsed(c);
  const int left = c->planned > c->done ? c->planned - c->done : 0;
  double eta = c->done ? t / c->done * left : 0;
  if (c->opt->budget_s > 0 && eta > c->opt->budget_s - t) eta = fmax(0, c->opt->budget_s - t);
  char what[64];
  if (k->status == DG_CAND_TIMED)
    snprintf(what, sizeof what, "%9.3f ms", k->median_ns * 1e-6);
  else
    snprintf(what, sizeof what, "%s", k->status == DG_CAND_REJECTED ? "REJECTED" : "FAILED");
  fprintf(c->log, "%s stage %d  %3d/%-3d  %5.0fs  eta %4.0fs  %s  %s%s%s\n", c->tag, c->stage,
          c->done, c->planned > c->done ? c->planned : c->done, t, eta, what, k->spec,
          k->status == DG_CAND_TIMED ? "" : ": ", k->status == DG_CAND_TIMED ? "" : k->reason);
  fflush(c->log);
}

/* Verify (unless retime) and time the candidates idx[0..n) in batches, interleaved. */
static dg_status evaluate(ctx_t *c, const int *idx, int n, int retime) {
  dg_status st = DG_OK;
  dg_cl_maxwell *ops[MAX_BATCH] = {NULL};
  int who[MAX_BATCH];
  double *q = NULL;
  const dg_geom *g = c->big->phys->geom;
  const size_t nq = 6 * (size_t)g->K * g->Np;
  DG_CALL(DG_ALLOC(q, nq));
  dg_verify_random_fields(0xf1e1d5ull, nq, q);
  int pos = 0;
  while (pos < n) {
    int live = 0;
    const double tb = dg_now_s();
    /* The next batch's candidates verified side by side first (see verify_children). */
    int pre_idx[MAX_BATCH], pre_verdict[MAX_BATCH], npre = 0;
    if (!retime && c->opt->child_exe) {
      dg_tune_candidate *ks[MAX_BATCH];
      for (int j = pos; j < n && npre < c->batch && npre < MAX_BATCH; ++j) {
        dg_tune_candidate *k = &c->r->c[idx[j]];
        if (k->status != DG_CAND_PENDING) continue;
        journal(c, k, "attempt");
        pre_idx[npre] = idx[j];
        ks[npre++] = k;
      }
      if (npre > 1 && budget_allows(c)) {
        const double tv = dg_now_s();
        verify_children(c, ks, npre, pre_verdict);
        c->cost_sum += dg_now_s() - tv;
      } else {
        npre = 0;
      }
    }
    /* Collect up to one batch of operators ready to time. */
    while (pos < n && live < c->batch) {
      dg_tune_candidate *k = &c->r->c[idx[pos]];
      if (retime ? k->status != DG_CAND_TIMED : k->status != DG_CAND_PENDING) {
        ++pos;
        continue;
      }
      if (!budget_allows(c)) {
        pos = n;
        break;
      }
      ++pos;
      const double tc = dg_now_s();
      if (!retime) {
        int verdict = -1, pre = -1;
        for (int j = 0; j < npre; ++j)
          if (pre_idx[j] == idx[pos - 1]) pre = j;
        if (pre >= 0) {
          verdict = pre_verdict[pre];
        } else if (c->opt->child_exe) {
          journal(c, k, "attempt");
          verify_children(c, &k, 1, &verdict);
        } else {
          journal(c, k, "attempt");
          DG_CALL_GOTO(done, verify_inproc(c, k, &verdict));
        }
        if (verdict != 1) {
          k->status = verdict == 0 ? DG_CAND_REJECTED : DG_CAND_FAILED;
          journal(c, k, verdict == 0 ? "rejected" : "failed");
          c->done++;
          progress(c, k);
          c->cost_sum += dg_now_s() - tc;
          c->cost_n++;
          continue;
        }
      }
      dg_cl_maxwell *op = NULL;
      dg_cl_stage_timing t;
      st = dg_cl_maxwell_create(&op, c->dev, c->big->phys, &k->v, NULL);
      if (st == DG_OK) st = dg_cl_maxwell_set_state(op, q);
      for (int w = 0; st == DG_OK && w < DG_TIMING_WARMUP; ++w) st = dg_cl_maxwell_time_stage(op, &t);
      if (st != DG_OK) {
        if (st == DG_ERR_MEMORY) goto done;
        error_reason("on the timing problem: ", k->reason, sizeof k->reason);
        dg_cl_maxwell_destroy(&op);
        st = DG_OK;
        k->status = DG_CAND_FAILED;
        journal(c, k, "failed");
        c->done++;
        progress(c, k);
        continue;
      }
      c->cost_sum += dg_now_s() - tc;
      c->cost_n++;
      ops[live] = op;
      who[live++] = idx[pos - 1];
    }
    if (!live) continue;
    /* Interleaved rounds: A B C A B C ... */
    double kn[MAX_BATCH][DG_CL_MAX_STAGE_KERNELS][DG_TUNE_MAX_SAMPLES];
    const int R = c->opt->repeats < 5 ? 5 : c->opt->repeats > DG_TUNE_MAX_SAMPLES ? DG_TUNE_MAX_SAMPLES : c->opt->repeats;
    for (int r = 0; r < R; ++r)
      for (int j = 0; j < live; ++j) {
        dg_cl_stage_timing t;
        dg_tune_candidate *k = &c->r->c[who[j]];
        DG_CALL_GOTO(done, dg_timing_sample(ops[j], &t));
        k->samples[r] = (double)t.total_ns;
        k->nk = t.n;
        for (int m = 0; m < t.n; ++m) {
          snprintf(k->kname[m], sizeof k->kname[m], "%s", t.name[m]);
          kn[j][m][r] = (double)t.ns[m];
        }
      }
    const double per = (dg_now_s() - tb) / live;
    for (int j = 0; j < live; ++j) {
      dg_tune_candidate *k = &c->r->c[who[j]];
      k->nsamples = R;
      summarize(k);
      for (int m = 0; m < k->nk; ++m) {
        double ks[3];
        dg_timing_stats(kn[j][m], R, ks);
        k->kernel_ns[m] = ks[0];
      }
      if (k->status != DG_CAND_TIMED) k->stage = c->stage;
      if (retime) k->in_final = 1;
      k->status = DG_CAND_TIMED;
      journal(c, k, "timed");
      c->done++;
      progress(c, k);
      dg_cl_maxwell_destroy(&ops[j]);
    }
    (void)per;
  }
done:
  for (int j = 0; j < MAX_BATCH; ++j) dg_cl_maxwell_destroy(&ops[j]);
  dg_free(&q);
  return st;
}

/* ---- the staged search ------------------------------------------------------------------- */

static int valid_on(const ctx_t *c, const dg_variant *v) {
  char why[128];
  return dg_variant_check(v, &c->dev->info, c->r->N, why, sizeof why);
}

static int timed_better(const dg_tune_candidate *a, const dg_tune_candidate *b) {
  return a->median_ns < b->median_ns;
}

/* Indices of timed candidates, fastest first. */
static int ranked(const ctx_t *c, int *out) {
  int n = 0;
  for (int i = 0; i < c->r->n; ++i)
    if (c->r->c[i].status == DG_CAND_TIMED) {
      int j = n++;
      while (j > 0 && timed_better(&c->r->c[i], &c->r->c[out[j - 1]])) {
        out[j] = out[j - 1];
        --j;
      }
      out[j] = i;
    }
  return n;
}

static int same_family(const dg_variant *a, const dg_variant *b) {
  if (a->path != b->path) return 0;
  if (a->path == DG_PATH_CLBLAST) return 1;
  return a->work == b->work && a->lift == b->lift && a->fuse == b->fuse;
}

/* Up to m distinct families (kernel path only), fastest first, as their best candidate. */
static int best_families(const ctx_t *c, int m, int *out) {
  int *rk = malloc(sizeof(int) * (size_t)(c->r->n ? c->r->n : 1));
  if (!rk) return 0;
  const int n = ranked(c, rk);
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
static dg_status push(ctx_t *c, const dg_variant *v, int *list, int *n) {
  if (!valid_on(c, v)) return DG_OK;
  int i;
  DG_CALL(add_cand(c, v, &i));
  for (int j = 0; j < *n; ++j)
    if (list[j] == i) return DG_OK;
  list[(*n)++] = i;
  return DG_OK;
}

static int pending_in(const ctx_t *c, const int *list, int n) {
  int p = 0;
  for (int i = 0; i < n; ++i) p += c->r->c[list[i]].status == DG_CAND_PENDING;
  return p;
}

static int model_order(ctx_t *c, int *list, int n);

static dg_status run_list(ctx_t *c, int stage, int *list, int n, int future) {
  c->stage = stage;
  if (stage > 0) n = model_order(c, list, n);
  c->planned = c->done + pending_in(c, list, n) + future;
  DG_CALL(evaluate(c, list, n, 0));
  return DG_OK;
}

static void anchors(ctx_t *c);

/* ---- the cost model in the search -------------------------------------------------------- */

/* Refit on what is known plus this search's timings (weighted up: they are this device, this
 * problem, now). */
static void model_refit(ctx_t *c) {
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
static void noise_and_error(const ctx_t *c, double *noise, double *err, int *nerr) {
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

static double best_timed_ns(const ctx_t *c) {
  double b = INFINITY;
  for (int i = 0; i < c->r->n; ++i)
    if (c->r->c[i].status == DG_CAND_TIMED && c->r->c[i].median_ns < b) b = c->r->c[i].median_ns;
  return b;
}

/* Order list by prediction (fastest first) and drop the pending candidates that, even as
 * much faster than predicted as the model has been wrong (1.5 x its median error, at least
 * 10%), would not beat the best measured time by more than the noise; a candidate with a
 * feature value the model has no data on is never dropped (the model knows nothing of it). Pruning starts once
 * the model has proved itself on 3 predictions, or at once when it was trained on data
 * from before this search. Returns the new count. */
static int model_order(ctx_t *c, int *list, int n) {
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
  noise_and_error(c, &noise, &err, &nerr);
  c->r->noise = noise;
  const double best = best_timed_ns(c);
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
  /* the fused right-hand side (fuse=rhs|res) with vector lanes (not on a GPU), and one
   * work-item per node (work=node: element_node.cl, the GPU form) */
  for (int w = gpu; w < 2; ++w)
    for (int fz = DG_FUSE_RHS; fz <= DG_FUSE_RES; ++fz) {
      dg_variant v = dg_variant_baseline(p);
      v.work = w ? DG_WORK_NODE : DG_WORK_VEC;
      v.vw = w ? 1 : widest_vec(p);
      v.kb = w ? dflt.kb : v.kb;
      v.unroll = dflt.unroll;
      v.fuse = (dg_fuse)fz;
      if (!dg_variant_check(&v, info, N, why, sizeof why)) v.kb = 1;
      if (dg_variant_check(&v, info, N, why, sizeof why)) out[n++] = v;
    }
  dg_variant blas = dg_variant_baseline(p);
  blas.path = DG_PATH_CLBLAST;
  if (dg_variant_check(&blas, info, N, why, sizeof why)) out[n++] = blas;
  return n;
}

static dg_status staged_search(ctx_t *c) {
  const dg_precision p = c->r->precision;
  const int N = c->r->N;
  int *list = NULL;
  dg_status st = DG_OK;
  const int maxl = 256;
  DG_CALL(DG_ALLOC(list, maxl));
  int n = 0;
  /* Stage 0: anchors. */
  dg_variant base = dg_variant_baseline(p);
  DG_CALL_GOTO(done, push(c, &base, list, &n));
  DG_CALL_GOTO(done, push(c, &c->dflt, list, &n));
  anchors(c);
  for (int i = 0; i < c->known.n_seeds; ++i) {
    dg_variant v;
    if (dg_variant_parse(c->known.seeds[i], &v) != DG_OK) {
      dg_error_clear();
      continue;
    }
    v.precision = p;
    const int before = n;
    DG_CALL_GOTO(done, push(c, &v, list, &n));
    if (n > before) {
      c->r->c[list[n - 1]].seed = 1;
      c->r->n_seeds++;
    }
  }
  DG_CALL_GOTO(done, run_list(c, 0, list, n, 10 + 2 * 8 + 2 * 16));
  /* Confirming a stored result: the stored winner still wins (within the noise) and has
   * not slowed down against the baseline: nothing more to search. */
  if (c->opt->confirm && c->known.self.n_rank && !c->known.self_stale) {
    const int w = find_cand(c->r, c->known.self.winner);
    const int b = c->r->baseline >= 0 ? c->r->baseline : -1;
    double noise, err;
    int nerr;
    noise_and_error(c, &noise, &err, &nerr);
    c->r->noise = noise;
    int held = w >= 0 && c->r->c[w].status == DG_CAND_TIMED &&
               c->r->c[w].median_ns <= best_timed_ns(c) * (1 + noise);
    if (held && b >= 0 && c->r->c[b].status == DG_CAND_TIMED && c->known.self.baseline_ns > 0) {
      const double then = c->known.self.median_ns / c->known.self.baseline_ns;
      const double now = c->r->c[w].median_ns / c->r->c[b].median_ns;
      held = now <= then * (1 + 2 * noise);
    }
    c->r->confirmed = held ? 1 : 2;
    if (c->log && c->opt->verbose)
      fprintf(c->log, "%s confirm: cached winner %s\n", c->tag,
              held ? "holds (within the noise): no search" : "regressed: searching again");
    if (held) goto done;
  }
  /* Stage 1: families with nothing in local memory. */
  n = 0;
  dg_variant s1[DG_TUNE_STAGE1_MAX];
  const int n1 = dg_tune_stage1_variants(&c->dev->info, N, p, s1);
  for (int i = 0; i < n1; ++i) DG_CALL_GOTO(done, push(c, &s1[i], list, &n));
  DG_CALL_GOTO(done, run_list(c, 1, list, n, 2 * 8 + 2 * 16));
  /* Stage 2: placements of the best families. */
  int fam[FAMILIES];
  int nf = best_families(c, FAMILIES, fam);
  n = 0;
  for (int f = 0; f < nf; ++f)
    for (int vp = 0; vp < 3; ++vp)
      for (int lp = 0; lp < 3; ++lp) {
        dg_variant v = c->r->c[fam[f]].v;
        v.vplace = (dg_place)vp;
        v.lplace = (dg_place)lp;
        DG_CALL_GOTO(done, push(c, &v, list, &n));
      }
  DG_CALL_GOTO(done, run_list(c, 2, list, n, 2 * 16));
  /* Stage 3: coordinate descent within the best families, each from its best placement.
   * Distinct kernel families, not placements: two placements of one family crowded out a
   * family whose other vector width won (N = 5, 6 float: fuse=rhs at vw=8). */
  nf = best_families(c, FAMILIES, fam);
  for (int f = 0; f < nf; ++f) {
    int best = fam[f];
    for (int dim = 0; dim < 7; ++dim) {
      n = 0;
      const dg_variant b = c->r->c[best].v;
      int vals[5], nv = 0;
      if (dim == 0) {
        if (b.work == DG_WORK_ELEM) vals[nv++] = 2, vals[nv++] = 4;
        if (b.work == DG_WORK_VEC) {
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
      for (int i = 0; i < nv; ++i) {
        dg_variant v = b;
        switch (dim) {
        case 0: v.vw = vals[i]; break;
        case 1: v.kb = vals[i]; break;
        case 2: v.lkb = vals[i]; break;
        case 3: v.unroll = vals[i]; break;
        case 4: v.literal = vals[i]; break;
        case 5: v.flux = (dg_flux_work)vals[i]; break;
        default: v.lnpw = vals[i]; break;
        }
        DG_CALL_GOTO(done, push(c, &v, list, &n));
      }
      const int future = (nf - f - 1) * 16 + (6 - dim) * 2;
      /* The vector width interacts with the family (fuse=res wants vw=4 in double on AVX2
       * where the split kernels want 8): the model has family x width factors, and a width
       * this family was never timed at is not covered, hence timed (model.c, features). */
      st = run_list(c, 3, list, n, future);
      if (st != DG_OK) goto done;
      for (int i = 0; i < n; ++i)
        if (c->r->c[list[i]].status == DG_CAND_TIMED &&
            timed_better(&c->r->c[list[i]], &c->r->c[best]))
          best = list[i];
      if (c->r->budget_hit) break;
    }
    if (c->r->budget_hit) break;
  }
done:
  dg_free(&list);
  return st;
}

/* Stage 4: the finalists, baseline and default, re-timed together. */
static dg_status final_round(ctx_t *c) {
  int *rk = NULL, list[FINALISTS + 2], n = 0;
  DG_CALL(DG_ALLOC(rk, c->r->n ? c->r->n : 1));
  const int nr = ranked(c, rk);
  for (int i = 0; i < nr && n < FINALISTS; ++i) list[n++] = rk[i];
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
  c->batch = n < MAX_BATCH ? n : MAX_BATCH; /* one batch: every ratio from one round */
  const dg_status st = evaluate(c, list, n, 1);
  c->batch = saved;
  return st;
}

/* ---- entry and result ---------------------------------------------------------------------- */

static dg_status make_entry(ctx_t *c) {
  dg_tune_result *r = c->r;
  dg_tune_entry *e = &r->entry;
  int *rk = NULL;
  DG_CALL(DG_ALLOC(rk, r->n ? r->n : 1));
  const int nr = ranked(c, rk);
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
  e->tune_seconds = elapsed(c);
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

/* The model's rank of the winner among the timed candidates and its prediction error, both
 * under the model as trained before this search (what was known); bucket and seeds into the
 * entry. */
static void model_report(ctx_t *c) {
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

/* A confirmed stored entry: the variants not re-timed keep their stored numbers after the
 * re-timed ones, so nothing measured is lost. */
static dg_status keep_untimed(ctx_t *c) {
  dg_tune_entry *e = &c->r->entry;
  const dg_tune_entry *old = &c->known.self;
  int add = 0;
  for (int i = 0; i < old->n_rank; ++i) add += find_cand(c->r, old->rank[i].spec) < 0;
  if (!add) return DG_OK;
  dg_tune_rank *nr = realloc(e->rank, sizeof *nr * (size_t)(e->n_rank + add));
  DG_CHECK(nr, DG_ERR_MEMORY, "tune: out of memory");
  e->rank = nr;
  for (int i = 0; i < old->n_rank; ++i)
    if (find_cand(c->r, old->rank[i].spec) < 0) e->rank[e->n_rank++] = old->rank[i];
  return DG_OK;
}

/* A result that reports a cached entry (nothing timed now). */
static dg_status result_from_entry(ctx_t *c, const dg_tune_entry *e) {
  dg_tune_result *r = c->r;
  r->from_cache = 1;
  for (int i = 0; i < e->n_rank; ++i) {
    dg_variant v;
    if (dg_variant_parse(e->rank[i].spec, &v) != DG_OK) {
      dg_error_clear();
      continue;
    }
    int j;
    DG_CALL(add_cand(c, &v, &j));
    dg_tune_candidate *k = &r->c[j];
    k->status = DG_CAND_TIMED;
    k->median_ns = e->rank[i].median_ns;
    k->min_ns = e->rank[i].min_ns;
    k->max_ns = e->rank[i].max_ns;
    k->stage = e->rank[i].stage;
    k->in_final = k->stage == 4;
  }
  for (int i = 0; i < e->n_reject; ++i) {
    dg_variant v;
    if (dg_variant_parse(e->reject[i].spec, &v) != DG_OK) {
      dg_error_clear();
      continue;
    }
    int j;
    DG_CALL(add_cand(c, &v, &j));
    r->c[j].status = DG_CAND_FAILED;
    snprintf(r->c[j].reason, sizeof r->c[j].reason, "%s", e->reject[i].reason);
  }
  r->winner = find_cand(r, e->winner);
  r->K = e->K;
  r->counts = dg_count_stage(r->N, r->precision, e->K);
  r->entry = *e;
  r->entry.rank = NULL;
  r->entry.reject = NULL;
  r->entry.n_rank = r->entry.n_reject = 0;
  return DG_OK;
}

static void anchors(ctx_t *c) {
  char spec[DG_VARIANT_SPEC_MAX];
  dg_variant b = dg_variant_baseline(c->r->precision);
  c->r->baseline = find_cand(c->r, dg_variant_print(&b, spec, sizeof spec));
  c->r->dflt = find_cand(c->r, dg_variant_print(&c->dflt, spec, sizeof spec));
}

/* ---- one tune per device ------------------------------------------------------------------ */

/* Takes the device's tuning lock: *fd (close it to release; -1 if the lock file cannot be
 * made, which is not an error: tuning goes on unlocked); *waited 1 if another process held it. */
static dg_status tune_lock(const dg_tune_options *opt, const dg_device_info *info, FILE *log,
                           const char *tag, int *fd, int *waited) {
  *fd = -1;
  *waited = 0;
  char slug[128], dir[DG_TUNE_PATH + 16], path[DG_TUNE_PATH + 256];
  dg_device_key key;
  dg_device_key_from_info(info, &key);
  dg_device_slug(info->name, slug, sizeof slug);
  snprintf(dir, sizeof dir, "%s/locks", opt->paths.cache_dir);
  if (dg_mkdir_p(dir) != DG_OK) {
    dg_error_clear();
    return DG_OK;
  }
  snprintf(path, sizeof path, "%s/%s-%08" PRIx32 ".lock", dir, slug,
           (uint32_t)dg_device_key_hash(&key));
  /* Close-on-exec: a verification child must not inherit (and so keep) the lock. */
  const int f = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (f < 0) return DG_OK;
  const double t0 = dg_now_s();
  while (flock(f, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno != EWOULDBLOCK) { /* no locking on this file system: go on unlocked */
      close(f);
      return DG_OK;
    }
    char holder[32] = "";
    const ssize_t n = pread(f, holder, sizeof holder - 1, 0);
    holder[n > 0 ? n : 0] = '\0';
    holder[strcspn(holder, "\n")] = '\0';
    if (opt->lock_wait_s == 0 || (opt->lock_wait_s > 0 && dg_now_s() - t0 > opt->lock_wait_s)) {
      close(f);
      return DG_ERROR(DG_ERR_INPUT,
                      "device '%s' is being tuned by another process (pid %s, lock %s)%s: "
                      "timings taken at the same time would measure each other's load; "
                      "run again when it has finished",
                      info->name, holder[0] ? holder : "unknown", path,
                      opt->lock_wait_s > 0 ? " for longer than the wait allowed" : "");
    }
    if (!*waited) {
      if (opt->verbose && log)
        fprintf(log, "%s waiting: device '%s' is being tuned by another process (pid %s, lock %s)\n",
                tag, info->name, holder[0] ? holder : "unknown", path);
      else
        dg_note("waiting: device '%s' is being tuned by another process (pid %s, lock %s)",
                info->name, holder[0] ? holder : "unknown", path);
    }
    *waited = 1;
    const struct timespec pause = {0, 200000000L};
    nanosleep(&pause, NULL);
  }
  char pid[32];
  const int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
  if (ftruncate(f, 0) == 0 && pwrite(f, pid, (size_t)len, 0) < 0) {
    /* the pid is only for messages */
  }
  *fd = f;
  return DG_OK;
}

dg_status dg_tune_order(dg_device *dev, int N, dg_precision p, const dg_tune_options *opt,
                        const dg_device_limits *limits, dg_tune_result *out) {
  dg_status st = DG_OK;
  int lock_fd = -1;
  ctx_t c;
  memset(&c, 0, sizeof c);
  memset(out, 0, sizeof *out);
  out->N = N;
  out->precision = p;
  out->bucket = opt->bucket;
  out->winner = out->baseline = out->dflt = -1;
  /* Progress only to the caller's log: without one the search is silent. */
  dg_tune_options silent;
  if (!opt->log && opt->verbose) {
    silent = *opt;
    silent.verbose = 0;
    opt = &silent;
  }
  c.dev = dev;
  c.opt = opt;
  c.r = out;
  c.log = opt->log;
  c.t0 = dg_now_s();
  c.dflt = dg_variant_default(&dev->info, N, p);
  snprintf(c.tag, sizeof c.tag, "[N=%d %s]", N, dg_precision_name(p));
  dg_device_key_from_info(&dev->info, &out->key);
  if (limits) {
    out->limits = *limits;
    out->have_limits = 1;
  }
  DG_CHECK(N >= 1 && N <= 15, DG_ERR_INPUT, "tune: order N=%d out of range 1..15", N);
  DG_CHECK(p == DG_PREC_FLOAT || dev->info.has_fp64, DG_ERR_UNSUPPORTED,
           "tune: device '%s' has no double precision (cl_khr_fp64)", dev->info.name);
  DG_CALL(dg_codegen_templates_hash(NULL, &c.hash));
  {
    dg_variant *valid = NULL;
    DG_CALL(dg_variant_enumerate(&dev->info, N, p, &valid, &out->n_valid, &out->pruned,
                                 &out->n_pruned));
    dg_free(&valid);
  }
  dg_tune_cache_file(opt->paths.cache_dir, dev->info.name, out->cache_path, sizeof out->cache_path);

  /* A fresh cached entry is the answer unless forced. On a miss, take the device's lock;
   * after waiting for another tune, look again: it may have produced the answer. */
  for (int pass = 0; pass < 2; ++pass) {
    if (!opt->force && !opt->specs && !opt->pml_cells) {
      dg_tune_file f;
      int exists = 0;
      if (dg_tune_file_read(out->cache_path, &f, &exists, NULL) != DG_OK) {
        snprintf(out->note, sizeof out->note, "warning: %s; re-tuning", dg_error_message());
        dg_error_clear();
      } else {
        for (int i = 0; i < f.n && !out->from_cache; ++i) {
          if (!dg_device_key_equal(&f.devices[i].key, &out->key)) continue;
          for (int j = 0; j < f.devices[i].n; ++j) {
            dg_tune_entry *e = &f.devices[i].entries[j];
            if (e->N != N || e->precision != p || e->bucket != opt->bucket) continue;
            if (!dg_tune_entry_fresh(e, c.hash)) {
              snprintf(out->note, sizeof out->note,
                       "cached result in %s is stale (templates changed): re-tuning", out->cache_path);
              continue;
            }
            if (opt->confirm) break; /* re-timed below */
            st = result_from_entry(&c, e);
            break;
          }
        }
        dg_tune_file_free(&f);
        if (st != DG_OK) goto done;
        if (out->from_cache) {
          anchors(&c);
          out->seconds = elapsed(&c);
          goto done;
        }
      }
    }
    if (pass == 0) {
      int waited = 0;
      DG_CALL_GOTO(done, tune_lock(opt, &dev->info, c.log, c.tag, &lock_fd, &waited));
      if (!waited) break;
    }
  }

  if (opt->child_exe && !opt->pool) /* its workers start when first needed */
    DG_CALL_GOTO(done, dg_verify_pool_create(&c.own_pool, opt->child_exe, &dev->info,
                                             opt->pml_cells > 0, opt->child_timeout_s, 0));

  /* What is known: this device's stored measurements (a stale entry's ranking seeds the
   * search, a fresh one's is confirmed), else the winners of the nearest known devices; all
   * of it trains the cost model. */
  out->bucket = opt->bucket;
  if (!opt->specs) {
    DG_CALL_GOTO(done, dg_known_collect(&opt->paths, &dev->info, N, p, (dg_bucket)opt->bucket,
                                        c.hash, &c.known));
    if (!opt->use_known) { /* only this device's own measurements */
      int m = 0;
      for (int i = 0; i < c.known.n; ++i)
        if (c.known.s[i].w >= 1) c.known.s[m++] = c.known.s[i];
      c.known.n = m;
      c.known.n_seeds = 0;
      c.known.seed_from[0] = '\0';
      c.known.have_other_limits = 0;
    }
    if (opt->force) { /* start over: no stored result of this device seeds it */
      dg_tune_entry_free(&c.known.self);
      memset(&c.known.self, 0, sizeof c.known.self);
    }
    /* This device's neighbouring orders, when it has measured some, are the seeds: the
     * likeliest winners here. Other devices' winners then only train the model: on this
     * project's AVX2 PoCL device the AVX-512 file's top three were 1.1-3.0x slower than the
     * search's best in 32 of 33 later (N, precision) of three sweeps (docs/TUNING.md). */
    if (c.known.n_own_seeds && !c.known.self.n_rank) {
      memcpy(c.known.seeds, c.known.own_seeds,
             sizeof c.known.own_seeds[0] * (size_t)c.known.n_own_seeds);
      c.known.n_seeds = c.known.n_own_seeds;
      snprintf(c.known.seed_from, sizeof c.known.seed_from,
               "%.240s (this device's neighbouring orders)", out->cache_path);
    }
    if (c.known.self.n_rank) {
      c.known.n_seeds = 0;
      for (int i = 0; i < c.known.self.n_rank && c.known.n_seeds < FINALISTS; ++i)
        snprintf(c.known.seeds[c.known.n_seeds++], DG_VARIANT_SPEC_MAX, "%s",
                 c.known.self.rank[i].spec);
      snprintf(c.known.seed_from, sizeof c.known.seed_from, "%.240s (this device, %s)",
               out->cache_path, c.known.self_stale ? "stale entry" : "stored ranking");
    }
    snprintf(out->seeded_from, sizeof out->seeded_from, "%s", c.known.seed_from);
    const dg_device_limits *ml = limits                     ? limits
                                 : c.known.have_self_limits ? &c.known.self_limits
                                 : c.known.have_other_limits ? &c.known.other_limits
                                                             : NULL;
    dg_model_init(&c.model, &dev->info, ml);
    c.trained_prior = c.known.n > 0;
    for (int i = 0; i < c.known.n; ++i) c.own_prior |= c.known.s[i].w >= 1;
    c.model_on = opt->use_model;
  }

  /* The timing problem. */
  const double dofs = opt->target_dofs > 0 ? opt->target_dofs
                                           : dg_bucket_target_dofs(&dev->info, N, p,
                                                                   (dg_bucket)opt->bucket);
  DG_CALL_GOTO(done, dg_verify_case_create_pml(&c.big, N, dg_tune_box_n(dofs, N), opt->pml_cells));
  out->K = c.big->mesh->K;
  out->pml_cells = opt->pml_cells;
  out->pml_K = c.big->phys->pml_K;
  out->counts = dg_count_stage(N, p, out->K);
  {
    const double rs = p == DG_PREC_DOUBLE ? 8 : 4;
    const double per_op = 16 * rs * out->counts.dofs * 1.25;
    const double fit = (double)dev->info.global_mem_size / 2 / per_op;
    c.batch = fit < 1 ? 1 : fit > MAX_BATCH ? MAX_BATCH : (int)fit;
  }

  /* Journal: resume an interrupted run of the same problem. */
  {
    char slug[128], dir[DG_TUNE_PATH + 16];
    dg_device_slug(dev->info.name, slug, sizeof slug);
    snprintf(dir, sizeof dir, "%s/journal", opt->paths.cache_dir);
    DG_CALL_GOTO(done, dg_mkdir_p(dir));
    char pml[32] = "";
    if (opt->pml_cells) snprintf(pml, sizeof pml, "-pml%d", opt->pml_cells);
    snprintf(c.journal_path, sizeof c.journal_path, "%s/%s-%08" PRIx32 "-N%d-%s%s%s.jsonl", dir,
             slug, (uint32_t)dg_device_key_hash(&out->key), N, dg_precision_name(p),
             opt->specs ? "-list" : "", pml);
    if (!opt->force) DG_CALL_GOTO(done, journal_replay(&c));
    c.journal = fopen(c.journal_path, opt->force ? "w" : "a");
    if (!c.journal && opt->verbose)
      fprintf(c.log, "%s warning: cannot write journal %s: %s (no resume)\n", c.tag,
              c.journal_path, strerror(errno));
  }
  if (opt->verbose)
    fprintf(c.log, "%s %d valid variants (%d pruned); timing problem K=%ld elements, %.3g DOFs; "
                   "budget %s\n",
            c.tag, out->n_valid, out->n_pruned, out->K, out->counts.dofs,
            opt->budget_s > 0 ? "limited" : "none");
  if (opt->verbose && opt->pml_cells)
    fprintf(c.log, "%s PML case: %d cells of CFS-PML around the box, %ld PML elements; every "
                   "candidate verified with the PML terms; the winner is not cached\n",
            c.tag, opt->pml_cells, out->pml_K);

  if (opt->specs) {
    int *list = NULL, n = 0;
    DG_CALL_GOTO(done, DG_ALLOC(list, opt->n_specs + 2));
    for (int i = 0; i < opt->n_specs && st == DG_OK; ++i) {
      dg_variant v;
      st = dg_variant_parse(opt->specs[i], &v);
      if (st == DG_OK) {
        v.precision = p;
        int j;
        st = add_cand(&c, &v, &j);
        int seen = 0; /* the same variant given twice (other spellings too) is timed once */
        for (int k = 0; st == DG_OK && k < n; ++k) seen |= list[k] == j;
        if (st == DG_OK && !seen) list[n++] = j;
      }
    }
    if (st == DG_OK) st = run_list(&c, 1, list, n, 0);
    dg_free(&list);
    if (st != DG_OK) goto done;
  } else {
    DG_CALL_GOTO(done, staged_search(&c));
  }
  anchors(&c);
  DG_CALL_GOTO(done, final_round(&c));
  anchors(&c);
  DG_CALL_GOTO(done, make_entry(&c));
  model_report(&c);
  if (out->confirmed == 1) DG_CALL_GOTO(done, keep_untimed(&c));
  out->seconds = elapsed(&c);
  out->entry.tune_seconds = out->seconds;
  /* A PML timing problem's winner is not the plain problem's: never in its cache slot. */
  const int store = opt->write_cache && !opt->pml_cells;
  if (out->winner >= 0 && store) {
    char note[2400];
    /* Limits measured under contention came out low: never cache them. */
    const dg_device_limits *keep = limits && !limits->contended ? limits : NULL;
    DG_CALL_GOTO(done, dg_tune_cache_store(out->cache_path, &out->key, keep, &out->entry, note,
                                           sizeof note));
    if (note[0]) snprintf(out->note, sizeof out->note, "warning: %s", note);
  }
  /* The result is safely in the cache: the journal has served its purpose. */
  if (c.journal && out->winner >= 0 && (store || opt->pml_cells)) {
    fclose(c.journal);
    c.journal = NULL;
    remove(c.journal_path);
  }
done:
  dg_known_free(&c.known);
  if (c.journal) fclose(c.journal);
  if (lock_fd >= 0) close(lock_fd);
  dg_verify_pool_destroy(&c.own_pool);
  dg_verify_case_destroy(&c.small);
  dg_verify_case_destroy(&c.big);
  return st;
}

void dg_tune_result_free(dg_tune_result *r) {
  if (!r) return;
  dg_free(&r->pruned);
  free(r->c);
  r->c = NULL;
  r->n = 0;
  dg_tune_entry_free(&r->entry);
}

dg_status dg_tune_device_limits(dg_device *dev, const dg_tune_options *opt, dg_device_limits *out,
                                int *measured) {
  char path[DG_TUNE_PATH + 64];
  dg_device_key key;
  dg_device_key_from_info(&dev->info, &key);
  dg_tune_cache_file(opt->paths.cache_dir, dev->info.name, path, sizeof path);
  *measured = 0;
  if (!opt->force && dg_tune_cache_limits(path, &key, out)) {
    out->others_busy = -1;
    out->contended = 0;
    return DG_OK;
  }
  int fd = -1, waited = 0;
  DG_CALL(tune_lock(opt, &dev->info, opt->log, "[limits]", &fd, &waited));
  if (waited && !opt->force && dg_tune_cache_limits(path, &key, out)) {
    close(fd); /* the other process measured them meanwhile */
    out->others_busy = -1;
    out->contended = 0;
    return DG_OK;
  }
  dg_host_sample a, b;
  dg_host_sample_take(&a);
  dg_status st = dg_limits_measure(dev, opt->limits_gemm, out);
  dg_host_sample_take(&b);
  if (st == DG_OK) {
    *measured = 1;
    out->others_busy = dg_host_others_busy(&a, &b);
    const int cpu = !(dev->info.type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR));
    out->contended = cpu && out->others_busy > opt->contention_max;
    if (!out->contended) st = dg_tune_cache_store(path, &key, out, NULL, NULL, 0);
  }
  if (fd >= 0) close(fd);
  DG_CALL(st);
  return DG_OK;
}

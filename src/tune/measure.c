/* Verifying and timing a list of candidates, in batches timed in interleaved rounds. */
#include <math.h>
#include <string.h>

#include "backend/verify.h"
#include "core/alloc.h"
#include "core/clock.h"
#include "tune/timing.h"
#include "tune/tune_ctx.h"
#include "tune/verify_pool.h"

static const double RESERVE = 0.15; /* budget share kept for stage 4 */

/* Should stages 1-3 start one more candidate? */
static int budget_allows(tune_ctx *c) {
  const double b = c->opt->budget_s;
  if (b <= 0 || c->stage == 0) return 1;
  const double avg = c->cost_n ? c->cost_sum / c->cost_n : 5.0;
  if (c->stage < 4 && tune_elapsed(c) + avg > (1 - RESERVE) * b) {
    c->r->budget_hit = 1;
    return 0;
  }
  if (c->stage == 4 && tune_elapsed(c) > b + avg * TUNE_FINALISTS) { /* runaway guard only */
    c->r->budget_hit = 1;
    return 0;
  }
  return 1;
}

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
static void verify_children(tune_ctx *c, dg_tune_candidate **ks, int n, int *verdicts) {
  dg_verify_pool_run(c->opt->pool ? c->opt->pool : c->own_pool, c->r->N, ks, n, verdicts);
}

static dg_status verify_inproc(tune_ctx *c, dg_tune_candidate *k, int *verdict) {
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

static void progress(tune_ctx *c, const dg_tune_candidate *k) {
  if (!c->opt->verbose) return;
  const double t = tune_elapsed(c);
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

/* One batch: the candidates verified ahead of it side by side, and its operators. */
typedef struct {
  int npre;                             /* verified ahead: */
  int pre_idx[TUNE_MAX_BATCH];          /* ... their candidates */
  int pre_verdict[TUNE_MAX_BATCH];      /* ... and verdicts (verify_pool.h) */
  int live;                             /* operators ready to time: */
  dg_cl_maxwell *ops[TUNE_MAX_BATCH];
  int who[TUNE_MAX_BATCH];              /* ... their candidates */
  double kn[TUNE_MAX_BATCH][DG_CL_MAX_STAGE_KERNELS][DG_TUNE_MAX_SAMPLES]; /* kernel times */
} batch;

/* The pending candidates of the next batch (from idx[pos]) verified side by side first (see
 * verify_children); not worth it for one. */
static void verify_ahead(tune_ctx *c, const int *idx, int pos, int n, batch *b) {
  b->npre = 0;
  dg_tune_candidate *ks[TUNE_MAX_BATCH];
  for (int j = pos; j < n && b->npre < c->batch && b->npre < TUNE_MAX_BATCH; ++j) {
    dg_tune_candidate *k = &c->r->c[idx[j]];
    if (k->status != DG_CAND_PENDING) continue;
    tune_journal(c, k, "attempt");
    b->pre_idx[b->npre] = idx[j];
    ks[b->npre++] = k;
  }
  if (b->npre > 1 && budget_allows(c)) {
    const double tv = dg_now_s();
    verify_children(c, ks, b->npre, b->pre_verdict);
    c->cost_sum += dg_now_s() - tv;
  } else {
    b->npre = 0;
  }
}

/* The verdict on candidate i: verified ahead, else now (1 passed, 0 wrong, -1 failed). */
static dg_status verify(tune_ctx *c, const batch *b, int i, int *verdict) {
  dg_tune_candidate *k = &c->r->c[i];
  int pre = -1;
  for (int j = 0; j < b->npre; ++j)
    if (b->pre_idx[j] == i) pre = j;
  *verdict = -1;
  if (pre >= 0) {
    *verdict = b->pre_verdict[pre];
    return DG_OK;
  }
  tune_journal(c, k, "attempt");
  if (c->opt->child_exe)
    verify_children(c, &k, 1, verdict);
  else
    DG_CALL(verify_inproc(c, k, verdict));
  return DG_OK;
}

/* k is out: status, journal and progress. */
static void drop(tune_ctx *c, dg_tune_candidate *k, dg_cand_status status) {
  k->status = status;
  tune_journal(c, k, status == DG_CAND_REJECTED ? "rejected" : "failed");
  c->done++;
  progress(c, k);
}

/* k's operator on the timing problem with the state q, warmed up; NULL (reason in k) when
 * it cannot be made or run there. Only running out of memory is an error. */
static dg_status make_operator(tune_ctx *c, dg_tune_candidate *k, const double *q,
                               dg_cl_maxwell **out) {
  dg_cl_maxwell *op = NULL;
  dg_cl_stage_timing t;
  dg_status st = dg_cl_maxwell_create(&op, c->dev, c->big->phys, &k->v, NULL);
  if (st == DG_OK) st = dg_cl_maxwell_set_state(op, q);
  for (int w = 0; st == DG_OK && w < DG_TIMING_WARMUP; ++w) st = dg_cl_maxwell_time_stage(op, &t);
  if (st == DG_ERR_MEMORY) {
    *out = op; /* the caller destroys it */
    return st;
  }
  if (st != DG_OK) {
    error_reason("on the timing problem: ", k->reason, sizeof k->reason);
    dg_cl_maxwell_destroy(&op);
  }
  *out = op;
  return DG_OK;
}

/* Up to one batch of operators ready to time, from idx[*pos] on: each candidate verified
 * (unless retime) and its operator made; those that fail are dropped. */
static dg_status collect(tune_ctx *c, const int *idx, int n, int *pos, int retime,
                         const double *q, batch *b) {
  b->live = 0;
  while (*pos < n && b->live < c->batch) {
    dg_tune_candidate *k = &c->r->c[idx[*pos]];
    if (retime ? k->status != DG_CAND_TIMED : k->status != DG_CAND_PENDING) {
      ++*pos;
      continue;
    }
    if (!budget_allows(c)) {
      *pos = n;
      break;
    }
    const int i = idx[(*pos)++];
    const double tc = dg_now_s();
    if (!retime) {
      int verdict;
      DG_CALL(verify(c, b, i, &verdict));
      if (verdict != 1) {
        drop(c, k, verdict == 0 ? DG_CAND_REJECTED : DG_CAND_FAILED);
        c->cost_sum += dg_now_s() - tc;
        c->cost_n++;
        continue;
      }
    }
    DG_CALL(make_operator(c, k, q, &b->ops[b->live]));
    if (!b->ops[b->live]) {
      drop(c, k, DG_CAND_FAILED);
      continue;
    }
    c->cost_sum += dg_now_s() - tc;
    c->cost_n++;
    b->who[b->live++] = i;
  }
  return DG_OK;
}

/* R interleaved rounds over the batch: A B C A B C ... */
static dg_status time_rounds(tune_ctx *c, batch *b, int R) {
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < b->live; ++j) {
      dg_cl_stage_timing t;
      dg_tune_candidate *k = &c->r->c[b->who[j]];
      DG_CALL(dg_timing_sample(b->ops[j], &t));
      k->samples[r] = (double)t.total_ns;
      k->nk = t.n;
      for (int m = 0; m < t.n; ++m) {
        snprintf(k->kname[m], sizeof k->kname[m], "%s", t.name[m]);
        b->kn[j][m][r] = (double)t.ns[m];
      }
    }
  return DG_OK;
}

/* The batch's figures into its candidates; its operators destroyed. */
static void record(tune_ctx *c, batch *b, int R, int retime) {
  for (int j = 0; j < b->live; ++j) {
    dg_tune_candidate *k = &c->r->c[b->who[j]];
    k->nsamples = R;
    tune_summarize(k);
    for (int m = 0; m < k->nk; ++m) {
      double ks[3];
      dg_timing_stats(b->kn[j][m], R, ks);
      k->kernel_ns[m] = ks[0];
    }
    if (k->status != DG_CAND_TIMED) k->stage = c->stage;
    if (retime) k->in_final = 1;
    k->status = DG_CAND_TIMED;
    tune_journal(c, k, "timed");
    c->done++;
    progress(c, k);
    dg_cl_maxwell_destroy(&b->ops[j]);
  }
}

/* Verify (unless retime) and time the candidates idx[0..n) in batches, interleaved. */
dg_status tune_evaluate(tune_ctx *c, const int *idx, int n, int retime) {
  dg_status st = DG_OK;
  batch b;
  memset(b.ops, 0, sizeof b.ops);
  double *q = NULL;
  const dg_geom *g = c->big->phys->geom;
  const size_t nq = 6 * (size_t)g->K * g->Np;
  DG_CALL(DG_ALLOC(q, nq));
  dg_verify_random_fields(0xf1e1d5ull, nq, q);
  const int R = c->opt->repeats < 5                     ? 5
                : c->opt->repeats > DG_TUNE_MAX_SAMPLES ? DG_TUNE_MAX_SAMPLES
                                                        : c->opt->repeats;
  int pos = 0;
  while (pos < n) {
    b.npre = 0;
    if (!retime && c->opt->child_exe) verify_ahead(c, idx, pos, n, &b);
    DG_CALL_GOTO(done, collect(c, idx, n, &pos, retime, q, &b));
    if (!b.live) continue;
    DG_CALL_GOTO(done, time_rounds(c, &b, R));
    record(c, &b, R, retime);
  }
done:
  for (int j = 0; j < TUNE_MAX_BATCH; ++j) dg_cl_maxwell_destroy(&b.ops[j]);
  dg_free(&q);
  return st;
}

/* The state of one tune (dg_tune_order) shared by the files that carry it out; private to
 * src/tune. Calls go one way: tune.c -> search.c -> measure.c -> journal.c, search.c ->
 * search_model.c, tune.c -> result.c and lock.c, and all of them -> candidates.c. */
#ifndef DG_TUNE_TUNE_CTX_H
#define DG_TUNE_TUNE_CTX_H

#include <stdint.h>
#include <stdio.h>

#include "backend/verify.h"
#include "core/clock.h"
#include "tune/model.h"
#include "tune/tune.h"
#include "tune/verify_pool.h"

enum {
  TUNE_FINALISTS = 4, /* variants re-timed in stage 4 besides baseline and default */
  TUNE_MAX_BATCH = 12 /* operators alive at once */
};

typedef struct {
  dg_device *dev;
  const dg_tune_options *opt; /* the caller's, or silent */
  dg_tune_options silent;     /* the caller's without progress lines (it gave no log) */
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
  int lock_fd;           /* the device's tuning lock (-1: not held) */
} tune_ctx;

static inline double tune_elapsed(const tune_ctx *c) { return dg_now_s() - c->t0; }

/* ---- the candidate list (candidates.c) ----------------------------------------------------- */

/* Index of the candidate printed as spec, -1 if none. */
int tune_find_cand(const dg_tune_result *r, const char *spec);
/* Index of v's candidate (added if new). */
dg_status tune_add_cand(tune_ctx *c, const dg_variant *v, int *idx) DG_NODISCARD;
/* Median, min and max of k's samples. */
void tune_summarize(dg_tune_candidate *k);
/* 1 if a was measured faster than b. */
int tune_timed_better(const dg_tune_candidate *a, const dg_tune_candidate *b);
/* Indices of timed candidates, fastest first, into out; returns their number. */
int tune_ranked(const tune_ctx *c, int *out);
/* The best median time measured so far (INFINITY if none). */
double tune_best_timed_ns(const tune_ctx *c);
/* The result's baseline and default indices. */
void tune_anchors(tune_ctx *c);

/* ---- the journal (journal.c) ---------------------------------------------------------------- */

/* One line for k ("attempt", "timed", "failed", "rejected"), flushed to disk. */
void tune_journal(tune_ctx *c, const dg_tune_candidate *k, const char *event);
/* The journal of this problem: earlier results from an interrupted run read back (unless
 * forced), then open for appending (c->journal NULL if it cannot be written). */
dg_status tune_journal_open(tune_ctx *c) DG_NODISCARD;
/* Closes and removes the journal (the result is safe in the cache). */
void tune_journal_remove(tune_ctx *c);

/* ---- verifying and timing (measure.c) ------------------------------------------------------- */

/* Verify (unless retime) and time the candidates idx[0..n) in batches, interleaved. */
dg_status tune_evaluate(tune_ctx *c, const int *idx, int n, int retime) DG_NODISCARD;

/* ---- the cost model in the search (search_model.c) ------------------------------------------ */

/* Orders list by the model's prediction and drops what cannot win; returns the new count. */
int tune_model_order(tune_ctx *c, int *list, int n);
/* The timing noise and the model's error measured in this search (nerr: predictions checked). */
void tune_noise_and_error(const tune_ctx *c, double *noise, double *err, int *nerr);
/* The model's rank of the winner and its prediction error, into the result and entry. */
void tune_model_report(tune_ctx *c);

/* ---- the staged search (search.c) ----------------------------------------------------------- */

/* Times the explicit list of options.specs instead of searching. */
dg_status tune_run_specs(tune_ctx *c) DG_NODISCARD;
/* Stages 0-3 (tune/tune.h). */
dg_status tune_staged_search(tune_ctx *c) DG_NODISCARD;
/* Stage 4: the finalists, baseline and default re-timed together. */
dg_status tune_final_round(tune_ctx *c) DG_NODISCARD;

/* ---- the result (result.c) ------------------------------------------------------------------ */

/* The winner and the cache entry of what was timed. */
dg_status tune_make_entry(tune_ctx *c) DG_NODISCARD;
/* A confirmed entry keeps the stored numbers of the variants not re-timed. */
dg_status tune_keep_untimed(tune_ctx *c) DG_NODISCARD;
/* The result of a cached entry (nothing timed now). */
dg_status tune_result_from_entry(tune_ctx *c, const dg_tune_entry *e) DG_NODISCARD;

/* ---- the device's lock (lock.c) ------------------------------------------------------------- */

/* Takes the device's tuning lock into *fd (-1: none, tuning goes on unlocked). */
dg_status tune_lock(const dg_tune_options *opt, const dg_device_info *info, FILE *log,
                    const char *tag, int *fd, int *waited) DG_NODISCARD;

#endif

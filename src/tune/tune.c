/* dg_tune_order: one tune of an order and precision on a device, as a sequence of steps;
 * the device limits, cached or measured. */
#include <string.h>
#include <unistd.h>

#include "codegen/codegen.h"
#include "core/alloc.h"
#include "core/clock.h"
#include "tune/tune_ctx.h"
#include "tune/verify_pool.h"

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

/* The result and the context of a tune of (N, p) on dev, and the checks before it. */
static dg_status start(tune_ctx *c, dg_device *dev, int N, dg_precision p,
                       const dg_tune_options *opt, const dg_device_limits *limits,
                       dg_tune_result *out) {
  memset(c, 0, sizeof *c);
  memset(out, 0, sizeof *out);
  c->lock_fd = -1;
  out->N = N;
  out->precision = p;
  out->bucket = opt->bucket;
  out->winner = out->baseline = out->dflt = -1;
  /* Progress only to the caller's log: without one the search is silent. */
  if (!opt->log && opt->verbose) {
    c->silent = *opt;
    c->silent.verbose = 0;
    opt = &c->silent;
  }
  c->dev = dev;
  c->opt = opt;
  c->r = out;
  c->log = opt->log;
  c->t0 = dg_now_s();
  c->dflt = dg_variant_default(&dev->info, N, p);
  snprintf(c->tag, sizeof c->tag, "[N=%d %s]", N, dg_precision_name(p));
  dg_device_key_from_info(&dev->info, &out->key);
  if (limits) {
    out->limits = *limits;
    out->have_limits = 1;
  }
  DG_CHECK(N >= 1 && N <= 15, DG_ERR_INPUT, "tune: order N=%d out of range 1..15", N);
  DG_CHECK(p == DG_PREC_FLOAT || dev->info.has_fp64, DG_ERR_UNSUPPORTED,
           "tune: device '%s' has no double precision (cl_khr_fp64)", dev->info.name);
  DG_CALL(dg_codegen_templates_hash(NULL, &c->hash));
  dg_variant *valid = NULL;
  DG_CALL(dg_variant_enumerate(&dev->info, N, p, &valid, &out->n_valid, &out->pruned,
                               &out->n_pruned));
  dg_free(&valid);
  dg_tune_cache_file(opt->paths.cache_dir, dev->info.name, out->cache_path,
                     sizeof out->cache_path);
  return DG_OK;
}

/* The result from a fresh cached entry of this device (*found 1), unless forced. */
static dg_status read_cached(tune_ctx *c, int *found) {
  const dg_tune_options *opt = c->opt;
  dg_tune_result *out = c->r;
  *found = 0;
  if (opt->force || opt->specs || opt->pml_cells) return DG_OK;
  dg_tune_file f;
  int exists = 0;
  if (dg_tune_file_read(out->cache_path, &f, &exists, NULL) != DG_OK) {
    snprintf(out->note, sizeof out->note, "warning: %s; re-tuning", dg_error_message());
    dg_error_clear();
    return DG_OK;
  }
  dg_status st = DG_OK;
  for (int i = 0; i < f.n && !out->from_cache; ++i) {
    if (!dg_device_key_equal(&f.devices[i].key, &out->key)) continue;
    for (int j = 0; j < f.devices[i].n; ++j) {
      dg_tune_entry *e = &f.devices[i].entries[j];
      if (e->N != out->N || e->precision != out->precision || e->bucket != opt->bucket) continue;
      if (!dg_tune_entry_fresh(e, c->hash)) {
        snprintf(out->note, sizeof out->note,
                 "cached result in %s is stale (templates changed): re-tuning", out->cache_path);
        continue;
      }
      if (opt->confirm) break; /* re-timed below */
      st = tune_result_from_entry(c, e);
      break;
    }
  }
  dg_tune_file_free(&f);
  if (st != DG_OK) return st;
  if (out->from_cache) {
    tune_anchors(c);
    out->seconds = tune_elapsed(c);
    *found = 1;
  }
  return DG_OK;
}

/* A fresh cached entry is the answer unless forced. On a miss, take the device's lock;
 * after waiting for another tune, look again: it may have produced the answer. */
static dg_status cached_or_locked(tune_ctx *c, int *found) {
  for (int pass = 0; pass < 2; ++pass) {
    DG_CALL(read_cached(c, found));
    if (*found) return DG_OK;
    if (pass == 0) {
      int waited = 0;
      DG_CALL(tune_lock(c->opt, &c->dev->info, c->log, c->tag, &c->lock_fd, &waited));
      if (!waited) break;
    }
  }
  return DG_OK;
}

/* Only this device's own measurements (--no-transfer). */
static void keep_own_only(dg_known *k) {
  int m = 0;
  for (int i = 0; i < k->n; ++i)
    if (k->s[i].w >= 1) k->s[m++] = k->s[i];
  k->n = m;
  k->n_seeds = 0;
  k->seed_from[0] = '\0';
  k->have_other_limits = 0;
}

/* This device's neighbouring orders, when it has measured some, are the seeds: the
 * likeliest winners here. Other devices' winners then only train the model: on this
 * project's AVX2 PoCL device the AVX-512 file's top three were 1.1-3.0x slower than the
 * search's best in 32 of 33 later (N, precision) of three sweeps (docs/TUNING.md). A stored
 * ranking of this (N, p) comes before both. */
static void choose_seeds(tune_ctx *c) {
  dg_known *k = &c->known;
  if (k->n_own_seeds && !k->self.n_rank) {
    memcpy(k->seeds, k->own_seeds, sizeof k->own_seeds[0] * (size_t)k->n_own_seeds);
    k->n_seeds = k->n_own_seeds;
    snprintf(k->seed_from, sizeof k->seed_from, "%.240s (this device's neighbouring orders)",
             c->r->cache_path);
  }
  if (k->self.n_rank) {
    k->n_seeds = 0;
    for (int i = 0; i < k->self.n_rank && k->n_seeds < TUNE_FINALISTS; ++i)
      snprintf(k->seeds[k->n_seeds++], DG_VARIANT_SPEC_MAX, "%s", k->self.rank[i].spec);
    snprintf(k->seed_from, sizeof k->seed_from, "%.240s (this device, %s)", c->r->cache_path,
             k->self_stale ? "stale entry" : "stored ranking");
  }
  snprintf(c->r->seeded_from, sizeof c->r->seeded_from, "%s", k->seed_from);
}

/* What is known: this device's stored measurements (a stale entry's ranking seeds the
 * search, a fresh one's is confirmed), else the winners of the nearest known devices; all
 * of it trains the cost model. */
static dg_status gather_known(tune_ctx *c, const dg_device_limits *limits) {
  const dg_tune_options *opt = c->opt;
  dg_known *k = &c->known;
  DG_CALL(dg_known_collect(&opt->paths, &c->dev->info, c->r->N, c->r->precision,
                           (dg_bucket)opt->bucket, c->hash, k));
  if (!opt->use_known) keep_own_only(k);
  if (opt->force) { /* start over: no stored result of this device seeds it */
    dg_tune_entry_free(&k->self);
    memset(&k->self, 0, sizeof k->self);
  }
  choose_seeds(c);
  const dg_device_limits *ml = limits                 ? limits
                               : k->have_self_limits  ? &k->self_limits
                               : k->have_other_limits ? &k->other_limits
                                                      : NULL;
  dg_model_init(&c->model, &c->dev->info, ml);
  c->trained_prior = k->n > 0;
  for (int i = 0; i < k->n; ++i) c->own_prior |= k->s[i].w >= 1;
  c->model_on = opt->use_model;
  return DG_OK;
}

/* The timing problem, and how many of its operators fit in memory at once. */
static dg_status make_problem(tune_ctx *c) {
  const dg_tune_options *opt = c->opt;
  dg_tune_result *out = c->r;
  const int N = out->N;
  const dg_precision p = out->precision;
  const double dofs = opt->target_dofs > 0 ? opt->target_dofs
                                           : dg_bucket_target_dofs(&c->dev->info, N, p,
                                                                   (dg_bucket)opt->bucket);
  DG_CALL(dg_verify_case_create_pml(&c->big, N, dg_tune_box_n(dofs, N), opt->pml_cells));
  out->K = c->big->mesh->K;
  out->pml_cells = opt->pml_cells;
  out->pml_K = c->big->phys->pml_K;
  out->counts = dg_count_stage(N, p, out->K);
  const double rs = p == DG_PREC_DOUBLE ? 8 : 4;
  const double per_op = 16 * rs * out->counts.dofs * 1.25;
  const double fit = (double)c->dev->info.global_mem_size / 2 / per_op;
  c->batch = fit < 1 ? 1 : fit > TUNE_MAX_BATCH ? TUNE_MAX_BATCH : (int)fit;
  return DG_OK;
}

static void announce(const tune_ctx *c) {
  const dg_tune_options *opt = c->opt;
  const dg_tune_result *out = c->r;
  if (opt->verbose)
    fprintf(c->log, "%s %d valid variants (%d pruned); timing problem K=%ld elements, %.3g DOFs; "
                    "budget %s\n",
            c->tag, out->n_valid, out->n_pruned, out->K, out->counts.dofs,
            opt->budget_s > 0 ? "limited" : "none");
  if (opt->verbose && opt->pml_cells)
    fprintf(c->log, "%s PML case: %d cells of CFS-PML around the box, %ld PML elements; every "
                    "candidate verified with the PML terms; the winner is not cached\n",
            c->tag, opt->pml_cells, out->pml_K);
}

/* The final round, the winner and the entry that records it. */
static dg_status conclude(tune_ctx *c) {
  dg_tune_result *out = c->r;
  tune_anchors(c);
  DG_CALL(tune_final_round(c));
  tune_anchors(c);
  DG_CALL(tune_make_entry(c));
  tune_model_report(c);
  if (out->confirmed == 1) DG_CALL(tune_keep_untimed(c));
  out->seconds = tune_elapsed(c);
  out->entry.tune_seconds = out->seconds;
  return DG_OK;
}

/* The winner into the cache; then the journal has served its purpose. */
static dg_status store(tune_ctx *c, const dg_device_limits *limits) {
  dg_tune_result *out = c->r;
  /* A PML timing problem's winner is not the plain problem's: never in its cache slot. */
  const int cache_it = c->opt->write_cache && !c->opt->pml_cells;
  if (out->winner >= 0 && cache_it) {
    char note[2400];
    /* Limits measured under contention came out low: never cache them. */
    const dg_device_limits *keep = limits && !limits->contended ? limits : NULL;
    DG_CALL(dg_tune_cache_store(out->cache_path, &out->key, keep, &out->entry, note,
                                sizeof note));
    if (note[0]) snprintf(out->note, sizeof out->note, "warning: %s", note);
  }
  if (out->winner >= 0 && (cache_it || c->opt->pml_cells)) tune_journal_remove(c);
  return DG_OK;
}

static void release(tune_ctx *c) {
  dg_known_free(&c->known);
  if (c->journal) fclose(c->journal);
  if (c->lock_fd >= 0) close(c->lock_fd);
  dg_verify_pool_destroy(&c->own_pool);
  dg_verify_case_destroy(&c->small);
  dg_verify_case_destroy(&c->big);
}

dg_status dg_tune_order(dg_device *dev, int N, dg_precision p, const dg_tune_options *opt,
                        const dg_device_limits *limits, dg_tune_result *out) {
  tune_ctx c;
  DG_CALL(start(&c, dev, N, p, opt, limits, out));
  opt = c.opt; /* quiet without a log */
  dg_status st = DG_OK;
  int cached = 0;
  DG_CALL_GOTO(done, cached_or_locked(&c, &cached));
  if (cached) goto done;
  if (opt->child_exe && !opt->pool) /* its workers start when first needed */
    DG_CALL_GOTO(done, dg_verify_pool_create(&c.own_pool, opt->child_exe, &dev->info,
                                             opt->pml_cells > 0, opt->child_timeout_s, 0));
  if (!opt->specs) DG_CALL_GOTO(done, gather_known(&c, limits));
  DG_CALL_GOTO(done, make_problem(&c));
  DG_CALL_GOTO(done, tune_journal_open(&c));
  announce(&c);
  DG_CALL_GOTO(done, opt->specs ? tune_run_specs(&c) : tune_staged_search(&c));
  DG_CALL_GOTO(done, conclude(&c));
  DG_CALL_GOTO(done, store(&c, limits));
done:
  release(&c);
  return st;
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

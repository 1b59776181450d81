/* dg_tune_order: one tune of an order and precision on a device, as a sequence of steps;
 * the device limits, cached or measured. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "codegen/codegen.h"
#include "core/alloc.h"
#include "core/clock.h"
#include "core/files.h"
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

dg_status dg_tune_order(dg_device *dev, int N, dg_precision p, const dg_tune_options *opt,
                        const dg_device_limits *limits, dg_tune_result *out) {
  dg_status st = DG_OK;
  int lock_fd = -1;
  tune_ctx c;
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
            st = tune_result_from_entry(&c, e);
            break;
          }
        }
        dg_tune_file_free(&f);
        if (st != DG_OK) goto done;
        if (out->from_cache) {
          tune_anchors(&c);
          out->seconds = tune_elapsed(&c);
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
      for (int i = 0; i < c.known.self.n_rank && c.known.n_seeds < TUNE_FINALISTS; ++i)
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
    c.batch = fit < 1 ? 1 : fit > TUNE_MAX_BATCH ? TUNE_MAX_BATCH : (int)fit;
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
    if (!opt->force) DG_CALL_GOTO(done, tune_journal_replay(&c));
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
        st = tune_add_cand(&c, &v, &j);
        int seen = 0; /* the same variant given twice (other spellings too) is timed once */
        for (int k = 0; st == DG_OK && k < n; ++k) seen |= list[k] == j;
        if (st == DG_OK && !seen) list[n++] = j;
      }
    }
    if (st == DG_OK) st = tune_run_list(&c, 1, list, n, 0);
    dg_free(&list);
    if (st != DG_OK) goto done;
  } else {
    DG_CALL_GOTO(done, tune_staged_search(&c));
  }
  tune_anchors(&c);
  DG_CALL_GOTO(done, tune_final_round(&c));
  tune_anchors(&c);
  DG_CALL_GOTO(done, tune_make_entry(&c));
  tune_model_report(&c);
  if (out->confirmed == 1) DG_CALL_GOTO(done, tune_keep_untimed(&c));
  out->seconds = tune_elapsed(&c);
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

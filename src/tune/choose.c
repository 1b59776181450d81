#include "tune/choose.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/files.h"
#include "core/log.h"
#include "codegen/codegen.h"
#include "tune/model.h"
#include "tune/tune.h"

/* A fresh search (or its cached result, unless mode is always). */
static dg_status tune_now(dg_device *dev, int N, const dg_tune_choice *how, double budget_s,
                          int bucket, dg_tune_chosen *out) {
  dg_tune_options opt;
  dg_tune_result res;
  memset(&res, 0, sizeof res);
  DG_CALL(dg_tune_options_default(&opt));
  opt.budget_s = budget_s;
  opt.bucket = bucket;
  opt.verbose = how->log != NULL;
  opt.log = how->log;
  opt.force = how->mode == DG_TUNE_ALWAYS;
  opt.write_cache = 1;
  char exe[4096];
  if (dg_self_exe(exe, sizeof exe)) opt.child_exe = exe;
  dg_status st = dg_tune_order(dev, N, how->precision, &opt, NULL, &res);
  if (st == DG_OK && res.winner < 0)
    st = DG_ERROR(DG_ERR_NUMERIC, "tuning found no variant that passes verification on %s at N=%d",
                  dev->info.name, N);
  if (st == DG_OK) {
    out->v = res.c[res.winner].v;
    out->tuned = !res.from_cache;
    snprintf(out->source, sizeof out->source, "%s (%.0f s, %s problems)",
             res.from_cache ? "tuned earlier" : "fresh tuning", res.seconds,
             dg_bucket_name((dg_bucket)bucket));
  }
  dg_tune_result_free(&res);
  return st;
}

dg_tune_mode dg_tune_mode_default(void) {
  const char *env = getenv("DGTD_TUNE");
  if (env && !strcmp(env, "never")) return DG_TUNE_NEVER;
  if (env && !strcmp(env, "always")) return DG_TUNE_ALWAYS;
  return DG_TUNE_AUTO;
}

dg_status dg_tune_choose(dg_device *dev, int N, const dg_tune_choice *how, dg_tune_chosen *out) {
  memset(out, 0, sizeof *out);
  if (how->spec && how->spec[0]) {
    DG_CALL(dg_variant_parse(how->spec, &out->v));
    if (!strstr(how->spec, "prec=")) out->v.precision = how->precision;
    snprintf(out->source, sizeof out->source, "--variant");
    return DG_OK;
  }
  if (how->mode == DG_TUNE_NEVER) {
    out->v = dg_variant_default(&dev->info, N, how->precision);
    snprintf(out->source, sizeof out->source, "device default (--tune never)");
    return DG_OK;
  }
  const int bucket = how->K > 0 ? (int)dg_bucket_of(&dev->info, N, how->precision, how->K) : 0;
  double budget = how->budget_s;
  if (how->mode == DG_TUNE_AUTO) {
    char desc[512] = "";
    dg_tune_paths paths;
    uint64_t hash = 0;
    dg_tune_found f = DG_TUNE_MISS;
    if (dg_tune_paths_default(&paths) != DG_OK || dg_codegen_templates_hash(NULL, &hash) != DG_OK) {
      snprintf(desc, sizeof desc, "warning: %s", dg_error_message());
      dg_error_clear();
      out->v = dg_variant_default(&dev->info, N, how->precision);
    } else {
      f = dg_tune_lookup_bucket(&paths, &dev->info, N, how->precision, bucket, hash, &out->v,
                                NULL, desc, sizeof desc);
    }
    if (f == DG_TUNE_HIT || f == DG_TUNE_FALLBACK) {
      snprintf(out->source, sizeof out->source, "tuned: %s", desc);
      return DG_OK;
    }
    if (how->K > 0 && how->steps > 0) {
      /* Run-aware: tuning may take its share of the run, no more. */
      double est = how->est_run_s;
      const char *env = getenv("DGTD_TUNE_ESTIMATE"); /* seconds: overrides the model */
      if (!(est > 0) && env && env[0]) {
        char *end = NULL;
        const double x = strtod(env, &end);
        if (end && !*end && x > 0 && isfinite(x)) est = x;
      }
      if (!(est > 0)) {
        dg_known known;
        memset(&known, 0, sizeof known);
        if (dg_known_collect(&paths, &dev->info, N, how->precision, (dg_bucket)bucket, hash,
                             &known) != DG_OK)
          dg_error_clear();
        est = dg_tune_estimate_run_s(&dev->info, &known, N, how->precision, how->K, how->pml_K,
                                     how->steps);
        dg_known_free(&known);
      }
      const double frac = how->fraction > 0 ? how->fraction : 0.10;
      const double min_s = how->min_tune_s > 0 ? how->min_tune_s : 20;
      const int go = dg_tune_run_budget(est, frac, how->budget_s, min_s, &budget);
      out->est_run_s = est;
      out->budget_s = budget;
      if (!go) {
        /* A stale entry's winner (lookup left it in out->v) beats the generic default. */
        const int stale = f == DG_TUNE_STALE;
        if (!stale) out->v = dg_variant_default(&dev->info, N, how->precision);
        out->skipped = 1;
        snprintf(out->source, sizeof out->source,
                 "%.440s (not tuned: the run is estimated at %.3g s; %.0f%% of it, %.2g s, is too "
                 "short for a search)", stale ? desc : "device default", est, 100 * frac, budget);
        dg_note("N=%d %s: %s; run too short to tune (est. %.2g s); `dgtd tune --order %d "
                "--precision %s%s` tunes it", N, dg_precision_name(how->precision),
                stale ? "stale tuning entry (kernels changed), using its winner"
                      : "not tuned on this device, using the device default",
                est, N, dg_precision_name(how->precision), bucket ? " --bucket small" : "");
        return DG_OK;
      }
      dg_note("no tuned variant for this device at N=%d (%s): the run is estimated at %.3g s, "
              "tuning now for at most %.0f s (%.0f%% of it, --tune-budget caps it; --tune never "
              "skips this)", N, desc, est, budget, 100 * frac);
    } else {
      dg_note("no tuned variant for this device at N=%d (%s): tuning now, budget %.0f s (--tune "
              "never skips this)", N, desc, how->budget_s);
    }
  }
  DG_CALL(tune_now(dev, N, how, budget, bucket, out));
  out->budget_s = budget;
  return DG_OK;
}

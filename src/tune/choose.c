#include "tune/choose.h"

#include <string.h>

#include "core/files.h"
#include "core/log.h"
#include "tune/tune.h"

/* A fresh search (or its cached result, unless mode is always). */
static dg_status tune_now(dg_device *dev, int N, const dg_tune_choice *how, dg_tune_chosen *out) {
  dg_tune_options opt;
  dg_tune_result res;
  memset(&res, 0, sizeof res);
  DG_CALL(dg_tune_options_default(&opt));
  opt.budget_s = how->budget_s;
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
    snprintf(out->source, sizeof out->source, "%s (%.0f s)",
             res.from_cache ? "tuned earlier" : "fresh tuning", res.seconds);
  }
  dg_tune_result_free(&res);
  return st;
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
  if (how->mode == DG_TUNE_AUTO) {
    char desc[512] = "";
    const dg_tune_found f = dg_tune_lookup(&dev->info, N, how->precision, &out->v, desc, sizeof desc);
    if (f == DG_TUNE_HIT || f == DG_TUNE_FALLBACK) {
      snprintf(out->source, sizeof out->source, "tuned: %s", desc);
      return DG_OK;
    }
    dg_note("no tuned variant for this device at N=%d (%s): tuning now, budget %.0f s (--tune "
            "never skips this)", N, desc, how->budget_s);
  }
  DG_CALL(tune_now(dev, N, how, out));
  return DG_OK;
}

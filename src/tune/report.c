/* The variant comparison report: ranked table, JSON, CSV and a gnuplot bar chart. Every
 * rate divides the reference counts of tune/counts.h by the measured median stage time. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/alloc.h"
#include "codegen/codegen.h"
#include "tune/tune.h"

typedef struct {
  double s, dofs_s, gflops, gbs, roof_pct, vs_base, vs_default;
} rates;

static rates rates_of(const dg_tune_result *r, const dg_tune_candidate *k) {
  rates x;
  memset(&x, 0, sizeof x);
  x.s = k->median_ns * 1e-9;
  if (!(x.s > 0)) return x;
  x.dofs_s = r->counts.dofs / x.s;
  x.gflops = r->counts.flops / x.s * 1e-9;
  x.gbs = r->counts.bytes / x.s * 1e-9;
  if (r->have_limits) {
    const double bound = dg_limits_roofline_s(&r->limits, r->precision, r->counts.flops, r->counts.bytes);
    x.roof_pct = 100.0 * bound / x.s;
  }
  if (r->baseline >= 0 && r->c[r->baseline].status == DG_CAND_TIMED)
    x.vs_base = r->c[r->baseline].median_ns / k->median_ns;
  if (r->dflt >= 0 && r->c[r->dflt].status == DG_CAND_TIMED)
    x.vs_default = r->c[r->dflt].median_ns / k->median_ns;
  return x;
}

/* Timed candidates, fastest first; final-round ones (same-round numbers) ahead of the rest. */
static int order(const dg_tune_result *r, int *idx) {
  int n = 0;
  for (int pass = 0; pass < 2; ++pass) {
    const int first = n;
    for (int i = 0; i < r->n; ++i) {
      const dg_tune_candidate *k = &r->c[i];
      if (k->status != DG_CAND_TIMED || k->in_final != !pass) continue;
      int j = n++;
      while (j > first && r->c[idx[j - 1]].median_ns > k->median_ns) {
        idx[j] = idx[j - 1];
        --j;
      }
      idx[j] = i;
    }
  }
  return n;
}


/* A compact label for plots: "vec16 kb1/1 n/n u4 arg fupd". */
static void short_label(const dg_variant *v, char *buf, size_t cap) {
  if (v->path == DG_PATH_CLBLAST) {
    snprintf(buf, cap, "clblast");
    return;
  }
  static const char *const work[] = {"node", "elem", "vec"}, place[] = {'n', 'm', 'f'};
  static const char *const lift[] = {"sep", "fused", "fupd"};
  char u[8];
  if (v->unroll == 0) snprintf(u, sizeof u, "full");
  else snprintf(u, sizeof u, "%d", v->unroll);
  static const char *const fuse[] = {"", " fuse-rhs", " fuse-res"};
  snprintf(buf, cap, "%s%d kb%d/%d %c/%c u%s %s %s%s%s%s", work[v->work], v->vw, v->kb, v->lkb,
           place[v->vplace], place[v->lplace], u, v->literal ? "lit" : "arg", lift[v->lift],
           v->flux == DG_FLUX_FACE ? " face" : "", v->lnpw == 2 ? " npw2" : v->lnpw == 4 ? " npw4" : "",
           fuse[v->fuse]);
}

void dg_tune_report_limits(FILE *f, const dg_device_limits *l, int measured) {
  fprintf(f, "limits (%s%s): bandwidth %.1f GB/s; FMA %.1f / %.1f GFLOP/s (float/double); "
             "CLBlast GEMM %.1f / %.1f GFLOP/s%s\n",
          measured ? "measured now" : "cached, measured ", measured ? "" : l->date,
          l->bandwidth_gbs, l->fma_gflops[0], l->fma_gflops[1], l->gemm_gflops[0],
          l->gemm_gflops[1], l->gemm_gflops[0] > 0 ? "" : " (not measured: --measure-limits)");
}

void dg_tune_report_table(FILE *f, const dg_tune_result *r, int verbose) {
  int *idx = malloc(sizeof(int) * (size_t)(r->n ? r->n : 1));
  if (!idx) return;
  const int n = order(r, idx);
  fprintf(f, "\nN=%d %s: K=%ld elements, %.4g DOFs; one RK stage = %.4g GFLOP, %.4g MB minimum",
          r->N, dg_precision_name(r->precision), r->K, r->counts.dofs, r->counts.flops * 1e-9,
          r->counts.bytes * 1e-6);
  if (r->have_limits) {
    const double bound = dg_limits_roofline_s(&r->limits, r->precision, r->counts.flops, r->counts.bytes);
    const double tf = r->counts.flops / (dg_limits_peak_gflops(&r->limits, r->precision) * 1e9);
    fprintf(f, "; roofline bound %.3f ms (%s-bound)", bound * 1e3, tf >= bound ? "compute" : "memory");
  }
  fprintf(f, "\n%d valid variants, %d timed%s%s\n", r->n_valid, n,
          r->from_cache ? "; reported from the cache " : "", r->from_cache ? r->cache_path : "");
  fprintf(f, "%4s %10s %19s %8s %8s %7s %6s %7s %2s  %s\n", "rank", "median ms", "min-max ms",
          "MDOF/s", "GFLOP/s", "GB/s", "%roof", "xbase", "st", "variant");
  for (int i = 0; i < n; ++i) {
    const dg_tune_candidate *k = &r->c[idx[i]];
    const rates x = rates_of(r, k);
    char mm[40], mark[4] = "";
    snprintf(mm, sizeof mm, "%.3f-%.3f", k->min_ns * 1e-6, k->max_ns * 1e-6);
    if (idx[i] == r->winner) strcat(mark, "*");
    if (idx[i] == r->baseline) strcat(mark, "B");
    if (idx[i] == r->dflt) strcat(mark, "D");
    fprintf(f, "%3d%-1s %10.3f %19s %8.1f %8.1f %7.1f %6.1f %7.2f %2d  %s %s\n", i + 1,
            i == 0 ? "" : "", k->median_ns * 1e-6, mm, x.dofs_s * 1e-6, x.gflops, x.gbs,
            x.roof_pct, x.vs_base, k->in_final ? 4 : k->stage, k->spec, mark);
  }
  int nbad = 0;
  for (int i = 0; i < r->n; ++i) nbad += r->c[i].status == DG_CAND_FAILED || r->c[i].status == DG_CAND_REJECTED;
  fprintf(f, "(* winner, B baseline, D default; st = search stage; stage-4 rows were re-timed "
             "together, interleaved)\n");
  if (r->winner >= 0) {
    const rates x = rates_of(r, &r->c[r->winner]);
    fprintf(f, "winner: %s\n ", r->c[r->winner].spec);
    if (x.vs_base > 0) fprintf(f, " %.2fx over the baseline,", x.vs_base);
    else fprintf(f, " (baseline not timed)");
    if (x.vs_default > 0) fprintf(f, " %.2fx over the default", x.vs_default);
    else fprintf(f, " (default not timed)");
    if (r->entry.runner_up[0])
      fprintf(f, ", runner-up %.1f%% slower", 100 * r->entry.runner_up_margin);
    fprintf(f, "\n");
    const dg_tune_candidate *w = &r->c[r->winner];
    if (w->nk) {
      fprintf(f, "  kernels:");
      for (int m = 0; m < w->nk; ++m) fprintf(f, " %s %.3f ms", w->kname[m], w->kernel_ns[m] * 1e-6);
      fprintf(f, "\n");
    }
    if (r->pml_cells && w->nk) { /* the PML kernels apart: what PML elements cost */
      double pml = 0;
      for (int m = 0; m < w->nk; ++m)
        if (!strncmp(w->kname[m], "pml", 3)) pml += w->kernel_ns[m];
      fprintf(f, "  PML (%d cells, %ld of %ld elements): PML kernels %.3f ms = %.1f ns per PML "
                 "element; the other kernels %.1f ns per element\n",
              r->pml_cells, r->pml_K, r->K, pml * 1e-6, r->pml_K ? pml / (double)r->pml_K : 0,
              (w->median_ns - pml) / (double)r->K);
    }
  }
  if (nbad) {
    fprintf(f, "%d variants failed or were rejected:\n", nbad);
    for (int i = 0; i < r->n; ++i)
      if (r->c[i].status == DG_CAND_FAILED || r->c[i].status == DG_CAND_REJECTED)
        fprintf(f, "  %s %s: %s\n", r->c[i].status == DG_CAND_REJECTED ? "REJECTED" : "FAILED  ",
                r->c[i].spec, r->c[i].reason);
  }
  if (verbose >= 2 && r->n_pruned) {
    fprintf(f, "%d variants pruned for this device:\n", r->n_pruned);
    char spec[DG_VARIANT_SPEC_MAX];
    for (int i = 0; i < r->n_pruned; ++i)
      fprintf(f, "  %s: %s\n", dg_variant_print(&r->pruned[i].v, spec, sizeof spec), r->pruned[i].reason);
  } else if (r->n_pruned) {
    fprintf(f, "%d variants pruned for this device (-v lists them)\n", r->n_pruned);
  }
  if (r->budget_hit) fprintf(f, "the search stopped at its time budget\n");
  {
    const int rank = r->from_cache ? r->entry.model_rank : r->model_rank;
    const double err = r->from_cache ? r->entry.model_err : r->model_err;
    if (rank > 0)
      fprintf(f, "cost model: winner ranked %d of the timed variants before timing, predicted "
                 "%+.0f%% off%s",
              rank, 100 * err, r->from_cache ? "" : "");
    if (rank > 0 && !r->from_cache)
      fprintf(f, "; %d candidates skipped as unable to win by more than the noise (%.0f%%)",
              r->model_skipped, 100 * r->noise);
    if (rank > 0) fprintf(f, "\n");
  }
  {
    const char *from = r->from_cache ? r->entry.seeded_from : r->seeded_from;
    if (from[0]) fprintf(f, "seeded with %d variants from %s\n", r->n_seeds, from);
  }
  if (r->confirmed)
    fprintf(f, "confirm: the cached winner %s\n",
            r->confirmed == 1 ? "held (re-timed within the noise)" : "regressed: searched again");
  fprintf(f, "bucket: %s problems\n", r->bucket ? "small (cache-sized / device not filled)"
                                                 : "large (device-filling)");
  if (r->note[0]) fprintf(f, "%s\n", r->note);
  free(idx);
}

static const char *status_name(dg_cand_status s) {
  switch (s) {
  case DG_CAND_TIMED: return "timed";
  case DG_CAND_FAILED: return "failed";
  case DG_CAND_REJECTED: return "rejected";
  default: return "pending";
  }
}

/* JSON numbers must be finite. */
static double fin(double x) { return isfinite(x) ? x : -1; }

cJSON *dg_tune_report_json(const dg_tune_result *r, int with_pruned) {
  int *idx = malloc(sizeof(int) * (size_t)(r->n ? r->n : 1));
  cJSON *o = cJSON_CreateObject();
  if (!idx || !o) goto fail;
  const int n = order(r, idx);
  const double bound = r->have_limits
                           ? dg_limits_roofline_s(&r->limits, r->precision, r->counts.flops, r->counts.bytes)
                           : 0;
  cJSON *cands = NULL, *bad = NULL;
  int ok = cJSON_AddNumberToObject(o, "N", r->N) &&
           cJSON_AddStringToObject(o, "precision", dg_precision_name(r->precision)) &&
           cJSON_AddStringToObject(o, "device", r->key.name) &&
           cJSON_AddNumberToObject(o, "K", (double)r->K) &&
           cJSON_AddNumberToObject(o, "dofs", r->counts.dofs) &&
           cJSON_AddNumberToObject(o, "flops_per_stage", r->counts.flops) &&
           cJSON_AddNumberToObject(o, "bytes_per_stage", r->counts.bytes) &&
           cJSON_AddNumberToObject(o, "roofline_bound_ns", bound * 1e9) &&
           cJSON_AddBoolToObject(o, "from_cache", r->from_cache) &&
           cJSON_AddStringToObject(o, "cache_file", r->cache_path) &&
           cJSON_AddNumberToObject(o, "seconds", r->from_cache ? r->entry.tune_seconds : r->seconds) &&
           cJSON_AddBoolToObject(o, "budget_hit", r->budget_hit) &&
           cJSON_AddStringToObject(o, "bucket", r->bucket ? "small" : "large") &&
           cJSON_AddNumberToObject(o, "model_rank", r->from_cache ? r->entry.model_rank : r->model_rank) &&
           cJSON_AddNumberToObject(o, "model_err", fin(r->from_cache ? r->entry.model_err : r->model_err)) &&
           cJSON_AddNumberToObject(o, "model_skipped", r->model_skipped) &&
           cJSON_AddNumberToObject(o, "seeds", r->n_seeds) &&
           cJSON_AddNumberToObject(o, "variants_valid", r->n_valid) &&
           cJSON_AddNumberToObject(o, "variants_pruned", r->n_pruned) &&
           cJSON_AddStringToObject(o, "winner", r->winner >= 0 ? r->c[r->winner].spec : "") &&
           cJSON_AddStringToObject(o, "baseline", r->baseline >= 0 ? r->c[r->baseline].spec : "") &&
           cJSON_AddStringToObject(o, "default", r->entry.default_spec) &&
           cJSON_AddStringToObject(o, "runner_up", r->entry.runner_up) &&
           cJSON_AddNumberToObject(o, "runner_up_margin", r->entry.runner_up_margin) &&
           cJSON_AddStringToObject(o, "note", r->note) &&
           cJSON_AddNumberToObject(o, "pml_cells", r->pml_cells) &&
           cJSON_AddNumberToObject(o, "pml_K", (double)r->pml_K);
  if (ok && r->winner >= 0) {
    const rates x = rates_of(r, &r->c[r->winner]);
    ok = cJSON_AddNumberToObject(o, "speedup_over_baseline", x.vs_base) &&
         cJSON_AddNumberToObject(o, "speedup_over_default", x.vs_default);
  }
  if (ok && r->have_limits) {
    cJSON *l = cJSON_AddObjectToObject(o, "limits");
    ok = l && cJSON_AddNumberToObject(l, "bandwidth_gbs", r->limits.bandwidth_gbs) &&
         cJSON_AddNumberToObject(l, "fma_gflops", r->limits.fma_gflops[r->precision]) &&
         cJSON_AddNumberToObject(l, "gemm_gflops", r->limits.gemm_gflops[r->precision]);
  }
  ok = ok && (cands = cJSON_AddArrayToObject(o, "ranking")) && (bad = cJSON_AddArrayToObject(o, "rejected"));
  for (int i = 0; ok && i < n; ++i) {
    const dg_tune_candidate *k = &r->c[idx[i]];
    const rates x = rates_of(r, k);
    cJSON *e = cJSON_CreateObject(), *ks = NULL;
    ok = e && cJSON_AddItemToArray(cands, e) && cJSON_AddNumberToObject(e, "rank", i + 1) &&
         cJSON_AddStringToObject(e, "spec", k->spec) &&
         cJSON_AddNumberToObject(e, "stage", k->in_final ? 4 : k->stage) &&
         cJSON_AddNumberToObject(e, "median_ns", k->median_ns) &&
         cJSON_AddNumberToObject(e, "min_ns", k->min_ns) &&
         cJSON_AddNumberToObject(e, "max_ns", k->max_ns) &&
         cJSON_AddNumberToObject(e, "dofs_per_s", x.dofs_s) &&
         cJSON_AddNumberToObject(e, "gflops", x.gflops) && cJSON_AddNumberToObject(e, "gbs", x.gbs) &&
         cJSON_AddNumberToObject(e, "roofline_pct", x.roof_pct) &&
         cJSON_AddNumberToObject(e, "speedup_over_baseline", x.vs_base) &&
         cJSON_AddNumberToObject(e, "rel_diff", fin(k->rel_diff)) &&
         cJSON_AddBoolToObject(e, "winner", idx[i] == r->winner) &&
         (ks = cJSON_AddArrayToObject(e, "kernels"));
    for (int m = 0; ok && m < k->nk; ++m) {
      cJSON *kk = cJSON_CreateObject();
      ok = kk && cJSON_AddItemToArray(ks, kk) && cJSON_AddStringToObject(kk, "name", k->kname[m]) &&
           cJSON_AddNumberToObject(kk, "median_ns", k->kernel_ns[m]);
    }
  }
  for (int i = 0; ok && i < r->n; ++i) {
    const dg_tune_candidate *k = &r->c[i];
    if (k->status != DG_CAND_FAILED && k->status != DG_CAND_REJECTED) continue;
    cJSON *e = cJSON_CreateObject();
    ok = e && cJSON_AddItemToArray(bad, e) && cJSON_AddStringToObject(e, "spec", k->spec) &&
         cJSON_AddStringToObject(e, "status", status_name(k->status)) &&
         cJSON_AddStringToObject(e, "reason", k->reason);
  }
  if (ok && with_pruned) {
    cJSON *pr = cJSON_AddArrayToObject(o, "pruned");
    ok = pr != NULL;
    char spec[DG_VARIANT_SPEC_MAX];
    for (int i = 0; ok && i < r->n_pruned; ++i) {
      cJSON *e = cJSON_CreateObject();
      ok = e && cJSON_AddItemToArray(pr, e) &&
           cJSON_AddStringToObject(e, "spec", dg_variant_print(&r->pruned[i].v, spec, sizeof spec)) &&
           cJSON_AddStringToObject(e, "reason", r->pruned[i].reason);
    }
  }
  if (!ok) goto fail;
  free(idx);
  return o;
fail:
  free(idx);
  cJSON_Delete(o);
  return NULL;
}

dg_status dg_tune_report_csv(const char *path, const dg_tune_result *const *rs, int nr) {
  FILE *f = fopen(path, "w");
  DG_CHECK(f, DG_ERR_IO, "cannot write %s: %s", path, strerror(errno));
  fprintf(f, "N,precision,rank,spec,stage,median_ms,min_ms,max_ms,mdofs_per_s,gflops,gbs,"
             "roofline_pct,speedup_over_baseline,winner,baseline,default\n");
  for (int j = 0; j < nr; ++j) {
    const dg_tune_result *r = rs[j];
    int *idx = malloc(sizeof(int) * (size_t)(r->n ? r->n : 1));
    if (!idx) {
      fclose(f);
      return DG_ERROR(DG_ERR_MEMORY, "out of memory writing %s", path);
    }
    const int n = order(r, idx);
    for (int i = 0; i < n; ++i) {
      const dg_tune_candidate *k = &r->c[idx[i]];
      const rates x = rates_of(r, k);
      fprintf(f, "%d,%s,%d,\"%s\",%d,%.6f,%.6f,%.6f,%.3f,%.3f,%.3f,%.2f,%.4f,%d,%d,%d\n", r->N,
              dg_precision_name(r->precision), i + 1, k->spec, k->in_final ? 4 : k->stage,
              k->median_ns * 1e-6, k->min_ns * 1e-6, k->max_ns * 1e-6, x.dofs_s * 1e-6, x.gflops,
              x.gbs, x.roof_pct, x.vs_base, idx[i] == r->winner, idx[i] == r->baseline,
              idx[i] == r->dflt);
    }
    free(idx);
  }
  const int bad = ferror(f);
  DG_CHECK(fclose(f) == 0 && !bad, DG_ERR_IO, "cannot write %s", path);
  return DG_OK;
}

enum { PLOT_ROWS = 16 }; /* bars per panel: the fastest, plus baseline and default */

dg_status dg_tune_report_plot(const char *png, const dg_tune_result *const *rs, int nr) {
  int height = 0;
  for (int j = 0; j < nr; ++j) height += 90 + 22 * (PLOT_ROWS + 2);
  FILE *g = popen("gnuplot", "w");
  DG_CHECK(g, DG_ERR_IO, "cannot run gnuplot: %s", strerror(errno));
  fprintf(g, "set terminal pngcairo size 1100,%d font ',9'\nset output '%s'\n", height, png);
  fprintf(g, "set multiplot layout %d,1\nset style fill solid 0.85\nunset key\n"
             "set xlabel 'speedup over the baseline variant (median RK-stage time)'\n", nr);
  for (int j = 0; j < nr; ++j) {
    const dg_tune_result *r = rs[j];
    int *idx = malloc(sizeof(int) * (size_t)(r->n ? r->n : 1));
    if (!idx) break;
    const int n = order(r, idx);
    int rows[PLOT_ROWS + 2], m = 0;
    for (int i = 0; i < n && m < PLOT_ROWS; ++i) rows[m++] = idx[i];
    for (int i = PLOT_ROWS; i < n; ++i)
      if (idx[i] == r->baseline || idx[i] == r->dflt) rows[m++] = idx[i];
    fprintf(g, "$d%d << EOD\n", j);
    for (int i = 0; i < m; ++i) {
      const dg_tune_candidate *k = &r->c[rows[i]];
      char lab[96];
      short_label(&k->v, lab, sizeof lab);
      const int color = rows[i] == r->baseline ? 2 : rows[i] == r->dflt ? 3 : rows[i] == r->winner ? 1 : 4;
      fprintf(g, "\"%s%s\" %.4f %d %.3f\n", lab,
              rows[i] == r->baseline ? " (baseline)" : rows[i] == r->dflt ? " (default)" : "",
              rates_of(r, k).vs_base, color, k->median_ns * 1e-6);
    }
    fprintf(g, "EOD\n");
    fprintf(g, "set title 'N=%d %s on %s: %d of %d valid variants timed'\n", r->N,
            dg_precision_name(r->precision), r->key.name, n, r->n_valid);
    fprintf(g, "set yrange [%f:-0.6]\nset offsets 0, graph 0.22, 0, 0\n", m - 0.4);
    fprintf(g, "plot $d%d using (0):0:(0):2:($0-0.4):($0+0.4):3:ytic(1) with boxxyerror lc variable, "
               "$d%d using 2:0:(sprintf('%%.2fx  %%.2f ms', $2, $4)) with labels left offset 0.5,0\n",
            j, j);
    free(idx);
  }
  fprintf(g, "unset multiplot\n");
  const int rc = pclose(g);
  DG_CHECK(rc == 0, DG_ERR_IO, "gnuplot failed (status %d) writing %s", rc, png);
  return DG_OK;
}

/* ---- comparison across devices (dgtd tune --report) ---------------------------------------- */

typedef struct {
  char device[DG_DEVICE_STR];
  char source[24];  /* "shipped" / "cache" */
  int N, bucket;
  dg_precision p;
  char winner[DG_VARIANT_SPEC_MAX];
  double dofs_s, roof_pct, vs_base, tune_s;
  int model_rank, stale;
} cmp_row;

static int cmp_rows(const void *a, const void *b) {
  const cmp_row *x = a, *y = b;
  if (x->p != y->p) return (int)x->p - (int)y->p;
  if (x->bucket != y->bucket) return x->bucket - y->bucket;
  if (x->N != y->N) return x->N - y->N;
  const int d = strcmp(x->device, y->device);
  return d ? d : strcmp(x->source, y->source);
}

static dg_status collect_dir(const char *dir, const char *source, uint64_t hash, cmp_row **rows,
                             int *n, int *cap) {
  DIR *d = opendir(dir);
  if (!d) return DG_OK;
  struct dirent *de;
  dg_status st = DG_OK;
  while (st == DG_OK && (de = readdir(d))) {
    const size_t len = strlen(de->d_name);
    if (len < 6 || strcmp(de->d_name + len - 5, ".json") != 0) continue;
    char path[DG_TUNE_PATH + 300];
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    dg_tune_file f;
    int exists = 0;
    if (dg_tune_file_read(path, &f, &exists, NULL) != DG_OK) { /* skipped, as lookups do */
      dg_error_clear();
      continue;
    }
    for (int i = 0; i < f.n && st == DG_OK; ++i)
      for (int j = 0; j < f.devices[i].n; ++j) {
        const dg_tune_device_rec *rec = &f.devices[i];
        const dg_tune_entry *e = &rec->entries[j];
        if (*n == *cap) {
          const int nc = *cap ? 2 * *cap : 64;
          cmp_row *nr = realloc(*rows, sizeof *nr * (size_t)nc);
          if (!nr) {
            st = DG_ERROR(DG_ERR_MEMORY, "out of memory reading %s", path);
            break;
          }
          *rows = nr;
          *cap = nc;
        }
        cmp_row *r = &(*rows)[(*n)++];
        memset(r, 0, sizeof *r);
        snprintf(r->device, sizeof r->device, "%s", rec->key.name);
        snprintf(r->source, sizeof r->source, "%s", source);
        r->N = e->N;
        r->p = e->precision;
        r->bucket = e->bucket;
        snprintf(r->winner, sizeof r->winner, "%s", e->winner);
        const dg_stage_counts c = dg_count_stage(e->N, e->precision, e->K);
        const double s = e->median_ns * 1e-9;
        r->dofs_s = e->K > 0 && s > 0 ? c.dofs / s : 0;
        r->roof_pct = rec->has_limits && s > 0
                          ? 100 * dg_limits_roofline_s(&rec->limits, e->precision, c.flops, c.bytes) / s
                          : -1;
        r->vs_base = e->baseline_ns > 0 ? e->baseline_ns / e->median_ns : 0;
        r->tune_s = e->tune_seconds;
        r->model_rank = e->model_rank;
        r->stale = !dg_tune_entry_fresh(e, hash);
      }
    dg_tune_file_free(&f);
  }
  closedir(d);
  return st;
}

dg_status dg_tune_compare(const dg_tune_paths *paths, FILE *out, const char *png) {
  cmp_row *rows = NULL;
  int n = 0, cap = 0;
  uint64_t hash = 0;
  if (dg_codegen_templates_hash(NULL, &hash) != DG_OK) dg_error_clear();
  dg_status st = collect_dir(paths->shipped_dir, "shipped", hash, &rows, &n, &cap);
  if (st == DG_OK) st = collect_dir(paths->cache_dir, "cache", hash, &rows, &n, &cap);
  if (st != DG_OK) {
    free(rows);
    return st;
  }
  if (n) qsort(rows, (size_t)n, sizeof *rows, cmp_rows);
  fprintf(out, "tuning results in %s (shipped) and %s (cache): %d entries\n", paths->shipped_dir,
          paths->cache_dir, n);
  fprintf(out, "%-6s %-5s %2s  %-34s %-7s %9s %6s %6s %7s  %s\n", "prec", "size", "N", "device",
          "from", "MDOF/s", "%roof", "xbase", "tune s", "winner (model rank; * stale)");
  for (int i = 0; i < n; ++i) {
    const cmp_row *r = &rows[i];
    char roof[16], base[16];
    if (r->roof_pct >= 0) snprintf(roof, sizeof roof, "%.1f", r->roof_pct);
    else snprintf(roof, sizeof roof, "-");
    if (r->vs_base > 0) snprintf(base, sizeof base, "%.2f", r->vs_base);
    else snprintf(base, sizeof base, "-");
    char rank[16] = "";
    if (r->model_rank > 0) snprintf(rank, sizeof rank, " (#%d)", r->model_rank);
    fprintf(out, "%-6s %-5s %2d  %-34.34s %-7s %9.1f %6s %6s %7.0f  %s%s%s\n",
            dg_precision_name(r->p), r->bucket ? "small" : "large", r->N, r->device, r->source,
            r->dofs_s * 1e-6, roof, base, r->tune_s, r->winner, rank, r->stale ? " *" : "");
  }
  if (png && n) {
    /* One bar group per order, one series per (device, source, precision, bucket). */
    char series[32][DG_DEVICE_STR + 48];
    int ns = 0;
    for (int i = 0; i < n && ns < 32; ++i) {
      char lab[DG_DEVICE_STR + 48];
      snprintf(lab, sizeof lab, "%.60s (%s, %s, %s)", rows[i].device, rows[i].source,
               dg_precision_name(rows[i].p), rows[i].bucket ? "small" : "large");
      int dup = 0;
      for (int j = 0; j < ns; ++j) dup |= !strcmp(series[j], lab);
      if (!dup) snprintf(series[ns++], sizeof series[0], "%s", lab);
    }
    FILE *g = popen("gnuplot", "w");
    if (!g) {
      free(rows);
      return DG_ERROR(DG_ERR_IO, "cannot run gnuplot: %s", strerror(errno));
    }
    fprintf(g, "set terminal pngcairo size 1100,600 font ',9'\nset output '%s'\n", png);
    fprintf(g, "set title 'tuned winners: MDOF/s per RK stage by order (tuning/ and the user cache)'\n"
               "set style data histograms\nset style histogram clustered gap 1\n"
               "set style fill solid 0.85\nset key outside below\nset xlabel 'order N'\n"
               "set datafile missing '?'\n");
    /* A GPU beside CPUs spans two orders of magnitude: on a linear axis the CPUs' bars
     * vanish, so past a factor 30 the axis is logarithmic. */
    double lo = 0, hi = 0;
    for (int i = 0; i < n; ++i) {
      const double x = rows[i].dofs_s * 1e-6;
      if (x <= 0) continue;
      if (lo == 0 || x < lo) lo = x;
      if (x > hi) hi = x;
    }
    if (lo > 0 && hi > 30 * lo)
      fprintf(g, "set logscale y\nset yrange [%g:%g]\nset ylabel 'MDOF/s (one RK stage, log scale)'\n",
              lo / 2, hi * 2);
    else
      fprintf(g, "set ylabel 'MDOF/s (one RK stage)'\nset yrange [0:*]\n");
    fprintf(g, "$d << EOD\n");
    for (int N = 1; N <= 15; ++N) {
      int any = 0;
      double v[32] = {0}; /* 0: this series has no entry at N (written as missing) */
      for (int i = 0; i < n; ++i) {
        if (rows[i].N != N) continue;
        char lab[DG_DEVICE_STR + 48];
        snprintf(lab, sizeof lab, "%.60s (%s, %s, %s)", rows[i].device, rows[i].source,
                 dg_precision_name(rows[i].p), rows[i].bucket ? "small" : "large");
        for (int j = 0; j < ns; ++j)
          if (!strcmp(series[j], lab)) v[j] = rows[i].dofs_s * 1e-6, any = 1;
      }
      if (!any) continue;
      fprintf(g, "%d", N);
      for (int j = 0; j < ns; ++j) {
        if (v[j] > 0) fprintf(g, " %.3f", v[j]);
        else fprintf(g, " ?");
      }
      fprintf(g, "\n");
    }
    fprintf(g, "EOD\nplot ");
    for (int j = 0; j < ns; ++j) {
      char t[DG_DEVICE_STR + 48];
      size_t m = 0;
      for (const char *q = series[j]; *q && m + 1 < sizeof t; ++q)
        if (*q != '\'' && *q != '"') t[m++] = *q;
      t[m] = '\0';
      fprintf(g, "%s$d using %d:xtic(1) title '%s'", j ? ", " : "", j + 2, t);
    }
    fprintf(g, "\n");
    const int rc = pclose(g);
    free(rows);
    DG_CHECK(rc == 0, DG_ERR_IO, "gnuplot failed (status %d) writing %s", rc, png);
    return DG_OK;
  }
  free(rows);
  return DG_OK;
}

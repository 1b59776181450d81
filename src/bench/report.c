/* Reports of `dgtd bench`: terminal tables, JSON and gnuplot PNGs. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "bench/bench.h"


static void roles_text(unsigned roles, char *buf, size_t cap) {
  static const char *const names[] = {"tuned", "default", "baseline", "extra"};
  buf[0] = '\0';
  for (int i = 0; i < 4; ++i)
    if (roles & (1u << i)) {
      const size_t len = strlen(buf);
      snprintf(buf + len, cap - len, "%s%s", len ? "=" : "", names[i]);
    }
}

/* The spec without the keys every row shares (path=kernels, prec). */
static void short_spec(const char *spec, char *buf, size_t cap) {
  char tmp[DG_VARIANT_SPEC_MAX];
  snprintf(tmp, sizeof tmp, "%s", spec);
  buf[0] = '\0';
  char *save = NULL;
  for (char *tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (!strcmp(tok, "path=kernels") || !strncmp(tok, "prec=", 5)) continue;
    const size_t len = strlen(buf);
    snprintf(buf + len, cap - len, "%s%s", len ? "," : "", tok);
  }
}

static int stage_memory_bound(const dg_bench_order *r, const dg_device_limits *l) {
  return l && l->bandwidth_gbs > 0 &&
         r->counts.bytes / l->bandwidth_gbs >=
             r->counts.flops / dg_limits_peak_gflops(l, r->precision);
}

void dg_bench_print_order(FILE *f, const dg_bench_order *r, const dg_device_limits *l) {
  const double bound =
      l ? 1e9 * dg_limits_roofline_s(l, r->precision, r->counts.flops, r->counts.bytes) : 0;
  fprintf(f,
          "\nN=%d %s: box %d^3 x 6 = %ld elements, %.4g DOFs; one RK stage = %.4g GFLOP, "
          "%.4g MB minimum",
          r->N, dg_precision_name(r->precision), r->box_n, r->K, r->counts.dofs, r->counts.flops * 1e-9,
          r->counts.bytes * 1e-6);
  if (bound > 0)
    fprintf(f, "; roofline bound %.3f ms (%s-bound)", bound * 1e-6,
            stage_memory_bound(r, l) ? "memory" : "compute");
  fprintf(f, "\ntuned variant [%s]: %s\n", dg_tune_found_name(r->found), r->tuned_from);
  if (r->found == DG_TUNE_STALE || r->found == DG_TUNE_MISS)
    fprintf(f,
            "  (no usable tuning result: 'tuned' below is the device default; run `dgtd tune "
            "--order %d --precision %s`)\n",
            r->N, dg_precision_name(r->precision));
  fprintf(f, "  %-22s %9s %-19s %9s %8s %7s %6s %6s %7s\n", "variant", "stage ms", "(min-max)",
          "step ms", "MDOF/s", "GFLOP/s", "GB/s", "%roof", "verify");
  for (int i = 0; i < r->nv; ++i) {
    const dg_bench_variant *b = &r->v[i];
    char roles[64], mm[32], sp[DG_VARIANT_SPEC_MAX];
    roles_text(b->roles, roles, sizeof roles);
    if (!b->ok) {
      fprintf(f, "  %-22s FAILED: %s\n", roles, b->reason);
      continue;
    }
    const dg_bench_rates x = dg_bench_variant_rates(r, b, l);
    snprintf(mm, sizeof mm, "(%.3f-%.3f)", b->stage_ns[1] * 1e-6, b->stage_ns[2] * 1e-6);
    fprintf(f, "  %-22s %9.3f %-19s %9.3f %8.1f %7.1f %6.1f %6.1f %7.1e\n", roles,
            b->stage_ns[0] * 1e-6, mm, b->step_ns[0] * 1e-6, x.dofs_s * 1e-6, x.gflops, x.gbs,
            x.roof_pct, b->rel_diff);
    for (int m = 0; m < b->nk; ++m) {
      const dg_bench_kernel *k = &b->k[m];
      const dg_bench_kernel_rates kr = dg_bench_kernel_rates_of(k, r->precision, l);
      snprintf(mm, sizeof mm, "(%.3f-%.3f)", k->min_ns * 1e-6, k->max_ns * 1e-6);
      if (k->bytes > 0)
        fprintf(f, "    %-20s %9.3f %-19s %9s %8s %7.1f %6.1f %6.1f  AI %.2f, %s-bound\n", k->name,
                k->median_ns * 1e-6, mm, "", "", kr.gflops, kr.gbs, kr.roof_pct, kr.intensity,
                kr.memory_bound ? "memory" : "compute");
      else
        fprintf(f, "    %-20s %9.3f %-19s (not counted)\n", k->name, k->median_ns * 1e-6, mm);
    }
    short_spec(b->spec, sp, sizeof sp);
    fprintf(f, "    spec: %s\n", sp);
  }
  const double tb = dg_bench_ratio(r, r->tuned, r->baseline),
               td = dg_bench_ratio(r, r->tuned, r->dflt);
  fprintf(f, "  tuned/baseline %.2fx, tuned/default %.2fx (speedups, median stage times; %.0f s)\n",
          tb, td, r->seconds);
}

void dg_bench_print_summary(FILE *f, const dg_bench_order *r, int n, const dg_device_limits *l) {
  if (n <= 0) return;
  fprintf(f,
          "\nsummary (%s; DOF/s = field DOFs per RK-stage time; %%roof = roofline bound / "
          "stage time)\n",
          dg_precision_name(r[0].precision));
  fprintf(f, "%3s %8s %10s | %9s %6s | %9s %9s | %8s %8s | %s\n", "N", "K", "DOFs", "tuned",
          "%roof", "default", "baseline", "x base", "x dflt", "tuned variant");
  fprintf(f, "%3s %8s %10s | %9s %6s | %9s %9s | %8s %8s |\n", "", "", "", "MDOF/s", "", "MDOF/s",
          "MDOF/s", "", "");
  for (int j = 0; j < n; ++j) {
    const dg_bench_order *o = &r[j];
    dg_bench_rates t = {0}, d = {0}, b = {0};
    if (o->tuned >= 0) t = dg_bench_variant_rates(o, &o->v[o->tuned], l);
    if (o->dflt >= 0) d = dg_bench_variant_rates(o, &o->v[o->dflt], l);
    if (o->baseline >= 0) b = dg_bench_variant_rates(o, &o->v[o->baseline], l);
    char sp[DG_VARIANT_SPEC_MAX] = "FAILED (see above)";
    if (o->tuned >= 0) short_spec(o->v[o->tuned].spec, sp, sizeof sp);
    fprintf(f, "%3d %8ld %10.4g | %9.1f %6.1f | %9.1f %9.1f | %7.2fx %7.2fx | %s%s\n", o->N, o->K,
            o->counts.dofs, t.dofs_s * 1e-6, t.roof_pct, d.dofs_s * 1e-6, b.dofs_s * 1e-6,
            dg_bench_ratio(o, o->tuned, o->baseline), dg_bench_ratio(o, o->tuned, o->dflt), sp,
            o->found == DG_TUNE_HIT || o->found == DG_TUNE_FALLBACK ? "" : " (untuned: default)");
  }
}

static void print_pml_table(FILE *f, const dg_bench_order *plain, const dg_bench_order *pml,
                            const dg_bench_order *ctrl, int n, int stat) {
  fprintf(f,
          "\nPML cost per element (%s; one RK stage, %s of the rounds, all in the same run):\n"
          "  box      the plain box, whole stage per element\n"
          "  mesh     the PML case's mesh (the box and %d more cells around it) without the PML\n"
          "  PML box  that mesh with the PML: the plain kernels per element of the whole mesh\n"
          "           (and / mesh: what the PML costs the plain kernels), the PML kernels\n"
          "           (pml, pmlsave) per PML element\n",
          dg_precision_name(plain[0].precision), stat ? "fastest" : "median", pml[0].pml_cells);
  fprintf(f, "%3s %7s %7s %7s | %8s %8s | %8s %6s | %9s | %s\n", "N", "K box", "K mesh",
          "K PML", "box", "mesh", "PML box", "/ mesh", "PML kern.", "variant");
  fprintf(f, "%3s %7s %7s %7s | %8s %8s | %8s %6s | %9s |\n", "", "", "", "", "ns/el", "ns/el",
          "ns/el", "", "ns/PMLel");
  for (int j = 0; j < n; ++j) {
    const dg_bench_order *a = &plain[j], *b = &pml[j], *c = &ctrl[j];
    for (int i = 0; i < a->nv && i < b->nv && i < c->nv; ++i) {
      const dg_bench_variant *va = &a->v[i], *vb = &b->v[i], *vc = &c->v[i];
      char sp[DG_VARIANT_SPEC_MAX];
      short_spec(va->spec, sp, sizeof sp);
      const char *role = va->roles & DG_ROLE_TUNED      ? "tuned"
                         : va->roles & DG_ROLE_DEFAULT  ? "default"
                         : va->roles & DG_ROLE_BASELINE ? "baseline"
                                                        : "extra";
      if (!va->ok || !vb->ok || !vc->ok) {
        fprintf(f, "%3d %7ld %7ld %7ld | %s: %s\n", a->N, a->K, b->K, b->pml_K, role,
                !va->ok ? va->reason : !vb->ok ? vb->reason : vc->reason);
        continue;
      }
      const double box = va->stage_ns[stat] / (double)a->K;
      const double mesh = vc->stage_ns[stat] / (double)c->K;
      const double in = vb->plain_ns[stat] / (double)b->K;
      const double pk = b->pml_K > 0 ? vb->pml_ns[stat] / (double)b->pml_K : 0;
      fprintf(f, "%3d %7ld %7ld %7ld | %8.1f %8.1f | %8.1f %5.2fx | %9.1f | %s %s\n", a->N,
              a->K, b->K, b->pml_K, box, mesh, in, in / mesh, pk, role, sp);
    }
  }
}

void dg_bench_print_pml(FILE *f, const dg_bench_order *plain, const dg_bench_order *pml,
                        const dg_bench_order *ctrl, int n) {
  if (n <= 0) return;
  print_pml_table(f, plain, pml, ctrl, n, 0);
  /* On a shared machine the fastest round is the one least disturbed by other processes. */
  print_pml_table(f, plain, pml, ctrl, n, 1);
}

void dg_bench_print_scaling(FILE *f, const dg_bench_scaling *s, int n) {
  for (int j = 0; j < n; ++j) {
    const dg_bench_scaling *x = &s[j];
    char sp[DG_VARIANT_SPEC_MAX];
    short_spec(x->spec, sp, sizeof sp);
    fprintf(f, "\nN=%d %s scaling, %s variant %s (cap %.4g DOFs: %s)\n", x->N,
            dg_precision_name(x->precision), dg_tune_found_name(x->found), sp, x->max_dofs, x->cap_reason);
    fprintf(f, "  %4s %9s %11s %10s %19s %9s\n", "n", "K", "DOFs", "stage ms", "(min-max)",
            "MDOF/s");
    for (int i = 0; i < x->np; ++i) {
      const dg_bench_point *p = &x->pts[i];
      char mm[32];
      snprintf(mm, sizeof mm, "(%.3f-%.3f)", p->stage_ns[1] * 1e-6, p->stage_ns[2] * 1e-6);
      fprintf(f, "  %4d %9ld %11.4g %10.3f %19s %9.1f%s\n", p->box_n, p->K, p->dofs,
              p->stage_ns[0] * 1e-6, mm, p->dofs / p->stage_ns[0] * 1e3,
              p->dofs == x->full_dofs ? "  <- first size at >= 90% of the best" : "");
    }
  }
}

/* ---- JSON ------------------------------------------------------------------------------- */

static cJSON *triple(const double ns[3]) {
  cJSON *o = cJSON_CreateObject();
  if (o && (!cJSON_AddNumberToObject(o, "median", ns[0] * 1e-6) ||
            !cJSON_AddNumberToObject(o, "min", ns[1] * 1e-6) ||
            !cJSON_AddNumberToObject(o, "max", ns[2] * 1e-6))) {
    cJSON_Delete(o);
    return NULL;
  }
  return o;
}

/* cJSON writes NaN and infinities as null; keep numbers finite or null on purpose. */
static cJSON *num_or_null(double x) {
  return isfinite(x) ? cJSON_CreateNumber(x) : cJSON_CreateNull();
}

static int add_item(cJSON *o, const char *key, cJSON *item) {
  if (!item) return 0;
  if (!cJSON_AddItemToObject(o, key, item)) {
    cJSON_Delete(item);
    return 0;
  }
  return 1;
}

static cJSON *variant_json(const dg_bench_order *r, const dg_bench_variant *b,
                           const dg_device_limits *l) {
  cJSON *o = cJSON_CreateObject(), *roles = NULL, *ks = NULL;
  static const char *const names[] = {"tuned", "default", "baseline", "extra"};
  int ok = o && cJSON_AddStringToObject(o, "spec", b->spec) &&
           (roles = cJSON_AddArrayToObject(o, "roles")) && cJSON_AddBoolToObject(o, "ok", b->ok) &&
           cJSON_AddStringToObject(o, "reason", b->reason) &&
           add_item(o, "rel_diff", num_or_null(b->rel_diff));
  for (int i = 0; ok && i < 4; ++i)
    if (b->roles & (1u << i)) ok = cJSON_AddItemToArray(roles, cJSON_CreateString(names[i]));
  if (ok && b->ok) {
    const dg_bench_rates x = dg_bench_variant_rates(r, b, l);
    ok = add_item(o, "stage_ms", triple(b->stage_ns)) &&
         add_item(o, "step_ms", triple(b->step_ns)) &&
         (!r->pml_cells || (add_item(o, "pml_kernels_ms", triple(b->pml_ns)) &&
                            add_item(o, "plain_kernels_ms", triple(b->plain_ns)))) &&
         cJSON_AddNumberToObject(o, "dofs_per_s", x.dofs_s) &&
         cJSON_AddNumberToObject(o, "dofs_per_s_step", x.dofs_s_step) &&
         cJSON_AddNumberToObject(o, "gflops", x.gflops) &&
         cJSON_AddNumberToObject(o, "gbs", x.gbs) &&
         cJSON_AddNumberToObject(o, "roofline_pct", x.roof_pct) &&
         (ks = cJSON_AddArrayToObject(o, "kernels"));
    for (int m = 0; ok && m < b->nk; ++m) {
      const dg_bench_kernel *k = &b->k[m];
      const dg_bench_kernel_rates kr = dg_bench_kernel_rates_of(k, r->precision, l);
      cJSON *e = cJSON_CreateObject();
      ok = e && cJSON_AddItemToArray(ks, e) && cJSON_AddStringToObject(e, "name", k->name) &&
           cJSON_AddStringToObject(e, "kind", dg_kernel_kind_name(k->kind)) &&
           cJSON_AddNumberToObject(e, "median_ms", k->median_ns * 1e-6) &&
           cJSON_AddNumberToObject(e, "min_ms", k->min_ns * 1e-6) &&
           cJSON_AddNumberToObject(e, "max_ms", k->max_ns * 1e-6) &&
           cJSON_AddNumberToObject(e, "flops", k->flops) &&
           cJSON_AddNumberToObject(e, "bytes", k->bytes) &&
           cJSON_AddNumberToObject(e, "gflops", kr.gflops) &&
           cJSON_AddNumberToObject(e, "gbs", kr.gbs) &&
           cJSON_AddNumberToObject(e, "intensity", kr.intensity) &&
           cJSON_AddNumberToObject(e, "bound_ms", kr.bound_ns * 1e-6) &&
           cJSON_AddNumberToObject(e, "roofline_pct", kr.roof_pct) &&
           cJSON_AddStringToObject(e, "bound_by",
                                   k->bytes <= 0     ? "n/a"
                                   : kr.memory_bound ? "memory"
                                                     : "compute");
    }
  }
  if (!ok) {
    cJSON_Delete(o);
    return NULL;
  }
  return o;
}

cJSON *dg_bench_order_json(const dg_bench_order *r, const dg_device_limits *l) {
  cJSON *o = cJSON_CreateObject(), *vs = NULL;
  const double bound =
      l ? 1e9 * dg_limits_roofline_s(l, r->precision, r->counts.flops, r->counts.bytes) : 0;
  const char *spec[3] = {"", "", ""};
  const int idx[3] = {r->tuned, r->dflt, r->baseline};
  for (int i = 0; i < 3; ++i)
    if (idx[i] >= 0) spec[i] = r->v[idx[i]].spec;
  int ok = o && cJSON_AddNumberToObject(o, "N", r->N) &&
           cJSON_AddStringToObject(o, "precision", dg_precision_name(r->precision)) &&
           cJSON_AddNumberToObject(o, "box_n", r->box_n) &&
           cJSON_AddNumberToObject(o, "K", (double)r->K) &&
           cJSON_AddNumberToObject(o, "pml_cells", r->pml_cells) &&
           cJSON_AddNumberToObject(o, "pml_K", (double)r->pml_K) &&
           cJSON_AddNumberToObject(o, "dofs", r->counts.dofs) &&
           cJSON_AddNumberToObject(o, "stage_flops", r->counts.flops) &&
           cJSON_AddNumberToObject(o, "stage_bytes", r->counts.bytes) &&
           cJSON_AddNumberToObject(o, "stage_bound_ms", bound * 1e-6) &&
           cJSON_AddStringToObject(o, "stage_bound_by",
                                   stage_memory_bound(r, l) ? "memory" : "compute") &&
           cJSON_AddStringToObject(o, "tuned_found", dg_tune_found_name(r->found)) &&
           cJSON_AddStringToObject(o, "tuned_from", r->tuned_from) &&
           cJSON_AddBoolToObject(o, "tuned_is_default_fallback",
                                 r->found == DG_TUNE_STALE || r->found == DG_TUNE_MISS) &&
           cJSON_AddStringToObject(o, "tuned_spec", spec[0]) &&
           cJSON_AddStringToObject(o, "default_spec", spec[1]) &&
           cJSON_AddStringToObject(o, "baseline_spec", spec[2]) &&
           cJSON_AddNumberToObject(o, "speedup_tuned_over_baseline",
                                   dg_bench_ratio(r, r->tuned, r->baseline)) &&
           cJSON_AddNumberToObject(o, "speedup_tuned_over_default",
                                   dg_bench_ratio(r, r->tuned, r->dflt)) &&
           cJSON_AddNumberToObject(o, "seconds", r->seconds) &&
           (vs = cJSON_AddArrayToObject(o, "variants"));
  for (int i = 0; ok && i < r->nv; ++i) {
    cJSON *v = variant_json(r, &r->v[i], l);
    ok = v && cJSON_AddItemToArray(vs, v);
    if (!ok) cJSON_Delete(v);
  }
  if (!ok) {
    cJSON_Delete(o);
    return NULL;
  }
  return o;
}

cJSON *dg_bench_scaling_json(const dg_bench_scaling *s) {
  cJSON *o = cJSON_CreateObject(), *pts = NULL;
  int ok = o && cJSON_AddNumberToObject(o, "N", s->N) &&
           cJSON_AddStringToObject(o, "precision", dg_precision_name(s->precision)) &&
           cJSON_AddStringToObject(o, "spec", s->spec) &&
           cJSON_AddStringToObject(o, "tuned_found", dg_tune_found_name(s->found)) &&
           cJSON_AddStringToObject(o, "tuned_from", s->tuned_from) &&
           add_item(o, "rel_diff", num_or_null(s->rel_diff)) &&
           cJSON_AddNumberToObject(o, "max_dofs", s->max_dofs) &&
           cJSON_AddStringToObject(o, "cap_reason", s->cap_reason) &&
           cJSON_AddNumberToObject(o, "full_dofs", s->full_dofs) &&
           cJSON_AddNumberToObject(o, "bench_dofs", s->bench_dofs) &&
           cJSON_AddNumberToObject(o, "seconds", s->seconds) &&
           (pts = cJSON_AddArrayToObject(o, "points"));
  for (int i = 0; ok && i < s->np; ++i) {
    const dg_bench_point *p = &s->pts[i];
    cJSON *e = cJSON_CreateObject();
    ok = e && cJSON_AddItemToArray(pts, e) && cJSON_AddNumberToObject(e, "box_n", p->box_n) &&
         cJSON_AddNumberToObject(e, "K", (double)p->K) &&
         cJSON_AddNumberToObject(e, "dofs", p->dofs) &&
         add_item(e, "stage_ms", triple(p->stage_ns)) &&
         cJSON_AddNumberToObject(e, "dofs_per_s", p->dofs / (p->stage_ns[0] * 1e-9));
  }
  if (!ok) {
    cJSON_Delete(o);
    return NULL;
  }
  return o;
}

/* ---- plots ---------------------------------------------------------------------------------- */

/* Run gnuplot on dir/name.gp inside dir (the scripts name their PNG relative to it). */
static dg_status run_gnuplot(const char *dir, const char *name) {
  fflush(NULL);
  const pid_t pid = fork();
  DG_CHECK(pid >= 0, DG_ERR_IO, "fork for gnuplot: %s", strerror(errno));
  if (pid == 0) {
    if (chdir(dir) != 0) _exit(126);
    execlp("gnuplot", "gnuplot", name, (char *)NULL);
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  DG_CHECK(WIFEXITED(status) && WEXITSTATUS(status) != 127, DG_ERR_IO,
           "gnuplot could not be run (is it installed?) for %s/%s", dir, name);
  DG_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, DG_ERR_IO,
           "gnuplot failed (status %d) on %s/%s", WIFEXITED(status) ? WEXITSTATUS(status) : -1, dir,
           name);
  return DG_OK;
}

static dg_status open_script(const char *dir, const char *name, FILE **f) {
  char path[2048];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  *f = fopen(path, "w");
  DG_CHECK(*f, DG_ERR_IO, "cannot write %s: %s", path, strerror(errno));
  return DG_OK;
}

static dg_status finish_script(FILE *f, const char *dir, const char *name, const char *png,
                               char *written, size_t cap) {
  const int bad = ferror(f);
  DG_CHECK(fclose(f) == 0 && !bad, DG_ERR_IO, "cannot write %s/%s", dir, name);
  DG_CALL(run_gnuplot(dir, name));
  if (written) {
    const size_t len = strlen(written);
    snprintf(written + len, cap - len, "%s%s/%s", len ? ";" : "", dir, png);
  }
  return DG_OK;
}

/* A device name safe inside a single-quoted gnuplot string. */
static void quote_safe(const char *s, char *buf, size_t cap) {
  size_t j = 0;
  for (size_t i = 0; s[i] && j + 1 < cap; ++i) buf[j++] = s[i] == '\'' ? '"' : s[i];
  buf[j] = '\0';
}

static dg_status plot_dofs(const char *dir, const char *dev, const dg_bench_order *r, int n,
                           const dg_device_limits *l, char *written, size_t cap) {
  FILE *f;
  DG_CALL(open_script(dir, "dofs_vs_order.gp", &f));
  fprintf(f, "# DOF/s per order: tuned, default and baseline variants, and the roofline bound.\n"
             "# columns: N tuned default baseline bound (MDOF/s)\n$d << EOD\n");
  for (int j = 0; j < n; ++j) {
    const dg_bench_order *o = &r[j];
    double y[3] = {NAN, NAN, NAN};
    const int idx[3] = {o->tuned, o->dflt, o->baseline};
    for (int i = 0; i < 3; ++i)
      if (idx[i] >= 0) y[i] = dg_bench_variant_rates(o, &o->v[idx[i]], l).dofs_s * 1e-6;
    const double bound =
        l ? dg_limits_roofline_s(l, o->precision, o->counts.flops, o->counts.bytes) : 0;
    fprintf(f, "%d %.6g %.6g %.6g %.6g\n", o->N, y[0], y[1], y[2],
            bound > 0 ? o->counts.dofs / bound * 1e-6 : NAN);
  }
  fprintf(f, "EOD\n");
  fprintf(
      f,
      "set terminal pngcairo size 900,560 font ',10' noenhanced\nset output 'dofs_vs_order.png'\n"
      "set title '%s: throughput per order (%s)'\n"
      "set xlabel 'order N'\nset ylabel 'MDOF/s (field DOFs x RK stages / s)'\n"
      "set logscale y\nset grid\nset key top right\nset xtics 1\n"
      "set datafile missing NaN\n"
      "plot $d using 1:5 with lines dt 2 lw 2 lc rgb '#777777' title 'roofline bound', \\\n"
      "  $d using 1:4 with linespoints pt 9 lw 2 lc rgb '#d62728' title 'baseline', \\\n"
      "  $d using 1:3 with linespoints pt 4 ps 1.8 lw 2 dt 3 lc rgb '#2ca02c' title 'default', \\\n"
      "  $d using 1:2 with linespoints pt 7 lw 2 lc rgb '#1f77b4' title 'tuned'\n",
      dev, n ? dg_precision_name(r[0].precision) : "");
  DG_CALL(finish_script(f, dir, "dofs_vs_order.gp", "dofs_vs_order.png", written, cap));
  return DG_OK;
}

static dg_status plot_roofline(const char *dir, const char *dev, const dg_bench_order *r, int n,
                               const dg_device_limits *l, char *written, size_t cap) {
  if (!l || l->bandwidth_gbs <= 0 || n <= 0) return DG_OK;
  const dg_precision p = r[0].precision;
  const double peak = dg_limits_peak_gflops(l, p);
  FILE *f;
  DG_CALL(open_script(dir, "roofline.gp", &f));
  fprintf(f, "# Roofline: each kernel of the tuned variant (and the whole stage) at its\n"
             "# arithmetic intensity; ceilings from the measured device limits.\n"
             "# columns: intensity GFLOP/s kind-index N label\n$k << EOD\n");
  for (int j = 0; j < n; ++j) {
    const dg_bench_order *o = &r[j];
    if (o->tuned < 0) continue;
    const dg_bench_variant *b = &o->v[o->tuned];
    for (int m = 0; m < b->nk; ++m) {
      const dg_bench_kernel_rates kr = dg_bench_kernel_rates_of(&b->k[m], p, l);
      if (b->k[m].bytes <= 0) continue;
      fprintf(f, "%.6g %.6g %d %d \"%s\"\n", kr.intensity, kr.gflops, (int)b->k[m].kind, o->N,
              dg_kernel_kind_name(b->k[m].kind));
    }
  }
  fprintf(f, "EOD\n$s << EOD\n");
  for (int j = 0; j < n; ++j) {
    const dg_bench_order *o = &r[j];
    if (o->tuned < 0) continue;
    const dg_bench_rates x = dg_bench_variant_rates(o, &o->v[o->tuned], l);
    fprintf(f, "%.6g %.6g %d\n", o->counts.flops / o->counts.bytes, x.gflops, o->N);
  }
  fprintf(f, "EOD\n");
  /* One point style per kernel kind that is present (a key entry for each). */
  int used[DG_KERNEL_KINDS] = {0};
  for (int j = 0; j < n; ++j)
    if (r[j].tuned >= 0)
      for (int m = 0; m < r[j].v[r[j].tuned].nk; ++m)
        if (r[j].v[r[j].tuned].k[m].bytes > 0) used[r[j].v[r[j].tuned].k[m].kind] = 1;
  static const int pt[DG_KERNEL_KINDS] = {7, 5, 9, 11, 13, 15, 4, 8, 10, 12, 14, 3, 6, 1};
  fprintf(f,
          "set terminal pngcairo size 1000,680 font ',10' noenhanced\n"
          "set output 'roofline.png'\n"
          "set title '%s: roofline of the tuned variant (%s)'\n"
          "set xlabel 'arithmetic intensity (flop / minimum byte)'\nset ylabel 'GFLOP/s'\n"
          "set logscale xy\nset grid\nset key bottom right\nset xrange [0.05:200]\n"
          "set yrange [*:%g]\n"
          "bw = %.6g\npeak = %.6g\nfma = %.6g\ngemm = %.6g\n"
          "roof(x) = (x * bw < peak) ? x * bw : peak\n"
          "set label 1 sprintf('bandwidth %%.1f GB/s', bw) at 0.08, 0.08 * bw * 1.6 rotate by 33\n"
          "set label 2 sprintf('peak %%.0f GFLOP/s', peak) at 30, peak * 1.15\n"
          "set palette defined (1 '#1f77b4', 4 '#2ca02c', 8 '#d62728')\nset cbrange [1:8]\n"
          "set cblabel 'order N'\nset cbtics 1\n"
          "plot roof(x) with lines lw 3 lc rgb '#333333' title 'roofline (measured)'",
          dev, dg_precision_name(p), peak * 2.5, l->bandwidth_gbs, peak, l->fma_gflops[p],
          l->gemm_gflops[p]);
  if (l->gemm_gflops[p] > 0 && l->gemm_gflops[p] < peak)
    fprintf(f, ", \\\n  gemm with lines dt 3 lc rgb '#999999' title sprintf('CLBlast GEMM %%.0f "
               "GFLOP/s', gemm)");
  for (int k = 0; k < DG_KERNEL_KINDS; ++k)
    if (used[k])
      fprintf(f,
              ", \\\n  $k using ($3 == %d ? $1 : 1/0):2:4 with points pt %d ps 1.6 lc palette "
              "title '%s'",
              k, pt[k], dg_kernel_kind_name((dg_kernel_kind)k));
  fprintf(f,
          ", \\\n  $s using 1:2:3 with points pt 6 ps 3 lw 2 lc palette title 'whole stage', "
          "\\\n  $s using 1:2:(sprintf('N%%d', $3)) with labels offset 1.6,0 font ',8' notitle\n");
  DG_CALL(finish_script(f, dir, "roofline.gp", "roofline.png", written, cap));
  return DG_OK;
}

static dg_status plot_variants(const char *dir, const char *dev, const dg_bench_order *r, int n,
                               const dg_device_limits *l, char *written, size_t cap) {
  (void)l;
  FILE *f;
  DG_CALL(open_script(dir, "variants.gp", &f));
  fprintf(f, "# Variant comparison: time per RK stage per field DOF, split by kernel kind,\n"
             "# for the baseline, default and tuned variant of every order.\n"
             "# columns: label then ns/DOF of");
  for (int k = 0; k < DG_KERNEL_KINDS; ++k) fprintf(f, " %s", dg_kernel_kind_name(k));
  fprintf(f, "\n");
  for (int j = 0; j < n; ++j) {
    const dg_bench_order *o = &r[j];
    fprintf(f, "$d%d << EOD\n", j);
    const int idx[3] = {o->baseline, o->dflt, o->tuned};
    static const char *const lab[3] = {"baseline", "default", "tuned"};
    for (int i = 0; i < 3; ++i) {
      double t[DG_KERNEL_KINDS] = {0};
      if (idx[i] >= 0)
        for (int m = 0; m < o->v[idx[i]].nk; ++m)
          t[o->v[idx[i]].k[m].kind] += o->v[idx[i]].k[m].median_ns / o->counts.dofs;
      if (i == 0)
        fprintf(f, "\"%s\"", lab[i]);
      else
        fprintf(f, "\"%s %.1fx\"", lab[i], dg_bench_ratio(o, idx[i], o->baseline));
      for (int k = 0; k < DG_KERNEL_KINDS; ++k) fprintf(f, " %.6g", t[k]);
      fprintf(f, "\n");
    }
    fprintf(f, "EOD\n");
  }
  fprintf(
      f,
      "set terminal pngcairo size %d,600 font ',9' noenhanced\nset output 'variants.png'\n"
      "set title '%s: where a stage spends its time (%s)'\n"
      "set ylabel 'ns per field DOF per RK stage'\nset grid y\n"
      "set style data histograms\nset style histogram rowstacked title offset 0,-0.5\n"
      "set style fill solid 0.9 border -1\nset boxwidth 0.8\nset key outside right\n"
      "set xtics rotate by -45 font ',8'\nset bmargin 8\nset yrange [0:*]\n"
      "colors = '",
      180 + 150 * (n > 0 ? n : 1), dev, n ? dg_precision_name(r[0].precision) : "");
  /* One colour per kernel kind (gnuplot's word() of a missing index is no colour at all). */
  static const char *const colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b",
                                       "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#d62728",
                                       "#393b79", "#e7ba52", "#843c39", "#7b4173",
                                       "#637939", "#aaaaaa"};
  _Static_assert(sizeof colors / sizeof *colors >= DG_KERNEL_KINDS, "a colour per kernel kind");
  for (int k = 0; k < DG_KERNEL_KINDS; ++k) fprintf(f, "%s%s", k ? " " : "", colors[k]);
  fprintf(f, "'\nplot ");
  /* Only the kinds some variant has, so the key lists what is drawn. */
  int used[DG_KERNEL_KINDS] = {0};
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < r[j].nv; ++i)
      if (r[j].v[i].ok && (r[j].v[i].roles & (DG_ROLE_TUNED | DG_ROLE_DEFAULT | DG_ROLE_BASELINE)))
        for (int m = 0; m < r[j].v[i].nk; ++m) used[r[j].v[i].k[m].kind] = 1;
  for (int j = 0; j < n; ++j) {
    fprintf(f, "%snewhistogram 'N=%d' lt 1", j ? ", \\\n  " : "", r[j].N);
    int first = 1;
    for (int k = 0; k < DG_KERNEL_KINDS; ++k) {
      if (!used[k]) continue;
      fprintf(f, ", \\\n    $d%d using %d%s lc rgb word(colors, %d) %s", j, k + 2,
              first ? ":xtic(1)" : "", k + 1, j ? "notitle" : "");
      if (!j) fprintf(f, "title '%s'", dg_kernel_kind_name((dg_kernel_kind)k));
      first = 0;
    }
  }
  fprintf(f, "\n");
  DG_CALL(finish_script(f, dir, "variants.gp", "variants.png", written, cap));
  return DG_OK;
}

dg_status dg_bench_plot_orders(const char *dir, const char *device, const dg_bench_order *r, int n,
                               const dg_device_limits *l, char *written, size_t cap) {
  char dev[256];
  quote_safe(device, dev, sizeof dev);
  DG_CALL(plot_dofs(dir, dev, r, n, l, written, cap));
  DG_CALL(plot_roofline(dir, dev, r, n, l, written, cap));
  DG_CALL(plot_variants(dir, dev, r, n, l, written, cap));
  return DG_OK;
}

dg_status dg_bench_plot_scaling(const char *dir, const char *device, const dg_bench_scaling *s,
                                int n, char *written, size_t cap) {
  char dev[256];
  quote_safe(device, dev, sizeof dev);
  FILE *f;
  DG_CALL(open_script(dir, "scaling.gp", &f));
  fprintf(f, "# DOF/s of the tuned variant as the mesh grows; one block per order.\n"
             "# columns: DOFs MDOF/s min-MDOF/s max-MDOF/s K\n");
  for (int j = 0; j < n; ++j) {
    fprintf(f, "$d%d << EOD\n", j);
    for (int i = 0; i < s[j].np; ++i) {
      const dg_bench_point *p = &s[j].pts[i];
      fprintf(f, "%.6g %.6g %.6g %.6g %ld\n", p->dofs, p->dofs / p->stage_ns[0] * 1e3,
              p->dofs / p->stage_ns[2] * 1e3, p->dofs / p->stage_ns[1] * 1e3, p->K);
    }
    fprintf(f, "EOD\n");
  }
  fprintf(f,
          "set terminal pngcairo size 900,560 font ',10' noenhanced\nset output 'scaling.png'\n"
          "set title '%s: throughput vs problem size (%s, tuned variants)'\n"
          "set xlabel 'field DOFs'\nset ylabel 'MDOF/s'\nset logscale x\nset grid\n"
          "set key bottom right\nset yrange [0:*]\nplot ",
          dev, n ? dg_precision_name(s[0].precision) : "");
  for (int j = 0; j < n; ++j)
    fprintf(f, "%s$d%d using 1:2:3:4 with yerrorlines pt 7 lw 2 title 'N=%d'", j ? ", \\\n  " : "",
            j, s[j].N);
  /* Marked per order: the first size at 90% of the best, and the size `dgtd bench` compares
   * variants at. */
  for (int mark = 0; mark < 2; ++mark)
    for (int j = 0; j < n; ++j) {
      const double at = mark ? s[j].bench_dofs : s[j].full_dofs;
      if (at > 0)
        fprintf(f,
                ", \\\n  $d%d using ($1 == %.6g ? $1 : 1/0):2 with points pt %s lw 2 lc rgb "
                "'black' %s",
                j, at, mark ? "2 ps 2.5" : "6 ps 3",
                j ? "notitle"
                  : mark ? "title 'size of the order comparison'"
                         : "title 'first size at >= 90% of the best'");
    }
  fprintf(f, "\n");
  DG_CALL(finish_script(f, dir, "scaling.gp", "scaling.png", written, cap));
  return DG_OK;
}

/* The measurements of `dgtd bench` (bench/bench.h): variants compared on one mesh, and one
 * variant across mesh sizes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/verify.h"
#include "bench/bench.h"
#include "core/alloc.h"
#include "core/clock.h"
#include "tune/timing.h"

static const double STEP_DT = 1e-4; /* any small step: the timed steps must not blow up */
static const uint64_t STATE_SEED = 0xbe9c4full;

static uint64_t verify_seed(int N) { return 0xb3ac4e55ull + (uint64_t)N; }

void dg_bench_options_default(dg_bench_options *o) {
  memset(o, 0, sizeof *o);
  o->repeats = 7;
  o->verbose = 1;
}

int dg_bench_box_n(const dg_device_info *info, int N, dg_precision p, const dg_bench_options *o) {
  if (o->elements > 0) {
    const int n = (int)lround(cbrt((double)o->elements / 6.0));
    return n < 2 ? 2 : n;
  }
  return dg_tune_box_n(o->dofs > 0 ? o->dofs
                                   : dg_bucket_target_dofs(info, N, p, (dg_bucket)o->bucket),
                       N);
}


/* The first line of the current error, then forget it: a variant's failure is a result. */
static void take_reason(const char *prefix, char *buf, size_t cap) {
  const char *m = dg_error_message();
  const char *nl = strchr(m, '\n');
  snprintf(buf, cap, "%s%.*s", prefix, nl ? (int)(nl - m) : (int)strlen(m), m);
  dg_error_clear();
}

/* Add v with role to the comparison, or the role to an identical variant already there. */
static void add_variant(dg_bench_order *r, const dg_variant *v, unsigned role) {
  char spec[DG_VARIANT_SPEC_MAX];
  dg_variant_print(v, spec, sizeof spec);
  for (int i = 0; i < r->nv; ++i)
    if (!strcmp(r->v[i].spec, spec)) {
      r->v[i].roles |= role;
      return;
    }
  if (r->nv == DG_BENCH_MAX_VARIANTS) return;
  dg_bench_variant *b = &r->v[r->nv++];
  memset(b, 0, sizeof *b);
  b->v = *v;
  snprintf(b->spec, sizeof b->spec, "%s", spec);
  b->roles = role;
  b->rel_diff = NAN;
}

static int with_role(const dg_bench_order *r, unsigned role) {
  for (int i = 0; i < r->nv; ++i)
    if ((r->v[i].roles & role) && r->v[i].ok) return i;
  return -1;
}

/* Build v's operator on phys and check it against the reference; on failure *op is NULL
 * and b->reason says why (a failure of the variant, not of the benchmark). */
static dg_status prepare(dg_device *dev, dg_verify_case *c, dg_bench_variant *b, const double *q,
                         dg_cl_maxwell **op, int verify) {
  *op = NULL;
  char why[128];
  if (!dg_variant_check(&b->v, &dev->info, c->geom->N, why, sizeof why)) {
    snprintf(b->reason, sizeof b->reason, "cannot run on this device: %s", why);
    return DG_OK;
  }
  dg_status st = dg_cl_maxwell_create(op, dev, c->phys, &b->v, NULL);
  /* Out of memory, or no templates at all: nothing could be measured, not a variant's fault. */
  if (st == DG_ERR_MEMORY || st == DG_ERR_IO) return st;
  if (st != DG_OK) {
    take_reason("build: ", b->reason, sizeof b->reason);
    return DG_OK;
  }
  if (verify) {
    int pass = 0;
    st = dg_cl_verify_op(*op, c->phys, verify_seed(c->geom->N), &b->rel_diff, &pass);
    if (st != DG_OK || !pass) {
      if (st != DG_OK && st != DG_ERR_NUMERIC)
        take_reason("verification: ", b->reason, sizeof b->reason);
      else {
        dg_error_clear();
        snprintf(b->reason, sizeof b->reason,
                 "wrong result: relative L2 difference %.3e to the CPU reference > %.0e",
                 b->rel_diff, dg_verify_tolerance(b->v.precision));
      }
      dg_cl_maxwell_destroy(op);
      return DG_OK;
    }
  }
  dg_cl_stage_timing t;
  st = dg_cl_maxwell_set_state(*op, q);
  for (int w = 0; st == DG_OK && w < DG_TIMING_WARMUP; ++w) st = dg_cl_maxwell_time_stage(*op, &t);
  if (st == DG_OK) st = dg_cl_maxwell_step(*op, 0.0, STEP_DT);
  if (st == DG_OK) st = dg_cl_maxwell_finish(*op);
  if (st != DG_OK) {
    take_reason("first run: ", b->reason, sizeof b->reason);
    dg_cl_maxwell_destroy(op);
  }
  return DG_OK;
}

static int clamp_repeats(int r) {
  return r < 3 ? 3 : r > DG_BENCH_MAX_REPEATS ? DG_BENCH_MAX_REPEATS : r;
}

/* One order of a run: its mesh, the operators of its variants and their samples. */
typedef struct {
  dg_bench_order *out;
  dg_verify_case *c;
  dg_cl_maxwell *ops[DG_BENCH_MAX_VARIANTS];
  double *q;
  double *samples; /* [(variant * (3 + KMAX) + what) * R + round]: stage, step, the PML
                      kernels' sum, kernels */
  int pml_cells;   /* > 0: the box with this many cells around it, ... */
  int pml_terms;   /* ... of PML (1), or of vacuum-like cells without the PML terms (0) */
} order_ctx;

enum { SAMPLE_W = 3 + DG_CL_MAX_STAGE_KERNELS };

static void ctx_release(order_ctx *x) {
  for (int i = 0; i < DG_BENCH_MAX_VARIANTS; ++i) dg_cl_maxwell_destroy(&x->ops[i]);
  dg_free(&x->samples);
  dg_free(&x->q);
  dg_verify_case_destroy(&x->c);
}

/* Mesh, variants, operators: everything before timing, each variant verified and warm. */
static dg_status ctx_prepare(order_ctx *x, dg_device *dev, int N, dg_precision p,
                             const dg_bench_options *o, int R) {
  dg_bench_order *out = x->out;
  FILE *log = o->log;
  const double t0 = dg_now_s();
  memset(out, 0, sizeof *out);
  out->N = N;
  out->precision = p;
  out->tuned = out->dflt = out->baseline = -1;
  DG_CHECK(N >= 1 && N <= 15, DG_ERR_INPUT, "bench: order N=%d out of range 1..15", N);
  DG_CHECK(p == DG_PREC_FLOAT || dev->info.has_fp64, DG_ERR_UNSUPPORTED,
           "bench: device '%s' has no double precision (cl_khr_fp64)", dev->info.name);

  /* The variants: tuned (or the default standing in for it), default, baseline, extras. */
  dg_variant vt, vd = dg_variant_default(&dev->info, N, p), vb = dg_variant_baseline(p);
  out->found = dg_tune_lookup(&dev->info, N, p, &vt, out->tuned_from, sizeof out->tuned_from);
  if (out->found == DG_TUNE_STALE || out->found == DG_TUNE_MISS) vt = vd;
  add_variant(out, &vt, DG_ROLE_TUNED);
  add_variant(out, &vd, DG_ROLE_DEFAULT);
  add_variant(out, &vb, DG_ROLE_BASELINE);
  for (int i = 0; i < o->n_extra; ++i) {
    dg_variant v;
    DG_CALL(dg_variant_parse(o->extra[i], &v));
    v.precision = p; /* the run's precision wins over the spec's */
    add_variant(out, &v, DG_ROLE_EXTRA);
  }

  out->box_n = dg_bench_box_n(&dev->info, N, p, o);
  out->pml_cells = x->pml_cells;
  if (x->pml_cells && !x->pml_terms) { /* the same mesh as the PML case, without a PML */
    dg_mesh *mesh = NULL;
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    const int n = out->box_n;
    DG_CALL(dg_mesh_box_pml(&mesh, lo, hi, n, n, n, x->pml_cells));
    DG_CALL(dg_verify_case_from_mesh(&x->c, mesh, N));
  } else {
    DG_CALL(dg_verify_case_create_pml(&x->c, N, out->box_n, x->pml_cells));
  }
  out->K = x->c->mesh->K;
  out->pml_K = x->c->phys->pml_K;
  out->counts = dg_count_stage(N, p, out->K);
  const size_t nq = 6 * (size_t)x->c->geom->K * x->c->geom->Np;
  DG_CALL(DG_ALLOC(x->q, nq));
  dg_verify_random_fields(STATE_SEED, nq, x->q);
  if (o->verbose && log && x->pml_cells)
    fprintf(log, "[N=%d %s %s] K=%ld elements (box %d^3 x 6 and %d cells around it: %ld PML "
            "elements), %.4g DOFs\n", N, dg_precision_name(p), x->pml_terms ? "PML" : "no PML",
            out->K, out->box_n, x->pml_cells, out->pml_K, out->counts.dofs);
  else if (o->verbose && log)
    fprintf(log, "[N=%d %s] K=%ld elements (box %d^3 x 6), %.4g DOFs; tuned: %s\n", N,
            dg_precision_name(p), out->K, out->box_n, out->counts.dofs,
            out->tuned_from);
  for (int i = 0; i < out->nv; ++i) {
    const double tb = dg_now_s();
    DG_CALL(prepare(dev, x->c, &out->v[i], x->q, &x->ops[i], 1));
    if (o->verbose && log)
      fprintf(log, "[N=%d%s] %-8s %5.1fs  %s%s%s\n", N,
              x->pml_cells ? (x->pml_terms ? " PML" : " no PML") : "",
              x->ops[i] ? "verified" : "FAILED",
              dg_now_s() - tb, out->v[i].spec, x->ops[i] ? "" : ": ",
              x->ops[i] ? "" : out->v[i].reason);
  }
  DG_CALL(DG_ALLOC(x->samples, (size_t)out->nv * SAMPLE_W * R));
  out->seconds = dg_now_s() - t0;
  return DG_OK;
}

/* Round r: each variant one untimed stage (it warms the caches the previous variant
 * evicted), one profiled stage and one step. */
static dg_status ctx_round(order_ctx *x, int r, int R) {
  dg_bench_order *out = x->out;
  const double t0 = dg_now_s();
  for (int i = 0; i < out->nv; ++i) {
    if (!x->ops[i]) continue;
    dg_bench_variant *b = &out->v[i];
    dg_cl_stage_timing t;
    DG_CALL(dg_timing_sample(x->ops[i], &t));
    DG_CALL(dg_cl_maxwell_finish(x->ops[i]));
    const double ts = dg_now_s();
    DG_CALL(dg_cl_maxwell_step(x->ops[i], 0.0, STEP_DT));
    DG_CALL(dg_cl_maxwell_finish(x->ops[i]));
    double *s = x->samples + (size_t)i * SAMPLE_W * R;
    s[r] = (double)t.total_ns;
    s[R + r] = (dg_now_s() - ts) * 1e9;
    b->nk = t.n;
    s[2 * R + r] = 0;
    for (int m = 0; m < t.n; ++m) {
      snprintf(b->k[m].name, sizeof b->k[m].name, "%s", t.name[m]);
      s[(size_t)(3 + m) * R + r] = (double)t.ns[m];
      if (dg_kernel_kind_of(t.name[m]) == DG_KERNEL_PML) s[2 * R + r] += (double)t.ns[m];
    }
  }
  out->seconds += dg_now_s() - t0;
  return DG_OK;
}

static void ctx_summarize(order_ctx *x, int R) {
  dg_bench_order *out = x->out;
  const int N = out->N;
  const dg_precision p = out->precision;
  for (int i = 0; i < out->nv; ++i) {
    if (!x->ops[i]) continue;
    dg_bench_variant *b = &out->v[i];
    double *s = x->samples + (size_t)i * SAMPLE_W * R;
    dg_timing_stats(s, R, b->stage_ns);
    dg_timing_stats(s + R, R, b->step_ns);
    dg_timing_stats(s + 2 * R, R, b->pml_ns);
    for (int r = 0; r < R; ++r) s[2 * R + r] = s[r] - s[2 * R + r]; /* the plain kernels */
    dg_timing_stats(s + 2 * R, R, b->plain_ns);
    for (int m = 0; m < b->nk; ++m) {
      dg_bench_kernel *k = &b->k[m];
      double ks[3];
      dg_timing_stats(s + (size_t)(3 + m) * R, R, ks);
      k->median_ns = ks[0];
      k->min_ns = ks[1];
      k->max_ns = ks[2];
      k->kind = dg_kernel_kind_of(k->name);
      k->flops = dg_kernel_flops(k->kind, N) * (double)out->K;
      k->bytes =
          dg_kernel_bytes(k->kind, N, p) * (double)out->K + dg_kernel_operator_bytes(k->kind, N, p);
    }
    b->ok = 1;
  }
  out->tuned = with_role(out, DG_ROLE_TUNED);
  out->dflt = with_role(out, DG_ROLE_DEFAULT);
  out->baseline = with_role(out, DG_ROLE_BASELINE);
}

dg_status dg_bench_run(dg_device *dev, const int *orders, int n, dg_precision p,
                       const dg_bench_options *o, dg_bench_order *out) {
  dg_status st = DG_OK;
  order_ctx *x = NULL;
  const int R = clamp_repeats(o->repeats);
  /* With a PML: the plain boxes, the boxes with PML, the PML boxes' meshes without it. */
  const int nx = o->pml_cells > 0 ? 3 * n : n;
  DG_CALL(DG_ALLOC(x, nx > 0 ? nx : 1));
  for (int j = 0; j < nx; ++j) {
    x[j].out = &out[j];
    x[j].pml_cells = j < n ? 0 : o->pml_cells;
    x[j].pml_terms = j < 2 * n;
  }
  for (int j = 0; j < nx; ++j)
    DG_CALL_GOTO(done, ctx_prepare(&x[j], dev, orders[j % (n > 0 ? n : 1)], p, o, R));
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < nx; ++j) DG_CALL_GOTO(done, ctx_round(&x[j], r, R));
  for (int j = 0; j < nx; ++j) ctx_summarize(&x[j], R);
done:
  for (int j = 0; j < nx; ++j) ctx_release(&x[j]);
  dg_free(&x);
  return st;
}

dg_status dg_bench_order_run(dg_device *dev, int N, dg_precision p, const dg_bench_options *o,
                             dg_bench_order *out) {
  DG_CALL(dg_bench_run(dev, &N, 1, p, o, out));
  return DG_OK;
}

dg_bench_rates dg_bench_variant_rates(const dg_bench_order *r, const dg_bench_variant *v,
                                      const dg_device_limits *l) {
  dg_bench_rates x;
  memset(&x, 0, sizeof x);
  const double s = v->stage_ns[0] * 1e-9;
  if (!v->ok || !(s > 0)) return x;
  x.dofs_s = r->counts.dofs / s;
  if (v->step_ns[0] > 0) x.dofs_s_step = 5.0 * r->counts.dofs / (v->step_ns[0] * 1e-9);
  x.gflops = r->counts.flops / s * 1e-9;
  x.gbs = r->counts.bytes / s * 1e-9;
  if (l) {
    x.bound_ns = 1e9 * dg_limits_roofline_s(l, r->precision, r->counts.flops, r->counts.bytes);
    x.roof_pct = 100.0 * x.bound_ns / v->stage_ns[0];
  }
  return x;
}

dg_bench_kernel_rates dg_bench_kernel_rates_of(const dg_bench_kernel *k, dg_precision p,
                                               const dg_device_limits *l) {
  dg_bench_kernel_rates x;
  memset(&x, 0, sizeof x);
  const double s = k->median_ns * 1e-9;
  if (!(s > 0) || k->bytes <= 0) return x;
  x.gflops = k->flops / s * 1e-9;
  x.gbs = k->bytes / s * 1e-9;
  x.intensity = k->flops / k->bytes;
  if (l && l->bandwidth_gbs > 0) {
    x.bound_ns = 1e9 * dg_limits_roofline_s(l, p, k->flops, k->bytes);
    x.roof_pct = 100.0 * x.bound_ns / k->median_ns;
    x.memory_bound = k->bytes / l->bandwidth_gbs >= k->flops / dg_limits_peak_gflops(l, p);
  }
  return x;
}

double dg_bench_ratio(const dg_bench_order *r, int a, int b) {
  if (a < 0 || b < 0 || !r->v[a].ok || !r->v[b].ok || !(r->v[a].stage_ns[0] > 0)) return 0;
  return r->v[b].stage_ns[0] / r->v[a].stage_ns[0];
}

/* ---- scaling ------------------------------------------------------------------------------- */

double dg_bench_scaling_cap(const dg_device_info *info, dg_precision p, char *why, size_t cap) {
  (void)p;
  const double per_dof = 200.0; /* bytes: operator buffers, host geometry and state */
  double d = (double)info->global_mem_size / 4 / per_dof;
  snprintf(why, cap, "a quarter of the device memory at %.0f B per DOF", per_dof);
  const int cpu = !(info->type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR));
  if (cpu && d > 8388608.0) {
    d = 8388608.0;
    snprintf(why, cap, "2^23 DOFs on a CPU device (stages of ~50 ms; far past the caches)");
  }
  return d;
}

void dg_bench_scaling_free(dg_bench_scaling *s) {
  if (!s) return;
  dg_free(&s->pts);
  s->np = 0;
}

dg_status dg_bench_scaling_run(dg_device *dev, int N, dg_precision p, const dg_bench_options *o,
                               double max_dofs, dg_bench_scaling *out) {
  dg_status st = DG_OK;
  FILE *log = o->log;
  const double t0 = dg_now_s();
  const int R = clamp_repeats(o->repeats);
  double *q = NULL, *samples = NULL;
  dg_verify_case **cs = NULL;
  dg_cl_maxwell **ops = NULL;
  memset(out, 0, sizeof *out);
  out->N = N;
  out->precision = p;
  out->rel_diff = NAN;
  DG_CHECK(N >= 1 && N <= 15, DG_ERR_INPUT, "bench: order N=%d out of range 1..15", N);
  DG_CHECK(p == DG_PREC_FLOAT || dev->info.has_fp64, DG_ERR_UNSUPPORTED,
           "bench: device '%s' has no double precision (cl_khr_fp64)", dev->info.name);
  out->found = dg_tune_lookup(&dev->info, N, p, &out->v, out->tuned_from, sizeof out->tuned_from);
  if (out->found == DG_TUNE_STALE || out->found == DG_TUNE_MISS)
    out->v = dg_variant_default(&dev->info, N, p);
  dg_variant_print(&out->v, out->spec, sizeof out->spec);
  out->max_dofs = dg_bench_scaling_cap(&dev->info, p, out->cap_reason, sizeof out->cap_reason);
  if (max_dofs > 0) {
    out->max_dofs = max_dofs;
    snprintf(out->cap_reason, sizeof out->cap_reason, "--max-dofs");
  }
  /* Box sizes n = 2, 3, ... with the DOFs (36 Np n^3) about doubling per point, and the size
   * the order comparison uses (the tuner's rule), so the plot shows where it sits. */
  const double per_n3 = 36.0 * dg_variant_np(N);
  dg_bench_options def = *o;
  def.elements = 0;
  def.dofs = 0;
  const int nb = dg_bench_box_n(&dev->info, N, p, &def);
  out->bench_dofs = per_n3 * nb * nb * nb;
  int sizes[64], ns = 0;
  for (int n = 2; ns < 63 && per_n3 * n * n * n <= out->max_dofs;) {
    if (nb < n && (ns == 0 || sizes[ns - 1] < nb) && out->bench_dofs <= out->max_dofs)
      sizes[ns++] = nb;
    sizes[ns++] = n;
    const int next = (int)lround(n * cbrt(2.0));
    n = next > n ? next : n + 1;
  }
  if (ns == 0) sizes[ns++] = 2;
  DG_CALL(DG_ALLOC(out->pts, ns));
  DG_CALL_GOTO(done, DG_ALLOC(cs, ns));
  DG_CALL_GOTO(done, DG_ALLOC(ops, ns));
  /* Every size built first, then the rounds interleaved across sizes (as the order
   * comparison does across variants), so a slow spell of a shared machine is spread over
   * all sizes rather than falling on one. */
  for (int i = 0; i < ns; ++i) {
    dg_bench_point *pt = &out->pts[out->np];
    pt->box_n = sizes[i];
    DG_CALL_GOTO(done, dg_verify_case_create(&cs[i], N, sizes[i]));
    pt->K = cs[i]->mesh->K;
    pt->dofs = 6.0 * cs[i]->geom->Np * (double)pt->K;
    const size_t nq = 6 * (size_t)cs[i]->geom->K * cs[i]->geom->Np;
    DG_CALL_GOTO(done, DG_ALLOC(q, nq));
    dg_verify_random_fields(STATE_SEED, nq, q);
    dg_bench_variant b;
    memset(&b, 0, sizeof b);
    b.v = out->v;
    b.rel_diff = NAN;
    st = prepare(dev, cs[i], &b, q, &ops[i], i == 0); /* one verification: same kernels */
    dg_free(&q);
    if (st == DG_ERR_MEMORY || (st == DG_OK && !ops[i] && i > 0)) {
      /* The device is out of room at this size: the sweep ends here. */
      if (st != DG_OK) take_reason("", b.reason, sizeof b.reason);
      snprintf(out->cap_reason, sizeof out->cap_reason, "stopped at n=%d: %.100s", sizes[i],
               b.reason);
      st = DG_OK;
      dg_verify_case_destroy(&cs[i]);
      break;
    }
    if (st != DG_OK) goto done;
    DG_CHECK_GOTO(done, ops[i], DG_ERR_NUMERIC, "bench --scaling: variant '%s' at N=%d: %s",
                  out->spec, N, b.reason);
    if (i == 0) out->rel_diff = b.rel_diff;
    out->np++;
  }
  DG_CALL_GOTO(done, DG_ALLOC(samples, (size_t)out->np * R));
  for (int r = 0; r < R; ++r)
    for (int i = 0; i < out->np; ++i) {
      dg_cl_stage_timing t;
      DG_CALL_GOTO(done, dg_timing_sample(ops[i], &t));
      samples[(size_t)i * R + r] = (double)t.total_ns;
    }
  for (int i = 0; i < out->np; ++i) {
    dg_bench_point *pt = &out->pts[i];
    dg_timing_stats(samples + (size_t)i * R, R, pt->stage_ns);
    if (o->verbose && log)
      fprintf(log, "[N=%d scaling] n=%-3d K=%-8ld %10.4g DOFs  %9.3f ms  %8.1f MDOF/s\n", N,
              pt->box_n, pt->K, pt->dofs, pt->stage_ns[0] * 1e-6,
              pt->dofs / pt->stage_ns[0] * 1e3);
  }
  double best = 0;
  for (int i = 0; i < out->np; ++i) best = fmax(best, out->pts[i].dofs / out->pts[i].stage_ns[0]);
  for (int i = 0; i < out->np; ++i)
    if (out->pts[i].dofs / out->pts[i].stage_ns[0] >= 0.9 * best) {
      out->full_dofs = out->pts[i].dofs;
      break;
    }
  out->seconds = dg_now_s() - t0;
done:
  for (int i = 0; ops && i < ns; ++i) dg_cl_maxwell_destroy(&ops[i]);
  for (int i = 0; cs && i < ns; ++i) dg_verify_case_destroy(&cs[i]);
  dg_free(&ops);
  dg_free(&cs);
  dg_free(&samples);
  dg_free(&q);
  if (st != DG_OK) dg_bench_scaling_free(out);
  return st;
}

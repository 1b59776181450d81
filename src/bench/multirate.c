/* dgtd bench --time-stepping multirate[-lserk4][:L]: a multirate stepper (AB3 or LSERK4,
 * backend/cl_multirate.h) against global LSERK4 on one mesh (PEC walls, vacuum), both on the
 * device with the same variant, over the same simulated time: the level histogram, the wall
 * time per macro step and per unit of simulated time of each, the RHS element-evaluations of
 * each (the work saved), and for AB3 per level the kernel time of its right-hand sides and
 * of its AB3 updates (a profiled pass that waits for every kernel, so its sum is above the
 * unprofiled wall time). */
#include "bench/multirate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "backend/cl_multirate.h"
#include "backend/verify.h"
#include "core/alloc.h"
#include "core/clock.h"
#include "dg/lserk.h"
#include "dg/multirate.h"
#include "mesh/mesh.h"
#include "refel/refel.h"

/* The problem, the variant and what was measured. */
typedef struct {
  dg_mesh *m;
  dg_refel *ref;
  dg_geom *g;
  dg_maxwell *p;
  int *level;
  dg_mr_plan plan;
  double *q;
  size_t n;
  dg_variant v;
  char spec[DG_VARIANT_SPEC_MAX];
  double H, dt_g;       /* the macro step, and the global LSERK4 step */
  int L, n_global;      /* rate levels; LSERK4 steps over the same simulated time */
  double t_mr, t_gl;    /* wall seconds of the timed steps */
  long long launch_mr, launch_gl; /* kernel launches of the timed steps */
  long long evals_timed; /* RHS element-evaluations of the timed multirate steps */
  double evals_gl;
  dg_cl_mr_profile prof; /* AB3: per level, from the profiled pass */
} bench_mr;

static void bench_mr_free(bench_mr *b) {
  dg_free(&b->q);
  dg_free(&b->level);
  dg_maxwell_destroy(&b->p);
  dg_geom_destroy(&b->g);
  dg_refel_destroy(&b->ref);
  dg_mesh_destroy(&b->m);
}

/* An operator with v on b (grouped by level or not), verified against the reference. */
static dg_status make_op(dg_device *dev, bench_mr *b, const dg_variant *v, int grouped,
                         dg_cl_maxwell **op) {
  if (grouped)
    DG_CALL(dg_cl_maxwell_create_grouped(op, dev, b->p, v, NULL, b->level, b->plan.n_levels));
  else
    DG_CALL(dg_cl_maxwell_create(op, dev, b->p, v, NULL));
  double diff = 0;
  int pass = 0;
  dg_status st = dg_cl_verify_op_at(*op, b->p, 0.0, 20261123, &diff, &pass);
  if (st == DG_OK && !pass)
    st = DG_ERROR(DG_ERR_NUMERIC, "variant failed verification (relative difference %.2e)", diff);
  if (st != DG_OK) dg_cl_maxwell_destroy(op);
  DG_CALL(st);
  return DG_OK;
}

/* Wall seconds of `steps` steps of dt from t0 (queued, then waited for). */
static dg_status time_steps(dg_stepper *st, double t0, double dt, int steps, double *secs) {
  DG_CALL(dg_stepper_finish(st));
  const double a = dg_now_s();
  for (int i = 0; i < steps; ++i) DG_CALL(dg_stepper_step(st, t0 + i * dt, dt));
  DG_CALL(dg_stepper_finish(st));
  *secs = dg_now_s() - a;
  return DG_OK;
}

/* The mesh, its levels, a random state, the variant and the step sizes. */
static dg_status setup(bench_mr *b, dg_device *dev, const dg_bench_mr_options *o) {
  DG_CALL(dg_mesh_read(&b->m, o->mesh));
  DG_CALL(dg_refel_create(&b->ref, o->order));
  DG_CALL(dg_geom_create(&b->g, b->m, b->ref));
  DG_CALL(dg_maxwell_create(&b->p, b->g));
  DG_CALL(DG_ALLOC(b->level, b->m->K + 1));
  DG_CALL(dg_multirate_levels(b->p, o->scheme, o->max_levels,
                              dg_cl_multirate_stage_cost(dev->info.type), b->level, &b->plan));
  b->n = 6 * (size_t)b->m->K * b->ref->Np;
  DG_CALL(DG_ALLOC(b->q, b->n));
  dg_verify_random_fields(7, b->n, b->q);
  b->v = dg_variant_default(&dev->info, o->order, o->precision);
  if (o->variant) DG_CALL(dg_variant_parse(o->variant, &b->v));
  dg_variant_print(&b->v, b->spec, sizeof b->spec);
  const double dt = dg_maxwell_dt(b->p, 1.0);
  b->H = dg_multirate_macro_dt(&b->plan, 1.0);
  b->L = b->plan.n_levels;
  b->n_global = (int)ceil(o->steps * b->H / dt - 1e-9);
  b->dt_g = o->steps * b->H / b->n_global;
  return DG_OK;
}

/* A multirate stepper over b from b->q (prof: NULL, or its per-level profile). */
static dg_status multirate_stepper(dg_device *dev, bench_mr *b, const dg_bench_mr_options *o,
                                   long long *evals, dg_cl_mr_profile *prof, dg_stepper **mr) {
  dg_cl_maxwell *op = NULL;
  DG_CALL(make_op(dev, b, &b->v, 1, &op));
  DG_CALL(dg_stepper_cl_multirate_create(mr, op, b->level, b->L, o->scheme, evals, prof));
  DG_CALL(dg_stepper_put_state(*mr, b->q));
  return DG_OK;
}

/* The multirate stepper: start-up and warm-up (untimed), then the timed macro steps; for
 * AB3 a second, profiled pass (per level; the start-up records nothing). */
static dg_status time_multirate(dg_device *dev, bench_mr *b, const dg_bench_mr_options *o) {
  dg_status st = DG_OK;
  dg_stepper *mr = NULL;
  long long evals = 0;
  double junk = 0;
  DG_CALL_GOTO(done, multirate_stepper(dev, b, o, &evals, NULL, &mr));
  /* the start-up, and warm-up macro steps: the first launch of a kernel over a new range
   * may compile a specialised version (PoCL does) */
  DG_CALL_GOTO(done, time_steps(mr, 0, b->H, 4, &junk));
  evals = 0;
  const long long l0 = dev->launches;
  DG_CALL_GOTO(done, time_steps(mr, 4 * b->H, b->H, o->steps, &b->t_mr));
  b->launch_mr = dev->launches - l0;
  b->evals_timed = evals;
  dg_stepper_destroy(&mr);
  if (o->scheme == DG_MR_AB3) {
    DG_CALL_GOTO(done, multirate_stepper(dev, b, o, NULL, &b->prof, &mr));
    DG_CALL_GOTO(done, time_steps(mr, 0, b->H, 2, &junk));
    memset(&b->prof, 0, sizeof b->prof);
    b->prof.n_levels = b->L;
    DG_CALL_GOTO(done, time_steps(mr, 2 * b->H, b->H, o->steps, &junk));
  }
done:
  dg_stepper_destroy(&mr);
  return st;
}

/* Global LSERK4 over the same simulated time, same variant, ungrouped. */
static dg_status time_global(dg_device *dev, bench_mr *b) {
  dg_status st = DG_OK;
  dg_stepper *gl = NULL;
  dg_cl_maxwell *op = NULL;
  double junk = 0;
  DG_CALL_GOTO(done, make_op(dev, b, &b->v, 0, &op));
  DG_CALL_GOTO(done, dg_stepper_cl_create(&gl, op));
  DG_CALL_GOTO(done, dg_stepper_put_state(gl, b->q));
  DG_CALL_GOTO(done, time_steps(gl, 0, b->dt_g, 2, &junk)); /* warm-up */
  const long long l0 = dev->launches;
  DG_CALL_GOTO(done, time_steps(gl, 0, b->dt_g, b->n_global, &b->t_gl));
  b->launch_gl = dev->launches - l0;
  b->evals_gl = (double)DG_LSERK_STAGES * b->m->K * b->n_global;
done:
  dg_stepper_destroy(&gl);
  return st;
}

static void print_text(const bench_mr *b, const dg_bench_mr_options *o, FILE *out) {
  const int ab3 = o->scheme == DG_MR_AB3, L = b->L, M = 1 << (L - 1);
  const double H = b->H, T = o->steps * H;
  const dg_cl_mr_profile *prof = &b->prof;
  fprintf(out, "multirate %s vs global LSERK4: %s, K = %d, N = %d, %s, variant %s\n",
          ab3 ? "AB3" : "LSERK4", o->mesh, b->m->K, o->order,
          dg_precision_name(b->v.precision), b->spec);
  fprintf(out, "  levels (at most %d):", o->max_levels);
  for (int l = 0; l < L; ++l) fprintf(out, " %d: %d", l, b->plan.count[l]);
  fprintf(out, " elements; local steps span %.2fx\n", b->plan.dt_ratio);
  fprintf(out, "  simulated time %.6g: %d macro steps of %.6g (finest %.6g) vs %d LSERK4 steps "
               "of %.6g\n", T, o->steps, H, H / M, b->n_global, b->dt_g);
  fprintf(out, "  RHS element-evaluations: multirate %lld, LSERK4 %.0f: %.2fx less work\n",
          b->evals_timed, b->evals_gl, b->evals_gl / (double)b->evals_timed);
  fprintf(out, "  wall: multirate %.4f s (%.3f ms per macro step), LSERK4 %.4f s: %.2fx faster\n",
          b->t_mr, 1e3 * b->t_mr / o->steps, b->t_gl, b->t_gl / b->t_mr);
  /* The wall time beyond the work: multirate's time less its element-evaluations at global
   * LSERK4's cost per element-evaluation (launches included there too), per extra launch. */
  const double per_eval = b->t_gl / b->evals_gl;
  const double beyond = b->t_mr - per_eval * (double)b->evals_timed;
  const long long extra = b->launch_mr - (long long)((double)b->launch_gl * b->evals_timed /
                                                     b->evals_gl);
  fprintf(out, "  launches: multirate %lld (%.0f per macro step), LSERK4 %lld (%.0f per step); "
               "multirate's wall beyond its work at LSERK4's cost: %.4f s, %.1f us per extra "
               "launch (its own kernels and the host together: `dgtd run --profile` tells "
               "them apart)\n",
          b->launch_mr, (double)b->launch_mr / o->steps, b->launch_gl,
          (double)b->launch_gl / b->n_global, beyond, extra > 0 ? 1e6 * beyond / extra : 0.0);
  if (!ab3) return;
  fprintf(out, "  per level (profiled pass, kernels waited for; per macro step):\n");
  fprintf(out, "    level  elements  evaluations   RHS ms   AB3/copy ms   RHS us/element-eval\n");
  for (int l = 0; l < L; ++l) {
    const double per = (double)prof->evals[l] / o->steps;
    fprintf(out, "    %5d  %8d  %11.0f  %7.3f  %12.3f  %10.3f\n", l, b->plan.count[l], per,
            1e3 * prof->rhs_s[l] / o->steps, 1e3 * prof->ab_s[l] / o->steps,
            prof->evals[l] ? 1e6 * prof->rhs_s[l] / (double)prof->evals[l] : 0.0);
  }
}

static dg_status print_json(const bench_mr *b, const dg_bench_mr_options *o, FILE *out) {
  dg_status st = DG_OK;
  cJSON *doc = cJSON_CreateObject(), *lv = cJSON_CreateArray();
  DG_CHECK_GOTO(done, doc && lv && cJSON_AddItemToObject(doc, "levels", lv), DG_ERR_MEMORY,
                "out of memory");
  for (int l = 0; l < b->L; ++l) {
    cJSON *e = cJSON_CreateObject();
    DG_CHECK_GOTO(done, e && cJSON_AddItemToArray(lv, e), DG_ERR_MEMORY, "out of memory");
    cJSON_AddNumberToObject(e, "elements", b->plan.count[l]);
    cJSON_AddNumberToObject(e, "evaluations", (double)b->prof.evals[l]);
    cJSON_AddNumberToObject(e, "rhs_s", b->prof.rhs_s[l]);
    cJSON_AddNumberToObject(e, "ab3_s", b->prof.ab_s[l]);
  }
  cJSON_AddStringToObject(doc, "format", "dgtd-bench-multirate/1");
  cJSON_AddStringToObject(doc, "scheme", o->scheme == DG_MR_AB3 ? "multirate" : "multirate-lserk4");
  cJSON_AddStringToObject(doc, "mesh", o->mesh);
  cJSON_AddStringToObject(doc, "variant", b->spec);
  cJSON_AddNumberToObject(doc, "K", b->m->K);
  cJSON_AddNumberToObject(doc, "order", o->order);
  cJSON_AddNumberToObject(doc, "simulated_time", o->steps * b->H);
  cJSON_AddNumberToObject(doc, "macro_steps", o->steps);
  cJSON_AddNumberToObject(doc, "macro_dt", b->H);
  cJSON_AddNumberToObject(doc, "lserk4_steps", b->n_global);
  cJSON_AddNumberToObject(doc, "rhs_evals_multirate", (double)b->evals_timed);
  cJSON_AddNumberToObject(doc, "rhs_evals_lserk4", b->evals_gl);
  cJSON_AddNumberToObject(doc, "wall_s_multirate", b->t_mr);
  cJSON_AddNumberToObject(doc, "wall_s_lserk4", b->t_gl);
  cJSON_AddNumberToObject(doc, "launches_multirate", (double)b->launch_mr);
  cJSON_AddNumberToObject(doc, "launches_lserk4", (double)b->launch_gl);
  char *text = cJSON_Print(doc);
  DG_CHECK_GOTO(done, text, DG_ERR_MEMORY, "out of memory");
  fprintf(out, "%s\n", text);
  cJSON_free(text);
done:
  cJSON_Delete(doc);
  return st;
}

dg_status dg_bench_multirate(dg_device *dev, const dg_bench_mr_options *o, FILE *out, int json) {
  DG_CHECK(o->mesh && o->mesh[0], DG_ERR_INPUT,
           "dgtd bench --time-stepping multirate needs --mesh FILE (a graded mesh)");
  dg_status st = DG_OK;
  bench_mr b;
  memset(&b, 0, sizeof b);
  DG_CALL_GOTO(done, setup(&b, dev, o));
  DG_CALL_GOTO(done, time_multirate(dev, &b, o));
  DG_CALL_GOTO(done, time_global(dev, &b));
  if (json) DG_CALL_GOTO(done, print_json(&b, o, out));
  else print_text(&b, o, out);
done:
  bench_mr_free(&b);
  return st;
}

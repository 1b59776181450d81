/* dgtd bench --time-stepping multirate[-lserk4][:L]: a multirate stepper (AB3 or LSERK4,
 * backend/cl_multirate.h) against global LSERK4 on one mesh (PEC walls, vacuum), both on the
 * device with the same variant, over the same simulated time: the level histogram, the wall
 * time per macro step and per unit of simulated time of each, the RHS element-evaluations of
 * each (the work saved), and for AB3 per level the kernel time of its right-hand sides and
 * of its AB3 updates (a profiled pass that waits for every kernel, so its sum is above the
 * unprofiled wall time). */
#include "app/bench_multirate.h"

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

typedef struct {
  dg_mesh *m;
  dg_refel *ref;
  dg_geom *g;
  dg_maxwell *p;
  int *level;
  dg_mr_plan plan;
  double *q;
  size_t n;
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

dg_status dg_bench_multirate(dg_device *dev, const dg_bench_mr_options *o, FILE *out, int json) {
  dg_status st = DG_OK;
  bench_mr b;
  memset(&b, 0, sizeof b);
  dg_stepper *mr = NULL, *gl = NULL;
  dg_cl_mr_profile prof;
  long long evals_mr = 0;
  cJSON *doc = NULL;
  DG_CHECK(o->mesh && o->mesh[0], DG_ERR_INPUT,
           "dgtd bench --time-stepping multirate needs --mesh FILE (a graded mesh)");
  DG_CALL_GOTO(done, dg_mesh_read(&b.m, o->mesh));
  DG_CALL_GOTO(done, dg_refel_create(&b.ref, o->order));
  DG_CALL_GOTO(done, dg_geom_create(&b.g, b.m, b.ref));
  DG_CALL_GOTO(done, dg_maxwell_create(&b.p, b.g));
  DG_CALL_GOTO(done, DG_ALLOC(b.level, b.m->K + 1));
  DG_CALL_GOTO(done, dg_multirate_levels(b.p, o->scheme, o->max_levels, b.level, &b.plan));
  const int ab3 = o->scheme == DG_MR_AB3;
  const char *name = ab3 ? "AB3" : "LSERK4";
  memset(&prof, 0, sizeof prof);
  b.n = 6 * (size_t)b.m->K * b.ref->Np;
  DG_CALL_GOTO(done, DG_ALLOC(b.q, b.n));
  dg_verify_random_fields(7, b.n, b.q);
  dg_variant v = dg_variant_default(&dev->info, o->order, o->precision);
  if (o->variant) DG_CALL_GOTO(done, dg_variant_parse(o->variant, &v));
  char spec[DG_VARIANT_SPEC_MAX];
  dg_variant_print(&v, spec, sizeof spec);
  const double H = dg_multirate_macro_dt(&b.plan, 1.0), dt = dg_maxwell_dt(b.p, 1.0);
  const int L = b.plan.n_levels, M = 1 << (L - 1);
  const int n_global = (int)ceil(o->steps * H / dt - 1e-9);
  const double dt_g = o->steps * H / n_global;

  /* multirate: start-up (2 macro steps, untimed), then the timed macro steps */
  dg_cl_maxwell *op = NULL;
  DG_CALL_GOTO(done, make_op(dev, &b, &v, 1, &op));
  DG_CALL_GOTO(done, dg_stepper_cl_multirate_create(&mr, op, b.level, L, o->scheme, &evals_mr, NULL));
  DG_CALL_GOTO(done, dg_stepper_put_state(mr, b.q));
  double t_mr = 0, t_gl = 0, junk = 0;
  /* the start-up, and warm-up macro steps: the first launch of a kernel over a new range
   * may compile a specialised version (PoCL does) */
  DG_CALL_GOTO(done, time_steps(mr, 0, H, 4, &junk));
  evals_mr = 0;
  DG_CALL_GOTO(done, time_steps(mr, 4 * H, H, o->steps, &t_mr));
  const long long evals_timed = evals_mr;
  dg_stepper_destroy(&mr);
  /* the profiled pass (AB3: per level; the start-up records nothing) */
  if (ab3) {
    DG_CALL_GOTO(done, make_op(dev, &b, &v, 1, &op));
    DG_CALL_GOTO(done, dg_stepper_cl_multirate_create(&mr, op, b.level, L, o->scheme, NULL, &prof));
    DG_CALL_GOTO(done, dg_stepper_put_state(mr, b.q));
    DG_CALL_GOTO(done, time_steps(mr, 0, H, 2, &junk));
    memset(&prof, 0, sizeof prof);
    prof.n_levels = L;
    DG_CALL_GOTO(done, time_steps(mr, 2 * H, H, o->steps, &junk));
    dg_stepper_destroy(&mr);
  }

  /* global LSERK4 over the same simulated time, same variant, ungrouped */
  DG_CALL_GOTO(done, make_op(dev, &b, &v, 0, &op));
  DG_CALL_GOTO(done, dg_stepper_cl_create(&gl, op));
  DG_CALL_GOTO(done, dg_stepper_put_state(gl, b.q));
  DG_CALL_GOTO(done, time_steps(gl, 0, dt_g, 2, &junk)); /* warm-up */
  DG_CALL_GOTO(done, time_steps(gl, 0, dt_g, n_global, &t_gl));
  const double evals_gl = (double)DG_LSERK_STAGES * b.m->K * n_global;
  const double T = o->steps * H;

  if (!json) {
    fprintf(out, "multirate %s vs global LSERK4: %s, K = %d, N = %d, %s, variant %s\n", name,
            o->mesh, b.m->K, o->order, dg_precision_name(v.precision), spec);
    fprintf(out, "  levels (at most %d):", o->max_levels);
    for (int l = 0; l < L; ++l) fprintf(out, " %d: %d", l, b.plan.count[l]);
    fprintf(out, " elements; local steps span %.2fx\n", b.plan.dt_ratio);
    fprintf(out, "  simulated time %.6g: %d macro steps of %.6g (finest %.6g) vs %d LSERK4 steps "
                 "of %.6g\n", T, o->steps, H, H / M, n_global, dt_g);
    fprintf(out, "  RHS element-evaluations: multirate %lld, LSERK4 %.0f: %.2fx less work\n",
            evals_timed, evals_gl, evals_gl / (double)evals_timed);
    fprintf(out, "  wall: multirate %.4f s (%.3f ms per macro step), LSERK4 %.4f s: %.2fx faster\n",
            t_mr, 1e3 * t_mr / o->steps, t_gl, t_gl / t_mr);
    if (ab3) {
      fprintf(out, "  per level (profiled pass, kernels waited for; per macro step):\n");
      fprintf(out, "    level  elements  evaluations   RHS ms   AB3/copy ms   RHS us/element-eval\n");
    }
    for (int l = 0; ab3 && l < L; ++l) {
      const double per = (double)prof.evals[l] / o->steps;
      fprintf(out, "    %5d  %8d  %11.0f  %7.3f  %12.3f  %10.3f\n", l, b.plan.count[l], per,
              1e3 * prof.rhs_s[l] / o->steps, 1e3 * prof.ab_s[l] / o->steps,
              prof.evals[l] ? 1e6 * prof.rhs_s[l] / (double)prof.evals[l] : 0.0);
    }
  } else {
    doc = cJSON_CreateObject();
    cJSON *lv = cJSON_CreateArray();
    DG_CHECK_GOTO(done, doc && lv && cJSON_AddItemToObject(doc, "levels", lv), DG_ERR_MEMORY,
                  "out of memory");
    for (int l = 0; l < L; ++l) {
      cJSON *e = cJSON_CreateObject();
      DG_CHECK_GOTO(done, e && cJSON_AddItemToArray(lv, e), DG_ERR_MEMORY, "out of memory");
      cJSON_AddNumberToObject(e, "elements", b.plan.count[l]);
      cJSON_AddNumberToObject(e, "evaluations", (double)prof.evals[l]);
      cJSON_AddNumberToObject(e, "rhs_s", prof.rhs_s[l]);
      cJSON_AddNumberToObject(e, "ab3_s", prof.ab_s[l]);
    }
    cJSON_AddStringToObject(doc, "format", "dgtd-bench-multirate/1");
    cJSON_AddStringToObject(doc, "scheme", ab3 ? "multirate" : "multirate-lserk4");
    cJSON_AddStringToObject(doc, "mesh", o->mesh);
    cJSON_AddStringToObject(doc, "variant", spec);
    cJSON_AddNumberToObject(doc, "K", b.m->K);
    cJSON_AddNumberToObject(doc, "order", o->order);
    cJSON_AddNumberToObject(doc, "simulated_time", T);
    cJSON_AddNumberToObject(doc, "macro_steps", o->steps);
    cJSON_AddNumberToObject(doc, "macro_dt", H);
    cJSON_AddNumberToObject(doc, "lserk4_steps", n_global);
    cJSON_AddNumberToObject(doc, "rhs_evals_multirate", (double)evals_timed);
    cJSON_AddNumberToObject(doc, "rhs_evals_lserk4", evals_gl);
    cJSON_AddNumberToObject(doc, "wall_s_multirate", t_mr);
    cJSON_AddNumberToObject(doc, "wall_s_lserk4", t_gl);
    char *text = cJSON_Print(doc);
    DG_CHECK_GOTO(done, text, DG_ERR_MEMORY, "out of memory");
    fprintf(out, "%s\n", text);
    cJSON_free(text);
  }
done:
  cJSON_Delete(doc);
  dg_stepper_destroy(&mr);
  dg_stepper_destroy(&gl);
  bench_mr_free(&b);
  return st;
}

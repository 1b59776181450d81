/* The OpenCL multirate steppers (backend/cl_multirate.h), AB3 and LSERK4, against the
 * reference ones (dg/multirate.h) on the graded box of
 * test_dg_multirate_converges_and_keeps_energy (3 x 2 x 2 cells of widths 1:3:9 along x,
 * K = 72, three rate levels of 24 elements, so every level is padded and starts its own
 * slot range): from the (1,1,1) cavity mode, 6 macro steps (2 start-up LSERK4, 4 of the
 * scheme, each of 4 sub-steps) at 1.5 x the default step (AB3) or the default step (LSERK4).
 *   - every variant of the covering set (tests/oclgrind_util.h; make test: one per lift role,
 *     the fused right-hand sides fuse=rhs (kb=4) and fuse=res (kb=2), whose one kernel runs
 *     over each level's range of blocks, and CLBlast; all with DGTD_TEST_ALL=1), float and
 *     double, at N = 2:
 *     relative L2 difference of the state <= 1e-10 in double, <= 2e-5 in float (a few
 *     hundred float roundings of O(1) values); the energy from the device matches the
 *     reference's to the same tolerance, and the RHS element-evaluations counted match;
 *   - levels with an empty one between two (planned with a cost per level stage: 48 / 0 /
 *     24), both schemes, the default variant and fuse=res in double: the same tolerance;
 *   - the operator grouped by level gives the same right-hand side as the ungrouped one
 *     (element order is the host's in both);
 *     Both schemes; LSERK4 also through the finer levels' trajectories and the coarser
 *     levels' AB3 polynomials at every stage;
 *   - under Oclgrind (--data-races --uninitialized --check-api), N = 1, 3 macro steps (the
 *     start-up and one step of the scheme): AB3 with vec/face/fused-update in double and
 *     fuse=rhs (kb=2) in float, LSERK4 with fuse=res (kb=2) in double (with DGTD_TEST_ALL=1
 *     also LSERK4 with the default split kernels and CLBlast in float)
 *     (with DGTD_TEST_ALL=1 also separate flux + lift in float, fused flux-lift, fuse=res and
 *     CLBlast): no race, no
 *     uninitialized read, no API error, and the comparison passes;
 *   - the energy of the cavity mode (upwind, double) never grows from one macro step to the
 *     next over 300 macro steps (10 000 with DGTD_TEST_ALL=1), both schemes;
 *   - refusals: an ungrouped operator, and wrong levels. */
#include "oclgrind_util.h"
#include "test_multirate_util.h"
#include "test_util.h"

#include "backend/cl_multirate.h"
#include "core/alloc.h"
#include "dg/cavity.h"
#include "dg/multirate.h"

static dg_mr_scheme scheme = DG_MR_AB3; /* of the comparisons */

/* The cost per level stage the levels are planned with (dg_multirate_levels): 0, the graded
 * box's three levels of 24; 48 lowers level 1 onto level 0 (48 / 0 / 24, an empty level). */
static double plan_omega = 0;

static dg_status make(setup *s, int N) {
  DG_CALL(setup_make(s, N, 1.0, 8, scheme));
  if (plan_omega > 0)
    DG_CALL(dg_multirate_levels(s->p, scheme, 8, plan_omega, s->level, &s->plan));
  return DG_OK;
}

static void destroy(setup *s) { setup_destroy(s); }

static int macro_steps = 6; /* 3 under Oclgrind: the start-up and one AB3 macro step */

static dg_status run_steps(setup *s, dg_stepper *st, double *q, double *e) {
  const double H = dg_multirate_macro_dt(&s->plan, scheme == DG_MR_AB3 ? 1.5 : 1.0);
  dg_maxwell_interpolate(s->g, dg_cavity_mode_eval, &s->mode, 0.0, q);
  DG_CALL(dg_stepper_put_state(st, q));
  for (int k = 0; k < macro_steps; ++k) DG_CALL(dg_stepper_step(st, k * H, H));
  DG_CALL(dg_stepper_get_state(st, q));
  DG_CALL(dg_stepper_energy(st, e));
  return DG_OK;
}

/* One variant at order N: the relative state and energy differences against the reference
 * and whether the evaluation counts agree. */
static dg_status compare(dg_device *dev, const dg_variant *v, int N, double *diff,
                         double *ediff, int *counts_equal) {
  dg_status st = DG_OK;
  setup s = {0};
  double *qr = NULL, *qc = NULL;
  dg_stepper *ref = NULL, *cl = NULL;
  long long er = 0, ec = 0;
  double e_ref = 0, e_cl = 0;
  DG_CALL_GOTO(done, make(&s, N));
  DG_CALL_GOTO(done, DG_ALLOC(qr, s.n));
  DG_CALL_GOTO(done, DG_ALLOC(qc, s.n));
  DG_CALL_GOTO(done, dg_stepper_multirate_create(&ref, s.p, s.level, s.plan.n_levels, scheme, NULL, &er));
  DG_CALL_GOTO(done, run_steps(&s, ref, qr, &e_ref));
  dg_cl_maxwell *op = NULL;
  DG_CALL_GOTO(done, dg_cl_maxwell_create_grouped(&op, dev, s.p, v, NULL, s.level, s.plan.n_levels));
  DG_CALL_GOTO(done, dg_stepper_cl_multirate_create(&cl, op, s.level, s.plan.n_levels, scheme, &ec, NULL));
  DG_CALL_GOTO(done, run_steps(&s, cl, qc, &e_cl));
  double num = 0, den = 0;
  for (size_t i = 0; i < s.n; ++i) num += (qc[i] - qr[i]) * (qc[i] - qr[i]), den += qr[i] * qr[i];
  *diff = sqrt(num / den);
  *ediff = fabs(e_cl - e_ref) / e_ref;
  *counts_equal = er == ec && er > 0;
done:
  dg_stepper_destroy(&ref);
  dg_stepper_destroy(&cl);
  dg_free(&qr);
  dg_free(&qc);
  destroy(&s);
  return st;
}

static double tolerance(dg_precision p) { return p == DG_PREC_DOUBLE ? 1e-10 : 2e-5; }

/* Oclgrind's child: each job "SPEC@N@S" (tests/oclgrind_util.h's markers), S the scheme. */
static int child(int argc, char **argv) {
  dg_device *dev = NULL;
  macro_steps = 3;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    fprintf(stderr, "@@ fatal no device: %s\n", dg_error_message());
    return 1;
  }
  fprintf(stderr, "@@ device %s|%llu|%zu|%u\n", dev->info.name,
          (unsigned long long)dev->info.local_mem_size, dev->info.max_work_group_size,
          dev->info.compute_units);
  for (int i = 0; i < argc; ++i) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", argv[i]);
    char *a = strchr(buf, '@');
    if (!a) return 1;
    *a = '\0';
    const int N = atoi(a + 1);
    const char *b = strchr(a + 1, '@');
    scheme = b && atoi(b + 1) == 1 ? DG_MR_LSERK4 : DG_MR_AB3;
    dg_variant v;
    char why[128];
    fprintf(stderr, "@@ begin %d\n", i);
    if (dg_variant_parse(buf, &v) != DG_OK) {
      fprintf(stderr, "@@ result %d inf 0 parse: %s\n", i, dg_error_message());
      continue;
    }
    if (!dg_variant_check(&v, &dev->info, N, why, sizeof why)) {
      fprintf(stderr, "@@ skip %d %s\n", i, why);
      continue;
    }
    double diff = 0, ediff = 0;
    int same = 0;
    dg_error_clear();
    const dg_status st = compare(dev, &v, N, &diff, &ediff, &same);
    const int pass = st == DG_OK && same && diff <= tolerance(v.precision) &&
                     ediff <= tolerance(v.precision);
    fprintf(stderr, "@@ result %d %.3e %d %s\n", i, diff, pass,
            st == DG_OK ? "ok" : dg_error_message());
  }
  dg_device_destroy(&dev);
  return 0;
}

static void every_variant_matches_reference(void **state) {
  dg_device *dev = *state;
  if (!dev) skip();
  int ran = 0, want = 0;
  const int all = getenv("DGTD_TEST_ALL") != NULL;
  for (int sc = 0; sc < 2; ++sc)
  for (int c = 0; c < NCOVER; ++c)
    for (int prec = 0; prec < 2; ++prec) {
      scheme = sc ? DG_MR_LSERK4 : DG_MR_AB3;
      /* make test: one variant per lift role (separate, fused-update, fused), the fused
       * right-hand sides and CLBlast */
      if (!all && c != 0 && c != 1 && c != 3 && !strstr(covering[c], "fuse=") &&
          strcmp(covering[c], "path=clblast"))
        continue;
      const dg_precision p = prec ? DG_PREC_DOUBLE : DG_PREC_FLOAT;
      if (p == DG_PREC_DOUBLE && !dev->info.has_fp64) {
        test_skip_part("%s in double: the device has no double", covering[c]);
        continue;
      }
      ++want; /* of the device's precisions: at least 3/4 must run */
      const int N = 2;
      dg_variant v;
      char spec[DG_VARIANT_SPEC_MAX], why[128];
      if (!strcmp(covering[c], "default")) {
        v = dg_variant_default(&dev->info, N, p);
      } else {
        snprintf(spec, sizeof spec, "%s%sprec=%s", covering[c], covering[c][0] ? "," : "",
                 prec ? "double" : "float");
        assert_dg_ok(dg_variant_parse(spec, &v));
      }
      dg_variant_print(&v, spec, sizeof spec);
      if (!dg_variant_check(&v, &dev->info, N, why, sizeof why)) {
        test_skip_part("%s cannot run on this device: %s", spec, why);
        continue;
      }
      double diff = 0, ediff = 0;
      int same = 0;
      assert_dg_ok(compare(dev, &v, N, &diff, &ediff, &same));
      printf("# %s %-6s %s: state %.2e, energy %.2e\n", sc ? "LSERK4" : "AB3", prec ? "double" : "float",
             spec, diff, ediff);
      assert_true(same);
      assert_true(diff <= tolerance(p));
      assert_true(ediff <= tolerance(p));
      ++ran;
    }
  scheme = DG_MR_AB3;
  test_require_ran("multirate variants", ran, want, (3 * want + 3) / 4);
}

/* Levels planned with a cost per stage: an empty level between two (48 / 0 / 24), whose
 * slot range is empty, due at its sub-steps like any other; both schemes, the device default
 * and fuse=res, in double, against the reference on the same levels. */
static void an_empty_level_matches_reference(void **state) {
  dg_device *dev = *state;
  if (!dev) skip();
  if (!dev->info.has_fp64) test_skip("the device has no double");
  plan_omega = 48;
  const char *const specs[2] = {"default", "work=vec,vw=4,kb=2,fuse=res,prec=double"};
  for (int sc = 0; sc < 2; ++sc)
    for (int i = 0; i < 2; ++i) {
      scheme = sc ? DG_MR_LSERK4 : DG_MR_AB3;
      const int N = 2;
      dg_variant v = dg_variant_default(&dev->info, N, DG_PREC_DOUBLE);
      if (i) assert_dg_ok(dg_variant_parse(specs[i], &v));
      setup s = {0};
      assert_dg_ok(make(&s, N));
      assert_int_equal(s.plan.count[0], 48);
      assert_int_equal(s.plan.count[1], 0);
      assert_int_equal(s.plan.count[2], 24);
      destroy(&s);
      double diff = 0, ediff = 0;
      int same = 0;
      assert_dg_ok(compare(dev, &v, N, &diff, &ediff, &same));
      printf("# %s %s, levels 48/0/24: state %.2e, energy %.2e\n", sc ? "LSERK4" : "AB3",
             specs[i], diff, ediff);
      assert_true(same);
      assert_true(diff <= tolerance(DG_PREC_DOUBLE));
      assert_true(ediff <= tolerance(DG_PREC_DOUBLE));
    }
  plan_omega = 0;
  scheme = DG_MR_AB3;
}

static void grouped_operator_has_the_same_rhs(void **state) {
  dg_device *dev = *state;
  if (!dev) skip();
  scheme = DG_MR_AB3;
  setup s = {0};
  assert_dg_ok(make(&s, 2));
  const dg_variant v = dg_variant_default(&dev->info, 2, DG_PREC_FLOAT);
  dg_cl_maxwell *a = NULL, *b = NULL;
  assert_dg_ok(dg_cl_maxwell_create(&a, dev, s.p, &v, NULL));
  assert_dg_ok(dg_cl_maxwell_create_grouped(&b, dev, s.p, &v, NULL, s.level, s.plan.n_levels));
  assert_true(dg_cl_maxwell_kpad(b) > dg_cl_maxwell_kpad(a)); /* padding between levels */
  /* within a level, the elements next to a lower level first, by the lowest level they
   * touch, ties in element order (the multirate lists are runs of adjacent slots): node 0's
   * index grows with the slot in every layout */
  const dg_mesh *mesh = s.g->mesh;
  int *key = malloc((size_t)mesh->K * sizeof *key), touching = 0;
  for (int k = 0; k < mesh->K; ++k) {
    key[k] = s.level[k];
    for (int f = 0; f < 4; ++f)
      if (s.level[mesh->EToE[4 * k + f]] < key[k]) key[k] = s.level[mesh->EToE[4 * k + f]];
    touching += key[k] < s.level[k];
  }
  assert_true(touching > 0);
  for (int j = 0; j < mesh->K; ++j)
    for (int k = j + 1; k < mesh->K; ++k)
      if (s.level[j] == s.level[k] &&
          (key[j] <= key[k]) != (dg_cl_maxwell_node_index(b, j, 0) < dg_cl_maxwell_node_index(b, k, 0)))
        fail_msg("level %d: element %d (lowest level touched %d) and %d (%d) in the wrong order",
                 s.level[j], j, key[j], k, key[k]);
  free(key);
  double *q = malloc(s.n * sizeof *q), *ra = malloc(s.n * sizeof *ra), *rb = malloc(s.n * sizeof *rb);
  dg_verify_random_fields(5, s.n, q);
  assert_dg_ok(dg_cl_maxwell_rhs(a, 0.1, q, ra));
  assert_dg_ok(dg_cl_maxwell_rhs(b, 0.1, q, rb));
  double md = 0, mx = 0;
  for (size_t i = 0; i < s.n; ++i) md = fmax(md, fabs(ra[i] - rb[i])), mx = fmax(mx, fabs(ra[i]));
  printf("# grouped vs ungrouped RHS: max difference %.2e of max %.2e\n", md, mx);
  assert_true(md <= 1e-6 * mx);
  double ea = 0, eb = 0;
  assert_dg_ok(dg_cl_maxwell_set_state(a, q));
  assert_dg_ok(dg_cl_maxwell_set_state(b, q));
  assert_dg_ok(dg_cl_maxwell_energy(a, &ea));
  assert_dg_ok(dg_cl_maxwell_energy(b, &eb));
  assert_true(fabs(ea - eb) <= 1e-5 * ea);
  /* refusals: an ungrouped operator; levels that are not the groups */
  dg_stepper *st = NULL;
  assert_dg_error(dg_stepper_cl_multirate_create(&st, a, s.level, s.plan.n_levels, DG_MR_AB3, NULL, NULL),
                  DG_ERR_INPUT, "grouped");
  s.level[0] = s.level[0] == 2 ? 0 : 2;
  assert_dg_error(dg_stepper_cl_multirate_create(&st, b, s.level, s.plan.n_levels, DG_MR_AB3, NULL, NULL),
                  DG_ERR_INPUT, "not in its level");
  free(q);
  free(ra);
  free(rb);
  destroy(&s);
}

/* The energy of the cavity mode on the device, double, upwind: never above the previous
 * macro step's over 300 macro steps (10 000 with DGTD_TEST_ALL=1), as for the reference;
 * both schemes. */
static void energy_never_grows_on_device(void **state) {
  dg_device *dev = *state;
  if (!dev || !dev->info.has_fp64) skip();
  for (int sc = 0; sc < 2; ++sc) {
    scheme = sc ? DG_MR_LSERK4 : DG_MR_AB3;
    setup s = {0};
    assert_dg_ok(make(&s, 2));
    dg_variant v;
    assert_dg_ok(dg_variant_parse("work=vec,vw=4,lift=fused-update,flux=face,prec=double", &v));
    dg_cl_maxwell *op = NULL;
    dg_stepper *st = NULL;
    assert_dg_ok(dg_cl_maxwell_create_grouped(&op, dev, s.p, &v, NULL, s.level, s.plan.n_levels));
    assert_dg_ok(dg_stepper_cl_multirate_create(&st, op, s.level, s.plan.n_levels, scheme, NULL, NULL));
    double *q = malloc(s.n * sizeof *q);
    dg_maxwell_interpolate(s.g, dg_cavity_mode_eval, &s.mode, 0.0, q);
    assert_dg_ok(dg_stepper_put_state(st, q));
    const double H = dg_multirate_macro_dt(&s.plan, 1.0);
    const int macro = getenv("DGTD_TEST_ALL") ? 10000 : 300;
    double e0 = 0, prev = 0, e = 0;
    assert_dg_ok(dg_stepper_energy(st, &e0));
    prev = e0;
    for (int k = 0; k < macro; ++k) {
      assert_dg_ok(dg_stepper_step(st, k * H, H));
      assert_dg_ok(dg_stepper_energy(st, &e));
      if (!(e <= prev * (1 + 1e-13)))
        fail_msg("%s: energy grew at macro step %d: %.17g -> %.17g", sc ? "LSERK4" : "AB3", k, prev, e);
      prev = e;
    }
    printf("# device, %s, upwind: energy %.12e -> %.12e after %d macro steps\n",
           sc ? "LSERK4" : "AB3", e0, e, macro);
    assert_true(e < e0);
    dg_stepper_destroy(&st);
    free(q);
    destroy(&s);
  }
  scheme = DG_MR_AB3;
}

static void clean_under_oclgrind(void **state) {
  (void)state;
  if (!og_available()) test_skip("oclgrind not installed, or a sanitizer build");
  static const struct {
    const char *spec;
    int lserk4; /* the scheme: og_job.what, the child's third field */
  } jobs_all[] = {
      {"work=vec,vw=4,kb=2,lkb=2,lift=fused-update,flux=face,prec=double", 0},
      {"work=vec,vw=4,kb=2,fuse=rhs,prec=float", 0},
      {"kb=2,unroll=full,fuse=res,prec=double", 1},
      {"prec=float", 0},
      {"work=elem,vw=2,kb=4,lkb=4,lplace=matrix,lift=fused,prec=float", 0},
      {"kb=2,unroll=full,fuse=res,prec=double", 0},
      {"path=clblast,prec=float", 0},
      {"prec=float", 1},
      {"path=clblast,prec=float", 1},
  };
  /* about half a minute each on a shared core: three in make test (AB3 with the split and
   * the fused right-hand side, LSERK4), all under DGTD_TEST_ALL */
  enum { NS = sizeof jobs_all / sizeof jobs_all[0] };
  const int NJ = getenv("DGTD_TEST_ALL") ? NS : 3;
  og_job jobs[NS];
  og_outcome out[NS];
  og_device d;
  for (int j = 0; j < NJ; ++j) {
    snprintf(jobs[j].spec, sizeof jobs[j].spec, "%s", jobs_all[j].spec);
    jobs[j].N = 1;
    jobs[j].what = jobs_all[j].lserk4;
  }
  const int rc = og_run("", jobs, NJ, out, &d);
  for (int j = 0; j < NJ; ++j) {
    printf("# oclgrind %-6s %-66s ran %d skipped %d pass %d diff %.2e races %d uninit %d errors %d %s\n",
           jobs_all[j].lserk4 ? "LSERK4" : "AB3", jobs_all[j].spec, out[j].ran, out[j].skipped,
           out[j].pass, out[j].diff, out[j].races, out[j].uninit, out[j].errors, out[j].msg);
    assert_true(out[j].ran || out[j].skipped);
    if (out[j].skipped) {
      test_skip_part("Oclgrind job %s: %s", jobs_all[j].spec, out[j].msg);
      continue;
    }
    assert_true(out[j].pass);
    assert_int_equal(out[j].races + out[j].uninit + out[j].errors, 0);
  }
  assert_int_equal(rc, 0);
}

static int group_setup(void **state) {
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    fprintf(stderr, "# no OpenCL device: %s\n", dg_error_message());
    dg_error_clear();
  }
  *state = dev;
  return 0;
}

static int group_teardown(void **state) {
  dg_device *dev = *state;
  dg_device_destroy(&dev);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 2 && !strcmp(argv[1], "--child")) return child(argc - 2, argv + 2);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_variant_matches_reference),
      cmocka_unit_test(an_empty_level_matches_reference),
      cmocka_unit_test(grouped_operator_has_the_same_rhs),
      cmocka_unit_test(energy_never_grows_on_device),
      cmocka_unit_test(clean_under_oclgrind),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}

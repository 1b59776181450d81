/* Multirate AB3 and LSERK4 with a CFS-PML (the auxiliary fields stepped at their element's
 * rate, by the scheme): the
 * dipole octant of tests/test_pml_util.h (N = 2, 3 + 2 PML cells a side) with the far corner
 * of the inner box (centroid x > 2/3) made slower, eps = mu = 2 (impedance matched), so the
 * elements fall on two levels and the PML elements, whose filter rates bound their step, on
 * both.
 *   - levels: >= 2, PML elements on more than one level;
 *   - the state at t = 1.5 (the pulse has reached the PML) against global LSERK4 at half its
 *     default step: relative L2 difference <= 1e-3 (time error; the two integrate the same
 *     semi-discrete system), and the energy agrees to 1e-3;
 *   - to t = 5 (40 with DGTD_TEST_ALL=1): the energy stays finite and ends below 1% of its
 *     peak (the PML absorbs; an unstable filter would grow);
 *   - the OpenCL stepper (double; separate lift, vec/face/fused-update, and the fused
 *     right-hand sides fuse=rhs (kb=2) and fuse=res (kb=4), one kernel per level's range)
 *     matches the reference multirate stepper to 1e-10 after 400 AB3 or 50 LSERK4 macro
 *     steps (t = 1.2 and 1.3, the pulse is in the PML: its elements hold >= 1e-3 of the
 *     state's L2 norm, checked). */
#include "test_pml_util.h"

#include "backend/cl_multirate.h"
#include "dg/multirate.h"

static void make(pml_problem *b) {
  pml_setup s = {.N = 2, .cells = 3, .extra = 2, .trunc = TRUNC_PML, .T = 1.5, .cfl = 1.0};
  dg_pml_params_default(&s.par);
  pml_problem_create(b, &s);
  const dg_mesh *m = b->m;
  for (int k = 0; k < m->K; ++k) {
    double c[3] = {0, 0, 0};
    for (int v = 0; v < 4; ++v) {
      const int vi = m->EToV[4 * k + v];
      c[0] += 0.25 * m->VX[vi], c[1] += 0.25 * m->VY[vi], c[2] += 0.25 * m->VZ[vi];
    }
    if (c[0] > 2.0 / 3) b->p->eps[k] = b->p->mu[k] = 2;
  }
}

static void run(pml_problem *b, dg_stepper *st, double dt, int steps, double *q, double *peak) {
  memset(q, 0, 6 * (size_t)b->g->K * b->g->Np * sizeof *q);
  assert_dg_ok(dg_stepper_put_state(st, q));
  if (peak) *peak = 0;
  for (int i = 0; i < steps; ++i) {
    assert_dg_ok(dg_stepper_step(st, i * dt, dt));
    if (peak) {
      double e = 0;
      assert_dg_ok(dg_stepper_energy(st, &e));
      if (!isfinite(e)) fail_msg("energy not finite at step %d", i);
      *peak = fmax(*peak, e);
    }
  }
  assert_dg_ok(dg_stepper_get_state(st, q));
}

static double rel_l2(const double *a, const double *b, size_t n) {
  double num = 0, den = 0;
  for (size_t i = 0; i < n; ++i) num += (a[i] - b[i]) * (a[i] - b[i]), den += b[i] * b[i];
  return sqrt(num / den);
}

static void pml_on_levels(void **state, dg_mr_scheme scheme) {
  pml_problem b;
  make(&b);
  const size_t n = 6 * (size_t)b.g->K * b.g->Np;
  int *level = calloc((size_t)b.g->K, sizeof *level);
  dg_mr_plan plan;
  assert_dg_ok(dg_multirate_levels(b.p, scheme, 8, 0, level, &plan));
  int pml_levels = 0;
  for (int l = 0; l < plan.n_levels; ++l) {
    int c = 0;
    for (int e = 0; e < b.p->pml_K; ++e) c += level[b.p->pml_elem[e]] == l;
    pml_levels += c > 0;
    printf("# level %d: %d elements, %d of them PML\n", l, plan.count[l], c);
  }
  assert_true(plan.n_levels >= 2);
  assert_true(pml_levels >= 2);
  const double T = 1.5;
  double *qg = malloc(n * sizeof *qg), *qm = malloc(n * sizeof *qm);
  dg_stepper *st = NULL;
  assert_dg_ok(dg_stepper_ref_create(&st, b.p, NULL));
  const int ng = (int)ceil(T / dg_maxwell_dt(b.p, 0.5));
  run(&b, st, T / ng, ng, qg, NULL);
  dg_stepper_destroy(&st);
  assert_dg_ok(dg_stepper_multirate_create(&st, b.p, level, plan.n_levels, scheme, NULL, NULL));
  const double H0 = dg_multirate_macro_dt(&plan, 1.0);
  const int nm = (int)ceil(T / H0);
  run(&b, st, T / nm, nm, qm, NULL);
  const double d = rel_l2(qm, qg, n);
  const double eg = dg_maxwell_energy(b.p, qg), em = dg_maxwell_energy(b.p, qm);
  printf("# %s: t = %g: multirate (%d macro steps) vs global LSERK4 (%d steps): state %.3e, "
         "energy %.10e vs %.10e\n", scheme == DG_MR_AB3 ? "AB3" : "LSERK4", T, nm, ng, d, em, eg);
  assert_true(d <= 1e-3);
  assert_true(fabs(em / eg - 1) <= 1e-3);
  /* long run */
  const int nl = (int)ceil((getenv("DGTD_TEST_ALL") ? 40 : 5) / H0);
  double peak = 0, e_end = 0;
  run(&b, st, H0, nl, qm, &peak);
  assert_dg_ok(dg_stepper_energy(st, &e_end));
  printf("# %d macro steps (t = %.3g): energy peak %.4e, end %.4e\n", nl, nl * H0, peak, e_end);
  assert_true(e_end < 1e-2 * peak);
  dg_stepper_destroy(&st);

  /* OpenCL, double: the same multirate steps */
  dg_device *dev = *state;
  if (!dev || !dev->info.has_fp64) {
    test_skip_part("no OpenCL device with double: the OpenCL comparison");
  } else {
    const int nc = scheme == DG_MR_AB3 ? 400 : 50; /* LSERK4's macro step is 8.7x AB3's */
    assert_dg_ok(dg_stepper_multirate_create(&st, b.p, level, plan.n_levels, scheme, NULL, NULL));
    run(&b, st, T / nm, nc, qg, NULL);
    dg_stepper_destroy(&st);
    /* the comparison covers the PML terms only if the field has reached the PML */
    double in_pml = 0, all = 0;
    const int Np = b.g->Np, K = b.g->K;
    for (size_t i = 0; i < n; ++i) all += qg[i] * qg[i];
    for (int f = 0; f < 6; ++f)
      for (int e = 0; e < b.p->pml_K; ++e)
        for (int j = 0; j < Np; ++j) {
          const double x = qg[((size_t)f * K + b.p->pml_elem[e]) * Np + j];
          in_pml += x * x;
        }
    printf("# reference multirate, %d macro steps: the PML elements hold %.3e of the state's "
           "L2 norm\n", nc, sqrt(in_pml / all));
    assert_true(sqrt(in_pml / all) >= 1e-3);
    static const char *const specs[] = {"prec=double",
                                        "work=vec,vw=4,lift=fused-update,flux=face,prec=double",
                                        "work=vec,vw=4,kb=2,fuse=rhs,prec=double",
                                        "kb=4,fuse=res,prec=double"};
    for (int i = 0; i < (int)(sizeof specs / sizeof specs[0]); ++i) {
      dg_variant v;
      dg_cl_maxwell *op = NULL;
      assert_dg_ok(dg_variant_parse(specs[i], &v));
      assert_dg_ok(dg_cl_maxwell_create_grouped(&op, dev, b.p, &v, NULL, level, plan.n_levels));
      assert_dg_ok(dg_stepper_cl_multirate_create(&st, op, level, plan.n_levels, scheme, NULL, NULL));
      run(&b, st, T / nm, nc, qm, NULL);
      dg_stepper_destroy(&st);
      const double dc = rel_l2(qm, qg, n);
      printf("# OpenCL %s vs reference multirate: %.3e\n", specs[i], dc);
      assert_true(dc <= 1e-10);
    }
  }
  free(qg);
  free(qm);
  free(level);
  pml_problem_destroy(&b);
}

static void pml_on_levels_ab3(void **state) { pml_on_levels(state, DG_MR_AB3); }
static void pml_on_levels_lserk4(void **state) { pml_on_levels(state, DG_MR_LSERK4); }

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(pml_on_levels_ab3),
                                     cmocka_unit_test(pml_on_levels_lserk4)};
  return cmocka_run_group_tests(tests, test_device_setup, test_device_teardown);
}

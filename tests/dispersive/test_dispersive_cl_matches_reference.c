/* Dispersive media on the OpenCL operator (dispersive.cl) against the reference stepper:
 * the PML box of test_pml_util.h (order 2, 2 + 1 cells a side, its dipole pulse) with Debye,
 * Drude and Lorentz poles in turn in the elements of the inner box (every fourth element
 * all three), random initial fields and pole states, 12 LSERK4 steps on both: the fields
 * and the auxiliary state (the PML's fields and the pole states, read back in the
 * reference layout) agree to 1e-10 relative (L2) in double and 1e-4 in float (measured
 * 5e-16 and 2.3e-7), for the default variant and for kb=2,fuse=step (q in two buffers),
 * work=vec,vw=4,fuse=res and work=vec,vw=8,lift=fused-update (results in res), and so does
 * the steppers' energy (fields and the poles' stored energy, here about 1% of it: far
 * above the tolerances). The right-hand side check of the run path (dg_cl_verify_op, fields
 * and auxiliary rates) passes on the same problem and fails once one pole of the reference
 * differs from the device's; the pole states put in come back out unchanged (the layouts
 * convert both ways). */
#include "test_pml_util.h"

#include "backend/verify.h"
#include "dg/dispersive.h"

enum { STEPS = 12 };

static void rand_fill(double *x, size_t n, unsigned seed) {
  srand(seed);
  for (size_t i = 0; i < n; ++i) x[i] = 2.0 * rand() / RAND_MAX - 1.0;
}

/* The PML problem with poles in the inner box's elements: Debye, Drude, Lorentz in turn,
 * every fourth element all three; returns the step. */
static double disp_problem(pml_problem *b) {
  pml_setup s = {.N = 2, .cells = 2, .extra = 1, .trunc = TRUNC_PML, .T = 1, .cfl = 1.0};
  dg_pml_params_default(&s.par);
  pml_problem_create(b, &s);
  const dg_pole pd = {.type = DG_POLE_DEBYE, .delta_eps = 2.0, .tau = 0.5};
  const dg_pole pr = {.type = DG_POLE_DRUDE, .omega_p = 3.0, .gamma = 0.7};
  const dg_pole pl = {.type = DG_POLE_LORENTZ, .delta_eps = 1.5, .omega_0 = 4.0, .delta = 0.3};
  dg_dispersion models[4] = {{1, {pd}}, {1, {pr}}, {1, {pl}}, {3, {pl, pd, pr}}};
  const dg_maxwell *p = b->p;
  int *model = NULL;
  assert_dg_ok(DG_ALLOC(model, b->m->K));
  for (int k = 0; k < b->m->K; ++k) model[k] = k % 4;
  for (int e = 0; e < p->pml_K; ++e) model[p->pml_elem[e]] = -1;
  for (int k = 0; k < b->m->K; ++k) b->p->eps[k] = 1.0 + 0.25 * (k % 3);
  assert_dg_ok(dg_maxwell_set_dispersion(b->p, model, models, 4));
  assert_true(p->disp_K > 8 && p->pml_K > 0);
  dg_free(&model);
  const double dt = fmin(dg_maxwell_dt(b->p, 1.0), dg_dispersion_dt(b->p, 1.0, NULL));
  assert_true(dt > 0 && isfinite(dt));
  return dt;
}

/* STEPS steps of st from q0, w0; the final fields then the auxiliary state into out;
 * returns the stepper's energy (fields and poles). */
static double run(dg_stepper *st, const double *q0, const double *w0, size_t nq, double dt,
                  double *out) {
  assert_dg_ok(dg_stepper_put_state(st, q0));
  assert_dg_ok(dg_stepper_put_aux(st, w0));
  for (int i = 0; i < STEPS; ++i) assert_dg_ok(dg_stepper_step(st, i * dt, dt));
  assert_dg_ok(dg_stepper_get_state(st, out));
  assert_dg_ok(dg_stepper_get_aux(st, out + nq));
  double e = 0;
  assert_dg_ok(dg_stepper_energy(st, &e));
  return e;
}

static double rel_l2(const double *a, const double *ref, size_t n) {
  double num = 0, den = 0;
  for (size_t i = 0; i < n; ++i) {
    num += (a[i] - ref[i]) * (a[i] - ref[i]);
    den += ref[i] * ref[i];
  }
  return sqrt(num / den);
}

static void test_device_steps_match_reference(void **state) {
  dg_device *dev = test_device(state, 0);
  pml_problem b;
  const double dt = disp_problem(&b);
  const size_t nq = 6 * (size_t)b.g->K * b.g->Np, nw = dg_maxwell_aux_size(b.p);
  const size_t npole = dg_maxwell_pole_size(b.p), n = nq + nw;
  double *x0 = NULL, *ref = NULL, *got = NULL;
  assert_dg_ok(DG_ALLOC(x0, n));
  assert_dg_ok(DG_ALLOC(ref, n));
  assert_dg_ok(DG_ALLOC(got, n));
  rand_fill(x0, n, 39);
  dg_stepper *st = pml_stepper(&b, NULL, DG_PREC_DOUBLE, NULL);
  const double e_ref = run(st, x0, x0 + nq, nq, dt, ref);
  dg_stepper_destroy(&st);
  /* the poles' share of the energy is not small */
  const double e_poles = dg_dispersion_energy(b.p, ref + n - npole);
  printf("# reference energy %.4e, of it the poles' %.4e\n", e_ref, e_poles);
  assert_true(e_poles > 1e-3 * e_ref);
  /* the poles moved: their part is a real test */
  assert_true(rel_l2(ref + n - npole, x0 + n - npole, npole) > 1e-3);
  const char *specs[] = {NULL, "kb=2,fuse=step", "work=vec,vw=4,fuse=res",
                         "work=vec,vw=8,lift=fused-update"};
  for (int p = 0; p < 2; ++p) {
    const dg_precision prec = p ? DG_PREC_DOUBLE : DG_PREC_FLOAT;
    if (prec == DG_PREC_DOUBLE && !dev->info.has_fp64) continue;
    for (int i = 0; i < 4; ++i) {
      st = pml_stepper(&b, dev, prec, specs[i]);
      /* the auxiliary state goes in and comes back out as it was */
      assert_dg_ok(dg_stepper_put_state(st, x0));
      assert_dg_ok(dg_stepper_put_aux(st, x0 + nq));
      assert_dg_ok(dg_stepper_get_aux(st, got + nq));
      const double dw = rel_l2(got + nq, x0 + nq, nw);
      assert_true(dw <= (p ? 1e-15 : 1e-7));
      memset(got, 0, n * sizeof *got);
      const double e = run(st, x0, x0 + nq, nq, dt, got);
      dg_stepper_destroy(&st);
      const double dq = rel_l2(got, ref, nq), dp = rel_l2(got + n - npole, ref + n - npole, npole);
      const double da = rel_l2(got, ref, n);
      const double de = fabs(e - e_ref) / e_ref;
      printf("# %d steps, %s, %s: fields %.2e, poles %.2e, all %.2e, energy %.2e\n", STEPS,
             specs[i] ? specs[i] : "default", dg_precision_name(prec), dq, dp, da, de);
      const double tol = p ? 1e-10 : 1e-4;
      assert_true(dq <= tol && dp <= tol && da <= tol && de <= tol);
    }
  }
  dg_free(&x0);
  dg_free(&ref);
  dg_free(&got);
  pml_problem_destroy(&b);
}

static void test_verification_covers_the_poles(void **state) {
  dg_device *dev = test_device(state, 0);
  pml_problem b;
  (void)disp_problem(&b);
  const dg_precision prec = dev->info.has_fp64 ? DG_PREC_DOUBLE : DG_PREC_FLOAT;
  dg_variant v = dg_variant_default(&dev->info, b.g->N, prec);
  dg_cl_maxwell *op = NULL;
  assert_dg_ok(dg_cl_maxwell_create(&op, dev, b.p, &v, NULL));
  double d = 1;
  int pass = 0;
  assert_dg_ok(dg_cl_verify_op_at(op, b.p, 0.3, 7, &d, &pass));
  printf("# verification with poles (%s): %.2e\n", dg_precision_name(prec), d);
  assert_true(pass);
  /* the check sees the poles: the reference's Drude pole made 1% stronger after the device
   * took its copy is caught */
  b.p->disp_models[1].pole[0].omega_p *= 1.01;
  assert_dg_error(dg_cl_verify_op_at(op, b.p, 0.3, 7, &d, &pass), DG_ERR_NUMERIC,
                  "failed verification");
  printf("# with a changed pole: %.2e\n", d);
  assert_false(pass);
  dg_cl_maxwell_destroy(&op);
  pml_problem_destroy(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_device_steps_match_reference),
                                     cmocka_unit_test(test_verification_covers_the_poles)};
  return cmocka_run_group_tests(tests, test_device_setup, test_device_teardown);
}

/* Checkpoint/restart through dg_run on OpenCL (PoCL, float, with a dipole source and
 * probes): 10 steps, checkpoint, restart to 20 starts at step 10, takes 10 steps and gives
 * the same final checkpoint file byte for byte and the same probe series as 20
 * uninterrupted steps; a checkpoint from another
 * order is refused. The same with a CFS-PML around the box (its auxiliary fields are in the
 * checkpoint, nonzero at the restart) on OpenCL in float and double and on the reference
 * backend; a PML run's checkpoint is refused by the same case without the PML. */
#include "test_restart.h"

#include <sys/stat.h>
#include <unistd.h>

#include <math.h>

#include "app/case.h"
#include "app/simulate.h"
#include "io/checkpoint.h"

static const char *case_json =
    "{\"mesh\": {\"box\": {\"lo\": [0, 0, 0], \"hi\": [1, 1, 1], \"cells\": [2, 2, 2]}},"
    " \"order\": 3, \"default_boundary\": \"absorbing\","
    " \"sources\": [{\"type\": \"dipole\", \"position\": [0.4, 0.5, 0.55], \"direction\": [0, 0, 1],"
    "   \"pulse\": {\"shape\": \"ricker\", \"frequency\": 2, \"delay\": 0.05}}],"
    " \"probes\": [{\"position\": [0.7, 0.5, 0.5]}]}";

/* The same box with one cell of PML around it (the box mesher's layer; absorbing beyond),
 * the dipole's pulse early enough to have reached the layer by the restart. */
static const char *pml_json =
    "{\"mesh\": {\"box\": {\"lo\": [0, 0, 0], \"hi\": [1, 1, 1], \"cells\": [2, 2, 2],"
    "   \"pml_cells\": 1}},"
    " \"order\": 2, \"default_boundary\": \"absorbing\","
    " \"sources\": [{\"type\": \"dipole\", \"position\": [0.4, 0.5, 0.55], \"direction\": [0, 0, 1],"
    "   \"pulse\": {\"shape\": \"ricker\", \"frequency\": 4, \"delay\": 0.02}}],"
    " \"probes\": [{\"position\": [0.9, 0.5, 0.5]}, {\"position\": [1.2, 0.5, 0.5]}]}";

static const char *the_json = NULL; /* case_json unless a test says otherwise */
static dg_backend the_backend = DG_BACKEND_OPENCL;
static dg_precision the_precision = DG_PREC_FLOAT;

/* One run to `steps`; a restart must continue from the checkpoint's step (first_step) and
 * take only the steps after it, a fresh run all from 0: a restart that checked the
 * checkpoint but started again from t = 0 would reach the same final state. */
static void run_case(const char *dir, int steps, int every, const char *restart, int order) {
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, the_json ? the_json : case_json, "restart-test"));
  c.backend = the_backend;
  c.precision = the_precision;
  c.quiet = 1;
  c.order = order;
  c.steps = steps;
  c.checkpoint_every = every;
  snprintf(c.output_dir, sizeof c.output_dir, "%s", dir);
  int from = 0;
  if (restart) {
    snprintf(c.restart, sizeof c.restart, "%s", restart);
    dg_checkpoint_header h;
    assert_dg_ok(dg_checkpoint_read_header(restart, &h));
    from = (int)h.step;
    assert_true(from > 0 && from < steps);
  }
  assert_dg_ok(dg_run(&c, &r));
  if (r.first_step != from || r.steps != steps - from)
    fail_msg("%s: first step %d and %d steps taken, want %d and %d", restart ? "restart" : "run",
             r.first_step, r.steps, from, steps - from);
  dg_case_free(&c);
}

/* test_restart_split's run: run_case at the order *ctx. */
static void run_at_order(void *ctx, const char *dir, int steps, int every, const char *restart) {
  run_case(dir, steps, every, restart, *(const int *)ctx);
}

static void restart_is_bit_exact(void **state) {
  (void)state;
  test_restart_paths p;
  test_restart_paths_make(&p, "dgtd-restart");
  int order = 3;
  test_restart_split(&p, run_at_order, &order, 20, 10, NULL); /* 20 steps = 10 + restart + 10 */

  /* The same checkpoint for an order-2 run is refused, naming the difference. */
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, case_json, "restart-test"));
  c.quiet = 1;
  c.order = 2;
  c.steps = 20;
  snprintf(c.output_dir, sizeof c.output_dir, "%s", p.parts);
  snprintf(c.restart, sizeof c.restart, "%s", p.chk_mid);
  assert_dg_error(dg_run(&c, &r), DG_ERR_INPUT, "order N=3, this run has N=2");
  dg_case_free(&c);
  assert_int_equal(test_rmrf(p.base), 0);
}

/* The step-10 checkpoint holds the layer's auxiliary fields, and they are not at rest. */
static void pml_aux_at_mid(void *ctx, const char *chk) {
  (void)ctx;
  dg_checkpoint_header h, got;
  assert_dg_ok(dg_checkpoint_read_header(chk, &h));
  assert_true(h.aux > 0);
  const size_t nq = 6 * (size_t)h.K * h.Np * h.precision;
  void *q = malloc(nq), *res = malloc(nq), *aux = malloc(h.aux * h.precision);
  assert_dg_ok(dg_checkpoint_read_aux(chk, &h, &got, q, res, aux));
  double wmax = 0;
  for (uint64_t i = 0; i < h.aux; ++i)
    wmax = fmax(wmax, fabs(h.precision == 4 ? ((float *)aux)[i] : ((double *)aux)[i]));
  printf("# %s %s: %llu auxiliary values at step 10, largest %.2e\n",
         the_backend == DG_BACKEND_REF ? "ref" : "opencl", dg_precision_name(the_precision),
         (unsigned long long)h.aux, wmax);
  assert_true(wmax > 1e-8);
  free(q);
  free(res);
  free(aux);
}

/* With a PML: its auxiliary fields are saved and restored, so 10 + 10 steps are the 20
 * steps bit for bit (the final checkpoint holds the auxiliary fields too). */
static void pml_restart(dg_backend backend, dg_precision prec) {
  the_json = pml_json;
  the_backend = backend;
  the_precision = prec;
  test_restart_paths p;
  test_restart_paths_make(&p, "dgtd-restart-pml");
  int order = 2;
  test_restart_split(&p, run_at_order, &order, 20, 10, pml_aux_at_mid);
  /* The same case without the PML refuses the PML run's checkpoint. */
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, pml_json, "restart-test"));
  c.quiet = 1;
  c.backend = backend;
  c.precision = prec;
  c.has_pml = 0; /* the layer's cells stay, as plain absorbing-bounded vacuum */
  c.steps = 20;
  snprintf(c.output_dir, sizeof c.output_dir, "%s", p.parts);
  snprintf(c.restart, sizeof c.restart, "%s", p.chk_mid);
  assert_dg_error(dg_run(&c, &r), DG_ERR_INPUT, "auxiliary (PML, pole) values, this run has 0");
  assert_non_null(strstr(dg_error_message(), "other PML than this run's"));
  dg_case_free(&c);
  assert_int_equal(test_rmrf(p.base), 0);
  the_json = NULL;
  the_backend = DG_BACKEND_OPENCL;
  the_precision = DG_PREC_FLOAT;
}

static void pml_restart_is_bit_exact(void **state) {
  (void)state;
  pml_restart(DG_BACKEND_OPENCL, DG_PREC_FLOAT);
  pml_restart(DG_BACKEND_OPENCL, DG_PREC_DOUBLE);
  pml_restart(DG_BACKEND_REF, DG_PREC_DOUBLE);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(restart_is_bit_exact),
                                     cmocka_unit_test(pml_restart_is_bit_exact)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Checkpoint/restart through dg_run on OpenCL (PoCL, float, with a dipole source and
 * probes): 10 steps, checkpoint, restart to 20 starts at step 10, takes 10 steps and gives
 * the same final checkpoint file byte for byte and the same probe series as 20
 * uninterrupted steps; a checkpoint from another
 * order is refused. The same with a CFS-PML around the box (its auxiliary fields are in the
 * checkpoint, nonzero at the restart) on OpenCL in float and double and on the reference
 * backend; a PML run's checkpoint is refused by the same case without the PML. */
#include "test_util.h"

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

static char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  *n = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc(*n + 1);
  assert_int_equal(fread(buf, 1, *n, f), *n);
  fclose(f);
  return buf;
}

static void assert_same_file(const char *a, const char *b) {
  size_t na, nb;
  char *x = slurp(a, &na), *y = slurp(b, &nb);
  assert_int_equal(na, nb);
  if (memcmp(x, y, na) != 0) fail_msg("%s and %s differ", a, b);
  free(x);
  free(y);
}

static void restart_is_bit_exact(void **state) {
  (void)state;
  char base[] = "/tmp/dgtd-restart-XXXXXX";
  assert_non_null(mkdtemp(base));
  char whole[128], parts[128], chk_w[160], chk_p[160], pr_w[160], pr_p[160];
  snprintf(whole, sizeof whole, "%s/whole", base);
  snprintf(parts, sizeof parts, "%s/parts", base);
  snprintf(chk_w, sizeof chk_w, "%s/checkpoint.chk", whole);
  snprintf(chk_p, sizeof chk_p, "%s/checkpoint.chk", parts);
  snprintf(pr_w, sizeof pr_w, "%s/probes.csv", whole);
  snprintf(pr_p, sizeof pr_p, "%s/probes.csv", parts);

  run_case(whole, 20, 20, NULL, 3);                /* uninterrupted, checkpoint at the end */
  run_case(parts, 10, 10, NULL, 3);                /* stopped after 10 steps */
  char chk10[200];
  snprintf(chk10, sizeof chk10, "%s/step10.chk", base);
  assert_int_equal(rename(chk_p, chk10), 0);
  run_case(parts, 20, 20, chk10, 3);               /* continued to 20 */
  assert_same_file(chk_w, chk_p);
  assert_same_file(pr_w, pr_p);

  /* The same checkpoint for an order-2 run is refused, naming the difference. */
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, case_json, "restart-test"));
  c.quiet = 1;
  c.order = 2;
  c.steps = 20;
  snprintf(c.output_dir, sizeof c.output_dir, "%s", parts);
  snprintf(c.restart, sizeof c.restart, "%s", chk10);
  assert_dg_error(dg_run(&c, &r), DG_ERR_INPUT, "order N=3, this run has N=2");
  dg_case_free(&c);
  assert_int_equal(test_rmrf(base), 0);
}

/* With a PML: its auxiliary fields are saved and restored, so 10 + 10 steps are the 20
 * steps bit for bit (the final checkpoint holds the auxiliary fields too). */
static void pml_restart(dg_backend backend, dg_precision prec) {
  the_json = pml_json;
  the_backend = backend;
  the_precision = prec;
  char base[] = "/tmp/dgtd-restart-pml-XXXXXX";
  assert_non_null(mkdtemp(base));
  char whole[128], parts[128], chk_w[160], chk_p[160], pr_w[160], pr_p[160], chk10[200];
  snprintf(whole, sizeof whole, "%s/whole", base);
  snprintf(parts, sizeof parts, "%s/parts", base);
  snprintf(chk_w, sizeof chk_w, "%s/checkpoint.chk", whole);
  snprintf(chk_p, sizeof chk_p, "%s/checkpoint.chk", parts);
  snprintf(pr_w, sizeof pr_w, "%s/probes.csv", whole);
  snprintf(pr_p, sizeof pr_p, "%s/probes.csv", parts);
  snprintf(chk10, sizeof chk10, "%s/step10.chk", base);
  run_case(whole, 20, 20, NULL, 2);
  run_case(parts, 10, 10, NULL, 2);
  assert_int_equal(rename(chk_p, chk10), 0);
  /* The checkpoint holds the layer's auxiliary fields, and they are not at rest. */
  dg_checkpoint_header h, got;
  assert_dg_ok(dg_checkpoint_read_header(chk10, &h));
  assert_true(h.aux > 0);
  const size_t nq = 6 * (size_t)h.K * h.Np * h.precision;
  void *q = malloc(nq), *res = malloc(nq), *aux = malloc(h.aux * h.precision);
  assert_dg_ok(dg_checkpoint_read_aux(chk10, &h, &got, q, res, aux));
  double wmax = 0;
  for (uint64_t i = 0; i < h.aux; ++i)
    wmax = fmax(wmax, fabs(h.precision == 4 ? ((float *)aux)[i] : ((double *)aux)[i]));
  printf("# %s %s: %llu auxiliary values at step 10, largest %.2e\n",
         backend == DG_BACKEND_REF ? "ref" : "opencl", dg_precision_name(prec),
         (unsigned long long)h.aux, wmax);
  assert_true(wmax > 1e-8);
  free(q);
  free(res);
  free(aux);
  run_case(parts, 20, 20, chk10, 2);
  assert_same_file(chk_w, chk_p);
  assert_same_file(pr_w, pr_p);
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
  snprintf(c.output_dir, sizeof c.output_dir, "%s", parts);
  snprintf(c.restart, sizeof c.restart, "%s", chk10);
  assert_dg_error(dg_run(&c, &r), DG_ERR_INPUT, "auxiliary (PML, pole) values, this run has 0");
  assert_non_null(strstr(dg_error_message(), "other PML than this run's"));
  dg_case_free(&c);
  assert_int_equal(test_rmrf(base), 0);
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

/* Dispersive materials through the case file and dg_run:
 * - a checkpoint carries the poles' states beside the PML's fields (a box with a one-cell
 *   PML, the inner domain a medium with a Debye, a Drude and a Lorentz pole, a dipole):
 *   10 + 10 steps through a restart give the final checkpoint and the probe series of 20
 *   uninterrupted steps byte for byte; at step 10 the checkpoint holds 18 values per PML
 *   node and 12 per dispersive node (1 + 1 + 2 states, 3 components), the poles' nonzero;
 *   the same case with one pole parameter changed refuses it ("other materials");
 * - the OpenCL backend (double, its default variant) steps the same case: 20 steps, and 10
 *   more from the reference's step-10 checkpoint, leave checkpoints whose fields and
 *   auxiliary state (PML fields, pole states) match the reference's 20 steps to 1e-9
 *   relative (L2);
 * - a case with poles is refused, naming materials[0].poles and what to do, with the
 *   multirate schemes (never run without the poles); a dispersive
 *   volume in the PML and a TF/SF surface in a dispersive medium (even with eps_inf = 1) are
 *   refused;
 * - the case file's pole keys: unphysical or unstable values (tau <= 0, gamma < 0,
 *   delta_eps <= 0, ...), a parameter of another pole type, a missing one, eps beside poles,
 *   eps_inf without poles, no poles or more than 8: each refused naming its key path;
 * - poles that set the time step far below the mesh's are named in a warning with the cost
 *   in steps; mild poles are not. */
#include "test_restart.h"

#include <math.h>
#include <unistd.h>

#include "app/case.h"
#include "app/simulate.h"
#include "core/log.h"
#include "io/checkpoint.h"

static const char *poles_json =
    "[{\"type\": \"debye\", \"delta_eps\": 2.0, \"tau\": 0.3},"
    " {\"type\": \"drude\", \"omega_p\": 4.0, \"gamma\": 0.5},"
    " {\"type\": \"lorentz\", \"delta_eps\": 1.0, \"omega_0\": 6.0, \"delta\": 0.4}]";

/* The box [0, 1]^3 in 2^3 cells with one PML cell around (volume "pml"), the inner volume
 * "domain" dispersive with `poles` (or the given material JSON), a dipole and a probe. */
static void make_case(dg_case *c, const char *material, const char *extra) {
  char json[4096];
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": {\"lo\": [0, 0, 0], \"hi\": [1, 1, 1], \"cells\": [2, 2, 2],"
           "   \"pml_cells\": 1}},"
           " \"order\": 2, \"backend\": \"ref\", \"default_boundary\": \"pec\","
           " \"materials\": [%s],"
           " \"sources\": [{\"type\": \"dipole\", \"position\": [0.4, 0.5, 0.55],"
           "   \"direction\": [0, 0, 1], \"pulse\": {\"shape\": \"ricker\", \"frequency\": 2,"
           "   \"delay\": 0.05}}],"
           " \"probes\": [{\"position\": [0.7, 0.5, 0.5]}]%s}",
           material, extra ? extra : "");
  dg_case_default(c);
  assert_dg_ok(dg_case_parse(c, json, "case.json"));
  c->quiet = 1;
}

static void material(char *out, size_t cap, double tau) {
  snprintf(out, cap,
           "{\"volume\": \"domain\", \"eps_inf\": 1.5, \"sigma\": 0.1, \"poles\": "
           "[{\"type\": \"debye\", \"delta_eps\": 2.0, \"tau\": %g},"
           " {\"type\": \"drude\", \"omega_p\": 4.0, \"gamma\": 0.5},"
           " {\"type\": \"lorentz\", \"delta_eps\": 1.0, \"omega_0\": 6.0, \"delta\": 0.4}]}", tau);
}

static void run_on(const char *dir, int steps, int every, const char *restart, double tau,
                   dg_backend backend) {
  char mat[512];
  material(mat, sizeof mat, tau);
  dg_case c;
  dg_run_result r;
  make_case(&c, mat, NULL);
  c.steps = steps;
  c.checkpoint_every = every;
  snprintf(c.output_dir, sizeof c.output_dir, "%s", dir);
  if (restart) snprintf(c.restart, sizeof c.restart, "%s", restart);
  if (backend == DG_BACKEND_OPENCL) {
    c.backend = backend;
    c.precision = DG_PREC_DOUBLE;
    c.tune = DG_TUNE_NEVER;
  }
  int from = 0; /* a restart continues from its checkpoint's step */
  if (restart) {
    dg_checkpoint_header h;
    assert_dg_ok(dg_checkpoint_read_header(restart, &h));
    from = (int)h.step;
  }
  assert_dg_ok(dg_run(&c, &r));
  if (r.first_step != from || r.steps != steps - from)
    fail_msg("first step %d and %d steps taken, want %d and %d", r.first_step, r.steps, from,
             steps - from);
  dg_case_free(&c);
}

static void run_to(const char *dir, int steps, int every, const char *restart, double tau) {
  run_on(dir, steps, every, restart, tau, DG_BACKEND_REF);
}

/* test_restart_split's run: the reference backend with the Debye pole's tau = *ctx. */
static void run_tau(void *ctx, const char *dir, int steps, int every, const char *restart) {
  run_to(dir, steps, every, restart, *(const double *)ctx);
}

/* The step-10 checkpoint holds the PML's fields and the poles' states, the poles' nonzero. */
static void poles_at_mid(void *ctx, const char *chk) {
  (void)ctx;
  dg_checkpoint_header h, got;
  assert_dg_ok(dg_checkpoint_read_header(chk, &h));
  const int Np = 10, K_inner = 6 * 8, K_pml = 6 * (64 - 8);
  const uint64_t n_pml = 18ull * K_pml * Np, n_poles = 12ull * K_inner * Np;
  assert_int_equal(h.K, K_inner + K_pml);
  assert_true(h.aux == n_pml + n_poles);
  const size_t nq = 6 * (size_t)h.K * h.Np * h.precision;
  void *q = malloc(nq), *res = malloc(nq);
  double *aux = malloc(h.aux * sizeof *aux);
  assert_int_equal(h.precision, 8);
  assert_dg_ok(dg_checkpoint_read_aux(chk, &h, &got, q, res, aux));
  double pmax = 0;
  for (uint64_t i = n_pml; i < h.aux; ++i) pmax = fmax(pmax, fabs(aux[i]));
  printf("# step 10: %llu PML and %llu pole values, the poles' largest %.2e\n",
         (unsigned long long)n_pml, (unsigned long long)n_poles, pmax);
  assert_true(pmax > 1e-8);
  free(q);
  free(res);
  free(aux);
}

static void restart_carries_the_poles(void **state) {
  (void)state;
  test_restart_paths p;
  test_restart_paths_make(&p, "dgtd-restart-poles");
  double tau = 0.3;
  test_restart_split(&p, run_tau, &tau, 20, 10, poles_at_mid);
  /* Another tau: another problem. */
  char mat[512];
  material(mat, sizeof mat, 0.31);
  dg_case c;
  dg_run_result r;
  make_case(&c, mat, NULL);
  c.steps = 20;
  snprintf(c.output_dir, sizeof c.output_dir, "%s", p.parts);
  snprintf(c.restart, sizeof c.restart, "%s", p.chk_mid);
  assert_dg_error(dg_run(&c, &r), DG_ERR_INPUT, "other materials than this run's");
  dg_case_free(&c);
  assert_int_equal(test_rmrf(p.base), 0);
}

/* A double checkpoint's fields then auxiliary state (*n values, malloc'd). */
static double *read_state(const char *path, size_t *n) {
  dg_checkpoint_header h, got;
  assert_dg_ok(dg_checkpoint_read_header(path, &h));
  assert_int_equal(h.precision, 8);
  const size_t nq = 6 * (size_t)h.K * h.Np;
  *n = nq + h.aux;
  double *x = malloc(*n * sizeof *x), *res = malloc(nq * sizeof *res);
  assert_dg_ok(dg_checkpoint_read_aux(path, &h, &got, x, res, x + nq));
  free(res);
  return x;
}

static double checkpoint_diff(const char *a, const char *ref) {
  size_t na, nr;
  double *x = read_state(a, &na), *y = read_state(ref, &nr), num = 0, den = 0;
  assert_int_equal(na, nr);
  for (size_t i = 0; i < na; ++i) num += (x[i] - y[i]) * (x[i] - y[i]), den += y[i] * y[i];
  free(x);
  free(y);
  return sqrt(num / den);
}

static void opencl_steps_and_restarts_the_poles(void **state) {
  const test_scratch *s = *state;
  const char *base = s->dir;
  char ref[128], cl[128], clr[128], chk_r[160], chk_c[160], chk_cr[160], chk10[200];
  snprintf(ref, sizeof ref, "%s/ref", base);
  snprintf(cl, sizeof cl, "%s/cl", base);
  snprintf(clr, sizeof clr, "%s/clr", base);
  snprintf(chk_r, sizeof chk_r, "%s/checkpoint.chk", ref);
  snprintf(chk_c, sizeof chk_c, "%s/checkpoint.chk", cl);
  snprintf(chk_cr, sizeof chk_cr, "%s/checkpoint.chk", clr);
  snprintf(chk10, sizeof chk10, "%s/step10.chk", base);
  run_to(ref, 10, 10, NULL, 0.3);
  assert_int_equal(rename(chk_r, chk10), 0);
  run_to(ref, 20, 20, NULL, 0.3);
  run_on(cl, 20, 20, NULL, 0.3, DG_BACKEND_OPENCL);
  run_on(clr, 20, 20, chk10, 0.3, DG_BACKEND_OPENCL);
  const double d = checkpoint_diff(chk_c, chk_r), dr = checkpoint_diff(chk_cr, chk_r);
  printf("# OpenCL vs reference after 20 steps: %.2e; restarted at 10: %.2e\n", d, dr);
  assert_true(d <= 1e-9 && dr <= 1e-9);
}

/* dg_run on the case with `material` (as it is, or with a multirate scheme)
 * fails with code and a message containing want. */
enum { AS_IS, MRAB3, MRLSERK4 };
static void run_refused(const char *material_json, int how, dg_status code, const char *want) {
  dg_case c;
  dg_run_result r;
  make_case(&c, material_json, NULL);
  c.steps = 2;
  c.multirate = how == MRAB3 || how == MRLSERK4;
  c.mr_scheme = how == MRLSERK4 ? DG_MR_LSERK4 : DG_MR_AB3;
  assert_dg_error(dg_run(&c, &r), code, want);
  print_message("# refused: %s\n", dg_error_message());
  dg_case_free(&c);
}

static void schemes_that_cannot_step_poles_refuse(void **state) {
  (void)state;
  char mat[512];
  material(mat, sizeof mat, 0.3);
  run_refused(mat, MRAB3, DG_ERR_UNSUPPORTED,
              "case.json: materials[0].poles: the multirate schemes do not step a dispersive "
              "medium's poles yet; use \"time_stepping\": {\"scheme\": \"lserk4\"}");
  run_refused(mat, MRLSERK4, DG_ERR_UNSUPPORTED,
              "materials[0].poles: the multirate schemes");
  char in_pml[600];
  snprintf(in_pml, sizeof in_pml,
           "{\"volume\": \"pml\", \"eps_inf\": 1.0, \"poles\": %s}", poles_json);
  run_refused(in_pml, AS_IS, DG_ERR_INPUT,
              "case.json: materials[0] has poles and reaches into the PML");
  /* A TF/SF surface in a dispersive medium, even one with eps_inf = 1. */
  char json[2048];
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": {\"cells\": [4, 4, 4], \"tfsf_cells\": 1}}, \"backend\": \"ref\","
           " \"steps\": 2, \"order\": 1, \"default_boundary\": \"absorbing\","
           " \"materials\": [{\"volume\": \"domain\", \"eps_inf\": 1, \"poles\": %s}],"
           " \"sources\": [{\"type\": \"plane_wave\", \"direction\": [1, 0, 0],"
           "   \"polarization\": [0, 0, 1],"
           "   \"pulse\": {\"shape\": \"gaussian\", \"frequency\": 1}}]}",
           poles_json);
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "case.json"));
  c.quiet = 1;
  assert_dg_error(dg_run(&c, &r), DG_ERR_INPUT, "sigma = 0, with poles) at face");
  dg_case_free(&c);
}

/* The case file with one material's text; parse must fail naming want. */
static void parse_refused(const char *material_json, const char *want) {
  char json[2048];
  snprintf(json, sizeof json, "{\"backend\": \"ref\", \"materials\": [%s]}", material_json);
  dg_case c;
  dg_case_default(&c);
  assert_dg_error(dg_case_parse(&c, json, "case.json"), DG_ERR_INPUT, want);
  print_message("# refused: %s\n", dg_error_message());
  dg_case_free(&c);
}

static void pole_keys_checked(void **state) {
  (void)state;
  static const struct {
    const char *material, *want;
  } bad[] = {
      {"{\"volume\": 1, \"poles\": [{\"type\": \"debye\", \"delta_eps\": 2, \"tau\": -0.1}]}",
       "case.json: materials[0].poles[0].tau: must be a positive number"},
      {"{\"volume\": 1, \"poles\": [{\"type\": \"debye\", \"delta_eps\": 2, \"tau\": 0}]}",
       "materials[0].poles[0].tau: must be a positive number"},
      {"{\"volume\": 1, \"poles\": [{\"type\": \"debye\", \"delta_eps\": -2, \"tau\": 1}]}",
       "materials[0].poles[0].delta_eps: must be a positive number (a negative strength makes "
       "the medium active"},
      {"{\"volume\": 1, \"poles\": [{\"type\": \"drude\", \"omega_p\": 3, \"gamma\": -0.5}]}",
       "materials[0].poles[0].gamma: must be a number >= 0"},
      {"{\"volume\": 1, \"poles\": [{\"type\": \"drude\", \"omega_p\": 0, \"gamma\": 0.5}]}",
       "materials[0].poles[0].omega_p: must be a positive number"},
      {"{\"volume\": 1, \"poles\": [{\"type\": \"drude\", \"omega_p\": 1}, "
       "{\"type\": \"lorentz\", \"delta_eps\": 1, \"omega_0\": 2, \"delta\": -1}]}",
       "materials[0].poles[0]: missing key \"gamma\""},
      {"{\"volume\": 1, \"poles\": [{\"type\": \"lorentz\", \"delta_eps\": 1, \"omega_0\": 2, "
       "\"delta\": -1}]}",
       "materials[0].poles[0].delta: must be a number >= 0"},
      {"{\"volume\": 1, \"poles\": [{\"type\": \"lorentz\", \"delta_eps\": 1, \"omega_0\": -2, "
       "\"delta\": 1}]}",
       "materials[0].poles[0].omega_0: must be a positive number"},
      /* values whose square or reciprocal leaves a double's range (they stopped the run as
       * "non-finite" with a cfl hint: issue 48) */
      {"{\"volume\": 1, \"poles\": [{\"type\": \"drude\", \"omega_p\": 1e-300, "
       "\"gamma\": 1}]}",
       "materials[0].poles[0].omega_p = 1e-300 is too small to compute with"},
      {"{\"volume\": 1, \"poles\": [{\"type\": \"lorentz\", \"delta_eps\": 1, "
       "\"omega_0\": 1e-200, \"delta\": 1}]}",
       "materials[0].poles[0].omega_0 = 1e-200 is too small to compute with"},
      {"{\"volume\": 1, \"poles\": [{\"type\": \"drude\", \"omega_p\": 1e200, "
       "\"gamma\": 1}]}",
       "materials[0].poles[0].omega_p = 1e+200 is too large to compute with"},
      {"{\"volume\": 1, \"poles\": [{\"type\": \"debye\", \"delta_eps\": 1, \"tau\": 1, "
       "\"gamma\": 1}]}",
       "materials[0].poles[0].gamma: a debye pole has delta_eps and tau, not gamma"},
      {"{\"volume\": 1, \"poles\": [{\"type\": \"plasma\", \"omega_p\": 1, \"gamma\": 1}]}",
       "materials[0].poles[0].type"},
      {"{\"volume\": 1, \"poles\": [{\"type\": \"drude\", \"omega_p\": 1, \"gamma\": 1, "
       "\"tau_p\": 1}]}",
       "materials[0].poles[0]"},
      {"{\"volume\": 1, \"eps\": 2, \"poles\": [{\"type\": \"drude\", \"omega_p\": 1, "
       "\"gamma\": 1}]}",
       "materials[0].eps: a material with poles gives its permittivity at high frequency as "
       "eps_inf"},
      {"{\"volume\": 1, \"eps_inf\": 2}", "materials[0].eps_inf: the high-frequency permittivity "
                                          "of a dispersive material, which needs \"poles\""},
      {"{\"volume\": 1, \"eps_inf\": -2, \"poles\": [{\"type\": \"drude\", \"omega_p\": 1, "
       "\"gamma\": 1}]}",
       "materials[0].eps_inf"},
      {"{\"volume\": 1, \"poles\": []}", "materials[0].poles: expected an array of 1 to 8 poles"},
      {"{\"volume\": 1, \"poles\": {\"type\": \"drude\"}}",
       "materials[0].poles: expected an array of 1 to 8 poles"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
    parse_refused(bad[i].material, bad[i].want);
  /* Nine poles: one too many. */
  char many[2048] = "{\"volume\": 1, \"poles\": [";
  for (int j = 0; j < 9; ++j)
    snprintf(many + strlen(many), sizeof many - strlen(many),
             "%s{\"type\": \"debye\", \"delta_eps\": 1, \"tau\": 1}", j ? ", " : "");
  strncat(many, "]}", sizeof many - strlen(many) - 1);
  parse_refused(many, "materials[0].poles: expected an array of 1 to 8 poles");
  /* Eight are fine, and the parsed values are the case's. */
  char eight[2048] = "{\"volume\": 1, \"eps_inf\": 2.5, \"poles\": [";
  for (int j = 0; j < 8; ++j)
    snprintf(eight + strlen(eight), sizeof eight - strlen(eight),
             "%s{\"type\": \"lorentz\", \"delta_eps\": %d, \"omega_0\": 2, \"delta\": 0}",
             j ? ", " : "", j + 1);
  strncat(eight, "]}", sizeof eight - strlen(eight) - 1);
  char json[4096];
  snprintf(json, sizeof json, "{\"materials\": [%s]}", eight);
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "case.json"));
  assert_int_equal(c.materials[0].disp.n_poles, 8);
  assert_true(c.materials[0].eps == 2.5);
  assert_true(c.materials[0].disp.pole[7].type == DG_POLE_LORENTZ);
  assert_true(c.materials[0].disp.pole[7].delta_eps == 8);
  dg_case_free(&c);
}

static char warnings[4096];
static void collect(void *ctx, dg_log_level level, const char *message) {
  (void)ctx;
  if (level != DG_LOG_WARNING) return;
  const size_t n = strlen(warnings);
  snprintf(warnings + n, sizeof warnings - n, "%s\n", message);
}

/* A pole that sets the step is named with the cost; the units are questioned only when the
 * cost is absurd (water's pole in the right units costs a few times the steps, a tau given
 * in seconds millions). */
static void fast_poles_named(void **state) {
  (void)state;
  char dir[] = "/tmp/dgtd-fast-poles-XXXXXX";
  assert_non_null(mkdtemp(dir));
  const double taus[3] = {0.3, 1e-4, 1e-9}; /* slow; fast; as if in seconds */
  for (int i = 0; i < 3; ++i) {
    char mat[512];
    material(mat, sizeof mat, taus[i]);
    dg_case c;
    dg_run_result r;
    make_case(&c, mat, NULL);
    c.steps = 1;
    snprintf(c.output_dir, sizeof c.output_dir, "%s", dir);
    warnings[0] = '\0';
    dg_log_set_handler(collect, NULL);
    const dg_status st = dg_run(&c, &r);
    dg_log_set_handler(NULL, NULL);
    dg_case_free(&c);
    assert_dg_ok(st);
    print_message("# tau = %g: warnings: %s\n", taus[i], warnings);
    if (i == 0) {
      assert_null(strstr(warnings, "poles of materials"));
      continue;
    }
    assert_non_null(strstr(warnings, "case.json: the poles of materials[0] set the time step"));
    assert_non_null(strstr(warnings, "times the steps"));
    if (i == 1)
      assert_null(strstr(warnings, "units"));
    else
      assert_non_null(strstr(warnings, "suggests SI units: check them"));
  }
  assert_int_equal(test_rmrf(dir), 0);
}

static int scratch(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(restart_carries_the_poles),
      cmocka_unit_test_setup_teardown(opencl_steps_and_restarts_the_poles, scratch,
                                      test_scratch_teardown),
      cmocka_unit_test(schemes_that_cannot_step_poles_refuse),
      cmocka_unit_test(pole_keys_checked),
      cmocka_unit_test(fast_poles_named),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

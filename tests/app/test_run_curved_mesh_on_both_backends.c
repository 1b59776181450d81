/* A case on a mesh with curved elements runs on the reference backend, with a probe in the
 * sliver between a wall facet and the round wall (inside the curved mesh only), and with a
 * dispersive (Drude) material in its curved elements; on 2 MPI ranks it gives one rank's
 * probe and energy series (1e-12); on the OpenCL backend (curved.cl) it gives the
 * reference's series (1e-12 of their scale in double, 1e-5 in float), on one rank, on two
 * and with the dispersive material, and its kernels run clean under Oclgrind (no race, uninitialized read or API error in
 * a verification and a step); multirate time stepping refuses it before any work, saying
 * what to do. */
#include "test_device.h"

#include "app/simulate.h"

static const char *case_json = "tests/fixtures/curved_case.json";

static void read_case(dg_case *c, const char *out) {
  dg_case_default(c);
  assert_dg_ok(dg_case_read(c, case_json));
  c->quiet = 1;
  snprintf(c->output_dir, sizeof c->output_dir, "%s", out);
}

static void runs_on_reference_backend(void **state) {
  const test_scratch *s = *state;
  dg_case c;
  char out[160];
  snprintf(out, sizeof out, "%s/one", s->dir);
  read_case(&c, out);
  dg_run_result r;
  assert_dg_ok(dg_run(&c, &r));
  assert_int_equal(r.K, 56);
  assert_true(r.energy_end > 0);
  dg_case_free(&c);
}

/* The poles' energy on a curved element takes its own mass matrix (it was NaN: the run
 * stopped as non-finite). */
static void dispersive_material_in_curved_elements(void **state) {
  const test_scratch *s = *state;
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_read(&c, "tests/fixtures/curved_dispersive_case.json"));
  c.quiet = 1;
  snprintf(c.output_dir, sizeof c.output_dir, "%s/dispersive", s->dir);
  assert_dg_ok(dg_run(&c, &r));
  assert_true(isfinite(r.energy_end) && r.energy_end > 0);
  dg_case_free(&c);
}

static void multirate_refused(void **state) {
  const test_scratch *s = *state;
  char out[160];
  snprintf(out, sizeof out, "%s/refused", s->dir);
  dg_case c;
  dg_run_result r;
  for (int b = 0; b < 2; ++b) {
    read_case(&c, out);
    c.backend = b ? DG_BACKEND_OPENCL : DG_BACKEND_REF;
    c.multirate = 1;
    c.mr_scheme = DG_MR_AB3;
    assert_dg_error(dg_run(&c, &r), DG_ERR_UNSUPPORTED,
                    "multirate time stepping does not handle curved elements yet");
    dg_case_free(&c);
  }
}

/* The last column of each row of dir/file (the series' values), at most cap. */
static int load(const char *dir, const char *file, double *v, int cap) {
  char path[256], line[4096];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  FILE *f = fopen(path, "r");
  if (!f) fail_msg("cannot open %s", path);
  int n = 0;
  if (!fgets(line, sizeof line, f)) fail_msg("%s is empty", path);
  while (fgets(line, sizeof line, f)) {
    char *p = line, *end;
    while (n < cap) {
      const double x = strtod(p, &end);
      if (end == p) break;
      v[n++] = x;
      p = *end == ',' ? end + 1 : end;
    }
  }
  fclose(f);
  return n;
}

/* The largest difference of dir_a's and dir_b's probe and energy series, against their scale. */
static void compare(const char *dir_a, const char *dir_b, const char *what, double tol) {
  enum { CAP = 20000 };
  static double a[CAP], b[CAP];
  static const char *files[2] = {"probes.csv", "energy.csv"};
  for (int i = 0; i < 2; ++i) {
    const int na = load(dir_a, files[i], a, CAP), nb = load(dir_b, files[i], b, CAP);
    assert_int_equal(na, nb);
    assert_true(na > 20);
    double scale = 0, diff = 0;
    for (int j = 0; j < na; ++j) scale = fmax(scale, fabs(a[j])), diff = fmax(diff, fabs(a[j] - b[j]));
    printf("# %s: %s, max difference %.2e (scale %.2e)\n", files[i], what, diff, scale);
    assert_true(diff <= tol * scale);
  }
}

/* dgtd run of case file cf on P ranks (P = 1: no launcher) with extra options into
 * s->dir/name. */
static void run_case(const test_scratch *s, const char *cf, int P, const char *opts,
                     const char *name) {
  const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
  char cmd[1024], launch[64] = "";
  if (P > 1) snprintf(launch, sizeof launch, "mpiexec.mpich -n %d ", P);
  snprintf(cmd, sizeof cmd, "%s%s/dgtd run %s %s --output %s/%s --quiet > %s/%s.log 2>&1", launch,
           bin, cf, opts, s->dir, name, s->dir, name);
  if (system(cmd) != 0) fail_msg("%s failed", cmd);
}

static void run_ranks(const test_scratch *s, int P, const char *opts, const char *name) {
  run_case(s, case_json, P, opts, name);
}

static void two_ranks_match_one(void **state) {
  const test_scratch *s = *state;
  if (system("command -v mpiexec.mpich >/dev/null 2>&1") != 0) test_skip("no mpiexec.mpich");
  run_ranks(s, 1, "", "mpi1");
  run_ranks(s, 2, "", "mpi2");
  char d1[160], d2[160];
  snprintf(d1, sizeof d1, "%s/mpi1", s->dir);
  snprintf(d2, sizeof d2, "%s/mpi2", s->dir);
  compare(d1, d2, "1 vs 2 ranks", 1e-12);
}

/* The OpenCL backend against the reference, on one rank, with the Drude material in the
 * curved elements, and (with MPI) on two ranks. */
static void opencl_matches_reference(void **state) {
  const test_scratch *s = *state;
  const dg_precision p = test_device_best_precision();
  char opts[128], ref[160], got[160];
  snprintf(opts, sizeof opts, "--backend opencl --precision %s --tune never",
           p == DG_PREC_DOUBLE ? "double" : "float");
  const double tol = p == DG_PREC_DOUBLE ? 1e-12 : 1e-5;
  run_ranks(s, 1, "", "ref1");
  run_ranks(s, 1, opts, "cl1");
  snprintf(ref, sizeof ref, "%s/ref1", s->dir);
  snprintf(got, sizeof got, "%s/cl1", s->dir);
  compare(ref, got, "reference vs OpenCL", tol);
  const char *disp = "tests/fixtures/curved_dispersive_case.json";
  run_case(s, disp, 1, "", "dref");
  run_case(s, disp, 1, opts, "dcl");
  snprintf(ref, sizeof ref, "%s/dref", s->dir);
  snprintf(got, sizeof got, "%s/dcl", s->dir);
  compare(ref, got, "dispersive, reference vs OpenCL", tol);
  snprintf(ref, sizeof ref, "%s/ref1", s->dir);
  if (system("command -v mpiexec.mpich >/dev/null 2>&1") != 0) {
    test_skip_part("OpenCL on 2 ranks: no mpiexec.mpich");
    return;
  }
  run_ranks(s, 2, opts, "cl2");
  snprintf(got, sizeof got, "%s/cl2", s->dir);
  compare(ref, got, "reference vs OpenCL on 2 ranks", tol);
}

/* The case's OpenCL run under Oclgrind: verification and one step, curved.cl's kernels with
 * the vector-lane fused stage (res, then qupdate) and the point dipole; every Oclgrind
 * diagnostic names its kernel ("Kernel: ..."), so none may appear. */
static void opencl_clean_under_oclgrind(void **state) {
  const test_scratch *s = *state;
#if defined(__SANITIZE_ADDRESS__)
  test_skip("a sanitizer build (oclgrind preloads its own library)");
#endif
  if (system("command -v oclgrind >/dev/null 2>&1") != 0) test_skip("no oclgrind");
  const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
  char cmd[1024], log[200];
  snprintf(log, sizeof log, "%s/oclgrind.log", s->dir);
  snprintf(cmd, sizeof cmd,
           "oclgrind --data-races --uninitialized --check-api %s/dgtd run %s --backend opencl "
           "--steps 1 --tune never --variant work=vec,vw=4,fuse=res,prec=float --output %s/og "
           "--quiet > %s 2>&1", bin, case_json, s->dir, log);
  const int rc = system(cmd);
  FILE *f = fopen(log, "r");
  assert_non_null(f);
  char line[1024];
  int verified = 0, diagnostics = 0;
  while (fgets(line, sizeof line, f)) {
    verified |= strstr(line, "verified") != NULL;
    if (strstr(line, "Kernel:")) ++diagnostics;
    if (diagnostics && diagnostics < 4) printf("# %s", line);
  }
  fclose(f);
  printf("# oclgrind: exit %d, %d diagnostics\n", rc, diagnostics);
  assert_int_equal(rc, 0);
  assert_true(verified);
  assert_int_equal(diagnostics, 0);
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(runs_on_reference_backend),
      cmocka_unit_test(dispersive_material_in_curved_elements),
      cmocka_unit_test(multirate_refused),
      cmocka_unit_test(two_ranks_match_one),
      cmocka_unit_test(opencl_matches_reference),
      cmocka_unit_test(opencl_clean_under_oclgrind),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

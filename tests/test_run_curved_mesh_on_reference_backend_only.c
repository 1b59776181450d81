/* A case on a mesh with curved elements runs on the reference backend, with a probe in the
 * sliver between a wall facet and the round wall (inside the curved mesh only), and with a
 * dispersive (Drude) material in its curved elements; on 2 MPI ranks it gives one rank's
 * probe and energy series (1e-12); the OpenCL backend and multirate time stepping refuse it
 * before any work, saying what to do. */
#include "test_util.h"

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

static void opencl_and_multirate_refused(void **state) {
  const test_scratch *s = *state;
  char out[160];
  snprintf(out, sizeof out, "%s/refused", s->dir);
  dg_case c;
  dg_run_result r;
  read_case(&c, out);
  c.backend = DG_BACKEND_OPENCL;
  assert_dg_error(dg_run(&c, &r), DG_ERR_UNSUPPORTED,
                  "the OpenCL backend has no kernels for curved elements yet, and this mesh has "
                  "28 curved (second-order) elements: run it with the reference backend");
  dg_case_free(&c);
  read_case(&c, out);
  c.multirate = 1;
  c.mr_scheme = DG_MR_AB3;
  assert_dg_error(dg_run(&c, &r), DG_ERR_UNSUPPORTED,
                  "multirate time stepping does not handle curved elements yet");
  dg_case_free(&c);
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

static void two_ranks_match_one(void **state) {
  const test_scratch *s = *state;
  if (system("command -v mpiexec.mpich >/dev/null 2>&1") != 0) test_skip("no mpiexec.mpich");
  const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
  for (int P = 1; P <= 2; ++P) {
    char cmd[768];
    snprintf(cmd, sizeof cmd, "mpiexec.mpich -n %d %s/dgtd run %s --output %s/mpi%d --quiet > "
             "%s/mpi%d.log 2>&1", P, bin, case_json, s->dir, P, s->dir, P);
    if (system(cmd) != 0) fail_msg("%s failed", cmd);
  }
  enum { CAP = 20000 };
  static double a[CAP], b[CAP];
  static const char *files[2] = {"probes.csv", "energy.csv"};
  for (int i = 0; i < 2; ++i) {
    char d1[160], d2[160];
    snprintf(d1, sizeof d1, "%s/mpi1", s->dir);
    snprintf(d2, sizeof d2, "%s/mpi2", s->dir);
    const int na = load(d1, files[i], a, CAP), nb = load(d2, files[i], b, CAP);
    assert_int_equal(na, nb);
    assert_true(na > 20);
    double scale = 0, diff = 0;
    for (int j = 0; j < na; ++j) scale = fmax(scale, fabs(a[j])), diff = fmax(diff, fabs(a[j] - b[j]));
    printf("# %s: 1 vs 2 ranks, max difference %.2e (scale %.2e)\n", files[i], diff, scale);
    assert_true(diff <= 1e-12 * scale);
  }
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(runs_on_reference_backend),
      cmocka_unit_test(dispersive_material_in_curved_elements),
      cmocka_unit_test(opencl_and_multirate_refused),
      cmocka_unit_test(two_ranks_match_one),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

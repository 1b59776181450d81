/* MPI: `mpiexec.mpich -n 2` and `-n 3` runs of a case with every boundary type, two
 * materials, a dipole and a plane wave give the same probe and energy series as one rank
 * (1e-12 relative), on the OpenCL backend (PoCL) and the reference backend, with global
 * LSERK4 and with multirate AB3; a 2-rank run restarted from its per-rank checkpoints
 * reproduces the uninterrupted one, each rank stepping from the checkpoint's step on. */
#include "test_util.h"

#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mesh/mesh.h"
#include "part/part.h"

static char base[64];
static const char *case_json = "tests/fixtures/mpi_case.json";

static int have_mpiexec(void) { return system("command -v mpiexec.mpich >/dev/null 2>&1") == 0; }

/* Run the MPI case on P ranks into base/NAME; extra options appended. */
static void run(int P, const char *backend, const char *name, const char *extra) {
  const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
  char cmd[1024];
  /* One PoCL thread per rank: the ranks share this machine's cores. */
  snprintf(cmd, sizeof cmd,
           "POCL_MAX_PTHREAD_COUNT=1 mpiexec.mpich -n %d %s/dgtd run %s "
           "--backend %s --output %s/%s --quiet %s > %s/%s.log 2>&1",
           P, bin, case_json, backend, base, name, extra, base, name);
  const int rc = system(cmd);
  if (rc != 0) {
    char log[256];
    snprintf(log, sizeof log, "cat %s/%s.log", base, name);
    if (system(log)) {}
    fail_msg("%s exited with %d", cmd, rc);
  }
}

/* Rows of a CSV file (header skipped), up to cap values; returns the count. */
static int load(const char *dir, const char *file, double *v, int cap, int *cols) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s/%s", base, dir, file);
  FILE *f = fopen(path, "r");
  if (!f) fail_msg("cannot open %s", path);
  char line[4096];
  int n = 0;
  *cols = 0;
  if (!fgets(line, sizeof line, f)) fail_msg("%s is empty", path);
  for (char *p = line; *p; ++p) *cols += *p == ',';
  ++*cols;
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

static void assert_series_match(const char *a, const char *b, const char *file, double tol) {
  enum { CAP = 200000 };
  double *x = malloc(CAP * sizeof *x), *y = malloc(CAP * sizeof *y);
  int cx, cy;
  const int nx = load(a, file, x, CAP, &cx), ny = load(b, file, y, CAP, &cy);
  assert_int_equal(nx, ny);
  assert_int_equal(cx, cy);
  assert_true(nx > 10);
  /* The first two columns (probe or step, and t) must agree exactly; the fields to tol
   * relative to the largest field value. */
  double scale = 0, diff = 0;
  for (int i = 0; i < nx; ++i) {
    if (i % cx < 2) {
      if (x[i] != y[i]) fail_msg("%s: row %d column %d: %.17g vs %.17g", file, i / cx, i % cx, x[i], y[i]);
      continue;
    }
    scale = fmax(scale, fabs(x[i]));
    diff = fmax(diff, fabs(x[i] - y[i]));
  }
  assert_true(scale > 0);
  printf("# %s: %s vs %s: max difference %.3e (scale %.3e)\n", file, a, b, diff, scale);
  if (!(diff <= tol * scale)) fail_msg("%s differs between %s and %s: %.3e > %.0e x %.3e", file, a, b, diff, tol, scale);
  free(x);
  free(y);
}

static void ranks_agree(void **state) {
  (void)state;
  if (!have_mpiexec()) test_skip("no mpiexec.mpich");
  for (int b = 0; b < 2; ++b) {
    const char *backend = b ? "ref" : "opencl";
    char n1[32], n2[32], n3[32];
    snprintf(n1, sizeof n1, "%s_1", backend);
    snprintf(n2, sizeof n2, "%s_2", backend);
    snprintf(n3, sizeof n3, "%s_3", backend);
    run(1, backend, n1, "");
    run(2, backend, n2, "");
    run(3, backend, n3, "");
    assert_series_match(n1, n2, "probes.csv", 1e-12);
    assert_series_match(n1, n3, "probes.csv", 1e-12);
    assert_series_match(n1, n2, "energy.csv", 1e-12);
    assert_series_match(n1, n3, "energy.csv", 1e-12);
  }
}

/* A CFS-PML around the box and a TF/SF surface inside it (mesh.box pml_cells, tfsf_cells),
 * with a dipole in the scattered region next to the layer: a 2-way partition of the box
 * cuts the layer that surrounds it, and the surface; 2 ranks give one rank's series
 * (measured: identical to the last digit). */
static void pml_and_tfsf_ranks_agree(void **state) {
  (void)state;
  if (!have_mpiexec()) test_skip("no mpiexec.mpich");
  case_json = "tests/fixtures/mpi_pml_tfsf_case.json";
  /* The reference backend only (seconds); the OpenCL kernels are the same with and without
   * a partition, and the case above runs them on several ranks. */
  static const char *const backends[] = {"ref"};
  for (int b = 0; b < 1; ++b) {
    char n1[32], n2[32];
    snprintf(n1, sizeof n1, "pml1_%s", backends[b]);
    snprintf(n2, sizeof n2, "pml2_%s", backends[b]);
    run(1, backends[b], n1, "");
    run(2, backends[b], n2, "");
    assert_series_match(n1, n2, "probes.csv", 1e-12);
    assert_series_match(n1, n2, "energy.csv", 1e-12);
  }
  case_json = "tests/fixtures/mpi_case.json";
}

/* Periodic pairs (issue 53) cut by the partition: the box periodic in x and y
 * (tests/fixtures/mpi_periodic_case.json), whose 3-way Scotch partition cuts faces of the
 * pairs (counted here on the whole mesh: 2; the 2-way one cuts none), with a dipole next to
 * the x and y sides and probes across them: 2 and 3 ranks give one rank's series on both
 * backends (measured: identical to the last digit). */
static void periodic_ranks_agree(void **state) {
  (void)state;
  if (!have_mpiexec()) test_skip("no mpiexec.mpich");
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, 4, 4, 3));
  assert_dg_ok(dg_mesh_make_periodic(m, 1, 2, NULL, NULL));
  assert_dg_ok(dg_mesh_make_periodic(m, 3, 4, NULL, NULL));
  int *part = malloc(sizeof *part * (size_t)m->K);
  assert_dg_ok(dg_partition(m, 3, NULL, part, NULL));
  int cut = 0;
  for (int i = 0; i < 4 * m->K; ++i) cut += m->face_period[i] && part[i / 4] != part[m->EToE[i]];
  printf("# 3 parts: %d periodic faces cut\n", cut / 2);
  assert_true(cut > 0);
  free(part);
  dg_mesh_destroy(&m);
  case_json = "tests/fixtures/mpi_periodic_case.json";
  for (int b = 0; b < 2; ++b) {
    const char *backend = b ? "ref" : "opencl";
    char n1[32], n2[32], n3[32];
    snprintf(n1, sizeof n1, "per_%s_1", backend);
    snprintf(n2, sizeof n2, "per_%s_2", backend);
    snprintf(n3, sizeof n3, "per_%s_3", backend);
    run(1, backend, n1, "");
    run(2, backend, n2, "");
    run(3, backend, n3, "");
    assert_series_match(n1, n2, "probes.csv", 1e-12);
    assert_series_match(n1, n3, "probes.csv", 1e-12);
    assert_series_match(n1, n2, "energy.csv", 1e-12);
    assert_series_match(n1, n3, "energy.csv", 1e-12);
  }
  case_json = "tests/fixtures/mpi_case.json";
}

/* The line of the run summary in base/NAME.log that starts with key (leading blanks
 * skipped), into line. */
static void summary_line(const char *name, const char *key, char *line, size_t cap) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s.log", base, name);
  FILE *f = fopen(path, "r");
  if (!f) fail_msg("cannot open %s", path);
  while (fgets(line, (int)cap, f)) {
    const char *p = line;
    while (*p == ' ') ++p;
    if (!strncmp(p, key, strlen(key))) {
      fclose(f);
      return;
    }
  }
  fclose(f);
  fail_msg("%s: no '%s' line", path, key);
}

/* Multirate AB3 and LSERK4 on the same case (the two materials give 4 rate levels,
 * 9/264/192/3 elements): the levels are those of the whole mesh on every rank, the ghosts'
 * traces are exchanged before every evaluation, so 2 and 3 ranks give one rank's series;
 * the level histogram and the RHS work summed over the ranks are one rank's, and the
 * partition is balanced in evaluations per macro step. */
static void multirate_ranks_agree(void **state) {
  (void)state;
  if (!have_mpiexec()) test_skip("no mpiexec.mpich");
  /* AB3 and LSERK4, each on both backends */
  for (int b = 0; b < 4; ++b) {
    const char *backend = b & 1 ? "ref" : "opencl", *scheme = b & 2 ? "multirate-lserk4" : "multirate";
    char name[3][48], opt[64];
    snprintf(opt, sizeof opt, "--time-stepping %s", scheme);
    for (int p = 0; p < 3; ++p) {
      snprintf(name[p], sizeof name[p], "%s_%s_%d", scheme, backend, p + 1);
      run(p + 1, backend, name[p], opt);
    }
    char one[2][256], many[256];
    summary_line(name[0], "levels", one[0], sizeof one[0]);
    summary_line(name[0], "RHS work", one[1], sizeof one[1]);
    /* the reference backend plans the fewest evaluations; OpenCL's levels also weigh the
     * cost of a level stage (dg_multirate_levels), the same on every rank count */
    if (b & 1) assert_non_null(strstr(one[0], "0: 9, 1: 264, 2: 192, 3: 3 elements"));
    for (int p = 1; p < 3; ++p) {
      assert_series_match(name[0], name[p], "probes.csv", 1e-12);
      assert_series_match(name[0], name[p], "energy.csv", 1e-12);
      summary_line(name[p], "levels", many, sizeof many);
      assert_string_equal(one[0], many);
      summary_line(name[p], "RHS work", many, sizeof many);
      assert_string_equal(one[1], many);
      summary_line(name[p], "MPI", many, sizeof many);
      double imbalance = 0;
      const char *at = strstr(many, "imbalance ");
      assert_non_null(at);
      assert_int_equal(sscanf(at, "imbalance %lf", &imbalance), 1);
      assert_non_null(strstr(many, "(in RHS evaluations per macro step)"));
      if (!(imbalance < 1.05)) fail_msg("%s: %s", name[p], many);
    }
  }
}

/* 20 steps, then a restart to 40 (the case's steps) from the per-rank checkpoints: the
 * series are the uninterrupted run's bit for bit; rank 0 reports the restart at step 20 and
 * 20 steps taken; and every rank stepped from 20 on only: the restarted run (the same case
 * with a snapshot every 5 steps) wrote each rank's pieces of steps 25, 30, 35 and 40 and no
 * other (a rank that went back to step 0 would write 5 to 20 as well). */
static void restart_on_two_ranks(void **state) {
  (void)state;
  if (!have_mpiexec()) test_skip("no mpiexec.mpich");
  run(2, "opencl", "whole", "--checkpoint-every 20");
  run(2, "opencl", "parts", "--steps 20 --checkpoint-every 20");
  char extra[256];
  snprintf(extra, sizeof extra, "--restart %s/parts/checkpoint.chk", base);
  case_json = "tests/fixtures/mpi_case_vtu.json";
  run(2, "opencl", "parts", extra);
  case_json = "tests/fixtures/mpi_case.json";
  assert_series_match("whole", "parts", "probes.csv", 0.0);
  assert_series_match("whole", "parts", "energy.csv", 0.0);
  char line[256];
  summary_line("parts", "restarted at", line, sizeof line);
  assert_non_null(strstr(line, "restarted at  step 20\n"));
  summary_line("parts", "steps ", line, sizeof line);
  assert_non_null(strstr(line, "steps         20\n"));
  char dir[128];
  snprintf(dir, sizeof dir, "%s/parts", base);
  DIR *d = opendir(dir);
  assert_non_null(d);
  int pieces[2] = {0, 0};
  for (struct dirent *e; (e = readdir(d));) {
    int step = -1, rank = -1;
    if (sscanf(e->d_name, "fields_%6d_r%d.vtu", &step, &rank) != 2) continue;
    if (rank < 0 || rank > 1 || step <= 20 || step > 40 || step % 5)
      fail_msg("%s: a piece of rank %d at step %d, want steps 25..40 only", e->d_name, rank, step);
    ++pieces[rank];
  }
  closedir(d);
  printf("# restarted 2-rank run: rank 0 wrote %d pieces, rank 1 %d (steps 25, 30, 35, 40)\n",
         pieces[0], pieces[1]);
  assert_int_equal(pieces[0], 4);
  assert_int_equal(pieces[1], 4);
}

static int setup(void **state) {
  (void)state;
  snprintf(base, sizeof base, "/tmp/dgtd-mpi-XXXXXX");
  return mkdtemp(base) ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  return test_rmrf(base);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ranks_agree),
      cmocka_unit_test(restart_on_two_ranks),
      cmocka_unit_test(pml_and_tfsf_ranks_agree),
      cmocka_unit_test(periodic_ranks_agree),
      cmocka_unit_test(multirate_ranks_agree),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

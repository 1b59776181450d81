/* scripts/render.py and scripts/sar.py refuse bad input with exit status 2 and a message
 * naming the argument (issue 48):
 * - render.py: a PNG in a directory that does not exist (it used to report success without
 *   writing), --pixels 1 (ZeroDivisionError), --range 5,1 (exit 0 with a VTK error), a
 *   missing VTU (VTK internals); a good invocation writes the PNG and exits 0;
 * - sar.py: a --density name no material has (it gave NaN), --density NAME without "="
 *   (ValueError), a missing case file (FileNotFoundError), a case other than the run's (as
 *   recorded in the run's run.json: it was not checked); the run's own case still works.
 * Runs of the reference backend (no OpenCL device needed): the default cavity for 2 steps
 * with a snapshot, configs/tissue_dipole.json for 2 steps with its volume DFT. */
#include "test_util.h"

#include <sys/stat.h>

#include "app/case.h"
#include "app/simulate.h"

#define PYTHON "/usr/bin/python3"
#define TISSUE "configs/tissue_dipole.json"

static int have_vtk(void) {
  return system(PYTHON " -c 'import vtk, numpy' >/dev/null 2>&1") == 0;
}

/* Runs `script args 2>&1`, checks its exit status and that the output holds `want`. */
static void expect(const char *script, const char *args, int status, const char *want) {
  char cmd[2048], out[8192];
  snprintf(cmd, sizeof cmd, PYTHON " scripts/%s %s 2>&1", script, args);
  const int rc = test_capture(cmd, out, sizeof out);
  if (rc != status || !strstr(out, want))
    fail_msg("%s: exit %d (want %d), output without \"%s\":\n%s", cmd, rc, status, want, out);
  if (status != 0 && strstr(out, "Traceback"))
    fail_msg("%s: a Python traceback rather than a message:\n%s", cmd, out);
  printf("# %s %s: exit %d, \"%s\"\n", script, args, rc, want);
}

static void render_refuses_bad_input(void **state) {
  test_scratch *s = *state;
  if (!have_vtk()) test_skip(PYTHON " cannot import vtk (install python3-vtk9)");
  dg_case c;
  dg_case_default(&c);
  c.quiet = 1;
  c.backend = DG_BACKEND_REF;
  c.steps = 2;
  c.vtu_every = 2;
  snprintf(c.output_dir, sizeof c.output_dir, "%s/cavity", s->dir);
  dg_run_result r;
  assert_dg_ok(dg_run(&c, &r));
  dg_case_free(&c);
  char vtu[300], a[1024], png[300];
  snprintf(vtu, sizeof vtu, "%s/cavity/fields_000002.vtu", s->dir);
  snprintf(png, sizeof png, "%s/slice.png", s->dir);

  snprintf(a, sizeof a, "%s %s/no/such/dir/x.png", vtu, s->dir);
  expect("render.py", a, 2, "PNG");
  expect("render.py", a, 2, "does not exist");
  snprintf(a, sizeof a, "%s %s --pixels 1", vtu, png);
  expect("render.py", a, 2, "argument --pixels: expected a whole number from 16");
  snprintf(a, sizeof a, "%s %s --range 5,1", vtu, png);
  expect("render.py", a, 2, "argument --range: LO must be below HI");
  snprintf(a, sizeof a, "%s %s --range a,b", vtu, png);
  expect("render.py", a, 2, "expected two numbers LO,HI");
  snprintf(a, sizeof a, "%s/none.vtu %s", s->dir, png);
  expect("render.py", a, 2, "none.vtu': no such file");
  snprintf(a, sizeof a, "%s/cavity/run.json %s", s->dir, png);
  expect("render.py", a, 2, "expected a .vtu or .pvtu file");
  struct stat st;
  assert_int_not_equal(stat(png, &st), 0); /* nothing written by the refused ones */

  snprintf(a, sizeof a, "%s %s --pixels 40", vtu, png);
  expect("render.py", a, 0, "slice.png (");
  assert_int_equal(stat(png, &st), 0);
  assert_true(st.st_size > 0);
}

static void sar_refuses_bad_input(void **state) {
  test_scratch *s = *state;
  if (!have_vtk()) test_skip(PYTHON " cannot import vtk (install python3-vtk9)");
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_read(&c, TISSUE));
  c.quiet = 1;
  c.backend = DG_BACKEND_REF;
  c.steps = 2;
  snprintf(c.output_dir, sizeof c.output_dir, "%s/tissue", s->dir);
  dg_run_result r;
  assert_dg_ok(dg_run(&c, &r));
  dg_case_free(&c);
  char a[1024];

  snprintf(a, sizeof a, TISSUE " %s/tissue --density bone=1000", s->dir);
  expect("sar.py", a, 2, "'bone' is no material of " TISSUE "; its materials are air, muscle, fat");
  snprintf(a, sizeof a, TISSUE " %s/tissue --density muscle", s->dir);
  expect("sar.py", a, 2, "--density 'muscle': expected NAME=RHO");
  snprintf(a, sizeof a, TISSUE " %s/tissue --density muscle=-3", s->dir);
  expect("sar.py", a, 2, "is not a positive number");
  snprintf(a, sizeof a, "%s/none.json %s/tissue", s->dir, s->dir);
  expect("sar.py", a, 2, "none.json': no such file");
  snprintf(a, sizeof a, TISSUE " %s/none", s->dir);
  expect("sar.py", a, 2, "OUTPUT_DIR");
  snprintf(a, sizeof a, "configs/sphere_plane_wave.json %s/tissue", s->dir);
  expect("sar.py", a, 2, "is not the case of the run");
  expect("sar.py", a, 2, "\"case\": '" TISSUE "'");

  snprintf(a, sizeof a, TISSUE " %s/tissue --density muscle=1090 --density fat=911", s->dir);
  expect("sar.py", a, 0, "P/(vol rho)");
  /* a copy of the run's case (same bytes) is the run's case */
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "cp " TISSUE " %s/copy.json", s->dir);
  assert_int_equal(system(cmd), 0);
  snprintf(a, sizeof a, "%s/copy.json %s/tissue", s->dir, s->dir);
  expect("sar.py", a, 0, "muscle");
}

static int setup(void **state) { return test_scratch_setup(state, "x"); }

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(render_refuses_bad_input),
                                     cmocka_unit_test(sar_refuses_bad_input)};
  return _cmocka_run_group_tests("tests", tests, 2, setup, test_scratch_teardown);
}

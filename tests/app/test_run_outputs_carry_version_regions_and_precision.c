/* What a run's files say about it, read back by VTK (python3-vtk9): `dgtd --version` prints
 * the version and where the templates are; the --json summary and the output directory's
 * run.json carry the version; a float OpenCL run writes its snapshots' E and H as Float32
 * (double with "output.vtu_precision": "double", and always on the reference backend), with
 * the region (physical volume tag) and material (materials[] entry, -1: none) of every cell
 * as cell data and the version as field data. `make install PREFIX=DIR` (a DIR with a space
 * in it: the install failed and left stray folders) puts the binary
 * where it finds its templates and tuning files from any working directory. */
#include "test_util.h"

#include <sys/stat.h>

#include "core/version.h"

#define PYTHON "/usr/bin/python3"

/* A captured text as TAP comments, one "# " line per line. */
static void print_lines(const char *title, const char *text) {
  print_message("# %s\n", title);
  for (const char *l = text; *l;) {
    const char *nl = strchr(l, '\n');
    const int n = nl ? (int)(nl - l) : (int)strlen(l);
    print_message("#   %.*s\n", n, l);
    l += n + (nl != NULL);
  }
}

static const char *bin(void) {
  const char *b = getenv("BIN");
  return b && *b ? b : "bin";
}

/* The box [0,1]^3 in 2^3 cells with one PML cell around it (K = 384: 48 in "domain", tag 1,
 * 336 in "pml", tag 2), "domain" given a material; two steps, a snapshot each step. */
static void write_case(const test_scratch *s, const char *name, const char *extra_output) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s.json", s->dir, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f,
          "{\"mesh\": {\"box\": {\"cells\": [2, 2, 2], \"pml_cells\": 1}}, \"order\": 2, "
          "\"steps\": 2, \"default_boundary\": \"pec\", "
          "\"materials\": [{\"volume\": \"domain\", \"eps\": 2}], "
          "\"sources\": [{\"type\": \"dipole\", \"position\": [0.5, 0.5, 0.5], "
          "\"direction\": [0, 0, 1], \"pulse\": {\"shape\": \"ricker\", \"frequency\": 1}}], "
          "\"output\": {\"directory\": \"%s_out\", \"vtu_every\": 1%s}}\n",
          name, extra_output);
  fclose(f);
}

static int run(const test_scratch *s, const char *name, const char *options, char *out, size_t cap) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "'%s/dgtd' run '%s/%s.json' --quiet %s 2>&1", bin(), s->dir, name,
           options);
  const int rc = test_capture(cmd, out, cap);
  print_message("# %s: exit %d\n", cmd, rc);
  return rc;
}

static void meta(const test_scratch *s, const char *file, char *out, size_t cap) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, PYTHON " tests/tools/io_vtu_probe.py meta '%s/%s' 2>&1", s->dir, file);
  const int rc = test_capture(cmd, out, cap);
  print_lines(file, out);
  assert_int_equal(rc, 0);
}

static void version_printed_with_paths(void **state) {
  (void)state;
  char cmd[256], out[4096];
  snprintf(cmd, sizeof cmd, "'%s/dgtd' --version 2>&1", bin());
  assert_int_equal(test_capture(cmd, out, sizeof out), 0);
  print_lines("dgtd --version", out);
  assert_true(!strncmp(out, "dgtd " DG_VERSION "\n", strlen("dgtd " DG_VERSION "\n")));
  const char *t = strstr(out, "templates  ");
  assert_non_null(t);
  char dir[1024];
  assert_int_equal(sscanf(t + 11, "%1023s", dir), 1);
  char common[1100];
  snprintf(common, sizeof common, "%s/common.cl", dir);
  struct stat sb;
  assert_int_equal(stat(common, &sb), 0);
  assert_non_null(strstr(out, "tuning     "));
}

static void float_run_files_carry_version_regions_and_float32(void **state) {
  test_scratch *s = *state;
  if (system(PYTHON " -c 'import vtkmodules.vtkIOXML' >/dev/null 2>&1") != 0) {
    printf("# SKIP: " PYTHON " cannot import vtk (install python3-vtk9)\n");
    skip();
  }
  char out[16384];
  write_case(s, "f", "");
  assert_int_equal(run(s, "f", "--json --precision float", out, sizeof out), 0);
  assert_non_null(strstr(out, "\"version\":\"" DG_VERSION "\""));
  char path[256];
  snprintf(path, sizeof path, "cat '%s/f_out/run.json'", s->dir);
  assert_int_equal(test_capture(path, out, sizeof out), 0);
  assert_non_null(strstr(out, "\"dgtd_version\":\t\"" DG_VERSION "\""));
  assert_non_null(strstr(out, "\"vtu_precision\":\t\"float\""));
  meta(s, "f_out/fields_000001.vtu", out, sizeof out);
  assert_non_null(strstr(out, "array E float\narray H float\n"));
  assert_non_null(strstr(out, "cells region 384 1 2\n"));
  assert_non_null(strstr(out, "cells material 384 -1 0\n"));
  assert_non_null(strstr(out, "version dgtd " DG_VERSION "\n"));

  /* Asked for double, and the reference backend's own precision. */
  write_case(s, "d", ", \"vtu_precision\": \"double\"");
  assert_int_equal(run(s, "d", "--precision float", out, sizeof out), 0);
  meta(s, "d_out/fields_000002.vtu", out, sizeof out);
  assert_non_null(strstr(out, "array E double\narray H double\n"));
  write_case(s, "r", "");
  assert_int_equal(run(s, "r", "--backend ref", out, sizeof out), 0);
  meta(s, "r_out/fields_000000.vtu", out, sizeof out);
  assert_non_null(strstr(out, "array E double\n"));
  assert_non_null(strstr(out, "cells material 384 -1 0\n"));
}

static void installed_binary_finds_its_files(void **state) {
  test_scratch *s = *state;
  if (system("command -v make >/dev/null 2>&1") != 0) {
    printf("# SKIP: no make\n");
    skip();
  }
  const char *build = getenv("BUILD");
  char cmd[1024], out[8192];
  /* Not the calling make's jobserver: this make runs on its own. */
  snprintf(cmd, sizeof cmd,
           "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install PREFIX='%s/pre fix' "
           "BUILD='%s' BIN='%s' 2>&1", s->dir, build && *build ? build : "build", bin());
  const int rc = test_capture(cmd, out, sizeof out);
  print_message("# make install: exit %d\n", rc);
  print_lines("make install", out);
  assert_int_equal(rc, 0);
  /* From a directory with no cl_templates/ or tuning/, and without DGTD_TEMPLATES. */
  snprintf(cmd, sizeof cmd,
           "cd '%s' && env -u DGTD_TEMPLATES -u DGTD_TUNING_DIR 'pre fix/bin/dgtd' --version && "
           "env -u DGTD_TEMPLATES DGTD_TUNE=never 'pre fix/bin/dgtd' run --box 2 --order 1 "
           "--steps 1 --quiet 2>&1", s->dir);
  const int rc2 = test_capture(cmd, out, sizeof out);
  print_message("# installed run: exit %d\n", rc2);
  print_lines("installed run", out);
  assert_int_equal(rc2, 0);
  assert_non_null(strstr(out, "share/dgtd/cl_templates"));
  assert_non_null(strstr(out, "share/dgtd/tuning"));
  assert_non_null(strstr(out, "  L2 error"));
  snprintf(cmd, sizeof cmd, "%s/pre fix/share/dgtd/configs/sphere_plane_wave.json", s->dir);
  struct stat sb;
  assert_int_equal(stat(cmd, &sb), 0);
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(version_printed_with_paths),
      cmocka_unit_test(float_run_files_carry_version_regions_and_float32),
      cmocka_unit_test(installed_binary_finds_its_files),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

/* scripts/sar.py, the absorbed power per material from a run's volume DFT:
 * - its own checks pass (`sar.py selftest`): the integral of |E|^2 over a linear cell
 *   against a degree-2 quadrature (1e-13), eps'' of each pole type and of a conductivity
 *   where it has a closed form (1e-14);
 * - on configs/tissue_dipole.json run for 20 steps (reference backend, so the test needs no
 *   OpenCL device), it finds both tissues at both frequencies, each material's volume is
 *   the sum of its tetrahedra's volumes in the mesh (1e-9 relative: the material index of
 *   each cell maps to the right case entry, and the linear sub-cells tile the elements),
 *   and the absorbed power and mean |E|^2 are positive and finite. */
#include "test_util.h"

#include <math.h>

#include "app/case.h"
#include "app/simulate.h"
#include "mesh/mesh.h"

#define PYTHON "/usr/bin/python3"
#define CASE "configs/tissue_dipole.json"

/* text, each line as a TAP comment ("# "), so that the script's "ok" lines are not counted
 * as test cases. */
static void print_commented(const char *text) {
  for (const char *l = text; *l;) {
    const size_t n = strcspn(l, "\n");
    printf("# %.*s\n", (int)n, l);
    l += n + (l[n] == '\n');
  }
}

static int have_vtk(void) {
  return system(PYTHON " -c 'import vtk, numpy' >/dev/null 2>&1") == 0;
}

static void selftest_passes(void **state) {
  (void)state;
  if (!have_vtk()) test_skip(PYTHON " cannot import vtk (install python3-vtk9)");
  char out[4096];
  const int rc = test_capture(PYTHON " scripts/sar.py selftest 2>&1", out, sizeof out);
  print_commented(out);
  assert_int_equal(rc, 0);
  assert_non_null(strstr(out, "0 failed"));
}

/* The volume of the mesh's elements of physical volume `name`. */
static double group_volume(const dg_mesh *m, const char *name) {
  int tag = -1;
  for (int i = 0; i < m->nphys; ++i)
    if (m->phys[i].dim == 3 && !strcmp(m->phys[i].name, name)) tag = m->phys[i].tag;
  assert_true(tag >= 0);
  double vol = 0;
  for (int k = 0; k < m->K; ++k) {
    if (m->elem_tag[k] != tag) continue;
    const int *v = m->EToV + 4 * k;
    double a[3][3];
    for (int d = 0; d < 3; ++d) {
      a[d][0] = m->VX[v[d + 1]] - m->VX[v[0]];
      a[d][1] = m->VY[v[d + 1]] - m->VY[v[0]];
      a[d][2] = m->VZ[v[d + 1]] - m->VZ[v[0]];
    }
    vol += fabs(a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])) / 6;
  }
  return vol;
}

static void tissue_run_integrated_per_material(void **state) {
  test_scratch *s = *state;
  if (!have_vtk()) test_skip(PYTHON " cannot import vtk (install python3-vtk9)");
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_read(&c, CASE));
  c.quiet = 1;
  c.backend = DG_BACKEND_REF;
  c.steps = 20;
  snprintf(c.output_dir, sizeof c.output_dir, "%s/tissue", s->dir);
  dg_run_result r;
  assert_dg_ok(dg_run(&c, &r));
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read(&m, c.mesh_file));
  const double v_muscle = group_volume(m, "muscle"), v_fat = group_volume(m, "fat");
  dg_mesh_destroy(&m);
  char cmd[2048], csv[600];
  snprintf(csv, sizeof csv, "%s/sar.csv", s->dir);
  snprintf(cmd, sizeof cmd, PYTHON " scripts/sar.py " CASE " %s --density muscle=1090 "
           "--density fat=911 --csv %s 2>&1", c.output_dir, csv);
  char out[8192];
  const int rc = test_capture(cmd, out, sizeof out);
  print_commented(out);
  assert_int_equal(rc, 0);
  FILE *f = fopen(csv, "r");
  assert_non_null(f);
  char line[512];
  assert_non_null(fgets(line, sizeof line, f)); /* header */
  int rows = 0, seen[2][2] = {{0, 0}, {0, 0}};
  while (fgets(line, sizeof line, f)) {
    double freq, vol, e2, p, pd, sar;
    char name[32];
    assert_int_equal(sscanf(line, "%lf,%31[^,],%lf,%lf,%lf,%lf,%lf", &freq, name, &vol, &e2, &p,
                            &pd, &sar), 7);
    const int fi = fabs(freq - c.dft.freq[0]) < 1e-9 ? 0 : 1;
    assert_true(fabs(freq - c.dft.freq[fi]) < 1e-9);
    const int mi = !strcmp(name, "fat");
    assert_true(mi || !strcmp(name, "muscle"));
    const double want = mi ? v_fat : v_muscle;
    if (fabs(vol - want) > 1e-9 * want)
      fail_msg("%s at f = %g: volume %.12g, the mesh's %.12g", name, freq, vol, want);
    assert_true(isfinite(e2) && e2 > 0 && isfinite(p) && p > 0 && isfinite(sar) && sar > 0);
    seen[fi][mi] = 1;
    ++rows;
  }
  fclose(f);
  assert_int_equal(rows, 4);
  assert_true(seen[0][0] && seen[0][1] && seen[1][0] && seen[1][1]);
  printf("# muscle %.6g, fat %.6g (cm^3) as the mesh's tetrahedra\n", v_muscle, v_fat);
  dg_case_free(&c);
}

static int setup(void **state) { return test_scratch_setup(state, "x"); }

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(selftest_passes),
                                     cmocka_unit_test(tissue_run_integrated_per_material)};
  return _cmocka_run_group_tests("tests", tests, 2, setup, test_scratch_teardown);
}

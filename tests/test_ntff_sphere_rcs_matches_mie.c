/* Bistatic RCS of a PEC sphere and a dielectric sphere (eps_r = 4), radius 0.5, lit by a
 * plane wave through the TF/SF box, from whole runs of the shipped cases
 * configs/sphere_rcs.json and configs/sphere_rcs_eps4.json (DFT on the surface "ntff", the
 * near-to-far-field transform, far_field.csv), against the Mie series (tests/tools/mie.py),
 * at ka = 1 and ka = 3 in the E-plane (xz) and the H-plane (xy), every 5 degrees. Error in
 * dB = 10 log10(sigma_dgtd / sigma_Mie) over the directions where Mie is within 20 dB of its
 * peak (the deep nulls have no meaningful dB error).
 *
 * Each sphere at two resolutions, order 2: the shipped mesh (size 0.25 on the sphere) and a
 * finer one made by gmsh from configs/meshes/sphere_rcs.geo with size 0.17 on the sphere.
 * The largest error must be below the tolerances of `tol` and must fall with the refinement
 * at ka = 1, where the flat facets dominate: the faceting's share is shown by comparing the
 * same far_field.csv with Mie at the mesh's volume-equivalent radius (the inscribed
 * polyhedron is smaller than the sphere).
 *
 * A run takes minutes on two CPU cores, so these are under DGTD_TEST_ALL (make test-all);
 * make test runs a reduced case: the PEC sphere on the shipped mesh at ka = 1, order 1 in
 * float, against Mie within 2 dB (below). */
#include "test_device.h"

#include "app/case.h"
#include "app/simulate.h"
#include "mesh/mesh.h"

#define PYTHON "/usr/bin/python3"

static const double pi = 3.14159265358979323846;

/* The volume-equivalent radius of the meshed sphere: its tets' volume (dielectric) or the
 * hole's (PEC: the outer box minus every tet). */
static double equivalent_radius(const char *mesh_path, int pec) {
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read(&m, mesh_path));
  int tag = -1;
  for (int i = 0; i < m->nphys; ++i)
    if (m->phys[i].dim == 3 && !strcmp(m->phys[i].name, "sphere")) tag = m->phys[i].tag;
  double vol = 0;
  for (int k = 0; k < m->K; ++k) {
    const int *v = m->EToV + 4 * k;
    double a[3][3];
    for (int d = 0; d < 3; ++d) {
      a[d][0] = m->VX[v[d + 1]] - m->VX[v[0]];
      a[d][1] = m->VY[v[d + 1]] - m->VY[v[0]];
      a[d][2] = m->VZ[v[d + 1]] - m->VZ[v[0]];
    }
    const double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                       a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                       a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
    if (pec || m->elem_tag[k] == tag) vol += fabs(det) / 6;
  }
  dg_mesh_destroy(&m);
  if (pec) vol = 3.4 * 3.4 * 3.4 - vol; /* configs/meshes/sphere_rcs.geo: [-1.7, 1.7]^3 */
  return cbrt(3 * vol / (4 * pi));
}

/* mie.py compare on far_field.csv of nfreq frequencies; the largest |error| (dB) per
 * frequency in worst[], the largest rms error (dB) over planes and frequencies in *rms. */
static void compare_n(const char *csv, double radius, int pec, int print, int nfreq,
                      double *worst, double *rms) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, PYTHON " tests/tools/mie.py compare %s --radius %.10g %s 2>&1", csv,
           radius, pec ? "--pec" : "--eps 4");
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  char line[512];
  int fi = -1, n = 0;
  for (int i = 0; i < nfreq; ++i) worst[i] = 0;
  *rms = 0;
  while (fgets(line, sizeof line, p)) {
    if (print) printf("#   %s", line);
    if (!strncmp(line, "# f = ", 6)) {
      if (strstr(line, "plane xz")) ++fi;
    }
    double e, r;
    if (sscanf(line, "# max |error| %lf dB, rms %lf dB", &e, &r) == 2 && fi >= 0 && fi < nfreq) {
      worst[fi] = fmax(worst[fi], e);
      *rms = fmax(*rms, r);
      ++n;
    }
  }
  assert_int_equal(pclose(p), 0);
  assert_int_equal(n, 2 * nfreq); /* the xz and the xy plane of each frequency */
}

static void compare(const char *csv, double radius, int pec, int print, double worst[2]) {
  double rms;
  compare_n(csv, radius, pec, print, 2, worst, &rms);
}

typedef struct {
  const char *name, *case_file;
  int pec;
} sphere;

/* One run (hs = 0: the case's own mesh, else one gmsh makes with size hs on the sphere); worst[ka
 * index] in dB, and the same against Mie at the mesh's equivalent radius. */
static void run_sphere(const char *dir, const sphere *sp, double hs, int order, double worst[2],
                       double worst_eq[2]) {
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_read(&c, sp->case_file));
  c.quiet = 1;
  c.order = order;
  if (hs > 0) {
    snprintf(c.mesh_file, sizeof c.mesh_file, "%s/%s_hs%g.msh", dir, sp->name, hs);
    char cmd[2 * DG_CASE_PATH];
    snprintf(cmd, sizeof cmd, "gmsh configs/meshes/sphere_rcs.geo -3 -format msh41 -setnumber "
             "hs %g -setnumber pec %d -o %s > /dev/null 2>&1", hs, sp->pec, c.mesh_file);
    if (system(cmd) != 0) fail_msg("%s failed", cmd);
  }
  snprintf(c.output_dir, sizeof c.output_dir, "%s/%s_hs%g_N%d", dir, sp->name, hs, order);
  const double a_eq = equivalent_radius(c.mesh_file, sp->pec);
  dg_run_result r;
  assert_dg_ok(dg_run(&c, &r));
  assert_true(r.ff_on && r.ff_rcs);
  char csv[DG_CASE_PATH + 32];
  snprintf(csv, sizeof csv, "%s/far_field.csv", c.output_dir);
  printf("# %s sphere, mesh %s, order %d, K = %d, %d steps, %.0f s (DFT %.1f%% of the stepping); "
         "volume-equivalent radius of the mesh %.4f (a = 0.5)\n", sp->name, c.mesh_file, order, r.K, r.steps,
         r.wall_s, r.wall_s > 0 ? 100 * r.dft_s / r.wall_s : 0, a_eq);
  compare(csv, 0.5, sp->pec, 1, worst);
  compare(csv, a_eq, sp->pec, 0, worst_eq);
  printf("# %s %s N=%d: max |error| ka=1 %.2f dB, ka=3 %.2f dB; against Mie at a = %.4f: %.2f, "
         "%.2f dB\n", sp->name, hs > 0 ? "fine" : "shipped", order, worst[0], worst[1], a_eq, worst_eq[0], worst_eq[1]);
  dg_case_free(&c);
}

/* What the comparison needs: scipy for mie.py, an OpenCL device. */
static void need_scipy_and_device(void) {
  if (system(PYTHON " -c 'import scipy.special' >/dev/null 2>&1") != 0)
    test_skip(PYTHON " cannot import scipy (install python3-scipy)");
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    test_skip("no OpenCL device");
  }
  dg_device_destroy(&dev);
}

/* make test's end-to-end scattering check: the PEC sphere of configs/sphere_rcs.json on its
 * shipped mesh, at ka = 1 only, order 1 in float (a few seconds; the case's own run is order
 * 2 in double): its bistatic RCS against Mie in both planes. Measured: max |error| 1.69 dB
 * (E-plane) and 1.61 dB (H-plane), rms 0.81 and 0.97 dB; allowed 2.0 and 1.2 dB, so an RCS
 * off by a factor of 2 (3 dB) anywhere near the peak fails. */
static void reduced_pec_sphere_matches_mie_at_ka_1(void **state) {
  test_scratch *s = *state;
  need_scipy_and_device();
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_read(&c, "configs/sphere_rcs.json"));
  c.quiet = 1;
  c.order = 1;
  c.precision = DG_PREC_FLOAT;
  c.tune = DG_TUNE_NEVER;
  assert_true(c.dft.nfreq >= 1);
  assert_near(2 * 3.14159265358979323846 * c.dft.freq[0] * 0.5, 1.0, 1e-12); /* ka = 1 */
  c.dft.nfreq = 1;
  snprintf(c.output_dir, sizeof c.output_dir, "%s/reduced", s->dir);
  dg_run_result r;
  assert_dg_ok(dg_run(&c, &r));
  assert_true(r.ff_on && r.ff_rcs && r.ff_nfreq == 1);
  char csv[DG_CASE_PATH + 32];
  snprintf(csv, sizeof csv, "%s/far_field.csv", c.output_dir);
  double worst, rms;
  compare_n(csv, 0.5, 1, 1, 1, &worst, &rms);
  printf("# reduced PEC sphere (K = %d, N = 1, float, %d steps, %.1f s): max |error| %.2f dB, "
         "rms %.2f dB\n", r.K, r.steps, r.wall_s, worst, rms);
  if (!(worst <= 2.0 && rms <= 1.2))
    fail_msg("RCS against Mie at ka = 1: max |error| %.2f dB (allowed 2.0), rms %.2f dB "
             "(allowed 1.2)", worst, rms);
  dg_case_free(&c);
}

static void spheres_match_mie(void **state) {
  test_scratch *s = *state;
  need_scipy_and_device();
  static const sphere spheres[2] = {{"pec", "configs/sphere_rcs.json", 1},
                                    {"eps4", "configs/sphere_rcs_eps4.json", 0}};
  /* Largest |error| in dB allowed: [sphere][shipped, fine mesh][ka 1, 3] (measured values
   * in docs/OUTPUTS.md, "Far field and radar cross section"). */
  static const double tol[2][2][2] = {{{1.2, 3.0}, {0.7, 2.6}},
                                      {{1.6, 5.5}, {1.1, 3.5}}};
  for (int i = 0; i < 2; ++i) {
    double w[2][2], weq[2][2];
    for (int o = 0; o < 2; ++o) {
      run_sphere(s->dir, &spheres[i], o ? 0.17 : 0, 2, w[o], weq[o]);
      for (int k = 0; k < 2; ++k) assert_true(w[o][k] < tol[i][o][k]);
    }
    assert_true(w[1][0] < w[0][0]);
  }
}

static int setup(void **state) { return test_scratch_setup(state, "x"); }

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(reduced_pec_sphere_matches_mie_at_ka_1),
                                     cmocka_unit_test(spheres_match_mie)};
  /* The whole runs take minutes each: registered under DGTD_TEST_ALL (make test-all) only
   * (a skipped case would count as a skip, and fail under DGTD_TEST_NO_SKIP=1). */
  const char *all = getenv("DGTD_TEST_ALL");
  const size_t n = all && all[0] == '1' ? 2 : 1;
  return _cmocka_run_group_tests("tests", tests, n, setup, test_scratch_teardown);
}

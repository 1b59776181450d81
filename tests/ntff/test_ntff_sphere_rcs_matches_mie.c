/* Bistatic RCS of a PEC sphere and a dielectric sphere (eps_r = 4), radius 0.5, lit by a
 * plane wave through the TF/SF box, from whole runs of the shipped cases
 * configs/sphere_rcs.json and configs/sphere_rcs_eps4.json (DFT on the surface "ntff", the
 * near-to-far-field transform, far_field.csv), against the Mie series (tests/tools/mie.py),
 * at ka = 1 and ka = 3 in the E-plane (xz) and the H-plane (xy), every 5 degrees. Error in
 * dB = 10 log10(sigma_dgtd / sigma_Mie) over the directions where Mie is within 20 dB of its
 * peak (the deep nulls have no meaningful dB error).
 *
 * The shipped meshes are second order (configs/meshes/sphere_rcs.geo): the elements along
 * the sphere are curved. make test runs a reduced case (below): the PEC sphere at ka = 1,
 * order 1 in float, on the shipped mesh and on the same mesh straight-sided, and the curved
 * one must be the closer to Mie. The shipped cases as they are (minutes each on two CPU
 * cores) run under DGTD_TEST_ALL (make test-all), against issue 38's targets: within 0.2 dB
 * at ka = 1 and 0.5 dB at ka = 3 (docs/RCS_VALIDATION.md). */
#include "test_device.h"

#include "app/case.h"
#include "app/simulate.h"

#define PYTHON "/usr/bin/python3"

/* mie.py compare on far_field.csv of nfreq frequencies; the largest |error| (dB) per
 * frequency in worst[], the largest rms error (dB) over planes and frequencies in *rms. */
static void compare_n(const char *csv, int pec, int print, int nfreq, double *worst,
                      double *rms) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, PYTHON " tests/tools/mie.py compare %s --radius 0.5 %s 2>&1", csv,
           pec ? "--pec" : "--eps 4");
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

/* The reduced PEC run on mesh_file (NULL: the case's own): ka = 1 only, order 1 in float, to
 * t = 8; its largest |error| and rms over both planes, and its curved element count. */
static void reduced_run(const char *dir, const char *name, const char *mesh_file, double *worst,
                        double *rms, int *K_curved) {
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_read(&c, "configs/sphere_rcs.json"));
  c.quiet = 1;
  c.order = 1;
  c.precision = DG_PREC_FLOAT;
  c.tune = DG_TUNE_NEVER;
  c.final_time = 8.0;
  c.stop_energy = 0; /* to t = 8 whatever the case's own stop */
  assert_true(c.dft.nfreq >= 1);
  assert_near(2 * 3.14159265358979323846 * c.dft.freq[0] * 0.5, 1.0, 1e-12); /* ka = 1 */
  c.dft.nfreq = 1;
  if (mesh_file) snprintf(c.mesh_file, sizeof c.mesh_file, "%s", mesh_file);
  snprintf(c.output_dir, sizeof c.output_dir, "%s/%s", dir, name);
  dg_run_result r;
  assert_dg_ok(dg_run(&c, &r));
  assert_true(r.ff_on && r.ff_rcs && r.ff_nfreq == 1);
  char csv[DG_CASE_PATH + 32];
  snprintf(csv, sizeof csv, "%s/far_field.csv", c.output_dir);
  compare_n(csv, 1, 1, 1, worst, rms);
  printf("# reduced PEC sphere, %s mesh (K = %d, %d curved, N = 1, float, %d steps, %.1f s): "
         "max |error| %.2f dB, rms %.2f dB\n", name, r.K, r.K_curved, r.steps, r.wall_s, *worst,
         *rms);
  *K_curved = r.K_curved;
  dg_case_free(&c);
}

/* make test's end-to-end scattering check: the PEC sphere of configs/sphere_rcs.json at
 * ka = 1 only, order 1 in float to t = 8 (seconds; the case itself is order 2 to t = 16;
 * at order 1 with kappa_max 1 the energy grew again from t = 8), its bistatic RCS against
 * Mie in both planes: on the shipped mesh (second order, curved along the sphere) and on the
 * same mesh straight-sided (gmsh's first order mesh of the same .geo: the same vertices, no
 * mid-edge nodes). 13 s for both in make test, 28 s under load (5 s for the one run before).
 * Measured (2026-11-28, the PML's filters in the L2 sense): curved max |error| 0.86 dB, rms
 * 0.35 dB; straight-sided 0.84 dB, rms 0.59 dB (with the node-wise PML of 2026-11-27: 1.25 /
 * 0.70 and 1.70 / 0.97; at t = 8 the largest error is the truncated pulse's, in both). Allowed:
 * the curved one within 1.1 dB max and 0.55 dB rms (0.25 and 0.2 dB above the measured), and
 * its rms error at least 0.15 dB below the straight-sided one's (measured 0.24 dB below), so
 * curved elements run as straight-sided ones (the straight mesh's error) fail. */
static void reduced_pec_sphere_matches_mie_at_ka_1(void **state) {
  test_scratch *s = *state;
  need_scipy_and_device();
  double worst_c, rms_c, worst_s, rms_s;
  int curved;
  reduced_run(s->dir, "curved", NULL, &worst_c, &rms_c, &curved);
  assert_true(curved > 0); /* the shipped mesh is second order */
  if (!(worst_c <= 1.1 && rms_c <= 0.55))
    fail_msg("RCS against Mie at ka = 1: max |error| %.2f dB (allowed 1.1), rms %.2f dB "
             "(allowed 0.55)", worst_c, rms_c);

  char mesh[DG_CASE_PATH], cmd[2 * DG_CASE_PATH];
  snprintf(mesh, sizeof mesh, "%s/straight.msh", s->dir);
  snprintf(cmd, sizeof cmd,
           "gmsh configs/meshes/sphere_rcs.geo -3 -format msh41 -o %s > /dev/null 2>&1", mesh);
  if (system("gmsh --version > /dev/null 2>&1") != 0) {
    test_skip_part("no gmsh: the straight-sided comparison");
    return;
  }
  if (system(cmd) != 0) fail_msg("%s failed", cmd);
  reduced_run(s->dir, "straight", mesh, &worst_s, &rms_s, &curved);
  assert_int_equal(curved, 0);
  printf("# straight-sided: max |error| %.2f dB, rms %.2f dB\n", worst_s, rms_s);
  if (!(rms_c <= rms_s - 0.15))
    fail_msg("curved mesh rms error %.2f dB, straight-sided %.2f dB: the curved one must be "
             "at least 0.15 dB closer to Mie", rms_c, rms_s);
}

typedef struct {
  const char *name, *case_file;
  int pec;
} sphere;

/* The shipped cases as shipped, against issue 38's targets: 0.2 dB at ka = 1, 0.5 dB at
 * ka = 3. Measured (2026-11-28, as shipped, float, the L2 PML): PEC (order 2, stop_energy
 * 1e-5: t = 11.8) 0.06 and 0.34 dB; eps_r = 4 (order 3, t = 24) 0.02 and 0.44 dB
 * (docs/RCS_VALIDATION.md). */
static void spheres_match_mie(void **state) {
  test_scratch *s = *state;
  need_scipy_and_device();
  static const sphere spheres[2] = {{"pec", "configs/sphere_rcs.json", 1},
                                    {"eps4", "configs/sphere_rcs_eps4.json", 0}};
  static const double tol[2][2] = {{0.2, 0.5}, {0.2, 0.5}}; /* [sphere][ka = 1, ka = 3] */
  for (int i = 0; i < 2; ++i) {
    dg_case c;
    dg_case_default(&c);
    assert_dg_ok(dg_case_read(&c, spheres[i].case_file));
    c.quiet = 1;
    assert_int_equal(c.dft.nfreq, 2);
    snprintf(c.output_dir, sizeof c.output_dir, "%s/%s", s->dir, spheres[i].name);
    dg_run_result r;
    assert_dg_ok(dg_run(&c, &r));
    assert_true(r.ff_on && r.ff_rcs && r.K_curved > 0);
    char csv[DG_CASE_PATH + 32];
    snprintf(csv, sizeof csv, "%s/far_field.csv", c.output_dir);
    double worst[2], rms;
    compare_n(csv, spheres[i].pec, 1, 2, worst, &rms);
    printf("# %s sphere as shipped (K = %d, %d curved, N = %d, %d steps, %.0f s): max |error| "
           "ka = 1 %.2f dB, ka = 3 %.2f dB\n", spheres[i].name, r.K, r.K_curved, c.order,
           r.steps, r.wall_s, worst[0], worst[1]);
    for (int k = 0; k < 2; ++k)
      if (!(worst[k] < tol[i][k]))
        fail_msg("%s sphere, ka = %d: max |error| %.2f dB (allowed %.1f)", spheres[i].name,
                 2 * k + 1, worst[k], tol[i][k]);
    dg_case_free(&c);
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

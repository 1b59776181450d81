/* The bistatic RCS of a Drude sphere (a dispersive metal: its eps(w) changes sign between the
 * two frequencies) from one pulsed run matches the Mie series evaluated with the complex
 * eps(w) of the case's own pole list at each frequency.
 *
 * The case is the shipped configs/sphere_rcs_drude.json (radius 0.5, eps_inf = 4, one
 * Drude pole omega_p = 7, gamma = 2; the mesh of configs/sphere_rcs_eps4.json; a Gaussian
 * plane wave through the TF/SF box, the DFT surface "ntff", the near-to-far-field
 * transform) at ka = 1 (f = 1/pi: eps = -2.13 - 6.13i, a lossy metal) and ka = 2 (eps =
 * 1.55 - 1.23i, a lossy dielectric), run here cheaper than the case: order 2 in float on
 * the OpenCL device, t = 10 in place of 12, and cfl 2 (the step rule is conservative; the
 * energy still decays to the end at cfl 2, and cfl 1 gave the same errors to 0.01 dB). The
 * case's own run and its table: docs/RCS_VALIDATION.md. tests/tools/mie.py (Bohren & Huffman
 * ch. 4, the poles read from the case file) gives the reference; the error in dB is
 * 10 log10(sigma_dgtd / sigma_Mie) over the E-plane (xz) and H-plane (xy) every 5 degrees,
 * where Mie is within 20 dB of its peak.
 *
 * The mesh is second order, its elements along the sphere curved.
 *
 * Asserted: at each frequency the largest |error| <= 1.0 dB and the rms <= 0.5 dB
 * (measured 2026-11-27 on the second-order mesh: 0.12 / 0.67 dB and 0.08 / 0.27 dB at
 * ka = 1 / 2; the bounds are the larger of each plus about 0.3 dB). The same far
 * field against a sphere without dispersion misses by more than 5 dB (measured 11.6 to 17.4
 * dB): against eps_inf alone (the pole dropped), and against each frequency's eps used at
 * the other frequency, so the agreement needs eps to change with frequency as the pole
 * says. 1271 steps, 56 s in make test on the 2 shared CPU cores, 109 s under a load of 4-5
 * (30 s on the straight-sided mesh before; the 521 curved elements cost most). */
#include "test_device.h"

#include "app/case.h"
#include "app/simulate.h"

#define PYTHON "/usr/bin/python3"
#define CASE "configs/sphere_rcs_drude.json"

enum { NFREQ = 2 };
static const double TOL_MAX_DB = 1.0, TOL_RMS_DB = 0.5, MISS_DB = 5.0;

/* mie.py compare CSV --radius 0.5 MATERIAL: the largest |error| and the rms (dB) of each
 * frequency over its two planes; the printed eps of each frequency in eps_txt. */
static void compare(const char *csv, const char *material, int print, double worst[NFREQ],
                    double rms[NFREQ], char eps_txt[NFREQ][64]) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, PYTHON " tests/tools/mie.py compare %s --radius 0.5 %s 2>&1", csv,
           material);
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  char line[512];
  int fi = -1, n = 0;
  for (int i = 0; i < NFREQ; ++i) worst[i] = rms[i] = 0;
  while (fgets(line, sizeof line, p)) {
    if (print) printf("#   %s", line);
    if (!strncmp(line, "# f = ", 6) && strstr(line, "plane xz")) {
      ++fi;
      const char *e = strstr(line, "eps = ");
      if (eps_txt && e && fi < NFREQ) {
        snprintf(eps_txt[fi], 64, "%s", e);
        eps_txt[fi][strcspn(eps_txt[fi], "\n")] = 0;
      }
    }
    double e, r;
    if (sscanf(line, "# max |error| %lf dB, rms %lf dB", &e, &r) == 2 && fi >= 0 && fi < NFREQ) {
      worst[fi] = fmax(worst[fi], e);
      rms[fi] = fmax(rms[fi], r);
      ++n;
    }
  }
  if (pclose(p) != 0) fail_msg("%s failed", cmd);
  assert_int_equal(n, 2 * NFREQ); /* the xz and the xy plane of each frequency */
}

/* eps of the case's sphere at frequency f, from mie.py eps (dgtd's sign convention). */
static void eps_at(double f, double *re, double *im) {
  char cmd[512], out[512];
  snprintf(cmd, sizeof cmd, PYTHON " tests/tools/mie.py eps --freq %.17g --case " CASE
           " --volume sphere 2>&1", f);
  assert_int_equal(test_capture(cmd, out, sizeof out), 0);
  const char *l = strchr(out, '\n');
  assert_non_null(l);
  double ff, w;
  assert_int_equal(sscanf(l + 1, "%lf,%lf,%lf,%lf", &ff, &w, re, im), 4);
}

static void drude_sphere_matches_mie_with_eps_of_omega(void **state) {
  test_scratch *s = *state;
  if (system(PYTHON " -c 'import scipy.special' >/dev/null 2>&1") != 0)
    test_skip(PYTHON " cannot import scipy (install python3-scipy)");
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    test_skip("no OpenCL device");
  }
  dg_device_destroy(&dev);

  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_read(&c, CASE));
  /* the case is what the header says: one Drude pole in the sphere, ka = 1 and 2 */
  int drude = 0;
  for (int i = 0; i < c.n_materials; ++i)
    if (!strcmp(c.materials[i].volume.name, "sphere")) {
      const dg_case_material *m = &c.materials[i];
      drude = m->disp.n_poles == 1 && m->disp.pole[0].type == DG_POLE_DRUDE;
    }
  assert_true(drude);
  assert_int_equal(c.dft.nfreq, NFREQ);
  const double pi = 3.14159265358979323846;
  assert_near(2 * pi * c.dft.freq[0] * 0.5, 1.0, 1e-12);
  assert_near(2 * pi * c.dft.freq[1] * 0.5, 2.0, 1e-12);
  double er[NFREQ], ei[NFREQ];
  for (int i = 0; i < NFREQ; ++i) eps_at(c.dft.freq[i], &er[i], &ei[i]);
  assert_true(er[0] < -1 && er[1] > 0); /* a metal at ka = 1, a dielectric at ka = 2 */

  c.quiet = 1;
  c.order = 2;
  c.precision = DG_PREC_FLOAT;
  c.tune = DG_TUNE_NEVER;
  c.final_time = 10.0;
  c.cfl = 2.0;
  snprintf(c.output_dir, sizeof c.output_dir, "%s/drude", s->dir);
  dg_run_result r;
  assert_dg_ok(dg_run(&c, &r));
  assert_true(r.ff_on && r.ff_rcs && r.ff_nfreq == NFREQ);
  char csv[DG_CASE_PATH + 32];
  snprintf(csv, sizeof csv, "%s/far_field.csv", c.output_dir);

  double worst[NFREQ], rms[NFREQ];
  char eps_txt[NFREQ][64] = {"", ""};
  compare(csv, "--case " CASE " --volume sphere", 1, worst, rms, eps_txt);
  printf("# Drude sphere (K = %d, N = 2, float, %d steps, %.1f s) against Mie with eps(w):\n",
         r.K, r.steps, r.wall_s);
  for (int i = 0; i < NFREQ; ++i)
    printf("#   ka = %d (%s): max |error| %.2f dB, rms %.2f dB\n", i + 1, eps_txt[i], worst[i],
           rms[i]);
  for (int i = 0; i < NFREQ; ++i)
    if (!(worst[i] <= TOL_MAX_DB && rms[i] <= TOL_RMS_DB))
      fail_msg("ka = %d: max |error| %.2f dB (allowed %.1f), rms %.2f dB (allowed %.1f)", i + 1,
               worst[i], TOL_MAX_DB, rms[i], TOL_RMS_DB);

  /* Without dispersion the same far field is far off: eps_inf alone, and each frequency's
   * eps at the other frequency. */
  double w2[NFREQ], r2[NFREQ];
  compare(csv, "--eps 4", 0, w2, r2, NULL);
  printf("#   against eps = eps_inf = 4 at both: max |error| %.2f, %.2f dB\n", w2[0], w2[1]);
  assert_true(w2[0] > MISS_DB && w2[1] > MISS_DB);
  for (int i = 0; i < NFREQ; ++i) {
    char mat[128];
    snprintf(mat, sizeof mat, "--eps=%.10g,%.10g", er[i], ei[i]);
    compare(csv, mat, 0, w2, r2, NULL);
    const int other = 1 - i;
    printf("#   against eps(ka = %d) = %.3g %+.3gi at both: max |error| at ka = %d %.2f dB\n",
           i + 1, er[i], ei[i], other + 1, w2[other]);
    assert_true(w2[other] > MISS_DB);
  }
  dg_case_free(&c);
}

static int setup(void **state) { return test_scratch_setup(state, "x"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(drude_sphere_matches_mie_with_eps_of_omega)};
  return _cmocka_run_group_tests("tests", tests, 1, setup, test_scratch_teardown);
}

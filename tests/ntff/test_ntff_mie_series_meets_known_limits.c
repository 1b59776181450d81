/* The Mie-series tool the RCS comparisons use (tests/tools/mie.py, python3-scipy) meets the
 * known limits: Rayleigh scattering of small dielectric and PEC spheres (backscatter and the
 * E-/H-plane patterns, 1e-3), the PEC backscatter's resonance peak 3.65 pi a^2 near ka = 1
 * (1%) and its optical limit pi a^2 (1%, averaged over ka in [60, 80]), the optical theorem
 * and the integral of the bistatic RCS over all directions equal to the scattering cross
 * section (1e-10 and 1e-8), no backscatter when eps_r = mu_r (Weston), mirror symmetry;
 * for complex eps (lossy and metallic spheres, dgtd's sign convention) the Rayleigh
 * backscatter and absorption -4 x Im[(eps-1)/(eps+2)] (1e-3: a conjugated eps would absorb
 * negatively), extinction above scattering and the same integrals, and eps(w) of each pole
 * type at its known limits (1e-12).
 * The tool prints each check; any failure makes it exit 1. */
#include "test_util.h"

#define PYTHON "/usr/bin/python3"

static void test_mie_selftest(void **state) {
  (void)state;
  if (system(PYTHON " -c 'import scipy.special, numpy' >/dev/null 2>&1") != 0) {
    printf("# SKIP: " PYTHON " cannot import scipy (install python3-scipy)\n");
    skip();
  }
  FILE *p = popen(PYTHON " tests/tools/mie.py selftest 2>&1", "r");
  assert_non_null(p);
  char line[512];
  int nok = 0;
  while (fgets(line, sizeof line, p)) {
    printf("# %s", line);
    nok += !strncmp(line, "ok ", 3);
  }
  const int rc = pclose(p);
  assert_int_equal(rc, 0);
  assert_true(nok >= 50); /* every check ran */
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_mie_selftest)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

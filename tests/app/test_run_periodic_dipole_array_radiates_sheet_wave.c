/* configs/periodic_dipole_array.json (issue 53): one x dipole in a unit cell periodic in x and
 * y is an infinite array, a sheet of surface current K(t) = g(t) x per unit area, which
 * radiates the plane waves E_x(z, t) = -(Z/2) g(t - |z|) (Z = 1) up and down, exactly; with
 * the pulse's spectrum below the first diffraction order (Ricker, f0 = 0.25 against the
 * cutoff 1), the higher orders are evanescent and negligible 1.2 and 1.5 away. The probes
 * above (centre and corner of the cell) and below agree with that plane wave to 0.5% of its
 * peak over the whole run, and the wave going up has H_y = E_x. Walls instead of the
 * periodic pairs would not give a plane wave. Runs the shipped case (the default backend). */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"

static double ricker(double t, double f0) {
  const double s = t - 1.5 / f0, a = M_PI * f0 * s;
  return (1 - 2 * a * a) * exp(-a * a);
}

static void radiates_the_sheet_current_plane_wave(void **state) {
  test_scratch *s = *state;
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_read(&c, "configs/periodic_dipole_array.json"));
  c.quiet = 1;
  snprintf(c.output_dir, sizeof c.output_dir, "%s/out", s->dir);
  dg_run_result r;
  assert_dg_ok(dg_run(&c, &r));
  dg_case_free(&c);
  char path[512], line[512];
  snprintf(path, sizeof path, "%s/out/probes.csv", s->dir);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  assert_non_null(fgets(line, sizeof line, f)); /* probe,t,Ex,Ey,Ez,Hx,Hy,Hz */
  const double z[3] = {1.5, 1.5, -1.2};
  double worst[3] = {0, 0, 0}, hy = 0, peak = 0;
  int rows = 0, p;
  double t, e[3], h[3];
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "%d,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &p, &t, &e[0], &e[1], &e[2], &h[0], &h[1],
               &h[2]) == 8 && p >= 0 && p < 3) {
      const double exact = -0.5 * ricker(t - fabs(z[p]), 0.25);
      worst[p] = fmax(worst[p], fabs(e[0] - exact));
      peak = fmax(peak, fabs(exact));
      if (p == 0) hy = fmax(hy, fabs(h[1] - e[0]));
      ++rows;
    }
  fclose(f);
  print_message("# %d probe rows, peak %.4f; largest |E_x - exact|: above %.2e, corner %.2e, "
                "below %.2e; |H_y - E_x| above %.2e\n", rows, peak, worst[0], worst[1],
                worst[2], hy);
  assert_true(rows > 300 && peak > 0.49);
  for (int i = 0; i < 3; ++i) assert_true(worst[i] < 5e-3 * peak);
  assert_true(hy < 5e-3 * peak);
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(radiates_the_sheet_current_plane_wave)};
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

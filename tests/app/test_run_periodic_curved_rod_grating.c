/* Curved elements on a periodic pair (issue 53): configs/rod_grating.json's mesh (a dielectric
 * rod along x in a unit cell periodic in x and y, second order, made by Gmsh with Periodic
 * Surface) has curved elements with faces on the x pair; the pairs are made, the face nodes
 * of every paired face find their partners (the geometry builds), and a short run of the
 * shipped case (a short pulse next to the rod) gives the same energy on the reference and the
 * OpenCL backend (1e-9, double). */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"
#include "dg/geom.h"
#include "refel/refel.h"
#include "test_device.h"

static void curved_elements_on_the_pair(void **state) {
  (void)state;
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read(&m, "configs/meshes/rod_grating.msh"));
  static const char *const pair[2][2] = {{"xmin", "xmax"}, {"ymin", "ymax"}};
  for (int p = 0; p < 2; ++p) {
    const int a = dg_mesh_phys_tag(m, 2, pair[p][0]), b = dg_mesh_phys_tag(m, 2, pair[p][1]);
    assert_true(a >= 0 && b >= 0);
    assert_dg_ok(dg_mesh_make_periodic(m, a, b, NULL, NULL));
  }
  int curved_paired = 0;
  for (int k = 0; k < m->K; ++k) {
    int paired = 0;
    for (int f = 0; f < 4; ++f) paired |= m->face_period[4 * k + f] != 0;
    curved_paired += paired && m->curved[k];
  }
  print_message("# %d curved elements (of %d) have a face on a periodic pair\n", curved_paired,
                m->n_curved);
  assert_true(curved_paired > 0);
  dg_refel *ref = NULL;
  dg_geom *g = NULL;
  assert_dg_ok(dg_refel_create(&ref, 2));
  assert_dg_ok(dg_geom_create(&g, m, ref));
  dg_geom_destroy(&g);
  dg_refel_destroy(&ref);
  dg_mesh_destroy(&m);
}

static double run_energy(const char *dir, const char *name, dg_backend backend) {
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_read(&c, "configs/rod_grating.json"));
  c.quiet = 1;
  /* a short pulse next to the rod, so that the field crosses the curved elements on the
   * periodic sides within the run */
  c.final_time = 1.0;
  c.dipoles[0].pos[2] = -0.6;
  c.dipoles[0].pulse.f0 = 2.0;
  c.dipoles[0].pulse.t0 = 0.4;
  c.backend = backend;
  snprintf(c.output_dir, sizeof c.output_dir, "%s/%s", dir, name);
  dg_run_result r;
  assert_dg_ok(dg_run(&c, &r));
  dg_case_free(&c);
  return r.energy_end;
}

static void backends_agree(void **state) {
  test_scratch *s = *state;
  const double ref = run_energy(s->dir, "ref", DG_BACKEND_REF);
  if (test_device_best_precision() != DG_PREC_DOUBLE) skip();
  const double cl = run_energy(s->dir, "cl", DG_BACKEND_OPENCL);
  print_message("# energy at t = 1: reference %.12g, OpenCL %.12g\n", ref, cl);
  assert_true(ref > 0);
  assert_true(fabs(ref - cl) < 1e-9 * ref);
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(curved_elements_on_the_pair),
                                     cmocka_unit_test(backends_agree)};
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

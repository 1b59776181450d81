/* A Gambit .neu file gives its element group and boundary-condition sets as tags on the right faces, even on a reoriented element. */
#include "test_util.h"

#include "mesh/mesh.h"

static void test_cube_neu_boundaries(void **state) {
  (void)state;
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read(&m, FIXTURE("cube.neu")));
  assert_int_equal(m->Nv, 8);
  assert_int_equal(m->K, 6);
  /* Element 3 is written inverted, with a boundary record on its Gambit face 1: after the
   * reorientation that face is a different local face, and must still get its tag. */
  assert_int_equal(m->n_fixed, 1);

  assert_int_equal(m->nphys, 4);
  assert_int_equal(dg_mesh_phys_tag(m, 3, "fluid"), 1);
  assert_int_equal(dg_mesh_phys_tag(m, 2, "left"), 1);
  assert_int_equal(dg_mesh_phys_tag(m, 2, "right"), 2);
  assert_int_equal(dg_mesh_phys_tag(m, 2, "walls"), 3);

  double vol = 0.0;
  int nbnd = 0;
  for (int k = 0; k < m->K; k++) {
    assert_int_equal(m->elem_tag[k], 1);
    double v = dg_mesh_elem_volume(m, k);
    assert_true(v > 0.0);
    vol += v;
    for (int f = 0; f < 4; f++) {
      if (m->EToE[4 * k + f] != k) {
        assert_int_equal(m->face_tag[4 * k + f], -1);
        continue;
      }
      nbnd++;
      int on_x0 = 1, on_x1 = 1;
      for (int j = 0; j < 3; j++) {
        double x = m->VX[m->EToV[4 * k + dg_face_vertices[f][j]]];
        on_x0 &= x == 0.0;
        on_x1 &= x == 1.0;
      }
      assert_int_equal(m->face_tag[4 * k + f], on_x0 ? 1 : on_x1 ? 2 : 3);
    }
  }
  assert_int_equal(nbnd, 12);
  assert_near(vol, 1.0, 1e-14);
  dg_mesh_destroy(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cube_neu_boundaries),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

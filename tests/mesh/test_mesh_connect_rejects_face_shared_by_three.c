/* A face shared by three elements, or a boundary triangle that is no element face, is DG_ERR_MESH naming the elements. */
#include "test_util.h"

#include "mesh/mesh.h"

static dg_mesh *fan(void) {
  /* Triangle {0,1,2} with three apexes: two above (3, 4) and one below (5). */
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_alloc(&m, 6, 3));
  const double X[6][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0.2, 0.2, 1}, {0.3, 0.1, 2}, {0.2, 0.2, -1}};
  for (int v = 0; v < 6; v++) {
    m->VX[v] = X[v][0];
    m->VY[v] = X[v][1];
    m->VZ[v] = X[v][2];
  }
  const int EToV[12] = {0, 1, 2, 3, 0, 1, 2, 4, 0, 2, 1, 5};
  memcpy(m->EToV, EToV, sizeof EToV);
  return m;
}

static void test_three_elements_on_one_face(void **state) {
  (void)state;
  dg_mesh *m = fan();
  assert_dg_ok(dg_mesh_orient(m));
  assert_dg_error(dg_mesh_connect(m, 0, NULL, NULL), DG_ERR_MESH,
                  "elements 1, 2 and 3 share one face");
  assert_null(m->EToE); /* a failed connect leaves no half-built connectivity */
  dg_mesh_destroy(&m);
}

static void test_stray_boundary_triangle(void **state) {
  (void)state;
  dg_mesh *m = fan();
  m->K = 1; /* just the first tetrahedron */
  const int tri[3] = {0, 1, 4}, tag = 7;
  assert_dg_error(dg_mesh_connect(m, 1, tri, &tag), DG_ERR_MESH,
                  "boundary triangle 1 is not a face of any tetrahedron");
  const int bad[3] = {0, 1, 9};
  assert_dg_error(dg_mesh_connect(m, 1, bad, &tag), DG_ERR_MESH,
                  "boundary triangle 1: vertices 0 1 9 are not 3 distinct indices");
  m->K = 3;
  dg_mesh_destroy(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_three_elements_on_one_face),
      cmocka_unit_test(test_stray_boundary_triangle),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* A flat (zero-volume) element is rejected with DG_ERR_MESH naming it by its number in the file. */
#include "test_util.h"

#include "mesh/mesh.h"

static void test_flat_element_in_file(void **state) {
  (void)state;
  dg_mesh *m = NULL;
  assert_dg_error(dg_mesh_read(&m, FIXTURE("bad_degenerate.msh")), DG_ERR_MESH,
                  "bad_degenerate.msh: element 18 is degenerate");
  assert_null(m);
}

static void test_nearly_flat_element_in_memory(void **state) {
  (void)state;
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_alloc(&m, 5, 2));
  const double X[5][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.3, 0.3, 1e-14}};
  for (int v = 0; v < 5; v++) {
    m->VX[v] = X[v][0];
    m->VY[v] = X[v][1];
    m->VZ[v] = X[v][2];
  }
  const int EToV[8] = {0, 1, 2, 3, 0, 1, 2, 4};
  memcpy(m->EToV, EToV, sizeof EToV);
  assert_dg_error(dg_mesh_orient(m), DG_ERR_MESH, "element 2 is degenerate");
  /* Nothing was changed by the failed call. */
  assert_memory_equal(m->EToV, EToV, sizeof EToV);
  assert_int_equal(m->n_fixed, 0);
  dg_mesh_destroy(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_flat_element_in_file),
      cmocka_unit_test(test_nearly_flat_element_in_memory),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

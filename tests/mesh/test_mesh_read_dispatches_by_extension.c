/* dg_mesh_read picks the reader from the extension and names the file when it cannot read it. */
#include "test_util.h"

#include "mesh/mesh.h"

static void test_dispatch(void **state) {
  (void)state;
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read(&m, FIXTURE("cube_22.msh")));
  assert_int_equal(m->K, 6);
  dg_mesh_destroy(&m);
  assert_dg_ok(dg_mesh_read(&m, FIXTURE("cube.neu")));
  assert_int_equal(m->K, 6);
  dg_mesh_destroy(&m);
  assert_dg_error(dg_mesh_read(&m, FIXTURE("box.geo")), DG_ERR_INPUT,
                  "box.geo: unknown mesh file type");
  assert_dg_error(dg_mesh_read(&m, FIXTURE("no_such_file.msh")), DG_ERR_IO,
                  "no_such_file.msh: cannot open mesh file");
  /* A .neu file given to the Gmsh reader is refused, not misread. */
  assert_dg_error(dg_mesh_read_msh(&m, FIXTURE("cube.neu")), DG_ERR_PARSE,
                  "cube.neu:1: expected $MeshFormat");
  assert_dg_error(dg_mesh_read_neu(&m, FIXTURE("cube_22.msh")), DG_ERR_PARSE,
                  "cube_22.msh:1: expected \"CONTROL INFO\"");
  assert_null(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dispatch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

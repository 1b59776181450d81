/* Each malformed mesh file is rejected with its specific error, naming the file and the line (or byte offset). */
#include "test_util.h"

#include "mesh/mesh.h"

typedef struct {
  const char *path;
  dg_status code;
  const char *message; /* expected substring, including file and line */
} bad_case;

static const bad_case cases[] = {
    {FIXTURE("bad_truncated.msh"), DG_ERR_PARSE,
     "bad_truncated.msh:42: unexpected end of file, expected element 18 of 20"},
    {FIXTURE("bad_missing_endnodes.msh"), DG_ERR_PARSE,
     "bad_missing_endnodes.msh:22: expected $EndNodes, got \"$Elements\""},
    {FIXTURE("bad_missing_node.msh"), DG_ERR_PARSE,
     "bad_missing_node.msh:44: element 20 references node 999, which is not in $Nodes"},
    {FIXTURE("bad_version.msh"), DG_ERR_UNSUPPORTED,
     "bad_version.msh:2: MSH format version 3.0 is not supported"},
    {FIXTURE("bad_fifth_order.msh"), DG_ERR_UNSUPPORTED,
     "bad_fifth_order.msh:44: element type 31 (56-node fifth-order tetrahedron) is not "
     "supported; only tetrahedra can be used, linear (type 4) or of geometric order 2, 3 or 4 "
     "(types 11, 29, 30)"},
    {FIXTURE("bad_mixed_order.msh"), DG_ERR_UNSUPPORTED,
     "bad_mixed_order.msh:44: element 20 is a 20-node third-order tetrahedron (geometric order "
     "3), but element 19 (tests/fixtures/bad_mixed_order.msh:43) is a 10-node second-order "
     "tetrahedron (order 2): dgtd reads meshes whose elements are all of one geometric order, "
     "2, 3 or 4, or linear"},
    {FIXTURE("bad_number.msh"), DG_ERR_PARSE,
     "bad_number.msh:19: expected a node coordinate, got \"1.0.0\""},
    {FIXTURE("bad_three_nodes.msh"), DG_ERR_PARSE,
     "bad_three_nodes.msh:43: expected 4 node tags for a tetrahedron, got 3"},
    {FIXTURE("bad_bin_truncated.msh"), DG_ERR_PARSE,
     "bad_bin_truncated.msh: byte 1708: unexpected end of file, expected a node tag"},
    {FIXTURE("bad_bin_datasize.msh"), DG_ERR_UNSUPPORTED,
     "bad_bin_datasize.msh:2: binary data-size 4 is not supported"},
    {FIXTURE("bad_face.neu"), DG_ERR_PARSE,
     "bad_face.neu:40: expected a tetrahedron face number 1 to 4, got 5"},
    {FIXTURE("bad_truncated.neu"), DG_ERR_PARSE,
     "bad_truncated.neu:38: unexpected end of file: CONTROL INFO announces 1 element groups "
     "and 3 boundary sets, the file has 1 and 1"},
};

static void test_each_malformed_file_names_its_line(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    dg_mesh *m = NULL;
    print_message("# %s\n", cases[i].path);
    assert_dg_error(dg_mesh_read(&m, cases[i].path), cases[i].code, cases[i].message);
    assert_null(m);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_each_malformed_file_names_its_line),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

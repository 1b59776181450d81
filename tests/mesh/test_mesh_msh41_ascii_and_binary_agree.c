/* The same mesh saved as Gmsh 4.1 ASCII, 4.1 binary and 2.2 ASCII reads into identical meshes. */
#include "test_util.h"

#include "mesh/mesh.h"

static void assert_same_mesh(const dg_mesh *a, const dg_mesh *b) {
  assert_int_equal(a->Nv, b->Nv);
  assert_int_equal(a->K, b->K);
  assert_int_equal(a->n_fixed, b->n_fixed);
  assert_memory_equal(a->VX, b->VX, (size_t)a->Nv * sizeof *a->VX);
  assert_memory_equal(a->VY, b->VY, (size_t)a->Nv * sizeof *a->VY);
  assert_memory_equal(a->VZ, b->VZ, (size_t)a->Nv * sizeof *a->VZ);
  size_t n4 = 4 * (size_t)a->K * sizeof(int);
  assert_memory_equal(a->EToV, b->EToV, n4);
  assert_memory_equal(a->EToE, b->EToE, n4);
  assert_memory_equal(a->EToF, b->EToF, n4);
  assert_memory_equal(a->face_tag, b->face_tag, n4);
  assert_memory_equal(a->elem_tag, b->elem_tag, (size_t)a->K * sizeof(int));
  assert_int_equal(a->nphys, b->nphys);
  for (int i = 0; i < a->nphys; i++) {
    assert_int_equal(a->phys[i].dim, b->phys[i].dim);
    assert_int_equal(a->phys[i].tag, b->phys[i].tag);
    assert_string_equal(a->phys[i].name, b->phys[i].name);
  }
}

static void test_ascii_and_binary_41_agree(void **state) {
  (void)state;
  dg_mesh *a = NULL, *b = NULL;
  assert_dg_ok(dg_mesh_read_msh(&a, FIXTURE("cube_41.msh")));
  assert_dg_ok(dg_mesh_read_msh(&b, FIXTURE("cube_41_bin.msh")));
  assert_int_equal(a->K, 6);
  assert_int_equal(a->nphys, 4);
  assert_int_equal(dg_mesh_phys_tag(a, 3, "vacuum"), 10);
  for (int k = 0; k < a->K; k++) assert_int_equal(a->elem_tag[k], 10);
  int tagged = 0;
  for (int i = 0; i < 4 * a->K; i++) tagged += a->face_tag[i] > 0;
  assert_int_equal(tagged, 12); /* every boundary face got its surface's physical tag */
  assert_same_mesh(a, b);
  dg_mesh_destroy(&a);
  dg_mesh_destroy(&b);
}

static void test_41_agrees_with_22(void **state) {
  (void)state;
  dg_mesh *a = NULL, *b = NULL;
  assert_dg_ok(dg_mesh_read_msh(&a, FIXTURE("cube_41.msh")));
  assert_dg_ok(dg_mesh_read_msh(&b, FIXTURE("cube_22.msh")));
  /* Same nodes, elements and order in both files, so even the numbering agrees. */
  assert_same_mesh(a, b);
  dg_mesh_destroy(&a);
  dg_mesh_destroy(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ascii_and_binary_41_agree),
      cmocka_unit_test(test_41_agrees_with_22),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

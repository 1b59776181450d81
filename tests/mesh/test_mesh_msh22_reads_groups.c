/* A Gmsh 2.2 file gives vertices, tetrahedra with their volume tag, named groups, and boundary face tags per surface. */
#include "test_util.h"

#include "mesh/mesh.h"

/* Physical tag expected on a boundary face of the cube fixture: x=0 "left" 1, x=1 "right" 2,
 * every other side "walls" 3. */
static int expected_tag(const dg_mesh *m, int k, int f) {
  int on_x0 = 1, on_x1 = 1;
  for (int j = 0; j < 3; j++) {
    double x = m->VX[m->EToV[4 * k + dg_face_vertices[f][j]]];
    on_x0 &= x == 0.0;
    on_x1 &= x == 1.0;
  }
  return on_x0 ? 1 : on_x1 ? 2 : 3;
}

static void test_cube_groups_and_tags(void **state) {
  (void)state;
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read_msh(&m, FIXTURE("cube_22.msh")));
  assert_int_equal(m->Nv, 8);
  assert_int_equal(m->K, 6);
  assert_int_equal(m->n_fixed, 0);

  /* The dimension-1 name "an edge" is dropped; surface and volume groups are kept. */
  assert_int_equal(m->nphys, 4);
  assert_int_equal(dg_mesh_phys_tag(m, 2, "left"), 1);
  assert_int_equal(dg_mesh_phys_tag(m, 2, "right"), 2);
  assert_int_equal(dg_mesh_phys_tag(m, 2, "walls"), 3);
  assert_int_equal(dg_mesh_phys_tag(m, 3, "vacuum"), 10);
  assert_int_equal(dg_mesh_phys_tag(m, 3, "left"), -1);
  assert_int_equal(dg_mesh_phys_tag(m, 1, "an edge"), -1);

  double vol = 0.0;
  int nbnd = 0, per_tag[4] = {0};
  for (int k = 0; k < m->K; k++) {
    assert_int_equal(m->elem_tag[k], 10);
    vol += dg_mesh_elem_volume(m, k);
    for (int f = 0; f < 4; f++) {
      if (m->EToE[4 * k + f] != k) continue;
      nbnd++;
      int tag = m->face_tag[4 * k + f];
      assert_int_equal(tag, expected_tag(m, k, f));
      per_tag[tag]++;
    }
  }
  assert_near(vol, 1.0, 1e-14);
  assert_int_equal(nbnd, 12);
  assert_int_equal(per_tag[1], 2);
  assert_int_equal(per_tag[2], 2);
  assert_int_equal(per_tag[3], 8);

  /* Non-contiguous node tags: the eight corners are all there, each once. */
  int seen[8] = {0};
  for (int v = 0; v < m->Nv; v++) {
    int c = (int)m->VX[v] + 2 * (int)m->VY[v] + 4 * (int)m->VZ[v];
    seen[c]++;
  }
  for (int c = 0; c < 8; c++) assert_int_equal(seen[c], 1);
  double lo[3], hi[3];
  dg_mesh_bbox(m, lo, hi);
  for (int d = 0; d < 3; d++) {
    assert_near(lo[d], 0.0, 0.0);
    assert_near(hi[d], 1.0, 0.0);
  }
  dg_mesh_destroy(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cube_groups_and_tags),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

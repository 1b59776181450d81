/* Second-order Gmsh meshes (10-node tetrahedra, 6-node triangles) read alike from 2.2, 4.1 and 4.1 binary; an element is curved only where a mid-edge node leaves its straight edge's midpoint (by more than DG_MESH_CURVED_TOL of its size), a straight-sided second-order mesh is the linear mesh exactly, and reorienting an element carries its edge nodes along. */
#include "test_util.h"
#include "test_curved_util.h"

#include "mesh/mesh.h"

static double radius(const double *x) { return hypot(x[0], x[1]); }

/* The cylinder (radius 1, tests/fixtures/cylinder.geo) in three formats: the same mesh, the
 * same curved elements; the curved ones are those with an edge on the round wall, whose
 * mid-edge nodes lie on the wall. */
static void cylinder_in_three_formats(void **state) {
  (void)state;
  static const char *files[3] = {FIXTURE("cylinder_o2_h0.8.msh"),
                                 FIXTURE("cylinder_o2_h0.8_41.msh"),
                                 FIXTURE("cylinder_o2_h0.8_41_bin.msh")};
  dg_mesh *m[3] = {NULL, NULL, NULL};
  for (int i = 0; i < 3; i++) assert_dg_ok(dg_mesh_read(&m[i], files[i]));
  const dg_mesh *a = m[0];
  assert_true(a->n_curved > 0 && a->n_curved < a->K);
  assert_non_null(a->curved);
  assert_non_null(a->ho_xyz);
  for (int i = 1; i < 3; i++) {
    assert_same_linear_part(a, m[i]);
    assert_int_equal(m[i]->n_curved, a->n_curved);
    assert_memory_equal(m[i]->curved, a->curved, (size_t)a->K);
    for (size_t j = 0; j < 18 * (size_t)a->K; j++)
      assert_near(m[i]->ho_xyz[j], a->ho_xyz[j], 1e-14);
  }
  int curved = 0, boundary_faces = 0;
  for (int k = 0; k < a->K; k++) {
    const int *v = a->EToV + 4 * k;
    int bent = 0; /* edges whose node is off the straight midpoint */
    for (int e = 0; e < 6; e++) {
      const int p = v[dg_edge_vertices[e][0]], q = v[dg_edge_vertices[e][1]];
      const double *x = a->ho_xyz + 18 * (size_t)k + 3 * e;
      const double mid[3] = {0.5 * (a->VX[p] + a->VX[q]), 0.5 * (a->VY[p] + a->VY[q]),
                             0.5 * (a->VZ[p] + a->VZ[q])};
      const double off = hypot(hypot(x[0] - mid[0], x[1] - mid[1]), x[2] - mid[2]);
      const double rp = hypot(a->VX[p], a->VY[p]), rq = hypot(a->VX[q], a->VY[q]);
      const int on_wall = fabs(rp - 1) < 1e-12 && fabs(rq - 1) < 1e-12 &&
                          hypot(a->VX[p] - a->VX[q], a->VY[p] - a->VY[q]) > 1e-9;
      if (on_wall) { /* an arc of the wall: its node is on the wall, off the chord */
        assert_near(radius(x), 1.0, 1e-12);
        assert_true(off > 1e-3);
      } else {
        assert_true(off < 1e-12); /* straight: the midpoint as Gmsh computed it */
      }
      bent += on_wall;
    }
    assert_int_equal(a->curved[k], bent > 0);
    curved += a->curved[k];
    for (int f = 0; f < 4; f++) boundary_faces += a->face_tag[4 * k + f] == 1;
  }
  assert_int_equal(curved, a->n_curved);
  /* every boundary triangle (type 9, its vertices) tagged its face */
  int untagged = 0;
  for (int i = 0; i < 4 * a->K; i++) untagged += a->face_tag[i] == 0;
  assert_int_equal(untagged, 0);
  assert_true(boundary_faces > 0);
  for (int i = 0; i < 3; i++) dg_mesh_destroy(&m[i]);
}

/* The box of box_unstructured_h0.5.msh meshed second order: every element straight-sided,
 * so the mesh is the linear one and carries no curved data at all. */
static void straight_second_order_mesh_is_the_linear_mesh(void **state) {
  (void)state;
  dg_mesh *lin = NULL, *quad = NULL;
  assert_dg_ok(dg_mesh_read(&lin, FIXTURE("box_unstructured_h0.5.msh")));
  assert_dg_ok(dg_mesh_read(&quad, FIXTURE("box_unstructured_h0.5_o2.msh")));
  assert_same_linear_part(lin, quad);
  assert_memory_equal(lin->VX, quad->VX, (size_t)lin->Nv * sizeof(double));
  assert_int_equal(quad->n_curved, 0);
  assert_null(quad->curved);
  assert_null(quad->ho_xyz);
  dg_mesh_destroy(&lin);
  dg_mesh_destroy(&quad);
}

/* One second-order tetrahedron with vertices listed in the order given (inverted when
 * flip), its edge (1,2) node moved off the midpoint by off times its longest edge (2). */
static void write_one_tet(const char *path, int flip, double off) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  const double X[4][3] = {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {0, 0, 2}};
  fprintf(f, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n10\n");
  for (int i = 0; i < 4; i++) fprintf(f, "%d %.17g %.17g %.17g\n", i + 1, X[i][0], X[i][1], X[i][2]);
  for (int e = 0; e < 6; e++) {
    const int a = dg_edge_vertices[e][0], b = dg_edge_vertices[e][1];
    double x[3];
    for (int c = 0; c < 3; c++) x[c] = 0.5 * (X[a][c] + X[b][c]);
    if (e == 1) x[2] += off * 2 * sqrt(2.0); /* longest edge 2 sqrt 2 */
    fprintf(f, "%d %.17g %.17g %.17g\n", e + 5, x[0], x[1], x[2]);
  }
  /* Gmsh order: vertices, then edges (0,1) (1,2) (0,2) (0,3) (2,3) (1,3). Swapping vertices
   * 2 and 3 inverts the element; its edge nodes are relisted for the swapped vertices. */
  const int v[4] = {1, 2, flip ? 4 : 3, flip ? 3 : 4};
  const int e[6] = {5, flip ? 10 : 6, flip ? 8 : 7, flip ? 7 : 8, 9, flip ? 6 : 10};
  fprintf(f, "$EndNodes\n$Elements\n1\n1 11 2 1 1 %d %d %d %d %d %d %d %d %d %d\n$EndElements\n",
          v[0], v[1], v[2], v[3], e[0], e[1], e[2], e[3], e[4], e[5]);
  assert_int_equal(fclose(f), 0);
}

static void tolerance_decides_curved_and_flip_carries_nodes(void **state) {
  const test_scratch *s = *state;
  dg_mesh *m = NULL;
  /* 1e-10 of the size off: rounding, affine; 1e-6 off: curved. */
  write_one_tet(s->path, 0, 1e-10);
  assert_dg_ok(dg_mesh_read(&m, s->path));
  assert_int_equal(m->n_curved, 0);
  assert_null(m->ho_xyz);
  dg_mesh_destroy(&m);
  for (int flip = 0; flip < 2; flip++) {
    write_one_tet(s->path, flip, 1e-6);
    assert_dg_ok(dg_mesh_read(&m, s->path));
    assert_int_equal(m->n_fixed, flip);
    assert_int_equal(m->n_curved, 1);
    assert_int_equal(m->curved[0], 1);
    /* each edge's node is its vertices' midpoint, the bent one (1,2) included, to 1e-5 */
    for (int e = 0; e < 6; e++) {
      const int a = m->EToV[dg_edge_vertices[e][0]], b = m->EToV[dg_edge_vertices[e][1]];
      const double *x = m->ho_xyz + 3 * e;
      assert_near(x[0], 0.5 * (m->VX[a] + m->VX[b]), 1e-5);
      assert_near(x[1], 0.5 * (m->VY[a] + m->VY[b]), 1e-5);
      assert_near(x[2], 0.5 * (m->VZ[a] + m->VZ[b]), 1e-5);
    }
    dg_mesh_destroy(&m);
  }
}

static int setup(void **state) { return test_scratch_setup(state, "one_tet.msh"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cylinder_in_three_formats),
      cmocka_unit_test(straight_second_order_mesh_is_the_linear_mesh),
      cmocka_unit_test(tolerance_decides_curved_and_flip_carries_nodes),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

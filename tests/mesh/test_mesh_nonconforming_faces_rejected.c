/* Faces that lie on each other without sharing their vertices make a mesh non-conforming
 * (issue 17 item 5): two unit cubes side by side, each split into 6 tetrahedra along a main
 * diagonal, where the second cube's split is mirrored in y so that the diagonals on the shared
 * square cross (4 unmatched interior faces), or where the second cube repeats the shared
 * vertices under new node numbers (a crack). Reading either is an error naming the file, the
 * elements and faces and their coordinates; with DG_MESH_ALLOW_UNMATCHED the faces are kept
 * as boundary faces and counted. A conforming pair of cubes reads cleanly. */
#include "test_util.h"

#include "mesh/mesh.h"

/* Kuhn split of the unit cube: the 6 paths from corner 000 to 111. Corners are numbered
 * x + 2y + 4z. */
static const int kuhn[6][4] = {{0, 1, 3, 7}, {0, 1, 5, 7}, {0, 2, 3, 7},
                               {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 6, 7}};

typedef enum { CONFORMING, MIRRORED, CRACK } kind;

/* Writes two cubes [0,1]^3 and [1,2]x[0,1]^2 as a Gmsh 2.2 file. */
static void write_two_cubes(const char *path, kind how) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n%d\n", how == CRACK ? 16 : 12);
  /* Cube A corners 1..8; cube B's far corners (x = 2) 9..12; crack: B's near corners
   * (x = 1) again as 13..16. */
  for (int c = 0; c < 8; ++c) fprintf(f, "%d %d %d %d\n", c + 1, c & 1, (c >> 1) & 1, (c >> 2) & 1);
  for (int c = 0; c < 4; ++c) fprintf(f, "%d 2 %d %d\n", 9 + c, c & 1, (c >> 1) & 1);
  if (how == CRACK)
    for (int c = 0; c < 4; ++c) fprintf(f, "%d 1 %d %d\n", 13 + c, c & 1, (c >> 1) & 1);
  fprintf(f, "$EndNodes\n$Elements\n12\n");
  int id = 1;
  for (int t = 0; t < 6; ++t, ++id)
    fprintf(f, "%d 4 2 1 1 %d %d %d %d\n", id, kuhn[t][0] + 1, kuhn[t][1] + 1, kuhn[t][2] + 1,
            kuhn[t][3] + 1);
  for (int t = 0; t < 6; ++t, ++id) {
    fprintf(f, "%d 4 2 1 1", id);
    for (int i = 0; i < 4; ++i) {
      int c = kuhn[t][i];
      int x = c & 1, y = (c >> 1) & 1, z = (c >> 2) & 1;
      if (how == MIRRORED) y = 1 - y;
      /* cube B's corner (x, y, z) is at (1 + x, y, z) */
      int node;
      if (x == 1) node = 9 + y + 2 * z;
      else if (how == CRACK) node = 13 + y + 2 * z;
      else node = 1 + 1 + 2 * y + 4 * z; /* cube A's corner (1, y, z) */
      fprintf(f, " %d", node);
    }
    fprintf(f, "\n");
  }
  fprintf(f, "$EndElements\n");
  assert_int_equal(fclose(f), 0);
}

static void test_conforming_pair_reads(void **state) {
  test_scratch *s = *state;
  write_two_cubes(s->path, CONFORMING);
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read(&m, s->path));
  assert_int_equal(m->K, 12);
  assert_int_equal(m->n_unmatched, 0);
  int interior = 0;
  for (int i = 0; i < 4 * m->K; ++i) interior += m->face_tag[i] < 0;
  assert_int_equal(interior, 2 * (6 + 6 + 2)); /* 6 inner faces per cube + 2 shared */
  dg_mesh_destroy(&m);
}

static void expect_rejected_then_allowed(const char *path) {
  dg_mesh *m = NULL;
  assert_dg_error(dg_mesh_read(&m, path), DG_ERR_MESH, "non-conforming mesh: 4 interior faces");
  assert_null(m);
  const char *msg = dg_error_message();
  assert_non_null(strstr(msg, path));
  assert_non_null(strstr(msg, "element "));
  assert_non_null(strstr(msg, "face "));
  assert_non_null(strstr(msg, "(1,")); /* a vertex on the interface x = 1 */
  assert_non_null(strstr(msg, "allow_unmatched_faces"));
  assert_dg_ok(dg_mesh_read_flags(&m, path, DG_MESH_ALLOW_UNMATCHED));
  assert_int_equal(m->n_unmatched, 4);
  dg_mesh_destroy(&m);
}

static void test_mirrored_split_rejected(void **state) {
  test_scratch *s = *state;
  write_two_cubes(s->path, MIRRORED);
  expect_rejected_then_allowed(s->path);
}

static void test_crack_rejected(void **state) {
  test_scratch *s = *state;
  write_two_cubes(s->path, CRACK);
  expect_rejected_then_allowed(s->path);
}

/* The outer boundary of a real mesh is never mistaken for an interface. */
static void test_fixtures_and_box_are_conforming(void **state) {
  (void)state;
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read(&m, FIXTURE("box_unstructured_h0.25.msh")));
  assert_int_equal(m->n_unmatched, 0);
  dg_mesh_destroy(&m);
  assert_dg_ok(dg_mesh_read(&m, FIXTURE("two_materials.msh")));
  dg_mesh_destroy(&m);
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 2, 3};
  assert_dg_ok(dg_mesh_box(&m, lo, hi, 3, 4, 5));
  assert_int_equal(m->n_unmatched, 0);
  dg_mesh_destroy(&m);
}

static int setup(void **state) { return test_scratch_setup(state, "two_cubes.msh"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_conforming_pair_reads),
      cmocka_unit_test(test_mirrored_split_rejected),
      cmocka_unit_test(test_crack_rejected),
      cmocka_unit_test(test_fixtures_and_box_are_conforming),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

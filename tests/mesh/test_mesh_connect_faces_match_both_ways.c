/* Every interior face is matched both ways with the same three vertices; box meshes have the expected counts and side tags. */
#include "test_util.h"

#include "mesh/mesh.h"

/* Checks EToE/EToF/face_tag for internal consistency; returns the number of boundary faces. */
static int check_connectivity(const dg_mesh *m) {
  int nbnd = 0;
  for (int k = 0; k < m->K; k++)
    for (int f = 0; f < 4; f++) {
      int nb = m->EToE[4 * k + f], nf = m->EToF[4 * k + f];
      assert_true(nb >= 0 && nb < m->K);
      assert_true(nf >= 0 && nf < 4);
      int a[3], b[3];
      for (int j = 0; j < 3; j++) {
        a[j] = m->EToV[4 * k + dg_face_vertices[f][j]];
        b[j] = m->EToV[4 * nb + dg_face_vertices[nf][j]];
      }
      if (nb == k) {
        assert_int_equal(nf, f);
        assert_true(m->face_tag[4 * k + f] >= 0);
        nbnd++;
        continue;
      }
      assert_int_equal(m->EToE[4 * nb + nf], k);
      assert_int_equal(m->EToF[4 * nb + nf], f);
      assert_int_equal(m->face_tag[4 * k + f], -1);
      /* same vertex set */
      for (int i = 0; i < 3; i++) {
        int found = 0;
        for (int j = 0; j < 3; j++) found += a[i] == b[j];
        assert_int_equal(found, 1);
      }
    }
  return nbnd;
}

/* Side tag (1..6 as in mesh.h) of a boundary face from its vertices, or 0 if it is not on a
 * side of the box. */
static int side_of_face(const dg_mesh *m, int k, int f, const double lo[3], const double hi[3]) {
  const double *X[3] = {m->VX, m->VY, m->VZ};
  for (int d = 0; d < 3; d++)
    for (int s = 0; s < 2; s++) {
      double plane = s ? hi[d] : lo[d];
      int on = 1;
      for (int j = 0; j < 3; j++)
        on &= fabs(X[d][m->EToV[4 * k + dg_face_vertices[f][j]]] - plane) < 1e-12;
      if (on) return 2 * d + s + 1;
    }
  return 0;
}

static void check_box(const double lo[3], const double hi[3], int nx, int ny, int nz) {
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, nx, ny, nz));
  assert_int_equal(m->K, 6 * nx * ny * nz);
  assert_int_equal(m->Nv, (nx + 1) * (ny + 1) * (nz + 1));
  assert_int_equal(m->n_fixed, 0);
  int nbnd = check_connectivity(m);
  assert_int_equal(nbnd, 2 * 2 * (nx * ny + ny * nz + nx * nz));

  int per_side[7] = {0};
  double vol = 0.0;
  for (int k = 0; k < m->K; k++) {
    double v = dg_mesh_elem_volume(m, k);
    assert_true(v > 0.0);
    vol += v;
    assert_int_equal(m->elem_tag[k], 1);
    for (int f = 0; f < 4; f++) {
      if (m->EToE[4 * k + f] != k) continue;
      int side = side_of_face(m, k, f, lo, hi);
      assert_true(side >= 1);
      assert_int_equal(m->face_tag[4 * k + f], side);
      per_side[side]++;
    }
  }
  int n[3] = {nx, ny, nz};
  for (int d = 0; d < 3; d++)
    for (int s = 0; s < 2; s++)
      assert_int_equal(per_side[2 * d + s + 1], 2 * n[(d + 1) % 3] * n[(d + 2) % 3]);
  assert_near(vol, (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]), 1e-12);

  double blo[3], bhi[3];
  dg_mesh_bbox(m, blo, bhi);
  for (int d = 0; d < 3; d++) {
    assert_near(blo[d], lo[d], 0.0);
    assert_near(bhi[d], hi[d], 0.0);
  }
  static const char *names[6] = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};
  for (int s = 0; s < 6; s++) assert_int_equal(dg_mesh_phys_tag(m, 2, names[s]), s + 1);
  assert_int_equal(dg_mesh_phys_tag(m, 3, "domain"), 1);
  assert_int_equal(dg_mesh_phys_tag(m, 2, "domain"), -1);
  dg_mesh_destroy(&m);
  assert_null(m);
}

static void test_unit_box_1x1x1(void **state) {
  (void)state;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  check_box(lo, hi, 1, 1, 1);
}

static void test_anisotropic_box_2x3x4(void **state) {
  (void)state;
  const double lo[3] = {-1, 0.5, 2}, hi[3] = {1, 2, 2.25};
  check_box(lo, hi, 2, 3, 4);
}

static void test_box_5x4x3(void **state) {
  (void)state;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  check_box(lo, hi, 5, 4, 3);
}

static void test_file_meshes_match_both_ways(void **state) {
  (void)state;
  const char *files[] = {FIXTURE("cube_22.msh"), FIXTURE("cube_41.msh"),
                         FIXTURE("cube_41_bin.msh"), FIXTURE("cube.neu"),
                         FIXTURE("box_unstructured_h0.25.msh")};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    dg_mesh *m = NULL;
    assert_dg_ok(dg_mesh_read(&m, files[i]));
    int nbnd = check_connectivity(m);
    /* Euler-type count: 4K = 2*interior + boundary */
    assert_int_equal((4 * m->K - nbnd) % 2, 0);
    dg_mesh_destroy(&m);
  }
}

static void test_box_rejects_bad_arguments(void **state) {
  (void)state;
  dg_mesh *m = NULL;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, flat[3] = {1, 0, 1};
  assert_dg_error(dg_mesh_box(&m, lo, hi, 0, 1, 1), DG_ERR_INPUT, "at least one cell");
  assert_dg_error(dg_mesh_box(&m, lo, flat, 1, 1, 1), DG_ERR_INPUT, "direction y");
  assert_null(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_unit_box_1x1x1),
      cmocka_unit_test(test_anisotropic_box_2x3x4),
      cmocka_unit_test(test_box_5x4x3),
      cmocka_unit_test(test_file_meshes_match_both_ways),
      cmocka_unit_test(test_box_rejects_bad_arguments),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Inverted elements are reoriented and counted, with connectivity and face tags still right, whether orient runs before or after connect. */
#include "test_util.h"

#include "mesh/mesh.h"

static void check_connectivity(const dg_mesh *m) {
  for (int k = 0; k < m->K; k++)
    for (int f = 0; f < 4; f++) {
      int nb = m->EToE[4 * k + f], nf = m->EToF[4 * k + f];
      if (nb == k) {
        assert_int_equal(nf, f);
        continue;
      }
      assert_int_equal(m->EToE[4 * nb + nf], k);
      assert_int_equal(m->EToF[4 * nb + nf], f);
      int sa = 0, sb = 0; /* vertex sets compared by sum and product of (index+1) */
      long pa = 1, pb = 1;
      for (int j = 0; j < 3; j++) {
        int a = m->EToV[4 * k + dg_face_vertices[f][j]] + 1;
        int b = m->EToV[4 * nb + dg_face_vertices[nf][j]] + 1;
        sa += a * a;
        sb += b * b;
        pa *= a;
        pb *= b;
      }
      assert_int_equal(sa, sb);
      assert_int_equal(pa, pb);
    }
}

static void test_file_with_inverted_element(void **state) {
  (void)state;
  dg_mesh *ok = NULL, *m = NULL;
  assert_dg_ok(dg_mesh_read(&ok, FIXTURE("cube_22.msh")));
  assert_dg_ok(dg_mesh_read(&m, FIXTURE("cube_22_inverted.msh")));
  assert_int_equal(ok->n_fixed, 0);
  assert_int_equal(m->n_fixed, 1);
  double vol = 0.0;
  for (int k = 0; k < m->K; k++) {
    double v = dg_mesh_elem_volume(m, k);
    assert_true(v > 0.0);
    assert_near(v, dg_mesh_elem_volume(ok, k), 1e-15);
    vol += v;
  }
  assert_near(vol, 1.0, 1e-14);
  check_connectivity(m);
  /* Boundary tags still follow the geometry (x=0 -> 1, x=1 -> 2, else 3). */
  for (int k = 0; k < m->K; k++)
    for (int f = 0; f < 4; f++) {
      if (m->EToE[4 * k + f] != k) continue;
      int x0 = 1, x1 = 1;
      for (int j = 0; j < 3; j++) {
        double x = m->VX[m->EToV[4 * k + dg_face_vertices[f][j]]];
        x0 &= x == 0.0;
        x1 &= x == 1.0;
      }
      assert_int_equal(m->face_tag[4 * k + f], x0 ? 1 : x1 ? 2 : 3);
    }
  dg_mesh_destroy(&ok);
  dg_mesh_destroy(&m);
}

/* Two tetrahedra sharing face {1,2,3}; the second is given inverted. Each boundary face has
 * its own tag so a face mix-up would show. */
static const double X[5][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
static const int EToV[2][4] = {{0, 1, 2, 3}, {1, 3, 2, 4}};
static const int tri[6][3] = {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 4}, {1, 3, 4}, {2, 3, 4}};
static const int tri_tag[6] = {11, 12, 13, 14, 15, 16};

static dg_mesh *two_tets(void) {
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_alloc(&m, 5, 2));
  for (int v = 0; v < 5; v++) {
    m->VX[v] = X[v][0];
    m->VY[v] = X[v][1];
    m->VZ[v] = X[v][2];
  }
  memcpy(m->EToV, EToV, sizeof EToV);
  return m;
}

static void check_two_tets(const dg_mesh *m) {
  assert_int_equal(m->n_fixed, 1);
  for (int k = 0; k < 2; k++) assert_true(dg_mesh_elem_volume(m, k) > 0.0);
  check_connectivity(m);
  int nbnd = 0;
  for (int k = 0; k < 2; k++)
    for (int f = 0; f < 4; f++) {
      if (m->EToE[4 * k + f] != k) {
        assert_int_equal(m->EToE[4 * k + f], 1 - k);
        assert_int_equal(m->face_tag[4 * k + f], -1);
        continue;
      }
      nbnd++;
      int want = -1;
      for (int t = 0; t < 6; t++) {
        int hits = 0;
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 3; j++) hits += m->EToV[4 * k + dg_face_vertices[f][i]] == tri[t][j];
        if (hits == 3) want = tri_tag[t];
      }
      assert_int_equal(m->face_tag[4 * k + f], want);
    }
  assert_int_equal(nbnd, 6);
}

static void test_orient_then_connect(void **state) {
  (void)state;
  dg_mesh *m = two_tets();
  assert_dg_ok(dg_mesh_orient(m));
  assert_dg_ok(dg_mesh_connect(m, 6, &tri[0][0], tri_tag));
  check_two_tets(m);
  dg_mesh_destroy(&m);
}

static void test_connect_then_orient(void **state) {
  (void)state;
  dg_mesh *m = two_tets();
  assert_dg_ok(dg_mesh_connect(m, 6, &tri[0][0], tri_tag));
  assert_dg_ok(dg_mesh_orient(m));
  check_two_tets(m);
  /* A second pass finds nothing more to fix. */
  assert_dg_ok(dg_mesh_orient(m));
  assert_int_equal(m->n_fixed, 1);
  dg_mesh_destroy(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_file_with_inverted_element),
      cmocka_unit_test(test_orient_then_connect),
      cmocka_unit_test(test_connect_then_orient),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

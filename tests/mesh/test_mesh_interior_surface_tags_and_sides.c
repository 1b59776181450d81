/* Interior surfaces: the connection keeps the physical tags of triangles on interior faces
 * (iface_tag, both sides), and dg_mesh_surface_sides splits the elements by a closed one:
 * - the box mesher's TF/SF box (cells 1..3 of 4, 1 PML cell around): iface_tag on exactly
 *   the 6 x 4 x 2 triangles' faces, from both sides; inside = centroid in [0.25, 0.75]^3;
 * - the shipped sphere mesh (Gmsh 4.1): the "tfsf" surface is interior (no boundary face
 *   carries it) and the elements inside it are those with centroid in [-1, 1]^3;
 * - errors: a tag no face carries, no outside seed, a stray triangle with the outside on
 *   both sides, a hole (the inside then reaches the outside: nothing is inside). */
#include "test_util.h"

#include "mesh/mesh.h"

static void centroid(const dg_mesh *m, int k, double c[3]) {
  c[0] = c[1] = c[2] = 0;
  for (int v = 0; v < 4; ++v) {
    const int i = m->EToV[4 * k + v];
    c[0] += 0.25 * m->VX[i], c[1] += 0.25 * m->VY[i], c[2] += 0.25 * m->VZ[i];
  }
}

static int inside_box(const double c[3], double lo, double hi) {
  return c[0] > lo && c[0] < hi && c[1] > lo && c[1] < hi && c[2] > lo && c[2] < hi;
}

static void box_mesher_surface(void **state) {
  (void)state;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  const int tlo[3] = {1, 1, 1}, thi[3] = {3, 3, 3};
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_box_tfsf(&m, lo, hi, 4, 4, 4, 1, tlo, thi));
  assert_int_equal(dg_mesh_phys_tag(m, 2, "tfsf"), DG_MESH_BOX_TFSF_TAG);
  int n = 0;
  for (int i = 0; i < 4 * m->K; ++i) {
    if (m->iface_tag[i] != DG_MESH_BOX_TFSF_TAG) continue;
    ++n;
    assert_int_equal(m->face_tag[i], -1); /* interior */
    const int j = 4 * m->EToE[i] + m->EToF[i];
    assert_int_equal(m->iface_tag[j], DG_MESH_BOX_TFSF_TAG);
  }
  assert_int_equal(n, 6 * 4 * 2 * 2);
  unsigned char *seed = calloc(m->K, 1);
  signed char *side = calloc(m->K, 1);
  for (int k = 0; k < m->K; ++k) seed[k] = m->elem_tag[k] == 2; /* the PML */
  assert_dg_ok(dg_mesh_surface_sides(m, DG_MESH_BOX_TFSF_TAG, seed, side));
  int n_in = 0;
  for (int k = 0; k < m->K; ++k) {
    double c[3];
    centroid(m, k, c);
    assert_int_equal(side[k], inside_box(c, 0.25, 0.75) ? 1 : -1);
    n_in += side[k] > 0;
  }
  assert_int_equal(n_in, 6 * 8);
  /* Errors. */
  assert_int_equal(dg_mesh_surface_sides(m, 99, seed, side), DG_ERR_INPUT);
  assert_non_null(strstr(dg_error_message(), "no interior face"));
  dg_error_clear();
  memset(seed, 0, m->K);
  assert_int_equal(dg_mesh_surface_sides(m, DG_MESH_BOX_TFSF_TAG, seed, side), DG_ERR_INPUT);
  assert_non_null(strstr(dg_error_message(), "0 outside"));
  dg_error_clear();
  /* A stray triangle between two outside elements: both of its sides are outside. */
  for (int k = 0; k < m->K; ++k) seed[k] = m->elem_tag[k] == 2;
  int stray = -1;
  for (int i = 0; i < 4 * m->K && stray < 0; ++i)
    if (m->elem_tag[i / 4] == 2 && m->face_tag[i] < 0 && m->elem_tag[m->EToE[i]] == 2) stray = i;
  assert_true(stray >= 0);
  const int other = 4 * m->EToE[stray] + m->EToF[stray];
  m->iface_tag[stray] = m->iface_tag[other] = DG_MESH_BOX_TFSF_TAG;
  assert_int_equal(dg_mesh_surface_sides(m, DG_MESH_BOX_TFSF_TAG, seed, side), DG_ERR_INPUT);
  assert_non_null(strstr(dg_error_message(), "not a closed surface"));
  dg_error_clear();
  m->iface_tag[stray] = m->iface_tag[other] = 0;
  /* A hole: without the plane x = 3/4 the inside reaches the PML, so nothing is inside. */
  for (int k = 0; k < m->K; ++k)
    for (int f = 0; f < 4; ++f) {
      double c1[3], c2[3];
      centroid(m, k, c1);
      centroid(m, m->EToE[4 * k + f], c2);
      if (m->iface_tag[4 * k + f] && (c1[0] - 0.75) * (c2[0] - 0.75) < 0) m->iface_tag[4 * k + f] = 0;
    }
  assert_int_equal(dg_mesh_surface_sides(m, DG_MESH_BOX_TFSF_TAG, seed, side), DG_ERR_INPUT);
  assert_non_null(strstr(dg_error_message(), "0 elements inside"));
  dg_error_clear();
  free(seed);
  free(side);
  dg_mesh_destroy(&m);
}

static void gmsh_interior_surface(void **state) {
  (void)state;
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read(&m, "configs/meshes/sphere.msh"));
  const int t = dg_mesh_phys_tag(m, 2, "tfsf");
  assert_true(t > 0);
  const int pml = dg_mesh_phys_tag(m, 3, "pml");
  int n = 0;
  for (int i = 0; i < 4 * m->K; ++i) {
    assert_true(m->face_tag[i] != t);
    n += m->iface_tag[i] == t;
  }
  assert_true(n > 0 && n % 2 == 0);
  unsigned char *seed = calloc(m->K, 1);
  signed char *side = calloc(m->K, 1);
  for (int k = 0; k < m->K; ++k) seed[k] = m->elem_tag[k] == pml;
  assert_dg_ok(dg_mesh_surface_sides(m, t, seed, side));
  for (int k = 0; k < m->K; ++k) {
    double c[3];
    centroid(m, k, c);
    assert_int_equal(side[k], inside_box(c, -1, 1) ? 1 : -1);
  }
  free(seed);
  free(side);
  dg_mesh_destroy(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(box_mesher_surface),
      cmocka_unit_test(gmsh_interior_surface),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Periodic pairs (dg_mesh_make_periodic, issue 53): on the box mesh, xmin and xmax become
 * interior faces of each other, with the translation found from the surfaces (1, 0, 0) or
 * given, EToE/EToF symmetric, face_period +1 on xmin and -1 on xmax, every paired face's
 * vertices one translation from its partner's, no boundary face of either tag left; a second
 * pair (y) is numbered 2. Refused, each with a message naming what is wrong: a wrong
 * translation, a moved vertex (non-matching meshes, naming the face), surfaces with different
 * face counts, the same surface twice, a surface already paired. */
#include "test_util.h"

#include "mesh/mesh.h"

static void pairs_x_and_y(void **state) {
  (void)state;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 2, 1};
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, 3, 4, 2));
  int nxmin = 0;
  for (int i = 0; i < 4 * m->K; ++i) nxmin += m->face_tag[i] == 1;
  double t[3];
  assert_dg_ok(dg_mesh_make_periodic(m, 1, 2, NULL, t));
  assert_true(fabs(t[0] - 1) < 1e-12 && fabs(t[1]) < 1e-12 && fabs(t[2]) < 1e-12);
  int paired = 0;
  for (int i = 0; i < 4 * m->K; ++i) {
    assert_true(m->face_tag[i] != 1 && m->face_tag[i] != 2);
    const int p = m->face_period[i];
    if (!p) continue;
    ++paired;
    const int k = i / 4, f = i % 4, k2 = m->EToE[i], f2 = m->EToF[i];
    assert_int_equal(m->EToE[4 * k2 + f2], k);
    assert_int_equal(m->EToF[4 * k2 + f2], f);
    assert_int_equal(m->face_period[4 * k2 + f2], -p);
    /* every vertex of this face, moved by sign(p) t, is a vertex of the partner */
    for (int a = 0; a < 3; ++a) {
      const int v = m->EToV[4 * k + dg_face_vertices[f][a]];
      const double x[3] = {m->VX[v] + (p > 0 ? 1 : -1) * m->period[0][0],
                           m->VY[v] + (p > 0 ? 1 : -1) * m->period[0][1],
                           m->VZ[v] + (p > 0 ? 1 : -1) * m->period[0][2]};
      int hit = 0;
      for (int b = 0; b < 3; ++b) {
        const int w = m->EToV[4 * k2 + dg_face_vertices[f2][b]];
        hit |= fabs(m->VX[w] - x[0]) + fabs(m->VY[w] - x[1]) + fabs(m->VZ[w] - x[2]) < 1e-12;
      }
      assert_true(hit);
    }
    const double cx = (m->VX[m->EToV[4 * k + dg_face_vertices[f][0]]]);
    assert_true(p > 0 ? cx < 1e-12 : cx > 1 - 1e-12); /* +1 on xmin, -1 on xmax */
  }
  assert_int_equal(paired, 2 * nxmin);
  assert_int_equal(m->n_periods, 1);
  const double ty[3] = {0, 2, 0};
  assert_dg_ok(dg_mesh_make_periodic(m, 3, 4, ty, NULL));
  assert_int_equal(m->n_periods, 2);
  int y2 = 0;
  for (int i = 0; i < 4 * m->K; ++i) y2 += abs(m->face_period[i]) == 2;
  assert_true(y2 > 0);
  /* xmin is paired already: it has no boundary face left */
  assert_dg_error(dg_mesh_make_periodic(m, 1, 5, NULL, NULL), DG_ERR_INPUT, "no boundary face");
  dg_mesh_destroy(&m);
}

static void refuses(void **state) {
  (void)state;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, 2, 2, 2));
  const double half[3] = {0.5, 0, 0};
  assert_dg_error(dg_mesh_make_periodic(m, 1, 2, half, NULL), DG_ERR_INPUT, "meets no face");
  assert_dg_error(dg_mesh_make_periodic(m, 1, 1, NULL, NULL), DG_ERR_INPUT, "different surfaces");
  assert_int_equal(m->n_periods, 0);
  dg_mesh_destroy(&m);

  /* a vertex of xmax moved within the plane: the two meshes no longer match */
  assert_dg_ok(dg_mesh_box(&m, lo, hi, 2, 2, 2));
  int moved = 0;
  for (int v = 0; v < m->Nv && !moved; ++v)
    if (fabs(m->VX[v] - 1) < 1e-12 && fabs(m->VY[v] - 0.5) < 1e-12 && fabs(m->VZ[v] - 0.5) < 1e-12)
      m->VY[v] += 0.05, moved = 1;
  assert_true(moved);
  assert_dg_error(dg_mesh_make_periodic(m, 1, 2, NULL, NULL), DG_ERR_INPUT, "do not match");
  dg_mesh_destroy(&m);

  /* xmin (3 x 4 cells) and zmin (2 x 3 cells) differ in face count */
  assert_dg_ok(dg_mesh_box(&m, lo, hi, 2, 3, 4));
  assert_dg_error(dg_mesh_make_periodic(m, 1, 5, NULL, NULL), DG_ERR_INPUT, "meshed alike");
  dg_mesh_destroy(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(pairs_x_and_y), cmocka_unit_test(refuses)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

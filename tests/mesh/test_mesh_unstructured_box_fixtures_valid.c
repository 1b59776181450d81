/* The gmsh-generated unstructured unit-cube fixtures read as valid, conforming, fully tagged meshes that refine. */
#include "test_util.h"

#include "mesh/mesh.h"

static const char *files[3] = {FIXTURE("box_unstructured_h0.5.msh"),
                               FIXTURE("box_unstructured_h0.25.msh"),
                               FIXTURE("box_unstructured_h0.125.msh")};

static void test_fixtures(void **state) {
  (void)state;
  int prevK = 0;
  for (int i = 0; i < 3; i++) {
    dg_mesh *m = NULL;
    assert_dg_ok(dg_mesh_read(&m, files[i]));
    print_message("# %s: Nv=%d K=%d\n", files[i], m->Nv, m->K);
    assert_true(m->K > 2 * prevK);
    assert_true(m->K < 3000);
    prevK = m->K;
    static const char *names[6] = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};
    for (int s = 0; s < 6; s++) assert_int_equal(dg_mesh_phys_tag(m, 2, names[s]), s + 1);
    assert_int_equal(dg_mesh_phys_tag(m, 3, "domain"), 1);
    double vol = 0.0, area[7] = {0};
    for (int k = 0; k < m->K; k++) {
      assert_int_equal(m->elem_tag[k], 1);
      double v = dg_mesh_elem_volume(m, k);
      assert_true(v > 0.0);
      vol += v;
      for (int f = 0; f < 4; f++) {
        int nb = m->EToE[4 * k + f], nf = m->EToF[4 * k + f];
        if (nb != k) {
          assert_int_equal(m->EToE[4 * nb + nf], k);
          assert_int_equal(m->EToF[4 * nb + nf], f);
          continue;
        }
        /* boundary face: its tag names the side all three vertices lie on */
        int tag = m->face_tag[4 * k + f];
        assert_true(tag >= 1 && tag <= 6);
        const double *X[3] = {m->VX, m->VY, m->VZ};
        int d = (tag - 1) / 2;
        double plane = (tag - 1) % 2 ? 1.0 : 0.0;
        double p[3][3];
        for (int j = 0; j < 3; j++) {
          int v = m->EToV[4 * k + dg_face_vertices[f][j]];
          assert_near(X[d][v], plane, 1e-12);
          for (int c = 0; c < 3; c++) p[j][c] = X[c][v];
        }
        double a[3], b[3];
        for (int c = 0; c < 3; c++) {
          a[c] = p[1][c] - p[0][c];
          b[c] = p[2][c] - p[0][c];
        }
        double cx = a[1] * b[2] - a[2] * b[1], cy = a[2] * b[0] - a[0] * b[2],
               cz = a[0] * b[1] - a[1] * b[0];
        area[tag] += 0.5 * sqrt(cx * cx + cy * cy + cz * cz);
      }
    }
    assert_near(vol, 1.0, 1e-12);
    for (int s = 1; s <= 6; s++) assert_near(area[s], 1.0, 1e-12);
    double lo[3], hi[3];
    dg_mesh_bbox(m, lo, hi);
    for (int d = 0; d < 3; d++) {
      assert_near(lo[d], 0.0, 1e-14);
      assert_near(hi[d], 1.0, 1e-14);
    }
    dg_mesh_destroy(&m);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fixtures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

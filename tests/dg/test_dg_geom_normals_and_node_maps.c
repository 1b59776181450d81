/* Geometry: outward unit normals, closed element surfaces, Fscale = sJ/J, and vmapP
 * pairing every interior face node with a node at the same place on the neighbour. */
#include "test_util.h"

#include "dg/geom.h"

static void check_geometry(const dg_mesh *m, int N) {
  dg_refel *ref = NULL;
  dg_geom *g = NULL;
  assert_dg_ok(dg_refel_create(&ref, N));
  assert_dg_ok(dg_geom_create(&g, m, ref));
  const int Nfp = ref->Nfp;
  for (int k = 0; k < m->K; ++k) {
    double cx = 0, cy = 0, cz = 0; /* element centroid */
    for (int v = 0; v < 4; ++v) {
      cx += 0.25 * m->VX[m->EToV[4 * k + v]];
      cy += 0.25 * m->VY[m->EToV[4 * k + v]];
      cz += 0.25 * m->VZ[m->EToV[4 * k + v]];
    }
    /* J is 1/8 of 6x the tet volume ratio: volume = (4/3) J. */
    assert_near(4.0 / 3.0 * g->J[k], dg_mesh_elem_volume(m, k), 1e-12);
    double sum[3] = {0, 0, 0};
    for (int f = 0; f < 4; ++f) {
      const int id = 4 * k + f;
      assert_near(g->nx[id] * g->nx[id] + g->ny[id] * g->ny[id] + g->nz[id] * g->nz[id], 1.0, 1e-12);
      assert_near(g->Fscale[id], g->sJ[id] / g->J[k], 1e-12);
      double fx = 0, fy = 0, fz = 0; /* face centroid */
      for (int i = 0; i < 3; ++i) {
        const int v = m->EToV[4 * k + dg_face_vertices[f][i]];
        fx += m->VX[v] / 3, fy += m->VY[v] / 3, fz += m->VZ[v] / 3;
      }
      assert_true(g->nx[id] * (fx - cx) + g->ny[id] * (fy - cy) + g->nz[id] * (fz - cz) > 0);
      /* The reference faces have area 2, so the physical area is 2 sJ. */
      sum[0] += 2 * g->sJ[id] * g->nx[id];
      sum[1] += 2 * g->sJ[id] * g->ny[id];
      sum[2] += 2 * g->sJ[id] * g->nz[id];
      for (int i = 0; i < Nfp; ++i) {
        const int a = g->vmapM[id * Nfp + i], b = g->vmapP[id * Nfp + i];
        assert_near(g->x[a], g->x[b], 1e-12);
        assert_near(g->y[a], g->y[b], 1e-12);
        assert_near(g->z[a], g->z[b], 1e-12);
        if (m->face_tag[id] < 0) assert_int_not_equal(a / ref->Np, b / ref->Np);
        else assert_int_equal(a, b);
      }
    }
    for (int d = 0; d < 3; ++d) assert_near(sum[d], 0.0, 1e-12);
  }
  dg_geom_destroy(&g);
  dg_refel_destroy(&ref);
  assert_null(g);
}

static void geometry_on_stretched_box(void **state) {
  (void)state;
  const double lo[3] = {-1, 0, 2}, hi[3] = {1, 0.5, 3.5};
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, 3, 2, 4));
  for (int N = 1; N <= 4; ++N) check_geometry(m, N);
  dg_mesh_destroy(&m);
}

static void geometry_on_unstructured_gmsh_mesh(void **state) {
  (void)state;
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read(&m, FIXTURE("box_unstructured_h0.5.msh")));
  check_geometry(m, 3);
  dg_mesh_destroy(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(geometry_on_stretched_box),
      cmocka_unit_test(geometry_on_unstructured_gmsh_mesh),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

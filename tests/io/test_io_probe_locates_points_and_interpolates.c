/* Probes: points inside the mesh are found with reference coordinates that map back to
 * them, and read a polynomial field of degree <= N exactly; points on faces, edges and
 * vertices (even a rounding error outside) are found; a point outside is DG_ERR_INPUT
 * naming its index and coordinates. */
#include "test_util.h"

#include "dg/maxwell.h"
#include "io/probe.h"

static double poly_eval(int deg, int comp, double x, double y, double z) {
  double v = 0;
  for (int a = 0; a <= deg; a++)
    for (int b = 0; a + b <= deg; b++)
      for (int c = 0; a + b + c <= deg; c++)
        v += cos(0.5 + comp + 2 * a + 3 * b + 5 * c) * pow(x, a) * pow(y, b) * pow(z, c);
  return v;
}

static void poly_field(void *ctx, double x, double y, double z, double t, double e[3],
                       double h[3]) {
  (void)t;
  const int deg = *(const int *)ctx;
  for (int c = 0; c < 3; c++) {
    e[c] = poly_eval(deg, c, x, y, z);
    h[c] = poly_eval(deg, c + 3, x, y, z);
  }
}

/* Physical point of reference coordinates rst in element k. */
static void map_to_physical(const dg_mesh *m, int k, const double rst[3], double x[3]) {
  const int *v = m->EToV + 4 * k;
  const double l[4] = {-(1 + rst[0] + rst[1] + rst[2]) / 2, (1 + rst[0]) / 2, (1 + rst[1]) / 2,
                       (1 + rst[2]) / 2};
  x[0] = x[1] = x[2] = 0;
  for (int i = 0; i < 4; i++) {
    x[0] += l[i] * m->VX[v[i]];
    x[1] += l[i] * m->VY[v[i]];
    x[2] += l[i] * m->VZ[v[i]];
  }
}

static void check_mesh(dg_mesh *m, const double *pts, int n) {
  for (int N = 1; N <= 4; N++) {
    dg_refel *r = NULL;
    dg_geom *g = NULL;
    dg_probes *p = NULL;
    assert_dg_ok(dg_refel_create(&r, N));
    assert_dg_ok(dg_geom_create(&g, m, r));
    assert_dg_ok(dg_probes_create(&p, g, n, pts));
    assert_int_equal(p->n, n);
    double *q = calloc(6 * (size_t)m->K * r->Np, sizeof *q);
    double *vals = calloc(6 * (size_t)n, sizeof *vals);
    dg_maxwell_interpolate(g, poly_field, &N, 0.0, q);
    dg_probes_eval(p, q, vals);
    for (int i = 0; i < n; i++) {
      const double *x = pts + 3 * i;
      double back[3], e[3], h[3];
      assert_true(p->elem[i] >= 0 && p->elem[i] < m->K);
      map_to_physical(m, p->elem[i], p->rst + 3 * i, back);
      for (int c = 0; c < 3; c++) assert_near(back[c], x[c], 1e-12);
      const double *rst = p->rst + 3 * i;
      assert_true(rst[0] >= -1 && rst[1] >= -1 && rst[2] >= -1 &&
                  rst[0] + rst[1] + rst[2] <= -1 + 1e-15);
      poly_field(&N, x[0], x[1], x[2], 0, e, h);
      for (int c = 0; c < 3; c++) {
        assert_near(vals[6 * i + c], e[c], 1e-11);
        assert_near(vals[6 * i + 3 + c], h[c], 1e-11);
      }
    }
    free(vals);
    free(q);
    dg_probes_destroy(&p);
    assert_null(p);
    dg_geom_destroy(&g);
    dg_refel_destroy(&r);
  }
}

static void box_points_inside_on_faces_and_vertices(void **state) {
  (void)state;
  const double lo[3] = {-0.5, 0, 0.2}, hi[3] = {1, 1.5, 0.8};
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, 2, 3, 2));
  enum { NRAND = 20 };
  double pts[3 * (NRAND + 8)];
  unsigned seed = 7;
  for (int i = 0; i < NRAND; i++)
    for (int c = 0; c < 3; c++) {
      seed = seed * 1103515245u + 12345u;
      pts[3 * i + c] = lo[c] + ((seed >> 8) & 0xffff) / 65535.0 * (hi[c] - lo[c]);
    }
  const double special[8][3] = {
      {-0.5, 0, 0.2},          /* box corner */
      {1, 1.5, 0.8},           /* opposite corner */
      {0.25, 0.5, 0.5},        /* interior mesh vertex */
      {0.25, 0.75, 0.2},       /* on the boundary face z = lo */
      {-0.125, 0.25, 0.35},    /* inside a hex, on its diagonal faces */
      {1 + 1e-14, 0.7, 0.3},   /* a rounding error outside */
      {0.6, 1.1, 0.8 - 1e-15}, /* just inside the top */
      {0.25, 1.0, 0.5},        /* an interior mesh vertex again (shared by many) */
  };
  memcpy(pts + 3 * NRAND, special, sizeof special);
  /* The rounding-error point maps back onto the face, 1e-14 away: within tolerance. */
  check_mesh(m, pts, NRAND + 8);
  dg_mesh_destroy(&m);
}

static void unstructured_mesh_points(void **state) {
  (void)state;
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read(&m, FIXTURE("box_unstructured_h0.5.msh")));
  double lo[3], hi[3];
  dg_mesh_bbox(m, lo, hi);
  enum { NP = 30 };
  double pts[3 * NP];
  unsigned seed = 99;
  for (int i = 0; i < NP; i++)
    for (int c = 0; c < 3; c++) {
      seed = seed * 1103515245u + 12345u;
      pts[3 * i + c] = lo[c] + (0.02 + 0.96 * ((seed >> 8) & 0xffff) / 65535.0) * (hi[c] - lo[c]);
    }
  check_mesh(m, pts, NP);
  /* Every mesh vertex, too: each lies on several elements' corners. */
  double *verts = calloc(3 * (size_t)m->Nv, sizeof *verts);
  for (int v = 0; v < m->Nv; v++) {
    verts[3 * v] = m->VX[v];
    verts[3 * v + 1] = m->VY[v];
    verts[3 * v + 2] = m->VZ[v];
  }
  check_mesh(m, verts, m->Nv);
  free(verts);
  dg_mesh_destroy(&m);
}

static void point_outside_is_input_error_naming_it(void **state) {
  (void)state;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  dg_mesh *m = NULL;
  dg_refel *r = NULL;
  dg_geom *g = NULL;
  dg_probes *p = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, 2, 2, 2));
  assert_dg_ok(dg_refel_create(&r, 3));
  assert_dg_ok(dg_geom_create(&g, m, r));
  const double pts[9] = {0.5, 0.5, 0.5, 0.1, 0.2, 0.3, 1.25, 0.5, -0.75};
  assert_dg_error(dg_probes_create(&p, g, 3, pts), DG_ERR_INPUT,
                  "probe 2 at (1.25, 0.5, -0.75) is outside the mesh");
  assert_null(p);
  const double near[3] = {1 + 1e-6, 0.5, 0.5}; /* far beyond rounding */
  double rst[3];
  assert_int_equal(dg_mesh_locate(m, near, rst), -1);
  assert_dg_error(dg_probes_create(&p, g, 1, near), DG_ERR_INPUT, "probe 0 at");
  /* No probes at all is fine. */
  assert_dg_ok(dg_probes_create(&p, g, 0, NULL));
  assert_int_equal(p->n, 0);
  dg_probes_destroy(&p);
  dg_geom_destroy(&g);
  dg_refel_destroy(&r);
  dg_mesh_destroy(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(box_points_inside_on_faces_and_vertices),
      cmocka_unit_test(unstructured_mesh_points),
      cmocka_unit_test(point_outside_is_input_error_naming_it),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* VTU files read back by VTK itself (python3-vtk9): our Lagrange point order is VTK's,
 * point/cell counts and types are right, the cells tile the box, and VTK's own
 * interpolation of a degree-N polynomial field reproduces it, for N = 1..4 and both
 * output modes; the .pvd collection names the snapshots and their times. */
#include "test_util.h"

#include <unistd.h>

#include "dg/maxwell.h"
#include "io/vtu.h"

#define PYTHON "/usr/bin/python3"
#define HELPER "tests/tools/io_vtu_probe.py"

typedef test_scratch fixture;

static int setup(void **state) { return test_scratch_setup(state, "fields.vtu"); }
static int teardown(void **state) { return test_scratch_teardown(state); }

/* The system python with VTK, or skip: `python3` on PATH may be another interpreter. */
static void need_vtk(void) {
  if (system(PYTHON " -c 'import vtkmodules.vtkIOXML' >/dev/null 2>&1") != 0) {
    printf("# SKIP: " PYTHON " cannot import vtk (install python3-vtk9)\n");
    skip();
  }
}

/* Runs the helper and returns its whole stdout (caller frees). */
static char *run_helper(const char *args) {
  char cmd[8192];
  snprintf(cmd, sizeof cmd, PYTHON " " HELPER " %s", args);
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  size_t cap = 1 << 16, len = 0;
  char *out = malloc(cap);
  assert_non_null(out);
  for (size_t got; (got = fread(out + len, 1, cap - len - 1, p)) > 0;) {
    len += got;
    if (cap - len < 1024) {
      out = realloc(out, cap *= 2);
      assert_non_null(out);
    }
  }
  out[len] = '\0';
  const int rc = pclose(p);
  if (rc != 0) fail_msg("%s failed (status %d):\n%s", cmd, rc, out);
  return out;
}

/* The value after "key " on the line that starts with it. */
static double field_after(const char *out, const char *key) {
  char pat[64];
  snprintf(pat, sizeof pat, "\n%s ", key);
  char *buf = malloc(strlen(out) + 2);
  assert_non_null(buf);
  buf[0] = '\n';
  strcpy(buf + 1, out);
  const char *at = strstr(buf, pat);
  if (!at) fail_msg("no \"%s\" in helper output:\n%s", key, out);
  const double v = strtod(at + strlen(pat), NULL);
  free(buf);
  return v;
}

/* A polynomial of total degree deg with every monomial present, different per component. */
typedef struct {
  int deg;
} poly;

static double poly_eval(int deg, int comp, double x, double y, double z) {
  double v = 0;
  for (int a = 0; a <= deg; a++)
    for (int b = 0; a + b <= deg; b++)
      for (int c = 0; a + b + c <= deg; c++)
        v += sin(1.0 + comp + 3 * a + 5 * b + 7 * c) * pow(x, a) * pow(y, b) * pow(z, c);
  return v;
}

static void poly_field(void *ctx, double x, double y, double z, double t, double e[3],
                       double h[3]) {
  (void)t;
  const int deg = ((const poly *)ctx)->deg;
  for (int c = 0; c < 3; c++) {
    e[c] = poly_eval(deg, c, x, y, z);
    h[c] = poly_eval(deg, c + 3, x, y, z);
  }
}

static void lagrange_order_is_vtks(void **state) {
  (void)state;
  need_vtk();
  char *out = run_helper("order 1 2 3 4 5 6 7 8");
  const char *p = out;
  for (int N = 1; N <= 8; N++) {
    const int Np = (N + 1) * (N + 2) * (N + 3) / 6;
    int *w = calloc(4 * (size_t)Np, sizeof *w);
    assert_dg_ok(dg_vtk_tet_points(N, w));
    for (int i = 0; i < Np; i++) {
      int n, b[4], used;
      if (sscanf(p, "%d %d %d %d %d%n", &n, &b[0], &b[1], &b[2], &b[3], &used) != 5 || n != N)
        fail_msg("helper output ends early at N=%d point %d", N, i);
      p += used;
      /* VTK's barycentric index is (w1, w2, w3, w0). */
      if (b[0] != w[4 * i + 1] || b[1] != w[4 * i + 2] || b[2] != w[4 * i + 3] ||
          b[3] != w[4 * i])
        fail_msg("N=%d point %d: VTK has (%d %d %d %d), we have (%d %d %d %d)", N, i, b[0],
                 b[1], b[2], b[3], w[4 * i + 1], w[4 * i + 2], w[4 * i + 3], w[4 * i]);
    }
    free(w);
  }
  free(out);
}

static void subdivision_tiles_the_lattice(void **state) {
  (void)state;
  for (int N = 1; N <= 8; N++) {
    const int Np = (N + 1) * (N + 2) * (N + 3) / 6;
    int *w = calloc(4 * (size_t)Np, sizeof *w), *tets = calloc(4 * (size_t)N * N * N, sizeof *tets);
    assert_dg_ok(dg_vtk_tet_points(N, w));
    assert_dg_ok(dg_vtk_tet_subdivide(N, tets));
    /* Every sub-tet is positively oriented with lattice volume 1/6, so N^3 of them have the
     * simplex's volume N^3/6. With every interior face shared by exactly two sub-tets and
     * every other face on the simplex boundary, they cover it exactly once. */
    const int nt = N * N * N;
    for (int e = 0; e < nt; e++) {
      int d[3][3];
      for (int v = 0; v < 3; v++)
        for (int x = 0; x < 3; x++)
          d[v][x] = w[4 * tets[4 * e + v + 1] + x + 1] - w[4 * tets[4 * e] + x + 1];
      const int det = d[0][0] * (d[1][1] * d[2][2] - d[1][2] * d[2][1]) -
                      d[0][1] * (d[1][0] * d[2][2] - d[1][2] * d[2][0]) +
                      d[0][2] * (d[1][0] * d[2][1] - d[1][1] * d[2][0]);
      if (det != 1) fail_msg("N=%d sub-tet %d has lattice volume %d/6", N, e, det);
    }
    for (int e = 0; e < nt; e++)
      for (int skip_v = 0; skip_v < 4; skip_v++) {
        int face[3], nf = 0, shared = 0;
        for (int v = 0; v < 4; v++)
          if (v != skip_v) face[nf++] = tets[4 * e + v];
        for (int o = 0; o < nt; o++) {
          int hits = 0;
          for (int a = 0; a < 3; a++)
            for (int b = 0; b < 4; b++) hits += face[a] == tets[4 * o + b];
          shared += o != e && hits == 3;
        }
        int on_boundary = 0; /* all three points have a common zero weight */
        for (int c = 0; c < 4; c++)
          on_boundary |= !w[4 * face[0] + c] && !w[4 * face[1] + c] && !w[4 * face[2] + c];
        if (shared > 1 || (shared == 0 && !on_boundary))
          fail_msg("N=%d: face %d of sub-tet %d is shared with %d others (boundary: %d)", N,
                   skip_v, e, shared, on_boundary);
      }
    free(w);
    free(tets);
  }
}

static void write_and_read_back(void **state) {
  fixture *fx = *state;
  need_vtk();
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1.5, 0.8};
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, 2, 2, 2));
  const double box_volume = 1 * 1.5 * 0.8;
  /* Probe points: pseudo-random interior points, a mesh vertex and a box corner. */
  enum { NPROBE = 12 };
  double pts[3 * NPROBE];
  unsigned seed = 12345;
  for (int i = 0; i < NPROBE - 2; i++)
    for (int c = 0; c < 3; c++) {
      seed = seed * 1103515245u + 12345u;
      const double u = 0.05 + 0.9 * ((seed >> 8) & 0xffff) / 65535.0;
      pts[3 * i + c] = lo[c] + u * (hi[c] - lo[c]);
    }
  const double vertex[3] = {0.5, 0.75, 0.4}, corner[3] = {1, 1.5, 0.8};
  memcpy(pts + 3 * (NPROBE - 2), vertex, sizeof vertex);
  memcpy(pts + 3 * (NPROBE - 1), corner, sizeof corner);

  for (int N = 1; N <= 4; N++) { /* N = 4 is the first with several points per face */
    dg_refel *r = NULL;
    dg_geom *g = NULL;
    assert_dg_ok(dg_refel_create(&r, N));
    assert_dg_ok(dg_geom_create(&g, m, r));
    const size_t KNp = (size_t)m->K * r->Np;
    double *q = calloc(6 * KNp, sizeof *q);
    for (int mode = 0; mode <= 1; mode++) {
      /* Linear sub-tets reproduce only linear fields between the lattice points. */
      poly pc = {mode == DG_VTU_LAGRANGE ? N : 1};
      dg_maxwell_interpolate(g, poly_field, &pc, 0.0, q);
      char path[128];
      snprintf(path, sizeof path, "%s/N%d_%s.vtu", fx->dir, N, mode ? "sub" : "lag");
      const double time = 0.1 * N + 1.0 / 3.0;
      assert_dg_ok(dg_vtu_write(path, g, q, time, (dg_vtu_mode)mode));

      char args[4096];
      int len = snprintf(args, sizeof args, "read '%s'", path);
      for (int i = 0; i < 3 * NPROBE; i++)
        len += snprintf(args + len, sizeof args - (size_t)len, " %.17g", pts[i]);
      char *out = run_helper(args);
      const int cells_per = mode == DG_VTU_LAGRANGE ? 1 : N * N * N;
      assert_int_equal((long)field_after(out, "points"), (long)KNp);
      assert_int_equal((long)field_after(out, "cells"), (long)m->K * cells_per);
      assert_int_equal((long)field_after(out, mode == DG_VTU_LAGRANGE ? "type 71" : "type 10"),
                       (long)m->K * cells_per);
      assert_near(field_after(out, "time"), time, 0);
      assert_int_equal((long)field_after(out, "array E"), 3);
      assert_int_equal((long)field_after(out, "array H"), 3);
      assert_near(field_after(out, "volume"), box_volume, 1e-12);

      const char *p = strstr(out, "probe ");
      for (int i = 0; i < NPROBE; i++) {
        int id, valid, used;
        double v[6];
        assert_non_null(p);
        if (sscanf(p, "probe %d %d %lf %lf %lf %lf %lf %lf%n", &id, &valid, &v[0], &v[1],
                   &v[2], &v[3], &v[4], &v[5], &used) != 8 || id != i)
          fail_msg("bad probe line %d in:\n%s", i, out);
        if (!valid) fail_msg("N=%d mode %d: VTK finds probe %d in no cell", N, mode, i);
        double e[3], h[3];
        const double *x = pts + 3 * i;
        poly_field(&pc, x[0], x[1], x[2], 0, e, h);
        for (int c = 0; c < 3; c++) {
          if (fabs(v[c] - e[c]) > 1e-10 || fabs(v[3 + c] - h[c]) > 1e-10)
            fail_msg("N=%d %s probe %d at (%g,%g,%g): VTK E%c=%.12g H%c=%.12g, exact "
                     "%.12g %.12g",
                     N, mode ? "subdivided" : "lagrange", i, x[0], x[1], x[2], "xyz"[c], v[c],
                     "xyz"[c], v[3 + c], e[c], h[c]);
        }
        p = strchr(p, '\n');
        if (p) p++;
      }
      free(out);
    }
    free(q);
    dg_geom_destroy(&g);
    dg_refel_destroy(&r);
  }
  dg_mesh_destroy(&m);
}

static void pvd_lists_snapshots(void **state) {
  fixture *fx = *state;
  need_vtk();
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  dg_mesh *m = NULL;
  dg_refel *r = NULL;
  dg_geom *g = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, 1, 1, 1));
  assert_dg_ok(dg_refel_create(&r, 2));
  assert_dg_ok(dg_geom_create(&g, m, r));
  double *q = calloc(6 * (size_t)m->K * r->Np, sizeof *q);
  const double times[3] = {0, 0.25, 0.5};
  /* An '&' in a name must be escaped in the XML attribute. */
  const char *files[3] = {"snap&0.vtu", "snap&1.vtu", "snap&2.vtu"};
  for (int i = 0; i < 3; i++) {
    char path[128];
    snprintf(path, sizeof path, "%s/%s", fx->dir, files[i]);
    assert_dg_ok(dg_vtu_write(path, g, q, times[i], DG_VTU_SUBDIVIDED));
  }
  char pvd[128], args[256];
  snprintf(pvd, sizeof pvd, "%s/run.pvd", fx->dir);
  assert_dg_ok(dg_pvd_write(pvd, 3, times, files));
  snprintf(args, sizeof args, "pvd '%s'", pvd);
  char *out = run_helper(args);
  assert_int_equal((long)field_after(out, "steps"), 3);
  const char *p = out;
  for (int i = 0; i < 3; i++) {
    double t;
    long npts;
    p = strstr(p, "time ");
    assert_non_null(p);
    assert_int_equal(sscanf(p, "time %lf %ld", &t, &npts), 2);
    assert_near(t, times[i], 0);
    assert_int_equal(npts, (long)m->K * r->Np);
    p++;
  }
  free(out);
  free(q);
  dg_geom_destroy(&g);
  dg_refel_destroy(&r);
  dg_mesh_destroy(&m);
}

static void bad_mode_and_unwritable_path_are_errors(void **state) {
  (void)state;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  dg_mesh *m = NULL;
  dg_refel *r = NULL;
  dg_geom *g = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, 1, 1, 1));
  assert_dg_ok(dg_refel_create(&r, 1));
  assert_dg_ok(dg_geom_create(&g, m, r));
  double *q = calloc(6 * (size_t)m->K * r->Np, sizeof *q);
  assert_dg_error(dg_vtu_write("/nonexistent-dir/x.vtu", g, q, 0, DG_VTU_LAGRANGE), DG_ERR_IO,
                  "/nonexistent-dir/x.vtu");
  assert_dg_error(dg_vtu_write("x.vtu", g, q, 0, (dg_vtu_mode)7), DG_ERR_INPUT, "mode");
  assert_int_equal(access("x.vtu", F_OK), -1);
  free(q);
  dg_geom_destroy(&g);
  dg_refel_destroy(&r);
  dg_mesh_destroy(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(lagrange_order_is_vtks),
      cmocka_unit_test(subdivision_tiles_the_lattice),
      cmocka_unit_test_setup_teardown(write_and_read_back, setup, teardown),
      cmocka_unit_test_setup_teardown(pvd_lists_snapshots, setup, teardown),
      cmocka_unit_test(bad_mode_and_unwritable_path_are_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

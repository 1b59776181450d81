#include "io/probe.h"

#include <float.h>

#include "core/alloc.h"

/* Barycentric coordinates l[0..3] of x in element k (l[i] belongs to vertex i). */
static void barycentric(const dg_mesh *m, int k, const double x[3], double l[4]) {
  const int *v = m->EToV + 4 * (size_t)k;
  const double x0 = m->VX[v[0]], y0 = m->VY[v[0]], z0 = m->VZ[v[0]];
  double a[3][3]; /* columns: v1-v0, v2-v0, v3-v0 */
  for (int c = 0; c < 3; c++) {
    a[0][c] = m->VX[v[c + 1]] - x0;
    a[1][c] = m->VY[v[c + 1]] - y0;
    a[2][c] = m->VZ[v[c + 1]] - z0;
  }
  const double b[3] = {x[0] - x0, x[1] - y0, x[2] - z0};
  const double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                     a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                     a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
  /* Cramer's rule: replace column c by b. */
  for (int c = 0; c < 3; c++) {
    double t[3][3];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) t[i][j] = j == c ? b[i] : a[i][j];
    const double d = t[0][0] * (t[1][1] * t[2][2] - t[1][2] * t[2][1]) -
                     t[0][1] * (t[1][0] * t[2][2] - t[1][2] * t[2][0]) +
                     t[0][2] * (t[1][0] * t[2][1] - t[1][1] * t[2][0]);
    l[c + 1] = d / det; /* the mesh rejects degenerate elements, so det != 0 */
  }
  l[0] = 1 - l[1] - l[2] - l[3];
}

int dg_probe_locate(const dg_mesh *m, const double x[3], double rst[3]) {
  int best = -1;
  double best_min = -DBL_MAX, best_l[4] = {0};
  for (int k = 0; k < m->K; k++) {
    double l[4];
    barycentric(m, k, x, l);
    double lmin = l[0];
    for (int i = 1; i < 4; i++) lmin = l[i] < lmin ? l[i] : lmin;
    if (lmin > best_min) {
      best_min = lmin;
      best = k;
      for (int i = 0; i < 4; i++) best_l[i] = l[i];
    }
  }
  if (best < 0 || !(best_min >= -DG_PROBE_TOL)) return -1;
  /* Clamp the round-off of points on faces back into the element. */
  double sum = 0;
  for (int i = 0; i < 4; i++) sum += best_l[i] = best_l[i] < 0 ? 0 : best_l[i];
  for (int i = 0; i < 3; i++) rst[i] = -1 + 2 * best_l[i + 1] / sum;
  return best;
}

dg_status dg_probes_create(dg_probes **out, const dg_geom *g, int n, const double *xyz) {
  *out = NULL;
  DG_CHECK(n >= 0 && (n == 0 || xyz), DG_ERR_INPUT, "probes: %d points but no coordinates",
           n);
  const dg_refel *ref = g->ref;
  const int Np = ref->Np;
  dg_probes *p = NULL;
  double *psi = NULL;
  dg_status st = DG_OK;
  DG_CALL(DG_ALLOC(p, 1));
  p->n = n;
  p->Np = Np;
  p->KNp = (size_t)g->K * Np;
  DG_CALL_GOTO(fail, DG_ALLOC(p->xyz, 3 * (size_t)n + 1));
  DG_CALL_GOTO(fail, DG_ALLOC(p->elem, (size_t)n + 1));
  DG_CALL_GOTO(fail, DG_ALLOC(p->rst, 3 * (size_t)n + 1));
  DG_CALL_GOTO(fail, DG_ALLOC(p->w, (size_t)n * Np + 1));
  DG_CALL_GOTO(fail, DG_ALLOC(psi, Np));
  for (int i = 0; i < n; i++) {
    const double *x = xyz + 3 * (size_t)i;
    double *rst = p->rst + 3 * (size_t)i;
    for (int c = 0; c < 3; c++) p->xyz[3 * (size_t)i + c] = x[c];
    p->elem[i] = dg_probe_locate(g->mesh, x, rst);
    DG_CHECK_GOTO(fail, p->elem[i] >= 0, DG_ERR_INPUT,
                  "probe %d at (%.10g, %.10g, %.10g) is outside the mesh", i, x[0], x[1], x[2]);
    /* w = psi(rst)^T Vinv, since nodal u = V uhat. */
    for (int j = 0; j < Np; j++) dg_basis_tet(ref->N, j, rst, rst + 1, rst + 2, 1, psi + j);
    double *w = p->w + (size_t)i * Np;
    for (int nn = 0; nn < Np; nn++) {
      double v = 0;
      for (int j = 0; j < Np; j++) v += psi[j] * ref->Vinv[(size_t)j * Np + nn];
      w[nn] = v;
    }
  }
  dg_free(&psi);
  *out = p;
  return DG_OK;
fail:
  dg_free(&psi);
  dg_probes_destroy(&p);
  return st;
}

void dg_probes_destroy(dg_probes **p) {
  if (!p || !*p) return;
  dg_free(&(*p)->xyz);
  dg_free(&(*p)->elem);
  dg_free(&(*p)->rst);
  dg_free(&(*p)->w);
  dg_free(p);
}

/* The six fields at probe i into v. */
static void eval_one(const dg_probes *p, int i, const double *q, double v[6]) {
  const double *w = p->w + (size_t)i * p->Np;
  for (int f = 0; f < 6; f++) {
    const double *u = q + (size_t)f * p->KNp + (size_t)p->elem[i] * p->Np;
    double sum = 0;
    for (int j = 0; j < p->Np; j++) sum += w[j] * u[j];
    v[f] = sum;
  }
}

void dg_probes_eval(const dg_probes *p, const double *q, double *vals) {
  for (int i = 0; i < p->n; i++) eval_one(p, i, q, vals + 6 * (size_t)i);
}

dg_status dg_probe_log_create(dg_series **out, const char *path) {
  static const char *const names[] = {"probe", "t", "Ex", "Ey", "Ez", "Hx", "Hy", "Hz"};
  DG_CALL(dg_series_create(out, path, 8, names));
  return DG_OK;
}

dg_status dg_probes_record(const dg_probes *p, double t, const double *q, dg_series *log) {
  DG_CHECK(dg_series_cols(log) == 8, DG_ERR_INTERNAL,
           "probe record: the series has %d columns, not the probe log's 8",
           dg_series_cols(log));
  for (int i = 0; i < p->n; i++) {
    double row[8] = {i, t};
    eval_one(p, i, q, row + 2);
    DG_CALL(dg_series_append(log, row));
  }
  return DG_OK;
}

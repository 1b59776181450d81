#include "io/probe.h"

#include "core/alloc.h"

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
    p->elem[i] = dg_mesh_locate(g->mesh, x, rst);
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
  DG_FREE_ALL(&(*p)->xyz, &(*p)->elem, &(*p)->rst, &(*p)->w);
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

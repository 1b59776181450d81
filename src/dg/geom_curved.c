/* The curved elements' geometry (geom.h, dg_geom_curved): node coordinates, metric terms
 * and Jacobians at the nodes, normals and surface Jacobians at the face nodes, each
 * element's mass matrix and its inverse, and the metric at the points of the volume and
 * face rules the operator integrates with (Hesthaven & Warburton, Nodal DG Methods, sec.
 * 6.6: curvilinear elements get their own mass matrix from a cubature of the varying J, and
 * face integrals from Gauss rules on the faces). */
#include <math.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "dg/geom.h"

/* Metric terms rx..tz (9 values, rx ry rz sx sy sz tx ty tz) of the derivatives d[c][j] =
 * dx_c/dr_j, by the cofactors of the 3x3 Jacobian matrix (GeometricFactors3D); returns J. */
static double metric(const double d[3][3], double out[9]) {
  const double xr = d[0][0], xs = d[0][1], xt = d[0][2];
  const double yr = d[1][0], ys = d[1][1], yt = d[1][2];
  const double zr = d[2][0], zs = d[2][1], zt = d[2][2];
  const double J = xr * (ys * zt - zs * yt) - yr * (xs * zt - zs * xt) + zr * (xs * yt - ys * xt);
  out[0] = (ys * zt - zs * yt) / J;
  out[1] = -(xs * zt - zs * xt) / J;
  out[2] = (xs * yt - ys * xt) / J;
  out[3] = -(yr * zt - zr * yt) / J;
  out[4] = (xr * zt - zr * xt) / J;
  out[5] = -(xr * yt - yr * xt) / J;
  out[6] = (yr * zs - zr * ys) / J;
  out[7] = -(xr * zs - zr * xs) / J;
  out[8] = (xr * ys - yr * xs) / J;
  return J;
}

/* The unnormalised outward normal of face f, the gradient of its face equation (t = -1,
 * s = -1, r + s + t = -1, r = -1; geom.c's element_metrics): from the metric terms m. */
static void face_gradient(int f, const double m[9], double n[3]) {
  for (int c = 0; c < 3; ++c) {
    const double gr = m[c], gs = m[3 + c], gt = m[6 + c];
    n[c] = f == 0 ? -gt : f == 1 ? -gs : f == 2 ? gr + gs + gt : -gr;
  }
}

/* Reference coordinates of point (a, b) of face f's parameter triangle, as LIFT
 * parametrises the faces (refel.c): face 0 by (r,s), face 1 by (r,t), faces 2 and 3 by
 * (s,t). */
static void face_point(int f, double a, double b, double rst[3]) {
  switch (f) {
  case 0: rst[0] = a, rst[1] = b, rst[2] = -1; break;
  case 1: rst[0] = a, rst[1] = -1, rst[2] = b; break;
  case 2: rst[0] = -1 - a - b, rst[1] = a, rst[2] = b; break;
  default: rst[0] = -1, rst[1] = a, rst[2] = b; break;
  }
}

/* The nodal (Lagrange) basis of the reference element at n points: L[q*Np + i] = l_i(pt q),
 * l = V^-T psi; with Lr non-NULL also its derivatives Lr, Ls, Lt (the same layout). */
static dg_status lagrange_at(const dg_refel *re, int n, const double *r, const double *s,
                             const double *t, double **L, double **Lr, double **Ls, double **Lt) {
  const int Np = re->Np;
  double *psi[4] = {NULL, NULL, NULL, NULL}, *col[4] = {NULL, NULL, NULL, NULL};
  double **out[4] = {L, Lr, Ls, Lt};
  const int nout = Lr ? 4 : 1;
  dg_status st = DG_OK;
  for (int a = 0; a < nout; ++a) {
    DG_CALL_GOTO(done, DG_ALLOC(*out[a], (size_t)n * Np));
    DG_CALL_GOTO(done, DG_ALLOC(psi[a], (size_t)n * Np));
    DG_CALL_GOTO(done, DG_ALLOC(col[a], n));
  }
  for (int j = 0; j < Np; ++j) {
    dg_basis_tet(re->N, j, r, s, t, n, col[0]);
    if (nout > 1) dg_grad_basis_tet(re->N, j, r, s, t, n, col[1], col[2], col[3]);
    for (int a = 0; a < nout; ++a)
      for (int q = 0; q < n; ++q) psi[a][(size_t)q * Np + j] = col[a][q];
  }
  for (int a = 0; a < nout; ++a) dg_matmul(n, Np, Np, psi[a], re->Vinv, *out[a]);
done:
  for (int a = 0; a < 4; ++a) DG_FREE_ALL(&psi[a], &col[a]);
  return st;
}

/* The points of the three rules: the mass matrix's cubature (degree 2N+3: l_i l_j J, with
 * the basis there), the volume rule of the operator and the face rule (their bases and the
 * point counts live in g->cv). */
typedef struct {
  int nm;
  double *mr, *ms, *mt, *mw, *Lm; /* mass: points, weights, basis (nm x Np) */
  double *vr, *vs, *vt, *vw;      /* volume rule (cv.nq points) */
  double *fa, *fb, *fw;           /* face rule: parameter points, weights (cv.nfq) */
} rules;

static void rules_free(rules *q) {
  DG_FREE_ALL(&q->mr, &q->ms, &q->mt, &q->mw, &q->Lm, &q->vr, &q->vs, &q->vt, &q->vw, &q->fa,
              &q->fb, &q->fw);
}

void dg_geom_curved_degrees(int N, int k, int *volume, int *face, int *mass) {
  /* J rx ... and n sJ are cofactors, products of two first derivatives of the map: degree
   * 2(k - 1); J has degree 3(k - 1). */
  *volume = N + 2 * (k - 1) + N - 1; /* l_i (J rx ...) d_r u */
  *face = N + 2 * (k - 1) + N;       /* l_i (n sJ) u */
  *mass = 2 * N + 3 * (k - 1);       /* l_i l_j J */
}

static dg_status rules_create(rules *q, dg_geom *g) {
  const dg_refel *re = g->ref;
  const int N = re->N, Nfp = re->Nfp;
  dg_geom_curved *cv = &g->cv;
  int dv, df, dm;
  dg_geom_curved_degrees(N, cv->order, &dv, &df, &dm);
  DG_CALL(dg_cubature_tet(dm, &q->nm, &q->mr, &q->ms, &q->mt, &q->mw));
  DG_CALL(lagrange_at(re, q->nm, q->mr, q->ms, q->mt, &q->Lm, NULL, NULL, NULL));
  DG_CALL(dg_cubature_tet(dv, &cv->nq, &q->vr, &q->vs, &q->vt, &q->vw));
  DG_CALL(lagrange_at(re, cv->nq, q->vr, q->vs, q->vt, &cv->Lq, &cv->Lrq, &cv->Lsq, &cv->Ltq));
  DG_CALL(dg_cubature_tri(df, &cv->nfq, &q->fa, &q->fb, &q->fw));
  const int nfq = cv->nfq;
  double *r = NULL, *s = NULL, *t = NULL, *Lv = NULL;
  dg_status st = DG_OK;
  DG_CALL_GOTO(done, DG_ALLOC(cv->Lf, (size_t)DG_NFACES * nfq * Nfp));
  DG_CALL_GOTO(done, DG_ALLOC(r, nfq));
  DG_CALL_GOTO(done, DG_ALLOC(s, nfq));
  DG_CALL_GOTO(done, DG_ALLOC(t, nfq));
  for (int f = 0; f < DG_NFACES; ++f) {
    for (int i = 0; i < nfq; ++i) {
      double p[3];
      face_point(f, q->fa[i], q->fb[i], p);
      r[i] = p[0], s[i] = p[1], t[i] = p[2];
    }
    /* the volume basis on the face: only face f's nodes' functions are nonzero there */
    DG_CALL_GOTO(done, lagrange_at(re, nfq, r, s, t, &Lv, NULL, NULL, NULL));
    for (int i = 0; i < nfq; ++i)
      for (int j = 0; j < Nfp; ++j)
        cv->Lf[((size_t)f * nfq + i) * Nfp + j] = Lv[(size_t)i * re->Np + re->Fmask[f * Nfp + j]];
    dg_free(&Lv);
  }
done:
  DG_FREE_ALL(&r, &s, &t, &Lv);
  return st;
}

/* A curved map that folds (J <= 0 somewhere) cannot be used: name the element and point. */
static dg_status check_jacobian(double J, int k, const char *where, const double rst[3]) {
  DG_CHECK(J > 0 && isfinite(J), DG_ERR_MESH,
           "curved element %d folds over: its Jacobian is %g at %s (r,s,t) = (%.3g,%.3g,%.3g); "
           "its high-order nodes are too far off the straight element for its size: refine "
           "the mesh near the curved surface (or optimise it: gmsh -optimize_ho)",
           k + 1, J, where, rst[0], rst[1], rst[2]);
  return DG_OK;
}

/* Curved element k, row c: nodes, metric, face-node normals, M, M^-1 and M^-1 E. */
static dg_status curved_element(dg_geom *g, const rules *q, int k, int c) {
  const dg_refel *re = g->ref;
  const dg_mesh *m = g->mesh;
  const int Np = re->Np, Nfp = re->Nfp, nc = DG_NFACES * Nfp;
  dg_geom_curved *cv = &g->cv;
  double *met[9] = {cv->rx, cv->ry, cv->rz, cv->sx, cv->sy, cv->sz, cv->tx, cv->ty, cv->tz};
  for (int i = 0; i < Np; ++i) {
    const double rst[3] = {re->r[i], re->s[i], re->t[i]};
    double x[3], d[3][3], mt[9];
    dg_mesh_elem_map(m, k, rst, x, d);
    const size_t id = (size_t)k * Np + i, row = (size_t)c * Np + i;
    g->x[id] = x[0], g->y[id] = x[1], g->z[id] = x[2];
    const double J = metric(d, mt);
    DG_CALL(check_jacobian(J, k, "node", rst));
    cv->J[row] = J;
    for (int j = 0; j < 9; ++j) met[j][row] = mt[j];
  }
  for (int f = 0; f < DG_NFACES; ++f)
    for (int j = 0; j < Nfp; ++j) {
      const size_t node = (size_t)c * Np + re->Fmask[f * Nfp + j], at = (size_t)c * nc + f * Nfp + j;
      double mt[9], n[3];
      for (int i = 0; i < 9; ++i) mt[i] = met[i][node];
      face_gradient(f, mt, n);
      const double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      cv->nx[at] = n[0] / len, cv->ny[at] = n[1] / len, cv->nz[at] = n[2] / len;
      cv->sJ[at] = len * cv->J[node];
      cv->Fscale[at] = len;
    }
  /* M = sum_q w_q J(q) l(q) l(q)^T */
  double *M = cv->M + (size_t)c * Np * Np, *Minv = cv->Minv + (size_t)c * Np * Np;
  for (int a = 0; a < Np * Np; ++a) M[a] = 0;
  for (int p = 0; p < q->nm; ++p) {
    const double rst[3] = {q->mr[p], q->ms[p], q->mt[p]};
    double x[3], d[3][3], mt[9];
    dg_mesh_elem_map(m, k, rst, x, d);
    const double J = metric(d, mt);
    DG_CALL(check_jacobian(J, k, "cubature point", rst));
    const double *l = q->Lm + (size_t)p * Np, wJ = q->mw[p] * J;
    for (int i = 0; i < Np; ++i)
      for (int j = 0; j < Np; ++j) M[i * Np + j] += wJ * l[i] * l[j];
  }
  for (int a = 0; a < Np * Np; ++a) Minv[a] = M[a];
  DG_CALL(dg_mat_inverse(Np, Minv));
  /* w J (rx ... tz) at the volume rule's points */
  double *W = cv->Wq + (size_t)c * 9 * cv->nq;
  for (int p = 0; p < cv->nq; ++p) {
    const double rst[3] = {q->vr[p], q->vs[p], q->vt[p]};
    double x[3], d[3][3], mt[9];
    dg_mesh_elem_map(m, k, rst, x, d);
    const double J = metric(d, mt);
    DG_CALL(check_jacobian(J, k, "cubature point", rst));
    for (int a = 0; a < 9; ++a) W[(size_t)a * cv->nq + p] = q->vw[p] * J * mt[a];
  }
  /* unit normal and w sJ at the face rule's points */
  for (int f = 0; f < DG_NFACES; ++f)
    for (int p = 0; p < cv->nfq; ++p) {
      double rst[3], x[3], d[3][3], mt[9], n[3];
      face_point(f, q->fa[p], q->fb[p], rst);
      dg_mesh_elem_map(m, k, rst, x, d);
      const double J = metric(d, mt);
      DG_CALL(check_jacobian(J, k, "face point", rst));
      face_gradient(f, mt, n);
      const double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      double *F = cv->Fq + (((size_t)c * DG_NFACES + f) * cv->nfq + p) * 4;
      F[0] = n[0] / len, F[1] = n[1] / len, F[2] = n[2] / len;
      F[3] = q->fw[p] * J * len;
    }
  return DG_OK;
}

dg_status dg_geom_curved_create(dg_geom *g) {
  const dg_mesh *m = g->mesh;
  if (!m->n_curved) return DG_OK;
  const int Np = g->Np, nc = DG_NFACES * g->Nfp, n = m->n_curved;
  dg_geom_curved *cv = &g->cv;
  g->n_curved = n;
  cv->order = m->geom_order >= 2 ? m->geom_order : 2;
  DG_CALL(DG_ALLOC(g->curved, g->K));
  double **per_node[] = {&cv->rx, &cv->ry, &cv->rz, &cv->sx, &cv->sy,
                         &cv->sz, &cv->tx, &cv->ty, &cv->tz, &cv->J};
  double **per_fnode[] = {&cv->nx, &cv->ny, &cv->nz, &cv->sJ, &cv->Fscale};
  for (int i = 0; i < 10; ++i) DG_CALL(dg_calloc(per_node[i], (size_t)n * Np, sizeof(double)));
  for (int i = 0; i < 5; ++i) DG_CALL(dg_calloc(per_fnode[i], (size_t)n * nc, sizeof(double)));
  DG_CALL(DG_ALLOC(cv->M, (size_t)n * Np * Np));
  DG_CALL(DG_ALLOC(cv->Minv, (size_t)n * Np * Np));
  rules q = {0};
  dg_status st = DG_OK;
  DG_CALL_GOTO(done, rules_create(&q, g));
  DG_CALL_GOTO(done, DG_ALLOC(cv->Wq, (size_t)n * 9 * cv->nq));
  DG_CALL_GOTO(done, DG_ALLOC(cv->Fq, (size_t)n * DG_NFACES * cv->nfq * 4));
  for (int k = 0, c = 0; k < g->K; ++k) {
    g->curved[k] = m->curved[k] ? c : -1;
    if (m->curved[k]) DG_CALL_GOTO(done, curved_element(g, &q, k, c++));
  }
done:
  rules_free(&q);
  return st;
}

void dg_geom_curved_free(dg_geom *g) {
  dg_geom_curved *cv = &g->cv;
  DG_FREE_ALL(&g->curved, &cv->rx, &cv->ry, &cv->rz, &cv->sx, &cv->sy, &cv->sz, &cv->tx, &cv->ty,
              &cv->tz, &cv->J, &cv->nx, &cv->ny, &cv->nz, &cv->sJ, &cv->Fscale, &cv->M, &cv->Minv,
              &cv->Lq, &cv->Lrq, &cv->Lsq, &cv->Ltq, &cv->Wq, &cv->Lf, &cv->Fq);
}

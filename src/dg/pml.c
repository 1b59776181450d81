/* CFS-PML: profiles and the auxiliary-field right-hand side (see dg/pml.h). */
#include "dg/pml.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"
#include "refel/refel.h"

void dg_pml_params_default(dg_pml_params *par) {
  par->thickness = 0;
  par->order = 3;
  par->reflection = 1e-6;
  par->kappa_max = 1;
  par->alpha_max = -1;
}

dg_status dg_pml_params_check(const dg_pml_params *par, const char *where) {
  DG_CHECK(isfinite(par->thickness) && par->thickness >= 0, DG_ERR_INPUT,
           "%s.thickness: must be a positive length (or left out), got %g", where, par->thickness);
  DG_CHECK(par->order >= 0 && par->order <= 10, DG_ERR_INPUT,
           "%s.profile_order: expected an integer in [0, 10], got %d", where, par->order);
  DG_CHECK(par->reflection > 0 && par->reflection < 1, DG_ERR_INPUT,
           "%s.reflection: expected a number in (0, 1), got %g", where, par->reflection);
  DG_CHECK(isfinite(par->kappa_max) && par->kappa_max >= 1 && par->kappa_max <= 100, DG_ERR_INPUT,
           "%s.kappa_max: expected a number in [1, 100], got %g", where, par->kappa_max);
  DG_CHECK(isfinite(par->alpha_max) && (par->alpha_max > 0 || par->alpha_max == -1), DG_ERR_INPUT,
           "%s.alpha_max: must be positive (alpha = 0 is the plain UPML, which grows at late "
           "times), got %g", where, par->alpha_max);
  return DG_OK;
}

/* The graded profile at the point x of an element of wave speed c: sigma, kappa and alpha
 * of each direction (dg_maxwell_set_pml). */
static void pml_profile(const dg_pml_params *par, double c, const double x[3],
                        const double ilo[3], const double ihi[3], const double olo[3],
                        const double ohi[3], double sig[3], double kappa[3], double alpha[3]) {
  const int m = par->order;
  for (int d = 0; d < 3; ++d) {
    double rho = 0, depth = 1;
    /* a side without a layer (inner = outer) has none, even for a node a rounding error
     * outside it (a Gmsh node at z = -3e-17 made its depth 0 and its coefficients NaN) */
    if (x[d] < ilo[d] && ilo[d] > olo[d]) rho = ilo[d] - x[d], depth = ilo[d] - olo[d];
    if (x[d] > ihi[d] && ohi[d] > ihi[d]) rho = x[d] - ihi[d], depth = ohi[d] - ihi[d];
    if (par->thickness > 0) depth = par->thickness;
    double u = depth > 0 ? rho / depth : 0;
    if (u > 1) u = 1;
    const double d_ref = par->thickness > 0 ? par->thickness : depth;
    const double smax = -(m + 1) * c * log(par->reflection) / (2 * d_ref);
    const double um = m ? pow(u, m) : (u > 0 ? 1 : 0);
    sig[d] = smax * um;
    kappa[d] = 1 + (par->kappa_max - 1) * um;
    alpha[d] = par->alpha_max > 0 ? par->alpha_max : 0.2 * c / d_ref;
  }
}

/* The rule the PML's matrices are integrated with (degree 2N+1) on the reference element:
 * Vq (nq x Np, the nodal basis at its points), Pq (Np x nq, M^-1 Vq^T W) and the points. With
 * M^-1 = V V^T and Vq = Psi V^-1 (Psi the orthonormal basis at the points), M^-1 Vq^T =
 * V Psi^T. */
typedef struct {
  int nq;
  double *Vq, *Pq, *r, *s, *t, *w;
} pml_rule;

static void pml_rule_free(pml_rule *q) {
  dg_free(&q->Vq);
  dg_free(&q->Pq);
  free(q->r);
  free(q->s);
  free(q->t);
  free(q->w);
}

static dg_status pml_rule_make(const dg_refel *R, pml_rule *q) {
  const int Np = R->Np;
  double *psi = NULL;
  dg_status st = DG_OK;
  memset(q, 0, sizeof *q);
  DG_CALL(dg_cubature_tet(2 * R->N + 1, &q->nq, &q->r, &q->s, &q->t, &q->w));
  const int nq = q->nq;
  DG_CALL_GOTO(done, DG_ALLOC(psi, (size_t)nq * Np)); /* psi[l*nq + q] */
  DG_CALL_GOTO(done, DG_ALLOC(q->Vq, (size_t)nq * Np));
  DG_CALL_GOTO(done, DG_ALLOC(q->Pq, (size_t)nq * Np));
  for (int l = 0; l < Np; ++l) dg_basis_tet(R->N, l, q->r, q->s, q->t, nq, psi + (size_t)l * nq);
  for (int i = 0; i < nq; ++i)
    for (int j = 0; j < Np; ++j) {
      double v = 0;
      for (int l = 0; l < Np; ++l) v += psi[(size_t)l * nq + i] * R->Vinv[l * Np + j];
      q->Vq[(size_t)i * Np + j] = v;
    }
  for (int i = 0; i < Np; ++i)
    for (int k = 0; k < nq; ++k) {
      double v = 0;
      for (int l = 0; l < Np; ++l) v += R->V[i * Np + l] * psi[(size_t)l * nq + k];
      q->Pq[(size_t)i * nq + k] = v * q->w[k];
    }
done:
  dg_free(&psi);
  if (st) pml_rule_free(q);
  return st;
}

/* out = M^-1 M_f (Np x Np): on an affine element Pq diag(f) Vq (its J cancels); on a curved
 * one (Jq: its J at the points, Minv: its own inverse mass matrix, else both NULL)
 * Minv Vq^T W diag(J f) Vq, with scratch for Np x Np values. */
static void pml_matrix(const pml_rule *q, int Np, const double *f, const double *Jq,
                       const double *Minv, double *scratch, double *out) {
  double *K = Jq ? scratch : out;
  for (int i = 0; i < Np; ++i)
    for (int j = 0; j < Np; ++j) {
      double v = 0;
      for (int k = 0; k < q->nq; ++k)
        v += (Jq ? q->Vq[(size_t)k * Np + i] * q->w[k] * Jq[k] : q->Pq[(size_t)i * q->nq + k]) *
             f[k] * q->Vq[(size_t)k * Np + j];
      K[(size_t)i * Np + j] = v;
    }
  if (Jq) dg_matmul(Np, Np, Np, Minv, K, out);
}

/* Elements of the layer that are translates of one another at the same depth (a box mesh's
 * layer has a few dozen kinds) have the same matrices to rounding: each matrix is kept once.
 * An open-addressing table of matrix indices (+1; 0 empty) keyed by the entries rounded to
 * 1e-9 of the largest; a match must agree to 1e-12 of it entry by entry. */
typedef struct {
  size_t size;
  int *slot;
} pml_table;

static double pml_mat_scale(const double *a, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; ++i) s = fmax(s, fabs(a[i]));
  return s > 0 ? s : 1;
}

/* The index of a kept matrix equal to mat (the candidate at index p->n_pml_mat), or
 * p->n_pml_mat when it is new (then entered). */
static int pml_mat_share(dg_maxwell *p, pml_table *t, const double *mat, size_t nn) {
  const double scale = pml_mat_scale(mat, nn);
  uint64_t h = DG_FNV_OFFSET;
  for (size_t i = 0; i < nn; ++i) {
    const long long r = llround(mat[i] / scale * 1e9);
    h = dg_fnv1a(h, &r, sizeof r);
  }
  for (size_t s = h % t->size;; s = (s + 1) % t->size) {
    if (!t->slot[s]) {
      t->slot[s] = p->n_pml_mat + 1;
      return p->n_pml_mat;
    }
    const double *old = p->pml_mat + (size_t)(t->slot[s] - 1) * nn;
    int same = 1;
    for (size_t i = 0; same && i < nn; ++i) same = fabs(old[i] - mat[i]) <= 1e-12 * scale;
    if (same) return t->slot[s] - 1;
  }
}

dg_status dg_maxwell_set_pml(dg_maxwell *p, const unsigned char *in_pml, const dg_pml_params *par,
                             const double ilo[3], const double ihi[3], const double olo[3],
                             const double ohi[3]) {
  const dg_geom *g = p->geom;
  const int Np = g->Np;
  DG_CALL(dg_pml_params_check(par, "pml"));
  DG_FREE_ALL(&p->pml_elem, &p->pml_mat_of, &p->pml_alpha, &p->pml_beta, &p->pml_mat);
  p->pml_K = p->n_pml_mat = 0;
  p->pml_beta_max = 0;
  int n = 0;
  for (int k = 0; k < g->K; ++k) n += in_pml[k] != 0;
  if (!n) return DG_OK;
  for (int e = 0; e < p->disp_K; ++e)
    DG_CHECK(!in_pml[p->disp_elem[e]], DG_ERR_INPUT,
             "element %d is both dispersive and in the PML: the layer is matched to "
             "non-dispersive media only", p->disp_elem[e] + 1);
  for (int d = 0; d < 3; ++d)
    DG_CHECK(olo[d] <= ilo[d] && ilo[d] < ihi[d] && ihi[d] <= ohi[d], DG_ERR_INPUT,
             "pml: the inner box [%g, %g] in %c is not inside the outer box [%g, %g]", ilo[d],
             ihi[d], "xyz"[d], olo[d], ohi[d]);
  pml_rule q;
  DG_CALL(pml_rule_make(g->ref, &q));
  pml_table tab = {0};
  dg_status st = DG_OK;
  double *f = NULL; /* DG_PML_MATS x nq: s_x..gamma_z at the element's points */
  double *Jq = NULL, *scratch = NULL; /* a curved element's J at the points; Np x Np */
  const size_t NN = (size_t)Np * Np;
  DG_CALL_GOTO(done, DG_ALLOC(f, DG_PML_MATS * (size_t)q.nq));
  DG_CALL_GOTO(done, DG_ALLOC(Jq, q.nq));
  DG_CALL_GOTO(done, DG_ALLOC(scratch, NN));
  DG_CALL_GOTO(done, DG_ALLOC(p->pml_elem, n));
  DG_CALL_GOTO(done, DG_ALLOC(p->pml_mat_of, DG_PML_MATS * (size_t)n));
  DG_CALL_GOTO(done, DG_ALLOC(p->pml_alpha, 3 * (size_t)n));
  DG_CALL_GOTO(done, DG_ALLOC(p->pml_beta, n));
  /* at most DG_PML_MATS per element; shrunk to what is used below */
  DG_CALL_GOTO(done, DG_ALLOC(p->pml_mat, DG_PML_MATS * (size_t)n * NN));
  tab.size = 2 * DG_PML_MATS * (size_t)n + 1;
  DG_CALL_GOTO(done, DG_ALLOC(tab.slot, tab.size));
  int e = 0;
  for (int k = 0; k < g->K; ++k)
    if (in_pml[k]) p->pml_elem[e++] = k;
  p->pml_K = n;
  for (e = 0; e < n; ++e) {
    const int k = p->pml_elem[e];
    const double c = 1 / sqrt(p->eps[k] * p->mu[k]);
    double smax[3] = {0, 0, 0};
    int varies[DG_PML_MATS] = {0};
    for (int i = 0; i < q.nq; ++i) {
      /* the point's position: the affine map's nodal coordinates interpolated */
      double x[3] = {0, 0, 0};
      for (int l = 0; l < Np; ++l) {
        const double v = q.Vq[(size_t)i * Np + l];
        const size_t id = (size_t)k * Np + l;
        x[0] += v * g->x[id], x[1] += v * g->y[id], x[2] += v * g->z[id];
      }
      double sig[3], kappa[3], alpha[3];
      pml_profile(par, c, x, ilo, ihi, olo, ohi, sig, kappa, alpha);
      /* Directions without a layer on either side: any positive alpha (their factors are 1). */
      for (int d = 0; d < 3; ++d) {
        const double s = sig[d] / kappa[d];
        const double gam = kappa[d] / (kappa[(d + 1) % 3] * kappa[(d + 2) % 3]);
        f[(DG_PML_S + d) * (size_t)q.nq + i] = s;
        f[(DG_PML_G + d) * (size_t)q.nq + i] = gam;
        varies[DG_PML_S + d] |= s != 0;
        varies[DG_PML_G + d] |= gam != 1;
        smax[d] = fmax(smax[d], s);
        p->pml_alpha[3 * (size_t)e + d] = alpha[d];
      }
    }
    p->pml_beta[e] = 0;
    for (int d = 0; d < 3; ++d)
      p->pml_beta[e] = fmax(p->pml_beta[e], p->pml_alpha[3 * (size_t)e + d] + smax[d]);
    p->pml_beta_max = fmax(p->pml_beta_max, p->pml_beta[e]);
    const int row = dg_geom_curved_row(g, k);
    for (int i = 0; row >= 0 && i < q.nq; ++i) {
      Jq[i] = 0;
      for (int l = 0; l < Np; ++l) Jq[i] += q.Vq[(size_t)i * Np + l] * g->cv.J[(size_t)row * Np + l];
    }
    for (int m = 0; m < DG_PML_MATS; ++m) {
      int *of = &p->pml_mat_of[DG_PML_MATS * (size_t)e + m];
      *of = -1;
      if (!varies[m]) continue;
      double *mat = p->pml_mat + (size_t)p->n_pml_mat * NN;
      pml_matrix(&q, Np, f + (size_t)m * q.nq, row >= 0 ? Jq : NULL,
                 row >= 0 ? g->cv.Minv + (size_t)row * NN : NULL, scratch, mat);
      *of = pml_mat_share(p, &tab, mat, NN);
      if (*of == p->n_pml_mat) ++p->n_pml_mat;
    }
  }
  double *fit = realloc(p->pml_mat, (size_t)(p->n_pml_mat ? p->n_pml_mat : 1) * NN * sizeof *fit);
  if (fit) p->pml_mat = fit;
done:
  DG_FREE_ALL(&f, &Jq, &scratch, &tab.slot);
  pml_rule_free(&q);
  return st;
}

void dg_pml_apply(const dg_maxwell *p, const double *w, double *rhs, double *rhs_w) {
  dg_pml_apply_elems(p, w, rhs, rhs_w, NULL, p->pml_K);
}

/* y = M v (Np x Np), or 0 when M is absent (m < 0). */
static void pml_matvec(const dg_maxwell *p, int m, const double *v, double *y) {
  const int Np = p->geom->Np;
  for (int i = 0; i < Np; ++i) {
    double a = 0;
    const double *row = m >= 0 ? p->pml_mat + ((size_t)m * Np + i) * Np : NULL;
    for (int j = 0; row && v && j < Np; ++j) a += row[j] * v[j];
    y[i] = a;
  }
}

/* Per PML element and field, the filters of dg/pml.h with its matrices. */
void dg_pml_apply_elems(const dg_maxwell *p, const double *w, double *rhs, double *rhs_w,
                        const int *pml_e, int n) {
  const dg_geom *g = p->geom;
  const int Np = g->Np;
  const size_t KNp = (size_t)g->K * Np, nP = (size_t)p->pml_K * Np;
  double *A = p->work, *B = A + Np, *D = B + Np, *u3 = D + Np; /* 4 Np of the scratch */
  for (int ei = 0; ei < n; ++ei) {
    const int e = pml_e ? pml_e[ei] : ei;
    const size_t k = (size_t)p->pml_elem[e];
    const int *mat = p->pml_mat_of + DG_PML_MATS * (size_t)e;
    const double *alpha = p->pml_alpha + 3 * (size_t)e;
    for (int f = 0; f < DG_NFIELDS; ++f) {
      const int d = f % 3, a = (d + 1) % 3, b = (d + 2) % 3;
      double *cf = rhs + f * KNp + k * Np;
      const double *w1 = w ? w + (3 * f) * nP + (size_t)e * Np : NULL;
      const double *w2 = w ? w1 + nP : NULL, *w3 = w ? w2 + nP : NULL;
      pml_matvec(p, mat[DG_PML_S + a], w1, A);
      pml_matvec(p, mat[DG_PML_S + b], w2, B);
      pml_matvec(p, mat[DG_PML_S + d], w3, D);
      for (int i = 0; i < Np; ++i) {
        const double c = cf[i];
        u3[i] = c - A[i] - B[i] + D[i];
        if (rhs_w) {
          rhs_w[(3 * f) * nP + (size_t)e * Np + i] = c - alpha[a] * (w ? w1[i] : 0) - A[i];
          rhs_w[(3 * f + 1) * nP + (size_t)e * Np + i] = c - A[i] - alpha[b] * (w ? w2[i] : 0) - B[i];
          rhs_w[(3 * f + 2) * nP + (size_t)e * Np + i] = c - A[i] - B[i] - alpha[d] * (w ? w3[i] : 0);
        }
      }
      if (mat[DG_PML_G + d] >= 0)
        pml_matvec(p, mat[DG_PML_G + d], u3, cf);
      else
        memcpy(cf, u3, sizeof(double) * Np);
    }
  }
}

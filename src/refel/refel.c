/* Reference-element operators (Hesthaven & Warburton sec. 10.1-10.2: Vandermonde3D,
 * Dmatrices3D, Lift3D). */
#include <math.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "refel/refel.h"

/* Distance from a face plane within which a node counts as on the face. Face nodes are
 * exact to rounding, interior nodes are O(1/N^2) away, so the value is not delicate. */
static const double k_face_tol = 1e-7;

/* 2D orthonormal basis on the triangle {x,y >= -1, x+y <= 0} (Simplex2DP):
 * sqrt2 P_i(a) P_j^(2i+1,0)(b) (1-b)^i with a = 2(1+x)/(1-y) - 1, b = y, evaluated for all
 * i+j <= N at the n points, into V2 (n x n, row = point). Needs n = (N+1)(N+2)/2. */
static dg_status vandermonde_tri(int N, int n, const double *x, const double *y, double *V2) {
  dg_status st = DG_OK;
  double *a = NULL, *fa = NULL, *gb = NULL;
  DG_CALL_GOTO(done, DG_ALLOC(a, n));
  DG_CALL_GOTO(done, DG_ALLOC(fa, n));
  DG_CALL_GOTO(done, DG_ALLOC(gb, n));
  for (int q = 0; q < n; ++q) {
    const double d = 1.0 - y[q];
    /* y = 1 is the collapsed vertex, where any a gives the right value */
    a[q] = d > 0.0 ? 2.0 * (1.0 + x[q]) / d - 1.0 : -1.0;
    a[q] = a[q] < -1.0 ? -1.0 : (a[q] > 1.0 ? 1.0 : a[q]);
  }
  int col = 0;
  for (int i = 0; i <= N; ++i)
    for (int j = 0; j <= N - i; ++j, ++col) {
      dg_jacobi_p(a, n, 0.0, 0.0, i, fa);
      dg_jacobi_p(y, n, 2.0 * i + 1, 0.0, j, gb);
      for (int q = 0; q < n; ++q)
        V2[q * n + col] = 1.4142135623730950488 /* sqrt2 */ * fa[q] * gb[q] * pow(1.0 - y[q], i);
    }
done:
  free(a);
  free(fa);
  free(gb);
  return st;
}

/* Volume node numbers of the nodes on each face, in increasing order. */
static dg_status find_fmask(dg_refel *re) {
  for (int f = 0; f < DG_NFACES; ++f) {
    int count = 0;
    for (int i = 0; i < re->Np; ++i) {
      double d;
      switch (f) {
      case 0: d = 1.0 + re->t[i]; break;
      case 1: d = 1.0 + re->s[i]; break;
      case 2: d = 1.0 + re->r[i] + re->s[i] + re->t[i]; break;
      default: d = 1.0 + re->r[i]; break;
      }
      if (fabs(d) < k_face_tol) {
        DG_CHECK(count < re->Nfp, DG_ERR_INTERNAL,
                 "face %d of the order-%d element has more than %d nodes", f, re->N, re->Nfp);
        re->Fmask[f * re->Nfp + count++] = i;
      }
    }
    DG_CHECK(count == re->Nfp, DG_ERR_INTERNAL,
             "face %d of the order-%d element has %d nodes, expected %d", f, re->N, count,
             re->Nfp);
  }
  return DG_OK;
}

/* LIFT = V V^T E, where column block f of E holds face f's mass matrix (Vf Vf^T)^-1 in the
 * rows of its nodes. Face f is parametrised by two volume coordinates, as in the book:
 * face 0 (r,s), face 1 (r,t), faces 2 and 3 (s,t); the face mass matrices, and so LIFT,
 * are therefore with respect to that parameter triangle's area (2 for every face; face 2's
 * physical area is 2 sqrt3), and the geometric factor Fscale = sJ/J supplies the rest. */
static dg_status build_lift(dg_refel *re) {
  const int Np = re->Np, Nfp = re->Nfp, Nf = DG_NFACES * Nfp;
  dg_status st = DG_OK;
  double *fx = NULL, *fy = NULL, *Vf = NULL, *VfT = NULL, *Mf = NULL, *W = NULL;
  DG_CALL_GOTO(done, DG_ALLOC(fx, Nfp));
  DG_CALL_GOTO(done, DG_ALLOC(fy, Nfp));
  DG_CALL_GOTO(done, DG_ALLOC(Vf, Nfp * Nfp));
  DG_CALL_GOTO(done, DG_ALLOC(VfT, Nfp * Nfp));
  DG_CALL_GOTO(done, DG_ALLOC(Mf, Nfp * Nfp));
  DG_CALL_GOTO(done, DG_ALLOC(W, Np * Nf));

  for (int f = 0; f < DG_NFACES; ++f) {
    const int *fm = re->Fmask + f * Nfp;
    const double *cx = f <= 1 ? re->r : re->s;
    const double *cy = f == 0 ? re->s : re->t;
    for (int q = 0; q < Nfp; ++q) {
      fx[q] = cx[fm[q]];
      fy[q] = cy[fm[q]];
    }
    DG_CALL_GOTO(done, vandermonde_tri(re->N, Nfp, fx, fy, Vf));
    /* (Vf Vf^T)^-1 = Vf^-T Vf^-1, better conditioned than inverting the product */
    DG_CALL_GOTO(done, dg_mat_inverse(Nfp, Vf));
    for (int i = 0; i < Nfp; ++i)
      for (int j = 0; j < Nfp; ++j) VfT[i * Nfp + j] = Vf[j * Nfp + i];
    dg_matmul(Nfp, Nfp, Nfp, VfT, Vf, Mf);
    /* W = V^T E, using that E's block f is nonzero only in the face-node rows */
    for (int j = 0; j < Np; ++j)
      for (int c = 0; c < Nfp; ++c) {
        double sum = 0.0;
        for (int q = 0; q < Nfp; ++q) sum += re->V[fm[q] * Np + j] * Mf[q * Nfp + c];
        W[j * Nf + f * Nfp + c] = sum;
      }
  }
  dg_matmul(Np, Nf, Np, re->V, W, re->LIFT);
done:
  free(fx);
  free(fy);
  free(Vf);
  free(VfT);
  free(Mf);
  free(W);
  return st;
}

dg_status dg_refel_create(dg_refel **out, int N) {
  *out = NULL;
  DG_CHECK(N >= 1 && N <= DG_MAX_ORDER, DG_ERR_INPUT,
           "polynomial order N = %d is not supported (must be 1..%d)", N, DG_MAX_ORDER);
  dg_status st = DG_OK;
  dg_refel *re = NULL;
  double *Vr = NULL, *Vs = NULL, *Vt = NULL, *VinvT = NULL;
  DG_CALL(DG_ALLOC(re, 1));
  const int Np = (N + 1) * (N + 2) * (N + 3) / 6, Nfp = (N + 1) * (N + 2) / 2;
  re->N = N;
  re->Np = Np;
  re->Nfp = Nfp;
  DG_CALL_GOTO(fail, DG_ALLOC(re->r, Np));
  DG_CALL_GOTO(fail, DG_ALLOC(re->s, Np));
  DG_CALL_GOTO(fail, DG_ALLOC(re->t, Np));
  DG_CALL_GOTO(fail, DG_ALLOC(re->V, Np * Np));
  DG_CALL_GOTO(fail, DG_ALLOC(re->Vinv, Np * Np));
  DG_CALL_GOTO(fail, DG_ALLOC(re->Dr, Np * Np));
  DG_CALL_GOTO(fail, DG_ALLOC(re->Ds, Np * Np));
  DG_CALL_GOTO(fail, DG_ALLOC(re->Dt, Np * Np));
  DG_CALL_GOTO(fail, DG_ALLOC(re->M, Np * Np));
  DG_CALL_GOTO(fail, DG_ALLOC(re->Fmask, DG_NFACES * Nfp));
  DG_CALL_GOTO(fail, DG_ALLOC(re->LIFT, Np * DG_NFACES * Nfp));
  DG_CALL_GOTO(fail, DG_ALLOC(Vr, Np * Np));
  DG_CALL_GOTO(fail, DG_ALLOC(Vs, Np * Np));
  DG_CALL_GOTO(fail, DG_ALLOC(Vt, Np * Np));
  DG_CALL_GOTO(fail, DG_ALLOC(VinvT, Np * Np));

  DG_CALL_GOTO(fail, dg_nodes_tet(N, re->r, re->s, re->t));

  /* Vandermonde matrices column by column (one basis function at all nodes), then
   * transposed into the row-major layout V[node * Np + function]. Vinv, VinvT and M are
   * not filled yet and serve as scratch for the columns. */
  double *col = re->Vinv, *cds = VinvT, *cdt = re->M;
  for (int j = 0; j < Np; ++j) {
    dg_basis_tet(N, j, re->r, re->s, re->t, Np, col);
    for (int i = 0; i < Np; ++i) re->V[i * Np + j] = col[i];
    dg_grad_basis_tet(N, j, re->r, re->s, re->t, Np, col, cds, cdt);
    for (int i = 0; i < Np; ++i) {
      Vr[i * Np + j] = col[i];
      Vs[i * Np + j] = cds[i];
      Vt[i * Np + j] = cdt[i];
    }
  }

  for (int i = 0; i < Np * Np; ++i) re->Vinv[i] = re->V[i];
  DG_CALL_GOTO(fail, dg_mat_inverse(Np, re->Vinv));
  /* D = V_r V^-1: differentiate the modal expansion of the nodal values */
  dg_matmul(Np, Np, Np, Vr, re->Vinv, re->Dr);
  dg_matmul(Np, Np, Np, Vs, re->Vinv, re->Ds);
  dg_matmul(Np, Np, Np, Vt, re->Vinv, re->Dt);
  /* M = (V V^T)^-1 = V^-T V^-1 (orthonormal basis), without a second inversion */
  for (int i = 0; i < Np; ++i)
    for (int j = 0; j < Np; ++j) VinvT[i * Np + j] = re->Vinv[j * Np + i];
  dg_matmul(Np, Np, Np, VinvT, re->Vinv, re->M);

  DG_CALL_GOTO(fail, find_fmask(re));
  DG_CALL_GOTO(fail, build_lift(re));

  *out = re;
  re = NULL;
fail:
  free(Vr);
  free(Vs);
  free(Vt);
  free(VinvT);
  dg_refel_destroy(&re);
  return st;
}

void dg_refel_destroy(dg_refel **pr) {
  if (!pr || !*pr) return;
  dg_refel *re = *pr;
  free(re->r);
  free(re->s);
  free(re->t);
  free(re->V);
  free(re->Vinv);
  free(re->Dr);
  free(re->Ds);
  free(re->Dt);
  free(re->M);
  free(re->Fmask);
  free(re->LIFT);
  free(re);
  *pr = NULL;
}

/* Collapsed-coordinate (conical product) Gauss rules on the reference tetrahedron and
 * triangle.
 *
 * With r = (1+a)(1-b)(1-c)/4 - 1, s = (1+b)(1-c)/2 - 1, t = c the tet is the image of the
 * cube [-1,1]^3 and dr ds dt = ((1-b)/2) ((1-c)/2)^2 da db dc. A polynomial of total degree
 * d in (r,s,t) has degree <= d in each of a, b, c, so Gauss-Legendre in a and Gauss-Jacobi
 * with weights (1-b) and (1-c)^2 in b and c, each with q points where 2q-1 >= d, integrate
 * it exactly. */
#include <stdlib.h>

#include "core/alloc.h"
#include "refel/refel.h"

/* q^3 points; the cap only keeps the point count far from overflow and memory trouble. */
enum { CUBATURE_MAX_DEGREE = 200 };

dg_status dg_cubature_tet(int degree, int *n, double **r, double **s, double **t,
                          double **w) {
  *n = 0;
  *r = *s = *t = *w = NULL;
  DG_CHECK(degree >= 0 && degree <= CUBATURE_MAX_DEGREE, DG_ERR_INPUT,
           "cubature degree must be in 0..%d, got %d", CUBATURE_MAX_DEGREE, degree);
  const int q = degree / 2 + 1;
  const int np = q * q * q;
  dg_status st = DG_OK;
  double *xa = NULL, *wa = NULL, *xb = NULL, *wb = NULL, *xc = NULL, *wc = NULL;
  double *rr = NULL, *ss = NULL, *tt = NULL, *ww = NULL;
  DG_CALL_GOTO(done, DG_ALLOC(xa, q));
  DG_CALL_GOTO(done, DG_ALLOC(wa, q));
  DG_CALL_GOTO(done, DG_ALLOC(xb, q));
  DG_CALL_GOTO(done, DG_ALLOC(wb, q));
  DG_CALL_GOTO(done, DG_ALLOC(xc, q));
  DG_CALL_GOTO(done, DG_ALLOC(wc, q));
  DG_CALL_GOTO(done, DG_ALLOC(rr, np));
  DG_CALL_GOTO(done, DG_ALLOC(ss, np));
  DG_CALL_GOTO(done, DG_ALLOC(tt, np));
  DG_CALL_GOTO(done, DG_ALLOC(ww, np));
  DG_CALL_GOTO(done, dg_jacobi_gq(0.0, 0.0, q - 1, xa, wa));
  DG_CALL_GOTO(done, dg_jacobi_gq(1.0, 0.0, q - 1, xb, wb));
  DG_CALL_GOTO(done, dg_jacobi_gq(2.0, 0.0, q - 1, xc, wc));

  int m = 0;
  for (int ia = 0; ia < q; ++ia)
    for (int ib = 0; ib < q; ++ib)
      for (int ic = 0; ic < q; ++ic, ++m) {
        const double a = xa[ia], b = xb[ib], c = xc[ic];
        rr[m] = 0.25 * (1 + a) * (1 - b) * (1 - c) - 1;
        ss[m] = 0.5 * (1 + b) * (1 - c) - 1;
        tt[m] = c;
        /* the Jacobi weights carry (1-b) and (1-c)^2; the halves of the Jacobian remain */
        ww[m] = wa[ia] * wb[ib] * wc[ic] * 0.125;
      }
  *n = np;
  *r = rr;
  *s = ss;
  *t = tt;
  *w = ww;
  rr = ss = tt = ww = NULL;

done:
  free(xa);
  free(wa);
  free(xb);
  free(wb);
  free(xc);
  free(wc);
  free(rr);
  free(ss);
  free(tt);
  free(ww);
  return st;
}

/* The triangle the same way: a = (1+u)(1-v)/2 - 1, b = v maps the square onto it with
 * da db = ((1-v)/2) du dv; Gauss-Legendre in u, Gauss-Jacobi with weight (1-v) in v. */
dg_status dg_cubature_tri(int degree, int *n, double **a, double **b, double **w) {
  *n = 0;
  *a = *b = *w = NULL;
  DG_CHECK(degree >= 0 && degree <= CUBATURE_MAX_DEGREE, DG_ERR_INPUT,
           "cubature degree must be in 0..%d, got %d", CUBATURE_MAX_DEGREE, degree);
  const int q = degree / 2 + 1, np = q * q;
  dg_status st = DG_OK;
  double *xu = NULL, *wu = NULL, *xv = NULL, *wv = NULL, *aa = NULL, *bb = NULL, *ww = NULL;
  DG_CALL_GOTO(done, DG_ALLOC(xu, q));
  DG_CALL_GOTO(done, DG_ALLOC(wu, q));
  DG_CALL_GOTO(done, DG_ALLOC(xv, q));
  DG_CALL_GOTO(done, DG_ALLOC(wv, q));
  DG_CALL_GOTO(done, DG_ALLOC(aa, np));
  DG_CALL_GOTO(done, DG_ALLOC(bb, np));
  DG_CALL_GOTO(done, DG_ALLOC(ww, np));
  DG_CALL_GOTO(done, dg_jacobi_gq(0.0, 0.0, q - 1, xu, wu));
  DG_CALL_GOTO(done, dg_jacobi_gq(1.0, 0.0, q - 1, xv, wv));
  for (int i = 0, m = 0; i < q; ++i)
    for (int j = 0; j < q; ++j, ++m) {
      aa[m] = 0.5 * (1 + xu[i]) * (1 - xv[j]) - 1;
      bb[m] = xv[j];
      ww[m] = wu[i] * wv[j] * 0.5; /* the Jacobi weight carries (1-v); the half remains */
    }
  *n = np;
  *a = aa;
  *b = bb;
  *w = ww;
  aa = bb = ww = NULL;
done:
  free(xu);
  free(wu);
  free(xv);
  free(wv);
  free(aa);
  free(bb);
  free(ww);
  return st;
}

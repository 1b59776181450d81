/* Orthonormal polynomial basis on the reference tetrahedron and its gradient
 * (Hesthaven & Warburton sec. 10.1, Simplex3DP / GradSimplex3DP).
 *
 * In the collapsed coordinates
 *   a = 2(1+r)/(-s-t) - 1,  b = 2(1+s)/(1-t) - 1,  c = t
 * the tet becomes the cube [-1,1]^3 and
 *   psi_ijk = 2 sqrt2 P_i^(0,0)(a) P_j^(2i+1,0)(b) (1-b)^i P_k^(2i+2j+2,0)(c) (1-c)^(i+j).
 * The map is singular on the edge s+t = 0 (a undefined) and at the vertex t = 1 (b
 * undefined). The gradient below is written so that no negative power of (1-b) or (1-c)
 * is ever formed: it is then a polynomial in (a,b,c), equal to the true gradient on the
 * open tet and hence, by continuity, at the singular points for any a, b in [-1,1]. */
#include <math.h>

#include "refel/refel.h"

/* Points are processed in blocks so the Jacobi recurrences run over arrays without heap
 * scratch space in these non-failing functions. */
enum { BASIS_BLOCK = 64 };

static double clamp1(double x) { return x < -1.0 ? -1.0 : (x > 1.0 ? 1.0 : x); }

/* x^e for e >= 0, with 0^0 = 1 */
static double ipow(double x, int e) {
  double y = 1.0;
  for (int k = 0; k < e; ++k) y *= x;
  return y;
}

/* Collapsed coordinates. a and b are clamped to [-1,1], where they lie for every point of
 * the closed tet: near the singular edge/vertex their value is pure rounding noise (0/0),
 * and extrapolating the Jacobi polynomials with it would only lose accuracy. Points
 * outside the reference tet are therefore not supported. */
static void rst_to_abc(double r, double s, double t, double *a, double *b, double *c) {
  const double d_a = -s - t, d_b = 1.0 - t;
  *a = d_a > 0.0 ? clamp1(2.0 * (1.0 + r) / d_a - 1.0) : -1.0;
  *b = d_b > 0.0 ? clamp1(2.0 * (1.0 + s) / d_b - 1.0) : -1.0;
  *c = t;
}

/* Basis number m -> (i,j,k), ordered by i, then j, then k fastest. */
static int basis_index(int N, int m, int *bi, int *bj, int *bk) {
  int count = 0;
  for (int i = 0; i <= N; ++i)
    for (int j = 0; j <= N - i; ++j)
      for (int k = 0; k <= N - i - j; ++k, ++count)
        if (count == m) {
          *bi = i;
          *bj = j;
          *bk = k;
          return 1;
        }
  return 0;
}

void dg_basis_tet(int N, int m, const double *r, const double *s, const double *t, int n,
                  double *psi) {
  int i, j, k;
  if (m < 0 || !basis_index(N, m, &i, &j, &k)) { /* no such function: make it obvious */
    for (int q = 0; q < n; ++q) psi[q] = NAN;
    return;
  }
  for (int lo = 0; lo < n; lo += BASIS_BLOCK) {
    const int nb = n - lo < BASIS_BLOCK ? n - lo : BASIS_BLOCK;
    double a[BASIS_BLOCK], b[BASIS_BLOCK], c[BASIS_BLOCK];
    double fa[BASIS_BLOCK], gb[BASIS_BLOCK], hc[BASIS_BLOCK];
    for (int q = 0; q < nb; ++q) rst_to_abc(r[lo + q], s[lo + q], t[lo + q], &a[q], &b[q], &c[q]);
    dg_jacobi_p(a, nb, 0.0, 0.0, i, fa);
    dg_jacobi_p(b, nb, 2.0 * i + 1, 0.0, j, gb);
    dg_jacobi_p(c, nb, 2.0 * (i + j) + 2, 0.0, k, hc);
    for (int q = 0; q < nb; ++q)
      psi[lo + q] = 2.8284271247461900976 /* 2 sqrt2 */ * fa[q] * gb[q] *
                    ipow(1.0 - b[q], i) * hc[q] * ipow(1.0 - c[q], i + j);
  }
}

void dg_grad_basis_tet(int N, int m, const double *r, const double *s, const double *t, int n,
                       double *dr, double *ds, double *dt) {
  int i, j, k;
  if (m < 0 || !basis_index(N, m, &i, &j, &k)) {
    for (int q = 0; q < n; ++q) dr[q] = ds[q] = dt[q] = NAN;
    return;
  }
  /* psi = K f(a) g(b) B^i h(c) C^(i+j) with B = (1-b)/2, C = (1-c)/2, K = 2^(2i+j+1.5).
   * With da/dr = 1/(BC), da/ds = da/dt = (1+a)/(2BC), db/ds = 1/C, db/dt = (1+b)/(2C):
   *   d/dr = K f' g B^(i-1) h C^(i+j-1)
   *   d/ds = (1+a)/2 d/dr + K f [g' B^i - (i/2) g B^(i-1)] h C^(i+j-1)
   *   d/dt = (1+a)/2 d/dr + (1+b)/2 (second term of d/ds)
   *          + K f g B^i [h' C^(i+j) - ((i+j)/2) h C^(i+j-1)]
   * f' = 0 when i = 0 and g' = 0 when i+j = 0 (then j = 0), so the terms with a negative
   * power are exactly the ones that vanish and are skipped. */
  const double K = pow(2.0, 2 * i + j + 1.5);
  for (int lo = 0; lo < n; lo += BASIS_BLOCK) {
    const int nb = n - lo < BASIS_BLOCK ? n - lo : BASIS_BLOCK;
    double a[BASIS_BLOCK], b[BASIS_BLOCK], c[BASIS_BLOCK];
    double fa[BASIS_BLOCK], dfa[BASIS_BLOCK], gb[BASIS_BLOCK], dgb[BASIS_BLOCK];
    double hc[BASIS_BLOCK], dhc[BASIS_BLOCK];
    for (int q = 0; q < nb; ++q) rst_to_abc(r[lo + q], s[lo + q], t[lo + q], &a[q], &b[q], &c[q]);
    dg_jacobi_p(a, nb, 0.0, 0.0, i, fa);
    dg_jacobi_grad_p(a, nb, 0.0, 0.0, i, dfa);
    dg_jacobi_p(b, nb, 2.0 * i + 1, 0.0, j, gb);
    dg_jacobi_grad_p(b, nb, 2.0 * i + 1, 0.0, j, dgb);
    dg_jacobi_p(c, nb, 2.0 * (i + j) + 2, 0.0, k, hc);
    dg_jacobi_grad_p(c, nb, 2.0 * (i + j) + 2, 0.0, k, dhc);
    for (int q = 0; q < nb; ++q) {
      const double B = 0.5 * (1.0 - b[q]), C = 0.5 * (1.0 - c[q]);
      const double Bi = ipow(B, i), Cij = ipow(C, i + j);
      const double Bim1 = i > 0 ? ipow(B, i - 1) : 0.0;
      const double Cijm1 = i + j > 0 ? ipow(C, i + j - 1) : 0.0;

      const double ddr = i > 0 ? dfa[q] * gb[q] * Bim1 * hc[q] * Cijm1 : 0.0;
      double gterm = dgb[q] * Bi;
      if (i > 0) gterm -= 0.5 * i * gb[q] * Bim1;
      const double sterm = i + j > 0 ? fa[q] * gterm * hc[q] * Cijm1 : 0.0;
      double hterm = dhc[q] * Cij;
      if (i + j > 0) hterm -= 0.5 * (i + j) * hc[q] * Cijm1;
      const double tterm = fa[q] * gb[q] * Bi * hterm;

      dr[lo + q] = K * ddr;
      ds[lo + q] = K * (0.5 * (1.0 + a[q]) * ddr + sterm);
      dt[lo + q] = K * (0.5 * (1.0 + a[q]) * ddr + 0.5 * (1.0 + b[q]) * sterm + tterm);
    }
  }
}

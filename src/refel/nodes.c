/* Warp & Blend interpolation nodes on the reference tetrahedron (Warburton 2006;
 * Hesthaven & Warburton sec. 10.1).
 *
 * Start from the equispaced lattice, written in an equilateral tetrahedron (where the face
 * frames below are orthonormal). For each face, a 2D warp moves the nodes so that every
 * edge carries the 1D Gauss-Lobatto points; it is blended into the volume with a factor
 * that is 1 on the face and 0 on the opposite vertex, and the optimised blend parameter
 * alpha pulls nodes towards the faces. */
#include <math.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "refel/refel.h"

/* Blend parameters minimising the Lebesgue constant, N = 1..15 (see docs/METHOD.md). */
static const double k_alpha_opt[DG_MAX_ORDER] = {
    0.0,    0.0,    0.0,    0.1002, 1.1332, 1.5608, 1.3413, 1.2577,
    1.1603, 1.10153, 0.6080, 0.4523, 0.8856, 0.8717, 0.9655};

/* Vertices of the equilateral tetrahedron (edge 2) matching the reference vertices
 * v0..v3 of refel.h, i.e. the barycentric coordinates lambda_0..lambda_3 with
 * lambda_1 = (1+r)/2, lambda_2 = (1+s)/2, lambda_3 = (1+t)/2. */
#define SQ3 1.7320508075688772935
#define SQ6 2.4494897427831780982
static const double k_vert[4][3] = {
    {-1.0, -1.0 / SQ3, -1.0 / SQ6},
    {1.0, -1.0 / SQ3, -1.0 / SQ6},
    {0.0, 2.0 / SQ3, -1.0 / SQ6},
    {0.0, 0.0, 3.0 / SQ6},
};

/* For face f: the barycentric index that vanishes on it, then the face's vertices in the
 * roles (top, left, right) of the 2D triangle used by face_shift(). The construction is
 * symmetric, so any assignment gives the same nodes; this one follows the book. */
static const int k_face_roles[DG_NFACES][4] = {
    {3, 2, 0, 1}, /* face 0, t = -1 */
    {2, 3, 0, 1}, /* face 1, s = -1 */
    {0, 3, 1, 2}, /* face 2, r+s+t = -1 */
    {1, 3, 0, 2}, /* face 3, r = -1 */
};

/* w(x) / (1 - x^2), where w interpolates, at the equispaced points eq, the displacement
 * gl - eq to the Gauss-Lobatto points. w vanishes at +-1, so the division is done
 * analytically by leaving the end-point factors out of the Lagrange products; this keeps
 * it finite where the blend 4 l2 l3 = 1 - x^2 on an edge cancels it. */
static double warp_factor(int N, const double *gl, const double *eq, double x) {
  double sum = 0.0;
  for (int i = 1; i < N; ++i) {
    double d = (gl[i] - eq[i]) / (1.0 - eq[i] * eq[i]);
    for (int j = 1; j < N; ++j)
      if (j != i) d *= (x - eq[j]) / (eq[i] - eq[j]);
    sum += d;
  }
  return sum;
}

/* 2D warp of a point with barycentric coordinates (l1, l2, l3) in the equilateral
 * triangle with l1's vertex at (0, 2/sqrt3), l2's at (-1, -1/sqrt3), l3's at (1, -1/sqrt3).
 * Each edge warp acts along its edge, is blended by the product of the edge's two
 * barycentrics, and is amplified towards the opposite vertex by (1 + (alpha l)^2). */
static void face_shift(int N, double alpha, const double *gl, const double *eq, double l1,
                       double l2, double l3, double *dx, double *dy) {
  const double a1 = alpha * l1, a2 = alpha * l2, a3 = alpha * l3;
  const double w1 = 4 * l2 * l3 * warp_factor(N, gl, eq, l3 - l2) * (1 + a1 * a1);
  const double w2 = 4 * l1 * l3 * warp_factor(N, gl, eq, l1 - l3) * (1 + a2 * a2);
  const double w3 = 4 * l1 * l2 * warp_factor(N, gl, eq, l2 - l1) * (1 + a3 * a3);
  /* edge directions: l2->l3 at angle 0, l3->l1 at 2pi/3, l1->l2 at 4pi/3 */
  *dx = w1 - 0.5 * w2 - 0.5 * w3;
  *dy = 0.5 * SQ3 * (w2 - w3);
}

static void normalize3(double v[3]) {
  const double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int d = 0; d < 3; ++d) v[d] /= n;
}

dg_status dg_nodes_tet(int N, double *r, double *s, double *t) {
  DG_CHECK(N >= 0, DG_ERR_INPUT, "node order must be >= 0, got %d", N);
  if (N == 0) { /* one node: the centroid */
    r[0] = s[0] = t[0] = -0.5;
    return DG_OK;
  }
  const double alpha = N <= DG_MAX_ORDER ? k_alpha_opt[N - 1] : 1.0;
  const double tol = 1e-10;
  dg_status st = DG_OK;
  double *gl = NULL, *eq = NULL;
  DG_CALL_GOTO(done, DG_ALLOC(gl, N + 1));
  DG_CALL_GOTO(done, DG_ALLOC(eq, N + 1));
  DG_CALL_GOTO(done, dg_jacobi_gl(0.0, 0.0, N, gl));
  for (int i = 0; i <= N; ++i) eq[i] = -1.0 + 2.0 * i / N;

  /* Orthonormal tangent frame of each face: t1 from the left to the right vertex, t2 from
   * that edge's midpoint to the top vertex, matching face_shift()'s 2D triangle. */
  double t1[DG_NFACES][3], t2[DG_NFACES][3];
  for (int f = 0; f < DG_NFACES; ++f) {
    const double *top = k_vert[k_face_roles[f][1]], *left = k_vert[k_face_roles[f][2]],
                 *right = k_vert[k_face_roles[f][3]];
    for (int d = 0; d < 3; ++d) {
      t1[f][d] = right[d] - left[d];
      t2[f][d] = top[d] - 0.5 * (left[d] + right[d]);
    }
    normalize3(t1[f]);
    normalize3(t2[f]);
  }

  /* x = v0 + A (r+1, s+1, t+1) with A's columns (v_k - v0)/2, k = 1..3. A is upper
   * triangular because v1 - v0 lies on the x axis and v2 - v0 in the xy plane. */
  double A[3][3];
  for (int d = 0; d < 3; ++d)
    for (int k = 0; k < 3; ++k) A[d][k] = 0.5 * (k_vert[k + 1][d] - k_vert[0][d]);

  int n = 0;
  for (int k = 0; k <= N; ++k)
    for (int j = 0; j <= N - k; ++j)
      for (int i = 0; i <= N - j - k; ++i, ++n) {
        /* integer barycentrics decide exactly which faces a lattice node lies on */
        const int ib[4] = {N - i - j - k, i, j, k};
        double L[4];
        for (int v = 0; v < 4; ++v) L[v] = (double)ib[v] / N;

        double shift[3] = {0.0, 0.0, 0.0};
        for (int f = 0; f < DG_NFACES; ++f) {
          const int *ro = k_face_roles[f];
          const double La = L[ro[0]], Lb = L[ro[1]], Lc = L[ro[2]], Ld = L[ro[3]];
          double dx, dy;
          face_shift(N, alpha, gl, eq, Lb, Lc, Ld, &dx, &dy);
          double blend = Lb * Lc * Ld;
          /* blend/denom is 1 on the face and decays into the volume */
          const double denom = (Lb + 0.5 * La) * (Lc + 0.5 * La) * (Ld + 0.5 * La);
          if (denom > tol) blend = (1 + (alpha * La) * (alpha * La)) * blend / denom;
          double fs[3];
          for (int d = 0; d < 3; ++d) fs[d] = dx * t1[f][d] + dy * t2[f][d];
          if (ib[ro[0]] == 0 && (ib[ro[1]] == 0 || ib[ro[2]] == 0 || ib[ro[3]] == 0)) {
            /* On an edge of this face every volume blend vanishes; the face warp alone
             * places the node (it reduces to the 1D Gauss-Lobatto warp there). */
            for (int d = 0; d < 3; ++d) shift[d] = fs[d];
            break;
          }
          for (int d = 0; d < 3; ++d) shift[d] += blend * fs[d];
        }

        /* back to (r,s,t): solve A d = shift by back substitution */
        const double dt = shift[2] / A[2][2];
        const double ds = (shift[1] - A[1][2] * dt) / A[1][1];
        const double dr = (shift[0] - A[0][1] * ds - A[0][2] * dt) / A[0][0];
        r[n] = eq[i] + dr;
        s[n] = eq[j] + ds;
        t[n] = eq[k] + dt;
        /* the shift is tangential on faces; drop its rounding so face nodes lie exactly
         * on the coordinate planes */
        if (i == 0) r[n] = -1.0;
        if (j == 0) s[n] = -1.0;
        if (k == 0) t[n] = -1.0;
      }

done:
  free(gl);
  free(eq);
  return st;
}

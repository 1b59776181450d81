/* Point location: which element holds a point, and where in it. */
#include <float.h>
#include <math.h>

#include "mesh/mesh.h"

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

/* On a curved element, x's barycentric coordinates l through its own map
 * (dg_mesh_elem_map), by Newton's method from the straight element's l: 1 if it converged.
 * Reference coordinates are rst = -1 + 2 (l1, l2, l3). */
static int curved_barycentric(const dg_mesh *m, int k, const double x[3], double l[4]) {
  double rst[3] = {-1 + 2 * l[1], -1 + 2 * l[2], -1 + 2 * l[3]};
  for (int it = 0; it < 30; it++) {
    double y[3], d[3][3];
    dg_mesh_elem_map(m, k, rst, y, d);
    const double b[3] = {x[0] - y[0], x[1] - y[1], x[2] - y[2]};
    const double det = d[0][0] * (d[1][1] * d[2][2] - d[1][2] * d[2][1]) -
                       d[0][1] * (d[1][0] * d[2][2] - d[1][2] * d[2][0]) +
                       d[0][2] * (d[1][0] * d[2][1] - d[1][1] * d[2][0]);
    if (!(fabs(det) > 0)) return 0;
    double step = 0;
    double delta[3];
    for (int c = 0; c < 3; c++) { /* Cramer's rule, column c replaced by b */
      double t[3][3];
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) t[i][j] = j == c ? b[i] : d[i][j];
      delta[c] = (t[0][0] * (t[1][1] * t[2][2] - t[1][2] * t[2][1]) -
                  t[0][1] * (t[1][0] * t[2][2] - t[1][2] * t[2][0]) +
                  t[0][2] * (t[1][0] * t[2][1] - t[1][1] * t[2][0])) / det;
      step = fmax(step, fabs(delta[c]));
    }
    for (int c = 0; c < 3; c++) rst[c] += delta[c];
    if (!(fabs(rst[0]) + fabs(rst[1]) + fabs(rst[2]) < 1e3)) return 0; /* diverging */
    if (step < 1e-14) break;
  }
  for (int c = 0; c < 3; c++) l[c + 1] = 0.5 * (1 + rst[c]);
  l[0] = 1 - l[1] - l[2] - l[3];
  return 1;
}

int dg_mesh_locate(const dg_mesh *m, const double x[3], double rst[3]) {
  int best = -1;
  double best_min = -DBL_MAX, best_l[4] = {0};
  for (int k = 0; k < m->K_owned; k++) { /* not in ghost copies of other ranks' elements */
    double l[4];
    barycentric(m, k, x, l);
    /* A curved element bulges out of its straight one by a fraction of its size: near it,
     * where x is inside it follows from its own map. */
    if (m->curved && m->curved[k]) {
      double lmin = fmin(fmin(l[0], l[1]), fmin(l[2], l[3]));
      if (lmin > -0.5 && !curved_barycentric(m, k, x, l)) l[0] = l[1] = l[2] = l[3] = -DBL_MAX;
    }
    double lmin = l[0];
    for (int i = 1; i < 4; i++) lmin = l[i] < lmin ? l[i] : lmin;
    if (lmin > best_min) {
      best_min = lmin;
      best = k;
      for (int i = 0; i < 4; i++) best_l[i] = l[i];
    }
  }
  if (best < 0 || !(best_min >= -DG_MESH_LOCATE_TOL)) return -1;
  /* Clamp the round-off of points on faces back into the element. */
  double sum = 0;
  for (int i = 0; i < 4; i++) sum += best_l[i] = best_l[i] < 0 ? 0 : best_l[i];
  for (int i = 0; i < 3; i++) rst[i] = -1 + 2 * best_l[i + 1] / sum;
  return best;
}

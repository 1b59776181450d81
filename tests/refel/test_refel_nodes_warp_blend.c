/* Warp & Blend nodes: right counts, inside the tet, Nfp on each face, 1D Gauss-Lobatto
 * points on the edges, symmetric under all vertex permutations, vertices at N = 1, and
 * good interpolation (Lebesgue constant well below equispaced; errors falling with N). */
#include "test_util.h"

#include "refel/refel.h"

static int np_of(int N) { return (N + 1) * (N + 2) * (N + 3) / 6; }

typedef struct {
  int N, Np;
  double *r, *s, *t;
} nodeset;

static nodeset make_nodes(int N) {
  nodeset ns = {N, np_of(N), NULL, NULL, NULL};
  ns.r = malloc(sizeof(double) * ns.Np);
  ns.s = malloc(sizeof(double) * ns.Np);
  ns.t = malloc(sizeof(double) * ns.Np);
  assert_true(ns.r && ns.s && ns.t);
  assert_dg_ok(dg_nodes_tet(N, ns.r, ns.s, ns.t));
  return ns;
}

static void free_nodes(nodeset *ns) {
  free(ns->r);
  free(ns->s);
  free(ns->t);
}

/* Signed distances-like values of the 4 face equations (0 on the face, > 0 inside). */
static void face_values(double r, double s, double t, double d[4]) {
  d[0] = 1 + t;
  d[1] = 1 + s;
  d[2] = -(1 + r + s + t);
  d[3] = 1 + r;
}

static void nodes_are_inside_with_nfp_on_each_face(void **state) {
  (void)state;
  for (int N = 1; N <= DG_MAX_ORDER; ++N) {
    nodeset ns = make_nodes(N);
    const int Nfp = (N + 1) * (N + 2) / 2;
    int on_face[4] = {0, 0, 0, 0};
    for (int i = 0; i < ns.Np; ++i) {
      double d[4];
      face_values(ns.r[i], ns.s[i], ns.t[i], d);
      for (int f = 0; f < 4; ++f) {
        assert_true(d[f] > -1e-14);
        if (fabs(d[f]) < 1e-12) on_face[f]++;
        else if (d[f] < 1e-3) /* nothing near a face but off it: Fmask's 1e-7 is safe */
          fail_msg("N = %d: node %d is %.3g from face %d", N, i, d[f], f);
      }
    }
    for (int f = 0; f < 4; ++f) assert_int_equal(on_face[f], Nfp);
    free_nodes(&ns);
  }
}

static void order_one_nodes_are_the_vertices(void **state) {
  (void)state;
  nodeset ns = make_nodes(1);
  const double v[4][3] = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
  for (int k = 0; k < 4; ++k) {
    int found = 0;
    for (int i = 0; i < 4; ++i)
      found += ns.r[i] == v[k][0] && ns.s[i] == v[k][1] && ns.t[i] == v[k][2];
    assert_int_equal(found, 1);
  }
  free_nodes(&ns);
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void edges_carry_gauss_lobatto_points(void **state) {
  (void)state;
  for (int N = 1; N <= DG_MAX_ORDER; ++N) {
    nodeset ns = make_nodes(N);
    double gl[DG_MAX_ORDER + 1], e1[DG_MAX_ORDER + 1], e2[DG_MAX_ORDER + 1];
    assert_dg_ok(dg_jacobi_gl(0, 0, N, gl));
    int n1 = 0, n2 = 0;
    for (int i = 0; i < ns.Np; ++i) {
      if (fabs(1 + ns.s[i]) < 1e-12 && fabs(1 + ns.t[i]) < 1e-12) e1[n1++] = ns.r[i];
      /* edge v2-v3: r = -1, s + t = 0, parametrised by s */
      if (fabs(1 + ns.r[i]) < 1e-12 && fabs(ns.s[i] + ns.t[i]) < 1e-12) e2[n2++] = ns.s[i];
    }
    assert_int_equal(n1, N + 1);
    assert_int_equal(n2, N + 1);
    qsort(e1, N + 1, sizeof(double), cmp_double);
    qsort(e2, N + 1, sizeof(double), cmp_double);
    for (int k = 0; k <= N; ++k) {
      assert_near(e1[k], gl[k], 1e-14);
      assert_near(e2[k], gl[k], 1e-14);
    }
    free_nodes(&ns);
  }
}

/* Permuting the barycentric coordinates (lambda_0 = -(1+r+s+t)/2, lambda_1 = (1+r)/2,
 * lambda_2 = (1+s)/2, lambda_3 = (1+t)/2) maps the node set onto itself. This is what lets
 * neighbouring elements match face nodes whatever their relative orientation. */
static void node_set_is_symmetric_under_vertex_permutations(void **state) {
  (void)state;
  for (int N = 1; N <= DG_MAX_ORDER; ++N) {
    nodeset ns = make_nodes(N);
    int perm[4] = {0, 1, 2, 3};
    for (int p = 0; p < 24; ++p) {
      /* p-th permutation of 0..3 in lexicographic order */
      int avail[4] = {0, 1, 2, 3}, code = p, left = 4;
      for (int k = 0; k < 4; ++k) {
        int f = 1;
        for (int m = 2; m < left; ++m) f *= m;
        const int idx = code / f;
        code %= f;
        perm[k] = avail[idx];
        for (int m = idx; m < left - 1; ++m) avail[m] = avail[m + 1];
        --left;
      }
      for (int i = 0; i < ns.Np; ++i) {
        const double L[4] = {-(1 + ns.r[i] + ns.s[i] + ns.t[i]) / 2, (1 + ns.r[i]) / 2,
                             (1 + ns.s[i]) / 2, (1 + ns.t[i]) / 2};
        const double r = 2 * L[perm[1]] - 1, s = 2 * L[perm[2]] - 1, t = 2 * L[perm[3]] - 1;
        double best = 1e300;
        for (int j = 0; j < ns.Np; ++j)
          best = fmin(best, fabs(r - ns.r[j]) + fabs(s - ns.s[j]) + fabs(t - ns.t[j]));
        if (!(best < 1e-13))
          fail_msg("N = %d: permutation %d maps node %d %.3g away from any node", N, p, i,
                   best);
      }
    }
    free_nodes(&ns);
  }
}

/* Lebesgue constant of a node set, estimated as max sum_i |l_i| over the lattice of order
 * 3N+3 (a lower bound of the true value; enough to compare node sets). */
static double lebesgue_estimate(int N, const double *r, const double *s, const double *t) {
  const int Np = np_of(N), M = 3 * N + 3, ns = np_of(M);
  double *V = malloc(sizeof(double) * Np * Np), *P = malloc(sizeof(double) * ns * Np);
  double *L = malloc(sizeof(double) * ns * Np), *col = malloc(sizeof(double) * ns);
  double *pr = malloc(sizeof(double) * ns), *ps = malloc(sizeof(double) * ns),
         *pt = malloc(sizeof(double) * ns);
  assert_true(V && P && L && col && pr && ps && pt);
  int q = 0;
  for (int k = 0; k <= M; ++k)
    for (int j = 0; j <= M - k; ++j)
      for (int i = 0; i <= M - j - k; ++i, ++q) {
        pr[q] = -1 + 2.0 * i / M;
        ps[q] = -1 + 2.0 * j / M;
        pt[q] = -1 + 2.0 * k / M;
      }
  for (int j = 0; j < Np; ++j) {
    dg_basis_tet(N, j, r, s, t, Np, col);
    for (int i = 0; i < Np; ++i) V[i * Np + j] = col[i];
    dg_basis_tet(N, j, pr, ps, pt, ns, col);
    for (int i = 0; i < ns; ++i) P[i * Np + j] = col[i];
  }
  assert_dg_ok(dg_mat_inverse(Np, V));
  dg_matmul(ns, Np, Np, P, V, L); /* L[q][i] = l_i(sample q) */
  double lam = 0.0;
  for (int i = 0; i < ns; ++i) {
    double sum = 0.0;
    for (int j = 0; j < Np; ++j) sum += fabs(L[i * Np + j]);
    lam = fmax(lam, sum);
  }
  free(V);
  free(P);
  free(L);
  free(col);
  free(pr);
  free(ps);
  free(pt);
  return lam;
}

static void lebesgue_constant_is_small_and_beats_equispaced(void **state) {
  (void)state;
  /* Upper bounds a few percent above what the optimised nodes give with this sampling
   * (1.00 1.96 2.93 3.91 5.07 6.88 9.13 12.25); a wrong warp or blend exceeds them. */
  const double bound[9] = {0, 1.0 + 1e-12, 2.05, 3.05, 4.1, 5.3, 7.2, 9.6, 12.9};
  for (int N = 1; N <= 8; ++N) {
    nodeset ns = make_nodes(N);
    const double lam = lebesgue_estimate(N, ns.r, ns.s, ns.t);
    if (!(lam <= bound[N]))
      fail_msg("N = %d: Lebesgue constant %.4g > %.4g", N, lam, bound[N]);
    for (int k = 0, q = 0; k <= N; ++k) /* equispaced nodes, same numbering */
      for (int j = 0; j <= N - k; ++j)
        for (int i = 0; i <= N - j - k; ++i, ++q) {
          ns.r[q] = -1 + 2.0 * i / N;
          ns.s[q] = -1 + 2.0 * j / N;
          ns.t[q] = -1 + 2.0 * k / N;
        }
    const double lam_eq = lebesgue_estimate(N, ns.r, ns.s, ns.t);
    /* equispaced: 4.67 7.45 12.9 22.4 39.4 for N = 4..8 */
    if (N >= 5 && !(lam < 0.75 * lam_eq))
      fail_msg("N = %d: Lebesgue constant %.4g not well below equispaced %.4g", N, lam, lam_eq);
    free_nodes(&ns);
  }
}

static double smooth(double r, double s, double t) {
  return exp(0.5 * r - 0.3 * s + 0.4 * t) * cos(s * t + r);
}

static void interpolation_error_falls_with_n(void **state) {
  (void)state;
  int nq;
  double *qr, *qs, *qt, *qw;
  assert_dg_ok(dg_cubature_tet(24, &nq, &qr, &qs, &qt, &qw));
  double prev = 1e300;
  for (int N = 1; N <= 10; ++N) {
    dg_refel *re = NULL;
    assert_dg_ok(dg_refel_create(&re, N));
    const int Np = re->Np;
    double *f = malloc(sizeof(double) * Np), *mod = malloc(sizeof(double) * Np),
           *ui = calloc((size_t)nq, sizeof(double)), *psi = malloc(sizeof(double) * nq);
    assert_true(f && mod && ui && psi);
    for (int i = 0; i < Np; ++i) f[i] = smooth(re->r[i], re->s[i], re->t[i]);
    dg_matmul(Np, 1, Np, re->Vinv, f, mod); /* modal coefficients */
    for (int j = 0; j < Np; ++j) {
      dg_basis_tet(N, j, qr, qs, qt, nq, psi);
      for (int q = 0; q < nq; ++q) ui[q] += mod[j] * psi[q];
    }
    double err = 0.0;
    for (int q = 0; q < nq; ++q) {
      const double e = ui[q] - smooth(qr[q], qs[q], qt[q]);
      err += qw[q] * e * e;
    }
    err = sqrt(err);
    if (!(err < 0.5 * prev))
      fail_msg("N = %d: L2 interpolation error %.3g, N-1 gave %.3g", N, err, prev);
    prev = err;
    free(f);
    free(mod);
    free(ui);
    free(psi);
    dg_refel_destroy(&re);
  }
  assert_true(prev < 1e-5); /* measured 1.2e-6 at N = 10, shrinking ~5x per order */
  free(qr);
  free(qs);
  free(qt);
  free(qw);
}

static void negative_order_is_rejected(void **state) {
  (void)state;
  double r[1], s[1], t[1];
  assert_dg_error(dg_nodes_tet(-1, r, s, t), DG_ERR_INPUT, "order");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(nodes_are_inside_with_nfp_on_each_face),
      cmocka_unit_test(order_one_nodes_are_the_vertices),
      cmocka_unit_test(edges_carry_gauss_lobatto_points),
      cmocka_unit_test(node_set_is_symmetric_under_vertex_permutations),
      cmocka_unit_test(lebesgue_constant_is_small_and_beats_equispaced),
      cmocka_unit_test(interpolation_error_falls_with_n),
      cmocka_unit_test(negative_order_is_rejected),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

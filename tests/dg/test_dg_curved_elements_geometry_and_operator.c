/* Curved elements on the reference backend: their quadrature closes every element (int n dS
 * = 0, int x.n dS = 3 V) and measures the cylinder far better than straight sides; the
 * right-hand side is the exact curl of fields their map represents; taking affine elements
 * through the curved path changes nothing; the discrete energy identity holds (central flux
 * conserves, upwind dissipates); affine elements keep their data bit for bit; points are
 * located through the curved map; the dipole projection and the DFT surface weights use the
 * element's own mass and area; multirate refuses curved meshes (OpenCL runs them:
 * test_cl_curved_variants_match_reference). */
#include "test_util.h"
#include "test_curved_util.h"

#include "backend/cl_maxwell.h"
#include "core/alloc.h"
#include "dg/dft.h"
#include "dg/geom.h"
#include "dg/maxwell.h"
#include "dg/multirate.h"
#include "dg/source.h"

#define CYLINDER FIXTURE("cylinder_o2_h0.8.msh") /* radius 1, height 0.5 */

typedef struct {
  dg_mesh *m;
  dg_refel *ref;
  dg_geom *g;
  dg_maxwell *p;
} setup;

static void make(setup *s, const char *path, int N, int curved) {
  memset(s, 0, sizeof *s);
  assert_dg_ok(dg_mesh_read(&s->m, path));
  if (!curved) assert_dg_ok(dg_mesh_set_ho_nodes(s->m, 0, NULL));
  assert_dg_ok(dg_refel_create(&s->ref, N));
  assert_dg_ok(dg_geom_create(&s->g, s->m, s->ref));
  assert_dg_ok(dg_maxwell_create(&s->p, s->g));
}

static void unmake(setup *s) {
  dg_maxwell_destroy(&s->p);
  dg_geom_destroy(&s->g);
  dg_refel_destroy(&s->ref);
  dg_mesh_destroy(&s->m);
}


static void quadrature_closes_elements_and_measures_the_cylinder(void **state) {
  (void)state;
  const double vol_exact = M_PI * 0.5, area_exact = 2 * M_PI * 0.5 + 2 * M_PI;
  double vol_err[2], area_err[2];
  for (int curved = 0; curved <= 1; ++curved) {
    setup s;
    make(&s, CYLINDER, 2, curved);
    const dg_geom *g = s.g;
    const dg_geom_curved *cv = &g->cv;
    double vol = 0, area = 0;
    for (int k = 0; k < g->K; ++k) {
      vol += curved_test_volume(g, k);
      const int c = dg_geom_curved_row(g, k);
      if (c < 0) {
        for (int f = 0; f < 4; ++f)
          if (g->mesh->EToE[4 * k + f] == k) area += 2 * g->sJ[4 * k + f];
        continue;
      }
      double n[3] = {0, 0, 0}, xn = 0;
      for (int f = 0; f < 4; ++f)
        for (int p = 0; p < cv->nfq; ++p) {
          const double *F = cv->Fq + (((size_t)c * 4 + f) * cv->nfq + p) * 4;
          /* the point itself, from the face rule's basis at the face nodes' coordinates */
          double x[3] = {0, 0, 0};
          for (int j = 0; j < g->Nfp; ++j) {
            const double l = cv->Lf[((size_t)f * cv->nfq + p) * g->Nfp + j];
            const int id = k * g->Np + g->ref->Fmask[f * g->Nfp + j];
            x[0] += l * g->x[id], x[1] += l * g->y[id], x[2] += l * g->z[id];
          }
          for (int d = 0; d < 3; ++d) n[d] += F[3] * F[d];
          xn += F[3] * (x[0] * F[0] + x[1] * F[1] + x[2] * F[2]);
          if (g->mesh->EToE[4 * k + f] == k) area += F[3];
        }
      const double V = curved_test_volume(g, k), L = cbrt(V);
      for (int d = 0; d < 3; ++d) assert_near(n[d] / (L * L), 0, 1e-13);
      assert_near(xn / (3 * V), 1, 1e-12);
    }
    vol_err[curved] = fabs(vol - vol_exact) / vol_exact;
    area_err[curved] = fabs(area - area_exact) / area_exact;
    printf("# %s: volume %.10f (error %.2e), boundary area %.10f (error %.2e)\n",
           curved ? "curved  " : "straight", vol, vol_err[curved], area, area_err[curved]);
    unmake(&s);
  }
  assert_true(vol_err[1] < vol_err[0] / 100);
  assert_true(area_err[1] < area_err[0] / 100);
}

/* Fields their map represents: linear in x at N = 2, quadratic at N = 4 (a quadratic map
 * makes a degree-d field degree 2d in r, s, t). */
typedef struct {
  int quad;
} field_ctx;

static void field(void *ctx, double x, double y, double z, double t, double e[3], double h[3]) {
  (void)t;
  if (((field_ctx *)ctx)->quad) {
    e[0] = y * y + 0.3, e[1] = z * x, e[2] = x * x - y * z;
    h[0] = x * z, h[1] = y * y - 0.5, h[2] = z * z + x * y;
  } else {
    e[0] = 2 * y - z, e[1] = x + 3 * z, e[2] = 0.5 * x - y + 1;
    h[0] = z - 0.5 * y, h[1] = 4 * x + 0.25, h[2] = y - 2 * x;
  }
}

static void curls(int quad, double x, double y, double z, double cE[3], double cH[3]) {
  if (quad) { /* curl (y^2+.3, zx, x^2-yz), curl (xz, y^2-.5, z^2+xy) */
    cE[0] = -z - x, cE[1] = 0 - 2 * x, cE[2] = z - 2 * y;
    cH[0] = x - 0, cH[1] = x - y, cH[2] = 0 - 0;
  } else { /* curl (2y-z, x+3z, .5x-y+1), curl (z-.5y, 4x+.25, y-2x) */
    cE[0] = -1 - 3, cE[1] = -1 - 0.5, cE[2] = 1 - 2;
    cH[0] = 1 - 0, cH[1] = 1 + 2, cH[2] = 4 + 0.5;
  }
}

static void rhs_is_the_exact_curl_on_curved_elements(void **state) {
  (void)state;
  for (int quad = 0; quad <= 1; ++quad) {
    setup s;
    make(&s, CYLINDER, quad ? 4 : 2, 1);
    field_ctx fc = {quad};
    /* absorbing walls whose exterior state is the field itself: no jump anywhere */
    s.p->incident = field;
    s.p->incident_ctx = &fc;
    for (int i = 0; i < 4 * s.m->K; ++i)
      if (s.p->bc[i] != DG_BC_NONE) s.p->bc[i] = DG_BC_ABC;
    const size_t KNp = (size_t)s.m->K * s.g->Np, n = 6 * KNp;
    double *q = calloc(n, sizeof *q), *rhs = calloc(n, sizeof *rhs);
    assert_non_null(q);
    assert_non_null(rhs);
    dg_maxwell_interpolate(s.g, field, &fc, 0.0, q);
    for (int alpha = 0; alpha <= 1; ++alpha) {
      s.p->alpha = alpha;
      dg_maxwell_rhs(s.p, 0.0, q, NULL, rhs);
      double worst = 0;
      for (size_t id = 0; id < KNp; ++id) {
        double cE[3], cH[3];
        curls(quad, s.g->x[id], s.g->y[id], s.g->z[id], cE, cH);
        for (int c = 0; c < 3; ++c) {
          worst = fmax(worst, fabs(rhs[c * KNp + id] - cH[c]));
          worst = fmax(worst, fabs(rhs[(3 + c) * KNp + id] + cE[c]));
        }
      }
      printf("# N=%d %s field, alpha %d: largest |rhs - curl| %.2e\n", s.ref->N,
             quad ? "quadratic" : "linear", alpha, worst);
      assert_true(worst < 1e-10);
    }
    free(q);
    free(rhs);
    unmake(&s);
  }
}

/* A box's affine elements declared curved (their edge nodes the midpoints) take the curved
 * path: the same right-hand side as the affine path, to rounding. */
static void affine_elements_through_the_curved_path_agree(void **state) {
  (void)state;
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 0.7, 0.9};
  for (int N = 1; N <= 3; ++N) {
    setup a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    assert_dg_ok(dg_mesh_box(&a.m, lo, hi, 2, 2, 2));
    assert_dg_ok(dg_mesh_box(&b.m, lo, hi, 2, 2, 2));
    const int K = b.m->K;
    b.m->n_curved = K;
    b.m->geom_order = 2;
    assert_dg_ok(DG_ALLOC(b.m->curved, K));
    assert_dg_ok(DG_ALLOC(b.m->ho_xyz, 18 * (size_t)K));
    for (int k = 0; k < K; ++k) {
      b.m->curved[k] = 1;
      for (int e = 0; e < 6; ++e) {
        const int va = b.m->EToV[4 * k + dg_edge_vertices[e][0]],
                  vb = b.m->EToV[4 * k + dg_edge_vertices[e][1]];
        double *x = b.m->ho_xyz + 18 * (size_t)k + 3 * e;
        x[0] = 0.5 * (b.m->VX[va] + b.m->VX[vb]);
        x[1] = 0.5 * (b.m->VY[va] + b.m->VY[vb]);
        x[2] = 0.5 * (b.m->VZ[va] + b.m->VZ[vb]);
      }
    }
    setup *both[2] = {&a, &b};
    for (int i = 0; i < 2; ++i) {
      assert_dg_ok(dg_refel_create(&both[i]->ref, N));
      assert_dg_ok(dg_geom_create(&both[i]->g, both[i]->m, both[i]->ref));
      assert_dg_ok(dg_maxwell_create(&both[i]->p, both[i]->g));
      for (int k = 0; k < K; ++k) both[i]->p->eps[k] = 1 + (k % 3), both[i]->p->mu[k] = 1 + (k % 2);
    }
    assert_int_equal(b.g->n_curved, K);
    const size_t n = 6 * (size_t)K * a.ref->Np;
    double *q = calloc(n, sizeof *q), *ra = calloc(n, sizeof *ra), *rb = calloc(n, sizeof *rb);
    assert_non_null(q);
    assert_non_null(ra);
    assert_non_null(rb);
    srand(38);
    for (size_t i = 0; i < n; ++i) q[i] = rand() / (double)RAND_MAX - 0.5;
    double worst = 0, scale = 0;
    for (int alpha = 0; alpha <= 1; ++alpha) {
      a.p->alpha = b.p->alpha = alpha;
      dg_maxwell_rhs(a.p, 0.0, q, NULL, ra);
      dg_maxwell_rhs(b.p, 0.0, q, NULL, rb);
      for (size_t i = 0; i < n; ++i) worst = fmax(worst, fabs(ra[i] - rb[i])), scale = fmax(scale, fabs(ra[i]));
    }
    printf("# N=%d: affine vs curved path, largest difference %.2e of %.2e\n", N, worst, scale);
    assert_true(worst < 1e-11 * scale);
    assert_near(dg_maxwell_energy(a.p, q) / dg_maxwell_energy(b.p, q), 1, 1e-12);
    free(q);
    free(ra);
    free(rb);
    unmake(&a);
    unmake(&b);
  }
}

/* d/dt of the discrete energy along the right-hand side, exactly by central differences
 * (the energy is quadratic): 0 with the central flux on PEC walls, < 0 with upwinding. */
static void energy_identity_holds(void **state) {
  (void)state;
  setup s;
  make(&s, CYLINDER, 3, 1);
  assert_energy_identity(s.p, s.m->K, s.g->Np, "");
  unmake(&s);
}

/* The affine elements of a mesh with curved ones have exactly the data they have when the
 * mesh is read straight-sided. */
static void affine_elements_keep_their_data_bit_for_bit(void **state) {
  (void)state;
  setup c, st;
  make(&c, CYLINDER, 3, 1);
  make(&st, CYLINDER, 3, 0);
  assert_int_equal(st.g->n_curved, 0);
  assert_null(st.g->curved);
  const dg_geom *a = c.g, *b = st.g;
  int affine = 0;
  for (int k = 0; k < a->K; ++k) {
    if (dg_geom_curved_row(a, k) >= 0) {
      assert_true(isnan(a->J[k]) && isnan(a->Fscale[4 * k])); /* never read */
      continue;
    }
    ++affine;
    const double *pa[10] = {a->rx, a->ry, a->rz, a->sx, a->sy, a->sz, a->tx, a->ty, a->tz, a->J};
    const double *pb[10] = {b->rx, b->ry, b->rz, b->sx, b->sy, b->sz, b->tx, b->ty, b->tz, b->J};
    for (int i = 0; i < 10; ++i) assert_memory_equal(&pa[i][k], &pb[i][k], sizeof(double));
    const double *fa[5] = {a->nx, a->ny, a->nz, a->sJ, a->Fscale};
    const double *fb[5] = {b->nx, b->ny, b->nz, b->sJ, b->Fscale};
    for (int i = 0; i < 5; ++i) assert_memory_equal(&fa[i][4 * k], &fb[i][4 * k], 4 * sizeof(double));
    const size_t o = (size_t)k * a->Np;
    assert_memory_equal(a->x + o, b->x + o, a->Np * sizeof(double));
    assert_memory_equal(a->y + o, b->y + o, a->Np * sizeof(double));
    assert_memory_equal(a->z + o, b->z + o, a->Np * sizeof(double));
    assert_memory_equal(a->vmapM + 4 * o / a->Np * a->Nfp, b->vmapM + 4 * o / a->Np * a->Nfp,
                        4 * a->Nfp * sizeof(int));
  }
  assert_true(affine > 0);
  unmake(&c);
  unmake(&st);
}

/* A point between a wall facet and the arc (outside every straight element) is found in a
 * curved element, and a curved element's nodes are found at their own reference points. */
static void points_located_through_the_curved_map(void **state) {
  (void)state;
  setup s;
  make(&s, CYLINDER, 3, 1);
  int tried = 0;
  for (int k = 0; k < s.m->K && tried < 5; ++k) {
    const int c = dg_geom_curved_row(s.g, k);
    if (c < 0) continue;
    for (int i = 0; i < s.g->Np; ++i) {
      const size_t id = (size_t)k * s.g->Np + i;
      const double x[3] = {s.g->x[id], s.g->y[id], s.g->z[id]};
      if (!(hypot(x[0], x[1]) > 0.999 && x[2] > 0.05 && x[2] < 0.45)) continue;
      double dv = INFINITY; /* not at a vertex, which affine elements may share */
      for (int a = 0; a < 4; ++a) {
        const int v = s.m->EToV[4 * k + a];
        dv = fmin(dv, hypot(hypot(s.m->VX[v] - x[0], s.m->VY[v] - x[1]), s.m->VZ[v] - x[2]));
      }
      if (dv < 1e-3) continue;
      /* a node on the round wall; the point 1e-4 inside it, past the chord */
      const double in[3] = {x[0] * (1 - 1e-4), x[1] * (1 - 1e-4), x[2]};
      double rst[3], y[3];
      const int k2 = dg_mesh_locate(s.m, in, rst);
      assert_true(k2 >= 0);
      assert_true(s.m->curved[k2]);
      dg_mesh_elem_map(s.m, k2, rst, y, NULL);
      for (int d = 0; d < 3; ++d) assert_near(y[d], in[d], 1e-12);
      /* the node itself: its element (or a neighbour sharing it) at its own place */
      const int k3 = dg_mesh_locate(s.m, x, rst);
      assert_true(k3 >= 0);
      dg_mesh_elem_map(s.m, k3, rst, y, NULL);
      for (int d = 0; d < 3; ++d) assert_near(y[d], x[d], 1e-12);
      ++tried;
      break;
    }
  }
  assert_true(tried == 5);
  unmake(&s);
}

/* The dipole projection on a curved element integrates the nodal basis: M_k profile = l(rst);
 * the DFT surface weights on the wall add up to its area (the curved faces' own sJ). */
static void dipole_and_dft_weights_use_the_curved_element(void **state) {
  (void)state;
  setup s;
  make(&s, CYLINDER, 2, 1);
  const int Np = s.g->Np;
  int k = 0;
  while (dg_geom_curved_row(s.g, k) < 0) ++k;
  const int c = dg_geom_curved_row(s.g, k);
  const double rst[3] = {-0.6, -0.5, -0.4};
  double *prof = calloc(Np, sizeof *prof);
  assert_non_null(prof);
  dg_dipole_profile(s.g, k, rst, prof);
  for (int i = 0; i < Np; ++i) {
    double Mp = 0, l = 0;
    for (int j = 0; j < Np; ++j) Mp += s.g->cv.M[((size_t)c * Np + i) * Np + j] * prof[j];
    for (int j = 0; j < Np; ++j) { /* l_i(rst) = sum_j Vinv[j][i] psi_j(rst) */
      double psi;
      dg_basis_tet(s.ref->N, j, &rst[0], &rst[1], &rst[2], 1, &psi);
      l += s.ref->Vinv[j * Np + i] * psi;
    }
    assert_near(Mp, l, 1e-12);
  }
  free(prof);
  /* every boundary face of the cylinder, seen from inside */
  unsigned char *sel = calloc(4 * (size_t)s.m->K, 1);
  assert_non_null(sel);
  for (int i = 0; i < 4 * s.m->K; ++i) sel[i] = s.m->EToE[i] == i / 4;
  dg_dft *d = NULL;
  const double f = 1;
  assert_dg_ok(dg_dft_create(&d, s.g, 1, &f, 1, 0.1));
  assert_dg_ok(dg_dft_add_surface(d, s.g, sel));
  double area = 0, n[3] = {0, 0, 0}, quad_area = 0; /* the latter by geom's face rules */
  for (int k2 = 0; k2 < s.m->K; ++k2)
    for (int f = 0; f < 4; ++f) {
      if (!sel[4 * k2 + f]) continue;
      const int c2 = dg_geom_curved_row(s.g, k2);
      if (c2 < 0) quad_area += 2 * s.g->sJ[4 * k2 + f];
      for (int p = 0; c2 >= 0 && p < s.g->cv.nfq; ++p)
        quad_area += s.g->cv.Fq[(((size_t)c2 * 4 + f) * s.g->cv.nfq + p) * 4 + 3];
    }
  for (int p = 0; p < d->n_surf; ++p) {
    area += d->sw[p];
    for (int a = 0; a < 3; ++a) n[a] += d->sw[p] * d->sn[3 * p + a];
  }
  printf("# DFT surface weights: area %.10f (face rules %.10f, exact %.10f), |sum w n| %.2e\n",
         area, quad_area, 3 * M_PI, hypot(hypot(n[0], n[1]), n[2]));
  assert_near(area, quad_area, 1e-12);
  /* the normals are sampled at the nodes: closed to the interpolation error */
  for (int a = 0; a < 3; ++a) assert_near(n[a], 0, 1e-6);
  dg_dft_destroy(&d);
  free(sel);
  unmake(&s);
}

static void multirate_refuses_curved_meshes(void **state) {
  (void)state;
  setup s;
  make(&s, CYLINDER, 1, 1);
  /* the OpenCL operator takes them on the global step (curved.cl), not grouped */
  assert_dg_ok(dg_cl_maxwell_check_curved(s.g->n_curved, 0));
  assert_dg_ok(dg_cl_maxwell_check_curved(0, 1));
  assert_dg_error(dg_cl_maxwell_check_curved(s.g->n_curved, 1), DG_ERR_UNSUPPORTED,
                  "multirate time stepping does not handle curved elements yet");
  assert_dg_error(dg_cl_maxwell_check_curved(s.g->n_curved, 1), DG_ERR_UNSUPPORTED,
                  "global LSERK4");
  /* OpenCL runs curved elements on the global step: the message must not send a user to
   * the reference backend (it did, from the reference's multirate stepper) */
  assert_dg_error(dg_cl_maxwell_check_curved(s.g->n_curved, 1), DG_ERR_UNSUPPORTED,
                  "both backends step curved elements");
  int *level = calloc(s.m->K, sizeof *level);
  dg_mr_plan plan;
  assert_dg_error(dg_multirate_levels(s.p, DG_MR_AB3, 3, 0, level, &plan), DG_ERR_UNSUPPORTED,
                  "multirate time stepping does not handle curved elements yet");
  assert_null(strstr(dg_error_message(), "on the reference backend"));
  free(level);
  unmake(&s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(quadrature_closes_elements_and_measures_the_cylinder),
      cmocka_unit_test(rhs_is_the_exact_curl_on_curved_elements),
      cmocka_unit_test(affine_elements_through_the_curved_path_agree),
      cmocka_unit_test(energy_identity_holds),
      cmocka_unit_test(affine_elements_keep_their_data_bit_for_bit),
      cmocka_unit_test(points_located_through_the_curved_map),
      cmocka_unit_test(dipole_and_dft_weights_use_the_curved_element),
      cmocka_unit_test(multirate_refuses_curved_meshes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

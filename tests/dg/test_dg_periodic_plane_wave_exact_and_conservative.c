/* Periodic boundaries (issue 53) in the DG operator: on the unit cube made periodic in x, y
 * and z (dg_mesh_make_periodic), the semi-discrete energy rate q^T M rhs vanishes with the
 * central flux (random fields, two materials: periodic pairs conserve energy like interior
 * faces) and is negative with upwind; a plane wave along (1, 1, 0), an exact solution of the
 * periodic cube, is followed to t = 0.5 by LSERK4 with an L2 error that converges at the rate
 * N + 1 under refinement (3^3 to 4^3 cells, N = 3, 4); and every covering variant of the
 * OpenCL operator on the same periodic mesh gives the reference's right-hand side. */
#include "test_util.h"

#include "test_energy_util.h"

#include "backend/cl_maxwell.h"
#include "dg/lserk.h"
#include "dg/maxwell.h"
#include "test_device.h"

typedef struct {
  dg_mesh *m;
  dg_refel *ref;
  dg_geom *g;
  dg_maxwell *p;
  size_t n;
} setup;

static void make(setup *s, int N, int cells) {
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  assert_dg_ok(dg_mesh_box(&s->m, lo, hi, cells, cells, cells));
  for (int d = 0; d < 3; ++d) /* xmin-xmax, ymin-ymax, zmin-zmax */
    assert_dg_ok(dg_mesh_make_periodic(s->m, 2 * d + 1, 2 * d + 2, NULL, NULL));
  assert_dg_ok(dg_refel_create(&s->ref, N));
  assert_dg_ok(dg_geom_create(&s->g, s->m, s->ref));
  assert_dg_ok(dg_maxwell_create(&s->p, s->g));
  s->n = 6 * (size_t)s->m->K * s->ref->Np;
  for (int i = 0; i < 4 * s->m->K; ++i) assert_int_equal(s->p->bc[i], DG_BC_NONE);
}

static void destroy(setup *s) {
  dg_maxwell_destroy(&s->p);
  dg_geom_destroy(&s->g);
  dg_refel_destroy(&s->ref);
  dg_mesh_destroy(&s->m);
}

static void energy_rate_central_zero_upwind_negative(void **state) {
  (void)state;
  for (int N = 1; N <= 3; ++N) {
    setup s = {0};
    make(&s, N, 2);
    for (int k = 0; k < s.m->K; ++k) { /* a dielectric in x > 1/2: material jumps on a pair */
      double cx = 0;
      for (int v = 0; v < 4; ++v) cx += 0.25 * s.m->VX[s.m->EToV[4 * k + v]];
      if (cx > 0.5) s.p->eps[k] = 4.0, s.p->mu[k] = 1.5;
    }
    double *q = malloc(s.n * sizeof *q), *rhs = malloc(s.n * sizeof *rhs);
    srand(77 + N);
    for (size_t i = 0; i < s.n; ++i) q[i] = 2.0 * rand() / RAND_MAX - 1.0;
    double scale;
    s.p->alpha = 0.0;
    dg_maxwell_rhs(s.p, 0.0, q, NULL, rhs);
    const double central = test_energy_rate(s.p, q, rhs, &scale);
    if (!(fabs(central) < 1e-12 * scale))
      fail_msg("N=%d central flux: energy rate %g (scale %g)", N, central, scale);
    s.p->alpha = 1.0;
    dg_maxwell_rhs(s.p, 0.0, q, NULL, rhs);
    const double upwind = test_energy_rate(s.p, q, rhs, &scale);
    if (!(upwind < -1e-6 * scale)) fail_msg("N=%d upwind: energy rate %g not negative", N, upwind);
    free(q);
    free(rhs);
    destroy(&s);
  }
}

/* E = z cos(k.x - w t), H = (k x z)/|k| cos(k.x - w t), k = 2 pi (1, 1, 0), w = |k| */
static void plane_wave(void *ctx, double x, double y, double z, double t, double e[3],
                       double h[3]) {
  (void)ctx, (void)z;
  const double kx = 2 * M_PI, ky = 2 * M_PI, w = sqrt(kx * kx + ky * ky);
  const double c = cos(kx * x + ky * y - w * t);
  e[0] = e[1] = 0, e[2] = c;
  h[0] = ky / w * c, h[1] = -kx / w * c, h[2] = 0;
}

typedef struct {
  dg_maxwell *p;
} rhs_ctx;
static dg_status rhs_fn(void *ctx, double t, const double *q, double *rhs) {
  dg_maxwell_rhs(((rhs_ctx *)ctx)->p, t, q, NULL, rhs);
  return DG_OK;
}

/* The relative L2 error at t = 0.5 of the plane wave on the periodic cube of cells^3. */
static double wave_error(int N, int cells) {
  setup s = {0};
  make(&s, N, cells);
  double *q = calloc(s.n, sizeof *q), *res = calloc(s.n, sizeof *res),
         *rhs = calloc(s.n, sizeof *rhs);
  dg_maxwell_interpolate(s.g, plane_wave, NULL, 0.0, q);
  const double T = 0.5, dt0 = dg_maxwell_dt(s.p, 0.5);
  const int steps = (int)ceil(T / dt0);
  const double dt = T / steps;
  rhs_ctx ctx = {s.p};
  for (int i = 0; i < steps; ++i)
    assert_dg_ok(dg_lserk_step(s.n, q, res, rhs, i * dt, dt, rhs_fn, &ctx));
  double err, norm;
  assert_dg_ok(dg_maxwell_l2_error(s.g, q, plane_wave, NULL, T, &err, &norm));
  print_message("# N=%d, %d^3 cells: relative L2 error %.3e at t = %g (%d steps)\n", N, cells,
                err / norm, T, steps);
  free(q);
  free(res);
  free(rhs);
  destroy(&s);
  return err / norm;
}

/* h-convergence from 3^3 to 4^3 cells at N = 3 and 4: the rate at least N + 1/2 (N + 1
 * expected), which a periodic pair joined to the wrong nodes would not give. */
static void plane_wave_converges(void **state) {
  (void)state;
  for (int N = 3; N <= 4; ++N) {
    const double e3 = wave_error(N, 3), e4 = wave_error(N, 4);
    const double rate = log(e3 / e4) / log(4.0 / 3.0);
    print_message("# N=%d: rate %.2f (expected %d)\n", N, rate, N + 1);
    if (!(rate >= N + 0.5)) fail_msg("N=%d: convergence rate %.2f below %g", N, rate, N + 0.5);
    if (N == 4 && !(e4 < 3e-3)) fail_msg("N=4, 4^3 cells: relative error %.3e", e4);
  }
}

/* Every variant of the covering set on the device (double where it has it) against the
 * reference right-hand side on the periodic cube with a material jump. */
static void opencl_matches_reference(void **state) {
  dg_device *dev = test_device(state, 0);
  const dg_precision prec = dev->info.has_fp64 ? DG_PREC_DOUBLE : DG_PREC_FLOAT;
  setup s = {0};
  make(&s, 2, 2);
  s.p->eps[0] = 2.0; /* a material jump across one periodic face at least */
  double *q = malloc(s.n * sizeof *q), *ref = malloc(s.n * sizeof *ref),
         *got = malloc(s.n * sizeof *got);
  srand(5);
  for (size_t i = 0; i < s.n; ++i) q[i] = 2.0 * rand() / RAND_MAX - 1.0;
  dg_maxwell_rhs(s.p, 0.0, q, NULL, ref);
  int ran = 0;
  for (int c = 0; c < DG_VARIANT_NCOVER; ++c) {
    dg_variant v;
    if (!strcmp(dg_variant_covering[c], "default")) {
      v = dg_variant_default(&dev->info, 2, prec);
    } else {
      assert_dg_ok(dg_variant_parse(dg_variant_covering[c], &v));
      v.precision = prec;
    }
    char why[128], spec[DG_VARIANT_SPEC_MAX];
    if (!dg_variant_check(&v, &dev->info, 2, why, sizeof why)) continue;
    dg_cl_maxwell *op = NULL;
    assert_dg_ok(dg_cl_maxwell_create(&op, dev, s.p, &v, NULL));
    assert_dg_ok(dg_cl_maxwell_rhs(op, 0.0, q, got));
    double d = 0, r = 0;
    for (size_t i = 0; i < s.n; ++i) d += (got[i] - ref[i]) * (got[i] - ref[i]), r += ref[i] * ref[i];
    const double tol = prec == DG_PREC_DOUBLE ? 1e-12 : 1e-5;
    if (!(sqrt(d / r) < tol))
      fail_msg("%s: relative difference %.2e on the periodic cube",
               dg_variant_print(&v, spec, sizeof spec), sqrt(d / r));
    ++ran;
    dg_cl_maxwell_destroy(&op);
  }
  print_message("# %d covering variants match the reference on the periodic cube\n", ran);
  assert_true(ran >= DG_VARIANT_NCOVER / 2);
  free(q);
  free(ref);
  free(got);
  destroy(&s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(energy_rate_central_zero_upwind_negative),
      cmocka_unit_test(plane_wave_converges),
      cmocka_unit_test(opencl_matches_reference),
  };
  return cmocka_run_group_tests(tests, test_device_setup, test_device_teardown);
}

/* Total-field/scattered-field surface, in a column x in [-0.5, 5.5] x [0, 0.25]^2 whose walls
 * y = const are PMC and z = const PEC (the image walls of an x-travelling wave with E along
 * z, so the wave is an exact plane wave), a CFS-PML of 4 cells (0.5) at both ends backed by
 * PEC, and the TF/SF planes x = 1 and x = 4 (the box mesher's interior surface; the walls
 * close it). A Gaussian pulse (f0 = 2, delay 0.6, amplitude 1) enters through the surface:
 * - nothing inside: the scattered regions (probes x = 0.5 and 4.5) hold <= 1e-3 of the
 *   incident amplitude over the whole run, while the total region (x = 2.5) sees it whole;
 * - a dielectric slab eps_r = 4 for x in [2, 3]: the pulse reflected by its front face,
 *   seen in the scattered region (x = 0.5), and the one transmitted into it (x = 2.5) match
 *   the Fresnel coefficients r = -1/3 and t = 2/3 to the tolerance of the Fresnel test of
 *   test_phys_plane_wave_and_fresnel.c, 0.1 * 4^-(N-2), falling with N (the back face's
 *   echo arrives after the window; N = 2, 3, and 4 under DGTD_TEST_ALL);
 * - both backends agree: the slab problem (N = 2, to t = 3.8: the pulse has crossed the
 *   surface and entered the slab) stepped by the reference and by the device's default
 *   variant, probe records within 1e-9 (double) and 1e-4 (float) of their peak.
 * The first two run on the device in double when there is one (else the reference). */
#include "test_device.h"

#include "backend/cl_maxwell.h"
#include "core/alloc.h"
#include "dg/pml.h"
#include "dg/stepper.h"
#include "io/probe.h"
#include "mesh/mesh.h"
#include "refel/refel.h"

enum { NPROBES = 3, NPML = 4, NCELLS = 48 };
static const double probe_xyz[3 * NPROBES] = {0.5, 0.125, 0.125, 2.5, 0.125, 0.125,
                                              4.5, 0.125, 0.125};

typedef struct {
  dg_mesh *m;
  dg_refel *r;
  dg_geom *g;
  dg_maxwell *p;
  dg_probes *probes;
  dg_plane_wave pw;
  double dt;
  int steps;
} column;

static double centroid_x(const dg_mesh *m, int k) {
  double cx = 0;
  for (int v = 0; v < 4; ++v) cx += 0.25 * m->VX[m->EToV[4 * k + v]];
  return cx;
}

static void column_create(column *c, int N, int slab, double T) {
  memset(c, 0, sizeof *c);
  const double lo[3] = {-0.5, 0, 0}, hi[3] = {5.5, 0.25, 0.25};
  /* TF/SF planes at cells 12 (x = 1) and 36 (x = 4); y and z span the column. */
  const int tlo[3] = {12, 0, 0}, thi[3] = {36, 1, 1};
  assert_dg_ok(dg_mesh_box_tfsf(&c->m, lo, hi, NCELLS, 1, 1, 0, tlo, thi));
  assert_dg_ok(dg_refel_create(&c->r, N));
  assert_dg_ok(dg_geom_create(&c->g, c->m, c->r));
  assert_dg_ok(dg_maxwell_create(&c->p, c->g));
  const dg_mesh *m = c->m;
  unsigned char *in_pml = NULL;
  signed char *side = NULL, *sign = NULL;
  assert_dg_ok(DG_ALLOC(in_pml, m->K));
  assert_dg_ok(DG_ALLOC(side, m->K));
  assert_dg_ok(DG_ALLOC(sign, 4 * m->K));
  for (int k = 0; k < m->K; ++k) {
    const double cx = centroid_x(m, k);
    in_pml[k] = cx < 0 || cx > 5;
    if (slab && cx > 2 && cx < 3) c->p->eps[k] = 4.0;
    for (int f = 0; f < 4; ++f) {
      const int t = m->face_tag[4 * k + f];
      if (t >= 1) c->p->bc[4 * k + f] = t == 3 || t == 4 ? DG_BC_PMC : DG_BC_PEC;
    }
  }
  const double ilo[3] = {0, 0, 0}, ihi[3] = {5, 0.25, 0.25};
  dg_pml_params par;
  dg_pml_params_default(&par);
  assert_dg_ok(dg_maxwell_set_pml(c->p, in_pml, &par, ilo, ihi, lo, hi));
  /* The outside is what reaches the PML. */
  assert_dg_ok(dg_mesh_surface_sides(m, DG_MESH_BOX_TFSF_TAG, in_pml, side));
  int n_in = 0, n_faces = 0;
  for (int k = 0; k < m->K; ++k) {
    const double cx = centroid_x(m, k);
    assert_int_equal(side[k], cx > 1 && cx < 4 ? 1 : -1);
    n_in += side[k] > 0;
    for (int f = 0; f < 4; ++f)
      if (m->iface_tag[4 * k + f] == DG_MESH_BOX_TFSF_TAG) sign[4 * k + f] = side[k], ++n_faces;
  }
  assert_int_equal(n_in, 6 * 24);
  assert_int_equal(n_faces, 2 * 2 * 2); /* two planes, two triangles, both sides */
  const dg_plane_wave pw = {{1, 0, 0}, {0, 0, 1}, {0, 0, 0}, {DG_PULSE_GAUSSIAN, 2.0, 0.6, 1.0, 0, 0}, 0};
  c->pw = pw;
  assert_dg_ok(dg_plane_wave_init(&c->pw));
  dg_maxwell_set_plane_wave(c->p, &c->pw);
  assert_dg_ok(dg_maxwell_set_tfsf(c->p, sign));
  assert_dg_ok(dg_probes_create(&c->probes, c->g, NPROBES, probe_xyz));
  const double dt0 = dg_maxwell_dt(c->p, 1.0);
  c->steps = (int)ceil(T / dt0);
  c->dt = T / c->steps;
  dg_free(&in_pml);
  dg_free(&side);
  dg_free(&sign);
}

static void column_destroy(column *c) {
  dg_probes_destroy(&c->probes);
  dg_maxwell_destroy(&c->p);
  dg_geom_destroy(&c->g);
  dg_refel_destroy(&c->r);
  dg_mesh_destroy(&c->m);
}

/* Ez at the probes after every step: rec[i * NPROBES + p]. dev NULL: the reference. */
static void column_run(column *c, dg_device *dev, dg_precision prec, double *rec) {
  dg_stepper *st = NULL;
  if (!dev) {
    assert_dg_ok(dg_stepper_ref_create(&st, c->p, NULL));
  } else {
    const dg_variant v = dg_variant_default(&dev->info, c->g->N, prec);
    dg_cl_maxwell *op = NULL;
    assert_dg_ok(dg_cl_maxwell_create(&op, dev, c->p, &v, NULL));
    assert_dg_ok(dg_stepper_cl_create(&st, op));
  }
  const size_t n = 6 * (size_t)c->g->K * c->g->Np;
  double *q = NULL, vals[6 * NPROBES];
  assert_dg_ok(DG_ALLOC(q, n));
  assert_dg_ok(dg_stepper_put_state(st, q));
  for (int i = 0; i < c->steps; ++i) {
    assert_dg_ok(dg_stepper_step(st, i * c->dt, c->dt));
    assert_dg_ok(dg_stepper_get_state(st, q));
    dg_probes_eval(c->probes, q, vals);
    for (int p = 0; p < NPROBES; ++p) rec[(size_t)i * NPROBES + p] = vals[6 * p + 2];
  }
  dg_free(&q);
  dg_stepper_destroy(&st);
}

/* The long runs go on the device in double when it has one (backends_agree shows it gives
 * the reference's numbers to 1e-15), else on the reference. */
static dg_device *fast_device(void **state) {
  dg_device *dev = *state;
  return dev && dev->info.has_fp64 ? dev : NULL;
}

static void empty_total_region_leaks_under_1e3(void **state) {
  dg_device *dev = fast_device(state);
  column c;
  /* The pulse's peak crosses x = 4.5 at t = 5.1; by t = 6 it has left the column's inside. */
  column_create(&c, 3, 0, 6.0);
  double *rec = NULL;
  assert_dg_ok(DG_ALLOC(rec, (size_t)c.steps * NPROBES));
  column_run(&c, dev, DG_PREC_DOUBLE, rec);
  double leak = 0, total = 0;
  for (int i = 0; i < c.steps; ++i) {
    leak = fmax(leak, fmax(fabs(rec[i * NPROBES]), fabs(rec[i * NPROBES + 2])));
    total = fmax(total, fabs(rec[i * NPROBES + 1]));
  }
  printf("# TF/SF, nothing inside (N=3, h=1/8): scattered region max |Ez| = %.2e of the "
         "incident amplitude; total region peak %.5f\n", leak, total);
  assert_true(fabs(total - 1) <= 1e-2); /* the incident pulse, whole, inside */
  assert_true(leak <= 1e-3);
  dg_free(&rec);
  column_destroy(&c);
}

static void slab_reflection_matches_fresnel(void **state) {
  dg_device *dev = fast_device(state);
  const double r = -1.0 / 3.0, t = 2.0 / 3.0;
  double prev = INFINITY;
  for (int N = 2; N <= (getenv("DGTD_TEST_ALL") ? 4 : 3); ++N) {
    column c;
    column_create(&c, N, 1, 5.0);
    double *rec = NULL;
    assert_dg_ok(DG_ALLOC(rec, (size_t)c.steps * NPROBES));
    column_run(&c, dev, DG_PREC_DOUBLE, rec);
    /* x = 0.5 sees the front face's echo at t = 4.1 (and nothing before but leakage);
     * x = 2.5 the transmitted pulse at t = 3.6 (its echo from x = 3 comes at 5.6). */
    double refl = 0, trans = 0;
    for (int i = 0; i < c.steps; ++i) {
      const double a = rec[i * NPROBES], b = rec[i * NPROBES + 1];
      if (fabs(a) > fabs(refl)) refl = a;
      if (fabs(b) > fabs(trans)) trans = b;
    }
    const double e = fmax(fabs(refl - r), fabs(trans - t));
    printf("# TF/SF slab N=%d: r = %.5f (exact %.5f), t = %.5f (exact %.5f), max error %.2e\n",
           N, refl, r, trans, t, e);
    const double tol = 0.1 * pow(0.25, N - 2);
    if (!(e <= tol)) fail_msg("N=%d: Fresnel error %.3e above %.3e", N, e, tol);
    if (!(e < prev)) fail_msg("N=%d: error %.3e did not fall from %.3e", N, e, prev);
    prev = e;
    dg_free(&rec);
    column_destroy(&c);
  }
}

static void backends_agree(void **state) {
  dg_device *dev = test_device(state, 0);
  column c;
  column_create(&c, 2, 1, 3.8);
  const size_t nrec = (size_t)c.steps * NPROBES;
  double *ref = NULL, *got = NULL;
  assert_dg_ok(DG_ALLOC(ref, nrec));
  assert_dg_ok(DG_ALLOC(got, nrec));
  column_run(&c, NULL, DG_PREC_DOUBLE, ref);
  double peak = 0;
  for (size_t i = 0; i < nrec; ++i) peak = fmax(peak, fabs(ref[i]));
  assert_true(peak > 0.5);
  for (int p = 0; p < 2; ++p) {
    const dg_precision prec = p ? DG_PREC_DOUBLE : DG_PREC_FLOAT;
    if (prec == DG_PREC_DOUBLE && !dev->info.has_fp64) continue;
    column_run(&c, dev, prec, got);
    double d = 0;
    for (size_t i = 0; i < nrec; ++i) d = fmax(d, fabs(got[i] - ref[i]));
    d /= peak;
    printf("# TF/SF slab, %d steps, %s vs reference: %.2e\n", c.steps, dg_precision_name(prec), d);
    assert_true(d <= (p ? 1e-9 : 1e-4));
  }
  dg_free(&ref);
  dg_free(&got);
  column_destroy(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(empty_total_region_leaks_under_1e3),
      cmocka_unit_test(slab_reflection_matches_fresnel),
      cmocka_unit_test(backends_agree),
  };
  return cmocka_run_group_tests(tests, test_device_setup, test_device_teardown);
}

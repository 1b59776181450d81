/* DFT monitors on the device (backend/cl_dft.c, cl_templates/dft.cl) against the reference
 * sums (dg/dft.c), and the reference's own geometry:
 * - surface weights: the faces enclosing the elements with centroid x < 1/2 of the unit box
 *   (the plane x = 1/2, area 1) get weights summing to 1, with normals +x (out of the set)
 *   and points on x = 1/2; a named interior surface (the box mesher's TF/SF box) gets its
 *   area, outward normals and samples on its outside elements;
 * - the same sequence of 12 random states (rounded to the state's precision) summed by the
 *   reference and by the device for 3 probes, half the volume and that surface at 5
 *   frequencies (two launches of 4): equal to 1e-12 relative to the largest sum with double
 *   sums, 1e-5 with compensated float sums (float state: terms rounded to float);
 * - a long float sum: a constant state summed over 20000 steps at f = 0 must give
 *   20000 dt x to 1e-6 relative with compensated float sums (a plain float sum of the same
 *   terms, computed here, is off by more than 1e-5);
 * - the same comparison under Oclgrind (--data-races --uninitialized --check-api), float
 *   and double sums, with no message (skipped without oclgrind). */
#include "oclgrind_util.h"
#include "test_device.h"

#include <unistd.h>

#include "backend/cl_dft.h"
#include "backend/verify.h"
#include "core/alloc.h"
#include "dg/dft.h"
#include "io/probe.h"

enum { NFREQ = 5, NSTEPS = 12 };
static const double freqs[NFREQ] = {0.0, 0.7, 1.3, 2.1, 17.9};

typedef struct {
  dg_verify_case *c;
  dg_probes *probes;
  unsigned char *in_set, *sel;
} problem;

static void problem_create(problem *p, int N) {
  memset(p, 0, sizeof *p);
  assert_dg_ok(dg_verify_case_create(&p->c, N, 2));
  const dg_geom *g = p->c->geom;
  const double pts[9] = {0.3, 0.4, 0.5, 0.71, 0.2, 0.9, 0.5, 0.5, 0.5};
  assert_dg_ok(dg_probes_create(&p->probes, g, 3, pts));
  const dg_mesh *m = g->mesh;
  assert_dg_ok(DG_ALLOC(p->in_set, m->K));
  assert_dg_ok(DG_ALLOC(p->sel, 4 * (size_t)m->K));
  for (int k = 0; k < m->K; ++k) {
    double cx = 0;
    for (int v = 0; v < 4; ++v) cx += 0.25 * m->VX[m->EToV[4 * k + v]];
    p->in_set[k] = cx < 0.5;
  }
  assert_true(dg_dft_faces_enclosing(m, p->in_set, p->sel) == 2 * 2 * 2); /* x = 1/2: 4 squares */
}

static void problem_destroy(problem *p) {
  dg_probes_destroy(&p->probes);
  dg_free(&p->in_set);
  dg_free(&p->sel);
  dg_verify_case_destroy(&p->c);
}

static void make_dft(problem *p, dg_dft **d, const double *f, int nf, double dt) {
  assert_dg_ok(dg_dft_create(d, p->c->geom, nf, f, 1, dt));
  assert_dg_ok(dg_dft_add_probes(*d, p->probes->n, p->probes->elem, p->probes->w));
  assert_dg_ok(dg_dft_add_volume(*d, p->c->geom, p->in_set));
  assert_dg_ok(dg_dft_add_surface(*d, p->c->geom, p->sel));
}

/* Device and reference sums of the same random states; returns the largest difference
 * relative to the largest sum. */
static double compare(dg_device *dev, problem *p, dg_precision prec, int acc) {
  const dg_geom *g = p->c->geom;
  const size_t n = 6 * (size_t)g->K * g->Np;
  const double dt = 0.0123;
  dg_dft *ref = NULL, *got = NULL;
  make_dft(p, &ref, freqs, NFREQ, dt);
  make_dft(p, &got, freqs, NFREQ, dt);
  dg_variant v = dg_variant_default(&dev->info, g->N, prec);
  dg_cl_maxwell *op = NULL;
  dg_cl_dft *cd = NULL;
  assert_dg_ok(dg_cl_maxwell_create(&op, dev, p->c->phys, &v, NULL));
  assert_dg_ok(dg_cl_dft_create(&cd, op, got, acc, NULL));
  double *q = NULL;
  assert_dg_ok(DG_ALLOC(q, n));
  for (int s = 0; s < NSTEPS; ++s) {
    dg_verify_random_fields(100 + (uint64_t)s, n, q);
    if (prec == DG_PREC_FLOAT)
      for (size_t i = 0; i < n; ++i) q[i] = (float)q[i];
    const double t = 1000.0 + s * dt; /* a large time: the phases must still be exact */
    assert_dg_ok(dg_cl_maxwell_set_state(op, q));
    assert_dg_ok(dg_cl_dft_accumulate(cd, t));
    assert_dg_ok(dg_dft_accumulate(ref, q, t));
  }
  assert_dg_ok(dg_cl_dft_fetch(cd));
  assert_int_equal(got->nsum, NSTEPS);
  const size_t na = (size_t)NFREQ * 6 * ref->nsamp;
  double big = 0, diff = 0;
  for (size_t i = 0; i < na; ++i) {
    big = fmax(big, fmax(fabs(ref->re[i]), fabs(ref->im[i])));
    diff = fmax(diff, fmax(fabs(ref->re[i] - got->re[i]), fabs(ref->im[i] - got->im[i])));
  }
  double secs = -1;
  assert_dg_ok(dg_cl_dft_kernel_seconds(cd, &secs));
  assert_true(secs >= 0);
  dg_free(&q);
  dg_cl_dft_destroy(&cd);
  dg_cl_maxwell_destroy(&op);
  dg_dft_destroy(&ref);
  dg_dft_destroy(&got);
  return big > 0 ? diff / big : diff;
}

static void test_surface_weights(void **state) {
  (void)state;
  for (int N = 1; N <= 4; ++N) {
    problem p;
    problem_create(&p, N);
    dg_dft *d = NULL;
    make_dft(&p, &d, freqs, 1, 0.1);
    double area = 0;
    for (int i = 0; i < d->n_surf; ++i) {
      area += d->sw[i];
      assert_near(d->sxyz[3 * i], 0.5, 1e-12);
      assert_near(d->sn[3 * i], 1.0, 1e-12);
      assert_near(d->sn[3 * i + 1], 0.0, 1e-12);
    }
    assert_int_equal(d->n_surf % p.c->geom->Nfp, 0);
    assert_near(area, 1.0, 1e-12);
    /* Surface samples read the element outside the set (x > 1/2). */
    for (int i = 0; i < d->n_surf; ++i) {
      const int k = d->node[d->start[d->n_probe + d->n_vol + i]] / d->Np;
      assert_false(p.in_set[k]);
    }
    dg_dft_destroy(&d);
    problem_destroy(&p);
  }
}

/* A named interior surface (the box mesher's "tfsf" box [-0.5, 0.5]^3 inside [-1, 1]^3):
 * sampled on the outside elements, normals outward, weights summing to its area 6. */
static void test_named_surface(void **state) {
  (void)state;
  const double lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
  const int tlo[3] = {1, 1, 1}, thi[3] = {3, 3, 3};
  dg_mesh *m = NULL;
  dg_refel *r = NULL;
  dg_geom *g = NULL;
  assert_dg_ok(dg_mesh_box_tfsf(&m, lo, hi, 4, 4, 4, 0, tlo, thi));
  assert_dg_ok(dg_refel_create(&r, 3));
  assert_dg_ok(dg_geom_create(&g, m, r));
  unsigned char *seed = NULL, *sel = NULL;
  signed char *side = NULL;
  assert_dg_ok(DG_ALLOC(seed, m->K));
  assert_dg_ok(DG_ALLOC(side, m->K));
  assert_dg_ok(DG_ALLOC(sel, 4 * (size_t)m->K));
  for (int k = 0; k < m->K; ++k)
    for (int f = 0; f < 4; ++f) seed[k] |= m->face_tag[4 * k + f] > 0; /* the outer boundary */
  assert_dg_ok(dg_mesh_surface_sides(m, DG_MESH_BOX_TFSF_TAG, seed, side));
  assert_int_equal(dg_dft_faces_of_surface(m, DG_MESH_BOX_TFSF_TAG, side, sel), 6 * 2 * 2 * 2);
  dg_dft *d = NULL;
  assert_dg_ok(dg_dft_create(&d, g, 1, freqs, 1, 0.1));
  assert_dg_ok(dg_dft_add_surface(d, g, sel));
  double area = 0;
  for (int i = 0; i < d->n_surf; ++i) {
    area += d->sw[i];
    const double *x = d->sxyz + 3 * i, *n = d->sn + 3 * i;
    /* On the box's surface, the normal along the axis where |x| = 1/2, pointing out. */
    int axis = -1;
    for (int a = 0; a < 3; ++a)
      if (fabs(fabs(x[a]) - 0.5) < 1e-12 && fabs(fabs(n[a]) - 1) < 1e-12) axis = a;
    assert_true(axis >= 0);
    assert_true(n[axis] * x[axis] > 0);
    const int k = d->node[d->start[i]] / d->Np;
    assert_int_equal(side[k], -1);
  }
  assert_near(area, 6.0, 1e-12);
  dg_dft_destroy(&d);
  dg_free(&seed);
  dg_free(&side);
  dg_free(&sel);
  dg_geom_destroy(&g);
  dg_refel_destroy(&r);
  dg_mesh_destroy(&m);
}

static void test_device_matches_reference(void **state) {
  dg_device *dev = test_device(state, 0);
  problem p;
  problem_create(&p, 2);
  for (int prec = 0; prec < 2; ++prec)
    for (int acc = 0; acc < 2; ++acc) {
      const dg_precision pr = prec ? DG_PREC_DOUBLE : DG_PREC_FLOAT;
      if ((prec || acc) && !dev->info.has_fp64) continue;
      const double d = compare(dev, &p, pr, acc);
      const double tol = acc ? 1e-12 : 1e-5;
      printf("# %s state, %s sums: device vs reference %.2e (tolerance %.0e)\n",
             dg_precision_name(pr), acc ? "double" : "compensated float", d, tol);
      assert_true(d <= tol);
    }
  problem_destroy(&p);
}

static void test_long_float_sum(void **state) {
  dg_device *dev = test_device(state, 0);
  problem p;
  problem_create(&p, 1);
  const dg_geom *g = p.c->geom;
  const size_t n = 6 * (size_t)g->K * g->Np;
  const int steps = 20000;
  const double dt = 0.1 / 3, f0 = 0;
  dg_dft *d = NULL;
  make_dft(&p, &d, &f0, 1, dt);
  dg_variant v = dg_variant_default(&dev->info, g->N, DG_PREC_FLOAT);
  dg_cl_maxwell *op = NULL;
  dg_cl_dft *cd = NULL;
  assert_dg_ok(dg_cl_maxwell_create(&op, dev, p.c->phys, &v, NULL));
  assert_dg_ok(dg_cl_dft_create(&cd, op, d, 0, NULL));
  double *q = NULL;
  assert_dg_ok(DG_ALLOC(q, n));
  dg_verify_random_fields(5, n, q);
  for (size_t i = 0; i < n; ++i) q[i] = (float)q[i];
  assert_dg_ok(dg_cl_maxwell_set_state(op, q));
  for (int s = 0; s < steps; ++s) assert_dg_ok(dg_cl_dft_accumulate(cd, s * dt));
  assert_dg_ok(dg_cl_dft_fetch(cd));
  double worst = 0, naive = 0;
  const float w = (float)dt; /* the kernel's term is x * (float)dt, summed steps times */
  for (int s = d->n_probe; s < d->nsamp; ++s)
    for (int c = 0; c < 6; ++c) {
      const float term = (float)q[c * d->KNp + d->node[d->start[s]]] * w;
      const double want = steps * (double)term;
      worst = fmax(worst, fabs(d->re[c * d->nsamp + s] - want) / fabs(want));
      volatile float plain = 0; /* what an uncompensated float sum gives */
      for (int i = 0; i < steps; ++i) plain += term;
      naive = fmax(naive, fabs(plain - want) / fabs(want));
    }
  printf("# %d float steps of a constant: compensated sum relative error %.2e (plain float "
         "sum: %.2e)\n", steps, worst, naive);
  assert_true(worst < 1e-6);
  assert_true(naive > 1e-5); /* the case is one where compensation matters */
  dg_free(&q);
  dg_cl_dft_destroy(&cd);
  dg_cl_maxwell_destroy(&op);
  dg_dft_destroy(&d);
  problem_destroy(&p);
}

/* Under Oclgrind: the child compares on Oclgrind's device and prints one marker line. */
static int child(void) {
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    fprintf(stderr, "@@ fatal %s\n", dg_error_message());
    return 1;
  }
  problem p;
  problem_create(&p, 1);
  const double d0 = compare(dev, &p, DG_PREC_FLOAT, 0);
  const double d1 = dev->info.has_fp64 ? compare(dev, &p, DG_PREC_DOUBLE, 1) : 0;
  fprintf(stderr, "@@ result %.3e %.3e\n", d0, d1);
  problem_destroy(&p);
  dg_device_destroy(&dev);
  return 0;
}

static void test_oclgrind_clean(void **state) {
  (void)state;
  if (!og_available()) skip(); /* not installed, or a sanitizer build */
  char cmd[256];
  snprintf(cmd, sizeof cmd,
           "oclgrind --data-races --uninitialized --check-api /proc/%d/exe --child 2>&1",
           (int)getpid());
  FILE *f = popen(cmd, "r");
  assert_non_null(f);
  char line[4096];
  int messages = 0, results = 0;
  double d0 = 1, d1 = 1;
  while (fgets(line, sizeof line, f)) {
    if (sscanf(line, "@@ result %lf %lf", &d0, &d1) == 2) {
      ++results;
    } else if (line[0] && line[0] != ' ' && line[0] != '\t' && line[0] != '\n') {
      if (!messages) printf("# oclgrind: %s", line);
      ++messages;
    }
  }
  assert_int_equal(pclose(f), 0);
  printf("# under Oclgrind: float %.2e, double %.2e, %d messages\n", d0, d1, messages);
  assert_int_equal(results, 1);
  assert_int_equal(messages, 0);
  assert_true(d0 <= 1e-5 && d1 <= 1e-12);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--child")) return child();
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_surface_weights),
                                     cmocka_unit_test(test_named_surface),
                                     cmocka_unit_test(test_device_matches_reference),
                                     cmocka_unit_test(test_long_float_sum),
                                     cmocka_unit_test(test_oclgrind_clean)};
  return cmocka_run_group_tests(tests, test_device_setup, test_device_teardown);
}

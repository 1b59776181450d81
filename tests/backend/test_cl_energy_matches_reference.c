/* The energy the health check and the energy log read (dg_cl_maxwell_energy: energy.cl for
 * one element per work-item, energy_block.cl for the interleaved layouts) equals the host's
 * dg_maxwell_energy of the same fields, for every layout width, on a mesh whose element count
 * (162) is no multiple of the wider blocks (padding lanes must add nothing): to 1e-12
 * relative in double and 1e-5 in float. A non-finite value in one element makes the energy
 * non-finite. */
#include "test_util.h"

#include "backend/cl_maxwell.h"
#include "backend/verify.h"
#include "core/alloc.h"

#include <math.h>

/* The energy of fields q on the device, through the operator of variant spec. */
static double device_energy(dg_device *dev, dg_verify_case *c, const char *spec, dg_precision p,
                            const double *q) {
  dg_variant v;
  assert_dg_ok(dg_variant_parse(spec, &v));
  v.precision = p;
  dg_cl_maxwell *op = NULL;
  assert_dg_ok(dg_cl_maxwell_create(&op, dev, c->phys, &v, NULL));
  assert_dg_ok(dg_cl_maxwell_set_state(op, q));
  double e = 0;
  assert_dg_ok(dg_cl_maxwell_energy(op, &e));
  dg_cl_maxwell_destroy(&op);
  return e;
}

static void check(dg_device *dev, dg_verify_case *c, const char *spec, dg_precision p,
                  const double *q, double want) {
  const double e = device_energy(dev, c, spec, p, q);
  const double rel = fabs(e - want) / want;
  printf("# N=%d %-6s %-26s energy %.15e, host %.15e, relative difference %.1e\n",
         c->geom->N, p == DG_PREC_DOUBLE ? "double" : "float", spec, e, want, rel);
  assert_true(rel <= (p == DG_PREC_DOUBLE ? 1e-12 : 1e-5));
}

static void test_energy_matches_host(void **state) {
  (void)state;
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    skip();
  }
  /* vw is the lane count with work=vec and the elements per work-item with work=elem */
  const char *specs[] = {"work=node,vw=1", "work=vec,vw=2",  "work=vec,vw=4",
                         "work=vec,vw=8",  "work=vec,vw=16", "work=elem,vw=4"};
  for (int N = 1; N <= 2; ++N) {
    dg_verify_case *c = NULL;
    assert_dg_ok(dg_verify_case_create(&c, N, 3));
    assert_int_equal(c->geom->K, 162);
    const size_t n = 6 * (size_t)c->geom->K * c->geom->Np;
    double *q = NULL;
    assert_dg_ok(DG_ALLOC(q, n));
    dg_verify_random_fields(11 + N, n, q);
    const double want = dg_maxwell_energy(c->phys, q);
    for (int p = 0; p < 2; ++p) {
      const dg_precision prec = p ? DG_PREC_DOUBLE : DG_PREC_FLOAT;
      if (prec == DG_PREC_DOUBLE && !dev->info.has_fp64) continue;
      for (size_t i = 0; i < sizeof specs / sizeof *specs; ++i) check(dev, c, specs[i], prec, q, want);
    }
    dg_free(&q);
    dg_verify_case_destroy(&c);
  }
  dg_device_destroy(&dev);
}

/* A NaN in the last element (a padding neighbour in every wider block) reaches the sum. */
static void test_non_finite_element_shows(void **state) {
  (void)state;
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    skip();
  }
  dg_verify_case *c = NULL;
  assert_dg_ok(dg_verify_case_create(&c, 2, 3));
  const int K = c->geom->K, Np = c->geom->Np;
  const size_t n = 6 * (size_t)K * Np;
  double *q = NULL;
  assert_dg_ok(DG_ALLOC(q, n));
  dg_verify_random_fields(5, n, q);
  q[(size_t)(K - 1) * Np + 3] = NAN; /* Ex, element K-1, node 3: fields are [f][k][n] */
  const char *specs[] = {"work=node,vw=1", "work=vec,vw=16", "work=elem,vw=4"};
  for (size_t i = 0; i < sizeof specs / sizeof *specs; ++i)
    assert_false(isfinite(device_energy(dev, c, specs[i], DG_PREC_FLOAT, q)));
  dg_free(&q);
  dg_verify_case_destroy(&c);
  dg_device_destroy(&dev);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_energy_matches_host),
                                     cmocka_unit_test(test_non_finite_element_shows)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

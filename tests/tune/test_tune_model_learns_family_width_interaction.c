/* The cost model's family x vector-width factors (tune/model.c, features): trained on a
 * device where the fused right-hand side is fastest at vw=4 and the split kernels at vw=8
 * (as fuse=res and the split kernels behave in double on AVX2), it predicts each family's
 * own best width by a clear margin, which additive per-feature factors alone cannot (they
 * give every family the same width ratio); and a width a family was never timed at is not
 * covered, so the search times it rather than pruning it on the other families' data. */
#include "test_tune_util.h"

#include <string.h>

#include "backend/variant.h"
#include "tune/model.h"

static dg_variant parse(const char *spec) {
  dg_variant v;
  assert_dg_ok(dg_variant_parse(spec, &v));
  return v;
}

static void test_interaction(void **state) {
  (void)state;
  const dg_device_limits lim = tt_limits(20, 100, 50);
  dg_cost_model m;
  dg_model_init(&m, NULL, &lim);
  const int N = 3;
  const long K = 4374;
  const dg_precision p = DG_PREC_DOUBLE;
  const char *specs[4] = {"work=vec,vw=4,fuse=rhs,prec=double", "work=vec,vw=8,fuse=rhs,prec=double",
                          "work=vec,vw=4,lift=separate,prec=double",
                          "work=vec,vw=8,lift=separate,prec=double"};
  const double ns[4] = {1.0e6, 2.0e6, 2.0e6, 1.0e6}; /* each family's own best width */
  dg_model_sample s[12];
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < 4; ++i) {
      dg_model_sample *q = &s[4 * r + i];
      memset(q, 0, sizeof *q);
      q->v = parse(specs[i]);
      q->N = N;
      q->p = p;
      q->K = K;
      q->ns = ns[i] * (1 + 0.01 * r); /* a little timing noise */
      q->w = 8;
    }
  dg_model_fit(&m, s, 12);
  double pred[4];
  for (int i = 0; i < 4; ++i) {
    const dg_variant v = parse(specs[i]);
    pred[i] = dg_model_predict_ns(&m, &v, N, p, K);
    printf("# %-42s measured %.2f ms, predicted %.2f ms\n", specs[i], ns[i] * 1e-6, pred[i] * 1e-6);
    assert_true(dg_model_covers(&m, &v, N, p));
  }
  /* Without the interaction every prediction would be the mean, 1.5 ms: ratios of 1. */
  assert_true(pred[1] / pred[0] > 1.5);
  assert_true(pred[2] / pred[3] > 1.5);
  /* A third family timed only at vw=4: its vw=8 has no family x width data. */
  const dg_variant other4 = parse("work=vec,vw=4,lift=fused-update,prec=double");
  const dg_variant other8 = parse("work=vec,vw=8,lift=fused-update,prec=double");
  dg_model_sample t[13];
  memcpy(t, s, sizeof s);
  memset(&t[12], 0, sizeof t[12]);
  t[12].v = other4, t[12].N = N, t[12].p = p, t[12].K = K, t[12].ns = 1.5e6, t[12].w = 8;
  dg_model_fit(&m, t, 13);
  assert_true(dg_model_covers(&m, &other4, N, p));
  assert_false(dg_model_covers(&m, &other8, N, p));
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_interaction)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Stage 0 times the first seed's siblings (dg_tune_seed_siblings, tune/tune.h): the seed
 * with each other fused-stage mode and with ops=literal where the order allows, at the
 * seed's own blocking and unrolling. On the H100 (2026-11-27) the re-tune seeded with
 * `fuse=rhs,kb=4,unroll=full` timed fuse=step only in its stage-1 form (kb <= 4, unroll=1)
 * at N = 4..6 before the budget ran out; these siblings are what it missed. */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "device/profiles.h"
#include "tune/tune.h"

/* Whether out[0..n) holds v with the given fuse and literal (work, lift, kb, unroll as v). */
static int holds(const dg_variant *out, int n, const dg_variant *v, dg_fuse fz, int literal) {
  for (int i = 0; i < n; ++i)
    if (out[i].fuse == fz && out[i].literal == literal && out[i].kb == v->kb &&
        out[i].unroll == v->unroll && out[i].work == v->work && out[i].lift == v->lift)
      return 1;
  return 0;
}

static void h100_seed_gets_every_fuse_and_literal(void **state) {
  (void)state;
  const dg_device_profile *gpu = dg_device_profile_find("nvidia-sm90");
  assert_non_null(gpu);
  dg_variant seed;
  assert_int_equal(dg_variant_parse("work=node,kb=4,unroll=full,fuse=rhs,prec=float", &seed), DG_OK);
  for (int N = 3; N <= 6; ++N) {
    dg_variant out[DG_TUNE_SIBLINGS_MAX];
    const int n = dg_tune_seed_siblings(&gpu->info, N, &seed, out);
    /* fuse=none, res and step at kb=4, unroll=full; and ops=literal up to N = 4 */
    assert_true(holds(out, n, &seed, DG_FUSE_STEP, 0));
    assert_true(holds(out, n, &seed, DG_FUSE_RES, 0));
    assert_true(holds(out, n, &seed, DG_FUSE_NONE, 0));
    assert_int_equal(holds(out, n, &seed, DG_FUSE_RHS, 1), N <= DG_VARIANT_LITERAL_MAX_N);
    assert_false(holds(out, n, &seed, DG_FUSE_RHS, 0)); /* not the seed itself */
    assert_int_equal(n, 3 + (N <= DG_VARIANT_LITERAL_MAX_N));
    char why[128];
    for (int i = 0; i < n; ++i) assert_true(dg_variant_check(&out[i], &gpu->info, N, why, sizeof why));
  }
}

/* A seed whose lift fuses the update gets fused-stage siblings with lift=separate where its
 * own lift does not combine with them (N = 3, double; at N = 5 with kb = 8 the fused volume
 * kernel would not fit the H100's local memory, and no fused sibling is offered); the CLBlast
 * path has none. */
static void lift_made_separate_and_clblast_has_none(void **state) {
  (void)state;
  const dg_device_profile *gpu = dg_device_profile_find("nvidia-sm90");
  assert_non_null(gpu);
  dg_variant seed;
  assert_int_equal(dg_variant_parse("work=node,kb=4,lift=fused-update,prec=double", &seed), DG_OK);
  dg_variant out[DG_TUNE_SIBLINGS_MAX];
  const int n = dg_tune_seed_siblings(&gpu->info, 3, &seed, out);
  int fused = 0;
  char why[128];
  for (int i = 0; i < n; ++i) {
    assert_true(dg_variant_check(&out[i], &gpu->info, 3, why, sizeof why));
    assert_int_equal(out[i].kb, 4);
    if (out[i].fuse != DG_FUSE_NONE) ++fused;
  }
  assert_int_equal(fused, DG_FUSE_COUNT - 1);
  dg_variant blas = dg_variant_baseline(DG_PREC_FLOAT);
  blas.path = DG_PATH_CLBLAST;
  assert_int_equal(dg_tune_seed_siblings(&gpu->info, 3, &blas, out), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(h100_seed_gets_every_fuse_and_literal),
      cmocka_unit_test(lift_made_separate_and_clblast_has_none),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

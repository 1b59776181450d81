/* A variant that computes a wrong RHS (test=flip) is rejected by verification, never
 * timed, never the winner and never written to the cache, in-process or through the
 * crash-isolating child; a build failure (test=syntax) is recorded as failed. A variant that
 * crashes its verification worker (test=crash) fails alone: the pool replaces the worker and
 * the variants after it are verified and timed. */
#include "test_tune_util.h"

#include <unistd.h>

#include "backend/verify.h"
#include "tune/verify_pool.h"

static dg_device *open_device(void) {
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    return NULL;
  }
  return dev;
}

static void check_cache(const dg_tune_options *opt, const dg_device *dev, int expect_entry) {
  char path[DG_TUNE_PATH + 64];
  dg_tune_cache_file(opt->paths.cache_dir, dev->info.name, path, sizeof path);
  dg_tune_file f;
  int exists = 0;
  assert_dg_ok(dg_tune_file_read(path, &f, &exists, NULL));
  int entries = 0;
  for (int i = 0; i < f.n; ++i)
    for (int j = 0; j < f.devices[i].n; ++j) {
      const dg_tune_entry *e = &f.devices[i].entries[j];
      ++entries;
      assert_null(strstr(e->winner, "test="));
      for (int k = 0; k < e->n_rank; ++k) assert_null(strstr(e->rank[k].spec, "test="));
    }
  assert_int_equal(entries, expect_entry);
  dg_tune_file_free(&f);
}

static void run(dg_device *dev, const char *child) {
  char root[64];
  dg_tune_options opt;
  tt_options(&opt, root);
  opt.child_exe = child;
  const char *specs[] = {"test=flip", "baseline", "test=syntax"};
  opt.specs = specs;
  opt.n_specs = 3;
  dg_tune_result r;
  assert_dg_ok(dg_tune_order(dev, 1, DG_PREC_FLOAT, &opt, NULL, &r));
  assert_int_equal(r.n, 3);
  assert_int_equal(r.c[0].status, DG_CAND_REJECTED);
  assert_true(r.c[0].rel_diff > dg_verify_tolerance(DG_PREC_FLOAT));
  assert_int_equal(r.c[0].nsamples, 0);
  assert_int_equal(r.c[1].status, DG_CAND_TIMED);
  assert_int_equal(r.c[2].status, DG_CAND_FAILED);
  printf("# %s: %s\n# %s: %s\n", r.c[0].spec, r.c[0].reason, r.c[2].spec, r.c[2].reason);
  assert_int_equal(r.winner, 1);
  assert_int_equal(r.entry.n_reject, 2);
  dg_tune_result_free(&r);
  check_cache(&opt, dev, 1);

  /* Only the wrong variant: no winner, and the cache stays without an entry. */
  tt_rmrf(root);
  tt_paths(&opt.paths, root);
  opt.specs = specs;
  opt.n_specs = 1;
  assert_dg_ok(dg_tune_order(dev, 2, DG_PREC_FLOAT, &opt, NULL, &r));
  assert_int_equal(r.winner, -1);
  dg_tune_result_free(&r);
  check_cache(&opt, dev, 0);
  tt_rmrf(root);
}

static void test_in_process(void **state) {
  (void)state;
  dg_device *dev = open_device();
  if (!dev) skip();
  run(dev, NULL);
  dg_device_destroy(&dev);
}

/* bin/dgtd (or $BIN/dgtd), the verification workers' executable, when it is built. */
static int built_exe(char *exe, size_t cap) {
  const char *bin = getenv("BIN");
  snprintf(exe, cap, "%s/dgtd", bin && *bin ? bin : "bin");
  if (access(exe, X_OK) == 0) return 1;
  printf("# SKIP %s not built\n", exe);
  return 0;
}

/* The same through `dgtd tune --verify-worker` processes, when the binary is built. */
static void test_child_process(void **state) {
  (void)state;
  char exe[512];
  if (!built_exe(exe, sizeof exe)) skip();
  dg_device *dev = open_device();
  if (!dev) skip();
  run(dev, exe);
  dg_device_destroy(&dev);
}

static void test_worker_crash_fails_only_that_variant(void **state) {
  (void)state;
  char exe[512];
  if (!built_exe(exe, sizeof exe)) skip();
  dg_device *dev = open_device();
  if (!dev) skip();
  char root[64];
  dg_tune_options opt;
  tt_options(&opt, root);
  opt.child_exe = exe;
  /* One set of workers for both tunes below, as a sweep of orders uses it. */
  dg_verify_pool *pool = NULL;
  assert_dg_ok(dg_verify_pool_create(&pool, exe, &dev->info, 0, 0, 2));
  opt.pool = pool;
  /* The crash comes third: on a worker that has served a job already, so it is also tried
   * once more in a fresh worker before it counts as the variant's own failure. */
  const char *specs[] = {"baseline", "test=flip", "test=crash", "work=vec,vw=4", "test=crash"};
  opt.specs = specs;
  opt.n_specs = 4;
  dg_tune_result r;
  assert_dg_ok(dg_tune_order(dev, 1, DG_PREC_FLOAT, &opt, NULL, &r));
  assert_int_equal(r.n, 4);
  assert_int_equal(r.c[0].status, DG_CAND_TIMED);
  assert_int_equal(r.c[1].status, DG_CAND_REJECTED);
  assert_int_equal(r.c[2].status, DG_CAND_FAILED);
  printf("# %s: %s\n", r.c[2].spec, r.c[2].reason);
  assert_non_null(strstr(r.c[2].reason, "crashed (signal"));
  assert_int_equal(r.c[3].status, DG_CAND_TIMED);
  dg_tune_result_free(&r);
  /* Alone: the first job of its worker crashes, and the tune ends without a winner. */
  opt.specs = specs + 4;
  opt.n_specs = 1;
  assert_dg_ok(dg_tune_order(dev, 2, DG_PREC_FLOAT, &opt, NULL, &r));
  assert_int_equal(r.c[0].status, DG_CAND_FAILED);
  assert_int_equal(r.winner, -1);
  dg_tune_result_free(&r);
  check_cache(&opt, dev, 1); /* N = 1's entry only, no crash variant in it */
  /* The pool lives on after the crashes: N = 2 verified by its workers (force: not the
   * journal of the crashed list above). */
  opt.specs = specs;
  opt.n_specs = 1;
  opt.force = 1;
  assert_dg_ok(dg_tune_order(dev, 2, DG_PREC_FLOAT, &opt, NULL, &r));
  assert_int_equal(r.c[0].status, DG_CAND_TIMED);
  dg_tune_result_free(&r);
  dg_verify_pool_destroy(&pool);
  tt_rmrf(root);
  dg_device_destroy(&dev);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_in_process),
                                     cmocka_unit_test(test_child_process),
                                     cmocka_unit_test(test_worker_crash_fails_only_that_variant)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

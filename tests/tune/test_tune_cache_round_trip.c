/* A tuning result stored in the cache reads back field for field, and lookup finds it as an
 * exact hit naming the cache file; limits are kept beside it. */
#include "test_tune_util.h"

#include <unistd.h>

static void test_round_trip(void **state) {
  (void)state;
  char root[64], path[DG_TUNE_PATH + 64], desc[1024];
  dg_tune_paths paths;
  tt_paths(&paths, root);
  const dg_device_info info = tt_info("Test Device X1", "Test Vendor", "1.0");
  dg_device_key key;
  dg_device_key_from_info(&info, &key);
  dg_tune_entry e;
  memset(&e, 0, sizeof e);
  e.N = 3;
  e.precision = DG_PREC_DOUBLE;
  e.template_hash = 0xfedcba9876543210ull; /* above 2^53: must survive as text */
  snprintf(e.winner, sizeof e.winner, "work=vec,vw=8,kb=2,unroll=4,lift=fused-update,prec=double");
  dg_variant w;
  assert_dg_ok(dg_variant_parse(e.winner, &w));
  dg_variant_print(&w, e.winner, sizeof e.winner); /* canonical */
  e.median_ns = 1.5e6;
  e.min_ns = 1.4e6;
  e.max_ns = 1.9e6;
  snprintf(e.runner_up, sizeof e.runner_up, "prec=double");
  e.runner_up_margin = 0.25;
  e.baseline_ns = 6e6;
  e.K = 4000;
  e.dofs = 4000 * 6 * 20;
  snprintf(e.date, sizeof e.date, "2026-01-02T03:04:05Z");
  dg_tune_rank rank[2] = {{"", 1.5e6, 1.4e6, 1.9e6, 4}, {"prec=double", 1.875e6, 1.8e6, 2e6, 1}};
  snprintf(rank[0].spec, sizeof rank[0].spec, "%s", e.winner);
  dg_tune_reject rej = {"test=flip,prec=double", "wrong result"};
  e.rank = rank;
  e.n_rank = 2;
  e.reject = &rej;
  e.n_reject = 1;
  dg_device_limits lim;
  memset(&lim, 0, sizeof lim);
  lim.bandwidth_gbs = 50;
  lim.fma_gflops[0] = 234;
  lim.fma_gflops[1] = 117;
  lim.gemm_gflops[0] = 19;
  snprintf(lim.date, sizeof lim.date, "2026-01-01T00:00:00Z");

  dg_tune_cache_file(paths.cache_dir, info.name, path, sizeof path);
  assert_non_null(strstr(path, "/test-device-x1.json"));
  assert_dg_ok(dg_tune_cache_store(path, &key, &lim, &e, NULL, 0));

  dg_tune_file f;
  int exists = 0, dropped = -1;
  assert_dg_ok(dg_tune_file_read(path, &f, &exists, &dropped));
  assert_int_equal(exists, 1);
  assert_int_equal(dropped, 0);
  assert_int_equal(f.n, 1);
  assert_true(dg_device_key_equal(&f.devices[0].key, &key));
  assert_true(f.devices[0].has_limits);
  assert_near(f.devices[0].limits.fma_gflops[1], 117, 0);
  assert_int_equal(f.devices[0].n, 1);
  const dg_tune_entry *g = &f.devices[0].entries[0];
  assert_int_equal(g->N, 3);
  assert_int_equal(g->precision, DG_PREC_DOUBLE);
  assert_true(g->template_hash == e.template_hash);
  assert_string_equal(g->winner, e.winner);
  assert_near(g->median_ns, 1.5e6, 0);
  assert_near(g->runner_up_margin, 0.25, 0);
  assert_string_equal(g->date, e.date);
  assert_int_equal(g->n_rank, 2);
  assert_string_equal(g->rank[1].spec, "prec=double");
  assert_int_equal(g->n_reject, 1);
  assert_string_equal(g->reject[0].reason, "wrong result");
  dg_tune_file_free(&f);

  dg_device_limits back;
  assert_int_equal(dg_tune_cache_limits(path, &key, &back), 1);
  assert_near(back.bandwidth_gbs, 50, 0);

  /* A second store of the same class replaces, another class adds. */
  e.median_ns = 1.2e6;
  assert_dg_ok(dg_tune_cache_store(path, &key, NULL, &e, NULL, 0));
  e.N = 4;
  assert_dg_ok(dg_tune_cache_store(path, &key, NULL, &e, NULL, 0));
  assert_dg_ok(dg_tune_file_read(path, &f, &exists, NULL));
  assert_int_equal(f.devices[0].n, 2);
  assert_true(f.devices[0].has_limits); /* kept when a later store gives none */
  dg_tune_file_free(&f);

  dg_variant v;
  dg_tune_entry used;
  assert_int_equal(dg_tune_lookup_at(&paths, &info, 3, DG_PREC_DOUBLE, e.template_hash, &v, &used,
                                     desc, sizeof desc),
                   DG_TUNE_HIT);
  assert_true(v.work == DG_WORK_VEC && v.vw == 8 && v.kb == 2 && v.precision == DG_PREC_DOUBLE);
  assert_near(used.median_ns, 1.2e6, 0);
  assert_non_null(strstr(desc, path));
  printf("# %s\n", desc);
  /* Not tuned in float: a miss, and the default variant. */
  assert_int_equal(dg_tune_lookup_at(&paths, &info, 3, DG_PREC_FLOAT, e.template_hash, &v, NULL,
                                     desc, sizeof desc),
                   DG_TUNE_MISS);
  const dg_variant d = dg_variant_default(&info, 3, DG_PREC_FLOAT);
  assert_memory_equal(&v, &d, sizeof v);
  tt_rmrf(root);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_round_trip)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

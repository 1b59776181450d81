/* Issue 16: run-aware tuning (both branches, the run's cost injected, no timing), the cost
 * model's fit and ranking, seeds from the nearest known device, size buckets in the cache
 * (old files load as "large"), and the cross-device report; the run's estimate counts a PML
 * element's kernels as DG_PML_ELEMENT_STAGES stages (half the elements in a PML: exactly
 * 1 + DG_PML_ELEMENT_STAGES / 2 times the estimate without). */
#include <math.h>
#include <unistd.h>

#include "test_device.h"
#include "test_tune_util.h"

#include "core/log.h"
#include "tune/choose.h"
#include "tune/model.h"

static char logged[4096];
static void collect(void *ctx, dg_log_level level, const char *msg) {
  (void)ctx;
  (void)level;
  snprintf(logged + strlen(logged), sizeof logged - strlen(logged), "%s\n", msg);
}

static void run_budget_rule(void **state) {
  (void)state;
  double b = -1;
  /* A 0.4 s run: 10% is 0.04 s, far under the 20 s a search needs. */
  assert_int_equal(dg_tune_run_budget(0.4, 0.10, 120, 20, &b), 0);
  assert_true(fabs(b - 0.04) < 1e-12);
  /* A one-hour run: 360 s allowed, capped by --tune-budget 120. */
  assert_int_equal(dg_tune_run_budget(3600, 0.10, 120, 20, &b), 1);
  assert_true(b == 120);
  /* Five minutes: 30 s, a short search. */
  assert_int_equal(dg_tune_run_budget(300, 0, 120, 20, &b), 1);
  assert_true(fabs(b - 30) < 1e-9);
  /* A cap under the minimum is the user accepting a search that short. */
  assert_int_equal(dg_tune_run_budget(1000, 0.10, 5, 20, &b), 1);
  assert_true(b == 5);
  assert_int_equal(dg_tune_run_budget(10, 0.10, 5, 20, &b), 0);
}

/* A short run on a miss runs the default at once and says how to tune; nothing is cached. */
static void short_run_skips_tuning(void **state) {
  dg_device *dev = test_device(state, 0);
  char root[64];
  dg_tune_paths paths;
  tt_paths(&paths, root);
  setenv("DGTD_CACHE_DIR", paths.cache_dir, 1);
  setenv("DGTD_TUNING_DIR", paths.shipped_dir, 1);
  logged[0] = '\0';
  dg_log_set_handler(collect, NULL);
  dg_tune_choice how;
  memset(&how, 0, sizeof how);
  how.precision = DG_PREC_FLOAT;
  how.mode = DG_TUNE_AUTO;
  how.budget_s = 120;
  how.K = 384;
  how.steps = 182;
  how.est_run_s = 0.4;
  dg_tune_chosen ch;
  assert_dg_ok(dg_tune_choose(dev, 2, &how, &ch));
  dg_log_set_handler(NULL, NULL);
  assert_int_equal(ch.skipped, 1);
  assert_int_equal(ch.tuned, 0);
  const dg_variant d = dg_variant_default(&dev->info, 2, DG_PREC_FLOAT);
  char a[DG_VARIANT_SPEC_MAX], b[DG_VARIANT_SPEC_MAX];
  assert_string_equal(dg_variant_print(&ch.v, a, sizeof a), dg_variant_print(&d, b, sizeof b));
  assert_non_null(strstr(ch.source, "not tuned"));
  assert_non_null(strstr(logged, "dgtd tune --order 2 --precision float"));
  /* One line. */
  assert_ptr_equal(strchr(logged, '\n'), logged + strlen(logged) - 1);
  /* Nothing was written: the cache directory was never created. */
  char file[DG_TUNE_PATH + 200];
  dg_tune_cache_file(paths.cache_dir, dev->info.name, file, sizeof file);
  assert_int_equal(access(file, F_OK), -1);
  /* Without an injected estimate the cost model gives a positive, finite one. */
  how.est_run_s = 0;
  assert_dg_ok(dg_tune_choose(dev, 2, &how, &ch));
  assert_true(ch.est_run_s > 0 && isfinite(ch.est_run_s));
  assert_int_equal(ch.skipped, 1); /* 182 steps of 384 elements: well under 200 s */
  /* Half of them in a PML: each PML element's kernels count DG_PML_ELEMENT_STAGES stages. */
  const double plain = ch.est_run_s;
  how.pml_K = how.K / 2;
  assert_dg_ok(dg_tune_choose(dev, 2, &how, &ch));
  assert_true(fabs(ch.est_run_s / plain - (1 + 0.5 * DG_PML_ELEMENT_STAGES)) < 1e-9);
  how.pml_K = 0;
  unsetenv("DGTD_CACHE_DIR");
  unsetenv("DGTD_TUNING_DIR");
  tt_rmrf(root);
}

/* Synthetic measurements with known factors: the fit recovers their order. */
static void model_learns_factors(void **state) {
  (void)state;
  dg_device_info info = tt_info("cpu", "V", "1");
  const dg_device_limits l = tt_limits(30, 200, 100);
  dg_cost_model m;
  dg_model_init(&m, &info, &l);
  dg_model_sample s[64];
  int n = 0;
  const dg_work works[3] = {DG_WORK_NODE, DG_WORK_ELEM, DG_WORK_VEC};
  const double slow[3] = {8.0, 3.0, 1.5}; /* node slowest, vec fastest */
  for (int N = 1; N <= 4; ++N)
    for (int w = 0; w < 3; ++w)
      for (int lift = 0; lift < 3; ++lift) {
        dg_variant v = dg_variant_baseline(DG_PREC_FLOAT);
        v.work = works[w];
        v.vw = w == 2 ? 8 : w == 1 ? 4 : 1;
        v.lift = (dg_lift_mode)lift;
        const long K = 1000;
        s[n].v = v;
        s[n].N = N;
        s[n].p = DG_PREC_FLOAT;
        s[n].K = K;
        s[n].w = 1;
        s[n].bound_s = 0;
        s[n].ns = dg_model_bound_s(&m, N, DG_PREC_FLOAT, K) * 1e9 * slow[w] * (lift == 2 ? 0.8 : 1);
        ++n;
      }
  dg_model_fit(&m, s, n);
  assert_int_equal(m.nsamples, n);
  dg_variant node = dg_variant_baseline(DG_PREC_FLOAT), vec = node;
  vec.work = DG_WORK_VEC;
  vec.vw = 8;
  dg_variant vecf = vec;
  vecf.lift = DG_LIFT_FUSED_UPDATE;
  const double tn = dg_model_predict_ns(&m, &node, 3, DG_PREC_FLOAT, 5000);
  const double tv = dg_model_predict_ns(&m, &vec, 3, DG_PREC_FLOAT, 5000);
  const double tf = dg_model_predict_ns(&m, &vecf, 3, DG_PREC_FLOAT, 5000);
  assert_true(tv < tn);
  assert_true(tf < tv);
  /* Within 25% of the generating law on a problem it was not fitted on. */
  const double truth = dg_model_bound_s(&m, 3, DG_PREC_FLOAT, 5000) * 1e9 * 1.5;
  assert_true(fabs(tv / truth - 1) < 0.25);
}

static void write_device(const dg_tune_paths *paths, const char *dir, const char *name,
                         const char *vendor, const char *platform, const char *winner,
                         int bucket) {
  dg_device_info o = tt_info(name, vendor, "1.0");
  snprintf(o.platform_name, sizeof o.platform_name, "%s", platform);
  dg_device_key key;
  dg_device_key_from_info(&o, &key);
  dg_tune_entry e = tt_entry(2, DG_PREC_FLOAT, 1, winner);
  e.bucket = bucket;
  dg_tune_rank r[2];
  memset(r, 0, sizeof r);
  snprintf(r[0].spec, sizeof r[0].spec, "%s", e.winner);
  r[0].median_ns = 1e6;
  dg_variant b = dg_variant_baseline(DG_PREC_FLOAT);
  dg_variant_print(&b, r[1].spec, sizeof r[1].spec);
  r[1].median_ns = 5e6;
  e.rank = r;
  e.n_rank = 2;
  char file[DG_TUNE_PATH + 200];
  dg_tune_cache_file(dir, name, file, sizeof file);
  assert_dg_ok(dg_tune_cache_store(file, &key, NULL, &e, NULL, 0));
  (void)paths;
}

/* In a sweep, an order with no entry of its own starts from this device's winners at the
 * neighbouring orders (N +- 1, same precision) and at the same N in the other precision,
 * converted to its precision; nothing from orders further away or another template. */
static void own_neighbour_seeds(void **state) {
  (void)state;
  char root[64];
  dg_tune_paths paths;
  tt_paths(&paths, root);
  const char *w = "work=vec,vw=8,lift=fused-update,flux=face,lnpw=2";
  write_device(&paths, paths.cache_dir, "cpu-me", "V", "Plat", w, 0);
  dg_device_info me = tt_info("cpu-me", "V", "1.0");
  snprintf(me.platform_name, sizeof me.platform_name, "Plat");
  struct { int N; dg_precision p; uint64_t hash; int want; } cases[] = {
      {3, DG_PREC_FLOAT, 1, 1},  {1, DG_PREC_FLOAT, 1, 1}, {2, DG_PREC_DOUBLE, 1, 1},
      {3, DG_PREC_DOUBLE, 1, 0}, {5, DG_PREC_FLOAT, 1, 0}, {3, DG_PREC_FLOAT, 2, 0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    dg_known k;
    assert_dg_ok(dg_known_collect(&paths, &me, cases[i].N, cases[i].p, DG_BUCKET_LARGE,
                                  cases[i].hash, &k));
    if (!cases[i].want) {
      assert_int_equal(k.n_own_seeds, 0);
    } else {
      assert_true(k.n_own_seeds >= 1);
      dg_variant v;
      char want[DG_VARIANT_SPEC_MAX];
      assert_dg_ok(dg_variant_parse(w, &v));
      v.precision = cases[i].p;
      dg_variant_print(&v, want, sizeof want);
      assert_string_equal(k.own_seeds[0], want);
    }
    dg_known_free(&k);
  }
}

/* Seeds come from the nearest known device: same vendor and platform beats same platform;
 * another platform gives none. Buckets are kept apart in one file. */
static void transfer_seeds_and_buckets(void **state) {
  (void)state;
  char root[64];
  dg_tune_paths paths;
  tt_paths(&paths, root);
  const char *near = "work=vec,vw=16,lift=fused-update,flux=face";
  const char *far = "work=elem,vw=4,lift=fused";
  write_device(&paths, paths.shipped_dir, "cpu-a", "V", "Plat", near, 0);
  write_device(&paths, paths.cache_dir, "cpu-b", "W", "Plat", far, 0);
  write_device(&paths, paths.shipped_dir, "gpu-c", "V", "Other", far, 0);
  dg_device_info me = tt_info("cpu-new", "V", "2.0");
  snprintf(me.platform_name, sizeof me.platform_name, "Plat");
  dg_known k;
  assert_dg_ok(dg_known_collect(&paths, &me, 2, DG_PREC_FLOAT, DG_BUCKET_LARGE, 1, &k));
  assert_int_equal(k.seed_score, 2);
  assert_true(k.n_seeds >= 1);
  dg_variant v;
  char want[DG_VARIANT_SPEC_MAX];
  assert_dg_ok(dg_variant_parse(near, &v));
  dg_variant_print(&v, want, sizeof want);
  assert_string_equal(k.seeds[0], want);
  assert_non_null(strstr(k.seed_from, "cpu-a"));
  assert_int_equal(k.n, 4); /* both related devices' rankings train the model; gpu-c's not */
  assert_int_equal(k.self.n_rank, 0);
  dg_known_free(&k);
  snprintf(me.platform_name, sizeof me.platform_name, "Elsewhere");
  assert_dg_ok(dg_known_collect(&paths, &me, 2, DG_PREC_FLOAT, DG_BUCKET_LARGE, 1, &k));
  assert_int_equal(k.n_seeds, 0);
  dg_known_free(&k);

  /* Both buckets of one device live side by side; the old format (no bucket) is large. */
  write_device(&paths, paths.cache_dir, "cpu-b", "W", "Plat", near, 1);
  char file[DG_TUNE_PATH + 200];
  dg_tune_cache_file(paths.cache_dir, "cpu-b", file, sizeof file);
  dg_tune_file f;
  int exists = 0;
  assert_dg_ok(dg_tune_file_read(file, &f, &exists, NULL));
  assert_int_equal(f.n, 1);
  assert_int_equal(f.devices[0].n, 2);
  assert_int_not_equal(f.devices[0].entries[0].bucket, f.devices[0].entries[1].bucket);
  dg_tune_file_free(&f);
  /* An entry from before buckets existed. */
  char old[DG_TUNE_PATH + 200];
  snprintf(old, sizeof old, "%s/old.json", paths.cache_dir);
  FILE *o = fopen(old, "w");
  assert_non_null(o);
  fprintf(o, "{\"format\":\"dgtd-tuning/1\",\"devices\":[{\"key\":{\"platform_name\":\"P\","
             "\"platform_version\":\"v\",\"name\":\"old\",\"vendor\":\"V\",\"driver_version\":\"1\","
             "\"device_version\":\"d\",\"compute_units\":2},\"entries\":[{\"N\":2,\"precision\":"
             "\"float\",\"kernel_set\":\"maxwell-lserk4\",\"template_hash\":\"1\",\"winner\":"
             "\"%s\",\"median_ns\":1e6,\"min_ns\":1e6,\"max_ns\":1e6,\"runner_up\":\"\","
             "\"runner_up_margin\":0,\"date\":\"2026-01-01T00:00:00Z\",\"K\":100}]}]}\n",
          want);
  fclose(o);
  assert_dg_ok(dg_tune_file_read(old, &f, &exists, NULL));
  assert_int_equal(f.devices[0].n, 1);
  assert_int_equal(f.devices[0].entries[0].bucket, DG_BUCKET_LARGE);
  dg_tune_file_free(&f);

  /* The lookup prefers the run's bucket and falls back to the other one, saying so. */
  dg_device_info b = tt_info("cpu-b", "W", "1.0");
  snprintf(b.platform_name, sizeof b.platform_name, "Plat");
  char desc[1024];
  assert_int_equal(dg_tune_lookup_bucket(&paths, &b, 2, DG_PREC_FLOAT, DG_BUCKET_SMALL, 1, &v,
                                         NULL, desc, sizeof desc),
                   DG_TUNE_HIT);
  assert_string_equal(dg_variant_print(&v, desc, sizeof desc), want);
  assert_int_equal(dg_tune_lookup_bucket(&paths, &b, 3, DG_PREC_FLOAT, DG_BUCKET_SMALL, 1, &v,
                                         NULL, desc, sizeof desc),
                   DG_TUNE_MISS);

  /* The cross-device report lists every device's winner. */
  char out[DG_TUNE_PATH + 200];
  snprintf(out, sizeof out, "%s/report.txt", root);
  FILE *r = fopen(out, "w+");
  assert_non_null(r);
  assert_dg_ok(dg_tune_compare(&paths, r, NULL));
  rewind(r);
  char text[8192];
  const size_t len = fread(text, 1, sizeof text - 1, r);
  text[len] = '\0';
  fclose(r);
  assert_non_null(strstr(text, "cpu-a"));
  assert_non_null(strstr(text, "gpu-c"));
  assert_non_null(strstr(text, "small"));
  assert_non_null(strstr(text, want));
  tt_rmrf(root);
}

static void buckets_by_size(void **state) {
  (void)state;
  dg_device_info cpu = tt_info("cpu", "V", "1");
  assert_int_equal(dg_bucket_of(&cpu, 3, DG_PREC_FLOAT, 48), DG_BUCKET_SMALL);
  assert_int_equal(dg_bucket_of(&cpu, 3, DG_PREC_FLOAT, 10000000), DG_BUCKET_LARGE);
  dg_device_info gpu = cpu;
  gpu.type = CL_DEVICE_TYPE_GPU;
  gpu.compute_units = 100;
  assert_int_equal(dg_bucket_of(&gpu, 3, DG_PREC_FLOAT, 100), DG_BUCKET_SMALL);
  assert_int_equal(dg_bucket_of(&gpu, 3, DG_PREC_FLOAT, 100000), DG_BUCKET_LARGE);
  /* The small bucket's timing problem is small on both. */
  const double d = dg_bucket_target_dofs(&cpu, 3, DG_PREC_FLOAT, DG_BUCKET_SMALL);
  const long K = (long)(d / (6 * dg_variant_np(3)));
  assert_int_equal(dg_bucket_of(&cpu, 3, DG_PREC_FLOAT, K), DG_BUCKET_SMALL);
  assert_true(d < dg_bucket_target_dofs(&cpu, 3, DG_PREC_FLOAT, DG_BUCKET_LARGE));
}

/* The large GPU problem outgrows the last-level cache 8 times in q and res (4 reals per DOF)
 * whatever the driver reports (an H100's OpenCL says 4.125 MiB; the floor is 64 MiB), is
 * capped by memory, and the small bucket stays below it. */
static void gpu_large_problem_outgrows_cache(void **state) {
  (void)state;
  dg_device_info h = tt_info("gpu", "NVIDIA Corporation", "580");
  h.type = CL_DEVICE_TYPE_GPU;
  h.compute_units = 132;
  h.global_mem_size = (cl_ulong)80 << 30;
  h.max_alloc_size = (cl_ulong)20 << 30;
  h.global_mem_cache_size = 4325376; /* what NVIDIA's OpenCL reports on an H100 */
  const double f = dg_tune_target_dofs(&h, DG_PREC_FLOAT), d = dg_tune_target_dofs(&h, DG_PREC_DOUBLE);
  assert_near(f, 8.0 * 64 * 1048576 / 16, 1);
  assert_near(d, 8.0 * 64 * 1048576 / 32, 1);
  assert_true(4 * 4 * f >= 8 * 50e6); /* past the H100's real 50 MB of L2, 8 times */
  h.global_mem_cache_size = (cl_ulong)256 << 20; /* a larger reported cache is believed */
  assert_near(dg_tune_target_dofs(&h, DG_PREC_FLOAT), 8.0 * 256 * 1048576 / 16, 1);
  h.global_mem_size = (cl_ulong)4 << 30; /* a 4 GiB card: half its memory for 4 operators */
  assert_near(dg_tune_target_dofs(&h, DG_PREC_FLOAT), 4294967296.0 / 2 / 4 / 64, 1);
  assert_true(dg_bucket_target_dofs(&h, 3, DG_PREC_FLOAT, DG_BUCKET_SMALL) <
              dg_tune_target_dofs(&h, DG_PREC_FLOAT));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gpu_large_problem_outgrows_cache),
      cmocka_unit_test(run_budget_rule),         cmocka_unit_test(model_learns_factors),
      cmocka_unit_test(transfer_seeds_and_buckets), cmocka_unit_test(own_neighbour_seeds), cmocka_unit_test(buckets_by_size),
      cmocka_unit_test(short_run_skips_tuning),
  };
  return cmocka_run_group_tests(tests, test_device_setup, test_device_teardown);
}

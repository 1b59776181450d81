/* An entry tuned with other templates (different template hash) is reported stale, gives
 * the default variant, and dg_tune_order re-tunes instead of reusing it. An entry keyed by
 * its winner's program hash (what tune writes) stays fresh when a template the winner does
 * not use is added or edited, and goes stale when one it is built from changes. */
#include "test_tune_util.h"

#include <stdlib.h>

#include "backend/cl_maxwell.h"

/* Append a comment line to dir/name (creating the file). */
static void touch_template(const char *dir, const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "a");
  assert_non_null(f);
  fprintf(f, "/* edited by the test */\n");
  assert_int_equal(fclose(f), 0);
}

static void test_program_hash_survives_unrelated_templates(void **state) {
  (void)state;
  char root[64], path[DG_TUNE_PATH + 64], desc[2048], cmd[DG_CG_PATH + 300], tdir[200];
  dg_tune_paths paths;
  tt_paths(&paths, root);
  snprintf(tdir, sizeof tdir, "%s/templates", root);
  uint64_t live = 0;
  assert_dg_ok(dg_codegen_templates_hash(NULL, &live)); /* the real directory, found first */
  char src[DG_CG_PATH];
  assert_dg_ok(dg_codegen_template_dir(src, sizeof src));
  snprintf(cmd, sizeof cmd, "cp -r '%s' '%s'", src, tdir);
  assert_int_equal(system(cmd), 0);
  const char *old_env = getenv("DGTD_TEMPLATES");
  char saved[DG_CG_PATH] = "";
  if (old_env) snprintf(saved, sizeof saved, "%s", old_env);
  setenv("DGTD_TEMPLATES", tdir, 1);

  const dg_device_info info = tt_info("Program Hash Device", "Test Vendor", "1.0");
  dg_device_key key;
  dg_device_key_from_info(&info, &key);
  dg_tune_cache_file(paths.cache_dir, info.name, path, sizeof path);
  dg_tune_entry e = tt_entry(2, DG_PREC_FLOAT, 0, "work=vec,vw=8,unroll=4");
  dg_variant w, fused, v;
  assert_dg_ok(dg_variant_parse(e.winner, &w));
  assert_dg_ok(dg_variant_parse("kb=2,fuse=res,prec=float", &fused));
  uint64_t h0 = 0, f0 = 0, h = 0, dir = 0;
  assert_dg_ok(dg_cl_maxwell_templates_hash(&w, &h0));
  assert_dg_ok(dg_cl_maxwell_templates_hash(&fused, &f0));
  assert_true(h0 != f0);
  e.template_hash = h0;
  assert_dg_ok(dg_tune_cache_store(path, &key, NULL, &e, NULL, 0));
  assert_dg_ok(dg_codegen_templates_hash(NULL, &dir));
  assert_true(dir != h0);
  assert_true(dg_tune_entry_fresh(&e, dir));
  assert_int_equal(dg_tune_lookup_at(&paths, &info, 2, DG_PREC_FLOAT, dir, &v, NULL, desc,
                                     sizeof desc),
                   DG_TUNE_HIT);

  /* A new template file and an edit to one only fused variants use: the directory's hash
   * moves, the winner's program hash does not, the fused variant's does. */
  touch_template(tdir, "zz_unused.cl");
  touch_template(tdir, "element_node.cl");
  assert_dg_ok(dg_codegen_templates_hash(NULL, &dir));
  assert_dg_ok(dg_cl_maxwell_templates_hash(&w, &h));
  assert_true(h == h0);
  assert_dg_ok(dg_cl_maxwell_templates_hash(&fused, &h));
  assert_true(h != f0);
  assert_int_equal(dg_tune_lookup_at(&paths, &info, 2, DG_PREC_FLOAT, dir, &v, NULL, desc,
                                     sizeof desc),
                   DG_TUNE_HIT);
  assert_int_equal(v.vw, 8);

  /* An edit to a template the winner is built from: stale. */
  touch_template(tdir, "flux.cl");
  assert_dg_ok(dg_codegen_templates_hash(NULL, &dir));
  assert_false(dg_tune_entry_fresh(&e, dir));
  assert_int_equal(dg_tune_lookup_at(&paths, &info, 2, DG_PREC_FLOAT, dir, &v, NULL, desc,
                                     sizeof desc),
                   DG_TUNE_STALE);

  if (old_env) setenv("DGTD_TEMPLATES", saved, 1);
  else unsetenv("DGTD_TEMPLATES");
  assert_dg_ok(dg_codegen_templates_hash(NULL, &dir));
  assert_true(dir == live);
  tt_rmrf(root);
}

static void test_stale_lookup(void **state) {
  (void)state;
  char root[64], path[DG_TUNE_PATH + 64], desc[2048];
  dg_tune_paths paths;
  tt_paths(&paths, root);
  const dg_device_info info = tt_info("Stale Device", "Test Vendor", "1.0");
  dg_device_key key;
  dg_device_key_from_info(&info, &key);
  dg_tune_cache_file(paths.cache_dir, info.name, path, sizeof path);
  dg_tune_entry e = tt_entry(2, DG_PREC_FLOAT, 0x1111, "work=vec,vw=8,unroll=4");
  assert_dg_ok(dg_tune_cache_store(path, &key, NULL, &e, NULL, 0));
  dg_variant v;
  assert_int_equal(dg_tune_lookup_at(&paths, &info, 2, DG_PREC_FLOAT, 0x1111, &v, NULL, desc,
                                     sizeof desc),
                   DG_TUNE_HIT);
  assert_int_equal(v.vw, 8);
  assert_int_equal(dg_tune_lookup_at(&paths, &info, 2, DG_PREC_FLOAT, 0x2222, &v, NULL, desc,
                                     sizeof desc),
                   DG_TUNE_STALE);
  printf("# %s\n", desc);
  assert_non_null(strstr(desc, "stale"));
  /* The stale winner stands in until the device is tuned again (not the generic default). */
  assert_int_equal(v.vw, 8);
  assert_int_equal(v.unroll, 4);
  /* A stale winner this device cannot run (here: of the other precision) is a miss. */
  e = tt_entry(2, DG_PREC_FLOAT, 0x1111, "work=vec,vw=8,unroll=4");
  snprintf(e.winner, sizeof e.winner, "work=vec,vw=8,unroll=4,prec=double");
  assert_dg_ok(dg_tune_cache_store(path, &key, NULL, &e, NULL, 0));
  assert_int_equal(dg_tune_lookup_at(&paths, &info, 2, DG_PREC_FLOAT, 0x2222, &v, NULL, desc,
                                     sizeof desc),
                   DG_TUNE_MISS);
  assert_non_null(strstr(desc, "stale"));
  const dg_variant d = dg_variant_default(&info, 2, DG_PREC_FLOAT);
  assert_memory_equal(&v, &d, sizeof v);
  tt_rmrf(root);
}

/* dg_tune_order on the real device: a cached entry with a wrong hash is not reported from
 * the cache; the run times variants again and overwrites the entry with the right hash. */
static void test_stale_entry_retunes(void **state) {
  (void)state;
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    skip();
  }
  char root[64];
  dg_tune_options opt;
  tt_options(&opt, root);
  opt.budget_s = 1e-3; /* stage 0 (baseline, default) and the final round only */
  dg_device_key key;
  dg_device_key_from_info(&dev->info, &key);
  char path[DG_TUNE_PATH + 64];
  dg_tune_cache_file(opt.paths.cache_dir, dev->info.name, path, sizeof path);
  uint64_t hash = 0;
  assert_dg_ok(dg_codegen_templates_hash(NULL, &hash));
  dg_tune_entry old = tt_entry(1, DG_PREC_FLOAT, hash ^ 1, "baseline");
  assert_dg_ok(dg_tune_cache_store(path, &key, NULL, &old, NULL, 0));
  dg_tune_result r;
  assert_dg_ok(dg_tune_order(dev, 1, DG_PREC_FLOAT, &opt, NULL, &r));
  printf("# %s\n", r.note);
  assert_int_equal(r.from_cache, 0);
  assert_non_null(strstr(r.note, "stale"));
  assert_true(r.winner >= 0);
  assert_true(r.budget_hit);
  dg_tune_result_free(&r);
  /* Now fresh: the next run reports the cached entry without timing anything. */
  assert_dg_ok(dg_tune_order(dev, 1, DG_PREC_FLOAT, &opt, NULL, &r));
  assert_int_equal(r.from_cache, 1);
  assert_true(r.winner >= 0);
  dg_tune_result_free(&r);
  char desc[2048];
  dg_variant v;
  assert_int_equal(dg_tune_lookup_at(&opt.paths, &dev->info, 1, DG_PREC_FLOAT, hash, &v, NULL,
                                     desc, sizeof desc),
                   DG_TUNE_HIT);
  dg_device_destroy(&dev);
  tt_rmrf(root);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_stale_lookup),
                                     cmocka_unit_test(test_program_hash_survives_unrelated_templates),
                                     cmocka_unit_test(test_stale_entry_retunes)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* A tune killed part-way resumes from its journal: variants already timed are not timed
 * again (the resumed run's progress lines time vw=8 once, in the final round beside the
 * baseline, and its journal figures stand); a variant that was being built when the process
 * died (an "attempt" without an outcome) is tried once more, since the kill may have had
 * nothing to do with it, and one that did not finish in two earlier runs (a compiler crash,
 * say) is recorded as failed and skipped. */
#include "core/files.h"
#include "test_tune_util.h"

#include <inttypes.h>
#include <unistd.h>

static void test_resume(void **state) {
  (void)state;
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    skip();
  }
  char root[64];
  dg_tune_options opt;
  tt_options(&opt, root);
  const char *specs[] = {"work=vec,vw=8", "baseline", "work=vec,vw=4", "work=vec,vw=2"};
  opt.specs = specs;
  opt.n_specs = 4;
  /* The journal an earlier run left: vw=8 was timed, vw=4 was being built when it died. */
  uint64_t hash = 0;
  assert_dg_ok(dg_codegen_templates_hash(NULL, &hash));
  dg_device_key key;
  dg_device_key_from_info(&dev->info, &key);
  char slug[128], dir[DG_TUNE_PATH + 16], path[DG_TUNE_PATH + 256];
  dg_device_slug(dev->info.name, slug, sizeof slug);
  snprintf(dir, sizeof dir, "%s/journal", opt.paths.cache_dir);
  assert_dg_ok(dg_mkdir_p(dir));
  snprintf(path, sizeof path, "%s/%s-%08" PRIx32 "-N1-float-list.jsonl", dir, slug,
           (uint32_t)dg_device_key_hash(&key));
  const int n = dg_tune_box_n(opt.target_dofs, 1);
  const long K = 6L * n * n * n;
  char s8[DG_VARIANT_SPEC_MAX], s4[DG_VARIANT_SPEC_MAX], s2[DG_VARIANT_SPEC_MAX];
  dg_variant v;
  assert_dg_ok(dg_variant_parse(specs[0], &v));
  dg_variant_print(&v, s8, sizeof s8);
  assert_dg_ok(dg_variant_parse(specs[2], &v));
  dg_variant_print(&v, s4, sizeof s4);
  assert_dg_ok(dg_variant_parse(specs[3], &v));
  dg_variant_print(&v, s2, sizeof s2);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f, "{\"hash\":\"%016" PRIx64 "\",\"K\":%ld,\"spec\":\"%s\",\"event\":\"attempt\"}\n", hash, K, s8);
  fprintf(f, "{\"hash\":\"%016" PRIx64 "\",\"K\":%ld,\"spec\":\"%s\",\"event\":\"timed\",\"stage\":1,"
             "\"rel_diff\":1e-7,\"samples\":[1e9,1e9,1e9,1e9,1e9]}\n", hash, K, s8);
  fprintf(f, "{\"hash\":\"%016" PRIx64 "\",\"K\":%ld,\"spec\":\"%s\",\"event\":\"attempt\"}\n", hash, K, s2);
  fprintf(f, "{\"hash\":\"%016" PRIx64 "\",\"K\":%ld,\"spec\":\"%s\",\"event\":\"attempt\"}\n", hash, K, s4);
  fprintf(f, "{\"hash\":\"%016" PRIx64 "\",\"K\":%ld,\"spec\":\"%s\",\"event\":\"attempt\"}\n", hash, K, s2);
  fprintf(f, "{\"hash\":\"%016" PRIx64 "\",\"K\":%ld,\"spe", hash, K); /* torn last line */
  fclose(f);

  /* The progress lines say what this run timed: one line per timing of a variant. */
  char *log_text = NULL;
  size_t log_len = 0;
  FILE *log = open_memstream(&log_text, &log_len);
  assert_non_null(log);
  opt.verbose = 1;
  opt.log = log;
  dg_tune_result r;
  assert_dg_ok(dg_tune_order(dev, 1, DG_PREC_FLOAT, &opt, NULL, &r));
  fclose(log);
  /* Timings of vw=8 (its progress lines end "ms  SPEC"), of which the journal had one. */
  int timed8 = 0;
  for (char *l = log_text, *nl; l && *l; l = nl ? nl + 1 : NULL) {
    nl = strchr(l, '\n');
    if (nl) *nl = '\0';
    printf("# %s\n", l);
    const size_t n = strlen(l), m = strlen(s8);
    timed8 += n > m + 4 && !strcmp(l + n - m, s8) && !strncmp(l + n - m - 4, "ms  ", 4);
  }
  assert_non_null(strstr(log_text, "resuming: 1 variants already timed, 1 unfinished one"));
  assert_int_equal(r.n, 4);
  int i8 = -1, i4 = -1, i2 = -1, ib = -1;
  for (int i = 0; i < r.n; ++i) {
    if (!strcmp(r.c[i].spec, s8)) i8 = i;
    else if (!strcmp(r.c[i].spec, s4)) i4 = i;
    else if (!strcmp(r.c[i].spec, s2)) i2 = i;
    else ib = i;
  }
  assert_true(i8 >= 0 && i4 >= 0 && i2 >= 0 && ib >= 0);
  /* In flight once: tried again, and it builds, verifies and is timed. */
  assert_int_equal(r.c[i4].status, DG_CAND_TIMED);
  /* In flight in two runs: excluded without a third try. */
  assert_int_equal(r.c[i2].status, DG_CAND_FAILED);
  assert_non_null(strstr(r.c[i2].reason, "did not finish in 2 earlier runs"));
  assert_int_equal(r.c[ib].status, DG_CAND_TIMED);
  assert_int_equal(r.c[i8].status, DG_CAND_TIMED);
  /* Not timed again in the first pass: the final round re-times it beside the baseline, so
   * its journal value (1 s) is replaced by a real one. */
  assert_true(r.c[i8].in_final);
  assert_true(r.c[i8].median_ns < 1e9);
  /* ... and only there: timed once by this run (the final round) and not verified again
   * (the journal's difference stands). */
  if (timed8 != 1)
    fail_msg("%s timed %d times by the resumed tune, want 1 (the final round)", s8, timed8);
  assert_true(r.c[i8].rel_diff == 1e-7);
  dg_tune_result_free(&r);
  free(log_text);
  /* A completed tune deletes its journal. */
  assert_int_equal(access(path, F_OK), -1);
  dg_device_destroy(&dev);
  tt_rmrf(root);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_resume)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

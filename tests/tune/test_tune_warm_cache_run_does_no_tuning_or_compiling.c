/* `dgtd run --tune auto`: the first run on a device with an empty cache tunes and compiles
 * (its cost is stated as 1000 s through DGTD_TUNE_ESTIMATE, so the run-aware policy lets it
 * tune, within the 5 s --tune-budget);
 * a second run finds the winner in the cache and loads its program binary, so it reports no
 * tuning and no compilation (counters from --json, not wall time). */
#include "test_util.h"

static int run_json(const char *cache, const char *args, char *out, size_t cap) {
  const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "DGTD_CACHE_DIR=%s DGTD_TUNING_DIR=%s/none DGTD_TUNE=auto DGTD_TUNE_ESTIMATE=1000 %s/dgtd run %s --json --quiet 2>&1",
           cache, cache, bin, args);
  return test_capture(cmd, out, cap);
}

static int field(const char *json, const char *key) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\":", key);
  const char *at = strstr(json, pat);
  if (!at) fail_msg("no %s in %s", key, json);
  at += strlen(pat);
  if (!strncmp(at, "true", 4)) return 1;
  if (!strncmp(at, "false", 5)) return 0;
  return atoi(at);
}

static void second_run_uses_the_cache(void **state) {
  (void)state;
  char cache[] = "/tmp/dgtd-warm-XXXXXX";
  assert_non_null(mkdtemp(cache));
  /* No shipped results (an empty tuning dir); a small budget keeps the first run short. */
  const char *args = "--order 1 --box 2 --final-time 0.05 --tune-budget 5";
  char out[16384];
  assert_int_equal(run_json(cache, args, out, sizeof out), 0);
  assert_int_equal(field(out, "tuned"), 1);
  assert_true(field(out, "programs_built") >= 1);
  assert_non_null(strstr(out, "fresh tuning"));
  assert_int_equal(run_json(cache, args, out, sizeof out), 0);
  assert_int_equal(field(out, "tuned"), 0);
  assert_int_equal(field(out, "programs_built"), 0);
  assert_true(field(out, "programs_loaded") >= 1);
  assert_non_null(strstr(out, "tuned: cache"));
  assert_int_equal(test_rmrf(cache), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(second_run_uses_the_cache)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* `dgtd bench --json` on a tiny mesh emits valid JSON with every field, reports a wrong variant as failed without timing it, `--save` keeps the same report and `--plot` writes PNGs. */
#include "test_util.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "device/device.h"
#include "tune/cache.h"

typedef struct {
  char root[64];
  char exe[512];
} fixture;

/* A scratch cache holding this device's limits, so the test does not spend seconds (and a
 * CLBlast compile) measuring them; the numbers only scale the reported percentages. */
static fixture fx;

static int setup(void **state) {
  const char *bin = getenv("BIN");
  snprintf(fx.exe, sizeof fx.exe, "%s/dgtd", bin && *bin ? bin : "bin");
  strcpy(fx.root, "/tmp/dgtd-test-bench-XXXXXX");
  if (!mkdtemp(fx.root)) return -1;
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    *state = NULL; /* no device: the tests skip */
    return 0;
  }
  dg_device_key key;
  dg_device_key_from_info(&dev->info, &key);
  dg_device_limits l;
  memset(&l, 0, sizeof l);
  l.bandwidth_gbs = 50;
  l.fma_gflops[0] = 200;
  l.fma_gflops[1] = 100;
  snprintf(l.date, sizeof l.date, "2026-01-01T00:00:00Z");
  char path[DG_TUNE_PATH + 64];
  dg_tune_cache_file(fx.root, dev->info.name, path, sizeof path);
  const dg_status st = dg_tune_cache_store(path, &key, &l, NULL, NULL, 0);
  dg_device_destroy(&dev);
  if (st != DG_OK) return -1;
  *state = &fx;
  return 0;
}

static int teardown(void **state) {
  (void)state;
  return test_rmrf(fx.root);
}

/* Runs dgtd with args; stdout into out (cap bytes); returns the exit status. */
static int run(const fixture *fx, const char *args, char *out, size_t cap) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "DGTD_CACHE_DIR=%s %s bench %s", fx->root, fx->exe, args);
  return test_capture(cmd, out, cap);
}

static const cJSON *field(const cJSON *o, const char *key) {
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!x) fail_msg("JSON field '%s' missing", key);
  return x;
}

static double number(const cJSON *o, const char *key) {
  const cJSON *x = field(o, key);
  if (!cJSON_IsNumber(x)) fail_msg("JSON field '%s' is not a number", key);
  return x->valuedouble;
}

static const char *string(const cJSON *o, const char *key) {
  const cJSON *x = field(o, key);
  if (!cJSON_IsString(x)) fail_msg("JSON field '%s' is not a string", key);
  return x->valuestring;
}

static void check_triple(const cJSON *o, const char *key) {
  const cJSON *t = field(o, key);
  const double med = number(t, "median"), lo = number(t, "min"), hi = number(t, "max");
  assert_true(lo > 0 && lo <= med && med <= hi);
}

static void test_orders_json(void **state) {
  fixture *fx = *state;
  if (!fx || access(fx->exe, X_OK) != 0) skip();
  static char out[1 << 20];
  char args[512];
  snprintf(args, sizeof args,
           "--order 1,2 --elements 48 --repeats 3 --json -q --variant test=flip --plot %s/png "
           "--save %s/saved.json",
           fx->root, fx->root);
  assert_int_equal(run(fx, args, out, sizeof out), 0);
  cJSON *doc = cJSON_Parse(out);
  if (!doc) fail_msg("not JSON: %.300s", out);
  assert_string_equal(string(doc, "format"), "dgtd-bench/1");
  string(doc, "date");
  string(doc, "command");
  string(doc, "sizing");
  assert_string_equal(string(doc, "precision"), "float");
  assert_true(number(doc, "repeats") == 3);
  assert_true(number(doc, "host_busy_before") <= 1);
  assert_true(number(doc, "host_busy_after") <= 1);
  assert_true(number(doc, "seconds") >= 0);
  const cJSON *dev = field(doc, "device");
  assert_true(strlen(string(dev, "name")) > 0);
  string(dev, "platform");
  string(dev, "driver_version");
  assert_true(number(dev, "compute_units") >= 1);
  const cJSON *lim = field(doc, "limits");
  assert_true(number(lim, "bandwidth_gbs") == 50);
  assert_true(number(lim, "fma_gflops_float") == 200);
  const cJSON *orders = field(doc, "orders");
  assert_int_equal(cJSON_GetArraySize(orders), 2);
  int N = 1;
  const cJSON *o;
  cJSON_ArrayForEach(o, orders) {
    assert_true(number(o, "N") == N);
    assert_true(number(o, "K") == 48);
    assert_true(number(o, "dofs") == 6.0 * 48 * (N == 1 ? 4 : 10));
    assert_true(number(o, "stage_flops") > 0 && number(o, "stage_bytes") > 0);
    assert_true(number(o, "stage_bound_ms") > 0);
    string(o, "stage_bound_by");
    string(o, "tuned_found");
    string(o, "tuned_from");
    assert_true(cJSON_IsBool(field(o, "tuned_is_default_fallback")));
    assert_non_null(strstr(string(o, "baseline_spec"), "work=node"));
    assert_true(strlen(string(o, "tuned_spec")) > 0 && strlen(string(o, "default_spec")) > 0);
    assert_true(number(o, "speedup_tuned_over_baseline") > 0);
    assert_true(number(o, "speedup_tuned_over_default") > 0);
    const cJSON *vs = field(o, "variants"), *v;
    int timed = 0, flipped = 0;
    cJSON_ArrayForEach(v, vs) {
      const char *spec = string(v, "spec");
      assert_true(cJSON_IsArray(field(v, "roles")));
      if (strstr(spec, "test=flip")) {
        /* Verification failed: reported with the reason, never timed. */
        assert_true(cJSON_IsFalse(field(v, "ok")));
        assert_non_null(strstr(string(v, "reason"), "wrong result"));
        assert_null(cJSON_GetObjectItemCaseSensitive(v, "stage_ms"));
        ++flipped;
        continue;
      }
      assert_true(cJSON_IsTrue(field(v, "ok")));
      assert_true(number(v, "rel_diff") < 1e-5);
      check_triple(v, "stage_ms");
      check_triple(v, "step_ms");
      assert_true(number(v, "dofs_per_s") > 0 && number(v, "dofs_per_s_step") > 0);
      assert_true(number(v, "gflops") > 0 && number(v, "gbs") > 0);
      assert_true(number(v, "roofline_pct") > 0);
      const cJSON *ks = field(v, "kernels"), *k;
      assert_true(cJSON_GetArraySize(ks) >= 2);
      cJSON_ArrayForEach(k, ks) {
        string(k, "name");
        string(k, "kind");
        assert_true(number(k, "median_ms") > 0);
        assert_true(number(k, "min_ms") <= number(k, "median_ms"));
        assert_true(number(k, "max_ms") >= number(k, "median_ms"));
        assert_true(number(k, "flops") > 0 && number(k, "bytes") > 0);
        assert_true(number(k, "gflops") > 0 && number(k, "gbs") > 0);
        assert_true(number(k, "intensity") > 0 && number(k, "bound_ms") > 0);
        assert_true(number(k, "roofline_pct") > 0);
        string(k, "bound_by");
      }
      ++timed;
    }
    assert_int_equal(flipped, 1);
    assert_true(timed >= 2); /* baseline and default (tuned may be either) */
    ++N;
  }
  /* --save wrote the same document. */
  char saved_path[256];
  snprintf(saved_path, sizeof saved_path, "%s/saved.json", fx->root);
  FILE *sf = fopen(saved_path, "r");
  if (!sf) fail_msg("%s not written", saved_path);
  static char saved[1 << 20];
  saved[fread(saved, 1, sizeof saved - 1, sf)] = '\0';
  fclose(sf);
  cJSON *again = cJSON_Parse(saved);
  assert_non_null(again);
  assert_true(cJSON_Compare(doc, again, 1));
  cJSON_Delete(again);
  cJSON_Delete(doc);
  static const char *const pngs[] = {"dofs_vs_order.png", "roofline.png", "variants.png"};
  for (int i = 0; i < 3; ++i) {
    char path[256];
    snprintf(path, sizeof path, "%s/png/%s", fx->root, pngs[i]);
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("%s not written", path);
    unsigned char magic[4] = {0};
    assert_int_equal(fread(magic, 1, 4, f), 4);
    fclose(f);
    assert_memory_equal(magic, "\x89PNG", 4);
  }
}

static void test_scaling_json(void **state) {
  fixture *fx = *state;
  if (!fx || access(fx->exe, X_OK) != 0) skip();
  static char out[1 << 20];
  assert_int_equal(
      run(fx, "--scaling --order 1 --max-dofs 20000 --repeats 3 --json -q", out, sizeof out), 0);
  cJSON *doc = cJSON_Parse(out);
  if (!doc) fail_msg("not JSON: %.300s", out);
  const cJSON *sc = field(doc, "scaling");
  assert_int_equal(cJSON_GetArraySize(sc), 1);
  const cJSON *s = cJSON_GetArrayItem(sc, 0);
  assert_true(number(s, "N") == 1);
  string(s, "spec");
  assert_true(number(s, "rel_diff") < 1e-5);
  assert_true(number(s, "max_dofs") == 20000);
  const cJSON *pts = field(s, "points"), *p;
  /* n = 2, 3, 4, 5 (n -> round(1.26 n)): 36 Np n^3 <= 20000 DOFs with Np = 4. */
  assert_int_equal(cJSON_GetArraySize(pts), 4);
  double last = 0;
  cJSON_ArrayForEach(p, pts) {
    assert_true(number(p, "dofs") > last);
    last = number(p, "dofs");
    check_triple(p, "stage_ms");
    assert_true(number(p, "dofs_per_s") > 0);
  }
  assert_true(number(s, "full_dofs") > 0);
  cJSON_Delete(doc);
}

/* Bad input fails before any work, naming the option. */
static void test_bad_input(void **state) {
  fixture *fx = *state;
  if (!fx || access(fx->exe, X_OK) != 0) skip();
  char out[4096];
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "--order 0 2>&1");
  assert_int_equal(run(fx, cmd, out, sizeof out), 2);
  assert_non_null(strstr(out, "--order"));
  assert_int_equal(run(fx, "--variant work=bogus 2>&1", out, sizeof out), 2);
  assert_non_null(strstr(out, "work"));
  assert_int_equal(run(fx, "--elements 100 --dofs 1000 2>&1", out, sizeof out), 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_orders_json),
                                     cmocka_unit_test(test_scaling_json),
                                     cmocka_unit_test(test_bad_input)};
  return cmocka_run_group_tests(tests, setup, teardown);
}

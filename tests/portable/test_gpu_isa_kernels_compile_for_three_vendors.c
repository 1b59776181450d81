/* Kernels for GPUs this machine does not have: `dgtd kernels` writes each program's source
 * for a device profile (and says why a variant cannot run there), and scripts/gpu_isa.py
 * compiles the quick subset (N = 3, float and double: each profile's default and the tuner's
 * first-stage candidates, and the default with the source, PML and curved-element kernels)
 * with NVIDIA's, AMD's and Intel's back ends with no compile error and no spill.
 * A vendor whose tools are missing is skipped by the script: a SKIP line each (the whole case
 * when none is there). */
#include "test_util.h"

#include <dirent.h>
#include <sys/stat.h>

static char out[1 << 16];

static const char *bin(void) { return getenv("BIN") ? getenv("BIN") : "bin"; }

static int capture(const char *cmd) { return test_capture(cmd, out, sizeof out); }

static long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static int file_has(const char *path, const char *needle) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  static char buf[1 << 20];
  const size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  return strstr(buf, needle) != NULL;
}

static void test_kernels_writes_sources_and_index(void **state) {
  test_scratch *s = *state;
  char cmd[512], path[512];
  snprintf(cmd, sizeof cmd,
           "%s/dgtd kernels --out %s --order 2 --precision both --family default,pml,dft,multirate "
           "--profile nvidia-sm90,intel-dg2 2>&1", bin(), s->dir);
  assert_int_equal(capture(cmd), 0);
  assert_non_null(strstr(out, "programs written"));
  /* the default variant's program, with the order baked in */
  snprintf(path, sizeof path, "%s/nvidia-sm90/default-0-N2-float.cl", s->dir);
  assert_true(file_size(path) > 1000);
  assert_true(file_has(path, "#define NP 10\n"));
  assert_true(file_has(path, "__kernel"));
  /* the PML program has the PML kernels (their names are made by KNAME), the plain one not */
  assert_false(file_has(path, "KNAME(pmlsave)"));
  snprintf(path, sizeof path, "%s/nvidia-sm90/pml-1-N2-double.cl", s->dir);
  assert_true(file_has(path, "KNAME(pmlsave)"));
  /* the DFT and multirate programs, each with its kernels */
  snprintf(path, sizeof path, "%s/nvidia-sm90/dft-2-N2-float.cl", s->dir);
  assert_true(file_has(path, "__kernel"));
  snprintf(path, sizeof path, "%s/nvidia-sm90/multirate-3-N2-double.cl", s->dir);
  assert_true(file_has(path, "mr_complete"));
  /* DG2 has no fp64: its double programs are listed as skipped, with the reason */
  snprintf(path, sizeof path, "%s/intel-dg2/index.tsv", s->dir);
  assert_true(file_has(path, "no fp64"));
  snprintf(path, sizeof path, "%s/intel-dg2/default-0-N2-double.cl", s->dir);
  assert_int_equal(file_size(path), -1);
  snprintf(path, sizeof path, "%s/intel-dg2/default-0-N2-float.cl", s->dir);
  assert_true(file_size(path) > 1000);
  /* a profile that does not exist is refused by name */
  snprintf(cmd, sizeof cmd, "%s/dgtd kernels --out %s --profile nvidia-sm99 2>&1", bin(), s->dir);
  assert_int_equal(capture(cmd), 2);
  assert_non_null(strstr(out, "nvidia-sm99"));
}

static void test_quick_subset_compiles_without_spills(void **state) {
  test_scratch *s = *state;
  char cmd[512];
  snprintf(cmd, sizeof cmd, "/usr/bin/python3 scripts/gpu_isa.py --quick --dgtd %s/dgtd --out %s 2>&1",
           bin(), s->dir);
  const int rc = capture(cmd);
  printf("# %s%s", out, out[0] && out[strlen(out) - 1] == '\n' ? "" : "\n");
  /* no vendor compiler at all: the script said which packages */
  if (rc == 77) test_skip("no GPU vendor compiler (scripts/install-deps.sh)");
  assert_int_equal(rc, 0);
  /* a vendor whose tools are missing: "gpu_isa: FAMILY skipped: why" */
  for (const char *l = strstr(out, "gpu_isa: "); l; l = strstr(l + 1, "gpu_isa: ")) {
    const char *nl = strchr(l, '\n'), *sk = strstr(l, " skipped: ");
    if (sk && (!nl || sk < nl))
      test_skip_part("%.*s", nl ? (int)(nl - l) : (int)strlen(l), l);
  }
  /* every profile whose compiler is there compiled its programs */
  assert_non_null(strstr(out, "gpu_isa: ok"));
  assert_null(strstr(out, "COMPILE ERROR"));
  assert_null(strstr(out, "SPILL"));
}

/* Intel's OpenCL driver registered as an ICD makes every OpenCL test abort under
 * AddressSanitizer (it dlopens a library with RTLD_DEEPBIND); the Intel compiler must stay
 * unpacked in build/intel. Checked in the sanitizer build, where it matters (and only
 * registered there: elsewhere it would be a skip). */
#if defined(__SANITIZE_ADDRESS__)
static void test_no_intel_icd_registered_under_asan(void **state) {
  (void)state;
  DIR *d = opendir("/etc/OpenCL/vendors");
  if (!d) return;
  for (struct dirent *e; (e = readdir(d));) {
    char path[512];
    snprintf(path, sizeof path, "/etc/OpenCL/vendors/%s", e->d_name);
    if (file_has(path, "igdrcl"))
      fail_msg("%s registers Intel's OpenCL driver, which makes the OpenCL tests abort under "
               "AddressSanitizer: remove it (scripts/install-deps.sh keeps Intel's compiler in "
               "build/intel instead)", path);
  }
  closedir(d);
}
#endif

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_kernels_writes_sources_and_index, setup,
                                      test_scratch_teardown),
      cmocka_unit_test_setup_teardown(test_quick_subset_compiles_without_spills, setup,
                                      test_scratch_teardown),
#if defined(__SANITIZE_ADDRESS__)
      cmocka_unit_test(test_no_intel_icd_registered_under_asan),
#endif
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

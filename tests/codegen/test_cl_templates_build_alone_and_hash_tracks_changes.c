/* Each template builds with its defaults (contract.h + common.cl + operator.cl + the
 * template, no host defines; the
 * surface kernels with and without the incident plane wave, in float and double), the
 * rendered source carries the host's defines and literal arrays, $DGTD_TEMPLATES picks the
 * template directory, and the template hash changes when a template changes. */
#include "test_util.h"

#include <dirent.h>

#include <sys/stat.h>
#include <unistd.h>

#include "codegen/codegen.h"
#include "core/alloc.h"
#include "device/program.h"

static void test_each_template_builds_with_defaults(void **state) {
  (void)state;
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    skip();
  }
  /* The surface term is three templates that build together (incident, flux, lift). */
  const char *files[][3] = {{"volume.cl"},
                            {"incident.cl", "flux.cl", "lift.cl"},
                            {"update.cl"},
                            {"blas_pointwise.cl"},
                            {"source.cl"},
                            {"dispersive.cl"},
                            {"incident.cl", "flux.cl", "lift.cl"},
                            {"incident.cl", "flux.cl", "lift.cl"}};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
    dg_kernel_spec s;
    memset(&s, 0, sizeof s);
    if (i >= 6) assert_dg_ok(dg_kernel_spec_define(&s, "DG_INCIDENT", "1"));
    if (i == 7 && !dev->info.has_fp64) continue;
    if (i == 7) assert_dg_ok(dg_kernel_spec_define(&s, "DG_DOUBLE", "1"));
    assert_dg_ok(dg_kernel_spec_file(&s, "common.cl"));
    assert_dg_ok(dg_kernel_spec_file(&s, "operator.cl"));
    for (int f = 0; f < 3 && files[i][f]; ++f) assert_dg_ok(dg_kernel_spec_file(&s, files[i][f]));
    char *src = NULL;
    cl_program prog = NULL;
    assert_dg_ok(dg_codegen_render(&s, &src));
    assert_dg_ok(dg_program_build(dev, src, NULL, files[i][0], NULL, &prog));
    dg_program_release(&prog);
    dg_free(&src);
  }
  dg_device_destroy(&dev);
}

static void test_render_has_defines_then_contract_then_common_then_arrays(void **state) {
  (void)state;
  dg_kernel_spec s;
  memset(&s, 0, sizeof s);
  const double a[3] = {0.5, -1, 1e-20};
  assert_dg_ok(dg_kernel_spec_define(&s, "NP", "%d", 10));
  assert_dg_ok(dg_kernel_spec_file(&s, "common.cl"));
  assert_dg_ok(dg_kernel_spec_file(&s, "update.cl"));
  assert_dg_ok(dg_kernel_spec_array(&s, "c_A", a, 3));
  s.arrays_float = 1;
  char *src = NULL;
  assert_dg_ok(dg_codegen_render(&s, &src));
  const char *def = strstr(src, "#define NP 10\n");
  const char *contract = strstr(src, "#define PLACE_NONE 1");
  const char *common = strstr(src, "typedef REAL real_t;");
  const char *arr = strstr(src, "__constant real_t c_A[3] = {");
  const char *upd = strstr(src, "KNAME(update)");
  assert_non_null(def);
  assert_non_null(contract);
  assert_non_null(common);
  assert_non_null(arr);
  assert_non_null(upd);
  assert_true(def < contract && contract < common && common < arr && arr < upd);
  assert_non_null(strstr(arr, "-1.00000000000000000e+00f"));
  dg_free(&src);
}

static void copy_file(const char *from, const char *to) {
  char *text = NULL;
  size_t len = 0;
  assert_dg_ok(dg_codegen_read_file(from, &text, &len));
  FILE *f = fopen(to, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(text, 1, len, f), len);
  fclose(f);
  dg_free(&text);
}

static void test_hash_tracks_template_changes(void **state) {
  (void)state;
  char dir[] = "/tmp/dgtd-templates-XXXXXX";
  assert_non_null(mkdtemp(dir));
  /* A copy of every template. */
  char from[512], to[512];
  DIR *d = opendir("cl_templates");
  assert_non_null(d);
  for (struct dirent *e; (e = readdir(d));) {
    const size_t len = strlen(e->d_name);
    if (len < 4 || (strcmp(e->d_name + len - 3, ".cl") && strcmp(e->d_name, "contract.h"))) continue;
    snprintf(from, sizeof from, "cl_templates/%s", e->d_name);
    snprintf(to, sizeof to, "%s/%s", dir, e->d_name);
    copy_file(from, to);
  }
  closedir(d);
  uint64_t h0 = 0, h1 = 0, h2 = 0, h3 = 0;
  assert_dg_ok(dg_codegen_templates_hash("cl_templates", &h0));
  assert_dg_ok(dg_codegen_templates_hash(dir, &h1));
  assert_true(h0 == h1);
  snprintf(to, sizeof to, "%s/update.cl", dir);
  FILE *f = fopen(to, "ab");
  assert_non_null(f);
  fputs("/* changed */\n", f);
  fclose(f);
  assert_dg_ok(dg_codegen_templates_hash(dir, &h2));
  assert_true(h2 != h1);
  snprintf(to, sizeof to, "%s/extra.cl", dir);
  f = fopen(to, "wb");
  assert_non_null(f);
  fclose(f);
  assert_dg_ok(dg_codegen_templates_hash(dir, &h3));
  assert_true(h3 != h2);
  /* The contract is part of every hash: of all templates, and of one program's files. */
  const char *one[] = {"update.cl"};
  uint64_t p0 = 0, p1 = 0, h5 = 0;
  assert_dg_ok(dg_codegen_files_hash(dir, one, 1, &p0));
  snprintf(to, sizeof to, "%s/contract.h", dir);
  f = fopen(to, "ab");
  assert_non_null(f);
  fputs("/* changed */\n", f);
  fclose(f);
  assert_dg_ok(dg_codegen_files_hash(dir, one, 1, &p1));
  assert_true(p1 != p0);
  assert_dg_ok(dg_codegen_templates_hash(dir, &h5));
  assert_true(h5 != h3);
  h3 = h5;

  /* $DGTD_TEMPLATES wins over ./cl_templates. */
  char got[DG_CG_PATH];
  assert_dg_ok(setenv("DGTD_TEMPLATES", dir, 1) == 0 ? DG_OK : DG_ERR_IO);
  assert_dg_ok(dg_codegen_template_dir(got, sizeof got));
  assert_string_equal(got, dir);
  uint64_t h4 = 0;
  assert_dg_ok(dg_codegen_templates_hash(NULL, &h4));
  assert_true(h4 == h3);
  unsetenv("DGTD_TEMPLATES");
  assert_dg_error(dg_codegen_templates_hash("/nonexistent-dgtd-dir", &h4), DG_ERR_IO,
                  "/nonexistent-dgtd-dir");

  assert_int_equal(test_rmrf(dir), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_each_template_builds_with_defaults),
      cmocka_unit_test(test_render_has_defines_then_contract_then_common_then_arrays),
      cmocka_unit_test(test_hash_tracks_template_changes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

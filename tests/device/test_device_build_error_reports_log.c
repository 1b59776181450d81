/* A kernel with a syntax error fails with CL_BUILD_PROGRAM_FAILURE, the compiler's diagnostic
 * and a saved copy of the source; a good kernel builds, runs, is right and is timed. */
#include "test_util.h"

#include <sys/stat.h>
#include <unistd.h>

#include "device/device.h"
#include "device/program.h"

static const char *broken_source =
  "__kernel void broken(__global float *x) {\n"
  "  x[get_global_id(0)] = 1.0f +;\n"
  "}\n";

static const char *axpy_source =
  "__kernel void axpy(const int n, const float a, __global const float *x,\n"
  "                   __global float *y) {\n"
  "  int i = get_global_id(0);\n"
  "  if (i < n) y[i] = a * x[i] + y[i];\n"
  "}\n";

typedef struct {
  dg_device *dev;
  char tmp[64]; /* private TMPDIR for the files these tests write */
} fixture;

static int file_exists(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0;
}

/* Each line of text as a TAP comment, so the message shows in the test log. */
static void print_tap_comment(const char *text) {
  for (const char *p = text; *p;) {
    size_t n = strcspn(p, "\n");
    printf("# %.*s\n", (int)n, p);
    p += n + (p[n] == '\n');
  }
}

static int setup(void **state) {
  fixture *fx = calloc(1, sizeof *fx);
  if (!fx) return -1;
  snprintf(fx->tmp, sizeof fx->tmp, "/tmp/dgtd-test-build-XXXXXX");
  if (!mkdtemp(fx->tmp)) return -1;
  setenv("TMPDIR", fx->tmp, 1);
  if (dg_device_create(&fx->dev, "0:0") != DG_OK) {
    dg_error_print(stderr);
    return -1;
  }
  *state = fx;
  return 0;
}

static int teardown(void **state) {
  fixture *fx = *state;
  dg_device_destroy(&fx->dev);
  test_rmrf(fx->tmp);
  free(fx);
  return 0;
}

static void syntax_error_reports_log_and_saves_source(void **state) {
  fixture *fx = *state;
  cl_program prog = NULL;
  assert_dg_error(dg_program_build(fx->dev, broken_source, "-DUNUSED=1", "broken kernel", NULL,
                                   &prog),
                  DG_ERR_OPENCL, "clBuildProgram: CL_BUILD_PROGRAM_FAILURE (-11)");
  assert_null(prog);
  const char *msg = dg_error_message();
  print_tap_comment(msg);
  assert_non_null(strstr(msg, "expected expression")); /* clang's diagnostic */
  assert_non_null(strstr(msg, "-DUNUSED=1"));

  /* "source written to PATH (" names a file under our TMPDIR. */
  const char *at = strstr(msg, "source written to ");
  assert_non_null(at);
  at += strlen("source written to ");
  char path[512];
  size_t n = strcspn(at, " \n");
  assert_true(n < sizeof path);
  memcpy(path, at, n);
  path[n] = '\0';
  assert_true(strncmp(path, fx->tmp, strlen(fx->tmp)) == 0);
  assert_non_null(strstr(path, "broken_kernel.cl"));
  assert_true(file_exists(path));
  strcpy(path + n - 3, ".log");
  assert_true(file_exists(path));
}

static void axpy_builds_runs_and_is_timed(void **state) {
  fixture *fx = *state;
  enum { N = 1000 };
  float x[N], y[N], out[N];
  for (int i = 0; i < N; ++i) {
    x[i] = (float)i / 7.0f;
    y[i] = 1.0f - (float)i;
  }
  char dump[128];
  snprintf(dump, sizeof dump, "%s/kernels/axpy", fx->tmp); /* created by the build */

  cl_program prog = NULL;
  cl_kernel k = NULL;
  cl_mem d_x = NULL, d_y = NULL;
  assert_dg_ok(dg_program_build(fx->dev, axpy_source, "-cl-std=CL1.2", "axpy", dump, &prog));
  char path[256];
  snprintf(path, sizeof path, "%s/axpy.cl", dump);
  assert_true(file_exists(path));
  snprintf(path, sizeof path, "%s/axpy.options", dump);
  assert_true(file_exists(path));

  assert_dg_error(dg_kernel_create(prog, "nosuchkernel", &k), DG_ERR_OPENCL, "nosuchkernel");
  assert_dg_ok(dg_kernel_create(prog, "axpy", &k));
  assert_dg_ok(dg_buffer_create(fx->dev, CL_MEM_READ_ONLY, sizeof x, x, &d_x));
  assert_dg_ok(dg_buffer_create(fx->dev, CL_MEM_READ_WRITE, sizeof y, NULL, &d_y));
  assert_dg_ok(dg_buffer_write(fx->dev, d_y, 0, sizeof y, y));
  int n = N;
  float a = 2.5f;
  assert_dg_ok(DG_KERNEL_ARG(k, 0, n));
  assert_dg_ok(DG_KERNEL_ARG(k, 1, a));
  assert_dg_ok(DG_KERNEL_ARG(k, 2, d_x));
  assert_dg_ok(DG_KERNEL_ARG(k, 3, d_y));
  assert_dg_error(DG_KERNEL_ARG(k, 7, a), DG_ERR_OPENCL, "kernel 'axpy' argument 7");
  assert_non_null(strstr(dg_error_message(), "CL_INVALID_ARG_INDEX"));

  size_t global = 1024, local = 64;
  cl_ulong ns = 0;
  assert_dg_ok(dg_kernel_run(fx->dev, k, 1, &global, &local, &ns));
  assert_true(ns > 0);
  printf("# axpy on %d floats: %llu ns\n", N, (unsigned long long)ns);
  assert_dg_ok(dg_buffer_read(fx->dev, d_y, 0, sizeof out, out));
  for (int i = 0; i < N; ++i) assert_near(out[i], a * x[i] + y[i], 1e-6 * (1 + fabs(y[i])));

  /* Untimed launch, then a launch whose global size the local size does not divide. */
  assert_dg_ok(dg_kernel_run(fx->dev, k, 1, &global, &local, NULL));
  size_t odd = 1000;
  assert_dg_error(dg_kernel_run(fx->dev, k, 1, &odd, &local, NULL), DG_ERR_OPENCL,
                  "CL_INVALID_WORK_GROUP_SIZE (-54) for kernel 'axpy' (global 1000, local 64)");

  dg_buffer_release(&d_x);
  dg_buffer_release(&d_y);
  dg_kernel_release(&k);
  dg_program_release(&prog);
  assert_null(prog);
  dg_program_release(&prog); /* NULL is fine */
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(syntax_error_reports_log_and_saves_source),
    cmocka_unit_test(axpy_builds_runs_and_is_timed),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

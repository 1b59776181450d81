/* Shared helpers for the cmocka tests. */
#ifndef DG_TEST_UTIL_H
#define DG_TEST_UTIL_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "core/status.h"

/* Every test binary runs with the device's default variant unless a test asks for tuning
 * itself (a cache miss would otherwise start a tuning run of minutes): set before main. */
/* stdout line-buffered, so a message on stderr lands between whole lines of the TAP output
 * (tests/run_tests.sh reads "ok N" at the start of a line). */
__attribute__((constructor)) static void test_util_env(void) {
  setenv("DGTD_TUNE", "never", 1);
  setvbuf(stdout, NULL, _IOLBF, 0);
}

/* Fails the test with the library's error message when a dg call fails. */
#define assert_dg_ok(expr)                                                          \
  do {                                                                              \
    dg_status st_ = (expr);                                                         \
    if (st_ != DG_OK) {                                                             \
      dg_error_print(stderr);                                                       \
      fail_msg("%s returned %s: %s", #expr, dg_status_name(st_), dg_error_message()); \
    }                                                                               \
  } while (0)

/* Asserts |a-b| <= tol, printing both values. */
#define assert_near(a, b, tol)                                                      \
  do {                                                                              \
    double a_ = (a), b_ = (b), t_ = (tol);                                          \
    if (!(fabs(a_ - b_) <= t_))                                                     \
      fail_msg("%s = %.17g, expected %s = %.17g within %.3g", #a, a_, #b, b_, t_);  \
  } while (0)

/* Asserts that expr fails with code and that its message contains substring. */
#define assert_dg_error(expr, code, substring)                                      \
  do {                                                                              \
    dg_error_clear();                                                               \
    dg_status st_ = (expr);                                                         \
    if (st_ != (code))                                                              \
      fail_msg("%s returned %s, expected %s (message: %s)", #expr, dg_status_name(st_), \
               dg_status_name(code), dg_error_message());                           \
    if (!strstr(dg_error_message(), (substring)))                                   \
      fail_msg("%s: message \"%s\" does not contain \"%s\"", #expr, dg_error_message(), \
               (substring));                                                        \
  } while (0)

/* A scratch directory under /tmp for one group of tests (cmocka group setup/teardown):
 * dir, and path = dir/FILE. */
typedef struct {
  char dir[64];
  char path[128];
} test_scratch;

static inline int test_scratch_setup(void **state, const char *file) {
  test_scratch *s = calloc(1, sizeof *s);
  if (!s) return -1;
  snprintf(s->dir, sizeof s->dir, "/tmp/dgtd-test-XXXXXX");
  if (!mkdtemp(s->dir)) return -1;
  snprintf(s->path, sizeof s->path, "%s/%s", s->dir, file);
  *state = s;
  return 0;
}

/* rm -rf dir (a scratch directory of a test); 0 on success. */
static inline int test_rmrf(const char *dir) {
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) == 0) return 0;
  fprintf(stderr, "could not remove %s\n", dir);
  return -1;
}

static inline int test_scratch_teardown(void **state) {
  test_scratch *s = *state;
  test_rmrf(s->dir);
  free(s);
  return 0;
}

/* Run the shell command cmd, its output (cmd's own redirections decide which streams) into
 * out[cap], NUL-terminated; returns its exit status, -1 if it did not exit normally. */
static inline int test_capture(const char *cmd, char *out, size_t cap) {
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  const size_t n = fread(out, 1, cap - 1, p);
  out[n] = '\0';
  const int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Path of a fixture file (tests/fixtures/NAME), relative to the repository root where
 * make test runs. */
#define FIXTURE(name) ("tests/fixtures/" name)

/* Skips. A skip hides whatever the skipped code would have caught, so every one is said and
 * counted: tests/run_tests.sh counts cmocka's skipped cases and the "# SKIP part:" lines of
 * cases that skipped only a part, in the "N skipped" of its last line. With
 * DGTD_TEST_NO_SKIP=1 (CI, where make test has installed every tool) a skip is a failure. */
static inline int test_no_skip(void) {
  const char *e = getenv("DGTD_TEST_NO_SKIP");
  return e && e[0] == '1';
}

/* The whole test case cannot run here (a tool or a device missing): "# SKIP: why" and
 * cmocka's skip(), or a failure under DGTD_TEST_NO_SKIP=1. */
#define test_skip(...)                                                               \
  do {                                                                               \
    char why_[512];                                                                  \
    snprintf(why_, sizeof why_, __VA_ARGS__);                                        \
    if (test_no_skip()) fail_msg("DGTD_TEST_NO_SKIP=1 and this case cannot run: %s", why_); \
    printf("# SKIP: %s\n", why_);                                                    \
    skip();                                                                          \
  } while (0)

/* A part of a test case cannot run here (the rest goes on): "# SKIP part: why", or a failure
 * under DGTD_TEST_NO_SKIP=1. */
#define test_skip_part(...)                                                          \
  do {                                                                               \
    char why_[512];                                                                  \
    snprintf(why_, sizeof why_, __VA_ARGS__);                                        \
    if (test_no_skip()) fail_msg("DGTD_TEST_NO_SKIP=1 and a part cannot run: %s", why_); \
    printf("# SKIP part: %s\n", why_);                                               \
  } while (0)

/* Of tried sub-cases (variants, jobs) at least min ran; the rest were skipped as the device
 * cannot run them (each said on its "# SKIP part:" line). A run that checked fewer than min
 * proves too little to pass. */
static inline void test_require_ran(const char *what, int ran, int tried, int min) {
  printf("# %d of %d %s ran (at least %d must)\n", ran, tried, what, min);
  if (ran < min)
    fail_msg("only %d of %d %s ran on this device; at least %d must", ran, tried, what, min);
}

#endif

#include "app/cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"

dg_status dg_cli_int(const char *opt, const char *s, int lo, int hi, int *out) {
  char *end = NULL;
  errno = 0;
  const long v = strtol(s, &end, 10);
  DG_CHECK(end != s && *end == '\0' && errno == 0, DG_ERR_INPUT,
           "%s: expected an integer, got '%s'", opt, s);
  DG_CHECK(v >= lo && v <= hi, DG_ERR_INPUT, "%s: %ld is out of range [%d, %d]", opt, v, lo, hi);
  *out = (int)v;
  return DG_OK;
}

dg_status dg_cli_double(const char *opt, const char *s, double *out) {
  char *end = NULL;
  errno = 0;
  const double v = strtod(s, &end);
  DG_CHECK(end != s && *end == '\0' && errno == 0 && isfinite(v), DG_ERR_INPUT,
           "%s: expected a number, got '%s'", opt, s);
  *out = v;
  return DG_OK;
}

/* Split s at commas into exactly n parts and parse each with parse(). */
static dg_status split(const char *opt, const char *s, int n, void *out, int is_int) {
  char buf[256];
  DG_CHECK(strlen(s) < sizeof buf, DG_ERR_INPUT, "%s: value too long", opt);
  strcpy(buf, s);
  int count = 0;
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    DG_CHECK(count < n, DG_ERR_INPUT, "%s: expected %d comma-separated values, got more in '%s'",
             opt, n, s);
    if (is_int)
      DG_CALL(dg_cli_int(opt, tok, -1000000, 1000000, (int *)out + count));
    else
      DG_CALL(dg_cli_double(opt, tok, (double *)out + count));
    ++count;
  }
  DG_CHECK(count == n, DG_ERR_INPUT, "%s: expected %d comma-separated values, got '%s'", opt, n, s);
  return DG_OK;
}

dg_status dg_cli_ints(const char *opt, const char *s, int n, int *out) {
  return split(opt, s, n, out, 1);
}

dg_status dg_cli_doubles(const char *opt, const char *s, int n, double *out) {
  return split(opt, s, n, out, 0);
}

dg_status dg_cli_orders(const char *s, int *orders, int *n) {
  char buf[128];
  DG_CHECK(strlen(s) < sizeof buf, DG_ERR_INPUT, "--order: '%s' too long", s);
  snprintf(buf, sizeof buf, "%s", s);
  *n = 0;
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    int a, b;
    char *dash = strchr(tok, '-');
    if (dash) {
      *dash = '\0';
      DG_CALL(dg_cli_int("--order", tok, 1, 15, &a));
      DG_CALL(dg_cli_int("--order", dash + 1, 1, 15, &b));
      DG_CHECK(a <= b, DG_ERR_INPUT, "--order: empty range %d-%d", a, b);
    } else {
      DG_CALL(dg_cli_int("--order", tok, 1, 15, &a));
      b = a;
    }
    for (int x = a; x <= b; ++x) {
      int dup = 0;
      for (int i = 0; i < *n; ++i) dup |= orders[i] == x;
      if (!dup) orders[(*n)++] = x;
    }
  }
  DG_CHECK(*n > 0, DG_ERR_INPUT, "--order: no order in '%s'", s);
  return DG_OK;
}

static int quiet;

static void print_log(void *ctx, dg_log_level level, const char *message) {
  (void)ctx;
  if (quiet && level == DG_LOG_NOTE) return;
  fprintf(stderr, "dgtd: %s%s\n", level == DG_LOG_WARNING ? "warning: " : "", message);
}

void dg_cli_log_to_stderr(void) { dg_log_set_handler(print_log, NULL); }
void dg_cli_set_quiet(int q) { quiet = q; }

dg_status dg_cli_precision(const char *s, dg_precision *p, int *both) {
  if (both) *both = 0;
  if (dg_precision_parse(s, p)) return DG_OK;
  if (both && !strcmp(s, "both")) {
    *p = DG_PREC_FLOAT;
    *both = 1;
    return DG_OK;
  }
  return DG_ERROR(DG_ERR_INPUT, "--precision: expected %s, got '%s'",
                  both ? "float, double or both" : "float or double", s);
}

int dg_cli_multirate(const char *s, dg_mr_scheme *scheme, const char **levels) {
  const size_t n = !strncmp(s, "multirate-lserk4", 16) ? 16 : !strncmp(s, "multirate", 9) ? 9 : 0;
  if (!n || (s[n] != '\0' && s[n] != ':')) return 0;
  *scheme = n == 16 ? DG_MR_LSERK4 : DG_MR_AB3;
  *levels = s[n] == ':' ? s + n + 1 : NULL;
  return 1;
}

dg_status dg_cli_bad_option(int o, const char *arg, const char *cmd, const char *what) {
  if (o == ':') return DG_ERROR(DG_ERR_INPUT, "%s needs a value (see dgtd %s --help)", arg, cmd);
  return DG_ERROR(DG_ERR_INPUT, "unknown %s '%s' (see dgtd %s --help)", what, arg, cmd);
}

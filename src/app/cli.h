/* Small, strict parsers for command-line values: the whole string must be a valid value
 * in range, otherwise DG_ERR_INPUT naming the option. */
#ifndef DG_APP_CLI_H
#define DG_APP_CLI_H

#include "backend/variant.h"
#include "core/status.h"
#include "dg/multirate.h"

dg_status dg_cli_int(const char *opt, const char *s, int lo, int hi, int *out) DG_NODISCARD;
dg_status dg_cli_double(const char *opt, const char *s, double *out) DG_NODISCARD;
/* A comma-separated list of exactly n integers (n_ints) or doubles. */
dg_status dg_cli_ints(const char *opt, const char *s, int n, int *out) DG_NODISCARD;
dg_status dg_cli_doubles(const char *opt, const char *s, int n, double *out) DG_NODISCARD;

/* An order list for --order: "3", "1-6", "2,4", "1-3,5" -> orders[0..*n), each in 1..15,
 * without repeats; orders must hold 15 entries. */
dg_status dg_cli_orders(const char *s, int *orders, int *n) DG_NODISCARD;

/* Print library warnings and notes (core/log.h) on stderr as "dgtd: ..."; after
 * dg_cli_set_quiet(1) only the warnings. */
void dg_cli_log_to_stderr(void);
void dg_cli_set_quiet(int quiet);

/* --precision: "float" or "double", and "both" (*both = 1) where both is non-NULL. */
dg_status dg_cli_precision(const char *s, dg_precision *p, int *both) DG_NODISCARD;

/* "multirate[:L]" or "multirate-lserk4[:L]": 1, with the scheme and *levels the text after
 * the colon (NULL without one); 0 for anything else. */
int dg_cli_multirate(const char *s, dg_mr_scheme *scheme, const char **levels);

/* The error for what getopt_long returned as o for the argument arg of `dgtd cmd`: ':' (an
 * option without its value) or anything else (an unknown WHAT: "option", "argument"). */
dg_status dg_cli_bad_option(int o, const char *arg, const char *cmd, const char *what) DG_NODISCARD;

#endif

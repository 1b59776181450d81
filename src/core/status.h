/* Error handling: every fallible function returns dg_status.
 *
 * DG_CHECK raises an error with a formatted message; DG_CALL propagates one and adds a
 * traceback line naming the call, file and line. main() prints the trace once and exits
 * with dg_status_exit_code(). The trace buffer is per thread (like errno): it is the one
 * piece of mutable state outside the objects passed around, and it only ever describes
 * the error currently travelling up the stack. */
#ifndef DG_CORE_STATUS_H
#define DG_CORE_STATUS_H

#include <stdio.h>

typedef enum {
  DG_OK = 0,
  DG_ERR_INPUT,       /* bad command-line or case input from the user */
  DG_ERR_IO,          /* a file could not be opened, read or written */
  DG_ERR_PARSE,       /* a file's contents are malformed (message names file and line) */
  DG_ERR_UNSUPPORTED, /* valid but not supported (format version, element type, ...) */
  DG_ERR_MESH,        /* the mesh is unusable (degenerate element, non-conforming face, ...) */
  DG_ERR_MEMORY,      /* allocation failed */
  DG_ERR_LAPACK,      /* dense linear algebra failed: a singular matrix, or LAPACKE */
  DG_ERR_OPENCL,      /* an OpenCL call failed */
  DG_ERR_NUMERIC,     /* a computation went wrong (blow-up, verification failure) */
  DG_ERR_INTERNAL,    /* a bug: an invariant did not hold */
  DG_ERR_INTERRUPTED  /* stopped by a signal (SIGINT, SIGTERM) */
} dg_status;

#if defined(__GNUC__)
#define DG_NODISCARD __attribute__((warn_unused_result))
#define DG_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define DG_NODISCARD
#define DG_PRINTF(a, b)
#endif

/* Record a new error (clearing any older trace) and return code. */
dg_status dg_error_raise(dg_status code, const char *file, int line, const char *func,
                         const char *fmt, ...) DG_PRINTF(5, 6);
/* Put a formatted prefix before the current message (keeping the trace), e.g. the file a
 * lower-level error was found in; returns code. */
dg_status dg_error_prefix(dg_status code, const char *fmt, ...) DG_PRINTF(2, 3);
/* Append one traceback frame to the current error and return code. */
dg_status dg_error_trace(dg_status code, const char *file, int line, const char *func,
                         const char *call);
/* The first (innermost) message of the current error, "" if none. */
const char *dg_error_message(void);
/* Print the message and the traceback to f. */
void dg_error_print(FILE *f);
/* Keep the current error aside while cleanup code that may fail runs, then put it back. */
typedef struct dg_error_saved dg_error_saved;
dg_error_saved *dg_error_save(void);        /* NULL if out of memory: restore is then a no-op */
void dg_error_restore(dg_error_saved *saved); /* frees saved */
/* Forget the current error (after it was handled). */
void dg_error_clear(void);
const char *dg_status_name(dg_status s);
/* Process exit code for a status: 0 ok, 2 user input, 3 files, 4 numerics, 5 device,
 * 130 interrupted (128 + SIGINT; the caller may know the signal better), 1 other. */
int dg_status_exit_code(dg_status s);

#define DG_CHECK(cond, code, ...)                                                   \
  do {                                                                              \
    if (!(cond)) return dg_error_raise((code), __FILE__, __LINE__, __func__, __VA_ARGS__); \
  } while (0)

#define DG_ERROR(code, ...) dg_error_raise((code), __FILE__, __LINE__, __func__, __VA_ARGS__)

#define DG_CALL(expr)                                                               \
  do {                                                                              \
    dg_status dg_s_ = (expr);                                                       \
    if (dg_s_ != DG_OK) return dg_error_trace(dg_s_, __FILE__, __LINE__, __func__, #expr); \
  } while (0)

/* For functions that must release resources: needs `dg_status st` and a label. */
#define DG_CALL_GOTO(label, expr)                                                   \
  do {                                                                              \
    st = (expr);                                                                    \
    if (st != DG_OK) {                                                              \
      dg_error_trace(st, __FILE__, __LINE__, __func__, #expr);                      \
      goto label;                                                                   \
    }                                                                               \
  } while (0)

#define DG_CHECK_GOTO(label, cond, code, ...)                                       \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      st = dg_error_raise((code), __FILE__, __LINE__, __func__, __VA_ARGS__);       \
      goto label;                                                                   \
    }                                                                               \
  } while (0)

#endif

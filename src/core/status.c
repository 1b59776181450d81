#include "core/status.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { DG_MSG_LEN = 2048, DG_TRACE_LEN = 4096 };

static _Thread_local char g_msg[DG_MSG_LEN];
static _Thread_local char g_trace[DG_TRACE_LEN];
static _Thread_local dg_status g_code;

dg_status dg_error_raise(dg_status code, const char *file, int line, const char *func,
                         const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g_msg, sizeof g_msg, fmt, ap);
  va_end(ap);
  snprintf(g_trace, sizeof g_trace, "  #0 %s() at %s:%d\n", func, file, line);
  g_code = code;
  return code;
}

dg_status dg_error_prefix(dg_status code, const char *fmt, ...) {
  char prefix[512], old[DG_MSG_LEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prefix, sizeof prefix, fmt, ap);
  va_end(ap);
  memcpy(old, g_msg, sizeof old);
  g_msg[0] = '\0';
  strncat(g_msg, prefix, sizeof g_msg - 1);
  strncat(g_msg, old, sizeof g_msg - strlen(g_msg) - 1);
  g_code = code;
  return code;
}

dg_status dg_error_trace(dg_status code, const char *file, int line, const char *func,
                         const char *call) {
  size_t used = strlen(g_trace);
  int depth = 0;
  for (const char *p = g_trace; *p; ++p) depth += (*p == '\n');
  if (used + 1 < sizeof g_trace)
    snprintf(g_trace + used, sizeof g_trace - used, "  #%d %s() at %s:%d: %s\n", depth, func,
             file, line, call);
  return code;
}

const char *dg_error_message(void) { return g_msg; }

void dg_error_print(FILE *f) {
  fprintf(f, "dgtd: error: %s\n", g_msg[0] ? g_msg : "(no message)");
  /* A user's mistake needs only the message; a failure of the program or the device gets
   * the traceback too (DGTD_TRACE=1 shows it always). */
  const int user_error = g_code == DG_ERR_INPUT || g_code == DG_ERR_PARSE ||
                         g_code == DG_ERR_IO || g_code == DG_ERR_UNSUPPORTED ||
                         g_code == DG_ERR_MESH || g_code == DG_ERR_INTERRUPTED;
  const char *env = getenv("DGTD_TRACE");
  if (g_trace[0] && (!user_error || (env && *env && strcmp(env, "0"))))
    fprintf(f, "traceback (innermost first):\n%s", g_trace);
}

struct dg_error_saved {
  char msg[DG_MSG_LEN], trace[DG_TRACE_LEN];
  dg_status code;
};

dg_error_saved *dg_error_save(void) {
  dg_error_saved *e = malloc(sizeof *e);
  if (!e) return NULL;
  memcpy(e->msg, g_msg, sizeof g_msg);
  memcpy(e->trace, g_trace, sizeof g_trace);
  e->code = g_code;
  return e;
}

void dg_error_restore(dg_error_saved *e) {
  if (!e) return;
  memcpy(g_msg, e->msg, sizeof g_msg);
  memcpy(g_trace, e->trace, sizeof g_trace);
  g_code = e->code;
  free(e);
}

void dg_error_clear(void) {
  g_code = DG_OK;
  g_msg[0] = '\0';
  g_trace[0] = '\0';
}

const char *dg_status_name(dg_status s) {
  switch (s) {
  case DG_OK: return "DG_OK";
  case DG_ERR_INPUT: return "DG_ERR_INPUT";
  case DG_ERR_IO: return "DG_ERR_IO";
  case DG_ERR_PARSE: return "DG_ERR_PARSE";
  case DG_ERR_UNSUPPORTED: return "DG_ERR_UNSUPPORTED";
  case DG_ERR_MESH: return "DG_ERR_MESH";
  case DG_ERR_MEMORY: return "DG_ERR_MEMORY";
  case DG_ERR_LAPACK: return "DG_ERR_LAPACK";
  case DG_ERR_OPENCL: return "DG_ERR_OPENCL";
  case DG_ERR_NUMERIC: return "DG_ERR_NUMERIC";
  case DG_ERR_INTERNAL: return "DG_ERR_INTERNAL";
  case DG_ERR_INTERRUPTED: return "DG_ERR_INTERRUPTED";
  }
  return "DG_ERR_UNKNOWN";
}

int dg_status_exit_code(dg_status s) {
  switch (s) {
  case DG_OK: return 0;
  case DG_ERR_INPUT: case DG_ERR_PARSE: case DG_ERR_UNSUPPORTED: case DG_ERR_MESH: return 2;
  case DG_ERR_IO: return 3;
  case DG_ERR_NUMERIC: return 4;
  case DG_ERR_OPENCL: return 5;
  case DG_ERR_INTERRUPTED: return 130;
  default: return 1;
  }
}

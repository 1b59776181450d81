#include "core/log.h"

#include <stdarg.h>
#include <stdio.h>

static dg_log_fn handler;
static void *handler_ctx;

void dg_log_set_handler(dg_log_fn fn, void *ctx) {
  handler = fn;
  handler_ctx = ctx;
}

static void emit(dg_log_level level, const char *fmt, va_list ap) {
  if (!handler) return;
  char msg[2048];
  vsnprintf(msg, sizeof msg, fmt, ap);
  handler(handler_ctx, level, msg);
}

void dg_warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emit(DG_LOG_WARNING, fmt, ap);
  va_end(ap);
}

void dg_note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emit(DG_LOG_NOTE, fmt, ap);
  va_end(ap);
}

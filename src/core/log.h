/* Warnings and notes from library code, which never prints: it hands each message to the
 * handler the program installed (app/main.c prints them on stderr; a test can collect
 * them). Without a handler, messages are dropped. Levels: a warning is something the user
 * should act on; a note is information (what was chosen and why). */
#ifndef DG_CORE_LOG_H
#define DG_CORE_LOG_H

#include "core/status.h"

typedef enum { DG_LOG_NOTE = 0, DG_LOG_WARNING } dg_log_level;
typedef void (*dg_log_fn)(void *ctx, dg_log_level level, const char *message);

/* Install the handler (NULL: drop messages); process-wide, set once at start-up. */
void dg_log_set_handler(dg_log_fn fn, void *ctx);

void dg_warn(const char *fmt, ...) DG_PRINTF(1, 2);
void dg_note(const char *fmt, ...) DG_PRINTF(1, 2);

#endif

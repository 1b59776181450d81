/* Error reporting for Scotch calls (see scotch_check.h). */
#include "part/scotch_check.h"

#include <string.h>

dg_status dg_scotch_raise(int code, const char *call, const char *file, int line,
                          const char *func) {
  /* Keep only the function name: the arguments are noise in a message. */
  const size_t n = strcspn(call, " (");
  return dg_error_raise(DG_ERR_INTERNAL, file, line, func,
                        "%.*s failed (returned %d; Scotch's own message is on stderr)", (int)n,
                        call, code);
}

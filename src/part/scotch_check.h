/* Checking Scotch calls. Scotch functions return 0 on success and print their own reason
 * to stderr (through libscotcherr) on failure; DG_SCOTCH turns a non-zero return into
 * "SCOTCH_graphPart failed (returned 1)" with a traceback frame, like DG_CL does for OpenCL.
 *
 *   DG_SCOTCH(SCOTCH_graphCheck(&g));              return on failure
 *   DG_SCOTCH_GOTO(done, SCOTCH_graphPart(...));   set `dg_status st` and jump to cleanup */
#ifndef DG_PART_SCOTCH_CHECK_H
#define DG_PART_SCOTCH_CHECK_H

#include "core/status.h"

/* Raise DG_ERR_INTERNAL naming the function at the start of `call` (the stringified call). */
dg_status dg_scotch_raise(int code, const char *call, const char *file, int line,
                          const char *func);

#define DG_SCOTCH(call)                                                             \
  do {                                                                              \
    int dg_sc_ = (call);                                                            \
    if (dg_sc_ != 0) return dg_scotch_raise(dg_sc_, #call, __FILE__, __LINE__, __func__); \
  } while (0)

#define DG_SCOTCH_GOTO(label, call)                                                 \
  do {                                                                              \
    int dg_sc_ = (call);                                                            \
    if (dg_sc_ != 0) {                                                              \
      st = dg_scotch_raise(dg_sc_, #call, __FILE__, __LINE__, __func__);            \
      goto label;                                                                   \
    }                                                                               \
  } while (0)

#endif

/* Checking CLBlast calls: DG_CLBLAST(CLBlastSgemm(...)) fails with
 * "CLBlastSgemm: CLBlastInvalidLeadDimA (-1016)" and a traceback frame, like DG_CL. */
#ifndef DG_BACKEND_CLBLAST_CHECK_H
#define DG_BACKEND_CLBLAST_CHECK_H

#include <clblast_c.h>

#include "core/status.h"

/* Symbolic name of a CLBlast status code ("CLBlastInvalidLeadDimA"). */
const char *dg_clblast_status_name(CLBlastStatusCode code);

dg_status dg_clblast_raise(CLBlastStatusCode code, const char *call, const char *file, int line,
                           const char *func);

#define DG_CLBLAST_GOTO(label, call)                                                \
  do {                                                                              \
    CLBlastStatusCode dg_cb_ = (call);                                              \
    if (dg_cb_ != CLBlastSuccess) {                                                 \
      st = dg_clblast_raise(dg_cb_, #call, __FILE__, __LINE__, __func__);           \
      goto label;                                                                   \
    }                                                                               \
  } while (0)

#define DG_CLBLAST(call)                                                            \
  do {                                                                              \
    CLBlastStatusCode dg_cb_ = (call);                                              \
    if (dg_cb_ != CLBlastSuccess)                                                   \
      return dg_clblast_raise(dg_cb_, #call, __FILE__, __LINE__, __func__);         \
  } while (0)

#endif

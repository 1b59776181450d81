/* Checking OpenCL calls. Every cl* call goes through one of these macros, so a failure reads
 * "clBuildProgram: CL_BUILD_PROGRAM_FAILURE (-11)" and its traceback frame gives file:line.
 *
 *   DG_CL(clFinish(q));                             call that returns a cl_int
 *   cl_mem d = clCreateBuffer(ctx, f, n, NULL, &err);
 *   DG_CL_ERR(err, "clCreateBuffer");               call with an errcode_ret out-param
 *
 * The _GOTO forms set `dg_status st` and jump to a cleanup label, like DG_CALL_GOTO. */
#ifndef DG_DEVICE_CL_CHECK_H
#define DG_DEVICE_CL_CHECK_H

#include <CL/cl.h>

#include "core/status.h"

/* Symbolic name of an OpenCL error code ("CL_INVALID_VALUE"): all OpenCL 1.2 codes, the
 * 2.x/3.0 additions and the common extension codes; "unknown OpenCL error" otherwise. */
const char *dg_cl_error_name(cl_int code);

/* Raise DG_ERR_OPENCL with "<function>: <NAME> (<code>)". `call` is the stringified call or
 * just a function name; only its leading identifier is kept. */
dg_status dg_cl_raise(cl_int code, const char *call, const char *file, int line,
                      const char *func);

/* The same, followed by a space and a formatted context ("for kernel 'axpy' arg 2"). */
dg_status dg_cl_raisef(cl_int code, const char *call, const char *file, int line,
                       const char *func, const char *fmt, ...) DG_PRINTF(6, 7);

#define DG_CL(call)                                                                 \
  do {                                                                              \
    cl_int dg_cl_ = (call);                                                         \
    if (dg_cl_ != CL_SUCCESS) return dg_cl_raise(dg_cl_, #call, __FILE__, __LINE__, __func__); \
  } while (0)

#define DG_CL_ERR(err, name)                                                        \
  do {                                                                              \
    cl_int dg_cl_ = (err);                                                          \
    if (dg_cl_ != CL_SUCCESS) return dg_cl_raise(dg_cl_, (name), __FILE__, __LINE__, __func__); \
  } while (0)

#define DG_CL_GOTO(label, call)                                                     \
  do {                                                                              \
    cl_int dg_cl_ = (call);                                                         \
    if (dg_cl_ != CL_SUCCESS) {                                                     \
      st = dg_cl_raise(dg_cl_, #call, __FILE__, __LINE__, __func__);                \
      goto label;                                                                   \
    }                                                                               \
  } while (0)

#define DG_CL_ERR_GOTO(label, err, name)                                            \
  do {                                                                              \
    cl_int dg_cl_ = (err);                                                          \
    if (dg_cl_ != CL_SUCCESS) {                                                     \
      st = dg_cl_raise(dg_cl_, (name), __FILE__, __LINE__, __func__);               \
      goto label;                                                                   \
    }                                                                               \
  } while (0)

#endif

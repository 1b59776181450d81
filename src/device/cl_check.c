#include "device/cl_check.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>

/* Codes that cl.h defines at CL_TARGET_OPENCL_VERSION=120 are spelled through the macro, so
 * the name and the number cannot disagree; later and extension codes are literal because
 * their headers are either not active at 1.2 or Windows-only. */
#define DG_CL_NAME(c) { c, #c }
static const struct {
  cl_int code;
  const char *name;
} cl_error_names[] = {
  DG_CL_NAME(CL_SUCCESS),
  DG_CL_NAME(CL_DEVICE_NOT_FOUND),
  DG_CL_NAME(CL_DEVICE_NOT_AVAILABLE),
  DG_CL_NAME(CL_COMPILER_NOT_AVAILABLE),
  DG_CL_NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE),
  DG_CL_NAME(CL_OUT_OF_RESOURCES),
  DG_CL_NAME(CL_OUT_OF_HOST_MEMORY),
  DG_CL_NAME(CL_PROFILING_INFO_NOT_AVAILABLE),
  DG_CL_NAME(CL_MEM_COPY_OVERLAP),
  DG_CL_NAME(CL_IMAGE_FORMAT_MISMATCH),
  DG_CL_NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED),
  DG_CL_NAME(CL_BUILD_PROGRAM_FAILURE),
  DG_CL_NAME(CL_MAP_FAILURE),
  DG_CL_NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET),
  DG_CL_NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
  DG_CL_NAME(CL_COMPILE_PROGRAM_FAILURE),
  DG_CL_NAME(CL_LINKER_NOT_AVAILABLE),
  DG_CL_NAME(CL_LINK_PROGRAM_FAILURE),
  DG_CL_NAME(CL_DEVICE_PARTITION_FAILED),
  DG_CL_NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE),
  DG_CL_NAME(CL_INVALID_VALUE),
  DG_CL_NAME(CL_INVALID_DEVICE_TYPE),
  DG_CL_NAME(CL_INVALID_PLATFORM),
  DG_CL_NAME(CL_INVALID_DEVICE),
  DG_CL_NAME(CL_INVALID_CONTEXT),
  DG_CL_NAME(CL_INVALID_QUEUE_PROPERTIES),
  DG_CL_NAME(CL_INVALID_COMMAND_QUEUE),
  DG_CL_NAME(CL_INVALID_HOST_PTR),
  DG_CL_NAME(CL_INVALID_MEM_OBJECT),
  DG_CL_NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR),
  DG_CL_NAME(CL_INVALID_IMAGE_SIZE),
  DG_CL_NAME(CL_INVALID_SAMPLER),
  DG_CL_NAME(CL_INVALID_BINARY),
  DG_CL_NAME(CL_INVALID_BUILD_OPTIONS),
  DG_CL_NAME(CL_INVALID_PROGRAM),
  DG_CL_NAME(CL_INVALID_PROGRAM_EXECUTABLE),
  DG_CL_NAME(CL_INVALID_KERNEL_NAME),
  DG_CL_NAME(CL_INVALID_KERNEL_DEFINITION),
  DG_CL_NAME(CL_INVALID_KERNEL),
  DG_CL_NAME(CL_INVALID_ARG_INDEX),
  DG_CL_NAME(CL_INVALID_ARG_VALUE),
  DG_CL_NAME(CL_INVALID_ARG_SIZE),
  DG_CL_NAME(CL_INVALID_KERNEL_ARGS),
  DG_CL_NAME(CL_INVALID_WORK_DIMENSION),
  DG_CL_NAME(CL_INVALID_WORK_GROUP_SIZE),
  DG_CL_NAME(CL_INVALID_WORK_ITEM_SIZE),
  DG_CL_NAME(CL_INVALID_GLOBAL_OFFSET),
  DG_CL_NAME(CL_INVALID_EVENT_WAIT_LIST),
  DG_CL_NAME(CL_INVALID_EVENT),
  DG_CL_NAME(CL_INVALID_OPERATION),
  DG_CL_NAME(CL_INVALID_GL_OBJECT),
  DG_CL_NAME(CL_INVALID_BUFFER_SIZE),
  DG_CL_NAME(CL_INVALID_MIP_LEVEL),
  DG_CL_NAME(CL_INVALID_GLOBAL_WORK_SIZE),
  DG_CL_NAME(CL_INVALID_PROPERTY),
  DG_CL_NAME(CL_INVALID_IMAGE_DESCRIPTOR),
  DG_CL_NAME(CL_INVALID_COMPILER_OPTIONS),
  DG_CL_NAME(CL_INVALID_LINKER_OPTIONS),
  DG_CL_NAME(CL_INVALID_DEVICE_PARTITION_COUNT),
  /* OpenCL 2.0 - 3.0: a newer runtime can return these even to a 1.2 host. */
  { -69, "CL_INVALID_PIPE_SIZE" },
  { -70, "CL_INVALID_DEVICE_QUEUE" },
  { -71, "CL_INVALID_SPEC_ID" },
  { -72, "CL_MAX_SIZE_RESTRICTION_EXCEEDED" },
  /* Extensions (cl_gl.h, cl_ext.h, cl_d3d10/11.h, cl_dx9_media_sharing.h, cl_egl.h). */
  { -1000, "CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR" },
  { -1001, "CL_PLATFORM_NOT_FOUND_KHR" },
  { -1002, "CL_INVALID_D3D10_DEVICE_KHR" },
  { -1003, "CL_INVALID_D3D10_RESOURCE_KHR" },
  { -1004, "CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR" },
  { -1005, "CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR" },
  { -1006, "CL_INVALID_D3D11_DEVICE_KHR" },
  { -1007, "CL_INVALID_D3D11_RESOURCE_KHR" },
  { -1008, "CL_D3D11_RESOURCE_ALREADY_ACQUIRED_KHR" },
  { -1009, "CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR" },
  { -1010, "CL_INVALID_DX9_MEDIA_ADAPTER_KHR" },
  { -1011, "CL_INVALID_DX9_MEDIA_SURFACE_KHR" },
  { -1012, "CL_DX9_MEDIA_SURFACE_ALREADY_ACQUIRED_KHR" },
  { -1013, "CL_DX9_MEDIA_SURFACE_NOT_ACQUIRED_KHR" },
  { -1057, "CL_DEVICE_PARTITION_FAILED_EXT" },
  { -1058, "CL_INVALID_PARTITION_COUNT_EXT" },
  { -1059, "CL_INVALID_PARTITION_NAME_EXT" },
  { -1092, "CL_EGL_RESOURCE_NOT_ACQUIRED_KHR" },
  { -1093, "CL_INVALID_EGL_OBJECT_KHR" },
  { -1094, "CL_INVALID_ACCELERATOR_INTEL" },
  { -1095, "CL_INVALID_ACCELERATOR_TYPE_INTEL" },
  { -1096, "CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL" },
  { -1097, "CL_ACCELERATOR_TYPE_NOT_SUPPORTED_INTEL" },
  { -1098, "CL_INVALID_VA_API_MEDIA_ADAPTER_INTEL" },
  { -1099, "CL_INVALID_VA_API_MEDIA_SURFACE_INTEL" },
};
#undef DG_CL_NAME

const char *dg_cl_error_name(cl_int code) {
  for (size_t i = 0; i < sizeof cl_error_names / sizeof cl_error_names[0]; ++i)
    if (cl_error_names[i].code == code) return cl_error_names[i].name;
  return "unknown OpenCL error";
}

/* The function name is the leading identifier of the stringified call; the arguments would
 * only bury it. Falls back to the whole text if it does not start with one. */
static void call_name(const char *call, char *buf, size_t cap) {
  if (!call) call = "(unnamed OpenCL call)";
  while (isspace((unsigned char)*call)) ++call;
  size_t n = 0;
  while ((isalnum((unsigned char)call[n]) || call[n] == '_') && n + 1 < cap) ++n;
  if (n == 0) {
    snprintf(buf, cap, "%s", call);
    return;
  }
  snprintf(buf, cap, "%.*s", (int)n, call);
}

static dg_status raise_with(cl_int code, const char *call, const char *file, int line,
                            const char *func, const char *context) {
  char name[96];
  call_name(call, name, sizeof name);
  return dg_error_raise(DG_ERR_OPENCL, file, line, func, "%s: %s (%d)%s%s", name,
                        dg_cl_error_name(code), (int)code, context[0] ? " " : "", context);
}

dg_status dg_cl_raise(cl_int code, const char *call, const char *file, int line,
                      const char *func) {
  return raise_with(code, call, file, line, func, "");
}

dg_status dg_cl_raisef(cl_int code, const char *call, const char *file, int line,
                       const char *func, const char *fmt, ...) {
  char context[2048]; /* as long as a whole error message: it may carry a build log */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(context, sizeof context, fmt, ap);
  va_end(ap);
  return raise_with(code, call, file, line, func, context);
}

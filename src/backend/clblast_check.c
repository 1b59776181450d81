#include "backend/clblast_check.h"

#include <string.h>

#include "device/cl_check.h"

const char *dg_clblast_status_name(CLBlastStatusCode code) {
  switch (code) {
#define C(x) case x: return #x;
    C(CLBlastSuccess) C(CLBlastOpenCLCompilerNotAvailable) C(CLBlastTempBufferAllocFailure)
    C(CLBlastOpenCLOutOfResources) C(CLBlastOpenCLOutOfHostMemory)
    C(CLBlastOpenCLBuildProgramFailure) C(CLBlastInvalidValue) C(CLBlastInvalidCommandQueue)
    C(CLBlastInvalidMemObject) C(CLBlastInvalidBinary) C(CLBlastInvalidBuildOptions)
    C(CLBlastInvalidProgram) C(CLBlastInvalidProgramExecutable) C(CLBlastInvalidKernelName)
    C(CLBlastInvalidKernelDefinition) C(CLBlastInvalidKernel) C(CLBlastInvalidArgIndex)
    C(CLBlastInvalidArgValue) C(CLBlastInvalidArgSize) C(CLBlastInvalidKernelArgs)
    C(CLBlastInvalidLocalNumDimensions) C(CLBlastInvalidLocalThreadsTotal)
    C(CLBlastInvalidLocalThreadsDim) C(CLBlastInvalidGlobalOffset)
    C(CLBlastInvalidEventWaitList) C(CLBlastInvalidEvent) C(CLBlastInvalidOperation)
    C(CLBlastInvalidBufferSize) C(CLBlastInvalidGlobalWorkSize) C(CLBlastNotImplemented)
    C(CLBlastInvalidMatrixA) C(CLBlastInvalidMatrixB) C(CLBlastInvalidMatrixC)
    C(CLBlastInvalidVectorX) C(CLBlastInvalidVectorY) C(CLBlastInvalidDimension)
    C(CLBlastInvalidLeadDimA) C(CLBlastInvalidLeadDimB) C(CLBlastInvalidLeadDimC)
    C(CLBlastInvalidIncrementX) C(CLBlastInvalidIncrementY) C(CLBlastInsufficientMemoryA)
    C(CLBlastInsufficientMemoryB) C(CLBlastInsufficientMemoryC) C(CLBlastInsufficientMemoryX)
    C(CLBlastInsufficientMemoryY) C(CLBlastInsufficientMemoryTemp) C(CLBlastInvalidBatchCount)
    C(CLBlastInvalidOverrideKernel) C(CLBlastMissingOverrideParameter)
    C(CLBlastInvalidLocalMemUsage) C(CLBlastNoHalfPrecision) C(CLBlastNoDoublePrecision)
    C(CLBlastInvalidVectorScalar) C(CLBlastInsufficientMemoryScalar) C(CLBlastDatabaseError)
    C(CLBlastUnknownError) C(CLBlastUnexpectedError)
#undef C
  default: return "unknown CLBlast status";
  }
}

dg_status dg_clblast_raise(CLBlastStatusCode code, const char *call, const char *file, int line,
                           const char *func) {
  /* Keep only the function name of the stringified call. */
  char name[64];
  size_t n = strcspn(call, "( ");
  if (n >= sizeof name) n = sizeof name - 1;
  memcpy(name, call, n);
  name[n] = '\0';
  dg_error_raise(DG_ERR_OPENCL, file, line, func, "%s: %s (%d)", name,
                 dg_clblast_status_name(code), (int)code);
  return DG_ERR_OPENCL;
}

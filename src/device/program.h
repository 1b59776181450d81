/* Building OpenCL programs from generated source, and the few calls every kernel launch
 * needs: create a kernel, set its arguments, run it (optionally timed), move buffers.
 * Every failure names the OpenCL call, its error code and, where known, the kernel. */
#ifndef DG_DEVICE_PROGRAM_H
#define DG_DEVICE_PROGRAM_H

#include <CL/cl.h>

#include "core/status.h"
#include "device/cl_check.h"
#include "device/device.h"

/* The compiler options a device needs for every dgtd program, whatever the variant ("" for
 * most): Intel's Data Center GPU Max gets 256 registers per hardware thread
 * (-cl-intel-256-GRF-per-thread): with the default 128 its compiler spills the double volume
 * kernel at every order, the default variant's included (scripts/gpu_isa.py,
 * docs/PORTABILITY.md); Arc (DG2)'s compiler refuses the option, so it is not given there. */
const char *dg_device_build_options(const dg_device_info *info);

/* options, the device's own (dg_device_build_options), then $DGTD_CL_OPTIONS (extra compiler
 * options for every program, e.g. -cl-nv-verbose for NVIDIA's register and spill counts in
 * the build log), into buf. */
const char *dg_program_options(const dg_device_info *info, const char *options, char *buf,
                               size_t cap);

/* Build `source` with `options` (may be NULL) and $DGTD_CL_OPTIONS for dev. `label` names
 * the program in messages and file names (NULL: "program").
 * - dump_dir non-NULL (`--dump-kernels DIR`): DIR is created if needed and always receives
 *   <label>.cl (the exact source), <label>.options, if the compiler said anything,
 *   <label>.log, and <label>.kernels: per kernel the CL_KERNEL_* work-group, local and
 *   private memory sizes (private memory is register spills on GPUs).
 * - On a failed build the same files go to dump_dir, or else to a fresh directory under
 *   $TMPDIR (or /tmp), and DG_ERR_OPENCL is raised with the start of the build log and the
 *   path of the source in the message. */
dg_status dg_program_build(dg_device *dev, const char *source, const char *options,
                           const char *label, const char *dump_dir,
                           cl_program *out) DG_NODISCARD;

/* Kernel `name` of a built program. */
dg_status dg_kernel_create(cl_program program, const char *name, cl_kernel *out) DG_NODISCARD;

/* clSetKernelArg; a failure names the kernel and the argument index. */
dg_status dg_kernel_set_arg(cl_kernel kernel, cl_uint index, size_t size,
                            const void *value) DG_NODISCARD;
/* Set argument i to the value of variable v (a cl_mem, int, float, ...). */
#define DG_KERNEL_ARG(kernel, i, v) dg_kernel_set_arg((kernel), (i), sizeof(v), &(v))

/* Enqueue kernel over global[0..dims) with work-group size local (NULL: the driver picks).
 * With ns == NULL this only enqueues. Otherwise it waits for the kernel and stores its
 * profiled run time (CL_PROFILING_COMMAND_END - _START) in nanoseconds. */
dg_status dg_kernel_run(dg_device *dev, cl_kernel kernel, cl_uint dims, const size_t *global,
                        const size_t *local, cl_ulong *ns) DG_NODISCARD;

/* The same over global[i] work-items starting at offset[i] (offset NULL: at 0). */
dg_status dg_kernel_run_at(dg_device *dev, cl_kernel kernel, cl_uint dims, const size_t *offset,
                           const size_t *global, const size_t *local, cl_ulong *ns) DG_NODISCARD;

/* A buffer of `bytes`; if host is non-NULL its contents are copied in (CL_MEM_COPY_HOST_PTR
 * is added to flags). */
dg_status dg_buffer_create(dg_device *dev, cl_mem_flags flags, size_t bytes, const void *host,
                           cl_mem *out) DG_NODISCARD;
/* Blocking copies between host memory and bytes [offset, offset+bytes) of a buffer. */
dg_status dg_buffer_write(dg_device *dev, cl_mem buf, size_t offset, size_t bytes,
                          const void *src) DG_NODISCARD;
dg_status dg_buffer_read(dg_device *dev, cl_mem buf, size_t offset, size_t bytes,
                         void *dst) DG_NODISCARD;

/* Release and set to NULL; NULL is accepted. */
void dg_program_release(cl_program *program);
void dg_kernel_release(cl_kernel *kernel);
void dg_buffer_release(cl_mem *buf);

#endif

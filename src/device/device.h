/* OpenCL platforms and devices: enumeration, selection, and the one context + queue that a
 * run uses. Devices are named "P:D" (platform index : device index within the platform), the
 * order the ICD loader reports them in, as `bin/dgtd devices` prints them. */
#ifndef DG_DEVICE_DEVICE_H
#define DG_DEVICE_DEVICE_H

#include <stdio.h>

#include <CL/cl.h>

#include "core/status.h"
#include "device/cl_check.h"

enum { DG_DEVICE_STR = 256 }; /* longer strings are truncated */

/* What is known about a device without creating a context. The strings are what the tuning
 * cache keys on (platform name and version, name, vendor, driver and device version). */
typedef struct {
  int P, D; /* platform index, device index within the platform */
  cl_platform_id platform;
  cl_device_id device;
  char name[DG_DEVICE_STR];
  char vendor[DG_DEVICE_STR];
  char platform_name[DG_DEVICE_STR];
  char platform_version[DG_DEVICE_STR];
  char driver_version[DG_DEVICE_STR];
  char device_version[DG_DEVICE_STR];
  cl_device_type type;              /* CL_DEVICE_TYPE_GPU, _CPU, ... (a bit set) */
  cl_uint compute_units;
  cl_uint clock_mhz;                /* max clock frequency */
  size_t max_work_group_size;
  size_t max_work_item_size[3];
  cl_ulong local_mem_size;          /* bytes */
  int local_mem_dedicated;          /* 1 if CL_LOCAL (on-chip), 0 if emulated in global memory */
  cl_ulong global_mem_size;         /* bytes */
  cl_ulong global_mem_cache_size;   /* bytes, as the driver reports it (NVIDIA's OpenCL says
                                     * 4.125 MiB on an H100, whose L2 is 50 MB) */
  cl_ulong max_constant_buffer_size;/* bytes */
  cl_ulong max_alloc_size;          /* bytes: largest single buffer */
  cl_uint vector_width_float;       /* preferred vector widths */
  cl_uint vector_width_double;
  int has_fp64;                     /* cl_khr_fp64 or a non-zero CL_DEVICE_DOUBLE_FP_CONFIG */
} dg_device_info;

struct dg_binary_cache;

/* Device time per kernel (dgtd run --profile): every launch through dg_kernel_run(_at) is
 * waited for and its event's start-to-end time added under the kernel's name. Waiting
 * serialises host and device, so a profiled run is slower than an unprofiled one; the
 * times are the device's. */
enum { DG_KERNEL_PROFILE_MAX = 48 };
typedef struct {
  int n;           /* kernels named so far (at most DG_KERNEL_PROFILE_MAX; later ones in other) */
  char name[DG_KERNEL_PROFILE_MAX][64];
  long long launches[DG_KERNEL_PROFILE_MAX], other_launches;
  double seconds[DG_KERNEL_PROFILE_MAX], other_seconds;
} dg_kernel_profile;

/* An opened device: one context and one in-order queue with profiling enabled. */
typedef struct {
  dg_device_info info;
  cl_context context;
  cl_command_queue queue;
  /* Optional, borrowed: compiled programs are cached here (device/binary_cache.h); NULL
   * builds every program from source. */
  struct dg_binary_cache *binaries;
  long long launches; /* kernels enqueued through dg_kernel_run(_at) so far (for profiles) */
  dg_kernel_profile *profile; /* borrowed; when set, every launch is timed into it */
} dg_device;

/* All devices of all platforms, in P:D order; free *list with dg_free(list). No platform
 * (CL_PLATFORM_NOT_FOUND_KHR from the ICD loader) gives *count = 0 and DG_OK. */
dg_status dg_device_list(dg_device_info **list, int *count) DG_NODISCARD;

/* The compiler family of a device: "nvidia", "amd" or "intel" for those vendors' GPUs (whose
 * offline compilers scripts/gpu_isa.py runs, docs/PORTABILITY.md), "gpu" for another GPU,
 * "cpu", or "other". */
const char *dg_device_family(const dg_device_info *info);

/* Print the `bin/dgtd devices` table (P:D, name, vendor, type, compute units, local memory,
 * fp64, platform name and version, driver), or a line saying why there are no devices. */
dg_status dg_device_print_list(FILE *f) DG_NODISCARD;

/* Pick a device from list[0..n): spec is "P:D" or a case-insensitive substring of the
 * device name (an exact name wins; with several matches the first is used and a warning
 * names it on stderr). A NULL or empty spec means $DGTD_DEVICE if set, else the first GPU,
 * else the first device. A spec that matches nothing gives DG_ERR_INPUT listing the
 * devices; no devices at all gives DG_ERR_OPENCL. */
/* The device the user named in $DGTD_DEVICE, or NULL when it is unset or empty. */
const char *dg_device_env(void);

dg_status dg_device_select(const dg_device_info *list, int n, const char *spec,
                           int *index) DG_NODISCARD;

/* Enumerate, select with spec (as dg_device_select) and open the device. */
dg_status dg_device_create(dg_device **out, const char *spec) DG_NODISCARD;
/* Release the queue and context; accepts NULL and sets *dev to NULL. */
void dg_device_destroy(dg_device **dev);

/* "GPU", "CPU", "ACCELERATOR", ... ("CPU|GPU" for several bits). */
const char *dg_device_type_name(cl_device_type type, char *buf, size_t cap);

#endif

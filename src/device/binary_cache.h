/* A disk cache of compiled OpenCL program binaries (see docs/TUNING.md: building is slow on
 * some devices; PoCL compiles with LLVM).
 *
 * A binary is stored as <dir>/<hash>.bin, the hash (FNV-1a 64) taken over what identifies the
 * device and its compiler (platform name and version, device name, vendor, driver and device
 * version), the rendered source and the build options, so any change to one of them misses.
 * The file starts with a header (magic, both hashes, size) that is checked on load. A load
 * is clCreateProgramWithBinary + clBuildProgram; any failure there falls back to building
 * from source (and rewrites the file). Saving is best effort: a full disk slows the next
 * start, it does not fail this one.
 *
 * Hook: call dg_program_build_cached where dg_program_build is called for generated kernels
 * (cl_maxwell.c build_program); the counters say what happened. */
#ifndef DG_DEVICE_BINARY_CACHE_H
#define DG_DEVICE_BINARY_CACHE_H

#include <CL/cl.h>

#include "core/status.h"
#include "device/device.h"

typedef struct dg_binary_cache {
  char dir[1024]; /* "" disables the cache (every build from source) */
  int loads;      /* programs built from a cached binary */
  int saves;      /* binaries written */
  int misses;     /* no usable binary: built from source */
  int failures;   /* a binary that would not load or a save that failed (not errors) */
} dg_binary_cache;

/* dir NULL: $DGTD_CACHE_DIR/binaries, else $XDG_CACHE_HOME/dgtd/binaries, else
 * ~/.cache/dgtd/binaries; $DGTD_BINARY_CACHE=0 disables the cache. The directory is created
 * on the first save. Counters start at zero. */
void dg_binary_cache_init(dg_binary_cache *bc, const char *dir);

/* As dg_program_build (same arguments, same errors), through the cache. bc NULL or disabled:
 * exactly dg_program_build. */
dg_status dg_program_build_cached(dg_binary_cache *bc, dg_device *dev, const char *source,
                                  const char *options, const char *label, const char *dump_dir,
                                  cl_program *out) DG_NODISCARD;

#endif

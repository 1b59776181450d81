/* A disk cache of compiled OpenCL program binaries (see docs/TUNING.md: building is slow on
 * some devices; PoCL compiles with LLVM).
 *
 * A binary is stored as <dir>/<hash>.bin, the hash (FNV-1a 64) taken over what identifies the
 * device and its compiler (platform name and version, device name, vendor, driver and device
 * version), the rendered source and the build options, so any change to one of them misses.
 * The file starts with a header (magic, both hashes, size, an FNV-1a 64 checksum of the
 * binary) that is checked on load. A binary whose checksum does not match (a damaged file:
 * handing it to the OpenCL implementation may crash it) is moved aside to <hash>.bin.corrupt,
 * a warning is left in the cache's `warning` for the caller to print, and the program is
 * built from source. A load is clCreateProgramWithBinary + clBuildProgram; any failure there
 * falls back to building from source (and rewrites the file). Saving is best effort: a full disk slows the next
 * start, it does not fail this one.
 *
 * Hook: call dg_program_build_cached where dg_program_build is called for generated kernels
 * (cl_maxwell.c build_program); the counters say what happened. */
#ifndef DG_DEVICE_BINARY_CACHE_H
#define DG_DEVICE_BINARY_CACHE_H

#include <CL/cl.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "device/device.h"

typedef struct dg_binary_cache {
  char dir[1024]; /* "" disables the cache (every build from source) */
  int loads;      /* programs built from a cached binary */
  int saves;      /* binaries written */
  int misses;     /* no usable binary: built from source */
  int failures;   /* a binary that would not load or a save that failed (not errors) */
  int corrupt;    /* cached files whose checksum did not match (moved aside) */
  char warning[2400]; /* the last such event, for the caller to print ("" none) */
} dg_binary_cache;

/* Bytes of the header of a cached binary file. */
#define DG_BINARY_CACHE_HEADER 40

/* Checks a cached file's contents (data, n bytes) against the key hashes (h1, h2): 1 and
 * *payload, *size set when the header is valid and the checksum matches; 0 when the file is
 * not this key's (other magic, hashes or a bad size: a plain miss); -1 when the header is
 * this key's but the payload is damaged (truncated, or checksum mismatch). */
int dg_binary_cache_parse(const unsigned char *data, size_t n, uint64_t h1, uint64_t h2,
                          const unsigned char **payload, size_t *size);
/* The checksum stored in the header: FNV-1a 64 of the payload. */
uint64_t dg_binary_cache_checksum(const unsigned char *data, size_t n);

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

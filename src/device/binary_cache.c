#include "device/binary_cache.h"
#include "core/files.h"
#include "core/hash.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "device/program.h"

static const char magic[8] = {'D', 'G', 'T', 'D', 'B', 'I', 'N', '1'};

typedef struct {
  char magic[8];
  uint64_t h1, h2; /* two independent hashes: a collision of both is not a concern */
  uint64_t size;   /* bytes of binary that follow */
} header;

static uint64_t key_hash(uint64_t h, const dg_device_info *info, const char *source,
                         const char *options) {
  const char *s[] = {info->platform_name, info->platform_version, info->name, info->vendor,
                     info->driver_version, info->device_version, options, source};
  for (size_t i = 0; i < sizeof s / sizeof *s; ++i) h = dg_fnv1a(h, s[i], strlen(s[i]) + 1);
  return h;
}

void dg_binary_cache_init(dg_binary_cache *bc, const char *dir) {
  memset(bc, 0, sizeof *bc);
  const char *off = getenv("DGTD_BINARY_CACHE");
  if (off && !strcmp(off, "0")) return;
  if (dir) {
    snprintf(bc->dir, sizeof bc->dir, "%s", dir);
    return;
  }
  char root[sizeof bc->dir - 16];
  if (dg_cache_dir(root, sizeof root)) snprintf(bc->dir, sizeof bc->dir, "%s/binaries", root);
}

/* The cached binary of (h1, h2), or NULL. */
static unsigned char *read_binary(const char *path, uint64_t h1, uint64_t h2, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  header hd;
  unsigned char *bin = NULL;
  if (fread(&hd, sizeof hd, 1, f) == 1 && !memcmp(hd.magic, magic, sizeof magic) && hd.h1 == h1 &&
      hd.h2 == h2 && hd.size > 0 && hd.size < ((uint64_t)1 << 31)) {
    bin = malloc((size_t)hd.size);
    if (bin && fread(bin, 1, (size_t)hd.size, f) != (size_t)hd.size) {
      free(bin);
      bin = NULL;
    }
    *size = (size_t)hd.size;
  }
  fclose(f);
  return bin;
}

/* Build from a binary; 0 on any failure (with nothing left over). */
static int load(dg_device *dev, const unsigned char *bin, size_t size, const char *options,
                cl_program *out) {
  cl_int err = CL_SUCCESS, bst = CL_SUCCESS;
  cl_program p = clCreateProgramWithBinary(dev->context, 1, &dev->info.device, &size, &bin,
                                           &bst, &err);
  if (err != CL_SUCCESS || bst != CL_SUCCESS) {
    if (p) clReleaseProgram(p);
    return 0;
  }
  if (clBuildProgram(p, 1, &dev->info.device, options, NULL, NULL) != CL_SUCCESS) {
    clReleaseProgram(p);
    return 0;
  }
  *out = p;
  return 1;
}

/* Write the program's binary; 0 on any failure. */
static int save(const char *dir, const char *path, cl_program p, uint64_t h1, uint64_t h2) {
  size_t size = 0;
  cl_uint ndev = 0;
  if (clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof ndev, &ndev, NULL) != CL_SUCCESS ||
      ndev != 1 ||
      clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS ||
      size == 0)
    return 0;
  unsigned char *bin = malloc(size);
  if (!bin) return 0;
  int ok = clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) == CL_SUCCESS;
  if (dg_mkdir_p(dir) != DG_OK) ok = 0;
  dg_atomic_file f = {0};
  if (ok && dg_atomic_open(&f, path) != DG_OK) ok = 0;
  if (ok) {
    header hd;
    memset(&hd, 0, sizeof hd);
    memcpy(hd.magic, magic, sizeof magic);
    hd.h1 = h1;
    hd.h2 = h2;
    hd.size = size;
    /* The rename in commit is atomic: a concurrent reader sees the old file, the new one,
     * or none. */
    ok = fwrite(&hd, sizeof hd, 1, f.fp) == 1 && fwrite(bin, 1, size, f.fp) == size;
    if (ok) ok = dg_atomic_commit(&f) == DG_OK;
    dg_atomic_abort(&f);
  }
  if (!ok) dg_error_clear(); /* best effort: a failed save only costs a rebuild next time */
  free(bin);
  return ok;
}

dg_status dg_program_build_cached(dg_binary_cache *bc, dg_device *dev, const char *source,
                                  const char *options, const char *label, const char *dump_dir,
                                  cl_program *out) {
  *out = NULL;
  if (!bc || !bc->dir[0] || !dev || !source || dump_dir) {
    /* Dumping asks for the build log of a real compile, so it bypasses the cache. */
    DG_CALL(dg_program_build(dev, source, options, label, dump_dir, out));
    return DG_OK;
  }
  const char *opts = options ? options : "";
  const uint64_t h1 = key_hash(DG_FNV_OFFSET, &dev->info, source, opts);
  const uint64_t h2 = key_hash(0x84222325cbf29ce4ull, &dev->info, source, opts);
  char path[1100];
  snprintf(path, sizeof path, "%s/%016llx.bin", bc->dir, (unsigned long long)h1);
  size_t size = 0;
  unsigned char *bin = read_binary(path, h1, h2, &size);
  if (bin) {
    const int ok = load(dev, bin, size, opts, out);
    free(bin);
    if (ok) {
      bc->loads++;
      return DG_OK;
    }
    bc->failures++; /* stale or foreign binary: rebuilt and overwritten below */
  }
  bc->misses++;
  DG_CALL(dg_program_build(dev, source, opts, label, NULL, out));
  if (save(bc->dir, path, *out, h1, h2))
    bc->saves++;
  else
    bc->failures++;
  return DG_OK;
}

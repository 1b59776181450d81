#include "device/binary_cache.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/files.h"
#include "core/hash.h"
#include "device/program.h"

/* Version 2 added the payload checksum; version 1 files miss and are overwritten. */
static const char magic[8] = {'D', 'G', 'T', 'D', 'B', 'I', 'N', '2'};

typedef struct {
  char magic[8];
  uint64_t h1, h2; /* two independent hashes: a collision of both is not a concern */
  uint64_t size;   /* bytes of binary that follow */
  uint64_t sum;    /* FNV-1a 64 of those bytes */
} header;

_Static_assert(sizeof(header) == DG_BINARY_CACHE_HEADER, "header layout");

uint64_t dg_binary_cache_checksum(const unsigned char *data, size_t n) {
  return dg_fnv1a(DG_FNV_OFFSET, data, n);
}

int dg_binary_cache_parse(const unsigned char *data, size_t n, uint64_t h1, uint64_t h2,
                          const unsigned char **payload, size_t *size) {
  header hd;
  if (!data || n < sizeof hd) return 0;
  memcpy(&hd, data, sizeof hd);
  if (memcmp(hd.magic, magic, sizeof magic) || hd.h1 != h1 || hd.h2 != h2 || hd.size == 0 ||
      hd.size >= ((uint64_t)1 << 31))
    return 0;
  if (n - sizeof hd != hd.size) return -1; /* truncated or extended */
  if (dg_binary_cache_checksum(data + sizeof hd, (size_t)hd.size) != hd.sum) return -1;
  *payload = data + sizeof hd;
  *size = (size_t)hd.size;
  return 1;
}

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

/* The whole file at path (at most 2 GiB + header), or NULL. */
static unsigned char *read_file(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  unsigned char *buf = NULL;
  long len = -1;
  if (fseek(f, 0, SEEK_END) == 0) len = ftell(f);
  if (len > 0 && (uint64_t)len < ((uint64_t)1 << 31) + sizeof(header) &&
      fseek(f, 0, SEEK_SET) == 0) {
    buf = malloc((size_t)len);
    if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
      free(buf);
      buf = NULL;
    }
    *n = (size_t)len;
  }
  fclose(f);
  return buf;
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
    hd.sum = dg_binary_cache_checksum(bin, size);
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
  char merged[1024];
  const char *opts = dg_program_options(&dev->info, options, merged, sizeof merged);
  const uint64_t h1 = key_hash(DG_FNV_OFFSET, &dev->info, source, opts);
  const uint64_t h2 = key_hash(0x84222325cbf29ce4ull, &dev->info, source, opts);
  char path[1100];
  snprintf(path, sizeof path, "%s/%016llx.bin", bc->dir, (unsigned long long)h1);
  size_t n = 0, size = 0;
  const unsigned char *bin = NULL;
  unsigned char *file = read_file(path, &n);
  const int valid = file ? dg_binary_cache_parse(file, n, h1, h2, &bin, &size) : 0;
  if (valid > 0) {
    const int ok = load(dev, bin, size, opts, out);
    if (ok) {
      free(file);
      bc->loads++;
      return DG_OK;
    }
    bc->failures++; /* stale or foreign binary: rebuilt and overwritten below */
  } else if (valid < 0) {
    /* Damaged: never hand it to the OpenCL implementation. Keep it for inspection. */
    char aside[1120];
    snprintf(aside, sizeof aside, "%s.corrupt", path);
    const int moved = rename(path, aside) == 0;
    bc->corrupt++;
    bc->failures++;
    snprintf(bc->warning, sizeof bc->warning,
             "cached program binary %s is damaged (checksum or size mismatch); %s %s, "
             "building from source",
             path, moved ? "moved it to" : "could not move it to", aside);
  }
  free(file);
  bc->misses++;
  DG_CALL(dg_program_build(dev, source, options, label, NULL, out));
  if (save(bc->dir, path, *out, h1, h2))
    bc->saves++;
  else
    bc->failures++;
  return DG_OK;
}

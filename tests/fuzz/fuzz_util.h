/* Shared by the libFuzzer harnesses: readers that take a path get the input through a
 * per-process scratch file (in /dev/shm when there is one). */
#ifndef DG_FUZZ_UTIL_H
#define DG_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/status.h"

/* Writes data to a scratch file ending in suffix; returns its path (static storage). */
static inline const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix) {
  static char path[256];
  struct stat sb;
  const char *dir = stat("/dev/shm", &sb) == 0 && S_ISDIR(sb.st_mode) ? "/dev/shm" : "/tmp";
  snprintf(path, sizeof path, "%s/dgtd-fuzz-%ld%s", dir, (long)getpid(), suffix);
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  if (size && fwrite(data, 1, size, f) != size) abort();
  if (fclose(f) != 0) abort();
  return path;
}

/* Every error is a valid outcome for garbage; the message must be a string. */
static inline void fuzz_forget_error(dg_status st) {
  if (st != DG_OK && strlen(dg_error_message()) == 0 && st != DG_ERR_MEMORY) {
    fprintf(stderr, "error %s without a message\n", dg_status_name(st));
    abort();
  }
  dg_error_clear();
}

#endif

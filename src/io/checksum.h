/* A streaming 64-bit checksum for checkpoint files and mesh identity. Not cryptographic:
 * it guards against truncation, bit rot and mixing up runs, not against tampering. Four
 * independent lanes over little-endian 64-bit words keep it memory-bound. Every step is a
 * bijection of the state for fixed data and of the data for a fixed state, so a change
 * confined to one byte (a single bit flip, say) always changes the result. The same on
 * every platform. */
#ifndef DG_IO_CHECKSUM_H
#define DG_IO_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint64_t lane[4];
  unsigned char buf[32]; /* a partial 32-byte block */
  size_t nbuf;
  uint64_t total; /* bytes seen */
} dg_checksum;

void dg_checksum_init(dg_checksum *h);
void dg_checksum_update(dg_checksum *h, const void *data, size_t n);
uint64_t dg_checksum_final(const dg_checksum *h);
/* One-shot. */
uint64_t dg_checksum64(const void *data, size_t n);

#endif

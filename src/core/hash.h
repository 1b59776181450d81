/* FNV-1a 64-bit hashing for cache keys and identity checks (not for security). Chain calls
 * to hash several pieces: h = dg_fnv1a(dg_fnv1a(DG_FNV_OFFSET, a, na), b, nb). */
#ifndef DG_CORE_HASH_H
#define DG_CORE_HASH_H

#include <stddef.h>
#include <stdint.h>

#define DG_FNV_OFFSET 0xcbf29ce484222325ull

uint64_t dg_fnv1a(uint64_t h, const void *data, size_t n);

#endif

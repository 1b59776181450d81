#include "io/checksum.h"

#include <string.h>

/* Odd 64-bit constants (golden ratio and other well-mixed values). */
static const uint64_t P1 = 0x9E3779B185EBCA87ull, P2 = 0xC2B2AE3D27D4EB4Full,
                      P3 = 0x165667B19E3779F9ull, P4 = 0x85EBCA77C2B2AE63ull;

static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static uint64_t load_le(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

/* Bijective in lane for fixed w, and in w for fixed lane (odd multipliers, add, rotate). */
static uint64_t round64(uint64_t lane, uint64_t w) { return rotl(lane + w * P2, 31) * P1; }

static void block(dg_checksum *h, const unsigned char *p) {
  for (int i = 0; i < 4; i++) h->lane[i] = round64(h->lane[i], load_le(p + 8 * i));
}

void dg_checksum_init(dg_checksum *h) {
  memset(h, 0, sizeof *h);
  h->lane[0] = P1 + P2;
  h->lane[1] = P2;
  h->lane[2] = 0;
  h->lane[3] = 0 - P1;
}

void dg_checksum_update(dg_checksum *h, const void *data, size_t n) {
  const unsigned char *p = data;
  h->total += n;
  if (h->nbuf) {
    const size_t take = n < 32 - h->nbuf ? n : 32 - h->nbuf;
    memcpy(h->buf + h->nbuf, p, take);
    h->nbuf += take;
    p += take;
    n -= take;
    if (h->nbuf < 32) return;
    block(h, h->buf);
    h->nbuf = 0;
  }
  for (; n >= 32; p += 32, n -= 32) block(h, p);
  memcpy(h->buf, p, n);
  h->nbuf = n;
}

uint64_t dg_checksum_final(const dg_checksum *h) {
  uint64_t x = rotl(h->lane[0], 1) + rotl(h->lane[1], 7) + rotl(h->lane[2], 12) +
               rotl(h->lane[3], 18);
  x ^= h->total * P4;
  for (size_t i = 0; i < h->nbuf; i++) x = rotl(x ^ (h->buf[i] * P3), 11) * P1;
  x ^= x >> 33;
  x *= P2;
  x ^= x >> 29;
  x *= P3;
  x ^= x >> 32;
  return x;
}

uint64_t dg_checksum64(const void *data, size_t n) {
  dg_checksum h;
  dg_checksum_init(&h);
  dg_checksum_update(&h, data, n);
  return dg_checksum_final(&h);
}

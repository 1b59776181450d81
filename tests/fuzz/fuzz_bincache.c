/* libFuzzer harness: the binary cache's file check (header, size, payload checksum). The key
 * hashes are taken from the input itself, so inputs get past the key comparison. */
#include "fuzz_util.h"
#include "device/binary_cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint64_t h1 = 0, h2 = 0;
  if (size >= 24) {
    memcpy(&h1, data + 8, 8);
    memcpy(&h2, data + 16, 8);
  }
  const unsigned char *payload = NULL;
  size_t n = 0;
  const int r = dg_binary_cache_parse(data, size, h1, h2, &payload, &n);
  if (r == 1) {
    /* A valid file: the payload lies inside the input and matches its checksum. */
    if (payload != data + DG_BINARY_CACHE_HEADER || n != size - DG_BINARY_CACHE_HEADER) abort();
    uint64_t sum;
    memcpy(&sum, data + 32, 8);
    if (dg_binary_cache_checksum(payload, n) != sum) abort();
  } else if (r != 0 && r != -1) {
    abort();
  }
  return 0;
}

/* libFuzzer harness: checkpoint files. The header alone, then a full read for the run the
 * header describes (as a restart of the same case would, a PML's auxiliary values
 * included), with the state bounded to 16 MiB. */
#include "fuzz_util.h"
#include "io/checkpoint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_file(data, size, ".chk");
  dg_checkpoint_header h, got;
  dg_status st = dg_checkpoint_read_header(path, &h);
  if (st == DG_OK) {
    const uint64_t n = 6 * (uint64_t)h.K * (uint64_t)h.Np * (uint64_t)h.precision;
    const uint64_t na = h.aux * (uint64_t)h.precision; /* a PML's auxiliary values */
    if (n <= (16u << 20) && na <= (16u << 20)) {
      void *q = malloc((size_t)n), *res = malloc((size_t)n), *aux = malloc((size_t)na + 1);
      if (q && res && aux) {
        st = dg_checkpoint_read_aux(path, &h, &got, q, res, aux);
        if (st == DG_OK && (got.step != h.step || got.K != h.K || got.aux != h.aux)) abort();
      }
      free(q);
      free(res);
      free(aux);
    }
  }
  fuzz_forget_error(st);
  return 0;
}

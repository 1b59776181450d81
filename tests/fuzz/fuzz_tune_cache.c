/* libFuzzer harness: tuning cache files (JSON) through dg_tune_file_read. */
#include "fuzz_util.h"
#include "tune/cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dg_tune_file f;
  int exists = 0, dropped = 0;
  const dg_status st = dg_tune_file_read(fuzz_file(data, size, ".json"), &f, &exists, &dropped);
  if (st == DG_OK) {
    for (int i = 0; i < f.n; ++i)
      for (int j = 0; j < f.devices[i].n; ++j) {
        const dg_tune_entry *e = &f.devices[i].entries[j];
        if (e->N < 1 || e->N > 15 || !e->winner[0]) abort(); /* only complete entries kept */
      }
    dg_tune_file_free(&f);
  }
  fuzz_forget_error(st);
  return 0;
}

/* libFuzzer harness: case files (JSON) through dg_case_parse, from the built-in default. */
#include "fuzz_util.h"
#include "app/case.h"
#include "app/problem_hash.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  dg_case c;
  dg_case_default(&c);
  const dg_status st = dg_case_parse(&c, text, "cases/fuzz.json");
  if (st == DG_OK) {
    /* What the run would do next with the settings. */
    uint64_t parts[DG_CHECKPOINT_PARTS];
    dg_case_problem_hash(&c, parts);
    if (c.order < 1 || c.order > DG_MAX_ORDER || !(c.cfl > 0)) abort();
  }
  fuzz_forget_error(st);
  dg_case_free(&c);
  free(text);
  return 0;
}

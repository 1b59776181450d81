/* libFuzzer harness: the Gambit neutral (.neu) reader through dg_mesh_read. */
#include "fuzz_util.h"
#include "mesh/mesh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dg_mesh *m = NULL;
  const dg_status st = dg_mesh_read(&m, fuzz_file(data, size, ".neu"));
  if (st == DG_OK && (!m || m->K < 1 || !m->EToE)) abort();
  fuzz_forget_error(st);
  dg_mesh_destroy(&m);
  return 0;
}

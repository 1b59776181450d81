/* libFuzzer harness: the Gmsh reader (MSH 2.2 and 4.1, ASCII and binary) through
 * dg_mesh_read, with orientation and face matching (the non-conforming check included). */
#include "fuzz_util.h"
#include "mesh/mesh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dg_mesh *m = NULL;
  const dg_status st = dg_mesh_read(&m, fuzz_file(data, size, ".msh"));
  if (st == DG_OK && (!m || m->K < 1 || !m->EToE)) abort(); /* success means a usable mesh */
  fuzz_forget_error(st);
  dg_mesh_destroy(&m);
  return 0;
}

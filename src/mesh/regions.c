/* The two sides of a closed interior surface: regions connected without crossing it. */
#include "core/alloc.h"
#include "mesh/mesh.h"

dg_status dg_mesh_surface_sides(const dg_mesh *m, int surface_tag, const unsigned char *seed,
                                signed char *side) {
  DG_CHECK(m && m->EToE && m->iface_tag && seed && side, DG_ERR_INTERNAL,
           "dg_mesh_surface_sides: mesh not connected or no arrays");
  const int K = m->K;
  int n_faces = 0;
  for (size_t i = 0; i < 4 * (size_t)K; ++i) n_faces += m->iface_tag[i] == surface_tag;
  DG_CHECK(n_faces > 0, DG_ERR_INPUT,
           "surface tag %d: no interior face lies on it (it must be a surface inside the "
           "mesh, conforming to the elements)", surface_tag);
  dg_status st = DG_OK;
  int *region = NULL, *stack = NULL;
  unsigned char *outside = NULL;
  DG_CALL_GOTO(done, DG_ALLOC(region, K));
  DG_CALL_GOTO(done, DG_ALLOC(stack, K));
  DG_CALL_GOTO(done, DG_ALLOC(outside, K + 1));
  for (int k = 0; k < K; ++k) region[k] = -1;
  int nreg = 0;
  for (int k0 = 0; k0 < K; ++k0) { /* depth-first fill of each region */
    if (region[k0] >= 0) continue;
    int top = 0;
    stack[top++] = k0;
    region[k0] = nreg;
    while (top) {
      const int k = stack[--top];
      outside[nreg] |= seed[k] != 0;
      for (int f = 0; f < 4; ++f) {
        const int k2 = m->EToE[4 * k + f];
        if (k2 == k || m->iface_tag[4 * k + f] == surface_tag || region[k2] >= 0) continue;
        region[k2] = nreg;
        stack[top++] = k2;
      }
    }
    ++nreg;
  }
  int n_in = 0, n_out = 0;
  for (int k = 0; k < K; ++k) {
    side[k] = outside[region[k]] ? -1 : 1;
    n_in += side[k] > 0;
    n_out += side[k] < 0;
  }
  DG_CHECK_GOTO(done, n_in > 0 && n_out > 0, DG_ERR_INPUT,
                "surface tag %d: %d elements inside and %d outside; the outside is what "
                "reaches an absorbing boundary or a PML, the inside what does not",
                surface_tag, n_in, n_out);
  for (int k = 0; k < K; ++k)
    for (int f = 0; f < 4; ++f) {
      if (m->iface_tag[4 * k + f] != surface_tag) continue;
      const int k2 = m->EToE[4 * k + f];
      DG_CHECK_GOTO(done, side[k] != side[k2], DG_ERR_INPUT,
                    "surface tag %d is not a closed surface between an inside and an outside: "
                    "elements %d and %d across its face %d of element %d are both %s",
                    surface_tag, k + 1, k2 + 1, f, k + 1, side[k] > 0 ? "inside" : "outside");
    }
done:
  dg_free(&region);
  dg_free(&stack);
  dg_free(&outside);
  return st;
}

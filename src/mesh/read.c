/* Reading a mesh file: the reader chosen by the file's extension (.msh or .neu), or named. */
#include <ctype.h>
#include <string.h>

#include "mesh/mesh.h"
#include "mesh/mesh_internal.h"

static int ends_with_ci(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  if (n < k) return 0;
  for (size_t i = 0; i < k; i++)
    if (tolower((unsigned char)s[n - k + i]) != tolower((unsigned char)suffix[i])) return 0;
  return 1;
}

dg_status dg_mesh_read(dg_mesh **out, const char *path) {
  DG_CALL(dg_mesh_read_flags(out, path, 0));
  return DG_OK;
}

dg_status dg_mesh_read_flags(dg_mesh **out, const char *path, int flags) {
  *out = NULL;
  DG_CHECK(path != NULL && path[0] != '\0', DG_ERR_INPUT, "no mesh file name given");
  if (ends_with_ci(path, ".msh")) {
    DG_CALL(dg_mesh_read_msh_flags(out, path, flags));
  } else if (ends_with_ci(path, ".neu")) {
    DG_CALL(dg_mesh_read_neu_flags(out, path, flags));
  } else {
    return DG_ERROR(DG_ERR_INPUT,
                    "%s: unknown mesh file type (expected a .msh (Gmsh) or .neu (Gambit) file)",
                    path);
  }
  return DG_OK;
}

dg_status dg_mesh_read_msh(dg_mesh **out, const char *path) {
  DG_CALL(dg_mesh_read_msh_flags(out, path, 0));
  return DG_OK;
}

dg_status dg_mesh_read_neu(dg_mesh **out, const char *path) {
  DG_CALL(dg_mesh_read_neu_flags(out, path, 0));
  return DG_OK;
}

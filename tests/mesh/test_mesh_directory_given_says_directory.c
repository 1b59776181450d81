/* A directory given as the mesh file said "read error" (it opens, and fails at the first
 * read): it is now named as a directory, exit 3 (a file error) from dgtd run. */
#include "test_util.h"

#include <sys/stat.h>

#include "mesh/mesh.h"

static void directory_named(void **state) {
  test_scratch *s = *state;
  assert_int_equal(mkdir(s->path, 0700), 0);
  dg_mesh *m = NULL;
  assert_dg_error(dg_mesh_read(&m, s->path), DG_ERR_IO, "mesh.msh: is a directory, not a mesh file");
  assert_null(m);
  const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
  char cmd[512], out[8192];
  snprintf(cmd, sizeof cmd, "%s/dgtd run --backend ref --quiet --mesh %s 2>&1", bin, s->path);
  const int rc = test_capture(cmd, out, sizeof out);
  if (rc != 3 || !strstr(out, "is a directory") || strstr(out, "read error"))
    fail_msg("%s: exit %d (want 3), output:\n%s", cmd, rc, out);
}

static int setup(void **state) { return test_scratch_setup(state, "mesh.msh"); }

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(directory_named)};
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

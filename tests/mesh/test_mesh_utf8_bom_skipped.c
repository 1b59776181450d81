/* A mesh file that starts with a UTF-8 byte-order mark (as some Windows editors save text)
 * reads like the same file without it, in both readers (Gmsh text and binary, .neu). The
 * old readers refused it as "expected $MeshFormat ... got \"\xef\xbb\xbf$MeshFormat\""
 * (mojibake) and "expected \"CONTROL INFO\"". */
#include "test_util.h"

#include "mesh/mesh.h"

/* dir/name = a UTF-8 BOM followed by the fixture's bytes. */
static void with_bom(const test_scratch *s, const char *fixture, const char *name, char *out,
                     size_t n) {
  snprintf(out, n, "%s/%s", s->dir, name);
  FILE *in = fopen(fixture, "rb"), *o = fopen(out, "wb");
  assert_non_null(in);
  assert_non_null(o);
  fputs("\xef\xbb\xbf", o);
  char buf[4096];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, in)) > 0) assert_int_equal(fwrite(buf, 1, got, o), got);
  fclose(in);
  assert_int_equal(fclose(o), 0);
}

static void bom_skipped(void **state) {
  test_scratch *s = *state;
  char path[256];
  dg_mesh *m = NULL;
  with_bom(s, FIXTURE("cube_22.msh"), "bom.msh", path, sizeof path);
  assert_dg_ok(dg_mesh_read(&m, path));
  assert_int_equal(m->K, 6);
  dg_mesh_destroy(&m);
  with_bom(s, FIXTURE("cube_41_bin.msh"), "bom_bin.msh", path, sizeof path);
  assert_dg_ok(dg_mesh_read(&m, path));
  const int K = m->K;
  dg_mesh_destroy(&m);
  assert_dg_ok(dg_mesh_read(&m, FIXTURE("cube_41_bin.msh")));
  assert_int_equal(m->K, K);
  dg_mesh_destroy(&m);
  with_bom(s, FIXTURE("cube.neu"), "bom.neu", path, sizeof path);
  assert_dg_ok(dg_mesh_read(&m, path));
  assert_int_equal(m->K, 6);
  dg_mesh_destroy(&m);
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bom_skipped),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

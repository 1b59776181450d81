/* Bad partition requests fail with a message saying what is wrong, and a failing Scotch call is reported by name. */
#include "test_util.h"

#include <stdint.h>
#include <stdio.h>

#include <scotch.h>

#include "mesh/mesh.h"
#include "part/part.h"
#include "part/scotch_check.h"

static dg_mesh *box(int n) {
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, n, n, n));
  return m;
}

static void test_bad_requests(void **state) {
  (void)state;
  dg_mesh *m = box(1); /* 6 elements */
  int part[6];
  double w[6] = {1, 1, 1, 1, 1, 1};
  assert_dg_error(dg_partition(m, 0, NULL, part, NULL), DG_ERR_INPUT, "at least 1");
  assert_dg_error(dg_partition(m, 7, NULL, part, NULL), DG_ERR_INPUT, "into 7 parts");
  w[3] = -1.0;
  assert_dg_error(dg_partition(m, 2, w, part, NULL), DG_ERR_INPUT, "element 4 has weight -1");
  w[3] = NAN;
  assert_dg_error(dg_partition(m, 2, w, part, NULL), DG_ERR_INPUT, "positive and finite");
  /* six elements into six parts is fine: one each */
  assert_dg_ok(dg_partition(m, 6, NULL, part, NULL));
  for (int a = 0; a < 6; a++)
    for (int b = a + 1; b < 6; b++) assert_int_not_equal(part[a], part[b]);
  dg_submesh *s = NULL;
  assert_dg_error(dg_submesh_create(&s, m, 6, part, 6), DG_ERR_INPUT, "part 6 does not exist");
  assert_null(s);
  part[2] = 9;
  assert_dg_error(dg_submesh_create(&s, m, 6, part, 0), DG_ERR_INTERNAL, "element 3 is in part 9");
  dg_mesh_destroy(&m);
}

/* An unconnected mesh (EToE not built) is refused rather than read out of bounds. */
static void test_unconnected_mesh(void **state) {
  (void)state;
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_alloc(&m, 4, 1));
  int part[1] = {0};
  assert_dg_error(dg_partition(m, 1, NULL, part, NULL), DG_ERR_INTERNAL, "not connected");
  dg_mesh_destroy(&m);
}

/* A one-sided edge makes SCOTCH_graphCheck fail. */
static dg_status check_asymmetric_graph(void) {
  SCOTCH_Num verttab[3] = {0, 1, 1}, edgetab[1] = {1};
  SCOTCH_Graph g;
  dg_status st = DG_OK;
  DG_SCOTCH(SCOTCH_graphInit(&g));
  DG_SCOTCH_GOTO(done, SCOTCH_graphBuild(&g, 0, 2, verttab, NULL, NULL, NULL, 1, edgetab, NULL));
  DG_SCOTCH_GOTO(done, SCOTCH_graphCheck(&g));
done:
  SCOTCH_graphExit(&g);
  return st;
}

static void test_scotch_failure_named(void **state) {
  (void)state;
  fprintf(stderr, "# Scotch's own complaint about the bad test graph follows:\n");
  assert_dg_error(check_asymmetric_graph(), DG_ERR_INTERNAL, "SCOTCH_graphCheck failed");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bad_requests),
      cmocka_unit_test(test_unconnected_mesh),
      cmocka_unit_test(test_scotch_failure_named),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

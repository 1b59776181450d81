/* Partitioning the same mesh twice gives the same parts, whatever other Scotch users did to Scotch's global random generator in between. */
#include "test_util.h"

#include <stdint.h>
#include <stdio.h>

#include <scotch.h>

#include "mesh/mesh.h"
#include "part/part.h"

static void same_twice(const dg_mesh *m, int P, const double *w) {
  int *a = calloc((size_t)m->K, sizeof *a), *b = calloc((size_t)m->K, sizeof *b);
  assert_non_null(a);
  assert_non_null(b);
  assert_dg_ok(dg_partition(m, P, w, a, NULL));
  /* Disturb the process-wide generator, as another library using Scotch might. */
  SCOTCH_randomSeed(12345);
  SCOTCH_randomReset();
  for (int i = 0; i < 100; i++) (void)SCOTCH_randomVal(1000);
  assert_dg_ok(dg_partition(m, P, w, b, NULL));
  assert_memory_equal(a, b, sizeof *a * (size_t)m->K);
  free(a);
  free(b);
}

static void test_box(void **state) {
  (void)state;
  const double lo[3] = {0, 0, 0}, hi[3] = {2, 1, 1};
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, 8, 4, 4));
  for (int P = 2; P <= 5; P++) same_twice(m, P, NULL);
  dg_mesh_destroy(&m);
}

static void test_unstructured_weighted(void **state) {
  (void)state;
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read(&m, FIXTURE("box_unstructured_h0.25.msh")));
  double *w = malloc(sizeof *w * (size_t)m->K);
  assert_non_null(w);
  for (int k = 0; k < m->K; k++) w[k] = 1.0 + (k % 7) * 0.25;
  for (int P = 2; P <= 4; P++) {
    same_twice(m, P, NULL);
    same_twice(m, P, w);
  }
  free(w);
  dg_mesh_destroy(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_box),
      cmocka_unit_test(test_unstructured_weighted),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

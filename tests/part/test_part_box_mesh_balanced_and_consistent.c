/* Scotch partitions of box and unstructured meshes assign every element once, are balanced, count cut faces correctly, and their submeshes add up to the mesh. */
#include "test_util.h"

#include "mesh/mesh.h"
#include "part/part.h"

/* Scotch's default strategy aims at 1% imbalance; measured here: at most 1.0078 (one
 * element over the mean of 128). 3% leaves room for other Scotch versions without hiding
 * a broken split. */
static const double k_max_imbalance = 1.03;

static dg_mesh *box(int n) {
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, n, n, n));
  return m;
}

/* Cut faces counted from scratch: faces (k,f) whose neighbour is elsewhere, each seen twice. */
static int count_cut_faces(const dg_mesh *m, const int *part) {
  int sides = 0;
  for (int k = 0; k < m->K; k++)
    for (int f = 0; f < 4; f++) {
      const int nb = m->EToE[4 * k + f];
      if (nb != k && part[nb] != part[k]) sides++;
    }
  assert_int_equal(sides % 2, 0);
  return sides / 2;
}

static void check_partition(const dg_mesh *m, const char *name, int P) {
  int *part = calloc((size_t)m->K, sizeof *part);
  assert_non_null(part);
  dg_partition_stats st = {0};
  assert_dg_ok(dg_partition(m, P, NULL, part, &st));
  print_message("# %s K=%d P=%d: imbalance %.4f, cut faces %d of %d interior\n", name, m->K, P,
                st.imbalance, st.cut_faces, st.interior_faces);

  /* every element in exactly one valid part, counts as reported */
  int *count = calloc((size_t)P, sizeof *count);
  assert_non_null(count);
  for (int k = 0; k < m->K; k++) {
    assert_in_range(part[k], 0, P - 1);
    count[part[k]]++;
  }
  int total = 0, cmax = 0;
  for (int p = 0; p < P; p++) {
    assert_int_equal(count[p], st.count[p]);
    assert_true(count[p] > 0);
    total += count[p];
    if (count[p] > cmax) cmax = count[p];
  }
  assert_int_equal(total, m->K);
  assert_near(st.imbalance, (double)cmax / ((double)m->K / P), 1e-12);
  assert_true(st.imbalance <= k_max_imbalance);
  assert_int_equal(st.cut_faces, count_cut_faces(m, part));

  /* submeshes: element counts add up to K and together cover each element once */
  int *seen = calloc((size_t)m->K, sizeof *seen);
  assert_non_null(seen);
  int sum = 0;
  for (int p = 0; p < P; p++) {
    dg_submesh *s = NULL;
    assert_dg_ok(dg_submesh_create(&s, m, P, part, p));
    assert_int_equal(s->mesh->K, count[p]);
    sum += s->mesh->K;
    for (int k = 0; k < s->mesh->K; k++) {
      const int g = s->elem_l2g[k];
      assert_int_equal(part[g], p);
      if (k > 0) assert_true(g > s->elem_l2g[k - 1]); /* ascending global order */
      seen[g]++;
    }
    dg_submesh_destroy(&s);
    assert_null(s);
  }
  assert_int_equal(sum, m->K);
  for (int k = 0; k < m->K; k++) assert_int_equal(seen[k], 1);

  free(seen);
  free(count);
  dg_partition_stats_free(&st);
  free(part);
}

static void test_box_4x4x4(void **state) {
  (void)state;
  dg_mesh *m = box(4);
  assert_int_equal(m->K, 384);
  for (int P = 2; P <= 4; P++) check_partition(m, "box 4x4x4", P);
  dg_mesh_destroy(&m);
}

static void test_box_8x8x8(void **state) {
  (void)state;
  dg_mesh *m = box(8);
  assert_int_equal(m->K, 3072);
  for (int P = 2; P <= 4; P++) check_partition(m, "box 8x8x8", P);
  dg_mesh_destroy(&m);
}

static void test_unstructured(void **state) {
  (void)state;
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read(&m, FIXTURE("box_unstructured_h0.25.msh")));
  for (int P = 2; P <= 4; P++) check_partition(m, "box_unstructured_h0.25", P);
  dg_mesh_destroy(&m);
}

/* One part gets every element without Scotch; its stats are trivial. */
static void test_one_part(void **state) {
  (void)state;
  dg_mesh *m = box(2);
  int *part = malloc(sizeof *part * (size_t)m->K);
  assert_non_null(part);
  for (int k = 0; k < m->K; k++) part[k] = 7;
  dg_partition_stats st = {0};
  assert_dg_ok(dg_partition(m, 1, NULL, part, &st));
  for (int k = 0; k < m->K; k++) assert_int_equal(part[k], 0);
  assert_int_equal(st.count[0], m->K);
  assert_int_equal(st.cut_faces, 0);
  assert_near(st.imbalance, 1.0, 0.0);
  dg_partition_stats_free(&st);
  free(part);
  dg_mesh_destroy(&m);
}

/* Weights balance the summed weight, not the element count. */
static void test_weighted(void **state) {
  (void)state;
  dg_mesh *m = box(6);
  double *w = malloc(sizeof *w * (size_t)m->K);
  int *part = malloc(sizeof *part * (size_t)m->K);
  assert_non_null(w);
  assert_non_null(part);
  /* elements with centroid x < 0.5 cost 3 times as much */
  for (int k = 0; k < m->K; k++) {
    double cx = 0;
    for (int a = 0; a < 4; a++) cx += 0.25 * m->VX[m->EToV[4 * k + a]];
    w[k] = cx < 0.5 ? 3.0 : 1.0;
  }
  dg_partition_stats st = {0};
  assert_dg_ok(dg_partition(m, 2, w, part, &st));
  print_message("# weighted box 6x6x6 P=2: imbalance %.4f, counts %d %d\n", st.imbalance,
                st.count[0], st.count[1]);
  assert_true(st.imbalance <= k_max_imbalance);
  /* equal weight means unequal counts: the light side has more elements */
  assert_true(abs(st.count[0] - st.count[1]) > m->K / 4);
  dg_partition_stats_free(&st);
  free(w);
  free(part);
  dg_mesh_destroy(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_box_4x4x4),
      cmocka_unit_test(test_box_8x8x8),
      cmocka_unit_test(test_unstructured),
      cmocka_unit_test(test_one_part),
      cmocka_unit_test(test_weighted),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

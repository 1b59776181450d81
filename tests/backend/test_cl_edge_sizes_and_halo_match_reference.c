/* Edge sizes on the default device (PoCL): every covering variant (tests/oclgrind_util.h)
 * verifies against the CPU reference on one element, on K = 6 and K = 18 (below one
 * work-group, no multiple of any vector width or microblock) and through the MPI halo path
 * with ghosts in the middle of the interleaved blocks (3 parts in runs of 5 elements, 2 in
 * runs of 7). The halo check fails when the exchange delivers nothing (so it tests the
 * unpack), and the edge meshes have the sizes they claim. */
#include "test_util.h"

#include "device/binary_cache.h"
#include "oclgrind_util.h"

static int setup(void **state) {
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    *state = NULL;
    return 0;
  }
  /* one build per variant: the sizes only change kernel arguments */
  test_scratch *s = NULL;
  if (test_scratch_setup((void **)&s, "bin") != 0) return -1;
  dg_binary_cache *bc = calloc(1, sizeof *bc);
  if (!bc) return -1;
  dg_binary_cache_init(bc, s->path);
  dev->binaries = bc;
  void **pair = calloc(2, sizeof *pair);
  if (!pair) return -1;
  pair[0] = dev;
  pair[1] = s;
  *state = pair;
  return 0;
}

static int teardown(void **state) {
  void **pair = *state;
  if (!pair) return 0;
  dg_device *dev = pair[0];
  void *s = pair[1];
  free(dev->binaries);
  dev->binaries = NULL;
  dg_device_destroy(&dev);
  test_scratch_teardown(&s);
  free(pair);
  return 0;
}

static void test_edge_meshes_have_their_sizes(void **state) {
  (void)state;
  const int want[DG_VSIZE_COUNT] = {1, 6, 18, 48};
  for (int s = 0; s < DG_VSIZE_COUNT; ++s) {
    dg_mesh *m = NULL;
    assert_dg_ok(dg_verify_mesh_create(&m, (dg_verify_size)s));
    assert_int_equal(m->K, want[s]);
    dg_mesh_destroy(&m);
  }
}

static void test_covering_variants_at_edge_sizes(void **state) {
  void **pair = *state;
  if (!pair) skip();
  dg_device *dev = pair[0];
  for (int c = 0; c < NCOVER; ++c) {
    const int N = 1 + c % 3;
    const dg_precision p = c % 2 && dev->info.has_fp64 ? DG_PREC_DOUBLE : DG_PREC_FLOAT;
    if (c % 2 && !dev->info.has_fp64)
      test_skip_part("%s at N=%d in double (run in float): the device has no double",
                     covering[c], N);
    og_job j;
    snprintf(j.spec, sizeof j.spec, "%s%sprec=%s", covering[c], covering[c][0] ? "," : "",
             p == DG_PREC_DOUBLE ? "double" : "float");
    dg_variant v;
    if (!strcmp(covering[c], "default")) v = dg_variant_default(&dev->info, N, p);
    else assert_dg_ok(dg_variant_parse(j.spec, &v));
    char why[128], spec[DG_VARIANT_SPEC_MAX];
    dg_variant_print(&v, spec, sizeof spec);
    if (!dg_variant_check(&v, &dev->info, N, why, sizeof why)) {
      test_skip_part("%s N=%d cannot run on this device: %s", spec, N, why);
      continue;
    }
    const double tol = dg_verify_tolerance(p);
    for (int s = DG_VSIZE_ONE; s <= DG_VSIZE_ROW3; ++s) {
      double diff = 0;
      int pass = 0;
      assert_dg_ok(dg_cl_verify_size(dev, &v, N, (dg_verify_size)s, 11u + (uint64_t)s, &diff, &pass));
      printf("# N=%d %-6s %-5s %s: %.2e\n", N, p ? "double" : "float",
             dg_verify_size_name((dg_verify_size)s), spec, diff);
      assert_true(pass && diff <= tol);
    }
    const int parts[2][2] = {{3, 5}, {2, 7}};
    for (int h = 0; h < 2; ++h) {
      double diff = 0, pack = 0;
      int pass = 0;
      assert_dg_ok(dg_cl_verify_halo(dev, &v, N, parts[h][0], parts[h][1], 0, 21u, &diff, &pack, &pass));
      printf("# N=%d %-6s halo %d parts/%d %s: %.2e (packed %.1e)\n", N, p ? "double" : "float",
             parts[h][0], parts[h][1], spec, diff, pack);
      assert_true(pass && diff <= tol);
    }
  }
}

static void test_halo_check_fails_without_the_traces(void **state) {
  void **pair = *state;
  if (!pair) skip();
  dg_device *dev = pair[0];
  const dg_variant v = dg_variant_default(&dev->info, 2, DG_PREC_FLOAT);
  double diff = 0, pack = 0;
  int pass = 1;
  assert_dg_error(dg_cl_verify_halo(dev, &v, 2, 3, 5, DG_VHALO_DROP, 21u, &diff, &pack, &pass),
                  DG_ERR_NUMERIC, "halo check");
  assert_false(pass);
  assert_true(diff > 1e-3);
  assert_true(pack <= 1e-7); /* packing itself was right */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_edge_meshes_have_their_sizes),
      cmocka_unit_test(test_covering_variants_at_edge_sizes),
      cmocka_unit_test(test_halo_check_fails_without_the_traces),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

/* The PML cases of `dgtd bench --pml` and `dgtd tune --pml`:
 * - dg_verify_case_create_pml: the box with `cells` PML cells around it has
 *   (n + 2 cells)^3 x 6 elements, of which exactly those outside [0,1]^3 are in the PML,
 *   and the PML stretches 1, 2 and 3 directions (faces, edges, corners);
 * - bench: the plain box, the PML box and its mesh without the PML (same K) are all timed;
 *   the PML box's variants are verified with the PML terms (fields and auxiliary
 *   fields; a relative difference within the precision's tolerance), the PML kernels
 *   (pml, pmlsave) are timed apart (> 0 on the PML box, 0 on the plain one) and the plain
 *   and PML parts add up to the stage;
 * - tune: the PML case's timing problem has PML elements, the winner's kernels include the
 *   PML kernel, and nothing is written to the cache. */
#include "test_device.h"
#include "test_tune_util.h"

#include <sys/stat.h>

#include "backend/verify.h"
#include "bench/bench.h"
#include "dg/pml.h"

static void test_case_layout(void **state) {
  (void)state;
  dg_verify_case *c = NULL;
  const int n = 2, cells = 2, m = n + 2 * cells;
  assert_dg_ok(dg_verify_case_create_pml(&c, 2, n, cells));
  assert_int_equal(c->mesh->K, 6 * m * m * m);
  assert_int_equal(c->phys->pml_K, 6 * (m * m * m - n * n * n));
  const dg_mesh *mesh = c->mesh;
  int outside = 0;
  for (int k = 0; k < mesh->K; ++k) {
    double x[3] = {0, 0, 0};
    for (int v = 0; v < 4; ++v) {
      const int vi = mesh->EToV[4 * k + v];
      x[0] += 0.25 * mesh->VX[vi], x[1] += 0.25 * mesh->VY[vi], x[2] += 0.25 * mesh->VZ[vi];
    }
    outside += x[0] < 0 || x[0] > 1 || x[1] < 0 || x[1] > 1 || x[2] < 0 || x[2] > 1;
  }
  assert_int_equal(outside, c->phys->pml_K);
  /* Stretched directions per PML element (those with a matrix S_d, dg/pml.h): 1, 2 and 3
   * all occur. */
  int seen[4] = {0, 0, 0, 0};
  for (int e = 0; e < c->phys->pml_K; ++e) {
    int d = 0;
    for (int i = 0; i < 3; ++i) d += c->phys->pml_mat_of[DG_PML_MATS * e + DG_PML_S + i] >= 0;
    seen[d] = 1;
  }
  assert_true(seen[1] && seen[2] && seen[3]);
  dg_verify_case_destroy(&c);
  assert_dg_ok(dg_verify_case_create_pml(&c, 1, 2, 0)); /* 0 cells: the plain case */
  assert_int_equal(c->phys->pml_K, 0);
  assert_int_equal(c->mesh->K, 48);
  dg_verify_case_destroy(&c);
}

static void test_kernel_kinds(void **state) {
  (void)state;
  assert_int_equal(dg_kernel_kind_of("pml_vec16"), DG_KERNEL_PML);
  assert_int_equal(dg_kernel_kind_of("pmlsave_node"), DG_KERNEL_PML);
  assert_int_equal(dg_kernel_kind_of("lift_node"), DG_KERNEL_LIFT);
  assert_string_equal(dg_kernel_kind_name(DG_KERNEL_PML), "pml");
  assert_true(dg_kernel_flops(DG_KERNEL_PML, 3) == 0); /* timed, not counted */
}

static void test_bench_pml(void **state) {
  dg_device *dev = test_device(state, 0);
  dg_bench_options o;
  dg_bench_options_default(&o);
  o.verbose = 0;
  o.repeats = 3;
  o.elements = 48;
  o.pml_cells = 1;
  /* The fused lift-update needs pmlsave: an extra variant so both PML paths run. */
  const char *extra[] = {"work=vec,vw=8,lift=fused-update"};
  o.extra = extra;
  o.n_extra = 1;
  const int N = 1;
  dg_bench_order out[3];
  assert_dg_ok(dg_bench_run(dev, &N, 1, DG_PREC_FLOAT, &o, out));
  assert_int_equal(out[0].pml_cells, 0);
  assert_int_equal(out[0].pml_K, 0);
  assert_int_equal(out[1].pml_cells, 1);
  assert_int_equal(out[1].K, 6 * 4 * 4 * 4);
  assert_int_equal(out[1].pml_K, 6 * (4 * 4 * 4 - 8));
  assert_int_equal(out[0].nv, out[1].nv);
  /* The control: the PML case's mesh without the PML. */
  assert_int_equal(out[2].pml_cells, 1);
  assert_int_equal(out[2].K, out[1].K);
  assert_int_equal(out[2].pml_K, 0);
  assert_int_equal(out[2].nv, out[1].nv);
  int saw_save = 0;
  for (int i = 0; i < out[1].nv; ++i) {
    const dg_bench_variant *a = &out[0].v[i], *b = &out[1].v[i];
    assert_string_equal(a->spec, b->spec);
    assert_true(a->ok && b->ok);
    assert_true(b->rel_diff <= DG_VERIFY_TOL_FLOAT);
    assert_true(a->pml_ns[0] == 0 && a->plain_ns[0] == a->stage_ns[0]);
    assert_true(out[2].v[i].ok && out[2].v[i].pml_ns[0] == 0);
    assert_true(b->pml_ns[0] > 0 && b->plain_ns[0] > 0);
    /* Medians of per-round parts: each within the stage's range. */
    assert_true(b->pml_ns[0] < b->stage_ns[2] && b->plain_ns[0] < b->stage_ns[2]);
    double pml = 0;
    for (int m = 0; m < b->nk; ++m)
      if (b->k[m].kind == DG_KERNEL_PML) {
        pml += b->k[m].median_ns;
        saw_save += !strncmp(b->k[m].name, "pmlsave_", 8);
      }
    assert_true(pml > 0);
    printf("# %s: stage %.3f ms, PML kernels %.3f ms, verified %.1e\n", b->spec,
           b->stage_ns[0] * 1e-6, b->pml_ns[0] * 1e-6, b->rel_diff);
  }
  assert_true(saw_save > 0);
}

static void test_tune_pml(void **state) {
  dg_device *dev = test_device(state, 0);
  char root[64];
  dg_tune_options opt;
  assert_dg_ok(dg_tune_options_default(&opt));
  tt_paths(&opt.paths, root);
  opt.verbose = 0;
  opt.repeats = 5;
  opt.target_dofs = 1000; /* the 2^3 box */
  opt.pml_cells = 1;
  opt.use_known = 0;
  const char *specs[] = {"work=node"};
  opt.specs = specs;
  opt.n_specs = 1;
  dg_tune_result r;
  assert_dg_ok(dg_tune_order(dev, 1, DG_PREC_FLOAT, &opt, NULL, &r));
  assert_int_equal(r.pml_cells, 1);
  assert_int_equal(r.pml_K, 6 * (4 * 4 * 4 - 8));
  assert_true(r.winner >= 0);
  const dg_tune_candidate *w = &r.c[r.winner];
  assert_true(w->rel_diff <= DG_VERIFY_TOL_FLOAT);
  int pml = 0;
  for (int m = 0; m < w->nk; ++m) pml += !strncmp(w->kname[m], "pml_", 4);
  assert_int_equal(pml, 1);
  struct stat sb;
  assert_int_not_equal(stat(r.cache_path, &sb), 0); /* not cached */
  dg_tune_result_free(&r);
  tt_rmrf(root);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_case_layout),
                                     cmocka_unit_test(test_kernel_kinds),
                                     cmocka_unit_test(test_bench_pml),
                                     cmocka_unit_test(test_tune_pml)};
  return cmocka_run_group_tests(tests, test_device_setup, test_device_teardown);
}

/* Helpers shared by the tune tests: a device description without OpenCL, a scratch cache
 * directory, and a complete tuning entry. */
#ifndef DG_TEST_TUNE_UTIL_H
#define DG_TEST_TUNE_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "codegen/codegen.h"
#include "tune/tune.h"

static inline dg_device_info tt_info(const char *name, const char *vendor, const char *driver) {
  dg_device_info d;
  memset(&d, 0, sizeof d);
  snprintf(d.name, sizeof d.name, "%s", name);
  snprintf(d.vendor, sizeof d.vendor, "%s", vendor);
  snprintf(d.platform_name, sizeof d.platform_name, "Test Platform");
  snprintf(d.platform_version, sizeof d.platform_version, "OpenCL 3.0 test");
  snprintf(d.driver_version, sizeof d.driver_version, "%s", driver);
  snprintf(d.device_version, sizeof d.device_version, "OpenCL 3.0");
  d.type = CL_DEVICE_TYPE_CPU;
  d.compute_units = 2;
  d.max_work_group_size = 4096;
  d.max_work_item_size[0] = d.max_work_item_size[1] = d.max_work_item_size[2] = 4096;
  d.local_mem_size = 1 << 20;
  d.global_mem_size = (cl_ulong)1 << 33;
  d.max_constant_buffer_size = 1 << 20;
  d.max_alloc_size = (cl_ulong)1 << 31;
  d.has_fp64 = 1;
  return d;
}

/* root receives a fresh /tmp directory; p its cache/ and shipped/ subdirectories. */
static inline void tt_paths(dg_tune_paths *p, char root[64]) {
  strcpy(root, "/tmp/dgtd-test-tune-XXXXXX");
  assert_non_null(mkdtemp(root));
  memset(p, 0, sizeof *p);
  snprintf(p->cache_dir, sizeof p->cache_dir, "%s/cache", root);
  snprintf(p->shipped_dir, sizeof p->shipped_dir, "%s/shipped", root);
}

/* Options for a quick tune into a fresh scratch cache under root: quiet, 5 rounds, a
 * 3000-DOF timing problem. */
static inline void tt_options(dg_tune_options *opt, char root[64]) {
  assert_dg_ok(dg_tune_options_default(opt));
  tt_paths(&opt->paths, root);
  opt->verbose = 0;
  opt->repeats = 5;
  opt->target_dofs = 3000;
}

static inline void tt_rmrf(const char *root) { assert_int_equal(test_rmrf(root), 0); }

/* Device limits of bw GB/s and f32 / f64 GFLOP/s (nothing else set). */
static inline dg_device_limits tt_limits(double bw, double f32, double f64) {
  dg_device_limits l;
  memset(&l, 0, sizeof l);
  l.bandwidth_gbs = bw;
  l.fma_gflops[0] = f32;
  l.fma_gflops[1] = f64;
  return l;
}

/* A complete entry for (N, p) whose winner is spec (canonicalised). */
static inline dg_tune_entry tt_entry(int N, dg_precision p, uint64_t hash, const char *spec) {
  dg_tune_entry e;
  memset(&e, 0, sizeof e);
  e.N = N;
  e.precision = p;
  e.template_hash = hash;
  dg_variant v;
  assert_dg_ok(dg_variant_parse(spec, &v));
  v.precision = p;
  dg_variant_print(&v, e.winner, sizeof e.winner);
  e.median_ns = 1e6;
  e.min_ns = 0.9e6;
  e.max_ns = 1.2e6;
  e.K = 100;
  e.dofs = 6.0 * dg_variant_np(N) * 100;
  snprintf(e.date, sizeof e.date, "2026-01-01T00:00:00Z");
  return e;
}

#endif

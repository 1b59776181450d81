// A check of OCCA's OpenCL memory pool (not part of dgtd's build; bench/libparanumal/build.sh
// compiles it to DEST/pool_check against the float tree's OCCA): the paths that
// occa-opencl-memory.patch mends and that the maxwell run does not all take. A pool resized
// while reservations live around a gap (setPtr must record the new offsets, or the next
// reservation overlaps a live one), and copies between a pinned (host) pool, which OCCA keeps
// mapped, and the device; and many reservations of different sizes (the sub-buffers OCCA keeps
// per region). Prints one line per check and POOL_CHECK OK or FAILED (exit 1).
// Unmended OCCA 9866ea5 fails two checks even on PoCL (docs/notes/libparanumal-memory-pool.md).
// With LD_PRELOAD=DEST/clmem_check.so it also counts the sub-buffers.
//   usage: pool_check [PLATFORM [DEVICE]]      (OpenCL platform and device numbers, default 0 0)
#include <occa.hpp>
#include <cstdlib>
#include <cstdio>
#include <vector>
static int fails = 0;
static void check(const char *what, const occa::memory &m, float base, size_t n) {
  std::vector<float> h(n);
  m.copyTo(h.data());
  for (size_t i = 0; i < n; ++i)
    if (h[i] != base + i) { std::printf("FAIL %s: [%zu] = %g, want %g\n", what, i, h[i], base + i); ++fails; return; }
  std::printf("ok   %s\n", what);
}
static void fill(occa::memory &m, float base, size_t n) {
  std::vector<float> h(n);
  for (size_t i = 0; i < n; ++i) h[i] = base + i;
  m.copyFrom(h.data());
}
int main(int argc, char **argv) {
  const int platform = argc > 1 ? std::atoi(argv[1]) : 0, device = argc > 2 ? std::atoi(argv[2]) : 0;
  occa::device dev({{"mode", "OpenCL"}, {"platform_id", platform}, {"device_id", device}});
  occa::experimental::memoryPool pool = dev.createMemoryPool();
  const size_t n = 1000;
  occa::memory a = pool.reserve<float>(n), c;
  fill(a, 0, n);
  {
    occa::memory b = pool.reserve<float>(n);
    c = pool.reserve<float>(n);
    fill(b, 1e4, n);
    fill(c, 2e4, n);
  } // b freed: a gap between a and c
  occa::memory d = pool.reserve<float>(5 * n); // too big: resize, packing a and c
  fill(d, 3e4, 5 * n);
  check("a after resize", a, 0, n);
  check("c after resize", c, 2e4, n);
  occa::memory e = pool.reserve<float>(n); // goes into free space: must not overlap c
  fill(e, 4e4, n);
  check("c after reserving e", c, 2e4, n);
  check("d after reserving e", d, 3e4, 5 * n);
  check("e", e, 4e4, n);
  // reservations of 40 sizes, each freed at once (some resize the pool under a, c, d, e): each
  // reads back what was written, and a, c keep theirs. OCCA keeps one sub-buffer per region
  // now, at most 16 unused: with clmem_check, peak_live_sub stays far below the 40 made.
  bool many = true;
  for (size_t k = 1; k <= 40; ++k) {
    occa::memory r = pool.reserve<float>(k * 250);
    fill(r, 6e4 + k, k * 250);
    std::vector<float> h(k * 250);
    r.copyTo(h.data());
    for (size_t i = 0; i < h.size() && many; ++i) many = h[i] == 6e4f + k + i;
  }
  std::printf("%s 40 reservations of different sizes\n", many ? "ok  " : "FAIL");
  fails += !many;
  check("a after them", a, 0, n);
  check("c after them", c, 2e4, n);
  // pinned (host) pool: device -> pinned and pinned -> device copies
  occa::experimental::memoryPool hpool = dev.createMemoryPool({{"host", true}});
  occa::memory hp = hpool.reserve<float>(n);
  hp.copyFrom(c, n * sizeof(float), 0, 0, {{"async", true}});
  dev.finish();
  const float *p = (const float *)hp.ptr();
  bool ok = true;
  for (size_t i = 0; i < n; ++i) ok = ok && p[i] == 2e4f + i;
  std::printf("%s device -> pinned, read through the mapped pointer\n", ok ? "ok  " : "FAIL");
  fails += !ok;
  for (size_t i = 0; i < n; ++i) ((float *)hp.ptr())[i] = 5e4f + i;
  e.copyFrom(hp, n * sizeof(float));
  check("pinned -> device", e, 5e4, n);
  std::printf("%s\n", fails ? "POOL_CHECK FAILED" : "POOL_CHECK OK");
  return fails != 0;
}

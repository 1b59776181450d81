#include "tune/limits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <clblast_c.h>

#include "backend/clblast_check.h"
#include "core/alloc.h"
#include "core/clock.h"
#include "core/log.h"
#include "device/program.h"

/* Copy: float4 loads and stores, one per work-item, so every device streams at full width.
 * FMA: 8 independent chains of W-wide vectors per work-item; 8 chains hide the FMA latency
 * (4 cycles x 2 pipes on Zen 4), explicit vectors let PoCL use the full SIMD width. The
 * chains converge (a = a b + c with |b| < 1) so nothing overflows, and the sum is stored so
 * nothing is dead code. */
static const char limits_src[] =
    "#if DG_DOUBLE\n"
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "typedef double real_t; typedef double8 vec_t;\n"
    "#else\n"
    "typedef float real_t; typedef float16 vec_t;\n"
    "#endif\n"
    "__kernel void copy4(__global const float4 *restrict in, __global float4 *restrict out) {\n"
    "  const size_t i = get_global_id(0);\n"
    "  out[i] = in[i];\n"
    "}\n"
    "__kernel void fma_chains(__global real_t *out, const real_t s, const int iters) {\n"
    "  const real_t x = (real_t)get_global_id(0) * s;\n"
    "  vec_t a0 = (vec_t)(x), a1 = a0 + (real_t)1, a2 = a0 + (real_t)2, a3 = a0 + (real_t)3;\n"
    "  vec_t a4 = a0 + (real_t)4, a5 = a0 + (real_t)5, a6 = a0 + (real_t)6, a7 = a0 + (real_t)7;\n"
    "  const vec_t b = (vec_t)((real_t)0.999), c = (vec_t)(s);\n"
    "  for (int i = 0; i < iters; ++i) {\n"
    "    a0 = fma(a0, b, c); a1 = fma(a1, b, c); a2 = fma(a2, b, c); a3 = fma(a3, b, c);\n"
    "    a4 = fma(a4, b, c); a5 = fma(a5, b, c); a6 = fma(a6, b, c); a7 = fma(a7, b, c);\n"
    "  }\n"
    "  const vec_t t = (a0 + a1) + (a2 + a3) + (a4 + a5) + (a6 + a7);\n"
    "  real_t sum = 0;\n"
    "  for (int k = 0; k < (int)(sizeof(vec_t) / sizeof(real_t)); ++k) sum += ((real_t *)&t)[k];\n"
    "  out[get_global_id(0)] = sum;\n"
    "}\n";

enum { REPEATS = 5 };

void dg_utc_date(char *buf, size_t cap) {
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int cmp_ulong(const void *a, const void *b) {
  const cl_ulong x = *(const cl_ulong *)a, y = *(const cl_ulong *)b;
  return x < y ? -1 : x > y;
}

static cl_ulong median_ns(cl_ulong *t, int n) {
  qsort(t, (size_t)n, sizeof *t, cmp_ulong);
  return t[n / 2];
}

static int is_gpu(const dg_device *dev) {
  return (dev->info.type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)) != 0;
}

static dg_status measure_bandwidth(dg_device *dev, cl_program prog, double *gbs) {
  dg_status st = DG_OK;
  cl_kernel k = NULL;
  cl_mem a = NULL, b = NULL;
  /* Far beyond any last-level cache: 256 MiB per buffer on GPUs, 128 MiB on CPUs, never more
   * than a quarter of the largest allocation or 1/8 of global memory. */
  size_t bytes = is_gpu(dev) ? (size_t)256 << 20 : (size_t)128 << 20;
  if (bytes > dev->info.max_alloc_size / 4) bytes = (size_t)(dev->info.max_alloc_size / 4);
  if (bytes > dev->info.global_mem_size / 8) bytes = (size_t)(dev->info.global_mem_size / 8);
  bytes &= ~(size_t)((64 * 16) - 1);
  DG_CHECK(bytes > 0, DG_ERR_OPENCL, "bandwidth: device memory too small");
  DG_CALL_GOTO(done, dg_kernel_create(prog, "copy4", &k));
  DG_CALL_GOTO(done, dg_buffer_create(dev, CL_MEM_READ_WRITE, bytes, NULL, &a));
  DG_CALL_GOTO(done, dg_buffer_create(dev, CL_MEM_READ_WRITE, bytes, NULL, &b));
  const float zero = 0;
  DG_CL_GOTO(done, clEnqueueFillBuffer(dev->queue, a, &zero, sizeof zero, 0, bytes, 0, NULL, NULL));
  DG_CALL_GOTO(done, DG_KERNEL_ARG(k, 0, a));
  DG_CALL_GOTO(done, DG_KERNEL_ARG(k, 1, b));
  const size_t global = bytes / 16, local = 64;
  cl_ulong t[REPEATS];
  DG_CALL_GOTO(done, dg_kernel_run(dev, k, 1, &global, &local, &t[0])); /* warm-up */
  for (int r = 0; r < REPEATS; ++r) DG_CALL_GOTO(done, dg_kernel_run(dev, k, 1, &global, &local, &t[r]));
  *gbs = 2.0 * (double)bytes / (double)median_ns(t, REPEATS);
done:
  dg_kernel_release(&k);
  dg_buffer_release(&a);
  dg_buffer_release(&b);
  return st;
}

static dg_status measure_fma(dg_device *dev, cl_program prog, dg_precision p, double *gflops) {
  dg_status st = DG_OK;
  cl_kernel k = NULL;
  cl_mem out = NULL;
  const int dbl = p == DG_PREC_DOUBLE;
  const size_t rs = dbl ? 8 : 4, lanes = dbl ? 8 : 16;
  size_t local = dev->info.max_work_group_size < 64 ? dev->info.max_work_group_size : 64;
  /* Enough work-items for every compute unit: 2048 per unit (a full GPU multiprocessor). */
  const size_t global = (size_t)dev->info.compute_units * 2048;
  DG_CALL_GOTO(done, dg_kernel_create(prog, "fma_chains", &k));
  DG_CALL_GOTO(done, dg_buffer_create(dev, CL_MEM_WRITE_ONLY, global * rs, NULL, &out));
  DG_CALL_GOTO(done, DG_KERNEL_ARG(k, 0, out));
  if (dbl) {
    const double s = 1e-3;
    DG_CALL_GOTO(done, DG_KERNEL_ARG(k, 1, s));
  } else {
    const float s = 1e-3f;
    DG_CALL_GOTO(done, DG_KERNEL_ARG(k, 1, s));
  }
  /* Grow the loop count until a run takes >= 50 ms, so launch overhead is negligible. */
  int iters = 16;
  cl_ulong t[REPEATS];
  for (;;) {
    DG_CALL_GOTO(done, DG_KERNEL_ARG(k, 2, iters));
    DG_CALL_GOTO(done, dg_kernel_run(dev, k, 1, &global, &local, &t[0]));
    if (t[0] >= 50000000ull || iters >= (1 << 24)) break;
    const double scale = t[0] > 0 ? 60e6 / (double)t[0] : 64;
    iters = (int)(iters * (scale > 64 ? 64 : scale < 2 ? 2 : scale));
  }
  for (int r = 0; r < REPEATS; ++r) DG_CALL_GOTO(done, dg_kernel_run(dev, k, 1, &global, &local, &t[r]));
  const double flops = 2.0 * 8.0 * (double)lanes * (double)iters * (double)global;
  *gflops = flops / (double)median_ns(t, REPEATS);
done:
  dg_kernel_release(&k);
  dg_buffer_release(&out);
  return st;
}

/* C = A B with square n x n matrices, CLBlast, median of REPEATS after a warm-up (the first
 * call compiles CLBlast's kernels). */
static dg_status measure_gemm(dg_device *dev, dg_precision p, double *gflops) {
  dg_status st = DG_OK;
  cl_mem a = NULL, b = NULL, c = NULL;
  cl_event ev = NULL;
  const size_t n = is_gpu(dev) ? 4096 : 1024, rs = p == DG_PREC_DOUBLE ? 8 : 4;
  const size_t bytes = n * n * rs;
  DG_CALL_GOTO(done, dg_buffer_create(dev, CL_MEM_READ_WRITE, bytes, NULL, &a));
  DG_CALL_GOTO(done, dg_buffer_create(dev, CL_MEM_READ_WRITE, bytes, NULL, &b));
  DG_CALL_GOTO(done, dg_buffer_create(dev, CL_MEM_READ_WRITE, bytes, NULL, &c));
  const float one = 1.0f;
  DG_CL_GOTO(done, clEnqueueFillBuffer(dev->queue, a, &one, sizeof one, 0, bytes, 0, NULL, NULL));
  DG_CL_GOTO(done, clEnqueueFillBuffer(dev->queue, b, &one, sizeof one, 0, bytes, 0, NULL, NULL));
  cl_ulong t[REPEATS];
  for (int r = -1; r < REPEATS; ++r) {
    cl_command_queue q = dev->queue;
    if (p == DG_PREC_DOUBLE)
      DG_CLBLAST_GOTO(done, CLBlastDgemm(CLBlastLayoutColMajor, CLBlastTransposeNo,
                                         CLBlastTransposeNo, n, n, n, 1.0, a, 0, n, b, 0, n,
                                         0.0, c, 0, n, &q, &ev));
    else
      DG_CLBLAST_GOTO(done, CLBlastSgemm(CLBlastLayoutColMajor, CLBlastTransposeNo,
                                         CLBlastTransposeNo, n, n, n, 1.0f, a, 0, n, b, 0, n,
                                         0.0f, c, 0, n, &q, &ev));
    DG_CL_GOTO(done, clWaitForEvents(1, &ev));
    cl_ulong t0 = 0, t1 = 0;
    DG_CL_GOTO(done, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
    DG_CL_GOTO(done, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
    clReleaseEvent(ev);
    ev = NULL;
    if (r >= 0) t[r] = t1 - t0;
  }
  *gflops = 2.0 * (double)n * (double)n * (double)n / (double)median_ns(t, REPEATS);
done:
  if (ev) clReleaseEvent(ev);
  dg_buffer_release(&a);
  dg_buffer_release(&b);
  dg_buffer_release(&c);
  return st;
}

dg_status dg_limits_measure(dg_device *dev, int with_gemm, dg_device_limits *out) {
  dg_status st = DG_OK;
  cl_program prog = NULL;
  const double t0 = dg_now_s();
  memset(out, 0, sizeof *out);
  for (int p = 0; p < 2; ++p) {
    if (p == DG_PREC_DOUBLE && !dev->info.has_fp64) break;
    DG_CALL(dg_program_build(dev, limits_src, p ? "-DDG_DOUBLE=1" : "-DDG_DOUBLE=0",
                             p ? "limits_double" : "limits_float", NULL, &prog));
    if (p == 0) DG_CALL_GOTO(done, measure_bandwidth(dev, prog, &out->bandwidth_gbs));
    DG_CALL_GOTO(done, measure_fma(dev, prog, (dg_precision)p, &out->fma_gflops[p]));
    dg_program_release(&prog);
    /* CLBlast may lack a kernel or fail on a device: the roofline then uses the FMA peak. */
    if (with_gemm && measure_gemm(dev, (dg_precision)p, &out->gemm_gflops[p]) != DG_OK) {
      dg_warn("CLBlast %cGEMM could not be measured: %s", p ? 'D' : 'S', dg_error_message());
      dg_error_clear();
      out->gemm_gflops[p] = 0;
    }
  }
  out->seconds = dg_now_s() - t0;
  dg_utc_date(out->date, sizeof out->date);
done:
  dg_program_release(&prog);
  return st;
}

double dg_limits_peak_gflops(const dg_device_limits *l, dg_precision p) {
  const double f = l->fma_gflops[p], g = l->gemm_gflops[p];
  return f > g ? f : g;
}

double dg_limits_roofline_s(const dg_device_limits *l, dg_precision p, double flops,
                            double bytes) {
  const double peak = dg_limits_peak_gflops(l, p);
  if (peak <= 0 || l->bandwidth_gbs <= 0) return 0;
  const double tf = flops / (peak * 1e9), tb = bytes / (l->bandwidth_gbs * 1e9);
  return tf > tb ? tf : tb;
}

void dg_host_sample_take(dg_host_sample *s) {
  memset(s, 0, sizeof *s);
  struct timespec ts;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return;
  s->self_s = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
  FILE *f = fopen("/proc/stat", "r");
  if (!f) return;
  unsigned long long a[8] = {0};
  const int got = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &a[0], &a[1], &a[2],
                         &a[3], &a[4], &a[5], &a[6], &a[7]);
  fclose(f);
  if (got != 8) return;
  for (int i = 0; i < 8; ++i) s->total += a[i];
  s->busy = s->total - a[3] - a[4]; /* all but idle and iowait */
  s->ok = 1;
}

double dg_host_others_busy(const dg_host_sample *a, const dg_host_sample *b) {
  const long hz = sysconf(_SC_CLK_TCK);
  if (!a->ok || !b->ok || hz <= 0 || b->total <= a->total) return -1;
  const double total = (double)(b->total - a->total) / (double)hz;
  const double busy = (double)(b->busy - a->busy) / (double)hz;
  const double others = busy - (b->self_s - a->self_s);
  return others <= 0 ? 0 : others / total;
}

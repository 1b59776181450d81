/* The device's measured limits, the denominators of the roofline (see docs/TUNING.md):
 * sustained memory bandwidth (a large copy, bytes read + written), peak FMA throughput in
 * float and double (independent FMA chains on vector types, so PoCL can reach its SIMD peak),
 * and CLBlast GEMM throughput. Measured once per device; the tuning cache keeps them beside
 * the tuning results (tune/cache.h). */
#ifndef DG_TUNE_LIMITS_H
#define DG_TUNE_LIMITS_H

#include "backend/variant.h"
#include "core/status.h"
#include "device/device.h"

typedef struct {
  double bandwidth_gbs;  /* GB/s (1e9 B/s), read + write */
  double fma_gflops[2];  /* indexed by dg_precision; 0 when not measured (no fp64) */
  double gemm_gflops[2]; /* CLBlast S/DGEMM; 0 when not measured or CLBlast failed */
  double seconds;        /* how long the measurement took */
  char date[32];         /* ISO 8601 UTC */
  /* Not stored: set by dg_tune_device_limits when it measured. */
  double others_busy;    /* share of the host's CPU time other processes used meanwhile
                            (-1 unknown) */
  int contended;         /* a CPU device and others_busy above the threshold: the numbers
                            are low, so they were not cached */
} dg_device_limits;

/* Host CPU accounting, to detect other processes competing with a CPU device. */
typedef struct {
  unsigned long long busy, total; /* /proc/stat jiffies, all CPUs */
  double self_s;                  /* this process's CPU time (every thread) */
  int ok;
} dg_host_sample;
void dg_host_sample_take(dg_host_sample *s);
/* The share of the host's CPU time between a and b that other processes used (-1 unknown). */
double dg_host_others_busy(const dg_host_sample *a, const dg_host_sample *b);

/* Measure the limits on dev: bandwidth and FMA peaks (a few seconds), and with with_gemm the
 * CLBlast S/DGEMM rates too (on PoCL 10 s each the first time: CLBlast compiles its GEMM
 * kernels). The GEMM rate only raises the roofline's peak where it beats the FMA kernel,
 * which it did on no device measured (2-10x below it on PoCL x86 and the H100), so the
 * tuner's implicit measurement leaves it 0 (not measured). A failing GEMM (CLBlast missing
 * a kernel for the device) leaves its entry 0 and is not an error; a failing bandwidth or
 * FMA kernel is. */
dg_status dg_limits_measure(dg_device *dev, int with_gemm, dg_device_limits *out) DG_NODISCARD;

/* Peak compute for precision p: the larger of the FMA and GEMM rates (GFLOP/s). */
double dg_limits_peak_gflops(const dg_device_limits *l, dg_precision p);

/* The roofline bound in seconds for flops and bytes: max(flops / peak, bytes / bandwidth);
 * 0 if the limits are unknown. */
double dg_limits_roofline_s(const dg_device_limits *l, dg_precision p, double flops,
                            double bytes);

/* Current UTC time as "YYYY-MM-DDTHH:MM:SSZ". */
void dg_utc_date(char *buf, size_t cap);

#endif

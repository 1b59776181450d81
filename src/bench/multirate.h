/* dgtd bench --time-stepping multirate|multirate-lserk4 (bench/multirate.c): a multirate
 * stepper against global LSERK4 on one mesh, both on the device with one variant. */
#ifndef DG_BENCH_MULTIRATE_H
#define DG_BENCH_MULTIRATE_H

#include <stdio.h>

#include "backend/variant.h"
#include "core/status.h"
#include "device/device.h"
#include "dg/multirate.h"

typedef struct {
  const char *mesh;    /* mesh file (required) */
  int order;           /* polynomial order */
  dg_precision precision;
  const char *variant; /* NULL: the device default */
  int max_levels;      /* rate levels at most */
  dg_mr_scheme scheme; /* AB3 or LSERK4 */
  int steps;           /* timed macro steps */
} dg_bench_mr_options;

/* Times both and prints the comparison to out (a table, or JSON with json != 0). */
dg_status dg_bench_multirate(dg_device *dev, const dg_bench_mr_options *o, FILE *out,
                             int json) DG_NODISCARD;

#endif

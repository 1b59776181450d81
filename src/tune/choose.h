/* The tuning policy of a run: which variant `dgtd run` uses when the user forced none. */
#ifndef DG_TUNE_CHOOSE_H
#define DG_TUNE_CHOOSE_H

#include <stdio.h>

#include "backend/variant.h"
#include "core/status.h"
#include "device/device.h"

/* auto: the cached winner, tuning on a miss; never: the device default; always: tune. */
typedef enum { DG_TUNE_AUTO = 0, DG_TUNE_NEVER, DG_TUNE_ALWAYS } dg_tune_mode;

typedef struct {
  const char *spec;      /* a forced variant (--variant), or NULL/"" to follow mode */
  dg_precision precision; /* the run's; a forced spec's prec key wins over it */
  dg_tune_mode mode;
  double budget_s;       /* for a tuning run */
  FILE *log;             /* tuning progress (NULL: none) */
} dg_tune_choice;

typedef struct {
  dg_variant v;
  char source[600]; /* where it came from: "--variant", "tuned: <cache entry>", "fresh
                       tuning (42 s)", "device default (--tune never)" */
  int tuned;        /* 1: this call ran a tuning search */
} dg_tune_chosen;

/* Choose for dev at order N. A tuning run verifies candidates in child processes of this
 * executable (a compiler crash fails only that candidate) and writes the cache. Before it
 * starts, a note (core/log.h) says why and how to skip it. */
dg_status dg_tune_choose(dg_device *dev, int N, const dg_tune_choice *how,
                         dg_tune_chosen *out) DG_NODISCARD;

#endif

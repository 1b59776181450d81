/* The tuning policy of a run: which variant `dgtd run` uses when the user forced none. */
#ifndef DG_TUNE_CHOOSE_H
#define DG_TUNE_CHOOSE_H

#include <stdio.h>

#include "backend/variant.h"
#include "core/status.h"
#include "device/device.h"

/* auto: the cached winner, tuning on a miss; never: the device default; always: tune. */
typedef enum { DG_TUNE_AUTO = 0, DG_TUNE_NEVER, DG_TUNE_ALWAYS } dg_tune_mode;

/* The mode a run takes when its case and command line say nothing: $DGTD_TUNE
 * (auto | never | always; the test suite sets never), else auto. The tuning policy's
 * environment is read here and in dg_tune_choose ($DGTD_TUNE_ESTIMATE) only. */
dg_tune_mode dg_tune_mode_default(void);

typedef struct {
  const char *spec;      /* a forced variant (--variant), or NULL/"" to follow mode */
  dg_precision precision; /* the run's; a forced spec's prec key wins over it */
  dg_tune_mode mode;
  double budget_s;       /* for a tuning run */
  FILE *log;             /* tuning progress (NULL: none) */
  /* Run-aware tuning on a miss (mode auto): the run's size, for its bucket (tune/model.h)
   * and its estimated cost with the default variant. K <= 0: unknown (large bucket, the
   * whole budget_s as before). */
  long K;                /* elements (this rank's) */
  long pml_K;            /* of them, in a PML (DG_PML_ELEMENT_STAGES each in the estimate) */
  double steps;          /* LSERK4 steps still to run */
  double fraction;       /* share of the run's estimated time tuning may take (<= 0: 0.10) */
  double min_tune_s;     /* below this allowance tuning is not worth starting (<= 0: 20 s) */
  double est_run_s;      /* > 0: use this estimate instead of the cost model (tests) */
} dg_tune_choice;

typedef struct {
  dg_variant v;
  char source[600]; /* where it came from: "--variant", "tuned: <cache entry>", "fresh
                       tuning (42 s)", "device default (--tune never)" */
  int tuned;        /* 1: this call ran a tuning search */
  int skipped;      /* 1: a miss, and tuning would cost more than its share of the run */
  double est_run_s; /* the run's estimated seconds with the default variant (0: not needed) */
  double budget_s;  /* the tuning allowance that was (or would have been) used */
} dg_tune_chosen;

/* Choose for dev at order N. auto: the cached winner of the run's size bucket (or the other
 * bucket's, or a fallback); on a miss the run's cost with the device default is estimated
 * (cost model trained on what is known, no timing; or how->est_run_s) and a search runs only
 * if fraction x estimate (capped by budget_s) reaches min_tune_s, with that budget, for the
 * run's bucket; otherwise the default runs and one note (core/log.h) says so and gives the
 * `dgtd tune` command. always: tune now with budget_s. A tuning run verifies candidates in
 * child processes of this executable (a compiler crash fails only that candidate) and writes
 * the cache. */
dg_status dg_tune_choose(dg_device *dev, int N, const dg_tune_choice *how,
                         dg_tune_chosen *out) DG_NODISCARD;

#endif

/* The tuner's cost model, problem-size buckets, what is known from other devices, and the
 * run-aware tuning budget (see docs/TUNING.md, "Cost model, buckets and transfer").
 *
 * Cost model. The predicted time of one RK stage of variant v at order N, precision p on K
 * elements is
 *     t = roofline(N, p, K) * exp(b + sum_j f_j)
 * where roofline() is max(flops / peak, bytes / bandwidth) from tune/counts.h and the
 * device's measured limits (tune/limits.h), b is the device's overall log inefficiency and
 * f_j one learnt log factor per variant feature (path, work, vector width per precision, kb,
 * lkb, placements, unroll, operators, lift mode, flux split, lnpw, the family, and vw, kb,
 * lkb per order class N <= 2, 3-4, >= 5, where blocking changes most). The factors are fitted
 * (ridge-regularised backfitting in log space) to measured stage times: every ranking kept
 * in the cache files of this device (weight 1), of similar devices (less), and the
 * candidates timed so far in the current search (more). With nothing measured anywhere the
 * model is the roofline at 10% efficiency: every variant ties and the search order is the
 * enumeration's.
 *
 * Buckets. A timing problem stands for the runs of about its size: on a CPU "small" when a
 * stage's minimum bytes fit in the cores' L2 caches (L2 per core x compute units), on a GPU when it has too few DOFs to fill
 * the device (16384 per compute unit); "large" otherwise. Cache entries are keyed by
 * bucket (an entry without one is "large": it was tuned on a device-filling problem). */
#ifndef DG_TUNE_MODEL_H
#define DG_TUNE_MODEL_H

#include "backend/variant.h"
#include "device/device.h"
#include "tune/cache.h"
#include "tune/limits.h"

/* ---- buckets ---------------------------------------------------------------------------- */

typedef enum { DG_BUCKET_LARGE = 0, DG_BUCKET_SMALL = 1 } dg_bucket;
const char *dg_bucket_name(dg_bucket b);
/* 0 and *out on "large"/"small"; -1 otherwise. */
int dg_bucket_parse(const char *s, dg_bucket *out);
/* L2 cache bytes per core of the host (1 MiB if unknown); a CPU device's cache is this
 * times its compute units. */
double dg_host_cache_bytes(void);
/* Bucket of a problem of K elements at order N, precision p on the device. */
dg_bucket dg_bucket_of(const dg_device_info *info, int N, dg_precision p, long K);
/* A GPU's last-level cache: what the driver reports, but at least DG_GPU_CACHE_FLOOR, for
 * drivers report less than there is (NVIDIA's OpenCL: 4.125 MiB on an H100 with 50 MB of L2;
 * an A100 has 40 MB). The large GPU problem's state outgrows it DG_GPU_CACHE_TIMES over. */
#define DG_GPU_CACHE_FLOOR (64.0 * 1024 * 1024)
#define DG_GPU_CACHE_TIMES 8.0
double dg_gpu_cache_bytes(const dg_device_info *info);
/* Field DOFs of the large timing problem (the rule is in tune/tune.h) and the box size n for
 * a problem of dofs field DOFs at order N. */
double dg_tune_target_dofs(const dg_device_info *info, dg_precision p);
int dg_tune_box_n(double dofs, int N);
/* Field DOFs of the timing problem for bucket b (large: dg_tune_target_dofs). */
double dg_bucket_target_dofs(const dg_device_info *info, int N, dg_precision p, dg_bucket b);

/* ---- cost model ------------------------------------------------------------------------- */

/* feature dimensions of 16 codes each (model.c, features) */
enum { DG_MODEL_DIMS = 26, DG_MODEL_NF = DG_MODEL_DIMS * 16 };

typedef struct {
  double b;                 /* log of (stage time / roofline bound), device-wide */
  double f[DG_MODEL_NF];    /* learnt log factors per feature */
  double w[DG_MODEL_NF];    /* weight of the data behind each factor */
  double wsum;              /* total weight fitted */
  int nsamples;
  dg_device_limits limits;  /* this device's (or a stand-in: have_limits 0) */
  int have_limits;
} dg_cost_model;

typedef struct {
  dg_variant v;
  int N;
  dg_precision p;
  long K;
  double ns;            /* measured median stage time */
  double w;             /* weight */
  double bound_s;       /* roofline bound on the device that measured it (0: unknown) */
} dg_model_sample;

/* An empty model for a device with limits l (NULL: unknown, a stand-in from info). */
void dg_model_init(dg_cost_model *m, const dg_device_info *info, const dg_device_limits *l);
/* The roofline bound (s) of (N, p, K) under the model's limits. */
double dg_model_bound_s(const dg_cost_model *m, int N, dg_precision p, long K);
/* Fit to samples (replaces earlier factors). */
void dg_model_fit(dg_cost_model *m, const dg_model_sample *s, int n);
/* Predicted stage time in ns. */
/* (features depend on N, so samples of every order train one model) */
double dg_model_predict_ns(const dg_cost_model *m, const dg_variant *v, int N, dg_precision p,
                           long K);

/* 1 if every feature of v has data behind it (the model may rule it out), else 0. */
int dg_model_covers(const dg_cost_model *m, const dg_variant *v, int N, dg_precision p);

/* ---- what is known: this device's and similar devices' measurements --------------------- */

typedef struct {
  dg_model_sample *s;    /* training samples (every ranking found) */
  int n, cap;
  /* Seeds for (N, p, bucket): winners and runners-up of the nearest devices, best first. */
  char seeds[8][DG_VARIANT_SPEC_MAX];
  int n_seeds;
  char seed_from[300];   /* "cache x.json: device 'name' (same vendor)" */
  int seed_score;        /* 3 same name, 2 same vendor and platform, 1 same platform */
  int have_self_limits, have_other_limits;
  dg_device_limits self_limits, other_limits; /* this device's; the nearest device's */
  /* This device's own entry for (N, p, bucket), fresh or stale (n_rank 0 if none). */
  dg_tune_entry self;
  int self_stale;
  /* This device's winners at the neighbouring (N +- 1, same precision) and sister (same N,
   * other precision) entries of the same bucket: on one device the best variant moves
   * little between them, so in a sweep each order after the first starts from its
   * neighbours' winners (own measurements: kept with --no-transfer too). */
  char own_seeds[6][DG_VARIANT_SPEC_MAX];
  int n_own_seeds;
} dg_known;

/* Read every *.json of the shipped and cache directories. self_bucket picks the seeds'
 * and the self entry's bucket. Never fails on bad files (they are skipped). */
dg_status dg_known_collect(const dg_tune_paths *paths, const dg_device_info *info, int N,
                           dg_precision p, dg_bucket bucket, uint64_t template_hash,
                           dg_known *out) DG_NODISCARD;
void dg_known_free(dg_known *k);

/* ---- run-aware budget ------------------------------------------------------------------- */

/* Tuning a miss during a run: allowed = fraction * est_run_s (fraction <= 0: 0.10), capped
 * by budget_cap_s (> 0). Returns 1 (tune, *budget_s = allowed) when allowed is at least
 * min_s (or the cap, when the cap is smaller: the user accepted a search that short), else 0
 * (run the default). */
int dg_tune_run_budget(double est_run_s, double fraction, double budget_cap_s, double min_s,
                       double *budget_s);

/* A PML element's kernels (pml, pmlsave) cost about this many element stages of the whole
 * right-hand side: `dgtd bench --order 2 --pml 2 --elements 6000` on PoCL (float) measured
 * 875-910 ns per PML element against 340-370 ns per element for the tuned stage (each PML
 * node moves its 18 auxiliary fields, their residuals and 12 coefficients). */
#define DG_PML_ELEMENT_STAGES 2.5

/* Estimated seconds of a run of `steps` LSERK4 steps (5 stages each) of K elements, pml_K of
 * them in a PML, with the device default variant, from the cost model trained on what is
 * known (no timing). */
double dg_tune_estimate_run_s(const dg_device_info *info, const dg_known *k, int N,
                              dg_precision p, long K, long pml_K, double steps);

#endif

/* The benchmark (`dgtd bench`): how close the Maxwell operator comes to the device's limits,
 * per RK stage and per kernel, for the tuned, the default and the baseline variant measured
 * in one run, interleaved (see docs/TUNING.md).
 *
 * Counts. The stage's work is tune/counts.h's reference count of the method (the fewest
 * bytes one stage must move). A single kernel also moves what the stage keeps in memory
 * between kernels (rhs, the face fluxes), so each kernel gets its own minimum here: the
 * flops are tune/counts.h's terms (a fused kernel adds the terms it fuses); the bytes are
 * the arrays the kernel must read and write once, per element:
 *   volume       read q (6 Np), element data (12), write rhs (6 Np)        12 Np + 12 reals
 *   flux         read the traces (6 x 4 Nfp; the neighbour's side is the neighbour's own
 *                trace, a cache hit at best), face data (4 x 9), write the
 *                fluxes (6 x 4 Nfp); 4 Nfp neighbour indices                 48 Nfp + 36 reals
 *                                                                            + 16 Nfp bytes
 *   lift         read the fluxes (24 Nfp), read + write rhs (12 Np)         24 Nfp + 12 Np
 *   liftupdate   read the fluxes, rhs, res, q; write res, q                 24 Nfp + 30 Np
 *   fluxlift     flux's inputs, read + write rhs                            24 Nfp + 36 + 12 Np
 *                                                                            + 16 Nfp bytes
 *   update       read q, res, rhs; write q, res                              30 Np
 *   curl         (CLBlast path) read the 18 derivatives, E (3 Np), element
 *                data; write rhs                                            27 Np + 12
 *   gemm_volume  read q, write the 18 derivatives                           24 Np
 *   gemm_lift    read the fluxes, read + write rhs                          24 Nfp + 12 Np
 *   rhs          read q (6 Np; the neighbours' traces are their own q, a
 *                cache hit at best), element and face data (12 + 4 x 9),
 *                write rhs (6 Np); 4 Nfp neighbour indices                  12 Np + 48 reals
 *                                                                            + 16 Nfp bytes
 *   rhsres       the same, but read + write res instead of writing rhs      18 Np + 48 reals
 *                                                                            + 16 Nfp bytes
 *   qupdate      read q, res; write q                                        18 Np
 * plus, once per launch, the operator matrices the kernel reads (3 Np^2 or 4 Np Nfp; both
 * for rhs and rhsres). The
 * roofline bound of a kernel is max(flops / peak, bytes / bandwidth) with the device's
 * measured limits (tune/limits.h). */
#ifndef DG_BENCH_BENCH_H
#define DG_BENCH_BENCH_H

#include <stdio.h>

#include "backend/cl_kernels.h"
#include "backend/cl_maxwell.h"
#include "backend/variant.h"
#include "core/status.h"
#include "device/device.h"
#include "tune/tune.h"

/* The kinds of kernels bench reports and the counts it divides by (dg_kernel_kind,
 * dg_kernel_kind_of, dg_kernel_flops, ...) are the work models of the kernel table,
 * backend/cl_kernels.h. */

/* ---- measurement (bench/bench.c) -------------------------------------------------------- */

enum {
  DG_BENCH_MAX_VARIANTS = 12, /* tuned, default, baseline and extra --variant specs */
  DG_BENCH_MAX_REPEATS = 64
};

/* What a variant is in the comparison (bit flags: one variant may play several roles). */
enum { DG_ROLE_TUNED = 1, DG_ROLE_DEFAULT = 2, DG_ROLE_BASELINE = 4, DG_ROLE_EXTRA = 8 };

typedef struct {
  dg_kernel_kind kind;
  char name[32];
  double median_ns, min_ns, max_ns;
  double flops, bytes; /* of one launch on the whole mesh */
} dg_bench_kernel;

typedef struct {
  dg_variant v;
  char spec[DG_VARIANT_SPEC_MAX];
  unsigned roles;
  int ok;             /* verified and timed */
  char reason[256];   /* why not, if !ok */
  double rel_diff;    /* verification: relative L2 difference to the CPU reference */
  double stage_ns[3]; /* median, min, max of one profiled RK stage (sum of its kernels) */
  double step_ns[3];  /* median, min, max of one LSERK4 step (5 stages), wall clock */
  double pml_ns[3];   /* median, min, max of the stage's PML kernels (0 without a PML) */
  double plain_ns[3]; /* median, min, max of the rest of the stage (stage minus PML kernels) */
  int nk;
  dg_bench_kernel k[DG_CL_MAX_STAGE_KERNELS];
} dg_bench_variant;

typedef struct {
  int N;
  dg_precision precision;
  int box_n; /* the mesh: the unit box with box_n^3 x 6 tetrahedra */
  int pml_cells; /* > 0: surrounded by this many more cells (dg_mesh_box_pml), which are a
                    CFS-PML (dg_verify_case_create_pml) if pml_K > 0, else the same vacuum /
                    material elements as the box (the control: the same mesh without PML) */
  long K;        /* all elements, the PML's included */
  long pml_K;    /* elements in the PML */
  dg_stage_counts counts; /* one stage, tune/counts.h */
  dg_tune_found found;    /* where the tuned variant came from */
  char tuned_from[512];
  int nv;
  dg_bench_variant v[DG_BENCH_MAX_VARIANTS];
  int tuned, dflt, baseline; /* indices into v (-1 if that variant failed) */
  double seconds;
} dg_bench_order;

typedef struct {
  int repeats;              /* timing rounds, each stage and step of every variant once */
  long elements;            /* > 0: mesh with about this many elements */
  double dofs;              /* > 0: mesh with about this many field DOFs (else the device rule) */
  int bucket;               /* the device rule's size: 0 large (the tuner's), 1 small
                             * (dg_bucket of tune/model.h) */
  const char *const *extra; /* more variant specs to compare */
  int n_extra;
  int verbose;
  int pml_cells; /* > 0: dg_bench_run also times each order with this many PML cells */
  FILE *log; /* progress lines (NULL: none; the library never prints) */
} dg_bench_options;
void dg_bench_options_default(dg_bench_options *o);

/* The mesh size for order N: --elements, else --dofs, else the tuner's size for the bucket
 * (dg_bucket_target_dofs: both time the same problem); returns the box size n (>= 2,
 * K = 6 n^3). */
int dg_bench_box_n(const dg_device_info *info, int N, dg_precision p, const dg_bench_options *o);

/* Verify, then time, the tuned (dg_tune_lookup; the device default if there is no tuned
 * result, which found and tuned_from say), default, baseline and extra variants at order
 * N on one mesh. Each is checked against the CPU reference on the operator that is timed;
 * one that fails is reported with the reason and not timed. Timing: two warm-up stages and
 * one step each, then `repeats` rounds interleaved A B C A B C, each round three untimed
 * stages (warm the caches the previous variants evicted), one profiled stage and one step.
 * With o->pml_cells > 0, out[0..3): the plain box, the box with PML and its mesh without
 * the PML (dg_bench_run). */
dg_status dg_bench_order_run(dg_device *dev, int N, dg_precision p, const dg_bench_options *o,
                             dg_bench_order *out) DG_NODISCARD;
/* The same for n orders at once (out[0..n)): every order is prepared (and verified) first,
 * then each round times every variant of every order in turn, so a slow spell of a shared
 * machine falls on all orders alike rather than on the one being timed. All operators are
 * alive together (memory: the sum over the orders). seconds = preparation + its rounds.
 * With o->pml_cells > 0, out has 3n entries: out[n + j] is order j's same inner box with
 * o->pml_cells PML cells around it (dg_verify_case_create_pml), its variants verified with
 * the PML terms (fields and auxiliary fields against dg_maxwell_rhs_aux), and out[2n + j]
 * that same mesh without the PML (the control: equal element count, no PML terms), all
 * timed in the same rounds as the plain box's, so they compare per element. */
dg_status dg_bench_run(dg_device *dev, const int *orders, int n, dg_precision p,
                       const dg_bench_options *o, dg_bench_order *out) DG_NODISCARD;

/* Rates of one variant: DOF/s (DOFs per RK stage time), GFLOP/s, GB/s, % of the stage's
 * roofline bound (0 without limits); ratios vs the tuned variant's. */
typedef struct {
  double dofs_s, dofs_s_step, gflops, gbs, roof_pct, bound_ns;
} dg_bench_rates;
dg_bench_rates dg_bench_variant_rates(const dg_bench_order *r, const dg_bench_variant *v,
                                      const dg_device_limits *l);
/* Of one kernel: GFLOP/s, GB/s, arithmetic intensity, bound, % of it, and what bounds it. */
typedef struct {
  double gflops, gbs, intensity, bound_ns, roof_pct;
  int memory_bound;
} dg_bench_kernel_rates;
dg_bench_kernel_rates dg_bench_kernel_rates_of(const dg_bench_kernel *k, dg_precision p,
                                               const dg_device_limits *l);
/* Speedup of variant a over variant b: b's median stage time over a's (0 if either is
 * missing or failed). */
double dg_bench_ratio(const dg_bench_order *r, int a, int b);

/* ---- scaling with size --------------------------------------------------------------------- */

typedef struct {
  int box_n;
  long K;
  double dofs;
  double stage_ns[3]; /* median, min, max */
} dg_bench_point;

typedef struct {
  int N;
  dg_precision precision;
  dg_variant v;
  char spec[DG_VARIANT_SPEC_MAX];
  dg_tune_found found;
  char tuned_from[512];
  double rel_diff;
  int np;
  dg_bench_point *pts;
  double max_dofs; /* the cap that applied */
  char cap_reason[128];
  double full_dofs;  /* smallest size at >= 90% of the best DOF/s (the device is full) */
  double bench_dofs; /* the size the order comparison uses by default (the tuner's rule) */
  double seconds;
} dg_bench_scaling;

/* DOF/s of the tuned variant (verified once on the timed operator of the smallest size) as
 * the box grows n = 2, 3, ... with the DOFs about doubling per point, up to max_dofs (0:
 * the default cap, dg_bench_scaling_cap). */
dg_status dg_bench_scaling_run(dg_device *dev, int N, dg_precision p, const dg_bench_options *o,
                               double max_dofs, dg_bench_scaling *out) DG_NODISCARD;
void dg_bench_scaling_free(dg_bench_scaling *s);
/* The default cap and why: a quarter of the device memory at ~200 bytes per DOF (operator
 * and host geometry), and on CPUs 2^23 DOFs (a stage then takes ~50 ms; beyond it nothing
 * changes: the caches are long exceeded). */
double dg_bench_scaling_cap(const dg_device_info *info, dg_precision p, char *why, size_t cap);

/* ---- reports (bench/report.c) --------------------------------------------------------------- */

struct cJSON;
void dg_bench_print_order(FILE *f, const dg_bench_order *r, const dg_device_limits *l);
void dg_bench_print_summary(FILE *f, const dg_bench_order *r, int n, const dg_device_limits *l);
void dg_bench_print_scaling(FILE *f, const dg_bench_scaling *s, int n);
/* `bench --pml`: per order and variant, ns per element of one RK stage on the plain box
 * (plain[i]), on the PML case's mesh without the PML (ctrl[i]) and, on the box with PML
 * layers (pml[i]), the plain kernels per element of the whole mesh and the PML kernels per
 * PML element. */
void dg_bench_print_pml(FILE *f, const dg_bench_order *plain, const dg_bench_order *pml,
                        const dg_bench_order *ctrl, int n);
struct cJSON *dg_bench_order_json(const dg_bench_order *r, const dg_device_limits *l);
struct cJSON *dg_bench_scaling_json(const dg_bench_scaling *s);

/* PNGs into dir via gnuplot (the .gp scripts with their data stay beside them, so a plot
 * can be redrawn by hand): dofs_vs_order.png, roofline.png, variants.png; scaling.png. The
 * names written are appended to written (";"-separated) if non-NULL. */
dg_status dg_bench_plot_orders(const char *dir, const char *device, const dg_bench_order *r, int n,
                               const dg_device_limits *l, char *written, size_t cap) DG_NODISCARD;
dg_status dg_bench_plot_scaling(const char *dir, const char *device, const dg_bench_scaling *s,
                                int n, char *written, size_t cap) DG_NODISCARD;

#endif

/* One simulation from a case (app/case.h) to its figures: set up mesh, reference element,
 * geometry, materials, boundaries and sources; step with LSERK4 on the chosen backend;
 * write probes, energy, VTU snapshots and checkpoints; report the error against the exact
 * solution when the case has one (the cavity eigenmode). */
#ifndef DG_APP_SIMULATE_H
#define DG_APP_SIMULATE_H

#include "app/case.h"
#include "backend/variant.h"
#include "core/status.h"
#include "device/device.h"

enum { DG_RUN_FF_SHOWN = 8 }; /* far-field frequencies the run result keeps figures of */

typedef struct {
  int K, N, Np;
  int K_curved;            /* of the K, the curved (high-order) elements */
  long long dofs;          /* 6 * Np * K */
  int steps;               /* steps taken by this process (after a restart: since it) */
  int first_step;          /* 0, or the checkpoint's step on a restart */
  double dt, final_time;
  int stopped_early;       /* stop_energy met: final_time is when, planned_time the case's */
  double planned_time, stop_ratio; /* stop_ratio: the energy then over its peak */
  double stop_dft_change;  /* stop_dft: the DFT sums' change over the last period (-1: none) */
  double wall_s;           /* time stepping only */
  double dofs_per_s;       /* dofs * RHS evaluations / wall_s */
  double energy_start, energy_end;
  int has_error;           /* the case has an exact solution: */
  double l2_error, l2_rel_error;
  double omega;
  int mode[3];
  double amp[3];
  int n_vtu, n_checkpoints;
  /* MPI */
  int signal;              /* the signal that stopped the run (DG_ERR_INTERRUPTED), or 0 */
  int nranks, rank;        /* rank: this process's */
  double imbalance;        /* largest part / mean part (rank 0) */
  /* time stepping (app/multirate.c) */
  int multirate;           /* 1: multirate on rate levels (mr_scheme); 0: global LSERK4 */
  dg_mr_scheme mr_scheme;
  double auto_gain;        /* time_stepping "auto": multirate LSERK4's predicted speed-up
                            * over global LSERK4 (0: no prediction) */
  int n_levels;            /* multirate: levels in use, and elements per level */
  int level_count[DG_MR_MAX_LEVELS];
  double h0;               /* multirate: the finest level's step (dt is the macro step) */
  long long rhs_evals;     /* element RHS evaluations this run did */
  double rhs_evals_global; /* those global LSERK4 at its automatic step (same cfl) needs
                              over the same simulated time */
  int cut_faces;           /* faces between parts */
  double exchange_s;       /* this rank: from posting the exchanges to their completion */
  double exchange_wait_s;  /* this rank: blocked waiting for them (the part not hidden) */
  long exchanges;
  /* DFT monitors ("dft") */
  int dft_on;
  int dft_freqs, dft_samples;
  int dft_acc_double;      /* OpenCL: sums in double (else compensated float) */
  double dft_s;            /* time spent summing: device kernel time (OpenCL) or host wall */
  /* far field ("far_field"; app/far_field.c): per frequency (the first DG_RUN_FF_SHOWN) the
   * largest RCS (length^2) or directivity and where (degrees), the power through the
   * surface and, for RCS, the backscatter and forward RCS */
  int ff_on, ff_rcs, ff_dirs, ff_nfreq;
  struct {
    double freq, max_value, max_theta, max_phi, prad, back, forward;
  } ff[DG_RUN_FF_SHOWN];
  /* OpenCL backend only */
  char device[300];        /* "P:D name" */
  char variant[DG_VARIANT_SPEC_MAX];
  dg_precision precision;  /* of the arithmetic (double for the reference) */
  char variant_source[600];   /* where the variant came from: --variant, cache file, fresh
                                 tuning, device default */
  int tuned;                  /* 1: this run tuned (no cached winner) */
  int programs_built;         /* OpenCL programs compiled from source by this run */
  int programs_loaded;        /* ... and loaded from the binary cache instead */
  double verify_rel_diff;  /* the variant's RHS vs the reference, on random fields */
  int profiled;               /* --profile: kernels holds the stepping's device time */
  dg_kernel_profile kernels;
} dg_run_result;

dg_status dg_run(const dg_case *c, dg_run_result *r) DG_NODISCARD;

#endif

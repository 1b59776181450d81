/* One simulation from a configuration to its figures: set up mesh, reference element,
 * geometry and problem, step with LSERK4 to the final time, measure the error. */
#ifndef DG_APP_SIMULATE_H
#define DG_APP_SIMULATE_H

#include "backend/variant.h"
#include "core/status.h"

typedef enum { DG_BACKEND_OPENCL = 0, DG_BACKEND_REF } dg_backend;

typedef struct {
  dg_backend backend;
  const char *mesh_path;   /* NULL: built-in box mesh */
  int box_cells[3];        /* box mesh resolution (hexahedra per direction) */
  double box_lo[3], box_hi[3];
  int order;
  double final_time;
  double cfl;              /* multiplies the automatic time step */
  double alpha;            /* flux: 1 upwind, 0 central */
  int mode[3];             /* cavity mode numbers m,n,p */
  int has_amp;             /* amp given (else a divergence-free default) */
  double amp[3];
  int progress;            /* print progress lines on stderr */
  /* OpenCL backend */
  dg_precision precision;  /* float by default; the reference is always double */
  const char *variant;     /* spec string (backend/variant.h); NULL: the device's default */
  const char *device;      /* "P:D" or a name substring; NULL: DGTD_DEVICE or the first GPU */
  const char *dump_dir;    /* --dump-kernels: write the generated sources here */
} dg_run_config;

typedef struct {
  int K, N, Np;
  long long dofs;          /* 6 * Np * K */
  int steps;
  double dt, final_time;
  double wall_s;           /* time stepping only */
  double dofs_per_s;       /* dofs * RHS evaluations / wall_s */
  double l2_error, l2_rel_error;
  double energy_start, energy_end;
  double omega;
  int mode[3];
  double amp[3];
  /* OpenCL backend only */
  char device[300];  /* "P:D name" */
  char variant[DG_VARIANT_SPEC_MAX];
  const char *variant_source; /* "--variant" or "device default" */
  double verify_rel_diff;     /* the variant's RHS vs the reference, on random fields */
} dg_run_result;

/* Defaults of the built-in case: unit cube, 4x4x4 cells, N = 3, mode (1,1,1), T = 1,
 * OpenCL backend in float on the default device. */
void dg_run_config_default(dg_run_config *c);

/* Run the PEC cavity eigenmode case described by c. */
dg_status dg_run_cavity(const dg_run_config *c, dg_run_result *r) DG_NODISCARD;

#endif

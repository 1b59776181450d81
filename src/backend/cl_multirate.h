/* The multirate steppers (AB3 and LSERK4) on an OpenCL device: the schemes are
 * dg/multirate.h's, their order of operations is dg/multirate_schedule.h's (which the
 * reference they are tested against, dg/stepper_multirate.c, runs too); the right-hand
 * sides are the generated Maxwell kernels launched over one rate level's range of element
 * slots (dg_cl_maxwell_create_grouped, one group per level), the AB3 completions, dense
 * outputs, history copies, LSERK4 stages and trajectories are the kernels of
 * cl_templates/multirate.cl. */
#ifndef DG_BACKEND_CL_MULTIRATE_H
#define DG_BACKEND_CL_MULTIRATE_H

#include "backend/cl_maxwell.h"
#include "dg/multirate.h"

/* Per-level profile of the macro steps run so far (dg_stepper_cl_multirate_profile). */
typedef struct {
  int n_levels;
  double rhs_s[DG_CL_MAX_GROUPS];  /* kernel time of the level's right-hand sides */
  double ab_s[DG_CL_MAX_GROUPS];   /* completions, dense outputs and history copies */
  long long evals[DG_CL_MAX_GROUPS]; /* element RHS evaluations */
} dg_cl_mr_profile;

/* A multirate stepper (dg/stepper.h) over op, which must have been created grouped by level
 * (group = level[k], n_groups = n_levels) and is owned from now on (also on failure). level:
 * the same levels (copied), ghosts included on an MPI rank. scheme: AB3 or LSERK4
 * (dg/multirate.h). evals, when not NULL, is incremented by every element RHS evaluation
 * (borrowed). dg_stepper_step(t, H) advances one macro step H; the first two after put_state
 * (or a change of H) are global LSERK4 at H / 2^(n_levels-1). profile: when not NULL (AB3
 * only), every kernel is waited for and its time added there (slow; for dgtd bench). A
 * PML's auxiliary fields step with their element's level. */
/* The multirate program's source (its history and level kernels) for the layout of variant v
 * at order N, as the multirate stepper builds it, without a device (for offline compilers:
 * dgtd kernels). Free *src with dg_free. */
dg_status dg_cl_multirate_source(const dg_variant *v, int N, char **src) DG_NODISCARD;

dg_status dg_stepper_cl_multirate_create(dg_stepper **out, dg_cl_maxwell *op, const int *level,
                                         int n_levels, dg_mr_scheme scheme, long long *evals,
                                         dg_cl_mr_profile *profile) DG_NODISCARD;

/* What one level stage of these steppers costs beyond its elements' evaluations, in element
 * evaluations, on a device of this type (the omega of dg_multirate_levels and
 * dg_multirate_predicted_gain): about 800 on a CPU device through PoCL (its small kernels per
 * level stage, 100-150 us each there: fitted to the graded box, where 500 took multirate
 * LSERK4 at 0.94x of global LSERK4, and the sphere case, configs/sphere_plane_wave.json to
 * t = 1, N = 2, whose wall time is the same planned with 500 or 800; docs/TIME_STEPPING.md),
 * about 1000 on a GPU (the H100: 1.7x measured on the sphere case against a work ratio of
 * 3.73). */
double dg_cl_multirate_stage_cost(cl_device_type type);

/* What the AB3 polynomial (dense output) of one coarser neighbour costs these steppers, with
 * the trajectories that come with it, in element evaluations (the beta of
 * dg_multirate_predicted_gain): measured on PoCL, the sphere case (mr_dense_at and the
 * trajectory kernels 0.46 s for 1.97e6 dense outputs against 0.46 us per element evaluation
 * of the right-hand side and PML, docs/TIME_STEPPING.md), taken for GPUs too (not measured
 * there apart). */
#define DG_CL_MULTIRATE_DENSE_COST 0.5

#endif

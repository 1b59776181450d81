/* Verification of an OpenCL variant against the CPU double-precision reference
 * (dg_maxwell_rhs): fresh random fields, RHS on both, relative L2 difference over all six
 * fields. A variant that fails must never be timed or used. */
#ifndef DG_BACKEND_VERIFY_H
#define DG_BACKEND_VERIFY_H

#include <stdint.h>

#include "backend/cl_maxwell.h"
#include "backend/variant.h"
#include "core/status.h"
#include "device/device.h"
#include "dg/maxwell.h"

/* Tolerances on the relative L2 difference, one per precision. */
#define DG_VERIFY_TOL_FLOAT 1e-5
#define DG_VERIFY_TOL_DOUBLE 1e-12
double dg_verify_tolerance(dg_precision p);

/* The verification problem: the box [0,1]^3 with n^3 x 6 tetrahedra at order N; faces
 * x=0,1 PEC, y=0,1 PMC, z=0,1 absorbing; elements with centroid x < 0.5 have eps = 2,
 * mu = 1.5, sigma = 0.5, the others are vacuum; upwind flux. */
typedef struct {
  dg_mesh *mesh;
  dg_refel *ref;
  dg_geom *geom;
  dg_maxwell *phys;
  dg_plane_wave pw; /* the incident wave, if dg_verify_case_add_sources added one */
} dg_verify_case;
dg_status dg_verify_case_create(dg_verify_case **out, int N, int n) DG_NODISCARD;
/* The same problem on any mesh (taken over, also on failure): boundary faces tagged 1, 2
 * PEC, 3, 4 PMC, others absorbing (as the box's x, y and z faces); materials by centroid. */
dg_status dg_verify_case_from_mesh(dg_verify_case **out, dg_mesh *mesh, int N) DG_NODISCARD;
void dg_verify_case_destroy(dg_verify_case **c);

/* The PML case of `dgtd bench --pml` and `dgtd tune --pml`: the verification problem's
 * box [0,1]^3 (n^3 x 6 tetrahedra, same materials by centroid) surrounded by `cells` more
 * layers of cells of the same size on every side (dg_mesh_box_pml), those layers a CFS-PML
 * (default parameters but kappa_max = 2, so every coefficient is exercised: faces, edges
 * and corners, 1, 2 and 3 stretched directions) around the inner box [0,1]^3; the outer
 * faces carry the verification tags (x PEC, y PMC, z absorbing). cells = 0 is
 * dg_verify_case_create. */
dg_status dg_verify_case_create_pml(dg_verify_case **out, int N, int n, int cells) DG_NODISCARD;

/* Sources for the verification problem, as bit flags:
 * - DG_VERIFY_DIPOLES: 19 point dipoles (more than one launch of the device's source kernel
 *   holds), two of them in one element, in both materials, with all three pulse shapes;
 * - DG_VERIFY_PLANE_WAVE: an oblique plane wave entering through the absorbing faces z=0,1
 *   (total field; a Ricker pulse), or with DG_VERIFY_SCATTERED too, the scattered-field
 *   formulation on the PEC faces x=0,1 (a ramped harmonic). c->pw may be changed before an
 *   operator is built (it is borrowed by c->phys).
 * - DG_VERIFY_PML: a CFS-PML (dg/pml.h) over the elements with y or z above 1/2 (the
 *   inner box [0,1] x [0,1/2] x [0,1/2]: faces and an edge, 1 or 2 stretched directions),
 *   in both materials, with kappa_max = 2; add it last (its profile reads eps and mu).
 * - DG_VERIFY_TFSF (with the total-field plane wave): a total-field/scattered-field surface
 *   on the faces of the plane x = 1/2 (+1 seen from x < 1/2, -1 from the other side), so
 *   the incident field enters the interior faces' flux there.
 * Every source is active at t = DG_VERIFY_SOURCE_TIME. */
enum { DG_VERIFY_DIPOLES = 1, DG_VERIFY_PLANE_WAVE = 2, DG_VERIFY_SCATTERED = 4,
       DG_VERIFY_PML = 8, DG_VERIFY_TFSF = 16 };
#define DG_VERIFY_SOURCE_TIME 0.8
dg_status dg_verify_case_add_sources(dg_verify_case *c, unsigned flags) DG_NODISCARD;

/* n values uniform in +-[0.5, 1) (never zero), from seed (splitmix64; no global state). */
void dg_verify_random_fields(uint64_t seed, size_t n, double *q);

/* Build v for phys on dev and compare its RHS with the reference on random fields from
 * seed. *rel_diff gets the difference and *pass whether it is within the tolerance; a
 * failure also returns DG_ERR_NUMERIC with the spec and the difference in the message.
 * Build errors are returned as they are (DG_ERR_OPENCL with the build log). */
dg_status dg_cl_verify_problem(dg_device *dev, const dg_variant *v, dg_maxwell *phys,
                               uint64_t seed, double *rel_diff, int *pass) DG_NODISCARD;

/* The same check on an operator that is already built for phys (so a run verifies exactly
 * the kernels it will use). Replaces the device state and clobbers the RK residual. */
dg_status dg_cl_verify_op(dg_cl_maxwell *op, dg_maxwell *phys, uint64_t seed, double *rel_diff,
                          int *pass) DG_NODISCARD;
/* The same at time t (dg_cl_verify_op uses t = 0): with sources, choose a t at which they
 * are active, or the check says little about them. */
dg_status dg_cl_verify_op_at(dg_cl_maxwell *op, dg_maxwell *phys, double t, uint64_t seed,
                             double *rel_diff, int *pass) DG_NODISCARD;

/* The same on the standard verification problem at order N (a 2x2x2 box: 48 elements). */
dg_status dg_cl_verify(dg_device *dev, const dg_variant *v, int N, uint64_t seed,
                       double *rel_diff, int *pass) DG_NODISCARD;

#endif

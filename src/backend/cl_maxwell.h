/* The Maxwell operator on an OpenCL device: the data of a dg_maxwell problem uploaded in a
 * coalescing layout, one program generated from cl_templates/ for one variant
 * (backend/variant.h), and the calls a time loop needs.
 *
 * Device data (R = float or double as the variant says; VL, NPP, FLUXP as in variant.h):
 * - q, res, rhs: 6 fields of fs = Kpad*NPP reals, element k node n at
 *   (k/VL)*NPP*VL + n*VL + k%VL; Kpad = K rounded up to whole work-groups (padding elements
 *   have zero data and stay zero).
 * - per element: rx..tz, 1/eps, 1/mu, sigma/eps (12 reals, interleaved like the fields);
 * - per face: normal, the material flux coefficients (Fscale, impedances, alpha, 1/eps,
 *   1/mu folded in on the host), the boundary factors bcE, bcH and the incident-wave
 *   weights incE, incH (flux.cl);
 * - per face node: vmapM, vmapP as indices into the padded layout (vmapP = vmapM on faces
 *   with a boundary condition, which makes the boundary treatment branch-free).
 *
 * Sources, as the reference has them (dg_maxwell_rhs with J = NULL):
 * - an incident plane wave (phys->incident == dg_plane_wave_eval, set with
 *   dg_maxwell_set_plane_wave; any other incident function is DG_ERR_UNSUPPORTED): its
 *   constants are baked into the program (DG_INC_* in incident.cl), the flux kernel evaluates
 *   it at the face nodes (coordinates uploaded in the field layout) at the stage time, in the
 *   total-field (absorbing faces) or scattered-field (PEC faces) formulation as
 *   phys->scattered says. The wave is read at create time: changing it needs a new operator.
 * - point dipoles (phys->sources): profiles uploaded at create time; the host evaluates the
 *   pulses at each stage time and a small kernel (source.cl) corrects the stage's update.
 *   Dipoles added after create are not seen. */
#ifndef DG_BACKEND_CL_MAXWELL_H
#define DG_BACKEND_CL_MAXWELL_H

#include <CL/cl.h>

#include "backend/variant.h"
#include "core/status.h"
#include "device/device.h"
#include "dg/maxwell.h"
#include "dg/stepper.h"

typedef struct dg_cl_maxwell dg_cl_maxwell;

/* DG_ERR_UNSUPPORTED, saying what to do instead, when n_curved > 0 and the operator is
 * grouped (multirate): its per-level launches know straight-sided elements only. Curved
 * elements on the global stage run curved.cl's kernels (dg_cl_maxwell_create). */
dg_status dg_cl_maxwell_check_curved(int n_curved, int grouped) DG_NODISCARD;

/* Generate, build and upload. phys (and its geometry) must outlive op. dump_dir non-NULL:
 * the rendered source, options and build log go there (dg_program_build). Fails with
 * DG_ERR_INPUT if the device cannot run the variant (the reason from dg_variant_check). A
 * mesh's curved elements get curved.cl's kernels besides the variant's. */
dg_status dg_cl_maxwell_create(dg_cl_maxwell **out, dg_device *dev, const dg_maxwell *phys,
                               const dg_variant *v, const char *dump_dir) DG_NODISCARD;
void dg_cl_maxwell_destroy(dg_cl_maxwell **op);

/* The terms a problem adds to the Maxwell operator (backend/cl_term.h): point sources, a
 * PML, dispersive poles, curved elements, an incident plane wave (pw NULL: none). */
typedef struct {
  int sources, pml, poles, curved;
  const dg_plane_wave *pw;
} dg_cl_terms;

/* The template files (cl_templates/) v's program is rendered from, in order, for a problem
 * with the terms t (the operator's, then each term's); returns how many (at most
 * DG_CL_MAX_TEMPLATE_FILES). for_hash: the list dg_cl_maxwell_templates_hash covers
 * instead (energy.cl for every layout). */
enum { DG_CL_MAX_TEMPLATE_FILES = 16 };
int dg_cl_maxwell_template_files(const dg_variant *v, const dg_cl_terms *t, int for_hash,
                                 const char *names[DG_CL_MAX_TEMPLATE_FILES]);
/* FNV-1a over those files (names and contents) for the tuner's problem (no terms;
 * energy.cl in place of energy_block.cl): it changes when a template v's timed stage is
 * built from changes, and not when one it does not use is added or edited; the tuning cache
 * keys an entry's freshness by it. */
dg_status dg_cl_maxwell_templates_hash(const dg_variant *v, uint64_t *hash) DG_NODISCARD;

/* The OpenCL source of the Maxwell program dg_cl_maxwell_create builds for variant v at order
 * N with the terms t, made without a device (for offline compilers: dgtd kernels; the
 * contract test); curved elements as on a second-order mesh, left out where their kernel
 * needs more local memory than every GPU profile has. Free *src with dg_free. */
dg_status dg_cl_maxwell_source(const dg_variant *v, int N, const dg_cl_terms *t,
                               char **src) DG_NODISCARD;

/* The same for the MPI halo's pack and unpack program (halo.cl), in double (dbl) or float. */
dg_status dg_cl_halo_source(int dbl, char **src) DG_NODISCARD;

/* Host state in the reference layout (6*K*Np doubles, dg/maxwell.h). set_state also zeros
 * the RK residual. get_state waits for queued steps. */
dg_status dg_cl_maxwell_set_state(dg_cl_maxwell *op, const double *q) DG_NODISCARD;
dg_status dg_cl_maxwell_get_state(dg_cl_maxwell *op, double *q) DG_NODISCARD;

/* The auxiliary state (dg_maxwell_aux_size values, the reference layout: a PML's fields,
 * dg/pml.h, then the poles' states, dg/dispersive.h) out of and into the device (set_aux
 * also zeros their RK residual; call it after set_state, which zeros them). Nothing without
 * a PML or poles. get_aux waits for queued steps. */
dg_status dg_cl_maxwell_get_aux(dg_cl_maxwell *op, double *w) DG_NODISCARD;
dg_status dg_cl_maxwell_set_aux(dg_cl_maxwell *op, const double *w) DG_NODISCARD;

/* rhs = dq/dt at time t for host q (uploads q, runs one stage's kernels, downloads): for
 * verification. Replaces the device state with q and clobbers the RK residual. */
dg_status dg_cl_maxwell_rhs(dg_cl_maxwell *op, double t, const double *q,
                            double *rhs) DG_NODISCARD;

/* The same with the auxiliary state (dg_maxwell_rhs_aux): w in the reference layout of
 * dg_maxwell_aux_size (NULL: zero), rhs_w (NULL: not read back). */
dg_status dg_cl_maxwell_rhs_aux(dg_cl_maxwell *op, double t, const double *q, const double *w,
                                double *rhs, double *rhs_w) DG_NODISCARD;

/* One LSERK4 step of length dt from time t on the device state (enqueued; nothing is
 * copied back). */
dg_status dg_cl_maxwell_step(dg_cl_maxwell *op, double t, double dt) DG_NODISCARD;

/* Halo exchange between MPI ranks (dg/stepper.h's dg_trace_exchange, e.g. from part/exchange.h),
 * overlapped with the volume kernel. Each stage then runs: pack the h->n outgoing trace
 * values on the device and read them into h->send; h->begin (start the non-blocking
 * exchange); enqueue the volume kernel and flush; h->end (wait: h->recv is then filled);
 * write h->recv to the device and scatter it into the ghost elements; surface, lift,
 * update. send and recv hold n reals of the operator's precision. Builds the small
 * pack/unpack program (halo.cl). */
dg_status dg_cl_maxwell_set_halo(dg_cl_maxwell *op, const dg_trace_exchange *h) DG_NODISCARD;

/* Profiled run of one RK stage's kernels on the current state (which changes): the name and
 * time of each kernel or GEMM in order, and their sum. */
enum { DG_CL_MAX_STAGE_KERNELS = 8 };
typedef struct {
  int n;
  char name[DG_CL_MAX_STAGE_KERNELS][32];
  cl_ulong ns[DG_CL_MAX_STAGE_KERNELS];
  cl_ulong total_ns;
} dg_cl_stage_timing;
dg_status dg_cl_maxwell_time_stage(dg_cl_maxwell *op, dg_cl_stage_timing *t) DG_NODISCARD;

/* The discrete energy of the device state (dg_maxwell_energy's, over the owned elements)
 * by a reduction kernel (energy.cl): only one number per element comes back. Non-finite
 * when any value of the state is. Waits for queued steps. */
dg_status dg_cl_maxwell_energy(dg_cl_maxwell *op, double *energy) DG_NODISCARD;
/* The energy the dispersive poles store (dg_dispersion_energy over the owned elements), from
 * the pole states read back to the host; 0 without poles. Waits for queued steps. */
dg_status dg_cl_maxwell_pole_energy(dg_cl_maxwell *op, double *energy) DG_NODISCARD;

/* Wait for everything queued. */
dg_status dg_cl_maxwell_finish(dg_cl_maxwell *op) DG_NODISCARD;

/* A stepper (dg/stepper.h) that runs op's steps; it owns op from now on (also on failure). */
dg_status dg_stepper_cl_create(dg_stepper **out, dg_cl_maxwell *op) DG_NODISCARD;

/* The device state, for kernels outside the operator that read it in place (backend/cl_dft.c):
 * the q buffer (6 fields of *fs reals of *real_size bytes; it stays the same buffer for the
 * operator's life), the device, and the index in a field of reference node n of element k. */
cl_mem dg_cl_maxwell_state_buffer(const dg_cl_maxwell *op, size_t *fs, size_t *real_size);
dg_device *dg_cl_maxwell_device(const dg_cl_maxwell *op);
size_t dg_cl_maxwell_node_index(const dg_cl_maxwell *op, int k, int n);

/* ---- element groups (the multirate levels, backend/cl_multirate.c) ---- */
enum { DG_CL_MAX_GROUPS = 12 };

/* As dg_cl_maxwell_create, with the elements in n_groups groups (group[k] in
 * 0..n_groups-1): each group's elements get contiguous slots of the device layout, its range
 * starting at a multiple of the kernels' launch granularity (padding between groups), so
 * the volume, flux and lift kernels can run over one group (dg_cl_maxwell_rhs_group). The
 * host state keeps the reference element order. On an MPI rank the ghosts get slots in
 * their groups too (their values there are scratch, as in the ungrouped layout). */
dg_status dg_cl_maxwell_create_grouped(dg_cl_maxwell **out, dg_device *dev,
                                       const dg_maxwell *phys, const dg_variant *v,
                                       const char *dump_dir, const int *group,
                                       int n_groups) DG_NODISCARD;

/* The right-hand side dq/dt at time t of the device state, computed (enqueued) for the
 * elements of group g only (the whole mesh on the CLBlast path, which has no ranges), into
 * *result, a buffer of the operator in the field layout (rhs, or res for lift=fused-update,
 * whose q is rewritten unchanged); with a PML also dw/dt of the group's PML nodes into the
 * layout's wres (w unchanged). Values outside the group are meaningless. tm: NULL, or
 * per-kernel times (waits for each kernel). */
dg_status dg_cl_maxwell_rhs_group(dg_cl_maxwell *op, double t, int g, cl_mem *result,
                                  dg_cl_stage_timing *tm) DG_NODISCARD;
/* The same for the groups g0..g1-1 together (contiguous slots: one launch of each kernel). */
dg_status dg_cl_maxwell_rhs_groups(dg_cl_maxwell *op, double t, int g0, int g1, cl_mem *result,
                                   dg_cl_stage_timing *tm) DG_NODISCARD;
/* The same written into out (a field-layout buffer of the operator's size) and, with a PML,
 * dw/dt into wout (DG_PML_AUX npn reals): only the groups' slots and PML nodes are written
 * there. The kernels path only (DG_ERR_UNSUPPORTED for CLBlast, whose GEMMs write the whole
 * mesh). */
dg_status dg_cl_maxwell_rhs_groups_into(dg_cl_maxwell *op, double t, int g0, int g1, cl_mem out,
                                        cl_mem wout) DG_NODISCARD;
/* The same for the whole mesh. */
dg_status dg_cl_maxwell_rhs_all(dg_cl_maxwell *op, double t, cl_mem *result) DG_NODISCARD;

/* What a stepper on top of the operator needs of its layout: q is the state the kernels
 * read; element k's node n of field f is at f fs + (s/VL) NPP VL + n VL + s%VL with
 * s = slot[k] (slot NULL: s = k); group g covers slots [gfirst[g], gfirst[g+1]). */
typedef struct {
  dg_device *dev;
  const dg_maxwell *phys;
  cl_mem q;
  size_t fs, rs;
  int VL, NP, NPP, Kpad, n_groups;
  int gfirst[DG_CL_MAX_GROUPS + 1];
  const int *slot;
  /* PML (npn nodes, 0: none): the auxiliary fields w (DG_PML_AUX arrays of npn), their
   * right-hand side after dg_cl_maxwell_rhs_group (wres), group g's nodes [pfirst[g],
   * pfirst[g+1]) of each array */
  int npn;
  cl_mem w, wres;
  int pfirst[DG_CL_MAX_GROUPS + 1];
  /* traces are exchanged with other ranks (dg_cl_maxwell_set_halo) in every evaluation,
   * which must then run on every rank, over no elements too */
  int halo;
} dg_cl_layout;
void dg_cl_maxwell_layout(const dg_cl_maxwell *op, dg_cl_layout *l);

/* The variant it was built with, and the padded element count. */
const dg_variant *dg_cl_maxwell_variant(const dg_cl_maxwell *op);
int dg_cl_maxwell_kpad(const dg_cl_maxwell *op);

#endif

/* The Maxwell problem on a DG discretisation and its CPU reference right-hand side.
 *
 *   eps dE/dt = curl H - sigma E - J        mu dH/dt = -curl E
 *
 * in normalised units (c0 = 1), strong form, upwind/central flux with parameter alpha
 * (see docs/METHOD.md). This is the double-precision oracle every OpenCL kernel variant
 * is checked against, so it is written for clarity, not speed.
 *
 * Field storage: one array of 6*K*Np doubles, field f (Ex,Ey,Ez,Hx,Hy,Hz) at offset
 * f*K*Np, element-major inside a field (node n of element k at k*Np + n). */
#ifndef DG_DG_MAXWELL_H
#define DG_DG_MAXWELL_H

#include "core/status.h"
#include "dg/geom.h"
#include "dg/source.h"

enum { DG_NFIELDS = 6 };
enum { DG_EX, DG_EY, DG_EZ, DG_HX, DG_HY, DG_HZ };

/* Face condition. Interior faces are DG_BC_NONE. */
typedef enum { DG_BC_NONE = 0, DG_BC_PEC = 1, DG_BC_PMC = 2, DG_BC_ABC = 3 } dg_bc;

/* An analytic field (E, H) at a point and time: exact solutions, incident waves. */
typedef void (*dg_field_fn)(void *ctx, double x, double y, double z, double t, double e[3],
                            double h[3]);

/* A point current source projected on one element: J = dir g(t) profile at its Np nodes,
 * profile = (1/J_k) M^-1 phi(pos), or M_k^-1 phi(pos) on a curved element (dg/source.h). */
typedef struct {
  int elem;
  double *profile;      /* Np values, owned */
  double dir[3];
  dg_pulse pulse;
  double norm;          /* profile's norm in the element's mass matrix, sqrt(J_k p^T M p) */
} dg_point_source;

typedef struct {
  const dg_geom *geom;  /* borrowed */
  double alpha;         /* 1 upwind, 0 central */
  double *eps, *mu, *sigma; /* per element, relative values */
  unsigned char *bc;    /* per face (K*4), a dg_bc */
  dg_field_fn incident; /* exterior state on absorbing faces; NULL means zero */
  void *incident_ctx;
  /* Scattered-field formulation: absorbing faces see zero, PEC faces see the mirror of
   * -E_inc (E+ = -E- - 2 E_inc, H+ = H-), so the unknowns are the scattered field. */
  int scattered;
  /* Total-field/scattered-field surface (NULL: none): per face (K*4) +1 where the element is
   * on the total-field side of the surface and its neighbour on the scattered side (the
   * exterior state gets + the incident field), -1 the other way round (- the incident
   * field), 0 elsewhere. With it the incident field enters only there: absorbing faces see
   * zero, PEC faces mirror the field. */
  signed char *tfsf;
  int n_sources;
  dg_point_source *sources; /* owned; added with dg_maxwell_add_dipole */
  double *work;         /* scratch for dg_maxwell_rhs (one element at a time) */
  double *DrT, *DsT, *DtT, *LIFTT; /* transposed reference operators */
  /* CFS-PML (dg/pml.h; none when pml_K = 0): the PML elements, increasing; per PML element
   * e its alpha in direction d (pml_alpha[3e + d]), its largest filter rate beta
   * (pml_beta[e]) and its matrices S_x..G_z (pml_mat_of[DG_PML_MATS e + i], an index into
   * pml_mat, n_pml_mat matrices of Np x Np shared where equal to rounding, or -1). */
  int pml_K, n_pml_mat;
  int *pml_elem, *pml_mat_of;
  double *pml_alpha, *pml_beta, *pml_mat;
  double pml_beta_max; /* largest filter rate, for the time step */
  /* Dispersive media (dg/dispersive.h; none when disp_K = 0): the dispersive elements,
   * increasing (none of them in the PML); per dispersive element its model (an index into
   * disp_models) and the offset of its pole states in the pole part of the auxiliary state
   * (disp_K + 1 values, the last the total). */
  int disp_K;
  int *disp_elem, *disp_model;
  size_t *disp_off;
  int n_disp_models;
  struct dg_dispersion *disp_models; /* owned */
} dg_maxwell;

/* Vacuum everywhere (eps = mu = 1, sigma = 0), every boundary face PEC, upwind. */
dg_status dg_maxwell_create(dg_maxwell **out, const dg_geom *g) DG_NODISCARD;
void dg_maxwell_destroy(dg_maxwell **p);

/* Add a point dipole located in element elem at reference coordinates rst (the caller
 * locates the point). */
dg_status dg_maxwell_add_dipole(dg_maxwell *p, const dg_dipole *d, int elem,
                                const double rst[3]) DG_NODISCARD;

/* Incident plane wave pw (initialised with dg_plane_wave_init; borrowed, must outlive p):
 * incident = dg_plane_wave_eval, incident_ctx = pw, scattered = pw->scattered. The OpenCL
 * backend recognises exactly this incident function. */
void dg_maxwell_set_plane_wave(dg_maxwell *p, dg_plane_wave *pw);

/* The total-field/scattered-field surface (see tfsf above): face_sign per face (K*4
 * values, copied), nonzero only on interior faces (DG_ERR_INPUT otherwise); needs the total-
 * field formulation of the incident wave. NULL removes it. */
dg_status dg_maxwell_set_tfsf(dg_maxwell *p, const signed char *face_sign) DG_NODISCARD;

/* The auxiliary state beside the fields: the PML's auxiliary fields (DG_PML_AUX * pml_K * Np
 * values, dg/pml.h), then the dispersive elements' pole states (dg_maxwell_pole_size values,
 * dg/dispersive.h). 0 without either. */
size_t dg_maxwell_aux_size(const dg_maxwell *p);

/* The full right-hand side with the auxiliary state: rhs = dq/dt and rhs_w = dw/dt for the
 * fields q (6*K*Np) and the auxiliary state w (dg_maxwell_aux_size values; NULL means zero).
 * rhs_w may be NULL (not computed). Without PML or dispersive elements this is
 * dg_maxwell_rhs. The PML acts on the field terms; the poles' currents and the point
 * dipoles are added after it. */
void dg_maxwell_rhs_aux(dg_maxwell *p, double t, const double *q, const double *J,
                        const double *w, double *rhs, double *rhs_w);

/* rhs = dq/dt at time t, including the point sources (with PML: auxiliary fields zero). J (3*K*Np: Jx,Jy,Jz) may be NULL. Uses p->work, so one call at
 * a time per problem. */
void dg_maxwell_rhs(dg_maxwell *p, double t, const double *q, const double *J,
                    double *rhs);

/* The same on a subset of the elements: rhs is written only for elems[0..n_elems) (all K
 * when elems is NULL; n_elems is then K), reading q on them and their face neighbours.
 * The local time stepper (dg/stepper_multirate.c) evaluates one rate level at a time. */
void dg_maxwell_rhs_elems(dg_maxwell *p, double t, const double *q, const double *J,
                          double *rhs, const int *elems, int n_elems);

/* The same with the PML (dg_maxwell_rhs_aux on a subset): the PML elements pml_e[0..n_pml)
 * (indices into pml_elem, those among elems) get the filtered right-hand side and rhs_w.
 * Without dispersive poles (the multirate steppers, its only users, refuse them). */
void dg_maxwell_rhs_elems_aux(dg_maxwell *p, double t, const double *q, const double *J,
                              const double *w, double *rhs, double *rhs_w, const int *elems,
                              int n_elems, const int *pml_e, int n_pml);

/* Internal to the right-hand side (maxwell_curved.c): curved element k's curl and lifted
 * flux, out (6 x Np) = M_k^-1 (volume and face integrals), from the fields q and the jumps
 * q+ - q- at its face nodes (jump[f] for field f: 4Nfp values, face by face); acc is
 * scratch of 6 Np values. */
void dg_maxwell_curved_terms(const dg_maxwell *p, int k, const double *q,
                             double *const jump[DG_NFIELDS], double *acc, double *out);

/* Discrete electromagnetic energy 1/2 sum_k int (eps |E|^2 + mu |H|^2) dx (mass matrix). */
double dg_maxwell_energy(const dg_maxwell *p, const double *q);
/* The same plus the energy the dispersive poles store (dg_dispersion_energy), w the
 * auxiliary state (dg_maxwell_aux_size values; NULL: poles at rest): the energy that does
 * not grow without sources. */
double dg_maxwell_energy_aux(const dg_maxwell *p, const double *q, const double *w);

/* A stable time step: cfl * min_k sqrt(eps_k mu_k) / (max_f Fscale_kf (N+1)^2), on a
 * curved element with the largest sJ/J at its face nodes for max_f Fscale_kf.
 * The book's N^2 is unstable at N = 1 on general meshes; (N+1)^2 is not (see docs/METHOD.md).
 * Decays on the negative real axis bound it too: a conductivity decays E at sigma_k/eps_k,
 * the PML's filters at up to beta; dt (sigma_k/eps_k + beta) <= cfl, as for the PML alone.
 * A dispersive element's poles (dg_dispersion_rate, which includes its sigma/eps) bound it
 * the same way: dt * rate <= cfl. */
double dg_maxwell_dt(const dg_maxwell *p, double cfl);
/* Element k's own term of that step (without cfl, conductivity or PML): sqrt(eps_k mu_k) /
 * (max_f Fscale_kf (N+1)^2); the smallest over k is what a sliver element sets. */
double dg_maxwell_element_dt(const dg_maxwell *p, int k);

/* An upper bound on how much the point sources can raise sqrt(energy) over [t0, t1]: the
 * energy identity dW/dt = -(E, J_h)_M - (sigma E, E)_M - (flux dissipation) gives
 * d sqrt(W)/dt <= sum_i |dir_i| |g_i(t)| ||profile_i||_M / sqrt(2 eps_k), here with |g| taken
 * as an upper bound of it over the interval. Plane waves are not counted. */
double dg_maxwell_source_growth(const dg_maxwell *p, double t0, double t1);

/* q = the field f sampled at the nodes at time t. */
void dg_maxwell_interpolate(const dg_geom *g, dg_field_fn f, void *ctx, double t, double *q);

/* Absolute L2 error sqrt(sum over fields int (q - f)^2 dx) and the L2 norm of f, by a
 * quadrature exact for degree 2N+2 (not from nodal values). */
dg_status dg_maxwell_l2_error(const dg_geom *g, const double *q, dg_field_fn f, void *ctx,
                              double t, double *err, double *norm) DG_NODISCARD;

#endif

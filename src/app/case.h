/* A simulation case: everything `dgtd run` needs, from a JSON case file (cJSON), the
 * built-in default (the PEC cavity eigenmode) and command-line overrides. Every key is
 * documented in docs/CASE_FILE.md. Errors name the file and the key path, e.g.
 * "cases/x.json: materials[1].eps: must be positive, got -1", and unknown keys get a
 * did-you-mean. */
#ifndef DG_APP_CASE_H
#define DG_APP_CASE_H

#include "backend/variant.h"
#include "core/status.h"
#include "dg/cavity.h"
#include "dg/dispersive.h"
#include "tune/choose.h"
#include "dg/maxwell.h"
#include "dg/pml.h"
#include "dg/multirate.h"
#include "dg/source.h"
#include "io/vtu.h"
#include "mesh/mesh.h"
#include "solver/solver.h"

enum { DG_CASE_NAME = 128, DG_CASE_PATH = 1024, DG_CASE_PML_VOLUMES = 16 };
enum { DG_CASE_MAX_LEVELS = 6 }; /* time_stepping.max_levels by default */

/* auto: the cached winner, tuning within the budget on a miss; never: the device default;
 * always: tune now (and cache the result). */

/* A physical group named by name or by tag number. */
typedef struct {
  char name[DG_CASE_NAME]; /* "" when given by tag */
  int tag;                 /* -1 when given by name */
} dg_group_ref;

typedef struct {
  dg_group_ref volume;
  double eps, mu, sigma;    /* eps: with poles, eps_inf (the key's name then) */
  dg_dispersion disp;       /* poles (n_poles = 0: not dispersive) */
} dg_case_material;

/* Vacuum: eps = mu = 1, sigma = 0 and no poles (what the TF/SF and far-field surfaces need
 * around them). */
static inline int dg_case_material_is_vacuum(const dg_case_material *m) {
  return m->eps == 1 && m->mu == 1 && m->sigma == 0 && !m->disp.n_poles;
}

typedef struct {
  dg_group_ref surface;
  dg_bc bc;
} dg_case_boundary;

/* "periodic": two boundary surfaces joined one translation apart (mesh.h,
 * dg_mesh_make_periodic); translation given, or the surfaces' centroids' difference. */
typedef struct {
  dg_group_ref surfaces[2];
  int has_translation;
  double translation[3];
} dg_case_periodic;

typedef struct {
  char name[DG_CASE_NAME];
  double pos[3];
} dg_case_probe;

/* DFT monitors ("dft": docs/OUTPUTS.md; app/dft.c). */
typedef enum { DG_DFT_SURFACE_NONE = 0, DG_DFT_SURFACE_NAMED, DG_DFT_SURFACE_ENCLOSING } dg_dft_surface_kind;
typedef struct {
  int on;
  int nfreq;
  double *freq;             /* owned */
  int normalize;            /* 1: divide by the source pulse's discrete spectrum */
  int probes;               /* 1: at the case's probes (spectra.csv) */
  int all_volumes;          /* volumes: "all" */
  int n_volumes;
  dg_group_ref volumes[DG_CASE_PML_VOLUMES];
  dg_dft_surface_kind surface;
  dg_group_ref surface_name; /* DG_DFT_SURFACE_NAMED: a closed interior surface */
  int n_enclosing;           /* DG_DFT_SURFACE_ENCLOSING: the boundary of these volumes */
  dg_group_ref enclosing[DG_CASE_PML_VOLUMES];
  int every;                /* steps between samples */
} dg_case_dft;

/* Far field from the DFT surface ("far_field": docs/OUTPUTS.md;
 * app/far_field.c): directions as cuts and/or a theta-phi grid, RCS or directivity. */
typedef struct {
  int on;
  int n_planes;
  char planes[3][4];        /* "xy", "xz", "yz" */
  double step;              /* degrees between directions of a cut */
  int has_sphere;
  double sphere_step[2];    /* theta and phi steps of the grid (degrees) */
  int rcs;                  /* 1: bistatic RCS (plane wave); 0: directivity */
  double origin[3];         /* phase reference */
} dg_case_far_field;

typedef struct {
  char source[DG_CASE_PATH]; /* the case file, or "built-in" */
  /* mesh */
  char mesh_file[DG_CASE_PATH]; /* "" for the built-in box */
  int allow_unmatched;      /* mesh.allow_unmatched_faces: a non-conforming interface is
                               intentional (its faces become boundary faces) */
  double box_lo[3], box_hi[3];
  int box_cells[3];
  int box_pml_cells;        /* mesh.box.pml_cells: layer cells around the box (volume "pml") */
  int box_tfsf_cells;       /* mesh.box.tfsf_cells: > 0: an interior surface "tfsf" that many
                               cells inside the box's faces */
  /* discretisation and time */
  int order;
  dg_precision precision;
  dg_backend backend;
  double final_time;        /* used when steps == 0 */
  double stop_energy;       /* > 0: stop before final_time once every source is over and the
                               field energy is at most this fraction of its peak */
  double stop_dft;          /* > 0: ... and the DFT sums changed by at most this fraction in
                               the last period of the lowest frequency (with stop_energy:
                               both) */
  int steps;                /* > 0: a fixed number of steps (dt from the CFL rule) */
  double cfl;
  double alpha;             /* flux: 1 upwind, 0 central */
  int multirate;            /* time_stepping.scheme: 0 lserk4, 1 multirate (dg/multirate.h) */
  dg_mr_scheme mr_scheme;   /* multirate: "multirate" is AB3, "multirate-lserk4" LSERK4 */
  int mr_auto;              /* "auto": the run chooses lserk4 or multirate-lserk4
                             * (app/multirate.c, run_time_stepping_auto): 1 by default, 2
                             * asked for (its note also when it keeps global LSERK4); 0 with
                             * a scheme named; multirate = 1 overrides it */
  int max_levels;           /* time_stepping.max_levels: rate levels at most (multirate) */
  double stage_cost;        /* time_stepping.stage_cost: what a level stage costs beyond its
                             * elements, in element evaluations (dg_multirate_levels' omega);
                             * < 0: by the backend and device (run_stage_overhead) */
  /* media and boundaries */
  int n_materials;
  dg_case_material *materials;
  int n_boundaries;
  dg_case_boundary *boundaries;
  int has_default_bc;
  dg_bc default_bc;         /* for boundary surfaces no entry names */
  int n_periodic;           /* periodic pairs, at most DG_MESH_MAX_PERIODS */
  dg_case_periodic periodic[DG_MESH_MAX_PERIODS];
  /* CFS-PML ("pml"; implied with its defaults by mesh.box.pml_cells) */
  int has_pml;
  int n_pml_volumes;
  dg_group_ref pml_volumes[DG_CASE_PML_VOLUMES];
  dg_pml_params pml;
  /* sources */
  int n_dipoles;
  dg_dipole *dipoles;
  int has_plane_wave;
  int plane_wave_index; /* its place in "sources" (dipole i is sources[i + (i >= this)]) */
  dg_plane_wave plane_wave;
  /* total-field/scattered-field surface ("tfsf": {"surface": NAME or TAG}) */
  int has_tfsf;
  dg_group_ref tfsf_surface;
  /* initial state: zero, or a cavity eigenmode (which is then also the exact solution) */
  int has_cavity_mode;
  int mode[3];
  int has_amp;
  double amp[3];
  char mode_key[16];        /* where the mode came from, for messages: "initial", "--mode" */
  /* probes and output */
  int n_probes;
  dg_case_probe *probes;
  char output_dir[DG_CASE_PATH]; /* "" = no files */
  int vtu_every;            /* steps between VTU snapshots (0: none) */
  int n_vtu_times;
  double *vtu_times;        /* snapshot times (the step closest to each) */
  dg_vtu_mode vtu_mode;
  int vtu_precision;        /* output.vtu_precision: 0 the run's, 1 float, 2 double */
  int energy_every;         /* steps between energy log rows (0: none) */
  int probe_every;          /* steps between probe samples */
  int checkpoint_every;     /* steps (0: none) */
  double checkpoint_seconds;/* wall seconds (0: none) */
  char restart[DG_CASE_PATH];
  dg_case_dft dft;
  dg_case_far_field far_field;
  /* OpenCL */
  dg_tune_mode tune;        /* where the variant comes from when none is forced */
  double tune_budget;       /* seconds for tuning on a cache miss (auto) or always */
  char variant[DG_VARIANT_SPEC_MAX];
  char device[256];
  char dump_dir[DG_CASE_PATH];
  /* terminal */
  int quiet;
  int profile;  /* --profile: device time per kernel while stepping (OpenCL) */
  int json;
} dg_case;

/* The built-in default: PEC cavity (unit cube, 4x4x4 box cells), order 3, mode (1,1,1),
 * final time 1, upwind, OpenCL in float. */
void dg_case_default(dg_case *c);
/* Replace c's settings with those of a JSON case file (keys not given keep the built-in
 * defaults, except that a case file without "initial" starts from zero fields). */
dg_status dg_case_read(dg_case *c, const char *path) DG_NODISCARD;
/* The same from a string (path is only used in messages). */
dg_status dg_case_parse(dg_case *c, const char *json, const char *path) DG_NODISCARD;
void dg_case_free(dg_case *c);
/* The schema as the parser applies it: dg_case_parse that also calls visit(visit_ctx, path,
 * keys) for every JSON object it checks, with the object's key path ("" for the top level,
 * "mesh.box", "sources[0].pulse") and the keys that object accepts (NULL-terminated). The
 * case-file reference (docs/CASE_FILE.md) is tested against it. */
typedef void (*dg_case_schema_fn)(void *ctx, const char *path, const char *const *keys);
dg_status dg_case_parse_schema(dg_case *c, const char *json, const char *path,
                               dg_case_schema_fn visit, void *visit_ctx) DG_NODISCARD;
/* Checks the case's group references against the mesh: two materials (or two boundary
 * entries) naming one physical group, by name and by tag, and a name the mesh gives to
 * several tags, are errors naming the key path. */
dg_status dg_case_check_groups(const dg_case *c, const dg_mesh *m) DG_NODISCARD;
/* The case's cavity mode in the box [lo, hi]; errors name the key (initial or --mode). */
dg_status dg_case_cavity_mode(const dg_case *c, const double lo[3], const double hi[3],
                              dg_cavity_mode *out) DG_NODISCARD;
/* What the backend interface (solver/solver.h) receives of the case: the backend and its
 * options (c's strings borrowed; tuning progress on stderr unless quiet). */
void dg_case_solver_options(const dg_case *c, dg_solver_options *o);

#endif

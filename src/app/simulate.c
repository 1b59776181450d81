#include "app/simulate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "backend/cl_maxwell.h"
#include "backend/verify.h"
#include "core/alloc.h"
#include "device/binary_cache.h"
#include "device/device.h"
#include "dg/cavity.h"
#include "dg/geom.h"
#include "dg/lserk.h"
#include "dg/maxwell.h"
#include "io/checkpoint.h"
#include "io/probe.h"
#include "io/series.h"
#include "io/vtu.h"
#include "mesh/mesh.h"
#include "part/dist.h"
#include "part/exchange.h"
#include "part/part.h"
#include "refel/refel.h"
#include "tune/tune.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Everything a run owns, released in one place. */
typedef struct {
  const dg_case *c;
  /* MPI: this rank of `size`; the whole mesh (every rank reads it) and the partition. */
  int rank, size;
  dg_mesh *global;           /* the whole mesh; == mesh on one process */
  int *part;                 /* size > 1: owner rank of each global element */
  dg_dist_mesh *dist;        /* size > 1: owned elements + ghosts, exchange lists */
  dg_exchange *xchg;         /* size > 1 */
  int *send_slot, *recv_slot;
  int *probe_ids;            /* case index of each probe this rank owns */
  dg_mesh *mesh;
  dg_refel *ref;
  dg_geom *geom;
  dg_maxwell *phys;
  dg_plane_wave pw;          /* the incident wave (phys->incident_ctx points here) */
  dg_cavity_mode mode;       /* when the case has one: initial state and exact solution */
  size_t n;                  /* 6 K Np */
  double *q, *res, *rhs;     /* host state; res/rhs for the reference backend */
  dg_device *dev;            /* OpenCL backend */
  dg_binary_cache binaries;  /* compiled programs kept between runs */
  dg_cl_maxwell *op;
  dg_probes *probes;
  dg_series *probe_log, *energy_log;
  int n_vtu;
  double *vtu_t;             /* times of the snapshots written so far (for the .pvd) */
  char **vtu_files;
  double dt;
  int steps, first_step;
  double energy0, energy_ref; /* energy at the start; largest energy while sources were on */
} run_state;

static void run_state_free(run_state *s) {
  if (s->global != s->mesh) dg_mesh_destroy(&s->global);
  s->global = NULL;
  dg_free(&s->part);
  dg_dist_mesh_destroy(&s->dist);
  dg_exchange_destroy(&s->xchg);
  dg_free(&s->send_slot);
  dg_free(&s->recv_slot);
  dg_free(&s->probe_ids);
  dg_free(&s->q);
  dg_free(&s->res);
  dg_free(&s->rhs);
  dg_cl_maxwell_destroy(&s->op);
  dg_device_destroy(&s->dev);
  dg_probes_destroy(&s->probes);
  dg_series_destroy(&s->probe_log);
  dg_series_destroy(&s->energy_log);
  for (int i = 0; i < s->n_vtu; ++i) dg_free(&s->vtu_files[i]);
  dg_free(&s->vtu_files);
  dg_free(&s->vtu_t);
  dg_maxwell_destroy(&s->phys);
  dg_geom_destroy(&s->geom);
  dg_refel_destroy(&s->ref);
  dg_mesh_destroy(&s->mesh);
}

/* ---- set-up ------------------------------------------------------------------------------ */

/* The cavity is the mesh's bounding box; check that the mesh fills it (volumes agree and
 * every boundary face lies on one of its six planes). */
static dg_status check_mesh_is_box(const dg_mesh *m, const char *path, double lo[3],
                                   double hi[3]) {
  dg_mesh_bbox(m, lo, hi);
  const double box = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
  double vol = 0, size = 0;
  for (int d = 0; d < 3; ++d) size = fmax(size, hi[d] - lo[d]);
  for (int k = 0; k < m->K; ++k) vol += dg_mesh_elem_volume(m, k);
  DG_CHECK(fabs(vol - box) <= 1e-9 * box, DG_ERR_INPUT,
           "%s: the mesh (volume %g) does not fill its bounding box (volume %g): the cavity "
           "mode needs a box-shaped domain", path, vol, box);
  const double tol = 1e-9 * size;
  for (int k = 0; k < m->K; ++k)
    for (int f = 0; f < 4; ++f) {
      if (m->face_tag[4 * k + f] < 0) continue;
      int on_plane = 0;
      for (int d = 0; d < 3 && !on_plane; ++d)
        for (int side = 0; side < 2 && !on_plane; ++side) {
          const double plane = side ? hi[d] : lo[d];
          int all = 1;
          for (int i = 0; i < 3; ++i) {
            const int v = m->EToV[4 * k + dg_face_vertices[f][i]];
            const double x = d == 0 ? m->VX[v] : d == 1 ? m->VY[v] : m->VZ[v];
            all &= fabs(x - plane) <= tol;
          }
          on_plane = all;
        }
      DG_CHECK(on_plane, DG_ERR_INPUT,
               "%s: boundary face %d of element %d is not on the bounding box: the cavity "
               "mode needs a box-shaped domain", path, f, k + 1);
    }
  return DG_OK;
}

/* "name (tag 3)" lists of a mesh's physical groups of one dimension, for messages. */
static void list_groups(const dg_mesh *m, int dim, char *buf, size_t cap) {
  buf[0] = '\0';
  for (int i = 0; i < m->nphys; ++i) {
    if (m->phys[i].dim != dim) continue;
    char one[96];
    snprintf(one, sizeof one, "%s\"%s\" (tag %d)", buf[0] ? ", " : "", m->phys[i].name, m->phys[i].tag);
    strncat(buf, one, cap - strlen(buf) - 1);
  }
  if (!buf[0]) snprintf(buf, cap, "none named in the file");
}

/* The tag of a physical group reference; it must exist in the mesh. */
static dg_status resolve_group(const dg_mesh *m, int dim, const dg_group_ref *g,
                               const char *what, const char *casefile, int *tag) {
  char avail[1024];
  if (g->name[0]) {
    *tag = dg_mesh_phys_tag(m, dim, g->name);
    if (*tag >= 0) return DG_OK;
    list_groups(m, dim, avail, sizeof avail);
    return DG_ERROR(DG_ERR_INPUT, "%s: %s \"%s\": the mesh has no physical %s of that name "
                    "(it has: %s)", casefile, what, g->name, dim == 3 ? "volume" : "surface", avail);
  }
  int found = 0;
  for (int k = 0; k < m->K && !found; ++k) {
    if (dim == 3) found = m->elem_tag[k] == g->tag;
    else for (int f = 0; f < 4; ++f) found |= m->face_tag[4 * k + f] == g->tag;
  }
  list_groups(m, dim, avail, sizeof avail);
  DG_CHECK(found, DG_ERR_INPUT, "%s: %s %d: no %s of the mesh carries that physical tag "
           "(named groups: %s)", casefile, what, g->tag, dim == 3 ? "element" : "boundary face", avail);
  *tag = g->tag;
  return DG_OK;
}

static const char *group_name(const dg_mesh *m, int dim, int tag) {
  for (int i = 0; i < m->nphys; ++i)
    if (m->phys[i].dim == dim && m->phys[i].tag == tag && m->phys[i].name[0]) return m->phys[i].name;
  return "";
}

static dg_status apply_materials_and_boundaries(run_state *s) {
  const dg_case *c = s->c;
  const dg_mesh *m = s->mesh;
  dg_maxwell *p = s->phys;
  p->alpha = c->alpha;
  for (int i = 0; i < c->n_materials; ++i) {
    int tag;
    char what[64];
    snprintf(what, sizeof what, "materials[%d].volume", i);
    DG_CALL(resolve_group(m, 3, &c->materials[i].volume, what, c->source, &tag));
    for (int k = 0; k < m->K; ++k)
      if (m->elem_tag[k] == tag) {
        p->eps[k] = c->materials[i].eps;
        p->mu[k] = c->materials[i].mu;
        p->sigma[k] = c->materials[i].sigma;
      }
  }
  int *tags = NULL;
  DG_CALL(DG_ALLOC(tags, c->n_boundaries + 1));
  dg_status st = DG_OK;
  for (int i = 0; i < c->n_boundaries; ++i) {
    char what[64];
    snprintf(what, sizeof what, "boundaries[%d].surface", i);
    DG_CALL_GOTO(done, resolve_group(m, 2, &c->boundaries[i].surface, what, c->source, &tags[i]));
  }
  enum { MAX_MISSING = 32 };
  int missing[MAX_MISSING], n_missing = 0; /* sorted tags of surfaces left without a condition */
  for (int k = 0; k < m->K; ++k)
    for (int f = 0; f < 4; ++f) {
      const int t = m->face_tag[4 * k + f];
      if (t < 0) continue;
      int bc = -1;
      for (int i = 0; i < c->n_boundaries && bc < 0; ++i)
        if (tags[i] == t) bc = (int)c->boundaries[i].bc;
      if (bc < 0 && c->has_default_bc) bc = (int)c->default_bc;
      if (bc >= 0) {
        p->bc[4 * k + f] = (unsigned char)bc;
        continue;
      }
      int at = 0;
      while (at < n_missing && missing[at] < t) ++at;
      if ((at < n_missing && missing[at] == t) || n_missing == MAX_MISSING) continue;
      memmove(missing + at + 1, missing + at, (size_t)(n_missing - at) * sizeof *missing);
      missing[at] = t;
      ++n_missing;
    }
  if (n_missing) {
    char list[1024] = "";
    for (int i = 0; i < n_missing; ++i) {
      char one[128];
      snprintf(one, sizeof one, "%s\"%s\" (tag %d)", i ? ", " : "",
               missing[i] ? group_name(m, 2, missing[i]) : "untagged faces", missing[i]);
      strncat(list, one, sizeof list - strlen(list) - 1);
    }
    st = DG_ERROR(DG_ERR_INPUT, "%s: boundary surface%s without a condition: %s; add %s to "
                  "\"boundaries\" or set \"default_boundary\"", c->source, n_missing > 1 ? "s" : "",
                  list, n_missing > 1 ? "them" : "it");
  }
done:
  dg_free(&tags);
  return st;
}

static dg_status add_sources(run_state *s) {
  const dg_case *c = s->c;
  for (int i = 0; i < c->n_dipoles; ++i) {
    double rst[3];
    /* The rank owning the element the whole mesh puts the point in gets the source. */
    const int g = dg_mesh_locate(s->global, c->dipoles[i].pos, rst);
    DG_CHECK(g >= 0, DG_ERR_INPUT, "%s: sources[%d].position (%g, %g, %g) is outside the mesh",
             c->source, i, c->dipoles[i].pos[0], c->dipoles[i].pos[1], c->dipoles[i].pos[2]);
    if (s->part && s->part[g] != s->rank) continue;
    const int k = dg_mesh_locate(s->mesh, c->dipoles[i].pos, rst);
    DG_CHECK(k >= 0, DG_ERR_INTERNAL, "sources[%d]: not found in the owning rank's part", i);
    DG_CALL(dg_maxwell_add_dipole(s->phys, &c->dipoles[i], k, rst));
  }
  if (c->has_plane_wave) {
    s->pw = c->plane_wave;
    dg_maxwell_set_plane_wave(s->phys, &s->pw);
  }
  return DG_OK;
}

/* Is any source still on at time t (pulse above 1e-6 of its amplitude)? */
static int sources_active(const run_state *s, double t) {
  const dg_case *c = s->c;
  for (int i = 0; i < c->n_dipoles; ++i)
    if (fabs(dg_pulse_eval(&c->dipoles[i].pulse, t)) > 1e-6 * fabs(c->dipoles[i].pulse.amplitude))
      return 1;
  if (c->has_plane_wave) return 1; /* the wave keeps crossing the domain */
  return 0;
}

static dg_status make_dir(const char *dir) {
  char path[DG_CASE_PATH];
  snprintf(path, sizeof path, "%s", dir);
  for (char *p = path + 1; *p; ++p) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
      return DG_ERROR(DG_ERR_IO, "cannot create directory %s: %s", path, strerror(errno));
    *p = '/';
  }
  if (mkdir(path, 0777) != 0 && errno != EEXIST)
    return DG_ERROR(DG_ERR_IO, "cannot create directory %s: %s", path, strerror(errno));
  return DG_OK;
}

static void out_path(const run_state *s, const char *name, char *buf, size_t cap) {
  buf[0] = '\0';
  strncat(buf, s->c->output_dir, cap - 1);
  strncat(buf, "/", cap - strlen(buf) - 1);
  strncat(buf, name, cap - strlen(buf) - 1);
}

/* ---- MPI ---------------------------------------------------------------------------------- */

/* Sum over ranks (identity on one process). */
static double sum_ranks(const run_state *s, double x) {
  if (s->size > 1) MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return x;
}

static double total_energy(run_state *s) { return sum_ranks(s, dg_maxwell_energy(s->phys, s->q)); }

/* A per-rank file name: NAME.EXT -> NAME_rR.EXT when running on several ranks. */
static void rank_path(const run_state *s, const char *path, char *buf, size_t cap) {
  const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
  if (s->size == 1 || !dot || (slash && dot < slash)) {
    snprintf(buf, cap, "%s", path);
    return;
  }
  snprintf(buf, cap, "%.*s_r%d%s", (int)(dot - path), path, s->rank, dot);
}

/* Every rank reads the whole mesh; rank 0 partitions it with Scotch and broadcasts the
 * owners; each rank keeps its part plus ghost copies of its neighbours' elements. */
static dg_status distribute(run_state *s, dg_run_result *r) {
  DG_CHECK(s->size <= s->global->K, DG_ERR_INPUT, "%d ranks for a mesh of %d elements", s->size,
           s->global->K);
  DG_CALL(DG_ALLOC(s->part, s->global->K));
  dg_partition_stats stats;
  memset(&stats, 0, sizeof stats);
  dg_status st = DG_OK;
  if (s->rank == 0) st = dg_partition(s->global, s->size, NULL, s->part, &stats);
  int ok = st == DG_OK;
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!ok) {
    dg_partition_stats_free(&stats);
    return s->rank == 0 ? st : DG_ERROR(DG_ERR_INTERNAL, "partitioning failed on rank 0");
  }
  MPI_Bcast(s->part, s->global->K, MPI_INT, 0, MPI_COMM_WORLD);
  if (s->rank == 0) {
    r->imbalance = stats.imbalance;
    r->cut_faces = stats.cut_faces;
  }
  dg_partition_stats_free(&stats);
  DG_CALL(dg_dist_mesh_create(&s->dist, s->global, s->size, s->part, s->rank));
  s->mesh = s->dist->mesh;
  s->dist->mesh = NULL; /* run_state owns it now */
  return DG_OK;
}

/* The exchange buffers and slots, once the order is known. */
static dg_status setup_exchange(run_state *s, size_t value_bytes) {
  const dg_refel *ref = s->ref;
  s->dist->mesh = s->mesh; /* dg_dist_slots reads K from it */
  dg_status st = dg_dist_slots(s->dist, ref->Np, ref->Nfp, ref->Fmask, &s->send_slot, &s->recv_slot);
  s->dist->mesh = NULL;
  DG_CALL(st);
  DG_CALL(dg_exchange_create(&s->xchg, s->dist, ref->Nfp, value_bytes, MPI_COMM_WORLD));
  return DG_OK;
}

static dg_status xchg_begin(void *ctx) { return dg_exchange_begin(ctx); }
static dg_status xchg_end(void *ctx) { return dg_exchange_end(ctx); }

/* ---- the time loop's pieces ------------------------------------------------------------- */

/* Bring the device state to the host copy s->q (no-op for the reference backend). */
static dg_status fetch_state(run_state *s) {
  if (s->op) DG_CALL(dg_cl_maxwell_get_state(s->op, s->q));
  return DG_OK;
}

static dg_status write_vtu(run_state *s, int step, double t) {
  char name[64], path[DG_CASE_PATH + 64];
  snprintf(name, sizeof name, "fields_%06d.vtu", step);
  if (s->size > 1) {
    /* One piece per rank, and a .pvtu that strings them together. */
    char piece[80];
    snprintf(piece, sizeof piece, "fields_%06d_r%d.vtu", step, s->rank);
    out_path(s, piece, path, sizeof path);
    DG_CALL(dg_vtu_write(path, s->geom, s->q, t, s->c->vtu_mode));
    MPI_Barrier(MPI_COMM_WORLD);
    if (s->rank != 0) return DG_OK;
    snprintf(name, sizeof name, "fields_%06d.pvtu", step);
    out_path(s, name, path, sizeof path);
    char **pieces = NULL;
    DG_CALL(DG_ALLOC(pieces, s->size));
    dg_status st = DG_OK;
    for (int i = 0; i < s->size && st == DG_OK; ++i) {
      st = DG_ALLOC(pieces[i], 64);
      if (st == DG_OK) snprintf(pieces[i], 64, "fields_%06d_r%d.vtu", step, i);
    }
    if (st == DG_OK) st = dg_pvtu_write(path, s->size, (const char *const *)pieces);
    for (int i = 0; i < s->size; ++i) dg_free(&pieces[i]);
    dg_free(&pieces);
    DG_CALL(st);
  } else {
    out_path(s, name, path, sizeof path);
    DG_CALL(dg_vtu_write(path, s->geom, s->q, t, s->c->vtu_mode));
  }
  double *times = realloc(s->vtu_t, (size_t)(s->n_vtu + 1) * sizeof *times);
  DG_CHECK(times, DG_ERR_MEMORY, "out of memory");
  s->vtu_t = times;
  char **files = realloc(s->vtu_files, (size_t)(s->n_vtu + 1) * sizeof *files);
  DG_CHECK(files, DG_ERR_MEMORY, "out of memory");
  s->vtu_files = files;
  s->vtu_files[s->n_vtu] = strdup(name);
  DG_CHECK(s->vtu_files[s->n_vtu], DG_ERR_MEMORY, "out of memory");
  s->vtu_t[s->n_vtu++] = t;
  out_path(s, "fields.pvd", path, sizeof path);
  DG_CALL(dg_pvd_write(path, s->n_vtu, s->vtu_t, (const char *const *)s->vtu_files));
  return DG_OK;
}

/* Blow-up: non-finite values, or energy growing beyond what the sources put in. */
static dg_status check_health(run_state *s, int step, double t, double energy) {
  const size_t KNp = (size_t)s->mesh->K * s->ref->Np, own = (size_t)s->mesh->K_owned * s->ref->Np;
  double bad = 0;
  for (int f = 0; f < DG_NFIELDS; ++f)
    for (size_t i = 0; i < own; ++i) bad += !isfinite(s->q[f * KNp + i]);
  bad = sum_ranks(s, bad);
  DG_CHECK(bad == 0, DG_ERR_NUMERIC,
           "the solution became non-finite at step %d (t = %g): the time step is probably too "
           "large (try a smaller --cfl) or a material value is bad", step, t);
  if (sources_active(s, t)) {
    s->energy_ref = fmax(s->energy_ref, energy);
    return DG_OK;
  }
  /* Without active sources the discrete energy can only decrease (upwind) or stay
   * (central); allow rounding in float and generous slack before calling it a blow-up. */
  const double bound = 1.01 * fmax(s->energy_ref, s->energy0) + 1e-30;
  DG_CHECK(energy <= bound, DG_ERR_NUMERIC,
           "the energy grew from %.6g to %.6g by step %d (t = %g) with no source on: the time "
           "step is too large (try a smaller --cfl) or a material value is bad", fmax(s->energy_ref, s->energy0),
           energy, step, t);
  return DG_OK;
}

/* The identity a checkpoint must match: the whole mesh, and which part of it this is. */
static uint64_t checkpoint_hash(const run_state *s) {
  uint64_t h = dg_checkpoint_mesh_hash(s->global);
  if (s->size > 1) h ^= 0x9e3779b97f4a7c15ull * (uint64_t)(s->rank + 1) + (uint64_t)s->size;
  return h;
}

static dg_status write_checkpoint(run_state *s, int step, double t, const char *variant) {
  const dg_case *c = s->c;
  const int single = c->backend == DG_BACKEND_OPENCL && c->precision == DG_PREC_FLOAT;
  dg_checkpoint_header h;
  memset(&h, 0, sizeof h);
  h.K = s->mesh->K, h.N = s->ref->N, h.Np = s->ref->Np;
  h.precision = single ? 4 : 8;
  h.mesh_hash = checkpoint_hash(s);
  dg_case_problem_hash(c, h.problem);
  snprintf(h.variant, sizeof h.variant, "%s", variant);
  h.step = step, h.time = t, h.dt = s->dt;
  /* LSERK4's first stage has a = 0, so the residual is dead between steps: it is stored
   * as zeros. Float states round-trip exactly through double. */
  void *q = NULL, *res = NULL;
  dg_status st = DG_OK;
  DG_CALL_GOTO(done, dg_calloc(&q, s->n, (size_t)h.precision));
  DG_CALL_GOTO(done, dg_calloc(&res, s->n, (size_t)h.precision));
  for (size_t i = 0; i < s->n; ++i) {
    if (single) ((float *)q)[i] = (float)s->q[i];
    else ((double *)q)[i] = s->q[i];
  }
  char name[DG_CASE_PATH + 32], path[DG_CASE_PATH + 48];
  out_path(s, "checkpoint.chk", name, sizeof name);
  rank_path(s, name, path, sizeof path);
  DG_CALL_GOTO(done, dg_checkpoint_write(path, &h, q, res));
  if (s->probe_log) DG_CALL_GOTO(done, dg_series_commit(s->probe_log));
  if (s->energy_log) DG_CALL_GOTO(done, dg_series_commit(s->energy_log));
done:
  dg_free(&q);
  dg_free(&res);
  return st;
}

static dg_status read_restart(run_state *s, double *t) {
  const dg_case *c = s->c;
  const int single = c->backend == DG_BACKEND_OPENCL && c->precision == DG_PREC_FLOAT;
  dg_checkpoint_header want, got;
  memset(&want, 0, sizeof want);
  want.K = s->mesh->K, want.N = s->ref->N, want.Np = s->ref->Np;
  want.precision = single ? 4 : 8;
  want.mesh_hash = checkpoint_hash(s);
  dg_case_problem_hash(c, want.problem);
  void *q = NULL, *res = NULL;
  dg_status st = DG_OK;
  DG_CALL_GOTO(done, dg_calloc(&q, s->n, (size_t)want.precision));
  DG_CALL_GOTO(done, dg_calloc(&res, s->n, (size_t)want.precision));
  char path[DG_CASE_PATH + 48];
  rank_path(s, c->restart, path, sizeof path);
  DG_CALL_GOTO(done, dg_checkpoint_read(path, &want, &got, q, res));
  DG_CHECK_GOTO(done, got.dt == s->dt, DG_ERR_INPUT,
                "checkpoint %s was written with dt = %.17g, this run has dt = %.17g (same case, "
                "CFL and final time needed)", path, got.dt, s->dt);
  DG_CHECK_GOTO(done, got.step <= s->steps, DG_ERR_INPUT,
                "checkpoint %s is at step %lld, past this run's %d steps", path,
                (long long)got.step, s->steps);
  for (size_t i = 0; i < s->n; ++i) s->q[i] = single ? ((float *)q)[i] : ((double *)q)[i];
  s->first_step = (int)got.step;
  *t = got.time;
done:
  dg_free(&q);
  dg_free(&res);
  return st;
}

/* Probes: each rank evaluates the ones in its elements; rank 0 gathers and logs them. */
static dg_status setup_probes(run_state *s) {
  const dg_case *c = s->c;
  double *xyz = NULL;
  int n = 0;
  dg_status st = DG_OK;
  DG_CALL(DG_ALLOC(xyz, 3 * c->n_probes + 1));
  DG_CALL_GOTO(done, DG_ALLOC(s->probe_ids, c->n_probes + 1));
  for (int i = 0; i < c->n_probes; ++i) {
    double rst[3];
    const int g = dg_mesh_locate(s->global, c->probes[i].pos, rst);
    DG_CHECK_GOTO(done, g >= 0, DG_ERR_INPUT, "%s: probes[%d] (\"%s\") at (%g, %g, %g) is outside the mesh",
                  c->source, i, c->probes[i].name, c->probes[i].pos[0], c->probes[i].pos[1],
                  c->probes[i].pos[2]);
    if (s->part && s->part[g] != s->rank) continue;
    memcpy(xyz + 3 * n, c->probes[i].pos, 3 * sizeof(double));
    s->probe_ids[n++] = i;
  }
  DG_CALL_GOTO(done, dg_probes_create(&s->probes, s->geom, n, xyz));
done:
  dg_free(&xyz);
  return st;
}

static dg_status record_probes(run_state *s, double t) {
  const int n = s->c->n_probes, mine = s->probes->n;
  double *all = NULL, *vals = NULL;
  dg_status st = DG_OK;
  DG_CALL(DG_ALLOC(all, 6 * n + 1));
  DG_CALL_GOTO(done, DG_ALLOC(vals, 6 * mine + 1));
  dg_probes_eval(s->probes, s->q, vals);
  for (int i = 0; i < mine; ++i) memcpy(all + 6 * s->probe_ids[i], vals + 6 * i, 6 * sizeof(double));
  if (s->size > 1)
    MPI_Reduce(s->rank == 0 ? MPI_IN_PLACE : all, all, 6 * n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (s->probe_log)
    for (int i = 0; i < n; ++i) {
      double row[8] = {i, t};
      memcpy(row + 2, all + 6 * i, 6 * sizeof(double));
      DG_CALL_GOTO(done, dg_series_append(s->probe_log, row));
    }
done:
  dg_free(&all);
  dg_free(&vals);
  return st;
}

/* ---- backends ----------------------------------------------------------------------------- */

typedef struct {
  run_state *s;
  dg_status st; /* an exchange failure, reported after the step */
} ref_ctx;

/* The reference RHS; on several ranks the ghosts' face traces are exchanged first (without
 * overlap: the reference is for checking, not speed). */
static void ref_rhs(void *ctx, double t, const double *q, double *rhs) {
  ref_ctx *rc = ctx;
  run_state *s = rc->s;
  if (s->xchg && rc->st == DG_OK) {
    double *send = s->xchg->send, *recv = s->xchg->recv, *qw = (double *)q;
    for (size_t b = 0; b < s->xchg->n; ++b) send[b] = q[s->send_slot[b]];
    rc->st = dg_exchange_begin(s->xchg);
    if (rc->st == DG_OK) rc->st = dg_exchange_end(s->xchg);
    for (size_t b = 0; b < s->xchg->n; ++b) qw[s->recv_slot[b]] = recv[b];
  }
  dg_maxwell_rhs(s->phys, t, q, NULL, rhs);
}

/* The variant to run: the case's or --variant's spec (its prec key, if any, wins over the
 * precision setting); else, by the tune mode, the cached winner (tuning on a miss), a fresh
 * tuning, or the device's default. On several ranks rank 0 decides (so only one process
 * tunes and writes the cache) and the others take its spec. */
static dg_status decide_variant(run_state *s, dg_run_result *r, dg_variant *v) {
  const dg_case *c = s->c;
  const int N = s->ref->N;
  if (c->variant[0]) {
    DG_CALL(dg_variant_parse(c->variant, v));
    if (!strstr(c->variant, "prec=")) v->precision = c->precision;
    snprintf(r->variant_source, sizeof r->variant_source, "--variant");
    return DG_OK;
  }
  if (c->tune == DG_TUNE_NEVER) {
    *v = dg_variant_default(&s->dev->info, N, c->precision);
    snprintf(r->variant_source, sizeof r->variant_source, "device default (--tune never)");
    return DG_OK;
  }
  char desc[512] = "";
  if (c->tune == DG_TUNE_AUTO) {
    const dg_tune_found f = dg_tune_lookup(&s->dev->info, N, c->precision, v, desc, sizeof desc);
    if (f == DG_TUNE_HIT || f == DG_TUNE_FALLBACK) {
      snprintf(r->variant_source, sizeof r->variant_source, "tuned: %s", desc);
      return DG_OK;
    }
    if (!c->quiet)
      fprintf(stderr, "dgtd: no tuned variant for this device at N=%d (%s): tuning now, "
              "budget %.0f s (--tune never skips this)\n", N, desc, c->tune_budget);
  }
  dg_tune_options opt;
  dg_tune_result res;
  memset(&res, 0, sizeof res);
  DG_CALL(dg_tune_options_default(&opt));
  opt.budget_s = c->tune_budget;
  opt.verbose = c->quiet ? 0 : 1;
  opt.force = c->tune == DG_TUNE_ALWAYS;
  opt.write_cache = 1;
  /* Verify candidates in child processes of this binary, so a compiler crash fails only
   * that candidate. */
  char exe[1024];
  const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len > 0) {
    exe[len] = '\0';
    opt.child_exe = exe;
  }
  dg_status st = dg_tune_order(s->dev, N, c->precision, &opt, NULL, &res);
  if (st == DG_OK && res.winner < 0)
    st = DG_ERROR(DG_ERR_NUMERIC, "tuning found no variant that passes verification on %s at N=%d",
                  s->dev->info.name, N);
  if (st == DG_OK) {
    *v = res.c[res.winner].v;
    r->tuned = !res.from_cache;
    snprintf(r->variant_source, sizeof r->variant_source, "%s (%.0f s)",
             res.from_cache ? "tuned earlier" : "fresh tuning", res.seconds);
  }
  dg_tune_result_free(&res);
  return st;
}

static dg_status choose_variant(run_state *s, dg_run_result *r, dg_variant *v) {
  dg_status st = DG_OK;
  char spec[DG_VARIANT_SPEC_MAX] = "";
  if (s->rank == 0) {
    st = decide_variant(s, r, v);
    if (st == DG_OK) dg_variant_print(v, spec, sizeof spec);
  }
  if (s->size > 1) {
    int ok = st == DG_OK;
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok) return s->rank == 0 ? st : DG_ERROR(DG_ERR_INTERNAL, "rank 0 could not choose a variant");
    MPI_Bcast(spec, sizeof spec, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (s->rank != 0) {
      DG_CALL(dg_variant_parse(spec, v));
      snprintf(r->variant_source, sizeof r->variant_source, "rank 0's choice");
    }
  }
  return st;
}

static dg_status start_opencl(run_state *s, dg_run_result *r) {
  const dg_case *c = s->c;
  dg_variant v;
  int pass = 0;
  char spec[32];
  const char *dev_spec = c->device[0] ? c->device : NULL;
  const char *env = getenv("DGTD_DEVICE");
  if (!dev_spec && !(env && *env) && s->size > 1) {
    /* Ranks on one node take its devices round-robin by their rank on the node. */
    MPI_Comm node;
    int local = 0, count = 0;
    dg_device_info *list = NULL;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, s->rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local);
    MPI_Comm_free(&node);
    DG_CALL(dg_device_list(&list, &count));
    if (count > 0) {
      const dg_device_info *d = &list[local % count];
      snprintf(spec, sizeof spec, "%d:%d", d->P, d->D);
      dev_spec = spec;
    }
    dg_free(&list);
  }
  DG_CALL(dg_device_create(&s->dev, dev_spec));
  dg_binary_cache_init(&s->binaries, NULL);
  s->dev->binaries = &s->binaries;
  snprintf(r->device, sizeof r->device, "%d:%d %s", s->dev->info.P, s->dev->info.D, s->dev->info.name);
  DG_CALL(choose_variant(s, r, &v));
  dg_variant_print(&v, r->variant, sizeof r->variant);
  DG_CALL(dg_cl_maxwell_create(&s->op, s->dev, s->phys, &v, c->dump_dir[0] ? c->dump_dir : NULL));
  if (s->binaries.warning[0]) fprintf(stderr, "warning: %s\n", s->binaries.warning);
  /* Never run an unverified variant: its RHS on random fields against the reference, at a
   * time when the sources are on (the first pulse's peak) so their kernels are checked too. */
  double t_verify = 0;
  if (c->n_dipoles) t_verify = c->dipoles[0].pulse.t0;
  else if (c->has_plane_wave) t_verify = c->plane_wave.pulse.t0;
  DG_CALL(dg_cl_verify_op_at(s->op, s->phys, t_verify, 20261121, &r->verify_rel_diff, &pass));
  return DG_OK;
}

/* ---- the run ------------------------------------------------------------------------------ */

static void progress(const dg_case *c, int step, int last_step, double t, double t0_wall,
                     int first_step, long long dofs, double *last_print) {
  if (c->quiet) return;
  const double now = now_s();
  const int tty = isatty(STDERR_FILENO);
  if (step != last_step && now - *last_print < (tty ? 0.25 : 10.0)) return;
  *last_print = now;
  const double el = now - t0_wall;
  const int done = step - first_step, total = last_step - first_step;
  const double eta = done > 0 ? el / done * (total - done) : 0;
  const double rate = el > 0 ? (double)dofs * DG_LSERK_STAGES * done / el : 0;
  const double frac = total > 0 ? (double)done / total : 1;
  if (tty) {
    char bar[31];
    const int fill = (int)(30 * frac);
    for (int i = 0; i < 30; ++i) bar[i] = i < fill ? '#' : '.';
    bar[30] = '\0';
    fprintf(stderr, "\r  [%s] %3.0f%%  step %d/%d  t=%-10.4g ETA %6.1fs  %.3g DOF/s ", bar,
            100 * frac, step, last_step, t, eta, rate);
    if (step == last_step) fputc('\n', stderr);
  } else {
    fprintf(stderr, "  step %d/%d  t=%.4g  %.0f%%  ETA %.1fs  %.3g DOF/s\n", step, last_step, t,
            100 * frac, eta, rate);
  }
}

dg_status dg_run(const dg_case *c, dg_run_result *r) {
  dg_status st = DG_OK;
  run_state s;
  memset(&s, 0, sizeof s);
  memset(r, 0, sizeof *r);
  s.c = c;
  double lo[3], hi[3];

  DG_CHECK(c->cfl > 0, DG_ERR_INPUT, "the CFL factor must be positive, got %g", c->cfl);
  DG_CHECK(c->steps > 0 || c->final_time > 0, DG_ERR_INPUT, "the final time must be positive, got %g",
           c->final_time);
  int mpi = 0;
  s.size = 1;
  MPI_Initialized(&mpi);
  if (mpi) {
    MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &s.size);
  }
  r->nranks = s.size;
  if (c->mesh_file[0]) {
    DG_CALL_GOTO(done, dg_mesh_read_flags(&s.global, c->mesh_file,
                                          c->allow_unmatched ? DG_MESH_ALLOW_UNMATCHED : 0));
    if (s.global->n_unmatched && s.rank == 0 && !c->quiet)
      fprintf(stderr, "warning: %s: %d unmatched interior faces kept as boundary faces "
              "(mesh.allow_unmatched_faces)\n", c->mesh_file, s.global->n_unmatched);
  } else {
    for (int d = 0; d < 3; ++d) lo[d] = c->box_lo[d], hi[d] = c->box_hi[d];
    DG_CALL_GOTO(done, dg_mesh_box(&s.global, lo, hi, c->box_cells[0], c->box_cells[1], c->box_cells[2]));
  }
  DG_CALL_GOTO(done, dg_case_check_groups(c, s.global));
  s.mesh = s.global;
  if (s.size > 1) DG_CALL_GOTO(done, distribute(&s, r));
  if (c->has_cavity_mode) {
    if (c->mesh_file[0]) DG_CALL_GOTO(done, check_mesh_is_box(s.global, c->mesh_file, lo, hi));
    DG_CALL_GOTO(done, dg_case_cavity_mode(c, lo, hi, &s.mode));
  }
  DG_CALL_GOTO(done, dg_refel_create(&s.ref, c->order));
  DG_CALL_GOTO(done, dg_geom_create(&s.geom, s.mesh, s.ref));
  DG_CALL_GOTO(done, dg_maxwell_create(&s.phys, s.geom));
  DG_CALL_GOTO(done, apply_materials_and_boundaries(&s));
  DG_CALL_GOTO(done, add_sources(&s));
  if (c->n_probes) DG_CALL_GOTO(done, setup_probes(&s));

  s.n = DG_NFIELDS * (size_t)s.mesh->K * s.ref->Np;
  DG_CALL_GOTO(done, DG_ALLOC(s.q, s.n));
  if (c->has_cavity_mode) dg_maxwell_interpolate(s.geom, dg_cavity_mode_eval, &s.mode, 0.0, s.q);

  /* Time step: the stable automatic one (the smallest over all ranks), shortened to land
   * exactly on the final time. */
  double dt_max = dg_maxwell_dt(s.phys, c->cfl);
  if (s.size > 1) MPI_Allreduce(MPI_IN_PLACE, &dt_max, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  if (c->steps > 0) {
    s.steps = c->steps;
    s.dt = dt_max;
  } else {
    s.steps = (int)ceil(c->final_time / dt_max - 1e-12);
    s.dt = c->final_time / s.steps;
  }
  double t = 0;
  if (c->restart[0]) DG_CALL_GOTO(done, read_restart(&s, &t));

  r->K = s.global->K, r->N = s.ref->N, r->Np = s.ref->Np;
  r->dofs = 6LL * s.global->K * s.ref->Np;
  r->dt = s.dt;
  r->final_time = s.steps * s.dt;
  r->first_step = s.first_step;
  s.energy0 = s.energy_ref = total_energy(&s);
  r->energy_start = s.energy0;
  if (c->has_cavity_mode) {
    r->omega = s.mode.omega;
    memcpy(r->mode, c->mode, sizeof r->mode);
    r->amp[0] = s.mode.A, r->amp[1] = s.mode.B, r->amp[2] = s.mode.C;
  }

  if (c->backend == DG_BACKEND_OPENCL) {
    DG_CALL_GOTO(done, start_opencl(&s, r));
    if (s.size > 1) {
      /* After verification (which compares one rank's operator without exchange). */
      DG_CALL_GOTO(done, setup_exchange(&s, c->precision == DG_PREC_DOUBLE || strstr(r->variant, "prec=double") ? 8 : 4));
      const dg_cl_halo h = {xchg_begin, xchg_end, s.xchg, s.xchg->send, s.xchg->recv};
      DG_CALL_GOTO(done, dg_cl_maxwell_set_halo(s.op, s.xchg->n, s.send_slot, s.recv_slot, &h));
    }
    DG_CALL_GOTO(done, dg_cl_maxwell_set_state(s.op, s.q));
  } else {
    DG_CALL_GOTO(done, DG_ALLOC(s.res, s.n));
    DG_CALL_GOTO(done, DG_ALLOC(s.rhs, s.n));
    if (s.size > 1) DG_CALL_GOTO(done, setup_exchange(&s, sizeof(double)));
    snprintf(r->variant, sizeof r->variant, "ref");
  }

  /* Outputs. */
  const int want_files = c->output_dir[0] != '\0';
  DG_CHECK_GOTO(done, want_files || !(c->vtu_every || c->n_vtu_times || c->checkpoint_every ||
                                      c->checkpoint_seconds > 0 || c->energy_every || c->n_probes),
                DG_ERR_INPUT, "%s: output files were asked for but no output directory was given "
                "(\"output\": {\"directory\": ...} or --output DIR)", c->source);
  if (want_files) {
    char path[DG_CASE_PATH + 32];
    if (s.rank == 0) st = make_dir(c->output_dir);
    if (s.size > 1) MPI_Bcast(&st, 1, MPI_INT, 0, MPI_COMM_WORLD);
    DG_CHECK_GOTO(done, st == DG_OK, st, "cannot create the output directory %s", c->output_dir);
    /* Only rank 0 writes the logs (probes are gathered to it). */
    if (c->n_probes && s.rank == 0) {
      out_path(&s, "probes.csv", path, sizeof path);
      DG_CALL_GOTO(done, dg_probe_log_create(&s.probe_log, path));
      if (c->restart[0]) DG_CALL_GOTO(done, dg_series_resume(s.probe_log, "t", t * (1 + 1e-12)));
    }
    if (c->energy_every && s.rank == 0) {
      out_path(&s, "energy.csv", path, sizeof path);
      DG_CALL_GOTO(done, dg_energy_log_create(&s.energy_log, path));
      if (c->restart[0]) DG_CALL_GOTO(done, dg_series_resume(s.energy_log, "step", s.first_step));
    }
  }
  /* How often the host looks at the state for blow-up: ~100 times a run, or with the
   * energy log. */
  const int health_every = c->energy_every ? c->energy_every : (s.steps >= 100 ? s.steps / 100 : 1);
  int next_time = 0; /* next entry of vtu_times */
  while (next_time < c->n_vtu_times && c->vtu_times[next_time] < t - 0.5 * s.dt) ++next_time;
  if (want_files && s.probes && !c->restart[0]) DG_CALL_GOTO(done, record_probes(&s, t));
  if (s.energy_log && !c->restart[0]) {
    const double row[3] = {0, 0, s.energy0};
    DG_CALL_GOTO(done, dg_series_append(s.energy_log, row));
  }
  if (want_files && c->vtu_every && !c->restart[0]) DG_CALL_GOTO(done, write_vtu(&s, 0, 0));

  ref_ctx rctx = {&s, DG_OK};
  const double t0_wall = now_s();
  double last_print = 0, last_checkpoint = t0_wall;
  for (int step = s.first_step; step < s.steps; ++step) {
    if (s.op) DG_CALL_GOTO(done, dg_cl_maxwell_step(s.op, t, s.dt));
    else dg_lserk_step(s.n, s.q, s.res, s.rhs, t, s.dt, ref_rhs, &rctx);
    DG_CALL_GOTO(done, rctx.st);
    const int now = step + 1;
    t = now * s.dt;
    const int probe_due = want_files && s.probes && now % c->probe_every == 0;
    const int energy_due = now % health_every == 0 || now == s.steps;
    const int vtu_due = want_files && ((c->vtu_every && now % c->vtu_every == 0) ||
                                       (next_time < c->n_vtu_times && fabs(c->vtu_times[next_time] - t) <= 0.5 * s.dt));
    int chk_due = want_files && ((c->checkpoint_every && now % c->checkpoint_every == 0) ||
                                 (c->checkpoint_seconds > 0 && now_s() - last_checkpoint >= c->checkpoint_seconds));
    if (s.size > 1) /* every rank checkpoints the same step */
      MPI_Allreduce(MPI_IN_PLACE, &chk_due, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (probe_due || energy_due || vtu_due || chk_due) DG_CALL_GOTO(done, fetch_state(&s));
    if (probe_due) DG_CALL_GOTO(done, record_probes(&s, t));
    if (energy_due) {
      const double e = total_energy(&s);
      DG_CALL_GOTO(done, check_health(&s, now, t, e));
      if (s.energy_log && now % c->energy_every == 0) {
        const double row[3] = {now, t, e};
        DG_CALL_GOTO(done, dg_series_append(s.energy_log, row));
      }
    }
    if (vtu_due) {
      DG_CALL_GOTO(done, write_vtu(&s, now, t));
      while (next_time < c->n_vtu_times && c->vtu_times[next_time] <= t + 0.5 * s.dt) ++next_time;
    }
    if (chk_due) {
      DG_CALL_GOTO(done, write_checkpoint(&s, now, t, r->variant));
      last_checkpoint = now_s();
      ++r->n_checkpoints;
    }
    if (s.rank == 0) progress(c, now, s.steps, t, t0_wall, s.first_step, r->dofs, &last_print);
  }
  if (s.op) DG_CALL_GOTO(done, dg_cl_maxwell_finish(s.op));
  r->wall_s = now_s() - t0_wall;
  r->steps = s.steps - s.first_step;
  if (s.size > 1) /* the slowest rank's time */
    MPI_Allreduce(MPI_IN_PLACE, &r->wall_s, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  r->dofs_per_s = r->wall_s > 0 ? (double)r->dofs * DG_LSERK_STAGES * r->steps / r->wall_s : 0;
  r->programs_built = s.binaries.misses;
  r->programs_loaded = s.binaries.loads;
  if (s.xchg) {
    r->exchange_wait_s = s.xchg->wait_s;
    r->exchange_s = s.xchg->exchange_s;
    r->exchanges = s.xchg->count;
  }
  DG_CALL_GOTO(done, fetch_state(&s));
  r->energy_end = total_energy(&s);
  DG_CALL_GOTO(done, check_health(&s, s.steps, t, r->energy_end));
  if (s.probe_log) DG_CALL_GOTO(done, dg_series_commit(s.probe_log));
  if (s.energy_log) DG_CALL_GOTO(done, dg_series_commit(s.energy_log));
  r->n_vtu = s.n_vtu;
  if (c->has_cavity_mode) {
    double norm = 0;
    DG_CALL_GOTO(done, dg_maxwell_l2_error(s.geom, s.q, dg_cavity_mode_eval, &s.mode, t,
                                           &r->l2_error, &norm));
    r->l2_error = sqrt(sum_ranks(&s, r->l2_error * r->l2_error));
    norm = sqrt(sum_ranks(&s, norm * norm));
    r->l2_rel_error = norm > 0 ? r->l2_error / norm : r->l2_error;
    r->has_error = 1;
  }
done:
  run_state_free(&s);
  return st;
}

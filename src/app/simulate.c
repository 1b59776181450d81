#include "app/simulate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "backend/cl_maxwell.h"
#include "backend/verify.h"
#include "core/alloc.h"
#include "device/device.h"
#include "dg/cavity.h"
#include "dg/geom.h"
#include "dg/lserk.h"
#include "dg/maxwell.h"
#include "mesh/mesh.h"
#include "refel/refel.h"

void dg_run_config_default(dg_run_config *c) {
  memset(c, 0, sizeof *c);
  c->backend = DG_BACKEND_OPENCL;
  c->precision = DG_PREC_FLOAT;
  for (int d = 0; d < 3; ++d) {
    c->box_cells[d] = 4;
    c->box_lo[d] = 0;
    c->box_hi[d] = 1;
    c->mode[d] = 1;
  }
  c->order = 3;
  c->final_time = 1.0;
  c->cfl = 1.0;
  c->alpha = 1.0;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

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
           "case needs a box-shaped domain", path, vol, box);
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
            const double c = d == 0 ? m->VX[v] : d == 1 ? m->VY[v] : m->VZ[v];
            all &= fabs(c - plane) <= tol;
          }
          on_plane = all;
        }
      DG_CHECK(on_plane, DG_ERR_INPUT,
               "%s: boundary face %d of element %d is not on the bounding box: the cavity "
               "case needs a box-shaped domain", path, f, k + 1);
    }
  return DG_OK;
}

typedef struct {
  dg_maxwell *phys;
} ref_ctx;

static void ref_rhs(void *ctx, double t, const double *q, double *rhs) {
  ref_ctx *c = ctx;
  dg_maxwell_rhs(c->phys, t, q, NULL, rhs);
}

static void progress(const dg_run_config *c, int s, int steps, double dt, double t0,
                     double *last) {
  const double now = now_s();
  if (!c->progress || now - *last < 2.0) return;
  *last = now;
  const double el = now - t0;
  fprintf(stderr, "  step %d/%d  t=%.4g  %.0f%%  ETA %.1fs\n", s + 1, steps, (s + 1) * dt,
          100.0 * (s + 1) / steps, el / (s + 1) * (steps - s - 1));
}

static dg_status step_ref(const dg_run_config *c, dg_maxwell *phys, size_t n, int steps,
                          double dt, double *q, double *res, double *rhs, dg_run_result *r) {
  ref_ctx ctx = {phys};
  const double t0 = now_s();
  double last = t0;
  for (int s = 0; s < steps; ++s) {
    dg_lserk_step(n, q, res, rhs, s * dt, dt, ref_rhs, &ctx);
    progress(c, s, steps, dt, t0, &last);
  }
  r->wall_s = now_s() - t0;
  return DG_OK;
}

/* The variant to run: --variant's spec (its prec key, if any, wins over --precision), else
 * the device's default. */
static dg_status choose_variant(const dg_run_config *c, const dg_device *dev, int N,
                                dg_variant *v, dg_run_result *r) {
  if (c->variant) {
    DG_CALL(dg_variant_parse(c->variant, v));
    if (!strstr(c->variant, "prec=")) v->precision = c->precision;
    r->variant_source = "--variant";
  } else {
    *v = dg_variant_default(&dev->info, N, c->precision);
    r->variant_source = "device default";
  }
  dg_variant_print(v, r->variant, sizeof r->variant);
  return DG_OK;
}

static dg_status step_opencl(const dg_run_config *c, dg_maxwell *phys, int steps, double dt,
                             double *q, dg_run_result *r) {
  dg_status st = DG_OK;
  dg_device *dev = NULL;
  dg_cl_maxwell *op = NULL;
  dg_variant v;
  int pass = 0;
  DG_CALL(dg_device_create(&dev, c->device));
  snprintf(r->device, sizeof r->device, "%d:%d %s", dev->info.P, dev->info.D, dev->info.name);
  DG_CALL_GOTO(done, choose_variant(c, dev, phys->geom->N, &v, r));
  DG_CALL_GOTO(done, dg_cl_maxwell_create(&op, dev, phys, &v, c->dump_dir));
  /* Never run an unverified variant: its RHS on random fields against the reference. */
  DG_CALL_GOTO(done, dg_cl_verify_op(op, phys, 20261121, &r->verify_rel_diff, &pass));
  DG_CALL_GOTO(done, dg_cl_maxwell_set_state(op, q));
  const double t0 = now_s();
  double last = t0;
  for (int s = 0; s < steps; ++s) {
    DG_CALL_GOTO(done, dg_cl_maxwell_step(op, s * dt, dt));
    if (c->progress && (s % 16 == 15 || s == steps - 1)) {
      DG_CALL_GOTO(done, dg_cl_maxwell_finish(op));
      progress(c, s, steps, dt, t0, &last);
    }
  }
  DG_CALL_GOTO(done, dg_cl_maxwell_finish(op));
  r->wall_s = now_s() - t0;
  DG_CALL_GOTO(done, dg_cl_maxwell_get_state(op, q));
done:
  dg_cl_maxwell_destroy(&op);
  dg_device_destroy(&dev);
  return st;
}

dg_status dg_run_cavity(const dg_run_config *c, dg_run_result *r) {
  dg_status st = DG_OK;
  dg_mesh *mesh = NULL;
  dg_refel *ref = NULL;
  dg_geom *geom = NULL;
  dg_maxwell *phys = NULL;
  double *q = NULL, *res = NULL, *rhs = NULL;
  double lo[3], hi[3];
  memset(r, 0, sizeof *r);

  DG_CHECK(c->final_time > 0, DG_ERR_INPUT, "final time must be positive, got %g", c->final_time);
  DG_CHECK(c->cfl > 0, DG_ERR_INPUT, "CFL factor must be positive, got %g", c->cfl);
  if (c->mesh_path) {
    DG_CALL_GOTO(done, dg_mesh_read(&mesh, c->mesh_path));
    DG_CALL_GOTO(done, check_mesh_is_box(mesh, c->mesh_path, lo, hi));
  } else {
    for (int d = 0; d < 3; ++d) {
      DG_CHECK(c->box_cells[d] > 0, DG_ERR_INPUT, "box resolution must be positive");
      lo[d] = c->box_lo[d];
      hi[d] = c->box_hi[d];
    }
    DG_CALL_GOTO(done, dg_mesh_box(&mesh, lo, hi, c->box_cells[0], c->box_cells[1], c->box_cells[2]));
  }
  dg_cavity_mode mode;
  DG_CALL_GOTO(done, dg_cavity_mode_init(&mode, c->mode[0], c->mode[1], c->mode[2],
                                         c->has_amp ? c->amp : NULL, lo, hi));
  DG_CALL_GOTO(done, dg_refel_create(&ref, c->order));
  DG_CALL_GOTO(done, dg_geom_create(&geom, mesh, ref));
  DG_CALL_GOTO(done, dg_maxwell_create(&phys, geom));
  phys->alpha = c->alpha;

  const size_t n = DG_NFIELDS * (size_t)mesh->K * ref->Np;
  DG_CALL_GOTO(done, DG_ALLOC(q, n));
  DG_CALL_GOTO(done, DG_ALLOC(res, n));
  DG_CALL_GOTO(done, DG_ALLOC(rhs, n));
  dg_maxwell_interpolate(geom, dg_cavity_mode_eval, &mode, 0.0, q);

  /* Whole number of equal steps that lands exactly on the final time. */
  const double dt_max = dg_maxwell_dt(phys, c->cfl);
  const int steps = (int)ceil(c->final_time / dt_max - 1e-12);
  const double dt = c->final_time / steps;

  r->K = mesh->K;
  r->N = ref->N;
  r->Np = ref->Np;
  r->dofs = (long long)n;
  r->steps = steps;
  r->dt = dt;
  r->final_time = c->final_time;
  r->omega = mode.omega;
  r->energy_start = dg_maxwell_energy(phys, q);
  memcpy(r->mode, c->mode, sizeof r->mode);
  r->amp[0] = mode.A, r->amp[1] = mode.B, r->amp[2] = mode.C;

  if (c->backend == DG_BACKEND_REF)
    DG_CALL_GOTO(done, step_ref(c, phys, n, steps, dt, q, res, rhs, r));
  else
    DG_CALL_GOTO(done, step_opencl(c, phys, steps, dt, q, r));
  r->dofs_per_s = (double)n * DG_LSERK_STAGES * steps / r->wall_s;
  r->energy_end = dg_maxwell_energy(phys, q);
  for (size_t i = 0; i < n; ++i)
    DG_CHECK_GOTO(done, isfinite(q[i]), DG_ERR_NUMERIC,
                  "the solution is not finite at the final time (unstable time step?)");
  double norm = 0;
  DG_CALL_GOTO(done, dg_maxwell_l2_error(geom, q, dg_cavity_mode_eval, &mode, c->final_time,
                                         &r->l2_error, &norm));
  r->l2_rel_error = norm > 0 ? r->l2_error / norm : r->l2_error;

done:
  dg_free(&q);
  dg_free(&res);
  dg_free(&rhs);
  dg_maxwell_destroy(&phys);
  dg_geom_destroy(&geom);
  dg_refel_destroy(&ref);
  dg_mesh_destroy(&mesh);
  return st;
}

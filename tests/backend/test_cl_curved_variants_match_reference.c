/* Curved elements on OpenCL (cl_templates/curved.cl): on a second-order quarter-cylinder mesh
 * (28 of its 56 elements curved) with two materials, PEC, PMC and absorbing faces on the
 * curved wall, every covering variant's right-hand side and energy match the reference within
 * the precision's tolerance (dg_cl_verify_problem), alone and with point dipoles (one in a
 * curved element), a CFS-PML, an incident plane wave through a TF/SF surface, and the
 * scattered-field formulation on the curved PEC wall; so do two variants on the same mesh of
 * geometric order 3 and 4 (more quadrature points); and LSERK4 steps of the stage forms that
 * hold the result differently (rhs, res with a fused update, the fused kernels writing res and
 * q, q in two buffers, CLBlast) follow the reference stepper, with the PML's auxiliary fields,
 * to 1e-10 of the change in double and 1e-5 in float. */
#include "test_device.h"

#include "backend/cl_maxwell.h"
#include "backend/verify.h"
#include "core/alloc.h"
#include "dg/pml.h"
#include "dg/stepper.h"

#define MESH FIXTURE("quarter_cylinder_r0.msh")

/* The verification problem on the quarter cylinder at order N: the wall's faces PMC below
 * 0.5 rad, absorbing above 1.1 rad, PEC between (the cuts PEC); flags as in
 * dg_verify_case_add_sources but the dipoles here (the box's positions are outside). */
static dg_verify_case *make_case_on(const char *mesh, int N, unsigned flags) {
  dg_mesh *m = NULL;
  dg_verify_case *c = NULL;
  assert_dg_ok(dg_mesh_read(&m, mesh));
  assert_dg_ok(dg_verify_case_from_mesh(&c, m, N));
  assert_true(c->geom->n_curved > 0 && c->geom->n_curved < c->geom->K);
  const dg_mesh *mm = c->mesh;
  for (int k = 0; k < mm->K; ++k)
    for (int f = 0; f < 4; ++f) {
      const int fid = 4 * k + f;
      if (c->phys->bc[fid] == DG_BC_NONE || mm->face_tag[fid] != 1) continue;
      double x = 0, y = 0; /* the face's centroid */
      for (int v = 0; v < 3; ++v) {
        x += mm->VX[mm->EToV[4 * k + dg_face_vertices[f][v]]] / 3;
        y += mm->VY[mm->EToV[4 * k + dg_face_vertices[f][v]]] / 3;
      }
      const double a = atan2(y, x);
      c->phys->bc[fid] = a < 0.5 ? DG_BC_PMC : a > 1.1 ? DG_BC_ABC : DG_BC_PEC;
    }
  if (flags & DG_VERIFY_DIPOLES) {
    const double at[2][3] = {{0.4, 0.5, 0.25}, {0.2122, 0.9704, 0.4166}};
    const dg_pulse ricker = {DG_PULSE_RICKER, 1.0, 0.7, 1.5, 0, 0};
    int curved = 0;
    for (int i = 0; i < 2; ++i) {
      double rst[3];
      const int k = dg_mesh_locate(c->mesh, at[i], rst);
      assert_true(k >= 0);
      curved += dg_geom_curved_row(c->geom, k) >= 0;
      const dg_dipole d = {{at[i][0], at[i][1], at[i][2]}, {0.3, 0.1 - i, 1}, ricker};
      assert_dg_ok(dg_maxwell_add_dipole(c->phys, &d, k, rst));
    }
    assert_true(curved >= 1);
  }
  assert_dg_ok(dg_verify_case_add_sources(c, flags & ~(unsigned)DG_VERIFY_DIPOLES));
  return c;
}

static dg_verify_case *make_case(int N, unsigned flags) { return make_case_on(MESH, N, flags); }

static int check(dg_device *dev, dg_verify_case *c, const char *spec, int N, const char *what) {
  dg_variant v;
  if (!strcmp(spec, "default")) {
    v = dg_variant_default(&dev->info, N, DG_PREC_DOUBLE);
  } else {
    assert_dg_ok(dg_variant_parse(spec, &v));
    v.precision = DG_PREC_DOUBLE;
  }
  if (!dev->info.has_fp64) v.precision = DG_PREC_FLOAT;
  char why[128], buf[DG_VARIANT_SPEC_MAX];
  if (!dg_variant_check(&v, &dev->info, N, why, sizeof why)) {
    test_skip_part("%s at N=%d cannot run on this device: %s", spec, N, why);
    return 0;
  }
  double diff = 0;
  int pass = 0;
  assert_dg_ok(dg_cl_verify_problem(dev, &v, c->phys, 99u + (uint64_t)N, &diff, &pass));
  printf("# curved %s N=%d %s: %.2e\n", what, N, dg_variant_print(&v, buf, sizeof buf), diff);
  assert_true(pass);
  assert_true(diff <= dg_verify_tolerance(v.precision));
  return 1;
}

/* Every covering variant, at N = 1..4 in turn, each order with and without the sources and
 * the PML (DGTD_TEST_ALL=1: every variant at every order, with and without). */
static void covering_set_matches_reference(void **state) {
  dg_device *dev = test_device(state, 0);
  const char *all = getenv("DGTD_TEST_ALL");
  const int every = all && all[0] == '1';
  int ran = 0, tried = 0;
  for (int i = 0; i < DG_VARIANT_NCOVER * (every ? 8 : 1); ++i) {
    const int at = i % DG_VARIANT_NCOVER, r = every ? i / DG_VARIANT_NCOVER : i;
    const int N = 1 + r % 4, with = (r / 4) % 2;
    const unsigned flags =
        with ? DG_VERIFY_DIPOLES | DG_VERIFY_PLANE_WAVE | DG_VERIFY_PML | DG_VERIFY_TFSF : 0;
    dg_verify_case *c = make_case(N, flags);
    if (with) assert_true(c->phys->pml_K > 0 && c->phys->tfsf);
    ran += check(dev, c, dg_variant_covering[at], N, with ? "+sources,PML,TF/SF" : "plain");
    ++tried;
    dg_verify_case_destroy(&c);
  }
  test_require_ran("curved variants", ran, tried, (3 * tried + 3) / 4);
}

/* The scattered-field formulation: the incident wave enters on the curved PEC wall. */
static void scattered_field_on_curved_pec_wall(void **state) {
  dg_device *dev = test_device(state, 0);
  dg_verify_case *c = make_case(3, DG_VERIFY_PLANE_WAVE | DG_VERIFY_SCATTERED);
  const char *specs[] = {"", "work=vec,vw=8,lift=fused-update,flux=face", "kb=4,fuse=step"};
  for (int i = 0; i < 3; ++i) assert_int_equal(check(dev, c, specs[i], 3, "scattered"), 1);
  dg_verify_case_destroy(&c);
}

/* The same quarter cylinder at geometric orders 3 and 4: the curved rules have more points
 * (NQ, NFQ from the mesh's order), below, at and above N = k, with the sources and the PML. */
static void higher_geometric_orders_match_reference(void **state) {
  dg_device *dev = test_device(state, 0);
  static const struct {
    const char *mesh;
    int N;
  } cases[] = {{FIXTURE("quarter_cylinder_o3_r0.msh"), 3},
               {FIXTURE("quarter_cylinder_o4_r0.msh"), 2},
               {FIXTURE("quarter_cylinder_o4_r0.msh"), 4}};
  const char *specs[] = {"default", "work=vec,vw=8,lift=fused-update,flux=face"};
  int ran = 0, tried = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    dg_verify_case *c = make_case_on(cases[i].mesh, cases[i].N, DG_VERIFY_DIPOLES |
                                     DG_VERIFY_PLANE_WAVE | DG_VERIFY_PML | DG_VERIFY_TFSF);
    assert_int_equal(c->mesh->geom_order, i == 0 ? 3 : 4);
    for (size_t j = 0; j < 2; ++j, ++tried)
      ran += check(dev, c, specs[j], cases[i].N, i == 0 ? "order 3" : "order 4");
    dg_verify_case_destroy(&c);
  }
  test_require_ran("higher geometric orders", ran, tried, (3 * tried + 3) / 4);
}

/* LSERK4 steps on the device against the reference stepper, PML auxiliary fields included. */
static void steps_match_reference(void **state) {
  dg_device *dev = test_device(state, 0);
  dg_verify_case *c = make_case(2, DG_VERIFY_DIPOLES | DG_VERIFY_PLANE_WAVE | DG_VERIFY_PML |
                                       DG_VERIFY_TFSF);
  const size_t n = 6 * (size_t)c->geom->K * c->geom->Np, na = dg_maxwell_aux_size(c->phys);
  double *q0 = NULL, *q = NULL, *got = NULL, *w = NULL, *wgot = NULL;
  assert_dg_ok(DG_ALLOC(q0, n));
  assert_dg_ok(DG_ALLOC(q, n));
  assert_dg_ok(DG_ALLOC(got, n));
  assert_dg_ok(DG_ALLOC(w, na));
  assert_dg_ok(DG_ALLOC(wgot, na));
  dg_verify_random_fields(11, n, q0);
  const double dt = dg_maxwell_dt(c->phys, 0.5), t0 = 0.5;
  const int steps = 8;
  dg_stepper *ref = NULL;
  assert_dg_ok(dg_stepper_ref_create(&ref, c->phys, NULL));
  assert_dg_ok(dg_stepper_put_state(ref, q0));
  for (int s = 0; s < steps; ++s) assert_dg_ok(dg_stepper_step(ref, t0 + s * dt, dt));
  assert_dg_ok(dg_stepper_get_state(ref, q));
  assert_dg_ok(dg_stepper_get_aux(ref, w));
  dg_stepper_destroy(&ref);
  const char *specs[] = {"prec=double",
                         "work=vec,vw=8,lift=fused-update,prec=double",
                         "kb=2,lkb=2,lift=fused,prec=double",
                         "path=clblast,prec=double",
                         "work=vec,vw=4,fuse=rhs,prec=double",
                         "kb=2,fuse=res,prec=double",
                         "kb=4,unroll=4,fuse=step,prec=double",
                         "work=vec,vw=4,kb=2,unroll=full,fuse=step,prec=double",
                         "work=vec,vw=16,unroll=4,lift=fused-update,prec=float",
                         "kb=4,fuse=step,prec=float"};
  int ran = 0;
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; ++i) {
    dg_variant v;
    assert_dg_ok(dg_variant_parse(specs[i], &v));
    if (v.precision == DG_PREC_DOUBLE && !dev->info.has_fp64) {
      test_skip_part("%s: the device has no double", specs[i]);
      continue;
    }
    dg_cl_maxwell *op = NULL;
    dg_stepper *s = NULL;
    assert_dg_ok(dg_cl_maxwell_create(&op, dev, c->phys, &v, NULL));
    assert_dg_ok(dg_stepper_cl_create(&s, op));
    assert_dg_ok(dg_stepper_put_state(s, q0));
    for (int j = 0; j < steps; ++j) assert_dg_ok(dg_stepper_step(s, t0 + j * dt, dt));
    assert_dg_ok(dg_stepper_get_state(s, got));
    assert_dg_ok(dg_stepper_get_aux(s, wgot));
    dg_stepper_destroy(&s);
    double num = 0, den = 0, wnum = 0, wden = 0;
    for (size_t j = 0; j < n; ++j)
      num += (got[j] - q[j]) * (got[j] - q[j]), den += (q[j] - q0[j]) * (q[j] - q0[j]);
    for (size_t j = 0; j < na; ++j) wnum += (wgot[j] - w[j]) * (wgot[j] - w[j]), wden += w[j] * w[j];
    const double rel = sqrt(num / den), wrel = sqrt(wnum / wden);
    const double tol = v.precision == DG_PREC_DOUBLE ? 1e-10 : 1e-5;
    printf("# %s: %d steps, fields %.2e relative to the change, PML fields %.2e\n", specs[i],
           steps, rel, wrel);
    assert_true(rel < tol);
    assert_true(wrel < tol);
    ++ran;
  }
  assert_true(ran >= 2);
  dg_free(&q0);
  dg_free(&q);
  dg_free(&got);
  dg_free(&w);
  dg_free(&wgot);
  dg_verify_case_destroy(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(covering_set_matches_reference),
      cmocka_unit_test(scattered_field_on_curved_pec_wall),
      cmocka_unit_test(higher_geometric_orders_match_reference),
      cmocka_unit_test(steps_match_reference),
  };
  return cmocka_run_group_tests(tests, test_device_setup, test_device_teardown);
}

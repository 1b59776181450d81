/* A dielectric slab in a periodic cell at normal incidence (issue 53's first validation):
 * the unit cell [0,1]^2 x [-3,3], periodic in x and y, a PML in its two cells at each end in z
 * (stretching along z only: the layer spans the cell in x and y), holds a slab of
 * eps = 4 (n = 2) for 1 <= z <= 5/3 (d = 2/3), lit two ways by a Ricker pulse (f0 = 0.25,
 * below the first diffraction order):
 *   - an array of x dipoles, one per cell at z_s = -4/3: a current sheet, which radiates
 *     E_x = -g(t - |z - z_s|)/2 exactly; reflected = the field below the slab minus it;
 *   - a plane wave through the TF/SF planes z = -2 and 2 (a periodic cell's TF/SF surface):
 *     reflected = the scattered field below z = -2, transmitted = the total field above.
 * From the probes' spectra (a DFT of every step's samples), |R| and |T| over the incident
 * wave's spectrum at f = 0.15 .. 0.45 against the Airy formulas of the slab (Born & Wolf,
 * section 1.6.4):
 *   r = r12 (1 - e^{2i delta}) / (1 - r12^2 e^{2i delta}),  t = (1 - r12^2) e^{i delta} /
 *   (1 - r12^2 e^{2i delta}),  r12 = (1 - n) / (1 + n),  delta = 2 pi f n d,
 * within 2e-3 (0.2% of the incident amplitude; |R| reaches 0.58 and falls to 0 at the
 * Fabry-Perot resonance f = 0.375; measured within 2e-4 both ways), and |R|^2 + |T|^2 = 1
 * within 2e-3. The mesh is the box mesher's (3 x 3 x 18 cells for the dipole sheet, whose
 * point sources want the finer cell; 2 x 2 x 18 for the plane wave) with the slab's elements
 * tagged, written as a Gmsh file; the default backend, double. */
#include "test_util.h"

#include <complex.h>

#include "app/case.h"
#include "app/simulate.h"
#include "mesh/mesh.h"

static const double ZS = -4.0 / 3, ZR = 0.2, ZT = 2.2, ZLO = 1.0, ZHI = 5.0 / 3, NSLAB = 2.0;

/* Face i (4 k + f) lies on z = -2 or z = 2 and its element below the plane. */
static int on_tfsf_plane(const dg_mesh *m, int i) {
  const int *v = m->EToV + 4 * (i / 4);
  const int *fv = dg_face_vertices[i % 4];
  double z[3], cz = 0;
  for (int a = 0; a < 3; ++a) z[a] = m->VZ[v[fv[a]]];
  for (int a = 0; a < 4; ++a) cz += 0.25 * m->VZ[v[a]];
  for (int p = -2; p <= 2; p += 4)
    if (fabs(z[0] - p) + fabs(z[1] - p) + fabs(z[2] - p) < 1e-12 && cz < p) return 1;
  return 0;
}

/* The box mesher's cell as a Gmsh 2.2 file (with tfsf, also the interior surface "tfsf":
 * the planes z = -2 and z = 2, tag 7): the six sides by name, the volumes "air" (tag 1),
 * "slab" (tag 2, centroid between ZLO and ZHI) and "pml" (tag 3, the two cells at each end
 * in z). */
static void write_cell(const char *path, int tfsf, int cells) {
  const double lo[3] = {0, 0, -3}, hi[3] = {1, 1, 3};
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, cells, cells, 18));
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  static const char *const side[6] = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};
  fprintf(f, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n10\n");
  for (int i = 0; i < 6; ++i) fprintf(f, "2 %d \"%s\"\n", i + 1, side[i]);
  fprintf(f, "2 7 \"tfsf\"\n3 1 \"air\"\n3 2 \"slab\"\n3 3 \"pml\"\n$EndPhysicalNames\n");
  fprintf(f, "$Nodes\n%d\n", m->Nv);
  for (int v = 0; v < m->Nv; ++v) fprintf(f, "%d %.17g %.17g %.17g\n", v + 1, m->VX[v], m->VY[v], m->VZ[v]);
  /* tfsf: the planes z = -2 and z = 2, each face once (from the element below it) */
  int ntri = 0, nif = 0;
  for (int i = 0; i < 4 * m->K; ++i) ntri += m->face_tag[i] > 0;
  for (int i = 0; tfsf && i < 4 * m->K; ++i) nif += on_tfsf_plane(m, i);
  ntri += nif;
  fprintf(f, "$EndNodes\n$Elements\n%d\n", ntri + m->K);
  int id = 1;
  for (int i = 0; i < 4 * m->K; ++i) {
    if (m->face_tag[i] <= 0) continue;
    const int *v = m->EToV + 4 * (i / 4);
    const int *fv = dg_face_vertices[i % 4];
    fprintf(f, "%d 2 2 %d %d %d %d %d\n", id++, m->face_tag[i], m->face_tag[i], v[fv[0]] + 1,
            v[fv[1]] + 1, v[fv[2]] + 1);
  }
  for (int i = 0; tfsf && i < 4 * m->K; ++i) {
    if (!on_tfsf_plane(m, i)) continue;
    const int *v = m->EToV + 4 * (i / 4);
    const int *fv = dg_face_vertices[i % 4];
    fprintf(f, "%d 2 2 7 7 %d %d %d\n", id++, v[fv[0]] + 1, v[fv[1]] + 1, v[fv[2]] + 1);
  }
  for (int k = 0; k < m->K; ++k) {
    const int *v = m->EToV + 4 * k;
    double cz = 0;
    for (int a = 0; a < 4; ++a) cz += 0.25 * m->VZ[v[a]];
    const int tag = cz > ZLO && cz < ZHI ? 2 : fabs(cz) > 7.0 / 3 ? 3 : 1;
    fprintf(f, "%d 4 2 %d %d %d %d %d %d\n", id++, tag, tag, v[0] + 1, v[1] + 1, v[2] + 1, v[3] + 1);
  }
  fprintf(f, "$EndElements\n");
  fclose(f);
  dg_mesh_destroy(&m);
}

static double ricker(double t) {
  const double f0 = 0.25, a = M_PI * f0 * (t - 1.5 / f0);
  return (1 - 2 * a * a) * exp(-a * a);
}
/* The dipole sheet's wave (below the first diffraction order) and the TF/SF plane wave. */
static double sheet_wave(double z, double t) { return -0.5 * ricker(t - fabs(z - ZS)); }
static double plane_wave(double z, double t) { return ricker(t - z); }

enum { MAXS = 20000 };
static double tt[MAXS], er[MAXS], et[MAXS];

/* Runs the slab cell (mesh with or without the tfsf planes) with `source` (JSON) and probes
 * at z = zr (reflected: the field there minus `sub`'s wave) and zt (transmitted), and checks
 * |R|, |T| against Airy. */
static void run_and_compare(const char *dir, const char *name, int tfsf, const char *source,
                            double (*inc)(double, double), int sub, double zr, double zt) {
  char mesh[512], json[2048], out[600];
  snprintf(mesh, sizeof mesh, "%s/%s.msh", dir, name);
  write_cell(mesh, tfsf, tfsf ? 2 : 3); /* the dipole sheet wants 3 x 3 */
  snprintf(json, sizeof json,
           "{\"mesh\": {\"file\": \"%s\"}, \"order\": 3, \"final_time\": 30,"
           " \"precision\": \"double\","
           " \"periodic\": [{\"surfaces\": [\"xmin\", \"xmax\"]}, {\"surfaces\": [\"ymin\", \"ymax\"]}],"
           " \"default_boundary\": \"pec\", \"pml\": {\"volumes\": [\"pml\"]}, %s"
           " \"materials\": [{\"volume\": \"slab\", \"eps\": 4}], \"sources\": [%s],"
           " \"probes\": [{\"name\": \"r\", \"position\": [0.3, 0.6, %g]},"
           " {\"name\": \"t\", \"position\": [0.7, 0.2, %g]}],"
           " \"output\": {\"vtu_every\": 0}}",
           mesh, tfsf ? "\"tfsf\": {\"surface\": \"tfsf\"}," : "", source, zr, zt);
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "slab.json"));
  c.quiet = 1;
  snprintf(out, sizeof out, "%s/%s", dir, name);
  snprintf(c.output_dir, sizeof c.output_dir, "%s", out);
  dg_run_result r;
  assert_dg_ok(dg_run(&c, &r));
  dg_case_free(&c);
  char path[700], line[512];
  snprintf(path, sizeof path, "%s/probes.csv", out);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  assert_non_null(fgets(line, sizeof line, f));
  int n = 0, p;
  double t, e[3], h[3];
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "%d,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &p, &t, &e[0], &e[1], &e[2], &h[0],
               &h[1], &h[2]) == 8) {
      if (p == 0 && n < MAXS) tt[n] = t, er[n] = e[0];
      if (p == 1 && n < MAXS) et[n++] = e[0]; /* probe 1 follows probe 0 at each time */
    }
  fclose(f);
  assert_true(n > 1000);
  const double d = ZHI - ZLO, r12 = (1 - NSLAB) / (1 + NSLAB);
  for (double fr = 0.15; fr < 0.46; fr += 0.1) {
    double complex ic = 0, ref = 0, tra = 0;
    for (int i = 1; i < n; ++i) { /* trapezoids */
      const double dt = tt[i] - tt[i - 1];
      for (int j = i - 1; j <= i; ++j) {
        const double complex w = 0.5 * dt * cexp(-2 * M_PI * I * fr * tt[j]);
        ic += w * inc(zr, tt[j]);
        ref += w * (er[j] - (sub ? inc(zr, tt[j]) : 0));
        tra += w * et[j];
      }
    }
    const double complex ph = cexp(2 * I * 2 * M_PI * fr * NSLAB * d);
    const double R = cabs(r12 * (1 - ph) / (1 - r12 * r12 * ph));
    const double T = cabs((1 - r12 * r12) * csqrt(ph) / (1 - r12 * r12 * ph));
    const double Rm = cabs(ref) / cabs(ic), Tm = cabs(tra) / cabs(ic);
    print_message("# %s, f = %.2f: |R| %.4f (Airy %.4f), |T| %.4f (Airy %.4f), |R|^2+|T|^2 "
                  "%.4f\n", name, fr, Rm, R, Tm, T, Rm * Rm + Tm * Tm);
    if (!(fabs(Rm - R) < 2e-3 && fabs(Tm - T) < 2e-3 && fabs(Rm * Rm + Tm * Tm - 1) < 2e-3))
      fail_msg("%s, f = %.2f: |R| %.4f against %.4f, |T| %.4f against %.4f", name, fr, Rm, R,
               Tm, T);
  }
}

/* The sheet of dipoles at z_s: reflected = the field below the slab minus the sheet's wave. */
static void lit_by_a_dipole_sheet(void **state) {
  test_scratch *s = *state;
  char src[512];
  snprintf(src, sizeof src,
           "{\"type\": \"dipole\", \"position\": [0.5, 0.5, %.17g], \"direction\": [1, 0, 0],"
           " \"pulse\": {\"shape\": \"ricker\", \"frequency\": 0.25}}", ZS);
  run_and_compare(s->dir, "sheet", 0, src, sheet_wave, 1, ZR, ZT);
}

/* The plane wave through the TF/SF planes z = -2 and 2: reflected = the scattered field below
 * z = -2, transmitted = the total field above the slab. */
static void lit_through_tfsf_planes(void **state) {
  test_scratch *s = *state;
  static const char src[] =
      "{\"type\": \"plane_wave\", \"direction\": [0, 0, 1], \"polarization\": [1, 0, 0],"
      " \"pulse\": {\"shape\": \"ricker\", \"frequency\": 0.25}}";
  run_and_compare(s->dir, "tfsf", 1, src, plane_wave, 0, -2.2, 1.9);
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(lit_by_a_dipole_sheet),
                                     cmocka_unit_test(lit_through_tfsf_planes)};
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

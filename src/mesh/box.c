/* Structured box mesh. Each hexahedron is cut into the 6 Kuhn (Freudenthal) tetrahedra
 * around its main diagonal from corner (0,0,0) to (1,1,1): tetrahedron p runs along the
 * monotone lattice path that adds the unit steps in the order of permutation p. Every cube
 * face is then split along the diagonal through its own lowest and highest corner, and
 * since that rule does not depend on the cube, neighbouring hexes agree: the mesh is
 * conforming. */
#include <limits.h>
#include <math.h>
#include <stdint.h>

#include "core/alloc.h"
#include "mesh/mesh.h"
#include "mesh/mesh_internal.h"

static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

dg_status dg_mesh_box(dg_mesh **out, const double lo[3], const double hi[3], int nx, int ny,
                      int nz) {
  DG_CALL(dg_mesh_box_pml(out, lo, hi, nx, ny, nz, 0));
  return DG_OK;
}

dg_status dg_mesh_box_pml(dg_mesh **out, const double lo[3], const double hi[3], int nx, int ny,
                          int nz, int npml) {
  DG_CALL(dg_mesh_box_tfsf(out, lo, hi, nx, ny, nz, npml, NULL, NULL));
  return DG_OK;
}

/* The node at lattice point c of a lattice of n[0] x n[1] x n[2] cells. */
static int vid(const int n[3], const int c[3]) {
  return c[0] + (n[0] + 1) * (c[1] + (n[1] + 1) * c[2]);
}

/* The nodes: nin cells of size h between lo and hi, npml more of the same size outside. */
static void set_nodes(dg_mesh *m, const int n[3], const int nin[3], int npml,
                      const double lo[3], const double hi[3], const double h[3]) {
  for (int k = 0; k <= n[2]; k++)
    for (int j = 0; j <= n[1]; j++)
      for (int i = 0; i <= n[0]; i++) {
        const int c[3] = {i, j, k};
        const int v = vid(n, c);
        /* The inner box's last node set to hi exactly, so its faces are exactly planar. */
        const int ijk[3] = {i - npml, j - npml, k - npml};
        double x[3];
        for (int d = 0; d < 3; d++)
          x[d] = ijk[d] == nin[d] ? hi[d]
                 : ijk[d] < 0 || ijk[d] > nin[d]
                     ? (ijk[d] < 0 ? lo[d] + h[d] * ijk[d] : hi[d] + h[d] * (ijk[d] - nin[d]))
                     : lo[d] + (hi[d] - lo[d]) * ijk[d] / nin[d];
        m->VX[v] = x[0];
        m->VY[v] = x[1];
        m->VZ[v] = x[2];
      }
}

/* Six Kuhn tetrahedra per cell, tagged 1 in the inner box, 2 in the npml cells around it. */
static void set_elements(dg_mesh *m, const int n[3], int npml) {
  int e = 0;
  for (int k = 0; k < n[2]; k++)
    for (int j = 0; j < n[1]; j++)
      for (int i = 0; i < n[0]; i++)
        for (int p = 0; p < 6; p++) {
          int c[3] = {i, j, k};
          int *v = m->EToV + 4 * (size_t)e;
          v[0] = vid(n, c);
          for (int s = 0; s < 3; s++) {
            c[perms[p][s]]++;
            v[s + 1] = vid(n, c);
          }
          const int inner = i >= npml && i < n[0] - npml && j >= npml && j < n[1] - npml &&
                            k >= npml && k < n[2] - npml;
          m->elem_tag[e] = inner ? 1 : 2;
          /* Odd permutations give negatively oriented paths; fix them here so that
           * dg_mesh_orient has nothing to do and n_fixed stays 0. */
          if (dg_mesh_elem_volume(m, e) < 0.0) {
            int t = v[2];
            v[2] = v[3];
            v[3] = t;
          }
          e++;
        }
}

/* Triangles tagged tag on lattice plane `plane` across direction d, over the cells
 * [ra[0], ra[1]) x [rb[0], rb[1]) of its in-plane directions: each quad split along the
 * diagonal through its lowest and highest corner, exactly as the Kuhn tetrahedra split it.
 * They go into tri from index t; returns the index after them. */
static int add_plane(const int n[3], int d, int plane, const int ra[2], const int rb[2], int tag,
                     int *tri, int *tri_tag, int t) {
  const int a = (d + 1) % 3, b = (d + 2) % 3; /* in-plane directions */
  for (int ib = rb[0]; ib < rb[1]; ib++)
    for (int ia = ra[0]; ia < ra[1]; ia++) {
      int c0[3], c1[3], c2[3], c3[3];
      c0[d] = c1[d] = c2[d] = c3[d] = plane;
      c0[a] = ia;     c0[b] = ib;       /* low corner */
      c1[a] = ia + 1; c1[b] = ib;
      c2[a] = ia;     c2[b] = ib + 1;
      c3[a] = ia + 1; c3[b] = ib + 1;   /* high corner */
      const int lo_v = vid(n, c0), hi_v = vid(n, c3);
      tri[3 * t] = lo_v;
      tri[3 * t + 1] = vid(n, c1);
      tri[3 * t + 2] = hi_v;
      tri_tag[t++] = tag;
      tri[3 * t] = lo_v;
      tri[3 * t + 1] = vid(n, c2);
      tri[3 * t + 2] = hi_v;
      tri_tag[t++] = tag;
    }
  return t;
}

/* The physical groups: the six sides, "domain", "pml" (with a layer) and "tfsf". */
static dg_status set_groups(dg_mesh *m, int npml, int has_tfsf) {
  static const char *side_names[6] = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};
  DG_CALL(DG_ALLOC(m->phys, 9));
  m->nphys = npml ? 8 : 7;
  for (int s = 0; s < 6; s++) {
    m->phys[s].dim = 2;
    m->phys[s].tag = s + 1;
    snprintf(m->phys[s].name, sizeof m->phys[s].name, "%s", side_names[s]);
  }
  m->phys[6].dim = 3;
  m->phys[6].tag = 1;
  snprintf(m->phys[6].name, sizeof m->phys[6].name, "domain");
  m->phys[7].dim = 3;
  m->phys[7].tag = 2;
  snprintf(m->phys[7].name, sizeof m->phys[7].name, "pml");
  if (has_tfsf) {
    dg_phys *ph = &m->phys[m->nphys++];
    ph->dim = 2;
    ph->tag = DG_MESH_BOX_TFSF_TAG;
    snprintf(ph->name, sizeof ph->name, "tfsf");
  }
  return DG_OK;
}

/* The interior TF/SF box: cells tlo..thi of the inner box (nin cells) as planes tb of the
 * lattice (n cells, npml of them around the inner box); *ntri grows by its triangles. A
 * side on the mesh's own boundary gets no triangles (the boundary closes the surface). */
static dg_status tfsf_box(const int n[3], const int nin[3], int npml, const int tlo[3],
                          const int thi[3], int tb[3][2], int *ntri) {
  for (int d = 0; d < 3; d++) {
    DG_CHECK(0 <= tlo[d] && tlo[d] < thi[d] && thi[d] <= nin[d], DG_ERR_INPUT,
             "box mesh: TF/SF box cells %d..%d in direction %c outside 0..%d or empty",
             tlo[d], thi[d], "xyz"[d], nin[d]);
    tb[d][0] = tlo[d] + npml;
    tb[d][1] = thi[d] + npml;
  }
  for (int d = 0; d < 3; d++)
    for (int side = 0; side < 2; side++) {
      const int plane = tb[d][side];
      if (plane == 0 || plane == n[d]) continue;
      *ntri += 2 * (tb[(d + 1) % 3][1] - tb[(d + 1) % 3][0]) *
               (tb[(d + 2) % 3][1] - tb[(d + 2) % 3][0]);
    }
  return DG_OK;
}

dg_status dg_mesh_box_tfsf(dg_mesh **out, const double lo[3], const double hi[3], int nx, int ny,
                           int nz, int npml, const int tlo[3], const int thi[3]) {
  *out = NULL;
  DG_CHECK(lo && hi, DG_ERR_INPUT, "dg_mesh_box: no bounds given");
  for (int d = 0; d < 3; d++)
    DG_CHECK(isfinite(lo[d]) && isfinite(hi[d]) && hi[d] > lo[d], DG_ERR_INPUT,
             "box mesh: bounds [%g, %g] in direction %c are not an interval of positive length",
             lo[d], hi[d], "xyz"[d]);
  DG_CHECK(nx >= 1 && ny >= 1 && nz >= 1, DG_ERR_INPUT,
           "box mesh: need at least one cell per direction, got %d x %d x %d", nx, ny, nz);
  DG_CHECK(npml >= 0 && npml <= 1000, DG_ERR_INPUT,
           "box mesh: PML cells must be in [0, 1000], got %d", npml);
  const int nin[3] = {nx, ny, nz};
  double h[3];
  for (int d = 0; d < 3; d++) h[d] = (hi[d] - lo[d]) / nin[d];
  nx += 2 * npml;
  ny += 2 * npml;
  nz += 2 * npml;
  int64_t cells = (int64_t)nx * ny * nz;
  int64_t verts = (int64_t)(nx + 1) * (ny + 1) * (nz + 1);
  DG_CHECK(cells <= INT_MAX / 24 && verts <= INT_MAX, DG_ERR_INPUT,
           "box mesh: %d x %d x %d cells is too many", nx, ny, nz);
  const int n[3] = {nx, ny, nz};
  int K = (int)(6 * cells);
  int ntri = 4 * (nx * ny + ny * nz + nx * nz);
  const int has_tfsf = tlo && thi;
  int tb[3][2] = {{0, 0}, {0, 0}, {0, 0}}; /* the TF/SF box's planes in lattice indices */
  if (has_tfsf) DG_CALL(tfsf_box(n, nin, npml, tlo, thi, tb, &ntri));

  dg_status st = DG_OK;
  dg_mesh *m = NULL;
  int *tri = NULL, *tri_tag = NULL;
  DG_CALL_GOTO(fail, dg_mesh_alloc(&m, (int)verts, K));
  DG_CALL_GOTO(fail, DG_ALLOC(tri, 3 * (size_t)ntri));
  DG_CALL_GOTO(fail, DG_ALLOC(tri_tag, ntri));
  set_nodes(m, n, nin, npml, lo, hi, h);
  set_elements(m, n, npml);
  /* Boundary triangles (tags 1..6: xmin, xmax, ...), then the TF/SF box's. */
  int t = 0;
  for (int d = 0; d < 3; d++)
    for (int side = 0; side < 2; side++) {
      const int ra[2] = {0, n[(d + 1) % 3]}, rb[2] = {0, n[(d + 2) % 3]};
      t = add_plane(n, d, side ? n[d] : 0, ra, rb, 2 * d + side + 1, tri, tri_tag, t);
    }
  for (int d = 0; d < 3 && has_tfsf; d++)
    for (int side = 0; side < 2; side++) {
      const int plane = tb[d][side];
      if (plane == 0 || plane == n[d]) continue;
      t = add_plane(n, d, plane, tb[(d + 1) % 3], tb[(d + 2) % 3], DG_MESH_BOX_TFSF_TAG, tri,
                    tri_tag, t);
    }
  DG_CHECK_GOTO(fail, t == ntri, DG_ERR_INTERNAL, "box mesh: %d boundary triangles, expected %d",
                t, ntri);
  DG_CALL_GOTO(fail, set_groups(m, npml, has_tfsf));
  DG_CALL_GOTO(fail, dg_mesh_orient(m));
  DG_CALL_GOTO(fail, dg_mesh_connect(m, ntri, tri, tri_tag));
  dg_free(&tri);
  dg_free(&tri_tag);
  *out = m;
  return DG_OK;
fail:
  dg_free(&tri);
  dg_free(&tri_tag);
  dg_mesh_destroy(&m);
  return st;
}

/* VTU/PVD writer. The point order of VTK's Lagrange tetrahedron (VTK 9,
 * vtkHigherOrderTetra::BarycentricIndex) is, for order o:
 *   4 corners; the o-1 points of each edge 0-1, 1-2, 2-0, 0-3, 1-3, 2-3 (from the first
 *   corner to the second); the interior points of each face, face by face, each face's
 *   being a Lagrange triangle of order o-3 in VTK's triangle order (corners, edges c->c+1,
 *   then its interior, recursively); then the interior points, which are again a
 *   tetrahedron of order o-4 in the same order, recursively.
 * Written as corner weights, the four faces are the triangles (0,1,3), (2,3,1), (0,3,2) and
 * (0,2,1), corners listed in the order the face triangle's own corners 0,1,2 take. (VTK
 * states this as FaceBCoords/FaceMinCoord on its barycentric index (w1,w2,w3,w0); the
 * triangles above are what those tables amount to.) tests/tools/io_vtu_probe.py checks the
 * whole order against vtkLagrangeTetra::ToBarycentricIndex for several N. */
#include "io/vtu.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/files.h"

enum { VTK_TETRA = 10, VTK_LAGRANGE_TETRAHEDRON = 71 };
enum { MAX_TRI_POINTS = (DG_MAX_ORDER + 1) * (DG_MAX_ORDER + 2) / 2 };

static const int tet_edges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
static const int tet_faces[4][3] = {{0, 1, 3}, {2, 3, 1}, {0, 3, 2}, {0, 2, 1}};

/* A lattice triangle of order o in VTK's triangle order, as weights of its 3 corners. */
static int tri_points(int o, int (*u)[3]) {
  int n = 0;
  for (int base = 0; o >= 0; o -= 3, base++) {
    if (o == 0) {
      u[n][0] = u[n][1] = u[n][2] = base;
      return n + 1;
    }
    for (int c = 0; c < 3; c++, n++) {
      u[n][0] = u[n][1] = u[n][2] = base;
      u[n][c] = base + o;
    }
    for (int c = 0; c < 3; c++)
      for (int j = 1; j < o; j++, n++) {
        u[n][0] = u[n][1] = u[n][2] = base;
        u[n][c] = base + o - j;
        u[n][(c + 1) % 3] = base + j;
      }
  }
  return n;
}

static void set4(int *w, int a, int b, int c, int d) {
  w[0] = a;
  w[1] = b;
  w[2] = c;
  w[3] = d;
}

dg_status dg_vtk_tet_points(int N, int *w) {
  DG_CHECK(N >= 1 && N <= DG_MAX_ORDER, DG_ERR_INPUT,
           "VTK Lagrange tetrahedron: order %d is outside 1..%d", N, DG_MAX_ORDER);
  int u[MAX_TRI_POINTS][3];
  int n = 0;
  /* Peel the boundary of the order-o tetrahedron, then recurse into its interior, which
   * is an order o-4 tetrahedron whose corner weights are all one higher. */
  for (int o = N, base = 0; o >= 0; o -= 4, base++) {
    if (o == 0) {
      set4(w + 4 * n++, base, base, base, base);
      break;
    }
    for (int v = 0; v < 4; v++, n++) {
      set4(w + 4 * n, base, base, base, base);
      w[4 * n + v] = base + o;
    }
    for (int e = 0; e < 6; e++)
      for (int j = 1; j < o; j++, n++) {
        set4(w + 4 * n, base, base, base, base);
        w[4 * n + tet_edges[e][0]] = base + o - j;
        w[4 * n + tet_edges[e][1]] = base + j;
      }
    if (o >= 3) {
      const int nf = tri_points(o - 3, u);
      for (int f = 0; f < 4; f++)
        for (int p = 0; p < nf; p++, n++) {
          set4(w + 4 * n, base, base, base, base);
          for (int c = 0; c < 3; c++) w[4 * n + tet_faces[f][c]] = base + 1 + u[p][c];
        }
    }
  }
  DG_CHECK(n == (N + 1) * (N + 2) * (N + 3) / 6, DG_ERR_INTERNAL,
           "VTK tetrahedron order %d: generated %d points", N, n);
  return DG_OK;
}

/* In (a,b,c) = (i+j+k, j+k, k), with (i,j,k) = weights of corners 1,2,3, the lattice
 * simplex is N >= a >= b >= c >= 0, a union of whole Kuhn (Freudenthal) tetrahedra of
 * the unit cubes: keep those whose 4 corners satisfy the inequalities. The map is
 * unimodular, so each kept tet has lattice volume 1/6 and there are exactly N^3. */
dg_status dg_vtk_tet_subdivide(int N, int *tets) {
  static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                  {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  const int Np = (N + 1) * (N + 2) * (N + 3) / 6, M = N + 1;
  int *w = NULL, *index = NULL;
  dg_status st = DG_OK;
  DG_CALL_GOTO(done, DG_ALLOC(w, 4 * (size_t)Np));
  DG_CALL_GOTO(done, DG_ALLOC(index, (size_t)M * M * M));
  DG_CALL_GOTO(done, dg_vtk_tet_points(N, w));
  for (int p = 0; p < Np; p++) index[(w[4 * p + 1] * M + w[4 * p + 2]) * M + w[4 * p + 3]] = p;

  int n = 0;
  for (int a = 0; a < N; a++)
    for (int b = 0; b < N; b++)
      for (int c = 0; c < N; c++)
        for (int q = 0; q < 6; q++) {
          int abc[4][3] = {{a, b, c}}, ijk[4][3], inside = 1;
          for (int v = 1; v < 4; v++) {
            memcpy(abc[v], abc[v - 1], sizeof abc[v]);
            abc[v][perms[q][v - 1]]++;
          }
          for (int v = 0; v < 4; v++) {
            inside &= abc[v][0] <= N && abc[v][0] >= abc[v][1] && abc[v][1] >= abc[v][2];
            ijk[v][0] = abc[v][0] - abc[v][1];
            ijk[v][1] = abc[v][1] - abc[v][2];
            ijk[v][2] = abc[v][2];
          }
          if (!inside) continue;
          int d[3][3];
          for (int v = 0; v < 3; v++)
            for (int x = 0; x < 3; x++) d[v][x] = ijk[v + 1][x] - ijk[0][x];
          const int det = d[0][0] * (d[1][1] * d[2][2] - d[1][2] * d[2][1]) -
                          d[0][1] * (d[1][0] * d[2][2] - d[1][2] * d[2][0]) +
                          d[0][2] * (d[1][0] * d[2][1] - d[1][1] * d[2][0]);
          DG_CHECK_GOTO(done, det == 1 || det == -1, DG_ERR_INTERNAL,
                        "lattice sub-tetrahedron with volume %d/6", det);
          DG_CHECK_GOTO(done, n < N * N * N, DG_ERR_INTERNAL,
                        "order %d lattice: more than N^3 sub-tetrahedra", N);
          for (int v = 0; v < 4; v++)
            tets[4 * n + v] = index[(ijk[v][0] * M + ijk[v][1]) * M + ijk[v][2]];
          if (det < 0) { /* swap two corners to make it positive, as VTK_TETRA wants */
            const int t = tets[4 * n + 1];
            tets[4 * n + 1] = tets[4 * n + 2];
            tets[4 * n + 2] = t;
          }
          n++;
        }
  DG_CHECK_GOTO(done, n == N * N * N, DG_ERR_INTERNAL,
                "order %d lattice split into %d sub-tetrahedra, expected %d", N, n, N * N * N);
done:
  dg_free(&w);
  dg_free(&index);
  return st;
}

/* I (Np x Np): values at the lattice points (VTK order) from nodal values. */
static dg_status lattice_interp(const dg_refel *ref, const int *w, double *I) {
  const int N = ref->N, Np = ref->Np;
  double *r = NULL, *s = NULL, *t = NULL, *col = NULL, *P = NULL;
  dg_status st = DG_OK;
  DG_CALL_GOTO(done, DG_ALLOC(r, Np));
  DG_CALL_GOTO(done, DG_ALLOC(s, Np));
  DG_CALL_GOTO(done, DG_ALLOC(t, Np));
  DG_CALL_GOTO(done, DG_ALLOC(col, Np));
  DG_CALL_GOTO(done, DG_ALLOC(P, (size_t)Np * Np));
  for (int p = 0; p < Np; p++) {
    r[p] = -1 + 2.0 * w[4 * p + 1] / N;
    s[p] = -1 + 2.0 * w[4 * p + 2] / N;
    t[p] = -1 + 2.0 * w[4 * p + 3] / N;
  }
  for (int j = 0; j < Np; j++) {
    dg_basis_tet(N, j, r, s, t, Np, col);
    for (int p = 0; p < Np; p++) P[(size_t)p * Np + j] = col[p];
  }
  dg_matmul(Np, Np, Np, P, ref->Vinv, I);
done:
  dg_free(&r);
  dg_free(&s);
  dg_free(&t);
  dg_free(&col);
  dg_free(&P);
  return st;
}

static int host_is_little_endian(void) {
  const uint16_t one = 1;
  unsigned char b;
  memcpy(&b, &one, 1);
  return b == 1;
}

/* An appended block: its byte count (UInt64), then the data. */
static void block_header(FILE *fp, uint64_t bytes) { fwrite(&bytes, sizeof bytes, 1, fp); }

static dg_status write_failed(const dg_atomic_file *f) {
  return DG_ERROR(DG_ERR_IO, "cannot write %s: %s", f->path, errno ? strerror(errno) : "I/O error");
}

/* The writer's version as a VTK string array: the characters' codes, then 0. */
static void version_array(FILE *fp, const char *version) {
  fprintf(fp, "      <Array type=\"String\" Name=\"dgtd_version\" NumberOfTuples=\"1\" "
              "format=\"ascii\">");
  for (const unsigned char *c = (const unsigned char *)version; *c; ++c) fprintf(fp, "%u ", *c);
  fprintf(fp, "0</Array>\n");
}

dg_status dg_vtu_write_vectors(const char *path, const dg_geom *g, int nvec,
                               const char *const *names, const double *const *vec, int nelem,
                               const int *elems, double time, dg_vtu_mode mode) {
  return dg_vtu_write_vectors_ex(path, g, nvec, names, vec, nelem, elems, time, mode, NULL);
}

/* One file's sizes, buffers and appended-block layout. */
typedef struct {
  const dg_geom *g;
  const dg_vtu_extra *x;
  int nelem_out;      /* elements written */
  const int *elems;   /* their indices (NULL: 0 .. K_owned - 1) */
  dg_vtu_mode mode;
  int N, Np, sub, per_cell; /* sub: cells per element; per_cell: points per cell */
  uint64_t npts, ncells;
  int nvec, P, nb;    /* P: the points' block, after the vectors and the cell arrays */
  uint64_t bytes[32], off[32];
  int *w, *tets;      /* lattice weights, subdivided cells */
  double *I, *buf;    /* nodes -> lattice interpolation, one element's values */
  int64_t *ibuf;
  int32_t *cbuf;
  float *fbuf;
  unsigned char *tbuf;
} vtu_job;

static int job_elem(const vtu_job *j, int e) { return j->elems ? j->elems[e] : e; }

static void job_free(vtu_job *j) {
  DG_FREE_ALL(&j->w, &j->tets, &j->I, &j->buf, &j->ibuf, &j->cbuf, &j->fbuf, &j->tbuf);
}

static dg_status check_args(const dg_geom *g, int nvec, const char *const *names,
                            const double *const *vec, dg_vtu_mode mode, const dg_vtu_extra *x) {
  DG_CHECK(g && vec && names && nvec >= 1 && nvec <= 16, DG_ERR_INPUT,
           "dg_vtu_write: no geometry or field given (or %d fields, 1 to 16 allowed)", nvec);
  DG_CHECK(x->ncell >= 0 && x->ncell <= DG_VTU_MAX_CELL_ARRAYS, DG_ERR_INPUT,
           "dg_vtu_write: %d cell arrays, 0 to %d allowed", x->ncell, DG_VTU_MAX_CELL_ARRAYS);
  for (int a = 0; a < x->ncell; ++a)
    DG_CHECK(x->cell_names[a] && x->cell_values[a], DG_ERR_INPUT,
             "dg_vtu_write: cell array %d has no name or values", a);
  DG_CHECK(mode == DG_VTU_LAGRANGE || mode == DG_VTU_SUBDIVIDED, DG_ERR_INPUT,
           "dg_vtu_write: unknown output mode %d", (int)mode);
  return DG_OK;
}

/* Sizes, buffers and the appended blocks, in file order; each is an 8-byte count then the
 * data: the vectors, the cell arrays, points, connectivity, offsets, types. Only this
 * process's elements are written (ghost copies on an MPI rank are not). */
static dg_status job_start(vtu_job *j) {
  const dg_geom *g = j->g;
  j->N = g->N, j->Np = g->Np;
  if (!j->elems) j->nelem_out = g->mesh->K_owned;
  j->sub = j->mode == DG_VTU_SUBDIVIDED ? j->N * j->N * j->N : 1;
  j->per_cell = j->mode == DG_VTU_SUBDIVIDED ? 4 : j->Np;
  j->npts = (uint64_t)j->nelem_out * j->Np, j->ncells = (uint64_t)j->nelem_out * j->sub;
  const int Np = j->Np, sub = j->sub;
  DG_CALL(DG_ALLOC(j->w, 4 * (size_t)Np));
  DG_CALL(DG_ALLOC(j->I, (size_t)Np * Np));
  DG_CALL(DG_ALLOC(j->buf, 3 * (size_t)Np));
  DG_CALL(DG_ALLOC(j->ibuf, (size_t)sub * j->per_cell));
  DG_CALL(DG_ALLOC(j->tbuf, sub));
  DG_CALL(DG_ALLOC(j->cbuf, sub));
  DG_CALL(DG_ALLOC(j->fbuf, 3 * (size_t)Np));
  DG_CALL(dg_vtk_tet_points(j->N, j->w));
  DG_CALL(lattice_interp(g->ref, j->w, j->I));
  if (j->mode == DG_VTU_SUBDIVIDED) {
    DG_CALL(DG_ALLOC(j->tets, 4 * (size_t)sub));
    DG_CALL(dg_vtk_tet_subdivide(j->N, j->tets));
  }
  const int nc = j->x->ncell, nvec = j->nvec;
  const size_t real = j->x->float32 ? sizeof(float) : sizeof(double);
  j->P = nvec + nc;
  j->nb = j->P + 4;
  for (int b = 0; b < nvec; b++) j->bytes[b] = 3 * j->npts * real;
  for (int a = 0; a < nc; a++) j->bytes[nvec + a] = j->ncells * sizeof(int32_t);
  j->bytes[j->P] = 3 * j->npts * sizeof(double);
  j->bytes[j->P + 1] = j->ncells * j->per_cell * sizeof(int64_t);
  j->bytes[j->P + 2] = j->ncells * sizeof(int64_t);
  j->bytes[j->P + 3] = j->ncells;
  j->off[0] = 0;
  for (int b = 1; b < j->nb; b++) j->off[b] = j->off[b - 1] + sizeof(uint64_t) + j->bytes[b - 1];
  return DG_OK;
}

/* The XML part: field data, the arrays and where their blocks start. */
static void write_header(FILE *fp, const vtu_job *j, const char *const *names, double time) {
  const dg_vtu_extra *x = j->x;
  const int nc = x->ncell, P = j->P;
  fprintf(fp,
          "<?xml version=\"1.0\"?>\n"
          "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"%s\" "
          "header_type=\"UInt64\">\n"
          "  <UnstructuredGrid>\n"
          "    <FieldData>\n"
          "      <DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" "
          "format=\"ascii\">%.17g</DataArray>\n",
          host_is_little_endian() ? "LittleEndian" : "BigEndian", time);
  if (x->version) version_array(fp, x->version);
  fprintf(fp,
          "    </FieldData>\n"
          "    <Piece NumberOfPoints=\"%llu\" NumberOfCells=\"%llu\">\n"
          "      <PointData Vectors=\"%s\">\n",
          (unsigned long long)j->npts, (unsigned long long)j->ncells, names[0]);
  for (int b = 0; b < j->nvec; b++)
    fprintf(fp,
            "        <DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"3\" "
            "format=\"appended\" offset=\"%llu\"/>\n", x->float32 ? "Float32" : "Float64",
            names[b], (unsigned long long)j->off[b]);
  fprintf(fp, "      </PointData>\n");
  if (nc) {
    fprintf(fp, "      <CellData Scalars=\"%s\">\n", x->cell_names[0]);
    for (int a = 0; a < nc; a++)
      fprintf(fp,
              "        <DataArray type=\"Int32\" Name=\"%s\" format=\"appended\" "
              "offset=\"%llu\"/>\n", x->cell_names[a], (unsigned long long)j->off[j->nvec + a]);
    fprintf(fp, "      </CellData>\n");
  }
  fprintf(fp,
          "      <Points>\n"
          "        <DataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\" "
          "format=\"appended\" offset=\"%llu\"/>\n"
          "      </Points>\n"
          "      <Cells>\n"
          "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"appended\" "
          "offset=\"%llu\"/>\n"
          "        <DataArray type=\"Int64\" Name=\"offsets\" format=\"appended\" "
          "offset=\"%llu\"/>\n"
          "        <DataArray type=\"UInt8\" Name=\"types\" format=\"appended\" "
          "offset=\"%llu\"/>\n"
          "      </Cells>\n"
          "    </Piece>\n"
          "  </UnstructuredGrid>\n"
          "  <AppendedData encoding=\"raw\">\n"
          "   _",
          (unsigned long long)j->off[P], (unsigned long long)j->off[P + 1],
          (unsigned long long)j->off[P + 2], (unsigned long long)j->off[P + 3]);
}

/* The vectors at the lattice points (per element, I times the nodal values), then the cell
 * arrays (each element's value on each of its cells). */
static void write_values(FILE *fp, vtu_job *j, const double *const *vec) {
  const int Np = j->Np;
  const size_t KNp = (size_t)j->g->K * Np; /* fields are strided by all K elements */
  for (int field = 0; field < j->nvec; field++) {
    block_header(fp, j->bytes[field]);
    for (int e = 0; e < j->nelem_out; e++) {
      const int k = job_elem(j, e);
      for (int p = 0; p < Np; p++)
        for (int c = 0; c < 3; c++) {
          const double *u = vec[field] + (size_t)c * KNp + (size_t)k * Np;
          const double *row = j->I + (size_t)p * Np;
          double v = 0;
          for (int n = 0; n < Np; n++) v += row[n] * u[n];
          j->buf[3 * p + c] = v;
        }
      if (j->x->float32) {
        for (int i = 0; i < 3 * Np; i++) j->fbuf[i] = (float)j->buf[i];
        fwrite(j->fbuf, sizeof *j->fbuf, 3 * (size_t)Np, fp);
      } else {
        fwrite(j->buf, sizeof *j->buf, 3 * (size_t)Np, fp);
      }
    }
    if (ferror(fp)) return; /* stop early on a full disk */
  }
  for (int a = 0; a < j->x->ncell; a++) {
    block_header(fp, j->bytes[j->nvec + a]);
    for (int e = 0; e < j->nelem_out; e++) {
      const int32_t v = j->x->cell_values[a][job_elem(j, e)];
      for (int c = 0; c < j->sub; c++) j->cbuf[c] = v;
      fwrite(j->cbuf, sizeof *j->cbuf, (size_t)j->sub, fp);
    }
  }
}

/* Points (the affine image of the lattice; weight v belongs to the element's vertex v),
 * connectivity, offsets and cell types. */
static void write_mesh(FILE *fp, vtu_job *j) {
  const dg_mesh *m = j->g->mesh;
  const int Np = j->Np, P = j->P, sub = j->sub, per_cell = j->per_cell;
  block_header(fp, j->bytes[P]);
  for (int e = 0; e < j->nelem_out; e++) {
    const int *v = m->EToV + 4 * (size_t)job_elem(j, e);
    for (int p = 0; p < Np; p++) {
      double x = 0, y = 0, z = 0;
      for (int c = 0; c < 4; c++) {
        const double l = (double)j->w[4 * p + c] / j->N;
        x += l * m->VX[v[c]];
        y += l * m->VY[v[c]];
        z += l * m->VZ[v[c]];
      }
      j->buf[3 * p] = x;
      j->buf[3 * p + 1] = y;
      j->buf[3 * p + 2] = z;
    }
    fwrite(j->buf, sizeof *j->buf, 3 * (size_t)Np, fp);
  }
  if (ferror(fp)) return;
  block_header(fp, j->bytes[P + 1]);
  for (int k = 0; k < j->nelem_out; k++) {
    const int64_t first = (int64_t)k * Np;
    for (int c = 0; c < sub * per_cell; c++)
      j->ibuf[c] = first + (j->mode == DG_VTU_SUBDIVIDED ? j->tets[c] : c);
    fwrite(j->ibuf, sizeof *j->ibuf, (size_t)sub * per_cell, fp);
  }
  block_header(fp, j->bytes[P + 2]);
  for (uint64_t c = 0; c < j->ncells; c++) {
    const int64_t end = (int64_t)((c + 1) * per_cell);
    fwrite(&end, sizeof end, 1, fp);
  }
  block_header(fp, j->bytes[P + 3]);
  memset(j->tbuf, j->mode == DG_VTU_SUBDIVIDED ? VTK_TETRA : VTK_LAGRANGE_TETRAHEDRON, sub);
  for (int k = 0; k < j->nelem_out; k++) fwrite(j->tbuf, 1, sub, fp);
}

dg_status dg_vtu_write_vectors_ex(const char *path, const dg_geom *g, int nvec,
                                  const char *const *names, const double *const *vec, int nelem,
                                  const int *elems, double time, dg_vtu_mode mode,
                                  const dg_vtu_extra *x) {
  static const dg_vtu_extra none;
  if (!x) x = &none;
  DG_CALL(check_args(g, nvec, names, vec, mode, x));
  vtu_job j = {.g = g, .x = x, .nelem_out = nelem, .elems = elems, .mode = mode, .nvec = nvec};
  dg_atomic_file f = {0};
  dg_status st = DG_OK;
  DG_CALL_GOTO(fail, job_start(&j));
  DG_CALL_GOTO(fail, dg_atomic_open(&f, path));
  write_header(f.fp, &j, names, time);
  write_values(f.fp, &j, vec);
  if (!ferror(f.fp)) write_mesh(f.fp, &j);
  if (ferror(f.fp)) {
    st = write_failed(&f);
    goto fail;
  }
  fprintf(f.fp, "\n  </AppendedData>\n</VTKFile>\n");
  DG_CALL_GOTO(fail, dg_atomic_commit(&f));
  goto done;
fail:
  dg_atomic_abort(&f);
done:
  job_free(&j);
  return st;
}

dg_status dg_vtu_write(const char *path, const dg_geom *g, const double *q, double time,
                       dg_vtu_mode mode) {
  return dg_vtu_write_ex(path, g, q, time, mode, NULL);
}

dg_status dg_vtu_write_ex(const char *path, const dg_geom *g, const double *q, double time,
                          dg_vtu_mode mode, const dg_vtu_extra *x) {
  DG_CHECK(g && q, DG_ERR_INPUT, "dg_vtu_write: no geometry or field given");
  const size_t KNp = (size_t)g->K * g->Np;
  const char *const names[2] = {"E", "H"};
  const double *const vec[2] = {q, q + 3 * KNp};
  DG_CALL(dg_vtu_write_vectors_ex(path, g, 2, names, vec, 0, NULL, time, mode, x));
  return DG_OK;
}

/* A file name as an XML attribute value. */
static void xml_attr(FILE *fp, const char *s) {
  for (; *s; s++) switch (*s) {
    case '&': fputs("&amp;", fp); break;
    case '<': fputs("&lt;", fp); break;
    case '>': fputs("&gt;", fp); break;
    case '"': fputs("&quot;", fp); break;
    default: fputc(*s, fp);
    }
}

dg_status dg_pvd_write(const char *path, int n, const double *times,
                       const char *const *files) {
  DG_CHECK(n >= 0 && (n == 0 || (times && files)), DG_ERR_INPUT,
           "dg_pvd_write: %d datasets but no times or file names", n);
  for (int i = 0; i < n; i++)
    DG_CHECK(files[i] && *files[i], DG_ERR_INPUT, "dg_pvd_write: dataset %d has no file name",
             i);
  dg_atomic_file f = {0};
  DG_CALL(dg_atomic_open(&f, path));
  fprintf(f.fp, "<?xml version=\"1.0\"?>\n"
                "<VTKFile type=\"Collection\" version=\"0.1\">\n"
                "  <Collection>\n");
  for (int i = 0; i < n; i++) {
    fprintf(f.fp, "    <DataSet timestep=\"%.17g\" group=\"\" part=\"0\" file=\"", times[i]);
    xml_attr(f.fp, files[i]);
    fprintf(f.fp, "\"/>\n");
  }
  fprintf(f.fp, "  </Collection>\n</VTKFile>\n");
  DG_CALL(dg_atomic_commit(&f));
  return DG_OK;
}

dg_status dg_pvtu_write(const char *path, int n, const char *const *pieces) {
  const char *const names[2] = {"E", "H"};
  DG_CALL(dg_pvtu_write_vectors(path, n, pieces, 2, names));
  return DG_OK;
}

dg_status dg_pvtu_write_vectors(const char *path, int n, const char *const *pieces, int nvec,
                                const char *const *names) {
  return dg_pvtu_write_ex(path, n, pieces, nvec, names, NULL);
}

dg_status dg_pvtu_write_ex(const char *path, int n, const char *const *pieces, int nvec,
                           const char *const *names, const dg_vtu_extra *x) {
  static const dg_vtu_extra none;
  if (!x) x = &none;
  DG_CHECK(n > 0 && pieces, DG_ERR_INPUT, "dg_pvtu_write: no pieces given");
  DG_CHECK(nvec >= 1 && names, DG_ERR_INPUT, "dg_pvtu_write: no arrays given");
  dg_atomic_file f = {0};
  DG_CALL(dg_atomic_open(&f, path));
  /* The same arrays, types and byte order as dg_vtu_write's pieces. */
  fprintf(f.fp,
          "<?xml version=\"1.0\"?>\n"
          "<VTKFile type=\"PUnstructuredGrid\" version=\"1.0\" byte_order=\"%s\" "
          "header_type=\"UInt64\">\n"
          "  <PUnstructuredGrid GhostLevel=\"0\">\n"
          "    <PPointData Vectors=\"%s\">\n",
          host_is_little_endian() ? "LittleEndian" : "BigEndian", names[0]);
  for (int i = 0; i < nvec; i++)
    fprintf(f.fp, "      <PDataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"3\"/>\n",
            x->float32 ? "Float32" : "Float64", names[i]);
  fprintf(f.fp, "    </PPointData>\n");
  if (x->ncell > 0) {
    fprintf(f.fp, "    <PCellData Scalars=\"%s\">\n", x->cell_names[0]);
    for (int a = 0; a < x->ncell && a < DG_VTU_MAX_CELL_ARRAYS; a++)
      fprintf(f.fp, "      <PDataArray type=\"Int32\" Name=\"%s\"/>\n", x->cell_names[a]);
    fprintf(f.fp, "    </PCellData>\n");
  }
  fprintf(f.fp,
          "    <PPoints>\n"
          "      <PDataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\"/>\n"
          "    </PPoints>\n");
  for (int i = 0; i < n; i++) {
    fprintf(f.fp, "    <Piece Source=\"");
    xml_attr(f.fp, pieces[i]);
    fprintf(f.fp, "\"/>\n");
  }
  fprintf(f.fp, "  </PUnstructuredGrid>\n</VTKFile>\n");
  DG_CALL(dg_atomic_commit(&f));
  return DG_OK;
}

/* VTK XML UnstructuredGrid (.vtu) output of the DG fields, and the .pvd collection that
 * strings the snapshots of a run together for ParaView.
 *
 * Every element gets its own points (DG fields jump between elements), placed on the
 * equispaced order-N lattice of the element; E and H are interpolated there from the
 * Warp & Blend nodes with the element's polynomial (basis at the lattice point times
 * Vinv), so nothing is lost: the lattice values determine the same polynomial again.
 *   DG_VTU_LAGRANGE   one VTK_LAGRANGE_TETRAHEDRON (type 71) of order N per element; ParaView
 *                     and VTK interpolate with the full degree-N polynomial.
 *   DG_VTU_SUBDIVIDED N^3 linear VTK_TETRA (type 10) per element, tiling the same lattice;
 *                     for readers without higher-order cells (and for clean slices).
 * Point data: E and H as 3-component Float64 vectors (Float32 on request). Field data:
 * TimeValue, and on request the writer's version string. Cell data on request: integer
 * arrays given per element (a region tag, a material index), repeated over an element's
 * sub-cells. The file is appended raw binary (UInt64 block headers, host byte order declared
 * in the header) and is written through atomic.h. */
#ifndef DG_IO_VTU_H
#define DG_IO_VTU_H

#include "core/status.h"
#include "dg/geom.h"

typedef enum { DG_VTU_LAGRANGE = 0, DG_VTU_SUBDIVIDED = 1 } dg_vtu_mode;

/* What a file holds beyond the point vectors and TimeValue; all zero: nothing more. */
enum { DG_VTU_MAX_CELL_ARRAYS = 4 };
typedef struct {
  int float32;           /* point vectors as Float32 instead of Float64 (points stay Float64) */
  int ncell;             /* cell arrays, 0..DG_VTU_MAX_CELL_ARRAYS */
  const char *cell_names[DG_VTU_MAX_CELL_ARRAYS];
  const int *cell_values[DG_VTU_MAX_CELL_ARRAYS]; /* one value per element of the geometry */
  const char *version;   /* non-NULL: a FieldData string array "dgtd_version" */
} dg_vtu_extra;

/* Write q (6*K*Np doubles, the layout of dg/maxwell.h) on geometry g at time `time`. */
dg_status dg_vtu_write(const char *path, const dg_geom *g, const double *q, double time,
                       dg_vtu_mode mode) DG_NODISCARD;

/* The same with any 3-vector point fields: vec[i] is field i's x component (K*Np values in
 * the layout of dg/maxwell.h), then y and z at strides of K*Np, written as Float64 array
 * names[i] (1 <= nvec <= 16; the first is the active vectors). elems non-NULL: only those
 * nelem elements (else every owned one). */
dg_status dg_vtu_write_vectors(const char *path, const dg_geom *g, int nvec,
                               const char *const *names, const double *const *vec, int nelem,
                               const int *elems, double time, dg_vtu_mode mode) DG_NODISCARD;
/* Both with the extra content x (NULL: none). */
dg_status dg_vtu_write_ex(const char *path, const dg_geom *g, const double *q, double time,
                          dg_vtu_mode mode, const dg_vtu_extra *x) DG_NODISCARD;
dg_status dg_vtu_write_vectors_ex(const char *path, const dg_geom *g, int nvec,
                                  const char *const *names, const double *const *vec, int nelem,
                                  const int *elems, double time, dg_vtu_mode mode,
                                  const dg_vtu_extra *x) DG_NODISCARD;

/* ParaView collection: n datasets, files[i] at times[i]. File names are written as given;
 * ParaView resolves relative names against the .pvd's own directory. */
dg_status dg_pvd_write(const char *path, int n, const double *times,
                       const char *const *files) DG_NODISCARD;

/* Parallel collection of one snapshot: n pieces written by dg_vtu_write (one per MPI rank),
 * file names as given (relative to the .pvtu's directory). */
dg_status dg_pvtu_write(const char *path, int n, const char *const *pieces) DG_NODISCARD;
/* The same for pieces written by dg_vtu_write_vectors with these nvec array names. */
dg_status dg_pvtu_write_vectors(const char *path, int n, const char *const *pieces, int nvec,
                                const char *const *names) DG_NODISCARD;
/* The same for pieces written with the extra content x (its types and arrays; NULL: none). */
dg_status dg_pvtu_write_ex(const char *path, int n, const char *const *pieces, int nvec,
                           const char *const *names, const dg_vtu_extra *x) DG_NODISCARD;

/* Building blocks, exposed for tests. */

/* VTK's point order of a Lagrange tetrahedron of order 1 <= N <= DG_MAX_ORDER: for point
 * p (0 <= p < Np), w[4p+v] is the integer weight of corner v (sum N), i.e. the point is
 * sum_v (w[4p+v]/N) corner_v. VTK corner v is our reference vertex v. In VTK's own
 * barycentric index (vtkHigherOrderTetra::ToBarycentricIndex) the same point is
 * (w1, w2, w3, w0). */
dg_status dg_vtk_tet_points(int N, int *w) DG_NODISCARD;

/* The N^3 sub-tetrahedra tiling the order-N lattice, as 4 point indices each (into the
 * order of dg_vtk_tet_points), positively oriented. tets holds 4*N^3 ints. */
dg_status dg_vtk_tet_subdivide(int N, int *tets) DG_NODISCARD;

#endif

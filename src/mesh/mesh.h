/* Unstructured tetrahedral meshes: vertices, elements, physical groups, connectivity.
 * No DG and no OpenCL here. Readers: Gmsh .msh 2.2 (ASCII) and 4.1 (ASCII, binary), Gambit
 * neutral .neu, and a built-in structured box mesher. Elements are linear tetrahedra or
 * tetrahedra of geometric order 2 to 4 (Gmsh's 10-, 20- and 35-node ones), whose nodes
 * beyond the vertices may bend their edges and faces (curved below).
 *
 * Local faces follow the reference element (refel.h): face 0 = (v0,v1,v2),
 * face 1 = (v0,v1,v3), face 2 = (v1,v2,v3), face 3 = (v0,v2,v3). Elements are stored with
 * positive orientation (det[v1-v0, v2-v0, v3-v0] > 0); readers fix inverted ones. */
#ifndef DG_MESH_MESH_H
#define DG_MESH_MESH_H

#include "core/status.h"

/* Periodic pairs (dg_mesh_make_periodic): up to one per direction. */
#define DG_MESH_MAX_PERIODS 3

typedef struct {
  int dim;      /* 2 = surface group, 3 = volume group */
  int tag;      /* physical tag number */
  char name[64];/* physical name ("" if the file gives none) */
} dg_phys;

typedef struct {
  int Nv;          /* number of vertices */
  double *VX, *VY, *VZ;
  int K;           /* number of tetrahedra */
  int K_owned;     /* elements 0..K_owned-1 are this process's; the rest (on an MPI rank)
                      are ghost copies of neighbours' elements across shared faces, whose
                      face traces arrive by exchange (part/dist.h). K_owned = K otherwise. */
  int *EToV;       /* K x 4 vertex indices (0-based) */
  int *elem_tag;   /* K: physical volume tag (0 when the file has none) */
  /* Connectivity, filled by dg_mesh_connect(): */
  int *EToE;       /* K x 4: neighbour element, or the element itself on a boundary */
  int *EToF;       /* K x 4: neighbour's local face, or the face itself on a boundary */
  int *face_tag;   /* K x 4: -1 on interior faces; on boundary faces the physical tag of
                      the boundary triangle that covers it (0 when untagged) */
  int *iface_tag;  /* K x 4, filled by dg_mesh_connect(): on interior faces the physical tag
                      of a surface triangle lying on the face (an interior surface such as a
                      total-field/scattered-field surface; both sides' entries), else 0; 0 on
                      boundary faces. NULL on a rank's part of a distributed mesh. */
  int nphys;
  dg_phys *phys;   /* physical groups named in the file (may be empty) */
  int n_fixed;     /* number of inverted elements that were reoriented */
  int n_unmatched; /* faces inside the domain with no conforming neighbour (hanging nodes,
                      cracks), kept as boundary faces: only with DG_MESH_ALLOW_UNMATCHED */
  /* Curved elements; n_curved = 0, geom_order = 0 and both arrays NULL when every element is
   * straight-sided. A mesh read with tetrahedra of order k = 2..4 (geom_order; one order per
   * mesh, linear elements allowed beside them) keeps each element's nodes beyond its four
   * vertices in ho_xyz, 3 coordinates each (K x dg_mesh_ho_nodes(k) x 3), in Gmsh's order
   * (dg_mesh_gmsh_tet_lattice: at k = 2 the six mid-edge nodes, edge e joining local vertices
   * dg_edge_vertices[e]). An element is curved (curved[k] = 1) when one of them lies farther
   * than DG_MESH_CURVED_TOL times its longest edge from where the straight element's affine
   * map puts it; otherwise it is affine and only its vertices count (its rows hold those
   * affine points, to that tolerance; a linear element's hold them exactly). */
  int n_curved;
  int geom_order;
  unsigned char *curved;
  double *ho_xyz;
  /* Periodic pairs (dg_mesh_make_periodic); n_periods = 0 and face_period NULL without. A
   * periodic face is an interior face whose neighbour lies one translation away:
   * face_period[4k+f] = p != 0 says the neighbour's face is this one moved by
   * sign(p) period[|p| - 1]; 0 on every other face. */
  int n_periods;
  double period[DG_MESH_MAX_PERIODS][3];
  signed char *face_period;
} dg_mesh;

/* Reader flags. By default a non-conforming mesh (faces that lie on each other without
 * sharing their vertices: hanging nodes, a crack) is an error naming the elements and
 * faces; with DG_MESH_ALLOW_UNMATCHED such faces are kept as boundary faces (an intentional
 * interface) and counted in n_unmatched. */
enum { DG_MESH_ALLOW_UNMATCHED = 1 };

extern const int dg_face_vertices[4][3];
/* Edge e of an element joins local vertices dg_edge_vertices[e]: (0,1) (1,2) (0,2) (0,3)
 * (2,3) (1,3), the order of the mid-edge nodes 4..9 of Gmsh's 10-node tetrahedron. */
extern const int dg_edge_vertices[6][2];
/* Relative distance from its affine position beyond which a high-order node bends its
 * element. */
#define DG_MESH_CURVED_TOL 1e-8
/* The highest geometric order read (Gmsh's 35-node tetrahedron), and its node count. */
#define DG_MESH_MAX_GEOM_ORDER 4
#define DG_MESH_LATTICE_MAX 35
/* Nodes of the order-k tetrahedron beyond its vertices: (k+1)(k+2)(k+3)/6 - 4 (6, 16, 31 for
 * k = 2, 3, 4); 0 for k < 2. */
int dg_mesh_ho_nodes(int k);
/* The nodes of Gmsh's order-k tetrahedron (k = 1..DG_MESH_MAX_GEOM_ORDER) in Gmsh's order, as
 * integer barycentric coordinates idx[i][a] summing to k (node i at l_a = idx[i][a] / k, l_a
 * the weight of vertex a): the vertices; then k - 1 nodes on each edge (0,1) (1,2) (2,0)
 * (3,0) (3,2) (3,1), from the first vertex to the second; then each face (0,2,1) (0,1,3)
 * (0,3,2) (3,1,2)'s interior nodes, ordered as the order k - 3 triangle whose vertices lie
 * next to the face's in that order (recursively); then the interior nodes, ordered as the
 * order k - 4 tetrahedron (Gmsh reference manual, "Node ordering"). idx has room for
 * (k+1)(k+2)(k+3)/6 rows; returns that count (0 for k out of range). */
int dg_mesh_gmsh_tet_lattice(int k, int (*idx)[4]);

/* Read a mesh file by extension (.msh or .neu), fix orientation and connect. */
dg_status dg_mesh_read(dg_mesh **out, const char *path) DG_NODISCARD;
dg_status dg_mesh_read_msh(dg_mesh **out, const char *path) DG_NODISCARD;
dg_status dg_mesh_read_neu(dg_mesh **out, const char *path) DG_NODISCARD;
/* The same with reader flags (DG_MESH_ALLOW_UNMATCHED). */
dg_status dg_mesh_read_flags(dg_mesh **out, const char *path, int flags) DG_NODISCARD;
dg_status dg_mesh_read_msh_flags(dg_mesh **out, const char *path, int flags) DG_NODISCARD;
dg_status dg_mesh_read_neu_flags(dg_mesh **out, const char *path, int flags) DG_NODISCARD;
/* Box [x0,x1]x[y0,y1]x[z0,z1], nx*ny*nz hexahedra each split into 6 tetrahedra
 * conformingly. Boundary face tags: 1 x=x0, 2 x=x1, 3 y=y0, 4 y=y1, 5 z=z0, 6 z=z1; one
 * volume tag 1. Connected on return. */
dg_status dg_mesh_box(dg_mesh **out, const double lo[3], const double hi[3], int nx, int ny,
                      int nz) DG_NODISCARD;
/* The same box [lo, hi] surrounded by npml more cells of the same size on every side (the
 * mesh then spans [lo - npml h, hi + npml h]): the inner cells carry volume tag 1 "domain",
 * the layer's tag 2 "pml"; boundary tags as above, on the outer box. npml = 0 is
 * dg_mesh_box. */
dg_status dg_mesh_box_pml(dg_mesh **out, const double lo[3], const double hi[3], int nx, int ny,
                          int nz, int npml) DG_NODISCARD;
/* The same with an interior total-field/scattered-field surface (tlo, thi both non-NULL):
 * the faces of the box of inner cells tlo[d]..thi[d] (0 <= tlo < thi <= cells) form the
 * interior surface "tfsf" (tag DG_MESH_BOX_TFSF_TAG, in iface_tag); a side of that box on
 * the mesh's boundary gets no triangles. NULL, NULL is dg_mesh_box_pml. */
enum { DG_MESH_BOX_TFSF_TAG = 7 };
dg_status dg_mesh_box_tfsf(dg_mesh **out, const double lo[3], const double hi[3], int nx, int ny,
                           int nz, int npml, const int tlo[3], const int thi[3]) DG_NODISCARD;
void dg_mesh_destroy(dg_mesh **m);

/* Internal steps, exposed for readers and tests. */
/* Allocate an empty mesh with Nv vertices and K elements (arrays zeroed). */
dg_status dg_mesh_alloc(dg_mesh **out, int Nv, int K) DG_NODISCARD;
/* Reorient inverted elements (counted in n_fixed); reject degenerate ones (volume tiny
 * relative to the element's size), naming the element. */
dg_status dg_mesh_orient(dg_mesh *m) DG_NODISCARD;
/* Face matching in O(K log K) by sorting sorted vertex triples. Boundary triangles
 * (ntri x 3 vertex indices, with tags) give face_tag; a face shared by more than two
 * elements is an error, and so are faces that lie on each other without sharing vertices
 * (a non-conforming interface). */
dg_status dg_mesh_connect(dg_mesh *m, int ntri, const int *tri, const int *tri_tag) DG_NODISCARD;
/* Make the boundary faces of surfaces tag_a and tag_b periodic: every face of tag_a is
 * paired with the face of tag_b whose vertices are its own moved by t (within 1e-6 of the
 * face's longest edge; t NULL: the difference of the two surfaces' centroids), and the pair
 * becomes an interior face (EToE, EToF; face_tag -1; face_period). DG_ERR_INPUT, naming the
 * face, its centroid and the nearest candidate, when a face has no partner or the surfaces
 * differ in face count; when a tag has no boundary face, or the two tags are the same; when
 * the translation is zero or the mesh has DG_MESH_MAX_PERIODS
 * pairs. On a mesh with ghosts (an MPI rank's part) DG_ERR_UNSUPPORTED. *t_used (may be
 * NULL) gets the translation. */
dg_status dg_mesh_make_periodic(dg_mesh *m, int tag_a, int tag_b, const double *t,
                                double t_used[3]) DG_NODISCARD;

/* Physical group lookup by name (dim 2 or 3); returns the tag or -1. */
int dg_mesh_phys_tag(const dg_mesh *m, int dim, const char *name);
/* Signed volume of element k. */
double dg_mesh_elem_volume(const dg_mesh *m, int k);
/* The longest of element k's six (straight) edges: the length tolerances scale with it (a
 * NaN coordinate gives NaN). */
double dg_mesh_longest_edge(const dg_mesh *m, int k);
/* The element containing point x, or -1 if none, and x's reference coordinates rst in it
 * (through a curved element's own map: dg_mesh_elem_map inverted by Newton's method).
 * A point on a shared face or vertex (barycentric coordinates down to -DG_MESH_LOCATE_TOL)
 * goes to the element it is deepest inside; rounding is clamped back into the element.
 * A linear scan: for placing a few probes and sources. */
#define DG_MESH_LOCATE_TOL 1e-9
int dg_mesh_locate(const dg_mesh *m, const double x[3], double rst[3]);
/* The two sides of a closed interior surface (the faces whose iface_tag is surface_tag):
 * the elements are split into the regions connected without crossing the surface; a region
 * holding an element with seed[k] != 0 is "outside" (side[k] = -1), any other "inside"
 * (side[k] = +1). DG_ERR_INPUT when no face carries the tag, when no region is inside or
 * none is outside, or when the surface does not separate the two elements of one of its
 * faces (not closed), naming the face. */
dg_status dg_mesh_surface_sides(const dg_mesh *m, int surface_tag, const unsigned char *seed,
                                signed char *side) DG_NODISCARD;
/* Bounding box. */
void dg_mesh_bbox(const dg_mesh *m, double lo[3], double hi[3]);
/* Element k's map from the reference tetrahedron (refel.h: vertices (-1,-1,-1), (1,-1,-1),
 * (-1,1,-1), (-1,-1,1)) to physical space, at reference point rst: x, and when dxdr is not
 * NULL the derivatives dxdr[d][j] = d x_d / d r_j (r_0 = r, r_1 = s, r_2 = t). Affine on a
 * straight-sided element; on a curved one the map of order geom_order through its vertices
 * and high-order nodes: the Lagrange basis of the equispaced nodes of the order-k
 * tetrahedron, in barycentric coordinates l (at k = 2: l_a (2 l_a - 1) at vertex a,
 * 4 l_a l_b on edge (a,b)). */
void dg_mesh_elem_map(const dg_mesh *m, int k, const double rst[3], double x[3],
                      double dxdr[3][3]);
/* Give dst (K elements, allocated) the curved geometry of src's elements: dst's element k is
 * src's element l2g[k]. Nothing when src has no curved element. */
dg_status dg_mesh_copy_curved(dg_mesh *dst, const dg_mesh *src, const int *l2g) DG_NODISCARD;
/* Set ho_xyz (K x dg_mesh_ho_nodes(order) x 3, Gmsh's order, owned by m from now on) and
 * geom_order, and decide curved[] and n_curved from them (DG_MESH_CURVED_TOL); with no curved
 * element ho_xyz is freed and the mesh is straight-sided (geom_order 0). ho_xyz NULL makes
 * it straight-sided whatever order says. */
dg_status dg_mesh_set_ho_nodes(dg_mesh *m, int order, double *ho_xyz) DG_NODISCARD;
/* On a connected mesh of geometric order 3 or 4, give each curved element's map the smooth
 * form the vertices and edge nodes call for, keeping the surfaces the mesh draws. Gmsh places
 * the nodes inside faces and elements by a blend of the edges that is not exact for a
 * quadratic bend, and the nodes inside a face on a curved surface on the surface but along
 * it where that blend says: the map carries wiggles of O(h^2) inside the elements and the
 * surface between the nodes is only O(h^4) close (docs/notes/geometry-order-2026-11-27.md).
 * The map taken apart as its affine part, plus each edge's bend extended at the lowest
 * degree (l_a l_b p(l_b - l_a), p of degree k - 2), plus a bulge on each face that lies on
 * a curved surface (l_a l_b l_c q, q of degree k - 3): vertices and edge nodes stay; a node
 * inside a face on the boundary or between two volumes (tags, interior surfaces) whose nodes
 * leave its vertices' plane moves along that surface (its tangent plane, from the map
 * through the file's nodes) to where the first two parts put it, and the bulge is fitted to
 * it; a node inside any other face, or inside the element, goes where the parts put it.
 * Decides curved[] again. Nothing at orders below 3. */
dg_status dg_mesh_smooth_ho_nodes(dg_mesh *m) DG_NODISCARD;

#endif

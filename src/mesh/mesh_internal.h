/* Private to src/mesh: the text cursor the readers share, the builder that turns what a
 * reader collected (node tags, elements, boundary triangles, physical names) into a
 * connected dg_mesh, and the variants of orient/connect that name elements by their
 * number in the file. */
#ifndef DG_MESH_MESH_INTERNAL_H
#define DG_MESH_MESH_INTERNAL_H

#include <stddef.h>

#include "mesh/mesh.h"

/* Where elements came from, so that errors can name them as the user knows them. */
typedef struct {
  const char *path;    /* file name, or NULL for meshes built in memory */
  const long *elem_id; /* K element numbers as written in the file, or NULL */
  const long *tri_id;  /* ntri boundary-triangle numbers as written in the file, or NULL */
  int flags;           /* reader flags (DG_MESH_ALLOW_UNMATCHED) */
} dg_mesh_src;

/* Number of element k as errors show it: its number in the file, else k+1 (1-based). */
long dg_mesh_elem_number(const dg_mesh_src *src, int k);
/* "path: element 17", or "element 18" for meshes built in memory. */
void dg_mesh_elem_name(char *out, size_t n, const dg_mesh_src *src, int k);

/* High-order elements (ho_nodes.c). The equispaced Lagrange basis of order k at barycentric
 * coordinates l: w[i] for the n nodes idx (dg_mesh_gmsh_tet_lattice), and when dw is not
 * NULL its derivatives dw[i][a] = d w_i / d l_a. */
void dg_mesh_lattice_basis(int k, int n, const int (*idx)[4], const double l[4], double *w,
                           double (*dw)[4]);
/* Where element k's affine map puts the lattice node idx of order `order`: the sum of
 * idx[a] / order times vertex a (terms with idx[a] = 0 left out). */
void dg_mesh_lattice_affine(const dg_mesh *m, int k, int order, const int idx[4], double x[3]);
/* One element's high-order nodes (dg_mesh_ho_nodes(order) x 3, Gmsh's order) reordered for
 * its vertices 2 and 3 exchanged (dg_mesh_orient). */
void dg_mesh_ho_flip(int order, double *xyz);

dg_status dg_mesh_orient_src(dg_mesh *m, const dg_mesh_src *src) DG_NODISCARD;
dg_status dg_mesh_connect_src(dg_mesh *m, int ntri, const int *tri, const int *tri_tag,
                              const dg_mesh_src *src) DG_NODISCARD;

/* ---- Whole file in memory, read line by line (ASCII) or byte by byte (binary). ---- */
typedef struct {
  const char *path;
  char *buf;         /* file contents plus a terminating NUL */
  size_t len;        /* bytes in the file */
  size_t pos;        /* start of the next unread line / next unread byte */
  long line;         /* 1-based number of the current line (0 before the first) */
  size_t line_start; /* byte offset of the current line */
  int binary;        /* locations are byte offsets rather than line numbers */
  const char *tok;   /* token cursor inside the current line */
  const char *eol;   /* end of the current line (excluding "\r\n") */
} dg_text;

/* The longest line a text mesh file may have (bytes, without the '\n'). */
#define DG_TEXT_MAX_LINE (1 << 20)
/* Read the whole file; a line longer than DG_TEXT_MAX_LINE is a parse error naming the file
 * and line, unless binary is given and says that the file (its first len bytes, NUL-
 * terminated) declares binary data, whose "lines" have no such bound. */
dg_status dg_text_open(dg_text *t, const char *path,
                       int (*binary)(const char *head, size_t len)) DG_NODISCARD;
void dg_text_close(dg_text *t);
/* Advance to the next line; returns 0 at end of file. */
int dg_text_next_line(dg_text *t);
/* Advance to the next line that is not blank; raises a parse error naming `what` at EOF. */
dg_status dg_text_need_line(dg_text *t, const char *what) DG_NODISCARD;
/* The current line, trimmed of surrounding blanks, into out (truncated to n-1 chars). */
void dg_text_line_copy(const dg_text *t, char *out, size_t n);
/* "path:LINE" (text) or "path: byte OFFSET" (binary) for the current line, into out. */
const char *dg_text_where(const dg_text *t, char *out, size_t n);
/* Next blank-separated token of the current line: returns its length, 0 if none. */
size_t dg_text_token(dg_text *t, const char **start);
/* Number of tokens left on the current line (does not consume them). */
int dg_text_tokens_left(const dg_text *t);
/* Parse the next token as an integer / a double; raise a parse error saying "expected
 * <what>" (naming file and line) when it is missing or malformed. */
dg_status dg_text_long(dg_text *t, long long *v, const char *what) DG_NODISCARD;
dg_status dg_text_int(dg_text *t, int *v, const char *what) DG_NODISCARD;
dg_status dg_text_double(dg_text *t, double *v, const char *what) DG_NODISCARD;
/* Raise a parse error unless the current line has no tokens left. */
dg_status dg_text_line_end(dg_text *t, const char *what) DG_NODISCARD;
/* Does the current line, trimmed, equal s? */
int dg_text_line_is(const dg_text *t, const char *s);
/* Bytes left after the current position (bounds counts read from the file). */
size_t dg_text_remaining(const dg_text *t);
/* Raise code with "path:LINE: " (or "path: byte N: ") before the formatted message; returns
 * code. */
dg_status dg_text_fail(const dg_text *t, dg_status code, const char *fmt, ...) DG_PRINTF(3, 4);
/* A count read from the file must be non-negative, fit our ints, and be possible given the
 * bytes left (each item needs at least min_bytes), so a corrupt count cannot make us
 * allocate gigabytes. */
dg_status dg_text_check_count(const dg_text *t, long long n, size_t min_bytes,
                              const char *what) DG_NODISCARD;

/* ---- Builder ---- */
typedef struct {
  const char *path;
  /* Nodes as read, in file order; lookup by tag after dg_builder_index_nodes(). */
  int nn;
  long long *node_tag;
  double *xyz;
  struct dg_node_key *node_sorted; /* (tag, index) sorted by tag, for lookup */
  /* Tetrahedra: node indices (into the arrays above), physical tag, file number. */
  int nt, nt_cap;
  int *tet;
  int *tet_tag;
  long *tet_id;
  /* High-order node indices of the tetrahedra of order `order` (2 to 4, one per mesh):
   * dg_mesh_ho_nodes(order) per tetrahedron in Gmsh's order (-1 for a linear one); NULL
   * until the first high-order tetrahedron, then as long as tet (te_cap). */
  int order;
  int *tet_ho;
  int te_cap;
  /* Boundary triangles, the same. */
  int nf, nf_cap;
  int *tri;
  int *tri_tag;
  long *tri_id;
  /* Physical names. */
  int np, np_cap;
  dg_phys *phys;
  int flags; /* reader flags, passed on to connect */
} dg_builder;

void dg_builder_init(dg_builder *b, const char *path);
void dg_builder_free(dg_builder *b);
/* Room for nn nodes (replacing none read so far). */
dg_status dg_builder_nodes(dg_builder *b, int nn) DG_NODISCARD;
/* Sort node tags for lookup; duplicate tags are an error (where: "line N"/"byte N"). */
dg_status dg_builder_index_nodes(dg_builder *b) DG_NODISCARD;
/* Node index of a tag, or -1. */
int dg_builder_find_node(const dg_builder *b, long long tag);
dg_status dg_builder_add_tet(dg_builder *b, const int v[4], int tag, long id) DG_NODISCARD;
/* A tetrahedron of geometric order `order` (2 to DG_MESH_MAX_GEOM_ORDER): vertices v, then
 * its dg_mesh_ho_nodes(order) other nodes ho (node indices, Gmsh's order). Every such
 * tetrahedron of one builder has the same order (the reader says where one does not). */
dg_status dg_builder_add_tet_ho(dg_builder *b, const int v[4], const int *ho, int order, int tag,
                                long id) DG_NODISCARD;
dg_status dg_builder_add_tri(dg_builder *b, const int v[3], int tag, long id) DG_NODISCARD;
dg_status dg_builder_add_phys(dg_builder *b, int dim, int tag, const char *name) DG_NODISCARD;
/* Keep only the vertices used by tetrahedra, orient, connect; *out owns the result. */
dg_status dg_builder_finish(dg_builder *b, dg_mesh **out) DG_NODISCARD;

/* n nodes into b, one a line "ID x y z" of t; label is what the line format calls the ID
 * ("tag", "id"), name what messages call it ("node tag", "node number"). */
dg_status dg_builder_read_nodes(dg_builder *b, dg_text *t, int n, const char *label,
                                const char *name) DG_NODISCARD;
/* A mesh file read by a reader: the checks of out and path, t opened on path (binary as for
 * dg_text_open), read(reader) filling b from t (both inside reader), the mesh built from b,
 * and t and b released; who names the reader in the message for a missing out. */
dg_status dg_builder_read(dg_mesh **out, const char *path, int flags, const char *who,
                          dg_text *t, dg_builder *b, int (*binary)(const char *, size_t),
                          dg_status (*read)(void *reader), void *reader) DG_NODISCARD;

/* Number of nodes of a Gmsh element type, its dimension, and a name; 0 nodes if unknown. */
typedef struct {
  int nodes;
  int dim;
  const char *name;
} dg_gmsh_type;
dg_gmsh_type dg_gmsh_element_type(int type);

#endif

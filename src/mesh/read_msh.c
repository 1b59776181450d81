/* Gmsh MSH reader: format 2.2 (ASCII) and 4.1 (ASCII and little-endian binary with 8-byte
 * size_t). Keeps tetrahedra of geometric order 1 to 4 (types 4, 11, 29, 30) and the
 * triangles of order 1 to 4 (types 2, 9, 21, 23) that carry a physical tag (a triangle's
 * vertices are what counts: its other nodes are the tetrahedra's); points, lines and other
 * surface elements are skipped; any other volume element (hexahedra, tetrahedra of order 5
 * and more, ...) is rejected, since dropping it would leave a hole, and so are triangles of
 * order 5 and the incomplete (serendipity) ones, which belong to such meshes. The
 * tetrahedra and triangles of order 2 and more must all be of one order (linear ones may be
 * among them); an element of another order is an error naming it and the first of the order.
 *
 * Node order (Gmsh reference manual, "Node ordering"; dg_mesh_gmsh_tet_lattice): the four
 * vertices, then the edge nodes of edges (0,1) (1,2) (2,0) (3,0) (3,2) (3,1), each from its
 * first vertex to its second, then the face nodes, then the interior ones. At order 2 these
 * are the mid-edge nodes of dg_edge_vertices' edges (mesh.h); note 8 = (2,3) and 9 = (1,3),
 * the reverse of the lexicographic pair order. The triangles' nodes are not used.
 *
 * Physical tags: in 2.2 the first element tag; in 4.1 the first physical tag of the
 * element's entity in $Entities (0 when it has none, or when there is no $Entities). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "mesh/mesh.h"
#include "mesh/mesh_internal.h"

typedef struct {
  int tag;
  int phys;
} entity;

typedef struct {
  dg_text t;
  dg_builder b;
  int v4;     /* format 4.1, else 2.2 */
  int binary; /* 4.1 binary */
  int have_nodes, have_elements, have_entities, have_names;
  entity *ent[4]; /* 4.1 entities per dimension, sorted by tag */
  int nent[4];
  /* The geometric order of the high-order elements (0 until the first), and that first
   * element: its number, type and where it was read. */
  int order, order_type;
  long long order_id;
  char order_where[512];
} msh_reader;

static dg_status expect_line(msh_reader *r, const char *s) {
  DG_CALL(dg_text_need_line(&r->t, s));
  if (!dg_text_line_is(&r->t, s)) {
    char line[80];
    dg_text_line_copy(&r->t, line, sizeof line);
    return dg_text_fail(&r->t, DG_ERR_PARSE, "expected %s, got \"%s\"", s, line);
  }
  return DG_OK;
}

/* ------------------------------------------------------------------ binary primitives */

static dg_status bin_bytes(dg_text *t, size_t n, const unsigned char **p, const char *what) {
  t->line_start = t->pos; /* locations in binary data are byte offsets */
  if (t->pos > t->len || t->len - t->pos < n)
    return dg_text_fail(t, DG_ERR_PARSE, "unexpected end of file, expected %s", what);
  *p = (const unsigned char *)t->buf + t->pos;
  t->pos += n;
  return DG_OK;
}

static uint64_t le64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

static uint32_t le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* size_t field, which must fit a long long (tags and counts). */
static dg_status bin_size(dg_text *t, long long *v, const char *what) {
  const unsigned char *p = NULL;
  DG_CALL(bin_bytes(t, 8, &p, what));
  uint64_t x = le64(p);
  if (x > (uint64_t)LLONG_MAX)
    return dg_text_fail(t, DG_ERR_PARSE, "expected %s, got %llu", what, (unsigned long long)x);
  *v = (long long)x;
  return DG_OK;
}

static dg_status bin_int(dg_text *t, int *v, const char *what) {
  const unsigned char *p = NULL;
  DG_CALL(bin_bytes(t, 4, &p, what));
  uint32_t x = le32(p);
  /* two's complement without relying on implementation-defined conversion */
  *v = x <= (uint32_t)INT_MAX ? (int)x : -(int)(~x) - 1;
  return DG_OK;
}

static dg_status bin_double(dg_text *t, double *v, const char *what) {
  const unsigned char *p = NULL;
  DG_CALL(bin_bytes(t, 8, &p, what));
  uint64_t x = le64(p);
  double d;
  memcpy(&d, &x, sizeof d);
  if (!isfinite(d))
    return dg_text_fail(t, DG_ERR_PARSE, "expected %s, got a non-finite value", what);
  *v = d;
  return DG_OK;
}

/* ------------------------------------------------------------------ $MeshFormat */

static dg_status read_format(msh_reader *r) {
  dg_text *t = &r->t;
  DG_CALL(dg_text_need_line(t, "$MeshFormat"));
  if (!dg_text_line_is(t, "$MeshFormat")) {
    char line[80];
    dg_text_line_copy(t, line, sizeof line);
    return dg_text_fail(t, DG_ERR_PARSE, "expected $MeshFormat (is this a Gmsh file?), got \"%s\"",
                        line);
  }
  DG_CALL(dg_text_need_line(t, "the format line \"version file-type data-size\""));
  const char *s;
  size_t len = dg_text_token(t, &s);
  char ver[32];
  if (len >= sizeof ver) len = sizeof ver - 1;
  memcpy(ver, s, len);
  ver[len] = '\0';
  char *end;
  double v = strtod(ver, &end);
  if (end == ver || *end != '\0')
    return dg_text_fail(t, DG_ERR_PARSE, "expected a format version number, got \"%s\"", ver);
  long v10 = lround(v * 10.0);
  if (fabs(v * 10.0 - (double)v10) > 1e-9 || !(v10 == 20 || v10 == 21 || v10 == 22 || v10 == 41))
    return dg_text_fail(t, DG_ERR_UNSUPPORTED,
                        "MSH format version %s is not supported (expected 2.2 or 4.1)", ver);
  r->v4 = v10 == 41;
  int file_type, data_size;
  DG_CALL(dg_text_int(t, &file_type, "file-type 0 (ASCII) or 1 (binary)"));
  DG_CALL(dg_text_int(t, &data_size, "the data-size field"));
  DG_CALL(dg_text_line_end(t, "end of the format line"));
  if (file_type != 0 && file_type != 1)
    return dg_text_fail(t, DG_ERR_PARSE, "expected file-type 0 (ASCII) or 1 (binary), got %d",
                        file_type);
  if (file_type == 1 && !r->v4)
    return dg_text_fail(t, DG_ERR_UNSUPPORTED,
                        "binary MSH %s is not supported; save it as ASCII 2.2 or as 4.1", ver);
  if (file_type == 1) {
    if (data_size != 8)
      return dg_text_fail(t, DG_ERR_UNSUPPORTED,
                          "binary data-size %d is not supported (expected 8, a 64-bit size_t)",
                          data_size);
    r->binary = 1;
    t->binary = 1;
    const unsigned char *p = NULL;
    DG_CALL(bin_bytes(t, 4, &p, "the binary endianness check (the integer 1)"));
    if (le32(p) != 1) {
      if (p[0] == 0 && p[1] == 0 && p[2] == 0 && p[3] == 1)
        return dg_text_fail(t, DG_ERR_UNSUPPORTED,
                            "big-endian binary MSH files are not supported (little-endian only)");
      return dg_text_fail(t, DG_ERR_PARSE,
                          "expected the integer 1 in binary (endianness check), got bytes "
                          "%02x %02x %02x %02x",
                          p[0], p[1], p[2], p[3]);
    }
  }
  DG_CALL(expect_line(r, "$EndMeshFormat"));
  return DG_OK;
}

/* A line holding only the count of the items (what) that follow, each at least min_bytes. */
static dg_status read_count(dg_text *t, const char *what, size_t min_bytes, int *n) {
  char number[96], end[128];
  snprintf(number, sizeof number, "the number of %s", what);
  snprintf(end, sizeof end, "end of line after the number of %s", what);
  DG_CALL(dg_text_need_line(t, number));
  DG_CALL(dg_text_int(t, n, number));
  DG_CALL(dg_text_line_end(t, end));
  DG_CALL(dg_text_check_count(t, *n, min_bytes, what));
  return DG_OK;
}

/* ------------------------------------------------------------------ $PhysicalNames */

static dg_status read_physical_names(msh_reader *r) {
  dg_text *t = &r->t;
  int n;
  DG_CALL(read_count(t, "physical names", 6, &n));
  for (int i = 0; i < n; i++) {
    int dim, tag;
    DG_CALL(dg_text_need_line(t, "a physical name \"dim tag \\\"name\\\"\""));
    DG_CALL(dg_text_int(t, &dim, "a physical dimension (0 to 3)"));
    DG_CALL(dg_text_int(t, &tag, "a physical tag"));
    if (dim < 0 || dim > 3)
      return dg_text_fail(t, DG_ERR_PARSE, "expected a physical dimension 0 to 3, got %d", dim);
    const char *q = t->tok;
    while (q < t->eol && (*q == ' ' || *q == '\t')) q++;
    const char *close = t->eol;
    while (close > q && close[-1] != '"') close--;
    if (q >= t->eol || *q != '"' || close - 1 <= q)
      return dg_text_fail(t, DG_ERR_PARSE, "expected a quoted physical name after the tag");
    char name[256];
    size_t len = (size_t)(close - 1 - (q + 1));
    if (len >= sizeof name) len = sizeof name - 1;
    memcpy(name, q + 1, len);
    name[len] = '\0';
    /* Only surface and volume groups mean anything to the solver. */
    if (dim >= 2) DG_CALL(dg_builder_add_phys(&r->b, dim, tag, name));
  }
  DG_CALL(expect_line(r, "$EndPhysicalNames"));
  return DG_OK;
}

/* ------------------------------------------------------------------ $Entities (4.1) */

static int cmp_entity(const void *a, const void *b) {
  const entity *x = a, *y = b;
  return (x->tag > y->tag) - (x->tag < y->tag);
}

static dg_status read_entities(msh_reader *r) {
  dg_text *t = &r->t;
  long long count[4];
  static const char *kinds[4] = {"points", "curves", "surfaces", "volumes"};
  if (r->binary) {
    for (int d = 0; d < 4; d++) DG_CALL(bin_size(t, &count[d], "an entity count"));
  } else {
    DG_CALL(dg_text_need_line(t, "the entity counts"));
    for (int d = 0; d < 4; d++) DG_CALL(dg_text_long(t, &count[d], "an entity count"));
    DG_CALL(dg_text_line_end(t, "end of line after the four entity counts"));
  }
  for (int d = 0; d < 4; d++) DG_CALL(dg_text_check_count(t, count[d], 8, kinds[d]));
  for (int d = 0; d < 4; d++) {
    DG_CALL(DG_ALLOC(r->ent[d], count[d]));
    r->nent[d] = (int)count[d];
    for (int i = 0; i < r->nent[d]; i++) {
      int tag, phys = 0;
      double x;
      long long nphys = 0, nbound = 0;
      int nbox = d == 0 ? 3 : 6; /* a point has coordinates, the others a bounding box */
      if (r->binary) {
        DG_CALL(bin_int(t, &tag, "an entity tag"));
        for (int j = 0; j < nbox; j++) DG_CALL(bin_double(t, &x, "an entity coordinate"));
        DG_CALL(bin_size(t, &nphys, "the number of physical tags"));
        DG_CALL(dg_text_check_count(t, nphys, 4, "physical tags"));
        for (long long j = 0; j < nphys; j++) {
          int p = 0;
          DG_CALL(bin_int(t, &p, "a physical tag"));
          if (j == 0) phys = p;
        }
        if (d > 0) {
          DG_CALL(bin_size(t, &nbound, "the number of bounding entities"));
          DG_CALL(dg_text_check_count(t, nbound, 4, "bounding entities"));
          const unsigned char *p = NULL;
          DG_CALL(bin_bytes(t, 4 * (size_t)nbound, &p, "bounding entity tags"));
        }
      } else {
        DG_CALL(dg_text_need_line(t, "an entity line"));
        DG_CALL(dg_text_int(t, &tag, "an entity tag"));
        for (int j = 0; j < nbox; j++) DG_CALL(dg_text_double(t, &x, "an entity coordinate"));
        DG_CALL(dg_text_long(t, &nphys, "the number of physical tags"));
        if (nphys < 0 || nphys > dg_text_tokens_left(t))
          return dg_text_fail(t, DG_ERR_PARSE, "expected %lld physical tags on this line", nphys);
        for (long long j = 0; j < nphys; j++) {
          int p = 0;
          DG_CALL(dg_text_int(t, &p, "a physical tag"));
          if (j == 0) phys = p;
        }
        if (d > 0) {
          DG_CALL(dg_text_long(t, &nbound, "the number of bounding entities"));
          if (nbound < 0 || nbound != dg_text_tokens_left(t))
            return dg_text_fail(t, DG_ERR_PARSE, "expected %lld bounding entity tags, got %d",
                                nbound, dg_text_tokens_left(t));
          for (long long j = 0; j < nbound; j++) {
            int b;
            DG_CALL(dg_text_int(t, &b, "a bounding entity tag"));
          }
        }
        DG_CALL(dg_text_line_end(t, "end of the entity line"));
      }
      /* An entity in several physical groups gets the first; a mesh element can only
       * carry one boundary condition or material. */
      r->ent[d][i].tag = tag;
      r->ent[d][i].phys = phys;
    }
    qsort(r->ent[d], (size_t)r->nent[d], sizeof *r->ent[d], cmp_entity);
  }
  DG_CALL(expect_line(r, "$EndEntities"));
  r->have_entities = 1;
  return DG_OK;
}

/* Physical tag of an entity, from $Entities; 0 if the file has no $Entities. */
static dg_status entity_phys(msh_reader *r, int dim, int tag, int *phys) {
  *phys = 0;
  if (!r->have_entities || dim < 0 || dim > 3) return DG_OK;
  entity key = {tag, 0};
  const entity *e = bsearch(&key, r->ent[dim], (size_t)r->nent[dim], sizeof key, cmp_entity);
  static const char *kinds[4] = {"point", "curve", "surface", "volume"};
  if (!e)
    return dg_text_fail(&r->t, DG_ERR_PARSE,
                        "element block refers to %s entity %d, which is not in "
                        "$Entities", kinds[dim], tag);
  *phys = e->phys;
  return DG_OK;
}

/* ------------------------------------------------------------------ $Nodes */

static dg_status read_nodes_v2(msh_reader *r) {
  dg_text *t = &r->t;
  int n;
  DG_CALL(read_count(t, "nodes", 8, &n));
  DG_CALL(dg_builder_read_nodes(&r->b, t, n, "tag", "node tag"));
  return DG_OK;
}

/* The four sizes of a 4.1 section header (section: "$Nodes", "$Elements"). */
static dg_status read_v4_header(msh_reader *r, const char *section, long long h[4]) {
  dg_text *t = &r->t;
  char what[64], what4[80], end[80];
  snprintf(what, sizeof what, "the %s header", section);
  snprintf(what4, sizeof what4, "the %s header (4 numbers)", section);
  snprintf(end, sizeof end, "end of the %s header", section);
  if (r->binary) {
    for (int j = 0; j < 4; j++) DG_CALL(bin_size(t, &h[j], what));
  } else {
    DG_CALL(dg_text_need_line(t, what));
    for (int j = 0; j < 4; j++) DG_CALL(dg_text_long(t, &h[j], what4));
    DG_CALL(dg_text_line_end(t, end));
  }
  return DG_OK;
}

/* A 4.1 entity block header: entity dimension, entity tag, a third number (third: its
 * name) and the count of items ("node", "element") in the block. */
static dg_status read_v4_block(msh_reader *r, const char *item, const char *third, int v[3],
                               long long *n) {
  dg_text *t = &r->t;
  const char *a = item[0] == 'e' ? "an" : "a";
  char dim[96], tag[96], thd[96], count[96], head[96], end[96];
  snprintf(dim, sizeof dim, "%s %s block's entity dimension", a, item);
  snprintf(tag, sizeof tag, "%s %s block's entity tag", a, item);
  snprintf(thd, sizeof thd, "%s %s block's %s", a, item, third);
  snprintf(count, sizeof count, "%s %s block's %s count", a, item, item);
  snprintf(head, sizeof head, "%s %s block header", a, item);
  snprintf(end, sizeof end, "end of the %s block header", item);
  if (r->binary) {
    DG_CALL(bin_int(t, &v[0], dim));
    DG_CALL(bin_int(t, &v[1], tag));
    DG_CALL(bin_int(t, &v[2], thd));
    DG_CALL(bin_size(t, n, count));
  } else {
    DG_CALL(dg_text_need_line(t, head));
    DG_CALL(dg_text_int(t, &v[0], dim));
    DG_CALL(dg_text_int(t, &v[1], tag));
    DG_CALL(dg_text_int(t, &v[2], thd));
    DG_CALL(dg_text_long(t, n, count));
    DG_CALL(dg_text_line_end(t, end));
  }
  return DG_OK;
}

static dg_status read_nodes_v4(msh_reader *r) {
  dg_text *t = &r->t;
  long long h[4]; /* numEntityBlocks numNodes minNodeTag maxNodeTag */
  DG_CALL(read_v4_header(r, "$Nodes", h));
  DG_CALL(dg_text_check_count(t, h[0], 8, "node blocks"));
  DG_CALL(dg_text_check_count(t, h[1], 8, "nodes"));
  int total = (int)h[1], filled = 0;
  DG_CALL(dg_builder_nodes(&r->b, total));
  for (long long blk = 0; blk < h[0]; blk++) {
    int b[3]; /* entity dimension, entity tag, parametric flag */
    long long n;
    DG_CALL(read_v4_block(r, "node", "parametric flag", b, &n));
    const int edim = b[0], param = b[2];
    if (edim < 0 || edim > 3 || (param != 0 && param != 1))
      return dg_text_fail(t, DG_ERR_PARSE,
                          "expected entity dimension 0..3 and parametric flag 0 or 1, got %d "
                          "and %d",
                          edim, param);
    if (n < 0 || n > total - filled)
      return dg_text_fail(t, DG_ERR_PARSE,
                          "node block holds %lld nodes, but only %d of the %d announced remain", n,
                          total - filled, total);
    int ncoord = 3 + (param ? edim : 0); /* parametric nodes add u, (u,v) or (u,v,w) */
    for (long long i = 0; i < n; i++) {
      long long tag;
      if (r->binary) {
        DG_CALL(bin_size(t, &tag, "a node tag"));
      } else {
        DG_CALL(dg_text_need_line(t, "a node tag"));
        DG_CALL(dg_text_long(t, &tag, "a node tag"));
        DG_CALL(dg_text_line_end(t, "end of line after the node tag"));
      }
      if (tag < 1)
        return dg_text_fail(t, DG_ERR_PARSE, "expected a positive node tag, got %lld", tag);
      r->b.node_tag[filled + i] = tag;
    }
    for (long long i = 0; i < n; i++) {
      double *x = &r->b.xyz[3 * (size_t)(filled + i)];
      if (!r->binary) DG_CALL(dg_text_need_line(t, "node coordinates"));
      for (int j = 0; j < ncoord; j++) {
        double c;
        if (r->binary)
          DG_CALL(bin_double(t, &c, "a node coordinate"));
        else
          DG_CALL(dg_text_double(t, &c, "a node coordinate"));
        if (j < 3) x[j] = c;
      }
      if (!r->binary) DG_CALL(dg_text_line_end(t, "end of line after the node coordinates"));
    }
    filled += (int)n;
  }
  if (filled != total)
    return dg_text_fail(t, DG_ERR_PARSE, "the $Nodes header announces %d nodes, the blocks hold %d",
                        total, filled);
  return DG_OK;
}

/* ------------------------------------------------------------------ $Elements */

/* The element types kept: tetrahedra and triangles, of geometric order 1 to 4. */
static int is_tet(int type) { return type == 4 || type == 11 || type == 29 || type == 30; }
static int kept(int type) {
  return is_tet(type) || type == 2 || type == 9 || type == 21 || type == 23;
}
/* A kept type's geometric order. */
static int type_order(int type) {
  switch (type) {
  case 11: case 9: return 2;
  case 29: case 21: return 3;
  case 30: case 23: return 4;
  default: return 1;
  }
}
/* The most nodes a kept element has (the 35-node tetrahedron). */
enum { MAX_KEPT_NODES = DG_MESH_LATTICE_MAX };

/* Decide what to do with an element type: keep (kept()), skip, or an error for volume
 * elements we cannot use and for triangles of such meshes. */
static dg_status classify(msh_reader *r, int type, dg_gmsh_type *info) {
  *info = dg_gmsh_element_type(type);
  if (info->nodes == 0)
    return dg_text_fail(&r->t, DG_ERR_UNSUPPORTED, "element type %d is not supported", type);
  if (info->dim == 3 && !is_tet(type))
    return dg_text_fail(&r->t, DG_ERR_UNSUPPORTED,
                        "element type %d (%s) is not supported; only tetrahedra can be used, "
                        "linear (type 4) or of geometric order 2, 3 or 4 (types 11, 29, 30): "
                        "mesh the volume with tetrahedra only, at Mesh.ElementOrder 1 to 4 "
                        "(gmsh -order 1 to -order 4)",
                        type, info->name);
  if (info->dim == 2 && type >= 20 && !kept(type))
    return dg_text_fail(&r->t, DG_ERR_UNSUPPORTED,
                        "element type %d (%s) is not supported; dgtd reads complete elements "
                        "of order 1 to 4 only (triangles of types 2, 9, 21, 23): mesh with "
                        "Mesh.ElementOrder 1 to 4 (gmsh -order 1 to -order 4) and "
                        "Mesh.SecondOrderIncomplete = 0",
                        type, info->name);
  return DG_OK;
}

/* What a kept element is called in messages. */
static const char *kept_name(int type, const dg_gmsh_type *info) {
  return type == 4 ? "tetrahedron" : type == 2 ? "triangle" : info->name;
}

/* One geometric order per mesh: the first tetrahedron or triangle of order 2 or more sets
 * it, one of another order is an error naming both. */
static dg_status check_order(msh_reader *r, int type, long long id) {
  const int k = type_order(type);
  if (k < 2) return DG_OK;
  if (!r->order) {
    r->order = k;
    r->order_type = type;
    r->order_id = id;
    dg_text_where(&r->t, r->order_where, sizeof r->order_where);
    return DG_OK;
  }
  if (k == r->order) return DG_OK;
  const dg_gmsh_type a = dg_gmsh_element_type(type), b = dg_gmsh_element_type(r->order_type);
  return dg_text_fail(&r->t, DG_ERR_UNSUPPORTED,
                      "element %lld is a %s (geometric order %d), but element %lld (%s) is a %s "
                      "(order %d): dgtd reads meshes whose elements are all of one geometric "
                      "order, 2, 3 or 4, or linear; mesh with one Mesh.ElementOrder (gmsh "
                      "-order K)",
                      id, kept_name(type, &a), k, r->order_id, r->order_where,
                      kept_name(r->order_type, &b), r->order);
}

/* Resolve node tags and hand a tetrahedron or triangle to the builder. */
static dg_status add_element(msh_reader *r, int type, const long long *tags, int phys,
                             long long id) {
  DG_CALL(check_order(r, type, id));
  int v[MAX_KEPT_NODES];
  const int nv = dg_gmsh_element_type(type).nodes;
  for (int j = 0; j < nv; j++) {
    v[j] = dg_builder_find_node(&r->b, tags[j]);
    if (v[j] < 0)
      return dg_text_fail(&r->t, DG_ERR_PARSE, "element %lld references node %lld, which is not in "
                          "$Nodes", id, tags[j]);
  }
  long lid = id > LONG_MAX ? LONG_MAX : (long)id;
  if (type == 4) {
    DG_CALL(dg_builder_add_tet(&r->b, v, phys, lid));
  } else if (is_tet(type)) {
    DG_CALL(dg_builder_add_tet_ho(&r->b, v, v + 4, type_order(type), phys, lid));
  } else if (phys > 0) {
    DG_CALL(dg_builder_add_tri(&r->b, v, phys, lid));
  }
  return DG_OK;
}

static dg_status read_elements_v2(msh_reader *r) {
  dg_text *t = &r->t;
  int n;
  DG_CALL(read_count(t, "elements", 8, &n));
  for (int i = 0; i < n; i++) {
    char what[96];
    snprintf(what, sizeof what, "element %d of %d", i + 1, n);
    DG_CALL(dg_text_need_line(t, what));
    long long id;
    int type, ntags, phys = 0;
    DG_CALL(dg_text_long(t, &id, "an element number"));
    DG_CALL(dg_text_int(t, &type, "an element type"));
    DG_CALL(dg_text_int(t, &ntags, "the number of element tags"));
    if (ntags < 0 || ntags > dg_text_tokens_left(t))
      return dg_text_fail(t, DG_ERR_PARSE,
                          "expected %d element tags, but the line has only %d more "
                          "numbers", ntags, dg_text_tokens_left(t));
    for (int j = 0; j < ntags; j++) {
      int tg;
      DG_CALL(dg_text_int(t, &tg, "an element tag"));
      if (j == 0) phys = tg;
    }
    dg_gmsh_type info;
    DG_CALL(classify(r, type, &info));
    int left = dg_text_tokens_left(t);
    if (left != info.nodes)
      return dg_text_fail(t, DG_ERR_PARSE, "expected %d node tags for a %s, got %d", info.nodes,
                          kept_name(type, &info), left);
    if (!kept(type)) continue; /* points, lines, quads: nothing to keep */
    long long tags[MAX_KEPT_NODES];
    for (int j = 0; j < info.nodes; j++) DG_CALL(dg_text_long(t, &tags[j], "a node tag"));
    DG_CALL(add_element(r, type, tags, phys, id));
  }
  return DG_OK;
}

static dg_status read_elements_v4(msh_reader *r) {
  dg_text *t = &r->t;
  long long h[4]; /* numEntityBlocks numElements minElementTag maxElementTag */
  DG_CALL(read_v4_header(r, "$Elements", h));
  DG_CALL(dg_text_check_count(t, h[0], 8, "element blocks"));
  DG_CALL(dg_text_check_count(t, h[1], 4, "elements"));
  long long total = h[1], filled = 0;
  for (long long blk = 0; blk < h[0]; blk++) {
    int b[3]; /* entity dimension, entity tag, element type */
    long long n;
    DG_CALL(read_v4_block(r, "element", "element type", b, &n));
    const int edim = b[0], etag = b[1], type = b[2];
    dg_gmsh_type info;
    DG_CALL(classify(r, type, &info));
    if (edim != info.dim)
      return dg_text_fail(t, DG_ERR_PARSE,
                          "expected entity dimension %d for element type %d, got %d",
                          info.dim, type, edim);
    if (n < 0 || n > total - filled)
      return dg_text_fail(t, DG_ERR_PARSE,
                          "element block holds %lld elements, but only %lld of the %lld announced "
                          "remain",
                          n, total - filled, total);
    int keep = kept(type), phys = 0;
    if (keep) DG_CALL(entity_phys(r, edim, etag, &phys));
    for (long long i = 0; i < n; i++) {
      long long id, tags[MAX_KEPT_NODES];
      if (r->binary) {
        DG_CALL(bin_size(t, &id, "an element tag"));
        if (!keep) {
          const unsigned char *p = NULL;
          DG_CALL(bin_bytes(t, 8 * (size_t)info.nodes, &p, "element node tags"));
          continue;
        }
        for (int j = 0; j < info.nodes; j++) DG_CALL(bin_size(t, &tags[j], "a node tag"));
      } else {
        DG_CALL(dg_text_need_line(t, "an element line \"tag node...\""));
        DG_CALL(dg_text_long(t, &id, "an element tag"));
        int left = dg_text_tokens_left(t);
        if (left != info.nodes)
          return dg_text_fail(t, DG_ERR_PARSE, "expected %d node tags for a %s, got %d", info.nodes,
                              kept_name(type, &info), left);
        if (!keep) continue;
        for (int j = 0; j < info.nodes; j++) DG_CALL(dg_text_long(t, &tags[j], "a node tag"));
      }
      DG_CALL(add_element(r, type, tags, phys, id));
    }
    filled += n;
  }
  if (filled != total)
    return dg_text_fail(t, DG_ERR_PARSE,
                        "the $Elements header announces %lld elements, the blocks hold %lld", total,
                        filled);
  return DG_OK;
}

/* Does the file begin with "$MeshFormat" and a format line of file-type 1 (binary)? Its
 * data sections then have no line structure (dg_text_open). */
static int declares_binary(const char *head, size_t len) {
  if (len >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0) head += 3, len -= 3; /* UTF-8 BOM */
  char buf[256];
  const size_t n = len < sizeof buf - 1 ? len : sizeof buf - 1;
  memcpy(buf, head, n);
  buf[n] = '\0';
  char word[16], ver[32];
  int file_type = -1;
  return sscanf(buf, " %15s %31s %d", word, ver, &file_type) == 3 &&
         strcmp(word, "$MeshFormat") == 0 && file_type == 1;
}

/* ------------------------------------------------------------------ sections */

static dg_status skip_section(msh_reader *r, const char *name) {
  char end[160], start[512];
  snprintf(end, sizeof end, "$End%s", name + 1);
  dg_text_where(&r->t, start, sizeof start);
  while (dg_text_next_line(&r->t))
    if (dg_text_line_is(&r->t, end)) return DG_OK;
  return dg_text_fail(&r->t, DG_ERR_PARSE,
                      "unexpected end of file, expected %s (section %s began at "
                      "%s)", end, name, start);
}

/* The whole file, for dg_builder_read: the format line, then the sections. */
static dg_status read_file(void *reader) {
  msh_reader *r = reader;
  dg_text *t = &r->t;
  DG_CALL(read_format(r));
  for (;;) {
    if (!dg_text_next_line(t)) break;
    if (dg_text_tokens_left(t) == 0) continue;
    char name[128];
    dg_text_line_copy(t, name, sizeof name);
    if (name[0] != '$')
      return dg_text_fail(t, DG_ERR_PARSE,
                          "expected a section header such as $Nodes, got \"%.60s\"",
                          name);
    if (strcmp(name, "$PhysicalNames") == 0) {
      if (r->have_names) return dg_text_fail(t, DG_ERR_PARSE, "second $PhysicalNames section");
      r->have_names = 1;
      DG_CALL(read_physical_names(r));
    } else if (strcmp(name, "$Entities") == 0 && r->v4) {
      if (r->have_entities) return dg_text_fail(t, DG_ERR_PARSE, "second $Entities section");
      DG_CALL(read_entities(r));
    } else if (strcmp(name, "$PartitionedEntities") == 0) {
      return dg_text_fail(t, DG_ERR_UNSUPPORTED, "partitioned meshes are not supported");
    } else if (strcmp(name, "$Nodes") == 0) {
      if (r->have_nodes) return dg_text_fail(t, DG_ERR_PARSE, "second $Nodes section");
      if (r->v4)
        DG_CALL(read_nodes_v4(r));
      else
        DG_CALL(read_nodes_v2(r));
      DG_CALL(expect_line(r, "$EndNodes"));
      DG_CALL(dg_builder_index_nodes(&r->b));
      r->have_nodes = 1;
    } else if (strcmp(name, "$Elements") == 0) {
      if (r->have_elements) return dg_text_fail(t, DG_ERR_PARSE, "second $Elements section");
      if (!r->have_nodes) return dg_text_fail(t, DG_ERR_PARSE, "expected $Nodes before $Elements");
      if (r->v4)
        DG_CALL(read_elements_v4(r));
      else
        DG_CALL(read_elements_v2(r));
      DG_CALL(expect_line(r, "$EndElements"));
      r->have_elements = 1;
    } else if (strncmp(name, "$End", 4) == 0) {
      return dg_text_fail(t, DG_ERR_PARSE, "unexpected %s outside its section", name);
    } else {
      DG_CALL(skip_section(r, name)); /* $Periodic, $NodeData, comments, ... */
    }
  }
  if (!r->have_nodes) return dg_text_fail(t, DG_ERR_PARSE, "no $Nodes section in the file");
  if (!r->have_elements) return dg_text_fail(t, DG_ERR_PARSE, "no $Elements section in the file");
  return DG_OK;
}

dg_status dg_mesh_read_msh_flags(dg_mesh **out, const char *path, int flags) {
  msh_reader r;
  memset(&r, 0, sizeof r);
  const dg_status st = dg_builder_read(out, path, flags, "dg_mesh_read_msh", &r.t, &r.b,
                                       declares_binary, read_file, &r);
  for (int d = 0; d < 4; d++) dg_free(&r.ent[d]);
  return st;
}

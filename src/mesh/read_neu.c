/* Gambit neutral (.neu) reader, for 3-D tetrahedral files such as the Hesthaven-Warburton
 * example meshes: CONTROL INFO (NUMNP NELEM NGRPS NBSETS NDFCD NDFVL), NODAL COORDINATES,
 * ELEMENTS/CELLS (type 6 = tetrahedron, 4 nodes), ELEMENT GROUP, BOUNDARY CONDITIONS.
 * Each section ends with ENDOFSECTION; unknown sections are skipped.
 *
 * Tags: an element group becomes a volume group (dim 3) whose tag is its GROUP number and
 * whose name is the group's name line; elements get that tag (0 if in no group). The i-th
 * boundary-condition set (1-based, in file order) becomes surface group i named after the
 * set, and its faces get tag i.
 *
 * Faces. Gambit numbers the faces of a tetrahedron with nodes n1..n4 as
 *   face 1 = {n1,n2,n3}, face 2 = {n1,n2,n4}, face 3 = {n2,n3,n4}, face 4 = {n1,n3,n4}
 * (Gambit lists some of them in a different vertex order, e.g. face 1 as n2,n1,n3, so that
 * the normal points outwards; the vertex SETS are what matter here). With our local faces
 * 0 = (v0,v1,v2), 1 = (v0,v1,v3), 2 = (v1,v2,v3), 3 = (v0,v2,v3) and v_i = n_(i+1), Gambit
 * face g is our face g-1 as long as the element keeps its node order. It may not:
 * dg_mesh_orient swaps two vertices of an inverted element, which exchanges two local faces.
 * So a boundary record is turned into the triangle of its three file nodes here, before
 * orientation, and dg_mesh_connect matches it to whatever local face it then is. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "mesh/mesh.h"
#include "mesh/mesh_internal.h"

/* Gambit tetrahedron face (1..4) -> its nodes, 0-based positions in the element record. */
static const int gambit_tet_face[4][3] = {{0, 1, 2}, {0, 1, 3}, {1, 2, 3}, {0, 2, 3}};

typedef struct {
  dg_text t;
  dg_builder b;
  long long numnp, nelem, ngrps, nbsets;
  int *elem_index; /* Gambit element number (1..NELEM) -> builder tetrahedron, or -1 */
  int have_nodes, have_elems, ngroups_read, nbsets_read;
} neu_reader;

static int line_starts(const dg_text *t, const char *s) {
  char line[128];
  dg_text_line_copy(t, line, sizeof line);
  return strncmp(line, s, strlen(s)) == 0;
}

static dg_status expect_end_of_section(neu_reader *r) {
  DG_CALL(dg_text_need_line(&r->t, "ENDOFSECTION"));
  if (!line_starts(&r->t, "ENDOFSECTION")) {
    char line[80];
    dg_text_line_copy(&r->t, line, sizeof line);
    return dg_text_fail(&r->t, DG_ERR_PARSE, "expected ENDOFSECTION, got \"%s\"", line);
  }
  return DG_OK;
}

/* Next integer of a list that may continue over several lines. */
static dg_status next_int_ml(dg_text *t, long long *v, const char *what) {
  if (dg_text_tokens_left(t) == 0) DG_CALL(dg_text_need_line(t, what));
  DG_CALL(dg_text_long(t, v, what));
  return DG_OK;
}

static dg_status read_control(neu_reader *r) {
  dg_text *t = &r->t;
  DG_CALL(dg_text_need_line(t, "CONTROL INFO"));
  if (!line_starts(t, "CONTROL INFO")) {
    char line[80];
    dg_text_line_copy(t, line, sizeof line);
    return dg_text_fail(t, DG_ERR_PARSE,
                        "expected \"CONTROL INFO\" (is this a Gambit neutral file?), got \"%s\"",
                        line);
  }
  /* Title, program and date lines are free text: look for the NUMNP heading. */
  for (;;) {
    DG_CALL(dg_text_need_line(t, "the NUMNP NELEM NGRPS NBSETS NDFCD NDFVL heading"));
    if (line_starts(t, "NUMNP")) break;
    if (line_starts(t, "ENDOFSECTION"))
      return dg_text_fail(t, DG_ERR_PARSE,
                          "expected the NUMNP NELEM NGRPS NBSETS NDFCD NDFVL heading before "
                          "ENDOFSECTION");
  }
  long long ndfcd, ndfvl;
  DG_CALL(dg_text_need_line(t, "the values of NUMNP NELEM NGRPS NBSETS NDFCD NDFVL"));
  DG_CALL(dg_text_long(t, &r->numnp, "NUMNP (number of nodes)"));
  DG_CALL(dg_text_long(t, &r->nelem, "NELEM (number of elements)"));
  DG_CALL(dg_text_long(t, &r->ngrps, "NGRPS (number of element groups)"));
  DG_CALL(dg_text_long(t, &r->nbsets, "NBSETS (number of boundary condition sets)"));
  DG_CALL(dg_text_long(t, &ndfcd, "NDFCD (coordinate directions)"));
  DG_CALL(dg_text_long(t, &ndfvl, "NDFVL (velocity components)"));
  DG_CALL(dg_text_line_end(t, "end of line after the six control values"));
  DG_CALL(dg_text_check_count(t, r->numnp, 8, "nodes (NUMNP)"));
  DG_CALL(dg_text_check_count(t, r->nelem, 8, "elements (NELEM)"));
  DG_CALL(dg_text_check_count(t, r->ngrps, 16, "element groups (NGRPS)"));
  DG_CALL(dg_text_check_count(t, r->nbsets, 16, "boundary condition sets (NBSETS)"));
  if (ndfcd != 3)
    return dg_text_fail(t, DG_ERR_UNSUPPORTED,
                        "NDFCD = %lld: only 3-D Gambit files (NDFCD = 3) are supported", ndfcd);
  DG_CALL(expect_end_of_section(r));
  return DG_OK;
}

static dg_status read_nodes(neu_reader *r) {
  dg_text *t = &r->t;
  int n = (int)r->numnp;
  DG_CALL(dg_builder_read_nodes(&r->b, t, n, "id", "node number"));
  DG_CALL(expect_end_of_section(r));
  DG_CALL(dg_builder_index_nodes(&r->b));
  r->have_nodes = 1;
  return DG_OK;
}

static dg_status read_elements(neu_reader *r) {
  dg_text *t = &r->t;
  int n = (int)r->nelem;
  DG_CALL(DG_ALLOC(r->elem_index, (size_t)n + 1));
  for (int i = 0; i <= n; i++) r->elem_index[i] = -1;
  for (int i = 0; i < n; i++) {
    char what[96];
    snprintf(what, sizeof what, "element %d of %d (\"NE NTYPE NDP nodes...\")", i + 1, n);
    DG_CALL(dg_text_need_line(t, what));
    long long ne, type, ndp;
    DG_CALL(dg_text_long(t, &ne, "an element number"));
    DG_CALL(dg_text_long(t, &type, "an element type"));
    DG_CALL(dg_text_long(t, &ndp, "the number of element nodes"));
    if (ne < 1 || ne > n)
      return dg_text_fail(t, DG_ERR_PARSE, "expected an element number between 1 and NELEM = %d, "
                          "got %lld", n, ne);
    if (r->elem_index[ne] >= 0)
      return dg_text_fail(t, DG_ERR_PARSE, "element %lld is defined twice", ne);
    if (type != 6)
      return dg_text_fail(t, DG_ERR_UNSUPPORTED, "element %lld has type %lld; only tetrahedra "
                          "(type 6) are supported", ne, type);
    if (ndp != 4)
      return dg_text_fail(t, DG_ERR_UNSUPPORTED,
                          "element %lld: expected 4 nodes for a tetrahedron, "
                          "got NDP = %lld (only linear tetrahedra are supported)", ne, ndp);
    int left = dg_text_tokens_left(t);
    if (left != 4)
      return dg_text_fail(t, DG_ERR_PARSE,
                          "expected 4 node numbers for a tetrahedron, got %d", left);
    int v[4];
    for (int j = 0; j < 4; j++) {
      long long node;
      DG_CALL(dg_text_long(t, &node, "a node number"));
      v[j] = dg_builder_find_node(&r->b, node);
      if (v[j] < 0)
        return dg_text_fail(t, DG_ERR_PARSE, "element %lld references node %lld, which is not in "
                            "NODAL COORDINATES", ne, node);
    }
    r->elem_index[ne] = r->b.nt;
    DG_CALL(dg_builder_add_tet(&r->b, v, 0, (long)ne));
  }
  DG_CALL(expect_end_of_section(r));
  r->have_elems = 1;
  return DG_OK;
}

static dg_status read_group(neu_reader *r) {
  dg_text *t = &r->t;
  DG_CALL(dg_text_need_line(t, "GROUP: n ELEMENTS: n MATERIAL: n NFLAGS: n"));
  const char *labels[4] = {"GROUP:", "ELEMENTS:", "MATERIAL:", "NFLAGS:"};
  long long val[4];
  for (int i = 0; i < 4; i++) {
    const char *s;
    size_t len = dg_text_token(t, &s);
    if (len != strlen(labels[i]) || strncmp(s, labels[i], len) != 0)
      return dg_text_fail(t, DG_ERR_PARSE,
                          "expected \"%s\" in the element group header", labels[i]);
    DG_CALL(dg_text_long(t, &val[i], labels[i]));
  }
  long long group = val[0], count = val[1], nflags = val[3];
  if (group < 1 || group > INT_MAX)
    return dg_text_fail(t, DG_ERR_PARSE, "expected a positive group number, got %lld", group);
  if (count < 0 || count > r->nelem || nflags < 0 || nflags > 1000)
    return dg_text_fail(t, DG_ERR_PARSE,
                        "expected at most NELEM = %lld elements and a sane NFLAGS, "
                        "got %lld and %lld", r->nelem, count, nflags);
  DG_CALL(dg_text_need_line(t, "the element group name"));
  char name[256];
  dg_text_line_copy(t, name, sizeof name);
  t->tok = t->eol; /* the name line is consumed */
  long long x;
  for (long long i = 0; i < nflags; i++) DG_CALL(next_int_ml(t, &x, "a solver flag"));
  for (long long i = 0; i < count; i++) {
    DG_CALL(next_int_ml(t, &x, "an element number of the group"));
    if (x < 1 || x > r->nelem || r->elem_index[x] < 0)
      return dg_text_fail(t, DG_ERR_PARSE, "element group %lld lists element %lld, which is not in "
                          "ELEMENTS/CELLS", group, x);
    r->b.tet_tag[r->elem_index[x]] = (int)group;
  }
  DG_CALL(dg_text_line_end(t, "end of the element list"));
  DG_CALL(expect_end_of_section(r));
  DG_CALL(dg_builder_add_phys(&r->b, 3, (int)group, name));
  return DG_OK;
}

static int is_integer(const char *s, size_t len) {
  size_t i = (len > 0 && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  if (i == len) return 0;
  for (; i < len; i++)
    if (s[i] < '0' || s[i] > '9') return 0;
  return 1;
}

static dg_status read_bcs(neu_reader *r) {
  dg_text *t = &r->t;
  int set = ++r->nbsets_read; /* tag of this set */
  DG_CALL(dg_text_need_line(t, "the boundary set header \"NAME ITYPE NENTRY NVALUES ...\""));
  /* The name (A32) may contain blanks; it is everything before the trailing integers. */
  const char *tok[16];
  size_t len[16];
  int ntok = 0;
  while (ntok < 16 && (len[ntok] = dg_text_token(t, &tok[ntok])) > 0) ntok++;
  if (ntok == 16 && dg_text_tokens_left(t) > 0)
    return dg_text_fail(t, DG_ERR_PARSE, "expected a boundary set header, got a very long line");
  int first = ntok;
  while (first > 1 && is_integer(tok[first - 1], len[first - 1])) first--;
  if (ntok - first < 3)
    return dg_text_fail(t, DG_ERR_PARSE, "expected a boundary set name followed by ITYPE NENTRY "
                        "NVALUES");
  char name[256];
  size_t nlen = (size_t)(tok[first - 1] + len[first - 1] - tok[0]);
  if (nlen >= sizeof name) nlen = sizeof name - 1;
  memcpy(name, tok[0], nlen);
  name[nlen] = '\0';
  long long itype = strtoll(tok[first], NULL, 10), nentry = strtoll(tok[first + 1], NULL, 10);
  if (itype != 1)
    return dg_text_fail(t, DG_ERR_UNSUPPORTED,
                        "boundary set \"%s\" has ITYPE %lld; only element/face "
                        "sets (ITYPE 1) are supported", name, itype);
  DG_CALL(dg_text_check_count(t, nentry, 6, "boundary faces (NENTRY)"));
  for (long long i = 0; i < nentry; i++) {
    char what[128];
    snprintf(what, sizeof what, "boundary face %lld of %lld (\"element type face\")", i + 1,
             nentry);
    DG_CALL(dg_text_need_line(t, what));
    long long e, type, face;
    DG_CALL(dg_text_long(t, &e, "an element number"));
    DG_CALL(dg_text_long(t, &type, "an element type"));
    DG_CALL(dg_text_long(t, &face, "a face number"));
    /* Any further values on the line are NVALUES data we do not use. */
    if (e < 1 || e > r->nelem || r->elem_index[e] < 0)
      return dg_text_fail(t, DG_ERR_PARSE, "boundary face refers to element %lld, which is not in "
                          "ELEMENTS/CELLS", e);
    if (type != 6)
      return dg_text_fail(t, DG_ERR_PARSE, "expected element type 6 (tetrahedron) for element "
                          "%lld, got %lld", e, type);
    if (face < 1 || face > 4)
      return dg_text_fail(t, DG_ERR_PARSE, "expected a tetrahedron face number 1 to 4, got %lld",
                          face);
    const int *tv = r->b.tet + 4 * (size_t)r->elem_index[e];
    int v[3];
    for (int j = 0; j < 3; j++) v[j] = tv[gambit_tet_face[face - 1][j]];
    DG_CALL(dg_builder_add_tri(&r->b, v, set, (long)e));
  }
  DG_CALL(expect_end_of_section(r));
  DG_CALL(dg_builder_add_phys(&r->b, 2, set, name));
  return DG_OK;
}

/* The whole file, for dg_builder_read: the control info, then the sections. */
static dg_status read_file(void *reader) {
  neu_reader *r = reader;
  dg_text *t = &r->t;
  DG_CALL(read_control(r));
  for (;;) {
    if (!dg_text_next_line(t)) break;
    if (dg_text_tokens_left(t) == 0) continue;
    if (line_starts(t, "NODAL COORDINATES")) {
      if (r->have_nodes) return dg_text_fail(t, DG_ERR_PARSE, "second NODAL COORDINATES section");
      DG_CALL(read_nodes(r));
    } else if (line_starts(t, "ELEMENTS/CELLS")) {
      if (r->have_elems) return dg_text_fail(t, DG_ERR_PARSE, "second ELEMENTS/CELLS section");
      if (!r->have_nodes)
        return dg_text_fail(t, DG_ERR_PARSE, "expected NODAL COORDINATES before ELEMENTS/CELLS");
      DG_CALL(read_elements(r));
    } else if (line_starts(t, "ELEMENT GROUP")) {
      if (!r->have_elems)
        return dg_text_fail(t, DG_ERR_PARSE, "expected ELEMENTS/CELLS before ELEMENT GROUP");
      r->ngroups_read++;
      DG_CALL(read_group(r));
    } else if (line_starts(t, "BOUNDARY CONDITIONS")) {
      if (!r->have_elems)
        return dg_text_fail(t, DG_ERR_PARSE, "expected ELEMENTS/CELLS before BOUNDARY CONDITIONS");
      DG_CALL(read_bcs(r));
    } else {
      /* APPLICATION DATA, TIMESTEPDATA, ...: not needed. */
      long start = t->line;
      for (;;) {
        if (!dg_text_next_line(t))
          return dg_text_fail(t, DG_ERR_PARSE,
                              "unexpected end of file, expected ENDOFSECTION for the "
                              "section that began at line %ld", start);
        if (line_starts(t, "ENDOFSECTION")) break;
      }
    }
  }
  /* Counting the sections catches a file cut off after a complete section. */
  if (!r->have_nodes || !r->have_elems)
    return dg_text_fail(t, DG_ERR_PARSE, "unexpected end of file, expected the %s section",
                        r->have_nodes ? "ELEMENTS/CELLS" : "NODAL COORDINATES");
  if (r->ngroups_read != r->ngrps || r->nbsets_read != r->nbsets)
    return dg_text_fail(t, DG_ERR_PARSE, "unexpected end of file: CONTROL INFO announces %lld "
                        "element groups and %lld boundary sets, the file has %d and %d",
                        r->ngrps, r->nbsets, r->ngroups_read, r->nbsets_read);
  return DG_OK;
}

dg_status dg_mesh_read_neu_flags(dg_mesh **out, const char *path, int flags) {
  neu_reader r;
  memset(&r, 0, sizeof r);
  const dg_status st = dg_builder_read(out, path, flags, "dg_mesh_read_neu", &r.t, &r.b, NULL,
                                       read_file, &r);
  dg_free(&r.elem_index);
  return st;
}

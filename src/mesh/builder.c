/* Shared by the file readers: a line/token cursor over a whole file held in memory, and the
 * builder that turns collected nodes and elements into a connected dg_mesh. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "mesh/mesh_internal.h"

/* ------------------------------------------------------------------ text cursor */

/* Scan bytes [from, to) of buf for line ends: *lines counts the '\n' seen, *line_len the
 * bytes since the last one. Returns 0 once a line is longer than max. */
static int scan_lines(const char *from, const char *to, long *lines, size_t *line_len,
                      size_t max) {
  while (from < to) {
    const char *nl = memchr(from, '\n', (size_t)(to - from));
    const size_t n = (size_t)((nl ? nl : to) - from);
    if (n > max - *line_len) return 0;
    *line_len += n;
    if (!nl) break;
    ++*lines;
    *line_len = 0;
    from = nl + 1;
  }
  return 1;
}

dg_status dg_text_open(dg_text *t, const char *path,
                       int (*binary)(const char *, size_t)) {
  memset(t, 0, sizeof *t);
  t->path = path;
  FILE *f = fopen(path, "rb");
  DG_CHECK(f != NULL, DG_ERR_IO, "%s: cannot open mesh file: %s", path, strerror(errno));
  /* A directory opens for reading on Linux and fails only at the first read ("read error"). */
  struct stat sb;
  if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
    fclose(f);
    return DG_ERROR(DG_ERR_IO, "%s: is a directory, not a mesh file; give the path of the mesh "
                    "file (.msh or .neu) itself", path);
  }
  /* Read in chunks rather than trusting ftell, so pipes and odd files work too. */
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  if (!buf) {
    fclose(f);
    return DG_ERROR(DG_ERR_MEMORY, "%s: out of memory reading the file", path);
  }
  /* Lines are capped as they arrive, so that an endless line (/dev/zero, a binary file
   * given by mistake) stops the read at DG_TEXT_MAX_LINE bytes instead of growing the
   * buffer without end; a file that declares binary data (binary(head)) is exempt. */
  long lines = 0;
  size_t line_len = 0;
  int capped = 1;
  for (;;) {
    if (len + 1 >= cap) {
      char *nb = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
      if (!nb) {
        free(buf);
        fclose(f);
        return DG_ERROR(DG_ERR_MEMORY, "%s: out of memory reading the file", path);
      }
      buf = nb;
      cap *= 2;
    }
    size_t got = fread(buf + len, 1, cap - 1 - len, f);
    if (capped && !scan_lines(buf + len, buf + len + got, &lines, &line_len, DG_TEXT_MAX_LINE)) {
      buf[len + got] = '\0';
      if (binary && binary(buf, len + got)) {
        capped = 0;
      } else {
        free(buf);
        fclose(f);
        return DG_ERROR(DG_ERR_PARSE, "%s:%ld: line longer than %d bytes; a mesh file's lines are "
                        "short text (is this the right file?)", path, lines + 1, DG_TEXT_MAX_LINE);
      }
    }
    len += got;
    if (got == 0) break;
  }
  const int err = ferror(f) ? errno : 0;
  fclose(f);
  if (err) {
    free(buf);
    return DG_ERROR(DG_ERR_IO, "%s: read error: %s", path, strerror(err));
  }
  buf[len] = '\0';
  t->buf = buf;
  t->len = len;
  t->tok = t->eol = buf;
  /* A UTF-8 byte-order mark (some Windows editors write one) is not part of the first line. */
  if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0) t->pos = 3;
  return DG_OK;
}

void dg_text_close(dg_text *t) {
  free(t->buf);
  t->buf = NULL;
}

int dg_text_next_line(dg_text *t) {
  if (t->pos >= t->len) {
    /* Past the end: an empty current line, so token reads report "end of line". */
    t->tok = t->eol = t->buf + t->len;
    t->line_start = t->len;
    t->line++;
    return 0;
  }
  const char *s = t->buf + t->pos;
  const char *nl = memchr(s, '\n', t->len - t->pos);
  const char *e = nl ? nl : t->buf + t->len;
  t->line++;
  t->line_start = t->pos;
  t->pos = (size_t)(e - t->buf) + (nl ? 1 : 0);
  while (e > s && (e[-1] == '\r')) e--;
  t->tok = s;
  t->eol = e;
  return 1;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

const char *dg_text_where(const dg_text *t, char *out, size_t n) {
  if (t->binary)
    snprintf(out, n, "%s: byte %zu", t->path, t->line_start);
  else
    snprintf(out, n, "%s:%ld", t->path, t->line);
  return out;
}

dg_status dg_text_fail(const dg_text *t, dg_status code, const char *fmt, ...) {
  char where[512], msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  (void)DG_ERROR(code, "%s: %s", dg_text_where(t, where, sizeof where), msg);
  return code; /* returned directly so that callers provably see a failure */
}

dg_status dg_text_check_count(const dg_text *t, long long n, size_t min_bytes, const char *what) {
  long long most = (long long)(dg_text_remaining(t) / min_bytes);
  if (most > INT_MAX / 8) most = INT_MAX / 8;
  if (n < 0 || n > most)
    return dg_text_fail(t, DG_ERR_PARSE,
                        "expected a number of %s between 0 and %lld (what the rest of the file "
                        "can hold), got %lld",
                        what, most, n);
  return DG_OK;
}

dg_status dg_text_need_line(dg_text *t, const char *what) {
  for (;;) {
    if (!dg_text_next_line(t)) {
      char w[512];
      return DG_ERROR(DG_ERR_PARSE, "%s: unexpected end of file, expected %s",
                      dg_text_where(t, w, sizeof w), what);
    }
    if (dg_text_tokens_left(t) > 0) return DG_OK;
  }
}

void dg_text_line_copy(const dg_text *t, char *out, size_t n) {
  /* the whole current line, not just what is left of it */
  const char *s = t->buf + t->line_start, *e = t->eol;
  if (s > e) s = e;
  while (s < e && is_blank(*s)) s++;
  while (e > s && is_blank(e[-1])) e--;
  size_t len = (size_t)(e - s);
  if (n == 0) return;
  if (len > n - 1) len = n - 1;
  memcpy(out, s, len);
  out[len] = '\0';
  /* binary junk would garble the message */
  for (size_t i = 0; i < len; i++)
    if (!isprint((unsigned char)out[i])) out[i] = '?';
}

size_t dg_text_token(dg_text *t, const char **start) {
  const char *p = t->tok;
  while (p < t->eol && is_blank(*p)) p++;
  const char *s = p;
  while (p < t->eol && !is_blank(*p)) p++;
  t->tok = p;
  *start = s;
  return (size_t)(p - s);
}

int dg_text_tokens_left(const dg_text *t) {
  int n = 0;
  const char *p = t->tok;
  while (p < t->eol) {
    while (p < t->eol && is_blank(*p)) p++;
    if (p >= t->eol) break;
    n++;
    while (p < t->eol && !is_blank(*p)) p++;
  }
  return n;
}

/* Copy the next token into a NUL-terminated buffer for strtoll/strtod. */
static dg_status next_token(dg_text *t, char *tok, size_t n, const char *what) {
  const char *s;
  size_t len = dg_text_token(t, &s);
  char w[512];
  if (len == 0)
    return DG_ERROR(DG_ERR_PARSE, "%s: expected %s, got end of line",
                    dg_text_where(t, w, sizeof w), what);
  if (len >= n) len = n - 1; /* too long for a number anyway; the parse will fail */
  memcpy(tok, s, len);
  tok[len] = '\0';
  return DG_OK;
}

static dg_status bad_token(const dg_text *t, const char *tok, const char *what) {
  char w[512], shown[64];
  snprintf(shown, sizeof shown, "%s", tok);
  for (char *c = shown; *c; c++)
    if (!isprint((unsigned char)*c)) *c = '?';
  return DG_ERROR(DG_ERR_PARSE, "%s: expected %s, got \"%s\"", dg_text_where(t, w, sizeof w),
                  what, shown);
}

/* The next token as an integer; its text stays in tok (n bytes) for messages. */
static dg_status next_long(dg_text *t, long long *v, char *tok, size_t n, const char *what) {
  DG_CALL(next_token(t, tok, n, what));
  char *end;
  errno = 0;
  long long x = strtoll(tok, &end, 10);
  if (end == tok || *end != '\0' || errno == ERANGE) return bad_token(t, tok, what);
  *v = x;
  return DG_OK;
}

dg_status dg_text_long(dg_text *t, long long *v, const char *what) {
  char tok[64];
  return next_long(t, v, tok, sizeof tok, what);
}

dg_status dg_text_int(dg_text *t, int *v, const char *what) {
  char tok[64];
  long long x;
  DG_CALL(next_long(t, &x, tok, sizeof tok, what));
  if (x < INT_MIN || x > INT_MAX) return bad_token(t, tok, what);
  *v = (int)x;
  return DG_OK;
}

dg_status dg_text_double(dg_text *t, double *v, const char *what) {
  char tok[64];
  DG_CALL(next_token(t, tok, sizeof tok, what));
  char *end;
  errno = 0;
  double x = strtod(tok, &end);
  /* ERANGE on underflow is harmless (a tiny coordinate); overflow and nan/inf are not. */
  if (end == tok || *end != '\0' || !(x == x) || x > 1e300 || x < -1e300)
    return bad_token(t, tok, what);
  *v = x;
  return DG_OK;
}

dg_status dg_text_line_end(dg_text *t, const char *what) {
  const char *s;
  size_t len = dg_text_token(t, &s);
  if (len == 0) return DG_OK;
  char tok[64];
  if (len >= sizeof tok) len = sizeof tok - 1;
  memcpy(tok, s, len);
  tok[len] = '\0';
  return bad_token(t, tok, what);
}

int dg_text_line_is(const dg_text *t, const char *s) {
  char line[128];
  dg_text_line_copy(t, line, sizeof line);
  return strcmp(line, s) == 0;
}

size_t dg_text_remaining(const dg_text *t) { return t->pos < t->len ? t->len - t->pos : 0; }

/* ------------------------------------------------------------------ builder */

struct dg_node_key {
  long long tag;
  int idx;
};

void dg_builder_init(dg_builder *b, const char *path) {
  memset(b, 0, sizeof *b);
  b->path = path;
}

void dg_builder_free(dg_builder *b) {
  dg_free(&b->node_tag);
  dg_free(&b->xyz);
  dg_free(&b->node_sorted);
  dg_free(&b->tet);
  dg_free(&b->tet_tag);
  dg_free(&b->tet_id);
  dg_free(&b->tet_ho);
  dg_free(&b->tri);
  dg_free(&b->tri_tag);
  dg_free(&b->tri_id);
  dg_free(&b->phys);
}

dg_status dg_builder_nodes(dg_builder *b, int nn) {
  DG_CHECK(nn >= 0, DG_ERR_INTERNAL, "negative node count");
  dg_free(&b->node_tag);
  dg_free(&b->xyz);
  dg_free(&b->node_sorted);
  b->nn = 0;
  DG_CALL(DG_ALLOC(b->node_tag, nn));
  DG_CALL(DG_ALLOC(b->xyz, 3 * (size_t)nn));
  b->nn = nn;
  return DG_OK;
}

static int cmp_node_key(const void *a, const void *b) {
  const struct dg_node_key *x = a, *y = b;
  return (x->tag > y->tag) - (x->tag < y->tag);
}

dg_status dg_builder_index_nodes(dg_builder *b) {
  dg_free(&b->node_sorted);
  DG_CALL(DG_ALLOC(b->node_sorted, b->nn));
  for (int i = 0; i < b->nn; i++) {
    b->node_sorted[i].tag = b->node_tag[i];
    b->node_sorted[i].idx = i;
  }
  qsort(b->node_sorted, (size_t)b->nn, sizeof *b->node_sorted, cmp_node_key);
  for (int i = 1; i < b->nn; i++)
    DG_CHECK(b->node_sorted[i].tag != b->node_sorted[i - 1].tag, DG_ERR_PARSE,
             "%s: node tag %lld is defined twice", b->path, b->node_sorted[i].tag);
  return DG_OK;
}

int dg_builder_find_node(const dg_builder *b, long long tag) {
  if (!b->node_sorted) return -1;
  struct dg_node_key key = {tag, 0};
  const struct dg_node_key *hit =
      bsearch(&key, b->node_sorted, (size_t)b->nn, sizeof key, cmp_node_key);
  return hit ? hit->idx : -1;
}

/* Reallocate *ptr from old_n to new_n items of `size` bytes, keeping the first old_n. */
static dg_status resize(void *ptr, size_t old_n, size_t new_n, size_t size) {
  void *old;
  memcpy(&old, ptr, sizeof old);
  char *p = NULL;
  DG_CALL(dg_calloc(&p, new_n, size));
  if (old && old_n) memcpy(p, old, old_n * size);
  free(old);
  memcpy(ptr, &p, sizeof p);
  return DG_OK;
}

/* Next capacity (doubling) for one more item than n. */
static dg_status next_cap(int n, int *cap) {
  DG_CHECK(n < INT_MAX / 8, DG_ERR_MEMORY, "too many mesh entities (%d)", n);
  int c = *cap ? *cap : 64;
  while (c <= n) c *= 2;
  *cap = c;
  return DG_OK;
}

/* One more cell of nv nodes v into the arrays *conn, *tags, *ids holding *n (room for
 * *cap). */
static dg_status add_cell(int nv, int **conn, int **tags, long **ids, int *n, int *cap,
                         const int *v, int tag, long id) {
  if (*n == *cap) {
    int c = *cap;
    DG_CALL(next_cap(*n, &c));
    DG_CALL(resize(conn, (size_t)nv * (size_t)*n, (size_t)nv * (size_t)c, sizeof **conn));
    DG_CALL(resize(tags, (size_t)*n, (size_t)c, sizeof **tags));
    DG_CALL(resize(ids, (size_t)*n, (size_t)c, sizeof **ids));
    *cap = c;
  }
  memcpy(*conn + (size_t)nv * (size_t)*n, v, (size_t)nv * sizeof *v);
  (*tags)[*n] = tag;
  (*ids)[*n] = id;
  ++*n;
  return DG_OK;
}

/* One more tetrahedron; ho (b->order's high-order node indices) NULL for a linear one. */
static dg_status add_tet(dg_builder *b, const int v[4], const int *ho, int tag, long id) {
  const int n = b->nt;
  DG_CALL(add_cell(4, &b->tet, &b->tet_tag, &b->tet_id, &b->nt, &b->nt_cap, v, tag, id));
  if (!ho && !b->tet_ho) return DG_OK; /* linear so far: no high-order nodes kept */
  const size_t nho = (size_t)dg_mesh_ho_nodes(b->order);
  if (b->te_cap < b->nt_cap) {
    const int old = b->tet_ho ? b->te_cap : 0;
    DG_CALL(resize(&b->tet_ho, nho * (size_t)old, nho * (size_t)b->nt_cap, sizeof *b->tet_ho));
    for (size_t i = nho * (size_t)old; i < nho * (size_t)b->nt_cap; i++) b->tet_ho[i] = -1;
    b->te_cap = b->nt_cap;
  }
  for (size_t j = 0; j < nho; j++) b->tet_ho[nho * (size_t)n + j] = ho ? ho[j] : -1;
  return DG_OK;
}

dg_status dg_builder_add_tet(dg_builder *b, const int v[4], int tag, long id) {
  return add_tet(b, v, NULL, tag, id);
}

dg_status dg_builder_add_tet_ho(dg_builder *b, const int v[4], const int *ho, int order, int tag,
                                long id) {
  DG_CHECK(order >= 2 && order <= DG_MESH_MAX_GEOM_ORDER && (!b->order || order == b->order),
           DG_ERR_INTERNAL, "%s: a tetrahedron of order %d among ones of order %d", b->path,
           order, b->order);
  b->order = order;
  return add_tet(b, v, ho, tag, id);
}

dg_status dg_builder_add_tri(dg_builder *b, const int v[3], int tag, long id) {
  return add_cell(3, &b->tri, &b->tri_tag, &b->tri_id, &b->nf, &b->nf_cap, v, tag, id);
}

dg_status dg_builder_add_phys(dg_builder *b, int dim, int tag, const char *name) {
  DG_CHECK(strlen(name) < sizeof b->phys[0].name, DG_ERR_UNSUPPORTED,
           "%s: physical name \"%.40s...\" is longer than %zu characters", b->path, name,
           sizeof b->phys[0].name - 1);
  if (b->np == b->np_cap) {
    int cap = b->np_cap;
    DG_CALL(next_cap(b->np, &cap));
    DG_CALL(resize(&b->phys, (size_t)b->np, (size_t)cap, sizeof *b->phys));
    b->np_cap = cap;
  }
  dg_phys *p = &b->phys[b->np++];
  p->dim = dim;
  p->tag = tag;
  snprintf(p->name, sizeof p->name, "%s", name);
  return DG_OK;
}

/* The high-order nodes of the tetrahedra into m (dg_mesh_set_ho_nodes decides which are
 * curved); a linear tetrahedron among high-order ones gets the points of its affine map. */
static dg_status ho_nodes(const dg_builder *b, dg_mesh *m) {
  const int order = b->order, nho = dg_mesh_ho_nodes(order);
  int idx[DG_MESH_LATTICE_MAX][4];
  (void)dg_mesh_gmsh_tet_lattice(order, idx);
  double *xyz = NULL;
  DG_CALL(DG_ALLOC(xyz, 3 * (size_t)nho * b->nt));
  for (int k = 0; k < b->nt; k++)
    for (int j = 0; j < nho; j++) {
      const int e = b->tet_ho[(size_t)nho * k + j];
      double *x = xyz + 3 * ((size_t)nho * k + j);
      if (e >= 0)
        for (int c = 0; c < 3; c++) x[c] = b->xyz[3 * (size_t)e + c];
      else
        dg_mesh_lattice_affine(m, k, order, idx[4 + j], x);
    }
  DG_CALL(dg_mesh_set_ho_nodes(m, order, xyz));
  return DG_OK;
}

dg_status dg_builder_finish(dg_builder *b, dg_mesh **out) {
  *out = NULL;
  DG_CHECK(b->nt > 0, DG_ERR_MESH,
           "%s: the file contains no tetrahedra (expected a 3-D mesh of tetrahedra, linear or "
           "of order 2 to 4)",
           b->path);
  dg_status st = DG_OK;
  dg_mesh *m = NULL;
  int *newidx = NULL, *tri = NULL;
  /* Only vertices of tetrahedra are kept: geometry points and the like would otherwise
   * become vertices that no element uses. */
  DG_CALL_GOTO(fail, DG_ALLOC(newidx, b->nn));
  for (int i = 0; i < b->nn; i++) newidx[i] = -1;
  int Nv = 0;
  for (size_t i = 0; i < 4 * (size_t)b->nt; i++) {
    int v = b->tet[i];
    DG_CHECK_GOTO(fail, v >= 0 && v < b->nn, DG_ERR_INTERNAL, "builder node index %d", v);
    if (newidx[v] < 0) newidx[v] = Nv++;
  }
  DG_CALL_GOTO(fail, dg_mesh_alloc(&m, Nv, b->nt));
  for (int i = 0; i < b->nn; i++) {
    int j = newidx[i];
    if (j < 0) continue;
    m->VX[j] = b->xyz[3 * (size_t)i];
    m->VY[j] = b->xyz[3 * (size_t)i + 1];
    m->VZ[j] = b->xyz[3 * (size_t)i + 2];
  }
  for (size_t i = 0; i < 4 * (size_t)b->nt; i++) m->EToV[i] = newidx[b->tet[i]];
  memcpy(m->elem_tag, b->tet_tag, (size_t)b->nt * sizeof *m->elem_tag);
  DG_CALL_GOTO(fail, DG_ALLOC(tri, 3 * (size_t)b->nf));
  for (int f = 0; f < b->nf; f++)
    for (int j = 0; j < 3; j++) {
      int v = b->tri[3 * f + j];
      DG_CHECK_GOTO(fail, v >= 0 && v < b->nn, DG_ERR_INTERNAL, "builder node index %d", v);
      DG_CHECK_GOTO(fail, newidx[v] >= 0, DG_ERR_MESH,
                    "%s: boundary triangle %ld is not a face of any tetrahedron (its node %lld "
                    "belongs to no tetrahedron)",
                    b->path, b->tri_id[f], b->node_tag[v]);
      tri[3 * f + j] = newidx[v];
    }
  if (b->np > 0) {
    DG_CALL_GOTO(fail, DG_ALLOC(m->phys, b->np));
    memcpy(m->phys, b->phys, (size_t)b->np * sizeof *m->phys);
    m->nphys = b->np;
  }
  if (b->tet_ho) DG_CALL_GOTO(fail, ho_nodes(b, m));
  dg_mesh_src src = {b->path, b->tet_id, b->tri_id, b->flags};
  DG_CALL_GOTO(fail, dg_mesh_orient_src(m, &src));
  DG_CALL_GOTO(fail, dg_mesh_connect_src(m, b->nf, tri, b->tri_tag, &src));
  DG_CALL_GOTO(fail, dg_mesh_smooth_ho_nodes(m));
  dg_free(&newidx);
  dg_free(&tri);
  *out = m;
  return DG_OK;
fail:
  dg_free(&newidx);
  dg_free(&tri);
  dg_mesh_destroy(&m);
  return st;
}

/* ------------------------------------------------------------------ Gmsh element types */

dg_gmsh_type dg_gmsh_element_type(int type) {
  /* From the Gmsh reference manual (MSH element types); only those we may meet. */
  static const dg_gmsh_type table[] = {
      [1] = {2, 1, "2-node line"},
      [2] = {3, 2, "3-node triangle"},
      [3] = {4, 2, "4-node quadrangle"},
      [4] = {4, 3, "4-node tetrahedron"},
      [5] = {8, 3, "8-node hexahedron"},
      [6] = {6, 3, "6-node prism"},
      [7] = {5, 3, "5-node pyramid"},
      [8] = {3, 1, "3-node second-order line"},
      [9] = {6, 2, "6-node second-order triangle"},
      [10] = {9, 2, "9-node second-order quadrangle"},
      [11] = {10, 3, "10-node second-order tetrahedron"},
      [12] = {27, 3, "27-node second-order hexahedron"},
      [13] = {18, 3, "18-node second-order prism"},
      [14] = {14, 3, "14-node second-order pyramid"},
      [15] = {1, 0, "1-node point"},
      [16] = {8, 2, "8-node second-order quadrangle"},
      [17] = {20, 3, "20-node second-order hexahedron"},
      [18] = {15, 3, "15-node second-order prism"},
      [19] = {13, 3, "13-node second-order pyramid"},
      [20] = {9, 2, "9-node third-order incomplete triangle"},
      [21] = {10, 2, "10-node third-order triangle"},
      [22] = {12, 2, "12-node fourth-order incomplete triangle"},
      [23] = {15, 2, "15-node fourth-order triangle"},
      [24] = {15, 2, "15-node fifth-order incomplete triangle"},
      [25] = {21, 2, "21-node fifth-order triangle"},
      [26] = {4, 1, "4-node third-order line"},
      [27] = {5, 1, "5-node fourth-order line"},
      [28] = {6, 1, "6-node fifth-order line"},
      [29] = {20, 3, "20-node third-order tetrahedron"},
      [30] = {35, 3, "35-node fourth-order tetrahedron"},
      [31] = {56, 3, "56-node fifth-order tetrahedron"},
  };
  dg_gmsh_type none = {0, -1, "unknown"};
  if (type <= 0 || type >= (int)(sizeof table / sizeof table[0])) return none;
  return table[type];
}

dg_status dg_builder_read_nodes(dg_builder *b, dg_text *t, int n, const char *label,
                                const char *name) {
  DG_CALL(dg_builder_nodes(b, n));
  char id_what[64];
  snprintf(id_what, sizeof id_what, "a %s", name);
  for (int i = 0; i < n; i++) {
    char what[96];
    snprintf(what, sizeof what, "node %d of %d (\"%s x y z\")", i + 1, n, label);
    DG_CALL(dg_text_need_line(t, what));
    long long id;
    DG_CALL(dg_text_long(t, &id, id_what));
    if (id < 1) return dg_text_fail(t, DG_ERR_PARSE, "expected a positive %s, got %lld", name, id);
    b->node_tag[i] = id;
    for (int j = 0; j < 3; j++)
      DG_CALL(dg_text_double(t, &b->xyz[3 * (size_t)i + j], "a node coordinate"));
    DG_CALL(dg_text_line_end(t, "end of line after the three node coordinates"));
  }
  return DG_OK;
}

dg_status dg_builder_read(dg_mesh **out, const char *path, int flags, const char *who,
                          dg_text *t, dg_builder *b, int (*binary)(const char *, size_t),
                          dg_status (*read)(void *reader), void *reader) {
  DG_CHECK(out != NULL, DG_ERR_INTERNAL, "%s: no output", who);
  *out = NULL;
  DG_CHECK(path != NULL, DG_ERR_INPUT, "no mesh file name given");
  dg_status st = DG_OK;
  dg_builder_init(b, path);
  b->flags = flags;
  DG_CALL_GOTO(done, dg_text_open(t, path, binary));
  DG_CALL_GOTO(done, read(reader));
  DG_CALL_GOTO(done, dg_builder_finish(b, out));
done:
  dg_text_close(t);
  dg_builder_free(b);
  return st;
}

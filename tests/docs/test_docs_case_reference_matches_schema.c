/* docs/CASE_FILE.md against the parser: every key the parser accepts (as dg_case_parse_schema
 * reports each object's accepted keys while it parses the page's complete examples) has a
 * row in the page's key tables, every row names a key the parser accepts, every row has a
 * type, a default, an example and a meaning, each example has the JSON type its row names
 * and is accepted in place of that key in one of the page's complete examples, and every
 * object the tables list is reached by those examples (so no object's keys go unchecked). */
#include "test_util.h"

#include <ctype.h>

#include <cjson/cJSON.h>

#include "app/case.h"

static const char *const PAGE = "docs/CASE_FILE.md";

enum { MAX_ROWS = 256, MAX_KEYS = 512, MAX_BLOCKS = 16, CELL = 512 };

typedef struct {
  char path[128], type[CELL], def[CELL], example[CELL], meaning[16];
  int line;
} row;

typedef struct {
  row rows[MAX_ROWS];
  int n_rows;
  char *blocks[MAX_BLOCKS];
  int n_blocks;
  char accepted[MAX_KEYS][128]; /* "mesh.box.cells", "sources[].pulse.shape" */
  int n_accepted;
  char visited[MAX_KEYS][128];  /* object paths: "", "mesh.box", "sources[]" */
  int n_visited;
} page;

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("cannot open %s (run from the repository root)", path);
  fseek(f, 0, SEEK_END);
  const long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  assert_non_null(s);
  const size_t got = fread(s, 1, (size_t)n, f);
  s[got] = '\0';
  fclose(f);
  return s;
}

static void trim(char *s) {
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
  size_t i = 0;
  while (isspace((unsigned char)s[i])) ++i;
  memmove(s, s + i, strlen(s + i) + 1);
}

/* The text of a cell without its surrounding backticks. */
static void unquote(char *s) {
  trim(s);
  const size_t n = strlen(s);
  if (n >= 2 && s[0] == '`' && s[n - 1] == '`') {
    memmove(s, s + 1, n - 2);
    s[n - 2] = '\0';
  }
}

/* Rows of the tables whose header is "| key | type | default | example | meaning |", and
 * the ```json blocks. */
static void read_page(page *p) {
  char *text = slurp(PAGE);
  int in_table = 0, ln = 0;
  char *block = NULL;
  size_t block_len = 0;
  for (char *line = text, *next; line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = '\0';
    ++ln;
    if (block) {
      if (!strncmp(line, "```", 3)) {
        assert_true(p->n_blocks < MAX_BLOCKS);
        p->blocks[p->n_blocks++] = block;
        block = NULL;
        continue;
      }
      const size_t n = strlen(line);
      block = realloc(block, block_len + n + 2);
      assert_non_null(block);
      memcpy(block + block_len, line, n);
      block_len += n;
      block[block_len++] = '\n';
      block[block_len] = '\0';
      continue;
    }
    if (!strcmp(line, "```json")) {
      block = calloc(1, 1);
      assert_non_null(block);
      block_len = 0;
      continue;
    }
    if (!strcmp(line, "| key | type | default | example | meaning |")) {
      in_table = 1;
      continue;
    }
    if (line[0] != '|') {
      in_table = 0;
      continue;
    }
    if (!in_table || !strncmp(line, "|---", 4)) continue;
    char *cells[8];
    int nc = 0;
    for (char *c = line + 1; nc < 8;) {
      char *bar = strchr(c, '|');
      if (!bar) break;
      *bar = '\0';
      cells[nc++] = c;
      c = bar + 1;
    }
    if (nc != 5) fail_msg("%s:%d: a key row needs 5 cells, has %d", PAGE, ln, nc);
    assert_true(p->n_rows < MAX_ROWS);
    row *r = &p->rows[p->n_rows++];
    r->line = ln;
    char key[CELL];
    snprintf(key, sizeof key, "%s", cells[0]);
    unquote(key);
    snprintf(r->path, sizeof r->path, "%.127s", key);
    snprintf(r->type, sizeof r->type, "%s", cells[1]);
    trim(r->type);
    snprintf(r->def, sizeof r->def, "%s", cells[2]);
    trim(r->def);
    snprintf(r->example, sizeof r->example, "%s", cells[3]);
    unquote(r->example);
    snprintf(r->meaning, sizeof r->meaning, "%s", cells[4]);
    trim(r->meaning);
  }
  free(block);
  free(text);
}

/* "sources[0].pulse" -> "sources[].pulse". */
static void normalise(const char *in, char *out, size_t cap) {
  size_t n = 0;
  for (const char *c = in; *c && n + 1 < cap; ++c) {
    out[n++] = *c;
    if (*c == '[')
      while (isdigit((unsigned char)c[1])) ++c;
  }
  out[n] = '\0';
}

static int has(char (*list)[128], int n, const char *s) {
  for (int i = 0; i < n; ++i)
    if (!strcmp(list[i], s)) return 1;
  return 0;
}

static void visit(void *ctx, const char *path, const char *const *keys) {
  page *p = ctx;
  char obj[128];
  normalise(path, obj, sizeof obj);
  if (!has(p->visited, p->n_visited, obj)) {
    assert_true(p->n_visited < MAX_KEYS);
    snprintf(p->visited[p->n_visited++], 128, "%s", obj);
  }
  for (const char *const *k = keys; *k; ++k) {
    char full[300];
    snprintf(full, sizeof full, "%s%s%s", obj, obj[0] ? "." : "", *k);
    full[127] = '\0';
    if (has(p->accepted, p->n_accepted, full)) continue;
    assert_true(p->n_accepted < MAX_KEYS);
    snprintf(p->accepted[p->n_accepted++], 128, "%.127s", full);
  }
}

static dg_status parse_case(const char *json, page *p) {
  dg_case c;
  dg_case_default(&c);
  dg_error_clear();
  const dg_status st = p ? dg_case_parse_schema(&c, json, "docs/CASE_FILE.md", visit, p)
                         : dg_case_parse(&c, json, "docs/CASE_FILE.md");
  dg_case_free(&c);
  return st;
}

/* ---- substituting a row's example into a complete example ------------------------------ */

typedef struct {
  const row *r;
  cJSON *root, *value;
  int tried, accepted;
  char why[512];
} subst;

/* Walk the key path's segments from obj; at the last one, put the example in place of the
 * value there (when obj has that key), parse the whole case, and put the value back. */
static void try_at(subst *s, cJSON *obj, char segs[][64], int nseg) {
  if (!cJSON_IsObject(obj)) return;
  const size_t len = strlen(segs[0]);
  const int array = len > 2 && !strcmp(segs[0] + len - 2, "[]");
  char name[64];
  snprintf(name, sizeof name, "%.*s", (int)(array ? len - 2 : len), segs[0]);
  cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
  if (!v) return;
  if (array) {
    if (!cJSON_IsArray(v) || nseg == 1) return;
    for (cJSON *it = v->child; it; it = it->next) try_at(s, it, segs + 1, nseg - 1);
    return;
  }
  if (nseg > 1) {
    try_at(s, v, segs + 1, nseg - 1);
    return;
  }
  cJSON *old = cJSON_DetachItemFromObjectCaseSensitive(obj, name);
  cJSON *copy = cJSON_Duplicate(s->value, 1);
  assert_non_null(copy);
  cJSON_AddItemToObject(obj, name, copy);
  char *text = cJSON_Print(s->root);
  assert_non_null(text);
  s->tried++;
  if (parse_case(text, NULL) == DG_OK)
    s->accepted++;
  else
    snprintf(s->why, sizeof s->why, "%s", dg_error_message());
  free(text);
  cJSON_DeleteItemFromObjectCaseSensitive(obj, name);
  cJSON_AddItemToObject(obj, name, old);
}

/* JSON kinds a type cell allows, from its words. */
static int kind_allowed(const char *type, const cJSON *v) {
  char t[CELL];
  size_t n = 0;
  for (; type[n] && n + 1 < sizeof t; ++n) t[n] = (char)tolower((unsigned char)type[n]);
  t[n] = '\0';
  if (cJSON_IsNumber(v)) return strstr(t, "number") || strstr(t, "integer") || strstr(t, "tag");
  if (cJSON_IsString(v))
    return strstr(t, "string") || strstr(t, "choice") || strstr(t, "name") || strstr(t, "\"all\"");
  if (cJSON_IsBool(v)) return strstr(t, "boolean") != NULL;
  if (cJSON_IsArray(v)) return strstr(t, "array") != NULL;
  if (cJSON_IsObject(v)) return strstr(t, "object") != NULL;
  return 0;
}

/* ---- the tests ----------------------------------------------------------------------------- */

static page *load(void) {
  page *p = calloc(1, sizeof *p);
  assert_non_null(p);
  read_page(p);
  if (p->n_rows < 50) fail_msg("%s: only %d key rows found", PAGE, p->n_rows);
  if (p->n_blocks < 2) fail_msg("%s: only %d complete examples found", PAGE, p->n_blocks);
  for (int b = 0; b < p->n_blocks; ++b)
    if (parse_case(p->blocks[b], p) != DG_OK)
      fail_msg("%s: complete example %d is refused: %s", PAGE, b + 1, dg_error_message());
  return p;
}

static void unload(page *p) {
  for (int b = 0; b < p->n_blocks; ++b) free(p->blocks[b]);
  free(p);
}

static void every_accepted_key_is_documented(void **state) {
  (void)state;
  page *p = load();
  int missing = 0;
  for (int i = 0; i < p->n_accepted; ++i) {
    int found = 0;
    for (int r = 0; r < p->n_rows && !found; ++r) found = !strcmp(p->rows[r].path, p->accepted[i]);
    if (!found) {
      print_message("# the parser accepts `%s`, which %s does not document\n", p->accepted[i], PAGE);
      ++missing;
    }
  }
  print_message("# %d keys accepted in %d objects, %d rows documented\n", p->n_accepted,
                p->n_visited, p->n_rows);
  const int n = p->n_accepted;
  unload(p);
  assert_true(n >= 50);
  assert_int_equal(missing, 0);
}

static void every_documented_key_is_accepted_with_its_example(void **state) {
  (void)state;
  page *p = load();
  int bad = 0;
  for (int r = 0; r < p->n_rows; ++r) {
    const row *w = &p->rows[r];
    if (!w->type[0] || !w->def[0] || !w->example[0] || !w->meaning[0]) {
      print_message("# %s:%d: `%s`: a cell is empty\n", PAGE, w->line, w->path);
      ++bad;
      continue;
    }
    for (int q = 0; q < r; ++q)
      if (!strcmp(p->rows[q].path, w->path)) {
        print_message("# %s:%d: `%s` is documented twice\n", PAGE, w->line, w->path);
        ++bad;
      }
    if (!has(p->accepted, p->n_accepted, w->path)) {
      print_message("# %s:%d: `%s` is documented but the parser does not accept it\n", PAGE,
                    w->line, w->path);
      ++bad;
      continue;
    }
    cJSON *value = cJSON_Parse(w->example);
    if (!value) {
      print_message("# %s:%d: `%s`: the example %s is not JSON\n", PAGE, w->line, w->path, w->example);
      ++bad;
      continue;
    }
    if (!kind_allowed(w->type, value)) {
      print_message("# %s:%d: `%s`: the example %s is not of type \"%s\"\n", PAGE, w->line,
                    w->path, w->example, w->type);
      ++bad;
    }
    /* An object the table lists must be one the examples reach, or its keys go unchecked. */
    if (strstr(w->type, "object")) {
      char obj[160];
      snprintf(obj, sizeof obj, "%s%s", w->path, strstr(w->type, "array of objects") ? "[]" : "");
      if (!has(p->visited, p->n_visited, obj)) {
        print_message("# %s:%d: `%s`: no complete example on the page has this object\n", PAGE,
                      w->line, obj);
        ++bad;
      }
    }
    char segs[8][64];
    int nseg = 0;
    char tmp[128];
    snprintf(tmp, sizeof tmp, "%s", w->path);
    char *save = NULL;
    for (char *t = strtok_r(tmp, ".", &save); t && nseg < 8; t = strtok_r(NULL, ".", &save))
      snprintf(segs[nseg++], 64, "%s", t);
    subst s = {.r = w, .value = value};
    for (int b = 0; b < p->n_blocks; ++b) {
      s.root = cJSON_Parse(p->blocks[b]);
      assert_non_null(s.root);
      try_at(&s, s.root, segs, nseg);
      cJSON_Delete(s.root);
    }
    if (!s.tried) {
      print_message("# %s:%d: `%s` appears in none of the page's complete examples\n", PAGE,
                    w->line, w->path);
      ++bad;
    } else if (!s.accepted) {
      print_message("# %s:%d: `%s`: the example %s is refused in every complete example that "
                    "has the key: %s\n", PAGE, w->line, w->path, w->example, s.why);
      ++bad;
    }
    cJSON_Delete(value);
  }
  const int rows = p->n_rows;
  unload(p);
  print_message("# %d rows checked\n", rows);
  assert_int_equal(bad, 0);
}

/* The checks themselves catch drift: a key the parser does not know is refused by it, and a
 * key it knows but the page lacks would be listed (here: one the parser accepts in "mesh"). */
static void checks_catch_drift(void **state) {
  (void)state;
  page *p = calloc(1, sizeof *p);
  assert_non_null(p);
  assert_int_equal(parse_case("{\"mesh\": {\"box\": {}}, \"colour\": 1}", p), DG_ERR_INPUT);
  assert_true(has(p->visited, p->n_visited, ""));
  assert_true(has(p->accepted, p->n_accepted, "mesh"));
  assert_false(has(p->accepted, p->n_accepted, "colour"));
  memset(p, 0, sizeof *p);
  assert_int_equal(parse_case("{\"mesh\": {\"box\": {\"cells\": [2, 2, 2]}}}", p), DG_OK);
  assert_true(has(p->visited, p->n_visited, "mesh.box"));
  assert_true(has(p->accepted, p->n_accepted, "mesh.box.cells"));
  assert_true(has(p->accepted, p->n_accepted, "mesh.allow_unmatched_faces"));
  memset(p, 0, sizeof *p);
  assert_int_equal(parse_case("{\"sources\": [{\"type\": \"dipole\", \"position\": [0, 0, 0], "
                              "\"direction\": [0, 0, 1], \"pulse\": {\"shape\": \"ricker\", "
                              "\"frequency\": 1}}]}", p), DG_OK);
  assert_true(has(p->visited, p->n_visited, "sources[].pulse"));
  assert_true(has(p->accepted, p->n_accepted, "sources[].pulse.delay"));
  const cJSON *num = cJSON_Parse("2");
  assert_true(kind_allowed("integer 1..15", num));
  assert_false(kind_allowed("choice: `a`, `b`", num));
  cJSON_Delete((cJSON *)num);
  free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_accepted_key_is_documented),
      cmocka_unit_test(every_documented_key_is_accepted_with_its_example),
      cmocka_unit_test(checks_catch_drift),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The JSON schema toolkit: keys, types and ranges of cJSON values, errors by key path. */
#include "app/schema.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

int dg_edit_distance(const char *a, const char *b) {
  const size_t n = strlen(a), m = strlen(b);
  if (n > 63 || m > 63) return 99;
  int d[64][64];
  for (size_t i = 0; i <= n; ++i) d[i][0] = (int)i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = (int)j;
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      const int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      const int del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
      d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
    }
  return d[n][m];
}

/* The line and column of a byte offset, for JSON syntax errors. */
static void line_col(const char *text, const char *at, int *line, int *col) {
  *line = 1, *col = 1;
  for (const char *p = text; p < at && *p; ++p) {
    if (*p == '\n') ++*line, *col = 1;
    else ++*col;
  }
}

dg_status dg_schema_parse(const char *json, const char *file, cJSON **root) {
  const char *end = NULL;
  *root = cJSON_ParseWithOpts(json, &end, 1);
  if (*root) return DG_OK;
  int line, col;
  const char *at = end ? end : cJSON_GetErrorPtr();
  line_col(json, at ? at : json, &line, &col);
  return DG_ERROR(DG_ERR_PARSE, "%s:%d:%d: invalid JSON near \"%.20s\"", file, line, col,
                  at ? at : "");
}

/* "a, b, c" from a NULL-terminated list. */
static void join(const char *const *names, char *out, size_t cap) {
  out[0] = '\0';
  for (const char *const *a = names; *a; ++a) {
    strncat(out, *a, cap - strlen(out) - 1);
    if (a[1]) strncat(out, ", ", cap - strlen(out) - 1);
  }
}

dg_status dg_schema_keys(const dg_schema *s, const cJSON *obj, const char *path,
                         const char *const *allowed) {
  if (s->visit) s->visit(s->visit_ctx, path, allowed);
  /* cJSON keeps every duplicate and lookups return the first: a second value would be
   * silently ignored. */
  for (const cJSON *it = obj->child; it; it = it->next)
    for (const cJSON *prev = obj->child; prev != it; prev = prev->next)
      if (it->string && prev->string && !strcmp(it->string, prev->string))
        return DG_ERROR(DG_ERR_INPUT, "%s: %s%s%s: duplicate key (given twice in one object)",
                        s->file, path, *path ? "." : "", it->string);
  for (const cJSON *it = obj->child; it; it = it->next) {
    int ok = 0, best = 99;
    const char *guess = NULL;
    for (const char *const *a = allowed; *a; ++a) {
      if (!strcmp(it->string, *a)) ok = 1;
      int dist = dg_edit_distance(it->string, *a);
      if (strstr(it->string, *a) || strstr(*a, it->string)) dist = dist < 3 ? dist : 3;
      if (dist < best) best = dist, guess = *a;
    }
    if (ok) continue;
    /* Close in spelling, or one name contained in the other ("epsilon" for "eps"). */
    if (guess && (best <= 3 || strstr(it->string, guess) || strstr(guess, it->string)))
      return DG_ERROR(DG_ERR_INPUT, "%s: %s%sunknown key \"%s\" (did you mean \"%s\"?)", s->file,
                      path, *path ? ": " : "", it->string, guess);
    char list[512];
    join(allowed, list, sizeof list);
    return DG_ERROR(DG_ERR_INPUT, "%s: %s%sunknown key \"%s\" (known keys: %s)", s->file, path,
                    *path ? ": " : "", it->string, list);
  }
  return DG_OK;
}

dg_status dg_schema_object(const dg_schema *s, const cJSON *v, const char *path,
                           const char *const *allowed) {
  DG_CHECK(cJSON_IsObject(v), DG_ERR_INPUT, "%s: %s: expected an object, got %s", s->file, path,
           dg_schema_type(v));
  return dg_schema_keys(s, v, path, allowed);
}

const char *dg_schema_type(const cJSON *v) {
  if (cJSON_IsNumber(v)) return "a number";
  if (cJSON_IsString(v)) return "a string";
  if (cJSON_IsBool(v)) return "a boolean";
  if (cJSON_IsArray(v)) return "an array";
  if (cJSON_IsObject(v)) return "an object";
  if (cJSON_IsNull(v)) return "null";
  return "something else";
}

dg_status dg_schema_number(const dg_schema *s, const cJSON *v, const char *path, double *out) {
  DG_CHECK(cJSON_IsNumber(v), DG_ERR_INPUT, "%s: %s: expected a number, got %s", s->file, path,
           dg_schema_type(v));
  DG_CHECK(isfinite(v->valuedouble), DG_ERR_INPUT,
           "%s: %s: the number is too large for double precision (magnitude above %g)",
           s->file, path, 1.7976931348623157e308);
  *out = v->valuedouble;
  return DG_OK;
}

dg_status dg_schema_positive(const dg_schema *s, const cJSON *v, const char *path,
                             double *out) {
  DG_CALL(dg_schema_number(s, v, path, out));
  DG_CHECK(*out > 0, DG_ERR_INPUT, "%s: %s: must be positive, got %g", s->file, path, *out);
  return DG_OK;
}

dg_status dg_schema_int(const dg_schema *s, const cJSON *v, const char *path, int lo, int hi,
                        int *out) {
  double d;
  DG_CALL(dg_schema_number(s, v, path, &d));
  DG_CHECK(d == floor(d), DG_ERR_INPUT, "%s: %s: expected an integer, got %g", s->file, path, d);
  DG_CHECK(d >= lo && d <= hi, DG_ERR_INPUT, "%s: %s: %g is out of range [%d, %d]", s->file,
           path, d, lo, hi);
  *out = (int)d;
  return DG_OK;
}

dg_status dg_schema_bool(const dg_schema *s, const cJSON *v, const char *path, int *out) {
  DG_CHECK(cJSON_IsBool(v), DG_ERR_INPUT, "%s: %s: expected true or false, got %s", s->file,
           path, dg_schema_type(v));
  *out = cJSON_IsTrue(v);
  return DG_OK;
}

dg_status dg_schema_string(const dg_schema *s, const cJSON *v, const char *path, char *out,
                           size_t cap) {
  DG_CHECK(cJSON_IsString(v), DG_ERR_INPUT, "%s: %s: expected a string, got %s", s->file, path,
           dg_schema_type(v));
  DG_CHECK(strlen(v->valuestring) < cap, DG_ERR_INPUT, "%s: %s: string too long", s->file, path);
  strcpy(out, v->valuestring);
  return DG_OK;
}

dg_status dg_schema_choice(const dg_schema *s, const cJSON *v, const char *path,
                           const char *const *choices, int *out) {
  char name[64];
  DG_CALL(dg_schema_string(s, v, path, name, sizeof name));
  for (int i = 0; choices[i]; ++i)
    if (!strcmp(name, choices[i])) {
      *out = i;
      return DG_OK;
    }
  char list[256];
  join(choices, list, sizeof list);
  return DG_ERROR(DG_ERR_INPUT, "%s: %s: \"%s\" is not one of %s", s->file, path, name, list);
}

/* An array of n numbers, into out unless it is NULL. */
static dg_status numbers(const dg_schema *s, const cJSON *v, const char *path, int n,
                         double *out) {
  DG_CHECK(cJSON_IsArray(v) && cJSON_GetArraySize(v) == n, DG_ERR_INPUT,
           "%s: %s: expected an array of %d numbers, got %s", s->file, path, n,
           dg_schema_type(v));
  int i = 0;
  for (const cJSON *it = v->child; it; it = it->next, ++i) {
    char p[160];
    double d;
    snprintf(p, sizeof p, "%s[%d]", path, i);
    DG_CALL(dg_schema_number(s, it, p, &d));
    if (out) out[i] = d;
  }
  return DG_OK;
}

dg_status dg_schema_vec(const dg_schema *s, const cJSON *v, const char *path, int n,
                        double *out) {
  return numbers(s, v, path, n, out);
}

dg_status dg_schema_ints(const dg_schema *s, const cJSON *v, const char *path, int n, int lo,
                         int hi, int *out) {
  DG_CALL(numbers(s, v, path, n, NULL));
  int i = 0;
  for (const cJSON *it = v->child; it; it = it->next, ++i) {
    const double d = it->valuedouble;
    DG_CHECK(d >= lo && d <= hi && d == floor(d), DG_ERR_INPUT,
             "%s: %s[%d]: expected an integer in [%d, %d], got %g", s->file, path, i, lo, hi, d);
    out[i] = (int)d;
  }
  return DG_OK;
}

dg_status dg_schema_file_path(const dg_schema *s, const cJSON *v, const char *path, char *out,
                              size_t cap) {
  char name[1024];
  DG_CALL(dg_schema_string(s, v, path, name, sizeof name));
  DG_CHECK(name[0], DG_ERR_INPUT, "%s: %s: empty path", s->file, path);
  const char *slash = strrchr(s->file, '/');
  if (name[0] != '/' && slash) {
    const size_t dir = (size_t)(slash - s->file);
    DG_CHECK(dir + 1 + strlen(name) < cap, DG_ERR_INPUT, "%s: %s: path too long", s->file, path);
    memcpy(out, s->file, dir + 1); /* the directory with its slash */
    strcpy(out + dir + 1, name);
  } else {
    DG_CHECK(strlen(name) < cap, DG_ERR_INPUT, "%s: %s: path too long", s->file, path);
    strcpy(out, name);
  }
  return DG_OK;
}

const char *dg_schema_key_path(char *out, size_t cap, const char *path, const char *key) {
  snprintf(out, cap, "%s%s%s", path, *path ? "." : "", key);
  return out;
}

dg_status dg_schema_required(const dg_schema *s, const cJSON *obj, const char *path,
                             const char *key, const char *hint) {
  DG_CHECK(cJSON_GetObjectItemCaseSensitive(obj, key), DG_ERR_INPUT,
           "%s: %s: missing key \"%s\"%s%s%s", s->file, path, key, hint ? " (" : "",
           hint ? hint : "", hint ? ")" : "");
  return DG_OK;
}

/* obj.key, or NULL; its key path into sub. */
static const cJSON *member(const cJSON *obj, const char *path, const char *key, char *sub,
                           size_t cap) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (v) dg_schema_key_path(sub, cap, path, key);
  return v;
}

enum { KEY_PATH = 192 };

/* The body of each dg_schema_opt_*: getter on obj.key, at its key path, when obj has it. */
#define OPT(getter, ...)                                    \
  char sub[KEY_PATH];                                       \
  const cJSON *v = member(obj, path, key, sub, sizeof sub); \
  return v ? getter(s, v, sub, __VA_ARGS__) : DG_OK

dg_status dg_schema_opt_number(const dg_schema *s, const cJSON *obj, const char *path,
                               const char *key, double *out) {
  OPT(dg_schema_number, out);
}

dg_status dg_schema_opt_positive(const dg_schema *s, const cJSON *obj, const char *path,
                                 const char *key, double *out) {
  OPT(dg_schema_positive, out);
}

dg_status dg_schema_opt_int(const dg_schema *s, const cJSON *obj, const char *path,
                            const char *key, int lo, int hi, int *out) {
  OPT(dg_schema_int, lo, hi, out);
}

dg_status dg_schema_opt_bool(const dg_schema *s, const cJSON *obj, const char *path,
                             const char *key, int *out) {
  OPT(dg_schema_bool, out);
}

dg_status dg_schema_opt_string(const dg_schema *s, const cJSON *obj, const char *path,
                               const char *key, char *out, size_t cap) {
  OPT(dg_schema_string, out, cap);
}

dg_status dg_schema_opt_choice(const dg_schema *s, const cJSON *obj, const char *path,
                               const char *key, const char *const *choices, int *out) {
  OPT(dg_schema_choice, choices, out);
}

dg_status dg_schema_opt_vec(const dg_schema *s, const cJSON *obj, const char *path,
                            const char *key, int n, double *out) {
  OPT(dg_schema_vec, n, out);
}

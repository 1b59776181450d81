/* The JSON schema toolkit: parsed JSON (cJSON) checked for its keys, types and ranges. */
/* Unknown keys get a did-you-mean. Every error names the file and the key path, e.g.
 * "cases/x.json: materials[1].eps: must be positive, got -1". A path is "" for the top
 * level; the key path of member k of an object at path p is "p.k" (or "k" at the top). */
#ifndef DG_APP_SCHEMA_H
#define DG_APP_SCHEMA_H

#include <stddef.h>

#include "core/status.h"

struct cJSON;

/* Shown each object's accepted keys as they are checked: its key path and allowed[]. */
typedef void (*dg_schema_visit_fn)(void *ctx, const char *path, const char *const *allowed);

typedef struct {
  const char *file; /* named in messages; relative paths in the file are relative to it */
  dg_schema_visit_fn visit; /* NULL, or called by dg_schema_keys (dg_case_parse_schema) */
  void *visit_ctx;
} dg_schema;

/* Parse JSON text; a syntax error names file:line:column and the text there. */
dg_status dg_schema_parse(const char *json, const char *file, struct cJSON **root) DG_NODISCARD;

/* Reject duplicate keys and keys of obj not in allowed[] (NULL-terminated), suggesting the
 * closest allowed one or listing them. */
dg_status dg_schema_keys(const dg_schema *s, const struct cJSON *obj, const char *path,
                         const char *const *allowed) DG_NODISCARD;
/* An object with only the keys in allowed[]. */
dg_status dg_schema_object(const dg_schema *s, const struct cJSON *v, const char *path,
                           const char *const *allowed) DG_NODISCARD;

/* "a number", "a string", ...: what v is, for messages. */
const char *dg_schema_type(const struct cJSON *v);

/* Values: v at key path `path`. */
dg_status dg_schema_number(const dg_schema *s, const struct cJSON *v, const char *path,
                           double *out) DG_NODISCARD;
dg_status dg_schema_positive(const dg_schema *s, const struct cJSON *v, const char *path,
                             double *out) DG_NODISCARD;
dg_status dg_schema_int(const dg_schema *s, const struct cJSON *v, const char *path, int lo,
                        int hi, int *out) DG_NODISCARD;
dg_status dg_schema_bool(const dg_schema *s, const struct cJSON *v, const char *path,
                         int *out) DG_NODISCARD;
dg_status dg_schema_string(const dg_schema *s, const struct cJSON *v, const char *path,
                           char *out, size_t cap) DG_NODISCARD;
/* One of the names in choices[] (NULL-terminated); *out is its index. */
dg_status dg_schema_choice(const dg_schema *s, const struct cJSON *v, const char *path,
                           const char *const *choices, int *out) DG_NODISCARD;
/* An array of exactly n numbers. */
dg_status dg_schema_vec(const dg_schema *s, const struct cJSON *v, const char *path, int n,
                        double *out) DG_NODISCARD;
/* An array of exactly n integers, each in [lo, hi] (all checked to be numbers first). */
dg_status dg_schema_ints(const dg_schema *s, const struct cJSON *v, const char *path, int n,
                         int lo, int hi, int *out) DG_NODISCARD;
/* A file path: a relative one is made relative to the directory of s->file. */
dg_status dg_schema_file_path(const dg_schema *s, const struct cJSON *v, const char *path,
                              char *out, size_t cap) DG_NODISCARD;

/* Members: the key path of obj.key (obj at path) into out; returns out. */
const char *dg_schema_key_path(char *out, size_t cap, const char *path, const char *key);
/* obj.key must be there; hint (or NULL) says what it is, in brackets after its name. */
dg_status dg_schema_required(const dg_schema *s, const struct cJSON *obj, const char *path,
                             const char *key, const char *hint) DG_NODISCARD;
/* The value of obj.key when obj has it; *out is left as it is when not. */
dg_status dg_schema_opt_number(const dg_schema *s, const struct cJSON *obj, const char *path,
                               const char *key, double *out) DG_NODISCARD;
dg_status dg_schema_opt_positive(const dg_schema *s, const struct cJSON *obj, const char *path,
                                 const char *key, double *out) DG_NODISCARD;
dg_status dg_schema_opt_int(const dg_schema *s, const struct cJSON *obj, const char *path,
                            const char *key, int lo, int hi, int *out) DG_NODISCARD;
dg_status dg_schema_opt_bool(const dg_schema *s, const struct cJSON *obj, const char *path,
                             const char *key, int *out) DG_NODISCARD;
dg_status dg_schema_opt_string(const dg_schema *s, const struct cJSON *obj, const char *path,
                               const char *key, char *out, size_t cap) DG_NODISCARD;
dg_status dg_schema_opt_choice(const dg_schema *s, const struct cJSON *obj, const char *path,
                               const char *key, const char *const *choices,
                               int *out) DG_NODISCARD;
dg_status dg_schema_opt_vec(const dg_schema *s, const struct cJSON *obj, const char *path,
                            const char *key, int n, double *out) DG_NODISCARD;

/* Edit distance, for did-you-mean (exposed for tests). */
int dg_edit_distance(const char *a, const char *b);

#endif

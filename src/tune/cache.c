#include "tune/cache.h"

#include "backend/cl_maxwell.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "codegen/codegen.h"
#include "core/alloc.h"
#include "core/files.h"
#include "core/hash.h"

/* cJSON reports failure (out of memory) as NULL: one check for all its constructors. */
#define DG_CJSON_GOTO(label, expr)                                                  \
  do {                                                                              \
    if (!(expr)) {                                                                  \
      st = DG_ERROR(DG_ERR_MEMORY, "cJSON: %s failed", #expr);                      \
      goto label;                                                                   \
    }                                                                               \
  } while (0)

void dg_device_key_from_info(const dg_device_info *info, dg_device_key *key) {
  memset(key, 0, sizeof *key);
  snprintf(key->platform_name, sizeof key->platform_name, "%s", info->platform_name);
  snprintf(key->platform_version, sizeof key->platform_version, "%s", info->platform_version);
  snprintf(key->name, sizeof key->name, "%s", info->name);
  snprintf(key->vendor, sizeof key->vendor, "%s", info->vendor);
  snprintf(key->driver_version, sizeof key->driver_version, "%s", info->driver_version);
  snprintf(key->device_version, sizeof key->device_version, "%s", info->device_version);
  key->compute_units = info->compute_units;
}

int dg_device_key_equal(const dg_device_key *a, const dg_device_key *b) {
  return !strcmp(a->platform_name, b->platform_name) &&
         !strcmp(a->platform_version, b->platform_version) && !strcmp(a->name, b->name) &&
         !strcmp(a->vendor, b->vendor) && !strcmp(a->driver_version, b->driver_version) &&
         !strcmp(a->device_version, b->device_version) && a->compute_units == b->compute_units;
}

uint64_t dg_device_key_hash(const dg_device_key *k) {
  const char *s[] = {k->platform_name, k->platform_version, k->name, k->vendor,
                     k->driver_version, k->device_version};
  uint64_t h = DG_FNV_OFFSET;
  for (size_t i = 0; i < sizeof s / sizeof *s; ++i) h = dg_fnv1a(h, s[i], strlen(s[i]) + 1);
  return dg_fnv1a(h, &k->compute_units, sizeof k->compute_units);
}

void dg_device_slug(const char *name, char *buf, size_t cap) {
  size_t n = 0;
  int dash = 0;
  for (const char *p = name; *p && n + 2 < cap; ++p) {
    char c = *p;
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      if (dash && n) buf[n++] = '-';
      buf[n++] = c;
      dash = 0;
    } else {
      dash = 1;
    }
  }
  if (!n) n = (size_t)snprintf(buf, cap, "device");
  buf[n < cap ? n : cap - 1] = '\0';
}

void dg_tune_entry_free(dg_tune_entry *e) {
  if (!e) return;
  dg_free(&e->rank);
  dg_free(&e->reject);
  e->n_rank = e->n_reject = 0;
}

void dg_tune_file_free(dg_tune_file *f) {
  if (!f) return;
  for (int i = 0; i < f->n; ++i) {
    for (int j = 0; j < f->devices[i].n; ++j) dg_tune_entry_free(&f->devices[i].entries[j]);
    dg_free(&f->devices[i].entries);
  }
  dg_free(&f->devices);
  f->n = 0;
}

dg_status dg_tune_paths_default(dg_tune_paths *p) {
  memset(p, 0, sizeof *p);
  DG_CHECK(dg_cache_dir(p->cache_dir, sizeof p->cache_dir), DG_ERR_IO,
           "no cache directory: set DGTD_CACHE_DIR, XDG_CACHE_HOME or HOME (or the name is too long)");
  const char *t = getenv("DGTD_TUNING_DIR");
  if (t && *t) {
    snprintf(p->shipped_dir, sizeof p->shipped_dir, "%s", t);
    return DG_OK;
  }
  /* Beside the executable (bin/dgtd -> ../tuning), else the working directory. */
  if (!dg_beside_exe("tuning", p->shipped_dir, sizeof p->shipped_dir))
    snprintf(p->shipped_dir, sizeof p->shipped_dir, "tuning");
  return DG_OK;
}

void dg_tune_cache_file(const char *dir, const char *device_name, char *buf, size_t cap) {
  char slug[128];
  dg_device_slug(device_name, slug, sizeof slug);
  snprintf(buf, cap, "%s/%s.json", dir, slug);
}

/* ---- JSON <-> structs ---------------------------------------------------------------------- */


static const char *get_str(const cJSON *o, const char *k) {
  const cJSON *i = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsString(i) ? i->valuestring : NULL;
}

static int get_num(const cJSON *o, const char *k, double *out) {
  const cJSON *i = cJSON_GetObjectItemCaseSensitive(o, k);
  if (!cJSON_IsNumber(i)) return 0;
  *out = i->valuedouble;
  return 1;
}

/* A whole number in [lo, hi] (checked before any cast: converting an out-of-range double to
 * an integer type is undefined behaviour). */
static int get_whole(const cJSON *o, const char *k, double lo, double hi, double *out) {
  double v;
  if (!get_num(o, k, &v) || !(v >= lo && v <= hi) || v != floor(v)) return 0;
  *out = v;
  return 1;
}

static int copy_str(const cJSON *o, const char *k, char *buf, size_t cap) {
  const char *s = get_str(o, k);
  if (!s || strlen(s) >= cap) return 0;
  snprintf(buf, cap, "%s", s);
  return 1;
}

/* One field of an object written from a struct: the string s, or without one the number x. */
typedef struct {
  const char *name;
  const char *s;
  double x;
} field;

/* An object of the fields f[0..n), in order (NULL when out of memory). */
static cJSON *object_of(const field *f, int n) {
  cJSON *o = cJSON_CreateObject();
  for (int i = 0; o && i < n; ++i) {
    const int ok = f[i].s ? cJSON_AddStringToObject(o, f[i].name, f[i].s) != NULL
                          : cJSON_AddNumberToObject(o, f[i].name, f[i].x) != NULL;
    if (!ok) {
      cJSON_Delete(o);
      o = NULL;
    }
  }
  return o;
}

static cJSON *key_to_json(const dg_device_key *k) {
  const field f[] = {
      {"platform_name", k->platform_name, 0}, {"platform_version", k->platform_version, 0},
      {"name", k->name, 0}, {"vendor", k->vendor, 0}, {"driver_version", k->driver_version, 0},
      {"device_version", k->device_version, 0}, {"compute_units", NULL, k->compute_units}};
  return object_of(f, (int)(sizeof f / sizeof f[0]));
}

static int key_from_json(const cJSON *o, dg_device_key *k) {
  double cu;
  memset(k, 0, sizeof *k);
  return cJSON_IsObject(o) && copy_str(o, "platform_name", k->platform_name, sizeof k->platform_name) &&
         copy_str(o, "platform_version", k->platform_version, sizeof k->platform_version) &&
         copy_str(o, "name", k->name, sizeof k->name) &&
         copy_str(o, "vendor", k->vendor, sizeof k->vendor) &&
         copy_str(o, "driver_version", k->driver_version, sizeof k->driver_version) &&
         copy_str(o, "device_version", k->device_version, sizeof k->device_version) &&
         get_whole(o, "compute_units", 0, 4294967295.0, &cu) && (k->compute_units = (unsigned)cu, 1);
}

static cJSON *limits_to_json(const dg_device_limits *l) {
  const field f[] = {{"bandwidth_gbs", NULL, l->bandwidth_gbs},
                     {"fma_gflops_float", NULL, l->fma_gflops[0]},
                     {"fma_gflops_double", NULL, l->fma_gflops[1]},
                     {"gemm_gflops_float", NULL, l->gemm_gflops[0]},
                     {"gemm_gflops_double", NULL, l->gemm_gflops[1]},
                     {"seconds", NULL, l->seconds},
                     {"date", l->date, 0}};
  return object_of(f, (int)(sizeof f / sizeof f[0]));
}

static int limits_from_json(const cJSON *o, dg_device_limits *l) {
  memset(l, 0, sizeof *l);
  return cJSON_IsObject(o) && get_num(o, "bandwidth_gbs", &l->bandwidth_gbs) &&
         get_num(o, "fma_gflops_float", &l->fma_gflops[0]) &&
         get_num(o, "fma_gflops_double", &l->fma_gflops[1]) &&
         get_num(o, "gemm_gflops_float", &l->gemm_gflops[0]) &&
         get_num(o, "gemm_gflops_double", &l->gemm_gflops[1]) &&
         (get_num(o, "seconds", &l->seconds) || 1) && copy_str(o, "date", l->date, sizeof l->date) &&
         l->bandwidth_gbs > 0 && l->fma_gflops[0] > 0;
}

static cJSON *entry_to_json(const dg_tune_entry *e) {
  char hash[32];
  snprintf(hash, sizeof hash, "%016" PRIx64, e->template_hash);
  cJSON *o = cJSON_CreateObject(), *rank = NULL, *rej = NULL;
  if (!o) return NULL;
  int ok = cJSON_AddNumberToObject(o, "N", e->N) &&
           cJSON_AddStringToObject(o, "precision", dg_precision_name(e->precision)) &&
           cJSON_AddStringToObject(o, "kernel_set", DG_TUNE_KERNEL_SET) &&
           cJSON_AddStringToObject(o, "template_hash", hash) &&
           cJSON_AddStringToObject(o, "winner", e->winner) &&
           cJSON_AddNumberToObject(o, "median_ns", e->median_ns) &&
           cJSON_AddNumberToObject(o, "min_ns", e->min_ns) &&
           cJSON_AddNumberToObject(o, "max_ns", e->max_ns) &&
           cJSON_AddStringToObject(o, "runner_up", e->runner_up) &&
           cJSON_AddNumberToObject(o, "runner_up_margin", e->runner_up_margin) &&
           cJSON_AddNumberToObject(o, "baseline_ns", e->baseline_ns) &&
           cJSON_AddStringToObject(o, "default_spec", e->default_spec) &&
           cJSON_AddNumberToObject(o, "default_ns", e->default_ns) &&
           cJSON_AddNumberToObject(o, "K", (double)e->K) &&
           cJSON_AddNumberToObject(o, "dofs", e->dofs) &&
           cJSON_AddStringToObject(o, "date", e->date) &&
           cJSON_AddNumberToObject(o, "tune_seconds", e->tune_seconds) &&
           cJSON_AddNumberToObject(o, "variants_valid", e->variants_valid) &&
           cJSON_AddBoolToObject(o, "budget_hit", e->budget_hit) &&
           cJSON_AddStringToObject(o, "bucket", e->bucket ? "small" : "large") &&
           cJSON_AddNumberToObject(o, "model_rank", e->model_rank) &&
           cJSON_AddNumberToObject(o, "model_err", isfinite(e->model_err) ? e->model_err : 0) &&
           cJSON_AddStringToObject(o, "seeded_from", e->seeded_from) &&
           (rank = cJSON_AddArrayToObject(o, "ranking")) &&
           (rej = cJSON_AddArrayToObject(o, "rejected"));
  for (int i = 0; ok && i < e->n_rank; ++i) {
    cJSON *r = cJSON_CreateObject();
    ok = r && cJSON_AddItemToArray(rank, r) && cJSON_AddStringToObject(r, "spec", e->rank[i].spec) &&
         cJSON_AddNumberToObject(r, "median_ns", e->rank[i].median_ns) &&
         cJSON_AddNumberToObject(r, "min_ns", e->rank[i].min_ns) &&
         cJSON_AddNumberToObject(r, "max_ns", e->rank[i].max_ns) &&
         cJSON_AddNumberToObject(r, "stage", e->rank[i].stage);
  }
  for (int i = 0; ok && i < e->n_reject; ++i) {
    cJSON *r = cJSON_CreateObject();
    ok = r && cJSON_AddItemToArray(rej, r) &&
         cJSON_AddStringToObject(r, "spec", e->reject[i].spec) &&
         cJSON_AddStringToObject(r, "reason", e->reject[i].reason);
  }
  if (!ok) {
    cJSON_Delete(o);
    return NULL;
  }
  return o;
}

/* 1 if o is a complete entry (everything a lookup and a report need). */
static int entry_from_json(const cJSON *o, dg_tune_entry *e) {
  memset(e, 0, sizeof *e);
  double N = 0, K = 0, vv = 0;
  const char *prec = get_str(o, "precision"), *hash = get_str(o, "template_hash");
  const char *set = get_str(o, "kernel_set");
  if (!cJSON_IsObject(o) || !get_num(o, "N", &N) || N < 1 || N > 15 || N != (int)N || !prec ||
      !hash || !set || strcmp(set, DG_TUNE_KERNEL_SET) != 0)
    return 0;
  e->N = (int)N;
  if (!strcmp(prec, "float")) e->precision = DG_PREC_FLOAT;
  else if (!strcmp(prec, "double")) e->precision = DG_PREC_DOUBLE;
  else return 0;
  char *end = NULL;
  e->template_hash = strtoull(hash, &end, 16);
  if (end == hash || *end) return 0;
  dg_variant v;
  if (!copy_str(o, "winner", e->winner, sizeof e->winner) || !get_num(o, "median_ns", &e->median_ns) ||
      !(e->median_ns > 0) || !get_num(o, "min_ns", &e->min_ns) || !get_num(o, "max_ns", &e->max_ns) ||
      !copy_str(o, "runner_up", e->runner_up, sizeof e->runner_up) ||
      !get_num(o, "runner_up_margin", &e->runner_up_margin) ||
      !copy_str(o, "date", e->date, sizeof e->date))
    return 0;
  /* The winner must be a variant of the entry's precision: anything else is not ours. */
  if (dg_variant_parse(e->winner, &v) != DG_OK) {
    dg_error_clear();
    return 0;
  }
  if (v.precision != e->precision || v.test != DG_VTEST_NONE) return 0;
  get_num(o, "baseline_ns", &e->baseline_ns);
  copy_str(o, "default_spec", e->default_spec, sizeof e->default_spec);
  get_num(o, "default_ns", &e->default_ns);
  if (get_whole(o, "K", 0, 2147483647.0, &K)) e->K = (long)K;
  get_num(o, "dofs", &e->dofs);
  get_num(o, "tune_seconds", &e->tune_seconds);
  if (get_whole(o, "variants_valid", 0, 2147483647.0, &vv)) e->variants_valid = (int)vv;
  e->budget_hit = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "budget_hit"));
  const char *bucket = get_str(o, "bucket");
  if (bucket && strcmp(bucket, "large") != 0 && strcmp(bucket, "small") != 0) return 0;
  e->bucket = bucket && !strcmp(bucket, "small");
  double mr = 0;
  if (get_whole(o, "model_rank", 0, 1e6, &mr)) e->model_rank = (int)mr;
  get_num(o, "model_err", &e->model_err);
  copy_str(o, "seeded_from", e->seeded_from, sizeof e->seeded_from);
  const cJSON *rank = cJSON_GetObjectItemCaseSensitive(o, "ranking");
  const cJSON *rej = cJSON_GetObjectItemCaseSensitive(o, "rejected");
  const int nr = cJSON_IsArray(rank) ? cJSON_GetArraySize(rank) : 0;
  const int nj = cJSON_IsArray(rej) ? cJSON_GetArraySize(rej) : 0;
  if (nr && dg_calloc(&e->rank, (size_t)nr, sizeof *e->rank) != DG_OK) goto oom;
  if (nj && dg_calloc(&e->reject, (size_t)nj, sizeof *e->reject) != DG_OK) goto oom;
  const cJSON *it;
  cJSON_ArrayForEach(it, rank) {
    dg_tune_rank *r = &e->rank[e->n_rank];
    double stage = 0;
    if (!copy_str(it, "spec", r->spec, sizeof r->spec) || !get_num(it, "median_ns", &r->median_ns))
      continue;
    get_num(it, "min_ns", &r->min_ns);
    get_num(it, "max_ns", &r->max_ns);
    get_whole(it, "stage", 0, 1000, &stage);
    r->stage = (int)stage;
    e->n_rank++;
  }
  cJSON_ArrayForEach(it, rej) {
    dg_tune_reject *r = &e->reject[e->n_reject];
    if (!copy_str(it, "spec", r->spec, sizeof r->spec)) continue;
    const char *why = get_str(it, "reason");
    snprintf(r->reason, sizeof r->reason, "%s", why ? why : "");
    e->n_reject++;
  }
  return 1;
oom:
  dg_error_clear();
  dg_tune_entry_free(e);
  return 0;
}

/* ---- reading ------------------------------------------------------------------------------ */

static dg_status read_text(const char *path, char **text, int *exists) {
  *text = NULL;
  *exists = 0;
  FILE *f = fopen(path, "rb");
  if (!f) {
    if (errno == ENOENT) return DG_OK;
    return DG_ERROR(DG_ERR_IO, "cannot open %s: %s", path, strerror(errno));
  }
  *exists = 1;
  dg_status st = DG_OK;
  size_t cap = 0, len = 0;
  char *buf = NULL;
  for (;;) {
    if (len + 4096 + 1 > cap) {
      cap = cap ? 2 * cap : 16384;
      char *nb = realloc(buf, cap);
      DG_CHECK_GOTO(done, nb, DG_ERR_MEMORY, "out of memory reading %s", path);
      buf = nb;
    }
    const size_t got = fread(buf + len, 1, cap - len - 1, f);
    len += got;
    if (got == 0) break;
  }
  DG_CHECK_GOTO(done, !ferror(f), DG_ERR_IO, "cannot read %s", path);
  buf[len] = '\0';
  *text = buf;
  buf = NULL;
done:
  free(buf);
  fclose(f);
  return st;
}

/* Parse a cache document into out; DG_ERR_PARSE if it is not one. */
static dg_status parse_doc(const cJSON *doc, const char *path, dg_tune_file *out, int *dropped) {
  const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(doc, "format");
  const cJSON *devs = cJSON_GetObjectItemCaseSensitive(doc, "devices");
  DG_CHECK(cJSON_IsObject(doc) && cJSON_IsString(fmt) && !strcmp(fmt->valuestring, DG_TUNE_FORMAT) &&
               cJSON_IsArray(devs),
           DG_ERR_PARSE, "%s: not a dgtd tuning file (expected {\"format\": \"%s\", \"devices\": [...]})",
           path, DG_TUNE_FORMAT);
  const int nd = cJSON_GetArraySize(devs);
  if (nd) DG_CALL(dg_calloc(&out->devices, (size_t)nd, sizeof *out->devices));
  const cJSON *d;
  cJSON_ArrayForEach(d, devs) {
    dg_tune_device_rec *r = &out->devices[out->n];
    if (!key_from_json(cJSON_GetObjectItemCaseSensitive(d, "key"), &r->key)) {
      ++*dropped;
      continue;
    }
    const cJSON *lim = cJSON_GetObjectItemCaseSensitive(d, "limits");
    r->has_limits = lim && limits_from_json(lim, &r->limits);
    const cJSON *ents = cJSON_GetObjectItemCaseSensitive(d, "entries");
    const int ne = cJSON_IsArray(ents) ? cJSON_GetArraySize(ents) : 0;
    out->n++; /* counted now so a failure below frees it */
    if (ne) DG_CALL(dg_calloc(&r->entries, (size_t)ne, sizeof *r->entries));
    const cJSON *e;
    cJSON_ArrayForEach(e, ents) {
      if (entry_from_json(e, &r->entries[r->n]))
        r->n++;
      else
        ++*dropped;
    }
  }
  return DG_OK;
}

dg_status dg_tune_file_read(const char *path, dg_tune_file *out, int *exists, int *n_dropped) {
  dg_status st = DG_OK;
  char *text = NULL;
  cJSON *doc = NULL;
  int dropped = 0;
  memset(out, 0, sizeof *out);
  DG_CALL(read_text(path, &text, exists));
  if (!*exists) goto done;
  doc = cJSON_Parse(text);
  if (!doc) {
    const char *at = cJSON_GetErrorPtr();
    long off = at && at >= text && at <= text + strlen(text) ? (long)(at - text) : -1;
    st = DG_ERROR(DG_ERR_PARSE, "%s: malformed JSON (near byte %ld)", path, off);
    goto done;
  }
  DG_CALL_GOTO(done, parse_doc(doc, path, out, &dropped));
  if (n_dropped) *n_dropped = dropped;
done:
  if (st != DG_OK) dg_tune_file_free(out);
  cJSON_Delete(doc);
  free(text);
  return st;
}

int dg_tune_cache_limits(const char *path, const dg_device_key *key, dg_device_limits *out) {
  dg_tune_file f;
  int exists = 0, found = 0;
  if (dg_tune_file_read(path, &f, &exists, NULL) != DG_OK) {
    dg_error_clear();
    return 0;
  }
  for (int i = 0; i < f.n && !found; ++i)
    if (f.devices[i].has_limits && dg_device_key_equal(&f.devices[i].key, key)) {
      *out = f.devices[i].limits;
      found = 1;
    }
  dg_tune_file_free(&f);
  return found;
}

/* ---- writing ------------------------------------------------------------------------------ */


/* The record of key in doc's devices array (created if missing). */
static cJSON *device_record(cJSON *devs, const dg_device_key *key) {
  cJSON *d;
  cJSON_ArrayForEach(d, devs) {
    dg_device_key k;
    if (key_from_json(cJSON_GetObjectItemCaseSensitive(d, "key"), &k) && dg_device_key_equal(&k, key))
      return d;
  }
  d = cJSON_CreateObject();
  if (!d) return NULL;
  cJSON *kj = key_to_json(key);
  if (!kj || !cJSON_AddItemToObject(d, "key", kj) || !cJSON_AddArrayToObject(d, "entries") ||
      !cJSON_AddItemToArray(devs, d)) {
    if (kj && !cJSON_GetObjectItemCaseSensitive(d, "key")) cJSON_Delete(kj);
    cJSON_Delete(d);
    return NULL;
  }
  return d;
}

/* Remove from entries what is not a complete entry, or has e's class. */
static void prune_entries(cJSON *ents, const dg_tune_entry *e) {
  for (int i = cJSON_GetArraySize(ents) - 1; i >= 0; --i) {
    dg_tune_entry old;
    const int ok = entry_from_json(cJSON_GetArrayItem(ents, i), &old);
    const int same = ok && e && old.N == e->N && old.precision == e->precision &&
                     old.bucket == e->bucket;
    dg_tune_entry_free(&old);
    if (!ok || same) cJSON_DeleteItemFromArray(ents, i);
  }
}

dg_status dg_tune_cache_store(const char *path, const dg_device_key *key,
                              const dg_device_limits *limits, const dg_tune_entry *e, char *note,
                              size_t note_cap) {
  dg_status st = DG_OK;
  char dir[DG_TUNE_PATH], lock[DG_TUNE_PATH + 8];
  char *text = NULL, *out = NULL;
  cJSON *doc = NULL;
  int fd = -1, exists = 0;
  if (note && note_cap) note[0] = '\0';
  DG_CHECK(strlen(path) < sizeof dir, DG_ERR_IO, "cache path too long: %.200s", path);
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash && slash != dir) {
    *slash = '\0';
    DG_CALL(dg_mkdir_p(dir));
  }
  /* A separate lock file: the data file's inode changes with every rename. */
  snprintf(lock, sizeof lock, "%s.lock", path);
  fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  DG_CHECK(fd >= 0, DG_ERR_IO, "cannot open lock file %s: %s", lock, strerror(errno));
  while (flock(fd, LOCK_EX) != 0) {
    DG_CHECK_GOTO(done, errno == EINTR, DG_ERR_IO, "cannot lock %s: %s", lock, strerror(errno));
  }
  DG_CALL_GOTO(done, read_text(path, &text, &exists));
  if (exists) {
    doc = cJSON_Parse(text);
    dg_tune_file probe;
    int dropped = 0;
    memset(&probe, 0, sizeof probe);
    if (doc && parse_doc(doc, path, &probe, &dropped) != DG_OK) {
      dg_error_clear();
      cJSON_Delete(doc);
      doc = NULL;
    }
    dg_tune_file_free(&probe);
    if (!doc) {
      /* Keep the damaged file for inspection; it is replaced by what we write. */
      char aside[DG_TUNE_PATH + 16];
      snprintf(aside, sizeof aside, "%s.corrupt", path);
      rename(path, aside);
      if (note && note_cap)
        snprintf(note, note_cap, "corrupt cache file %s moved to %s and replaced", path, aside);
    }
  }
  if (!doc) {
    DG_CJSON_GOTO(done, doc = cJSON_CreateObject());
    DG_CJSON_GOTO(done, cJSON_AddStringToObject(doc, "format", DG_TUNE_FORMAT));
    DG_CJSON_GOTO(done, cJSON_AddArrayToObject(doc, "devices"));
  }
  cJSON *devs = cJSON_GetObjectItemCaseSensitive(doc, "devices");
  cJSON *rec = NULL;
  DG_CJSON_GOTO(done, rec = device_record(devs, key));
  if (limits) {
    cJSON *lj = NULL;
    DG_CJSON_GOTO(done, lj = limits_to_json(limits));
    if (cJSON_GetObjectItemCaseSensitive(rec, "limits"))
      cJSON_ReplaceItemInObjectCaseSensitive(rec, "limits", lj);
    else
      cJSON_AddItemToObject(rec, "limits", lj);
  }
  cJSON *ents = cJSON_GetObjectItemCaseSensitive(rec, "entries");
  if (!cJSON_IsArray(ents)) {
    cJSON_DeleteItemFromObjectCaseSensitive(rec, "entries");
    DG_CJSON_GOTO(done, ents = cJSON_AddArrayToObject(rec, "entries"));
  }
  prune_entries(ents, e);
  if (e) {
    cJSON *ej = NULL;
    DG_CJSON_GOTO(done, ej = entry_to_json(e));
    cJSON_AddItemToArray(ents, ej);
  }
  DG_CJSON_GOTO(done, out = cJSON_Print(doc));
  DG_CALL_GOTO(done, dg_atomic_write(path, out, strlen(out)));
done:
  if (fd >= 0) close(fd); /* releases the lock */
  cJSON_free(out);
  cJSON_Delete(doc);
  free(text);
  return st;
}

int dg_tune_entry_fresh(const dg_tune_entry *e, uint64_t dir_hash) {
  if (e->template_hash == dir_hash) return 1;
  dg_variant v;
  uint64_t h = 0;
  if (dg_variant_parse(e->winner, &v) != DG_OK || dg_cl_maxwell_templates_hash(&v, &h) != DG_OK) {
    dg_error_clear(); /* an unreadable winner or template: not fresh */
    return 0;
  }
  return e->template_hash == h;
}

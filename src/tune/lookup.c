/* dg_tune_lookup: where `dgtd run` finds its variant (tune/tune.h). */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "codegen/codegen.h"
#include "tune/tune.h"

const char *dg_tune_found_name(dg_tune_found f) {
  switch (f) {
  case DG_TUNE_HIT: return "hit";
  case DG_TUNE_FALLBACK: return "fallback";
  case DG_TUNE_STALE: return "stale";
  case DG_TUNE_MISS: return "miss";
  }
  return "?";
}

static void append(char *buf, size_t cap, const char *fmt, ...) DG_PRINTF(3, 4);
static void append(char *buf, size_t cap, const char *fmt, ...) {
  if (!buf || !cap) return;
  const size_t len = strlen(buf);
  if (len + 1 >= cap) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + len, cap - len, fmt, ap);
  va_end(ap);
}

/* Read path; a corrupt file becomes a warning in desc and an empty file. */
static void read_or_warn(const char *path, dg_tune_file *f, char *desc, size_t cap) {
  int exists = 0, dropped = 0;
  if (dg_tune_file_read(path, f, &exists, &dropped) != DG_OK) {
    append(desc, cap, "warning: ignoring %s; ", dg_error_message());
    dg_error_clear();
    memset(f, 0, sizeof *f);
  } else if (dropped) {
    append(desc, cap, "warning: %d incomplete entries ignored in %s; ", dropped, path);
  }
}

/* What a lookup asks for. */
typedef struct {
  const dg_device_info *info;
  dg_device_key key;
  int N;
  dg_precision p;
  int bucket;    /* an entry of the other bucket is used when there is none of this one */
  uint64_t hash; /* of the templates */
} query;

/* The fresh entry of (N, p) in rec whose winner this device can run, or NULL; with
 * want_stale, the stale one instead (*stale is set when rec has a stale entry of (N, p)). */
static const dg_tune_entry *pick(const dg_tune_device_rec *rec, const query *q, int want_stale,
                                 dg_variant *v, int *stale) {
  for (int pass = 0; pass < 2; ++pass)
  for (int j = 0; j < rec->n; ++j) {
    const dg_tune_entry *e = &rec->entries[j];
    if (e->N != q->N || e->precision != q->p) continue;
    if ((e->bucket == q->bucket) != (pass == 0)) continue;
    if (dg_tune_entry_fresh(e, q->hash) == want_stale) {
      if (stale && !want_stale) *stale = 1;
      continue;
    }
    char why[128];
    if (dg_variant_parse(e->winner, v) != DG_OK) {
      dg_error_clear();
      continue;
    }
    if (v->precision == q->p && dg_variant_check(v, q->info, q->N, why, sizeof why)) return e;
  }
  return NULL;
}

static const dg_tune_entry *usable(const dg_tune_device_rec *rec, const query *q, dg_variant *v,
                                   int *stale) {
  return pick(rec, q, 0, v, stale);
}

static int copy_entry(dg_tune_entry *dst, const dg_tune_entry *src) {
  if (!dst) return 1;
  *dst = *src;
  dst->rank = NULL;
  dst->reject = NULL;
  dst->n_rank = dst->n_reject = 0; /* the ranking stays with the file */
  return 1;
}

typedef enum { BY_NAME, BY_VENDOR } fb_kind;

/* First fallback record in file f for the query, or 0. */
static int fallback_in(const dg_tune_file *f, const query *q, fb_kind kind, dg_variant *out,
                       dg_tune_entry *entry, const char *path, char *desc, size_t cap) {
  const dg_device_key *key = &q->key;
  for (int i = 0; i < f->n; ++i) {
    const dg_tune_device_rec *r = &f->devices[i];
    if (dg_device_key_equal(&r->key, key)) continue;
    if (kind == BY_NAME && strcmp(r->key.name, key->name) != 0) continue;
    if (kind == BY_VENDOR && strcmp(r->key.vendor, key->vendor) != 0) continue;
    dg_variant v;
    const dg_tune_entry *e = usable(r, q, &v, NULL);
    if (!e) continue;
    *out = v;
    copy_entry(entry, e);
    if (kind == BY_NAME)
      append(desc, cap, "%s, fallback: same device name, tuned with driver %s (platform %s)",
             path, r->key.driver_version, r->key.platform_version);
    else
      append(desc, cap, "%s, fallback: same vendor '%s', tuned on '%s'", path, r->key.vendor,
             r->key.name);
    return 1;
  }
  return 0;
}

/* dg_tune_lookup_at for bucket q->bucket. */
static dg_tune_found lookup(const dg_tune_paths *paths, const query *q, dg_variant *out,
                            dg_tune_entry *entry, char *desc, size_t cap) {
  const dg_device_info *info = q->info;
  const int N = q->N;
  const dg_precision p = q->p;
  if (desc && cap) desc[0] = '\0';
  if (entry) memset(entry, 0, sizeof *entry);
  *out = dg_variant_default(info, N, p);
  const char *dirs[2] = {paths->cache_dir, paths->shipped_dir};
  const char *names[2] = {"cache", "shipped"};
  char files[2][DG_TUNE_PATH + 160];
  dg_tune_file f[2];
  int stale = 0;
  int stale_src = 0;
  dg_tune_found found = DG_TUNE_MISS;
  for (int s = 0; s < 2; ++s) {
    dg_tune_cache_file(dirs[s], info->name, files[s], sizeof files[s]);
    read_or_warn(files[s], &f[s], desc, cap);
  }
  /* 1. This exact device and driver. */
  for (int s = 0; s < 2 && found == DG_TUNE_MISS; ++s)
    for (int i = 0; i < f[s].n && found == DG_TUNE_MISS; ++i) {
      if (!dg_device_key_equal(&f[s].devices[i].key, &q->key)) continue;
      dg_variant v;
      int st = 0;
      const dg_tune_entry *e = usable(&f[s].devices[i], q, &v, &st);
      if (st && !stale) {
        stale = 1;
        stale_src = s;
      }
      if (!e) continue;
      *out = v;
      copy_entry(entry, e);
      append(desc, cap, "%s %s (exact device match, tuned %s)", names[s], files[s], e->date);
      found = DG_TUNE_HIT;
    }
  /* 2. A stale entry of this device: the caller re-tunes; meanwhile its winner, if this
   * device can still run it, is a better guess than the generic default. */
  int stale_used = 0;
  if (found == DG_TUNE_MISS && stale) {
    for (int i = 0; i < f[stale_src].n && !stale_used; ++i) {
      if (!dg_device_key_equal(&f[stale_src].devices[i].key, &q->key)) continue;
      dg_variant v;
      const dg_tune_entry *e = pick(&f[stale_src].devices[i], q, 1, &v, NULL);
      if (!e) continue;
      *out = v;
      copy_entry(entry, e);
      append(desc, cap, "stale entry in %s (tuned %s; the kernels changed since): its winner "
                        "until re-tuned", files[stale_src], e->date);
      stale_used = 1;
    }
    if (stale_used)
      found = DG_TUNE_STALE;
    else /* a stale winner this device cannot run: as good as nothing */
      append(desc, cap, "stale entry in %s (the kernels changed since it was tuned), its winner "
                        "not runnable here; ", files[stale_src]);
  }
  /* 3. Same device name, another driver or platform version. */
  for (int s = 0; s < 2 && found == DG_TUNE_MISS; ++s)
    if (fallback_in(&f[s], q, BY_NAME, out, entry, files[s], desc, cap))
      found = DG_TUNE_FALLBACK;
  /* 4. Same vendor: every device file of both directories. */
  for (int s = 0; s < 2 && found == DG_TUNE_MISS; ++s) {
    DIR *d = opendir(dirs[s]);
    if (!d) continue;
    struct dirent *de;
    while (found == DG_TUNE_MISS && (de = readdir(d))) {
      const size_t len = strlen(de->d_name);
      if (len < 6 || strcmp(de->d_name + len - 5, ".json") != 0) continue;
      char path[DG_TUNE_PATH + 300];
      snprintf(path, sizeof path, "%s/%s", dirs[s], de->d_name);
      dg_tune_file g;
      char ignore[8] = "";
      read_or_warn(path, &g, ignore, sizeof ignore); /* other devices' files: no warnings */
      if (fallback_in(&g, q, BY_VENDOR, out, entry, path, desc, cap))
        found = DG_TUNE_FALLBACK;
      dg_tune_file_free(&g);
    }
    closedir(d);
  }
  if (found == DG_TUNE_MISS)
    append(desc, cap, "no tuning result for '%s' at N=%d %s (looked in %s and %s): default variant",
           info->name, N, dg_precision_name(p), paths->cache_dir,
           paths->shipped_dir);
  if (found == DG_TUNE_MISS) *out = dg_variant_default(info, N, p);
  dg_tune_file_free(&f[0]);
  dg_tune_file_free(&f[1]);
  return found;
}

static query make_query(const dg_device_info *info, int N, dg_precision p, int bucket,
                        uint64_t hash) {
  query q = {.info = info, .N = N, .p = p, .bucket = bucket, .hash = hash};
  dg_device_key_from_info(info, &q.key);
  return q;
}

dg_tune_found dg_tune_lookup_at(const dg_tune_paths *paths, const dg_device_info *info, int N,
                                dg_precision p, uint64_t hash, dg_variant *out,
                                dg_tune_entry *entry, char *desc, size_t cap) {
  const query q = make_query(info, N, p, 0, hash);
  return lookup(paths, &q, out, entry, desc, cap);
}

dg_tune_found dg_tune_lookup_bucket(const dg_tune_paths *paths, const dg_device_info *info,
                                    int N, dg_precision p, int bucket, uint64_t hash,
                                    dg_variant *out, dg_tune_entry *entry, char *desc,
                                    size_t cap) {
  const query q = make_query(info, N, p, bucket, hash);
  dg_tune_entry e;
  const dg_tune_found f = lookup(paths, &q, out, &e, desc, cap);
  if ((f == DG_TUNE_HIT || f == DG_TUNE_FALLBACK) && e.bucket != bucket)
    append(desc, cap, " [tuned for %s problems; this run is %s: `dgtd tune --bucket %s` tunes "
                      "for its size]",
           e.bucket ? "small" : "large", bucket ? "small" : "large", bucket ? "small" : "large");
  if (entry) *entry = e;
  return f;
}

dg_tune_found dg_tune_lookup(const dg_device_info *info, int N, dg_precision p, dg_variant *out,
                             char *desc, size_t cap) {
  dg_tune_paths paths;
  uint64_t hash = 0;
  if (desc && cap) desc[0] = '\0';
  if (dg_tune_paths_default(&paths) != DG_OK || dg_codegen_templates_hash(NULL, &hash) != DG_OK) {
    /* Without a cache directory or templates nothing can be trusted: the default. */
    if (desc && cap) snprintf(desc, cap, "warning: %s: default variant", dg_error_message());
    dg_error_clear();
    *out = dg_variant_default(info, N, p);
    return DG_TUNE_MISS;
  }
  return dg_tune_lookup_at(&paths, info, N, p, hash, out, NULL, desc, cap);
}

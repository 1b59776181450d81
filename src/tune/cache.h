/* The per-device tuning cache (see docs/TUNING.md).
 *
 * One JSON file per device, <dir>/<device-slug>.json, where dir is the user's cache
 * ($DGTD_CACHE_DIR, else $XDG_CACHE_HOME/dgtd, else ~/.cache/dgtd) or the shipped results
 * ($DGTD_TUNING_DIR, else <dir of the executable>/../tuning, else ./tuning):
 *
 *   {"format": "dgtd-tuning/1",
 *    "devices": [{"key": {platform_name, platform_version, name, vendor, driver_version,
 *                         device_version, compute_units},
 *                 "limits": {bandwidth_gbs, fma_gflops_float, ..., date},      (optional)
 *                 "entries": [{N, precision, kernel_set, template_hash, winner, median_ns,
 *                              min_ns, max_ns, runner_up, runner_up_margin, baseline_ns,
 *                              default_spec, default_ns, K, dofs, date, tune_seconds,
 *                              variants_valid, budget_hit, ranking: [...], rejected: [...],
 *                              bucket, model_rank, model_err, seeded_from}]}]}
 *   (the last four are optional: older files load, their entries being bucket "large"; the
 *   ranking keeps every variant timed, with its median, min and max)
 *
 * A file holds several device records (the same device name under other drivers shares the
 * slug). An entry is keyed by (device key, N, precision, kernel_set). Its template_hash is the
 * hash of the template files its winner's program is built from
 * (dg_cl_maxwell_templates_hash); it is stale when those changed (a changed template may
 * change the winner, or make it wrong), and stays fresh when only templates its winner does
 * not use were added or edited. Entries written before that hash existed hold the hash of
 * the whole template directory, and are fresh while it matches (dg_tune_entry_fresh). Writes merge with what is on disk under an exclusive flock on
 * <file>.lock and replace the file atomically (temp file in the same directory + rename), so
 * concurrent tuners and killed processes always leave a complete, valid file. */
#ifndef DG_TUNE_CACHE_H
#define DG_TUNE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "backend/variant.h"
#include "core/hash.h"
#include "core/status.h"
#include "device/device.h"
#include "tune/limits.h"

enum { DG_TUNE_PATH = 1024 };

#define DG_TUNE_KERNEL_SET "maxwell-lserk4" /* the kernels one tuning result covers */
#define DG_TUNE_FORMAT "dgtd-tuning/1"

/* What identifies a device and its compiler. */
typedef struct {
  char platform_name[DG_DEVICE_STR];
  char platform_version[DG_DEVICE_STR];
  char name[DG_DEVICE_STR];
  char vendor[DG_DEVICE_STR];
  char driver_version[DG_DEVICE_STR];
  char device_version[DG_DEVICE_STR];
  unsigned compute_units;
} dg_device_key;

void dg_device_key_from_info(const dg_device_info *info, dg_device_key *key);
int dg_device_key_equal(const dg_device_key *a, const dg_device_key *b);
/* A 64-bit FNV-1a hash of the key (for journal and binary file names). */
uint64_t dg_device_key_hash(const dg_device_key *key);

/* File-name slug of a device name: lower case, runs of anything but [a-z0-9] become '-'. */
void dg_device_slug(const char *name, char *buf, size_t cap);

/* One timed variant of a tuning run, and one that was rejected (failed build, crash,
 * verification failure) with the reason. */
typedef struct {
  char spec[DG_VARIANT_SPEC_MAX];
  double median_ns, min_ns, max_ns;
  int stage;
} dg_tune_rank;
typedef struct {
  char spec[DG_VARIANT_SPEC_MAX];
  char reason[200];
} dg_tune_reject;

/* The result of tuning one problem class on one device. */
typedef struct {
  int N;
  dg_precision precision;
  uint64_t template_hash;
  char winner[DG_VARIANT_SPEC_MAX];
  double median_ns, min_ns, max_ns;    /* winner's stage time */
  char runner_up[DG_VARIANT_SPEC_MAX]; /* "" if only one variant was timed */
  double runner_up_margin;             /* runner-up median / winner median - 1 */
  double baseline_ns;                  /* 0 if the baseline was not timed */
  char default_spec[DG_VARIANT_SPEC_MAX];
  double default_ns;
  long K;                              /* elements of the timing problem */
  double dofs;
  char date[32];
  double tune_seconds;
  int variants_valid;                  /* size of the valid space */
  int budget_hit;                      /* 1: the search stopped at its time budget */
  int bucket;                          /* dg_bucket (tune/model.h): 0 large, 1 small; files
                                          without the field are large */
  int model_rank;                      /* the cost model's rank of the winner before timing
                                          (1 = predicted fastest; 0 unknown) */
  double model_err;                    /* winner's predicted / measured time - 1 */
  char seeded_from[200];               /* where the search's seeds came from ("" none) */
  int n_rank, n_reject;
  dg_tune_rank *rank;                  /* timed variants, fastest first */
  dg_tune_reject *reject;
} dg_tune_entry;
void dg_tune_entry_free(dg_tune_entry *e); /* frees rank and reject */
/* 1 if e was tuned with the templates its winner is built from now: its template_hash is the
 * winner's program hash (dg_cl_maxwell_templates_hash), or the whole directory's dir_hash
 * (dg_codegen_templates_hash; older entries). */
int dg_tune_entry_fresh(const dg_tune_entry *e, uint64_t dir_hash);

/* A parsed cache file. */
typedef struct {
  dg_device_key key;
  int has_limits;
  dg_device_limits limits;
  int n;
  dg_tune_entry *entries;
} dg_tune_device_rec;
typedef struct {
  int n;
  dg_tune_device_rec *devices;
} dg_tune_file;

/* Read and validate path. A missing file gives *exists = 0, DG_OK and an empty file.
 * Malformed JSON or a wrong structure gives DG_ERR_PARSE naming the file (nothing is kept);
 * single incomplete entries are dropped, counted in *n_dropped (may be NULL). */
dg_status dg_tune_file_read(const char *path, dg_tune_file *out, int *exists,
                            int *n_dropped) DG_NODISCARD;
void dg_tune_file_free(dg_tune_file *f);

/* Merge into path, under its lock, atomically: the device record of key gets limits (if
 * non-NULL) and entry e (if non-NULL; it replaces an entry of the same N, precision, bucket
 * and kernel set). A corrupt file on disk is moved aside to <path>.corrupt (named in *note if
 * non-NULL, else ignored) and replaced. Creates the directory. */
dg_status dg_tune_cache_store(const char *path, const dg_device_key *key,
                              const dg_device_limits *limits, const dg_tune_entry *e,
                              char *note, size_t note_cap) DG_NODISCARD;

/* Where results live. */
typedef struct {
  char cache_dir[DG_TUNE_PATH];   /* the device's own results (written by tune) */
  char shipped_dir[DG_TUNE_PATH]; /* tuning/ (read only) */
} dg_tune_paths;
/* Fill from the environment as described at the top (the directories need not exist). */
dg_status dg_tune_paths_default(dg_tune_paths *p) DG_NODISCARD;
/* dir/<slug>.json for a device. */
void dg_tune_cache_file(const char *dir, const char *device_name, char *buf, size_t cap);

/* Cached limits of the device with key in file path: 1 if found (into *out), 0 if not
 * (missing or corrupt file: never an error). */
int dg_tune_cache_limits(const char *path, const dg_device_key *key, dg_device_limits *out);


#endif

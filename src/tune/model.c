/* Cost model, buckets, known devices and the run-aware budget (tune/model.h). */
#include "tune/model.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "tune/counts.h"

/* ---- buckets ------------------------------------------------------------------------------ */

const char *dg_bucket_name(dg_bucket b) { return b == DG_BUCKET_SMALL ? "small" : "large"; }

int dg_bucket_parse(const char *s, dg_bucket *out) {
  if (!s) return -1;
  if (!strcmp(s, "large")) *out = DG_BUCKET_LARGE;
  else if (!strcmp(s, "small")) *out = DG_BUCKET_SMALL;
  else return -1;
  return 0;
}

double dg_host_cache_bytes(void) {
  long c = -1;
#ifdef _SC_LEVEL2_CACHE_SIZE
  c = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
  return c > 0 ? (double)c : 1024.0 * 1024;
}

/* The caches a CPU device's cores own: L2 per core times the compute units (the shared L3 of
 * a virtual machine is reported whole, though a few cores of it are ours). */
static double cpu_cache_bytes(const dg_device_info *info) {
  return dg_host_cache_bytes() * (info->compute_units ? info->compute_units : 1);
}

static int is_gpu(const dg_device_info *info) {
  return (info->type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)) != 0;
}

static double gpu_fill_dofs(const dg_device_info *info) {
  return 16384.0 * (info->compute_units ? info->compute_units : 1);
}

dg_bucket dg_bucket_of(const dg_device_info *info, int N, dg_precision p, long K) {
  const dg_stage_counts c = dg_count_stage(N, p, K);
  if (is_gpu(info)) return c.dofs < gpu_fill_dofs(info) ? DG_BUCKET_SMALL : DG_BUCKET_LARGE;
  return c.bytes <= cpu_cache_bytes(info) ? DG_BUCKET_SMALL : DG_BUCKET_LARGE;
}

double dg_gpu_cache_bytes(const dg_device_info *info) {
  return fmax((double)info->global_mem_cache_size, DG_GPU_CACHE_FLOOR);
}

double dg_tune_target_dofs(const dg_device_info *info, dg_precision p) {
  const double cu = info->compute_units ? info->compute_units : 1;
  const double rs = p == DG_PREC_DOUBLE ? 8 : 4;
  /* GPU: the state a stage reads and writes (q and res, 2 x 2 reals per DOF) at least
   * DG_GPU_CACHE_TIMES times the last-level cache, so no timing runs from the cache. */
  double d = is_gpu(info)
                 ? fmax(fmax(1e6, 65536.0 * cu),
                        DG_GPU_CACHE_TIMES * dg_gpu_cache_bytes(info) / (4 * rs))
                 : 262144.0 * cu;
  /* ~16 reals per DOF per operator (q, res, rhs, fluxes, CLBlast's derivatives): a batch of
   * 4 within half the memory, and the largest buffer (3 derivative fields) within one
   * allocation. */
  const double by_mem = (double)info->global_mem_size / 2 / 4 / (16 * rs);
  const double by_alloc = (double)info->max_alloc_size / (3 * 1.25 * rs);
  if (info->global_mem_size && d > by_mem) d = by_mem;
  if (info->max_alloc_size && d > by_alloc) d = by_alloc;
  return d;
}

int dg_tune_box_n(double dofs, int N) {
  const int n = (int)lround(cbrt(dofs / (36.0 * dg_variant_np(N))));
  return n < 2 ? 2 : n;
}

double dg_bucket_target_dofs(const dg_device_info *info, int N, dg_precision p, dg_bucket b) {
  if (b == DG_BUCKET_LARGE) return dg_tune_target_dofs(info, p);
  if (is_gpu(info)) return gpu_fill_dofs(info) / 2;
  /* Half the cache: a box whose stage moves about cache/2 bytes. */
  const double per_elem = dg_count_bytes_element(N, p);
  const double K = cpu_cache_bytes(info) / 2 / per_elem;
  double d = 6.0 * dg_variant_np(N) * (K < 48 ? 48 : K);
  return d;
}

/* ---- features ------------------------------------------------------------------------------- */

static int lg2(int x) {
  int l = 0;
  while (x > 1 && l < 15) x >>= 1, ++l;
  return l;
}

/* Feature indices of v (dimension * 16 + value code). */
static int features(const dg_variant *v, int N, dg_precision p, int *f) {
  int n = 0;
  f[n++] = 0 * 16 + (int)v->path;
  if (v->path == DG_PATH_CLBLAST) return n;
  f[n++] = 1 * 16 + (int)v->work;
  f[n++] = 2 * 16 + (p == DG_PREC_DOUBLE ? 8 : 0) + (lg2(v->vw) & 7);
  f[n++] = 3 * 16 + lg2(v->kb);
  f[n++] = 4 * 16 + lg2(v->lkb);
  f[n++] = 5 * 16 + (int)v->vplace;
  f[n++] = 6 * 16 + (int)v->lplace;
  f[n++] = 7 * 16 + (v->unroll == 0 ? 0 : v->unroll == 1 ? 1 : 2);
  f[n++] = 8 * 16 + (v->literal ? 1 : 0);
  /* fuse=rhs|res|step replaces the surface kernels: codes after the lift modes */
  f[n++] = 9 * 16 + (v->fuse != DG_FUSE_NONE ? 2 + (int)v->fuse : (int)v->lift);
  f[n++] = 10 * 16 + (int)v->flux;
  f[n++] = 11 * 16 + lg2(v->lnpw);
  /* the family: work x lift (0..8), or fuse x work for the fused kernels, which take
   * work=node|vec only (9..14); fewer than 16 either way */
  const int fam = v->fuse != DG_FUSE_NONE
                      ? 9 + ((int)v->fuse - 1) * 2 + (v->work == DG_WORK_VEC)
                      : (int)v->work * 3 + (int)v->lift;
  f[n++] = 12 * 16 + fam;
  const int nc = N <= 2 ? 0 : N <= 4 ? 1 : 2;
  f[n++] = 13 * 16 + nc * 5 + (lg2(v->vw) > 4 ? 4 : lg2(v->vw));
  f[n++] = 14 * 16 + nc * 5 + (lg2(v->kb) > 4 ? 4 : lg2(v->kb));
  f[n++] = 15 * 16 + nc * 5 + (lg2(v->lkb) > 4 ? 4 : lg2(v->lkb));
  /* Interactions the additive factors cannot express: the best vector width and block count
   * depend on the family (fuse=res wants 4 doubles per lane group on AVX2, the split kernels
   * 8). One dimension per vector width in bytes (4..64) and per kb, coded by family; a
   * family's width it has never been timed at is then not covered, so never pruned. */
  const int vb = lg2(v->vw * (p == DG_PREC_DOUBLE ? 2 : 1));
  f[n++] = (16 + (vb > 4 ? 4 : vb)) * 16 + fam;
  f[n++] = (21 + (lg2(v->kb) > 4 ? 4 : lg2(v->kb))) * 16 + fam;
  return n;
}

/* ---- model ---------------------------------------------------------------------------------- */

static const double PRIOR_EFF = 0.10; /* roofline efficiency assumed with no data */
static const double LAMBDA = 1.0;      /* ridge weight pulling each factor to 0 */

void dg_model_init(dg_cost_model *m, const dg_device_info *info, const dg_device_limits *l) {
  memset(m, 0, sizeof *m);
  m->b = log(1 / PRIOR_EFF);
  if (l && l->bandwidth_gbs > 0 && l->fma_gflops[0] > 0) {
    m->limits = *l;
    m->have_limits = 1;
    return;
  }
  /* A stand-in: 16 float FMA lanes per compute unit and clock, 10 GB/s per compute unit. */
  const double cu = info && info->compute_units ? info->compute_units : 1;
  const double ghz = info && info->clock_mhz ? info->clock_mhz / 1000.0 : 2.0;
  m->limits.bandwidth_gbs = 10 * cu;
  m->limits.fma_gflops[0] = 32 * cu * ghz;
  m->limits.fma_gflops[1] = 16 * cu * ghz;
}

static double bound_with(const dg_device_limits *l, int N, dg_precision p, long K) {
  const dg_stage_counts c = dg_count_stage(N, p, K);
  double b = dg_limits_roofline_s(l, p, c.flops, c.bytes);
  if (!(b > 0) && l->bandwidth_gbs > 0) b = c.bytes / (l->bandwidth_gbs * 1e9);
  return b > 0 ? b : c.flops / 1e11;
}

double dg_model_bound_s(const dg_cost_model *m, int N, dg_precision p, long K) {
  return bound_with(&m->limits, N, p, K);
}

void dg_model_fit(dg_cost_model *m, const dg_model_sample *s, int n) {
  memset(m->f, 0, sizeof m->f);
  memset(m->w, 0, sizeof m->w);
  m->nsamples = 0;
  m->wsum = 0;
  if (n <= 0) return;
  int (*fi)[DG_MODEL_DIMS] = malloc(sizeof *fi * (size_t)n);
  int *nf = malloc(sizeof *nf * (size_t)n);
  double *r = malloc(sizeof *r * (size_t)n);
  if (!fi || !nf || !r) goto out;
  double sw = 0, sr = 0;
  for (int i = 0; i < n; ++i) {
    const double bound = s[i].bound_s > 0 ? s[i].bound_s : dg_model_bound_s(m, s[i].N, s[i].p, s[i].K);
    r[i] = s[i].ns > 0 && bound > 0 ? log(s[i].ns * 1e-9 / bound) : 0;
    nf[i] = features(&s[i].v, s[i].N, s[i].p, fi[i]);
    const double w = s[i].ns > 0 ? s[i].w : 0;
    sw += w;
    sr += w * r[i];
    for (int j = 0; j < nf[i]; ++j) m->w[fi[i][j]] += w;
  }
  if (!(sw > 0)) goto out;
  m->b = sr / sw;
  m->wsum = sw;
  m->nsamples = n;
  /* Backfitting, one dimension at a time (a sample has at most one feature per dimension,
   * so each step is the exact ridge minimiser for that dimension given the others). */
  double num[DG_MODEL_NF];
  for (int sweep = 0; sweep < 20; ++sweep) {
    for (int d = 0; d < DG_MODEL_NF / 16; ++d) {
      memset(num, 0, sizeof num);
      for (int i = 0; i < n; ++i) {
        if (!(s[i].ns > 0)) continue;
        double pred = m->b;
        int fd = -1;
        for (int j = 0; j < nf[i]; ++j) {
          pred += m->f[fi[i][j]];
          if (fi[i][j] / 16 == d) fd = fi[i][j];
        }
        if (fd >= 0) num[fd] += s[i].w * (r[i] - pred + m->f[fd]);
      }
      for (int k = d * 16; k < d * 16 + 16; ++k)
        if (m->w[k] > 0) m->f[k] = num[k] / (m->w[k] + LAMBDA);
    }
    double rb = 0;
    for (int i = 0; i < n; ++i) {
      if (!(s[i].ns > 0)) continue;
      double pred = 0;
      for (int j = 0; j < nf[i]; ++j) pred += m->f[fi[i][j]];
      rb += s[i].w * (r[i] - pred);
    }
    m->b = rb / sw;
  }
out:
  free(fi);
  free(nf);
  free(r);
}

double dg_model_predict_ns(const dg_cost_model *m, const dg_variant *v, int N, dg_precision p,
                           long K) {
  int f[DG_MODEL_DIMS];
  const int n = features(v, N, p, f);
  double l = m->b;
  for (int j = 0; j < n; ++j) l += m->f[f[j]];
  return dg_model_bound_s(m, N, p, K) * exp(l) * 1e9;
}

int dg_model_covers(const dg_cost_model *m, const dg_variant *v, int N, dg_precision p) {
  int f[DG_MODEL_DIMS];
  const int n = features(v, N, p, f);
  for (int j = 0; j < n; ++j)
    if (!(m->w[f[j]] > 0)) return 0;
  return 1;
}

/* ---- known devices ---------------------------------------------------------------------- */

static int add_sample(dg_known *k, const dg_variant *v, int N, dg_precision p, long K, double ns,
                      double w, double bound_s) {
  if (k->n == k->cap) {
    const int nc = k->cap ? 2 * k->cap : 256;
    dg_model_sample *ns2 = realloc(k->s, sizeof *ns2 * (size_t)nc);
    if (!ns2) return 0;
    k->s = ns2;
    k->cap = nc;
  }
  dg_model_sample *s = &k->s[k->n++];
  s->v = *v;
  s->N = N;
  s->p = p;
  s->K = K;
  s->ns = ns;
  s->w = w;
  s->bound_s = bound_s;
  return 1;
}

static int similarity(const dg_device_key *a, const dg_device_key *b) {
  if (dg_device_key_equal(a, b)) return 4;
  if (!strcmp(a->name, b->name)) return 3;
  if (!strcmp(a->vendor, b->vendor) && !strcmp(a->platform_name, b->platform_name)) return 2;
  if (!strcmp(a->platform_name, b->platform_name)) return 1;
  return 0;
}

static void add_seed(dg_known *k, const char *spec) {
  for (int i = 0; i < k->n_seeds; ++i)
    if (!strcmp(k->seeds[i], spec)) return;
  if (k->n_seeds < 8) snprintf(k->seeds[k->n_seeds++], DG_VARIANT_SPEC_MAX, "%s", spec);
}

static void scan_file(const char *path, const dg_device_key *key, const dg_device_info *info,
                      int N, dg_precision p, dg_bucket bucket, uint64_t hash, dg_known *k) {
  dg_tune_file f;
  int exists = 0;
  if (dg_tune_file_read(path, &f, &exists, NULL) != DG_OK) {
    dg_error_clear();
    return;
  }
  for (int d = 0; d < f.n; ++d) {
    const dg_tune_device_rec *rec = &f.devices[d];
    const int sim = similarity(key, &rec->key);
    if (sim == 0) continue;
    const dg_device_limits *lim = rec->has_limits ? &rec->limits : NULL;
    if (sim == 4 && lim && !k->have_self_limits) {
      k->self_limits = *lim;
      k->have_self_limits = 1;
    }
    if (sim < 4 && lim && sim >= k->seed_score) {
      k->other_limits = *lim;
      k->have_other_limits = 1;
    }
    const double w = sim == 4 ? 1.0 : 0.15 * sim;
    for (int j = 0; j < rec->n; ++j) {
      const dg_tune_entry *e = &rec->entries[j];
      const int fresh = dg_tune_entry_fresh(e, hash);
      /* Measurements: every ranking, fresh or stale (a template change rarely moves the
       * factors much), bounded by the limits of the device that measured them. */
      for (int r = 0; r < e->n_rank; ++r) {
        dg_variant v;
        if (dg_variant_parse(e->rank[r].spec, &v) != DG_OK) {
          dg_error_clear();
          continue;
        }
        const double b = lim ? bound_with(lim, e->N, e->precision, e->K) : 0;
        if (e->K > 0 && !add_sample(k, &v, e->N, e->precision, e->K, e->rank[r].median_ns,
                                    fresh ? w : 0.5 * w, b))
          break;
      }
      if (sim == 4 && e->bucket == (int)bucket && fresh &&
          ((abs(e->N - N) == 1 && e->precision == p) || (e->N == N && e->precision != p)))
        for (int r = 0; r < e->n_rank && r < 2; ++r) {
          dg_variant v;
          char why[128];
          if (dg_variant_parse(e->rank[r].spec, &v) != DG_OK) {
            dg_error_clear();
            continue;
          }
          v.precision = p;
          if (!dg_variant_check(&v, info, N, why, sizeof why)) continue;
          char spec[DG_VARIANT_SPEC_MAX];
          dg_variant_print(&v, spec, sizeof spec);
          int dup = 0;
          for (int i = 0; i < k->n_own_seeds; ++i) dup |= !strcmp(k->own_seeds[i], spec);
          if (!dup && k->n_own_seeds < 6)
            snprintf(k->own_seeds[k->n_own_seeds++], DG_VARIANT_SPEC_MAX, "%s", spec);
        }
      if (e->N != N || e->precision != p) continue;
      if (sim == 4 && e->bucket == (int)bucket && (!k->self.n_rank || fresh)) {
        dg_tune_entry_free(&k->self);
        k->self = *e;
        k->self.rank = NULL;
        k->self.reject = NULL;
        k->self.n_rank = k->self.n_reject = 0;
        if (e->n_rank && dg_calloc(&k->self.rank, (size_t)e->n_rank, sizeof *e->rank) == DG_OK) {
          memcpy(k->self.rank, e->rank, sizeof *e->rank * (size_t)e->n_rank);
          k->self.n_rank = e->n_rank;
        } else {
          dg_error_clear();
        }
        k->self_stale = !fresh;
        continue;
      }
      if (sim == 4 || sim < k->seed_score) continue;
      if (sim > k->seed_score) {
        k->n_seeds = 0;
        k->seed_score = sim;
        k->seed_from[0] = '\0';
      }
      /* The nearest devices' top three, if this device can run them. */
      const int prefer = e->bucket == (int)bucket;
      for (int r = 0; r < e->n_rank && r < (prefer ? 3 : 1); ++r) {
        dg_variant v;
        char why[128];
        if (dg_variant_parse(e->rank[r].spec, &v) != DG_OK) {
          dg_error_clear();
          continue;
        }
        if (!dg_variant_check(&v, info, N, why, sizeof why)) continue;
        add_seed(k, e->rank[r].spec);
      }
      if (!k->seed_from[0])
        snprintf(k->seed_from, sizeof k->seed_from, "%.200s: '%.60s' (%s)", path, rec->key.name,
                 sim == 3 ? "same device, other driver" : sim == 2 ? "same vendor and platform"
                                                                 : "same platform");
    }
  }
  dg_tune_file_free(&f);
}

dg_status dg_known_collect(const dg_tune_paths *paths, const dg_device_info *info, int N,
                           dg_precision p, dg_bucket bucket, uint64_t hash, dg_known *out) {
  memset(out, 0, sizeof *out);
  dg_device_key key;
  dg_device_key_from_info(info, &key);
  const char *dirs[2] = {paths->cache_dir, paths->shipped_dir};
  for (int s = 0; s < 2; ++s) {
    DIR *d = opendir(dirs[s]);
    if (!d) continue;
    struct dirent *de;
    while ((de = readdir(d))) {
      const size_t len = strlen(de->d_name);
      if (len < 6 || strcmp(de->d_name + len - 5, ".json") != 0) continue;
      char path[DG_TUNE_PATH + 300];
      snprintf(path, sizeof path, "%s/%s", dirs[s], de->d_name);
      scan_file(path, &key, info, N, p, bucket, hash, out);
    }
    closedir(d);
  }
  return DG_OK;
}

void dg_known_free(dg_known *k) {
  free(k->s);
  k->s = NULL;
  k->n = k->cap = 0;
  dg_tune_entry_free(&k->self);
}

/* ---- run-aware budget --------------------------------------------------------------------- */

int dg_tune_run_budget(double est_run_s, double fraction, double budget_cap_s, double min_s,
                       double *budget_s) {
  if (fraction <= 0) fraction = 0.10;
  double allowed = fraction * (est_run_s > 0 ? est_run_s : 0);
  if (budget_cap_s > 0 && allowed > budget_cap_s) allowed = budget_cap_s;
  *budget_s = allowed;
  /* A cap below min_s is the user accepting a search that short. */
  const double need = budget_cap_s > 0 && budget_cap_s < min_s ? budget_cap_s : min_s;
  return allowed >= need && allowed > 0;
}

double dg_tune_estimate_run_s(const dg_device_info *info, const dg_known *k, int N,
                              dg_precision p, long K, long pml_K, double steps) {
  dg_cost_model m;
  const dg_device_limits *l = k && k->have_self_limits ? &k->self_limits
                              : k && k->have_other_limits ? &k->other_limits
                                                          : NULL;
  dg_model_init(&m, info, l);
  if (k && k->n) dg_model_fit(&m, k->s, k->n);
  const dg_variant v = dg_variant_default(info, N, p);
  const double stage_s = dg_model_predict_ns(&m, &v, N, p, K) * 1e-9;
  const double pml = K > 0 ? 1 + DG_PML_ELEMENT_STAGES * (double)pml_K / (double)K : 1;
  return stage_s * pml * 5 * (steps > 0 ? steps : 0);
}

#include "backend/variant.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"

int dg_variant_np(int N) { return (N + 1) * (N + 2) * (N + 3) / 6; }
int dg_variant_nfp(int N) { return (N + 1) * (N + 2) / 2; }
/* Padding to 4 keeps rows 16-byte aligned for vector loads and GEMM leading dimensions. */
int dg_variant_npp(int N) { return (dg_variant_np(N) + 3) / 4 * 4; }
int dg_variant_fluxp(int N) { return (4 * dg_variant_nfp(N) + 3) / 4 * 4; }

dg_variant dg_variant_baseline(dg_precision precision) {
  dg_variant v;
  memset(&v, 0, sizeof v);
  v.path = DG_PATH_KERNELS;
  v.work = DG_WORK_NODE;
  v.vw = 1;
  v.kb = 1;
  v.vplace = DG_PLACE_NONE;
  v.lkb = 1;
  v.lplace = DG_PLACE_NONE;
  v.unroll = 1;
  v.literal = 0;
  v.lift = DG_LIFT_SEPARATE;
  v.precision = precision;
  v.test = DG_VTEST_NONE;
  v.flux = DG_FLUX_POINT;
  v.lnpw = 1;
  v.fuse = DG_FUSE_NONE;
  return v;
}

dg_variant dg_variant_default(const dg_device_info *info, int N, dg_precision precision) {
  dg_variant v = dg_variant_baseline(precision);
  const int np = dg_variant_np(N);
  if (info && (info->type & CL_DEVICE_TYPE_GPU)) {
    /* The whole stage in one kernel (element_node.cl, fuse=step). On the
     * H200 (bench/results/nvidia-h200/2026-11-28) this fused node kernel (fuse=rhs|step)
     * won 14 of the 16 orders and precisions tuned, 1.2-2.2x over the split microblocks
     * below (the old default; the H100 agreed), and it spills on no vendor's compiler
     * (scripts/gpu_isa.py). Its block: the winners' (16 elements at N <= 3, 4 above), or
     * a smaller one where the work-group or the block's fields and fluxes outgrow the
     * device. */
    v.kb = N <= 3 ? 16 : 4;
    v.unroll = N <= 2 ? 1 : 4; /* 4-wide loops of 4 and 10 nodes spill on Intel's PVC */
    v.fuse = DG_FUSE_STEP;
    char why[128];
    while (v.kb > 1 && !dg_variant_check(&v, info, N, why, sizeof why)) v.kb /= 2;
    if (!dg_variant_check(&v, info, N, why, sizeof why)) {
      /* Klöckner's microblocks, operators in local memory, the lift fused with the update:
       * the smallest block whose work-group wastes < ~10% of a 32-wide SIMD. */
      int best = 1;
      double best_waste = 1.0;
      for (int kb = 1; kb <= 16; kb *= 2) {
        const int items = np * kb;
        if (items > 256) break;
        const double waste = (double)((items + 31) / 32 * 32 - items) / ((items + 31) / 32 * 32);
        if (items >= 64 && waste < 0.1) { best = kb; break; }
        if (waste < best_waste) best_waste = waste, best = kb;
      }
      v.kb = v.lkb = best;
      v.unroll = 1;
      v.fuse = DG_FUSE_NONE;
      v.vplace = DG_PLACE_MATRIX;
      v.lplace = DG_PLACE_MATRIX;
      v.lift = DG_LIFT_FUSED_UPDATE;
      if (!dg_variant_check(&v, info, N, why, sizeof why)) { /* too big for local memory */
        v.vplace = DG_PLACE_NONE;
        v.lplace = DG_PLACE_NONE;
      }
    }
  } else {
    /* PoCL reaches SIMD peak only with explicit vector types (see docs/KERNELS.md). */
    v.work = DG_WORK_VEC;
    v.vw = precision == DG_PREC_DOUBLE ? 8 : 16;
    v.unroll = 4; /* measured on PoCL/Zen 4, N=3 and 5: ~5% over unroll=1 */
    v.lift = DG_LIFT_FUSED_UPDATE;
    /* Measured on PoCL/Zen 4 (dgtd bench, bench/README.md): the face-wise flux kernel is
     * 1.5-1.9x faster than one work-item per face node at every order; from N = 5 a block's
     * fluxes (6 x 4 Nfp x 64 B >= 32 KB) outgrow the L1 cache and the lift gains 10-20% when
     * each flux value loaded feeds two nodes. */
    v.flux = DG_FLUX_FACE;
    v.lnpw = N >= 5 ? 2 : 1;
  }
  return v;
}

int dg_variant_layout_width(const dg_variant *v) {
  return v->path == DG_PATH_KERNELS && v->work != DG_WORK_NODE ? v->vw : 1;
}

int dg_variant_node_elems(const dg_variant *v) {
  return v->path == DG_PATH_KERNELS && v->work == DG_WORK_NODE && v->fuse != DG_FUSE_NONE
             ? v->vw
             : 1;
}

int dg_variant_block_elems(const dg_variant *v) {
  return dg_variant_layout_width(v) * v->kb * dg_variant_node_elems(v);
}

/* ---- names ------------------------------------------------------------------------------ */

/* The spec words, from the tables of cl_templates/contract.h; NULL ends each list. */
static const char *const path_names[] = {DG_PATH_CHOICES(DG_CHOICE_WORD) NULL};
static const char *const work_names[] = {DG_WORK_CHOICES(DG_CHOICE_WORD) NULL};
static const char *const place_names[] = {DG_PLACE_CHOICES(DG_CHOICE_WORD) NULL};
static const char *const lift_names[] = {DG_LIFT_CHOICES(DG_CHOICE_WORD) NULL};
static const char *const prec_names[] = {DG_PREC_CHOICES(DG_CHOICE_WORD) NULL};
static const char *const ops_names[] = {"arg", "literal", NULL};
static const char *const test_names[] = {DG_TEST_CHOICES(DG_CHOICE_WORD) NULL};
static const char *const flux_names[] = {DG_FLUX_CHOICES(DG_CHOICE_WORD) NULL};
static const char *const fuse_names[] = {DG_FUSE_CHOICES(DG_CHOICE_WORD) NULL};

const char *dg_precision_name(dg_precision p) { return prec_names[p == DG_PREC_DOUBLE]; }

int dg_precision_parse(const char *name, dg_precision *p) {
  for (int i = 0; prec_names[i]; ++i)
    if (!strcmp(name, prec_names[i])) {
      *p = (dg_precision)i;
      return 1;
    }
  return 0;
}

static const char *unroll_name(int u, char *buf, size_t cap) {
  if (u == 0) return "full";
  snprintf(buf, cap, "%d", u);
  return buf;
}

const char *dg_variant_print(const dg_variant *v, char *buf, size_t cap) {
  char u[16];
  int n;
  if (v->path == DG_PATH_CLBLAST)
    n = snprintf(buf, cap, "path=clblast,prec=%s", prec_names[v->precision]);
  else
    n = snprintf(buf, cap,
                 "path=kernels,work=%s,vw=%d,kb=%d,vplace=%s,lkb=%d,lplace=%s,unroll=%s,"
                 "ops=%s,lift=%s,prec=%s",
                 work_names[v->work], v->vw, v->kb, place_names[v->vplace], v->lkb,
                 place_names[v->lplace], unroll_name(v->unroll, u, sizeof u),
                 ops_names[v->literal ? 1 : 0], lift_names[v->lift], prec_names[v->precision]);
  /* Later keys only when set, so older specs stay canonical (variant.h). */
  if (v->path == DG_PATH_KERNELS && v->flux != DG_FLUX_POINT && n >= 0 && (size_t)n < cap)
    n += snprintf(buf + n, cap - (size_t)n, ",flux=%s", flux_names[v->flux]);
  if (v->path == DG_PATH_KERNELS && v->lnpw > 1 && n >= 0 && (size_t)n < cap)
    n += snprintf(buf + n, cap - (size_t)n, ",lnpw=%d", v->lnpw);
  if (v->path == DG_PATH_KERNELS && v->fuse != DG_FUSE_NONE && n >= 0 && (size_t)n < cap)
    n += snprintf(buf + n, cap - (size_t)n, ",fuse=%s", fuse_names[v->fuse]);
  if (v->test != DG_VTEST_NONE && n >= 0 && (size_t)n < cap)
    snprintf(buf + n, cap - (size_t)n, ",test=%s", test_names[v->test]);
  return buf;
}

const char *dg_variant_kernel_suffix(const dg_variant *v, char *buf, size_t cap) {
  if (v->path == DG_PATH_CLBLAST)
    snprintf(buf, cap, "blas");
  else if (v->work == DG_WORK_NODE && v->vw > 1)
    snprintf(buf, cap, "node%d", v->vw);
  else if (v->work == DG_WORK_NODE)
    snprintf(buf, cap, "node");
  else
    snprintf(buf, cap, "%s%d", work_names[v->work], v->vw);
  return buf;
}

/* ---- parsing ---------------------------------------------------------------------------- */

static void list_names(const char *const *names, char *buf, size_t cap) {
  buf[0] = '\0';
  for (int i = 0; names[i]; ++i) {
    size_t len = strlen(buf);
    snprintf(buf + len, cap - len, "%s%s", i ? "|" : "", names[i]);
  }
}

static dg_status parse_name(const char *key, const char *val, const char *const *names,
                            int *out) {
  for (int i = 0; names[i]; ++i)
    if (!strcmp(val, names[i])) {
      *out = i;
      return DG_OK;
    }
  char list[128];
  list_names(names, list, sizeof list);
  return DG_ERROR(DG_ERR_INPUT, "variant: bad value '%s' for %s (expected %s)", val, key, list);
}

static dg_status parse_pow2(const char *key, const char *val, int lo, int hi, int *out) {
  char *end = NULL;
  long x = strtol(val, &end, 10);
  const int ok = end != val && *end == '\0' && x >= lo && x <= hi && (x & (x - 1)) == 0;
  DG_CHECK(ok, DG_ERR_INPUT, "variant: bad value '%s' for %s (expected a power of 2 in %d..%d)",
           val, key, lo, hi);
  *out = (int)x;
  return DG_OK;
}

enum {
  K_PATH, K_WORK, K_VW, K_KB, K_VPLACE, K_LKB, K_LPLACE, K_UNROLL, K_OPS, K_LIFT, K_PREC,
  K_TEST, K_FLUX, K_LNPW, K_FUSE, K_COUNT
};
static const char *const key_names[] = {"path", "work", "vw",   "kb",   "vplace",
                                        "lkb",  "lplace", "unroll", "ops", "lift",
                                        "prec", "test", "flux", "lnpw", "fuse", NULL};

static dg_status parse_pair(char *tok, dg_variant *v, unsigned *seen) {
  char *eq = strchr(tok, '=');
  DG_CHECK(eq && eq != tok && eq[1], DG_ERR_INPUT,
           "variant: '%s' is not key=value (keys: path, work, vw, kb, vplace, lkb, lplace, "
           "unroll, ops, lift, prec, flux, lnpw, fuse)", tok);
  *eq = '\0';
  const char *key = tok, *val = eq + 1;
  int k = -1;
  for (int i = 0; key_names[i]; ++i)
    if (!strcmp(key, key_names[i])) k = i;
  DG_CHECK(k >= 0, DG_ERR_INPUT,
           "variant: unknown key '%s' (keys: path, work, vw, kb, vplace, lkb, lplace, unroll, "
           "ops, lift, prec, flux, lnpw, fuse)", key);
  DG_CHECK(!(*seen & (1u << k)), DG_ERR_INPUT, "variant: key '%s' given twice", key);
  *seen |= 1u << k;
  int x;
  switch (k) {
  case K_PATH: DG_CALL(parse_name(key, val, path_names, &x)); v->path = (dg_path)x; break;
  case K_WORK: DG_CALL(parse_name(key, val, work_names, &x)); v->work = (dg_work)x; break;
  case K_VW: DG_CALL(parse_pow2(key, val, 1, 16, &v->vw)); break;
  case K_KB: DG_CALL(parse_pow2(key, val, 1, 16, &v->kb)); break;
  case K_LKB: DG_CALL(parse_pow2(key, val, 1, 16, &v->lkb)); break;
  case K_VPLACE: DG_CALL(parse_name(key, val, place_names, &x)); v->vplace = (dg_place)x; break;
  case K_LPLACE: DG_CALL(parse_name(key, val, place_names, &x)); v->lplace = (dg_place)x; break;
  case K_UNROLL:
    if (!strcmp(val, "full")) v->unroll = 0;
    else if (!strcmp(val, "1")) v->unroll = 1;
    else if (!strcmp(val, "4")) v->unroll = 4;
    else return DG_ERROR(DG_ERR_INPUT, "variant: bad value '%s' for unroll (expected 1|4|full)", val);
    break;
  case K_OPS: DG_CALL(parse_name(key, val, ops_names, &v->literal)); break;
  case K_LIFT: DG_CALL(parse_name(key, val, lift_names, &x)); v->lift = (dg_lift_mode)x; break;
  case K_PREC: DG_CALL(parse_name(key, val, prec_names, &x)); v->precision = (dg_precision)x; break;
  case K_TEST: DG_CALL(parse_name(key, val, test_names, &x)); v->test = (dg_variant_test)x; break;
  case K_FLUX: DG_CALL(parse_name(key, val, flux_names, &x)); v->flux = (dg_flux_work)x; break;
  case K_LNPW: DG_CALL(parse_pow2(key, val, 1, 4, &v->lnpw)); break;
  case K_FUSE: DG_CALL(parse_name(key, val, fuse_names, &x)); v->fuse = (dg_fuse)x; break;
  default: return DG_ERROR(DG_ERR_INTERNAL, "variant: key %d", k);
  }
  return DG_OK;
}

dg_status dg_variant_parse(const char *spec, dg_variant *out) {
  DG_CHECK(spec, DG_ERR_INPUT, "variant: no spec");
  dg_variant v = dg_variant_baseline(DG_PREC_FLOAT);
  char buf[512];
  DG_CHECK(strlen(spec) < sizeof buf, DG_ERR_INPUT, "variant: spec too long (%zu chars)",
           strlen(spec));
  snprintf(buf, sizeof buf, "%s", spec);
  unsigned seen = 0;
  if (strcmp(buf, "baseline") != 0) {
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      while (*tok == ' ') ++tok;
      size_t len = strlen(tok);
      while (len && tok[len - 1] == ' ') tok[--len] = '\0';
      if (!len) continue;
      DG_CALL(parse_pair(tok, &v, &seen));
    }
  }
  if (v.path == DG_PATH_CLBLAST) {
    const unsigned allowed = (1u << K_PATH) | (1u << K_PREC) | (1u << K_TEST);
    for (int k = 0; k < K_COUNT; ++k)
      DG_CHECK(!(seen & ~allowed & (1u << k)), DG_ERR_INPUT,
               "variant: key '%s' does not apply to path=clblast (only prec does)",
               key_names[k]);
    const dg_precision p = v.precision;
    const dg_variant_test t = v.test;
    v = dg_variant_baseline(p);
    v.path = DG_PATH_CLBLAST;
    v.test = t;
  }
  char why[128];
  DG_CHECK(dg_variant_check(&v, NULL, 1, why, sizeof why), DG_ERR_INPUT, "variant '%s': %s",
           spec, why);
  *out = v;
  return DG_OK;
}

/* ---- checks ------------------------------------------------------------------------------ */

static size_t real_bytes(const dg_variant *v) {
  return v->precision == DG_PREC_DOUBLE ? 8 : 4;
}

int dg_variant_lift_items(const dg_variant *v, int N) {
  const int l = v->lnpw >= 1 ? v->lnpw : 1;
  return (dg_variant_np(N) + l - 1) / l;
}

size_t dg_variant_local_bytes_volume(const dg_variant *v, int N) {
  if (v->path != DG_PATH_KERNELS) return 0;
  const size_t np = (size_t)dg_variant_np(N), rs = real_bytes(v);
  const size_t vl = (size_t)dg_variant_layout_width(v);
  if (v->fuse != DG_FUSE_NONE && v->work == DG_WORK_NODE) /* element_node.cl: fields, fluxes */
    return 6 * (size_t)dg_variant_block_elems(v) *
           ((size_t)dg_variant_npp(N) + (size_t)dg_variant_fluxp(N)) * rs;
  if (v->vplace == DG_PLACE_MATRIX) return 3 * np * np * rs;
  if (v->vplace == DG_PLACE_FIELD) return 6 * (size_t)v->kb * (size_t)dg_variant_npp(N) * vl * rs;
  return 0;
}

size_t dg_variant_local_bytes_lift(const dg_variant *v, int N) {
  if (v->path != DG_PATH_KERNELS) return 0;
  const size_t np = (size_t)dg_variant_np(N), nfp = (size_t)dg_variant_nfp(N);
  const size_t rs = real_bytes(v), vl = (size_t)dg_variant_layout_width(v);
  size_t b = 0;
  if (v->lplace == DG_PLACE_MATRIX) b += np * 4 * nfp * rs;
  if (v->lplace == DG_PLACE_FIELD || v->lift == DG_LIFT_FUSED)
    b += 6 * (size_t)v->lkb * (size_t)dg_variant_fluxp(N) * vl * rs;
  return b;
}

#define FAIL(...)                                                                   \
  do {                                                                              \
    snprintf(reason, cap, __VA_ARGS__);                                             \
    return 0;                                                                       \
  } while (0)

int dg_variant_check(const dg_variant *v, const dg_device_info *info, int N, char *reason,
                     size_t cap) {
  const int np = dg_variant_np(N), nfp = dg_variant_nfp(N);
  if (N < 1 || N > 15) FAIL("order N=%d out of range 1..15", N);
  if (info && v->precision == DG_PREC_DOUBLE && !info->has_fp64)
    FAIL("double precision: the device has no fp64 (cl_khr_fp64); use --precision float");
  if (v->path == DG_PATH_CLBLAST) return 1;
  if (v->work == DG_WORK_NODE && v->vw != 1 && v->fuse == DG_FUSE_NONE)
    FAIL("work=node takes vw=1 without fuse (got vw=%d; vw=2|4 is the fused kernel's "
         "elements per work-item)", v->vw);
  if (v->work == DG_WORK_NODE && v->vw > DG_VARIANT_NODE_EPW_MAX)
    FAIL("work=node takes vw <= %d elements per work-item (got vw=%d: its %d accumulators "
         "spill)", DG_VARIANT_NODE_EPW_MAX, v->vw, 18 * v->vw);
  if (v->work != DG_WORK_NODE && v->vw < 2)
    FAIL("work=%s needs vw >= 2 elements per work-item", work_names[v->work]);
  if (v->lift == DG_LIFT_FUSED && v->lplace == DG_PLACE_FIELD)
    FAIL("lift=fused always keeps the fluxes in local memory: use lplace=none|matrix");
  if (v->lift == DG_LIFT_FUSED && v->flux != DG_FLUX_POINT)
    FAIL("lift=fused computes the fluxes inside the lift kernel: flux=face needs a flux kernel");
  if (v->unroll != 0 && v->unroll != 1 && v->unroll != 4) FAIL("unroll=%d not 1|4|full", v->unroll);
  if (v->lnpw > 1 && v->lnpw != 2 && v->lnpw != 4) FAIL("lnpw=%d not 1|2|4", v->lnpw);
  if (v->literal && N > DG_VARIANT_LITERAL_MAX_N)
    FAIL("ops=literal only for N <= %d (N=%d)", DG_VARIANT_LITERAL_MAX_N, N);
  if (v->fuse != DG_FUSE_NONE) {
    const char *fz = fuse_names[v->fuse];
    if (v->work == DG_WORK_ELEM)
      FAIL("fuse=%s keeps one block of elements per work-item in vector lanes: work=node|vec", fz);
    if (v->vplace != DG_PLACE_NONE || v->lplace != DG_PLACE_NONE || v->lkb != 1 ||
        v->lift != DG_LIFT_SEPARATE || v->flux != DG_FLUX_POINT)
      FAIL("fuse=%s is one kernel without local memory: vplace, lkb, lplace, lift and flux "
           "take their baseline values", fz);
    if (v->work == DG_WORK_NODE && v->lnpw > 1)
      FAIL("fuse=%s with work=node lifts one node per work-item: lnpw=1", fz);
    if (v->work != DG_WORK_NODE && N > DG_VARIANT_FUSE_MAX_N)
      FAIL("fuse=%s only for N <= %d (its private flux array grows as N^2; N=%d)", fz,
           DG_VARIANT_FUSE_MAX_N, N);
  }
  if (!info) return 1;
  const size_t rs = real_bytes(v);
  if (v->literal) {
    const size_t cbytes = ((size_t)3 * np * np + (size_t)np * 4 * nfp) * rs;
    if (cbytes > info->max_constant_buffer_size)
      FAIL("literal operators need %zu B of constant memory, device has %llu", cbytes,
           (unsigned long long)info->max_constant_buffer_size);
  }
  /* fuse: one work-item per block, a work-group of kb of them, or with work=node np x kb
   * (the lift is not run) */
  const int fused = v->fuse != DG_FUSE_NONE, fnode = fused && v->work == DG_WORK_NODE;
  const int kbs[2] = {v->kb, v->lkb};
  const int nps[2] = {fused ? (fnode ? np : 1) : np, fused ? 1 : dg_variant_lift_items(v, N)};
  for (int i = 0; i < 2; ++i) {
    const size_t items = (size_t)nps[i] * (size_t)kbs[i];
    if (items > info->max_work_group_size || (size_t)nps[i] > info->max_work_item_size[0] ||
        (size_t)kbs[i] > info->max_work_item_size[1])
      FAIL("%s work-group %d x %d exceeds the device's limit %zu",
           fused ? "fused" : i ? "lift" : "volume",
           nps[i], kbs[i], info->max_work_group_size);
  }
  const size_t lv = dg_variant_local_bytes_volume(v, N), ll = dg_variant_local_bytes_lift(v, N);
  if (lv > info->local_mem_size)
    FAIL("volume needs %zu B of local memory, device has %llu", lv,
         (unsigned long long)info->local_mem_size);
  if (ll > info->local_mem_size)
    FAIL("lift needs %zu B of local memory, device has %llu", ll,
         (unsigned long long)info->local_mem_size);
  return 1;
}

#undef FAIL

/* ---- enumeration -------------------------------------------------------------------------- */

typedef struct {
  dg_variant *valid;
  int n_valid, cap_valid;
  dg_variant_pruned *pruned;
  int n_pruned, cap_pruned;
  int want_pruned;
} enum_state;

static dg_status grow(void **p, int *cap, size_t elem) {
  const int ncap = *cap ? 2 * *cap : 256;
  void *q = realloc(*p, (size_t)ncap * elem);
  DG_CHECK(q, DG_ERR_MEMORY, "variant enumeration: out of memory (%d entries)", ncap);
  *p = q;
  *cap = ncap;
  return DG_OK;
}

static dg_status add(enum_state *s, const dg_variant *v, const dg_device_info *info, int N) {
  char why[128];
  if (dg_variant_check(v, info, N, why, sizeof why)) {
    if (s->n_valid == s->cap_valid)
      DG_CALL(grow((void **)&s->valid, &s->cap_valid, sizeof *s->valid));
    s->valid[s->n_valid++] = *v;
  } else if (s->want_pruned) {
    if (s->n_pruned == s->cap_pruned)
      DG_CALL(grow((void **)&s->pruned, &s->cap_pruned, sizeof *s->pruned));
    s->pruned[s->n_pruned].v = *v;
    snprintf(s->pruned[s->n_pruned].reason, sizeof s->pruned[s->n_pruned].reason, "%s", why);
    s->n_pruned++;
  }
  return DG_OK;
}

dg_status dg_variant_enumerate(const dg_device_info *info, int N, dg_precision prec,
                               dg_variant **valid, int *n_valid, dg_variant_pruned **pruned,
                               int *n_pruned) {
  dg_status st = DG_OK;
  enum_state s = {0};
  s.want_pruned = pruned != NULL;
  /* (work, vw) pairs: vector widths that map onto SIMD registers. */
  const int fl = prec == DG_PREC_FLOAT;
  const struct { dg_work w; int vw; } works[] = {
      {DG_WORK_NODE, 1}, {DG_WORK_ELEM, 2}, {DG_WORK_ELEM, 4},
      {DG_WORK_VEC, fl ? 4 : 2}, {DG_WORK_VEC, fl ? 8 : 4}, {DG_WORK_VEC, fl ? 16 : 8}};
  const int unrolls[] = {1, 4, 0};
  for (size_t w = 0; w < sizeof works / sizeof works[0]; ++w)
    for (int kb = 1; kb <= 16; kb *= 2)
      for (int vp = 0; vp < 3; ++vp)
        for (int lkb = 1; lkb <= 16; lkb *= 2)
          for (int lp = 0; lp < 3; ++lp)
            for (int u = 0; u < 3; ++u)
              for (int lit = 0; lit < 2; ++lit)
                for (int lift = 0; lift < 3; ++lift)
                  for (int fx = 0; fx < 2; ++fx)
                    for (int ln = 1; ln <= 2; ++ln) { /* lnpw=4 spills on AVX-512: not enumerated */
                      if (lift == DG_LIFT_FUSED && lp == DG_PLACE_FIELD) continue; /* same as none */
                      if (lift == DG_LIFT_FUSED && fx != DG_FLUX_POINT) continue;  /* no flux kernel */
                      dg_variant v = dg_variant_baseline(prec);
                      v.work = works[w].w;
                      v.vw = works[w].vw;
                      v.kb = kb;
                      v.vplace = (dg_place)vp;
                      v.lkb = lkb;
                      v.lplace = (dg_place)lp;
                      v.unroll = unrolls[u];
                      v.literal = lit;
                      v.lift = (dg_lift_mode)lift;
                      v.flux = (dg_flux_work)fx;
                      v.lnpw = ln;
                      DG_CALL_GOTO(fail, add(&s, &v, info, N));
                    }
  /* fuse=rhs|res|step: the other keys of the split kernels keep their baseline values;
   * work=node also with 2 and 4 elements per work-item (element_node.cl's register blocking) */
  const struct { dg_work w; int vw; } fworks[] = {
      {DG_WORK_NODE, 1}, {DG_WORK_NODE, 2}, {DG_WORK_NODE, 4},
      {DG_WORK_VEC, fl ? 4 : 2}, {DG_WORK_VEC, fl ? 8 : 4}, {DG_WORK_VEC, fl ? 16 : 8}};
  for (size_t w = 0; w < sizeof fworks / sizeof fworks[0]; ++w) {
    for (int kb = 1; kb <= 16; kb *= 2)
      for (int u = 0; u < 3; ++u)
        for (int lit = 0; lit < 2; ++lit)
          for (int fz = DG_FUSE_RHS; fz < DG_FUSE_COUNT; ++fz)
            for (int ln = 1; ln <= 2; ++ln) {
              dg_variant v = dg_variant_baseline(prec);
              v.work = fworks[w].w;
              v.vw = fworks[w].vw;
              v.kb = kb;
              v.unroll = unrolls[u];
              v.literal = lit;
              v.fuse = (dg_fuse)fz;
              v.lnpw = ln;
              DG_CALL_GOTO(fail, add(&s, &v, info, N));
            }
  }
  dg_variant blas = dg_variant_baseline(prec);
  blas.path = DG_PATH_CLBLAST;
  DG_CALL_GOTO(fail, add(&s, &blas, info, N));
  *valid = s.valid;
  *n_valid = s.n_valid;
  if (pruned) {
    *pruned = s.pruned;
    *n_pruned = s.n_pruned;
  }
  return DG_OK;
fail:
  free(s.valid);
  free(s.pruned);
  return st;
}

/* The covering set: every value of every variant dimension at least once (variant.h). */
const char *const dg_variant_covering[DG_VARIANT_NCOVER] = {
    "",
    "work=vec,vw=16,unroll=4,lift=fused-update,flux=face",
    "work=vec,vw=8,kb=2,vplace=matrix,lkb=2,lplace=field,unroll=full,flux=face,lnpw=2",
    "work=elem,vw=2,kb=4,vplace=field,lkb=4,lplace=matrix,unroll=4,lift=fused",
    "work=elem,vw=4,kb=8,lkb=16,ops=literal,lift=fused-update,flux=face,lnpw=4",
    "kb=16,vplace=field,lkb=8,lplace=field,unroll=full,ops=literal",
    "work=vec,vw=4,kb=4,vplace=matrix,lplace=matrix,lift=fused",
    "kb=8,vplace=matrix,lkb=8,lplace=matrix,lift=fused-update,lnpw=2",
    "work=vec,vw=2,unroll=4,flux=face",
    "work=vec,vw=8,kb=4,unroll=4,ops=literal,fuse=rhs",
    "kb=2,unroll=full,fuse=res",
    "work=vec,vw=4,fuse=res,lnpw=2",
    "kb=4,unroll=4,fuse=step",
    "work=node,vw=2,kb=4,unroll=4,fuse=step",
    "work=node,vw=4,kb=2,unroll=1,ops=literal,fuse=res",
    "work=vec,vw=4,kb=2,unroll=full,fuse=step",
    "path=clblast",
    "default",
};

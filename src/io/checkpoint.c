#include "io/checkpoint.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/files.h"
#include "dg/dispersive.h"
#include "dg/pml.h"
#include "io/checksum.h"
#include "refel/refel.h"

enum {
  VERSION = 3,
  AUX_AT = 312,
  PROBLEM_AT = 320,
  HEADER_BYTES = PROBLEM_AT + 8 * DG_CHECKPOINT_PARTS,
  PREFIX_BYTES = HEADER_BYTES + 8,
  VARIANT_AT = 64
};

const char *const dg_checkpoint_part_names[DG_CHECKPOINT_PARTS] = {
    "materials", "boundary conditions", "sources", "initial state", "flux",
    "time stepping (CFL factor, scheme)", "PML", NULL};
static const char MAGIC[] = "DGTDCHK1"; /* the 8 characters, without the NUL */

static void put_u32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static void put_u64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static uint32_t get_u32(const unsigned char *p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}
static uint64_t get_u64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}
static void put_f64(unsigned char *p, double d) {
  uint64_t v;
  memcpy(&v, &d, sizeof v);
  put_u64(p, v);
}
static double get_f64(const unsigned char *p) {
  const uint64_t v = get_u64(p);
  double d;
  memcpy(&d, &v, sizeof d);
  return d;
}

static int host_is_little_endian(void) {
  const uint16_t one = 1;
  unsigned char b;
  memcpy(&b, &one, 1);
  return b == 1;
}

uint64_t dg_checkpoint_mesh_hash(const dg_mesh *m) {
  dg_checksum h;
  unsigned char b[8];
  dg_checksum_init(&h);
  put_u64(b, (uint64_t)m->Nv);
  dg_checksum_update(&h, b, 8);
  put_u64(b, (uint64_t)m->K);
  dg_checksum_update(&h, b, 8);
  /* Encoded byte by byte so the hash is the same on every host. */
  const double *xyz[3] = {m->VX, m->VY, m->VZ};
  for (int c = 0; c < 3; c++)
    for (int i = 0; i < m->Nv; i++) {
      put_f64(b, xyz[c][i]);
      dg_checksum_update(&h, b, 8);
    }
  for (size_t i = 0; i < 4 * (size_t)m->K; i++) {
    put_u32(b, (uint32_t)m->EToV[i]);
    dg_checksum_update(&h, b, 4);
  }
  /* Curved elements' high-order nodes (none on a straight-sided mesh: its hash is unchanged;
   * their count tells the geometric order). */
  const size_t nho = 3 * (size_t)dg_mesh_ho_nodes(m->geom_order ? m->geom_order : 2);
  for (size_t i = 0; m->ho_xyz && i < nho * (size_t)m->K; i++) {
    put_f64(b, m->ho_xyz[i]);
    dg_checksum_update(&h, b, 8);
  }
  return dg_checksum_final(&h);
}

static void encode(const dg_checkpoint_header *h, unsigned char *b) {
  memset(b, 0, HEADER_BYTES);
  memcpy(b, MAGIC, 8);
  put_u32(b + 8, VERSION);
  put_u32(b + 12, HEADER_BYTES);
  put_u32(b + 16, (uint32_t)h->K);
  put_u32(b + 20, (uint32_t)h->N);
  put_u32(b + 24, (uint32_t)h->Np);
  put_u32(b + 28, (uint32_t)h->precision);
  put_u64(b + 32, h->mesh_hash);
  put_u64(b + 40, (uint64_t)h->step);
  put_f64(b + 48, h->time);
  put_f64(b + 56, h->dt);
  memcpy(b + VARIANT_AT, h->variant, strlen(h->variant));
  put_u64(b + AUX_AT, h->aux);
  for (int i = 0; i < DG_CHECKPOINT_PARTS; i++) put_u64(b + PROBLEM_AT + 8 * i, h->problem[i]);
}

static void decode(const unsigned char *b, dg_checkpoint_header *h) {
  memset(h, 0, sizeof *h);
  h->K = (int32_t)get_u32(b + 16);
  h->N = (int32_t)get_u32(b + 20);
  h->Np = (int32_t)get_u32(b + 24);
  h->precision = (int32_t)get_u32(b + 28);
  h->mesh_hash = get_u64(b + 32);
  h->step = (int64_t)get_u64(b + 40);
  h->time = get_f64(b + 48);
  h->dt = get_f64(b + 56);
  memcpy(h->variant, b + VARIANT_AT, DG_CHECKPOINT_VARIANT_MAX); /* last byte stays NUL */
  h->aux = get_u64(b + AUX_AT);
  for (int i = 0; i < DG_CHECKPOINT_PARTS; i++) h->problem[i] = get_u64(b + PROBLEM_AT + 8 * i);
}

/* Why h is not a valid description of a run's state, or NULL. */
static const char *invalid(const dg_checkpoint_header *h) {
  if (h->N < 1 || h->N > DG_MAX_ORDER) return "order N out of range";
  if (h->Np != (h->N + 1) * (h->N + 2) * (h->N + 3) / 6) return "Np does not match N";
  if (h->K < 1) return "no elements";
  if (h->precision != 4 && h->precision != 8) return "precision is neither 4 nor 8 bytes";
  /* A node is in the PML (DG_PML_AUX = 18 values) or dispersive (at most 2 states of each of
   * DG_MAX_POLES poles per component: 48), never both. */
  enum { MAX_PER_NODE = 3 * 2 * DG_MAX_POLES > DG_PML_AUX ? 3 * 2 * DG_MAX_POLES : DG_PML_AUX };
  if (h->aux > MAX_PER_NODE * (uint64_t)h->K * (uint64_t)h->Np)
    return "more auxiliary values than 48 per node";
  return NULL;
}

/* Bytes of one state array; below 2^48 since K < 2^31 and Np <= 816 (N <= 15). */
static uint64_t state_bytes(const dg_checkpoint_header *h) {
  return 6 * (uint64_t)h->K * (uint64_t)h->Np * (uint64_t)h->precision;
}

static uint64_t aux_bytes(const dg_checkpoint_header *h) {
  return h->aux * (uint64_t)h->precision;
}

/* The checksum that ends a checkpoint: of its header with the header's own checksum
 * (head), then q, res (n bytes each) and aux (na bytes). */
static uint64_t data_checksum(const unsigned char *head, const void *q, const void *res,
                              const void *aux, size_t n, size_t na) {
  dg_checksum sum;
  dg_checksum_init(&sum);
  dg_checksum_update(&sum, head, PREFIX_BYTES);
  dg_checksum_update(&sum, q, n);
  dg_checksum_update(&sum, res, n);
  if (na) dg_checksum_update(&sum, aux, na);
  return dg_checksum_final(&sum);
}

dg_status dg_checkpoint_write(const char *path, const dg_checkpoint_header *h, const void *q,
                              const void *res) {
  DG_CHECK(h && h->aux == 0, DG_ERR_INPUT,
           "checkpoint %s: auxiliary values to write but none given", path);
  DG_CALL(dg_checkpoint_write_aux(path, h, q, res, NULL));
  return DG_OK;
}

dg_status dg_checkpoint_write_aux(const char *path, const dg_checkpoint_header *h,
                                  const void *q, const void *res, const void *aux) {
  DG_CHECK(h && q && res, DG_ERR_INPUT, "checkpoint %s: no header or state given", path);
  DG_CHECK(!h->aux || aux, DG_ERR_INPUT,
           "checkpoint %s: %llu auxiliary values to write but none given", path,
           (unsigned long long)h->aux);
  DG_CHECK(host_is_little_endian(), DG_ERR_UNSUPPORTED,
           "checkpoint %s: checkpoints are little-endian; this host is big-endian", path);
  const char *why = invalid(h);
  DG_CHECK(!why, DG_ERR_INPUT,
           "checkpoint %s: cannot write a state with K=%d, N=%d, Np=%d, precision %d: %s",
           path, h->K, h->N, h->Np, h->precision, why);
  DG_CHECK(memchr(h->variant, '\0', sizeof h->variant), DG_ERR_INPUT,
           "checkpoint %s: variant name longer than %d characters", path,
           DG_CHECKPOINT_VARIANT_MAX);
  const uint64_t n = state_bytes(h), na = aux_bytes(h);
  DG_CHECK(n <= SIZE_MAX && na <= SIZE_MAX, DG_ERR_INPUT,
           "checkpoint %s: state too large for this host", path);

  unsigned char head[PREFIX_BYTES];
  encode(h, head);
  put_u64(head + HEADER_BYTES, dg_checksum64(head, HEADER_BYTES));
  unsigned char tail[8];
  put_u64(tail, data_checksum(head, q, res, aux, (size_t)n, (size_t)na));

  dg_atomic_file f = {0};
  DG_CALL(dg_atomic_open(&f, path));
  fwrite(head, 1, PREFIX_BYTES, f.fp);
  fwrite(q, 1, (size_t)n, f.fp);
  fwrite(res, 1, (size_t)n, f.fp);
  if (na) fwrite(aux, 1, (size_t)na, f.fp);
  fwrite(tail, 1, 8, f.fp);
  DG_CALL(dg_atomic_commit(&f)); /* catches any failed fwrite via ferror */
  return DG_OK;
}

/* Open path, read and check the header (magic, version, header checksum, sanity). */
static dg_status open_checked(const char *path, FILE **out, dg_checkpoint_header *h,
                              uint64_t *file_size, unsigned char *head) {
  *out = NULL;
  FILE *fp = fopen(path, "rb");
  DG_CHECK(fp, DG_ERR_IO, "cannot open checkpoint %s: %s", path, strerror(errno));
  dg_status st = DG_OK;
  struct stat sb;
  DG_CHECK_GOTO(fail, fstat(fileno(fp), &sb) == 0, DG_ERR_IO, "cannot stat checkpoint %s: %s",
                path, strerror(errno));
  *file_size = (uint64_t)sb.st_size;
  const size_t got = fread(head, 1, PREFIX_BYTES, fp);
  DG_CHECK_GOTO(fail, !ferror(fp), DG_ERR_IO, "cannot read checkpoint %s: %s", path,
                strerror(errno));
  DG_CHECK_GOTO(fail, memcmp(head, MAGIC, got < 8 ? got : 8) == 0, DG_ERR_PARSE,
                "%s is not a dgtd checkpoint (it does not start with \"%s\")", path, MAGIC);
  DG_CHECK_GOTO(fail, got == PREFIX_BYTES, DG_ERR_PARSE,
                "checkpoint %s is truncated: %zu bytes, shorter than its %d-byte header", path,
                got, PREFIX_BYTES);
  const uint32_t version = get_u32(head + 8);
  DG_CHECK_GOTO(fail, version == VERSION, DG_ERR_UNSUPPORTED,
                "checkpoint %s has format version %u; this build reads version %d", path,
                (unsigned)version, VERSION);
  DG_CHECK_GOTO(fail, get_u64(head + HEADER_BYTES) == dg_checksum64(head, HEADER_BYTES),
                DG_ERR_PARSE, "checkpoint %s is corrupt: its header checksum does not match",
                path);
  decode(head, h);
  const char *why = get_u32(head + 12) != HEADER_BYTES ? "wrong header size" : invalid(h);
  DG_CHECK_GOTO(fail, !why, DG_ERR_PARSE, "checkpoint %s is corrupt: %s", path, why);
  *out = fp;
  return DG_OK;
fail:
  fclose(fp);
  return st;
}

static dg_status check_size(const char *path, const dg_checkpoint_header *h, uint64_t size) {
  const uint64_t want = PREFIX_BYTES + 2 * state_bytes(h) + aux_bytes(h) + 8;
  DG_CHECK(size >= want, DG_ERR_PARSE, "checkpoint %s is truncated: %llu bytes, expected %llu",
           path, (unsigned long long)size, (unsigned long long)want);
  DG_CHECK(size == want, DG_ERR_PARSE,
           "checkpoint %s is corrupt: %llu bytes, expected %llu (data after the end)", path,
           (unsigned long long)size, (unsigned long long)want);
  return DG_OK;
}

dg_status dg_checkpoint_read_header(const char *path, dg_checkpoint_header *h) {
  FILE *fp = NULL;
  uint64_t size = 0;
  unsigned char head[PREFIX_BYTES];
  DG_CALL(open_checked(path, &fp, h, &size, head));
  fclose(fp);
  DG_CALL(check_size(path, h, size));
  return DG_OK;
}

static const char *precision_name(int bytes) { return bytes == 4 ? "single" : "double"; }

/* Appends "; for " between the differences listed in msg. */
static void add_difference(char *msg, size_t cap, int *count, const char *fmt, ...)
    DG_PRINTF(4, 5);
static void add_difference(char *msg, size_t cap, int *count, const char *fmt, ...) {
  size_t len = strlen(msg);
  if (*count && len < cap) len += (size_t)snprintf(msg + len, cap - len, "; for ");
  if (len < cap) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + len, cap - len, fmt, ap);
    va_end(ap);
  }
  ++*count;
}

dg_status dg_checkpoint_read(const char *path, const dg_checkpoint_header *run,
                             dg_checkpoint_header *got, void *q, void *res) {
  DG_CHECK(run && run->aux == 0, DG_ERR_INPUT,
           "reading checkpoint %s: auxiliary values expected but nowhere to put them", path);
  DG_CALL(dg_checkpoint_read_aux(path, run, got, q, res, NULL));
  return DG_OK;
}

dg_status dg_checkpoint_read_aux(const char *path, const dg_checkpoint_header *run,
                                 dg_checkpoint_header *got, void *q, void *res, void *aux) {
  DG_CHECK(run && got && q && res && (!run->aux || aux), DG_ERR_INPUT,
           "checkpoint %s: nothing to read into", path);
  const char *why = invalid(run);
  DG_CHECK(!why, DG_ERR_INPUT, "reading checkpoint %s: this run's K=%d, N=%d, precision %d: %s",
           path, run->K, run->N, run->precision, why);
  DG_CHECK(host_is_little_endian(), DG_ERR_UNSUPPORTED,
           "checkpoint %s: checkpoints are little-endian; this host is big-endian", path);

  FILE *fp = NULL;
  uint64_t size = 0;
  unsigned char head[PREFIX_BYTES];
  DG_CALL(open_checked(path, &fp, got, &size, head));
  dg_status st = DG_OK;

  /* Before the size check: a checkpoint of another order also has another size, and the
   * difference in order is what the user needs to hear. */
  char msg[1024] = "";
  int ndiff = 0;
  if (got->N != run->N)
    add_difference(msg, sizeof msg, &ndiff, "order N=%d, this run has N=%d", got->N, run->N);
  if (got->K != run->K)
    add_difference(msg, sizeof msg, &ndiff, "a mesh of K=%d elements, this run has K=%d",
                   got->K, run->K);
  if (got->precision != run->precision)
    add_difference(msg, sizeof msg, &ndiff,
                   "%s precision (%d-byte values), this run uses %s precision (%d-byte values)",
                   precision_name(got->precision), got->precision,
                   precision_name(run->precision), run->precision);
  if (got->mesh_hash != run->mesh_hash)
    add_difference(msg, sizeof msg, &ndiff,
                   "a different mesh (mesh hash %016llx, this run's mesh has %016llx)",
                   (unsigned long long)got->mesh_hash, (unsigned long long)run->mesh_hash);
  if (got->aux != run->aux)
    add_difference(msg, sizeof msg, &ndiff,
                   "%llu auxiliary (PML, pole) values, this run has %llu",
                   (unsigned long long)got->aux, (unsigned long long)run->aux);
  for (int i = 0; i < DG_CHECKPOINT_PARTS; i++)
    if (got->problem[i] != run->problem[i])
      add_difference(msg, sizeof msg, &ndiff, "other %s than this run's",
                     dg_checkpoint_part_names[i] ? dg_checkpoint_part_names[i] : "settings");
  DG_CHECK_GOTO(done, ndiff == 0, DG_ERR_INPUT, "checkpoint %s was written for %s", path, msg);
  DG_CALL_GOTO(done, check_size(path, got, size));

  const uint64_t n = state_bytes(got), na = aux_bytes(got);
  DG_CHECK_GOTO(done, n <= SIZE_MAX && na <= SIZE_MAX, DG_ERR_INPUT,
                "checkpoint %s: state too large for this host", path);
  unsigned char tail[8];
  const int complete = fread(q, 1, (size_t)n, fp) == n && fread(res, 1, (size_t)n, fp) == n &&
                       (!na || fread(aux, 1, (size_t)na, fp) == na) &&
                       fread(tail, 1, 8, fp) == 8;
  DG_CHECK_GOTO(done, complete, ferror(fp) ? DG_ERR_IO : DG_ERR_PARSE,
                "checkpoint %s: cannot read the state: %s", path,
                ferror(fp) ? strerror(errno) : "file shorter than its header says");
  DG_CHECK_GOTO(done, data_checksum(head, q, res, aux, (size_t)n, (size_t)na) == get_u64(tail),
                DG_ERR_PARSE,
                "checkpoint %s is corrupt: the checksum of its data does not match", path);
done:
  fclose(fp);
  return st;
}

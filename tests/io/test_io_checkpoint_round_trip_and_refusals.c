/* Checkpoints round-trip bit-exactly in double and single precision, with and without a
 * PML's auxiliary values; a checkpoint of another order, mesh size, precision, mesh or
 * number of auxiliary values is refused with a message naming each difference; every
 * truncation and every single bit flip (auxiliary values included) is rejected naming the
 * file. */
#include "test_util.h"

#include <unistd.h>

#include "io/checkpoint.h"

typedef test_scratch fixture;

static int setup(void **state) { return test_scratch_setup(state, "run.chk"); }
static int teardown(void **state) { return test_scratch_teardown(state); }

static dg_mesh *box(int n, double top) {
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, top};
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, n, n, n));
  return m;
}

static dg_checkpoint_header header_for(const dg_mesh *m, int N, int precision) {
  dg_checkpoint_header h = {0};
  h.K = m->K;
  h.N = N;
  h.Np = (N + 1) * (N + 2) * (N + 3) / 6;
  h.precision = precision;
  h.mesh_hash = dg_checkpoint_mesh_hash(m);
  return h;
}

/* Random bytes (any bit pattern, NaNs included, must survive). */
static void *random_state(size_t bytes, unsigned seed) {
  unsigned char *p = malloc(bytes);
  assert_non_null(p);
  for (size_t i = 0; i < bytes; i++) {
    seed = seed * 1103515245u + 12345u;
    p[i] = (unsigned char)(seed >> 16);
  }
  return p;
}

static void round_trip(const char *path, int precision, uint64_t naux) {
  dg_mesh *m = box(2, 1);
  dg_checkpoint_header h = header_for(m, 3, precision);
  h.aux = naux;
  snprintf(h.variant, sizeof h.variant, "kb=4,work=vec,prec=%s",
           precision == 4 ? "float" : "double");
  h.step = 123456789012LL;
  h.time = 1.0 / 3.0;
  h.dt = 1e-3 / 7;
  const size_t bytes = 6 * (size_t)h.K * h.Np * precision;
  void *q = random_state(bytes, 1), *res = random_state(bytes, 2);
  void *aux = naux ? random_state(naux * precision, 7) : NULL;
  if (naux) assert_dg_ok(dg_checkpoint_write_aux(path, &h, q, res, aux));
  else assert_dg_ok(dg_checkpoint_write(path, &h, q, res));

  dg_checkpoint_header got, peek;
  assert_dg_ok(dg_checkpoint_read_header(path, &peek));
  assert_int_equal(peek.step, h.step);
  void *q2 = calloc(1, bytes), *res2 = calloc(1, bytes);
  dg_checkpoint_header run = header_for(m, 3, precision); /* what a restarted run knows */
  run.aux = naux;
  void *aux2 = naux ? calloc(naux, precision) : NULL;
  if (naux) assert_dg_ok(dg_checkpoint_read_aux(path, &run, &got, q2, res2, aux2));
  else assert_dg_ok(dg_checkpoint_read(path, &run, &got, q2, res2));
  assert_memory_equal(q, q2, bytes);
  assert_memory_equal(res, res2, bytes);
  if (naux) assert_memory_equal(aux, aux2, naux * precision);
  assert_true(got.aux == naux);
  if (naux) { /* a run without the PML (or the plain read) is refused, naming the numbers */
    run.aux = 0;
    char want[160];
    snprintf(want, sizeof want, "was written for %llu auxiliary (PML, pole) values, this run has 0",
             (unsigned long long)naux);
    assert_dg_error(dg_checkpoint_read(path, &run, &got, q2, res2), DG_ERR_INPUT, want);
    run.aux = naux + 1;
    assert_dg_error(dg_checkpoint_read_aux(path, &run, &got, q2, res2, aux2), DG_ERR_INPUT,
                    "auxiliary (PML, pole) values, this run has");
    h.aux = naux; /* writing them needs them */
    assert_dg_error(dg_checkpoint_write(path, &h, q, res), DG_ERR_INPUT, "auxiliary");
  }
  free(aux);
  free(aux2);
  assert_int_equal(got.K, h.K);
  assert_int_equal(got.N, 3);
  assert_int_equal(got.Np, 20);
  assert_int_equal(got.precision, precision);
  assert_true(got.mesh_hash == h.mesh_hash);
  assert_string_equal(got.variant, h.variant);
  assert_true(got.step == h.step && got.time == h.time && got.dt == h.dt);
  free(q);
  free(res);
  free(q2);
  free(res2);
  dg_mesh_destroy(&m);
}

static void double_and_float_round_trip_bit_exactly(void **state) {
  fixture *fx = *state;
  round_trip(fx->path, 8, 0);
  round_trip(fx->path, 4, 0); /* overwrites the first, atomically */
  round_trip(fx->path, 8, 18 * 20 * 7); /* a PML of 7 elements' auxiliary fields */
  round_trip(fx->path, 4, 18 * 20 * 7);
}

static void other_runs_are_refused_naming_the_difference(void **state) {
  fixture *fx = *state;
  dg_mesh *m = box(2, 1), *other_size = box(3, 1), *other_shape = box(2, 1.25);
  dg_checkpoint_header h = header_for(m, 3, 8);
  const size_t bytes = 6 * (size_t)h.K * h.Np * 8;
  void *q = random_state(bytes, 3), *res = random_state(bytes, 4);
  assert_dg_ok(dg_checkpoint_write(fx->path, &h, q, res));
  /* Room for the largest state asked for below. */
  const size_t big = 6 * (size_t)other_size->K * 35 * 8;
  void *q2 = malloc(big), *res2 = malloc(big);
  dg_checkpoint_header got, run;
  char want[512];

  run = header_for(m, 4, 8);
  snprintf(want, sizeof want, "checkpoint %s was written for order N=3, this run has N=4",
           fx->path);
  assert_dg_error(dg_checkpoint_read(fx->path, &run, &got, q2, res2), DG_ERR_INPUT, want);

  run = header_for(m, 3, 4);
  assert_dg_error(dg_checkpoint_read(fx->path, &run, &got, q2, res2), DG_ERR_INPUT,
                  "was written for double precision (8-byte values), this run uses single "
                  "precision (4-byte values)");

  run = header_for(other_size, 3, 8);
  assert_dg_error(dg_checkpoint_read(fx->path, &run, &got, q2, res2), DG_ERR_INPUT,
                  "was written for a mesh of K=48 elements, this run has K=162");

  run = header_for(other_shape, 3, 8); /* same K, moved vertices */
  assert_int_equal(run.K, h.K);
  assert_dg_error(dg_checkpoint_read(fx->path, &run, &got, q2, res2), DG_ERR_INPUT,
                  "was written for a different mesh (mesh hash");

  run = header_for(other_size, 4, 4); /* everything differs: all of it is said */
  assert_dg_error(dg_checkpoint_read(fx->path, &run, &got, q2, res2), DG_ERR_INPUT,
                  "order N=3, this run has N=4; for a mesh of K=48 elements, this run has "
                  "K=162; for double precision");
  assert_non_null(strstr(dg_error_message(), "; for a different mesh"));

  free(q);
  free(res);
  free(q2);
  free(res2);
  dg_mesh_destroy(&m);
  dg_mesh_destroy(&other_size);
  dg_mesh_destroy(&other_shape);
}

static unsigned char *load(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  *n = (size_t)ftell(f);
  rewind(f);
  unsigned char *b = malloc(*n + 1);
  assert_int_equal(fread(b, 1, *n, f), *n);
  fclose(f);
  return b;
}

static void store(const char *path, const unsigned char *b, size_t n) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(b, 1, n, f), n);
  fclose(f);
}

static void truncated_and_bit_flipped_files_are_rejected(void **state) {
  fixture *fx = *state;
  dg_mesh *m = box(1, 1);
  dg_checkpoint_header h = header_for(m, 1, 8), got;
  snprintf(h.variant, sizeof h.variant, "default");
  h.aux = 18 * 4 * 2; /* two PML elements' auxiliary fields: their bytes are checked too */
  const size_t bytes = 6 * (size_t)h.K * h.Np * 8, abytes = (size_t)h.aux * 8;
  void *q = random_state(bytes, 5), *res = random_state(bytes, 6), *aux = random_state(abytes, 8);
  void *q2 = malloc(bytes), *res2 = malloc(bytes), *aux2 = malloc(abytes);
  char good[160];
  snprintf(good, sizeof good, "%s/good.chk", fx->dir);
  assert_dg_ok(dg_checkpoint_write_aux(good, &h, q, res, aux));
  size_t n;
  unsigned char *file = load(good, &n);
  assert_int_equal(n, 392 + 2 * bytes + abytes + 8);

  /* Every truncation. */
  for (size_t len = 0; len < n; len++) {
    store(fx->path, file, len);
    dg_error_clear();
    const dg_status st = dg_checkpoint_read_aux(fx->path, &h, &got, q2, res2, aux2);
    if (st != DG_ERR_PARSE || !strstr(dg_error_message(), fx->path) ||
        !strstr(dg_error_message(), "truncated"))
      fail_msg("truncated to %zu of %zu bytes: %s: %s", len, n, dg_status_name(st),
               dg_error_message());
  }
  /* Data after the end. */
  file[n] = 0;
  store(fx->path, file, n + 1);
  assert_dg_error(dg_checkpoint_read_aux(fx->path, &h, &got, q2, res2, aux2), DG_ERR_PARSE,
                  "data after the end");

  /* A bit flip in every byte (a different bit each time). */
  for (size_t i = 0; i < n; i++) {
    const unsigned char bit = (unsigned char)(1u << (i % 8));
    file[i] ^= bit;
    store(fx->path, file, n);
    file[i] ^= bit;
    dg_error_clear();
    const dg_status st = dg_checkpoint_read_aux(fx->path, &h, &got, q2, res2, aux2);
    const char *msg = dg_error_message();
    const int named = strstr(msg, fx->path) != NULL;
    /* Bytes 8..11 are the format version: that reads as a newer format. */
    const dg_status want = i >= 8 && i < 12 ? DG_ERR_UNSUPPORTED : DG_ERR_PARSE;
    if (st != want || !named)
      fail_msg("bit flip in byte %zu: %s: %s", i, dg_status_name(st), msg);
    if (i < 8) assert_non_null(strstr(msg, "not a dgtd checkpoint"));
    else if (i >= 12 && i < 392) assert_non_null(strstr(msg, "header checksum"));
    else if (i >= 392) assert_non_null(strstr(msg, "checksum of its data"));
  }
  /* And the file itself is still good. */
  assert_dg_ok(dg_checkpoint_read_aux(good, &h, &got, q2, res2, aux2));

  char missing[160];
  snprintf(missing, sizeof missing, "%s/missing.chk", fx->dir);
  assert_dg_error(dg_checkpoint_read_aux(missing, &h, &got, q2, res2, aux2), DG_ERR_IO, missing);
  assert_dg_error(dg_checkpoint_read_header(missing, &got), DG_ERR_IO, "No such file");

  free(file);
  free(q);
  free(res);
  free(q2);
  free(res2);
  free(aux);
  free(aux2);
  dg_mesh_destroy(&m);
}

static void bad_headers_are_not_written(void **state) {
  fixture *fx = *state;
  dg_mesh *m = box(1, 1);
  dg_checkpoint_header h = header_for(m, 2, 8);
  double q[6 * 6 * 10] = {0}, res[6 * 6 * 10] = {0};
  memset(h.variant, 'x', sizeof h.variant); /* 248 characters, no NUL */
  assert_dg_error(dg_checkpoint_write(fx->path, &h, q, res), DG_ERR_INPUT, "longer than 247");
  h = header_for(m, 2, 2);
  assert_dg_error(dg_checkpoint_write(fx->path, &h, q, res), DG_ERR_INPUT, "precision");
  h = header_for(m, 2, 8);
  h.Np = 11;
  assert_dg_error(dg_checkpoint_write(fx->path, &h, q, res), DG_ERR_INPUT, "Np does not match");
  assert_int_equal(access(fx->path, F_OK), -1);
  h = header_for(m, 2, 8);
  char bad[160];
  snprintf(bad, sizeof bad, "%s/no/dir/run.chk", fx->dir);
  assert_dg_error(dg_checkpoint_write(bad, &h, q, res), DG_ERR_IO, bad);
  dg_mesh_destroy(&m);
}

static void mesh_hash_tracks_coordinates_and_connectivity(void **state) {
  (void)state;
  dg_mesh *a = box(2, 1), *b = box(2, 1);
  const uint64_t ha = dg_checkpoint_mesh_hash(a);
  assert_true(ha == dg_checkpoint_mesh_hash(b));
  b->VX[5] = nextafter(b->VX[5], 2.0); /* one ulp */
  assert_true(ha != dg_checkpoint_mesh_hash(b));
  b->VX[5] = a->VX[5];
  assert_true(ha == dg_checkpoint_mesh_hash(b));
  const int t = b->EToV[1];
  b->EToV[1] = b->EToV[2];
  b->EToV[2] = t;
  assert_true(ha != dg_checkpoint_mesh_hash(b));
  dg_mesh_destroy(&a);
  dg_mesh_destroy(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(double_and_float_round_trip_bit_exactly, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(other_runs_are_refused_naming_the_difference, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(truncated_and_bit_flipped_files_are_rejected, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(bad_headers_are_not_written, setup, teardown),
      cmocka_unit_test(mesh_hash_tracks_coordinates_and_connectivity),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Every truncation and many single-byte corruptions of the fixtures give either a valid mesh or a clean error naming the file, never a crash. */
#include "test_util.h"

#include <unistd.h>

#include "mesh/mesh.h"

typedef dg_status (*reader_fn)(dg_mesh **, const char *);

static unsigned char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  static unsigned char buf[1 << 16];
  *n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  assert_true(*n > 0 && *n < sizeof buf);
  return buf;
}

static void write_file(const char *path, const unsigned char *data, size_t n) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(data, 1, n, f), n);
  assert_int_equal(fclose(f), 0);
}

/* Read path; a success must be a sound mesh, a failure must name the file. */
static dg_status check_read(reader_fn read, const char *path) {
  dg_mesh *m = NULL;
  dg_error_clear();
  dg_status st = read(&m, path);
  if (st == DG_OK) {
    assert_non_null(m);
    for (int k = 0; k < m->K; k++) {
      assert_true(dg_mesh_elem_volume(m, k) > 0.0);
      for (int f = 0; f < 4; f++) {
        int nb = m->EToE[4 * k + f], nf = m->EToF[4 * k + f];
        assert_true(nb >= 0 && nb < m->K && nf >= 0 && nf < 4);
        assert_int_equal(m->EToE[4 * nb + nf], k);
      }
    }
    dg_mesh_destroy(&m);
  } else {
    assert_null(m);
    if (!strstr(dg_error_message(), path))
      fail_msg("message \"%s\" does not name %s", dg_error_message(), path);
  }
  return st;
}

static void corrupt(const char *fixture, reader_fn read) {
  size_t n;
  const unsigned char *orig = slurp(fixture, &n);
  static unsigned char buf[1 << 16];
  char path[] = "/tmp/dgtd_mesh_corrupt_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);

  for (size_t len = 0; len < n; len++) {
    write_file(path, orig, len);
    dg_status st = check_read(read, path);
    /* Only dropping the final newline may leave a readable file. */
    if (len + 1 < n && st == DG_OK) fail_msg("%s cut to %zu bytes was accepted", fixture, len);
  }
  /* One substitute per position, taking turns, keeps this fast while every byte and every
   * kind of damage is covered. */
  static const unsigned char subst[] = {'\n', ' ', '9', '-', '\0', 0xff, '$'};
  for (size_t pos = 0; pos < n; pos++) {
    unsigned char c = subst[pos % sizeof subst];
    if (orig[pos] == c) c = subst[(pos + 1) % sizeof subst];
    memcpy(buf, orig, n);
    buf[pos] = c;
    write_file(path, buf, n);
    (void)check_read(read, path);
  }
  remove(path);
}

static void test_msh22(void **state) {
  (void)state;
  corrupt(FIXTURE("cube_22.msh"), dg_mesh_read_msh);
}
static void test_msh41_ascii(void **state) {
  (void)state;
  corrupt(FIXTURE("cube_41.msh"), dg_mesh_read_msh);
}
static void test_msh41_binary(void **state) {
  (void)state;
  corrupt(FIXTURE("cube_41_bin.msh"), dg_mesh_read_msh);
}
static void test_neu(void **state) {
  (void)state;
  corrupt(FIXTURE("cube.neu"), dg_mesh_read_neu);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_msh22),
      cmocka_unit_test(test_msh41_ascii),
      cmocka_unit_test(test_msh41_binary),
      cmocka_unit_test(test_neu),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

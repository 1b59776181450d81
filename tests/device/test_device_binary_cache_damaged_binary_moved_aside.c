/* A cached program binary damaged in the middle (same size, 4 KiB overwritten) is never
 * handed to the OpenCL implementation: its payload checksum does not match, so the cache
 * moves the file aside, leaves a warning naming it for the caller and builds from source;
 * the next build loads the rewritten binary. The header parser is checked without a device
 * too: truncated, extended and flipped payloads are damaged, other keys are plain misses. */
#include "test_device.h"

#include <sys/stat.h>
#include <unistd.h>

#include "device/binary_cache.h"
#include "device/program.h"

static const char *src = test_twice_source;

/* The one *.bin file in dir (its path in out). */
static void only_bin(const char *dir, char *out, size_t n) {
  char cmd[256];
  snprintf(cmd, sizeof cmd, "ls %s/*.bin", dir);
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  assert_non_null(fgets(out, (int)n, p));
  out[strcspn(out, "\n")] = '\0';
  pclose(p);
}

static void test_damaged_binary_is_moved_aside_and_rebuilt(void **state) {
  test_scratch *s = *state;
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    skip();
  }
  dg_binary_cache bc;
  dg_binary_cache_init(&bc, s->dir);
  cl_program p = NULL;
  assert_dg_ok(dg_program_build_cached(&bc, dev, src, "-DY=1", "twice", NULL, &p));
  dg_program_release(&p);
  assert_int_equal(bc.saves, 1);
  char path[512];
  only_bin(s->dir, path, sizeof path);
  struct stat st0;
  assert_int_equal(stat(path, &st0), 0);
  assert_true(st0.st_size > 2 * DG_BINARY_CACHE_HEADER);

  /* Overwrite up to 4 KiB in the middle of the payload with a pattern; the size stays. */
  FILE *f = fopen(path, "r+b");
  assert_non_null(f);
  const long payload = (long)st0.st_size - DG_BINARY_CACHE_HEADER;
  const long len = payload / 2 < 4096 ? payload / 2 : 4096;
  assert_int_equal(fseek(f, DG_BINARY_CACHE_HEADER + (payload - len) / 2, SEEK_SET), 0);
  for (long i = 0; i < len; ++i) fputc(0xA5 ^ (int)(i & 0x3f), f);
  assert_int_equal(fclose(f), 0);

  assert_string_equal(bc.warning, "");
  assert_dg_ok(dg_program_build_cached(&bc, dev, src, "-DY=1", "twice", NULL, &p));
  assert_int_equal(bc.loads, 0);  /* the damaged binary was not loaded */
  assert_int_equal(bc.misses, 2); /* built from source */
  assert_int_equal(bc.corrupt, 1);
  assert_non_null(strstr(bc.warning, path));
  assert_non_null(strstr(bc.warning, "damaged"));
  test_run_twice(dev, p);
  dg_program_release(&p);
  char aside[600];
  snprintf(aside, sizeof aside, "%s.corrupt", path);
  struct stat st1;
  assert_int_equal(stat(aside, &st1), 0);
  assert_int_equal(st1.st_size, st0.st_size);

  /* The rewritten binary loads. */
  assert_dg_ok(dg_program_build_cached(&bc, dev, src, "-DY=1", "twice", NULL, &p));
  assert_int_equal(bc.loads, 1);
  assert_int_equal(bc.corrupt, 1);
  test_run_twice(dev, p);
  dg_program_release(&p);
  dg_device_destroy(&dev);
}

static void put64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }

static void test_parser_flags_damage_and_misses(void **state) {
  (void)state;
  enum { PAY = 100 };
  unsigned char buf[DG_BINARY_CACHE_HEADER + PAY + 1];
  memcpy(buf, "DGTDBIN2", 8);
  put64(buf + 8, 11);
  put64(buf + 16, 22);
  put64(buf + 24, PAY);
  for (int i = 0; i < PAY; ++i) buf[DG_BINARY_CACHE_HEADER + i] = (unsigned char)(i * 7);
  put64(buf + 32, dg_binary_cache_checksum(buf + DG_BINARY_CACHE_HEADER, PAY));
  const size_t n = DG_BINARY_CACHE_HEADER + PAY;
  const unsigned char *pl = NULL;
  size_t size = 0;
  assert_int_equal(dg_binary_cache_parse(buf, n, 11, 22, &pl, &size), 1);
  assert_ptr_equal(pl, buf + DG_BINARY_CACHE_HEADER);
  assert_int_equal(size, PAY);
  /* Other key, short file, bad magic: a miss. */
  assert_int_equal(dg_binary_cache_parse(buf, n, 12, 22, &pl, &size), 0);
  assert_int_equal(dg_binary_cache_parse(buf, n, 11, 23, &pl, &size), 0);
  assert_int_equal(dg_binary_cache_parse(buf, 10, 11, 22, &pl, &size), 0);
  /* Truncated or extended payload: damaged. */
  assert_int_equal(dg_binary_cache_parse(buf, n - 1, 11, 22, &pl, &size), -1);
  assert_int_equal(dg_binary_cache_parse(buf, n + 1, 11, 22, &pl, &size), -1);
  /* One flipped bit anywhere in the payload: damaged. */
  for (int i = 0; i < PAY; i += 13) {
    buf[DG_BINARY_CACHE_HEADER + i] ^= 0x10;
    assert_int_equal(dg_binary_cache_parse(buf, n, 11, 22, &pl, &size), -1);
    buf[DG_BINARY_CACHE_HEADER + i] ^= 0x10;
  }
  buf[3] = 'X';
  assert_int_equal(dg_binary_cache_parse(buf, n, 11, 22, &pl, &size), 0);
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parser_flags_damage_and_misses),
      cmocka_unit_test(test_damaged_binary_is_moved_aside_and_rebuilt),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

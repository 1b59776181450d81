/* A mesh file with an endless line (a binary file, /dev/zero behind a .msh name) is refused
 * after a bounded read, naming the file and the line, for both readers; a binary MSH 4.1
 * file, whose data has no line structure, still reads. */
#include "test_util.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mesh/mesh.h"

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

/* Write head, then n bytes of c with no newline. */
static void write_long(const char *path, const char *head, size_t n, char c) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fputs(head, f);
  char block[4096];
  memset(block, c, sizeof block);
  for (size_t done = 0; done < n; done += sizeof block)
    assert_int_equal(fwrite(block, 1, sizeof block, f), sizeof block);
  fclose(f);
}

static void long_lines_name_file_and_line(void **state) {
  test_scratch *s = *state;
  char path[300], want[400];
  /* 3 MiB of digits on line 3 of a Gmsh file, after a valid start. */
  snprintf(path, sizeof path, "%s/long.msh", s->dir);
  write_long(path, "$MeshFormat\n2.2 0 8\n", 3u << 20, '7');
  dg_mesh *m = NULL;
  snprintf(want, sizeof want, "long.msh:3: line longer than");
  assert_dg_error(dg_mesh_read(&m, path), DG_ERR_PARSE, want);
  assert_null(m);
  /* The same on line 1 of a Gambit file. */
  snprintf(path, sizeof path, "%s/long.neu", s->dir);
  write_long(path, "", 3u << 20, ' ');
  assert_dg_error(dg_mesh_read(&m, path), DG_ERR_PARSE, "long.neu:1: line longer than");
  assert_null(m);
}

/* /dev/zero behind a .msh name: the read must end, with the same error, in bounded memory
 * (run in a child with 1 GiB of address space, except under AddressSanitizer, and 30 s, so a
 * reader without the cap fails the test instead of eating the machine). */
static void dev_zero_read_ends(void **state) {
  test_scratch *s = *state;
  char path[300];
  snprintf(path, sizeof path, "%s/zero.msh", s->dir);
  assert_int_equal(symlink("/dev/zero", path), 0);
  const pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
#if !defined(__SANITIZE_ADDRESS__)
    /* AddressSanitizer reserves terabytes of address space for its shadow memory: under it
     * the 30 s alarm alone bounds the child. */
    struct rlimit lim = {1u << 30, 1u << 30};
    setrlimit(RLIMIT_AS, &lim);
#endif
    alarm(30);
    dg_mesh *m = NULL;
    const dg_status st = dg_mesh_read(&m, path);
    _exit(st == DG_ERR_PARSE && strstr(dg_error_message(), "zero.msh:1: line longer than") ? 0 : 1);
  }
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    fail_msg("reading /dev/zero as a mesh did not end with the line-length error (%s %d)",
             WIFEXITED(status) ? "exit" : "signal",
             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

/* A binary MSH file is exempt from the cap: the binary fixture with a 2 MiB section of
 * zero bytes (no '\n') spliced in after $EndMeshFormat still reads; the text fixtures too. */
static void binary_and_text_fixtures_still_read(void **state) {
  test_scratch *s = *state;
  FILE *in = fopen(FIXTURE("cube_41_bin.msh"), "rb");
  assert_non_null(in);
  static char data[1 << 20];
  const size_t n = fread(data, 1, sizeof data, in);
  fclose(in);
  assert_true(n > 0 && n < sizeof data);
  const char *mark = "$EndMeshFormat\n";
  char *at = NULL;
  for (size_t i = 0; i + strlen(mark) <= n && !at; ++i)
    if (!memcmp(data + i, mark, strlen(mark))) at = data + i + strlen(mark);
  assert_non_null(at);
  char path[300];
  snprintf(path, sizeof path, "%s/bin_long.msh", s->dir);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fwrite(data, 1, (size_t)(at - data), f);
  fputs("$BinaryBlob\n", f);
  static const char zeros[4096];
  for (int i = 0; i < 512; ++i) fwrite(zeros, 1, sizeof zeros, f);
  fputs("\n$EndBinaryBlob\n", f);
  fwrite(at, 1, (size_t)(data + n - at), f);
  fclose(f);
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read(&m, path));
  assert_non_null(m);
  dg_mesh_destroy(&m);
  assert_dg_ok(dg_mesh_read(&m, FIXTURE("cube_41_bin.msh")));
  dg_mesh_destroy(&m);
  assert_dg_ok(dg_mesh_read(&m, FIXTURE("cube_41.msh")));
  dg_mesh_destroy(&m);
  assert_dg_ok(dg_mesh_read(&m, FIXTURE("cube.neu")));
  dg_mesh_destroy(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(long_lines_name_file_and_line),
      cmocka_unit_test(dev_zero_read_ends),
      cmocka_unit_test(binary_and_text_fixtures_still_read),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

/* Atomic writes: the final name only ever holds a complete file. Commit publishes it;
 * abort, a write error (disk full) or a killed writer leave no file, or the old one
 * untouched, and errors name the path. */
#include "test_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/files.h"

typedef test_scratch fixture;

static int setup(void **state) { return test_scratch_setup(state, "out.txt"); }
static int teardown(void **state) { return test_scratch_teardown(state); }

/* Number of entries in dir (without . and ..). */
static int entries(const char *dir) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  int n = 0;
  for (struct dirent *e; (e = readdir(d));) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  closedir(d);
  return n;
}

/* The whole content of path ("" if absent, which the caller tells apart with access()). */
static void read_all(const char *path, char *buf, size_t cap) {
  buf[0] = '\0';
  FILE *f = fopen(path, "rb");
  if (!f) return;
  const size_t n = fread(buf, 1, cap - 1, f);
  buf[n] = '\0';
  fclose(f);
}

static void write_file(const char *path, const char *text) {
  dg_atomic_file f = {0};
  assert_dg_ok(dg_atomic_open(&f, path));
  fputs(text, f.fp);
  assert_dg_ok(dg_atomic_commit(&f));
}

static void commit_publishes_complete_file(void **state) {
  fixture *fx = *state;
  dg_atomic_file f = {0};
  assert_dg_ok(dg_atomic_open(&f, fx->path));
  fputs("hello\n", f.fp);
  /* Before commit only the hidden temporary exists. */
  assert_int_equal(access(fx->path, F_OK), -1);
  assert_int_equal(entries(fx->dir), 1);
  assert_non_null(strstr(f.tmp, "/.out.txt.tmp."));
  assert_dg_ok(dg_atomic_commit(&f));
  assert_null(f.fp);
  char buf[64];
  read_all(fx->path, buf, sizeof buf);
  assert_string_equal(buf, "hello\n");
  assert_int_equal(entries(fx->dir), 1); /* no temporary left */
  dg_atomic_abort(&f);                   /* harmless after commit */
  assert_int_equal(access(fx->path, F_OK), 0);
}

static void abort_leaves_no_file_and_no_temporary(void **state) {
  fixture *fx = *state;
  dg_atomic_file f = {0};
  assert_dg_ok(dg_atomic_open(&f, fx->path));
  fputs("partial", f.fp);
  dg_atomic_abort(&f);
  assert_int_equal(entries(fx->dir), 0);
  dg_atomic_abort(&f); /* twice is fine */
}

static void aborted_rewrite_keeps_old_file(void **state) {
  fixture *fx = *state;
  write_file(fx->path, "old\n");
  dg_atomic_file f = {0};
  assert_dg_ok(dg_atomic_open(&f, fx->path));
  fputs("new, but never finished", f.fp);
  fflush(f.fp);
  char buf[64];
  read_all(fx->path, buf, sizeof buf);
  assert_string_equal(buf, "old\n");
  dg_atomic_abort(&f);
  read_all(fx->path, buf, sizeof buf);
  assert_string_equal(buf, "old\n");
  assert_int_equal(entries(fx->dir), 1);
  /* A committed rewrite replaces it. */
  write_file(fx->path, "new\n");
  read_all(fx->path, buf, sizeof buf);
  assert_string_equal(buf, "new\n");
}

static void killed_writer_leaves_old_file(void **state) {
  fixture *fx = *state;
  write_file(fx->path, "old\n");
  fflush(NULL); /* nothing buffered may be written twice by the child */
  const pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    dg_atomic_file f = {0};
    if (dg_atomic_open(&f, fx->path) != DG_OK) _exit(1);
    for (int i = 0; i < 100000; i++) fputs("half-written line\n", f.fp);
    fflush(f.fp);
    raise(SIGKILL); /* dies mid-file */
    _exit(2);
  }
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  char buf[64];
  read_all(fx->path, buf, sizeof buf);
  assert_string_equal(buf, "old\n");
  /* Only the hidden temporary of the dead process remains beside it. */
  char tmp[256];
  snprintf(tmp, sizeof tmp, "%s/.out.txt.tmp.%ld", fx->dir, (long)pid);
  assert_int_equal(access(tmp, F_OK), 0);
  assert_int_equal(entries(fx->dir), 2);
}

static void write_error_is_reported_and_old_file_kept(void **state) {
  fixture *fx = *state;
  write_file(fx->path, "old\n");
  dg_atomic_file f = {0};
  assert_dg_ok(dg_atomic_open(&f, fx->path));
  /* Make the temporary's descriptor a full disk. */
  const int full = open("/dev/full", O_WRONLY);
  if (full < 0) {
    dg_atomic_abort(&f);
    printf("# SKIP: no /dev/full\n");
    skip();
  }
  assert_true(dup2(full, fileno(f.fp)) >= 0);
  close(full);
  for (int i = 0; i < 10000; i++) fputs("data that cannot be stored\n", f.fp);
  assert_dg_error(dg_atomic_commit(&f), DG_ERR_IO, fx->path);
  assert_non_null(strstr(dg_error_message(), "No space left"));
  assert_null(f.fp);
  char buf[64];
  read_all(fx->path, buf, sizeof buf);
  assert_string_equal(buf, "old\n");
  assert_int_equal(entries(fx->dir), 1); /* the temporary was removed */
}

static void missing_directory_is_io_error_naming_path(void **state) {
  fixture *fx = *state;
  char path[192];
  snprintf(path, sizeof path, "%s/no/such/dir/out.txt", fx->dir);
  dg_atomic_file f = {0};
  assert_dg_error(dg_atomic_open(&f, path), DG_ERR_IO, path);
  assert_non_null(strstr(dg_error_message(), "No such file or directory"));
  assert_null(f.fp);
  dg_atomic_abort(&f);
  assert_dg_error(dg_atomic_open(&f, fx->dir + strlen(fx->dir)), DG_ERR_INPUT, "no file name");
  char dir_path[128];
  snprintf(dir_path, sizeof dir_path, "%s/", fx->dir);
  assert_dg_error(dg_atomic_open(&f, dir_path), DG_ERR_INPUT, "names a directory");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(commit_publishes_complete_file, setup, teardown),
      cmocka_unit_test_setup_teardown(abort_leaves_no_file_and_no_temporary, setup, teardown),
      cmocka_unit_test_setup_teardown(aborted_rewrite_keeps_old_file, setup, teardown),
      cmocka_unit_test_setup_teardown(killed_writer_leaves_old_file, setup, teardown),
      cmocka_unit_test_setup_teardown(write_error_is_reported_and_old_file_kept, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(missing_directory_is_io_error_naming_path, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

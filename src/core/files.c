#include "core/files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"

static void release(dg_atomic_file *f) {
  dg_free(&f->path);
  dg_free(&f->tmp);
  f->fp = NULL;
}

dg_status dg_atomic_open(dg_atomic_file *f, const char *path) {
  DG_CHECK(f && path && *path, DG_ERR_INPUT, "dg_atomic_open: no file name given");
  *f = (dg_atomic_file){0};
  const char *slash = strrchr(path, '/');
  const size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0; /* keeps the '/' */
  const char *name = path + dir_len;
  DG_CHECK(*name, DG_ERR_INPUT, "cannot write %s: the path names a directory", path);

  char pid[32];
  snprintf(pid, sizeof pid, "%ld", (long)getpid());
  const size_t len = strlen(path), tmp_len = len + 1 + strlen(".tmp.") + strlen(pid) + 1;
  dg_status st = DG_OK;
  DG_CALL_GOTO(fail, DG_ALLOC(f->path, len + 1));
  DG_CALL_GOTO(fail, DG_ALLOC(f->tmp, tmp_len));
  memcpy(f->path, path, len + 1);
  snprintf(f->tmp, tmp_len, "%.*s.%s.tmp.%s", (int)dir_len, path, name, pid);

  /* "w" truncates a stale temporary left by an earlier process that had the same pid. */
  f->fp = fopen(f->tmp, "wb");
  DG_CHECK_GOTO(fail, f->fp, DG_ERR_IO, "cannot create %s (temporary for %s): %s", f->tmp, path,
                strerror(errno));
  return DG_OK;
fail:
  release(f);
  return st;
}

/* Make the rename itself durable; a failure here loses nothing already written, so it is
 * not an error (some file systems refuse fsync on directories). */
static void sync_dir(const char *path) {
  const char *slash = strrchr(path, '/');
  char dir[4096];
  if (!slash) {
    snprintf(dir, sizeof dir, ".");
  } else {
    const size_t n = (size_t)(slash - path);
    if (n + 1 > sizeof dir) return;
    memcpy(dir, path, n);
    dir[n] = '\0';
    if (n == 0) snprintf(dir, sizeof dir, "/");
  }
  const int fd = open(dir, O_RDONLY);
  if (fd < 0) return;
  (void)fsync(fd);
  close(fd);
}

dg_status dg_atomic_commit(dg_atomic_file *f) {
  DG_CHECK(f && f->fp, DG_ERR_INTERNAL, "dg_atomic_commit: file is not open");
  const char *what = NULL;
  int err = 0;
  errno = 0;
  /* fflush first: it reports errors of the buffered writes still pending; ferror then
   * catches those of earlier writes whose errno is long gone. */
  if (fflush(f->fp) != 0) {
    what = "write";
    err = errno;
  } else if (ferror(f->fp)) {
    what = "write";
  } else if (fsync(fileno(f->fp)) != 0) {
    what = "fsync";
    err = errno;
  }
  const int close_rc = fclose(f->fp);
  f->fp = NULL;
  if (!what && close_rc != 0) {
    what = "close";
    err = errno;
  }
  if (!what && rename(f->tmp, f->path) != 0) {
    what = "rename to final name";
    err = errno;
  }
  if (what) {
    remove(f->tmp);
    (void)DG_ERROR(DG_ERR_IO, "cannot write %s: %s failed: %s", f->path, what,
                   err ? strerror(err) : "I/O error");
    release(f);
    return DG_ERR_IO;
  }
  sync_dir(f->path);
  release(f);
  return DG_OK;
}

void dg_atomic_abort(dg_atomic_file *f) {
  if (!f) return;
  if (f->fp) {
    fclose(f->fp);
    f->fp = NULL;
  }
  if (f->tmp) remove(f->tmp);
  release(f);
}

dg_status dg_atomic_write(const char *path, const void *data, size_t n) {
  dg_atomic_file f;
  DG_CALL(dg_atomic_open(&f, path));
  if (n && fwrite(data, 1, n, f.fp) != n) {
    dg_atomic_abort(&f);
    return DG_ERROR(DG_ERR_IO, "cannot write %s: %s", path, strerror(errno));
  }
  DG_CALL(dg_atomic_commit(&f));
  return DG_OK;
}

dg_status dg_mkdir_p(const char *dir) {
  char path[4096];
  DG_CHECK(dir && dir[0], DG_ERR_INPUT, "empty directory name");
  DG_CHECK(strlen(dir) < sizeof path, DG_ERR_IO, "directory name too long: %.200s...", dir);
  strcpy(path, dir);
  for (char *p = path + 1;; ++p) {
    if (*p != '/' && *p != '\0') continue;
    const char c = *p;
    *p = '\0';
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
      return DG_ERROR(DG_ERR_IO, "cannot create directory %s: %s", path, strerror(errno));
    *p = c;
    if (c == '\0') break;
  }
  struct stat sb;
  DG_CHECK(stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode), DG_ERR_IO, "%s is not a directory", dir);
  return DG_OK;
}

int dg_self_exe(char *buf, size_t cap) {
  const ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
  if (n <= 0 || (size_t)n >= cap - 1) return 0;
  buf[n] = '\0';
  return 1;
}

int dg_beside_exe(const char *rel, char *buf, size_t cap) {
  char exe[4096];
  if (!dg_self_exe(exe, sizeof exe)) return 0;
  char *slash = strrchr(exe, '/');
  if (!slash) return 0;
  *slash = '\0';
  /* The build tree (bin/dgtd beside cl_templates/), then an installation (PREFIX/bin/dgtd
   * beside PREFIX/share/dgtd/cl_templates, as make install lays it out). */
  static const char *const layouts[] = {"%s/../%s", "%s/../share/dgtd/%s"};
  for (int i = 0; i < 2; ++i) {
    const int n = snprintf(buf, cap, layouts[i], exe, rel);
    struct stat sb;
    if (n > 0 && (size_t)n < cap && stat(buf, &sb) == 0 && S_ISDIR(sb.st_mode)) return 1;
  }
  return 0;
}

int dg_cache_dir(char *buf, size_t cap) {
  const char *c = getenv("DGTD_CACHE_DIR"), *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
  int n;
  if (c && *c) n = snprintf(buf, cap, "%s", c);
  else if (x && *x) n = snprintf(buf, cap, "%s/dgtd", x);
  else if (h && *h) n = snprintf(buf, cap, "%s/.cache/dgtd", h);
  else return 0;
  return n > 0 && (size_t)n < cap;
}

int dg_lock_open(const char *path) { return open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644); }

dg_lock_state dg_lock_try(int fd, char *holder, size_t cap) {
  while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno != EWOULDBLOCK) return DG_LOCK_NONE;
    const ssize_t n = pread(fd, holder, cap - 1, 0);
    holder[n > 0 ? n : 0] = '\0';
    holder[strcspn(holder, "\n")] = '\0';
    if (!holder[0]) snprintf(holder, cap, "unknown");
    return DG_LOCK_BUSY;
  }
  char pid[32];
  const int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
  if (ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)len, 0) < 0) {
    /* the pid is only for the others' messages */
  }
  return DG_LOCK_TAKEN;
}

/* Files and directories: mkdir -p, atomic file output, and lock files.
 *
 * Atomic file output: write to a temporary file beside the target, then rename it over the
 * target. rename() within one directory is atomic on POSIX file systems, so a reader (or a
 * restart after the process was killed) sees either the old complete file or the new
 * complete one, never a half-written file under the final name.
 *
 *   dg_atomic_file f = {0};
 *   DG_CALL(dg_atomic_open(&f, path));
 *   fprintf(f.fp, ...);                       // any stdio writes; errors are caught at commit
 *   DG_CALL(dg_atomic_commit(&f));            // or dg_atomic_abort(&f) to drop it
 *
 * The temporary is "<dir>/.<name>.tmp.<pid>". A process killed mid-write leaves only that
 * hidden file behind. */
#ifndef DG_CORE_FILES_H
#define DG_CORE_FILES_H

#include <stddef.h>
#include <stdio.h>

#include "core/status.h"

typedef struct {
  FILE *fp;   /* write here; NULL when not open */
  char *path; /* final name */
  char *tmp;  /* temporary name */
} dg_atomic_file;

/* Create the temporary for path and open it for binary writing. On failure f is left
 * closed (dg_atomic_abort on it is a no-op). */
dg_status dg_atomic_open(dg_atomic_file *f, const char *path) DG_NODISCARD;

/* Flush, fsync and close the temporary and rename it to the final name. Any write error
 * since open (ferror), or a failing flush/fsync/close/rename, is DG_ERR_IO naming the final
 * path; the temporary is then removed and an existing file under the final name is left as
 * it was. f is closed afterwards in every case. */
dg_status dg_atomic_commit(dg_atomic_file *f) DG_NODISCARD;

/* Close and remove the temporary; the final name is untouched. Safe on a zeroed, closed,
 * committed or already aborted f, so cleanup paths can always call it. */
void dg_atomic_abort(dg_atomic_file *f);

/* Write n bytes to path atomically (open, write, commit). */
dg_status dg_atomic_write(const char *path, const void *data, size_t n) DG_NODISCARD;

/* mkdir -p: create dir and its missing parents; DG_ERR_IO naming the component that could
 * not be created, or dir if it exists but is not a directory. */
dg_status dg_mkdir_p(const char *dir) DG_NODISCARD;

/* Lock files: an exclusive flock on a file that holds its owner's pid (for the messages of
 * the others). The kernel drops a flock when its process ends, however it ends. */
typedef enum {
  DG_LOCK_TAKEN = 0, /* held: our pid is written in; closing the descriptor releases it */
  DG_LOCK_BUSY,      /* another process holds it */
  DG_LOCK_NONE       /* the file system has no flock: go on unlocked */
} dg_lock_state;
/* Opens (creates) the lock file at path, close-on-exec so that a child process does not
 * inherit (and so keep) the lock; -1 (errno set) if it cannot. */
int dg_lock_open(const char *path);
/* One try at the lock on fd (an interrupted try is repeated). On DG_LOCK_BUSY holder gets the
 * holder's pid as it wrote it, or "unknown". */
dg_lock_state dg_lock_try(int fd, char *holder, size_t cap);

/* Paths of the installation and the user: */
/* This executable's path (/proc/self/exe); 0 if it cannot be read. */
int dg_self_exe(char *buf, size_t cap);
/* "<directory of this executable>/../rel" into buf if that is a directory (bin/dgtd ->
 * bin/../cl_templates), else "<directory>/../share/dgtd/rel" (an installed PREFIX/bin/dgtd
 * -> PREFIX/share/dgtd/cl_templates); 0 when neither is. */
int dg_beside_exe(const char *rel, char *buf, size_t cap);
/* dgtd's cache directory: $DGTD_CACHE_DIR, else $XDG_CACHE_HOME/dgtd, else
 * ~/.cache/dgtd; 0 if none of them is set. */
int dg_cache_dir(char *buf, size_t cap);

#endif

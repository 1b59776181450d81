/* One tune per device: the device's tuning lock. */
#include <inttypes.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/files.h"
#include "core/log.h"
#include "tune/tune_ctx.h"

/* Takes the device's tuning lock: *fd (close it to release; -1 if the lock file cannot be
 * made, which is not an error: tuning goes on unlocked); *waited 1 if another process held it. */
dg_status tune_lock(const dg_tune_options *opt, const dg_device_info *info, FILE *log,
                    const char *tag, int *fd, int *waited) {
  *fd = -1;
  *waited = 0;
  char slug[128], dir[DG_TUNE_PATH + 16], path[DG_TUNE_PATH + 256];
  dg_device_key key;
  dg_device_key_from_info(info, &key);
  dg_device_slug(info->name, slug, sizeof slug);
  snprintf(dir, sizeof dir, "%s/locks", opt->paths.cache_dir);
  if (dg_mkdir_p(dir) != DG_OK) {
    dg_error_clear();
    return DG_OK;
  }
  snprintf(path, sizeof path, "%s/%s-%08" PRIx32 ".lock", dir, slug,
           (uint32_t)dg_device_key_hash(&key));
  const int f = dg_lock_open(path);
  if (f < 0) return DG_OK;
  const double t0 = dg_now_s();
  char holder[32];
  dg_lock_state got;
  while ((got = dg_lock_try(f, holder, sizeof holder)) == DG_LOCK_BUSY) {
    if (opt->lock_wait_s == 0 || (opt->lock_wait_s > 0 && dg_now_s() - t0 > opt->lock_wait_s)) {
      close(f);
      return DG_ERROR(DG_ERR_INPUT,
                      "device '%s' is being tuned by another process (pid %s, lock %s)%s: "
                      "timings taken at the same time would measure each other's load; "
                      "run again when it has finished",
                      info->name, holder, path,
                      opt->lock_wait_s > 0 ? " for longer than the wait allowed" : "");
    }
    if (!*waited) {
      if (opt->verbose && log)
        fprintf(log, "%s waiting: device '%s' is being tuned by another process (pid %s, lock %s)\n",
                tag, info->name, holder, path);
      else
        dg_note("waiting: device '%s' is being tuned by another process (pid %s, lock %s)",
                info->name, holder, path);
    }
    *waited = 1;
    const struct timespec pause = {0, 200000000L};
    nanosleep(&pause, NULL);
  }
  if (got == DG_LOCK_NONE) { /* no locking on this file system: go on unlocked */
    close(f);
    return DG_OK;
  }
  *fd = f;
  return DG_OK;
}

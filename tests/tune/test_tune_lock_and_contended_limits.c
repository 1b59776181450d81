/* One tune per device (issue 17 item 8): while another process holds the device's tuning
 * lock, a tune stops at once (lock_wait_s = 0) or after its wait with a message naming the
 * holder's pid and the lock file, or waits until the lock is free (lock_wait_s < 0). Device
 * limits measured while other processes keep the CPU busy are reported as contended and
 * never cached. */
#include "core/files.h"
#include "test_tune_util.h"

#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void lock_path(const dg_tune_paths *p, const dg_device_info *info, char *out, size_t cap) {
  char slug[128], dir[DG_TUNE_PATH + 16];
  dg_device_key key;
  dg_device_key_from_info(info, &key);
  dg_device_slug(info->name, slug, sizeof slug);
  snprintf(dir, sizeof dir, "%s/locks", p->cache_dir);
  assert_dg_ok(dg_mkdir_p(dir));
  snprintf(out, cap, "%s/%s-%08" PRIx32 ".lock", dir, slug, (uint32_t)dg_device_key_hash(&key));
}

static void small_options(dg_tune_options *opt, char root[64]) {
  static const char *specs[] = {"baseline"};
  tt_options(opt, root);
  opt->specs = specs;
  opt->n_specs = 1;
  opt->write_cache = 0;
}

static void test_second_tune_stops_or_waits(void **state) {
  (void)state;
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    skip();
  }
  char root[64], path[DG_TUNE_PATH + 256];
  dg_tune_options opt;
  small_options(&opt, root);
  lock_path(&opt.paths, &dev->info, path, sizeof path);

  /* "Another tune": a child holding the lock (with its pid in the file) for 1.5 s. */
  int ready[2];
  assert_int_equal(pipe(ready), 0);
  const pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    const int fd = open(path, O_RDWR | O_CREAT, 0644);
    if (fd < 0 || flock(fd, LOCK_EX) != 0) _exit(1);
    char pid[32];
    const int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || write(fd, pid, (size_t)n) != n) _exit(1);
    if (write(ready[1], "x", 1) != 1) _exit(1);
    const struct timespec hold = {1, 500000000L};
    nanosleep(&hold, NULL);
    _exit(0);
  }
  char x;
  assert_int_equal(read(ready[0], &x, 1), 1);
  char pid[32];
  snprintf(pid, sizeof pid, "pid %ld", (long)child);

  dg_tune_result r;
  opt.lock_wait_s = 0;
  assert_dg_error(dg_tune_order(dev, 1, DG_PREC_FLOAT, &opt, NULL, &r), DG_ERR_INPUT,
                  "is being tuned by another process");
  assert_non_null(strstr(dg_error_message(), pid));
  assert_non_null(strstr(dg_error_message(), path));
  dg_tune_result_free(&r);

  opt.lock_wait_s = 0.3;
  double t0 = now();
  assert_dg_error(dg_tune_order(dev, 1, DG_PREC_FLOAT, &opt, NULL, &r), DG_ERR_INPUT,
                  "for longer than the wait allowed");
  assert_true(now() - t0 >= 0.3);
  dg_tune_result_free(&r);

  /* Waiting: it goes on once the other one is done, and not before. */
  opt.lock_wait_s = -1;
  assert_dg_ok(dg_tune_order(dev, 1, DG_PREC_FLOAT, &opt, NULL, &r));
  int status = 0;
  assert_int_equal(waitpid(child, &status, WNOHANG), child); /* the holder had finished */
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  assert_int_equal(r.c[0].status, DG_CAND_TIMED);
  dg_tune_result_free(&r);
  close(ready[0]);
  close(ready[1]);
  dg_device_destroy(&dev);
  tt_rmrf(root);
}

static void test_contended_limits_not_cached(void **state) {
  (void)state;
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    skip();
  }
  if (dev->info.type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)) {
    dg_device_destroy(&dev);
    skip(); /* contention is detected for CPU devices */
  }
  char root[64], cache[DG_TUNE_PATH + 64];
  dg_tune_options opt;
  small_options(&opt, root);
  opt.force = 1;
  dg_device_key key;
  dg_device_key_from_info(&dev->info, &key);
  dg_tune_cache_file(opt.paths.cache_dir, dev->info.name, cache, sizeof cache);

  /* Spinners on every core the host has. */
  const long ncpu = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 2;
  pid_t spin[64];
  const int nspin = ncpu < 64 ? (int)ncpu : 64;
  for (int i = 0; i < nspin; ++i) {
    spin[i] = fork();
    assert_true(spin[i] >= 0);
    if (spin[i] == 0) {
      volatile unsigned long n = 0;
      for (;;) ++n;
    }
  }
  dg_device_limits lim, got;
  int measured = 0;
  const dg_status st = dg_tune_device_limits(dev, &opt, &lim, &measured);
  for (int i = 0; i < nspin; ++i) {
    kill(spin[i], SIGKILL);
    waitpid(spin[i], NULL, 0);
  }
  assert_dg_ok(st);
  assert_true(measured);
  if (!(lim.others_busy > opt.contention_max))
    fail_msg("spinners on %d cores: others used only %.2f of the CPU", nspin, lim.others_busy);
  assert_true(lim.contended);
  assert_false(dg_tune_cache_limits(cache, &key, &got)); /* not cached */

  /* The lookup itself works: stored limits are found there (so "not cached" above is not
   * a wrong path or key). */
  assert_dg_ok(dg_tune_cache_store(cache, &key, &lim, NULL, NULL, 0));
  assert_true(dg_tune_cache_limits(cache, &key, &got));
  assert_near(got.bandwidth_gbs, lim.bandwidth_gbs, 1e-9 * lim.bandwidth_gbs);
  dg_device_destroy(&dev);
  tt_rmrf(root);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_second_tune_stops_or_waits),
      cmocka_unit_test(test_contended_limits_not_cached),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

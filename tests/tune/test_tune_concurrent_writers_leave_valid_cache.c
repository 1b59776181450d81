/* Several processes storing into the same cache file at once (flock + atomic rename) leave
 * a file that parses and holds every process's complete entries. */
#include "test_tune_util.h"

#include <sys/wait.h>
#include <unistd.h>

enum { WRITERS = 4, ROUNDS = 15 };

static void test_concurrent_writers(void **state) {
  (void)state;
  char root[64], path[DG_TUNE_PATH + 64];
  dg_tune_paths paths;
  tt_paths(&paths, root);
  const dg_device_info info = tt_info("Shared Device", "Test Vendor", "1.0");
  dg_device_key key;
  dg_device_key_from_info(&info, &key);
  dg_tune_cache_file(paths.cache_dir, info.name, path, sizeof path);
  pid_t pids[WRITERS];
  for (int w = 0; w < WRITERS; ++w) {
    pids[w] = fork();
    assert_true(pids[w] >= 0);
    if (pids[w] == 0) {
      /* Writer w owns order w+1 in float; all writers also fight over N=9 double. Each
       * entry carries a ranking so the file is large enough to be written in pieces. */
      int bad = 0;
      dg_tune_rank rank[40];
      memset(rank, 0, sizeof rank);
      for (int i = 0; i < 40; ++i) {
        snprintf(rank[i].spec, sizeof rank[i].spec, "prec=float");
        rank[i].median_ns = 1e6 + i;
      }
      for (int r = 0; r < ROUNDS; ++r) {
        dg_tune_entry e = tt_entry(w + 1, DG_PREC_FLOAT, 99, "work=vec,vw=8");
        e.median_ns = 1000.0 * (w + 1) + r;
        e.rank = rank;
        e.n_rank = 40;
        bad |= dg_tune_cache_store(path, &key, NULL, &e, NULL, 0) != DG_OK;
        dg_tune_entry s = tt_entry(9, DG_PREC_DOUBLE, 99, "prec=double");
        s.median_ns = 5000.0 + w;
        bad |= dg_tune_cache_store(path, &key, NULL, &s, NULL, 0) != DG_OK;
      }
      _exit(bad);
    }
  }
  for (int w = 0; w < WRITERS; ++w) {
    int status = 0;
    assert_int_equal(waitpid(pids[w], &status, 0), pids[w]);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  dg_tune_file f;
  int exists = 0, dropped = -1;
  assert_dg_ok(dg_tune_file_read(path, &f, &exists, &dropped));
  assert_int_equal(dropped, 0);
  assert_int_equal(f.n, 1);
  assert_int_equal(f.devices[0].n, WRITERS + 1);
  int seen[WRITERS] = {0}, shared = 0;
  for (int j = 0; j < f.devices[0].n; ++j) {
    const dg_tune_entry *e = &f.devices[0].entries[j];
    if (e->N == 9) {
      ++shared;
      assert_int_equal(e->precision, DG_PREC_DOUBLE);
      continue;
    }
    assert_true(e->N >= 1 && e->N <= WRITERS);
    seen[e->N - 1]++;
    /* The last round of that writer, complete with its ranking. */
    assert_near(e->median_ns, 1000.0 * e->N + ROUNDS - 1, 0);
    assert_int_equal(e->n_rank, 40);
  }
  assert_int_equal(shared, 1);
  for (int w = 0; w < WRITERS; ++w) assert_int_equal(seen[w], 1);
  dg_tune_file_free(&f);
  tt_rmrf(root);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_concurrent_writers)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

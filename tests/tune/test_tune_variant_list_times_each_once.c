/* `dgtd tune --variant A --variant A'` where A' is A spelt another way (a key at its
 * default value): the variant is one candidate and is built and timed once per round, not
 * once per spelling (bench/tune_final_round.sh hands the tuner lists merged from several
 * files, where the same variant can come twice). */
#include "test_tune_util.h"

static void test_duplicate_spec_timed_once(void **state) {
  (void)state;
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    dg_error_clear();
    skip();
  }
  char root[64];
  dg_tune_options opt;
  tt_options(&opt, root);
  const char *specs[] = {"work=vec,vw=4", "baseline", "work=vec,vw=4,kb=1"};
  opt.specs = specs;
  opt.n_specs = 3;
  opt.write_cache = 0;
  char *buf = NULL;
  size_t len = 0;
  opt.verbose = 1; /* the progress lines below */
  opt.log = open_memstream(&buf, &len);
  assert_non_null(opt.log);

  dg_tune_result r;
  assert_dg_ok(dg_tune_order(dev, 1, DG_PREC_FLOAT, &opt, NULL, &r));
  fclose(opt.log);
  assert_int_equal(r.n, 2);
  /* The first pass's progress lines count its planned timings: "1/2" and "2/2". */
  int first = 0;
  for (const char *s = buf; (s = strstr(s, "stage 1 ")) != NULL; ++s) ++first;
  assert_int_equal(first, 2);
  assert_non_null(strstr(buf, " 2/2 "));
  assert_null(strstr(buf, "/3 "));
  dg_tune_result_free(&r);
  free(buf);
  dg_device_destroy(&dev);
  tt_rmrf(root);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_duplicate_spec_timed_once)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}

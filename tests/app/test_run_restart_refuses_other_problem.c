/* A checkpoint records hashes of what defines the problem (materials, boundary conditions,
 * sources, initial state, flux, CFL factor) beside the mesh, order and precision; a restart
 * of a different problem is refused naming the part that differs, while the same case (run
 * further) restarts (issue 17 item 7). Reference backend, a tiny box: fast. */
#include "test_util.h"

#include "app/case.h"
#include "app/problem_hash.h"
#include "app/simulate.h"

static const char *base_json =
    "{\"mesh\": {\"box\": {\"cells\": [1, 1, 1]}}, \"order\": 1, \"backend\": \"ref\","
    " \"default_boundary\": \"absorbing\","
    " \"materials\": [{\"volume\": \"domain\", \"eps\": 2, \"sigma\": %s}],"
    " \"boundaries\": [{\"surface\": \"xmin\", \"type\": \"%s\"}],"
    " \"sources\": [{\"type\": \"dipole\", \"position\": [0.4, 0.5, 0.55], \"direction\": [%s],"
    "   \"pulse\": {\"shape\": \"ricker\", \"frequency\": 2, \"delay\": 0.05}}]%s}";

typedef struct {
  const char *sigma, *bc, *dir, *extra;
} variation;

static const variation same = {"0.5", "pec", "0, 0, 1", ""};

static void make_case(dg_case *c, const variation *v, const char *dir, int steps,
                      const char *restart) {
  char json[2048];
  snprintf(json, sizeof json, base_json, v->sigma, v->bc, v->dir, v->extra);
  dg_case_default(c);
  assert_dg_ok(dg_case_parse(c, json, "restart-case.json"));
  c->quiet = 1;
  c->steps = steps;
  c->checkpoint_every = steps;
  snprintf(c->output_dir, sizeof c->output_dir, "%s", dir);
  if (restart) snprintf(c->restart, sizeof c->restart, "%s", restart);
}

static void test_restart_of_other_problem_refused(void **state) {
  test_scratch *s = *state;
  char first[128], again[128], chk[200];
  snprintf(first, sizeof first, "%s/first", s->dir);
  snprintf(again, sizeof again, "%s/again", s->dir);
  snprintf(chk, sizeof chk, "%s/checkpoint.chk", first);
  dg_case c;
  dg_run_result r;
  make_case(&c, &same, first, 4, NULL);
  assert_dg_ok(dg_run(&c, &r));
  dg_case_free(&c);

  const struct {
    variation v;
    const char *part;
  } other[] = {
      {{"0.25", "pec", "0, 0, 1", ""}, "other materials than this run's"},
      {{"0.5", "pmc", "0, 0, 1", ""}, "other boundary conditions than this run's"},
      {{"0.5", "pec", "0, 1, 0", ""}, "other sources than this run's"},
      {{"0.5", "pec", "0, 0, 1", ", \"flux\": \"central\""}, "other flux than this run's"},
      {{"0.5", "pec", "0, 0, 1", ", \"initial\": {\"type\": \"cavity_mode\", \"mode\": [1, 1, 1]}"},
       "other initial state than this run's"},
  };
  for (size_t i = 0; i < sizeof other / sizeof *other; ++i) {
    make_case(&c, &other[i].v, again, 8, chk);
    assert_dg_error(dg_run(&c, &r), DG_ERR_INPUT, other[i].part);
    assert_non_null(strstr(dg_error_message(), chk));
    dg_case_free(&c);
  }
  /* Two parts at once: both named. */
  const variation two = {"0.25", "pec", "1, 0, 0", ""};
  make_case(&c, &two, again, 8, chk);
  assert_dg_error(dg_run(&c, &r), DG_ERR_INPUT, "other materials than this run's; for other sources");
  dg_case_free(&c);

  /* The same problem, run further: accepted. */
  make_case(&c, &same, again, 8, chk);
  assert_dg_ok(dg_run(&c, &r));
  assert_int_equal(r.first_step, 4);
  dg_case_free(&c);
}

/* Each part's hash moves with its own settings only; outputs and probes do not count. */
static void test_part_hashes_track_their_settings(void **state) {
  (void)state;
  dg_case a, b;
  uint64_t ha[DG_CHECKPOINT_PARTS], hb[DG_CHECKPOINT_PARTS];
  make_case(&a, &same, "/tmp/x", 4, NULL);
  dg_case_problem_hash(&a, ha);
  for (int i = 0; i < DG_CHECKPOINT_TIME + 1; ++i) assert_true(ha[i] != 0);
  make_case(&b, &same, "/tmp/y", 9, NULL);
  b.vtu_every = 3;
  dg_case_problem_hash(&b, hb);
  assert_memory_equal(ha, hb, sizeof ha);
  b.cfl = 0.5;
  dg_case_problem_hash(&b, hb);
  for (int i = 0; i < DG_CHECKPOINT_PARTS; ++i)
    assert_int_equal(ha[i] != hb[i], i == DG_CHECKPOINT_TIME);
  dg_case_free(&a);
  dg_case_free(&b);
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_part_hashes_track_their_settings),
      cmocka_unit_test(test_restart_of_other_problem_refused),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

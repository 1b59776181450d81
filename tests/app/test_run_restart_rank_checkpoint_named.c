/* One rank's checkpoint of a multi-rank run (checkpoint_r1.chk: a piece of the mesh) given to
 * a 1-rank run is refused saying it looks like one rank's checkpoint and how to restart (as
 * many ranks as wrote it, --restart naming checkpoint.chk). The old message said only "a
 * different mesh". Here the rank file is stood in for by a checkpoint of a smaller mesh under
 * that name (a real one needs MPI); a checkpoint not named like a rank's gets no such hint. */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"

static void make_case(dg_case *c, int cells, const char *dir, const char *restart) {
  char json[1024];
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": {\"cells\": [%d, 1, 1]}}, \"order\": 1, \"backend\": \"ref\","
           " \"default_boundary\": \"pec\"}", cells);
  dg_case_default(c);
  assert_dg_ok(dg_case_parse(c, json, "case.json"));
  c->quiet = 1;
  c->steps = 2;
  c->checkpoint_every = 2;
  snprintf(c->output_dir, sizeof c->output_dir, "%s", dir);
  if (restart) snprintf(c->restart, sizeof c->restart, "%s", restart);
}

static void rank_checkpoint_named(void **state) {
  test_scratch *s = *state;
  char first[128], again[128], chk[200], rank_chk[200];
  snprintf(first, sizeof first, "%s/first", s->dir);
  snprintf(again, sizeof again, "%s/again", s->dir);
  snprintf(chk, sizeof chk, "%s/checkpoint.chk", first);
  snprintf(rank_chk, sizeof rank_chk, "%s/checkpoint_r1.chk", first);
  dg_case c;
  dg_run_result r;
  make_case(&c, 1, first, NULL);
  assert_dg_ok(dg_run(&c, &r));
  dg_case_free(&c);
  assert_int_equal(rename(chk, rank_chk), 0);

  make_case(&c, 2, again, rank_chk);
  assert_dg_error(dg_run(&c, &r), DG_ERR_INPUT, "a different mesh");
  const char *msg = dg_error_message();
  print_message("# %s\n", msg);
  assert_non_null(strstr(msg, "checkpoint_r1.chk looks like the checkpoint of rank 1 of a "
                              "multi-rank run"));
  assert_non_null(strstr(msg, "checkpoint.chk"));
  assert_non_null(strstr(msg, "same number of ranks"));
  dg_case_free(&c);

  assert_int_equal(rename(rank_chk, chk), 0);
  make_case(&c, 2, again, chk);
  assert_dg_error(dg_run(&c, &r), DG_ERR_INPUT, "a different mesh");
  assert_null(strstr(dg_error_message(), "multi-rank"));
  dg_case_free(&c);
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rank_checkpoint_named),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

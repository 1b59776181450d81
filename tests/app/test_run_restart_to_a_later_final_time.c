/* A run extended from its checkpoint to a later final time continues with the checkpoint's
 * time step ("the final time may grow", docs/RUNNING.md): whole steps land on each final time,
 * so a run to t = 0.5 and one to t = 1.3 have different steps, and the restart was refused
 * for it (issue 48; found on a curved mesh, where it was first tried, but any mesh has it).
 * Now it keeps the checkpoint's dt, starts at its step and ends at the first step at or past
 * the new final time; with --steps (the stable step itself) a different dt is still refused,
 * by name. PEC box of 2 cells, order 2, the reference backend. */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"

static dg_status run(const char *dir, const char *name, double final_time, int steps,
                     const char *restart, int checkpoint_every, dg_run_result *r) {
  dg_case c;
  dg_case_default(&c);
  c.backend = DG_BACKEND_REF;
  c.order = 2;
  c.box_cells[0] = c.box_cells[1] = c.box_cells[2] = 2;
  c.final_time = final_time;
  c.steps = steps;
  c.checkpoint_every = checkpoint_every;
  c.quiet = 1;
  snprintf(c.output_dir, sizeof c.output_dir, "%s/%s", dir, name);
  if (restart) snprintf(c.restart, sizeof c.restart, "%s/%s/checkpoint.chk", dir, restart);
  dg_error_clear();
  const dg_status st = dg_run(&c, r);
  dg_case_free(&c);
  return st;
}

static void later_final_time_keeps_the_checkpoints_step(void **state) {
  test_scratch *s = *state;
  dg_run_result a, b, u;
  assert_dg_ok(run(s->dir, "a", 0.5, 0, NULL, 1000, &a));
  assert_int_equal(a.n_checkpoints, 1); /* its last step */
  /* the uninterrupted run to 1.3 takes another step: what made the restart differ */
  assert_dg_ok(run(s->dir, "u", 1.3, 0, NULL, 0, &u));
  print_message("# to 0.5: %d steps of %.9g; to 1.3: %d steps of %.9g\n", a.steps, a.dt, u.steps,
                u.dt);
  assert_true(u.dt != a.dt);
  assert_dg_ok(run(s->dir, "b", 1.3, 0, "a", 0, &b));
  print_message("# restarted at step %d: %d steps of %.9g to t = %.9g\n", b.first_step, b.steps,
                b.dt, b.final_time);
  assert_true(b.dt == a.dt);
  assert_int_equal(b.first_step, a.steps);
  assert_true(b.final_time >= 1.3 - 1e-12 && b.final_time < 1.3 + b.dt);
  assert_true(fabs(b.final_time - (b.first_step + b.steps) * b.dt) < 1e-12);
  /* its error against the cavity mode is that of a run of this length, not a blow-up */
  assert_true(b.has_error && u.has_error);
  assert_true(b.l2_rel_error < 2 * u.l2_rel_error + 1e-3);

  /* --steps takes the stable step, which the checkpoint's is not: refused, saying why */
  dg_run_result c;
  assert_int_equal(run(s->dir, "c", 0, 80, "a", 0, &c), DG_ERR_INPUT);
  assert_non_null(strstr(dg_error_message(), "was written with dt"));
  assert_non_null(strstr(dg_error_message(), "a final time rather than a step count"));
}

static int setup(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(later_final_time_keeps_the_checkpoints_step),
  };
  return cmocka_run_group_tests(tests, setup, test_scratch_teardown);
}

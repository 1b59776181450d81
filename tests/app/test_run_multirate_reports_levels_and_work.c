/* Local time stepping in a whole run (case key "time_stepping", --time-stepping):
 *   - the cavity mode on the built-in box (one level): the multirate run's L2 error against
 *     the exact mode is within 1% of global LSERK4's, and its RHS work is the count of the
 *     scheme (2 start-up macro steps of 5 K evaluations, then K per macro step); multirate
 *     LSERK4 on one level takes global LSERK4's steps, with its error to 1e-9;
 *   - two materials (tests/fixtures/two_materials.msh, eps = mu = 3 on the right: a local
 *     step 3x longer there) with a dipole, PEC/PMC/absorbing walls: the levels histogram
 *     sums to K over >= 2 levels, the work is the histogram's count and less than global
 *     AB3 at the finest step would do, and the final energy agrees with global LSERK4's to 1e-4
 *     relative (both integrate the same semi-discrete system); the OpenCL backend's multirate
 *     run in double has the same levels, steps and work and its final energy is the
 *     reference multirate run's to 1e-9; multirate LSERK4 has the same levels, 5 evaluations
 *     per element step (less work than global LSERK4) and the same final energy to 1e-4, and
 *     on the OpenCL backend in double the reference's to 1e-9 (both with stage_cost 0, the
 *     reference's plan); with the OpenCL device's own cost per level stage, fewer levels
 *     are used, more evaluations per macro step, and the final energy is global LSERK4's
 *     to 1e-4;
 *   - time_stepping "auto": global LSERK4 on the one-level box (predicted gain exactly 1) and
 *     with checkpoints, multirate LSERK4 on the two materials (reference backend: gain > 1.2),
 *     then the same levels, steps, work and energy as "multirate-lserk4"; the predicted gain
 *     against a hand count of evaluations and stages, with and without a cost per stage;
 *   - bad settings are refused naming the key: unknown keys, schemes, level counts, the
 *     and on the command line. */
#include "test_util.h"


#include "app/case.h"
#include "app/simulate.h"
#include "device/device.h"
#include "dg/multirate.h"

static void run_json(const char *json, dg_run_result *r) {
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "tests/fixtures/multirate-test.json"));
  c.quiet = 1;
  assert_dg_ok(dg_run(&c, r));
  dg_case_free(&c);
}

/* base (a case object without its closing brace, on the reference backend) with the
 * time_stepping object ts, in double on the OpenCL backend with the device default variant. */
static void run_opencl(const char *base, const char *ts, dg_run_result *r) {
  char json[1100];
  snprintf(json, sizeof json, "%s, \"time_stepping\": %s, \"precision\": \"double\", "
           "\"tune\": \"never\"}", base, ts);
  dg_case c;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "tests/fixtures/multirate-test.json"));
  c.backend = DG_BACKEND_OPENCL;
  c.quiet = 1;
  assert_dg_ok(dg_run(&c, r));
  dg_case_free(&c);
}

static void cavity_one_level(void **state) {
  (void)state;
  dg_run_result g, m;
  const char *base = "{\"backend\": \"ref\", \"order\": 3, \"default_boundary\": \"pec\", "
                     "\"initial\": {\"type\": \"cavity_mode\", \"mode\": [1, 1, 1]}, \"final_time\": 0.25";
  char json[512];
  snprintf(json, sizeof json, "%s}", base);
  run_json(json, &g);
  snprintf(json, sizeof json, "%s, \"time_stepping\": {\"scheme\": \"multirate\", \"max_levels\": 3}}", base);
  run_json(json, &m);
  assert_int_equal(g.multirate, 0);
  assert_int_equal(m.multirate, 1);
  assert_int_equal(m.n_levels, 1);
  assert_int_equal(m.level_count[0], 384);
  printf("# box cavity: L2 error LSERK4 %.6e (%d steps), multirate %.6e (%d steps)\n", g.l2_error,
         g.steps, m.l2_error, m.steps);
  if (!(fabs(m.l2_error / g.l2_error - 1) <= 0.01)) fail_msg("errors %g vs %g", m.l2_error, g.l2_error);
  assert_true(m.steps >= 3);
  assert_int_equal(m.rhs_evals, 2LL * 5 * 384 + (long long)(m.steps - 2) * 384);
  assert_int_equal(g.rhs_evals, 5LL * 384 * g.steps);
  assert_near(g.rhs_evals_global, (double)g.rhs_evals, 0.5);
  assert_near(m.rhs_evals_global, (double)g.rhs_evals, 0.5); /* same time, same cfl */
  /* multirate LSERK4 on one level is global LSERK4 (the first stage evaluated at the step
   * start, as LSERK4's is): the same steps, work and error */
  dg_run_result k;
  snprintf(json, sizeof json, "%s, \"time_stepping\": {\"scheme\": \"multirate-lserk4\"}}", base);
  run_json(json, &k);
  printf("# box cavity, multirate LSERK4: L2 error %.12e (%d steps) vs LSERK4 %.12e\n",
         k.l2_error, k.steps, g.l2_error);
  assert_int_equal(k.n_levels, 1);
  assert_int_equal(k.steps, g.steps);
  assert_int_equal(k.rhs_evals, g.rhs_evals); /* the start-up's steps are LSERK4 steps too */
  assert_true(fabs(k.l2_error / g.l2_error - 1) <= 1e-9);
}

static void two_materials_two_levels(void **state) {
  (void)state;
  dg_run_result g, m;
  const char *base =
      "{\"backend\": \"ref\", \"order\": 2, \"mesh\": {\"file\": \"two_materials.msh\"},"
      " \"materials\": [{\"volume\": \"right\", \"eps\": 3, \"mu\": 3}],"
      " \"boundaries\": [{\"surface\": \"walls_x\", \"type\": \"pec\"}, {\"surface\": \"walls_y\", \"type\": \"pmc\"},"
      " {\"surface\": \"walls_z\", \"type\": \"absorbing\"}],"
      " \"sources\": [{\"type\": \"dipole\", \"position\": [0.3, 0.5, 0.5], \"direction\": [0, 0, 1],"
      " \"pulse\": {\"shape\": \"gaussian\", \"frequency\": 2, \"delay\": 0.3}}], \"final_time\": 0.8";
  char json[1024];
  snprintf(json, sizeof json, "%s, \"time_stepping\": {\"scheme\": \"lserk4\"}}", base);
  run_json(json, &g);
  snprintf(json, sizeof json, "%s, \"time_stepping\": {\"scheme\": \"multirate\"}}", base);
  run_json(json, &m);
  printf("# two materials, K = %d: levels", m.K);
  long long per_macro = 0, sum = 0;
  for (int l = 0; l < m.n_levels; ++l) {
    printf(" %d", m.level_count[l]);
    sum += m.level_count[l];
    per_macro += (long long)m.level_count[l] << (m.n_levels - 1 - l);
  }
  printf("; RHS work %lld vs global LSERK4 %.0f; energy %.10e vs %.10e\n", m.rhs_evals,
         m.rhs_evals_global, m.energy_end, g.energy_end);
  assert_int_equal(sum, m.K);
  assert_true(m.n_levels >= 2);
  assert_int_equal(m.rhs_evals, 2LL * 5 * m.K * (1 << (m.n_levels - 1)) + (m.steps - 2) * per_macro);
  /* less work than global AB3 at the finest step over the same time */
  assert_true(m.rhs_evals < (long long)m.K * (1 << (m.n_levels - 1)) * m.steps);
  assert_true(g.energy_end > 0);
  if (!(fabs(m.energy_end / g.energy_end - 1) <= 1e-4))
    fail_msg("final energy %.12e (multirate) vs %.12e (LSERK4)", m.energy_end, g.energy_end);
  /* multirate LSERK4: the same levels, 5 evaluations per element step (less work than
   * global LSERK4 at its step), and the same final energy */
  dg_run_result k;
  snprintf(json, sizeof json, "%s, \"time_stepping\": {\"scheme\": \"multirate-lserk4\"}}", base);
  run_json(json, &k);
  printf("# multirate LSERK4: %d macro steps, RHS work %lld; energy %.10e\n", k.steps, k.rhs_evals,
         k.energy_end);
  assert_int_equal(k.n_levels, m.n_levels);
  for (int l = 0; l < m.n_levels; ++l) assert_int_equal(k.level_count[l], m.level_count[l]);
  assert_int_equal(k.rhs_evals, 2LL * 5 * k.K * (1 << (k.n_levels - 1)) + (k.steps - 2) * 5 * per_macro);
  assert_true(k.rhs_evals < g.rhs_evals);
  if (!(fabs(k.energy_end / g.energy_end - 1) <= 1e-4))
    fail_msg("final energy %.12e (multirate LSERK4) vs %.12e (LSERK4)", k.energy_end, g.energy_end);
  /* the same multirate run on the OpenCL backend in double (sources, three kinds of walls,
   * two materials): the same levels, steps and work, the same final energy to 1e-9 */
  dg_device *dev = NULL;
  const int have_device = dg_device_create(&dev, NULL) == DG_OK && dev->info.has_fp64;
  dg_error_clear();
  dg_device_destroy(&dev);
  if (!have_device) {
    test_skip_part("no OpenCL device with double: the OpenCL multirate run");
  } else {
    dg_run_result o;
    run_opencl(base, "{\"scheme\": \"multirate\", \"stage_cost\": 0}", &o);
    printf("# OpenCL (%s): energy %.12e vs reference %.12e, RHS work %lld\n", o.variant,
           o.energy_end, m.energy_end, o.rhs_evals);
    assert_int_equal(o.n_levels, m.n_levels);
    assert_int_equal(o.steps, m.steps);
    assert_int_equal(o.rhs_evals, m.rhs_evals);
    if (!(fabs(o.energy_end / m.energy_end - 1) <= 1e-9))
      fail_msg("OpenCL final energy %.12e vs reference %.12e", o.energy_end, m.energy_end);
    /* and multirate LSERK4 */
    run_opencl(base, "{\"scheme\": \"multirate-lserk4\", \"stage_cost\": 0}", &o);
    printf("# OpenCL multirate LSERK4: energy %.12e vs reference %.12e\n", o.energy_end, k.energy_end);
    assert_int_equal(o.steps, k.steps);
    assert_int_equal(o.rhs_evals, k.rhs_evals);
    if (!(fabs(o.energy_end / k.energy_end - 1) <= 1e-9))
      fail_msg("OpenCL multirate LSERK4 final energy %.12e vs reference %.12e", o.energy_end, k.energy_end);
    /* without stage_cost the OpenCL device's cost per level stage plans the levels: on this
     * small mesh (K = 468, 9 / 264 / 192 / 3 elements) it lowers levels, so fewer of them
     * with elements, more evaluations per macro step than the fewest, and the same physics
     * (final energy within 1e-4 of global LSERK4's) */
    run_opencl(base, "{\"scheme\": \"multirate-lserk4\"}", &o);
    int used_o = 0, used_k = 0, sum_o = 0;
    for (int l = 0; l < o.n_levels; ++l) used_o += o.level_count[l] > 0, sum_o += o.level_count[l];
    for (int l = 0; l < k.n_levels; ++l) used_k += k.level_count[l] > 0;
    printf("# OpenCL multirate LSERK4, the device's stage cost: %d of %d levels used (reference "
           "%d), RHS work %lld over %d macro steps vs %lld over %d\n", used_o, o.n_levels, used_k,
           o.rhs_evals, o.steps, k.rhs_evals, k.steps);
    assert_int_equal(sum_o, o.K);
    assert_true(used_o < used_k);
    assert_true((double)o.rhs_evals / o.steps > (double)k.rhs_evals / k.steps *
                                                    ldexp(1, o.n_levels - k.n_levels));
    if (!(fabs(o.energy_end / g.energy_end - 1) <= 1e-4))
      fail_msg("OpenCL multirate LSERK4 (device's stage cost) final energy %.12e vs LSERK4 %.12e",
               o.energy_end, g.energy_end);
  }
}

/* time_stepping "auto": global LSERK4 on one level, where multirate cannot run (checkpoints)
 * and where its predicted gain is under DG_AUTO_MIN_GAIN; multirate LSERK4 where it is above,
 * then the very run "multirate-lserk4" is (same levels, steps, work and energy). */
static void auto_chooses_by_predicted_gain(void **state) {
  const test_scratch *s = *state;
  dg_run_result a, k;
  const char *box = "{\"backend\": \"ref\", \"order\": 2, \"default_boundary\": \"pec\", "
                    "\"initial\": {\"type\": \"cavity_mode\", \"mode\": [1, 1, 1]}, \"final_time\": 0.1, "
                    "\"time_stepping\": {\"scheme\": \"auto\"}}";
  run_json(box, &a);
  assert_int_equal(a.multirate, 0);
  assert_true(fabs(a.auto_gain - 1) < 1e-12); /* one level: the same work, the same stages */
  const char *base =
      "{\"backend\": \"ref\", \"order\": 2, \"mesh\": {\"file\": \"two_materials.msh\"},"
      " \"materials\": [{\"volume\": \"right\", \"eps\": 3, \"mu\": 3}],"
      " \"default_boundary\": \"pec\", \"final_time\": 0.3, "
      " \"sources\": [{\"type\": \"dipole\", \"position\": [0.3, 0.5, 0.5], \"direction\": [0, 0, 1],"
      " \"pulse\": {\"shape\": \"gaussian\", \"frequency\": 2, \"delay\": 0.3}}]";
  char json[1024];
  snprintf(json, sizeof json, "%s, \"time_stepping\": {\"scheme\": \"auto\"}}", base);
  run_json(json, &a);
  snprintf(json, sizeof json, "%s, \"time_stepping\": {\"scheme\": \"multirate-lserk4\"}}", base);
  run_json(json, &k);
  printf("# auto on two materials (reference backend): predicted %.3fx, multirate %d; "
         "multirate LSERK4 work %lld vs global %.0f\n", a.auto_gain, a.multirate, k.rhs_evals,
         k.rhs_evals_global);
  /* on the reference backend the prediction is the work saved once started */
  assert_true(a.auto_gain > 1.2);
  assert_int_equal(a.multirate, 1);
  assert_int_equal(a.mr_scheme, DG_MR_LSERK4);
  assert_int_equal(a.n_levels, k.n_levels);
  for (int l = 0; l < k.n_levels; ++l) assert_int_equal(a.level_count[l], k.level_count[l]);
  assert_int_equal(a.steps, k.steps);
  assert_int_equal(a.rhs_evals, k.rhs_evals);
  assert_true(a.energy_end == k.energy_end);
  /* checkpoints: global LSERK4 whatever the gain */
  snprintf(json, sizeof json, "%s, \"time_stepping\": {\"scheme\": \"auto\"}, "
           "\"checkpoint\": {\"every_steps\": 1000}, \"output\": {\"directory\": \"%s\"}}", base,
           s->dir);
  run_json(json, &a);
  assert_int_equal(a.multirate, 0);
  /* a large cost per stage (a device's kernels, as on the graded box through PoCL) turns the
   * same histogram into a loss: the model's other side */
  dg_mr_plan plan;
  memset(&plan, 0, sizeof plan);
  plan.scheme = DG_MR_LSERK4, plan.n_levels = 3, plan.dt_min = 0.01;
  plan.count[0] = 10, plan.count[1] = 10, plan.count[2] = 1000;
  const double g0 = dg_multirate_predicted_gain(&plan, 1.0, 0.01, 0, 0);
  /* by hand: global 5 K / dt = 5 1020 / 0.01; multirate 5 (10/0.01 + 10/0.02 + 1000/0.04) */
  assert_true(fabs(g0 - (5.0 * 1020 / 0.01) / (5.0 * (1000 + 500 + 25000))) < 1e-12);
  const double w = 2000;
  const double g1 = dg_multirate_predicted_gain(&plan, 1.0, 0.01, w, 0);
  assert_true(fabs(g1 - (5.0 * 1020 / 0.01 + w * 5 / 0.01) /
                            (5.0 * (1000 + 500 + 25000) + w * 5 * (100 + 50 + 25))) < 1e-12);
  assert_true(g1 < g0 && g1 < 1.2);
  /* dense outputs of coarser neighbours at beta element evaluations each, 5 per step of the
   * finer level: 30 next to level 0, 40 next to level 1 */
  plan.border[0] = 30, plan.border[1] = 40;
  assert_true(fabs(dg_multirate_predicted_gain(&plan, 1.0, 0.01, 0, 0) - g0) < 1e-12);
  const double b = 0.5, g2 = dg_multirate_predicted_gain(&plan, 1.0, 0.01, w, b);
  assert_true(fabs(g2 - (5.0 * 1020 / 0.01 + w * 5 / 0.01) /
                            (5.0 * (1000 + 500 + 25000) + b * 5 * (30 / 0.01 + 40 / 0.02) +
                             w * 5 * (100 + 50 + 25))) < 1e-12);
  assert_true(g2 < g1);
}

static void bad_settings_refused(void **state) {
  (void)state;
  dg_case c;
  dg_case_default(&c);
  assert_int_equal(c.mr_auto, 1); /* auto by default */
  assert_int_equal(c.multirate, 0);
  assert_dg_error(dg_case_parse(&c, "{\"time_stepping\": {\"max_level\": 3}}", "x.json"), DG_ERR_INPUT,
                  "did you mean \"max_levels\"");
  assert_dg_error(dg_case_parse(&c, "{\"time_stepping\": {\"scheme\": \"rk3\"}}", "x.json"), DG_ERR_INPUT,
                  "time_stepping.scheme");
  assert_dg_ok(dg_case_parse(&c, "{\"default_boundary\": \"pec\", \"time_stepping\": {\"scheme\": \"auto\"}}",
                             "x.json"));
  assert_int_equal(c.mr_auto, 2); /* asked for */
  assert_int_equal(c.multirate, 0);
  assert_dg_error(dg_case_parse(&c, "{\"time_stepping\": {\"max_levels\": 0}}", "x.json"), DG_ERR_INPUT,
                  "time_stepping.max_levels");
  assert_dg_error(dg_case_parse(&c, "{\"time_stepping\": {\"stage_cost\": -1}}", "x.json"),
                  DG_ERR_INPUT, "time_stepping.stage_cost must be a number of element evaluations");
  assert_dg_error(dg_case_parse(&c, "{\"time_stepping\": \"multirate\"}", "x.json"), DG_ERR_INPUT,
                  "time_stepping: expected an object");
  assert_dg_ok(dg_case_parse(&c, "{\"default_boundary\": \"pec\", \"time_stepping\": {\"scheme\": \"multirate\"}}",
                             "x.json"));
  assert_int_equal(c.multirate, 1);
  assert_int_equal(c.mr_scheme, DG_MR_AB3);
  assert_int_equal(c.max_levels, DG_CASE_MAX_LEVELS);
  dg_case_free(&c);
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, "{\"default_boundary\": \"pec\", "
                                 "\"time_stepping\": {\"scheme\": \"multirate-lserk4\"}}", "x.json"));
  assert_int_equal(c.multirate, 1);
  assert_int_equal(c.mr_scheme, DG_MR_LSERK4);
  dg_case_free(&c);
  /* the command line */
  const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
  char cmd[512], out[8192];
  snprintf(cmd, sizeof cmd, "%s/dgtd run --time-stepping multirate:0 2>&1", bin);
  assert_int_equal(test_capture(cmd, out, sizeof out), 2);
  if (!strstr(out, "--time-stepping")) fail_msg("output: %s", out);
  snprintf(cmd, sizeof cmd,
           "%s/dgtd run --backend ref --box 2 --order 2 --steps 4 --time-stepping multirate:2 --quiet 2>&1", bin);
  assert_int_equal(test_capture(cmd, out, sizeof out), 0);
  if (!strstr(out, "multirate AB3, 1 level (at most 2)") || !strstr(out, "0: 48 elements") ||
      !strstr(out, "RHS work      576 element evaluations"))
    fail_msg("output: %s", out);
}

static int scratch(void **state) { return test_scratch_setup(state, "unused"); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cavity_one_level),
      cmocka_unit_test(two_materials_two_levels),
      cmocka_unit_test_setup_teardown(auto_chooses_by_predicted_gain, scratch,
                                      test_scratch_teardown),
      cmocka_unit_test(bad_settings_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

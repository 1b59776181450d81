/* Whole runs of a small PML case for the tests of what a run says (tests/pml/test_run_pml_*):
 * the unit box in 2^3 cells (h = 0.5) with one PML cell on every side (inner box [0, 1]), a
 * dipole at its centre, on the reference backend at order 1, to final_time with cfl; pml is
 * the case's "pml" object, name the output folder under s->dir. The run's warnings are
 * collected in pml_run_warnings; its status is returned (its message in dg_error_message). */
#ifndef DG_TESTS_PML_RUN_H
#define DG_TESTS_PML_RUN_H

#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"
#include "core/log.h"

static char pml_run_warnings[4096];

static inline void pml_run_collect(void *ctx, dg_log_level level, const char *message) {
  (void)ctx;
  if (level != DG_LOG_WARNING) return;
  const size_t n = strlen(pml_run_warnings);
  snprintf(pml_run_warnings + n, sizeof pml_run_warnings - n, "%s\n", message);
}

static inline dg_status pml_case_run(test_scratch *s, const char *pml, double final_time,
                                     double cfl, const char *name) {
  char json[2048];
  snprintf(json, sizeof json,
           "{\"mesh\": {\"box\": {\"cells\": [2, 2, 2], \"pml_cells\": 1}}, \"order\": 1,"
           " \"backend\": \"ref\", \"default_boundary\": \"pec\", \"final_time\": %g,"
           " \"cfl\": %g, \"pml\": %s,"
           " \"sources\": [{\"type\": \"dipole\", \"position\": [0.5, 0.5, 0.5],"
           "   \"direction\": [0, 0, 1], \"pulse\": {\"shape\": \"ricker\", \"frequency\": 0.5,"
           "   \"delay\": 1}}],"
           " \"output\": {\"directory\": \"%s/%s\"}}", final_time, cfl, pml, s->dir, name);
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, json, "case.json"));
  c.quiet = 1;
  pml_run_warnings[0] = '\0';
  dg_error_clear();
  dg_log_set_handler(pml_run_collect, NULL);
  const dg_status st = dg_run(&c, &r);
  dg_log_set_handler(NULL, NULL);
  dg_case_free(&c);
  print_message("# %s: %s %s\n# warnings: %s\n", name, dg_status_name(st),
                st ? dg_error_message() : "", pml_run_warnings);
  return st;
}

#endif

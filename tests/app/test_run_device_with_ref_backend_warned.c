/* A device given to a run on the reference backend (--backend ref --device 9:9, or "device" in
 * the case) is warned about: the reference stepper runs on the CPU and the device has no
 * effect. The old run ignored it silently. An OpenCL run is not warned about it (not run
 * here: it needs a device). */
#include "test_util.h"

#include "app/case.h"
#include "app/simulate.h"
#include "core/log.h"

static char warnings[4096];
static void collect(void *ctx, dg_log_level level, const char *message) {
  (void)ctx;
  if (level != DG_LOG_WARNING) return;
  const size_t n = strlen(warnings);
  snprintf(warnings + n, sizeof warnings - n, "%s\n", message);
}

static void run_ref(const char *device) {
  dg_case c;
  dg_run_result r;
  dg_case_default(&c);
  assert_dg_ok(dg_case_parse(&c, "{\"mesh\": {\"box\": {\"cells\": [1, 1, 1]}}, \"order\": 1,"
                                 " \"backend\": \"ref\", \"steps\": 2,"
                                 " \"default_boundary\": \"pec\"}", "case.json"));
  c.quiet = 1;
  if (device) snprintf(c.device, sizeof c.device, "%s", device); /* as --device sets it */
  warnings[0] = '\0';
  dg_log_set_handler(collect, NULL);
  const dg_status st = dg_run(&c, &r);
  dg_log_set_handler(NULL, NULL);
  dg_case_free(&c);
  print_message("# warnings: %s\n", warnings);
  assert_dg_ok(st);
}

static void device_with_ref_warned(void **state) {
  (void)state;
  run_ref("9:9");
  assert_non_null(strstr(warnings, "device 9:9 has no effect with the reference backend"));
  run_ref(NULL);
  assert_null(strstr(warnings, "no effect"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(device_with_ref_warned),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

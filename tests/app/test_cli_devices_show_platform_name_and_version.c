/* `dgtd devices` names each device's platform and its version (so two implementations of
 * one device can be told apart), in the table and in --json; under Oclgrind the list is
 * Oclgrind's platform, so the same binary lists whichever implementation it is given. */
#include "test_util.h"

#include "oclgrind_util.h"

#include <cJSON.h>

#include "core/alloc.h"
#include "device/device.h"
#include "device/profiles.h"

static char out[65536];

/* Run cmd, capture stdout into out; returns the exit status (-1: it did not exit). */
static int capture(const char *cmd) { return test_capture(cmd, out, sizeof out); }

static const char *bin(void) { return getenv("BIN") ? getenv("BIN") : "bin"; }

static void test_table_and_json_name_the_platform(void **state) {
  (void)state;
  dg_device_info *list = NULL;
  int n = 0;
  assert_dg_ok(dg_device_list(&list, &n));
  if (n == 0) {
    dg_free(&list);
    skip();
  }
  char cmd[256];
  snprintf(cmd, sizeof cmd, "%s/dgtd devices", bin());
  assert_int_equal(capture(cmd), 0);
  assert_non_null(strstr(out, "platform"));
  for (int i = 0; i < n; ++i) {
    assert_non_null(strstr(out, list[i].platform_name));
    assert_non_null(strstr(out, list[i].platform_version));
  }
  snprintf(cmd, sizeof cmd, "%s/dgtd devices --json", bin());
  assert_int_equal(capture(cmd), 0);
  cJSON *arr = cJSON_Parse(out);
  assert_non_null(arr);
  assert_int_equal(cJSON_GetArraySize(arr), n);
  for (int i = 0; i < n; ++i) {
    const cJSON *o = cJSON_GetArrayItem(arr, i);
    const cJSON *pn = cJSON_GetObjectItemCaseSensitive(o, "platform");
    const cJSON *pv = cJSON_GetObjectItemCaseSensitive(o, "platform_version");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
    assert_true(cJSON_IsString(pn) && cJSON_IsString(pv) && cJSON_IsString(name));
    assert_string_equal(pn->valuestring, list[i].platform_name);
    assert_string_equal(pv->valuestring, list[i].platform_version);
    assert_string_equal(name->valuestring, list[i].name);
    const cJSON *fam = cJSON_GetObjectItemCaseSensitive(o, "family");
    assert_true(cJSON_IsString(fam));
    assert_string_equal(fam->valuestring, dg_device_family(&list[i]));
  }
  cJSON_Delete(arr);
  dg_free(&list);
}

/* The compiler family: the vendor of a GPU, "cpu" for a CPU device whatever its vendor. */
static void test_family_by_vendor_and_type(void **state) {
  (void)state;
  const char *want[][2] = {{"nvidia-sm90", "nvidia"}, {"amd-gfx90a", "amd"},
                           {"intel-pvc", "intel"}, {"intel-dg2", "intel"}};
  for (int i = 0; i < 4; ++i) {
    const dg_device_profile *p = dg_device_profile_find(want[i][0]);
    assert_non_null(p);
    assert_string_equal(dg_device_family(&p->info), want[i][1]);
  }
  dg_device_info cpu = dg_device_profile_find("amd-gfx90a")->info;
  cpu.type = CL_DEVICE_TYPE_CPU;
  assert_string_equal(dg_device_family(&cpu), "cpu");
  snprintf(cpu.vendor, sizeof cpu.vendor, "Some Vendor");
  cpu.type = CL_DEVICE_TYPE_GPU;
  assert_string_equal(dg_device_family(&cpu), "gpu");
}

static void test_oclgrind_lists_its_own_platform(void **state) {
  (void)state;
  if (!og_available()) skip();
  char cmd[256];
  snprintf(cmd, sizeof cmd, "oclgrind %s/dgtd devices --json", bin());
  assert_int_equal(capture(cmd), 0);
  cJSON *arr = cJSON_Parse(out);
  assert_non_null(arr);
  const cJSON *o = cJSON_GetArrayItem(arr, 0);
  const cJSON *pn = cJSON_GetObjectItemCaseSensitive(o, "platform");
  const cJSON *pv = cJSON_GetObjectItemCaseSensitive(o, "platform_version");
  assert_true(cJSON_IsString(pn) && cJSON_IsString(pv));
  assert_string_equal(pn->valuestring, "Oclgrind");
  assert_non_null(strstr(pv->valuestring, "Oclgrind"));
  cJSON_Delete(arr);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_family_by_vendor_and_type),
      cmocka_unit_test(test_table_and_json_name_the_platform),
      cmocka_unit_test(test_oclgrind_lists_its_own_platform),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* dgtd devices: list every OpenCL platform and device (a table, or JSON with --json). */
#include <stdio.h>
#include <string.h>

#include <cJSON.h>

#include "app/commands.h"
#include "core/alloc.h"
#include "device/device.h"

/* The device list as a JSON array, printed on stdout. */
static int print_json(void) {
  dg_device_info *list = NULL;
  int n = 0;
  dg_status st = dg_device_list(&list, &n);
  if (st != DG_OK) {
    dg_error_print(stderr);
    return dg_status_exit_code(st);
  }
  cJSON *arr = cJSON_CreateArray();
  int ok = arr != NULL;
  for (int i = 0; ok && i < n; ++i) {
    const dg_device_info *d = &list[i];
    char index[24], type[64];
    snprintf(index, sizeof index, "%d:%d", d->P, d->D);
    dg_device_type_name(d->type, type, sizeof type);
    cJSON *o = cJSON_CreateObject();
    ok = o && cJSON_AddItemToArray(arr, o) && cJSON_AddStringToObject(o, "index", index) &&
         cJSON_AddStringToObject(o, "platform", d->platform_name) &&
         cJSON_AddStringToObject(o, "platform_version", d->platform_version) &&
         cJSON_AddStringToObject(o, "name", d->name) &&
         cJSON_AddStringToObject(o, "vendor", d->vendor) &&
         cJSON_AddStringToObject(o, "type", type) &&
         cJSON_AddStringToObject(o, "family", dg_device_family(d)) &&
         cJSON_AddNumberToObject(o, "compute_units", d->compute_units) &&
         cJSON_AddNumberToObject(o, "local_mem_bytes", (double)d->local_mem_size) &&
         cJSON_AddNumberToObject(o, "max_work_group_size", (double)d->max_work_group_size) &&
         cJSON_AddBoolToObject(o, "fp64", d->has_fp64) &&
         cJSON_AddStringToObject(o, "driver_version", d->driver_version) &&
         cJSON_AddStringToObject(o, "device_version", d->device_version);
  }
  char *text = ok ? cJSON_Print(arr) : NULL;
  cJSON_Delete(arr);
  dg_free(&list);
  if (!text) {
    fprintf(stderr, "dgtd devices: out of memory building the JSON list\n");
    return 1;
  }
  printf("%s\n", text);
  cJSON_free(text);
  return 0;
}

int dg_cmd_devices(int argc, char **argv) {
  int json = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf("usage: dgtd devices [--json]\n\nLists every OpenCL platform and device: index P:D "
             "(what\n--device and DGTD_DEVICE accept, as does a case-insensitive name substring),\n"
             "name, vendor, type, compiler family (nvidia, amd, intel, gpu, cpu: which vendor's\n"
             "GPU compiler builds for it, docs/PORTABILITY.md), compute units, local memory,\n"
             "fp64 support, platform name and\n"
             "version (which tell two implementations of one device apart), driver version.\n"
             "--json prints the same as a JSON array (plus work-group and device version).\n");
      return 0;
    }
    if (!strcmp(argv[i], "--json")) {
      json = 1;
      continue;
    }
    fprintf(stderr, "dgtd devices: unknown argument '%s' (see dgtd devices --help)\n", argv[i]);
    return 2;
  }
  if (json) return print_json();
  dg_status st = dg_device_print_list(stdout);
  if (st != DG_OK) {
    dg_error_print(stderr);
    return dg_status_exit_code(st);
  }
  return 0;
}

/* dgtd devices: list every OpenCL platform and device. */
#include <stdio.h>
#include <string.h>

#include "app/commands.h"
#include "device/device.h"

int dg_cmd_devices(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf("usage: dgtd devices\n\nLists every OpenCL platform and device: index P:D (what\n"
             "--device and DGTD_DEVICE accept, as does a case-insensitive name substring),\n"
             "name, vendor, type, compute units, local memory, fp64 support, driver version.\n");
      return 0;
    }
    fprintf(stderr, "dgtd devices: unknown argument '%s' (see dgtd devices --help)\n", argv[i]);
    return 2;
  }
  dg_status st = dg_device_print_list(stdout);
  if (st != DG_OK) {
    dg_error_print(stderr);
    return dg_status_exit_code(st);
  }
  return 0;
}

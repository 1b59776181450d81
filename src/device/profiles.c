#include "device/profiles.h"

#include <string.h>

#define GIB (1024.0 * 1024.0 * 1024.0)

static dg_device_profile make(const char *name, const char *target, const char *family,
                              const char *device, const char *vendor, unsigned cu,
                              size_t max_wg, unsigned long local_kib, double global_gib,
                              int fp64) {
  dg_device_profile p;
  memset(&p, 0, sizeof p);
  p.name = name;
  p.target = target;
  p.family = family;
  dg_device_info *d = &p.info;
  d->P = d->D = -1; /* no platform: a description, never opened */
  strncpy(d->name, device, sizeof d->name - 1);
  strncpy(d->vendor, vendor, sizeof d->vendor - 1);
  strncpy(d->platform_name, "offline profile", sizeof d->platform_name - 1);
  d->type = CL_DEVICE_TYPE_GPU;
  d->compute_units = cu;
  d->max_work_group_size = max_wg;
  d->max_work_item_size[0] = max_wg;
  d->max_work_item_size[1] = max_wg;
  d->max_work_item_size[2] = 64;
  d->local_mem_size = (cl_ulong)local_kib * 1024;
  d->local_mem_dedicated = 1;
  d->global_mem_size = (cl_ulong)(global_gib * GIB);
  d->max_alloc_size = d->global_mem_size / 4;
  d->max_constant_buffer_size = 64 * 1024;
  d->vector_width_float = 1;
  d->vector_width_double = 1;
  d->has_fp64 = fp64;
  return p;
}

static dg_device_profile table[4];
static int count;

static void init(void) {
  if (count) return;
  /* NVIDIA H100 SXM (Hopper): 132 SMs, 48 KiB of local memory per work-group as its OpenCL
   * reports it, 1024-wide work-groups. */
  table[count++] = make("nvidia-sm90", "sm_90", "nvidia", "NVIDIA H100 80GB HBM3",
                        "NVIDIA Corporation", 132, 1024, 48, 79.2, 1);
  /* AMD Instinct MI250X, one GCD (CDNA2): 110 CUs, 64 KiB LDS, 256-wide work-groups. */
  table[count++] = make("amd-gfx90a", "gfx90a", "amd", "AMD Instinct MI250X (gfx90a)",
                        "Advanced Micro Devices, Inc.", 110, 256, 64, 64, 1);
  /* Intel Data Center GPU Max 1100 (Ponte Vecchio): 448 EUs, 128 KiB SLM, 1024-wide. */
  table[count++] = make("intel-pvc", "pvc", "intel", "Intel Data Center GPU Max 1100",
                        "Intel(R) Corporation", 448, 1024, 128, 48, 1);
  /* Intel Arc A770 (DG2, Alchemist): 512 EUs, 64 KiB SLM, no fp64. */
  table[count++] = make("intel-dg2", "dg2-g10", "intel", "Intel Arc A770 Graphics",
                        "Intel(R) Corporation", 512, 1024, 64, 16, 0);
}

const dg_device_profile *dg_device_profiles(int *n) {
  init();
  *n = count;
  return table;
}

const dg_device_profile *dg_device_profile_find(const char *name) {
  int n;
  const dg_device_profile *p = dg_device_profiles(&n);
  for (int i = 0; i < n; ++i)
    if (!strcmp(p[i].name, name)) return &p[i];
  return NULL;
}

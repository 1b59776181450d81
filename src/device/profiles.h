/* GPUs dgtd compiles for without the hardware (dgtd kernels, scripts/gpu-isa.sh): each a name,
 * the vendor compiler family that builds for it, and the device description the variant
 * defaults and the tuner's first stage read (dg_variant_default, dg_tune_stage1_variants), with
 * the values these devices' OpenCL drivers report (vendors' documentation and, for the H100,
 * bench/results/nvidia-h100/2026-11-26/clinfo.txt), not measured here. */
#ifndef DG_DEVICE_PROFILES_H
#define DG_DEVICE_PROFILES_H

#include "device/device.h"

typedef struct {
  const char *name;   /* e.g. "nvidia-sm90" */
  const char *target; /* what the vendor compiler is given: "sm_90", "gfx90a", "pvc" */
  const char *family; /* "nvidia", "amd" or "intel": which compiler builds for it */
  dg_device_info info;
} dg_device_profile;

/* The profiles, in a fixed order; *n their number. */
const dg_device_profile *dg_device_profiles(int *n);
/* The profile called name, or NULL. */
const dg_device_profile *dg_device_profile_find(const char *name);

#endif

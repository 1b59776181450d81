#include "device/device.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/log.h"

/* Returned by the ICD loader when it finds no vendor driver (cl_khr_icd; defined in
 * cl_ext.h, which we do not otherwise need). */
enum { DG_CL_PLATFORM_NOT_FOUND_KHR = -1001 };

static const char *const no_devices_msg =
  "no OpenCL devices found: the OpenCL ICD loader found no platform with a device "
  "(install a driver, e.g. the Debian package pocl-opencl-icd for the CPU, and check "
  "/etc/OpenCL/vendors or $OCL_ICD_VENDORS)";

/* Copy src into dst (capacity cap) without leading/trailing blanks; drivers pad some names. */
static void copy_trimmed(char *dst, size_t cap, const char *src) {
  while (isspace((unsigned char)*src)) ++src;
  size_t n = strlen(src);
  while (n > 0 && isspace((unsigned char)src[n - 1])) --n;
  if (n >= cap) n = cap - 1;
  memcpy(dst, src, n);
  dst[n] = '\0';
}

/* Query a string of any length into a malloc'd buffer (*out; free with free()). */
static dg_status platform_string_alloc(cl_platform_id p, cl_platform_info what, char **out) {
  size_t size = 0;
  *out = NULL;
  DG_CL(clGetPlatformInfo(p, what, 0, NULL, &size));
  DG_CALL(DG_ALLOC(*out, size + 1));
  DG_CL(clGetPlatformInfo(p, what, size, *out, NULL));
  return DG_OK;
}

static dg_status device_string_alloc(cl_device_id d, cl_device_info what, char **out) {
  size_t size = 0;
  *out = NULL;
  DG_CL(clGetDeviceInfo(d, what, 0, NULL, &size));
  DG_CALL(DG_ALLOC(*out, size + 1));
  DG_CL(clGetDeviceInfo(d, what, size, *out, NULL));
  return DG_OK;
}

static dg_status platform_string(cl_platform_id p, cl_platform_info what, char *buf,
                                 size_t cap) {
  char *s = NULL;
  dg_status st = platform_string_alloc(p, what, &s);
  if (st == DG_OK) copy_trimmed(buf, cap, s);
  free(s);
  return st;
}

static dg_status device_string(cl_device_id d, cl_device_info what, char *buf, size_t cap) {
  char *s = NULL;
  dg_status st = device_string_alloc(d, what, &s);
  if (st == DG_OK) copy_trimmed(buf, cap, s);
  free(s);
  return st;
}

/* Whether the space-separated extension list contains ext as a whole word. */
static int has_extension(const char *list, const char *ext) {
  size_t n = strlen(ext);
  for (const char *p = list; (p = strstr(p, ext)) != NULL; p += n) {
    int starts = (p == list || isspace((unsigned char)p[-1]));
    int ends = (p[n] == '\0' || isspace((unsigned char)p[n]));
    if (starts && ends) return 1;
  }
  return 0;
}

static dg_status device_info_fill(dg_device_info *info, int P, int D, cl_platform_id p,
                                  cl_device_id d) {
  memset(info, 0, sizeof *info);
  info->P = P;
  info->D = D;
  info->platform = p;
  info->device = d;
  DG_CALL(platform_string(p, CL_PLATFORM_NAME, info->platform_name, DG_DEVICE_STR));
  DG_CALL(platform_string(p, CL_PLATFORM_VERSION, info->platform_version, DG_DEVICE_STR));
  DG_CALL(device_string(d, CL_DEVICE_NAME, info->name, DG_DEVICE_STR));
  DG_CALL(device_string(d, CL_DEVICE_VENDOR, info->vendor, DG_DEVICE_STR));
  DG_CALL(device_string(d, CL_DRIVER_VERSION, info->driver_version, DG_DEVICE_STR));
  DG_CALL(device_string(d, CL_DEVICE_VERSION, info->device_version, DG_DEVICE_STR));

  cl_device_local_mem_type local_type = 0;
  DG_CL(clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof info->type, &info->type, NULL));
  DG_CL(clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof info->compute_units,
                        &info->compute_units, NULL));
  DG_CL(clGetDeviceInfo(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof info->clock_mhz,
                        &info->clock_mhz, NULL));
  DG_CL(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof info->max_work_group_size,
                        &info->max_work_group_size, NULL));
  /* CL_DEVICE_MAX_WORK_ITEM_SIZES has CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS (>= 3) entries. */
  cl_uint dims = 0;
  DG_CL(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof dims, &dims, NULL));
  size_t item_sizes[16] = {0};
  DG_CL(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                        (dims < 16 ? dims : 16) * sizeof item_sizes[0], item_sizes, NULL));
  memcpy(info->max_work_item_size, item_sizes, sizeof info->max_work_item_size);
  DG_CL(clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof info->local_mem_size,
                        &info->local_mem_size, NULL));
  DG_CL(clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_TYPE, sizeof local_type, &local_type, NULL));
  info->local_mem_dedicated = (local_type == CL_LOCAL);
  DG_CL(clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof info->global_mem_size,
                        &info->global_mem_size, NULL));
  DG_CL(clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof info->global_mem_cache_size,
                        &info->global_mem_cache_size, NULL));
  DG_CL(clGetDeviceInfo(d, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE,
                        sizeof info->max_constant_buffer_size, &info->max_constant_buffer_size,
                        NULL));
  DG_CL(clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof info->max_alloc_size,
                        &info->max_alloc_size, NULL));
  DG_CL(clGetDeviceInfo(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
                        sizeof info->vector_width_float, &info->vector_width_float, NULL));
  DG_CL(clGetDeviceInfo(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE,
                        sizeof info->vector_width_double, &info->vector_width_double, NULL));

  /* fp64: the extension is the 1.x way of saying it; CL_DEVICE_DOUBLE_FP_CONFIG the 1.2+
   * way. Some 1.1 drivers reject the latter query, so its failure just means "no". */
  char *ext = NULL;
  DG_CALL(device_string_alloc(d, CL_DEVICE_EXTENSIONS, &ext));
  info->has_fp64 = has_extension(ext, "cl_khr_fp64");
  free(ext);
  cl_device_fp_config fp64 = 0;
  if (clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL) == CL_SUCCESS &&
      fp64 != 0)
    info->has_fp64 = 1;
  return DG_OK;
}

dg_status dg_device_list(dg_device_info **list, int *count) {
  dg_status st = DG_OK;
  cl_platform_id *platforms = NULL;
  cl_device_id *ids = NULL;
  dg_device_info *out = NULL;
  cl_uint np = 0;
  *list = NULL;
  *count = 0;

  cl_int err = clGetPlatformIDs(0, NULL, &np);
  if (err == DG_CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && np == 0)) return DG_OK;
  DG_CL_ERR(err, "clGetPlatformIDs");
  DG_CALL(DG_ALLOC(platforms, np));
  DG_CL_GOTO(done, clGetPlatformIDs(np, platforms, NULL));

  /* Two passes: count, then fill, so the list is one array the caller frees at once. */
  int total = 0;
  for (int pass = 0; pass < 2; ++pass) {
    int k = 0;
    for (cl_uint p = 0; p < np; ++p) {
      cl_uint nd = 0;
      err = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
      if (err == CL_DEVICE_NOT_FOUND) continue; /* a platform without devices is no error */
      DG_CL_ERR_GOTO(done, err, "clGetDeviceIDs");
      if (nd == 0) continue;
      if (pass == 0) {
        total += (int)nd;
        continue;
      }
      DG_CALL_GOTO(done, DG_ALLOC(ids, nd));
      DG_CL_GOTO(done, clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, nd, ids, NULL));
      for (cl_uint d = 0; d < nd && k < total; ++d, ++k)
        DG_CALL_GOTO(done, device_info_fill(&out[k], (int)p, (int)d, platforms[p], ids[d]));
      dg_free(&ids);
    }
    if (pass == 0) {
      if (total == 0) goto done;
      DG_CALL_GOTO(done, DG_ALLOC(out, total));
    } else {
      total = k; /* in case a platform reported fewer devices the second time */
    }
  }
  *list = out;
  *count = total;
  out = NULL;
done:
  dg_free(&ids);
  dg_free(&platforms);
  dg_free(&out);
  return st;
}

const char *dg_device_type_name(cl_device_type type, char *buf, size_t cap) {
  static const struct {
    cl_device_type bit;
    const char *name;
  } names[] = {{CL_DEVICE_TYPE_GPU, "GPU"},
               {CL_DEVICE_TYPE_CPU, "CPU"},
               {CL_DEVICE_TYPE_ACCELERATOR, "ACCELERATOR"},
               {CL_DEVICE_TYPE_CUSTOM, "CUSTOM"},
               {CL_DEVICE_TYPE_DEFAULT, "DEFAULT"}};
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
    if (!(type & names[i].bit) || used + 1 >= cap) continue;
    int w = snprintf(buf + used, cap - used, "%s%s", used ? "|" : "", names[i].name);
    if (w > 0) used += (size_t)w < cap - used ? (size_t)w : cap - used - 1;
  }
  if (!buf[0]) snprintf(buf, cap, "?");
  return buf;
}

/* "64 KiB", "3.9 GiB": binary units, one decimal above KiB. */
static void format_bytes(cl_ulong bytes, char *buf, size_t cap) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = (double)bytes;
  int u = 0;
  while (v >= 1024.0 && u < 4) {
    v /= 1024.0;
    ++u;
  }
  if (u <= 1 || v == (double)(cl_ulong)v)
    snprintf(buf, cap, "%.0f %s", v, units[u]);
  else
    snprintf(buf, cap, "%.1f %s", v, units[u]);
}

const char *dg_device_family(const dg_device_info *info) {
  if (!(info->type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)))
    return info->type & CL_DEVICE_TYPE_CPU ? "cpu" : "other";
  if (strstr(info->vendor, "NVIDIA")) return "nvidia";
  if (strstr(info->vendor, "Advanced Micro Devices") || strstr(info->vendor, "AMD")) return "amd";
  if (strstr(info->vendor, "Intel")) return "intel";
  return "gpu";
}

dg_status dg_device_print_list(FILE *f) {
  dg_device_info *list = NULL;
  int n = 0;
  DG_CALL(dg_device_list(&list, &n));
  if (n == 0) {
    fprintf(f, "%s\n", no_devices_msg);
    return DG_OK;
  }
  /* Name, vendor and platform columns as wide as their longest entry, so the table lines
   * up; the platform (name and version) tells two implementations of one device apart. */
  int wname = 4, wvendor = 6, wplat = 8;
  for (int i = 0; i < n; ++i) {
    int a = (int)strlen(list[i].name), b = (int)strlen(list[i].vendor);
    int c = (int)(strlen(list[i].platform_name) + 1 + strlen(list[i].platform_version));
    if (a > wname) wname = a;
    if (b > wvendor) wvendor = b;
    if (c > wplat) wplat = c;
  }
  fprintf(f, "%-5s  %-*s  %-*s  %-11s  %-6s  %3s  %9s  %4s  %-*s  %s\n", "P:D", wname, "name",
          wvendor, "vendor", "type", "family", "CUs", "local mem", "fp64", wplat, "platform",
          "driver");
  for (int i = 0; i < n; ++i) {
    const dg_device_info *d = &list[i];
    char index[24], type[64], local[32], plat[2 * DG_DEVICE_STR + 2];
    snprintf(index, sizeof index, "%d:%d", d->P, d->D);
    snprintf(plat, sizeof plat, "%s %s", d->platform_name, d->platform_version);
    dg_device_type_name(d->type, type, sizeof type);
    format_bytes(d->local_mem_size, local, sizeof local);
    fprintf(f, "%-5s  %-*s  %-*s  %-11s  %-6s  %3u  %9s  %4s  %-*s  %s\n", index, wname,
            d->name, wvendor, d->vendor, type, dg_device_family(d), (unsigned)d->compute_units,
            local, d->has_fp64 ? "yes" : "no", wplat, plat, d->driver_version);
  }
  dg_free(&list);
  return DG_OK;
}

/* Case-insensitive strstr. */
static int contains_nocase(const char *hay, const char *needle) {
  size_t n = strlen(needle);
  for (; *hay; ++hay) {
    size_t i = 0;
    while (i < n && hay[i] &&
           tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
      ++i;
    if (i == n) return 1;
  }
  return n == 0;
}

static int equals_nocase(const char *a, const char *b) {
  for (; *a && *b; ++a, ++b)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
  return *a == *b;
}

/* "P:D" with optional blanks; 1 and the two indices if spec has that form. */
static int parse_index(const char *spec, long *P, long *D) {
  char *end;
  errno = 0;
  *P = strtol(spec, &end, 10);
  if (end == spec || errno) return 0;
  while (isspace((unsigned char)*end)) ++end;
  if (*end != ':') return 0;
  const char *s = end + 1;
  *D = strtol(s, &end, 10);
  if (end == s || errno) return 0;
  while (isspace((unsigned char)*end)) ++end;
  return *end == '\0';
}

/* One line per device, for error messages. */
static void describe_devices(const dg_device_info *list, int n, char *buf, size_t cap) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && used + 1 < cap; ++i) {
    char type[64];
    int w = snprintf(buf + used, cap - used, "\n  %d:%d  %s (%s, %s)", list[i].P, list[i].D,
                     list[i].name, dg_device_type_name(list[i].type, type, sizeof type),
                     list[i].platform_name);
    if (w < 0) break;
    used += (size_t)w;
  }
}

const char *dg_device_env(void) {
  const char *env = getenv("DGTD_DEVICE");
  return env && *env ? env : NULL;
}

dg_status dg_device_select(const dg_device_info *list, int n, const char *spec, int *index) {
  const char *origin = "";
  *index = -1;
  if (!spec || !*spec) {
    const char *env = dg_device_env();
    if (env) {
      spec = env;
      origin = " (from DGTD_DEVICE)";
    }
  }
  DG_CHECK(n > 0, DG_ERR_OPENCL, "%s", no_devices_msg);

  char trimmed[DG_DEVICE_STR];
  copy_trimmed(trimmed, sizeof trimmed, spec ? spec : "");
  if (!trimmed[0]) {
    *index = 0;
    for (int i = 0; i < n; ++i)
      if (list[i].type & CL_DEVICE_TYPE_GPU) {
        *index = i;
        break;
      }
    return DG_OK;
  }

  long P, D;
  int by_index = parse_index(trimmed, &P, &D);
  int first = -1, matches = 0;
  for (int i = 0; i < n; ++i) {
    if (by_index ? (list[i].P == P && list[i].D == D) : contains_nocase(list[i].name, trimmed)) {
      if (first < 0) first = i;
      ++matches;
    }
    if (!by_index && equals_nocase(list[i].name, trimmed)) { /* an exact name settles it */
      first = i;
      matches = 1;
      break;
    }
  }
  if (first < 0) {
    char devices[1536];
    describe_devices(list, n, devices, sizeof devices);
    return DG_ERROR(DG_ERR_INPUT,
                    "%s \"%s\"%s; give P:D or part of a device name. Available devices:%s",
                    by_index ? "no OpenCL device" : "no OpenCL device name contains",
                    trimmed, origin, devices);
  }
  if (matches > 1)
    dg_warn("device \"%s\"%s matches %d devices; using the first, %d:%d %s (give P:D to "
            "choose another)",
            trimmed, origin, matches, list[first].P, list[first].D, list[first].name);
  *index = first;
  return DG_OK;
}

dg_status dg_device_create(dg_device **out, const char *spec) {
  dg_status st = DG_OK;
  dg_device_info *list = NULL;
  dg_device *dev = NULL;
  int n = 0, idx = -1;
  cl_int err;
  *out = NULL;
  DG_CALL(dg_device_list(&list, &n));
  DG_CALL_GOTO(fail, dg_device_select(list, n, spec, &idx));
  DG_CALL_GOTO(fail, DG_ALLOC(dev, 1));
  dev->info = list[idx];

  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   (cl_context_properties)dev->info.platform, 0};
  dev->context = clCreateContext(props, 1, &dev->info.device, NULL, NULL, &err);
  DG_CL_ERR_GOTO(fail, err, "clCreateContext");
  /* In-order, so kernels of one step run in sequence without events; profiling, so every
   * launch can be timed by the tuner. */
  dev->queue = clCreateCommandQueue(dev->context, dev->info.device, CL_QUEUE_PROFILING_ENABLE,
                                    &err);
  DG_CL_ERR_GOTO(fail, err, "clCreateCommandQueue");
  dg_free(&list);
  *out = dev;
  return DG_OK;
fail:
  dg_free(&list);
  dg_device_destroy(&dev);
  return st;
}

void dg_device_destroy(dg_device **dev) {
  if (!dev || !*dev) return;
  dg_device *d = *dev;
  if (d->queue) {
    clFinish(d->queue); /* let queued work end before its buffers go away */
    clReleaseCommandQueue(d->queue);
  }
  if (d->context) clReleaseContext(d->context);
  dg_free(dev);
}

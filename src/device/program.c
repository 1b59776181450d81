#include "device/program.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/files.h"

enum {
  DG_PATH_MAX = 4096,
  DG_LOG_SHOWN = 1000 /* bytes of build log quoted in an error message (it is 2 KiB) */
};

/* label -> file name stem: anything but [A-Za-z0-9._-] becomes '_'. */
static void file_stem(const char *label, char *stem, size_t cap) {
  if (!label || !*label) label = "program";
  size_t n = 0;
  for (; label[n] && n + 1 < cap; ++n) {
    char c = label[n];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             c == '.' || c == '_' || c == '-';
    stem[n] = ok ? c : '_';
  }
  stem[n] = '\0';
}

/* Write text to path; 0 or an errno value. */
static int write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return errno ? errno : EIO;
  size_t n = strlen(text);
  int bad = fwrite(text, 1, n, f) != n;
  if (fclose(f) != 0) bad = 1;
  return bad ? (errno ? errno : EIO) : 0;
}

/* Write dir/stem.ext; 0 or an errno value. */
static int write_beside(const char *dir, const char *stem, const char *ext, const char *text,
                        char *path, size_t cap) {
  int w = snprintf(path, cap, "%s/%s.%s", dir, stem, ext);
  if (w < 0 || (size_t)w >= cap) return ENAMETOOLONG;
  return write_text(path, text);
}

/* The source and options, which are enough to rebuild the program by hand. */
static dg_status dump_source(const char *dir, const char *stem, const char *source,
                             const char *options) {
  char path[DG_PATH_MAX], opts[DG_PATH_MAX];
  int e = write_beside(dir, stem, "cl", source, path, sizeof path);
  DG_CHECK(e == 0, DG_ERR_IO, "cannot write kernel source %s: %s", path, strerror(e));
  snprintf(opts, sizeof opts, "%s\n", options);
  e = write_beside(dir, stem, "options", opts, path, sizeof path);
  DG_CHECK(e == 0, DG_ERR_IO, "cannot write build options %s: %s", path, strerror(e));
  return DG_OK;
}

/* The build log as a malloc'd string without trailing blanks; NULL if the driver has none. */
static char *build_log(cl_program program, cl_device_id device) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) !=
      CL_SUCCESS)
    return NULL;
  char *log = malloc(size + 1);
  if (!log) return NULL;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL) !=
      CL_SUCCESS) {
    free(log);
    return NULL;
  }
  log[size] = '\0';
  size_t n = strlen(log);
  while (n > 0 && (log[n - 1] == '\n' || log[n - 1] == ' ' || log[n - 1] == '\r')) --n;
  log[n] = '\0';
  return log;
}

/* After a failed build: where the source went (dump_dir, else a new temp directory), written
 * into `where` as a phrase for the error message. Never raises: the build error matters more. */
static void dump_failed(const char *dump_dir, const char *stem, const char *source,
                        const char *options, const char *log, char *where, size_t cap) {
  char dir[DG_PATH_MAX], path[DG_PATH_MAX];
  if (dump_dir) {
    snprintf(where, cap, "source written to %s/%s.cl (options and full log beside it)",
             dump_dir, stem);
    return;
  }
  const char *tmp = getenv("TMPDIR");
  if (!tmp || !*tmp) tmp = "/tmp";
  snprintf(dir, sizeof dir, "%s/dgtd-build-XXXXXX", tmp);
  if (!mkdtemp(dir)) {
    snprintf(where, cap, "source not saved: cannot create a directory in %s: %s", tmp,
             strerror(errno));
    return;
  }
  int e = write_beside(dir, stem, "cl", source, path, sizeof path);
  if (e) {
    snprintf(where, cap, "source not saved: cannot write %s: %s", path, strerror(e));
    return;
  }
  char opts[DG_PATH_MAX];
  snprintf(opts, sizeof opts, "%s\n", options);
  write_beside(dir, stem, "options", opts, path, sizeof path);
  if (log && *log) write_beside(dir, stem, "log", log, path, sizeof path);
  snprintf(where, cap, "source written to %s/%s.cl (options and full log beside it)", dir,
           stem);
}

const char *dg_device_build_options(const dg_device_info *info) {
  if (info && strstr(info->vendor, "Intel") && strstr(info->name, "Data Center GPU Max"))
    return "-cl-intel-256-GRF-per-thread";
  return "";
}

const char *dg_program_options(const dg_device_info *info, const char *options, char *buf,
                               size_t cap) {
  const char *parts[3] = {options ? options : "", dg_device_build_options(info),
                          getenv("DGTD_CL_OPTIONS") ? getenv("DGTD_CL_OPTIONS") : ""};
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < 3; ++i) {
    if (!parts[i][0]) continue;
    const int n = snprintf(buf + used, cap - used, "%s%s", used ? " " : "", parts[i]);
    if (n < 0 || (size_t)n >= cap - used) break;
    used += (size_t)n;
  }
  return buf;
}

/* What the implementation says of each kernel of a built program, one line per kernel:
 * what one reads to see register pressure or local-memory limits on a device. */
static void dump_kernel_info(const char *dir, const char *stem, cl_program p, cl_device_id d) {
  cl_uint n = 0;
  if (clCreateKernelsInProgram(p, 0, NULL, &n) != CL_SUCCESS || n == 0) return;
  cl_kernel *k = calloc(n, sizeof *k);
  char *text = malloc((size_t)n * 256 + 128);
  if (!k || !text || clCreateKernelsInProgram(p, n, k, NULL) != CL_SUCCESS) n = 0;
  size_t used = 0;
  if (text)
    used = (size_t)snprintf(text, 128, "# kernel work_group_size preferred_multiple "
                                       "local_mem_bytes private_mem_bytes\n");
  for (cl_uint i = 0; i < n; ++i) {
    char name[128] = "?";
    size_t wg = 0, mult = 0;
    cl_ulong lmem = 0, pmem = 0;
    /* Each query is best effort: a value the implementation will not give stays 0. */
    (void)clGetKernelInfo(k[i], CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
    name[sizeof name - 1] = '\0';
    (void)clGetKernelWorkGroupInfo(k[i], d, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    (void)clGetKernelWorkGroupInfo(k[i], d, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                   sizeof mult, &mult, NULL);
    (void)clGetKernelWorkGroupInfo(k[i], d, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL);
    (void)clGetKernelWorkGroupInfo(k[i], d, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pmem, &pmem,
                                   NULL);
    used += (size_t)snprintf(text + used, 256, "%.120s %zu %zu %llu %llu\n", name, wg, mult,
                             (unsigned long long)lmem, (unsigned long long)pmem);
  }
  for (cl_uint i = 0; k && i < n; ++i) clReleaseKernel(k[i]);
  char path[DG_PATH_MAX];
  if (text) (void)write_beside(dir, stem, "kernels", text, path, sizeof path);
  free(text);
  free(k);
}

dg_status dg_program_build(dg_device *dev, const char *source, const char *options,
                           const char *label, const char *dump_dir, cl_program *out) {
  dg_status st = DG_OK;
  cl_program program = NULL;
  char *log = NULL;
  char stem[128];
  cl_int err;
  *out = NULL;
  DG_CHECK(dev && source, DG_ERR_INTERNAL, "dg_program_build: no device or no source");
  char merged[1024];
  options = dg_program_options(&dev->info, options, merged, sizeof merged);
  file_stem(label, stem, sizeof stem);
  if (dump_dir) {
    DG_CALL(dg_mkdir_p(dump_dir));
    DG_CALL(dump_source(dump_dir, stem, source, options));
  }

  program = clCreateProgramWithSource(dev->context, 1, &source, NULL, &err);
  DG_CL_ERR(err, "clCreateProgramWithSource");
  cl_int built = clBuildProgram(program, 1, &dev->info.device, options, NULL, NULL);
  log = build_log(program, dev->info.device);
  if (dump_dir && log && *log) {
    char path[DG_PATH_MAX];
    int e = write_beside(dump_dir, stem, "log", log, path, sizeof path);
    DG_CHECK_GOTO(fail, e == 0, DG_ERR_IO, "cannot write build log %s: %s", path,
                  strerror(e));
  }
  if (built != CL_SUCCESS) {
    char where[2 * DG_PATH_MAX];
    dump_failed(dump_dir, stem, source, options, log, where, sizeof where);
    /* The first errors are the useful ones; cut at a line end so the quote stays readable. */
    const char *shown = (log && *log) ? log : "(empty)";
    size_t len = strlen(shown), keep = len;
    if (keep > DG_LOG_SHOWN) {
      keep = DG_LOG_SHOWN;
      while (keep > DG_LOG_SHOWN / 2 && shown[keep - 1] != '\n') --keep;
      if (shown[keep - 1] == '\n') --keep;
    }
    char more[64] = "";
    if (keep < len) snprintf(more, sizeof more, "\n[... %zu more bytes of log]", len - keep);
    st = dg_cl_raisef(built, "clBuildProgram", __FILE__, __LINE__, __func__,
                      "for program '%.120s' (options \"%.160s\"); %s\nbuild log:\n%.*s%s",
                      label ? label : stem, options, where, (int)keep, shown, more);
    goto fail;
  }
  if (dump_dir) dump_kernel_info(dump_dir, stem, program, dev->info.device);
  free(log);
  *out = program;
  return DG_OK;
fail:
  free(log);
  dg_program_release(&program);
  return st;
}

/* The kernel's function name for messages; "?" if the driver will not say. */
static void kernel_name(cl_kernel kernel, char *buf, size_t cap) {
  if (clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, cap, buf, NULL) != CL_SUCCESS)
    snprintf(buf, cap, "?");
  buf[cap - 1] = '\0';
}

dg_status dg_kernel_create(cl_program program, const char *name, cl_kernel *out) {
  cl_int err;
  *out = clCreateKernel(program, name, &err);
  if (err != CL_SUCCESS) {
    *out = NULL;
    return dg_cl_raisef(err, "clCreateKernel", __FILE__, __LINE__, __func__,
                        "for kernel '%s'", name);
  }
  return DG_OK;
}

dg_status dg_kernel_set_arg(cl_kernel kernel, cl_uint index, size_t size, const void *value) {
  cl_int err = clSetKernelArg(kernel, index, size, value);
  if (err != CL_SUCCESS) {
    char name[128];
    kernel_name(kernel, name, sizeof name);
    return dg_cl_raisef(err, "clSetKernelArg", __FILE__, __LINE__, __func__,
                        "for kernel '%s' argument %u (%zu bytes)", name, (unsigned)index, size);
  }
  return DG_OK;
}

/* "1024x8" */
static void format_size(cl_uint dims, const size_t *s, char *buf, size_t cap) {
  if (!s) {
    snprintf(buf, cap, "auto");
    return;
  }
  size_t used = 0;
  buf[0] = '\0';
  for (cl_uint i = 0; i < dims && i < 3 && used + 1 < cap; ++i) {
    int w = snprintf(buf + used, cap - used, "%s%zu", i ? "x" : "", s[i]);
    if (w < 0) break;
    used += (size_t)w;
  }
}

/* Raise err for kernel with its name and launch sizes; they are what goes wrong. */
static dg_status launch_error(cl_int err, const char *call, cl_kernel kernel, cl_uint dims,
                              const size_t *global, const size_t *local, const char *file,
                              int line, const char *func) {
  char name[128], g[80], l[80];
  kernel_name(kernel, name, sizeof name);
  format_size(dims, global, g, sizeof g);
  format_size(dims, local, l, sizeof l);
  return dg_cl_raisef(err, call, file, line, func, "for kernel '%s' (global %s, local %s)", name,
                      g, l);
}

dg_status dg_kernel_run(dg_device *dev, cl_kernel kernel, cl_uint dims, const size_t *global,
                        const size_t *local, cl_ulong *ns) {
  return dg_kernel_run_at(dev, kernel, dims, NULL, global, local, ns);
}

/* Add t seconds of kernel k to the device's profile. */
static dg_status profile_add(dg_kernel_profile *p, cl_kernel k, double t) {
  char name[64] = "";
  DG_CL(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL));
  int i = 0;
  while (i < p->n && strcmp(p->name[i], name)) ++i;
  if (i == p->n && p->n == DG_KERNEL_PROFILE_MAX) {
    p->other_seconds += t;
    ++p->other_launches;
    return DG_OK;
  }
  if (i == p->n) snprintf(p->name[p->n++], sizeof p->name[0], "%s", name);
  p->seconds[i] += t;
  ++p->launches[i];
  return DG_OK;
}

dg_status dg_kernel_run_at(dg_device *dev, cl_kernel kernel, cl_uint dims, const size_t *offset,
                           const size_t *global, const size_t *local, cl_ulong *ns) {
  dg_status st = DG_OK;
  cl_event event = NULL;
  cl_ulong own = 0;
  if (!ns && dev->profile) ns = &own; /* timed like a caller's, then added to the profile */
  cl_int err = clEnqueueNDRangeKernel(dev->queue, kernel, dims, offset, global, local, 0, NULL,
                                      ns ? &event : NULL);
  if (err != CL_SUCCESS)
    return launch_error(err, "clEnqueueNDRangeKernel", kernel, dims, global, local, __FILE__,
                        __LINE__, __func__);
  ++dev->launches;
  if (!ns) return DG_OK;
  err = clWaitForEvents(1, &event);
  if (err != CL_SUCCESS) {
    st = launch_error(err, "clWaitForEvents", kernel, dims, global, local, __FILE__, __LINE__,
                      __func__);
    goto done;
  }
  cl_ulong start = 0, end = 0;
  DG_CL_GOTO(done, clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start,
                                           &start, NULL));
  DG_CL_GOTO(done, clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                           NULL));
  *ns = end > start ? end - start : 0;
  if (dev->profile) st = profile_add(dev->profile, kernel, 1e-9 * (double)*ns);
done:
  clReleaseEvent(event);
  return st;
}

dg_status dg_buffer_create(dg_device *dev, cl_mem_flags flags, size_t bytes, const void *host,
                           cl_mem *out) {
  cl_int err;
  if (host) flags |= CL_MEM_COPY_HOST_PTR;
  /* clCreateBuffer takes void * for all flag combinations; with COPY_HOST_PTR it only reads. */
  *out = clCreateBuffer(dev->context, flags, bytes, (void *)host, &err);
  if (err != CL_SUCCESS) {
    *out = NULL;
    return dg_cl_raisef(err, "clCreateBuffer", __FILE__, __LINE__, __func__,
                        "for %zu bytes on %s", bytes, dev->info.name);
  }
  return DG_OK;
}

dg_status dg_buffer_write(dg_device *dev, cl_mem buf, size_t offset, size_t bytes,
                          const void *src) {
  DG_CL(clEnqueueWriteBuffer(dev->queue, buf, CL_TRUE, offset, bytes, src, 0, NULL, NULL));
  return DG_OK;
}

dg_status dg_buffer_read(dg_device *dev, cl_mem buf, size_t offset, size_t bytes, void *dst) {
  DG_CL(clEnqueueReadBuffer(dev->queue, buf, CL_TRUE, offset, bytes, dst, 0, NULL, NULL));
  return DG_OK;
}

void dg_program_release(cl_program *program) {
  if (program && *program) clReleaseProgram(*program);
  if (program) *program = NULL;
}

void dg_kernel_release(cl_kernel *kernel) {
  if (kernel && *kernel) clReleaseKernel(*kernel);
  if (kernel) *kernel = NULL;
}

void dg_buffer_release(cl_mem *buf) {
  if (buf && *buf) clReleaseMemObject(*buf);
  if (buf) *buf = NULL;
}

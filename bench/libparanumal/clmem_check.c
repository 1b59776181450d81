/* An LD_PRELOAD checker of OpenCL memory objects, for libparanumal/OCCA runs (not part of dgtd's
 * build; bench/libparanumal/build.sh compiles it to DEST/clmem_check.so and run.sh preloads it
 * when CLMEM_CHECK=1). It catches, on any OpenCL (PoCL and Oclgrind included), the two faults of
 * OCCA 9866ea5's OpenCL mode that NVIDIA's OpenCL punishes and PoCL forgives
 * (docs/notes/libparanumal-memory-pool.md):
 *   - sub-buffers that are never released: every memory-pool reservation made one with
 *     clCreateSubBuffer and nothing released it, so their number grows with each time step;
 *   - commands that read or write a buffer while it is mapped (undefined behaviour in OpenCL:
 *     OCCA's pinned host pool stays mapped for its whole life and reductions copy into it).
 * At exit it prints one line to stderr:
 *   clmem_check: buffers=B/RB sub_buffers=S/RS peak_live_sub=P live_sub_at_exit=L
 *                mapped_access=M verdict=ok|LEAK|MAPPED...
 * (created/released). LEAK: more than CLMEM_CHECK_MAX_SUB (default 64) sub-buffers were alive
 * at once. MAPPED: some command used a buffer (or a sub-buffer of one) while it was mapped.
 * The first few offending calls are printed as they happen. Single-threaded use is assumed for
 * the report; the table is guarded by a mutex anyway. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  cl_mem mem, parent; /* parent: NULL for a buffer */
  size_t size;
  long refs, maps;
} obj_t;

static obj_t *objs;
static size_t nobjs, capobjs;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long n_buf, n_buf_rel, n_sub, n_sub_rel, live_sub, peak_live_sub, mapped_access;

static void *next(const char *name) {
  void *f = dlsym(RTLD_NEXT, name);
  if (!f) {
    fprintf(stderr, "clmem_check: no %s after this library\n", name);
    abort();
  }
  return f;
}

static obj_t *find(cl_mem m) {
  for (size_t i = nobjs; i-- > 0;)
    if (objs[i].mem == m) return &objs[i];
  return NULL;
}

static void add(cl_mem m, cl_mem parent, size_t size) {
  if (nobjs == capobjs) {
    capobjs = capobjs ? 2 * capobjs : 256;
    objs = realloc(objs, capobjs * sizeof *objs);
    if (!objs) abort();
  }
  objs[nobjs++] = (obj_t){m, parent, size, 1, 0};
  if (parent) {
    ++n_sub;
    if (++live_sub > peak_live_sub) peak_live_sub = live_sub;
  } else {
    ++n_buf;
  }
}

/* a command that touches m: flag it if m, or the buffer it is a sub-buffer of, is mapped */
static void touch(const char *what, cl_mem m) {
  pthread_mutex_lock(&lock);
  obj_t *o = find(m);
  obj_t *p = o && o->parent ? find(o->parent) : NULL;
  if ((o && o->maps > 0) || (p && p->maps > 0)) {
    if (mapped_access++ < 5)
      fprintf(stderr, "clmem_check: %s on %s %p while %s mapped\n", what,
              o->parent ? "sub-buffer" : "buffer", (void *)m,
              o->parent ? "its parent is" : "it is");
  }
  pthread_mutex_unlock(&lock);
}

cl_mem clCreateBuffer(cl_context c, cl_mem_flags f, size_t size, void *host, cl_int *err) {
  static cl_mem (*real)(cl_context, cl_mem_flags, size_t, void *, cl_int *);
  if (!real) real = next("clCreateBuffer");
  cl_mem m = real(c, f, size, host, err);
  if (m) {
    pthread_mutex_lock(&lock);
    add(m, NULL, size);
    pthread_mutex_unlock(&lock);
  }
  return m;
}

cl_mem clCreateSubBuffer(cl_mem b, cl_mem_flags f, cl_buffer_create_type t, const void *info,
                         cl_int *err) {
  static cl_mem (*real)(cl_mem, cl_mem_flags, cl_buffer_create_type, const void *, cl_int *);
  if (!real) real = next("clCreateSubBuffer");
  cl_mem m = real(b, f, t, info, err);
  if (m) {
    pthread_mutex_lock(&lock);
    add(m, b, t == CL_BUFFER_CREATE_TYPE_REGION ? ((const cl_buffer_region *)info)->size : 0);
    pthread_mutex_unlock(&lock);
  }
  return m;
}

cl_int clRetainMemObject(cl_mem m) {
  static cl_int (*real)(cl_mem);
  if (!real) real = next("clRetainMemObject");
  cl_int e = real(m);
  if (e == CL_SUCCESS) {
    pthread_mutex_lock(&lock);
    obj_t *o = find(m);
    if (o) ++o->refs;
    pthread_mutex_unlock(&lock);
  }
  return e;
}

cl_int clReleaseMemObject(cl_mem m) {
  static cl_int (*real)(cl_mem);
  if (!real) real = next("clReleaseMemObject");
  cl_int e = real(m);
  if (e == CL_SUCCESS) {
    pthread_mutex_lock(&lock);
    obj_t *o = find(m);
    if (o && --o->refs == 0) {
      if (o->parent) {
        ++n_sub_rel;
        --live_sub;
      } else {
        ++n_buf_rel;
      }
      *o = objs[--nobjs];
    }
    pthread_mutex_unlock(&lock);
  }
  return e;
}

void *clEnqueueMapBuffer(cl_command_queue q, cl_mem b, cl_bool blocking, cl_map_flags f,
                         size_t off, size_t size, cl_uint nw, const cl_event *w, cl_event *ev,
                         cl_int *err) {
  static void *(*real)(cl_command_queue, cl_mem, cl_bool, cl_map_flags, size_t, size_t, cl_uint,
                       const cl_event *, cl_event *, cl_int *);
  if (!real) real = next("clEnqueueMapBuffer");
  cl_int e2;
  void *p = real(q, b, blocking, f, off, size, nw, w, ev, &e2);
  if (err) *err = e2;
  if (e2 == CL_SUCCESS) {
    pthread_mutex_lock(&lock);
    obj_t *o = find(b);
    if (o) ++o->maps;
    pthread_mutex_unlock(&lock);
  }
  return p;
}

cl_int clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *p, cl_uint nw,
                               const cl_event *w, cl_event *ev) {
  static cl_int (*real)(cl_command_queue, cl_mem, void *, cl_uint, const cl_event *, cl_event *);
  if (!real) real = next("clEnqueueUnmapMemObject");
  cl_int e = real(q, m, p, nw, w, ev);
  if (e == CL_SUCCESS) {
    pthread_mutex_lock(&lock);
    obj_t *o = find(m);
    if (o && o->maps > 0) --o->maps;
    pthread_mutex_unlock(&lock);
  }
  return e;
}

cl_int clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t so, size_t dof,
                           size_t size, cl_uint nw, const cl_event *w, cl_event *ev) {
  static cl_int (*real)(cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, cl_uint,
                        const cl_event *, cl_event *);
  if (!real) real = next("clEnqueueCopyBuffer");
  touch("clEnqueueCopyBuffer (source)", src);
  touch("clEnqueueCopyBuffer (destination)", dst);
  return real(q, src, dst, so, dof, size, nw, w, ev);
}

cl_int clEnqueueReadBuffer(cl_command_queue q, cl_mem b, cl_bool blocking, size_t off, size_t size,
                           void *p, cl_uint nw, const cl_event *w, cl_event *ev) {
  static cl_int (*real)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *, cl_uint,
                        const cl_event *, cl_event *);
  if (!real) real = next("clEnqueueReadBuffer");
  touch("clEnqueueReadBuffer", b);
  return real(q, b, blocking, off, size, p, nw, w, ev);
}

cl_int clEnqueueWriteBuffer(cl_command_queue q, cl_mem b, cl_bool blocking, size_t off,
                            size_t size, const void *p, cl_uint nw, const cl_event *w,
                            cl_event *ev) {
  static cl_int (*real)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *, cl_uint,
                        const cl_event *, cl_event *);
  if (!real) real = next("clEnqueueWriteBuffer");
  touch("clEnqueueWriteBuffer", b);
  return real(q, b, blocking, off, size, p, nw, w, ev);
}

cl_int clSetKernelArg(cl_kernel k, cl_uint i, size_t size, const void *v) {
  static cl_int (*real)(cl_kernel, cl_uint, size_t, const void *);
  if (!real) real = next("clSetKernelArg");
  if (v && size == sizeof(cl_mem)) {
    cl_mem m;
    memcpy(&m, v, sizeof m);
    pthread_mutex_lock(&lock);
    int known = find(m) != NULL;
    pthread_mutex_unlock(&lock);
    if (known) touch("clSetKernelArg", m);
  }
  return real(k, i, size, v);
}

__attribute__((destructor)) static void report(void) {
  const char *s = getenv("CLMEM_CHECK_MAX_SUB");
  const long max_sub = s ? atol(s) : 64;
  const int leak = peak_live_sub > max_sub;
  if (n_buf == 0 && n_sub == 0) return; /* a child process (OCCA's compiler runs) */
  fprintf(stderr,
          "clmem_check: buffers=%ld/%ld sub_buffers=%ld/%ld peak_live_sub=%ld "
          "live_sub_at_exit=%ld mapped_access=%ld verdict=%s%s%s\n",
          n_buf, n_buf_rel, n_sub, n_sub_rel, peak_live_sub, live_sub, mapped_access,
          leak || mapped_access ? "" : "ok", leak ? "LEAK" : "",
          mapped_access ? (leak ? ",MAPPED" : "MAPPED") : "");
}

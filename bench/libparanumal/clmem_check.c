/* An LD_PRELOAD checker of OpenCL memory objects, for libparanumal/OCCA runs (not part of dgtd's
 * build; bench/libparanumal/build.sh compiles it to DEST/clmem_check.so and run.sh preloads it
 * when CLMEM_CHECK=1). It catches, on any OpenCL (PoCL and Oclgrind included), what OCCA
 * 9866ea5's OpenCL mode did that NVIDIA's OpenCL punishes and PoCL forgives
 * (docs/notes/libparanumal-memory-pool.md):
 *   - sub-buffers that are never released: every memory-pool reservation made one with
 *     clCreateSubBuffer and nothing released it, so their number grows with each time step;
 *   - commands that read or write a buffer while it is mapped (undefined behaviour in OpenCL:
 *     OCCA's pinned host pool stays mapped for its whole life and reductions copy into it);
 *   - sub-buffers made and released again every time step (LSERK4's two pool reservations):
 *     legal OpenCL, but on the H100 the first form of the mend (release each at once) made
 *     libparanumal's step about 25x slower per DOF than the leaking OCCA;
 * and it shows what else could make a step slow there: which memory each kernel is given
 * (a host-flagged buffer, CL_MEM_ALLOC_HOST_PTR or CL_MEM_USE_HOST_PTR, or a sub-buffer of
 * one, read by the kernel over PCIe on a discrete GPU), and what moves between host and device
 * per time step. A time step is CLMEM_CHECK_STAGES (default 5) launches of the kernel
 * whose name contains CLMEM_CHECK_STEP_KERNEL (default lserk4Update, LSERK4's update; OCCA
 * names it _occa_lserk4Update_0).
 * At exit it prints to stderr, one line per kernel name, then
 *   clmem_check: steps=S per_step: host_io_bytes=min/mean/max reads=... writes=... copies=...
 *                maps=... sub_created=min/mean/max sub_released=... steps_with_host_io=N
 *   clmem_check: api_ms create_sub=... release_sub=... release_buf=... finish=... ndrange=...
 *                read=... write=... map=...   (wall time spent inside those calls)
 *   clmem_check: buffers=B/RB sub_buffers=S/RS peak_live_sub=P live_sub_at_exit=L
 *                mapped_access=M host_args=H sub_churn_steps=C verdict=ok|LEAK|MAPPED|HOSTARG|CHURN
 * (created/released). LEAK: more than CLMEM_CHECK_MAX_SUB (default 64) sub-buffers were alive
 * at once. MAPPED: some command used a buffer (or a sub-buffer of one) while it was mapped.
 * HOSTARG: some kernel was given host-flagged memory. CHURN: in more than half the time steps
 * (and at least 3) sub-buffers were created or released. With CLMEM_CHECK_TRACE=1 it also logs
 * every buffer and sub-buffer made (flags, size). The first few offending calls are printed as
 * they happen. Single-threaded use is assumed for the report; the tables are guarded by a
 * mutex anyway. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HOST_FLAGS (CL_MEM_ALLOC_HOST_PTR | CL_MEM_USE_HOST_PTR)

typedef struct {
  cl_mem mem, parent; /* parent: NULL for a buffer */
  size_t size, origin;
  cl_mem_flags flags;
  int host; /* host-flagged, or a sub-buffer of such */
  long refs, maps;
} obj_t;

#define MAXARGS 48
typedef struct {
  cl_kernel k;
  int stat; /* index into kstats */
  cl_mem args[MAXARGS];
} kern_t;

typedef struct {
  char name[64];
  long launches, mem_args, host_args, sub_args, mapped_args;
  char kinds[MAXARGS + 1]; /* per argument at the last launch: d buffer, s sub-buffer, h host */
} kstat_t;

/* what moved in one time step */
typedef struct {
  double host_bytes;
  long reads, writes, copies, host_copies, maps, unmaps, sub_created, sub_released;
} step_t;

static obj_t *objs;
static size_t nobjs, capobjs;
static kern_t *kerns;
static size_t nkerns, capkerns;
static kstat_t kstats[64];
static int nkstats;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long n_buf, n_buf_rel, n_sub, n_sub_rel, live_sub, peak_live_sub, mapped_access, host_args;
static step_t cur, smin, smax, ssum;
static long steps, step_launches, steps_with_io, churn_steps;
static double t_create_sub, t_release_sub, t_release_buf, t_finish, t_ndrange, t_read, t_write,
    t_map;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void *next(const char *name) {
  void *f = dlsym(RTLD_NEXT, name);
  if (!f) {
    fprintf(stderr, "clmem_check: no %s after this library\n", name);
    abort();
  }
  return f;
}

static int tracing(void) {
  static int t = -1;
  if (t < 0) {
    const char *s = getenv("CLMEM_CHECK_TRACE");
    t = s && *s && strcmp(s, "0");
  }
  return t;
}

static obj_t *find(cl_mem m) {
  for (size_t i = nobjs; i-- > 0;)
    if (objs[i].mem == m) return &objs[i];
  return NULL;
}

static void add(cl_mem m, cl_mem parent, size_t size, size_t origin, cl_mem_flags flags) {
  if (nobjs == capobjs) {
    capobjs = capobjs ? 2 * capobjs : 256;
    objs = realloc(objs, capobjs * sizeof *objs);
    if (!objs) abort();
  }
  obj_t *p = parent ? find(parent) : NULL;
  const int host = (flags & HOST_FLAGS) || (p && p->host);
  objs[nobjs++] = (obj_t){m, parent, size, origin, flags, host, 1, 0};
  if (parent) {
    ++n_sub;
    ++cur.sub_created;
    if (++live_sub > peak_live_sub) peak_live_sub = live_sub;
  } else {
    ++n_buf;
  }
  if (tracing())
    fprintf(stderr, "clmem_check: %s %p (parent %p) size=%zu origin=%zu flags=0x%lx%s%s\n",
            parent ? "sub-buffer" : "buffer", (void *)m, (void *)parent, size, origin,
            (unsigned long)flags,
            (flags & CL_MEM_ALLOC_HOST_PTR) ? " ALLOC_HOST_PTR" : "",
            (flags & CL_MEM_USE_HOST_PTR) ? " USE_HOST_PTR" : "");
}

/* a command that touches m: flag it if m, or the buffer it is a sub-buffer of, is mapped */
static int touch_locked(const char *what, cl_mem m) {
  obj_t *o = find(m);
  obj_t *p = o && o->parent ? find(o->parent) : NULL;
  if ((o && o->maps > 0) || (p && p->maps > 0)) {
    if (mapped_access++ < 5)
      fprintf(stderr, "clmem_check: %s on %s %p while %s mapped\n", what,
              o->parent ? "sub-buffer" : "buffer", (void *)m,
              o->parent ? "its parent is" : "it is");
    return 1;
  }
  return 0;
}

static int is_host(cl_mem m) {
  obj_t *o = find(m);
  return o && o->host;
}

static void end_step(void) {
  const int io = cur.host_bytes > 0 || cur.maps || cur.unmaps;
  steps_with_io += io;
  churn_steps += cur.sub_created > 0 || cur.sub_released > 0;
#define ACC(f)                                                                                   \
  do {                                                                                           \
    if (steps == 0 || cur.f < smin.f) smin.f = cur.f;                                            \
    if (steps == 0 || cur.f > smax.f) smax.f = cur.f;                                            \
    ssum.f += cur.f;                                                                             \
  } while (0)
  ACC(host_bytes);
  ACC(reads);
  ACC(writes);
  ACC(copies);
  ACC(host_copies);
  ACC(maps);
  ACC(unmaps);
  ACC(sub_created);
  ACC(sub_released);
#undef ACC
  ++steps;
  memset(&cur, 0, sizeof cur);
}

cl_mem clCreateBuffer(cl_context c, cl_mem_flags f, size_t size, void *host, cl_int *err) {
  static cl_mem (*real)(cl_context, cl_mem_flags, size_t, void *, cl_int *);
  if (!real) real = next("clCreateBuffer");
  cl_mem m = real(c, f, size, host, err);
  if (m) {
    pthread_mutex_lock(&lock);
    add(m, NULL, size, 0, f);
    pthread_mutex_unlock(&lock);
  }
  return m;
}

cl_mem clCreateSubBuffer(cl_mem b, cl_mem_flags f, cl_buffer_create_type t, const void *info,
                         cl_int *err) {
  static cl_mem (*real)(cl_mem, cl_mem_flags, cl_buffer_create_type, const void *, cl_int *);
  if (!real) real = next("clCreateSubBuffer");
  const double t0 = now();
  cl_mem m = real(b, f, t, info, err);
  t_create_sub += now() - t0;
  if (m) {
    const cl_buffer_region *r = t == CL_BUFFER_CREATE_TYPE_REGION ? info : NULL;
    pthread_mutex_lock(&lock);
    add(m, b, r ? r->size : 0, r ? r->origin : 0, f);
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
  pthread_mutex_lock(&lock);
  obj_t *o0 = find(m);
  const int sub = o0 && o0->parent;
  pthread_mutex_unlock(&lock);
  const double t0 = now();
  cl_int e = real(m);
  *(sub ? &t_release_sub : &t_release_buf) += now() - t0;
  if (e == CL_SUCCESS) {
    pthread_mutex_lock(&lock);
    obj_t *o = find(m);
    if (o && --o->refs == 0) {
      if (o->parent) {
        ++n_sub_rel;
        ++cur.sub_released;
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
  const double t0 = now();
  void *p = real(q, b, blocking, f, off, size, nw, w, ev, &e2);
  t_map += now() - t0;
  if (err) *err = e2;
  if (e2 == CL_SUCCESS) {
    pthread_mutex_lock(&lock);
    obj_t *o = find(b);
    if (o) ++o->maps;
    ++cur.maps;
    /* a host-flagged buffer maps in place; any other map is a transfer */
    if (!(o && o->host)) cur.host_bytes += size;
    pthread_mutex_unlock(&lock);
  }
  return p;
}

cl_int clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *p, cl_uint nw,
                               const cl_event *w, cl_event *ev) {
  static cl_int (*real)(cl_command_queue, cl_mem, void *, cl_uint, const cl_event *, cl_event *);
  if (!real) real = next("clEnqueueUnmapMemObject");
  const double t0 = now();
  cl_int e = real(q, m, p, nw, w, ev);
  t_map += now() - t0;
  if (e == CL_SUCCESS) {
    pthread_mutex_lock(&lock);
    obj_t *o = find(m);
    if (o && o->maps > 0) --o->maps;
    ++cur.unmaps;
    pthread_mutex_unlock(&lock);
  }
  return e;
}

cl_int clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t so, size_t dof,
                           size_t size, cl_uint nw, const cl_event *w, cl_event *ev) {
  static cl_int (*real)(cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, cl_uint,
                        const cl_event *, cl_event *);
  if (!real) real = next("clEnqueueCopyBuffer");
  pthread_mutex_lock(&lock);
  touch_locked("clEnqueueCopyBuffer (source)", src);
  touch_locked("clEnqueueCopyBuffer (destination)", dst);
  ++cur.copies;
  if (is_host(src) != is_host(dst)) {
    ++cur.host_copies;
    cur.host_bytes += size;
  }
  pthread_mutex_unlock(&lock);
  return real(q, src, dst, so, dof, size, nw, w, ev);
}

cl_int clEnqueueReadBuffer(cl_command_queue q, cl_mem b, cl_bool blocking, size_t off, size_t size,
                           void *p, cl_uint nw, const cl_event *w, cl_event *ev) {
  static cl_int (*real)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *, cl_uint,
                        const cl_event *, cl_event *);
  if (!real) real = next("clEnqueueReadBuffer");
  pthread_mutex_lock(&lock);
  touch_locked("clEnqueueReadBuffer", b);
  ++cur.reads;
  cur.host_bytes += size;
  pthread_mutex_unlock(&lock);
  const double t0 = now();
  cl_int e = real(q, b, blocking, off, size, p, nw, w, ev);
  t_read += now() - t0;
  return e;
}

cl_int clEnqueueWriteBuffer(cl_command_queue q, cl_mem b, cl_bool blocking, size_t off,
                            size_t size, const void *p, cl_uint nw, const cl_event *w,
                            cl_event *ev) {
  static cl_int (*real)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *, cl_uint,
                        const cl_event *, cl_event *);
  if (!real) real = next("clEnqueueWriteBuffer");
  pthread_mutex_lock(&lock);
  touch_locked("clEnqueueWriteBuffer", b);
  ++cur.writes;
  cur.host_bytes += size;
  pthread_mutex_unlock(&lock);
  const double t0 = now();
  cl_int e = real(q, b, blocking, off, size, p, nw, w, ev);
  t_write += now() - t0;
  return e;
}

cl_int clFinish(cl_command_queue q) {
  static cl_int (*real)(cl_command_queue);
  if (!real) real = next("clFinish");
  const double t0 = now();
  cl_int e = real(q);
  t_finish += now() - t0;
  return e;
}

static kern_t *kern(cl_kernel k) {
  for (size_t i = 0; i < nkerns; ++i)
    if (kerns[i].k == k) return &kerns[i];
  if (nkerns == capkerns) {
    capkerns = capkerns ? 2 * capkerns : 64;
    kerns = realloc(kerns, capkerns * sizeof *kerns);
    if (!kerns) abort();
  }
  kern_t *r = &kerns[nkerns++];
  memset(r, 0, sizeof *r);
  r->k = k;
  char name[64] = "?";
  static cl_int (*info)(cl_kernel, cl_kernel_info, size_t, void *, size_t *);
  if (!info) info = next("clGetKernelInfo");
  info(k, CL_KERNEL_FUNCTION_NAME, sizeof name - 1, name, NULL);
  name[sizeof name - 1] = 0;
  int s;
  for (s = 0; s < nkstats; ++s)
    if (!strcmp(kstats[s].name, name)) break;
  if (s == nkstats && nkstats < 64) {
    memset(&kstats[s], 0, sizeof kstats[s]);
    strcpy(kstats[s].name, name);
    ++nkstats;
  }
  r->stat = s < 64 ? s : 63;
  return r;
}

cl_int clSetKernelArg(cl_kernel k, cl_uint i, size_t size, const void *v) {
  static cl_int (*real)(cl_kernel, cl_uint, size_t, const void *);
  if (!real) real = next("clSetKernelArg");
  pthread_mutex_lock(&lock);
  kern_t *r = kern(k);
  cl_mem m = NULL;
  if (v && size == sizeof(cl_mem)) {
    memcpy(&m, v, sizeof m);
    if (!find(m)) m = NULL;
  }
  if (i < MAXARGS) r->args[i] = m;
  pthread_mutex_unlock(&lock);
  return real(k, i, size, v);
}

cl_int clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *off,
                              const size_t *gws, const size_t *lws, cl_uint nw, const cl_event *w,
                              cl_event *ev) {
  static cl_int (*real)(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,
                        const size_t *, cl_uint, const cl_event *, cl_event *);
  if (!real) real = next("clEnqueueNDRangeKernel");
  pthread_mutex_lock(&lock);
  kern_t *r = kern(k);
  kstat_t *s = &kstats[r->stat];
  ++s->launches;
  int last = -1;
  for (int i = 0; i < MAXARGS; ++i) {
    s->kinds[i] = '-';
    cl_mem m = r->args[i];
    obj_t *o = m ? find(m) : NULL;
    if (!o) continue;
    last = i;
    ++s->mem_args;
    s->kinds[i] = o->host ? 'h' : o->parent ? 's' : 'd';
    if (o->parent) ++s->sub_args;
    if (o->host) {
      ++s->host_args;
      if (host_args++ < 5)
        fprintf(stderr, "clmem_check: kernel %s argument %d is host-flagged memory (%s %p, %zu B)\n",
                s->name, i, o->parent ? "sub-buffer" : "buffer", (void *)m, o->size);
    }
    s->mapped_args += touch_locked("kernel argument", m);
  }
  s->kinds[last + 1] = 0;
  static const char *step_name;
  static long stages;
  if (!step_name) {
    step_name = getenv("CLMEM_CHECK_STEP_KERNEL");
    if (!step_name || !*step_name) step_name = "lserk4Update";
    const char *st = getenv("CLMEM_CHECK_STAGES");
    stages = st ? atol(st) : 5;
    if (stages < 1) stages = 1;
  }
  if (strstr(s->name, step_name) && ++step_launches % stages == 0) end_step();
  pthread_mutex_unlock(&lock);
  const double t0 = now();
  cl_int e = real(q, k, dim, off, gws, lws, nw, w, ev);
  t_ndrange += now() - t0;
  return e;
}

__attribute__((destructor)) static void report(void) {
  const char *s = getenv("CLMEM_CHECK_MAX_SUB");
  const long max_sub = s ? atol(s) : 64;
  const int leak = peak_live_sub > max_sub;
  const int churn = steps >= 3 && 2 * churn_steps > steps;
  if (n_buf == 0 && n_sub == 0) return; /* a child process (OCCA's compiler runs) */
  for (int i = 0; i < nkstats; ++i)
    fprintf(stderr,
            "clmem_check: kernel %s launches=%ld args=%s (d buffer, s sub-buffer, h host, - "
            "other) mem_args=%ld sub_args=%ld host_args=%ld mapped_args=%ld\n",
            kstats[i].name, kstats[i].launches, kstats[i].kinds, kstats[i].mem_args,
            kstats[i].sub_args, kstats[i].host_args, kstats[i].mapped_args);
  const double n = steps ? (double)steps : 1;
  fprintf(stderr,
          "clmem_check: steps=%ld per_step(min/mean/max): host_io_bytes=%.0f/%.0f/%.0f "
          "reads=%ld/%.1f/%ld writes=%ld/%.1f/%ld copies=%ld/%.1f/%ld host_copies=%ld/%.1f/%ld "
          "maps=%ld/%.1f/%ld unmaps=%ld/%.1f/%ld sub_created=%ld/%.1f/%ld "
          "sub_released=%ld/%.1f/%ld steps_with_host_io=%ld steps_with_sub_churn=%ld\n",
          steps, smin.host_bytes, ssum.host_bytes / n, smax.host_bytes, smin.reads,
          ssum.reads / n, smax.reads, smin.writes, ssum.writes / n, smax.writes, smin.copies,
          ssum.copies / n, smax.copies, smin.host_copies, ssum.host_copies / n, smax.host_copies,
          smin.maps, ssum.maps / n, smax.maps, smin.unmaps, ssum.unmaps / n, smax.unmaps,
          smin.sub_created, ssum.sub_created / n, smax.sub_created, smin.sub_released,
          ssum.sub_released / n, smax.sub_released, steps_with_io, churn_steps);
  fprintf(stderr,
          "clmem_check: api_ms create_sub=%.1f release_sub=%.1f release_buf=%.1f finish=%.1f "
          "ndrange=%.1f read=%.1f write=%.1f map_unmap=%.1f\n",
          1e3 * t_create_sub, 1e3 * t_release_sub, 1e3 * t_release_buf, 1e3 * t_finish,
          1e3 * t_ndrange, 1e3 * t_read, 1e3 * t_write, 1e3 * t_map);
  const int bad = leak || mapped_access || host_args || churn;
  char verdict[64] = "";
  if (!bad) strcpy(verdict, "ok");
  if (leak) strcat(verdict, "LEAK,");
  if (mapped_access) strcat(verdict, "MAPPED,");
  if (host_args) strcat(verdict, "HOSTARG,");
  if (churn) strcat(verdict, "CHURN,");
  if (bad) verdict[strlen(verdict) - 1] = 0;
  fprintf(stderr,
          "clmem_check: buffers=%ld/%ld sub_buffers=%ld/%ld peak_live_sub=%ld "
          "live_sub_at_exit=%ld mapped_access=%ld host_args=%ld sub_churn_steps=%ld verdict=%s\n",
          n_buf, n_buf_rel, n_sub, n_sub_rel, peak_live_sub, live_sub, mapped_access, host_args,
          churn_steps, verdict);
}

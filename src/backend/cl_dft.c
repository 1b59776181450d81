/* DFT monitors on the device (backend/cl_dft.h): one small program from dft.cl, the sample
 * rows uploaded once, and one launch per DFT_NF frequencies per summed step. */
#include "backend/cl_dft.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cl_kernels.h"
#include "codegen/codegen.h"
#include "contract.h"
#include "core/alloc.h"
#include "device/binary_cache.h"
#include "device/program.h"

enum { RING = 64 };

struct dg_cl_dft {
  dg_device *dev;   /* borrowed (the operator's) */
  dg_dft *d;        /* borrowed */
  int acc_double, nf; /* sums in double; frequencies per launch (DFT_NF) */
  size_t as, rs, n_acc; /* sum size, state real size, sums per array */
  cl_program prog;
  cl_kernel k;
  cl_mem d_start, d_node, d_wt, d_re, d_im, d_cre, d_cim;
  /* Profiling: the launches not yet read, and the device time of those read. */
  cl_event ring[RING];
  int n_ring;
  double seconds;
};


static dg_status render(int fields_double, int acc_double, int nf, char **src) {
  dg_kernel_spec s;
  memset(&s, 0, sizeof s);
  DG_CALL(dg_kernel_spec_define(&s, "DG_DOUBLE", "%d", fields_double));
  DG_CALL(dg_kernel_spec_define(&s, "DFT_ACC_DOUBLE", "%d", acc_double));
  DG_CALL(dg_kernel_spec_define(&s, "DFT_NF", "%d", nf));
  DG_CALL(dg_kernel_spec_file(&s, "dft.cl"));
  DG_CALL(dg_codegen_render(&s, src));
  return DG_OK;
}

dg_status dg_cl_dft_source(int fields_double, int acc_double, char **src) {
  *src = NULL;
  DG_CALL(render(fields_double != 0, acc_double != 0, DG_CL_DFT_NF, src));
  return DG_OK;
}

/* The sample rows with node indices in the device layout, weights in the sums' type. */
static dg_status upload_rows(dg_cl_dft *cd, dg_cl_maxwell *op) {
  const dg_dft *d = cd->d;
  const size_t ne = (size_t)d->start[d->nsamp];
  int *node = NULL;
  void *wt = NULL;
  dg_status st = DG_OK;
  DG_CALL(DG_ALLOC(node, ne + 1));
  DG_CALL_GOTO(done, dg_calloc(&wt, ne + 1, cd->as));
  for (size_t e = 0; e < ne; ++e) {
    const int k = d->node[e] / d->Np, j = d->node[e] - k * d->Np;
    const size_t i = dg_cl_maxwell_node_index(op, k, j);
    DG_CHECK_GOTO(done, i <= INT_MAX, DG_ERR_INPUT, "dft: the state is too large for int indices");
    node[e] = (int)i;
    if (cd->as == 8) ((double *)wt)[e] = d->wt[e];
    else ((float *)wt)[e] = (float)d->wt[e];
  }
  DG_CALL_GOTO(done, dg_buffer_create(cd->dev, CL_MEM_READ_ONLY, ((size_t)d->nsamp + 1) * sizeof(int),
                                      d->start, &cd->d_start));
  DG_CALL_GOTO(done, dg_buffer_create(cd->dev, CL_MEM_READ_ONLY, (ne + 1) * sizeof(int), node, &cd->d_node));
  DG_CALL_GOTO(done, dg_buffer_create(cd->dev, CL_MEM_READ_ONLY, (ne + 1) * cd->as, wt, &cd->d_wt));
done:
  dg_free(&node);
  free(wt);
  return st;
}

static dg_status zero_buffer(dg_cl_dft *cd, size_t bytes, cl_mem *out) {
  void *z = NULL;
  DG_CALL(dg_calloc(&z, bytes, 1));
  const dg_status st = dg_buffer_create(cd->dev, CL_MEM_READ_WRITE, bytes, z, out);
  free(z);
  DG_CALL(st);
  return DG_OK;
}

dg_status dg_cl_dft_create(dg_cl_dft **out, dg_cl_maxwell *op, dg_dft *d, int acc,
                           const char *dump_dir) {
  *out = NULL;
  dg_device *dev = dg_cl_maxwell_device(op);
  DG_CHECK(acc != 1 || dev->info.has_fp64, DG_ERR_INPUT,
           "dft: double sums asked for but '%s' has no fp64", dev->info.name);
  DG_CHECK(d->nsamp > 0, DG_ERR_INPUT, "dft: no samples");
  DG_CHECK((double)d->nfreq * 6 * d->nsamp < INT_MAX, DG_ERR_INPUT,
           "dft: %d frequencies x %d samples are too many for one device array", d->nfreq,
           d->nsamp);
  dg_cl_dft *cd = NULL;
  DG_CALL(DG_ALLOC(cd, 1));
  dg_status st = DG_OK;
  char *src = NULL;
  cd->dev = dev, cd->d = d;
  cd->acc_double = acc < 0 ? dev->info.has_fp64 : acc;
  cd->as = cd->acc_double ? 8 : 4;
  size_t fs;
  cl_mem q = dg_cl_maxwell_state_buffer(op, &fs, &cd->rs);
  DG_CHECK_GOTO(fail, fs <= INT_MAX, DG_ERR_INPUT, "dft: the state is too large for int indices");
  /* Frequencies per launch: the vector width covering them, at most 16. */
  cd->nf = DG_CL_DFT_NF;
  while (cd->nf < d->nfreq && cd->nf < 16) cd->nf *= 2;
  cd->n_acc = (size_t)d->nfreq * 6 * d->nsamp;
  DG_CALL_GOTO(fail, dg_dft_start(d));
  DG_CALL_GOTO(fail, upload_rows(cd, op));
  DG_CALL_GOTO(fail, zero_buffer(cd, cd->n_acc * cd->as, &cd->d_re));
  DG_CALL_GOTO(fail, zero_buffer(cd, cd->n_acc * cd->as, &cd->d_im));
  if (!cd->acc_double) {
    DG_CALL_GOTO(fail, zero_buffer(cd, cd->n_acc * cd->as, &cd->d_cre));
    DG_CALL_GOTO(fail, zero_buffer(cd, cd->n_acc * cd->as, &cd->d_cim));
  }
  DG_CALL_GOTO(fail, render(cd->rs == 8, cd->acc_double, cd->nf, &src));
  char label[64];
  snprintf(label, sizeof label, "dft_%s_%s_nf%d", cd->rs == 8 ? "double" : "float",
           cd->acc_double ? "accd" : "kahan", cd->nf);
  DG_CALL_GOTO(fail, dg_program_build_cached(dev->binaries, dev, src, NULL, label, dump_dir, &cd->prog));
  DG_CALL_GOTO(fail, dg_kernel_create(cd->prog, "dft_accumulate", &cd->k));
  const int ifs = (int)fs, ns = d->nsamp;
  DG_CALL_GOTO(fail, DG_KERNEL_ARG(cd->k, DFT_ARG_Q, q));
  DG_CALL_GOTO(fail, DG_KERNEL_ARG(cd->k, DFT_ARG_FS, ifs));
  DG_CALL_GOTO(fail, DG_KERNEL_ARG(cd->k, DFT_ARG_START, cd->d_start));
  DG_CALL_GOTO(fail, DG_KERNEL_ARG(cd->k, DFT_ARG_NODE, cd->d_node));
  DG_CALL_GOTO(fail, DG_KERNEL_ARG(cd->k, DFT_ARG_WT, cd->d_wt));
  DG_CALL_GOTO(fail, DG_KERNEL_ARG(cd->k, DFT_ARG_NSAMP, ns));
  DG_CALL_GOTO(fail, DG_KERNEL_ARG(cd->k, DFT_ARG_RE, cd->d_re));
  DG_CALL_GOTO(fail, DG_KERNEL_ARG(cd->k, DFT_ARG_IM, cd->d_im));
  DG_CALL_GOTO(fail, DG_KERNEL_ARG(cd->k, DFT_ARG_CRE, cd->d_cre));
  DG_CALL_GOTO(fail, DG_KERNEL_ARG(cd->k, DFT_ARG_CIM, cd->d_cim));
  dg_free(&src);
  *out = cd;
  return DG_OK;
fail:
  dg_free(&src);
  dg_cl_dft_destroy(&cd);
  return st;
}

/* Read and release the oldest n launch events. */
static dg_status drain(dg_cl_dft *cd, int n) {
  for (int i = 0; i < n; ++i) {
    cl_event e = cd->ring[i];
    DG_CL(clWaitForEvents(1, &e));
    cl_ulong a = 0, b = 0;
    DG_CL(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL));
    DG_CL(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL));
    if (b > a) cd->seconds += (double)(b - a) * 1e-9;
    clReleaseEvent(e);
    cd->ring[i] = NULL;
  }
  memmove(cd->ring, cd->ring + n, (size_t)(cd->n_ring - n) * sizeof *cd->ring);
  cd->n_ring -= n;
  return DG_OK;
}

static dg_status set_phases(dg_cl_dft *cd, const double *c, const double *s, int f0, int nf) {
  if (cd->acc_double) {
    cl_double16 cv, sv;
    memset(&cv, 0, sizeof cv), memset(&sv, 0, sizeof sv);
    for (int i = 0; i < nf; ++i) cv.s[i] = c[f0 + i], sv.s[i] = s[f0 + i];
    /* A doubleN argument is the first N lanes of the 16 (the same layout for every N). */
    DG_CALL(dg_kernel_set_arg(cd->k, DFT_ARG_C, (size_t)cd->nf * 8, &cv));
    DG_CALL(dg_kernel_set_arg(cd->k, DFT_ARG_S, (size_t)cd->nf * 8, &sv));
  } else {
    cl_float16 cv, sv;
    memset(&cv, 0, sizeof cv), memset(&sv, 0, sizeof sv);
    for (int i = 0; i < nf; ++i) cv.s[i] = (float)c[f0 + i], sv.s[i] = (float)s[f0 + i];
    DG_CALL(dg_kernel_set_arg(cd->k, DFT_ARG_C, (size_t)cd->nf * 4, &cv));
    DG_CALL(dg_kernel_set_arg(cd->k, DFT_ARG_S, (size_t)cd->nf * 4, &sv));
  }
  return DG_OK;
}

dg_status dg_cl_dft_accumulate(dg_cl_dft *cd, double t) {
  dg_dft *d = cd->d;
  double c[64], s[64], *cp = c, *sp = s;
  dg_status st = DG_OK;
  if (d->nfreq > 64) {
    cp = sp = NULL;
    DG_CALL_GOTO(done, DG_ALLOC(cp, d->nfreq));
    DG_CALL_GOTO(done, DG_ALLOC(sp, d->nfreq));
  }
  dg_dft_phases(d, t, cp, sp);
  const size_t global = ((size_t)d->nsamp + WG1 - 1) / WG1 * WG1, local = WG1;
  for (int f0 = 0; f0 < d->nfreq; f0 += cd->nf) {
    const int nf = d->nfreq - f0 < cd->nf ? d->nfreq - f0 : cd->nf;
    DG_CALL_GOTO(done, set_phases(cd, cp, sp, f0, nf));
    DG_CALL_GOTO(done, DG_KERNEL_ARG(cd->k, DFT_ARG_F0, f0));
    DG_CALL_GOTO(done, DG_KERNEL_ARG(cd->k, DFT_ARG_NF, nf));
    if (cd->n_ring == RING) DG_CALL_GOTO(done, drain(cd, RING / 2)); /* long finished by now */
    cl_event e = NULL;
    const cl_int err = clEnqueueNDRangeKernel(cd->dev->queue, cd->k, 1, NULL, &global, &local, 0,
                                              NULL, &e);
    DG_CHECK_GOTO(done, err == CL_SUCCESS, DG_ERR_OPENCL,
                  "clEnqueueNDRangeKernel(dft_accumulate, %zu items): %s", global,
                  dg_cl_error_name(err));
    cd->ring[cd->n_ring++] = e;
  }
  ++d->nsum;
done:
  if (cp != c) {
    dg_free(&cp);
    dg_free(&sp);
  }
  return st;
}

static dg_status read_sums(dg_cl_dft *cd, cl_mem b, cl_mem comp, double *out) {
  void *x = NULL, *cx = NULL;
  dg_status st = DG_OK;
  DG_CALL(dg_calloc(&x, cd->n_acc, cd->as));
  DG_CALL_GOTO(done, dg_buffer_read(cd->dev, b, 0, cd->n_acc * cd->as, x));
  if (cd->acc_double) {
    memcpy(out, x, cd->n_acc * sizeof *out);
    goto done;
  }
  DG_CALL_GOTO(done, dg_calloc(&cx, cd->n_acc, cd->as));
  DG_CALL_GOTO(done, dg_buffer_read(cd->dev, comp, 0, cd->n_acc * cd->as, cx));
  /* Kahan's compensation holds what the float sum has in excess. */
  for (size_t i = 0; i < cd->n_acc; ++i)
    out[i] = (double)((float *)x)[i] - (double)((float *)cx)[i];
done:
  free(x);
  free(cx);
  return st;
}

dg_status dg_cl_dft_fetch(dg_cl_dft *cd) {
  DG_CALL(read_sums(cd, cd->d_re, cd->d_cre, cd->d->re));
  DG_CALL(read_sums(cd, cd->d_im, cd->d_cim, cd->d->im));
  return DG_OK;
}

dg_status dg_cl_dft_kernel_seconds(dg_cl_dft *cd, double *s) {
  DG_CALL(drain(cd, cd->n_ring));
  *s = cd->seconds;
  return DG_OK;
}

int dg_cl_dft_acc_double(const dg_cl_dft *cd) { return cd->acc_double; }

void dg_cl_dft_destroy(dg_cl_dft **cdp) {
  if (!cdp || !*cdp) return;
  dg_cl_dft *cd = *cdp;
  for (int i = 0; i < cd->n_ring; ++i) {
    clWaitForEvents(1, &cd->ring[i]);
    clReleaseEvent(cd->ring[i]);
  }
  dg_kernel_release(&cd->k);
  dg_program_release(&cd->prog);
  cl_mem *bs[] = {&cd->d_start, &cd->d_node, &cd->d_wt, &cd->d_re, &cd->d_im, &cd->d_cre, &cd->d_cim};
  for (size_t i = 0; i < sizeof bs / sizeof bs[0]; ++i) dg_buffer_release(bs[i]);
  free(cd);
  *cdp = NULL;
}

/* cl_maxwell_halo.c: the OpenCL operator's MPI halo: the trace slots of a dg_trace_exchange in
 * the device layout, the pack and unpack kernels (halo.cl), and the two halves of an exchange
 * around the volume kernel. */
#include <stdio.h>
#include <string.h>

#include "backend/cl_maxwell_impl.h"
#include "codegen/codegen.h"
#include "core/alloc.h"
#include "device/binary_cache.h"
#include "device/program.h"

dg_status dg_cl_halo_source(int dbl, char **src) {
  dg_kernel_spec s;
  memset(&s, 0, sizeof s);
  DG_CALL(dg_kernel_spec_define(&s, "DG_DOUBLE", "%d", dbl != 0));
  DG_CALL(dg_kernel_spec_define(&s, "VW", "1")); /* common.cl's vreal: scalars */
  DG_CALL(dg_kernel_spec_file(&s, "common.cl"));
  DG_CALL(dg_kernel_spec_file(&s, "halo.cl"));
  DG_CALL(dg_codegen_render(&s, src));
  return DG_OK;
}

dg_status dg_cl_maxwell_set_halo(dg_cl_maxwell *op, const dg_trace_exchange *h) {
  const size_t n = h->n;
  const int *send_slot = h->send_slot, *recv_slot = h->recv_slot;
  dg_status st = DG_OK;
  int *ds = NULL, *dr = NULL;
  char *src = NULL;
  op->halo_n = 0;
  if (n == 0) return DG_OK;
  DG_CHECK(n < (size_t)1 << 31, DG_ERR_UNSUPPORTED, "halo too large for 32-bit indices");
  /* Reference-layout slots f*K*Np + k*Np + node -> device indices. */
  DG_CALL(DG_ALLOC(ds, n));
  DG_CALL_GOTO(done, DG_ALLOC(dr, n));
  const size_t KNp = (size_t)op->K * op->NP;
  for (size_t i = 0; i < n; ++i) {
    const int *slot[2] = {send_slot, recv_slot};
    int *out[2] = {ds, dr};
    for (int w = 0; w < 2; ++w) {
      const size_t x = (size_t)slot[w][i], f = x / KNp, r = x % KNp;
      DG_CHECK_GOTO(done, f < 6, DG_ERR_INTERNAL, "halo slot %zu out of range", x);
      out[w][i] = (int)(f * op->fs + dg_clm_index(op, (int)(r / op->NP), (int)(r % op->NP)));
    }
  }
  DG_CALL_GOTO(done, dg_cl_halo_source(op->rs == 8, &src));
  DG_CALL_GOTO(done, dg_program_build_cached(op->dev->binaries, op->dev, src, NULL,
                                             op->rs == 8 ? "halo_double" : "halo_float",
                                             op->dump_dir[0] ? op->dump_dir : NULL, &op->halo_prog));
  DG_CALL_GOTO(done, dg_kernel_create(op->halo_prog, "halo_pack", &op->k_pack));
  DG_CALL_GOTO(done, dg_kernel_create(op->halo_prog, "halo_unpack", &op->k_unpack));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, n * sizeof(int), ds, &op->d_sslot));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, n * sizeof(int), dr, &op->d_rslot));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, n * op->rs, NULL, &op->d_send));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, n * op->rs, NULL, &op->d_recv));
  const int ni = (int)n;
  DG_CALL_GOTO(done, DG_KERNEL_ARG(op->k_pack, HALO_ARG_Q, op->d_q));
  DG_CALL_GOTO(done, DG_KERNEL_ARG(op->k_pack, HALO_ARG_SLOT, op->d_sslot));
  DG_CALL_GOTO(done, DG_KERNEL_ARG(op->k_pack, HALO_ARG_BUF, op->d_send));
  DG_CALL_GOTO(done, DG_KERNEL_ARG(op->k_pack, HALO_ARG_N, ni));
  DG_CALL_GOTO(done, DG_KERNEL_ARG(op->k_unpack, HALO_ARG_Q, op->d_q));
  DG_CALL_GOTO(done, DG_KERNEL_ARG(op->k_unpack, HALO_ARG_SLOT, op->d_rslot));
  DG_CALL_GOTO(done, DG_KERNEL_ARG(op->k_unpack, HALO_ARG_BUF, op->d_recv));
  DG_CALL_GOTO(done, DG_KERNEL_ARG(op->k_unpack, HALO_ARG_N, ni));
  op->halo = *h;
  op->halo_n = n;
done:
  dg_free(&ds);
  dg_free(&dr);
  dg_free(&src);
  return st;
}

/* Pack the outgoing traces, bring them to the host and start the exchange. */
dg_status dg_clm_halo_begin(dg_cl_maxwell *op) {
  if (!op->halo_n) return DG_OK;
  const size_t g = (op->halo_n + WG1 - 1) / WG1 * WG1, l = WG1;
  DG_CALL(dg_kernel_run(op->dev, op->k_pack, 1, &g, &l, NULL));
  DG_CALL(dg_buffer_read(op->dev, op->d_send, 0, op->halo_n * op->rs, op->halo.send));
  DG_CALL(op->halo.begin(op->halo.ctx));
  return DG_OK;
}

/* With the volume kernel queued: let it run while the neighbours' traces travel, then wait
 * for them and scatter them into the ghosts. The host waits for the kernel first (sleeping
 * in clFinish) rather than spinning in MPI_Waitall beside it: on a CPU device the spinning
 * thread would take a core from the kernel; small messages arrive meanwhile anyway (eager
 * protocol), so the wait that follows is short. */
dg_status dg_clm_halo_end(dg_cl_maxwell *op) {
  if (!op->halo_n) return DG_OK;
  DG_CL(clFinish(op->dev->queue));
  DG_CALL(op->halo.end(op->halo.ctx));
  const size_t g = (op->halo_n + WG1 - 1) / WG1 * WG1, l = WG1;
  DG_CALL(dg_buffer_write(op->dev, op->d_recv, 0, op->halo_n * op->rs, op->halo.recv));
  DG_CALL(dg_kernel_run(op->dev, op->k_unpack, 1, &g, &l, NULL));
  return DG_OK;
}

/* Point the pack and unpack kernels at the buffer that holds q now (fuse=step moves it). */
dg_status dg_clm_halo_bind(dg_cl_maxwell *op, cl_mem q) {
  if (!op->halo_n) return DG_OK;
  DG_CALL(DG_KERNEL_ARG(op->k_pack, HALO_ARG_Q, q));
  DG_CALL(DG_KERNEL_ARG(op->k_unpack, HALO_ARG_Q, q));
  return DG_OK;
}

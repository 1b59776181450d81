#include "part/exchange.h"

#include <string.h>

#include "core/alloc.h"

dg_status dg_mpi_raise(int code, const char *call, const char *file, int line, const char *func) {
  char msg[MPI_MAX_ERROR_STRING] = "";
  int len = 0;
  if (MPI_Error_string(code, msg, &len) != MPI_SUCCESS) snprintf(msg, sizeof msg, "error %d", code);
  char name[64];
  size_t i = 0;
  while (call[i] && call[i] != '(' && i + 1 < sizeof name) name[i] = call[i], ++i;
  name[i] = '\0';
  return dg_error_raise(DG_ERR_INTERNAL, file, line, func, "%s: %s", name, msg);
}

void dg_exchange_destroy(dg_exchange **px) {
  dg_exchange *x = *px;
  if (!x) return;
  DG_FREE_ALL(&x->nbr, &x->offset, &x->send, &x->recv, &x->req, &x->stat);
  dg_free(px);
}

dg_status dg_exchange_create(dg_exchange **out, const dg_dist_mesh *d, int Nfp,
                             size_t value_bytes, MPI_Comm comm) {
  dg_status st = DG_OK;
  dg_exchange *x = NULL;
  DG_CALL(DG_ALLOC(x, 1));
  x->comm = comm;
  x->nnbr = d->nnbr;
  x->value_bytes = value_bytes;
  x->n = 6 * (size_t)d->nface * Nfp;
  DG_CALL_GOTO(fail, DG_ALLOC(x->nbr, d->nnbr + 1));
  DG_CALL_GOTO(fail, DG_ALLOC(x->offset, d->nnbr + 1));
  DG_CALL_GOTO(fail, DG_ALLOC(x->req, 2 * d->nnbr + 1));
  DG_CALL_GOTO(fail, DG_ALLOC(x->stat, 2 * d->nnbr + 1));
  DG_CALL_GOTO(fail, dg_calloc(&x->send, x->n + 1, value_bytes));
  DG_CALL_GOTO(fail, dg_calloc(&x->recv, x->n + 1, value_bytes));
  for (int i = 0; i < d->nnbr; ++i) x->nbr[i] = d->nbr[i];
  for (int i = 0; i <= d->nnbr; ++i) x->offset[i] = 6 * (size_t)d->nbr_start[i] * Nfp;
  *out = x;
  return DG_OK;
fail:
  dg_exchange_destroy(&x);
  return st;
}

dg_status dg_exchange_begin(dg_exchange *x) {
  x->t_begin = MPI_Wtime();
  const int tag = 17;
  for (int i = 0; i < x->nnbr; ++i) {
    const size_t bytes = (x->offset[i + 1] - x->offset[i]) * x->value_bytes;
    DG_CHECK(bytes < (size_t)1 << 31, DG_ERR_UNSUPPORTED, "halo message too large");
    DG_MPI(MPI_Irecv((char *)x->recv + x->offset[i] * x->value_bytes, (int)bytes, MPI_BYTE,
                     x->nbr[i], tag, x->comm, &x->req[i]));
  }
  for (int i = 0; i < x->nnbr; ++i) {
    const size_t bytes = (x->offset[i + 1] - x->offset[i]) * x->value_bytes;
    DG_MPI(MPI_Isend((char *)x->send + x->offset[i] * x->value_bytes, (int)bytes, MPI_BYTE,
                     x->nbr[i], tag, x->comm, &x->req[x->nnbr + i]));
  }
  return DG_OK;
}

dg_status dg_exchange_end(dg_exchange *x) {
  const double t0 = MPI_Wtime();
  DG_MPI(MPI_Waitall(2 * x->nnbr, x->req, x->stat));
  const double t1 = MPI_Wtime();
  x->wait_s += t1 - t0;
  x->exchange_s += t1 - x->t_begin;
  ++x->count;
  return DG_OK;
}

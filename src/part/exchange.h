/* The face-trace exchange between MPI ranks: one message each way per neighbour per RK
 * stage, non-blocking, so the caller can overlap it with the volume kernel (begin, then
 * volume work, then end). The buffers hold raw values of the solver's precision; their
 * layout is dg_dist_slots'. Also records how long end() waited, for the benchmark. */
#ifndef DG_PART_EXCHANGE_H
#define DG_PART_EXCHANGE_H

#include <mpi.h>
#include <stddef.h>

#include "core/status.h"
#include "part/dist.h"

/* Check an MPI call; failures name the call and MPI's error string. */
dg_status dg_mpi_raise(int code, const char *call, const char *file, int line, const char *func);
#define DG_MPI(call)                                                                \
  do {                                                                              \
    int dg_mpi_ = (call);                                                           \
    if (dg_mpi_ != MPI_SUCCESS) return dg_mpi_raise(dg_mpi_, #call, __FILE__, __LINE__, __func__); \
  } while (0)

typedef struct {
  MPI_Comm comm;
  int nnbr;
  int *nbr;          /* neighbour ranks */
  size_t *offset;    /* nnbr+1: each neighbour's part of the buffers, in values */
  size_t n;          /* values each way */
  size_t value_bytes;
  void *send, *recv; /* n values each */
  MPI_Request *req;  /* 2 nnbr */
  MPI_Status *stat;  /* 2 nnbr (MPI_STATUSES_IGNORE trips a gcc warning on MPICH) */
  double wait_s;     /* time spent blocked in end() so far */
  double exchange_s; /* time from begin() to the end of end() so far */
  double t_begin;
  long count;        /* completed exchanges */
} dg_exchange;

/* Buffers for order Nfp traces of d's shared faces (6 fields), values of value_bytes. */
dg_status dg_exchange_create(dg_exchange **out, const dg_dist_mesh *d, int Nfp,
                             size_t value_bytes, MPI_Comm comm) DG_NODISCARD;
void dg_exchange_destroy(dg_exchange **x);
/* Post the receives and sends of the send buffer. */
dg_status dg_exchange_begin(dg_exchange *x) DG_NODISCARD;
/* Wait for all of them: the receive buffer is then complete. */
dg_status dg_exchange_end(dg_exchange *x) DG_NODISCARD;

#endif

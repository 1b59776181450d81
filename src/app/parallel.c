/* MPI for a run: every rank reads the whole mesh; rank 0 partitions it with Scotch and
 * broadcasts the owners; each rank keeps its part plus ghost copies of its neighbours'
 * elements and exchanges their face traces every RK stage. On one process (MPI not
 * initialised) every function here is the identity. Every MPI call is checked (DG_MPI). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/run_state.h"
#include "core/alloc.h"
#include "part/part.h"

dg_status run_mpi_init(run_state *s) {
  int mpi = 0;
  s->rank = 0;
  s->size = 1;
  DG_MPI(MPI_Initialized(&mpi));
  if (!mpi) return DG_OK;
  DG_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &s->rank));
  DG_MPI(MPI_Comm_size(MPI_COMM_WORLD, &s->size));
  return DG_OK;
}

/* x op= the other ranks' x, in place (one value). */
static dg_status reduce(const run_state *s, void *x, MPI_Datatype type, MPI_Op op) {
  if (s->size > 1) DG_MPI(MPI_Allreduce(MPI_IN_PLACE, x, 1, type, op, MPI_COMM_WORLD));
  return DG_OK;
}

dg_status run_sum(const run_state *s, double *x) { return reduce(s, x, MPI_DOUBLE, MPI_SUM); }
dg_status run_min(const run_state *s, double *x) { return reduce(s, x, MPI_DOUBLE, MPI_MIN); }
dg_status run_max(const run_state *s, double *x) { return reduce(s, x, MPI_DOUBLE, MPI_MAX); }
dg_status run_any(const run_state *s, int *flag) { return reduce(s, flag, MPI_INT, MPI_MAX); }

dg_status run_barrier(const run_state *s) {
  if (s->size > 1) DG_MPI(MPI_Barrier(MPI_COMM_WORLD));
  return DG_OK;
}

dg_status run_gather_sum(const run_state *s, double *x, int n) {
  if (s->size > 1)
    DG_MPI(MPI_Reduce(s->rank == 0 ? MPI_IN_PLACE : x, x, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD));
  return DG_OK;
}

/* Rank 0's status on every rank: rank 0 returns its own error, the others one naming it. */
dg_status run_share_status(const run_state *s, dg_status st, const char *what) {
  if (s->size == 1) return st;
  int ok = st == DG_OK;
  DG_MPI(MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD));
  if (ok) return DG_OK;
  return s->rank == 0 ? st : DG_ERROR(DG_ERR_INTERNAL, "rank 0 failed: %s", what);
}

dg_status run_bcast(const run_state *s, void *buf, int bytes) {
  if (s->size > 1) DG_MPI(MPI_Bcast(buf, bytes, MPI_BYTE, 0, MPI_COMM_WORLD));
  return DG_OK;
}

/* A per-rank file name: NAME.EXT -> NAME_rR.EXT when running on several ranks. */
void run_rank_path(const run_state *s, const char *path, char *buf, size_t cap) {
  const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
  if (s->size == 1 || !dot || (slash && dot < slash)) {
    snprintf(buf, cap, "%s", path);
    return;
  }
  snprintf(buf, cap, "%.*s_r%d%s", (int)(dot - path), path, s->rank, dot);
}

dg_status run_distribute(run_state *s, dg_run_result *r, const int *level, int n_levels) {
  const int K = s->global->K;
  DG_CHECK(s->size <= K, DG_ERR_INPUT, "%d ranks for a mesh of %d elements", s->size, K);
  DG_CALL(DG_ALLOC(s->part, K));
  dg_partition_stats stats;
  memset(&stats, 0, sizeof stats);
  dg_status st = DG_OK;
  double *weight = NULL;
  if (s->rank == 0 && level) { /* element evaluations per macro step: 2^(L-1-l) */
    st = DG_ALLOC(weight, K);
    for (int k = 0; st == DG_OK && k < K; ++k) weight[k] = ldexp(1.0, n_levels - 1 - level[k]);
  }
  if (s->rank == 0 && st == DG_OK) st = dg_partition(s->global, s->size, weight, s->part, &stats);
  dg_free(&weight);
  st = run_share_status(s, st, "partitioning");
  if (st == DG_OK && s->rank == 0) {
    r->imbalance = stats.imbalance;
    r->cut_faces = stats.cut_faces;
  }
  dg_partition_stats_free(&stats);
  DG_CALL(st);
  DG_MPI(MPI_Bcast(s->part, s->global->K, MPI_INT, 0, MPI_COMM_WORLD));
  DG_CALL(dg_dist_mesh_create(&s->dist, s->global, s->size, s->part, s->rank));
  s->mesh = s->dist->mesh;
  s->dist->mesh = NULL; /* run_state owns it now */
  return DG_OK;
}

static dg_status xchg_begin(void *ctx) { return dg_exchange_begin(ctx); }
static dg_status xchg_end(void *ctx) { return dg_exchange_end(ctx); }

/* The exchange buffers and slots, once the order and the value size are known. */
dg_status run_trace_exchange(run_state *s, size_t value_bytes, dg_trace_exchange *h) {
  const dg_refel *ref = s->ref;
  s->dist->mesh = s->mesh; /* dg_dist_slots reads K from it */
  const dg_status st = dg_dist_slots(s->dist, ref->Np, ref->Nfp, ref->Fmask, &s->send_slot, &s->recv_slot);
  s->dist->mesh = NULL;
  DG_CALL(st);
  DG_CALL(dg_exchange_create(&s->xchg, s->dist, ref->Nfp, value_bytes, MPI_COMM_WORLD));
  *h = (dg_trace_exchange){s->xchg->n, s->send_slot, s->recv_slot, s->xchg->send, s->xchg->recv,
                           xchg_begin, xchg_end, s->xchg};
  return DG_OK;
}

/* Ranks on one node take its devices round-robin by their rank on the node; spec is left
 * empty on one process or when the user named a device. */
dg_status run_node_device(const run_state *s, char *spec, size_t cap) {
  spec[0] = '\0';
  if (s->c->device[0] || dg_device_env() || s->size == 1) return DG_OK;
  MPI_Comm node;
  int local = 0, count = 0;
  dg_device_info *list = NULL;
  DG_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, s->rank, MPI_INFO_NULL, &node));
  const int rc = MPI_Comm_rank(node, &local);
  DG_MPI(MPI_Comm_free(&node));
  DG_MPI(rc);
  DG_CALL(dg_device_list(&list, &count));
  if (count > 0) snprintf(spec, cap, "%d:%d", list[local % count].P, list[local % count].D);
  dg_free(&list);
  return DG_OK;
}

static dg_status comm_share_status(void *ctx, dg_status st, const char *what) {
  return run_share_status(ctx, st, what);
}
static dg_status comm_bcast(void *ctx, void *buf, int bytes) { return run_bcast(ctx, buf, bytes); }
static dg_status comm_trace_exchange(void *ctx, size_t value_bytes, dg_trace_exchange *h) {
  return run_trace_exchange(ctx, value_bytes, h);
}
static dg_status comm_node_device(void *ctx, char *spec, size_t cap) {
  return run_node_device(ctx, spec, cap);
}

void run_solver_comm(run_state *s, dg_solver_comm *comm) {
  *comm = (dg_solver_comm){.rank = s->rank, .size = s->size, .ctx = s,
                           .share_status = comm_share_status, .bcast = comm_bcast,
                           .trace_exchange = comm_trace_exchange,
                           .node_device = comm_node_device};
}

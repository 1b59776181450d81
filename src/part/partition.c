/* Element partitioning with Scotch, and partition statistics.
 *
 * The dual graph has one vertex per element and one edge per interior face, so Scotch's
 * edge cut is the number of faces whose traces cross ranks. Every rank runs this on the
 * whole mesh and must get the same answer: Scotch runs in its own context with a private
 * random generator seeded with DG_PARTITION_SEED, the deterministic option set and a
 * single thread (multi-threaded runs may differ with the thread count, which can differ
 * between nodes).
 *
 * Very large meshes (PT-Scotch). Here every rank holds the whole mesh and the whole dual
 * graph, which is fine up to a few million elements. Beyond that, each rank would read a
 * contiguous slice of the elements (K/P of them, by file offset), find the face neighbours
 * of its slice (face keys sent to the rank that owns each key's hash, matched there and
 * sent back, the distributed analogue of dg_mesh_connect), and build its slice of the
 * graph as a SCOTCH_Dgraph: SCOTCH_dgraphInit(&g, comm), SCOTCH_dgraphBuild with local
 * vertex count, local CSR and global neighbour indices, SCOTCH_dgraphCheck, then
 * SCOTCH_dgraphPart(&g, P, &strat, partloc) giving the part of each local element. The
 * elements (vertices, tags, neighbour ids) then move to their owner with one
 * MPI_Alltoallv, after which dg_submesh-style renumbering and the halo lists are built
 * from local data only (the halo key (min global element, its face) needs only global
 * element ids, which travel with the elements). Link with -lptscotch -lptscotcherr and
 * include <ptscotch.h> after <mpi.h>; determinism then also needs the same number of
 * ranks, since the distribution of the graph changes the coarsening. Past 2^31 graph arcs
 * SCOTCH_Num must be 64-bit (Debian ships such builds under scotch-int64/). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <scotch.h>

#include "core/alloc.h"
#include "part/part.h"
#include "part/scotch_check.h"

static dg_status check_mesh(const dg_mesh *m) {
  DG_CHECK(m != NULL, DG_ERR_INTERNAL, "no mesh");
  DG_CHECK(m->K == 0 || (m->EToE && m->EToF && m->face_tag), DG_ERR_INTERNAL,
           "mesh is not connected (dg_mesh_connect has not run)");
  return DG_OK;
}

static dg_status check_weights(const dg_mesh *m, const double *w) {
  if (!w) return DG_OK;
  for (int k = 0; k < m->K; k++)
    DG_CHECK(isfinite(w[k]) && w[k] > 0.0, DG_ERR_INPUT,
             "element %d has weight %g; partition weights must be positive and finite", k + 1,
             w[k]);
  return DG_OK;
}

void dg_partition_stats_free(dg_partition_stats *stats) {
  if (!stats) return;
  dg_free(&stats->count);
  dg_free(&stats->weight);
  memset(stats, 0, sizeof *stats);
}

dg_status dg_partition_measure(const dg_mesh *m, int nparts, const int *part,
                               const double *elem_weight, dg_partition_stats *stats) {
  DG_CALL(check_mesh(m));
  DG_CHECK(nparts >= 1, DG_ERR_INPUT, "number of parts must be at least 1, not %d", nparts);
  DG_CHECK(part != NULL && stats != NULL, DG_ERR_INTERNAL, "dg_partition_measure: no arrays");
  DG_CALL(check_weights(m, elem_weight));
  dg_status st = DG_OK;
  dg_partition_stats s = {.nparts = nparts};
  DG_CALL_GOTO(fail, DG_ALLOC(s.count, nparts));
  DG_CALL_GOTO(fail, DG_ALLOC(s.weight, nparts));
  double total = 0.0;
  for (int k = 0; k < m->K; k++) {
    const int p = part[k];
    DG_CHECK_GOTO(fail, p >= 0 && p < nparts, DG_ERR_INTERNAL,
                  "element %d is in part %d, outside [0, %d)", k + 1, p, nparts);
    const double w = elem_weight ? elem_weight[k] : 1.0;
    s.count[p]++;
    s.weight[p] += w;
    total += w;
    for (int f = 0; f < 4; f++) {
      const int nb = m->EToE[4 * (size_t)k + f];
      /* each interior face is seen from both sides: count it from the lower index (a
       * boundary face points to k itself) */
      if (nb <= k) continue;
      s.interior_faces++;
      if (part[nb] != p) s.cut_faces++;
    }
  }
  double wmax = 0.0;
  for (int p = 0; p < nparts; p++) wmax = fmax(wmax, s.weight[p]);
  s.imbalance = total > 0.0 ? wmax / (total / nparts) : 1.0;
  *stats = s;
  return DG_OK;
fail:
  dg_partition_stats_free(&s);
  return st;
}

/* Dual graph in CSR: element k's neighbours are adj[xadj[k] .. xadj[k+1]-1]. */
static dg_status dual_graph(const dg_mesh *m, SCOTCH_Num **xadj_out, SCOTCH_Num **adj_out) {
  dg_status st = DG_OK;
  SCOTCH_Num *xadj = NULL, *adj = NULL;
  DG_CALL_GOTO(fail, DG_ALLOC(xadj, (size_t)m->K + 1));
  for (int k = 0; k < m->K; k++) {
    int deg = 0;
    for (int f = 0; f < 4; f++) deg += m->EToE[4 * (size_t)k + f] != k;
    xadj[k + 1] = xadj[k] + deg;
  }
  DG_CALL_GOTO(fail, DG_ALLOC(adj, (size_t)xadj[m->K]));
  for (int k = 0; k < m->K; k++) {
    SCOTCH_Num e = xadj[k];
    for (int f = 0; f < 4; f++) {
      const int nb = m->EToE[4 * (size_t)k + f];
      if (nb != k) adj[e++] = nb;
    }
  }
  *xadj_out = xadj;
  *adj_out = adj;
  return DG_OK;
fail:
  dg_free(&xadj);
  dg_free(&adj);
  return st;
}

/* Scotch wants integer vertex loads: scale so the heaviest element weighs up to 1000
 * (0.1% resolution), less if the total could overflow SCOTCH_Num. */
static dg_status scotch_loads(const dg_mesh *m, const double *w, SCOTCH_Num **out) {
  double wmax = 0.0;
  for (int k = 0; k < m->K; k++) wmax = fmax(wmax, w[k]);
  const double scale = fmin(1000.0, (double)SCOTCH_NUMMAX / (2.0 * m->K));
  DG_CHECK(scale >= 1.0, DG_ERR_UNSUPPORTED,
           "%d elements are too many for weighted partitioning with %zu-byte Scotch integers",
           m->K, sizeof(SCOTCH_Num));
  SCOTCH_Num *load = NULL;
  DG_CALL(DG_ALLOC(load, m->K));
  for (int k = 0; k < m->K; k++) {
    const double v = round(w[k] / wmax * scale);
    load[k] = v < 1.0 ? 1 : (SCOTCH_Num)v;
  }
  *out = load;
  return DG_OK;
}

/* Runs Scotch on the dual graph; part[] receives the result. */
static dg_status scotch_partition(const dg_mesh *m, int nparts, const double *elem_weight,
                                  int *part) {
  dg_status st = DG_OK;
  SCOTCH_Num *xadj = NULL, *adj = NULL, *load = NULL, *parttab = NULL;
  SCOTCH_Context ctx;
  SCOTCH_Graph graph, cgraph;
  SCOTCH_Strat strat;
  int have_ctx = 0, have_graph = 0, have_cgraph = 0, have_strat = 0;

  DG_CALL_GOTO(done, dual_graph(m, &xadj, &adj));
  if (elem_weight) DG_CALL_GOTO(done, scotch_loads(m, elem_weight, &load));
  DG_CALL_GOTO(done, DG_ALLOC(parttab, m->K));

  DG_SCOTCH_GOTO(done, SCOTCH_contextInit(&ctx));
  have_ctx = 1;
  /* A private copy of the random generator, so the seed neither depends on nor disturbs
   * any other Scotch user in the process. */
  DG_SCOTCH_GOTO(done, SCOTCH_contextRandomClone(&ctx));
  SCOTCH_contextRandomSeed(&ctx, DG_PARTITION_SEED);
  DG_SCOTCH_GOTO(done, SCOTCH_contextOptionSetNum(&ctx, SCOTCH_OPTIONNUMDETERMINISTIC, 1));
  DG_SCOTCH_GOTO(done, SCOTCH_contextOptionSetNum(&ctx, SCOTCH_OPTIONNUMRANDOMFIXEDSEED, 1));
  DG_SCOTCH_GOTO(done, SCOTCH_contextThreadSpawn(&ctx, 1, NULL));

  DG_SCOTCH_GOTO(done, SCOTCH_graphInit(&graph));
  have_graph = 1;
  DG_SCOTCH_GOTO(done, SCOTCH_graphBuild(&graph, 0, (SCOTCH_Num)m->K, xadj, NULL, load, NULL,
                                         xadj[m->K], adj, NULL));
  DG_SCOTCH_GOTO(done, SCOTCH_graphCheck(&graph));
  DG_SCOTCH_GOTO(done, SCOTCH_graphInit(&cgraph));
  have_cgraph = 1;
  DG_SCOTCH_GOTO(done, SCOTCH_contextBindGraph(&ctx, &graph, &cgraph));
  DG_SCOTCH_GOTO(done, SCOTCH_stratInit(&strat));
  have_strat = 1;
  DG_SCOTCH_GOTO(done, SCOTCH_graphPart(&cgraph, (SCOTCH_Num)nparts, &strat, parttab));

  for (int k = 0; k < m->K; k++) {
    DG_CHECK_GOTO(done, parttab[k] >= 0 && parttab[k] < nparts, DG_ERR_INTERNAL,
                  "SCOTCH_graphPart put element %d in part %ld of %d", k + 1,
                  (long)parttab[k], nparts);
    part[k] = (int)parttab[k];
  }
done:
  /* Scotch's order: strategy, then the context-bound graph before its graph and context. */
  if (have_strat) SCOTCH_stratExit(&strat);
  if (have_cgraph) SCOTCH_graphExit(&cgraph);
  if (have_graph) SCOTCH_graphExit(&graph);
  if (have_ctx) SCOTCH_contextExit(&ctx);
  dg_free(&xadj);
  dg_free(&adj);
  dg_free(&load);
  dg_free(&parttab);
  return st;
}

dg_status dg_partition(const dg_mesh *m, int nparts, const double *elem_weight, int *part,
                       dg_partition_stats *stats) {
  DG_CALL(check_mesh(m));
  DG_CHECK(part != NULL, DG_ERR_INTERNAL, "dg_partition: no output array");
  DG_CHECK(nparts >= 1, DG_ERR_INPUT, "number of parts must be at least 1, not %d", nparts);
  DG_CHECK(nparts <= m->K, DG_ERR_INPUT,
           "cannot split a mesh of %d elements into %d parts (each part needs an element)",
           m->K, nparts);
  DG_CALL(check_weights(m, elem_weight));
  if (nparts == 1)
    memset(part, 0, sizeof *part * (size_t)m->K);
  else
    DG_CALL(scotch_partition(m, nparts, elem_weight, part));

  dg_partition_stats s = {0};
  DG_CALL(dg_partition_measure(m, nparts, part, elem_weight, &s));
  int empty = -1;
  for (int p = 0; p < nparts && empty < 0; p++)
    if (s.count[p] == 0) empty = p;
  if (empty >= 0 || !stats) dg_partition_stats_free(&s);
  DG_CHECK(empty < 0, DG_ERR_INPUT,
           "Scotch left part %d of %d empty (%d elements); use fewer ranks for this mesh",
           empty, nparts, m->K);
  if (stats) *stats = s;
  return DG_OK;
}

/* Splitting a mesh over P ranks (see docs/METHOD.md): a Scotch partition of the element
 * dual graph, the part of the mesh each rank owns as a self-contained dg_mesh, and the halo
 * description the trace exchange needs. Plain C on arrays, no MPI: one process can build
 * every part, which is how the tests check that both sides of each shared face agree.
 *
 * Intended use on P ranks: every rank reads the whole mesh, calls dg_partition() (which is
 * deterministic, so every rank gets the same answer without communicating) and then
 * dg_submesh_create() for its own rank. Rank p sends, for each neighbour nbr[i] and each
 * of its shared faces in halo order, the Nfp trace values of its own face in its own Fmask
 * order; the receiver reorders them with dg_halo_node_perm(). */
#ifndef DG_PART_PART_H
#define DG_PART_PART_H

#include "core/status.h"
#include "mesh/mesh.h"

/* face_tag of a face whose neighbour element lives in another part. Such faces point to
 * themselves in EToE/EToF, like boundary faces, so single-rank code (dg_geom) sees a
 * closed mesh; the halo lists say where their exterior values come from. */
enum { DG_FACE_SHARED = -2 };

/* Seed for Scotch's random generator: a fixed value so that every rank computes the
 * same partition. */
enum { DG_PARTITION_SEED = 1 };

typedef struct {
  int nparts;
  int *count;         /* nparts: elements in each part */
  double *weight;     /* nparts: summed element weight of each part (= count when unweighted) */
  double imbalance;   /* max part weight / mean part weight; 1 is perfect balance */
  int interior_faces; /* faces shared by two elements */
  int cut_faces;      /* interior faces whose two elements are in different parts */
} dg_partition_stats;

/* Partition the K elements of a connected mesh into nparts parts: part[k] in [0, nparts).
 * elem_weight (K values > 0, NULL = all 1) is the relative cost of each element. Scotch
 * runs on the dual graph (vertices = elements, edges = interior faces) with its default
 * strategy, a private random generator with a fixed seed and a single thread, so the
 * result depends only on the mesh, nparts and the weights. nparts = 1 does not call
 * Scotch. Every part gets at least one element, or this fails. stats (may be NULL) is
 * filled as by dg_partition_measure() (overwritten, not freed); release it with
 * dg_partition_stats_free(). */
dg_status dg_partition(const dg_mesh *m, int nparts, const double *elem_weight, int *part,
                       dg_partition_stats *stats) DG_NODISCARD;

/* Statistics of any partition (part[k] in [0, nparts)); weights as for dg_partition().
 * *stats is overwritten: free an earlier result first. */
dg_status dg_partition_measure(const dg_mesh *m, int nparts, const int *part,
                               const double *elem_weight, dg_partition_stats *stats) DG_NODISCARD;
void dg_partition_stats_free(dg_partition_stats *stats);

/* Faces that part `part` shares with other parts, grouped by neighbour part (ascending).
 * Within one neighbour q the faces are ordered by (g, f), where g is the smaller of the two
 * global element indices on the face and f is g's local face. Both sides compute the same
 * key, so entry i of p's list for q and entry i of q's list for p are the same face: p's
 * send list to q is q's receive list from p, entry for entry. */
typedef struct {
  int part;         /* this part */
  int nnbr;         /* number of neighbour parts */
  int *nbr;         /* nnbr: their ids, ascending */
  int *nbr_nface;   /* nnbr: number of faces shared with each */
  int *nbr_start;   /* nnbr+1: neighbour i's faces are entries nbr_start[i] .. nbr_start[i+1]-1 */
  int nface;        /* all shared faces, nbr_start[nnbr] */
  int *elem;        /* nface: local element */
  int *face;        /* nface: its local face (0..3) */
  int *remote_elem; /* nface: global index of the element on the other side */
  int *remote_face; /* nface: that element's local face */
  /* 3*nface: the remote face's vertices as local vertex indices of this part, in the order
   * dg_face_vertices[remote_face] takes them from the remote element. The face's vertices
   * are this part's too, so the remote face's node positions (and thus the node
   * permutation) can be computed here without the remote element. */
  int *remote_vert;
} dg_halo;

/* The elements of one part as a self-contained mesh. */
typedef struct {
  int part, nparts;
  /* Elements in ascending global index, vertices renumbered in ascending global index;
   * elem_tag, phys and boundary face_tags copied; EToE/EToF/face_tag give the local
   * connectivity, with faces shared with other parts marked DG_FACE_SHARED. */
  dg_mesh *mesh;
  int *elem_l2g; /* mesh->K: global index of each local element */
  int *vert_l2g; /* mesh->Nv: global index of each local vertex */
  dg_halo halo;
} dg_submesh;

/* The part p of a connected mesh m partitioned by part[] into nparts parts. m need not
 * outlive the result. A part with no elements gives an empty mesh (K = 0). */
dg_status dg_submesh_create(dg_submesh **out, const dg_mesh *m, int nparts, const int *part,
                            int p) DG_NODISCARD;
void dg_submesh_destroy(dg_submesh **s);

/* Node permutation for receiving traces at order N. Inputs come from the reference element
 * (dg_refel's Np, Nfp, r, s, t and Fmask), passed as arrays so this module stays below
 * refel/. For each halo entry i and each node j of this part's face (in Fmask order of
 * halo.face[i]), perm[i*Nfp + j] is the index, in the remote element's Fmask order of
 * halo.remote_face[i], of the node at the same physical point. If buf holds the Nfp values
 * the neighbour sent for entry i (in its own Fmask order), the exterior value at local face
 * node j is buf[perm[i*Nfp + j]]. Nodes match when closer than 1e-7 times the element's
 * longest edge; a node without exactly one partner is a DG_ERR_MESH error.
 * perm has halo.nface * Nfp entries. */
dg_status dg_halo_node_perm(const dg_submesh *sub, int Np, int Nfp, const double *r,
                            const double *s, const double *t, const int *Fmask,
                            int *perm) DG_NODISCARD;

#endif

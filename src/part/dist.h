/* The mesh one MPI rank computes on: its own elements (as dg_submesh orders them) followed
 * by ghost copies of the neighbouring ranks' elements across shared faces, with the lists
 * that say which face traces to send and where received ones go.
 *
 * A ghost is an exact copy of the remote element (same vertex order), so the Nfp trace
 * values the owner sends for its face f in Fmask[f] order land on the ghost's face f nodes
 * in the same order: no node permutation is needed, and dg_geom's node matching connects
 * the owned face to the ghost face like any interior face. Only the ghosts' face traces
 * are ever filled (by the exchange, before each surface evaluation); their other values
 * are scratch. Energies, errors and output use elements 0..mesh->K_owned-1 only. */
#ifndef DG_PART_DIST_H
#define DG_PART_DIST_H

#include "core/status.h"
#include "mesh/mesh.h"
#include "part/part.h"

typedef struct {
  dg_mesh *mesh;     /* K = K_owned + ghosts */
  int *l2g;          /* K: global element index of each local element */
  int nnbr;          /* neighbour ranks */
  int *nbr;          /* nnbr: their ids, ascending */
  int *nbr_start;    /* nnbr+1: shared faces of neighbour i are nbr_start[i]..nbr_start[i+1]-1 */
  int nface;         /* shared faces */
  int *send_elem, *send_face; /* nface: the owned element and face whose trace is sent */
  int *recv_elem, *recv_face; /* nface: the ghost element and face the received trace fills */
} dg_dist_mesh;

/* Rank `rank` of nparts, given the whole mesh and a partition of it. */
dg_status dg_dist_mesh_create(dg_dist_mesh **out, const dg_mesh *global, int nparts,
                              const int *part, int rank) DG_NODISCARD;
void dg_dist_mesh_destroy(dg_dist_mesh **d);

/* Exchange slots for order N: with q in the layout of dg/maxwell.h (6 fields of K*Np),
 * send_slot[b] is the index in q of the b-th value to send and recv_slot[b] where the b-th
 * received value goes. Per neighbour i the message holds 6 * nface_i * Nfp values, ordered
 * field, face (halo order), face node (Fmask order); neighbour i's message starts at
 * 6 * nbr_start[i] * Nfp. Both arrays hold 6 * nface * Nfp entries (caller frees). */
dg_status dg_dist_slots(const dg_dist_mesh *d, int Np, int Nfp, const int *Fmask,
                        int **send_slot, int **recv_slot) DG_NODISCARD;

#endif

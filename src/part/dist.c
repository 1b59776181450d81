#include "part/dist.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

void dg_dist_mesh_destroy(dg_dist_mesh **pd) {
  dg_dist_mesh *d = *pd;
  if (!d) return;
  dg_mesh_destroy(&d->mesh);
  DG_FREE_ALL(&d->l2g, &d->nbr, &d->nbr_start, &d->send_elem, &d->send_face, &d->recv_elem,
              &d->recv_face);
  dg_free(pd);
}

static int cmp_int(const void *a, const void *b) {
  const int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

dg_status dg_dist_mesh_create(dg_dist_mesh **out, const dg_mesh *global, int nparts,
                              const int *part, int rank) {
  dg_status st = DG_OK;
  dg_submesh *sub = NULL;
  dg_dist_mesh *d = NULL;
  int *ghosts = NULL, *vmap = NULL;
  *out = NULL;
  DG_CALL(dg_submesh_create(&sub, global, nparts, part, rank));
  DG_CALL_GOTO(fail, DG_ALLOC(d, 1));
  const dg_mesh *own = sub->mesh;
  const dg_halo *h = &sub->halo;
  /* The ghosts: the distinct remote elements, in ascending global index. */
  DG_CALL_GOTO(fail, DG_ALLOC(ghosts, h->nface + 1));
  for (int i = 0; i < h->nface; ++i) ghosts[i] = h->remote_elem[i];
  qsort(ghosts, (size_t)h->nface, sizeof *ghosts, cmp_int);
  int G = 0;
  for (int i = 0; i < h->nface; ++i)
    if (i == 0 || ghosts[i] != ghosts[i - 1]) ghosts[G++] = ghosts[i];
  const int Ko = own->K, K = Ko + G;

  /* Vertices: the part's own, then those only ghosts use (global -> local map). */
  DG_CALL_GOTO(fail, DG_ALLOC(vmap, global->Nv + 1));
  for (int v = 0; v < global->Nv; ++v) vmap[v] = -1;
  for (int v = 0; v < own->Nv; ++v) vmap[sub->vert_l2g[v]] = v;
  int Nv = own->Nv;
  for (int g = 0; g < G; ++g)
    for (int c = 0; c < 4; ++c) {
      const int gv = global->EToV[4 * ghosts[g] + c];
      if (vmap[gv] < 0) vmap[gv] = Nv++;
    }
  DG_CALL_GOTO(fail, dg_mesh_alloc(&d->mesh, Nv, K));
  dg_mesh *m = d->mesh;
  m->K_owned = Ko;
  for (int v = 0; v < global->Nv; ++v)
    if (vmap[v] >= 0) {
      m->VX[vmap[v]] = global->VX[v];
      m->VY[vmap[v]] = global->VY[v];
      m->VZ[vmap[v]] = global->VZ[v];
    }
  DG_CALL_GOTO(fail, DG_ALLOC(m->EToE, 4 * (size_t)K));
  DG_CALL_GOTO(fail, DG_ALLOC(m->EToF, 4 * (size_t)K));
  DG_CALL_GOTO(fail, DG_ALLOC(m->face_tag, 4 * (size_t)K));
  DG_CALL_GOTO(fail, DG_ALLOC(d->l2g, K));
  for (int k = 0; k < Ko; ++k) {
    memcpy(m->EToV + 4 * k, own->EToV + 4 * k, 4 * sizeof(int));
    memcpy(m->EToE + 4 * k, own->EToE + 4 * k, 4 * sizeof(int));
    memcpy(m->EToF + 4 * k, own->EToF + 4 * k, 4 * sizeof(int));
    memcpy(m->face_tag + 4 * k, own->face_tag + 4 * k, 4 * sizeof(int));
    m->elem_tag[k] = own->elem_tag[k];
    d->l2g[k] = sub->elem_l2g[k];
  }
  /* Ghosts: copies of the remote elements; their faces point to themselves (their
   * exterior is never used) and are not boundary faces. */
  for (int g = 0; g < G; ++g) {
    const int k = Ko + g, ge = ghosts[g];
    for (int c = 0; c < 4; ++c) {
      m->EToV[4 * k + c] = vmap[global->EToV[4 * ge + c]];
      m->EToE[4 * k + c] = k;
      m->EToF[4 * k + c] = c;
      m->face_tag[4 * k + c] = -1;
    }
    m->elem_tag[k] = global->elem_tag[ge];
    d->l2g[k] = ge;
  }
  if (own->face_period) { /* periodic pairs: the owned faces' (ghosts' faces are unused) */
    DG_CALL_GOTO(fail, DG_ALLOC(m->face_period, 4 * (size_t)K + 1));
    m->n_periods = own->n_periods;
    memcpy(m->period, own->period, sizeof own->period);
    memcpy(m->face_period, own->face_period, 4 * (size_t)Ko);
  }
  DG_CALL_GOTO(fail, dg_mesh_copy_curved(m, global, d->l2g));
  if (own->nphys) {
    DG_CALL_GOTO(fail, DG_ALLOC(m->phys, own->nphys));
    memcpy(m->phys, own->phys, sizeof *m->phys * (size_t)own->nphys);
    m->nphys = own->nphys;
  }
  /* Shared faces become interior faces towards the ghost, and the exchange lists. */
  d->nnbr = h->nnbr;
  d->nface = h->nface;
  DG_CALL_GOTO(fail, DG_ALLOC(d->nbr, h->nnbr + 1));
  DG_CALL_GOTO(fail, DG_ALLOC(d->nbr_start, h->nnbr + 1));
  DG_CALL_GOTO(fail, DG_ALLOC(d->send_elem, h->nface + 1));
  DG_CALL_GOTO(fail, DG_ALLOC(d->send_face, h->nface + 1));
  DG_CALL_GOTO(fail, DG_ALLOC(d->recv_elem, h->nface + 1));
  DG_CALL_GOTO(fail, DG_ALLOC(d->recv_face, h->nface + 1));
  for (int i = 0; i < h->nnbr; ++i) d->nbr[i] = h->nbr[i];
  for (int i = 0; i <= h->nnbr; ++i) d->nbr_start[i] = h->nbr_start[i];
  for (int i = 0; i < h->nface; ++i) {
    const int *at = bsearch(&h->remote_elem[i], ghosts, (size_t)G, sizeof *ghosts, cmp_int);
    DG_CHECK_GOTO(fail, at != NULL, DG_ERR_INTERNAL, "shared face %d: ghost not found", i);
    const int k = h->elem[i], f = h->face[i], gk = Ko + (int)(at - ghosts);
    m->EToE[4 * k + f] = gk;
    m->EToF[4 * k + f] = h->remote_face[i];
    m->face_tag[4 * k + f] = -1;
    d->send_elem[i] = k;
    d->send_face[i] = f;
    d->recv_elem[i] = gk;
    d->recv_face[i] = h->remote_face[i];
  }
  *out = d;
  goto done;
fail:
  dg_dist_mesh_destroy(&d);
done:
  dg_submesh_destroy(&sub);
  dg_free(&ghosts);
  dg_free(&vmap);
  return st;
}

dg_status dg_dist_slots(const dg_dist_mesh *d, int Np, int Nfp, const int *Fmask,
                        int **send_slot, int **recv_slot) {
  const size_t KNp = (size_t)d->mesh->K * Np, n = 6 * (size_t)d->nface * Nfp;
  int *s = NULL, *r = NULL;
  DG_CALL(DG_ALLOC(s, n + 1));
  dg_status st = DG_OK;
  DG_CALL_GOTO(fail, DG_ALLOC(r, n + 1));
  DG_CHECK_GOTO(fail, 6 * KNp < (size_t)1 << 31, DG_ERR_UNSUPPORTED, "mesh part too large for 32-bit slots");
  size_t b = 0;
  for (int i = 0; i < d->nnbr; ++i) {
    const int f0 = d->nbr_start[i], nf = d->nbr_start[i + 1] - f0;
    for (int fld = 0; fld < 6; ++fld)
      for (int e = f0; e < f0 + nf; ++e)
        for (int j = 0; j < Nfp; ++j, ++b) {
          s[b] = (int)(fld * KNp + (size_t)d->send_elem[e] * Np + Fmask[d->send_face[e] * Nfp + j]);
          r[b] = (int)(fld * KNp + (size_t)d->recv_elem[e] * Np + Fmask[d->recv_face[e] * Nfp + j]);
        }
  }
  *send_slot = s;
  *recv_slot = r;
  return DG_OK;
fail:
  dg_free(&s);
  dg_free(&r);
  return st;
}

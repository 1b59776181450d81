/* One part of a partitioned mesh as a self-contained dg_mesh, plus its halo lists. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "part/part.h"

/* A face of this part whose neighbour is in part q, with the key both sides sort by. */
typedef struct {
  int q;      /* neighbour part */
  int g, gf;  /* key: smaller global element on the face, and its local face */
  int lg;     /* global index of the local element */
  int lk, lf; /* local element and face */
  int rg, rf; /* remote global element and its face */
} shared_face;

static int cmp_shared(const void *a, const void *b) {
  const shared_face *x = a, *y = b;
  if (x->q != y->q) return (x->q > y->q) - (x->q < y->q);
  if (x->g != y->g) return (x->g > y->g) - (x->g < y->g);
  return (x->gf > y->gf) - (x->gf < y->gf);
}

static void halo_free(dg_halo *h) {
  DG_FREE_ALL(&h->nbr, &h->nbr_nface, &h->nbr_start, &h->elem, &h->face, &h->remote_elem,
              &h->remote_face, &h->remote_vert);
}

void dg_submesh_destroy(dg_submesh **ps) {
  if (!ps || !*ps) return;
  dg_submesh *s = *ps;
  dg_mesh_destroy(&s->mesh);
  dg_free(&s->elem_l2g);
  dg_free(&s->vert_l2g);
  halo_free(&s->halo);
  dg_free(ps);
}

/* The vertex of face f of element k that lies where global vertex gv, on the face's
 * periodic partner (mesh.h's face_period p), is moved back by the translation; -1 if none. */
static int periodic_partner(const dg_mesh *m, int k, int f, int p, int gv) {
  const double *t = m->period[abs(p) - 1], sgn = p > 0 ? 1 : -1;
  const double h = dg_mesh_longest_edge(m, k);
  for (int a = 0; a < 3; ++a) {
    const int v = m->EToV[4 * (size_t)k + dg_face_vertices[f][a]];
    const double d = fabs(m->VX[v] + sgn * t[0] - m->VX[gv]) +
                     fabs(m->VY[v] + sgn * t[1] - m->VY[gv]) +
                     fabs(m->VZ[v] + sgn * t[2] - m->VZ[gv]);
    if (d <= 1e-6 * h) return v;
  }
  return -1;
}

/* Halo lists from the shared faces (sorted in place). vg2l maps global to local vertices. */
static dg_status build_halo(dg_halo *h, const dg_mesh *m, const int *vg2l, shared_face *sf,
                            int n) {
  qsort(sf, (size_t)n, sizeof *sf, cmp_shared);
  h->nface = n;
  h->nnbr = 0;
  for (int i = 0; i < n; i++) h->nnbr += i == 0 || sf[i].q != sf[i - 1].q;
  DG_CALL(DG_ALLOC(h->nbr, h->nnbr));
  DG_CALL(DG_ALLOC(h->nbr_nface, h->nnbr));
  DG_CALL(DG_ALLOC(h->nbr_start, h->nnbr + 1));
  DG_CALL(DG_ALLOC(h->elem, n));
  DG_CALL(DG_ALLOC(h->face, n));
  DG_CALL(DG_ALLOC(h->remote_elem, n));
  DG_CALL(DG_ALLOC(h->remote_face, n));
  DG_CALL(DG_ALLOC(h->remote_vert, 3 * (size_t)n));
  int nb = -1;
  for (int i = 0; i < n; i++) {
    if (i == 0 || sf[i].q != sf[i - 1].q) {
      nb++;
      h->nbr[nb] = sf[i].q;
      h->nbr_start[nb] = i;
    }
    h->nbr_nface[nb]++;
    h->elem[i] = sf[i].lk;
    h->face[i] = sf[i].lf;
    h->remote_elem[i] = sf[i].rg;
    h->remote_face[i] = sf[i].rf;
    const int per = m->face_period ? m->face_period[4 * (size_t)sf[i].lg + sf[i].lf] : 0;
    for (int c = 0; c < 3; c++) {
      int gv = m->EToV[4 * (size_t)sf[i].rg + dg_face_vertices[sf[i].rf][c]];
      /* Across a periodic pair the remote face is the local one moved by the translation:
       * its vertex c is the local face's vertex at its place moved back (the node order
       * then comes out in this part's frame, halo.c). */
      if (per) gv = periodic_partner(m, sf[i].lg, sf[i].lf, per, gv);
      /* The remote face is also a face of a local element, so its vertices are local. */
      DG_CHECK(gv >= 0 && vg2l[gv] >= 0, DG_ERR_MESH,
               "elements %d and %d are connected through face %d/%d but do not share its "
               "vertices (inconsistent connectivity)", sf[i].lg + 1, sf[i].rg + 1, sf[i].lf,
               sf[i].rf);
      h->remote_vert[3 * (size_t)i + c] = vg2l[gv];
    }
  }
  h->nbr_start[h->nnbr] = n;
  return DG_OK;
}

/* Local connectivity of the part; faces towards other parts are collected in sf. */
static dg_status connect_local(dg_submesh *s, const dg_mesh *m, const int *part,
                               const int *eg2l, shared_face *sf, int *nsf) {
  dg_mesh *sm = s->mesh;
  int n = 0;
  for (int lk = 0; lk < sm->K; lk++) {
    const int g = s->elem_l2g[lk];
    for (int f = 0; f < 4; f++) {
      const size_t gi = 4 * (size_t)g + f, li = 4 * (size_t)lk + f;
      const int nb = m->EToE[gi], nf = m->EToF[gi];
      DG_CHECK(nb >= 0 && nb < m->K && nf >= 0 && nf < 4, DG_ERR_INTERNAL,
               "element %d face %d: neighbour %d face %d out of range", g + 1, f, nb + 1, nf);
      if (nb == g || part[nb] == s->part) {
        sm->EToE[li] = nb == g ? lk : eg2l[nb];
        sm->EToF[li] = nf;
        sm->face_tag[li] = m->face_tag[gi];
        continue;
      }
      sm->EToE[li] = lk;
      sm->EToF[li] = f;
      sm->face_tag[li] = DG_FACE_SHARED;
      shared_face *e = &sf[n++];
      e->q = part[nb];
      e->lg = g;
      e->lk = lk;
      e->lf = f;
      e->rg = nb;
      e->rf = nf;
      /* Both sides name the face by its lower-numbered element, so both get this key. */
      e->g = g < nb ? g : nb;
      e->gf = g < nb ? f : nf;
    }
  }
  *nsf = n;
  return DG_OK;
}

dg_status dg_submesh_create(dg_submesh **out, const dg_mesh *m, int nparts, const int *part,
                            int p) {
  *out = NULL;
  DG_CHECK(m != NULL && part != NULL, DG_ERR_INTERNAL, "dg_submesh_create: no mesh or parts");
  DG_CHECK(m->K == 0 || (m->EToE && m->EToF && m->face_tag), DG_ERR_INTERNAL,
           "mesh is not connected (dg_mesh_connect has not run)");
  DG_CHECK(nparts >= 1 && p >= 0 && p < nparts, DG_ERR_INPUT,
           "part %d does not exist among %d parts", p, nparts);
  for (int k = 0; k < m->K; k++)
    DG_CHECK(part[k] >= 0 && part[k] < nparts, DG_ERR_INTERNAL,
             "element %d is in part %d, outside [0, %d)", k + 1, part[k], nparts);

  dg_status st = DG_OK;
  dg_submesh *s = NULL;
  int *eg2l = NULL, *vg2l = NULL;
  shared_face *sf = NULL;
  DG_CALL(DG_ALLOC(s, 1));
  s->part = p;
  s->nparts = nparts;
  s->halo.part = p;

  /* Elements in ascending global order, so every rank derives the same numbering. */
  int K = 0;
  DG_CALL_GOTO(fail, DG_ALLOC(eg2l, m->K));
  for (int k = 0; k < m->K; k++) eg2l[k] = part[k] == p ? K++ : -1;
  DG_CALL_GOTO(fail, DG_ALLOC(s->elem_l2g, K));
  for (int k = 0; k < m->K; k++)
    if (eg2l[k] >= 0) s->elem_l2g[eg2l[k]] = k;

  /* Vertices used by the part, also in ascending global order. */
  int Nv = 0;
  DG_CALL_GOTO(fail, DG_ALLOC(vg2l, m->Nv));
  for (int k = 0; k < K; k++)
    for (int a = 0; a < 4; a++) vg2l[m->EToV[4 * (size_t)s->elem_l2g[k] + a]] = 1;
  for (int v = 0; v < m->Nv; v++) vg2l[v] = vg2l[v] ? Nv++ : -1;
  DG_CALL_GOTO(fail, DG_ALLOC(s->vert_l2g, Nv));
  for (int v = 0; v < m->Nv; v++)
    if (vg2l[v] >= 0) s->vert_l2g[vg2l[v]] = v;

  DG_CALL_GOTO(fail, dg_mesh_alloc(&s->mesh, Nv, K));
  dg_mesh *sm = s->mesh;
  for (int v = 0; v < Nv; v++) {
    sm->VX[v] = m->VX[s->vert_l2g[v]];
    sm->VY[v] = m->VY[s->vert_l2g[v]];
    sm->VZ[v] = m->VZ[s->vert_l2g[v]];
  }
  for (int k = 0; k < K; k++) {
    const int g = s->elem_l2g[k];
    for (int a = 0; a < 4; a++) sm->EToV[4 * (size_t)k + a] = vg2l[m->EToV[4 * (size_t)g + a]];
    sm->elem_tag[k] = m->elem_tag[g];
  }
  DG_CALL_GOTO(fail, dg_mesh_copy_curved(sm, m, s->elem_l2g));
  /* n_fixed describes how the file was read, not this part: left 0. */
  if (m->nphys > 0) {
    DG_CALL_GOTO(fail, DG_ALLOC(sm->phys, m->nphys));
    memcpy(sm->phys, m->phys, sizeof *sm->phys * (size_t)m->nphys);
    sm->nphys = m->nphys;
  }
  DG_CALL_GOTO(fail, DG_ALLOC(sm->EToE, 4 * (size_t)K));
  DG_CALL_GOTO(fail, DG_ALLOC(sm->EToF, 4 * (size_t)K));
  DG_CALL_GOTO(fail, DG_ALLOC(sm->face_tag, 4 * (size_t)K));
  if (m->face_period) { /* periodic pairs: each face keeps its own, shared faces too */
    DG_CALL_GOTO(fail, DG_ALLOC(sm->face_period, 4 * (size_t)K + 1));
    sm->n_periods = m->n_periods;
    memcpy(sm->period, m->period, sizeof m->period);
    for (int k = 0; k < K; k++)
      for (int f = 0; f < 4; f++)
        sm->face_period[4 * (size_t)k + f] = m->face_period[4 * (size_t)s->elem_l2g[k] + f];
  }

  int nsf = 0;
  DG_CALL_GOTO(fail, DG_ALLOC(sf, 4 * (size_t)K));
  DG_CALL_GOTO(fail, connect_local(s, m, part, eg2l, sf, &nsf));
  DG_CALL_GOTO(fail, build_halo(&s->halo, m, vg2l, sf, nsf));

  DG_FREE_ALL(&eg2l, &vg2l, &sf);
  *out = s;
  return DG_OK;
fail:
  DG_FREE_ALL(&eg2l, &vg2l, &sf);
  dg_submesh_destroy(&s);
  return st;
}

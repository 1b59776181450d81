/* Halo lists of every pair of parts match entry for entry on the same physical faces, node permutations land on the same points for N = 1..4, and one part is the whole mesh with no halo. */
#include "test_util.h"

#include "dg/geom.h"
#include "mesh/mesh.h"
#include "part/part.h"
#include "refel/refel.h"

typedef struct {
  dg_mesh *m;
  int P;
  int *part;
  dg_submesh **sub;
} split;

static void split_create(split *sp, dg_mesh *m, int P) {
  sp->m = m;
  sp->P = P;
  sp->part = calloc((size_t)m->K, sizeof *sp->part);
  sp->sub = calloc((size_t)P, sizeof *sp->sub);
  assert_non_null(sp->part);
  assert_non_null(sp->sub);
  assert_dg_ok(dg_partition(m, P, NULL, sp->part, NULL));
  for (int p = 0; p < P; p++) assert_dg_ok(dg_submesh_create(&sp->sub[p], m, P, sp->part, p));
}

static void split_destroy(split *sp) {
  for (int p = 0; p < sp->P; p++) dg_submesh_destroy(&sp->sub[p]);
  free(sp->sub);
  free(sp->part);
}

/* Index of part q among p's neighbours, or -1. */
static int nbr_index(const dg_halo *h, int q) {
  for (int i = 0; i < h->nnbr; i++)
    if (h->nbr[i] == q) return i;
  return -1;
}

/* The 3 vertex coordinates of local face f of local element k, sorted (as a set). */
static void face_coords(const dg_mesh *m, int k, int f, double c[3][3]) {
  for (int j = 0; j < 3; j++) {
    const int v = m->EToV[4 * k + dg_face_vertices[f][j]];
    c[j][0] = m->VX[v];
    c[j][1] = m->VY[v];
    c[j][2] = m->VZ[v];
  }
  for (int a = 0; a < 3; a++)
    for (int b = a + 1; b < 3; b++)
      if (c[b][0] < c[a][0] || (c[b][0] == c[a][0] && (c[b][1] < c[a][1] ||
                                                       (c[b][1] == c[a][1] && c[b][2] < c[a][2])))) {
        for (int d = 0; d < 3; d++) {
          const double t = c[a][d];
          c[a][d] = c[b][d];
          c[b][d] = t;
        }
      }
}

/* Local connectivity: interior faces pair up, shared faces point to themselves and are
 * exactly the halo's faces, boundary faces keep the global tag. */
static void check_local_mesh(const split *sp, int p) {
  const dg_submesh *s = sp->sub[p];
  const dg_mesh *sm = s->mesh, *m = sp->m;
  int nshared = 0;
  for (int k = 0; k < sm->K; k++)
    for (int f = 0; f < 4; f++) {
      const int nb = sm->EToE[4 * k + f], nf = sm->EToF[4 * k + f], tag = sm->face_tag[4 * k + f];
      const int g = s->elem_l2g[k], gnb = m->EToE[4 * g + f];
      if (tag == DG_FACE_SHARED) {
        nshared++;
        assert_int_equal(nb, k);
        assert_int_equal(nf, f);
        assert_true(sp->part[gnb] != p);
      } else if (nb == k) {
        assert_int_equal(gnb, g); /* a true boundary face */
        assert_int_equal(tag, m->face_tag[4 * g + f]);
      } else {
        assert_int_equal(tag, -1);
        assert_int_equal(s->elem_l2g[nb], gnb);
        assert_int_equal(sm->EToE[4 * nb + nf], k);
        assert_int_equal(sm->EToF[4 * nb + nf], f);
      }
    }
  assert_int_equal(nshared, s->halo.nface);
  for (int i = 0; i < s->halo.nface; i++)
    assert_int_equal(sm->face_tag[4 * s->halo.elem[i] + s->halo.face[i]], DG_FACE_SHARED);
  /* local vertices are the global ones, renumbered */
  for (int v = 0; v < sm->Nv; v++) {
    assert_near(sm->VX[v], m->VX[s->vert_l2g[v]], 0.0);
    assert_near(sm->VY[v], m->VY[s->vert_l2g[v]], 0.0);
    assert_near(sm->VZ[v], m->VZ[s->vert_l2g[v]], 0.0);
  }
  for (int k = 0; k < sm->K; k++) {
    assert_int_equal(sm->elem_tag[k], m->elem_tag[s->elem_l2g[k]]);
    for (int a = 0; a < 4; a++)
      assert_int_equal(s->vert_l2g[sm->EToV[4 * k + a]], m->EToV[4 * s->elem_l2g[k] + a]);
  }
}

/* p's list for q and q's list for p: same length, same faces in the same order. */
static void check_pair(const split *sp, int p, int q, int *total) {
  const dg_submesh *sp_ = sp->sub[p], *sq = sp->sub[q];
  const dg_halo *hp = &sp_->halo, *hq = &sq->halo;
  const int ip = nbr_index(hp, q), iq = nbr_index(hq, p);
  assert_true((ip < 0) == (iq < 0)); /* neighbours of each other, or neither */
  if (ip < 0) return;
  assert_int_equal(hp->nbr_nface[ip], hq->nbr_nface[iq]);
  assert_true(hp->nbr_nface[ip] > 0);
  assert_int_equal(hp->nbr_start[ip + 1] - hp->nbr_start[ip], hp->nbr_nface[ip]);
  for (int i = 0; i < hp->nbr_nface[ip]; i++) {
    const int a = hp->nbr_start[ip] + i, b = hq->nbr_start[iq] + i;
    double cp[3][3], cq[3][3];
    face_coords(sp_->mesh, hp->elem[a], hp->face[a], cp);
    face_coords(sq->mesh, hq->elem[b], hq->face[b], cq);
    for (int j = 0; j < 3; j++)
      for (int d = 0; d < 3; d++) assert_near(cp[j][d], cq[j][d], 0.0);
    /* each side names the other's element and face */
    assert_int_equal(hp->remote_elem[a], sq->elem_l2g[hq->elem[b]]);
    assert_int_equal(hp->remote_face[a], hq->face[b]);
    assert_int_equal(hq->remote_elem[b], sp_->elem_l2g[hp->elem[a]]);
    assert_int_equal(hq->remote_face[b], hp->face[a]);
    /* remote_vert: q's face vertices in q's order, as p's local vertices */
    for (int c = 0; c < 3; c++) {
      const int vq = sq->mesh->EToV[4 * hq->elem[b] + dg_face_vertices[hq->face[b]][c]];
      assert_int_equal(sp_->vert_l2g[hp->remote_vert[3 * a + c]], sq->vert_l2g[vq]);
    }
  }
  *total += hp->nbr_nface[ip];
}

static void check_split(dg_mesh *m, const char *name, int P) {
  split sp;
  split_create(&sp, m, P);
  dg_partition_stats st = {0};
  assert_dg_ok(dg_partition_measure(m, P, sp.part, NULL, &st));
  int total = 0, nface_sum = 0;
  for (int p = 0; p < P; p++) {
    const dg_halo *h = &sp.sub[p]->halo;
    assert_int_equal(h->part, p);
    assert_int_equal(h->nbr_start[h->nnbr], h->nface);
    for (int i = 1; i < h->nnbr; i++) assert_true(h->nbr[i] > h->nbr[i - 1]);
    assert_int_equal(nbr_index(h, p), -1);
    nface_sum += h->nface;
    check_local_mesh(&sp, p);
    for (int q = 0; q < P; q++)
      if (q != p) check_pair(&sp, p, q, &total);
  }
  /* each cut face appears once on each side */
  assert_int_equal(total, 2 * st.cut_faces);
  assert_int_equal(nface_sum, 2 * st.cut_faces);
  print_message("# %s P=%d: %d cut faces\n", name, P, st.cut_faces);
  dg_partition_stats_free(&st);
  split_destroy(&sp);
}

/* Node permutations: p's perm maps each of its face nodes onto the node of q's face (in q's
 * Fmask order) at the same point, with positions taken from dg_geom on each submesh.
 * Returns how many of the 6 possible vertex permutations the N = 1 faces showed. */
static int check_node_perm(dg_mesh *m, int P) {
  int kinds[3][3][3] = {{{0}}}, nkinds = 0;
  split sp;
  split_create(&sp, m, P);
  for (int N = 1; N <= 4; N++) {
    dg_refel *ref = NULL;
    assert_dg_ok(dg_refel_create(&ref, N));
    const int Np = ref->Np, Nfp = ref->Nfp;
    dg_geom **geo = calloc((size_t)P, sizeof *geo);
    int **perm = calloc((size_t)P, sizeof *perm);
    assert_non_null(geo);
    assert_non_null(perm);
    for (int p = 0; p < P; p++) {
      assert_dg_ok(dg_geom_create(&geo[p], sp.sub[p]->mesh, ref));
      perm[p] = calloc((size_t)sp.sub[p]->halo.nface * Nfp + 1, sizeof *perm[p]);
      assert_non_null(perm[p]);
      assert_dg_ok(dg_halo_node_perm(sp.sub[p], Np, Nfp, ref->r, ref->s, ref->t, ref->Fmask,
                                     perm[p]));
    }
    int checked = 0;
    for (int p = 0; p < P; p++) {
      const dg_halo *hp = &sp.sub[p]->halo;
      for (int ip = 0; ip < hp->nnbr; ip++) {
        const int q = hp->nbr[ip];
        const dg_halo *hq = &sp.sub[q]->halo;
        const int iq = nbr_index(hq, p);
        for (int i = 0; i < hp->nbr_nface[ip]; i++) {
          const int a = hp->nbr_start[ip] + i, b = hq->nbr_start[iq] + i;
          const int kp = hp->elem[a], fp = hp->face[a], kq = hq->elem[b], fq = hq->face[b];
          int hit[64] = {0};
          for (int j = 0; j < Nfp; j++) {
            const int jr = perm[p][a * Nfp + j];
            assert_in_range(jr, 0, Nfp - 1);
            hit[jr]++;
            const int np = kp * Np + ref->Fmask[fp * Nfp + j];
            const int nq = kq * Np + ref->Fmask[fq * Nfp + jr];
            assert_near(geo[p]->x[np], geo[q]->x[nq], 1e-12);
            assert_near(geo[p]->y[np], geo[q]->y[nq], 1e-12);
            assert_near(geo[p]->z[np], geo[q]->z[nq], 1e-12);
            checked++;
          }
          for (int j = 0; j < Nfp; j++) assert_int_equal(hit[j], 1);
          if (N == 1) {
            int *kind = &kinds[perm[p][a * 3]][perm[p][a * 3 + 1]][perm[p][a * 3 + 2]];
            nkinds += *kind == 0;
            *kind = 1;
          }
        }
      }
    }
    assert_true(checked > 0);
    for (int p = 0; p < P; p++) {
      dg_geom_destroy(&geo[p]);
      free(perm[p]);
    }
    free(geo);
    free(perm);
    dg_refel_destroy(&ref);
  }
  split_destroy(&sp);
  return nkinds;
}

static dg_mesh *box(int n) {
  const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_box(&m, lo, hi, n, n, n));
  return m;
}

static void test_box_lists_symmetric(void **state) {
  (void)state;
  dg_mesh *m = box(4);
  for (int P = 2; P <= 4; P++) check_split(m, "box 4x4x4", P);
  dg_mesh_destroy(&m);
}

static void test_unstructured_lists_symmetric(void **state) {
  (void)state;
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read(&m, FIXTURE("box_unstructured_h0.25.msh")));
  for (int P = 2; P <= 4; P++) check_split(m, "box_unstructured_h0.25", P);
  dg_mesh_destroy(&m);
}

static void test_node_perm_box(void **state) {
  (void)state;
  dg_mesh *m = box(3);
  assert_true(check_node_perm(m, 3) >= 2);
  dg_mesh_destroy(&m);
}

/* The unstructured mesh's shared faces come in all 6 relative vertex orders. */
static void test_node_perm_unstructured(void **state) {
  (void)state;
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read(&m, FIXTURE("box_unstructured_h0.25.msh")));
  assert_int_equal(check_node_perm(m, 4), 6);
  dg_mesh_destroy(&m);
}

/* A trace exchange played out on one process: each part sends, per shared face, the
 * values of a global nodal field at its own face nodes in its Fmask order; the receiver
 * places them with its permutation and must get exactly what the global mesh's vmapP
 * reads at the same face nodes. */
static void test_simulated_exchange_matches_global_vmapP(void **state) {
  (void)state;
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read(&m, FIXTURE("box_unstructured_h0.25.msh")));
  const int P = 3, N = 3;
  split sp;
  split_create(&sp, m, P);
  dg_refel *ref = NULL;
  assert_dg_ok(dg_refel_create(&ref, N));
  const int Np = ref->Np, Nfp = ref->Nfp;
  dg_geom *g = NULL;
  assert_dg_ok(dg_geom_create(&g, m, ref));
  /* u at global node (element k, node n) is its global index: any mix-up shows */
  double *u = malloc(sizeof *u * (size_t)m->K * Np);
  assert_non_null(u);
  for (int i = 0; i < m->K * Np; i++) u[i] = i;
  int exchanged = 0;
  for (int p = 0; p < P; p++) {
    const dg_submesh *sub = sp.sub[p];
    const dg_halo *h = &sub->halo;
    int *perm = calloc((size_t)h->nface * Nfp + 1, sizeof *perm);
    double *buf = calloc((size_t)h->nface * Nfp + 1, sizeof *buf);
    assert_non_null(perm);
    assert_non_null(buf);
    assert_dg_ok(dg_halo_node_perm(sub, Np, Nfp, ref->r, ref->s, ref->t, ref->Fmask, perm));
    /* "receive": neighbour q packs its faces for p, in its list order */
    for (int ip = 0; ip < h->nnbr; ip++) {
      const dg_submesh *sq = sp.sub[h->nbr[ip]];
      const dg_halo *hq = &sq->halo;
      const int iq = nbr_index(hq, p);
      for (int i = 0; i < hq->nbr_nface[iq]; i++) {
        const int b = hq->nbr_start[iq] + i, kq = sq->elem_l2g[hq->elem[b]];
        for (int j = 0; j < Nfp; j++)
          buf[(size_t)(h->nbr_start[ip] + i) * Nfp + j] =
              u[kq * Np + ref->Fmask[hq->face[b] * Nfp + j]];
      }
    }
    for (int i = 0; i < h->nface; i++) {
      const int kg = sub->elem_l2g[h->elem[i]], f = h->face[i];
      for (int j = 0; j < Nfp; j++) {
        const double ext = buf[(size_t)i * Nfp + perm[(size_t)i * Nfp + j]];
        assert_near(ext, u[g->vmapP[((size_t)kg * 4 + f) * Nfp + j]], 0.0);
        exchanged++;
      }
    }
    free(perm);
    free(buf);
  }
  assert_true(exchanged > 0);
  free(u);
  dg_geom_destroy(&g);
  dg_refel_destroy(&ref);
  split_destroy(&sp);
  dg_mesh_destroy(&m);
}

/* P = 1: the submesh is the mesh itself and there is nothing to exchange. */
static void test_one_part_is_whole_mesh(void **state) {
  (void)state;
  dg_mesh *m = NULL;
  assert_dg_ok(dg_mesh_read(&m, FIXTURE("box_unstructured_h0.25.msh")));
  int *part = calloc((size_t)m->K, sizeof *part);
  assert_non_null(part);
  assert_dg_ok(dg_partition(m, 1, NULL, part, NULL));
  dg_submesh *s = NULL;
  assert_dg_ok(dg_submesh_create(&s, m, 1, part, 0));
  const dg_mesh *sm = s->mesh;
  assert_int_equal(s->halo.nnbr, 0);
  assert_int_equal(s->halo.nface, 0);
  assert_int_equal(sm->K, m->K);
  assert_int_equal(sm->Nv, m->Nv);
  for (int v = 0; v < m->Nv; v++) {
    assert_int_equal(s->vert_l2g[v], v);
    assert_true(sm->VX[v] == m->VX[v] && sm->VY[v] == m->VY[v] && sm->VZ[v] == m->VZ[v]);
  }
  for (int k = 0; k < m->K; k++) {
    assert_int_equal(s->elem_l2g[k], k);
    assert_int_equal(sm->elem_tag[k], m->elem_tag[k]);
  }
  assert_memory_equal(sm->EToV, m->EToV, sizeof(int) * 4 * (size_t)m->K);
  assert_memory_equal(sm->EToE, m->EToE, sizeof(int) * 4 * (size_t)m->K);
  assert_memory_equal(sm->EToF, m->EToF, sizeof(int) * 4 * (size_t)m->K);
  assert_memory_equal(sm->face_tag, m->face_tag, sizeof(int) * 4 * (size_t)m->K);
  assert_int_equal(sm->nphys, m->nphys);
  assert_int_equal(dg_mesh_phys_tag(sm, 2, "xmin"), dg_mesh_phys_tag(m, 2, "xmin"));
  dg_submesh_destroy(&s);
  free(part);
  dg_mesh_destroy(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_box_lists_symmetric),
      cmocka_unit_test(test_unstructured_lists_symmetric),
      cmocka_unit_test(test_node_perm_box),
      cmocka_unit_test(test_node_perm_unstructured),
      cmocka_unit_test(test_simulated_exchange_matches_global_vmapP),
      cmocka_unit_test(test_one_part_is_whole_mesh),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

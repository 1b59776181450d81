/* term_curved.c: curved (high-order geometry) elements on the OpenCL operator
 * (cl_templates/curved.cl, its names in contract_curved.h; reference:
 * src/dg/maxwell_curved.c). The operator's kernels compute a finite stand-in on them (their
 * element and face data are zero there, term_maxwell.c); once the neighbours' traces are in,
 * `curved` computes their right-hand side with their own metric, normals and mass matrix,
 * one work-group per element, and after the update `curvfix` puts it where the stage's
 * result went; `curvenergy` adds their energy. Its data, from the reference's dg_geom_curved:
 * their slots, face weights (FD per face), w J metric at the volume points (9 x NQ), normal
 * and w sJ at the face points (CQ per point), inverse mass and mass matrices, energy
 * weights (EW), the rules' bases (cL: Lq, Lrq, Lsq, Ltq; cLf), each node's position on each
 * face, and per stage the right-hand side (6 x ncn) and the saved res and q (CS x ncn). */
#include <string.h>

#include "backend/cl_maxwell_impl.h"
#include "contract_curved.h"
#include "core/alloc.h"

typedef struct {
  int nq, nfq, cwg;        /* the rules' points, the work-items per element of `curved` */
  int nc, nc_owned, ncn;   /* curved elements (element order; ghosts last), their nodes */
  cl_mem slot, face, wq, fq, minv, M, ew, L, Lf, fpos, rhs, save;
} curved;

static int present(const dg_cl_terms *t) { return t->curved; }

/* The rules at order N on a map of geometric order k: the points of the volume rule and of
 * the face rule (dg_geom_curved_degrees), as dg_geom_curved has them (geom_curved.c); the
 * work-items per element of curved.cl's kernel. */
static dg_status rule_sizes(int N, int k, int NP, int *nq, int *nfq, int *cwg) {
  double *r = NULL, *s = NULL, *t = NULL, *w = NULL;
  int dv, df, dm;
  dg_geom_curved_degrees(N, k, &dv, &df, &dm);
  dg_status st = dg_cubature_tet(dv, nq, &r, &s, &t, &w);
  DG_FREE_ALL(&r, &s, &t, &w);
  DG_CALL(st);
  st = dg_cubature_tri(df, nfq, &r, &s, &w);
  DG_FREE_ALL(&r, &s, &w);
  DG_CALL(st);
  *cwg = NP < 20 ? 32 : 64;
  return DG_OK;
}

/* Local memory of one curved_* work-group (curved.cl: sq, sjump, scurl, sflux, sacc). */
static size_t local_bytes(int NP, int NFP, int nq, int nfq, size_t rs) {
  return rs * (size_t)(12 * NP + 24 * NFP + 6 * nq + 24 * nfq);
}

/* `dgtd kernels` leaves the curved kernels out where they need more local memory than this
 * (NVIDIA's 48 KiB of static shared memory, the smallest of the GPUs gpu_isa.py compiles
 * for): a run on such a device refuses curved elements there (describe). */
#define DG_CURVED_PORTABLE_LOCAL 49152

/* The rules of the mesh's geometric order, checked against op's device; without a device,
 * those of a second-order mesh (a higher geometric order has more points), left out where
 * they would not fit every GPU profile. */
static dg_status describe(dg_clm_program *p, dg_cl_maxwell *op) {
  if (!op) {
    DG_CALL(rule_sizes(p->N, 2, p->NP, &p->nq, &p->nfq, &p->cwg));
    if (local_bytes(p->NP, p->NFP, p->nq, p->nfq, p->rs) > DG_CURVED_PORTABLE_LOCAL)
      p->terms.curved = 0;
    return DG_OK;
  }
  curved *c = NULL;
  DG_CALL(DG_ALLOC(c, 1));
  op->term[DG_CLM_CURVED] = c;
  DG_CALL(rule_sizes(op->N, op->phys->geom->cv.order, op->NP, &c->nq, &c->nfq, &c->cwg));
  const size_t need = local_bytes(op->NP, op->NFP, c->nq, c->nfq, op->rs);
  DG_CHECK(need <= op->dev->info.local_mem_size, DG_ERR_UNSUPPORTED,
           "curved elements at order %d in %s need %zu bytes of local memory per element "
           "(curved.cl), and '%s' has %llu: use a lower order, float, a mesh of lower "
           "geometric order, or straight-sided elements",
           op->N, op->rs == 8 ? "double" : "float", need, op->dev->info.name,
           (unsigned long long)op->dev->info.local_mem_size);
  p->nq = c->nq, p->nfq = c->nfq, p->cwg = c->cwg;
  return DG_OK;
}

static dg_status define(dg_kernel_spec *s, const dg_variant *v, const dg_clm_program *p) {
  (void)v;
  DG_CALL(dg_kernel_spec_define(s, "NQ", "%d", p->nq));
  DG_CALL(dg_kernel_spec_define(s, "NFQ", "%d", p->nfq));
  DG_CALL(dg_kernel_spec_define(s, "CWG", "%d", p->cwg));
  return DG_OK;
}

static dg_status build_data(dg_cl_maxwell *op, curved *cd) {
  const dg_maxwell *p = op->phys;
  const dg_geom *g = p->geom;
  const dg_geom_curved *cv = &g->cv;
  const int Np = op->NP, Nfp = op->NFP, nc = cd->nc, nq = cv->nq, nfq = cv->nfq;
  dg_status st = DG_OK;
  int *slot = NULL, *fpos = NULL;
  double *face = NULL, *fq = NULL, *ew = NULL, *L = NULL;
  DG_CHECK(nq == cd->nq && nfq == cd->nfq, DG_ERR_INTERNAL,
           "curved rules: %d and %d points, the program was made for %d and %d", nq, nfq, cd->nq,
           cd->nfq);
  DG_CALL_GOTO(done, DG_ALLOC(slot, nc));
  DG_CALL_GOTO(done, DG_ALLOC(face, (size_t)nc * 4 * FD));
  DG_CALL_GOTO(done, DG_ALLOC(fq, (size_t)nc * 4 * nfq * CQ));
  DG_CALL_GOTO(done, DG_ALLOC(ew, (size_t)nc * EW));
  DG_CALL_GOTO(done, DG_ALLOC(L, (size_t)4 * nq * Np));
  DG_CALL_GOTO(done, DG_ALLOC(fpos, (size_t)4 * Np));
  cd->nc_owned = 0;
  for (int k = 0; k < op->K; ++k) {
    const int c = dg_geom_curved_row(g, k);
    if (c < 0) continue;
    slot[c] = dg_clm_slot(op, k);
    if (k < g->mesh->K_owned) ++cd->nc_owned; /* ghosts come after the owned elements */
    for (int f = 0; f < 4; ++f) {
      const double zero[3] = {0, 0, 0};
      dg_clm_face_values(op, k, f, zero, 1, 0, face + ((size_t)c * 4 + f) * FD);
      for (int pt = 0; pt < nfq; ++pt)
        for (int a = 0; a < CQ; ++a) /* dg_geom_curved.Fq: nx, ny, nz, w sJ */
          fq[(((size_t)c * 4 + f) * nfq + pt) * CQ + a] =
              cv->Fq[(((size_t)c * 4 + f) * nfq + pt) * 4 + a];
    }
    ew[(size_t)c * EW + EW_E] = 0.5 * p->eps[k];
    ew[(size_t)c * EW + EW_H] = 0.5 * p->mu[k];
  }
  const double *bases[4] = {cv->Lq, cv->Lrq, cv->Lsq, cv->Ltq};
  for (int b = 0; b < 4; ++b)
    memcpy(L + (size_t)b * nq * Np, bases[b], sizeof(double) * nq * Np);
  for (int i = 0; i < 4 * Np; ++i) fpos[i] = -1;
  for (int f = 0; f < 4; ++f)
    for (int j = 0; j < Nfp; ++j) fpos[f * Np + g->ref->Fmask[f * Nfp + j]] = j;
  const size_t npn2 = (size_t)nc * Np * Np;
  DG_CALL_GOTO(done, dg_clm_upload_ints(op, slot, (size_t)nc, &cd->slot));
  DG_CALL_GOTO(done, dg_clm_upload(op, face, (size_t)nc * 4 * FD, &cd->face));
  DG_CALL_GOTO(done, dg_clm_upload(op, cv->Wq, (size_t)nc * 9 * nq, &cd->wq));
  DG_CALL_GOTO(done, dg_clm_upload(op, fq, (size_t)nc * 4 * nfq * CQ, &cd->fq));
  DG_CALL_GOTO(done, dg_clm_upload(op, cv->Minv, npn2, &cd->minv));
  DG_CALL_GOTO(done, dg_clm_upload(op, cv->M, npn2, &cd->M));
  DG_CALL_GOTO(done, dg_clm_upload(op, ew, (size_t)nc * EW, &cd->ew));
  DG_CALL_GOTO(done, dg_clm_upload(op, L, (size_t)4 * nq * Np, &cd->L));
  DG_CALL_GOTO(done, dg_clm_upload(op, cv->Lf, (size_t)4 * nfq * Nfp, &cd->Lf));
  DG_CALL_GOTO(done, dg_clm_upload_ints(op, fpos, (size_t)4 * Np, &cd->fpos));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, 6 * (size_t)cd->ncn * op->rs,
                                      NULL, &cd->rhs));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, CS * (size_t)cd->ncn * op->rs,
                                      NULL, &cd->save));
done:
  dg_free(&slot);
  dg_free(&fpos);
  dg_free(&face);
  dg_free(&fq);
  dg_free(&ew);
  dg_free(&L);
  return st;
}

/* The kernels (the stage time, the result buffers and the RK coefficients are set per
 * stage). */
static dg_status make_kernels(dg_cl_maxwell *op, const curved *cd) {
  const int fs = (int)op->fs;
  DG_CALL(dg_clm_make_kernel(op, DG_CLK_CURVED));
  DG_CALL(dg_clm_make_kernel(op, DG_CLK_CURVFIX));
  DG_CALL(dg_clm_make_kernel(op, DG_CLK_CURVENERGY));
  cl_kernel k = op->k[DG_CLK_CURVED];
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_Q, op->d_q));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_FS, fs));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_RES, op->d_res));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_VMAPM, op->d_vmapM));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_VMAPP, op->d_vmapP));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_EGEO, op->d_egeo));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CSLOT, cd->slot));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CFACE, cd->face));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CWQ, cd->wq));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CFQ, cd->fq));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CMINV, cd->minv));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CL, cd->L));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CLF, cd->Lf));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CFPOS, cd->fpos));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CRHS, cd->rhs));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_CSAVE, cd->save));
  DG_CALL(DG_KERNEL_ARG(k, CURV_ARG_NCN, cd->ncn));
  k = op->k[DG_CLK_CURVFIX];
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_CRHS, cd->rhs));
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_CSAVE, cd->save));
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_CSLOT, cd->slot));
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_OUT_R, op->d_rhs));
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_RES, op->d_res));
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_QOUT, op->d_q));
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_FS, fs));
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_NCN, cd->ncn));
  k = op->k[DG_CLK_CURVENERGY];
  DG_CALL(DG_KERNEL_ARG(k, CEN_ARG_Q, op->d_q));
  DG_CALL(DG_KERNEL_ARG(k, CEN_ARG_FS, fs));
  DG_CALL(DG_KERNEL_ARG(k, CEN_ARG_CSLOT, cd->slot));
  DG_CALL(DG_KERNEL_ARG(k, CEN_ARG_CM, cd->M));
  DG_CALL(DG_KERNEL_ARG(k, CEN_ARG_CEW, cd->ew));
  DG_CALL(DG_KERNEL_ARG(k, CEN_ARG_OUT, op->d_eout));
  DG_CALL(DG_KERNEL_ARG(k, CEN_ARG_NOWNED, cd->nc_owned));
  return DG_OK;
}

static dg_status create(dg_cl_maxwell *op) {
  curved *cd = op->term[DG_CLM_CURVED]; /* made by describe */
  cd->nc = op->phys->geom->n_curved;
  cd->ncn = cd->nc * op->NP;
  DG_CALL(build_data(op, cd));
  DG_CALL(make_kernels(op, cd));
  return DG_OK;
}

static void destroy(dg_cl_maxwell *op) {
  curved *cd = op->term[DG_CLM_CURVED];
  if (!cd) return;
  cl_mem *bs[] = {&cd->slot, &cd->face, &cd->wq, &cd->fq,   &cd->minv, &cd->M,
                  &cd->ew,   &cd->L,    &cd->Lf, &cd->fpos, &cd->rhs,  &cd->save};
  for (size_t i = 0; i < sizeof bs / sizeof bs[0]; ++i) dg_buffer_release(bs[i]);
  dg_free(&op->term[DG_CLM_CURVED]);
}

/* Their right-hand side from the stage's q, before any kernel of the stage moves q or res
 * (the neighbours' traces, ghosts included, have arrived). */
static dg_status traces(dg_cl_maxwell *op, const dg_clm_stage *s) {
  const curved *cd = op->term[DG_CLM_CURVED];
  const size_t l = (size_t)cd->cwg, g = (size_t)cd->nc * l;
  DG_CALL(DG_KERNEL_ARG(op->k[DG_CLK_CURVED], CURV_ARG_Q, s->qin));
  DG_CALL(dg_clm_launch(op, DG_CLK_CURVED, 1, NULL, &g, &l, s->t));
  return DG_OK;
}

/* After the update: their right-hand side where the stage's result went, before the PML,
 * the poles and the sources correct it. */
static dg_status after(dg_cl_maxwell *op, const dg_clm_stage *s) {
  const curved *cd = op->term[DG_CLM_CURVED];
  cl_kernel k = op->k[DG_CLK_CURVFIX];
  const int update = s->update;
  const cl_mem out_r = update ? op->d_rhs : s->R;
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_OUT_R, out_r));
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_QOUT, s->qout));
  DG_CALL(DG_KERNEL_ARG(k, CFIX_ARG_UPDATE, update));
  DG_CALL(dg_clm_set_stage_coefs(op, DG_CLK_CURVFIX, s));
  DG_CALL(dg_clm_launch_items(op, DG_CLK_CURVFIX, 0, (size_t)cd->ncn, s->t));
  return DG_OK;
}

/* The owned curved elements' energy, over the energy kernel's value for them. */
static dg_status energy(dg_cl_maxwell *op) {
  const curved *cd = op->term[DG_CLM_CURVED];
  if (!cd->nc_owned) return DG_OK;
  const size_t l1 = WG1, g = dg_clm_items((size_t)cd->nc_owned);
  DG_CALL(dg_kernel_run(op->dev, op->k[DG_CLK_CURVENERGY], 1, &g, &l1, NULL));
  return DG_OK;
}

const dg_clm_term dg_clm_term_curved = {
    .name = "curved elements",
    .present = present,
    .templates = {"contract_curved.h", "curved.cl"},
    .describe = describe,
    .define = define,
    .create = create,
    .destroy = destroy,
    .traces = traces,
    .after = after,
    .energy = energy,
};

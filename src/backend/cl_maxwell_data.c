/* cl_maxwell_data.c: the OpenCL operator's data packed on the host in the device layout
 * (cl_templates/contract.h names every field) and uploaded: element and face data, node
 * coordinates, point sources, energy weights, the PML, the poles, the operators. */
#include <math.h>
#include <string.h>

#include "backend/cl_maxwell_impl.h"
#include "core/alloc.h"
#include "dg/dispersive.h"

dg_status dg_clm_upload(dg_cl_maxwell *op, const double *x, size_t n, cl_mem *out) {
  dg_status st = DG_OK;
  void *tmp = NULL;
  DG_CALL(dg_calloc(&tmp, n, op->rs));
  for (size_t i = 0; i < n; ++i) dg_clm_put(op, tmp, i, x[i]);
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, n * op->rs, tmp, out));
done:
  free(tmp);
  return st;
}

static dg_status build_element_data(dg_cl_maxwell *op, cl_mem *out) {
  const dg_maxwell *p = op->phys;
  const dg_geom *g = p->geom;
  dg_status st = DG_OK;
  double *e = NULL;
  DG_CALL(DG_ALLOC(e, (size_t)op->Kpad * EG));
  for (int e0 = 0; e0 < op->K; ++e0) {
    const int k = dg_clm_slot(op, e0);
    /* a curved element's metric varies (curved.cl): 0 here, so the affine kernels' stand-in
     * for it stays finite */
    const double m = dg_geom_curved_row(g, e0) >= 0 ? 0 : 1;
    const double val[EG] = {[EG_RX] = m ? g->rx[e0] : 0, [EG_RY] = m ? g->ry[e0] : 0,
                            [EG_RZ] = m ? g->rz[e0] : 0, [EG_SX] = m ? g->sx[e0] : 0,
                            [EG_SY] = m ? g->sy[e0] : 0, [EG_SZ] = m ? g->sz[e0] : 0,
                            [EG_TX] = m ? g->tx[e0] : 0, [EG_TY] = m ? g->ty[e0] : 0,
                            [EG_TZ] = m ? g->tz[e0] : 0,
                            [EG_INV_EPS] = 1 / p->eps[e0], [EG_INV_MU] = 1 / p->mu[e0],
                            [EG_SIGMA_EPS] = p->sigma[e0] / p->eps[e0]};
    for (int c = 0; c < EG; ++c)
      e[(size_t)(k / op->VL) * EG * op->VL + (size_t)c * op->VL + k % op->VL] = val[c];
  }
  DG_CALL_GOTO(done, dg_clm_upload(op, e, (size_t)op->Kpad * EG, out));
done:
  dg_free(&e);
  return st;
}

/* Face f of element k's FD values (contract.h): the normal n and the flux weights with
 * the factor scale, the boundary factors, the incident weights. The straight-sided faces
 * take their normal and scale = Fscale, folding 1/eps and 1/mu in (mat = 1); a curved
 * element's faces (curved.cl) scale 1 without them (mat = 0) and their normals per point. */
static void face_values(const dg_cl_maxwell *op, int k, int f, const double n[3], double scale,
                        int mat, double val[FD]) {
  const dg_maxwell *p = op->phys;
  const int fid = 4 * k + f, bc = p->bc[fid], k2 = p->geom->mesh->EToE[fid];
  const double ZM = sqrt(p->mu[k] / p->eps[k]), YM = 1 / ZM;
  const double ZP = bc == DG_BC_NONE ? sqrt(p->mu[k2] / p->eps[k2]) : ZM, YP = 1 / ZP;
  const double cE = scale / ((mat ? p->eps[k] : 1) * (ZM + ZP));
  const double cH = scale / ((mat ? p->mu[k] : 1) * (YM + YP));
  const double bcE = bc == DG_BC_PEC ? -2 : bc == DG_BC_ABC ? -1 : 0;
  const double bcH = bc == DG_BC_PMC ? -2 : bc == DG_BC_ABC ? -1 : 0;
  /* Incident weights, from the exterior states of dg_maxwell_rhs: total-field absorbing
   * E+ = E_inc, H+ = H_inc; scattered-field PEC E+ = -E- - 2 E_inc; a TF/SF surface face
   * E+ = E(P) +- E_inc, H+ = H(P) +- H_inc (+ on the total-field side). */
  const int total_abc = op->pw && !p->scattered && !p->tfsf && bc == DG_BC_ABC;
  const int scat_pec = op->pw && p->scattered && bc == DG_BC_PEC;
  const double tfsf = op->pw && p->tfsf && bc == DG_BC_NONE ? p->tfsf[fid] : 0;
  const double incE = total_abc ? 1 : scat_pec ? -2 : tfsf, incH = total_abc ? 1 : tfsf;
  for (int c = 0; c < FD; ++c) val[c] = 0;
  val[FD_NX] = n[0], val[FD_NY] = n[1], val[FD_NZ] = n[2];
  val[FD_CEH] = cE * ZP, val[FD_CEE] = cE * p->alpha;
  val[FD_CHE] = cH * YP, val[FD_CHH] = cH * p->alpha;
  val[FD_BCE] = bcE, val[FD_BCH] = bcH;
  val[FD_INCE] = incE, val[FD_INCH] = incH;
}

static dg_status build_face_data(dg_cl_maxwell *op, cl_mem *d_fdata, cl_mem *d_vM,
                                 cl_mem *d_vP) {
  const dg_maxwell *p = op->phys;
  const dg_geom *g = p->geom;
  const int Np = op->NP, Nfp = op->NFP;
  dg_status st = DG_OK;
  double *fd = NULL;
  int *vM = NULL, *vP = NULL;
  DG_CALL_GOTO(done, DG_ALLOC(fd, (size_t)op->Kpad * 4 * FD));
  DG_CALL_GOTO(done, DG_ALLOC(vM, op->ffs));
  DG_CALL_GOTO(done, DG_ALLOC(vP, op->ffs));
  /* Padding slots first: own node 0 on both sides, so vector loads stay contiguous. */
  for (int k = 0; k < op->Kpad; ++k)
    for (int j = 0; j < 4 * Nfp; ++j) {
      const size_t fi = (size_t)(k / op->VL) * op->FLUXP * op->VL + (size_t)j * op->VL +
                        (size_t)(k % op->VL);
      vM[fi] = vP[fi] = (int)((size_t)(k / op->VL) * op->NPP * op->VL + (size_t)(k % op->VL));
    }
  for (int k = 0; k < op->K; ++k) {
    const int ks = dg_clm_slot(op, k);
    /* a curved element's faces: zero weights here (curved.cl computes its terms) */
    const int curved = dg_geom_curved_row(g, k) >= 0;
    for (int f = 0; f < 4; ++f) {
      const int fid = 4 * k + f;
      const int bc = p->bc[fid];
      const double zero[3] = {0, 0, 0}, n[3] = {g->nx[fid], g->ny[fid], g->nz[fid]};
      double val[FD];
      face_values(op, k, f, curved ? zero : n, curved ? 0 : g->Fscale[fid], 1, val);
      for (int c = 0; c < FD; ++c)
        fd[(size_t)(ks / op->VL) * 4 * FD * op->VL + (size_t)(f * FD + c) * op->VL +
           (size_t)(ks % op->VL)] = val[c];
      for (int i = 0; i < Nfp; ++i) {
        const int m = g->vmapM[fid * Nfp + i];
        const int pp = bc == DG_BC_NONE ? g->vmapP[fid * Nfp + i] : m;
        const int j = f * Nfp + i;
        const size_t fi = (size_t)(ks / op->VL) * op->FLUXP * op->VL + (size_t)j * op->VL +
                          (size_t)(ks % op->VL);
        vM[fi] = (int)dg_clm_index(op, m / Np, m % Np);
        vP[fi] = (int)dg_clm_index(op, pp / Np, pp % Np);
      }
    }
  }
  DG_CALL_GOTO(done, dg_clm_upload(op, fd, (size_t)op->Kpad * 4 * FD, d_fdata));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, op->ffs * sizeof(int), vM, d_vM));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, op->ffs * sizeof(int), vP, d_vP));
done:
  dg_free(&fd);
  dg_free(&vM);
  dg_free(&vP);
  return st;
}

/* The curved elements (curved.cl), from the reference's data (dg_geom_curved): their slots,
 * face weights, the metric and face rules' data per element, mass and inverse mass, energy
 * weights, the rules' bases, each node's position on each face, and the per-stage buffers. */
static dg_status build_curved_data(dg_cl_maxwell *op) {
  const dg_maxwell *p = op->phys;
  const dg_geom *g = p->geom;
  const dg_geom_curved *cv = &g->cv;
  const int Np = op->NP, Nfp = op->NFP, nc = op->nc, nq = cv->nq, nfq = cv->nfq;
  dg_status st = DG_OK;
  int *slot = NULL, *fpos = NULL;
  double *face = NULL, *fq = NULL, *ew = NULL, *L = NULL;
  DG_CHECK(nq == op->nq && nfq == op->nfq, DG_ERR_INTERNAL,
           "curved rules: %d and %d points, the program was made for %d and %d", nq, nfq, op->nq,
           op->nfq);
  DG_CALL_GOTO(done, DG_ALLOC(slot, nc));
  DG_CALL_GOTO(done, DG_ALLOC(face, (size_t)nc * 4 * FD));
  DG_CALL_GOTO(done, DG_ALLOC(fq, (size_t)nc * 4 * nfq * CQ));
  DG_CALL_GOTO(done, DG_ALLOC(ew, (size_t)nc * EW));
  DG_CALL_GOTO(done, DG_ALLOC(L, (size_t)4 * nq * Np));
  DG_CALL_GOTO(done, DG_ALLOC(fpos, (size_t)4 * Np));
  op->nc_owned = 0;
  for (int k = 0; k < op->K; ++k) {
    const int c = dg_geom_curved_row(g, k);
    if (c < 0) continue;
    slot[c] = dg_clm_slot(op, k);
    if (k < g->mesh->K_owned) ++op->nc_owned; /* ghosts come after the owned elements */
    for (int f = 0; f < 4; ++f) {
      const double zero[3] = {0, 0, 0};
      face_values(op, k, f, zero, 1, 0, face + ((size_t)c * 4 + f) * FD);
      for (int pt = 0; pt < nfq; ++pt)
        for (int a = 0; a < CQ; ++a) /* dg_geom_curved.Fq: nx, ny, nz, w sJ */
          fq[(((size_t)c * 4 + f) * nfq + pt) * CQ + a] = cv->Fq[(((size_t)c * 4 + f) * nfq + pt) * 4 + a];
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
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, (size_t)nc * sizeof(int), slot,
                                      &op->d_cslot));
  DG_CALL_GOTO(done, dg_clm_upload(op, face, (size_t)nc * 4 * FD, &op->d_cface));
  DG_CALL_GOTO(done, dg_clm_upload(op, cv->Wq, (size_t)nc * 9 * nq, &op->d_cwq));
  DG_CALL_GOTO(done, dg_clm_upload(op, fq, (size_t)nc * 4 * nfq * CQ, &op->d_cfq));
  DG_CALL_GOTO(done, dg_clm_upload(op, cv->Minv, npn2, &op->d_cminv));
  DG_CALL_GOTO(done, dg_clm_upload(op, cv->M, npn2, &op->d_cM));
  DG_CALL_GOTO(done, dg_clm_upload(op, ew, (size_t)nc * EW, &op->d_cew));
  DG_CALL_GOTO(done, dg_clm_upload(op, L, (size_t)4 * nq * Np, &op->d_cL));
  DG_CALL_GOTO(done, dg_clm_upload(op, cv->Lf, (size_t)4 * nfq * Nfp, &op->d_cLf));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, (size_t)4 * Np * sizeof(int),
                                      fpos, &op->d_cfpos));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, 6 * (size_t)op->ncn * op->rs,
                                      NULL, &op->d_crhs));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, CS * (size_t)op->ncn * op->rs,
                                      NULL, &op->d_csave));
done:
  dg_free(&slot);
  dg_free(&fpos);
  dg_free(&face);
  dg_free(&fq);
  dg_free(&ew);
  dg_free(&L);
  return st;
}

/* Node coordinates x, y, z in the field layout (for the incident wave at face nodes). */
static dg_status build_coordinates(dg_cl_maxwell *op, cl_mem *out) {
  const dg_geom *g = op->phys->geom;
  dg_status st = DG_OK;
  double *xyz = NULL;
  DG_CALL(DG_ALLOC(xyz, 3 * op->fs));
  const double *c3[3] = {g->x, g->y, g->z};
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k < op->K; ++k)
      for (int n = 0; n < op->NP; ++n)
        xyz[c * op->fs + dg_clm_index(op, k, n)] = c3[c][(size_t)k * op->NP + n];
  DG_CALL_GOTO(done, dg_clm_upload(op, xyz, 3 * op->fs, out));
done:
  dg_free(&xyz);
  return st;
}

/* Point sources: P = dir profile / eps (3 x NP per source) and the device index of each of
 * the source element's nodes (source.cl). */
static dg_status build_source_data(dg_cl_maxwell *op, cl_mem *d_prof, cl_mem *d_node) {
  const dg_maxwell *p = op->phys;
  const int S = p->n_sources, Np = op->NP;
  dg_status st = DG_OK;
  double *prof = NULL;
  int *node = NULL;
  DG_CALL_GOTO(done, DG_ALLOC(prof, (size_t)S * 3 * Np));
  DG_CALL_GOTO(done, DG_ALLOC(node, (size_t)S * Np));
  for (int s = 0; s < S; ++s) {
    const dg_point_source *src = &p->sources[s];
    for (int c = 0; c < 3; ++c)
      for (int n = 0; n < Np; ++n)
        prof[((size_t)s * 3 + c) * Np + n] = src->dir[c] * src->profile[n] / p->eps[src->elem];
    for (int n = 0; n < Np; ++n) node[(size_t)s * Np + n] = (int)dg_clm_index(op, src->elem, n);
  }
  DG_CALL_GOTO(done, dg_clm_upload(op, prof, (size_t)S * 3 * Np, d_prof));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, (size_t)S * Np * sizeof(int),
                                      node, d_node));
done:
  dg_free(&prof);
  dg_free(&node);
  return st;
}

/* The energy kernel's data: the mass matrix, 1/2 eps J and 1/2 mu J per element (zero for
 * padding; interleaved by blocks of VL like the element data, which for VL = 1 is
 * energy.cl's 2 k + c), and the per-element result. */
static dg_status build_energy_data(dg_cl_maxwell *op) {
  const dg_maxwell *p = op->phys;
  const dg_geom *g = p->geom;
  dg_status st = DG_OK;
  double *ew = NULL;
  op->n_eout = ((size_t)op->Kpad + WG1 - 1) / WG1 * WG1;
  const int VL = op->VL;
  DG_CHECK(op->n_eout % (size_t)VL == 0, DG_ERR_INTERNAL,
           "energy: %zu slots are not whole blocks of %d", op->n_eout, VL);
  DG_CALL(DG_ALLOC(ew, EW * op->n_eout));
  for (int k = 0; k < op->K; ++k) {
    const int j = dg_clm_slot(op, k), at = j / VL * EW * VL + j % VL;
    /* a curved element's energy: curvenergy (curved.cl), with its own mass matrix */
    const double J = dg_geom_curved_row(g, k) >= 0 ? 0 : g->J[k];
    ew[at + EW_E * VL] = 0.5 * p->eps[k] * J;
    ew[at + EW_H * VL] = 0.5 * p->mu[k] * J;
  }
  DG_CALL_GOTO(done, dg_clm_upload(op, ew, EW * op->n_eout, &op->d_ew));
  DG_CALL_GOTO(done, dg_clm_upload(op, g->ref->M, (size_t)op->NP * op->NP, &op->d_M));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_WRITE_ONLY, op->n_eout * op->rs, NULL,
                                      &op->d_eout));
done:
  dg_free(&ew);
  return st;
}

/* The PML (pml.cl): coefficients as in dg_maxwell.pml_coef, the field-layout index of each PML
 * node, zeroed auxiliary fields and residual, and the res copy of pmlsave. */
static dg_status build_pml_data(dg_cl_maxwell *op) {
  const dg_maxwell *p = op->phys;
  const int Np = op->NP;
  dg_status st = DG_OK;
  int *node = NULL;
  void *zeros = NULL;
  op->npn = p->pml_K * Np;
  const size_t npn = (size_t)op->npn;
  double *coef = NULL;
  DG_CALL(DG_ALLOC(node, npn));
  if (op->slot) { /* grouped: the PML elements by group, so each group's nodes are a range */
    int next[DG_CL_MAX_GROUPS + 1] = {0};
    DG_CALL_GOTO(done, DG_ALLOC(op->pml_pos, p->pml_K + 1));
    for (int e = 0; e < p->pml_K; ++e) ++next[op->group_of[p->pml_elem[e]] + 1];
    for (int g = 0; g < op->n_groups; ++g) next[g + 1] += next[g];
    for (int g = 0; g <= op->n_groups; ++g) op->pfirst[g] = next[g];
    for (int e = 0; e < p->pml_K; ++e) op->pml_pos[e] = next[op->group_of[p->pml_elem[e]]]++;
  }
  for (int e = 0; e < p->pml_K; ++e)
    for (int n = 0; n < Np; ++n)
      node[(size_t)(op->pml_pos ? op->pml_pos[e] : e) * Np + n] =
          (int)dg_clm_index(op, p->pml_elem[e], n);
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, npn * sizeof(int), node,
                                      &op->d_pnode));
  DG_CALL_GOTO(done, DG_ALLOC(coef, DG_PML_COEFS * npn));
  for (size_t i = 0; i < DG_PML_COEFS * npn; ++i) coef[dg_clm_aux_index(op, i)] = p->pml_coef[i];
  DG_CALL_GOTO(done, dg_clm_upload(op, coef, DG_PML_COEFS * npn, &op->d_pcoef));
  DG_CALL_GOTO(done, dg_calloc(&zeros, DG_PML_AUX * npn, op->rs));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, DG_PML_AUX * npn * op->rs,
                                      zeros, &op->d_pw));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, DG_PML_AUX * npn * op->rs,
                                      zeros, &op->d_pwres));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, 6 * npn * op->rs, zeros,
                                      &op->d_psaved));
done:
  dg_free(&node);
  dg_free(&coef);
  free(zeros);
  return st;
}

/* Dispersive media (dispersive.cl): the field-layout index of each dispersive node, each
 * dispersive element's data (DE ints: its pole states' offset, its poles in the tables) and
 * 1/eps_inf, the pole tables (type, PC coefficients; contract.h), zeroed pole states and
 * residual, and the E copy of dispsave. */
static const int pole_codes[] = {DG_POLE_CHOICES(DG_CHOICE_CODE)};
_Static_assert(sizeof pole_codes / sizeof pole_codes[0] == DG_POLE_LORENTZ + 1,
               "contract.h DG_POLE_CHOICES: one code per dg_pole_type");
static dg_status build_disp_data(dg_cl_maxwell *op) {
  const dg_maxwell *p = op->phys;
  const int Np = op->NP, K = p->disp_K;
  dg_status st = DG_OK;
  int *node = NULL, *delem = NULL, *ptype = NULL;
  double *inv = NULL, *pcoef = NULL;
  void *zeros = NULL;
  op->ndn = K * Np;
  op->ndw = dg_maxwell_pole_size(p);
  int np = 0;
  for (int e = 0; e < K; ++e) np += p->disp_models[p->disp_model[e]].n_poles;
  const size_t ndn = (size_t)op->ndn;
  DG_CALL_GOTO(done, DG_ALLOC(node, ndn));
  DG_CALL_GOTO(done, DG_ALLOC(delem, (size_t)DE * K));
  DG_CALL_GOTO(done, DG_ALLOC(inv, K));
  DG_CALL_GOTO(done, DG_ALLOC(ptype, np));
  DG_CALL_GOTO(done, DG_ALLOC(pcoef, (size_t)PC * np));
  int ip = 0;
  for (int e = 0; e < K; ++e) {
    const int k = p->disp_elem[e];
    const dg_dispersion *d = &p->disp_models[p->disp_model[e]];
    for (int n = 0; n < Np; ++n) node[(size_t)e * Np + n] = (int)dg_clm_index(op, k, n);
    DG_CHECK_GOTO(done, p->disp_off[e] < (size_t)1 << 31, DG_ERR_UNSUPPORTED,
                  "OpenCL operator: too many pole states for 32-bit indices");
    delem[DE * e + DE_OFF] = (int)p->disp_off[e];
    delem[DE * e + DE_P0] = ip;
    inv[e] = 1 / p->eps[k];
    for (int j = 0; j < d->n_poles; ++j, ++ip) {
      const dg_pole *pl = &d->pole[j];
      double *c = pcoef + (size_t)PC * ip;
      ptype[ip] = pole_codes[pl->type];
      c[PC_STRENGTH] = c[PC_RATE] = c[PC_DAMP] = 0;
      switch (pl->type) {
      case DG_POLE_DEBYE: c[PC_STRENGTH] = pl->delta_eps, c[PC_RATE] = 1 / pl->tau; break;
      case DG_POLE_DRUDE: c[PC_STRENGTH] = pl->omega_p * pl->omega_p, c[PC_DAMP] = pl->gamma; break;
      case DG_POLE_LORENTZ:
        c[PC_STRENGTH] = pl->delta_eps;
        c[PC_RATE] = pl->omega_0 * pl->omega_0;
        c[PC_DAMP] = 2 * pl->delta;
        break;
      }
    }
    delem[DE * e + DE_P1] = ip;
  }
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, ndn * sizeof(int), node,
                                      &op->d_dnode));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, (size_t)DE * K * sizeof(int),
                                      delem, &op->d_delem));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_ONLY, (size_t)np * sizeof(int),
                                      ptype, &op->d_dtype));
  DG_CALL_GOTO(done, dg_clm_upload(op, inv, (size_t)K, &op->d_dinv));
  DG_CALL_GOTO(done, dg_clm_upload(op, pcoef, (size_t)PC * np, &op->d_dcoef));
  DG_CALL_GOTO(done, dg_calloc(&zeros, op->ndw > 3 * ndn ? op->ndw : 3 * ndn, op->rs));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, op->ndw * op->rs, zeros,
                                      &op->d_dw));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, op->ndw * op->rs, zeros,
                                      &op->d_dwres));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, 3 * ndn * op->rs, zeros,
                                      &op->d_dsaved));
done:
  dg_free(&node);
  dg_free(&delem);
  dg_free(&ptype);
  dg_free(&inv);
  dg_free(&pcoef);
  free(zeros);
  return st;
}

/* out[j*rows + n] = A[n][j] for a rows x cols row-major A. */
static void transpose(const double *A, int rows, int cols, double *out) {
  for (int n = 0; n < rows; ++n)
    for (int j = 0; j < cols; ++j) out[(size_t)j * rows + n] = A[(size_t)n * cols + j];
}

dg_status dg_clm_transposed_ops(const dg_refel *r, double *ops_t[4]) {
  const int Np = r->Np, L = 4 * r->Nfp;
  const double *A[4] = {r->Dr, r->Ds, r->Dt, r->LIFT};
  for (int i = 0; i < 4; ++i) ops_t[i] = NULL;
  for (int i = 0; i < 4; ++i) {
    const int cols = i < 3 ? Np : L;
    dg_status st = DG_ALLOC(ops_t[i], (size_t)Np * cols);
    if (st != DG_OK) {
      dg_clm_free_ops(ops_t);
      DG_CALL(st);
    }
    transpose(A[i], Np, cols, ops_t[i]);
  }
  return DG_OK;
}

void dg_clm_free_ops(double *ops_t[4]) {
  for (int i = 0; i < 4; ++i) dg_free(&ops_t[i]);
}

/* The CLBlast path's operators: [Dr; Ds; Dt] (each block padded to NPP rows with zeros,
 * row-major 3NPP x Np), LIFT row-major, and the derivatives' buffer. */
static dg_status build_blas_data(dg_cl_maxwell *op) {
  const dg_refel *r = op->phys->geom->ref;
  const int Np = op->NP;
  dg_status st = DG_OK;
  double *dall = NULL;
  DG_CALL(DG_ALLOC(dall, (size_t)3 * op->NPP * Np));
  const double *D3[3] = {r->Dr, r->Ds, r->Dt};
  for (int d = 0; d < 3; ++d)
    memcpy(dall + (size_t)d * op->NPP * Np, D3[d], sizeof(double) * Np * Np);
  DG_CALL_GOTO(done, dg_clm_upload(op, dall, (size_t)3 * op->NPP * Np, &op->d_Dall));
  DG_CALL_GOTO(done, dg_clm_upload(op, r->LIFT, (size_t)Np * 4 * op->NFP, &op->d_LIFTrm));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, 3 * 6 * op->fs * op->rs, NULL,
                                      &op->d_D));
done:
  dg_free(&dall);
  return st;
}

dg_status dg_clm_build_data(dg_cl_maxwell *op, double *const ops_t[4]) {
  const dg_maxwell *phys = op->phys;
  const int Np = op->NP, L = 4 * op->NFP;
  dg_status st = DG_OK;
  void *zeros = NULL;
  const size_t fbytes = 6 * op->fs * op->rs;
  DG_CALL(dg_calloc(&zeros, 6 * op->fs, op->rs));
  DG_CALL_GOTO(done, dg_calloc(&op->stage, 6 * op->fs, op->rs));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, fbytes, zeros, &op->d_q));
  if (dg_clm_ping_pong(op)) {
    DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, fbytes, zeros, &op->d_q2));
    DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, fbytes, zeros, &op->d_q3));
  }
  op->q_live = op->d_q;
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, fbytes, zeros, &op->d_res));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, fbytes, zeros, &op->d_rhs));
  DG_CALL_GOTO(done, dg_buffer_create(op->dev, CL_MEM_READ_WRITE, 6 * op->ffs * op->rs, NULL,
                                      &op->d_flux));
  DG_CALL_GOTO(done, build_element_data(op, &op->d_egeo));
  DG_CALL_GOTO(done, build_face_data(op, &op->d_fdata, &op->d_vmapM, &op->d_vmapP));
  if (op->pw) DG_CALL_GOTO(done, build_coordinates(op, &op->d_xyz));
  if (phys->n_sources) DG_CALL_GOTO(done, build_source_data(op, &op->d_sprof, &op->d_snode));
  DG_CALL_GOTO(done, build_energy_data(op));
  if (phys->pml_K) DG_CALL_GOTO(done, build_pml_data(op));
  if (phys->disp_K) DG_CALL_GOTO(done, build_disp_data(op));
  if (op->nc) DG_CALL_GOTO(done, build_curved_data(op));
  DG_CALL_GOTO(done, dg_clm_upload(op, ops_t[0], (size_t)Np * Np, &op->d_DrT));
  DG_CALL_GOTO(done, dg_clm_upload(op, ops_t[1], (size_t)Np * Np, &op->d_DsT));
  DG_CALL_GOTO(done, dg_clm_upload(op, ops_t[2], (size_t)Np * Np, &op->d_DtT));
  DG_CALL_GOTO(done, dg_clm_upload(op, ops_t[3], (size_t)Np * L, &op->d_LIFTT));
  if (op->v.path == DG_PATH_CLBLAST) DG_CALL_GOTO(done, build_blas_data(op));
done:
  free(zeros);
  return st;
}

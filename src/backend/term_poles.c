/* term_poles.c: dispersive media (phys->disp_K elements with Debye, Drude and Lorentz poles;
 * reference: src/dg/dispersive.c) on the OpenCL operator (cl_templates/dispersive.cl): E of
 * the dispersive nodes is saved at the stage's start (dispsave); after the update the
 * poles' currents correct the stage and their states advance (disp), over the dispersive
 * nodes only. Its data: the field-layout index of each dispersive node, each dispersive
 * element's data (DE ints: its pole states' offset, its poles in the tables) and
 * 1/eps_inf, the pole tables (type, PC coefficients; contract.h), the pole states and their
 * RK residual (ndw values, the reference layout of dg_maxwell_pole_size) and the saved E
 * (3 x ndn). */
#include "backend/cl_maxwell_impl.h"
#include "core/alloc.h"
#include "dg/dispersive.h"

typedef struct {
  int ndn;    /* dispersive nodes: disp_K NP */
  size_t ndw; /* pole state values */
  cl_mem w, wres, delem, inv, type, coef, node, saved;
} poles;

static const int pole_codes[] = {DG_POLE_CHOICES(DG_CHOICE_CODE)};
_Static_assert(sizeof pole_codes / sizeof pole_codes[0] == DG_POLE_LORENTZ + 1,
               "contract.h DG_POLE_CHOICES: one code per dg_pole_type");

static int present(const dg_cl_terms *t) { return t->poles; }

static dg_status build_data(dg_cl_maxwell *op, poles *d) {
  const dg_maxwell *p = op->phys;
  const int Np = op->NP, K = p->disp_K;
  dg_status st = DG_OK;
  int *node = NULL, *delem = NULL, *ptype = NULL;
  double *inv = NULL, *pcoef = NULL;
  d->ndn = K * Np;
  d->ndw = dg_maxwell_pole_size(p);
  int np = 0;
  for (int e = 0; e < K; ++e) np += p->disp_models[p->disp_model[e]].n_poles;
  const size_t ndn = (size_t)d->ndn;
  DG_CALL_GOTO(done, DG_ALLOC(node, ndn));
  DG_CALL_GOTO(done, DG_ALLOC(delem, (size_t)DE * K));
  DG_CALL_GOTO(done, DG_ALLOC(inv, K));
  DG_CALL_GOTO(done, DG_ALLOC(ptype, np));
  DG_CALL_GOTO(done, DG_ALLOC(pcoef, (size_t)PC * np));
  int ip = 0;
  for (int e = 0; e < K; ++e) {
    const int k = p->disp_elem[e];
    const dg_dispersion *m = &p->disp_models[p->disp_model[e]];
    for (int n = 0; n < Np; ++n) node[(size_t)e * Np + n] = (int)dg_clm_index(op, k, n);
    DG_CHECK_GOTO(done, p->disp_off[e] < (size_t)1 << 31, DG_ERR_UNSUPPORTED,
                  "OpenCL operator: too many pole states for 32-bit indices");
    delem[DE * e + DE_OFF] = (int)p->disp_off[e];
    delem[DE * e + DE_P0] = ip;
    inv[e] = 1 / p->eps[k];
    for (int j = 0; j < m->n_poles; ++j, ++ip) {
      const dg_pole *pl = &m->pole[j];
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
  DG_CALL_GOTO(done, dg_clm_upload_ints(op, node, ndn, &d->node));
  DG_CALL_GOTO(done, dg_clm_upload_ints(op, delem, (size_t)DE * K, &d->delem));
  DG_CALL_GOTO(done, dg_clm_upload_ints(op, ptype, (size_t)np, &d->type));
  DG_CALL_GOTO(done, dg_clm_upload(op, inv, (size_t)K, &d->inv));
  DG_CALL_GOTO(done, dg_clm_upload(op, pcoef, (size_t)PC * np, &d->coef));
  DG_CALL_GOTO(done, dg_clm_zeros(op, d->ndw, &d->w));
  DG_CALL_GOTO(done, dg_clm_zeros(op, d->ndw, &d->wres));
  DG_CALL_GOTO(done, dg_clm_zeros(op, 3 * ndn, &d->saved));
done:
  dg_free(&node);
  dg_free(&delem);
  dg_free(&ptype);
  dg_free(&inv);
  dg_free(&pcoef);
  return st;
}

/* The kernels (the targets, q and the RK coefficients are set per stage). */
static dg_status make_kernels(dg_cl_maxwell *op, const poles *d) {
  const int fs = (int)op->fs;
  DG_CALL(dg_clm_make_kernel(op, DG_CLK_DISP));
  DG_CALL(dg_clm_make_kernel(op, DG_CLK_DISPSAVE));
  cl_kernel k = op->k[DG_CLK_DISP];
  DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_SAVED, d->saved));
  DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_W, d->w));
  DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_WRES, d->wres));
  DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_DELEM, d->delem));
  DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_INV_EPS, d->inv));
  DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_PTYPE, d->type));
  DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_PCOEF, d->coef));
  DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_NODE, d->node));
  DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_FS, fs));
  DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_NDN, d->ndn));
  k = op->k[DG_CLK_DISPSAVE];
  DG_CALL(DG_KERNEL_ARG(k, DSAVE_ARG_Q, op->d_q));
  DG_CALL(DG_KERNEL_ARG(k, DSAVE_ARG_SAVED, d->saved));
  DG_CALL(DG_KERNEL_ARG(k, DSAVE_ARG_NODE, d->node));
  DG_CALL(DG_KERNEL_ARG(k, DSAVE_ARG_FS, fs));
  DG_CALL(DG_KERNEL_ARG(k, DSAVE_ARG_NDN, d->ndn));
  return DG_OK;
}

static dg_status create(dg_cl_maxwell *op) {
  poles *d = NULL;
  DG_CALL(DG_ALLOC(d, 1));
  op->term[DG_CLM_POLES] = d;
  DG_CALL(build_data(op, d));
  DG_CALL(make_kernels(op, d));
  return DG_OK;
}

static void destroy(dg_cl_maxwell *op) {
  poles *d = op->term[DG_CLM_POLES];
  if (!d) return;
  cl_mem *bs[] = {&d->w, &d->wres, &d->delem, &d->inv, &d->type, &d->coef, &d->node, &d->saved};
  for (size_t i = 0; i < sizeof bs / sizeof bs[0]; ++i) dg_buffer_release(bs[i]);
  dg_free(&op->term[DG_CLM_POLES]);
}

/* E at the stage's start, before any kernel moves q. */
static dg_status begin(dg_cl_maxwell *op, const dg_clm_stage *s) {
  const poles *d = op->term[DG_CLM_POLES];
  DG_CALL(DG_KERNEL_ARG(op->k[DG_CLK_DISPSAVE], DSAVE_ARG_Q, s->qin));
  DG_CALL(dg_clm_launch_items(op, DG_CLK_DISPSAVE, 0, (size_t)d->ndn, s->t));
  return DG_OK;
}

/* After the update (and the PML's correction): the poles' currents and their states. */
static dg_status after(dg_cl_maxwell *op, const dg_clm_stage *s) {
  const poles *d = op->term[DG_CLM_POLES];
  cl_kernel k = op->k[DG_CLK_DISP];
  const int update = s->update;
  const cl_mem out_a = update ? op->d_res : s->R;
  DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_OUT_A, out_a));
  DG_CALL(DG_KERNEL_ARG(k, DISP_ARG_OUT_B, s->qout));
  DG_CALL(dg_clm_set_stage_coefs(op, DG_CLK_DISP, s));
  DG_CALL(dg_clm_launch_items(op, DG_CLK_DISP, 0, (size_t)d->ndn, s->t));
  return DG_OK;
}

static size_t aux_size(const dg_cl_maxwell *op) {
  const poles *d = op->term[DG_CLM_POLES];
  return d->ndw;
}

static dg_status put_aux(dg_cl_maxwell *op, const double *w) {
  const poles *d = op->term[DG_CLM_POLES];
  DG_CALL(dg_clm_put_reals(op, d->wres, d->ndw, NULL, NULL, NULL));
  DG_CALL(dg_clm_put_reals(op, d->w, d->ndw, w, NULL, NULL));
  return DG_OK;
}

static dg_status read_aux(dg_cl_maxwell *op, int residual, double *w) {
  const poles *d = op->term[DG_CLM_POLES];
  DG_CALL(dg_clm_get_reals(op, residual ? d->wres : d->w, d->ndw, w, NULL, NULL));
  return DG_OK;
}

dg_status dg_cl_maxwell_pole_energy(dg_cl_maxwell *op, double *energy) {
  *energy = 0;
  const poles *d = op->term[DG_CLM_POLES];
  if (!d) return DG_OK;
  double *w = NULL;
  DG_CALL(DG_ALLOC(w, d->ndw));
  const dg_status st = dg_clm_get_reals(op, d->w, d->ndw, w, NULL, NULL);
  if (st == DG_OK) *energy = dg_dispersion_energy(op->phys, w);
  dg_free(&w);
  DG_CALL(st);
  return DG_OK;
}

const dg_clm_term dg_clm_term_poles = {
    .name = "dispersive poles",
    .present = present,
    .templates = {"dispersive.cl"},
    .create = create,
    .destroy = destroy,
    .begin = begin,
    .after = after,
    .aux_size = aux_size,
    .put_aux = put_aux,
    .read_aux = read_aux,
};

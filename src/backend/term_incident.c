/* term_incident.c: an incident plane wave (phys->incident == dg_plane_wave_eval) on the
 * OpenCL operator: its constants baked into the program (DG_INC_* of cl_templates/
 * incident.cl, which flux.cl, lift.cl's fused flux, element*.cl and curved.cl evaluate at
 * their face nodes; a program without a wave gets DG_INCIDENT 0 and pays nothing), the node
 * coordinates in the field layout, and the stage time. Where it enters (absorbing faces in
 * the total-field formulation, PEC faces in the scattered-field one, the faces of a TF/SF
 * surface) is a weight of the operator's face data (dg_clm_face_values, term_maxwell.c). */
#include <string.h>

#include "backend/cl_maxwell_impl.h"
#include "core/alloc.h"

static const char *const inc_names[] = {DG_INC_CHOICES(DG_CHOICE_CLNAME)};
_Static_assert(sizeof inc_names / sizeof inc_names[0] == DG_PULSE_MODULATED_GAUSSIAN + 1,
               "contract.h DG_INC_CHOICES: one name per dg_pulse_shape");

typedef struct {
  cl_mem xyz; /* x, y, z of every node, 3 fields in the field layout */
  /* the made kernels that evaluate the wave and the index of their time "t_inc" (bind) */
  int n_timed;
  dg_clk_id timed[DG_CLK_COUNT];
  cl_uint t_arg[DG_CLK_COUNT];
} incident;

/* Every program has the switch DG_INCIDENT, so the term is always present; without a wave it
 * has no state and does nothing in a stage. */
static int present(const dg_cl_terms *t) {
  (void)t;
  return 1;
}

/* A real constant for the source: full precision, an f suffix in float programs (so they
 * need no fp64). */
static dg_status define_real(dg_kernel_spec *s, const char *name, double x, int fl) {
  DG_CALL(dg_kernel_spec_define(s, name, "((real_t)%.17e%s)", x, fl ? "f" : ""));
  return DG_OK;
}

static dg_status define(dg_kernel_spec *s, const dg_variant *v, const dg_clm_program *p) {
  const dg_plane_wave *pw = p->terms.pw;
  if (!pw) {
    DG_CALL(dg_kernel_spec_define(s, "DG_INCIDENT", "0"));
    return DG_OK;
  }
  const int fl = v->precision == DG_PREC_FLOAT;
  const double *k = pw->k, *e = pw->pol;
  const double h[3] = {k[1] * e[2] - k[2] * e[1], k[2] * e[0] - k[0] * e[2],
                       k[0] * e[1] - k[1] * e[0]};
  const dg_pulse *g = &pw->pulse;
  DG_CALL(dg_kernel_spec_define(s, "DG_INCIDENT", "1"));
  DG_CALL(define_real(s, "DG_INC_KX", k[0], fl));
  DG_CALL(define_real(s, "DG_INC_KY", k[1], fl));
  DG_CALL(define_real(s, "DG_INC_KZ", k[2], fl));
  DG_CALL(define_real(s, "DG_INC_KX0", k[0] * pw->x0[0] + k[1] * pw->x0[1] + k[2] * pw->x0[2],
                      fl));
  DG_CALL(define_real(s, "DG_INC_PX", e[0], fl));
  DG_CALL(define_real(s, "DG_INC_PY", e[1], fl));
  DG_CALL(define_real(s, "DG_INC_PZ", e[2], fl));
  DG_CALL(define_real(s, "DG_INC_HX", h[0], fl));
  DG_CALL(define_real(s, "DG_INC_HY", h[1], fl));
  DG_CALL(define_real(s, "DG_INC_HZ", h[2], fl));
  DG_CALL(dg_kernel_spec_define(s, "DG_INC_SHAPE", "%s", inc_names[g->shape]));
  DG_CALL(define_real(s, "DG_INC_F0", g->f0, fl));
  DG_CALL(define_real(s, "DG_INC_T0", g->t0, fl));
  DG_CALL(define_real(s, "DG_INC_AMP", g->amplitude, fl));
  const int ramp_on = g->shape == DG_PULSE_HARMONIC && g->ramp > 0;
  DG_CALL(dg_kernel_spec_define(s, "DG_INC_RAMP_ON", "%d", ramp_on));
  DG_CALL(define_real(s, "DG_INC_F0_RAMP", ramp_on ? g->f0 / g->ramp : 0, fl));
  if (g->shape == DG_PULSE_MODULATED_GAUSSIAN)
    DG_CALL(define_real(s, "DG_INC_BWA", dg_pulse_envelope_rate(g), fl));
  return DG_OK;
}

static dg_status create(dg_cl_maxwell *op) {
  if (!op->terms.pw) return DG_OK;
  incident *in = NULL;
  DG_CALL(DG_ALLOC(in, 1));
  op->term[DG_CLM_INCIDENT] = in;
  const dg_geom *g = op->phys->geom;
  double *xyz = NULL;
  DG_CALL(DG_ALLOC(xyz, 3 * op->fs));
  const double *c3[3] = {g->x, g->y, g->z};
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k < op->K; ++k)
      for (int n = 0; n < op->NP; ++n)
        xyz[c * op->fs + dg_clm_index(op, k, n)] = c3[c][(size_t)k * op->NP + n];
  const dg_status st = dg_clm_upload(op, xyz, 3 * op->fs, &in->xyz);
  dg_free(&xyz);
  DG_CALL(st);
  return DG_OK;
}

static void destroy(dg_cl_maxwell *op) {
  incident *in = op->term[DG_CLM_INCIDENT];
  if (!in) return;
  dg_buffer_release(&in->xyz);
  dg_free(&op->term[DG_CLM_INCIDENT]);
}

/* The coordinates go to every kernel that evaluates the wave (a parameter "xyz"); the ones
 * with a time "t_inc" are listed for the stages. */
static dg_status bind(dg_cl_maxwell *op) {
  incident *in = op->term[DG_CLM_INCIDENT];
  DG_CALL(dg_clm_bind_named(op, "xyz", in->xyz));
  for (int id = 0; id < DG_CLK_COUNT; ++id) {
    const int a = op->k[id] ? dg_clk_arg_index((dg_clk_id)id, "t_inc") : -1;
    if (a < 0) continue;
    in->timed[in->n_timed] = (dg_clk_id)id;
    in->t_arg[in->n_timed++] = (cl_uint)a;
  }
  return DG_OK;
}

/* The wave at the stage's time, to every kernel that evaluates it. */
static dg_status begin(dg_cl_maxwell *op, const dg_clm_stage *s) {
  const incident *in = op->term[DG_CLM_INCIDENT];
  for (int i = 0; i < in->n_timed; ++i)
    DG_CALL(dg_clm_set_real_arg(op, op->k[in->timed[i]], in->t_arg[i], s->ts));
  return DG_OK;
}

const dg_clm_term dg_clm_term_incident = {
    .name = "incident wave",
    .present = present,
    .define = define,
    .create = create,
    .destroy = destroy,
    .bind = bind,
    .begin = begin,
};

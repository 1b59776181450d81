/* The problem hash of a case that a checkpoint records and a restart must match. */
#include "app/problem_hash.h"

#include <string.h>

#include "io/checksum.h"

static void hash_bytes(dg_checksum *h, const void *p, size_t n) { dg_checksum_update(h, p, n); }
static void hash_int(dg_checksum *h, long long v) { hash_bytes(h, &v, sizeof v); }
static void hash_doubles(dg_checksum *h, const double *v, int n) {
  for (int i = 0; i < n; ++i) {
    double d = v[i] == 0 ? 0.0 : v[i]; /* -0 and 0 are the same setting */
    hash_bytes(h, &d, sizeof d);
  }
}
static void hash_group(dg_checksum *h, const dg_group_ref *g) {
  hash_bytes(h, g->name, strlen(g->name) + 1);
  hash_int(h, g->tag);
}
static void hash_pulse(dg_checksum *h, const dg_pulse *p) {
  hash_int(h, p->shape);
  const double v[4] = {p->f0, p->t0, p->amplitude, p->ramp};
  hash_doubles(h, v, 4);
  if (p->shape == DG_PULSE_MODULATED_GAUSSIAN) hash_doubles(h, &p->bandwidth, 1);
}

void dg_case_problem_hash(const dg_case *c, uint64_t parts[DG_CHECKPOINT_PARTS]) {
  dg_checksum h[DG_CHECKPOINT_PARTS];
  for (int i = 0; i < DG_CHECKPOINT_PARTS; ++i) {
    dg_checksum_init(&h[i]);
    hash_int(&h[i], i); /* parts with no settings still differ from "not recorded" (0) */
  }
  dg_checksum *m = &h[DG_CHECKPOINT_MATERIALS];
  hash_int(m, c->n_materials);
  for (int i = 0; i < c->n_materials; ++i) {
    hash_group(m, &c->materials[i].volume);
    const double v[3] = {c->materials[i].eps, c->materials[i].mu, c->materials[i].sigma};
    hash_doubles(m, v, 3);
    const dg_dispersion *d = &c->materials[i].disp;
    if (d->n_poles) { /* absent from the hashes of checkpoints without poles */
      hash_int(m, d->n_poles);
      for (int j = 0; j < d->n_poles; ++j) {
        const dg_pole *p = &d->pole[j];
        const double w[6] = {p->delta_eps, p->tau, p->omega_p, p->gamma, p->omega_0, p->delta};
        hash_int(m, p->type);
        hash_doubles(m, w, 6);
      }
    }
  }
  dg_checksum *b = &h[DG_CHECKPOINT_BOUNDARIES];
  hash_int(b, c->n_boundaries);
  for (int i = 0; i < c->n_boundaries; ++i) {
    hash_group(b, &c->boundaries[i].surface);
    hash_int(b, c->boundaries[i].bc);
  }
  hash_int(b, c->has_default_bc ? (long long)c->default_bc : -1);
  hash_int(b, c->allow_unmatched);
  if (c->n_periodic) { /* absent from the hashes of checkpoints without periodic pairs */
    hash_int(b, c->n_periodic);
    for (int i = 0; i < c->n_periodic; ++i) {
      const dg_case_periodic *p = &c->periodic[i];
      hash_group(b, &p->surfaces[0]);
      hash_group(b, &p->surfaces[1]);
      hash_int(b, p->has_translation);
      if (p->has_translation) hash_doubles(b, p->translation, 3);
    }
  }
  dg_checksum *src = &h[DG_CHECKPOINT_SOURCES];
  hash_int(src, c->n_dipoles);
  for (int i = 0; i < c->n_dipoles; ++i) {
    hash_doubles(src, c->dipoles[i].pos, 3);
    hash_doubles(src, c->dipoles[i].dir, 3);
    hash_pulse(src, &c->dipoles[i].pulse);
  }
  hash_int(src, c->has_plane_wave);
  if (c->has_plane_wave) {
    hash_doubles(src, c->plane_wave.k, 3);
    hash_doubles(src, c->plane_wave.pol, 3);
    hash_doubles(src, c->plane_wave.x0, 3);
    hash_pulse(src, &c->plane_wave.pulse);
    hash_int(src, c->plane_wave.scattered);
    if (c->has_tfsf) { /* absent from older checkpoints' hashes */
      hash_int(src, 1);
      hash_group(src, &c->tfsf_surface);
    }
  }
  dg_checksum *ini = &h[DG_CHECKPOINT_INITIAL];
  hash_int(ini, c->has_cavity_mode);
  if (c->has_cavity_mode) {
    for (int d = 0; d < 3; ++d) hash_int(ini, c->mode[d]);
    hash_int(ini, c->has_amp);
    if (c->has_amp) hash_doubles(ini, c->amp, 3);
  }
  hash_doubles(&h[DG_CHECKPOINT_FLUX], &c->alpha, 1);
  /* Not the final time or step count: a restart may run further (dt, which they set, is
   * checked on its own). */
  hash_doubles(&h[DG_CHECKPOINT_TIME], &c->cfl, 1);
  if (c->multirate) { /* lserk4 keeps the hash of the checkpoints written before */
    hash_int(&h[DG_CHECKPOINT_TIME], 1);
    hash_int(&h[DG_CHECKPOINT_TIME], c->max_levels);
    if (c->stage_cost >= 0) hash_doubles(&h[DG_CHECKPOINT_TIME], &c->stage_cost, 1);
    if (c->mr_scheme != DG_MR_AB3) hash_int(&h[DG_CHECKPOINT_TIME], (int)c->mr_scheme);
  }
  dg_checksum *pml = &h[DG_CHECKPOINT_PML];
  if (c->has_pml) {
    hash_int(pml, c->n_pml_volumes);
    for (int i = 0; i < c->n_pml_volumes; ++i) hash_group(pml, &c->pml_volumes[i]);
    hash_doubles(pml, &c->pml.thickness, 1);
    hash_int(pml, c->pml.order);
    hash_doubles(pml, &c->pml.reflection, 1);
    hash_doubles(pml, &c->pml.kappa_max, 1);
    hash_doubles(pml, &c->pml.alpha_max, 1);
    /* the filters applied in the L2 sense (2026-11-28): a checkpoint of the node-wise or
     * per-element forms before it is of another problem */
    hash_int(pml, 2);
  }
  for (int i = 0; i < DG_CHECKPOINT_PARTS; ++i)
    parts[i] = dg_checkpoint_part_names[i] ? dg_checksum_final(&h[i]) : 0;
  parts[DG_CHECKPOINT_PML] = c->has_pml ? parts[DG_CHECKPOINT_PML] : 0; /* as before the PML */
}

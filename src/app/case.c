/* The case: its defaults, and the keys of a case file with their checks. */
#include "app/case.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "app/case_groups.h"
#include "app/schema.h"
#include "core/alloc.h"

void dg_case_default(dg_case *c) {
  memset(c, 0, sizeof *c);
  snprintf(c->source, sizeof c->source, "built-in");
  dg_pml_params_default(&c->pml);
  c->n_pml_volumes = 1;
  snprintf(c->pml_volumes[0].name, sizeof c->pml_volumes[0].name, "pml");
  c->pml_volumes[0].tag = -1;
  for (int d = 0; d < 3; ++d) {
    c->box_lo[d] = 0;
    c->box_hi[d] = 1;
    c->box_cells[d] = 4;
    c->mode[d] = 1;
  }
  c->order = 3;
  c->precision = DG_PREC_FLOAT;
  c->backend = DG_BACKEND_DEFAULT;
  c->final_time = 1.0;
  c->cfl = 1.0;
  c->alpha = 1.0;
  c->max_levels = DG_CASE_MAX_LEVELS;
  c->stage_cost = -1;
  c->mr_auto = 1; /* time_stepping.scheme "auto", by default */
  c->has_default_bc = 1;
  c->default_bc = DG_BC_PEC;
  c->has_cavity_mode = 1;
  c->vtu_mode = DG_VTU_LAGRANGE;
  c->probe_every = 1;
  c->tune = dg_tune_mode_default();
  c->tune_budget = 120.0;
}

void dg_case_free(dg_case *c) {
  dg_free(&c->materials);
  dg_free(&c->boundaries);
  dg_free(&c->dipoles);
  dg_free(&c->probes);
  dg_free(&c->vtu_times);
  dg_free(&c->dft.freq);
  c->dft.on = c->dft.nfreq = 0;
  c->n_materials = c->n_boundaries = c->n_dipoles = c->n_probes = c->n_vtu_times = 0;
}

static const cJSON *at(const cJSON *obj, const char *key) {
  return cJSON_GetObjectItemCaseSensitive(obj, key);
}

/* An object with only the keys given (its message does not say what else it is). */
static dg_status section(const dg_schema *x, const cJSON *v, const char *path,
                         const char *const *keys) {
  DG_CHECK(cJSON_IsObject(v), DG_ERR_INPUT, "%s: %s: expected an object", x->file, path);
  return dg_schema_keys(x, v, path, keys);
}

static dg_status parse_mesh(const dg_schema *x, const cJSON *v, dg_case *c) {
  static const char *const keys[] = {"file", "box", "allow_unmatched_faces", NULL};
  static const char *const box_keys[] = {"lo", "hi", "cells", "pml_cells", "tfsf_cells", NULL};
  DG_CALL(dg_schema_object(x, v, "mesh", keys));
  const cJSON *file = at(v, "file"), *box = at(v, "box"), *it;
  DG_CHECK(!file != !box, DG_ERR_INPUT, "%s: mesh: give exactly one of \"file\" and \"box\"",
           x->file);
  DG_CALL(dg_schema_opt_bool(x, v, "mesh", "allow_unmatched_faces", &c->allow_unmatched));
  if (file) return dg_schema_file_path(x, file, "mesh.file", c->mesh_file, sizeof c->mesh_file);
  DG_CALL(section(x, box, "mesh.box", box_keys));
  c->mesh_file[0] = '\0';
  DG_CALL(dg_schema_opt_vec(x, box, "mesh.box", "lo", 3, c->box_lo));
  DG_CALL(dg_schema_opt_vec(x, box, "mesh.box", "hi", 3, c->box_hi));
  if ((it = at(box, "cells")))
    DG_CALL(dg_schema_ints(x, it, "mesh.box.cells", 3, 1, 1000, c->box_cells));
  DG_CALL(dg_schema_opt_int(x, box, "mesh.box", "pml_cells", 0, 100, &c->box_pml_cells));
  if ((it = at(box, "tfsf_cells"))) {
    DG_CALL(dg_schema_int(x, it, "mesh.box.tfsf_cells", 0, 499, &c->box_tfsf_cells));
    for (int d = 0; d < 3 && c->box_tfsf_cells > 0; ++d)
      DG_CHECK(2 * c->box_tfsf_cells < c->box_cells[d], DG_ERR_INPUT,
               "%s: mesh.box.tfsf_cells: %d cells in from each face leaves no inside in "
               "direction %c (%d cells)", x->file, c->box_tfsf_cells, "xyz"[d], c->box_cells[d]);
  }
  double cell_volume = 1;
  for (int d = 0; d < 3; ++d) {
    DG_CHECK(c->box_hi[d] > c->box_lo[d], DG_ERR_INPUT,
             "%s: mesh.box: hi[%d] = %g must exceed lo[%d] = %g", x->file, d, c->box_hi[d], d, c->box_lo[d]);
    const double h = (c->box_hi[d] - c->box_lo[d]) / c->box_cells[d];
    DG_CHECK(isfinite(h), DG_ERR_INPUT, "%s: mesh.box: the extent hi[%d] - lo[%d] = %g - (%g) "
             "is too large for double precision", x->file, d, d, c->box_hi[d], c->box_lo[d]);
    cell_volume *= h;
  }
  /* The elements' volumes (a sixth of a cell) and Jacobians must be normal numbers. */
  DG_CHECK(isfinite(cell_volume) && cell_volume / 6 > 1e-290, DG_ERR_INPUT,
           "%s: mesh.box: a cell's volume %g is out of the range of double precision "
           "(scale the box to lengths between about 1e-90 and 1e90)", x->file, cell_volume);
  return DG_OK;
}

static dg_status parse_pulse(const dg_schema *x, const cJSON *v, const char *path, dg_pulse *p) {
  static const char *const keys[] = {"shape", "frequency", "delay", "amplitude", "ramp",
                                     "bandwidth", NULL};
  static const char *const shapes[] = {"gaussian", "ricker", "harmonic", "modulated_gaussian",
                                       NULL};
  DG_CALL(section(x, v, path, keys));
  memset(p, 0, sizeof *p);
  p->amplitude = 1.0;
  int shape = 0;
  DG_CALL(dg_schema_required(x, v, path, "shape",
                             "gaussian, ricker, harmonic or modulated_gaussian"));
  DG_CALL(dg_schema_opt_choice(x, v, path, "shape", shapes, &shape));
  p->shape = (dg_pulse_shape)shape;
  DG_CALL(dg_schema_required(x, v, path, "frequency",
                             "gaussian: the spectral width; ricker: the peak frequency; harmonic "
                             "and modulated_gaussian: the frequency"));
  DG_CALL(dg_schema_opt_positive(x, v, path, "frequency", &p->f0));
  /* The modulated Gaussian's band, and only its. */
  if (p->shape == DG_PULSE_MODULATED_GAUSSIAN) {
    DG_CALL(dg_schema_required(x, v, path, "bandwidth", "the width of the band around the "
                               "frequency where the spectrum is within 20 dB of its peak"));
    DG_CALL(dg_schema_opt_positive(x, v, path, "bandwidth", &p->bandwidth));
  } else {
    DG_CHECK(!at(v, "bandwidth"), DG_ERR_INPUT, "%s: %s.bandwidth: only a modulated_gaussian "
             "pulse has a bandwidth", x->file, path);
  }
  /* Default delay: the pulse starts from (almost) zero. */
  p->t0 = p->shape == DG_PULSE_HARMONIC ? 0.0
          : p->shape == DG_PULSE_MODULATED_GAUSSIAN ? dg_pulse_modulated_delay(p->bandwidth)
                                                    : 1.5 / p->f0;
  DG_CALL(dg_schema_opt_number(x, v, path, "delay", &p->t0));
  DG_CALL(dg_schema_opt_number(x, v, path, "amplitude", &p->amplitude));
  DG_CALL(dg_schema_opt_number(x, v, path, "ramp", &p->ramp));
  DG_CHECK(p->ramp >= 0, DG_ERR_INPUT, "%s: %s.ramp: must be >= 0 periods, got %g", x->file,
           path, p->ramp);
  return DG_OK;
}

/* obj.pulse, which must be there. */
static dg_status key_pulse(const dg_schema *x, const cJSON *obj, const char *path, dg_pulse *p) {
  char where[128];
  DG_CALL(dg_schema_required(x, obj, path, "pulse", NULL));
  return parse_pulse(x, at(obj, "pulse"), dg_schema_key_path(where, sizeof where, path, "pulse"),
                     p);
}

/* A vector at obj.key, which must be there. */
static dg_status key_vec(const dg_schema *x, const cJSON *obj, const char *path,
                         const char *key, double out[3]) {
  DG_CALL(dg_schema_required(x, obj, path, key, NULL));
  return dg_schema_opt_vec(x, obj, path, key, 3, out);
}

static dg_status parse_dipole(const dg_schema *x, const cJSON *v, const char *path, dg_case *c) {
  static const char *const keys[] = {"type", "position", "direction", "pulse", NULL};
  DG_CALL(dg_schema_keys(x, v, path, keys));
  dg_dipole d;
  memset(&d, 0, sizeof d);
  DG_CALL(key_vec(x, v, path, "position", d.pos));
  DG_CALL(key_vec(x, v, path, "direction", d.dir));
  DG_CHECK(d.dir[0] != 0 || d.dir[1] != 0 || d.dir[2] != 0, DG_ERR_INPUT,
           "%s: %s.direction: is zero", x->file, path);
  DG_CALL(key_pulse(x, v, path, &d.pulse));
  dg_dipole *grown = realloc(c->dipoles, (size_t)(c->n_dipoles + 1) * sizeof *grown);
  DG_CHECK(grown, DG_ERR_MEMORY, "out of memory");
  c->dipoles = grown;
  c->dipoles[c->n_dipoles++] = d;
  return DG_OK;
}

static dg_status parse_plane_wave(const dg_schema *x, const cJSON *v, const char *path, int i,
                                  dg_case *c) {
  static const char *const keys[] = {"type", "direction", "polarization", "origin", "pulse",
                                     "formulation", NULL};
  static const char *const forms[] = {"total-field", "scattered-field", NULL};
  DG_CALL(dg_schema_keys(x, v, path, keys));
  DG_CHECK(!c->has_plane_wave, DG_ERR_INPUT, "%s: %s: only one plane wave per case", x->file, path);
  dg_plane_wave *pw = &c->plane_wave;
  memset(pw, 0, sizeof *pw);
  DG_CALL(key_vec(x, v, path, "direction", pw->k));
  DG_CALL(key_vec(x, v, path, "polarization", pw->pol));
  DG_CALL(dg_schema_opt_vec(x, v, path, "origin", 3, pw->x0));
  DG_CALL(key_pulse(x, v, path, &pw->pulse));
  int form = 0;
  DG_CALL(dg_schema_opt_choice(x, v, path, "formulation", forms, &form));
  pw->scattered = form == 1;
  dg_status st = dg_plane_wave_init(pw);
  if (st != DG_OK)
    return dg_error_prefix(st, "%s: %s: ", x->file, path);
  c->has_plane_wave = 1;
  c->plane_wave_index = i;
  return DG_OK;
}

static dg_status parse_source(const dg_schema *x, const cJSON *v, const char *path, int i,
                              dg_case *c) {
  static const char *const types[] = {"dipole", "plane_wave", NULL};
  DG_CALL(dg_schema_required(x, v, path, "type", "dipole or plane_wave"));
  int type = 0;
  DG_CALL(dg_schema_opt_choice(x, v, path, "type", types, &type));
  return type == 0 ? parse_dipole(x, v, path, c) : parse_plane_wave(x, v, path, i, c);
}

/* Parse an array of objects with parse_item(x, item, its key path "path[i]", i, c). */
static dg_status parse_array(const dg_schema *x, const cJSON *v, const char *path,
                             dg_status (*parse_item)(const dg_schema *, const cJSON *,
                                                     const char *, int, dg_case *),
                             dg_case *c) {
  DG_CHECK(cJSON_IsArray(v), DG_ERR_INPUT, "%s: %s: expected an array, got %s", x->file, path,
           dg_schema_type(v));
  int i = 0;
  for (const cJSON *it = v->child; it; it = it->next, ++i) {
    char item[64];
    snprintf(item, sizeof item, "%s[%d]", path, i);
    DG_CHECK(cJSON_IsObject(it), DG_ERR_INPUT, "%s: %s: expected an object", x->file, item);
    DG_CALL(parse_item(x, it, item, i, c));
  }
  return DG_OK;
}

/* "pml": {"volumes": [names or tags], "thickness", "profile_order", "reflection",
 * "kappa_max", "alpha_max"}, every key optional (volumes: ["pml"]). */
static dg_status parse_pml(const dg_schema *x, const cJSON *v, dg_case *c) {
  static const char *const keys[] = {"volumes",   "thickness", "profile_order", "reflection",
                                     "kappa_max", "alpha_max", NULL};
  DG_CHECK(!at(v, "element_profile"), DG_ERR_INPUT,
           "%s: pml.element_profile: no longer an option: the graded profile is now applied "
           "in the L2 sense in every element, stable at late times and reflecting less than "
           "either earlier form (docs/OPEN_REGIONS.md); delete the key", x->file);
  DG_CALL(dg_schema_object(x, v, "pml", keys));
  c->has_pml = 1;
  const cJSON *it;
  if ((it = at(v, "volumes"))) {
    DG_CHECK(cJSON_IsArray(it) && cJSON_GetArraySize(it) >= 1 &&
                 cJSON_GetArraySize(it) <= DG_CASE_PML_VOLUMES,
             DG_ERR_INPUT, "%s: pml.volumes: expected an array of 1 to %d physical volume names "
             "or tags", x->file, DG_CASE_PML_VOLUMES);
    c->n_pml_volumes = cJSON_GetArraySize(it);
    for (int i = 0; i < c->n_pml_volumes; ++i) {
      char where[64];
      snprintf(where, sizeof where, "pml.volumes[%d]", i);
      DG_CALL(dg_case_group(x, cJSON_GetArrayItem(it, i), where, &c->pml_volumes[i]));
    }
  }
  DG_CALL(dg_schema_opt_positive(x, v, "pml", "thickness", &c->pml.thickness));
  DG_CALL(dg_schema_opt_int(x, v, "pml", "profile_order", 0, 10, &c->pml.order));
  if ((it = at(v, "reflection"))) {
    DG_CALL(dg_schema_positive(x, it, "pml.reflection", &c->pml.reflection));
    DG_CHECK(c->pml.reflection < 1, DG_ERR_INPUT, "%s: pml.reflection: expected a number in "
             "(0, 1), got %g", x->file, c->pml.reflection);
  }
  if ((it = at(v, "kappa_max"))) {
    DG_CALL(dg_schema_number(x, it, "pml.kappa_max", &c->pml.kappa_max));
    DG_CHECK(c->pml.kappa_max >= 1 && c->pml.kappa_max <= 100, DG_ERR_INPUT,
             "%s: pml.kappa_max: expected a number in [1, 100], got %g", x->file, c->pml.kappa_max);
  }
  return dg_schema_opt_positive(x, v, "pml", "alpha_max", &c->pml.alpha_max);
}

/* "tfsf": {"surface": NAME or TAG}: the total-field/scattered-field surface. */
static dg_status parse_tfsf(const dg_schema *x, const cJSON *v, dg_case *c) {
  static const char *const keys[] = {"surface", NULL};
  DG_CALL(dg_schema_object(x, v, "tfsf", keys));
  DG_CALL(dg_case_key_group(x, v, "tfsf", "surface", "the closed interior surface",
                            &c->tfsf_surface));
  c->has_tfsf = 1;
  return DG_OK;
}

/* dft.frequencies: [f, ...] or {"min", "max", "count"}. */
static dg_status parse_dft_frequencies(const dg_schema *x, const cJSON *it, dg_case_dft *d) {
  static const char *const range_keys[] = {"min", "max", "count", NULL};
  if (cJSON_IsArray(it)) {
    d->nfreq = cJSON_GetArraySize(it);
    DG_CHECK(d->nfreq >= 1 && d->nfreq <= 100000, DG_ERR_INPUT,
             "%s: dft.frequencies: expected 1 to 100000 frequencies, got %d", x->file, d->nfreq);
    DG_CALL(DG_ALLOC(d->freq, d->nfreq));
    for (int i = 0; i < d->nfreq; ++i) {
      char where[64];
      snprintf(where, sizeof where, "dft.frequencies[%d]", i);
      DG_CALL(dg_schema_positive(x, cJSON_GetArrayItem(it, i), where, &d->freq[i]));
    }
    return DG_OK;
  }
  DG_CHECK(cJSON_IsObject(it), DG_ERR_INPUT, "%s: dft.frequencies: expected an array of "
           "frequencies or {\"min\", \"max\", \"count\"}, got %s", x->file, dg_schema_type(it));
  DG_CALL(dg_schema_keys(x, it, "dft.frequencies", range_keys));
  double lo, hi;
  int n;
  DG_CHECK(at(it, "min") && at(it, "max") && at(it, "count"), DG_ERR_INPUT,
           "%s: dft.frequencies: needs \"min\", \"max\" and \"count\"", x->file);
  DG_CALL(dg_schema_opt_positive(x, it, "dft.frequencies", "min", &lo));
  DG_CALL(dg_schema_opt_positive(x, it, "dft.frequencies", "max", &hi));
  DG_CALL(dg_schema_opt_int(x, it, "dft.frequencies", "count", 1, 100000, &n));
  DG_CHECK(hi >= lo && (n > 1 || hi == lo), DG_ERR_INPUT, "%s: dft.frequencies: max (%g) must "
           "be above min (%g), or equal with count 1", x->file, hi, lo);
  d->nfreq = n;
  DG_CALL(DG_ALLOC(d->freq, n));
  for (int i = 0; i < n; ++i) d->freq[i] = n > 1 ? lo + (hi - lo) * i / (n - 1) : lo;
  return DG_OK;
}

/* "dft": {"frequencies": [f, ...] | {"min", "max", "count"}, "normalize": "none" | "source",
 * "probes": bool, "volumes": [groups] | "all", "surface": {"name": group} |
 * {"enclosing": [groups]}, "every": steps}. */
static dg_status parse_dft(const dg_schema *x, const cJSON *v, dg_case *c) {
  static const char *const keys[] = {"frequencies", "normalize", "probes", "volumes", "surface",
                                     "every", NULL};
  static const char *const surface_keys[] = {"name", "enclosing", NULL};
  static const char *const norms[] = {"none", "source", NULL};
  dg_case_dft *d = &c->dft;
  DG_CALL(dg_schema_object(x, v, "dft", keys));
  d->on = 1;
  d->every = 1;
  DG_CALL(dg_schema_required(x, v, "dft", "frequencies",
                             "a list, or {\"min\", \"max\", \"count\"}"));
  DG_CALL(parse_dft_frequencies(x, at(v, "frequencies"), d));
  DG_CALL(dg_schema_opt_choice(x, v, "dft", "normalize", norms, &d->normalize));
  DG_CALL(dg_schema_opt_bool(x, v, "dft", "probes", &d->probes));
  const cJSON *it;
  if ((it = at(v, "volumes"))) {
    if (cJSON_IsString(it)) {
      DG_CHECK(!strcmp(it->valuestring, "all"), DG_ERR_INPUT, "%s: dft.volumes: expected \"all\" "
               "or an array of physical volume names or tags, got \"%s\"", x->file, it->valuestring);
      d->all_volumes = 1;
    } else {
      DG_CALL(dg_case_groups(x, it, "dft.volumes", d->volumes, &d->n_volumes));
    }
  }
  if ((it = at(v, "surface"))) {
    DG_CHECK(cJSON_IsObject(it), DG_ERR_INPUT, "%s: dft.surface: expected {\"name\": surface} "
             "or {\"enclosing\": [volumes]}, got %s", x->file, dg_schema_type(it));
    DG_CALL(dg_schema_keys(x, it, "dft.surface", surface_keys));
    const cJSON *nm = at(it, "name"), *en = at(it, "enclosing");
    DG_CHECK(!nm != !en, DG_ERR_INPUT, "%s: dft.surface: give exactly one of \"name\" (a closed "
             "interior surface) and \"enclosing\" (volumes whose boundary it is)", x->file);
    if (nm) {
      DG_CALL(dg_case_group(x, nm, "dft.surface.name", &d->surface_name));
      d->surface = DG_DFT_SURFACE_NAMED;
    } else {
      DG_CALL(dg_case_groups(x, en, "dft.surface.enclosing", d->enclosing, &d->n_enclosing));
      d->surface = DG_DFT_SURFACE_ENCLOSING;
    }
  }
  DG_CALL(dg_schema_opt_int(x, v, "dft", "every", 1, 1 << 20, &d->every));
  DG_CHECK(d->probes || d->all_volumes || d->n_volumes || d->surface, DG_ERR_INPUT,
           "%s: dft: nothing to transform: set \"probes\": true, \"volumes\" or \"surface\"",
           x->file);
  return DG_OK;
}

/* "far_field": {"planes": ["xz", ...], "step": deg, "sphere": [dtheta, dphi], "rcs": bool,
 * "origin": [x, y, z]}: needs dft.surface (checked by the caller). */
static dg_status parse_far_field(const dg_schema *x, const cJSON *v, dg_case *c) {
  static const char *const keys[] = {"planes", "step", "sphere", "rcs", "origin", NULL};
  static const char *const planes[] = {"xy", "xz", "yz", NULL};
  dg_case_far_field *ff = &c->far_field;
  DG_CALL(dg_schema_object(x, v, "far_field", keys));
  ff->on = 1;
  ff->step = 5;
  const cJSON *it;
  if ((it = at(v, "planes"))) {
    DG_CHECK(cJSON_IsArray(it) && cJSON_GetArraySize(it) >= 1 && cJSON_GetArraySize(it) <= 3,
             DG_ERR_INPUT, "%s: far_field.planes: expected an array of 1 to 3 of \"xy\", "
             "\"xz\", \"yz\", got %s", x->file, dg_schema_type(it));
    ff->n_planes = cJSON_GetArraySize(it);
    for (int i = 0; i < ff->n_planes; ++i) {
      char where[48];
      int choice;
      snprintf(where, sizeof where, "far_field.planes[%d]", i);
      DG_CALL(dg_schema_choice(x, cJSON_GetArrayItem(it, i), where, planes, &choice));
      for (int j = 0; j < i; ++j)
        DG_CHECK(strcmp(ff->planes[j], planes[choice]), DG_ERR_INPUT,
                 "%s: %s: plane \"%s\" given twice", x->file, where, planes[choice]);
      snprintf(ff->planes[i], sizeof ff->planes[i], "%s", planes[choice]);
    }
  }
  DG_CALL(dg_schema_opt_positive(x, v, "far_field", "step", &ff->step));
  DG_CHECK(ff->step <= 360, DG_ERR_INPUT, "%s: far_field.step: at most 360 degrees, got %g",
           x->file, ff->step);
  if ((it = at(v, "sphere"))) {
    DG_CALL(dg_schema_vec(x, it, "far_field.sphere", 2, ff->sphere_step));
    DG_CHECK(ff->sphere_step[0] > 0 && ff->sphere_step[0] <= 180 && ff->sphere_step[1] > 0 &&
                 ff->sphere_step[1] <= 360, DG_ERR_INPUT, "%s: far_field.sphere: expected "
             "[theta step, phi step] in degrees, in (0, 180] and (0, 360], got [%g, %g]",
             x->file, ff->sphere_step[0], ff->sphere_step[1]);
    ff->has_sphere = 1;
  }
  DG_CHECK(ff->n_planes || ff->has_sphere, DG_ERR_INPUT, "%s: far_field: no directions: give "
           "\"planes\" (e.g. [\"xz\", \"xy\"]) and/or \"sphere\" ([dtheta, dphi])", x->file);
  DG_CALL(dg_schema_opt_bool(x, v, "far_field", "rcs", &ff->rcs));
  return dg_schema_opt_vec(x, v, "far_field", "origin", 3, ff->origin);
}

/* The parameters of each pole type (dg/dispersive.h), each required, with what it is. */
static const char *const pole_types[] = {"debye", "drude", "lorentz", NULL};
static const struct {
  const char *key, *hint;
} pole_params[3][3] = {
    {{"delta_eps", "the pole's strength, > 0"}, {"tau", "the relaxation time, > 0"}, {NULL, NULL}},
    {{"omega_p", "the angular plasma frequency, > 0"},
     {"gamma", "the collision rate, >= 0"}, {NULL, NULL}},
    {{"delta_eps", "the pole's strength, > 0"},
     {"omega_0", "the angular resonance frequency, > 0"},
     {"delta", "the damping rate, >= 0"}}};

static double *pole_value(dg_pole *p, const char *key) {
  if (!strcmp(key, "delta_eps")) return &p->delta_eps;
  if (!strcmp(key, "tau")) return &p->tau;
  if (!strcmp(key, "omega_p")) return &p->omega_p;
  if (!strcmp(key, "gamma")) return &p->gamma;
  if (!strcmp(key, "omega_0")) return &p->omega_0;
  return &p->delta;
}

/* materials[i].poles[j]: its type and exactly that type's parameters, all required. */
static dg_status parse_pole(const dg_schema *x, const cJSON *v, const char *path, dg_pole *p) {
  static const char *const keys[] = {"type", "delta_eps", "tau", "omega_p", "gamma", "omega_0",
                                     "delta", NULL};
  DG_CALL(section(x, v, path, keys));
  memset(p, 0, sizeof *p);
  DG_CALL(dg_schema_required(x, v, path, "type", "debye, drude or lorentz"));
  int type = 0;
  DG_CALL(dg_schema_opt_choice(x, v, path, "type", pole_types, &type));
  p->type = (dg_pole_type)type;
  char own[64] = "";
  for (int j = 0; j < 3 && pole_params[type][j].key; ++j) {
    const int last = j == 2 || !pole_params[type][j + 1].key;
    snprintf(own + strlen(own), sizeof own - strlen(own), "%s%s", !j ? "" : last ? " and " : ", ",
             pole_params[type][j].key);
  }
  for (const char *const *k = keys + 1; *k; ++k) {
    int mine = 0;
    for (int j = 0; j < 3 && pole_params[type][j].key; ++j)
      mine |= !strcmp(pole_params[type][j].key, *k);
    DG_CHECK(mine || !at(v, *k), DG_ERR_INPUT, "%s: %s.%s: a %s pole has %s, not %s", x->file,
             path, *k, pole_types[type], own, *k);
  }
  for (int j = 0; j < 3 && pole_params[type][j].key; ++j) {
    const char *key = pole_params[type][j].key;
    DG_CALL(dg_schema_required(x, v, path, key, pole_params[type][j].hint));
    DG_CALL(dg_schema_opt_number(x, v, path, key, pole_value(p, key)));
  }
  char where[160];
  snprintf(where, sizeof where, "%s: %s", x->file, path);
  return dg_pole_check(p, where);
}

static dg_status parse_material(const dg_schema *x, const cJSON *v, const char *path, int i,
                                dg_case *c) {
  static const char *const keys[] = {"volume", "eps", "mu", "sigma", "eps_inf", "poles", NULL};
  DG_CALL(dg_schema_keys(x, v, path, keys));
  dg_case_material *m = &c->materials[i];
  memset(m, 0, sizeof *m);
  m->eps = m->mu = 1.0;
  m->sigma = 0.0;
  DG_CALL(dg_case_key_group(x, v, path, "volume", "a physical volume name or tag", &m->volume));
  const cJSON *poles = at(v, "poles");
  if (poles) {
    DG_CHECK(!at(v, "eps"), DG_ERR_INPUT, "%s: %s.eps: a material with poles gives its "
             "permittivity at high frequency as eps_inf (eps(w) = eps_inf + the poles' terms)",
             x->file, path);
    DG_CALL(dg_schema_opt_positive(x, v, path, "eps_inf", &m->eps));
    char key[96];
    snprintf(key, sizeof key, "%s.poles", path);
    const int n = cJSON_IsArray(poles) ? cJSON_GetArraySize(poles) : -1;
    char got[48];
    if (n < 0) snprintf(got, sizeof got, "%s", dg_schema_type(poles));
    else snprintf(got, sizeof got, "%d", n);
    DG_CHECK(n >= 1 && n <= DG_MAX_POLES, DG_ERR_INPUT, "%s: %s: expected an array of 1 to %d "
             "poles ({\"type\": \"debye\", \"delta_eps\": ..., \"tau\": ...}, drude: omega_p, "
             "gamma; lorentz: delta_eps, omega_0, delta), got %s", x->file, key, DG_MAX_POLES, got);
    int j = 0;
    for (const cJSON *it = poles->child; it; it = it->next, ++j) {
      char item[112];
      snprintf(item, sizeof item, "%s[%d]", key, j);
      DG_CALL(parse_pole(x, it, item, &m->disp.pole[j]));
    }
    m->disp.n_poles = n;
  } else {
    DG_CHECK(!at(v, "eps_inf"), DG_ERR_INPUT, "%s: %s.eps_inf: the high-frequency permittivity "
             "of a dispersive material, which needs \"poles\"; a material without poles gives "
             "\"eps\"", x->file, path);
    DG_CALL(dg_schema_opt_positive(x, v, path, "eps", &m->eps));
  }
  DG_CALL(dg_schema_opt_positive(x, v, path, "mu", &m->mu));
  DG_CALL(dg_schema_opt_number(x, v, path, "sigma", &m->sigma));
  DG_CHECK(m->sigma >= 0, DG_ERR_INPUT, "%s: %s.sigma: must be >= 0, got %g", x->file, path,
           m->sigma);
  return DG_OK;
}

static const char *const bc_names[] = {"none", "pec", "pmc", "absorbing", NULL};

static dg_status parse_boundary(const dg_schema *x, const cJSON *v, const char *path, int i,
                                dg_case *c) {
  static const char *const keys[] = {"surface", "type", NULL};
  DG_CALL(dg_schema_keys(x, v, path, keys));
  dg_case_boundary *b = &c->boundaries[i];
  DG_CALL(dg_case_key_group(x, v, path, "surface", "a physical surface name or tag", &b->surface));
  DG_CALL(dg_schema_required(x, v, path, "type", "pec, pmc or absorbing"));
  int bc = 0;
  DG_CALL(dg_schema_opt_choice(x, v, path, "type", bc_names + 1, &bc));
  b->bc = (dg_bc)(bc + 1);
  return DG_OK;
}

/* periodic[i]: {"surfaces": [a, b], "translation": [x, y, z]} (translation optional) */
static dg_status parse_periodic(const dg_schema *x, const cJSON *v, const char *path, int i,
                                dg_case *c) {
  static const char *const keys[] = {"surfaces", "translation", NULL};
  DG_CALL(dg_schema_keys(x, v, path, keys));
  dg_case_periodic *p = &c->periodic[i];
  DG_CALL(dg_schema_required(x, v, path, "surfaces", "two physical surface names or tags"));
  const cJSON *sv = cJSON_GetObjectItemCaseSensitive(v, "surfaces");
  DG_CHECK(cJSON_IsArray(sv) && cJSON_GetArraySize(sv) == 2, DG_ERR_INPUT,
           "%s: %s.surfaces: expected an array of two physical surface names or tags (the "
           "two sides of the period), got %s", x->file, path, dg_schema_type(sv));
  for (int j = 0; j < 2; ++j) {
    char where[96];
    snprintf(where, sizeof where, "%s.surfaces[%d]", path, j);
    DG_CALL(dg_case_group(x, cJSON_GetArrayItem(sv, j), where, &p->surfaces[j]));
  }
  p->has_translation = cJSON_GetObjectItemCaseSensitive(v, "translation") != NULL;
  if (p->has_translation) {
    DG_CALL(dg_schema_opt_vec(x, v, path, "translation", 3, p->translation));
    DG_CHECK(p->translation[0] != 0 || p->translation[1] != 0 || p->translation[2] != 0,
             DG_ERR_INPUT, "%s: %s.translation: is zero (it moves %s's faces onto %s's)",
             x->file, path, "surfaces[0]", "surfaces[1]");
  }
  return DG_OK;
}

static dg_status parse_probe(const dg_schema *x, const cJSON *v, const char *path, int i,
                             dg_case *c) {
  static const char *const keys[] = {"name", "position", NULL};
  DG_CALL(dg_schema_keys(x, v, path, keys));
  dg_case_probe *p = &c->probes[i];
  snprintf(p->name, sizeof p->name, "probe%d", i);
  DG_CALL(dg_schema_opt_string(x, v, path, "name", p->name, sizeof p->name));
  return key_vec(x, v, path, "position", p->pos);
}

static dg_status parse_initial(const dg_schema *x, const cJSON *v, dg_case *c) {
  static const char *const keys[] = {"type", "mode", "amplitudes", NULL};
  static const char *const types[] = {"zero", "cavity_mode", NULL};
  DG_CALL(section(x, v, "initial", keys));
  DG_CALL(dg_schema_required(x, v, "initial", "type", "zero or cavity_mode"));
  int type = 0;
  DG_CALL(dg_schema_opt_choice(x, v, "initial", "type", types, &type));
  c->has_cavity_mode = type == 1;
  if (!c->has_cavity_mode) return DG_OK;
  snprintf(c->mode_key, sizeof c->mode_key, "initial");
  const cJSON *it;
  if ((it = at(v, "mode")))
    DG_CALL(dg_schema_ints(x, it, "initial.mode", 3, 0, 1000000, c->mode));
  if ((it = at(v, "amplitudes"))) {
    DG_CALL(dg_schema_vec(x, it, "initial.amplitudes", 3, c->amp));
    c->has_amp = 1;
  }
  return DG_OK;
}

static dg_status parse_output(const dg_schema *x, const cJSON *v, dg_case *c) {
  static const char *const keys[] = {"directory", "vtu_every", "vtu_times", "vtu_format",
                                     "vtu_precision", "energy_every", "probe_every", NULL};
  static const char *const formats[] = {"lagrange", "linear", NULL};
  static const char *const precisions[] = {"float", "double", NULL};
  DG_CALL(section(x, v, "output", keys));
  const cJSON *it;
  if ((it = at(v, "directory")))
    DG_CALL(dg_schema_file_path(x, it, "output.directory", c->output_dir, sizeof c->output_dir));
  DG_CALL(dg_schema_opt_int(x, v, "output", "vtu_every", 0, 1 << 30, &c->vtu_every));
  DG_CALL(dg_schema_opt_int(x, v, "output", "energy_every", 0, 1 << 30, &c->energy_every));
  DG_CALL(dg_schema_opt_int(x, v, "output", "probe_every", 1, 1 << 30, &c->probe_every));
  int f = -1;
  DG_CALL(dg_schema_opt_choice(x, v, "output", "vtu_format", formats, &f));
  if (f >= 0) c->vtu_mode = f == 0 ? DG_VTU_LAGRANGE : DG_VTU_SUBDIVIDED;
  f = -1;
  DG_CALL(dg_schema_opt_choice(x, v, "output", "vtu_precision", precisions, &f));
  if (f >= 0) c->vtu_precision = f + 1;
  if ((it = at(v, "vtu_times"))) {
    DG_CHECK(cJSON_IsArray(it), DG_ERR_INPUT, "%s: output.vtu_times: expected an array of times", x->file);
    const int n = cJSON_GetArraySize(it);
    DG_CALL(DG_ALLOC(c->vtu_times, n));
    c->n_vtu_times = n;
    DG_CALL(dg_schema_vec(x, it, "output.vtu_times", n, c->vtu_times));
    for (int i = 0; i < n; ++i)
      DG_CHECK(c->vtu_times[i] >= 0, DG_ERR_INPUT,
               "%s: output.vtu_times[%d]: a snapshot time must be >= 0, got %g", x->file, i,
               c->vtu_times[i]);
    /* The times are taken in order as the run passes them: an earlier time after a later
     * one would never be written. */
    for (int i = 1; i < n; ++i)
      DG_CHECK(c->vtu_times[i] > c->vtu_times[i - 1], DG_ERR_INPUT,
               "%s: output.vtu_times[%d]: %g is %s output.vtu_times[%d] = %g; list the snapshot "
               "times in increasing order, each once", x->file, i, c->vtu_times[i],
               c->vtu_times[i] == c->vtu_times[i - 1] ? "the same as" : "before", i - 1,
               c->vtu_times[i - 1]);
  }
  return DG_OK;
}

static dg_status parse_checkpoint(const dg_schema *x, const cJSON *v, dg_case *c) {
  static const char *const keys[] = {"every_steps", "every_seconds", NULL};
  DG_CALL(section(x, v, "checkpoint", keys));
  DG_CALL(dg_schema_opt_int(x, v, "checkpoint", "every_steps", 0, 1 << 30, &c->checkpoint_every));
  return dg_schema_opt_positive(x, v, "checkpoint", "every_seconds", &c->checkpoint_seconds);
}

static dg_status parse_time_stepping(const dg_schema *x, const cJSON *v, dg_case *c) {
  static const char *const keys[] = {"scheme", "max_levels", "stage_cost", NULL};
  static const char *const schemes[] = {"lserk4", "multirate", "multirate-lserk4", "auto", NULL};
  DG_CALL(section(x, v, "time_stepping", keys));
  int choice = -1;
  DG_CALL(dg_schema_opt_choice(x, v, "time_stepping", "scheme", schemes, &choice));
  if (choice >= 0) {
    c->mr_auto = choice == 3 ? 2 : 0;
    c->multirate = choice == 1 || choice == 2;
    c->mr_scheme = choice == 1 ? DG_MR_AB3 : DG_MR_LSERK4;
  }
  DG_CALL(dg_schema_opt_int(x, v, "time_stepping", "max_levels", 1, DG_MR_MAX_LEVELS,
                            &c->max_levels));
  double cost = NAN; /* left NAN when the key is absent */
  DG_CALL(dg_schema_opt_number(x, v, "time_stepping", "stage_cost", &cost));
  if (!isnan(cost)) {
    char key[128];
    DG_CHECK(cost >= 0 && cost <= 1e9, DG_ERR_INPUT,
             "%s: %s must be a number of element evaluations 0..1e9 (0: the fewest "
             "evaluations, whatever the stages cost), got %g", x->file,
             dg_schema_key_path(key, sizeof key, "time_stepping", "stage_cost"), cost);
    c->stage_cost = cost;
  }
  return DG_OK;
}

void dg_case_solver_options(const dg_case *c, dg_solver_options *o) {
  *o = (dg_solver_options){.backend = c->backend, .precision = c->precision,
                           .device = c->device, .variant = c->variant, .tune = c->tune,
                           .tune_budget = c->tune_budget, .tune_log = c->quiet ? NULL : stderr,
                           .dump_dir = c->dump_dir, .source = c->source};
}

dg_status dg_case_cavity_mode(const dg_case *c, const double lo[3], const double hi[3],
                              dg_cavity_mode *out) {
  const dg_status st = dg_cavity_mode_init(out, c->mode[0], c->mode[1], c->mode[2],
                                           c->has_amp ? c->amp : NULL, lo, hi);
  if (st != DG_OK) {
    if (!strcmp(c->mode_key, "initial"))
      return dg_error_prefix(st, "%s: initial.mode/amplitudes: ", c->source);
    return dg_error_prefix(st, "%s: ", c->mode_key[0] ? c->mode_key : "--mode");
  }
  return DG_OK;
}

/* The length of a top-level array of objects (materials, boundaries, probes). */
static dg_status array_size(const dg_schema *x, const cJSON *v, const char *key, int *n) {
  DG_CHECK(cJSON_IsArray(v), DG_ERR_INPUT, "%s: %s: expected an array", x->file, key);
  *n = cJSON_GetArraySize(v);
  return DG_OK;
}

dg_status dg_case_parse(dg_case *c, const char *json, const char *path) {
  return dg_case_parse_schema(c, json, path, NULL, NULL);
}

dg_status dg_case_parse_schema(dg_case *c, const char *json, const char *path,
                               dg_case_schema_fn visit, void *visit_ctx) {
  static const char *const keys[] = {
      "mesh", "order", "precision", "backend", "final_time", "stop_energy", "stop_dft", "steps",
      "cfl", "flux",
      "materials", "boundaries", "default_boundary", "sources", "initial", "probes", "output",
      "checkpoint", "variant", "device", "tune", "tune_budget", "pml", "tfsf", "time_stepping",
      "dft", "far_field", "periodic", NULL};
  static const char *const precisions[] = {"float", "double", NULL};
  static const char *const fluxes[] = {"upwind", "central", NULL};
  static const char *const modes[] = {"auto", "never", "always", NULL};
  const dg_schema s = {path, visit, visit_ctx}, *x = &s;
  cJSON *root;
  DG_CALL(dg_schema_parse(json, path, &root));
  dg_status st = DG_OK;
  DG_CHECK_GOTO(done, cJSON_IsObject(root), DG_ERR_INPUT, "%s: expected a JSON object at the top level", path);
  DG_CALL_GOTO(done, dg_schema_keys(x, root, "", keys));
  snprintf(c->source, sizeof c->source, "%s", path);
  /* A case file describes its own problem: no cavity mode and no default boundary unless
   * it asks for them. */
  c->has_cavity_mode = 0;
  c->has_default_bc = 0;
  const cJSON *it;
  if ((it = at(root, "mesh"))) DG_CALL_GOTO(done, parse_mesh(x, it, c));
  DG_CALL_GOTO(done, dg_schema_opt_int(x, root, "", "order", 1, DG_MAX_ORDER, &c->order));
  int prec = -1, backend = -1, flux = -1, bc = -1, tune = -1;
  DG_CALL_GOTO(done, dg_schema_opt_choice(x, root, "", "precision", precisions, &prec));
  if (prec >= 0) c->precision = prec ? DG_PREC_DOUBLE : DG_PREC_FLOAT;
  DG_CALL_GOTO(done, dg_schema_opt_choice(x, root, "", "backend", dg_backend_names, &backend));
  if (backend >= 0) c->backend = (dg_backend)backend;
  DG_CALL_GOTO(done, dg_schema_opt_choice(x, root, "", "flux", fluxes, &flux));
  if (flux >= 0) c->alpha = flux ? 0.0 : 1.0;
  DG_CHECK_GOTO(done, !(at(root, "final_time") && at(root, "steps")), DG_ERR_INPUT,
                "%s: give \"final_time\" or \"steps\", not both", path);
  DG_CALL_GOTO(done, dg_schema_opt_positive(x, root, "", "final_time", &c->final_time));
  DG_CALL_GOTO(done, dg_schema_opt_int(x, root, "", "steps", 1, 1 << 30, &c->steps));
  if ((it = at(root, "stop_energy"))) {
    DG_CALL_GOTO(done, dg_schema_positive(x, it, "stop_energy", &c->stop_energy));
    DG_CHECK_GOTO(done, c->stop_energy < 1, DG_ERR_INPUT, "%s: stop_energy: expected a fraction "
                  "of the peak energy in (0, 1) (e.g. 1e-6), got %g", path, c->stop_energy);
  }
  if ((it = at(root, "stop_dft"))) {
    DG_CALL_GOTO(done, dg_schema_positive(x, it, "stop_dft", &c->stop_dft));
    DG_CHECK_GOTO(done, c->stop_dft < 1, DG_ERR_INPUT, "%s: stop_dft: expected a relative change "
                  "of the DFT sums in (0, 1) (e.g. 1e-3), got %g", path, c->stop_dft);
    DG_CHECK_GOTO(done, at(root, "dft") != NULL, DG_ERR_INPUT, "%s: stop_dft: the case has no "
                  "\"dft\" section, so there are no sums to converge; add one or drop stop_dft",
                  path);
  }
  DG_CALL_GOTO(done, dg_schema_opt_positive(x, root, "", "cfl", &c->cfl));
  if ((it = at(root, "materials"))) {
    DG_CALL_GOTO(done, array_size(x, it, "materials", &c->n_materials));
    DG_CALL_GOTO(done, DG_ALLOC(c->materials, c->n_materials));
    DG_CALL_GOTO(done, parse_array(x, it, "materials", parse_material, c));
  }
  if ((it = at(root, "boundaries"))) {
    DG_CALL_GOTO(done, array_size(x, it, "boundaries", &c->n_boundaries));
    DG_CALL_GOTO(done, DG_ALLOC(c->boundaries, c->n_boundaries));
    DG_CALL_GOTO(done, parse_array(x, it, "boundaries", parse_boundary, c));
  }
  if ((it = at(root, "periodic"))) {
    DG_CALL_GOTO(done, array_size(x, it, "periodic", &c->n_periodic));
    DG_CHECK_GOTO(done, c->n_periodic >= 1 && c->n_periodic <= DG_MESH_MAX_PERIODS, DG_ERR_INPUT,
                  "%s: periodic: expected 1 to %d pairs of surfaces, got %d", path,
                  DG_MESH_MAX_PERIODS, c->n_periodic);
    DG_CALL_GOTO(done, parse_array(x, it, "periodic", parse_periodic, c));
  }
  DG_CALL_GOTO(done, dg_schema_opt_choice(x, root, "", "default_boundary", bc_names + 1, &bc));
  if (bc >= 0) {
    c->has_default_bc = 1;
    c->default_bc = (dg_bc)(bc + 1);
  }
  if ((it = at(root, "sources")))
    DG_CALL_GOTO(done, parse_array(x, it, "sources", parse_source, c));
  if ((it = at(root, "initial"))) DG_CALL_GOTO(done, parse_initial(x, it, c));
  if ((it = at(root, "probes"))) {
    DG_CALL_GOTO(done, array_size(x, it, "probes", &c->n_probes));
    DG_CALL_GOTO(done, DG_ALLOC(c->probes, c->n_probes));
    DG_CALL_GOTO(done, parse_array(x, it, "probes", parse_probe, c));
  }
  if ((it = at(root, "output"))) DG_CALL_GOTO(done, parse_output(x, it, c));
  if ((it = at(root, "checkpoint"))) DG_CALL_GOTO(done, parse_checkpoint(x, it, c));
  if ((it = at(root, "time_stepping"))) DG_CALL_GOTO(done, parse_time_stepping(x, it, c));
  DG_CALL_GOTO(done, dg_schema_opt_string(x, root, "", "variant", c->variant, sizeof c->variant));
  DG_CALL_GOTO(done, dg_schema_opt_string(x, root, "", "device", c->device, sizeof c->device));
  DG_CALL_GOTO(done, dg_schema_opt_choice(x, root, "", "tune", modes, &tune));
  if (tune >= 0) c->tune = (dg_tune_mode)tune;
  DG_CALL_GOTO(done, dg_schema_opt_positive(x, root, "", "tune_budget", &c->tune_budget));
  if ((it = at(root, "pml"))) DG_CALL_GOTO(done, parse_pml(x, it, c));
  if (c->box_pml_cells > 0 && !c->mesh_file[0]) c->has_pml = 1; /* the box's layer absorbs */
  if ((it = at(root, "tfsf"))) DG_CALL_GOTO(done, parse_tfsf(x, it, c));
  if (c->box_tfsf_cells > 0 && !c->mesh_file[0] && !c->has_tfsf) { /* the box's surface */
    c->has_tfsf = 1;
    snprintf(c->tfsf_surface.name, sizeof c->tfsf_surface.name, "tfsf");
    c->tfsf_surface.tag = -1;
  }
  DG_CHECK_GOTO(done, !c->has_tfsf || (c->has_plane_wave && !c->plane_wave.scattered),
                DG_ERR_INPUT, "%s: tfsf: needs a plane_wave source in the total-field "
                "formulation (the surface is where it enters)", path);
  if ((it = at(root, "dft"))) {
    DG_CALL_GOTO(done, parse_dft(x, it, c));
    DG_CHECK_GOTO(done, !c->dft.probes || c->n_probes, DG_ERR_INPUT,
                  "%s: dft.probes: the case has no \"probes\" to transform", path);
    DG_CHECK_GOTO(done, !c->dft.normalize || c->n_dipoles || c->has_plane_wave, DG_ERR_INPUT,
                  "%s: dft.normalize: \"source\" needs a source (a dipole or a plane wave) whose "
                  "pulse divides the spectra", path);
  }
  if ((it = at(root, "far_field"))) {
    DG_CALL_GOTO(done, parse_far_field(x, it, c));
    DG_CHECK_GOTO(done, c->dft.on && c->dft.surface, DG_ERR_INPUT, "%s: far_field: needs the "
                  "surface DFT it transforms: \"dft\": {\"frequencies\": [...], \"surface\": "
                  "{\"name\": SURFACE}}", path);
    DG_CHECK_GOTO(done, !c->far_field.rcs || c->has_plane_wave, DG_ERR_INPUT, "%s: far_field.rcs: "
                  "the radar cross section needs a plane_wave source (the incident wave)", path);
  }
  DG_CALL_GOTO(done, dg_case_check_duplicate_groups(x, c));
done:
  cJSON_Delete(root);
  return st;
}

dg_status dg_case_read(dg_case *c, const char *path) {
  FILE *f = fopen(path, "rb");
  DG_CHECK(f, DG_ERR_IO, "cannot open case file %s: %s", path, strerror(errno));
  char *text = NULL;
  long n = -1;
  if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
  dg_status st = DG_OK;
  DG_CHECK_GOTO(done, n >= 0 && n < (1L << 26) && fseek(f, 0, SEEK_SET) == 0, DG_ERR_IO,
                "cannot read case file %s (unreadable or larger than 64 MiB)", path);
  DG_CALL_GOTO(done, DG_ALLOC(text, n + 1));
  DG_CHECK_GOTO(done, fread(text, 1, (size_t)n, f) == (size_t)n, DG_ERR_IO,
                "cannot read case file %s: %s", path, strerror(errno));
  text[n] = '\0';
  DG_CALL_GOTO(done, dg_case_parse(c, text, path));
done:
  fclose(f);
  dg_free(&text);
  return st;
}

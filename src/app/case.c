#include "app/case.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/alloc.h"
#include "io/checksum.h"

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
  c->backend = DG_BACKEND_OPENCL;
  c->final_time = 1.0;
  c->cfl = 1.0;
  c->alpha = 1.0;
  c->max_levels = DG_CASE_MAX_LEVELS;
  c->has_default_bc = 1;
  c->default_bc = DG_BC_PEC;
  c->has_cavity_mode = 1;
  c->vtu_mode = DG_VTU_LAGRANGE;
  c->probe_every = 1;
  c->tune = DG_TUNE_AUTO;
  /* DGTD_TUNE=auto|never|always sets the default (the test suite uses never). */
  const char *env = getenv("DGTD_TUNE");
  if (env && !strcmp(env, "never")) c->tune = DG_TUNE_NEVER;
  if (env && !strcmp(env, "always")) c->tune = DG_TUNE_ALWAYS;
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

int dg_edit_distance(const char *a, const char *b) {
  const size_t n = strlen(a), m = strlen(b);
  if (n > 63 || m > 63) return 99;
  int d[64][64];
  for (size_t i = 0; i <= n; ++i) d[i][0] = (int)i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = (int)j;
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      const int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      const int del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
      d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
    }
  return d[n][m];
}

/* Parsing context: the file (for messages) and, for dg_case_parse_schema, the visitor that
 * is shown every object's accepted keys. */
typedef struct {
  const char *file;
  dg_case_schema_fn visit;
  void *visit_ctx;
} ctx;

/* Reject keys of obj that are not in allowed[], suggesting the closest allowed one. */
static dg_status check_keys(const ctx *x, const cJSON *obj, const char *where,
                            const char *const *allowed) {
  if (x->visit) x->visit(x->visit_ctx, where, allowed);
  /* cJSON keeps every duplicate and lookups return the first: a second value would be
   * silently ignored. */
  for (const cJSON *it = obj->child; it; it = it->next)
    for (const cJSON *prev = obj->child; prev != it; prev = prev->next)
      if (it->string && prev->string && !strcmp(it->string, prev->string))
        return DG_ERROR(DG_ERR_INPUT, "%s: %s%s%s: duplicate key (given twice in one object)",
                        x->file, where, *where ? "." : "", it->string);
  for (const cJSON *it = obj->child; it; it = it->next) {
    int ok = 0, best = 99;
    const char *guess = NULL;
    for (const char *const *a = allowed; *a; ++a) {
      if (!strcmp(it->string, *a)) ok = 1;
      int dist = dg_edit_distance(it->string, *a);
      if (strstr(it->string, *a) || strstr(*a, it->string)) dist = dist < 3 ? dist : 3;
      if (dist < best) best = dist, guess = *a;
    }
    if (ok) continue;
    /* Close in spelling, or one name contained in the other ("epsilon" for "eps"). */
    if (guess && (best <= 3 || strstr(it->string, guess) || strstr(guess, it->string)))
      return DG_ERROR(DG_ERR_INPUT, "%s: %s%sunknown key \"%s\" (did you mean \"%s\"?)", x->file,
                      where, *where ? ": " : "", it->string, guess);
    char list[512] = "";
    for (const char *const *a = allowed; *a; ++a) {
      strncat(list, *a, sizeof list - strlen(list) - 1);
      if (a[1]) strncat(list, ", ", sizeof list - strlen(list) - 1);
    }
    return DG_ERROR(DG_ERR_INPUT, "%s: %s%sunknown key \"%s\" (known keys: %s)", x->file, where,
                    *where ? ": " : "", it->string, list);
  }
  return DG_OK;
}

static const char *type_name(const cJSON *v) {
  if (cJSON_IsNumber(v)) return "a number";
  if (cJSON_IsString(v)) return "a string";
  if (cJSON_IsBool(v)) return "a boolean";
  if (cJSON_IsArray(v)) return "an array";
  if (cJSON_IsObject(v)) return "an object";
  if (cJSON_IsNull(v)) return "null";
  return "something else";
}

static dg_status get_number(const ctx *x, const cJSON *v, const char *path, double *out) {
  DG_CHECK(cJSON_IsNumber(v), DG_ERR_INPUT, "%s: %s: expected a number, got %s", x->file, path,
           type_name(v));
  DG_CHECK(isfinite(v->valuedouble), DG_ERR_INPUT,
           "%s: %s: the number is too large for double precision (magnitude above %g)",
           x->file, path, 1.7976931348623157e308);
  *out = v->valuedouble;
  return DG_OK;
}

static dg_status get_int(const ctx *x, const cJSON *v, const char *path, int lo, int hi, int *out) {
  double d;
  DG_CALL(get_number(x, v, path, &d));
  DG_CHECK(d == floor(d), DG_ERR_INPUT, "%s: %s: expected an integer, got %g", x->file, path, d);
  DG_CHECK(d >= lo && d <= hi, DG_ERR_INPUT, "%s: %s: %g is out of range [%d, %d]", x->file,
           path, d, lo, hi);
  *out = (int)d;
  return DG_OK;
}

static dg_status get_positive(const ctx *x, const cJSON *v, const char *path, double *out) {
  DG_CALL(get_number(x, v, path, out));
  DG_CHECK(*out > 0, DG_ERR_INPUT, "%s: %s: must be positive, got %g", x->file, path, *out);
  return DG_OK;
}

static dg_status get_string(const ctx *x, const cJSON *v, const char *path, char *out, size_t cap) {
  DG_CHECK(cJSON_IsString(v), DG_ERR_INPUT, "%s: %s: expected a string, got %s", x->file, path,
           type_name(v));
  DG_CHECK(strlen(v->valuestring) < cap, DG_ERR_INPUT, "%s: %s: string too long", x->file, path);
  strcpy(out, v->valuestring);
  return DG_OK;
}

/* One of the names in choices[] (NULL-terminated); *out is its index. */
static dg_status get_choice(const ctx *x, const cJSON *v, const char *path,
                            const char *const *choices, int *out) {
  char s[64];
  DG_CALL(get_string(x, v, path, s, sizeof s));
  char list[256] = "";
  for (int i = 0; choices[i]; ++i) {
    if (!strcmp(s, choices[i])) {
      *out = i;
      return DG_OK;
    }
    strncat(list, choices[i], sizeof list - strlen(list) - 1);
    if (choices[i + 1]) strncat(list, ", ", sizeof list - strlen(list) - 1);
  }
  return DG_ERROR(DG_ERR_INPUT, "%s: %s: \"%s\" is not one of %s", x->file, path, s, list);
}

static dg_status get_vec(const ctx *x, const cJSON *v, const char *path, int n, double *out) {
  DG_CHECK(cJSON_IsArray(v) && cJSON_GetArraySize(v) == n, DG_ERR_INPUT,
           "%s: %s: expected an array of %d numbers, got %s", x->file, path, n, type_name(v));
  int i = 0;
  for (const cJSON *it = v->child; it; it = it->next, ++i) {
    char p[160];
    snprintf(p, sizeof p, "%s[%d]", path, i);
    DG_CALL(get_number(x, it, p, &out[i]));
  }
  return DG_OK;
}

/* A physical group given as a name or a tag number. */
static dg_status get_group(const ctx *x, const cJSON *v, const char *path, dg_group_ref *g) {
  g->name[0] = '\0';
  g->tag = -1;
  if (cJSON_IsString(v)) return get_string(x, v, path, g->name, sizeof g->name);
  DG_CHECK(cJSON_IsNumber(v), DG_ERR_INPUT,
           "%s: %s: expected a physical group name (string) or tag (integer), got %s", x->file,
           path, type_name(v));
  return get_int(x, v, path, 0, 1 << 30, &g->tag);
}

/* A path from the case file: relative ones are relative to the case file's directory. */
static dg_status case_path(const ctx *x, const cJSON *v, const char *key, char *out, size_t cap) {
  char name[DG_CASE_PATH];
  DG_CALL(get_string(x, v, key, name, sizeof name));
  DG_CHECK(name[0], DG_ERR_INPUT, "%s: %s: empty path", x->file, key);
  const char *slash = strrchr(x->file, '/');
  if (name[0] != '/' && slash) {
    const size_t dir = (size_t)(slash - x->file);
    DG_CHECK(dir + 1 + strlen(name) < cap, DG_ERR_INPUT, "%s: %s: path too long", x->file, key);
    memcpy(out, x->file, dir + 1); /* the directory with its slash */
    strcpy(out + dir + 1, name);
  } else {
    DG_CHECK(strlen(name) < cap, DG_ERR_INPUT, "%s: %s: path too long", x->file, key);
    strcpy(out, name);
  }
  return DG_OK;
}

static dg_status parse_mesh(const ctx *x, const cJSON *v, dg_case *c) {
  static const char *const keys[] = {"file", "box", "allow_unmatched_faces", NULL};
  static const char *const box_keys[] = {"lo", "hi", "cells", "pml_cells", "tfsf_cells", NULL};
  DG_CHECK(cJSON_IsObject(v), DG_ERR_INPUT, "%s: mesh: expected an object, got %s", x->file,
           type_name(v));
  DG_CALL(check_keys(x, v, "mesh", keys));
  const cJSON *file = cJSON_GetObjectItemCaseSensitive(v, "file");
  const cJSON *box = cJSON_GetObjectItemCaseSensitive(v, "box");
  DG_CHECK(!file != !box, DG_ERR_INPUT, "%s: mesh: give exactly one of \"file\" and \"box\"",
           x->file);
  const cJSON *allow = cJSON_GetObjectItemCaseSensitive(v, "allow_unmatched_faces");
  if (allow) {
    DG_CHECK(cJSON_IsBool(allow), DG_ERR_INPUT, "%s: mesh.allow_unmatched_faces: expected true "
             "or false, got %s", x->file, type_name(allow));
    c->allow_unmatched = cJSON_IsTrue(allow);
  }
  if (file) {
    DG_CALL(case_path(x, file, "mesh.file", c->mesh_file, sizeof c->mesh_file));
    return DG_OK;
  }
  DG_CHECK(cJSON_IsObject(box), DG_ERR_INPUT, "%s: mesh.box: expected an object", x->file);
  DG_CALL(check_keys(x, box, "mesh.box", box_keys));
  c->mesh_file[0] = '\0';
  const cJSON *it;
  if ((it = cJSON_GetObjectItemCaseSensitive(box, "lo"))) DG_CALL(get_vec(x, it, "mesh.box.lo", 3, c->box_lo));
  if ((it = cJSON_GetObjectItemCaseSensitive(box, "hi"))) DG_CALL(get_vec(x, it, "mesh.box.hi", 3, c->box_hi));
  if ((it = cJSON_GetObjectItemCaseSensitive(box, "cells"))) {
    double cells[3];
    DG_CALL(get_vec(x, it, "mesh.box.cells", 3, cells));
    for (int d = 0; d < 3; ++d) {
      DG_CHECK(cells[d] >= 1 && cells[d] <= 1000 && cells[d] == floor(cells[d]), DG_ERR_INPUT,
               "%s: mesh.box.cells[%d]: expected an integer in [1, 1000], got %g", x->file, d, cells[d]);
      c->box_cells[d] = (int)cells[d];
    }
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(box, "pml_cells")))
    DG_CALL(get_int(x, it, "mesh.box.pml_cells", 0, 100, &c->box_pml_cells));
  if ((it = cJSON_GetObjectItemCaseSensitive(box, "tfsf_cells"))) {
    DG_CALL(get_int(x, it, "mesh.box.tfsf_cells", 0, 499, &c->box_tfsf_cells));
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

static dg_status parse_pulse(const ctx *x, const cJSON *v, const char *path, dg_pulse *p) {
  static const char *const keys[] = {"shape", "frequency", "delay", "amplitude", "ramp",
                                     "bandwidth", NULL};
  static const char *const shapes[] = {"gaussian", "ricker", "harmonic", "modulated_gaussian",
                                       NULL};
  char where[160];
  DG_CHECK(cJSON_IsObject(v), DG_ERR_INPUT, "%s: %s: expected an object", x->file, path);
  DG_CALL(check_keys(x, v, path, keys));
  memset(p, 0, sizeof *p);
  p->amplitude = 1.0;
  int shape = 0;
  const cJSON *it;
  snprintf(where, sizeof where, "%s.shape", path);
  DG_CHECK((it = cJSON_GetObjectItemCaseSensitive(v, "shape")), DG_ERR_INPUT,
           "%s: %s: missing key \"shape\" (gaussian, ricker, harmonic or modulated_gaussian)",
           x->file, path);
  DG_CALL(get_choice(x, it, where, shapes, &shape));
  p->shape = (dg_pulse_shape)shape;
  snprintf(where, sizeof where, "%s.frequency", path);
  DG_CHECK((it = cJSON_GetObjectItemCaseSensitive(v, "frequency")), DG_ERR_INPUT,
           "%s: %s: missing key \"frequency\" (gaussian: the spectral width; ricker: the peak "
           "frequency; harmonic and modulated_gaussian: the frequency)", x->file, path);
  DG_CALL(get_positive(x, it, where, &p->f0));
  /* The modulated Gaussian's band, and only its. */
  snprintf(where, sizeof where, "%s.bandwidth", path);
  it = cJSON_GetObjectItemCaseSensitive(v, "bandwidth");
  if (p->shape == DG_PULSE_MODULATED_GAUSSIAN) {
    DG_CHECK(it, DG_ERR_INPUT, "%s: %s: missing key \"bandwidth\" (the width of the band around "
             "the frequency where the spectrum is within 20 dB of its peak)", x->file, path);
    DG_CALL(get_positive(x, it, where, &p->bandwidth));
  } else {
    DG_CHECK(!it, DG_ERR_INPUT, "%s: %s: only a modulated_gaussian pulse has a bandwidth",
             x->file, where);
  }
  /* Default delay: the pulse starts from (almost) zero. */
  p->t0 = p->shape == DG_PULSE_HARMONIC ? 0.0
          : p->shape == DG_PULSE_MODULATED_GAUSSIAN ? dg_pulse_modulated_delay(p->bandwidth)
                                                    : 1.5 / p->f0;
  snprintf(where, sizeof where, "%s.delay", path);
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "delay"))) DG_CALL(get_number(x, it, where, &p->t0));
  snprintf(where, sizeof where, "%s.amplitude", path);
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "amplitude"))) DG_CALL(get_number(x, it, where, &p->amplitude));
  snprintf(where, sizeof where, "%s.ramp", path);
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "ramp"))) {
    DG_CALL(get_number(x, it, where, &p->ramp));
    DG_CHECK(p->ramp >= 0, DG_ERR_INPUT, "%s: %s: must be >= 0 periods, got %g", x->file, where, p->ramp);
  }
  return DG_OK;
}

static dg_status parse_source(const ctx *x, const cJSON *v, int i, dg_case *c) {
  static const char *const types[] = {"dipole", "plane_wave", NULL};
  static const char *const dipole_keys[] = {"type", "position", "direction", "pulse", NULL};
  static const char *const pw_keys[] = {"type", "direction", "polarization", "origin", "pulse",
                                        "formulation", NULL};
  static const char *const forms[] = {"total-field", "scattered-field", NULL};
  char path[64], where[96];
  snprintf(path, sizeof path, "sources[%d]", i);
  DG_CHECK(cJSON_IsObject(v), DG_ERR_INPUT, "%s: %s: expected an object", x->file, path);
  const cJSON *t = cJSON_GetObjectItemCaseSensitive(v, "type"), *it;
  DG_CHECK(t, DG_ERR_INPUT, "%s: %s: missing key \"type\" (dipole or plane_wave)", x->file, path);
  int type;
  snprintf(where, sizeof where, "%s.type", path);
  DG_CALL(get_choice(x, t, where, types, &type));
  if (type == 0) {
    DG_CALL(check_keys(x, v, path, dipole_keys));
    dg_dipole d;
    memset(&d, 0, sizeof d);
    snprintf(where, sizeof where, "%s.position", path);
    DG_CHECK((it = cJSON_GetObjectItemCaseSensitive(v, "position")), DG_ERR_INPUT, "%s: %s: missing key \"position\"", x->file, path);
    DG_CALL(get_vec(x, it, where, 3, d.pos));
    snprintf(where, sizeof where, "%s.direction", path);
    DG_CHECK((it = cJSON_GetObjectItemCaseSensitive(v, "direction")), DG_ERR_INPUT, "%s: %s: missing key \"direction\"", x->file, path);
    DG_CALL(get_vec(x, it, where, 3, d.dir));
    DG_CHECK(d.dir[0] != 0 || d.dir[1] != 0 || d.dir[2] != 0, DG_ERR_INPUT, "%s: %s: is zero", x->file, where);
    snprintf(where, sizeof where, "%s.pulse", path);
    DG_CHECK((it = cJSON_GetObjectItemCaseSensitive(v, "pulse")), DG_ERR_INPUT, "%s: %s: missing key \"pulse\"", x->file, path);
    DG_CALL(parse_pulse(x, it, where, &d.pulse));
    dg_dipole *grown = realloc(c->dipoles, (size_t)(c->n_dipoles + 1) * sizeof *grown);
    DG_CHECK(grown, DG_ERR_MEMORY, "out of memory");
    c->dipoles = grown;
    c->dipoles[c->n_dipoles++] = d;
    return DG_OK;
  }
  DG_CALL(check_keys(x, v, path, pw_keys));
  DG_CHECK(!c->has_plane_wave, DG_ERR_INPUT, "%s: %s: only one plane wave per case", x->file, path);
  dg_plane_wave *pw = &c->plane_wave;
  memset(pw, 0, sizeof *pw);
  snprintf(where, sizeof where, "%s.direction", path);
  DG_CHECK((it = cJSON_GetObjectItemCaseSensitive(v, "direction")), DG_ERR_INPUT, "%s: %s: missing key \"direction\"", x->file, path);
  DG_CALL(get_vec(x, it, where, 3, pw->k));
  snprintf(where, sizeof where, "%s.polarization", path);
  DG_CHECK((it = cJSON_GetObjectItemCaseSensitive(v, "polarization")), DG_ERR_INPUT, "%s: %s: missing key \"polarization\"", x->file, path);
  DG_CALL(get_vec(x, it, where, 3, pw->pol));
  snprintf(where, sizeof where, "%s.origin", path);
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "origin"))) DG_CALL(get_vec(x, it, where, 3, pw->x0));
  snprintf(where, sizeof where, "%s.pulse", path);
  DG_CHECK((it = cJSON_GetObjectItemCaseSensitive(v, "pulse")), DG_ERR_INPUT, "%s: %s: missing key \"pulse\"", x->file, path);
  DG_CALL(parse_pulse(x, it, where, &pw->pulse));
  int form = 0;
  snprintf(where, sizeof where, "%s.formulation", path);
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "formulation"))) DG_CALL(get_choice(x, it, where, forms, &form));
  pw->scattered = form == 1;
  dg_status st = dg_plane_wave_init(pw);
  if (st != DG_OK)
    return dg_error_prefix(st, "%s: %s: ", x->file, path);
  c->has_plane_wave = 1;
  c->plane_wave_index = i;
  return DG_OK;
}

/* Parse an array of objects with parse_item(x, item, index, c). */
static dg_status parse_array(const ctx *x, const cJSON *v, const char *path,
                             dg_status (*parse_item)(const ctx *, const cJSON *, int, dg_case *),
                             dg_case *c) {
  DG_CHECK(cJSON_IsArray(v), DG_ERR_INPUT, "%s: %s: expected an array, got %s", x->file, path,
           type_name(v));
  int i = 0;
  for (const cJSON *it = v->child; it; it = it->next, ++i) DG_CALL(parse_item(x, it, i, c));
  return DG_OK;
}

/* "pml": {"volumes": [names or tags], "thickness", "profile_order", "reflection",
 * "kappa_max", "alpha_max"}, every key optional (volumes: ["pml"]). */
static dg_status parse_pml(const ctx *x, const cJSON *v, dg_case *c) {
  static const char *const keys[] = {"volumes", "thickness", "profile_order", "reflection",
                                     "kappa_max", "alpha_max", NULL};
  DG_CHECK(cJSON_IsObject(v), DG_ERR_INPUT, "%s: pml: expected an object, got %s", x->file,
           type_name(v));
  DG_CALL(check_keys(x, v, "pml", keys));
  c->has_pml = 1;
  const cJSON *it;
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "volumes"))) {
    DG_CHECK(cJSON_IsArray(it) && cJSON_GetArraySize(it) >= 1 &&
                 cJSON_GetArraySize(it) <= DG_CASE_PML_VOLUMES,
             DG_ERR_INPUT, "%s: pml.volumes: expected an array of 1 to %d physical volume names "
             "or tags", x->file, DG_CASE_PML_VOLUMES);
    c->n_pml_volumes = cJSON_GetArraySize(it);
    for (int i = 0; i < c->n_pml_volumes; ++i) {
      char where[64];
      snprintf(where, sizeof where, "pml.volumes[%d]", i);
      DG_CALL(get_group(x, cJSON_GetArrayItem(it, i), where, &c->pml_volumes[i]));
    }
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "thickness")))
    DG_CALL(get_positive(x, it, "pml.thickness", &c->pml.thickness));
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "profile_order")))
    DG_CALL(get_int(x, it, "pml.profile_order", 0, 10, &c->pml.order));
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "reflection"))) {
    DG_CALL(get_positive(x, it, "pml.reflection", &c->pml.reflection));
    DG_CHECK(c->pml.reflection < 1, DG_ERR_INPUT, "%s: pml.reflection: expected a number in "
             "(0, 1), got %g", x->file, c->pml.reflection);
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "kappa_max"))) {
    DG_CALL(get_number(x, it, "pml.kappa_max", &c->pml.kappa_max));
    DG_CHECK(c->pml.kappa_max >= 1 && c->pml.kappa_max <= 100, DG_ERR_INPUT,
             "%s: pml.kappa_max: expected a number in [1, 100], got %g", x->file, c->pml.kappa_max);
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "alpha_max")))
    DG_CALL(get_positive(x, it, "pml.alpha_max", &c->pml.alpha_max));
  return DG_OK;
}

/* "tfsf": {"surface": NAME or TAG}: the total-field/scattered-field surface. */
static dg_status parse_tfsf(const ctx *x, const cJSON *v, dg_case *c) {
  static const char *const keys[] = {"surface", NULL};
  DG_CHECK(cJSON_IsObject(v), DG_ERR_INPUT, "%s: tfsf: expected an object, got %s", x->file,
           type_name(v));
  DG_CALL(check_keys(x, v, "tfsf", keys));
  const cJSON *it = cJSON_GetObjectItemCaseSensitive(v, "surface");
  DG_CHECK(it, DG_ERR_INPUT, "%s: tfsf: missing key \"surface\" (the closed interior surface)",
           x->file);
  DG_CALL(get_group(x, it, "tfsf.surface", &c->tfsf_surface));
  c->has_tfsf = 1;
  return DG_OK;
}

/* A list of 1..DG_CASE_PML_VOLUMES group names or tags. */
static dg_status get_groups(const ctx *x, const cJSON *v, const char *path, dg_group_ref *g, int *n) {
  DG_CHECK(cJSON_IsArray(v) && cJSON_GetArraySize(v) >= 1 &&
               cJSON_GetArraySize(v) <= DG_CASE_PML_VOLUMES,
           DG_ERR_INPUT, "%s: %s: expected an array of 1 to %d physical volume names or tags, "
           "got %s", x->file, path, DG_CASE_PML_VOLUMES, type_name(v));
  *n = cJSON_GetArraySize(v);
  for (int i = 0; i < *n; ++i) {
    char where[96];
    snprintf(where, sizeof where, "%s[%d]", path, i);
    DG_CALL(get_group(x, cJSON_GetArrayItem(v, i), where, &g[i]));
  }
  return DG_OK;
}

/* "dft": {"frequencies": [f, ...] | {"min", "max", "count"}, "normalize": "none" | "source",
 * "probes": bool, "volumes": [groups] | "all", "surface": {"name": group} |
 * {"enclosing": [groups]}, "every": steps}. */
static dg_status parse_dft(const ctx *x, const cJSON *v, dg_case *c) {
  static const char *const keys[] = {"frequencies", "normalize", "probes", "volumes", "surface",
                                     "every", NULL};
  static const char *const range_keys[] = {"min", "max", "count", NULL};
  static const char *const surface_keys[] = {"name", "enclosing", NULL};
  static const char *const norms[] = {"none", "source", NULL};
  dg_case_dft *d = &c->dft;
  DG_CHECK(cJSON_IsObject(v), DG_ERR_INPUT, "%s: dft: expected an object, got %s", x->file,
           type_name(v));
  DG_CALL(check_keys(x, v, "dft", keys));
  d->on = 1;
  d->every = 1;
  const cJSON *it = cJSON_GetObjectItemCaseSensitive(v, "frequencies");
  DG_CHECK(it, DG_ERR_INPUT, "%s: dft: missing key \"frequencies\" (a list, or {\"min\", "
           "\"max\", \"count\"})", x->file);
  if (cJSON_IsArray(it)) {
    d->nfreq = cJSON_GetArraySize(it);
    DG_CHECK(d->nfreq >= 1 && d->nfreq <= 100000, DG_ERR_INPUT,
             "%s: dft.frequencies: expected 1 to 100000 frequencies, got %d", x->file, d->nfreq);
    DG_CALL(DG_ALLOC(d->freq, d->nfreq));
    for (int i = 0; i < d->nfreq; ++i) {
      char where[64];
      snprintf(where, sizeof where, "dft.frequencies[%d]", i);
      DG_CALL(get_positive(x, cJSON_GetArrayItem(it, i), where, &d->freq[i]));
    }
  } else {
    DG_CHECK(cJSON_IsObject(it), DG_ERR_INPUT, "%s: dft.frequencies: expected an array of "
             "frequencies or {\"min\", \"max\", \"count\"}, got %s", x->file, type_name(it));
    DG_CALL(check_keys(x, it, "dft.frequencies", range_keys));
    double lo, hi;
    int n;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(it, "min"),
                *b = cJSON_GetObjectItemCaseSensitive(it, "max"),
                *k = cJSON_GetObjectItemCaseSensitive(it, "count");
    DG_CHECK(a && b && k, DG_ERR_INPUT, "%s: dft.frequencies: needs \"min\", \"max\" and "
             "\"count\"", x->file);
    DG_CALL(get_positive(x, a, "dft.frequencies.min", &lo));
    DG_CALL(get_positive(x, b, "dft.frequencies.max", &hi));
    DG_CALL(get_int(x, k, "dft.frequencies.count", 1, 100000, &n));
    DG_CHECK(hi >= lo && (n > 1 || hi == lo), DG_ERR_INPUT, "%s: dft.frequencies: max (%g) must "
             "be above min (%g), or equal with count 1", x->file, hi, lo);
    d->nfreq = n;
    DG_CALL(DG_ALLOC(d->freq, n));
    for (int i = 0; i < n; ++i) d->freq[i] = n > 1 ? lo + (hi - lo) * i / (n - 1) : lo;
  }
  int choice;
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "normalize"))) {
    DG_CALL(get_choice(x, it, "dft.normalize", norms, &choice));
    d->normalize = choice;
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "probes"))) {
    DG_CHECK(cJSON_IsBool(it), DG_ERR_INPUT, "%s: dft.probes: expected true or false, got %s",
             x->file, type_name(it));
    d->probes = cJSON_IsTrue(it);
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "volumes"))) {
    if (cJSON_IsString(it)) {
      DG_CHECK(!strcmp(it->valuestring, "all"), DG_ERR_INPUT, "%s: dft.volumes: expected \"all\" "
               "or an array of physical volume names or tags, got \"%s\"", x->file, it->valuestring);
      d->all_volumes = 1;
    } else {
      DG_CALL(get_groups(x, it, "dft.volumes", d->volumes, &d->n_volumes));
    }
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "surface"))) {
    DG_CHECK(cJSON_IsObject(it), DG_ERR_INPUT, "%s: dft.surface: expected {\"name\": surface} "
             "or {\"enclosing\": [volumes]}, got %s", x->file, type_name(it));
    DG_CALL(check_keys(x, it, "dft.surface", surface_keys));
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(it, "name"),
                *en = cJSON_GetObjectItemCaseSensitive(it, "enclosing");
    DG_CHECK(!nm != !en, DG_ERR_INPUT, "%s: dft.surface: give exactly one of \"name\" (a closed "
             "interior surface) and \"enclosing\" (volumes whose boundary it is)", x->file);
    if (nm) {
      DG_CALL(get_group(x, nm, "dft.surface.name", &d->surface_name));
      d->surface = DG_DFT_SURFACE_NAMED;
    } else {
      DG_CALL(get_groups(x, en, "dft.surface.enclosing", d->enclosing, &d->n_enclosing));
      d->surface = DG_DFT_SURFACE_ENCLOSING;
    }
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "every")))
    DG_CALL(get_int(x, it, "dft.every", 1, 1 << 20, &d->every));
  DG_CHECK(d->probes || d->all_volumes || d->n_volumes || d->surface, DG_ERR_INPUT,
           "%s: dft: nothing to transform: set \"probes\": true, \"volumes\" or \"surface\"",
           x->file);
  return DG_OK;
}

/* "far_field": {"planes": ["xz", ...], "step": deg, "sphere": [dtheta, dphi], "rcs": bool,
 * "origin": [x, y, z]}: needs dft.surface (checked by the caller). */
static dg_status parse_far_field(const ctx *x, const cJSON *v, dg_case *c) {
  static const char *const keys[] = {"planes", "step", "sphere", "rcs", "origin", NULL};
  static const char *const planes[] = {"xy", "xz", "yz", NULL};
  dg_case_far_field *ff = &c->far_field;
  DG_CHECK(cJSON_IsObject(v), DG_ERR_INPUT, "%s: far_field: expected an object, got %s",
           x->file, type_name(v));
  DG_CALL(check_keys(x, v, "far_field", keys));
  ff->on = 1;
  ff->step = 5;
  const cJSON *it;
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "planes"))) {
    DG_CHECK(cJSON_IsArray(it) && cJSON_GetArraySize(it) >= 1 && cJSON_GetArraySize(it) <= 3,
             DG_ERR_INPUT, "%s: far_field.planes: expected an array of 1 to 3 of \"xy\", "
             "\"xz\", \"yz\", got %s", x->file, type_name(it));
    ff->n_planes = cJSON_GetArraySize(it);
    for (int i = 0; i < ff->n_planes; ++i) {
      char where[48];
      int choice;
      snprintf(where, sizeof where, "far_field.planes[%d]", i);
      DG_CALL(get_choice(x, cJSON_GetArrayItem(it, i), where, planes, &choice));
      for (int j = 0; j < i; ++j)
        DG_CHECK(strcmp(ff->planes[j], planes[choice]), DG_ERR_INPUT,
                 "%s: %s: plane \"%s\" given twice", x->file, where, planes[choice]);
      snprintf(ff->planes[i], sizeof ff->planes[i], "%s", planes[choice]);
    }
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "step"))) {
    DG_CALL(get_positive(x, it, "far_field.step", &ff->step));
    DG_CHECK(ff->step <= 360, DG_ERR_INPUT, "%s: far_field.step: at most 360 degrees, got %g",
             x->file, ff->step);
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "sphere"))) {
    DG_CALL(get_vec(x, it, "far_field.sphere", 2, ff->sphere_step));
    DG_CHECK(ff->sphere_step[0] > 0 && ff->sphere_step[0] <= 180 && ff->sphere_step[1] > 0 &&
                 ff->sphere_step[1] <= 360, DG_ERR_INPUT, "%s: far_field.sphere: expected "
             "[theta step, phi step] in degrees, in (0, 180] and (0, 360], got [%g, %g]",
             x->file, ff->sphere_step[0], ff->sphere_step[1]);
    ff->has_sphere = 1;
  }
  DG_CHECK(ff->n_planes || ff->has_sphere, DG_ERR_INPUT, "%s: far_field: no directions: give "
           "\"planes\" (e.g. [\"xz\", \"xy\"]) and/or \"sphere\" ([dtheta, dphi])", x->file);
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "rcs"))) {
    DG_CHECK(cJSON_IsBool(it), DG_ERR_INPUT, "%s: far_field.rcs: expected true or false, got %s",
             x->file, type_name(it));
    ff->rcs = cJSON_IsTrue(it);
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "origin")))
    DG_CALL(get_vec(x, it, "far_field.origin", 3, ff->origin));
  return DG_OK;
}

static dg_status parse_material(const ctx *x, const cJSON *v, int i, dg_case *c) {
  static const char *const keys[] = {"volume", "eps", "mu", "sigma", NULL};
  char path[64], where[96];
  snprintf(path, sizeof path, "materials[%d]", i);
  DG_CHECK(cJSON_IsObject(v), DG_ERR_INPUT, "%s: %s: expected an object", x->file, path);
  DG_CALL(check_keys(x, v, path, keys));
  dg_case_material *m = &c->materials[i];
  m->eps = m->mu = 1.0;
  m->sigma = 0.0;
  const cJSON *it;
  DG_CHECK((it = cJSON_GetObjectItemCaseSensitive(v, "volume")), DG_ERR_INPUT,
           "%s: %s: missing key \"volume\" (a physical volume name or tag)", x->file, path);
  snprintf(where, sizeof where, "%s.volume", path);
  DG_CALL(get_group(x, it, where, &m->volume));
  snprintf(where, sizeof where, "%s.eps", path);
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "eps"))) DG_CALL(get_positive(x, it, where, &m->eps));
  snprintf(where, sizeof where, "%s.mu", path);
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "mu"))) DG_CALL(get_positive(x, it, where, &m->mu));
  snprintf(where, sizeof where, "%s.sigma", path);
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "sigma"))) {
    DG_CALL(get_number(x, it, where, &m->sigma));
    DG_CHECK(m->sigma >= 0, DG_ERR_INPUT, "%s: %s: must be >= 0, got %g", x->file, where, m->sigma);
  }
  return DG_OK;
}

static const char *const bc_names[] = {"none", "pec", "pmc", "absorbing", NULL};

static dg_status parse_boundary(const ctx *x, const cJSON *v, int i, dg_case *c) {
  static const char *const keys[] = {"surface", "type", NULL};
  char path[64], where[96];
  snprintf(path, sizeof path, "boundaries[%d]", i);
  DG_CHECK(cJSON_IsObject(v), DG_ERR_INPUT, "%s: %s: expected an object", x->file, path);
  DG_CALL(check_keys(x, v, path, keys));
  dg_case_boundary *b = &c->boundaries[i];
  const cJSON *it;
  DG_CHECK((it = cJSON_GetObjectItemCaseSensitive(v, "surface")), DG_ERR_INPUT,
           "%s: %s: missing key \"surface\" (a physical surface name or tag)", x->file, path);
  snprintf(where, sizeof where, "%s.surface", path);
  DG_CALL(get_group(x, it, where, &b->surface));
  DG_CHECK((it = cJSON_GetObjectItemCaseSensitive(v, "type")), DG_ERR_INPUT,
           "%s: %s: missing key \"type\" (pec, pmc or absorbing)", x->file, path);
  snprintf(where, sizeof where, "%s.type", path);
  int bc;
  DG_CALL(get_choice(x, it, where, bc_names + 1, &bc));
  b->bc = (dg_bc)(bc + 1);
  return DG_OK;
}

static dg_status parse_probe(const ctx *x, const cJSON *v, int i, dg_case *c) {
  static const char *const keys[] = {"name", "position", NULL};
  char path[64], where[96];
  snprintf(path, sizeof path, "probes[%d]", i);
  DG_CHECK(cJSON_IsObject(v), DG_ERR_INPUT, "%s: %s: expected an object", x->file, path);
  DG_CALL(check_keys(x, v, path, keys));
  dg_case_probe *p = &c->probes[i];
  snprintf(p->name, sizeof p->name, "probe%d", i);
  const cJSON *it;
  snprintf(where, sizeof where, "%s.name", path);
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "name"))) DG_CALL(get_string(x, it, where, p->name, sizeof p->name));
  DG_CHECK((it = cJSON_GetObjectItemCaseSensitive(v, "position")), DG_ERR_INPUT,
           "%s: %s: missing key \"position\"", x->file, path);
  snprintf(where, sizeof where, "%s.position", path);
  return get_vec(x, it, where, 3, p->pos);
}

static dg_status parse_initial(const ctx *x, const cJSON *v, dg_case *c) {
  static const char *const keys[] = {"type", "mode", "amplitudes", NULL};
  static const char *const types[] = {"zero", "cavity_mode", NULL};
  DG_CHECK(cJSON_IsObject(v), DG_ERR_INPUT, "%s: initial: expected an object", x->file);
  DG_CALL(check_keys(x, v, "initial", keys));
  const cJSON *it = cJSON_GetObjectItemCaseSensitive(v, "type");
  DG_CHECK(it, DG_ERR_INPUT, "%s: initial: missing key \"type\" (zero or cavity_mode)", x->file);
  int type;
  DG_CALL(get_choice(x, it, "initial.type", types, &type));
  c->has_cavity_mode = type == 1;
  if (!c->has_cavity_mode) return DG_OK;
  snprintf(c->mode_key, sizeof c->mode_key, "initial");
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "mode"))) {
    double m[3];
    DG_CALL(get_vec(x, it, "initial.mode", 3, m));
    for (int d = 0; d < 3; ++d) {
      DG_CHECK(m[d] >= 0 && m[d] <= 1000000 && m[d] == floor(m[d]), DG_ERR_INPUT,
               "%s: initial.mode[%d]: expected an integer in [0, 1000000], got %g", x->file, d,
               m[d]);
      c->mode[d] = (int)m[d];
    }
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "amplitudes"))) {
    DG_CALL(get_vec(x, it, "initial.amplitudes", 3, c->amp));
    c->has_amp = 1;
  }
  return DG_OK;
}

static dg_status parse_output(const ctx *x, const cJSON *v, dg_case *c) {
  static const char *const keys[] = {"directory", "vtu_every", "vtu_times", "vtu_format",
                                     "vtu_precision", "energy_every", "probe_every", NULL};
  static const char *const formats[] = {"lagrange", "linear", NULL};
  static const char *const precisions[] = {"float", "double", NULL};
  DG_CHECK(cJSON_IsObject(v), DG_ERR_INPUT, "%s: output: expected an object", x->file);
  DG_CALL(check_keys(x, v, "output", keys));
  const cJSON *it;
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "directory")))
    DG_CALL(case_path(x, it, "output.directory", c->output_dir, sizeof c->output_dir));
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "vtu_every")))
    DG_CALL(get_int(x, it, "output.vtu_every", 0, 1 << 30, &c->vtu_every));
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "energy_every")))
    DG_CALL(get_int(x, it, "output.energy_every", 0, 1 << 30, &c->energy_every));
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "probe_every")))
    DG_CALL(get_int(x, it, "output.probe_every", 1, 1 << 30, &c->probe_every));
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "vtu_format"))) {
    int f;
    DG_CALL(get_choice(x, it, "output.vtu_format", formats, &f));
    c->vtu_mode = f == 0 ? DG_VTU_LAGRANGE : DG_VTU_SUBDIVIDED;
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "vtu_precision"))) {
    int f;
    DG_CALL(get_choice(x, it, "output.vtu_precision", precisions, &f));
    c->vtu_precision = f + 1;
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "vtu_times"))) {
    DG_CHECK(cJSON_IsArray(it), DG_ERR_INPUT, "%s: output.vtu_times: expected an array of times", x->file);
    const int n = cJSON_GetArraySize(it);
    DG_CALL(DG_ALLOC(c->vtu_times, n));
    c->n_vtu_times = n;
    DG_CALL(get_vec(x, it, "output.vtu_times", n, c->vtu_times));
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

static dg_status parse_checkpoint(const ctx *x, const cJSON *v, dg_case *c) {
  static const char *const keys[] = {"every_steps", "every_seconds", NULL};
  DG_CHECK(cJSON_IsObject(v), DG_ERR_INPUT, "%s: checkpoint: expected an object", x->file);
  DG_CALL(check_keys(x, v, "checkpoint", keys));
  const cJSON *it;
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "every_steps")))
    DG_CALL(get_int(x, it, "checkpoint.every_steps", 0, 1 << 30, &c->checkpoint_every));
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "every_seconds")))
    DG_CALL(get_positive(x, it, "checkpoint.every_seconds", &c->checkpoint_seconds));
  return DG_OK;
}

static dg_status parse_time_stepping(const ctx *x, const cJSON *v, dg_case *c) {
  static const char *const keys[] = {"scheme", "max_levels", NULL};
  static const char *const schemes[] = {"lserk4", "multirate", "multirate-lserk4", NULL};
  DG_CHECK(cJSON_IsObject(v), DG_ERR_INPUT, "%s: time_stepping: expected an object", x->file);
  DG_CALL(check_keys(x, v, "time_stepping", keys));
  const cJSON *it;
  int choice;
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "scheme"))) {
    DG_CALL(get_choice(x, it, "time_stepping.scheme", schemes, &choice));
    c->multirate = choice > 0;
    c->mr_scheme = choice == 2 ? DG_MR_LSERK4 : DG_MR_AB3;
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(v, "max_levels")))
    DG_CALL(get_int(x, it, "time_stepping.max_levels", 1, DG_MR_MAX_LEVELS, &c->max_levels));
  return DG_OK;
}

static int same_group(const dg_group_ref *a, const dg_group_ref *b) {
  return a->name[0] ? !strcmp(a->name, b->name) : (!b->name[0] && a->tag == b->tag);
}

static void group_text(const dg_group_ref *g, char *out, size_t cap) {
  if (g->name[0]) snprintf(out, cap, "\"%s\"", g->name);
  else snprintf(out, cap, "tag %d", g->tag);
}

/* Two entries naming one group: the later would silently win (or lose). */
static dg_status check_duplicate_groups(const ctx *x, const dg_case *c) {
  char g[DG_CASE_NAME + 16];
  for (int i = 0; i < c->n_materials; ++i)
    for (int j = 0; j < i; ++j)
      if (same_group(&c->materials[i].volume, &c->materials[j].volume)) {
        group_text(&c->materials[i].volume, g, sizeof g);
        return DG_ERROR(DG_ERR_INPUT, "%s: materials[%d].volume: volume %s already has a "
                        "material (materials[%d])", x->file, i, g, j);
      }
  for (int i = 0; i < c->n_boundaries; ++i)
    for (int j = 0; j < i; ++j)
      if (same_group(&c->boundaries[i].surface, &c->boundaries[j].surface)) {
        group_text(&c->boundaries[i].surface, g, sizeof g);
        return DG_ERROR(DG_ERR_INPUT, "%s: boundaries[%d].surface: surface %s already has a "
                        "condition (boundaries[%d])", x->file, i, g, j);
      }
  return DG_OK;
}

/* The tags a group reference stands for in the mesh: a tag itself, or every tag of that
 * dimension carrying the name (*n of them, at most cap listed). */
static void group_tags(const dg_mesh *m, int dim, const dg_group_ref *g, int *tags, int cap,
                       int *n) {
  *n = 0;
  if (!g->name[0]) {
    tags[(*n)++] = g->tag;
    return;
  }
  for (int i = 0; i < m->nphys; ++i)
    if (m->phys[i].dim == dim && !strcmp(m->phys[i].name, g->name)) {
      int seen = 0;
      for (int j = 0; j < *n && j < cap; ++j) seen |= tags[j] == m->phys[i].tag;
      if (!seen) {
        if (*n < cap) tags[*n] = m->phys[i].tag;
        ++*n;
      }
    }
}

static dg_status check_groups_dim(const dg_case *c, const dg_mesh *m, int dim) {
  const int n = dim == 3 ? c->n_materials : c->n_boundaries;
  const char *list = dim == 3 ? "materials" : "boundaries";
  const char *key = dim == 3 ? "volume" : "surface";
  enum { CAP = 8 };
  for (int i = 0; i < n; ++i) {
    const dg_group_ref *gi = dim == 3 ? &c->materials[i].volume : &c->boundaries[i].surface;
    int ti[CAP], ni;
    group_tags(m, dim, gi, ti, CAP, &ni);
    if (ni > 1) {
      char tl[128] = "";
      for (int t = 0; t < ni && t < CAP; ++t) {
        char one[16];
        snprintf(one, sizeof one, "%s%d", t ? ", " : "", ti[t]);
        strncat(tl, one, sizeof tl - strlen(tl) - 1);
      }
      return DG_ERROR(DG_ERR_INPUT, "%s: %s[%d].%s: the mesh gives the physical %s name \"%s\" "
                      "to %d tags (%s); name the tags instead", c->source, list, i, key, key,
                      gi->name, ni, tl);
    }
    if (ni == 0) continue; /* unknown names are reported when the groups are applied */
    for (int j = 0; j < i; ++j) {
      const dg_group_ref *gj = dim == 3 ? &c->materials[j].volume : &c->boundaries[j].surface;
      int tj[CAP], nj;
      group_tags(m, dim, gj, tj, CAP, &nj);
      if (nj == 1 && tj[0] == ti[0]) {
        char a[DG_CASE_NAME + 16], b[DG_CASE_NAME + 16];
        group_text(gi, a, sizeof a);
        group_text(gj, b, sizeof b);
        return DG_ERROR(DG_ERR_INPUT, "%s: %s[%d].%s: %s is physical tag %d, which %s[%d].%s "
                        "(%s) already names", c->source, list, i, key, a, ti[0], list, j, key, b);
      }
    }
  }
  return DG_OK;
}

dg_status dg_case_check_groups(const dg_case *c, const dg_mesh *m) {
  DG_CALL(check_groups_dim(c, m, 3));
  DG_CALL(check_groups_dim(c, m, 2));
  return DG_OK;
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

/* ---- problem identity for checkpoints ---- */

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
  }
  dg_checksum *b = &h[DG_CHECKPOINT_BOUNDARIES];
  hash_int(b, c->n_boundaries);
  for (int i = 0; i < c->n_boundaries; ++i) {
    hash_group(b, &c->boundaries[i].surface);
    hash_int(b, c->boundaries[i].bc);
  }
  hash_int(b, c->has_default_bc ? (long long)c->default_bc : -1);
  hash_int(b, c->allow_unmatched);
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
  }
  for (int i = 0; i < DG_CHECKPOINT_PARTS; ++i)
    parts[i] = dg_checkpoint_part_names[i] ? dg_checksum_final(&h[i]) : 0;
  parts[DG_CHECKPOINT_PML] = c->has_pml ? parts[DG_CHECKPOINT_PML] : 0; /* as before the PML */
}

/* The line and column of a byte offset, for JSON syntax errors. */
static void line_col(const char *text, const char *at, int *line, int *col) {
  *line = 1, *col = 1;
  for (const char *p = text; p < at && *p; ++p) {
    if (*p == '\n') ++*line, *col = 1;
    else ++*col;
  }
}

dg_status dg_case_parse(dg_case *c, const char *json, const char *path) {
  return dg_case_parse_schema(c, json, path, NULL, NULL);
}

dg_status dg_case_parse_schema(dg_case *c, const char *json, const char *path,
                               dg_case_schema_fn visit, void *visit_ctx) {
  static const char *const keys[] = {
      "mesh", "order", "precision", "backend", "final_time", "steps", "cfl", "flux",
      "materials", "boundaries", "default_boundary", "sources", "initial", "probes", "output",
      "checkpoint", "variant", "device", "tune", "tune_budget", "pml", "tfsf", "time_stepping",
      "dft", "far_field", NULL};
  static const char *const precisions[] = {"float", "double", NULL};
  static const char *const backends[] = {"opencl", "ref", NULL};
  static const char *const fluxes[] = {"upwind", "central", NULL};
  ctx x = {path, visit, visit_ctx};
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithOpts(json, &end, 1);
  if (!root) {
    int line, col;
    const char *at = end ? end : cJSON_GetErrorPtr();
    line_col(json, at ? at : json, &line, &col);
    return DG_ERROR(DG_ERR_PARSE, "%s:%d:%d: invalid JSON near \"%.20s\"", path, line, col,
                    at ? at : "");
  }
  dg_status st = DG_OK;
  DG_CHECK_GOTO(done, cJSON_IsObject(root), DG_ERR_INPUT, "%s: expected a JSON object at the top level", path);
  DG_CALL_GOTO(done, check_keys(&x, root, "", keys));
  snprintf(c->source, sizeof c->source, "%s", path);
  /* A case file describes its own problem: no cavity mode and no default boundary unless
   * it asks for them. */
  c->has_cavity_mode = 0;
  c->has_default_bc = 0;
  const cJSON *it;
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "mesh"))) DG_CALL_GOTO(done, parse_mesh(&x, it, c));
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "order"))) DG_CALL_GOTO(done, get_int(&x, it, "order", 1, DG_MAX_ORDER, &c->order));
  int choice;
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "precision"))) {
    DG_CALL_GOTO(done, get_choice(&x, it, "precision", precisions, &choice));
    c->precision = choice ? DG_PREC_DOUBLE : DG_PREC_FLOAT;
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "backend"))) {
    DG_CALL_GOTO(done, get_choice(&x, it, "backend", backends, &choice));
    c->backend = choice ? DG_BACKEND_REF : DG_BACKEND_OPENCL;
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "flux"))) {
    DG_CALL_GOTO(done, get_choice(&x, it, "flux", fluxes, &choice));
    c->alpha = choice ? 0.0 : 1.0;
  }
  const cJSON *tf = cJSON_GetObjectItemCaseSensitive(root, "final_time");
  const cJSON *ns = cJSON_GetObjectItemCaseSensitive(root, "steps");
  DG_CHECK_GOTO(done, !(tf && ns), DG_ERR_INPUT, "%s: give \"final_time\" or \"steps\", not both", path);
  if (tf) DG_CALL_GOTO(done, get_positive(&x, tf, "final_time", &c->final_time));
  if (ns) DG_CALL_GOTO(done, get_int(&x, ns, "steps", 1, 1 << 30, &c->steps));
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "cfl"))) DG_CALL_GOTO(done, get_positive(&x, it, "cfl", &c->cfl));
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "materials"))) {
    DG_CHECK_GOTO(done, cJSON_IsArray(it), DG_ERR_INPUT, "%s: materials: expected an array", path);
    c->n_materials = cJSON_GetArraySize(it);
    DG_CALL_GOTO(done, DG_ALLOC(c->materials, c->n_materials));
    DG_CALL_GOTO(done, parse_array(&x, it, "materials", parse_material, c));
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "boundaries"))) {
    DG_CHECK_GOTO(done, cJSON_IsArray(it), DG_ERR_INPUT, "%s: boundaries: expected an array", path);
    c->n_boundaries = cJSON_GetArraySize(it);
    DG_CALL_GOTO(done, DG_ALLOC(c->boundaries, c->n_boundaries));
    DG_CALL_GOTO(done, parse_array(&x, it, "boundaries", parse_boundary, c));
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "default_boundary"))) {
    DG_CALL_GOTO(done, get_choice(&x, it, "default_boundary", bc_names + 1, &choice));
    c->has_default_bc = 1;
    c->default_bc = (dg_bc)(choice + 1);
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "sources")))
    DG_CALL_GOTO(done, parse_array(&x, it, "sources", parse_source, c));
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "initial"))) DG_CALL_GOTO(done, parse_initial(&x, it, c));
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "probes"))) {
    DG_CHECK_GOTO(done, cJSON_IsArray(it), DG_ERR_INPUT, "%s: probes: expected an array", path);
    c->n_probes = cJSON_GetArraySize(it);
    DG_CALL_GOTO(done, DG_ALLOC(c->probes, c->n_probes));
    DG_CALL_GOTO(done, parse_array(&x, it, "probes", parse_probe, c));
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "output"))) DG_CALL_GOTO(done, parse_output(&x, it, c));
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "checkpoint"))) DG_CALL_GOTO(done, parse_checkpoint(&x, it, c));
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "time_stepping"))) DG_CALL_GOTO(done, parse_time_stepping(&x, it, c));
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "variant"))) DG_CALL_GOTO(done, get_string(&x, it, "variant", c->variant, sizeof c->variant));
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "device"))) DG_CALL_GOTO(done, get_string(&x, it, "device", c->device, sizeof c->device));
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "tune"))) {
    static const char *const modes[] = {"auto", "never", "always", NULL};
    DG_CALL_GOTO(done, get_choice(&x, it, "tune", modes, &choice));
    c->tune = (dg_tune_mode)choice;
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "tune_budget"))) DG_CALL_GOTO(done, get_positive(&x, it, "tune_budget", &c->tune_budget));
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "pml"))) DG_CALL_GOTO(done, parse_pml(&x, it, c));
  if (c->box_pml_cells > 0 && !c->mesh_file[0]) c->has_pml = 1; /* the box's layer absorbs */
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "tfsf"))) DG_CALL_GOTO(done, parse_tfsf(&x, it, c));
  if (c->box_tfsf_cells > 0 && !c->mesh_file[0] && !c->has_tfsf) { /* the box's surface */
    c->has_tfsf = 1;
    snprintf(c->tfsf_surface.name, sizeof c->tfsf_surface.name, "tfsf");
    c->tfsf_surface.tag = -1;
  }
  DG_CHECK_GOTO(done, !c->has_tfsf || (c->has_plane_wave && !c->plane_wave.scattered),
                DG_ERR_INPUT, "%s: tfsf: needs a plane_wave source in the total-field "
                "formulation (the surface is where it enters)", path);
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "dft"))) {
    DG_CALL_GOTO(done, parse_dft(&x, it, c));
    DG_CHECK_GOTO(done, !c->dft.probes || c->n_probes, DG_ERR_INPUT,
                  "%s: dft.probes: the case has no \"probes\" to transform", path);
    DG_CHECK_GOTO(done, !c->dft.normalize || c->n_dipoles || c->has_plane_wave, DG_ERR_INPUT,
                  "%s: dft.normalize: \"source\" needs a source (a dipole or a plane wave) whose "
                  "pulse divides the spectra", path);
  }
  if ((it = cJSON_GetObjectItemCaseSensitive(root, "far_field"))) {
    DG_CALL_GOTO(done, parse_far_field(&x, it, c));
    DG_CHECK_GOTO(done, c->dft.on && c->dft.surface, DG_ERR_INPUT, "%s: far_field: needs the "
                  "surface DFT it transforms: \"dft\": {\"frequencies\": [...], \"surface\": "
                  "{\"name\": SURFACE}}", path);
    DG_CHECK_GOTO(done, !c->far_field.rcs || c->has_plane_wave, DG_ERR_INPUT, "%s: far_field.rcs: "
                  "the radar cross section needs a plane_wave source (the incident wave)", path);
  }
  DG_CALL_GOTO(done, check_duplicate_groups(&x, c));
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

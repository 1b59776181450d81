/* Setting up a run: the mesh (and its partition), the reference element, geometry,
 * materials and boundaries by physical group, sources, probes, the initial state; then the
 * stepper of the chosen backend (solver/solver.h: on a device with its variant chosen and
 * verified). The time step is setup_time_step.c's. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/run_state.h"
#include "core/alloc.h"
#include "core/log.h"

/* The cavity is the mesh's bounding box; check that the mesh fills it (volumes agree and
 * every boundary face lies on one of its six planes). */
static dg_status check_mesh_is_box(const dg_mesh *m, const char *path, double lo[3],
                                   double hi[3]) {
  dg_mesh_bbox(m, lo, hi);
  const double box = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
  double vol = 0, size = 0;
  for (int d = 0; d < 3; ++d) size = fmax(size, hi[d] - lo[d]);
  for (int k = 0; k < m->K; ++k) vol += dg_mesh_elem_volume(m, k);
  DG_CHECK(fabs(vol - box) <= 1e-9 * box, DG_ERR_INPUT,
           "%s: the mesh (volume %g) does not fill its bounding box (volume %g): the cavity "
           "mode needs a box-shaped domain", path, vol, box);
  const double tol = 1e-9 * size;
  for (int k = 0; k < m->K; ++k)
    for (int f = 0; f < 4; ++f) {
      if (m->face_tag[4 * k + f] < 0) continue;
      int on_plane = 0;
      for (int d = 0; d < 3 && !on_plane; ++d)
        for (int side = 0; side < 2 && !on_plane; ++side) {
          const double plane = side ? hi[d] : lo[d];
          int all = 1;
          for (int i = 0; i < 3; ++i) {
            const int v = m->EToV[4 * k + dg_face_vertices[f][i]];
            const double x = d == 0 ? m->VX[v] : d == 1 ? m->VY[v] : m->VZ[v];
            all &= fabs(x - plane) <= tol;
          }
          on_plane = all;
        }
      DG_CHECK(on_plane, DG_ERR_INPUT,
               "%s: boundary face %d of element %d is not on the bounding box: the cavity "
               "mode needs a box-shaped domain", path, f, k + 1);
    }
  return DG_OK;
}

/* "name (tag 3)" lists of a mesh's physical groups of one dimension, for messages. */
static void list_groups(const dg_mesh *m, int dim, char *buf, size_t cap) {
  buf[0] = '\0';
  for (int i = 0; i < m->nphys; ++i) {
    if (m->phys[i].dim != dim) continue;
    char one[96];
    snprintf(one, sizeof one, "%s\"%s\" (tag %d)", buf[0] ? ", " : "", m->phys[i].name, m->phys[i].tag);
    strncat(buf, one, cap - strlen(buf) - 1);
  }
  if (!buf[0]) snprintf(buf, cap, "none named in the file");
}

/* The tag of a physical group reference; it must exist in the mesh. */
static dg_status resolve_group(const dg_mesh *m, int dim, const dg_group_ref *g,
                               const char *what, const char *casefile, int *tag) {
  char avail[1024];
  if (g->name[0]) {
    *tag = dg_mesh_phys_tag(m, dim, g->name);
    if (*tag >= 0) return DG_OK;
    list_groups(m, dim, avail, sizeof avail);
    return DG_ERROR(DG_ERR_INPUT, "%s: %s \"%s\": the mesh has no physical %s of that name "
                    "(it has: %s)", casefile, what, g->name, dim == 3 ? "volume" : "surface", avail);
  }
  int found = 0;
  for (int k = 0; k < m->K && !found; ++k) {
    if (dim == 3) found = m->elem_tag[k] == g->tag;
    else for (int f = 0; f < 4; ++f)
      found |= m->face_tag[4 * k + f] == g->tag || (m->iface_tag && m->iface_tag[4 * k + f] == g->tag);
  }
  list_groups(m, dim, avail, sizeof avail);
  DG_CHECK(found, DG_ERR_INPUT, "%s: %s %d: no %s of the mesh carries that physical tag "
           "(named groups: %s)", casefile, what, g->tag, dim == 3 ? "element" : "face", avail);
  *tag = g->tag;
  return DG_OK;
}

/* x with the fewest digits that read back as x, so that a point just outside the mesh
 * (1 + 1e-9) does not print as inside (%g gave 1). */
static void exact_text(double x, char *buf, size_t cap) {
  for (int p = 1; p <= 17; ++p) {
    snprintf(buf, cap, "%.*g", p, x);
    if (strtod(buf, NULL) == x) return;
  }
}

static void point_text(const double x[3], char *buf, size_t cap) {
  char a[32], b[32], c[32];
  exact_text(x[0], a, sizeof a), exact_text(x[1], b, sizeof b), exact_text(x[2], c, sizeof c);
  snprintf(buf, cap, "(%s, %s, %s)", a, b, c);
}

static void bbox_text(const dg_mesh *m, char *buf, size_t cap) {
  double lo[3], hi[3];
  char t[6][32];
  dg_mesh_bbox(m, lo, hi);
  for (int d = 0; d < 3; ++d) exact_text(lo[d], t[2 * d], 32), exact_text(hi[d], t[2 * d + 1], 32);
  snprintf(buf, cap, "[%s, %s] x [%s, %s] x [%s, %s]", t[0], t[1], t[2], t[3], t[4], t[5]);
}

static const char *group_name(const dg_mesh *m, int dim, int tag) {
  for (int i = 0; i < m->nphys; ++i)
    if (m->phys[i].dim == dim && m->phys[i].tag == tag && m->phys[i].name[0]) return m->phys[i].name;
  return "";
}

/* The tags in m of the case's materials (dim 3) or boundary entries (dim 2); errors name
 * the entry ("materials[1].volume"). */
static dg_status entry_tags(const run_state *s, const dg_mesh *m, int dim, int *tags) {
  const dg_case *c = s->c;
  const int n = dim == 3 ? c->n_materials : c->n_boundaries;
  for (int i = 0; i < n; ++i) {
    char what[64];
    snprintf(what, sizeof what, "%s[%d].%s", dim == 3 ? "materials" : "boundaries", i,
             dim == 3 ? "volume" : "surface");
    const dg_group_ref *g = dim == 3 ? &c->materials[i].volume : &c->boundaries[i].surface;
    DG_CALL(resolve_group(m, dim, g, what, c->source, &tags[i]));
  }
  return DG_OK;
}

static dg_status apply_materials_and_boundaries(run_state *s) {
  const dg_case *c = s->c;
  const dg_mesh *m = s->mesh;
  dg_maxwell *p = s->phys;
  p->alpha = c->alpha;
  dg_free(&s->material); /* each element's materials[] entry (-1: none), for the VTU files */
  DG_CALL(DG_ALLOC(s->material, m->K + 1));
  for (int k = 0; k < m->K; ++k) s->material[k] = -1;
  int *tags = NULL;
  const int entries = c->n_materials > c->n_boundaries ? c->n_materials : c->n_boundaries;
  DG_CALL(DG_ALLOC(tags, entries + 1));
  dg_status st = DG_OK;
  DG_CALL_GOTO(done, entry_tags(s, m, 3, tags));
  for (int i = 0; i < c->n_materials; ++i)
    for (int k = 0; k < m->K; ++k)
      if (m->elem_tag[k] == tags[i]) {
        s->material[k] = i;
        p->eps[k] = c->materials[i].eps;
        p->mu[k] = c->materials[i].mu;
        p->sigma[k] = c->materials[i].sigma;
      }
  DG_CALL_GOTO(done, entry_tags(s, m, 2, tags));
  enum { MAX_MISSING = 32 };
  int missing[MAX_MISSING], n_missing = 0; /* sorted tags of surfaces left without a condition */
  for (int k = 0; k < m->K; ++k)
    for (int f = 0; f < 4; ++f) {
      const int t = m->face_tag[4 * k + f];
      if (t < 0) continue;
      int bc = -1;
      for (int i = 0; i < c->n_boundaries && bc < 0; ++i)
        if (tags[i] == t) bc = (int)c->boundaries[i].bc;
      if (bc < 0 && c->has_default_bc) bc = (int)c->default_bc;
      if (bc >= 0) {
        p->bc[4 * k + f] = (unsigned char)bc;
        continue;
      }
      int at = 0;
      while (at < n_missing && missing[at] < t) ++at;
      if ((at < n_missing && missing[at] == t) || n_missing == MAX_MISSING) continue;
      memmove(missing + at + 1, missing + at, (size_t)(n_missing - at) * sizeof *missing);
      missing[at] = t;
      ++n_missing;
    }
  if (n_missing) {
    char list[1024] = "";
    for (int i = 0; i < n_missing; ++i) {
      char one[128];
      snprintf(one, sizeof one, "%s\"%s\" (tag %d)", i ? ", " : "",
               missing[i] ? group_name(m, 2, missing[i]) : "untagged faces", missing[i]);
      strncat(list, one, sizeof list - strlen(list) - 1);
    }
    st = DG_ERROR(DG_ERR_INPUT, "%s: boundary surface%s without a condition: %s; add %s to "
                  "\"boundaries\" or set \"default_boundary\"", c->source, n_missing > 1 ? "s" : "",
                  list, n_missing > 1 ? "them" : "it");
  }
done:
  dg_free(&tags);
  return st;
}

/* A layer that absorbs nothing is refused rather than run as if there were none: its
 * elements must reach beyond the inner box (the layer lies at the outer boundary, around the
 * domain), and a "thickness" d beyond a side's real depth D weakens the profile there, the
 * theoretical reflection of that side being R0^((D/d)^(m+1)) instead of R0 (sigma_max scales
 * as 1/d and the profile reaches only (D/d)^m of it). Refused when that is >= 0.5 on every
 * side with a layer (thickness: 1e6 on a 1-cell layer: sigma ~ 1e-18), warned about when it
 * is over 10 R0 on some side. Partly inside the inner box: warned (those elements do not
 * absorb). Decided on the whole mesh, alike on every rank. */
static dg_status check_pml_absorbs(const run_state *s, const int *tags, const double ilo[3],
                                   const double ihi[3], const double olo[3], const double ohi[3]) {
  const dg_case *c = s->c;
  const dg_mesh *gm = s->global;
  char names[256] = "";
  for (int i = 0; i < c->n_pml_volumes; ++i) {
    char one[96];
    if (c->pml_volumes[i].name[0]) snprintf(one, sizeof one, "%s\"%s\"", i ? ", " : "", c->pml_volumes[i].name);
    else snprintf(one, sizeof one, "%s%d", i ? ", " : "", c->pml_volumes[i].tag);
    strncat(names, one, sizeof names - strlen(names) - 1);
  }
  double size = 0;
  for (int d = 0; d < 3; ++d) size = fmax(size, ohi[d] - olo[d]);
  const double tol = 1e-9 * size;
  int n_pml = 0, n_inside = 0;
  for (int k = 0; k < gm->K; ++k) {
    int in = 0;
    for (int i = 0; i < c->n_pml_volumes; ++i) in |= gm->elem_tag[k] == tags[i];
    if (!in) continue;
    ++n_pml;
    int inside = 1;
    for (int v = 0; v < 4; ++v) {
      const int vi = gm->EToV[4 * k + v];
      const double x[3] = {gm->VX[vi], gm->VY[vi], gm->VZ[vi]};
      for (int d = 0; d < 3; ++d) inside &= x[d] >= ilo[d] - tol && x[d] <= ihi[d] + tol;
    }
    n_inside += inside;
  }
  char box[192];
  snprintf(box, sizeof box, "[%g, %g] x [%g, %g] x [%g, %g]", ilo[0], ihi[0], ilo[1], ihi[1],
           ilo[2], ihi[2]);
  DG_CHECK(n_inside < n_pml, DG_ERR_INPUT,
           "%s: pml.volumes [%s]: all %d of its elements lie inside the inner box %s (the "
           "bounding box of the elements not in a PML volume), so the layer has no depth and "
           "absorbs nothing; a PML volume must be a layer at the outer boundary around the "
           "domain (the box mesher's pml_cells layer is the volume \"pml\")",
           c->source, names, n_pml, box);
  if (n_inside && s->rank == 0)
    dg_warn("%s: pml.volumes [%s]: %d of its %d elements lie inside the inner box %s (the "
            "bounding box of the elements not in a PML volume) and do not absorb", c->source,
            names, n_inside, n_pml, box);
  const double t = c->pml.thickness, R0 = c->pml.reflection;
  if (t <= 0) return DG_OK;
  int sides = 0, dead = 0, weak_d = -1, weak_side = 0;
  double Rmin = 1, Rweak = 0, Dmax = 0;
  for (int d = 0; d < 3; ++d)
    for (int side = 0; side < 2; ++side) {
      const double D = side ? ohi[d] - ihi[d] : ilo[d] - olo[d];
      if (D <= tol) continue; /* no layer on this side */
      ++sides;
      Dmax = fmax(Dmax, D);
      const double R = t > D * (1 + 1e-9) ? pow(R0, pow(D / t, c->pml.order + 1)) : R0;
      Rmin = fmin(Rmin, R);
      dead += t > D * (1 + 1e-9) && R >= 0.5;
      if (t > D * (1 + 1e-9) && R > 10 * R0 && R > Rweak) Rweak = R, weak_d = d, weak_side = side;
    }
  DG_CHECK(!sides || dead < sides, DG_ERR_INPUT,
           "%s: pml.thickness = %g is far beyond the layer's depth in the mesh (at most %g): "
           "the profile then reaches only (depth/thickness)^m of its sigma_max, and the "
           "theoretical reflection R0^((depth/thickness)^(m+1)) is at least %.3g on every side, "
           "so the layer absorbs next to nothing; leave thickness out (each side's depth is "
           "then the mesh's) or set it to the layer's depth", c->source, t, Dmax, Rmin);
  if (weak_d >= 0 && s->rank == 0)
    dg_warn("%s: pml.thickness = %g is more than the layer's depth %g on its %c%c side: the "
            "theoretical reflection there is %.3g instead of pml.reflection = %g (leave "
            "thickness out to take each side's depth from the mesh)", c->source, t,
            weak_side ? ohi[weak_d] - ihi[weak_d] : ilo[weak_d] - olo[weak_d],
            weak_side ? '+' : '-', "xyz"[weak_d], Rweak, R0);
  return DG_OK;
}

/* The CFS-PML over the case's PML volumes (after the materials: the profiles use the local
 * wave speed). The inner box is the bounding box of the whole mesh's other elements, the
 * outer one the mesh's, the same on every rank. Checkpoints hold the layer's auxiliary
 * fields beside the fields (io/checkpoint.h), so a restart continues it exactly. */
static dg_status setup_pml(run_state *s) {
  const dg_case *c = s->c;
  const dg_mesh *gm = s->global, *m = s->mesh;
  /* Refused here rather than at the first checkpoint, where the run would stop. */
  DG_CHECK(!c->multirate || !(c->checkpoint_every || c->checkpoint_seconds > 0 || c->restart[0]),
           DG_ERR_INPUT,
           "%s: a multirate run with a PML takes no checkpoints (its steppers do not save the "
           "PML's auxiliary fields); drop \"checkpoint\" / --restart, or use lserk4",
           c->source);
  int tags[DG_CASE_PML_VOLUMES];
  for (int i = 0; i < c->n_pml_volumes; ++i) {
    char what[64];
    snprintf(what, sizeof what, "pml.volumes[%d]", i);
    DG_CALL(resolve_group(gm, 3, &c->pml_volumes[i], what, c->source, &tags[i]));
  }
  double ilo[3] = {INFINITY, INFINITY, INFINITY}, ihi[3] = {-INFINITY, -INFINITY, -INFINITY};
  double olo[3], ohi[3];
  dg_mesh_bbox(gm, olo, ohi);
  int inner = 0;
  for (int k = 0; k < gm->K; ++k) {
    int in = 0;
    for (int i = 0; i < c->n_pml_volumes; ++i) in |= gm->elem_tag[k] == tags[i];
    if (in) continue;
    ++inner;
    for (int v = 0; v < 4; ++v) {
      const int vi = gm->EToV[4 * k + v];
      const double x[3] = {gm->VX[vi], gm->VY[vi], gm->VZ[vi]};
      for (int d = 0; d < 3; ++d) ilo[d] = fmin(ilo[d], x[d]), ihi[d] = fmax(ihi[d], x[d]);
    }
  }
  DG_CHECK(inner > 0, DG_ERR_INPUT, "%s: pml: every element is in a PML volume; the layer must "
           "surround an inner domain", c->source);
  /* Along a periodic pair's translation the domain has no end: a layer there would stretch
   * one copy of the cell and not the next. The inner domain must span the mesh in every
   * direction a translation has a component. */
  for (int i = 0; i < gm->n_periods; ++i)
    for (int d = 0; d < 3; ++d) {
      const double *t = gm->period[i], tol = 1e-9 * (ohi[d] - olo[d]);
      if (fabs(t[d]) <= 1e-9 * sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2])) continue;
      DG_CHECK(ilo[d] <= olo[d] + tol && ihi[d] >= ohi[d] - tol, DG_ERR_INPUT,
               "%s: pml: the layer stretches along %c (the domain outside it spans [%g, %g] of "
               "the mesh's [%g, %g]), the direction of periodic[%d]'s translation (%g, %g, %g): "
               "put the layer only where the cell is open (e.g. below and above a cell periodic "
               "in x and y)", c->source, "xyz"[d], ilo[d], ihi[d], olo[d], ohi[d], i, t[0], t[1],
               t[2]);
    }
  DG_CALL(check_pml_absorbs(s, tags, ilo, ihi, olo, ohi));
  unsigned char *in_pml = NULL;
  DG_CALL(DG_ALLOC(in_pml, m->K));
  for (int k = 0; k < m->K; ++k)
    for (int i = 0; i < c->n_pml_volumes; ++i) in_pml[k] |= m->elem_tag[k] == tags[i];
  const dg_status st = dg_maxwell_set_pml(s->phys, in_pml, &c->pml, ilo, ihi, olo, ohi);
  dg_free(&in_pml);
  DG_CALL(st);
  return DG_OK;
}

/* The incident wave is the vacuum plane wave, so the surface must lie in vacuum: an element
 * on either side of one of its faces in a material with eps, mu != 1 or sigma != 0 is refused
 * naming the surface, the face and the material (an eps = 2 surround leaked 12 times what
 * vacuum does). The whole mesh, alike on every rank; a later material wins, as in
 * apply_materials_and_boundaries. */
static dg_status check_tfsf_in_vacuum(const run_state *s, int stag) {
  const dg_case *c = s->c;
  const dg_mesh *gm = s->global;
  int *mtags = NULL;
  DG_CALL(DG_ALLOC(mtags, c->n_materials + 1));
  dg_status st = DG_OK;
  DG_CALL_GOTO(done, entry_tags(s, gm, 3, mtags));
  for (int k = 0; k < gm->K; ++k)
    for (int f = 0; f < 4; ++f) {
      if (gm->iface_tag[4 * k + f] != stag) continue;
      int mat = -1;
      for (int i = 0; i < c->n_materials; ++i)
        if (mtags[i] == gm->elem_tag[k]) mat = i;
      if (mat < 0) continue;
      const dg_case_material *cm = &c->materials[mat];
      if (dg_case_material_is_vacuum(cm)) continue;
      const char *sname = c->tfsf_surface.name[0] ? c->tfsf_surface.name : group_name(gm, 2, stag);
      const char *vname = group_name(gm, 3, gm->elem_tag[k]);
      st = DG_ERROR(DG_ERR_INPUT,
                    "%s: tfsf.surface \"%s\" (tag %d) lies in materials[%d] (volume \"%s\", tag "
                    "%d: eps = %g, mu = %g, sigma = %g%s) at face %d of element %d: the surface "
                    "must lie in vacuum (eps = mu = 1, sigma = 0, no poles), since the wave it "
                    "brings in is the vacuum plane wave; put the material inside the surface, or "
                    "the surface in vacuum around it", c->source, sname, stag, mat, vname,
                    gm->elem_tag[k], cm->eps, cm->mu, cm->sigma,
                    cm->disp.n_poles ? ", with poles" : "", f, k + 1);
      goto done;
    }
done:
  dg_free(&mtags);
  return st;
}

/* The tags of the case's boundary entries on the whole mesh (errors name "boundaries"). */
static dg_status boundary_tags(const run_state *s, int *btags) {
  const dg_case *c = s->c;
  for (int i = 0; i < c->n_boundaries; ++i)
    DG_CALL(resolve_group(s->global, 2, &c->boundaries[i].surface, "boundaries", c->source,
                          &btags[i]));
  return DG_OK;
}

/* The condition of the boundary faces of tag t: the last entry naming it, else the default
 * (-1 without one). */
static int face_bc(const dg_case *c, const int *btags, int t) {
  int bc = c->has_default_bc ? (int)c->default_bc : -1;
  for (int i = 0; i < c->n_boundaries; ++i)
    if (btags[i] == t) bc = (int)c->boundaries[i].bc;
  return bc;
}

dg_status run_surface_sides(const run_state *s, int stag, const char *what, signed char *side) {
  const dg_case *c = s->c;
  const dg_mesh *gm = s->global;
  int pml_tags[DG_CASE_PML_VOLUMES];
  for (int i = 0; c->has_pml && i < c->n_pml_volumes; ++i)
    DG_CALL(resolve_group(gm, 3, &c->pml_volumes[i], "pml.volumes", c->source, &pml_tags[i]));
  int *btags = NULL;
  unsigned char *seed = NULL;
  dg_status st = DG_OK;
  DG_CALL_GOTO(done, DG_ALLOC(btags, c->n_boundaries + 1));
  DG_CALL_GOTO(done, DG_ALLOC(seed, gm->K));
  DG_CALL_GOTO(done, boundary_tags(s, btags));
  for (int k = 0; k < gm->K; ++k) {
    for (int i = 0; c->has_pml && i < c->n_pml_volumes; ++i) seed[k] |= gm->elem_tag[k] == pml_tags[i];
    for (int f = 0; f < 4; ++f) {
      const int t = gm->face_tag[4 * k + f];
      if (t >= 0) seed[k] |= face_bc(c, btags, t) == DG_BC_ABC;
    }
  }
  st = dg_mesh_surface_sides(gm, stag, seed, side);
  if (st != DG_OK) st = dg_error_prefix(st, "%s: %s: ", c->source, what);
done:
  dg_free(&btags);
  dg_free(&seed);
  return st;
}

/* The total-field/scattered-field surface: its two sides are found on the whole mesh (the
 * same on every rank; run_surface_sides). Each local face on the surface then gets +1 (its
 * element is inside: total field) or -1 (outside: scattered field). */
static dg_status setup_tfsf(run_state *s) {
  const dg_case *c = s->c;
  const dg_mesh *gm = s->global, *m = s->mesh;
  int stag;
  DG_CALL(resolve_group(gm, 2, &c->tfsf_surface, "tfsf.surface", c->source, &stag));
  DG_CALL(check_tfsf_in_vacuum(s, stag));
  signed char *side = NULL, *sign = NULL;
  dg_status st = DG_OK;
  DG_CALL_GOTO(done, DG_ALLOC(side, gm->K));
  DG_CALL_GOTO(done, DG_ALLOC(sign, 4 * (size_t)m->K));
  DG_CALL_GOTO(done, run_surface_sides(s, stag, "tfsf.surface", side));
  for (int k = 0; k < m->K_owned; ++k) { /* ghosts' fluxes are never computed */
    const int g = s->dist ? s->dist->l2g[k] : k;
    for (int f = 0; f < 4; ++f)
      if (gm->iface_tag[4 * g + f] == stag && m->face_tag[4 * k + f] < 0)
        sign[4 * k + f] = side[g];
  }
  DG_CALL_GOTO(done, dg_maxwell_set_tfsf(s->phys, sign));
done:
  dg_free(&side);
  dg_free(&sign);
  return st;
}

/* A plane wave that has no way in is refused (its run's field stayed exactly 0, exit 0): in
 * the total-field formulation it enters through absorbing faces or the TF/SF surface, in the
 * scattered-field one only PEC faces see it (dg/source.h). The boundary conditions of the
 * whole mesh's faces, as apply_materials_and_boundaries sets them, alike on every rank. */
static dg_status check_plane_wave_enters(const run_state *s) {
  const dg_case *c = s->c;
  const dg_mesh *gm = s->global;
  if (c->has_tfsf) return DG_OK; /* the surface has faces (resolve_group) */
  const int scattered = c->plane_wave.scattered;
  const dg_bc want = scattered ? DG_BC_PEC : DG_BC_ABC;
  int *btags = NULL;
  DG_CALL(DG_ALLOC(btags, c->n_boundaries + 1));
  dg_status st = DG_OK;
  DG_CALL_GOTO(done, boundary_tags(s, btags));
  int n = 0;
  for (int k = 0; k < gm->K; ++k)
    for (int f = 0; f < 4; ++f) {
      const int t = gm->face_tag[4 * k + f];
      if (t >= 0) n += face_bc(c, btags, t) == (int)want;
    }
  if (!n && scattered)
    st = DG_ERROR(DG_ERR_INPUT,
                  "%s: the plane_wave source in the scattered-field formulation excites only PEC "
                  "faces (they mirror the incident field), and the mesh has none, so the field "
                  "would stay 0; give the object to light a \"pec\" boundary, or use the "
                  "total-field formulation with absorbing walls or a \"tfsf\" surface", c->source);
  else if (!n)
    st = DG_ERROR(DG_ERR_INPUT,
                  "%s: the plane_wave source in the total-field formulation enters through "
                  "absorbing boundary faces or a TF/SF surface, and the mesh has neither (no "
                  "face is \"absorbing\", no \"tfsf\"), so the field would stay 0; make the "
                  "outer walls \"absorbing\", or add a TF/SF surface (\"tfsf\", or the box "
                  "mesher's tfsf_cells > 0)", c->source);
done:
  dg_free(&btags);
  return st;
}

/* The element of the whole mesh holding the point x; outside it, an error naming what is
 * there ("sources[1].position"), x and the mesh's bounding box. */
static dg_status locate_in_mesh(const run_state *s, const double x[3], const char *what,
                                int *g) {
  double rst[3];
  *g = dg_mesh_locate(s->global, x, rst);
  if (*g >= 0) return DG_OK;
  char at[128], box[256];
  point_text(x, at, sizeof at);
  bbox_text(s->global, box, sizeof box);
  return DG_ERROR(DG_ERR_INPUT, "%s: %s %s is outside the mesh (bounding box %s)", s->c->source,
                  what, at, box);
}

static dg_status add_sources(run_state *s) {
  const dg_case *c = s->c;
  for (int i = 0; i < c->n_dipoles; ++i) {
    double rst[3];
    char what[64];
    snprintf(what, sizeof what, "sources[%d].position",
             i + (c->has_plane_wave && i >= c->plane_wave_index));
    /* The rank owning the element the whole mesh puts the point in gets the source. */
    int g;
    DG_CALL(locate_in_mesh(s, c->dipoles[i].pos, what, &g));
    if (s->part && s->part[g] != s->rank) continue;
    const int k = dg_mesh_locate(s->mesh, c->dipoles[i].pos, rst);
    DG_CHECK(k >= 0, DG_ERR_INTERNAL, "sources[%d]: not found in the owning rank's part", i);
    DG_CALL(dg_maxwell_add_dipole(s->phys, &c->dipoles[i], k, rst));
  }
  if (c->has_plane_wave) {
    DG_CALL(check_plane_wave_enters(s));
    s->pw = c->plane_wave;
    dg_maxwell_set_plane_wave(s->phys, &s->pw);
  }
  return DG_OK;
}

/* Probes: each rank evaluates the ones in its elements; rank 0 gathers and logs them. */
static dg_status setup_probes(run_state *s) {
  const dg_case *c = s->c;
  double *xyz = NULL;
  int n = 0;
  dg_status st = DG_OK;
  DG_CALL(DG_ALLOC(xyz, 3 * c->n_probes + 1));
  DG_CALL_GOTO(done, DG_ALLOC(s->probe_ids, c->n_probes + 1));
  for (int i = 0; i < c->n_probes; ++i) {
    char what[DG_CASE_NAME + 32];
    snprintf(what, sizeof what, "probes[%d] (\"%s\") at", i, c->probes[i].name);
    int g;
    DG_CALL_GOTO(done, locate_in_mesh(s, c->probes[i].pos, what, &g));
    if (s->part && s->part[g] != s->rank) continue;
    memcpy(xyz + 3 * n, c->probes[i].pos, 3 * sizeof(double));
    s->probe_ids[n++] = i;
  }
  DG_CALL_GOTO(done, dg_probes_create(&s->probes, s->geom, n, xyz));
done:
  dg_free(&xyz);
  return st;
}

static double host_memory_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  double kb = -1;
  if (f) {
    char line[256];
    while (fgets(line, sizeof line, f))
      if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1) break;
    fclose(f);
  }
  return kb > 0 ? kb * 1024 : -1;
}

/* Stop before allocating what the machine does not have (a run past it would be killed by
 * the OOM killer half-way through setting up). K is this rank's element count; a device's
 * check comes when the backend opens it (dg_solver_start). */
static dg_status check_host_memory(const run_state *s, double K) {
  double host, dev;
  dg_solver_options o;
  dg_case_solver_options(s->c, &o);
  dg_solver_memory_need(&o, K, s->c->order, &host, &dev);
  const double avail = host_memory_available();
  DG_CHECK(avail < 0 || host <= avail, DG_ERR_INPUT,
           "%s: this run needs about %.1f GB of host memory (%.0f elements at order %d) and %.1f GB "
           "are available: use a coarser mesh, a lower order or more MPI ranks",
           s->c->source, host / 1e9, K, s->c->order, avail / 1e9);
  return DG_OK;
}

/* The poles of the case's dispersive materials (dg/dispersive.h), after the PML: the global
 * LSERK4 of either backend steps them, the multirate schemes do not yet, so those are
 * refused here naming the material (never run without the poles), as is a dispersive
 * element in the PML (the layer is matched to non-dispersive media). */
static dg_status setup_dispersion(run_state *s) {
  const dg_case *c = s->c;
  int first = -1;
  for (int i = c->n_materials - 1; i >= 0; --i)
    if (c->materials[i].disp.n_poles) first = i;
  if (first < 0) return DG_OK;
  DG_CHECK(!c->multirate, DG_ERR_UNSUPPORTED,
           "%s: materials[%d].poles: the multirate schemes do not step a dispersive medium's "
           "poles yet; use \"time_stepping\": {\"scheme\": \"lserk4\"} (or --time-stepping "
           "lserk4)", c->source, first);
  const dg_maxwell *p = s->phys;
  for (int e = 0; e < p->pml_K; ++e) {
    const int i = s->material[p->pml_elem[e]];
    DG_CHECK(i < 0 || !c->materials[i].disp.n_poles, DG_ERR_INPUT,
             "%s: materials[%d] has poles and reaches into the PML (pml.volumes): the layer is "
             "matched to non-dispersive media only; end the dispersive volume before the layer",
             c->source, i);
  }
  dg_dispersion *models = NULL;
  DG_CALL(DG_ALLOC(models, c->n_materials));
  for (int i = 0; i < c->n_materials; ++i) models[i] = c->materials[i].disp;
  const dg_status st = dg_maxwell_set_dispersion(s->phys, s->material, models, c->n_materials);
  dg_free(&models);
  DG_CALL(st);
  return DG_OK;
}

/* The operator on s->mesh with the case's materials, boundaries, PML and poles. */
static dg_status setup_phys(run_state *s) {
  DG_CALL(dg_geom_create(&s->geom, s->mesh, s->ref));
  DG_CALL(dg_maxwell_create(&s->phys, s->geom));
  DG_CALL(apply_materials_and_boundaries(s));
  if (s->c->has_pml) DG_CALL(setup_pml(s));
  DG_CALL(setup_dispersion(s));
  return DG_OK;
}

/* Multirate on several ranks: the rate levels of the whole mesh (*level, global K) and the
 * plan, before the mesh is split, so that the partition can weight each element by its
 * evaluations per macro step and every rank gives its elements and ghosts the levels one
 * process would. Rank 0 computes them on a whole-mesh operator (freed again; it is smaller
 * than the run's state on one process) and broadcasts them. With time_stepping "auto" rank 0
 * also makes its choice there (the one a single process would make); where it is global
 * LSERK4, *level is freed (NULL: no levels, an unweighted partition). */
static dg_status whole_mesh_levels(run_state *s, int **level) {
  dg_status st = DG_OK;
  const dg_case *c = s->c;
  const dg_mr_scheme scheme = c->mr_scheme;
  DG_CALL(DG_ALLOC(*level, s->global->K + 1));
  if (s->rank == 0) {
    st = setup_phys(s);
    if (st == DG_OK && c->mr_auto && !c->multirate)
      st = run_auto_choose(s, *level);
    else if (st == DG_OK)
      st = dg_multirate_levels(s->phys, scheme, c->max_levels, run_stage_overhead(s), *level,
                               &s->mr_plan);
    dg_maxwell_destroy(&s->phys);
    dg_geom_destroy(&s->geom);
  }
  DG_CALL(run_share_status(s, st, "the multirate levels of the whole mesh"));
  DG_CALL(run_bcast(s, &s->mr_plan, (int)sizeof s->mr_plan));
  if (c->mr_auto && !c->multirate) {
    DG_CALL(run_bcast(s, &s->auto_pick, (int)sizeof s->auto_pick));
    if (!s->auto_pick.multirate) {
      dg_free(level);
      return DG_OK;
    }
  }
  DG_CALL(run_bcast(s, *level, (int)(s->global->K * sizeof **level)));
  return DG_OK;
}

/* The case's periodic pairs on the whole mesh (before it is distributed or given geometry;
 * every rank makes the same pairs): each pair's two surfaces become interior faces one
 * translation apart. */
static dg_status pair_periodic(run_state *s, const int *btags) {
  const dg_case *c = s->c;
  for (int i = 0; i < c->n_periodic; ++i) {
    const dg_case_periodic *p = &c->periodic[i];
    char what[64];
    int tag[2];
    for (int j = 0; j < 2; ++j) {
      snprintf(what, sizeof what, "periodic[%d].surfaces[%d]", i, j);
      DG_CALL(resolve_group(s->global, 2, &p->surfaces[j], what, c->source, &tag[j]));
      for (int b = 0; b < c->n_boundaries; ++b)
        DG_CHECK(btags[b] != tag[j], DG_ERR_INPUT,
                 "%s: %s is also boundaries[%d]'s surface: a periodic surface has no boundary "
                 "condition (remove one of the two)", c->source, what, b);
    }
    double t[3];
    const dg_status st = dg_mesh_make_periodic(s->global, tag[0], tag[1],
                                               p->has_translation ? p->translation : NULL, t);
    if (st != DG_OK) return dg_error_prefix(st, "%s: periodic[%d]: ", c->source, i);
    if (s->rank == 0)
      dg_note("periodic[%d]: surfaces tag %d and %d paired, translation (%g, %g, %g)", i,
              tag[0], tag[1], t[0], t[1], t[2]);
    /* A plane wave must be the same on both sides of the pair: k . t = 0 (normal incidence
     * on a cell periodic across it). Oblique incidence needs a phase across the pair
     * (Bloch), which is not there yet. */
    if (c->has_plane_wave) {
      const double *k = c->plane_wave.k, tn = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
      const double kt = k[0] * t[0] + k[1] * t[1] + k[2] * t[2];
      DG_CHECK(fabs(kt) <= 1e-9 * tn, DG_ERR_UNSUPPORTED,
               "%s: periodic[%d]: the plane wave's direction (%g, %g, %g) is not perpendicular "
               "to the translation (%g, %g, %g), so the wave differs on the two sides of the "
               "pair (an oblique incidence needs a Bloch phase, not yet supported)", c->source,
               i, k[0], k[1], k[2], t[0], t[1], t[2]);
    }
  }
  return DG_OK;
}

static dg_status apply_periodic(run_state *s) {
  const dg_case *c = s->c;
  if (!c->n_periodic) return DG_OK;
  int *btags = NULL;
  DG_CALL(DG_ALLOC(btags, c->n_boundaries + 1));
  dg_status st = entry_tags(s, s->global, 2, btags);
  if (st == DG_OK) st = pair_periodic(s, btags);
  dg_free(&btags);
  return st;
}

dg_status run_setup_problem(run_state *s, dg_run_result *r) {
  const dg_case *c = s->c;
  double lo[3], hi[3];
  if (c->mesh_file[0]) {
    DG_CALL(dg_mesh_read_flags(&s->global, c->mesh_file,
                               c->allow_unmatched ? DG_MESH_ALLOW_UNMATCHED : 0));
    if (s->global->n_unmatched && s->rank == 0)
      dg_warn("%s: %d unmatched interior faces kept as boundary faces (mesh.allow_unmatched_faces)",
              c->mesh_file, s->global->n_unmatched);
  } else {
    for (int d = 0; d < 3; ++d) lo[d] = c->box_lo[d], hi[d] = c->box_hi[d];
    const double np2 = 2.0 * c->box_pml_cells;
    DG_CALL(check_host_memory(s, 6.0 * (c->box_cells[0] + np2) * (c->box_cells[1] + np2) *
                                     (c->box_cells[2] + np2) / s->size));
    const int n = c->box_tfsf_cells;
    const int tlo[3] = {n, n, n},
              thi[3] = {c->box_cells[0] - n, c->box_cells[1] - n, c->box_cells[2] - n};
    DG_CALL(dg_mesh_box_tfsf(&s->global, lo, hi, c->box_cells[0], c->box_cells[1],
                             c->box_cells[2], c->box_pml_cells, n > 0 ? tlo : NULL,
                             n > 0 ? thi : NULL));
  }
  DG_CALL(dg_case_check_groups(c, s->global));
  DG_CALL(apply_periodic(s));
  s->mesh = s->global;
  DG_CALL(dg_refel_create(&s->ref, c->order));
  if (s->size > 1) {
    int *glevel = NULL;
    dg_status st = c->multirate || c->mr_auto ? whole_mesh_levels(s, &glevel) : DG_OK;
    /* (an explicit multirate scheme overrides auto, as in run_time_stepping_auto) */
    if (st == DG_OK) st = run_distribute(s, r, glevel, s->mr_plan.n_levels);
    if (st == DG_OK && glevel) { /* each local element's (and ghost's) level */
      st = DG_ALLOC(s->mr_level, s->mesh->K + 1);
      for (int k = 0; st == DG_OK && k < s->mesh->K; ++k) s->mr_level[k] = glevel[s->dist->l2g[k]];
    }
    dg_free(&glevel);
    DG_CALL(st);
  }
  DG_CALL(check_host_memory(s, s->mesh->K));
  if (c->has_cavity_mode) {
    if (c->mesh_file[0]) DG_CALL(check_mesh_is_box(s->global, c->mesh_file, lo, hi));
    DG_CALL(dg_case_cavity_mode(c, lo, hi, &s->mode));
  }
  DG_CALL(setup_phys(s));
  DG_CALL(add_sources(s));
  if (c->has_tfsf) DG_CALL(setup_tfsf(s));
  if (c->n_probes) DG_CALL(setup_probes(s));
  s->n = DG_NFIELDS * (size_t)s->mesh->K * s->ref->Np;
  DG_CALL(DG_ALLOC(s->q, s->n));
  if (c->has_cavity_mode) dg_maxwell_interpolate(s->geom, dg_cavity_mode_eval, &s->mode, 0.0, s->q);
  return DG_OK;
}

dg_status run_start_stepper(run_state *s, dg_run_result *r) {
  const dg_case *c = s->c;
  dg_solver_options o;
  dg_solver_comm comm;
  dg_case_solver_options(c, &o);
  run_solver_comm(s, &comm);
  DG_CALL(dg_solver_create(&s->solver, &o, &comm));
  /* a variant is verified at a time when the sources are on (the first pulse's peak), so
   * their kernels are checked too */
  double t_verify = 0;
  if (c->n_dipoles) t_verify = c->dipoles[0].pulse.t0;
  else if (c->has_plane_wave) t_verify = c->plane_wave.pulse.t0;
  const dg_solver_problem p = {.phys = s->phys, .K = s->mesh->K, .N = s->ref->N,
                               .n_curved = s->global->n_curved,
                               .steps = (double)(s->steps - s->first_step),
                               .t_verify = t_verify, .multirate = c->multirate,
                               .level = s->mr_level, .n_levels = s->mr_plan.n_levels,
                               .scheme = c->mr_scheme, .rhs_evals = &s->rhs_evals};
  const dg_status st = dg_solver_start(s->solver, &p);
  const dg_solver_report *rep = dg_solver_get_report(s->solver);
  snprintf(r->device, sizeof r->device, "%s", rep->device);
  snprintf(r->variant, sizeof r->variant, "%s", rep->variant);
  snprintf(r->variant_source, sizeof r->variant_source, "%s", rep->variant_source);
  r->tuned = rep->tuned;
  r->precision = rep->precision;
  r->verify_rel_diff = rep->verify_rel_diff;
  DG_CALL(st);
  dg_stepper *stepper = dg_solver_stepper(s->solver);
  DG_CALL(dg_stepper_put_state(stepper, s->q));
  if (s->aux_restart) { /* a restarted PML or dispersive run: its auxiliary state */
    DG_CALL(dg_stepper_put_aux(stepper, s->aux_restart));
    dg_free(&s->aux_restart);
  }
  return DG_OK;
}

dg_status run_group_tag(const run_state *s, int dim, const dg_group_ref *g, const char *what,
                        int *tag) {
  DG_CALL(resolve_group(s->global, dim, g, what, s->c->source, tag));
  return DG_OK;
}

dg_status run_fetch_state(run_state *s) {
  DG_CALL(dg_stepper_get_state(dg_solver_stepper(s->solver), s->q));
  return DG_OK;
}

/* DFT monitors of a run ("dft" in the case; docs/OUTPUTS.md): which
 * samples (the case's probes, the nodes of some volumes, the face nodes of a closed
 * surface), summed after every `every` steps where the backend keeps the state (on its
 * device, or on the host: dg_solver_dft_create, solver/solver.h), and written as spectra.csv, one VTU per frequency and surface_dft.csv. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/run_state.h"
#include "core/alloc.h"
#include "core/files.h"
#include "core/log.h"
#include "core/version.h"
#include "io/vtu.h"

static void out_path(const run_state *s, const char *name, char *buf, size_t cap) {
  snprintf(buf, cap, "%s/%s", s->c->output_dir, name);
}

/* The elements of the listed volume groups (in_set[k] = 1). */
static dg_status volume_set(const run_state *s, const dg_group_ref *g, int n, const char *what,
                            unsigned char *in_set) {
  const dg_mesh *m = s->mesh;
  for (int i = 0; i < n; ++i) {
    char w[64];
    snprintf(w, sizeof w, "%s[%d]", what, i);
    int tag;
    DG_CALL(run_group_tag(s, 3, &g[i], w, &tag));
    for (int k = 0; k < m->K; ++k) in_set[k] |= m->elem_tag[k] == tag;
  }
  return DG_OK;
}

/* The faces of a named closed interior surface, on this rank's part; its sides are found
 * as the TF/SF surface's (run_surface_sides). */
static dg_status named_surface_faces(const run_state *s, unsigned char *sel_local,
                                     unsigned char *outside) {
  const dg_case *c = s->c;
  const dg_mesh *m = s->global; /* the sides need the whole mesh (and its iface_tag) */
  int stag;
  DG_CALL(run_group_tag(s, 2, &c->dft.surface_name, "dft.surface.name", &stag));
  unsigned char *sel = NULL;
  signed char *side = NULL;
  dg_status st = DG_OK;
  DG_CALL_GOTO(done, DG_ALLOC(side, m->K));
  DG_CALL_GOTO(done, DG_ALLOC(sel, 4 * (size_t)m->K));
  DG_CALL_GOTO(done, run_surface_sides(s, stag, "dft.surface.name", side));
  dg_dft_faces_of_surface(m, stag, side, sel);
  for (int k = 0; k < s->mesh->K_owned; ++k) { /* this rank's part */
    const int g = s->dist ? s->dist->l2g[k] : k;
    memcpy(sel_local + 4 * (size_t)k, sel + 4 * (size_t)g, 4);
    outside[k] = side[g] < 0;
  }
done:
  dg_free(&sel);
  dg_free(&side);
  return st;
}

/* The far field (dg/ntff.h) radiates the surface's equivalent currents with the free-space
 * Green's function, so with far_field on everything outside the surface must be vacuum (or
 * the PML, which stands for it): an element outside (outside[k]) in a material with eps,
 * mu != 1, sigma != 0 or poles is refused, naming it, where it is and the material. The
 * inside may hold anything (the tangential fields sampled on the surface are continuous).
 * Each rank its own elements; the first complaint of any rank stops every rank. */
static dg_status check_outside_in_vacuum(const run_state *s, const unsigned char *outside) {
  const dg_case *c = s->c;
  const dg_mesh *m = s->mesh;
  dg_status st = DG_OK;
  for (int k = 0; k < m->K_owned && st == DG_OK; ++k) {
    const int mat = s->material[k];
    if (!outside[k] || mat < 0) continue;
    const dg_case_material *cm = &c->materials[mat];
    if (dg_case_material_is_vacuum(cm)) continue;
    double x[3] = {0, 0, 0};
    for (int v = 0; v < 4; ++v) {
      const int n = m->EToV[4 * k + v];
      x[0] += m->VX[n] / 4, x[1] += m->VY[n] / 4, x[2] += m->VZ[n] / 4;
    }
    st = DG_ERROR(DG_ERR_INPUT,
                  "%s: far_field: element %d (centroid %.4g, %.4g, %.4g), outside the dft "
                  "surface, is in materials[%d] (eps = %g, mu = %g, sigma = %g%s): the "
                  "near-to-far-field transform radiates the surface's fields into vacuum, so "
                  "every object must lie inside the surface; enlarge the surface (or the "
                  "enclosing volumes) around it", c->source, k + 1, x[0], x[1], x[2], mat,
                  cm->eps, cm->mu, cm->sigma, cm->disp.n_poles ? ", with poles" : "");
  }
  DG_CALL(run_share_status(s, st, "checking the far-field surface"));
  return DG_OK;
}

static dg_status add_samples(run_state *s) {
  const dg_case *c = s->c;
  const dg_case_dft *cd = &c->dft;
  const dg_mesh *m = s->mesh;
  unsigned char *in_set = NULL, *sel = NULL, *outside = NULL;
  dg_status st = DG_OK;
  if (cd->probes) DG_CALL(dg_dft_add_probes(s->dft, s->probes->n, s->probes->elem, s->probes->w));
  if (cd->all_volumes || cd->n_volumes) {
    DG_CALL_GOTO(done, DG_ALLOC(in_set, m->K));
    if (cd->all_volumes) memset(in_set, 1, (size_t)m->K);
    else DG_CALL_GOTO(done, volume_set(s, cd->volumes, cd->n_volumes, "dft.volumes", in_set));
    DG_CALL_GOTO(done, dg_dft_add_volume(s->dft, s->geom, in_set));
    dg_free(&in_set);
  }
  if (cd->surface) {
    DG_CALL_GOTO(done, DG_ALLOC(sel, 4 * (size_t)m->K));
    DG_CALL_GOTO(done, DG_ALLOC(outside, m->K));
    if (cd->surface == DG_DFT_SURFACE_NAMED) {
      DG_CALL_GOTO(done, named_surface_faces(s, sel, outside));
    } else {
      DG_CALL_GOTO(done, DG_ALLOC(in_set, m->K));
      DG_CALL_GOTO(done, volume_set(s, cd->enclosing, cd->n_enclosing, "dft.surface.enclosing", in_set));
      dg_dft_faces_enclosing(m, in_set, sel);
      for (int k = 0; k < m->K; ++k) outside[k] = !in_set[k];
    }
    if (c->far_field.on) DG_CALL_GOTO(done, check_outside_in_vacuum(s, outside));
    DG_CALL_GOTO(done, dg_dft_add_surface(s->dft, s->geom, sel));
    double n = s->dft->n_surf; /* over all ranks */
    DG_CALL_GOTO(done, run_sum(s, &n));
    DG_CHECK_GOTO(done, n > 0, DG_ERR_INPUT, "%s: dft.surface: no face: %s", c->source,
                  cd->surface == DG_DFT_SURFACE_NAMED
                      ? "the named surface lies on no interior face"
                      : "the volumes enclose nothing (no face lies between them and an element "
                        "outside them)");
  }
done:
  dg_free(&in_set);
  dg_free(&sel);
  dg_free(&outside);
  return st;
}

/* The source pulse that normalises the spectra: the first dipole's, else the plane
 * wave's. */
static const dg_pulse *source_pulse(const dg_case *c) {
  if (c->n_dipoles) return &c->dipoles[0].pulse;
  if (c->has_plane_wave) return &c->plane_wave.pulse;
  return NULL;
}

/* Frequencies where the source hardly excites anything: the same discrete transform of the
 * pulse as the normalisation's, over the run's summed steps, below 1e-3 of the pulse's own
 * spectral peak (at f = 0 for a Gaussian, f0 for the other shapes, or a requested frequency
 * if higher). The values there are noise (normalised: noise divided by almost 0).
 * Warned even under --quiet, before the run. Comparing against the peak over the requested
 * frequencies only (as before) never fired with one frequency. */
static dg_status warn_weak_spectrum(const run_state *s) {
  const dg_case *c = s->c;
  const dg_case_dft *cd = &c->dft;
  const dg_pulse *g = source_pulse(c);
  if (!g || s->rank != 0) return DG_OK;
  const double w = cd->every * s->dt;
  const long long n = (long long)(s->steps / cd->every) + 1; /* steps 0, every, ... */
  double *mag = NULL;
  DG_CALL(DG_ALLOC(mag, cd->nfreq));
  double re, im;
  const double f_peak = g->shape == DG_PULSE_GAUSSIAN ? 0 : g->f0;
  dg_pulse_transform(g, w, n, f_peak, &re, &im);
  double peak = hypot(re, im);
  for (int i = 0; i < cd->nfreq; ++i) {
    dg_pulse_transform(g, w, n, cd->freq[i], &re, &im);
    peak = fmax(peak, mag[i] = hypot(re, im));
  }
  static const char *const shapes[] = {"gaussian", "ricker", "harmonic", "modulated_gaussian"};
  const char *shape = shapes[g->shape];
  if (!(peak > 0)) { /* zero amplitude: nothing is below 1e-3 of a peak of 0 */
    dg_warn("%s: dft: the source pulse's spectrum (%s, frequency %g) is zero (its amplitude is "
            "%g) at all %d frequencies: %s; give the source a nonzero \"amplitude\"",
            c->source, shape, g->f0, g->amplitude, cd->nfreq,
            cd->normalize ? "the values cannot be divided by it and are written not normalised"
                          : "that source excites nothing at them");
    dg_free(&mag);
    return DG_OK;
  }
  int weak = 0, first = -1;
  char list[256] = "";
  for (int i = 0; i < cd->nfreq; ++i) {
    if (!(mag[i] < 1e-3 * peak)) continue;
    if (first < 0) first = i;
    if (++weak <= 4) {
      const size_t l = strlen(list);
      snprintf(list + l, sizeof list - l, "%s%g (%.2g)", weak > 1 ? ", " : "", cd->freq[i],
               peak > 0 ? mag[i] / peak : 0);
    }
  }
  if (weak)
    dg_warn("%s: dft: the source pulse's spectrum (%s, frequency %g) is below 1e-3 of its peak "
            "at %d of the %d frequencies: %s%s (relative to the peak); %s",
            c->source, shape, g->f0, weak, cd->nfreq, list, weak > 4 ? ", ..." : "",
            cd->normalize ? "the normalised values there are noise divided by almost 0"
                          : "the values there are mostly noise (the source hardly excites them)");
  dg_free(&mag);
  return DG_OK;
}

dg_status run_dft_check(const run_state *s) {
  const dg_case *c = s->c;
  const dg_case_dft *cd = &c->dft;
  if (!cd->on) return DG_OK;
  DG_CHECK(!c->restart[0], DG_ERR_INPUT, "%s: dft: a restart cannot continue the DFT sums "
           "(checkpoints hold the fields only); drop --restart or \"dft\"", c->source);
  DG_CHECK(c->output_dir[0], DG_ERR_INPUT, "%s: dft: the spectra are written to files but no "
           "output directory was given (\"output\": {\"directory\": ...} or --output DIR)", c->source);
  /* Sampling every `every` steps resolves frequencies below 1 / (2 every dt). */
  double fmax = 0;
  for (int i = 0; i < cd->nfreq; ++i) fmax = fmax > cd->freq[i] ? fmax : cd->freq[i];
  const double nyquist = 0.5 / (cd->every * s->dt);
  const double ratio = 0.5 / (fmax * s->dt) - 1e-9; /* +inf for fmax = 0: no int cast then */
  const int every_max = ratio < INT_MAX ? (int)floor(ratio) : INT_MAX;
  /* Even every = 1 cannot sample fmax: no dft.every helps (the bound rounds to 0). */
  DG_CHECK(fmax < nyquist || every_max >= 1, DG_ERR_INPUT, "%s: dft: frequency %g is above "
           "what the time step can sample even with dft.every = 1: dt = %g resolves frequencies "
           "below %g (Nyquist, 1 / (2 dt)); lower the frequency below %g or the step below %g "
           "(a smaller --cfl or \"cfl\")",
           c->source, fmax, s->dt, 0.5 / s->dt, 0.5 / s->dt, 0.5 / fmax);
  DG_CHECK(fmax < nyquist, DG_ERR_INPUT, "%s: dft: sampling every %d steps of dt = %g resolves "
           "frequencies below %g (Nyquist) and %g is asked for: lower dft.every to at most %d",
           c->source, cd->every, s->dt, nyquist, fmax, every_max);
  return DG_OK;
}

dg_status run_dft_setup(run_state *s, dg_run_result *r) {
  const dg_case *c = s->c;
  const dg_case_dft *cd = &c->dft;
  if (!cd->on) return DG_OK;
  DG_CALL(run_dft_check(s));
  DG_CALL(warn_weak_spectrum(s));
  DG_CALL(dg_dft_create(&s->dft, s->geom, cd->nfreq, cd->freq, cd->every, s->dt));
  DG_CALL(add_samples(s));
  double n = s->dft->nsamp;
  DG_CALL(run_sum(s, &n));
  DG_CHECK(n > 0, DG_ERR_INPUT, "%s: dft: the volumes and surface hold no sample", c->source);
  r->dft_samples = (int)n;
  DG_CALL(dg_solver_dft_create(&s->dft_sums, s->solver, s->dft, s->q));
  r->dft_acc_double = dg_solver_dft_acc_double(s->dft_sums);
  r->dft_on = 1;
  r->dft_freqs = cd->nfreq;
  DG_CALL(run_dft_step(s, s->first_step)); /* the initial state (step 0) */
  return DG_OK;
}

dg_status run_dft_step(run_state *s, int step) {
  if (!s->dft || !dg_dft_due(s->dft, step)) return DG_OK;
  const double t = step * s->dt;
  if (s->dft->nsamp == 0) { /* nothing on this rank: only count the step */
    ++s->dft->nsum;
    return DG_OK;
  }
  DG_CALL(dg_solver_dft_accumulate(s->dft_sums, t));
  return DG_OK;
}


/* spectra.csv (rank 0): the probes' values, gathered by case index. */
static dg_status write_spectra(const run_state *s, const double *gr, const double *gi) {
  const dg_dft *d = s->dft;
  const int np = s->c->n_probes, nf = d->nfreq;
  double *all = NULL;
  dg_status st = DG_OK;
  DG_CALL(DG_ALLOC(all, (size_t)np * nf * 12));
  for (int p = 0; p < d->n_probe; ++p)
    for (int i = 0; i < nf; ++i)
      for (int c = 0; c < 6; ++c) {
        double *v = all + (((size_t)s->probe_ids[p] * nf + i) * 6 + c) * 2;
        dg_dft_value(d, i, p, c, gr, gi, &v[0], &v[1]);
      }
  DG_CALL_GOTO(done, run_gather_sum(s, all, np * nf * 12));
  if (s->rank != 0) goto done;
  char path[DG_CASE_PATH + 32];
  out_path(s, "spectra.csv", path, sizeof path);
  static const char *const names[6] = {"Ex", "Ey", "Ez", "Hx", "Hy", "Hz"};
  dg_atomic_file f = {0};
  DG_CALL_GOTO(done, dg_atomic_open(&f, path));
  fprintf(f.fp, "probe,f");
  for (int c = 0; c < 6; ++c)
    fprintf(f.fp, ",%s_re,%s_im,%s_abs,%s_phase", names[c], names[c], names[c], names[c]);
  fputc('\n', f.fp);
  for (int p = 0; p < np; ++p)
    for (int i = 0; i < nf; ++i) {
      fprintf(f.fp, "%d,%.17g", p, d->freq[i]);
      for (int c = 0; c < 6; ++c) {
        const double *v = all + (((size_t)p * nf + i) * 6 + c) * 2;
        fprintf(f.fp, ",%.10e,%.10e,%.10e,%.10e", v[0], v[1], hypot(v[0], v[1]), atan2(v[1], v[0]));
      }
      fputc('\n', f.fp);
    }
  if (ferror(f.fp)) {
    dg_atomic_abort(&f);
    st = DG_ERROR(DG_ERR_IO, "cannot write %s", path);
    goto done;
  }
  DG_CALL_GOTO(done, dg_atomic_commit(&f));
done:
  dg_free(&all);
  return st;
}

/* dft_fNNN.vtu per frequency (E_re, E_im, H_re, H_im on the volume elements; TimeValue is
 * the frequency) and dft.pvd listing them by frequency. On several ranks each rank with
 * volume elements writes dft_fNNN_rR.vtu and rank 0 the dft_fNNN.pvtu joining them. */
static dg_status write_volume(const run_state *s, const double *gr, const double *gi) {
  const dg_dft *d = s->dft;
  const size_t KNp = d->KNp;
  const char *const names[4] = {"E_re", "E_im", "H_re", "H_im"};
  /* The sums are double: Float64, with the snapshots' region and material cell data. */
  const dg_vtu_extra extra = {.ncell = 2, .cell_names = {"region", "material"},
                              .cell_values = {s->mesh->elem_tag, s->material},
                              .version = "dgtd " DG_VERSION};
  double *qr = NULL, *qi = NULL, *count = NULL;
  char **files = NULL, **pieces = NULL;
  int npieces = 0;
  dg_status st = DG_OK;
  DG_CALL_GOTO(done, DG_ALLOC(qr, 6 * KNp));
  DG_CALL_GOTO(done, DG_ALLOC(qi, 6 * KNp));
  DG_CALL_GOTO(done, DG_ALLOC(files, d->nfreq));
  DG_CALL_GOTO(done, DG_ALLOC(count, s->size));
  DG_CALL_GOTO(done, DG_ALLOC(pieces, s->size));
  count[s->rank] = d->n_vol_elem;
  DG_CALL_GOTO(done, run_gather_sum(s, count, s->size));
  for (int i = 0; i < d->nfreq; ++i) {
    char name[64], path[DG_CASE_PATH + 80];
    DG_CALL_GOTO(done, DG_ALLOC(files[i], 32));
    snprintf(files[i], 32, "dft_f%03d.%s", i, s->size > 1 ? "pvtu" : "vtu");
    if (s->size > 1) snprintf(name, sizeof name, "dft_f%03d_r%d.vtu", i, s->rank);
    else snprintf(name, sizeof name, "%s", files[i]);
    if (d->n_vol_elem > 0 || s->size == 1) {
      out_path(s, name, path, sizeof path);
      dg_dft_volume_fields(d, i, gr, gi, qr, qi);
      const double *const vec[4] = {qr, qi, qr + 3 * KNp, qi + 3 * KNp};
      DG_CALL_GOTO(done, dg_vtu_write_vectors_ex(path, s->geom, 4, names, vec, d->n_vol_elem,
                                                 d->vol_elem, d->freq[i], s->c->vtu_mode, &extra));
    }
    if (s->size == 1 || s->rank != 0) continue;
    npieces = 0;
    for (int r = 0; r < s->size; ++r) {
      if (count[r] <= 0) continue;
      /* room for any two ints: "dft_f" + 11 + "_r" + 11 + ".vtu" + NUL */
      enum { PIECE = 40 };
      DG_CALL_GOTO(done, DG_ALLOC(pieces[npieces], PIECE));
      snprintf(pieces[npieces++], PIECE, "dft_f%03d_r%d.vtu", i, r);
    }
    out_path(s, files[i], path, sizeof path);
    st = dg_pvtu_write_ex(path, npieces, (const char *const *)pieces, 4, names, &extra);
    for (int r = 0; r < npieces; ++r) dg_free(&pieces[r]);
    DG_CALL_GOTO(done, st);
  }
  if (s->rank == 0) {
    char path[DG_CASE_PATH + 32];
    out_path(s, "dft.pvd", path, sizeof path);
    DG_CALL_GOTO(done, dg_pvd_write(path, d->nfreq, d->freq, (const char *const *)files));
  }
done:
  for (int i = 0; files && i < d->nfreq; ++i) dg_free(&files[i]);
  dg_free(&files);
  dg_free(&pieces);
  dg_free(&count);
  dg_free(&qr);
  dg_free(&qi);
  return st;
}

/* The surface DFT of every rank on rank 0 (rank order), as s->surface_dft. Each point
 * travels as 7 + 12 nfreq doubles: x, n, w, then re, im of the six fields per frequency. */
static dg_status gather_surface(run_state *s, const double *gr, const double *gi) {
  const dg_dft *d = s->dft;
  const int nf = d->nfreq, per = 7 + 12 * nf;
  dg_surface_dft *mine = NULL;
  double *count = NULL, *buf = NULL;
  dg_status st = DG_OK;
  dg_surface_dft_destroy(&s->surface_dft);
  DG_CALL(dg_dft_surface(d, gr, gi, &mine));
  if (s->size == 1) {
    s->surface_dft = mine;
    return DG_OK;
  }
  DG_CALL_GOTO(done, DG_ALLOC(count, s->size));
  double total = 0, first = 0; /* every rank needs every count: its slice's offset */
  for (int r = 0; r < s->size; ++r) {
    count[r] = r == s->rank ? mine->npts : 0;
    DG_CALL_GOTO(done, run_sum(s, &count[r]));
    if (r < s->rank) first += count[r];
    total += count[r];
  }
  DG_CHECK_GOTO(done, total * per < 2147483647.0, DG_ERR_INPUT,
                "dft.surface: %.0f points x %d frequencies are too many to gather", total, nf);
  DG_CALL_GOTO(done, DG_ALLOC(buf, (size_t)total * per));
  for (int p = 0; p < mine->npts; ++p) {
    double *v = buf + ((size_t)first + p) * per;
    memcpy(v, mine->xyz + 3 * p, 3 * sizeof *v);
    memcpy(v + 3, mine->n + 3 * p, 3 * sizeof *v);
    v[6] = mine->w[p];
    for (int i = 0; i < nf; ++i)
      for (int c = 0; c < 6; ++c) {
        const size_t o = ((size_t)i * mine->npts + p) * 6 + c;
        v[7 + 12 * i + 2 * c] = mine->re[o];
        v[8 + 12 * i + 2 * c] = mine->im[o];
      }
  }
  DG_CALL_GOTO(done, run_gather_sum(s, buf, (int)(total * per)));
  if (s->rank != 0) goto done;
  dg_surface_dft *all = mine; /* reuse its frequencies: rebuild the point arrays */
  mine = NULL;
  dg_free(&all->xyz), dg_free(&all->n), dg_free(&all->w), dg_free(&all->re), dg_free(&all->im);
  all->npts = (int)total;
  const size_t np = (size_t)total, nv = (size_t)nf * np * 6;
  s->surface_dft = all;
  DG_CALL_GOTO(done, DG_ALLOC(all->xyz, 3 * np));
  DG_CALL_GOTO(done, DG_ALLOC(all->n, 3 * np));
  DG_CALL_GOTO(done, DG_ALLOC(all->w, np));
  DG_CALL_GOTO(done, DG_ALLOC(all->re, nv));
  DG_CALL_GOTO(done, DG_ALLOC(all->im, nv));
  for (size_t p = 0; p < np; ++p) {
    const double *v = buf + p * per;
    memcpy(all->xyz + 3 * p, v, 3 * sizeof *v);
    memcpy(all->n + 3 * p, v + 3, 3 * sizeof *v);
    all->w[p] = v[6];
    for (int i = 0; i < nf; ++i)
      for (int c = 0; c < 6; ++c) {
        const size_t o = ((size_t)i * np + p) * 6 + c;
        all->re[o] = v[7 + 12 * i + 2 * c];
        all->im[o] = v[8 + 12 * i + 2 * c];
      }
  }
done:
  dg_surface_dft_destroy(&mine);
  dg_free(&count);
  dg_free(&buf);
  return st;
}

dg_status run_dft_write(run_state *s, dg_run_result *r) {
  if (!s->dft) return DG_OK;
  const dg_case *c = s->c;
  dg_dft *d = s->dft;
  DG_CALL(dg_solver_dft_fetch(s->dft_sums, &r->dft_s));
  DG_CALL(run_max(s, &r->dft_s));
  double *gr = NULL, *gi = NULL;
  dg_status st = DG_OK;
  if (c->dft.normalize) {
    DG_CALL_GOTO(done, DG_ALLOC(gr, d->nfreq));
    DG_CALL_GOTO(done, DG_ALLOC(gi, d->nfreq));
    dg_dft_pulse_spectrum(d, source_pulse(c), gr, gi);
  }
  /* Decided alike on every rank (each step below is collective). */
  if (c->dft.probes) DG_CALL_GOTO(done, write_spectra(s, gr, gi));
  if (c->dft.all_volumes || c->dft.n_volumes) DG_CALL_GOTO(done, write_volume(s, gr, gi));
  if (c->dft.surface) {
    DG_CALL_GOTO(done, gather_surface(s, gr, gi));
    if (s->rank == 0) {
      char path[DG_CASE_PATH + 32];
      out_path(s, "surface_dft.csv", path, sizeof path);
      DG_CALL_GOTO(done, dg_surface_dft_write_csv(path, s->surface_dft));
    }
  }
done:
  dg_free(&gr);
  dg_free(&gi);
  return st;
}

dg_status run_dft_change(run_state *s, double t, double *rel, int *ready) {
  dg_dft *d = s->dft;
  *ready = 0;
  *rel = 0;
  if (!d) return DG_OK;
  double fmin = d->freq[0];
  for (int i = 1; i < d->nfreq; ++i) fmin = fmin < d->freq[i] ? fmin : d->freq[i];
  if (s->dft_prev && t - s->dft_prev_t < 1 / fmin) return DG_OK;
  double secs;
  DG_CALL(dg_solver_dft_fetch(s->dft_sums, &secs));
  const size_t per = 6 * (size_t)d->nsamp, n = per * (size_t)d->nfreq;
  if (!s->dft_prev) {
    DG_CALL(DG_ALLOC(s->dft_prev, 2 * n + 1));
  } else {
    for (int i = 0; i < d->nfreq; ++i) {
      double sum[2] = {0, 0}; /* |S|^2, |S - S_prev|^2 */
      for (size_t j = (size_t)i * per; j < (size_t)(i + 1) * per; ++j) {
        const double dr = d->re[j] - s->dft_prev[j], di = d->im[j] - s->dft_prev[n + j];
        sum[0] += d->re[j] * d->re[j] + d->im[j] * d->im[j];
        sum[1] += dr * dr + di * di;
      }
      DG_CALL(run_sum(s, &sum[0]));
      DG_CALL(run_sum(s, &sum[1]));
      const double r = sum[0] > 0 ? sqrt(sum[1] / sum[0]) : 1;
      *rel = r > *rel ? r : *rel;
    }
    *ready = 1;
  }
  memcpy(s->dft_prev, d->re, n * sizeof *d->re);
  memcpy(s->dft_prev + n, d->im, n * sizeof *d->im);
  s->dft_prev_t = t;
  return DG_OK;
}

void run_dft_free(run_state *s) {
  dg_free(&s->dft_prev);
  dg_solver_dft_destroy(&s->dft_sums);
  dg_dft_destroy(&s->dft);
  dg_surface_dft_destroy(&s->surface_dft);
}

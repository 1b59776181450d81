/* DFT monitors: the reference (host, double) running sums of dg/dft.h, the surfaces they
 * sample, the normalisation by a source pulse's spectrum, and the surface-DFT file. */
#include "dg/dft.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/files.h"

static const double two_pi = 6.283185307179586476925286766559;

void dg_surface_dft_destroy(dg_surface_dft **s) {
  if (!s || !*s) return;
  dg_surface_dft *p = *s;
  DG_FREE_ALL(&p->freq, &p->xyz, &p->n, &p->w, &p->re, &p->im);
  free(p);
  *s = NULL;
}

static dg_status surface_alloc(dg_surface_dft **out, int nfreq, int npts) {
  dg_surface_dft *s = NULL;
  DG_CALL(DG_ALLOC(s, 1));
  s->nfreq = nfreq, s->npts = npts;
  const size_t nv = (size_t)nfreq * npts * 6;
  dg_status st = DG_OK;
  DG_CALL_GOTO(fail, DG_ALLOC(s->freq, nfreq));
  DG_CALL_GOTO(fail, DG_ALLOC(s->xyz, 3 * (size_t)npts));
  DG_CALL_GOTO(fail, DG_ALLOC(s->n, 3 * (size_t)npts));
  DG_CALL_GOTO(fail, DG_ALLOC(s->w, npts));
  DG_CALL_GOTO(fail, DG_ALLOC(s->re, nv));
  DG_CALL_GOTO(fail, DG_ALLOC(s->im, nv));
  *out = s;
  return DG_OK;
fail:
  dg_surface_dft_destroy(&s);
  return st;
}

static const char *const field_names[6] = {"Ex", "Ey", "Ez", "Hx", "Hy", "Hz"};

dg_status dg_surface_dft_write_csv(const char *path, const dg_surface_dft *s) {
  dg_atomic_file f = {0};
  DG_CALL(dg_atomic_open(&f, path));
  fprintf(f.fp, "freq,x,y,z,nx,ny,nz,w");
  for (int c = 0; c < 6; ++c) fprintf(f.fp, ",%s_re,%s_im", field_names[c], field_names[c]);
  fputc('\n', f.fp);
  for (int i = 0; i < s->nfreq; ++i)
    for (int p = 0; p < s->npts; ++p) {
      fprintf(f.fp, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", s->freq[i], s->xyz[3 * p],
              s->xyz[3 * p + 1], s->xyz[3 * p + 2], s->n[3 * p], s->n[3 * p + 1], s->n[3 * p + 2],
              s->w[p]);
      const size_t o = ((size_t)i * s->npts + p) * 6;
      for (int c = 0; c < 6; ++c) fprintf(f.fp, ",%.17g,%.17g", s->re[o + c], s->im[o + c]);
      fputc('\n', f.fp);
    }
  if (ferror(f.fp)) {
    const dg_status st = DG_ERROR(DG_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    dg_atomic_abort(&f);
    return st;
  }
  DG_CALL(dg_atomic_commit(&f));
  return DG_OK;
}

dg_status dg_surface_dft_read_csv(const char *path, dg_surface_dft **out) {
  *out = NULL;
  FILE *fp = fopen(path, "r");
  DG_CHECK(fp, DG_ERR_IO, "cannot open %s: %s", path, strerror(errno));
  enum { COLS = 20 };
  dg_status st = DG_OK;
  double *rows = NULL;
  size_t n = 0, cap = 0;
  char line[4096];
  int lineno = 1;
  DG_CHECK_GOTO(done, fgets(line, sizeof line, fp) && strncmp(line, "freq,x,y,z,nx,ny,nz,w,", 22) == 0,
                DG_ERR_INPUT, "%s:1: not a surface DFT file (header freq,x,y,z,nx,ny,nz,w,... expected)",
                path);
  while (fgets(line, sizeof line, fp)) {
    ++lineno;
    if (line[0] == '\n') continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 1024;
      double *r = realloc(rows, cap * COLS * sizeof *r);
      DG_CHECK_GOTO(done, r, DG_ERR_MEMORY, "out of memory reading %s", path);
      rows = r;
    }
    char *p = line;
    for (int c = 0; c < COLS; ++c) {
      char *end;
      errno = 0;
      rows[n * COLS + c] = strtod(p, &end);
      DG_CHECK_GOTO(done, end != p && errno == 0 && (*end == ',' || c == COLS - 1), DG_ERR_INPUT,
                    "%s:%d: column %d: a number expected", path, lineno, c + 1);
      p = end + 1;
    }
    ++n;
  }
  DG_CHECK_GOTO(done, n > 0, DG_ERR_INPUT, "%s: no data rows", path);
  /* Frequencies come in blocks of npts rows. */
  size_t npts = 1;
  while (npts < n && rows[npts * COLS] == rows[0]) ++npts;
  DG_CHECK_GOTO(done, n % npts == 0, DG_ERR_INPUT,
                "%s: %zu rows are not whole blocks of %zu points per frequency", path, n, npts);
  const int nfreq = (int)(n / npts);
  dg_surface_dft *s = NULL;
  DG_CALL_GOTO(done, surface_alloc(&s, nfreq, (int)npts));
  for (size_t r = 0; r < n; ++r) {
    const double *v = rows + r * COLS;
    const size_t i = r / npts, p = r % npts;
    s->freq[i] = v[0];
    if (i == 0) {
      memcpy(s->xyz + 3 * p, v + 1, 3 * sizeof(double));
      memcpy(s->n + 3 * p, v + 4, 3 * sizeof(double));
      s->w[p] = v[7];
    }
    for (int c = 0; c < 6; ++c) s->re[r * 6 + c] = v[8 + 2 * c], s->im[r * 6 + c] = v[9 + 2 * c];
  }
  *out = s;
done:
  free(rows);
  fclose(fp);
  return st;
}

void dg_dft_destroy(dg_dft **dp) {
  if (!dp || !*dp) return;
  dg_dft *d = *dp;
  DG_FREE_ALL(&d->freq, &d->start, &d->node, &d->wt, &d->vol_elem, &d->sxyz, &d->sn, &d->sw,
              &d->re, &d->im);
  free(d);
  *dp = NULL;
}

dg_status dg_dft_create(dg_dft **out, const dg_geom *g, int nfreq, const double *freq, int every,
                        double dt) {
  *out = NULL;
  DG_CHECK(nfreq > 0, DG_ERR_INPUT, "dft: at least one frequency is needed");
  DG_CHECK(every >= 1, DG_ERR_INPUT, "dft.every must be >= 1, got %d", every);
  DG_CHECK(dt > 0 && isfinite(dt), DG_ERR_INPUT, "dft: the time step must be positive, got %g", dt);
  for (int i = 0; i < nfreq; ++i)
    DG_CHECK(isfinite(freq[i]) && freq[i] >= 0, DG_ERR_INPUT,
             "dft.frequencies[%d] must be a finite frequency >= 0, got %g", i, freq[i]);
  dg_dft *d = NULL;
  DG_CALL(DG_ALLOC(d, 1));
  dg_status st = DG_OK;
  d->nfreq = nfreq, d->every = every, d->dt = dt;
  d->Np = g->Np, d->Nfp = g->Nfp;
  d->KNp = (size_t)g->K * g->Np;
  DG_CALL_GOTO(fail, DG_ALLOC(d->freq, nfreq));
  memcpy(d->freq, freq, (size_t)nfreq * sizeof *freq);
  DG_CALL_GOTO(fail, DG_ALLOC(d->start, 1));
  *out = d;
  return DG_OK;
fail:
  dg_dft_destroy(&d);
  return st;
}

/* Append ns samples of `per` entries each (node and weight filled by the caller). */
static dg_status grow(dg_dft *d, int ns, int per, int **node, double **wt) {
  DG_CHECK(!d->re, DG_ERR_INTERNAL, "dft: samples added after summing began");
  const size_t old_e = (size_t)d->start[d->nsamp], ne = old_e + (size_t)ns * per;
  DG_CHECK(ne < (size_t)1 << 31, DG_ERR_INPUT, "dft: too many samples (%zu entries)", ne);
  int *start = realloc(d->start, (size_t)(d->nsamp + ns + 1) * sizeof *start);
  DG_CHECK(start, DG_ERR_MEMORY, "out of memory");
  d->start = start;
  int *nd = realloc(d->node, (ne ? ne : 1) * sizeof *nd);
  DG_CHECK(nd, DG_ERR_MEMORY, "out of memory");
  d->node = nd;
  double *w = realloc(d->wt, (ne ? ne : 1) * sizeof *w);
  DG_CHECK(w, DG_ERR_MEMORY, "out of memory");
  d->wt = w;
  for (int s = 1; s <= ns; ++s) d->start[d->nsamp + s] = (int)(old_e + (size_t)s * per);
  *node = d->node + old_e;
  *wt = d->wt + old_e;
  d->nsamp += ns;
  return DG_OK;
}

dg_status dg_dft_add_probes(dg_dft *d, int n, const int *elem, const double *w) {
  DG_CHECK(d->nsamp == 0, DG_ERR_INTERNAL, "dft: probes must be added first");
  if (n <= 0) return DG_OK;
  int *node;
  double *wt;
  DG_CALL(grow(d, n, d->Np, &node, &wt));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < d->Np; ++j) {
      node[(size_t)i * d->Np + j] = elem[i] * d->Np + j;
      wt[(size_t)i * d->Np + j] = w[(size_t)i * d->Np + j];
    }
  d->n_probe = n;
  return DG_OK;
}

dg_status dg_dft_add_volume(dg_dft *d, const dg_geom *g, const unsigned char *in_set) {
  DG_CHECK(d->n_vol == 0 && d->n_surf == 0, DG_ERR_INTERNAL, "dft: volume added twice or after the surface");
  const int K = g->mesh->K_owned, Np = g->Np;
  int ne = 0;
  for (int k = 0; k < K; ++k) ne += !in_set || in_set[k];
  DG_CALL(DG_ALLOC(d->vol_elem, ne)); /* non-NULL even when empty: "these 0 elements" */
  if (ne == 0) return DG_OK;
  int *node;
  double *wt;
  DG_CALL(grow(d, ne * Np, 1, &node, &wt));
  int e = 0;
  for (int k = 0; k < K; ++k) {
    if (in_set && !in_set[k]) continue;
    d->vol_elem[e] = k;
    for (int j = 0; j < Np; ++j) node[(size_t)e * Np + j] = k * Np + j, wt[(size_t)e * Np + j] = 1;
    ++e;
  }
  d->n_vol_elem = ne;
  d->n_vol = ne * Np;
  return DG_OK;
}

/* Face mass matrix column sums of the reference element: int_face l_j dS / sJ for face node
 * j of face f at cs[f*Nfp + j], from E = M LIFT (refel.h: LIFT = M^-1 E). */
static dg_status face_column_sums(const dg_refel *r, double *cs) {
  const int Np = r->Np, nc = 4 * r->Nfp;
  double *E = NULL;
  DG_CALL(DG_ALLOC(E, (size_t)Np * nc));
  dg_matmul(Np, nc, Np, r->M, r->LIFT, E);
  for (int c = 0; c < nc; ++c) {
    double sum = 0;
    for (int i = 0; i < Np; ++i) sum += E[(size_t)i * nc + c];
    cs[c] = sum;
  }
  dg_free(&E);
  return DG_OK;
}

/* The same for curved element row c of g, sJ included: int_face l_j sJ dS by its face rule
 * (geom.h: Lf, Fq). */
static void curved_column_sums(const dg_geom *g, int c, double *cs) {
  const dg_geom_curved *cv = &g->cv;
  const int Nfp = g->Nfp, nfq = cv->nfq;
  for (int f = 0; f < 4; ++f)
    for (int j = 0; j < Nfp; ++j) {
      double sum = 0;
      for (int p = 0; p < nfq; ++p)
        sum += cv->Lf[((size_t)f * nfq + p) * Nfp + j] * cv->Fq[(((size_t)c * 4 + f) * nfq + p) * 4 + 3];
      cs[f * Nfp + j] = sum;
    }
}

dg_status dg_dft_add_surface(dg_dft *d, const dg_geom *g, const unsigned char *sel) {
  DG_CHECK(d->n_surf == 0, DG_ERR_INTERNAL, "dft: surface added twice");
  const int K = g->mesh->K_owned, Nfp = g->Nfp;
  int nf = 0;
  for (int k = 0; k < K; ++k)
    for (int f = 0; f < 4; ++f) nf += sel[4 * k + f] != 0;
  if (nf == 0) return DG_OK;
  const int n = nf * Nfp;
  double *cs = NULL, *ccs = NULL;
  dg_status st = DG_OK;
  DG_CALL(DG_ALLOC(cs, 4 * Nfp));
  DG_CALL_GOTO(done, face_column_sums(g->ref, cs));
  DG_CALL_GOTO(done, DG_ALLOC(d->sxyz, 3 * (size_t)n));
  DG_CALL_GOTO(done, DG_ALLOC(d->sn, 3 * (size_t)n));
  DG_CALL_GOTO(done, DG_ALLOC(d->sw, n));
  int *node;
  double *wt;
  DG_CALL_GOTO(done, grow(d, n, 1, &node, &wt));
  int p = 0;
  for (int k = 0; k < K; ++k) {
    /* A curved element: normals at its face nodes, weights int l_j dS from its own face
     * matrices (column sums of E = M LIFT, geom.h), into ccs. */
    const int c = dg_geom_curved_row(g, k);
    int any = 0;
    for (int f = 0; f < 4; ++f) any |= sel[4 * k + f] != 0;
    if (c >= 0 && any) {
      if (!ccs) DG_CALL_GOTO(done, DG_ALLOC(ccs, 4 * Nfp));
      curved_column_sums(g, c, ccs);
    }
    for (int f = 0; f < 4; ++f) {
      if (!sel[4 * k + f]) continue;
      const int kf = 4 * k + f;
      for (int j = 0; j < Nfp; ++j, ++p) {
        const int v = g->vmapM[(size_t)kf * Nfp + j];
        node[p] = v, wt[p] = 1;
        d->sxyz[3 * p] = g->x[v], d->sxyz[3 * p + 1] = g->y[v], d->sxyz[3 * p + 2] = g->z[v];
        /* k is outside: the region's outward normal is minus k's. */
        if (c >= 0) {
          const size_t at = ((size_t)c * 4 + f) * Nfp + j;
          d->sn[3 * p] = -g->cv.nx[at], d->sn[3 * p + 1] = -g->cv.ny[at];
          d->sn[3 * p + 2] = -g->cv.nz[at];
          d->sw[p] = ccs[f * Nfp + j];
          continue;
        }
        d->sn[3 * p] = -g->nx[kf], d->sn[3 * p + 1] = -g->ny[kf], d->sn[3 * p + 2] = -g->nz[kf];
        d->sw[p] = g->sJ[kf] * cs[f * Nfp + j];
      }
    }
  }
  d->n_surf = n;
done:
  dg_free(&cs);
  dg_free(&ccs);
  return st;
}

int dg_dft_faces_enclosing(const dg_mesh *m, const unsigned char *in_set, unsigned char *sel) {
  int n = 0;
  for (int k = 0; k < m->K_owned; ++k)
    for (int f = 0; f < 4; ++f) {
      const int kn = m->EToE[4 * k + f];
      sel[4 * k + f] = !in_set[k] && kn != k && in_set[kn];
      n += sel[4 * k + f];
    }
  return n;
}

int dg_dft_faces_of_surface(const dg_mesh *m, int tag, const signed char *side,
                            unsigned char *sel) {
  int n = 0;
  for (int k = 0; k < m->K_owned; ++k)
    for (int f = 0; f < 4; ++f) {
      sel[4 * k + f] = m->iface_tag && side[k] < 0 && m->EToE[4 * k + f] != k &&
                       m->iface_tag[4 * k + f] == tag;
      n += sel[4 * k + f];
    }
  return n;
}

dg_status dg_dft_start(dg_dft *d) {
  if (d->re) return DG_OK;
  const size_t n = (size_t)d->nfreq * 6 * d->nsamp;
  DG_CALL(DG_ALLOC(d->re, n));
  DG_CALL(DG_ALLOC(d->im, n));
  return DG_OK;
}

int dg_dft_due(const dg_dft *d, long long step) { return step % d->every == 0; }

void dg_dft_phases(const dg_dft *d, double t, double *c, double *s) {
  const double w = d->every * d->dt;
  for (int i = 0; i < d->nfreq; ++i) {
    /* The phase reduced to [0, 1) turns before the sine: exact for any t. */
    double ph = d->freq[i] * t;
    ph -= floor(ph);
    c[i] = w * cos(two_pi * ph);
    s[i] = w * sin(two_pi * ph);
  }
}

dg_status dg_dft_accumulate(dg_dft *d, const double *q, double t) {
  double *c = NULL, *s = NULL;
  dg_status st = DG_OK;
  DG_CALL(dg_dft_start(d));
  DG_CALL(DG_ALLOC(c, d->nfreq));
  DG_CALL_GOTO(done, DG_ALLOC(s, d->nfreq));
  dg_dft_phases(d, t, c, s);
  const size_t ns = (size_t)d->nsamp;
  for (size_t p = 0; p < ns; ++p)
    for (int f = 0; f < 6; ++f) {
      const double *u = q + (size_t)f * d->KNp;
      double x = 0;
      for (int e = d->start[p]; e < d->start[p + 1]; ++e) x += d->wt[e] * u[d->node[e]];
      for (int i = 0; i < d->nfreq; ++i) {
        const size_t o = ((size_t)i * 6 + f) * ns + p;
        d->re[o] += x * c[i];
        d->im[o] -= x * s[i];
      }
    }
  ++d->nsum;
done:
  dg_free(&c);
  dg_free(&s);
  return st;
}

void dg_pulse_transform(const dg_pulse *g, double w, long long n, double f, double *g_re,
                        double *g_im) {
  double re = 0, im = 0;
  for (long long j = 0; j < n; ++j) {
    const double t = (double)j * w;
    double ph = f * t;
    ph -= floor(ph);
    const double x = dg_pulse_eval(g, t);
    re += x * cos(two_pi * ph);
    im -= x * sin(two_pi * ph);
  }
  *g_re = re * w, *g_im = im * w;
}

void dg_dft_pulse_spectrum(const dg_dft *d, const dg_pulse *g, double *g_re, double *g_im) {
  for (int i = 0; i < d->nfreq; ++i)
    dg_pulse_transform(g, d->every * d->dt, d->nsum, d->freq[i], &g_re[i], &g_im[i]);
}

void dg_dft_value(const dg_dft *d, int i, int s, int c, const double *g_re, const double *g_im,
                  double *re, double *im) {
  const size_t o = ((size_t)i * 6 + c) * d->nsamp + s;
  double a = d->re ? d->re[o] : 0, b = d->re ? d->im[o] : 0;
  if (g_re && (g_re[i] != 0 || g_im[i] != 0)) { /* (a + ib) / (gr + i gi) */
    const double gr = g_re[i], gi = g_im[i], m = gr * gr + gi * gi;
    const double x = (a * gr + b * gi) / m, y = (b * gr - a * gi) / m;
    a = x, b = y;
  }
  *re = a, *im = b;
}

void dg_dft_volume_fields(const dg_dft *d, int i, const double *g_re, const double *g_im,
                          double *q_re, double *q_im) {
  memset(q_re, 0, 6 * d->KNp * sizeof *q_re);
  memset(q_im, 0, 6 * d->KNp * sizeof *q_im);
  for (int s = d->n_probe; s < d->n_probe + d->n_vol; ++s) {
    const int node = d->node[d->start[s]];
    for (int c = 0; c < 6; ++c)
      dg_dft_value(d, i, s, c, g_re, g_im, &q_re[c * d->KNp + node], &q_im[c * d->KNp + node]);
  }
}

dg_status dg_dft_surface(const dg_dft *d, const double *g_re, const double *g_im,
                         dg_surface_dft **out) {
  *out = NULL;
  dg_surface_dft *s = NULL;
  DG_CALL(surface_alloc(&s, d->nfreq, d->n_surf));
  memcpy(s->freq, d->freq, (size_t)d->nfreq * sizeof *s->freq);
  if (d->n_surf) {
    memcpy(s->xyz, d->sxyz, 3 * (size_t)d->n_surf * sizeof(double));
    memcpy(s->n, d->sn, 3 * (size_t)d->n_surf * sizeof(double));
    memcpy(s->w, d->sw, (size_t)d->n_surf * sizeof(double));
  }
  const int s0 = d->n_probe + d->n_vol;
  for (int i = 0; i < d->nfreq; ++i)
    for (int p = 0; p < d->n_surf; ++p)
      for (int c = 0; c < 6; ++c) {
        const size_t o = ((size_t)i * d->n_surf + p) * 6 + c;
        dg_dft_value(d, i, s0 + p, c, g_re, g_im, &s->re[o], &s->im[o]);
      }
  *out = s;
  return DG_OK;
}

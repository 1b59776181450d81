#include "io/series.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/files.h"

struct dg_series {
  char *path;
  char *header; /* "a,b,c" */
  int ncols;
  size_t nrows, cap; /* rows used / allocated */
  double *data;      /* nrows x ncols */
};

static dg_status copy_string(char **dst, const char *src) {
  const size_t n = strlen(src) + 1;
  DG_CALL(DG_ALLOC(*dst, n));
  memcpy(*dst, src, n);
  return DG_OK;
}

dg_status dg_series_create(dg_series **out, const char *path, int ncols,
                           const char *const *names) {
  *out = NULL;
  DG_CHECK(path && *path, DG_ERR_INPUT, "CSV series: no file name given");
  DG_CHECK(ncols >= 1 && names, DG_ERR_INPUT, "CSV series %s: no columns given", path);
  size_t len = 0;
  for (int c = 0; c < ncols; c++) {
    DG_CHECK(names[c] && *names[c] && !strpbrk(names[c], ",\n\r\""), DG_ERR_INPUT,
             "CSV series %s: column %d needs a name without commas, quotes or newlines", path,
             c);
    len += strlen(names[c]) + 1;
  }
  dg_series *s = NULL;
  dg_status st = DG_OK;
  DG_CALL(DG_ALLOC(s, 1));
  s->ncols = ncols;
  DG_CALL_GOTO(fail, copy_string(&s->path, path));
  DG_CALL_GOTO(fail, DG_ALLOC(s->header, len));
  for (int c = 0; c < ncols; c++) {
    if (c) strcat(s->header, ",");
    strcat(s->header, names[c]);
  }
  *out = s;
  return DG_OK;
fail:
  dg_series_destroy(&s);
  return st;
}

void dg_series_destroy(dg_series **s) {
  if (!s || !*s) return;
  DG_FREE_ALL(&(*s)->path, &(*s)->header, &(*s)->data);
  dg_free(s);
}

static dg_status reserve(dg_series *s, size_t rows) {
  if (rows <= s->cap) return DG_OK;
  size_t cap = s->cap ? 2 * s->cap : 64;
  while (cap < rows) cap *= 2;
  DG_CHECK(cap <= SIZE_MAX / sizeof(double) / (size_t)s->ncols, DG_ERR_MEMORY,
           "CSV series %s: %zu rows do not fit in memory", s->path, rows);
  double *d = realloc(s->data, cap * (size_t)s->ncols * sizeof *d);
  DG_CHECK(d, DG_ERR_MEMORY, "CSV series %s: out of memory for %zu rows", s->path, cap);
  s->data = d;
  s->cap = cap;
  return DG_OK;
}

dg_status dg_series_append(dg_series *s, const double *row) {
  DG_CALL(reserve(s, s->nrows + 1));
  memcpy(s->data + s->nrows * (size_t)s->ncols, row, (size_t)s->ncols * sizeof *row);
  s->nrows++;
  return DG_OK;
}

dg_status dg_series_commit(const dg_series *s) {
  dg_atomic_file f = {0};
  DG_CALL(dg_atomic_open(&f, s->path));
  fprintf(f.fp, "%s\n", s->header);
  for (size_t i = 0; i < s->nrows; i++) {
    const double *row = s->data + i * (size_t)s->ncols;
    for (int c = 0; c < s->ncols; c++) fprintf(f.fp, c ? ",%.17g" : "%.17g", row[c]);
    fputc('\n', f.fp);
  }
  DG_CALL(dg_atomic_commit(&f));
  return DG_OK;
}

static void chomp(char *line) {
  size_t n = strlen(line);
  while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
}

dg_status dg_series_resume(dg_series *s, const char *column, double max_value) {
  int col = -1;
  {
    /* Find the column by name in the header. */
    const char *h = s->header;
    const size_t n = strlen(column);
    for (int c = 0; c < s->ncols && col < 0; c++) {
      const char *end = strchr(h, ',');
      const size_t len = end ? (size_t)(end - h) : strlen(h);
      if (len == n && strncmp(h, column, n) == 0) col = c;
      h = end ? end + 1 : h + len;
    }
  }
  DG_CHECK(col >= 0, DG_ERR_INPUT, "CSV series %s has no column \"%s\"", s->path, column);
  s->nrows = 0;
  FILE *fp = fopen(s->path, "r");
  if (!fp && errno == ENOENT) return DG_OK; /* nothing recorded yet */
  DG_CHECK(fp, DG_ERR_IO, "cannot open %s: %s", s->path, strerror(errno));

  dg_status st = DG_OK;
  char *line = NULL;
  size_t cap = 0;
  double *row = NULL;
  DG_CALL_GOTO(done, DG_ALLOC(row, s->ncols));
  DG_CHECK_GOTO(done, getline(&line, &cap, fp) >= 0, DG_ERR_PARSE,
                "%s:1: empty file, expected the header \"%s\"", s->path, s->header);
  chomp(line);
  DG_CHECK_GOTO(done, strcmp(line, s->header) == 0, DG_ERR_PARSE,
                "%s:1: header \"%.200s\" differs from this run's \"%s\"", s->path, line,
                s->header);
  for (long lineno = 2; getline(&line, &cap, fp) >= 0; lineno++) {
    chomp(line);
    if (!*line) continue;
    const char *p = line;
    for (int c = 0; c < s->ncols; c++) {
      char *end;
      errno = 0;
      row[c] = strtod(p, &end);
      const char want = c + 1 < s->ncols ? ',' : '\0';
      DG_CHECK_GOTO(done, end != p && *end == want && errno != ERANGE, DG_ERR_PARSE,
                    "%s:%ld: value %d of the row is not a number followed by %s", s->path,
                    lineno, c + 1, want ? "a comma" : "the end of the line");
      p = end + 1;
    }
    if (row[col] <= max_value) DG_CALL_GOTO(done, dg_series_append(s, row));
  }
  DG_CHECK_GOTO(done, !ferror(fp), DG_ERR_IO, "cannot read %s: %s", s->path, strerror(errno));
done:
  free(line);
  dg_free(&row);
  fclose(fp);
  if (st != DG_OK) s->nrows = 0;
  return st;
}

int dg_series_rows(const dg_series *s) { return (int)s->nrows; }
int dg_series_cols(const dg_series *s) { return s->ncols; }
const double *dg_series_row(const dg_series *s, int i) {
  return s->data + (size_t)i * (size_t)s->ncols;
}

dg_status dg_energy_log_create(dg_series **out, const char *path) {
  static const char *const names[] = {"step", "t", "energy"};
  DG_CALL(dg_series_create(out, path, 3, names));
  return DG_OK;
}

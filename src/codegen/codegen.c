#include "codegen/codegen.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/files.h"
#include "core/hash.h"

dg_status dg_kernel_spec_file(dg_kernel_spec *s, const char *file) {
  DG_CHECK(s->nfiles < DG_CG_MAX_FILES, DG_ERR_INTERNAL, "kernel spec: more than %d templates",
           DG_CG_MAX_FILES);
  s->files[s->nfiles++] = file;
  return DG_OK;
}

dg_status dg_kernel_spec_define(dg_kernel_spec *s, const char *name, const char *fmt, ...) {
  DG_CHECK(s->ndefs < DG_CG_MAX_DEFS, DG_ERR_INTERNAL, "kernel spec: more than %d defines",
           DG_CG_MAX_DEFS);
  DG_CHECK(strlen(name) < DG_CG_NAME, DG_ERR_INTERNAL, "kernel spec: name '%s' too long", name);
  snprintf(s->defs[s->ndefs].name, DG_CG_NAME, "%s", name);
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(s->defs[s->ndefs].value, DG_CG_VALUE, fmt, ap);
  va_end(ap);
  DG_CHECK(n >= 0 && n < DG_CG_VALUE, DG_ERR_INTERNAL, "kernel spec: value of %s too long", name);
  s->ndefs++;
  return DG_OK;
}

dg_status dg_kernel_spec_array(dg_kernel_spec *s, const char *name, const double *v, int n) {
  DG_CHECK(s->narrays < DG_CG_MAX_ARRAYS, DG_ERR_INTERNAL, "kernel spec: more than %d arrays",
           DG_CG_MAX_ARRAYS);
  DG_CHECK(strlen(name) < DG_CG_NAME, DG_ERR_INTERNAL, "kernel spec: name '%s' too long", name);
  snprintf(s->arrays[s->narrays].name, DG_CG_NAME, "%s", name);
  s->arrays[s->narrays].v = v;
  s->arrays[s->narrays].n = n;
  s->narrays++;
  return DG_OK;
}

dg_status dg_codegen_read_file(const char *path, char **text, size_t *len) {
  dg_status st = DG_OK;
  char *buf = NULL;
  FILE *f = fopen(path, "rb");
  DG_CHECK(f, DG_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
  DG_CHECK_GOTO(done, fseek(f, 0, SEEK_END) == 0, DG_ERR_IO, "cannot seek '%s'", path);
  const long n = ftell(f);
  DG_CHECK_GOTO(done, n >= 0 && fseek(f, 0, SEEK_SET) == 0, DG_ERR_IO, "cannot size '%s'", path);
  DG_CALL_GOTO(done, DG_ALLOC(buf, (size_t)n + 1));
  DG_CHECK_GOTO(done, fread(buf, 1, (size_t)n, f) == (size_t)n, DG_ERR_IO, "cannot read '%s'",
                path);
  buf[n] = '\0';
  *text = buf;
  buf = NULL;
  if (len) *len = (size_t)n;
done:
  dg_free(&buf);
  fclose(f);
  return st;
}

static int is_dir(const char *p) {
  struct stat sb;
  return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

dg_status dg_codegen_template_dir(char *buf, size_t cap) {
  const char *env = getenv("DGTD_TEMPLATES");
  if (env && *env) {
    DG_CHECK(is_dir(env), DG_ERR_IO, "DGTD_TEMPLATES='%s' is not a directory", env);
    snprintf(buf, cap, "%s", env);
    return DG_OK;
  }
  char cand[DG_CG_PATH + 32];
  if (dg_beside_exe("cl_templates", cand, sizeof cand)) {
    snprintf(buf, cap, "%s", cand);
    return DG_OK;
  }
  DG_CHECK(is_dir("cl_templates"), DG_ERR_IO,
           "OpenCL templates not found: set DGTD_TEMPLATES, or keep cl_templates/ beside the "
           "binary's directory or in the current directory");
  snprintf(buf, cap, "cl_templates");
  return DG_OK;
}

/* ---- rendering ----------------------------------------------------------------------- */

typedef struct {
  char *p;
  size_t len, cap;
} strbuf;

static dg_status sb_put(strbuf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t ncap = b->cap ? b->cap : 4096;
    while (ncap < b->len + n + 1) ncap *= 2;
    char *q = realloc(b->p, ncap);
    DG_CHECK(q, DG_ERR_MEMORY, "codegen: out of memory (%zu bytes)", ncap);
    b->p = q;
    b->cap = ncap;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = '\0';
  return DG_OK;
}

static dg_status sb_printf(strbuf *b, const char *fmt, ...) DG_PRINTF(2, 3);
static dg_status sb_printf(strbuf *b, const char *fmt, ...) {
  char tmp[256];
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  DG_CHECK(n >= 0 && (size_t)n < sizeof tmp, DG_ERR_INTERNAL, "codegen: line too long");
  return sb_put(b, tmp, (size_t)n);
}

static dg_status put_template(strbuf *b, const char *dir, const char *file) {
  char path[DG_CG_PATH + 64];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  char *text = NULL;
  size_t len = 0;
  DG_CALL(dg_codegen_read_file(path, &text, &len));
  dg_status st = sb_printf(b, "\n/* ---- %s ---- */\n", file);
  if (st == DG_OK) st = sb_put(b, text, len);
  dg_free(&text);
  return st;
}

static dg_status put_array(strbuf *b, const dg_cg_array *a, int as_float) {
  DG_CALL(sb_printf(b, "__constant real_t %s[%d] = {", a->name, a->n));
  for (int i = 0; i < a->n; ++i)
    DG_CALL(sb_printf(b, "%s%.17e%s", i % 4 ? " " : "\n  ", a->v[i], as_float ? "f," : ","));
  return sb_put(b, "\n};\n", 4);
}

dg_status dg_codegen_render(const dg_kernel_spec *s, char **source) {
  dg_status st = DG_OK;
  strbuf b = {0};
  char dir[DG_CG_PATH];
  DG_CHECK(s->nfiles > 0, DG_ERR_INTERNAL, "kernel spec: no templates");
  if (s->template_dir[0])
    snprintf(dir, sizeof dir, "%s", s->template_dir);
  else
    DG_CALL(dg_codegen_template_dir(dir, sizeof dir));
  DG_CALL_GOTO(fail, sb_printf(&b, "/* dgtd generated source: templates"));
  for (int i = 0; i < s->nfiles; ++i) DG_CALL_GOTO(fail, sb_printf(&b, " %s", s->files[i]));
  DG_CALL_GOTO(fail, sb_printf(&b, " from %s */\n", dir));
  for (int i = 0; i < s->ndefs; ++i)
    DG_CALL_GOTO(fail, sb_printf(&b, "#define %s %s\n", s->defs[i].name, s->defs[i].value));
  DG_CALL_GOTO(fail, put_template(&b, dir, DG_CODEGEN_CONTRACT));
  DG_CALL_GOTO(fail, put_template(&b, dir, s->files[0]));
  if (s->narrays) DG_CALL_GOTO(fail, sb_printf(&b, "\n/* ---- literal operators ---- */\n"));
  for (int i = 0; i < s->narrays; ++i)
    DG_CALL_GOTO(fail, put_array(&b, &s->arrays[i], s->arrays_float));
  for (int i = 1; i < s->nfiles; ++i) DG_CALL_GOTO(fail, put_template(&b, dir, s->files[i]));
  *source = b.p;
  return DG_OK;
fail:
  free(b.p);
  return st;
}

/* ---- template hash ---------------------------------------------------------------------- */

static dg_status hash_file(const char *dir, const char *name, uint64_t *h) {
  char path[DG_CG_PATH + 260];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  char *text = NULL;
  size_t len = 0;
  DG_CALL(dg_codegen_read_file(path, &text, &len));
  *h = dg_fnv1a(*h, name, strlen(name) + 1);
  *h = dg_fnv1a(*h, text, len);
  dg_free(&text);
  return DG_OK;
}

dg_status dg_codegen_files_hash(const char *dir_in, const char *const *names, int n,
                                uint64_t *hash) {
  char dir[DG_CG_PATH];
  if (dir_in && *dir_in)
    snprintf(dir, sizeof dir, "%s", dir_in);
  else
    DG_CALL(dg_codegen_template_dir(dir, sizeof dir));
  uint64_t h = DG_FNV_OFFSET;
  DG_CALL(hash_file(dir, DG_CODEGEN_CONTRACT, &h)); /* in every program */
  for (int i = 0; i < n; ++i) DG_CALL(hash_file(dir, names[i], &h));
  *hash = h;
  return DG_OK;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

dg_status dg_codegen_templates_hash(const char *dir_in, uint64_t *hash) {
  dg_status st = DG_OK;
  char dir[DG_CG_PATH];
  if (dir_in && *dir_in)
    snprintf(dir, sizeof dir, "%s", dir_in);
  else
    DG_CALL(dg_codegen_template_dir(dir, sizeof dir));
  DIR *d = opendir(dir);
  DG_CHECK(d, DG_ERR_IO, "cannot open template directory '%s': %s", dir, strerror(errno));
  char **names = NULL;
  int n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    const size_t len = strlen(e->d_name);
    if (len < 4 || strcmp(e->d_name + len - 3, ".cl")) continue; /* contract.h: always hashed */
    if (n == cap) {
      cap = cap ? 2 * cap : 16;
      char **q = realloc(names, (size_t)cap * sizeof *names);
      DG_CHECK_GOTO(done, q, DG_ERR_MEMORY, "template hash: out of memory");
      names = q;
    }
    names[n] = strdup(e->d_name);
    DG_CHECK_GOTO(done, names[n], DG_ERR_MEMORY, "template hash: out of memory");
    n++;
  }
  qsort(names, (size_t)n, sizeof *names, cmp_str);
  DG_CALL_GOTO(done, dg_codegen_files_hash(dir, (const char *const *)names, n, hash));
done:
  for (int i = 0; i < n; ++i) free(names[i]);
  free(names);
  closedir(d);
  return st;
}

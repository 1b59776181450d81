/* Run-time OpenCL source generation: a kernel spec (template files, #define constants,
 * optional literal operator arrays) is rendered into one source text,
 *
 *   // header comment naming the templates
 *   #define NAME value          one line per constant, in the order given
 *   <contract.h>                the names host and kernels share (DG_CODEGEN_CONTRACT)
 *   <common.cl>                 the first template (real_t, layout helpers)
 *   __constant real_t NAME[] = {...};   literal arrays, if any (%.17e, f suffix in float)
 *   <the other templates>       concatenated in order
 *
 * Nothing else: no template language. The rendered text is what gets built, hashed, cached
 * and dumped. Strings only, no OpenCL calls.
 *
 * Templates are read from $DGTD_TEMPLATES, else <dir of /proc/self/exe>/../cl_templates,
 * else ./cl_templates. */
#ifndef DG_CODEGEN_CODEGEN_H
#define DG_CODEGEN_CODEGEN_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

/* The host-kernel contract in the template directory: put at the top of every program, part of
 * every hash below. */
#define DG_CODEGEN_CONTRACT "contract.h"

enum {
  DG_CG_MAX_FILES = 16,
  DG_CG_MAX_DEFS = 48,
  DG_CG_MAX_ARRAYS = 8,
  DG_CG_NAME = 40,
  DG_CG_VALUE = 96,
  DG_CG_PATH = 1024
};

/* A literal array: __constant real_t name[n] = {v[0], ...}. */
typedef struct {
  char name[DG_CG_NAME];
  const double *v; /* borrowed until rendering */
  int n;
} dg_cg_array;

typedef struct {
  char template_dir[DG_CG_PATH]; /* "" = dg_codegen_template_dir() */
  const char *files[DG_CG_MAX_FILES]; /* template file names, common.cl first */
  int nfiles;
  struct {
    char name[DG_CG_NAME];
    char value[DG_CG_VALUE];
  } defs[DG_CG_MAX_DEFS];
  int ndefs;
  dg_cg_array arrays[DG_CG_MAX_ARRAYS];
  int narrays;
  int arrays_float; /* 1: literal arrays are float (f suffix) */
} dg_kernel_spec;

/* Append a template file name (a string literal or otherwise outliving the spec). */
dg_status dg_kernel_spec_file(dg_kernel_spec *s, const char *file) DG_NODISCARD;
/* Append #define name value (printf-style value). */
dg_status dg_kernel_spec_define(dg_kernel_spec *s, const char *name, const char *fmt, ...)
    DG_PRINTF(3, 4) DG_NODISCARD;
/* Append a literal __constant array (v is borrowed until dg_codegen_render). */
dg_status dg_kernel_spec_array(dg_kernel_spec *s, const char *name, const double *v,
                               int n) DG_NODISCARD;

/* Render s into a NUL-terminated string; free *source with dg_free(source). */
dg_status dg_codegen_render(const dg_kernel_spec *s, char **source) DG_NODISCARD;

/* The template directory (see top), or DG_ERR_IO naming the places tried. */
dg_status dg_codegen_template_dir(char *buf, size_t cap) DG_NODISCARD;

/* FNV-1a 64 over the contract and every *.cl file of dir (dir NULL or "": the template
 * directory), in name order, names and contents both: a changed, added or removed template
 * changes it. */
dg_status dg_codegen_templates_hash(const char *dir, uint64_t *hash) DG_NODISCARD;

/* The same over the contract and the n named files of dir (dir NULL or "": the template
 * directory), in the order given: what one program is built from. */
dg_status dg_codegen_files_hash(const char *dir, const char *const *names, int n,
                                uint64_t *hash) DG_NODISCARD;

/* Read a whole file into a NUL-terminated buffer (free with dg_free). */
dg_status dg_codegen_read_file(const char *path, char **text, size_t *len) DG_NODISCARD;

#endif

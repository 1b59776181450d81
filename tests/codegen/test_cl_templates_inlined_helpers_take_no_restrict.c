/* Portability rule for cl_templates/: a helper marked always_inline takes no restrict-
 * qualified pointer parameter, directly or through a macro (INC_PARAMS).
 *
 * Why: always_inline helpers are inlined even at -O0, and LLVM (13 and later) marks every
 * inlined noalias parameter with a call to llvm.experimental.noalias.scope.decl. An
 * implementation that interprets or translates the LLVM IR without knowing that intrinsic
 * cannot create the kernel: Oclgrind 21.10 failed every flux=face program with "Undefined
 * external function: llvm.experimental.noalias.scope.decl" (clCreateKernel:
 * CL_INVALID_KERNEL_NAME). Kernel parameters keep restrict: the inlined body still sees it.
 *
 * The scan is textual: it finds each "always_inline" attribute, takes the parameter list of
 * the function that follows, and rejects "restrict" or any macro whose #define contains it.
 * A fake template with both mistakes checks that the scan catches them. */
#include "test_util.h"

#include <ctype.h>
#include <dirent.h>

enum { MAX_MACROS = 64 };

typedef struct {
  char names[MAX_MACROS][64];
  int n;
} macro_set;

static char *read_all(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  const long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)len + 1);
  if (s && fread(s, 1, (size_t)len, f) != (size_t)len) {
    free(s);
    s = NULL;
  }
  if (s) s[len] = '\0';
  fclose(f);
  return s;
}

/* Names of the object-like or function-like macros whose definition line holds restrict. */
static void collect_restrict_macros(const char *src, macro_set *m) {
  for (const char *p = src; (p = strstr(p, "#define")) != NULL; p += 7) {
    const char *eol = strchr(p, '\n');
    if (!eol) eol = p + strlen(p);
    const char *name = p + 7;
    while (*name == ' ') ++name;
    size_t len = 0;
    while (isalnum((unsigned char)name[len]) || name[len] == '_') ++len;
    const char *r = strstr(name + len, "restrict");
    if (r && r < eol && len < sizeof m->names[0] && m->n < MAX_MACROS)
      snprintf(m->names[m->n++], sizeof m->names[0], "%.*s", (int)len, name);
  }
}

/* Is word (a whole identifier) in s[0..len)? */
static int has_word(const char *s, size_t len, const char *word) {
  const size_t wl = strlen(word);
  for (size_t i = 0; i + wl <= len; ++i) {
    if (strncmp(s + i, word, wl) != 0) continue;
    const int before = i > 0 && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_');
    const int after = i + wl < len && (isalnum((unsigned char)s[i + wl]) || s[i + wl] == '_');
    if (!before && !after) return 1;
  }
  return 0;
}

/* Count the always_inline helpers in src; write the first offending one's name into bad
 * (empty if none). */
static int scan(const char *src, const macro_set *m, char *bad, size_t cap) {
  int helpers = 0;
  bad[0] = '\0';
  for (const char *p = src; (p = strstr(p, "always_inline")) != NULL; ++p) {
    const char *open = strchr(p, '(');
    /* skip the attribute's own parentheses: "__attribute__((always_inline))" */
    while (open && (open[1] == '(' || open < p + 13)) open = strchr(open + 1, '(');
    if (!open) break;
    const char *close = open;
    int depth = 0;
    for (; *close; ++close) {
      if (*close == '(') ++depth;
      if (*close == ')' && --depth == 0) break;
    }
    const char *name_end = open;
    while (name_end > p && isspace((unsigned char)name_end[-1])) --name_end;
    const char *name = name_end;
    while (name > p && (isalnum((unsigned char)name[-1]) || name[-1] == '_')) --name;
    ++helpers;
    const size_t len = (size_t)(close - open);
    int hit = has_word(open, len, "restrict");
    for (int i = 0; i < m->n && !hit; ++i) hit = has_word(open, len, m->names[i]);
    if (hit && !bad[0]) snprintf(bad, cap, "%.*s", (int)(name_end - name), name);
  }
  return helpers;
}

static void test_scan_catches_restrict_directly_and_through_a_macro(void **state) {
  (void)state;
  const char *direct =
      "__attribute__((always_inline)) inline void h(__global const float *restrict a) {}\n";
  const char *via_macro =
      "#define EXTRA , __global const float *restrict x\n"
      "__attribute__((always_inline)) inline void g(const int i EXTRA) {}\n";
  const char *clean =
      "#define EXTRA , __global const float *x\n"
      "__attribute__((always_inline)) inline void g(const int i EXTRA) {}\n"
      "__kernel void k(__global float *restrict y) {}\n";
  char bad[64];
  macro_set m = {.n = 0};
  collect_restrict_macros(direct, &m);
  assert_int_equal(scan(direct, &m, bad, sizeof bad), 1);
  assert_string_equal(bad, "h");
  m.n = 0;
  collect_restrict_macros(via_macro, &m);
  assert_int_equal(m.n, 1);
  assert_int_equal(scan(via_macro, &m, bad, sizeof bad), 1);
  assert_string_equal(bad, "g");
  m.n = 0;
  collect_restrict_macros(clean, &m);
  assert_int_equal(scan(clean, &m, bad, sizeof bad), 1);
  assert_string_equal(bad, "");
}

static void test_templates_follow_the_rule(void **state) {
  (void)state;
  DIR *d = opendir("cl_templates");
  assert_non_null(d);
  /* Macros first, from every template (common.cl's are visible in all of them). */
  char *srcs[32];
  char names[32][256];
  int n = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    const size_t len = strlen(e->d_name);
    if (len < 4 || strcmp(e->d_name + len - 3, ".cl") != 0 || n == 32) continue;
    char path[512];
    snprintf(path, sizeof path, "cl_templates/%s", e->d_name);
    srcs[n] = read_all(path);
    assert_non_null(srcs[n]);
    snprintf(names[n], sizeof names[n], "%s", e->d_name);
    ++n;
  }
  closedir(d);
  assert_true(n >= 5);
  macro_set m = {.n = 0};
  for (int i = 0; i < n; ++i) collect_restrict_macros(srcs[i], &m);
  int helpers = 0;
  for (int i = 0; i < n; ++i) {
    char bad[64];
    helpers += scan(srcs[i], &m, bad, sizeof bad);
    if (bad[0])
      fail_msg("cl_templates/%s: always_inline helper '%s' takes a restrict pointer (directly "
               "or through a macro): drop restrict there, keep it on the kernel's parameters",
               names[i], bad);
    free(srcs[i]);
  }
  printf("# %d always_inline helpers checked, %d macros with restrict\n", helpers, m.n);
  assert_true(helpers >= 2); /* load_face and face_flux_eval at least */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scan_catches_restrict_directly_and_through_a_macro),
      cmocka_unit_test(test_templates_follow_the_rule),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The host-kernel contract (cl_templates/contract.h) holds for every program the host
 * renders: every variant of the covering set (every value of every dimension) with and
 * without point sources, PML, dispersive poles and an incident wave (harmonic in float, modulated Gaussian in
 * double), in float and double; the DFT, multirate
 * and halo programs. For each rendered source:
 *   1. every name the host #defines is read by the source (a misspelt setting would be
 *      ignored and the template's default taken);
 *   2. run through the C preprocessor with -Wundef -Werror=undef, with every default of a
 *      setting (#ifndef X / #define X ...) replaced by an undefined token: an identifier the
 *      source reads in #if that nobody defines (a misspelt choice name), a setting the source
 *      reads that the host did not write, or a choice outside its table (#error) fails.
 * The checker itself must catch three planted misspellings. Needs no OpenCL device: the
 * sources are made as dgtd kernels makes them, and cc is the compiler that built the tests. */
#include "test_util.h"

#include <unistd.h>

#include "backend/cl_dft.h"
#include "backend/cl_maxwell.h"
#include "backend/cl_multirate.h"
#include "backend/variant.h"
#include "codegen/codegen.h"
#include "core/alloc.h"

enum { MAX_NAMES = 64, NAME_LEN = 48 };

/* The names of the host's #define lines: those before the contract. */
static int host_names(const char *src, char names[MAX_NAMES][NAME_LEN], const char **rest) {
  const char *body = strstr(src, "/* ---- " DG_CODEGEN_CONTRACT " ---- */");
  assert_non_null(body);
  int n = 0;
  for (const char *p = src; p && p < body; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
    if (strncmp(p, "#define ", 8)) continue;
    const char *a = p + 8;
    size_t len = strcspn(a, " \t\n(");
    assert_true(n < MAX_NAMES && len < NAME_LEN);
    memcpy(names[n], a, len);
    names[n++][len] = '\0';
  }
  *rest = body;
  return n;
}

static int is_ident(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

/* Whether name occurs in text as a whole token on a line other than its own default
 * (#ifndef name / #define name). */
static int read_by(const char *text, const char *name) {
  const size_t len = strlen(name);
  for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
    if ((p > text && is_ident(p[-1])) || is_ident(p[len])) continue;
    const char *line = p;
    while (line > text && line[-1] != '\n') --line;
    if (!strncmp(line, "#ifndef ", 8) || !strncmp(line, "#define ", 8)) continue;
    return 1;
  }
  return 0;
}

/* The source with each default's value replaced by DG_UNSET_<name>: inside a block
 * "#ifndef X" whose next line is "#define X <value>", every "#define Y <value>" up to its
 * #endif. Include guards (#define X with no value) are left alone. */
static char *poison_defaults(const char *src) {
  const size_t n = strlen(src);
  char *out = NULL;
  assert_dg_ok(DG_ALLOC(out, 2 * n + 4096));
  size_t o = 0;
  int in_default = 0;
  for (const char *p = src; *p;) {
    const char *eol = strchr(p, '\n');
    const size_t len = eol ? (size_t)(eol - p + 1) : strlen(p);
    if (!strncmp(p, "#ifndef ", 8) && eol && !strncmp(eol + 1, "#define ", 8)) {
      const char *name = p + 8, *def = eol + 9;
      const size_t nl = strcspn(name, " \t\n");
      const char *after = def + nl;
      in_default = !strncmp(def, name, nl) && *after == ' ';
    } else if (!strncmp(p, "#endif", 6)) {
      in_default = 0;
    } else if (in_default && !strncmp(p, "#define ", 8)) {
      const size_t nl = strcspn(p + 8, " \t\n(");
      o += (size_t)sprintf(out + o, "#define %.*s DG_UNSET_%.*s\n", (int)nl, p + 8, (int)nl, p + 8);
      p += len;
      continue;
    }
    memcpy(out + o, p, len);
    o += len;
    p += len;
  }
  out[o] = '\0';
  return out;
}

/* 0 when src keeps the contract; else 1 with the reason in why. */
static int contract_broken(const char *src, char *why, size_t cap) {
  char names[MAX_NAMES][NAME_LEN];
  const char *rest = NULL;
  const int n = host_names(src, names, &rest);
  for (int i = 0; i < n; ++i)
    if (!read_by(rest, names[i])) {
      snprintf(why, cap, "the host writes %s, which the source does not read", names[i]);
      return 1;
    }
  char in[] = "/tmp/dgtd-contract-XXXXXX";
  const int fd = mkstemp(in);
  assert_true(fd >= 0);
  char *text = poison_defaults(src);
  const size_t len = strlen(text);
  assert_int_equal(write(fd, text, len), (ssize_t)len);
  close(fd);
  dg_free(&text);
  char cmd[512], out[64], err[64];
  snprintf(out, sizeof out, "%s.i", in);
  snprintf(err, sizeof err, "%s.err", in);
  snprintf(cmd, sizeof cmd, "cc -E -P -Wundef -Werror=undef -x c %s -o %s 2> %s", in, out, err);
  const int rc = system(cmd);
  int broken = rc != 0;
  char *res = NULL, *msg = NULL;
  if (broken) {
    size_t ml = 0;
    if (dg_codegen_read_file(err, &msg, &ml) != DG_OK) dg_error_clear();
    snprintf(why, cap, "preprocessor: %s", msg ? msg : "(no message)");
  } else {
    size_t rl = 0;
    assert_dg_ok(dg_codegen_read_file(out, &res, &rl));
    const char *u = strstr(res, "DG_UNSET_");
    if (u) {
      broken = 1;
      snprintf(why, cap, "the source reads a setting the host did not write: %.40s", u);
    }
  }
  dg_free(&res);
  dg_free(&msg);
  unlink(in);
  unlink(out);
  unlink(err);
  return broken;
}

static void expect_kept(const char *what, char *src) {
  char why[1024];
  if (contract_broken(src, why, sizeof why)) fail_msg("%s: %s", what, why);
  dg_free(&src);
}

/* The checker catches a planted misspelling: src with `from` replaced by `to` once. */
static void expect_caught(const char *src, const char *from, const char *to) {
  const char *at = strstr(src, from);
  assert_non_null(at);
  char *bad = NULL;
  assert_dg_ok(DG_ALLOC(bad, strlen(src) + strlen(to) + 1));
  memcpy(bad, src, (size_t)(at - src));
  strcpy(bad + (at - src), to);
  strcat(bad, at + strlen(from));
  char why[1024];
  if (!contract_broken(bad, why, sizeof why))
    fail_msg("'%s' -> '%s' was not caught", from, to);
  print_message("# caught '%s' -> '%s': %.200s\n", from, to, why);
  dg_free(&bad);
}

/* The covering set and the fused kernels of work=node, each with and without sources, PML
 * and an incident wave, in float and double. */
static void test_maxwell_programs_keep_the_contract(void **state) {
  (void)state;
  const char *extra[] = {"kb=4,fuse=rhs", "test=flip"};
  const int ncover = DG_VARIANT_NCOVER, nspec = ncover + 2;
  dg_plane_wave pw = {.k = {0, 0, 1}, .pol = {1, 0, 0},
                      .pulse = {DG_PULSE_HARMONIC, 2.0, 0.5, 1.0, 2.0}};
  assert_dg_ok(dg_plane_wave_init(&pw));
  dg_plane_wave mod = pw; /* the shape with a setting of its own (DG_INC_BWA) */
  mod.pulse = (dg_pulse){.shape = DG_PULSE_MODULATED_GAUSSIAN, .f0 = 2.0, .t0 = 1.0,
                         .amplitude = 1.0, .bandwidth = 1.0};
  int programs = 0;
  for (int i = 0; i < nspec; ++i)
    for (int p = 0; p < 2; ++p)
      for (int with = 0; with < 2; ++with) {
        const char *spec = i < ncover ? dg_variant_covering[i] : extra[i - ncover];
        const dg_precision prec = p ? DG_PREC_DOUBLE : DG_PREC_FLOAT;
        dg_variant v;
        if (!strcmp(spec, "default")) {
          v = dg_variant_default(NULL, 3, prec);
        } else {
          assert_dg_ok(dg_variant_parse(spec, &v));
          v.precision = prec;
        }
        const int N = v.literal || v.fuse != DG_FUSE_NONE ? 2 : 3;
        char *src = NULL, label[DG_VARIANT_SPEC_MAX + 32], buf[DG_VARIANT_SPEC_MAX];
        const dg_plane_wave *wave = with ? (p ? &mod : &pw) : NULL;
        const dg_cl_terms terms = {with, with, with, with, wave};
        assert_dg_ok(dg_cl_maxwell_source(&v, N, &terms, &src));
        snprintf(label, sizeof label, "%s%s", dg_variant_print(&v, buf, sizeof buf),
                 with ? " +sources,pml,poles,curved,incident" : "");
        expect_kept(label, src);
        ++programs;
      }
  print_message("# %d Maxwell programs keep the contract\n", programs);
}

static void test_dft_multirate_halo_programs_keep_the_contract(void **state) {
  (void)state;
  for (int f = 0; f < 2; ++f)
    for (int a = 0; a < 2; ++a) {
      char *src = NULL;
      assert_dg_ok(dg_cl_dft_source(f, a, &src));
      expect_kept("dft", src);
    }
  const char *specs[] = {"", "work=vec,vw=16", "work=elem,vw=4"};
  for (int i = 0; i < 3; ++i) {
    dg_variant v;
    assert_dg_ok(dg_variant_parse(specs[i], &v));
    char *src = NULL;
    assert_dg_ok(dg_cl_multirate_source(&v, 3, &src));
    expect_kept(specs[i][0] ? specs[i] : "multirate baseline", src);
  }
  for (int d = 0; d < 2; ++d) {
    char *src = NULL;
    assert_dg_ok(dg_cl_halo_source(d, &src));
    expect_kept("halo", src);
  }
}

/* A name the host misspells (choice value or setting) and a name a template misspells. */
static void test_checker_catches_misspelt_names(void **state) {
  (void)state;
  dg_variant v;
  assert_dg_ok(dg_variant_parse("kb=2,vplace=matrix,lplace=field,lift=fused-update,flux=face", &v));
  char *src = NULL;
  const dg_cl_terms all = {1, 1, 1, 1, NULL};
  assert_dg_ok(dg_cl_maxwell_source(&v, 2, &all, &src));
  expect_caught(src, "#define VPLACE PLACE_MATRIX\n", "#define VPLACE PLACE_MATIRX\n");
  expect_caught(src, "#define LIFT_KERNEL liftupdate\n", "#define LIFT_KERNL liftupdate\n");
  expect_caught(src, "#define FLUX_MODE FLUX_FACE\n", "#define FLUX_MODE FLUX_FASE\n");
  expect_caught(src, "FLUX_MODE == FLUX_FACE", "FLUX_MODE == FLUX_FACES");
  expect_caught(src, "#define UNROLL 1\n", "");
  dg_free(&src);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_checker_catches_misspelt_names),
      cmocka_unit_test(test_maxwell_programs_keep_the_contract),
      cmocka_unit_test(test_dft_multirate_halo_programs_keep_the_contract),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

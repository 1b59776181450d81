/* The documentation stays inside the repository: every Markdown link and image resolves to
 * a file in the repository (and its #anchor to a heading there), every docs/ path written
 * in any source, script or page exists, every backticked repository path in the Markdown
 * pages exists, nothing cites the out-of-tree design notes, every configs/ case that a
 * page names runs for a short final time (bin/dgtd run CASE --final-time 0.05), and every
 * command of the README's and the tutorial's ```sh blocks runs as written (shortened). */
#include "test_util.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>

/* ---- files -------------------------------------------------------------------------------- */

typedef struct {
  char **v;
  int n, cap;
} strlist;

static void list_add(strlist *l, const char *s) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
    assert_non_null(l->v);
  }
  l->v[l->n] = strdup(s);
  assert_non_null(l->v[l->n]);
  l->n++;
}

static void list_free(strlist *l) {
  for (int i = 0; i < l->n; ++i) free(l->v[i]);
  free(l->v);
  memset(l, 0, sizeof *l);
}

static int ends_with(const char *s, const char *suffix) {
  const size_t a = strlen(s), b = strlen(suffix);
  return a >= b && !strcmp(s + a - b, suffix);
}

static int is_dir(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int exists(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0;
}

/* Text files the project writes (not build outputs, meshes or kept results), relative to
 * the repository root, where make test runs. */
static int is_text(const char *name) {
  static const char *const ext[] = {".c", ".h", ".cl", ".md", ".sh", ".py", ".json",
                                    ".geo", ".gp", NULL};
  if (!strcmp(name, "Makefile")) return 1;
  for (int i = 0; ext[i]; ++i)
    if (ends_with(name, ext[i])) return 1;
  return 0;
}

static void walk(const char *dir, strlist *out) {
  DIR *d = opendir(dir[0] ? dir : ".");
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    const char *n = e->d_name;
    if (n[0] == '.' || !strcmp(n, "bin") || !strcmp(n, "out") || !strncmp(n, "build", 5))
      continue; /* hidden (.git), build outputs, run outputs */
    char path[1024];
    snprintf(path, sizeof path, "%s%s%s", dir, dir[0] ? "/" : "", n);
    if (is_dir(path)) {
      if (strcmp(path, "tests/fixtures") && strcmp(path, "bench/results")) walk(path, out);
    } else if (is_text(n)) {
      list_add(out, path);
    }
  }
  closedir(d);
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("cannot open %s", path);
  fseek(f, 0, SEEK_END);
  const long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  assert_non_null(s);
  const size_t got = fread(s, 1, (size_t)n, f);
  s[got] = '\0';
  fclose(f);
  return s;
}

/* This file names the strings it looks for; it is not documentation. */
static int is_self(const char *path) { return ends_with(path, "test_docs_links_resolve.c"); }

/* ---- paths and anchors -------------------------------------------------------------------- */

/* base's directory + rel, with "." and ".." resolved; 0 if it leaves the repository. */
static int join(const char *base, const char *rel, char *out, size_t cap) {
  char buf[2048];
  const char *slash = strrchr(base, '/');
  if (slash)
    snprintf(buf, sizeof buf, "%.*s/%s", (int)(slash - base), base, rel);
  else
    snprintf(buf, sizeof buf, "%s", rel);
  const int absolute = buf[0] == '/'; /* only a scratch page in the self-test */
  char *parts[128];
  int np = 0;
  char *save = NULL;
  for (char *p = strtok_r(buf, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
    if (!strcmp(p, ".")) continue;
    if (!strcmp(p, "..")) {
      if (np == 0) return 0;
      --np;
      continue;
    }
    if (np < 128) parts[np++] = p;
  }
  snprintf(out, cap, "%s", absolute ? "/" : "");
  for (int i = 0; i < np; ++i) {
    const size_t len = strlen(out);
    snprintf(out + len, cap - len, "%s%s", i ? "/" : "", parts[i]);
  }
  if (!out[0] || !strcmp(out, "/")) snprintf(out, cap, absolute ? "/" : ".");
  return 1;
}

/* GitHub's heading anchor: lower case, spaces to '-', other punctuation dropped. */
static void slug(const char *heading, char *out, size_t cap) {
  size_t n = 0;
  for (const unsigned char *p = (const unsigned char *)heading; *p && n + 1 < cap; ++p) {
    if (*p == ' ')
      out[n++] = '-';
    else if (isalnum(*p) || *p == '-' || *p == '_' || *p >= 0x80)
      out[n++] = (char)tolower(*p);
  }
  out[n] = '\0';
}

static int has_anchor(const char *md_path, const char *anchor) {
  char *text = slurp(md_path);
  int found = 0, fence = 0;
  char *save = NULL;
  for (char *line = strtok_r(text, "\n", &save); line && !found;
       line = strtok_r(NULL, "\n", &save)) {
    if (!strncmp(line, "```", 3)) fence = !fence;
    if (fence || line[0] != '#') continue;
    const char *h = line;
    while (*h == '#') ++h;
    while (*h == ' ') ++h;
    char s[256];
    slug(h, s, sizeof s);
    found = !strcmp(s, anchor);
  }
  free(text);
  return found;
}

/* ---- checks ------------------------------------------------------------------------------- */

typedef struct {
  char msg[8192];
  size_t len;
  int count;
} problems;

static void problem(problems *p, const char *fmt, ...) DG_PRINTF(2, 3);
static void problem(problems *p, const char *fmt, ...) {
  p->count++;
  if (p->len + 200 >= sizeof p->msg) return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(p->msg + p->len, sizeof p->msg - p->len, fmt, ap);
  va_end(ap);
  if (n > 0) p->len += (size_t)n;
  p->len += (size_t)snprintf(p->msg + p->len, sizeof p->msg - p->len, "\n");
  if (p->len >= sizeof p->msg) p->len = sizeof p->msg - 1;
}

/* One Markdown link target written in file md (line ln). */
static void check_link(problems *pr, const char *md, int ln, const char *target) {
  char t[1024];
  snprintf(t, sizeof t, "%s", target);
  char *sp = strchr(t, ' '); /* [x](path "title") */
  if (sp) *sp = '\0';
  if (strstr(t, "://") || !strncmp(t, "mailto:", 7)) return;
  char *hash = strchr(t, '#');
  char anchor[256] = "";
  if (hash) {
    snprintf(anchor, sizeof anchor, "%s", hash + 1);
    *hash = '\0';
  }
  char path[2048];
  if (!t[0]) {
    snprintf(path, sizeof path, "%s", md); /* #anchor in the same page */
  } else if (t[0] == '/' || !join(md, t, path, sizeof path)) {
    problem(pr, "%s:%d: link '%s' points outside the repository", md, ln, target);
    return;
  }
  if (!exists(path)) {
    problem(pr, "%s:%d: link '%s': %s does not exist", md, ln, target, path);
    return;
  }
  if (anchor[0] && ends_with(path, ".md") && !has_anchor(path, anchor))
    problem(pr, "%s:%d: link '%s': no heading '#%s' in %s", md, ln, target, anchor, path);
}

/* A backticked token that names a repository file, e.g. `src/dg/maxwell.h`. */
static void check_code_path(problems *pr, const char *md, int ln, const char *tok) {
  static const char *const roots[] = {"src/", "cl_templates/", "tests/", "scripts/", "configs/",
                                      "bench/", "tuning/", "docs/", NULL};
  int rooted = 0;
  for (int i = 0; roots[i]; ++i) rooted |= !strncmp(tok, roots[i], strlen(roots[i]));
  if (!rooted || strpbrk(tok, " <>*{}$[]|") || strstr(tok, "...") || strstr(tok, "NNN")) return;
  if (!strncmp(tok, "configs/out/", 12)) return; /* a run's outputs (ignored by git) */
  char p[1024], alt[1040];
  snprintf(p, sizeof p, "%s", tok);
  size_t n = strlen(p);
  while (n && strchr(".,:;", p[n - 1])) p[--n] = '\0';
  if (exists(p)) return;
  snprintf(alt, sizeof alt, "%s.c", p); /* "src/tune/limits" names the unit */
  if (exists(alt)) return;
  problem(pr, "%s:%d: `%s` does not exist", md, ln, tok);
}

static void check_markdown(problems *pr, const char *md) {
  char *text = slurp(md);
  int fence = 0, ln = 0;
  char *save = NULL;
  /* strtok_r skips empty lines, so count newlines by hand. */
  for (char *line = text, *next; line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = '\0';
    ++ln;
    if (!strncmp(line, "```", 3) || !strncmp(line, "    ```", 7)) {
      fence = !fence;
      continue;
    }
    if (fence) continue;
    int code = 0;
    for (char *c = line; *c; ++c) {
      if (*c == '`') {
        if (!code) {
          char *end = strchr(c + 1, '`');
          if (end) {
            char tok[1024];
            snprintf(tok, sizeof tok, "%.*s", (int)(end - c - 1), c + 1);
            check_code_path(pr, md, ln, tok);
          }
        }
        code = !code;
        continue;
      }
      if (code || c[0] != ']' || c[1] != '(') continue;
      char *end = strchr(c + 2, ')');
      if (!end) continue;
      char target[1024];
      snprintf(target, sizeof target, "%.*s", (int)(end - c - 2), c + 2);
      check_link(pr, md, ln, target);
      c = end;
    }
  }
  (void)save;
  free(text);
}

/* Every docs/... path written anywhere (comments, help texts, scripts, pages). */
static void check_docs_mentions(problems *pr, const char *file) {
  char *text = slurp(file);
  int ln = 1;
  for (char *c = text; *c; ++c) {
    if (*c == '\n') ++ln;
    if (strncmp(c, "docs/", 5)) continue;
    if (c > text && (isalnum((unsigned char)c[-1]) || strchr("_./-", c[-1]))) continue;
    size_t n = 0;
    char tok[512];
    while (n + 1 < sizeof tok && (isalnum((unsigned char)c[n]) || strchr("_./-", c[n]))) {
      tok[n] = c[n];
      ++n;
    }
    tok[n] = '\0';
    while (n && tok[n - 1] == '.') tok[--n] = '\0'; /* end of a sentence, or "docs/..." */
    if (!exists(tok)) problem(pr, "%s:%d: '%s' does not exist", file, ln, tok);
    c += n ? n - 1 : 0;
  }
  free(text);
}

static void check_no_outside_refs(problems *pr, const char *file) {
  static const char *const bad[] = {"DESIGN.md", "STYLE.md", "../shared", "/work/shared", NULL};
  char *text = slurp(file);
  for (int i = 0; bad[i]; ++i) {
    const char *hit = strstr(text, bad[i]);
    if (!hit) continue;
    int ln = 1;
    for (const char *c = text; c < hit; ++c) ln += *c == '\n';
    problem(pr, "%s:%d: cites '%s', which is not in the repository", file, ln, bad[i]);
  }
  free(text);
}

/* ---- tests -------------------------------------------------------------------------------- */

static void links_and_paths_resolve(void **state) {
  (void)state;
  strlist files = {0};
  walk("", &files);
  int n_md = 0;
  problems pr;
  memset(&pr, 0, sizeof pr);
  for (int i = 0; i < files.n; ++i) {
    if (is_self(files.v[i])) continue;
    if (ends_with(files.v[i], ".md")) {
      check_markdown(&pr, files.v[i]);
      ++n_md;
    }
    check_docs_mentions(&pr, files.v[i]);
    check_no_outside_refs(&pr, files.v[i]);
  }
  printf("# %d files scanned, %d Markdown pages, %d problems\n", files.n, n_md, pr.count);
  list_free(&files);
  if (n_md < 5) fail_msg("only %d Markdown pages found: not run from the repository root?", n_md);
  if (pr.count) fail_msg("%d broken references:\n%s", pr.count, pr.msg);
}

/* The checker itself: a broken link, a bad anchor and a path escaping the repository are
 * each reported. */
static void checker_catches_broken_links(void **state) {
  test_scratch *s = *state;
  char md[256];
  snprintf(md, sizeof md, "%s/page.md", s->dir);
  FILE *f = fopen(md, "w");
  assert_non_null(f);
  fprintf(f, "# Title here\n\n[ok](page.md#title-here) [bad](missing.md) "
             "[anchor](page.md#nowhere)\n```\n[in code](ignored.md)\n```\n"
             "[out](../../../../../../../../../../etc/passwd) `docs/nothing-here.md`\n");
  fclose(f);
  problems pr;
  memset(&pr, 0, sizeof pr);
  check_markdown(&pr, md);
  if (pr.count != 4) fail_msg("%d problems, expected 4:\n%s", pr.count, pr.msg);
  assert_non_null(strstr(pr.msg, "missing.md"));
  assert_non_null(strstr(pr.msg, "#nowhere"));
  assert_non_null(strstr(pr.msg, "outside the repository"));
  assert_non_null(strstr(pr.msg, "nothing-here"));
  assert_null(strstr(pr.msg, "ignored.md"));
}

/* Every configs/NAME.json that a Markdown page names runs, briefly, with no tuning. */
static void documented_cases_run(void **state) {
  test_scratch *s = *state;
  setenv("DGTD_TUNE", "never", 1);
  const char *bin = getenv("BIN");
  if (!bin || !*bin) bin = "bin";
  strlist files = {0};
  walk("", &files);
  size_t total = 1;
  char *md_text = calloc(1, 1);
  assert_non_null(md_text);
  for (int i = 0; i < files.n; ++i) {
    if (!ends_with(files.v[i], ".md")) continue;
    char *t = slurp(files.v[i]);
    total += strlen(t) + 1;
    md_text = realloc(md_text, total);
    assert_non_null(md_text);
    strcat(md_text, t);
    strcat(md_text, "\n");
    free(t);
  }
  list_free(&files);
  DIR *d = opendir("configs");
  assert_non_null(d);
  struct dirent *e;
  int ran = 0;
  while ((e = readdir(d))) {
    if (!ends_with(e->d_name, ".json") || !strstr(md_text, e->d_name)) continue;
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "'%s/dgtd' run 'configs/%s' --final-time 0.05 --quiet --output '%s/%s.out' "
             "> '%s/%s.log' 2>&1",
             bin, e->d_name, s->dir, e->d_name, s->dir, e->d_name);
    const int rc = system(cmd);
    if (rc != 0) {
      char log[1024];
      snprintf(log, sizeof log, "cat '%s/%s.log'", s->dir, e->d_name);
      if (system(log) != 0) fprintf(stderr, "no log\n");
      fail_msg("configs/%s (named in the docs) failed to run: status %d", e->d_name, rc);
    }
    char energy[1024];
    snprintf(energy, sizeof energy, "%s/%s.out/energy.csv", s->dir, e->d_name);
    printf("# configs/%s runs (t = 0.05)%s\n", e->d_name,
           exists(energy) ? ", energy.csv written" : "");
    ++ran;
  }
  closedir(d);
  free(md_text);
  if (ran < 1) fail_msg("no configs/*.json named in any Markdown page");
}

/* ---- the newcomer's commands ------------------------------------------------------------- */

/* The commands of a page's ```sh blocks, one per line, continuation lines joined; comment
 * lines, empty lines and `make ...` lines (make test has built everything) left out. */
static void page_commands(const char *md, strlist *out) {
  char *text = slurp(md);
  int in_sh = 0;
  char cmd[4096] = "";
  for (char *line = text, *next; line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = '\0';
    const char *l = line;
    while (*l == ' ') ++l;
    if (!strncmp(l, "```", 3)) {
      in_sh = !in_sh && !strcmp(l, "```sh");
      continue;
    }
    if (!in_sh) continue;
    size_t n = strlen(l);
    const int cont = n && l[n - 1] == '\\';
    strncat(cmd, l, sizeof cmd - strlen(cmd) - 1);
    if (cont) {
      cmd[strlen(cmd) - 1] = ' ';
      continue;
    }
    const char *c = cmd;
    while (*c == ' ') ++c;
    if (*c && *c != '#' && strncmp(c, "make", 4)) list_add(out, c);
    cmd[0] = '\0';
  }
  free(text);
}

/* In s, every "from" replaced by "to" (into out). */
static void replace_all(const char *s, const char *from, const char *to, char *out, size_t cap) {
  size_t n = 0;
  const size_t lf = strlen(from), lt = strlen(to);
  out[0] = '\0';
  while (*s && n + 1 < cap) {
    if (!strncmp(s, from, lf) && n + lt + 1 < cap) {
      memcpy(out + n, to, lt);
      n += lt;
      s += lf;
    } else {
      out[n++] = *s++;
    }
  }
  out[n] = '\0';
}

/* The command as the test runs it: every `bin/dgtd run` takes 100 steps (--steps 100 in
 * place of any --final-time), so a snapshot fields_NNNNNN is taken as fields_000100, the
 * one such a run writes; /tmp/ is the test's own directory. */
static void shorten(const char *cmd, const char *tmp, char *out, size_t cap) {
  char a[4096], b[4096];
  snprintf(a, sizeof a, "%s", cmd);
  char *ft = strstr(a, "--final-time ");
  if (ft) { /* drop "--final-time VALUE" */
    char *end = ft + strlen("--final-time ");
    while (*end && *end != ' ') ++end;
    memmove(ft, end, strlen(end) + 1);
  }
  replace_all(a, "bin/dgtd run ", "bin/dgtd run --steps 100 ", b, sizeof b);
  for (char *f = strstr(b, "fields_"); f; f = strstr(f + 1, "fields_")) {
    int digits = 0;
    while (digits < 6 && isdigit((unsigned char)f[7 + digits])) ++digits;
    if (digits == 6 && !isdigit((unsigned char)f[13])) memcpy(f + 7, "000100", 6);
  }
  replace_all(b, "/tmp/", tmp, out, cap);
}

/* Runs every command of README.md and docs/TUTORIAL.md, in that order, in a scratch copy of
 * the repository (bin, scripts, cl_templates and tuning linked; configs copied, so that the
 * mesh a command regenerates and the outputs stay there), each as shortened above. */
static void documented_commands_run(void **state) {
  test_scratch *s = *state;
  const char *bin = getenv("BIN");
  if (!bin || !*bin) bin = "bin";
  char root[PATH_MAX], bindir[PATH_MAX], repo[256], tmp[300], cmd[6 * PATH_MAX + 1024];
  assert_non_null(realpath(".", root));
  assert_non_null(realpath(bin, bindir));
  snprintf(repo, sizeof repo, "%s/repo", s->dir);
  snprintf(tmp, sizeof tmp, "%s/tmp/", s->dir);
  snprintf(cmd, sizeof cmd,
           "mkdir -p '%s/configs' '%s' && ln -s '%s' '%s/bin' && ln -s '%s/scripts' '%s/scripts' && "
           "ln -s '%s/cl_templates' '%s/cl_templates' && ln -s '%s/tuning' '%s/tuning' && "
           "ln -s '%s/tests' '%s/tests' && cp configs/*.json configs/README.md '%s/configs/' && "
           "cp -r configs/meshes '%s/configs/'",
           repo, tmp, bindir, repo, root, repo, root, repo, root, repo, root, repo, repo, repo);
  assert_int_equal(system(cmd), 0);
  static const char *const pages[] = {"README.md", "docs/TUTORIAL.md"};
  int ran = 0;
  for (int p = 0; p < 2; ++p) {
    strlist cmds = {0};
    page_commands(pages[p], &cmds);
    if (cmds.n < 2) fail_msg("%s: only %d commands found in its ```sh blocks", pages[p], cmds.n);
    for (int i = 0; i < cmds.n; ++i) {
      char run[4096], script[400], log[400];
      shorten(cmds.v[i], tmp, run, sizeof run);
      snprintf(script, sizeof script, "%s/cmd%d.sh", s->dir, ran);
      snprintf(log, sizeof log, "%s/cmd%d.log", s->dir, ran);
      FILE *f = fopen(script, "w");
      assert_non_null(f);
      fprintf(f, "%s\n", run);
      fclose(f);
      snprintf(cmd, sizeof cmd, "cd '%s' && sh '%s' > '%s' 2>&1", repo, script, log);
      const int rc = system(cmd);
      printf("# %s: %s -> %d\n", pages[p], run, rc);
      if (rc != 0) {
        snprintf(cmd, sizeof cmd, "sed 's/^/#   /' '%s'", log);
        if (system(cmd) != 0) printf("# (no log)\n");
        fail_msg("%s: the command `%s` failed (status %d)", pages[p], cmds.v[i], rc);
      }
      ++ran;
    }
    list_free(&cmds);
  }
  /* What the tutorial's commands leave: its outputs where it says, and, with the Gmsh the
   * tutorial names, the shipped mesh again byte for byte. */
  static const char *const made[] = {"configs/out/sphere/probes.csv",
                                     "configs/out/sphere-mpi/fields.pvd",
                                     "configs/out/sphere-global/run.json",
                                     "configs/out/dipole_antenna/far_field.csv"};
  for (int i = 0; i < 4; ++i) {
    char path[600];
    snprintf(path, sizeof path, "%s/%s", repo, made[i]);
    if (!exists(path)) fail_msg("the documented commands did not write %s", made[i]);
  }
  char out[256] = "";
  FILE *g = popen("gmsh --version 2>&1", "r");
  if (g && fgets(out, sizeof out, g) && !strncmp(out, "4.8.4", 5)) {
    snprintf(cmd, sizeof cmd, "cmp -s '%s/configs/meshes/sphere.msh' configs/meshes/sphere.msh", repo);
    assert_int_equal(system(cmd), 0);
    printf("# Gmsh 4.8.4 remade configs/meshes/sphere.msh byte for byte\n");
  }
  if (g) pclose(g);
  printf("# %d documented commands ran\n", ran);
}

static int setup(void **state) { return test_scratch_setup(state, "x"); }
static int teardown(void **state) { return test_scratch_teardown(state); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(links_and_paths_resolve),
      cmocka_unit_test(checker_catches_broken_links),
      cmocka_unit_test(documented_cases_run),
      cmocka_unit_test(documented_commands_run),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}

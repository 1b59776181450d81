/* The restart check shared by the restart tests: a run of `steps` steps straight through
 * ("whole") against the same run stopped at step `mid` and restarted from its checkpoint
 * ("parts"): the final checkpoints and probes.csv must be the same bytes. The caller's run
 * function takes (ctx, output directory, steps, checkpoint every, restart checkpoint or
 * NULL) and asserts what it wants about each run. */
#ifndef DGTD_TEST_RESTART_H
#define DGTD_TEST_RESTART_H

#include "test_util.h"

typedef void (*test_restart_run)(void *ctx, const char *dir, int steps, int every,
                                 const char *restart);

typedef struct {
  char base[64];             /* the scratch directory (mkdtemp) */
  char whole[128], parts[128];  /* the two runs' output directories */
  char chk_whole[160], chk_parts[160], probes_whole[160], probes_parts[160];
  char chk_mid[200];         /* the stopped run's checkpoint, moved out of parts/ */
} test_restart_paths;

/* The whole file at path (malloc'd, *n bytes). */
static inline char *test_slurp_bytes(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("cannot open %s", path);
  fseek(f, 0, SEEK_END);
  *n = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc(*n + 1);
  assert_non_null(buf);
  assert_int_equal(fread(buf, 1, *n, f), *n);
  fclose(f);
  return buf;
}

static inline void test_assert_same_file(const char *a, const char *b) {
  size_t na, nb;
  char *x = test_slurp_bytes(a, &na), *y = test_slurp_bytes(b, &nb);
  assert_int_equal(na, nb);
  if (memcmp(x, y, na) != 0) fail_msg("%s and %s differ", a, b);
  free(x);
  free(y);
}

/* A scratch directory /tmp/PREFIX-XXXXXX and the paths under it. */
static inline void test_restart_paths_make(test_restart_paths *p, const char *prefix) {
  snprintf(p->base, sizeof p->base, "/tmp/%s-XXXXXX", prefix);
  assert_non_null(mkdtemp(p->base));
  snprintf(p->whole, sizeof p->whole, "%s/whole", p->base);
  snprintf(p->parts, sizeof p->parts, "%s/parts", p->base);
  snprintf(p->chk_whole, sizeof p->chk_whole, "%s/checkpoint.chk", p->whole);
  snprintf(p->chk_parts, sizeof p->chk_parts, "%s/checkpoint.chk", p->parts);
  snprintf(p->probes_whole, sizeof p->probes_whole, "%s/probes.csv", p->whole);
  snprintf(p->probes_parts, sizeof p->probes_parts, "%s/probes.csv", p->parts);
  snprintf(p->chk_mid, sizeof p->chk_mid, "%s/step_mid.chk", p->base);
}

/* whole: `steps` steps, a checkpoint at the end; parts: `mid` steps, its checkpoint moved to
 * chk_mid, at_mid(ctx, chk_mid) if given (to look into it), then continued from it to
 * `steps`; the final checkpoints and the probe series compared byte for byte. */
static inline void test_restart_split(test_restart_paths *p, test_restart_run run, void *ctx,
                                      int steps, int mid,
                                      void (*at_mid)(void *ctx, const char *chk)) {
  run(ctx, p->whole, steps, steps, NULL);
  run(ctx, p->parts, mid, mid, NULL);
  assert_int_equal(rename(p->chk_parts, p->chk_mid), 0);
  if (at_mid) at_mid(ctx, p->chk_mid);
  run(ctx, p->parts, steps, steps, p->chk_mid);
  test_assert_same_file(p->chk_whole, p->chk_parts);
  test_assert_same_file(p->probes_whole, p->probes_parts);
}

#endif

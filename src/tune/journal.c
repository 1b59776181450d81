/* The journal of a tune (<cache>/journal/<device>-N<n>-<prec>.jsonl): every step written
 * before and after, and read back to resume a killed tune. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "core/files.h"
#include "tune/tune_ctx.h"

void tune_journal(tune_ctx *c, const dg_tune_candidate *k, const char *event) {
  if (!c->journal) return;
  cJSON *o = cJSON_CreateObject();
  char hash[32];
  snprintf(hash, sizeof hash, "%016" PRIx64, c->hash);
  int ok = o && cJSON_AddStringToObject(o, "hash", hash) &&
           cJSON_AddNumberToObject(o, "K", (double)c->r->K) &&
           cJSON_AddStringToObject(o, "spec", k->spec) &&
           cJSON_AddStringToObject(o, "event", event);
  if (ok && !strcmp(event, "timed")) {
    cJSON *s = cJSON_AddArrayToObject(o, "samples");
    ok = s && cJSON_AddNumberToObject(o, "stage", k->stage) &&
         cJSON_AddNumberToObject(o, "rel_diff", k->rel_diff);
    for (int i = 0; ok && i < k->nsamples; ++i)
      ok = cJSON_AddItemToArray(s, cJSON_CreateNumber(k->samples[i]));
  }
  if (ok && (!strcmp(event, "failed") || !strcmp(event, "rejected")))
    ok = cJSON_AddStringToObject(o, "reason", k->reason) != NULL;
  char *line = ok ? cJSON_PrintUnformatted(o) : NULL;
  if (line) {
    fprintf(c->journal, "%s\n", line);
    fflush(c->journal);
    fsync(fileno(c->journal)); /* the line must survive a crash that follows */
  }
  cJSON_free(line);
  cJSON_Delete(o);
}

/* Earlier results of the same problem (template hash and K) from an interrupted run. */
static dg_status replay(tune_ctx *c) {
  FILE *f = fopen(c->journal_path, "r");
  if (!f) return DG_OK;
  char hash[32];
  snprintf(hash, sizeof hash, "%016" PRIx64, c->hash);
  char *line = NULL;
  size_t cap = 0;
  int replayed = 0;
  dg_status st = DG_OK;
  while (getline(&line, &cap, f) > 0) {
    cJSON *o = cJSON_Parse(line);
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(o, "hash");
    const cJSON *K = cJSON_GetObjectItemCaseSensitive(o, "K");
    const cJSON *sp = cJSON_GetObjectItemCaseSensitive(o, "spec");
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(o, "event");
    dg_variant v;
    if (!cJSON_IsString(h) || strcmp(h->valuestring, hash) || !cJSON_IsNumber(K) ||
        K->valuedouble != (double)c->r->K || !cJSON_IsString(sp) || !cJSON_IsString(ev) ||
        dg_variant_parse(sp->valuestring, &v) != DG_OK) {
      dg_error_clear();
      cJSON_Delete(o); /* a torn last line or another problem's line */
      continue;
    }
    int i;
    DG_CALL_GOTO(done, tune_add_cand(c, &v, &i));
    dg_tune_candidate *k = &c->r->c[i];
    const char *e = ev->valuestring;
    if (!strcmp(e, "attempt")) {
      k->unfinished++; /* until an outcome line says otherwise */
    } else if (!strcmp(e, "failed") || !strcmp(e, "rejected")) {
      k->unfinished = 0;
      const cJSON *why = cJSON_GetObjectItemCaseSensitive(o, "reason");
      k->status = e[0] == 'f' ? DG_CAND_FAILED : DG_CAND_REJECTED;
      snprintf(k->reason, sizeof k->reason, "%s", cJSON_IsString(why) ? why->valuestring : "");
    } else if (!strcmp(e, "timed")) {
      k->unfinished = 0;
      const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "samples"), *x;
      const cJSON *stg = cJSON_GetObjectItemCaseSensitive(o, "stage");
      const cJSON *rd = cJSON_GetObjectItemCaseSensitive(o, "rel_diff");
      k->nsamples = 0;
      cJSON_ArrayForEach(x, s) if (cJSON_IsNumber(x) && k->nsamples < DG_TUNE_MAX_SAMPLES)
          k->samples[k->nsamples++] = x->valuedouble;
      if (k->nsamples) {
        k->status = DG_CAND_TIMED;
        k->reason[0] = '\0';
        k->stage = cJSON_IsNumber(stg) && stg->valuedouble >= 0 && stg->valuedouble <= 4
                       ? (int)stg->valuedouble : 0;
        k->rel_diff = cJSON_IsNumber(rd) ? rd->valuedouble : NAN;
        tune_summarize(k);
        ++replayed;
      }
    }
    cJSON_Delete(o);
  }
  /* A variant in flight when an earlier run died gets one more try: the kill may have had
   * nothing to do with it. Twice unfinished, it is what kills the run. */
  int retried = 0;
  for (int i = 0; i < c->r->n; ++i) {
    dg_tune_candidate *k = &c->r->c[i];
    if (k->status != DG_CAND_PENDING || !k->unfinished) continue;
    if (k->unfinished == 1) {
      ++retried;
      continue;
    }
    k->status = DG_CAND_FAILED;
    snprintf(k->reason, sizeof k->reason,
             "did not finish in %d earlier runs (crashed, hung or was killed while building)",
             k->unfinished);
  }
  if ((replayed || retried) && c->opt->verbose)
    fprintf(c->log, "%s resuming: %d variants already timed, %d unfinished one%s tried again "
                    "(journal %s)\n", c->tag, replayed, retried, retried == 1 ? "" : "s",
            c->journal_path);
done:
  free(line);
  fclose(f);
  return st;
}

dg_status tune_journal_open(tune_ctx *c) {
  const dg_tune_options *opt = c->opt;
  const dg_tune_result *r = c->r;
  char slug[128], dir[DG_TUNE_PATH + 16];
  dg_device_slug(c->dev->info.name, slug, sizeof slug);
  snprintf(dir, sizeof dir, "%s/journal", opt->paths.cache_dir);
  DG_CALL(dg_mkdir_p(dir));
  char pml[32] = "";
  if (opt->pml_cells) snprintf(pml, sizeof pml, "-pml%d", opt->pml_cells);
  snprintf(c->journal_path, sizeof c->journal_path, "%s/%s-%08" PRIx32 "-N%d-%s%s%s.jsonl", dir,
           slug, (uint32_t)dg_device_key_hash(&r->key), r->N, dg_precision_name(r->precision),
           opt->specs ? "-list" : "", pml);
  if (!opt->force) DG_CALL(replay(c));
  c->journal = fopen(c->journal_path, opt->force ? "w" : "a");
  if (!c->journal && opt->verbose)
    fprintf(c->log, "%s warning: cannot write journal %s: %s (no resume)\n", c->tag,
            c->journal_path, strerror(errno));
  return DG_OK;
}

void tune_journal_remove(tune_ctx *c) {
  if (!c->journal) return;
  fclose(c->journal);
  c->journal = NULL;
  remove(c->journal_path);
}

/* Running verification jobs under Oclgrind (a second OpenCL implementation that simulates
 * the execution model and checks it) from a cmocka test.
 *
 * The test binary re-runs itself as `oclgrind --data-races --uninitialized --check-api
 * [EXTRA] /proc/self/exe --child JOB`, once per job; the child opens the first device
 * (under the oclgrind wrapper that is Oclgrind's only device), runs the job and writes
 * markers to stderr, where Oclgrind writes its diagnostics too:
 *   @@ device NAME|local_mem|max_wg|compute_units
 *   @@ begin I
 *   @@ result I REL_DIFF PASS MESSAGE       (or @@ skip I REASON)
 * A job is "SPEC@N@WHAT": WHAT is a dg_verify_size (0..3), "halo" (dg_cl_verify_halo
 * with 3 parts in runs of 5 elements) or "pml" (dg_verify_case_create_pml's box of 1 cell in
 * a layer of 1: its PML kernels beside the operator's). Any non-marker output between begin and result is an
 * Oclgrind message; a message starts at a line that does not begin with white space and is
 * a race ("data race"), an uninitialized-value report or (anything else) an error. */
#ifndef DG_TEST_OCLGRIND_UTIL_H
#define DG_TEST_OCLGRIND_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/variant.h"
#include "backend/verify.h"
#include "backend/verify_sizes.h"
#include "device/device.h"

/* The covering variant set (backend/variant.h), under the tests' short names. */
#define covering dg_variant_covering
enum { NCOVER = DG_VARIANT_NCOVER };

#define OG_CHECKS "--data-races --uninitialized --check-api"
enum { OG_HALO = 100, OG_PML = 101 };

typedef struct {
  char spec[DG_VARIANT_SPEC_MAX];
  int N;
  int what; /* dg_verify_size, OG_HALO or OG_PML */
} og_job;

typedef struct {
  int ran, skipped, pass;
  double diff;
  int races, uninit, errors;
  char msg[320];  /* the first Oclgrind message line, or the child's error */
} og_outcome;

typedef struct {
  char name[128];
  unsigned long long local_mem, max_wg, cu;
} og_device;

/* Oclgrind is installed and usable: not in a sanitizer build, since oclgrind preloads its
 * own library and AddressSanitizer refuses to start behind it. */
static inline int og_available(void) {
#if defined(__SANITIZE_ADDRESS__)
  return 0;
#else
  return system("command -v oclgrind >/dev/null 2>&1") == 0;
#endif
}

/* Child side: run argv's jobs on the first device; returns the exit status. */
static inline int og_child(int argc, char **argv) {
  dg_device *dev = NULL;
  if (dg_device_create(&dev, NULL) != DG_OK) {
    fprintf(stderr, "@@ fatal no device: %s\n", dg_error_message());
    return 1;
  }
  fprintf(stderr, "@@ device %s|%llu|%zu|%u\n", dev->info.name,
          (unsigned long long)dev->info.local_mem_size, dev->info.max_work_group_size,
          dev->info.compute_units);
  for (int i = 0; i < argc; ++i) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", argv[i]);
    char *a = strchr(buf, '@'), *b = a ? strchr(a + 1, '@') : NULL;
    if (!a || !b) {
      fprintf(stderr, "@@ fatal bad job '%s'\n", argv[i]);
      return 1;
    }
    *a = *b = '\0';
    const int N = atoi(a + 1);
    const int what = !strcmp(b + 1, "halo") ? OG_HALO : !strcmp(b + 1, "pml") ? OG_PML : atoi(b + 1);
    dg_variant v;
    fprintf(stderr, "@@ begin %d\n", i);
    char why[128];
    if (!strncmp(buf, "default", 7)) {
      v = dg_variant_default(&dev->info, N, strstr(buf, "double") ? DG_PREC_DOUBLE : DG_PREC_FLOAT);
    } else if (dg_variant_parse(buf, &v) != DG_OK) {
      fprintf(stderr, "@@ result %d inf 0 parse: %s\n", i, dg_error_message());
      continue;
    }
    if (!dg_variant_check(&v, &dev->info, N, why, sizeof why)) {
      fprintf(stderr, "@@ skip %d %s\n", i, why);
      continue;
    }
    double diff = 0, pack = 0;
    int pass = 0;
    dg_error_clear();
    dg_status st = DG_OK;
    if (what == OG_HALO) {
      st = dg_cl_verify_halo(dev, &v, N, 3, 5, 0, 77u + (uint64_t)N, &diff, &pack, &pass);
    } else if (what == OG_PML) {
      dg_verify_case *c = NULL;
      st = dg_verify_case_create_pml(&c, N, 1, 1);
      if (st == DG_OK) st = dg_cl_verify_problem(dev, &v, c->phys, 99u + (uint64_t)N, &diff, &pass);
      dg_verify_case_destroy(&c);
    } else {
      st = dg_cl_verify_size(dev, &v, N, (dg_verify_size)what, 1234u + (uint64_t)N, &diff, &pass);
    }
    char msg[256];
    snprintf(msg, sizeof msg, "%s", st == DG_OK ? "ok" : dg_error_message());
    for (char *p = msg; *p; ++p)
      if (*p == '\n') *p = ' ';
    fprintf(stderr, "@@ result %d %.3e %d %s\n", i, diff, pass && st == DG_OK, msg);
  }
  dg_device_destroy(&dev);
  return 0;
}

/* Parent side: run jobs[0..n) under Oclgrind with extra options (may be ""), one Oclgrind
 * process per job: Oclgrind 21.10's uninitialized-value checker keeps the shadow state of a
 * released buffer for the next buffer that gets its address, so a job that follows one with
 * smaller buffers reports "uninitialized" values past the old size (each such job alone is
 * clean). Fills out[] and *dev. Returns 0, or the first non-zero exit status of a child. */
static inline int og_run(const char *extra, const og_job *jobs, int n, og_outcome *out,
                         og_device *dev) {
  memset(out, 0, sizeof *out * (size_t)n);
  memset(dev, 0, sizeof *dev);
  int status = 0;
  for (int j = 0; j < n; ++j) {
    char cmd[1200], what[16];
    if (jobs[j].what == OG_HALO) snprintf(what, sizeof what, "halo");
    else if (jobs[j].what == OG_PML) snprintf(what, sizeof what, "pml");
    else snprintf(what, sizeof what, "%d", jobs[j].what);
    snprintf(cmd, sizeof cmd, "oclgrind %s %.300s /proc/%d/exe --child '%.191s@%d@%s' 2>&1", OG_CHECKS,
             extra, (int)getpid(), jobs[j].spec, jobs[j].N, what);
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    og_outcome *o = &out[j];
    char line[4096];
    while (fgets(line, sizeof line, p)) {
      line[strcspn(line, "\n")] = '\0';
      if (!strncmp(line, "@@ device ", 10)) {
        char *bar = strchr(line + 10, '|');
        if (bar) {
          *bar = '\0';
          sscanf(bar + 1, "%llu|%llu|%llu", &dev->local_mem, &dev->max_wg, &dev->cu);
        }
        snprintf(dev->name, sizeof dev->name, "%.120s", line + 10);
      } else if (!strncmp(line, "@@ begin ", 9)) {
      } else if (!strncmp(line, "@@ skip ", 8)) {
        o->skipped = 1;
        const char *r = strchr(line + 8, ' ');
        snprintf(o->msg, sizeof o->msg, "%.300s", r ? r + 1 : "");
      } else if (!strncmp(line, "@@ result ", 10)) {
        char diff[64];
        int i = 0, pass = 0, off = 0;
        if (sscanf(line + 10, "%d %63s %d %n", &i, diff, &pass, &off) >= 3) {
          o->ran = 1;
          o->diff = strtod(diff, NULL);
          o->pass = pass;
          if (!pass && !o->msg[0]) snprintf(o->msg, sizeof o->msg, "%.300s", line + 10 + off);
        }
      } else if (!strncmp(line, "@@ ", 3)) {
        snprintf(o->msg, sizeof o->msg, "%.300s", line);
      } else if (line[0] && line[0] != ' ' && line[0] != '\t') {
        /* the first line of an Oclgrind message (also outside the job: start-up, exit) */
        if (strstr(line, "data race")) ++o->races;
        else if (strstr(line, "ninitiali")) ++o->uninit;
        else ++o->errors;
        if (!o->msg[0]) snprintf(o->msg, sizeof o->msg, "%.300s", line);
      }
    }
    const int rc = pclose(p);
    if (rc != 0 && !status) status = rc;
    if (rc != 0 && !o->msg[0]) snprintf(o->msg, sizeof o->msg, "child exit status %d", rc);
  }
  return status;
}

/* Short family label of a spec for the result table: work split + vw, flux, lift. */
static inline const char *og_family(const char *spec, char *buf, size_t cap) {
  dg_variant v;
  if (dg_variant_parse(spec, &v) != DG_OK) {
    dg_error_clear();
    snprintf(buf, cap, "?");
    return buf;
  }
  if (v.path == DG_PATH_CLBLAST) {
    snprintf(buf, cap, "clblast");
    return buf;
  }
  static const char *const lift[] = {"separate", "fused", "fused-update"};
  static const char *const place[] = {"-", "m", "f"};
  char sfx[32];
  static const char *const fuse[] = {DG_FUSE_CHOICES(DG_CHOICE_WORD)}; /* contract.h */
  snprintf(buf, cap, "%s kb%d/%d %s/%s %s%s %s%s%s%s", dg_variant_kernel_suffix(&v, sfx, sizeof sfx),
           v.kb, v.lkb, place[v.vplace], place[v.lplace], v.flux ? "face" : "point",
           v.lnpw > 1 ? (v.lnpw == 2 ? " lnpw2" : " lnpw4") : "", lift[v.lift],
           v.literal ? " lit" : "", v.fuse != DG_FUSE_NONE ? " fuse=" : "",
           v.fuse != DG_FUSE_NONE ? fuse[v.fuse] : "");
  return buf;
}

#endif

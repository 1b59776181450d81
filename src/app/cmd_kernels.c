/* dgtd kernels: write the OpenCL source of every program of a variant family for GPUs this
 * machine does not have (device profiles), for the vendors' offline compilers
 * (scripts/gpu-isa.sh). Nothing is built or run here. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "app/cli.h"
#include "app/commands.h"
#include "backend/cl_dft.h"
#include "backend/cl_maxwell.h"
#include "backend/cl_multirate.h"
#include "backend/variant.h"
#include "core/alloc.h"
#include "core/files.h"
#include "device/profiles.h"
#include "device/program.h"
#include "tune/tune.h"

static void usage(FILE *f) {
  int n;
  const dg_device_profile *p = dg_device_profiles(&n);
  fprintf(f,
          "usage: dgtd kernels --out DIR [OPTIONS]\n\n"
          "Writes the OpenCL source of the Maxwell program of each variant of the chosen\n"
          "families, as dgtd would build it on the profiled GPU, for the vendors' offline\n"
          "compilers (scripts/gpu-isa.sh compiles them). Per profile, DIR/PROFILE/ holds one\n"
          "FAMILY-I-N<N>-PREC.cl per program and index.tsv: file, families, N, precision,\n"
          "variant, for a variant the profile cannot run why (then no file), and the\n"
          "compiler options dgtd builds with on that device.\n\n"
          "options:\n"
          "  --out DIR          where the sources go (created)\n"
          "  --profile LIST     comma-separated profiles, or all (default):");
  for (int i = 0; i < n; ++i) fprintf(f, " %s", p[i].name);
  fprintf(f,
          "\n"
          "  --order LIST       orders: N, a range 1-8 or a list 2,4 (default 1-8)\n"
          "  --precision P      float | double | both (default both)\n"
          "  --family LIST      comma-separated, default all: default (the profile's default\n"
          "                     variant), stage1 (the tuner's first-stage candidates there),\n"
          "                     covering (every value of every variant dimension), pml (the\n"
          "                     default variant with the source, PML and curved-element\n"
          "                     kernels), dft (the frequency-domain sums), multirate (the\n"
          "                     local time stepping kernels of the default variant's layout)\n"
          "  --help             this text\n");
}

enum { FAM_DEFAULT = 1, FAM_STAGE1 = 2, FAM_COVERING = 4, FAM_PML = 8, FAM_DFT = 16,
       FAM_MULTIRATE = 32, FAM_ALL = 63, NFAM = 6 };
static const char *const fam_names[NFAM] = {"default", "stage1", "covering", "pml", "dft",
                                            "multirate"};
/* the program a job writes: the Maxwell operator's, the DFT's or the multirate stepper's */
enum { PROG_MAXWELL, PROG_DFT, PROG_MULTIRATE };

typedef struct {
  dg_variant v;
  char spec[DG_VARIANT_SPEC_MAX];
  char fams[48];
  int pml; /* PROG_MAXWELL: with the source, PML and curved-element kernels */
  int prog;
} job;

/* Add v to jobs unless its spec (and pml) is there; then only its family name is added. */
static void add_job(job *jobs, int *n, int cap, const dg_variant *v, const char *fam, int pml,
                    int prog) {
  char spec[DG_VARIANT_SPEC_MAX];
  dg_variant_print(v, spec, sizeof spec);
  for (int i = 0; i < *n; ++i)
    if (jobs[i].pml == pml && jobs[i].prog == prog && !strcmp(jobs[i].spec, spec)) {
      if (!strstr(jobs[i].fams, fam))
        snprintf(jobs[i].fams + strlen(jobs[i].fams), sizeof jobs[i].fams - strlen(jobs[i].fams),
                 ",%s", fam);
      return;
    }
  if (*n >= cap) return;
  job *j = &jobs[(*n)++];
  j->v = *v;
  j->pml = pml;
  j->prog = prog;
  snprintf(j->spec, sizeof j->spec, "%s", spec);
  snprintf(j->fams, sizeof j->fams, "%s", fam);
}

static dg_status write_profile(const dg_device_profile *prof, const char *out, const int *orders,
                               int norders, const dg_precision *precs, int nprec, int families,
                               int *written, int *skipped) {
  dg_status st = DG_OK;
  char dir[1024], path[1200];
  FILE *index = NULL;
  char *src = NULL;
  snprintf(dir, sizeof dir, "%s/%s", out, prof->name);
  DG_CALL(dg_mkdir_p(dir));
  snprintf(path, sizeof path, "%s/index.tsv", dir);
  index = fopen(path, "w");
  DG_CHECK(index, DG_ERR_IO, "dgtd kernels: cannot write '%s'", path);
  /* the options dgtd builds with on that device (the vendor compiler must get them too) */
  const char *options = dg_device_build_options(&prof->info);
  fprintf(index, "file\tfamilies\tN\tprecision\tvariant\tskipped\toptions\n");
  for (int oi = 0; oi < norders; ++oi)
    for (int pi = 0; pi < nprec; ++pi) {
      const int N = orders[oi];
      const dg_precision p = precs[pi];
      enum { CAP = DG_VARIANT_NCOVER + DG_TUNE_STAGE1_MAX + 4 };
      job jobs[CAP];
      int nj = 0;
      const dg_variant dflt = dg_variant_default(&prof->info, N, p);
      if (families & FAM_DEFAULT) add_job(jobs, &nj, CAP, &dflt, "default", 0, PROG_MAXWELL);
      if (families & FAM_STAGE1) {
        dg_variant s1[DG_TUNE_STAGE1_MAX];
        const int n1 = dg_tune_stage1_variants(&prof->info, N, p, s1);
        for (int i = 0; i < n1; ++i) add_job(jobs, &nj, CAP, &s1[i], "stage1", 0, PROG_MAXWELL);
      }
      if (families & FAM_COVERING)
        for (int c = 0; c < DG_VARIANT_NCOVER; ++c) {
          dg_variant v = dflt;
          if (strcmp(dg_variant_covering[c], "default")) {
            DG_CALL_GOTO(done, dg_variant_parse(dg_variant_covering[c], &v));
            v.precision = p;
          }
          add_job(jobs, &nj, CAP, &v, "covering", 0, PROG_MAXWELL);
        }
      if (families & FAM_PML) add_job(jobs, &nj, CAP, &dflt, "pml", 1, PROG_MAXWELL);
      /* the DFT program does not depend on the order: written with the first one */
      if ((families & FAM_DFT) && oi == 0) add_job(jobs, &nj, CAP, &dflt, "dft", 0, PROG_DFT);
      if (families & FAM_MULTIRATE)
        add_job(jobs, &nj, CAP, &dflt, "multirate", 0, PROG_MULTIRATE);
      for (int i = 0; i < nj; ++i) {
        const job *j = &jobs[i];
        char why[160] = "";
        if (!dg_variant_check(&j->v, &prof->info, N, why, sizeof why)) {
          fprintf(index, "-\t%s\t%d\t%s\t%s\t%s\t\n", j->fams, N, dg_precision_name(p), j->spec,
                  why);
          ++*skipped;
          continue;
        }
        char file[160];
        snprintf(file, sizeof file, "%.24s-%d-N%d-%s.cl", j->fams, i, N, dg_precision_name(p));
        for (char *c = file; *c; ++c)
          if (*c == ',') *c = '+';
        snprintf(path, sizeof path, "%s/%s", dir, file);
        if (j->prog == PROG_DFT) /* sums in double where the device has fp64, as dgtd run */
          DG_CALL_GOTO(done, dg_cl_dft_source(p == DG_PREC_DOUBLE, prof->info.has_fp64, &src));
        else if (j->prog == PROG_MULTIRATE)
          DG_CALL_GOTO(done, dg_cl_multirate_source(&j->v, N, &src));
        else { /* the pml family: the source, PML and curved-element terms */
          const dg_cl_terms terms = {.sources = j->pml, .pml = j->pml, .curved = j->pml};
          DG_CALL_GOTO(done, dg_cl_maxwell_source(&j->v, N, &terms, &src));
        }
        dg_atomic_file f = {0};
        DG_CALL_GOTO(done, dg_atomic_open(&f, path));
        fputs(src, f.fp);
        DG_CALL_GOTO(done, dg_atomic_commit(&f));
        dg_free(&src);
        fprintf(index, "%s\t%s\t%d\t%s\t%s\t\t%s\n", file, j->fams, N, dg_precision_name(p),
                j->spec, options);
        ++*written;
      }
    }
done:
  dg_free(&src);
  if (index && fclose(index) && st == DG_OK)
    st = DG_ERROR(DG_ERR_IO, "dgtd kernels: writing '%s/index.tsv' failed", dir);
  return st;
}

static int parse_families(const char *s, int *out) {
  *out = 0;
  char buf[128];
  snprintf(buf, sizeof buf, "%s", s);
  for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    int found = 0;
    for (int i = 0; i < NFAM; ++i)
      if (!strcmp(t, fam_names[i])) *out |= 1 << i, found = 1;
    if (!strcmp(t, "all")) *out = FAM_ALL, found = 1;
    if (!found) return 0;
  }
  return *out != 0;
}

int dg_cmd_kernels(int argc, char **argv) {
  const char *out = NULL, *profiles = "all";
  int orders[15], norders = 0, families = FAM_ALL, both = 1;
  dg_precision prec = DG_PREC_FLOAT;
  for (int i = 1; i <= 8; ++i) orders[norders++] = i;
  enum { O_OUT = 1, O_PROFILE, O_ORDER, O_PREC, O_FAMILY, O_HELP };
  static const struct option opts[] = {{"out", required_argument, 0, O_OUT},
                                       {"profile", required_argument, 0, O_PROFILE},
                                       {"order", required_argument, 0, O_ORDER},
                                       {"precision", required_argument, 0, O_PREC},
                                       {"family", required_argument, 0, O_FAMILY},
                                       {"help", no_argument, 0, O_HELP},
                                       {0, 0, 0, 0}};
  dg_status st = DG_OK;
  optind = 1;
  opterr = 0;
  for (int c; (c = getopt_long(argc, argv, ":", opts, NULL)) != -1;) {
    switch (c) {
    case O_OUT: out = optarg; break;
    case O_PROFILE: profiles = optarg; break;
    case O_ORDER: st = dg_cli_orders(optarg, orders, &norders); break;
    case O_PREC: st = dg_cli_precision(optarg, &prec, &both); break;
    case O_FAMILY:
      if (!parse_families(optarg, &families))
        st = DG_ERROR(DG_ERR_INPUT, "--family: expected a comma-separated list of default, "
                                    "stage1, covering, pml, dft, multirate or all, got '%s'", optarg);
      break;
    case O_HELP: usage(stdout); return 0;
    case ':':
      fprintf(stderr, "dgtd kernels: %s needs a value (see dgtd kernels --help)\n", argv[optind - 1]);
      return 2;
    default:
      fprintf(stderr, "dgtd kernels: unknown option '%s' (see dgtd kernels --help)\n",
              argv[optind - 1]);
      return 2;
    }
    if (st != DG_OK) break;
  }
  if (st == DG_OK && optind < argc)
    st = DG_ERROR(DG_ERR_INPUT, "dgtd kernels: unexpected argument '%s'", argv[optind]);
  if (st == DG_OK && !out)
    st = DG_ERROR(DG_ERR_INPUT, "dgtd kernels: --out DIR is required (see dgtd kernels --help)");
  int np;
  const dg_device_profile *all = dg_device_profiles(&np);
  const dg_device_profile *chosen[8];
  int nchosen = 0;
  if (st == DG_OK && !strcmp(profiles, "all")) {
    for (int i = 0; i < np && nchosen < 8; ++i) chosen[nchosen++] = &all[i];
  } else if (st == DG_OK) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", profiles);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t && st == DG_OK;
         t = strtok_r(NULL, ",", &save)) {
      const dg_device_profile *p = dg_device_profile_find(t);
      if (!p)
        st = DG_ERROR(DG_ERR_INPUT, "--profile: no profile '%s' (dgtd kernels --help lists them)", t);
      else if (nchosen < 8)
        chosen[nchosen++] = p;
    }
  }
  if (st == DG_OK && nchosen == 0) /* "--profile ," or "--profile ''" names none */
    st = DG_ERROR(DG_ERR_INPUT, "--profile: '%s' names no profile (dgtd kernels --help lists "
                  "them, or give all)", profiles);
  const dg_precision precs[2] = {both ? DG_PREC_FLOAT : prec, DG_PREC_DOUBLE};
  int written = 0, skipped = 0;
  for (int i = 0; st == DG_OK && i < nchosen; ++i)
    st = write_profile(chosen[i], out, orders, norders, precs, both ? 2 : 1, families, &written,
                       &skipped);
  if (st != DG_OK) {
    dg_error_print(stderr);
    return dg_status_exit_code(st);
  }
  printf("dgtd kernels: %d programs written to %s, %d variants skipped (index.tsv says why)\n",
         written, out, skipped);
  return 0;
}

/* dgtd tune: time the kernel variants on a device, cache the winner per (device, N,
 * precision), report the comparison (tune/tune.h describes the search). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "app/cli.h"
#include "core/clock.h"
#include "app/commands.h"
#include "core/alloc.h"
#include "core/files.h"
#include "device/device.h"
#include "tune/model.h"
#include "tune/tune.h"
#include "tune/verify_pool.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: dgtd tune [OPTIONS]\n\n"
          "Times the valid kernel variants of the Maxwell operator on one device (staged\n"
          "search: anchors, families, placements, refinement, final interleaved round), each\n"
          "verified against the CPU reference first, and caches the winner per device, order\n"
          "and precision for `dgtd run`. Prints a ranked comparison per order.\n\n"
          "options:\n"
          "  --order LIST          orders to tune: N, a range 1-6 or a list 2,4 (default 3)\n"
          "  --precision P         float | double | both (default float)\n"
          "  --device P:D|NAME     device (default $DGTD_DEVICE, else first GPU, else first)\n"
          "  --budget SECONDS      time budget for the whole run, shared by the orders\n"
          "  --force               ignore cached results and journals: measure again\n"
          "  --json                report as JSON on stdout (the table is not printed)\n"
          "  --csv FILE            ranked rows of every order as CSV\n"
          "  --plot FILE.png       ranked bars (speedup over the baseline) via gnuplot\n"
          "  --variant SPEC        time only these variants (repeatable) instead of searching\n"
          "  --repeats R           timing rounds per variant (default 7, at least 5)\n"
          "  --dofs D              size of the timing problem in field DOFs (default: by device)\n"
          "  --in-process          verify in this process (no crash isolation; faster start)\n"
          "  --measure-limits      only measure the device limits again (with CLBlast's\n"
          "                        GEMM rates, which a tune leaves out) and cache them\n"
          "  --no-wait             stop at once if another process is tuning this device\n"
          "                        (default: wait for it; tunes of one device never overlap)\n"
          "  --pml CELLS           tune the box with CELLS cells of CFS-PML around it: every\n"
          "                        candidate verified with the PML terms, the PML kernels'\n"
          "                        time reported apart; not cached (no --confirm)\n"
          "  --bucket B            problem size tuned for: large (device-filling, default),\n"
          "                        small (fits the CPU's cache / under-fills a GPU) or both\n"
          "  --confirm             with a cached result: re-time its top few and search\n"
          "                        again only if the winner regressed beyond the noise\n"
          "  --no-transfer         no seeds or model data from other devices' results\n"
          "  --no-model            time every staged candidate (no cost-model pruning)\n"
          "  --report              no tuning: winners per device, N, precision and bucket from\n"
          "                        tuning/*.json and the user cache, side by side (with\n"
          "                        --plot FILE.png: MDOF/s per order and device)\n"
          "  -v                    list pruned variants with the reasons\n"
          "  -q                    no progress lines on stderr\n"
          "  --help                this text\n\n"
          "Results: $DGTD_CACHE_DIR, else $XDG_CACHE_HOME/dgtd, else ~/.cache/dgtd\n"
          "(<device>.json, journal/ for resuming a killed tune); shipped: tuning/.\n");
}

/* The hidden worker mode (tune/verify_pool.h): build and verify the variants the tuner sends
 * on stdin, one per line, answering each on stdout. */
static int verify_worker(const char *device, int pml, double timeout_s) {
  return dg_status_exit_code(dg_verify_worker_serve(device, pml, timeout_s, stdin, stdout));
}

static void print_limits(FILE *f, const dg_device *dev, const dg_device_limits *l, int measured) {
  fprintf(f, "device %d:%d '%s' (%s, %s): %u compute units\n", dev->info.P, dev->info.D,
          dev->info.name, dev->info.platform_name, dev->info.driver_version,
          dev->info.compute_units);
  dg_tune_report_limits(f, l, measured);
}

static cJSON *limits_json(const dg_device *dev, const dg_device_limits *l) {
  cJSON *o = cJSON_CreateObject();
  if (!o) return NULL;
  cJSON_AddStringToObject(o, "device", dev->info.name);
  cJSON_AddStringToObject(o, "platform", dev->info.platform_name);
  cJSON_AddStringToObject(o, "driver_version", dev->info.driver_version);
  cJSON_AddNumberToObject(o, "compute_units", dev->info.compute_units);
  cJSON_AddNumberToObject(o, "bandwidth_gbs", l->bandwidth_gbs);
  cJSON_AddNumberToObject(o, "fma_gflops_float", l->fma_gflops[0]);
  cJSON_AddNumberToObject(o, "fma_gflops_double", l->fma_gflops[1]);
  cJSON_AddNumberToObject(o, "gemm_gflops_float", l->gemm_gflops[0]);
  cJSON_AddNumberToObject(o, "gemm_gflops_double", l->gemm_gflops[1]);
  cJSON_AddStringToObject(o, "limits_date", l->date);
  return o;
}

/* What the command line asks for. */
typedef struct {
  int orders[16], norders;
  int precs[2], nprec;
  int buckets[2], nbuckets;
  const char *device, *csv, *plot;
  const char *specs[64];
  int nspecs;
  int no_wait, confirm, no_transfer, no_model, report, json, verbose, in_process, force;
  int repeats, limits_only, pml_cells, worker, help;
  double budget, dofs, job_timeout;
} tune_args;

enum { O_ORDER = 256, O_PRECISION, O_DEVICE, O_BUDGET, O_DOFS, O_REPEATS, O_FORCE, O_JSON,
       O_CSV, O_PLOT, O_VARIANT, O_WORKER, O_JOB_TIMEOUT, O_LIMITS, O_IN_PROCESS, O_NO_WAIT, O_HELP,
       O_BUCKET, O_CONFIRM, O_NO_TRANSFER, O_NO_MODEL, O_REPORT, O_PML };

static dg_status parse_bucket(const char *arg, tune_args *a) {
  dg_bucket b;
  if (!strcmp(arg, "both")) {
    a->buckets[0] = DG_BUCKET_LARGE;
    a->buckets[1] = DG_BUCKET_SMALL;
    a->nbuckets = 2;
    return DG_OK;
  }
  DG_CHECK(dg_bucket_parse(arg, &b) == 0, DG_ERR_INPUT,
           "--bucket: 'large', 'small' or 'both', got '%s'", arg);
  a->buckets[0] = (int)b;
  a->nbuckets = 1;
  return DG_OK;
}

/* One option o (getopt_long's answer) with its value arg; word: the option as written. */
static dg_status parse_option(tune_args *a, int o, char *arg, const char *word) {
  int both = 0;
  switch (o) {
  case 'h':
  case O_HELP: a->help = 1; break;
  case O_ORDER: DG_CALL(dg_cli_orders(arg, a->orders, &a->norders)); break;
  case O_PRECISION: {
    dg_precision p;
    DG_CALL(dg_cli_precision(arg, &p, &both));
    a->precs[0] = (int)p;
    a->precs[1] = DG_PREC_DOUBLE;
    a->nprec = both ? 2 : 1;
    break;
  }
  case O_DEVICE: a->device = arg; break;
  case O_BUDGET:
    DG_CALL(dg_cli_double("--budget", arg, &a->budget));
    DG_CHECK(a->budget > 0, DG_ERR_INPUT, "--budget: must be > 0 seconds");
    break;
  case O_DOFS:
    DG_CALL(dg_cli_double("--dofs", arg, &a->dofs));
    DG_CHECK(a->dofs >= 1000, DG_ERR_INPUT, "--dofs: at least 1000");
    break;
  case O_REPEATS: DG_CALL(dg_cli_int("--repeats", arg, 5, DG_TUNE_MAX_SAMPLES, &a->repeats)); break;
  case O_FORCE: a->force = 1; break;
  case O_JSON: a->json = 1; break;
  case O_CSV: a->csv = arg; break;
  case O_PLOT: a->plot = arg; break;
  case O_VARIANT:
    DG_CHECK(a->nspecs < 64, DG_ERR_INPUT, "--variant: at most 64");
    a->specs[a->nspecs++] = arg;
    break;
  case O_WORKER: a->worker = 1; break;
  case O_JOB_TIMEOUT: DG_CALL(dg_cli_double("--job-timeout", arg, &a->job_timeout)); break;
  case O_LIMITS: a->limits_only = 1; break;
  case O_IN_PROCESS: a->in_process = 1; break;
  case O_NO_WAIT: a->no_wait = 1; break;
  case O_BUCKET: DG_CALL(parse_bucket(arg, a)); break;
  case O_CONFIRM: a->confirm = 1; break;
  case O_NO_TRANSFER: a->no_transfer = 1; break;
  case O_NO_MODEL: a->no_model = 1; break;
  case O_REPORT: a->report = 1; break;
  case O_PML: DG_CALL(dg_cli_int("--pml", arg, 1, 20, &a->pml_cells)); break;
  case 'v': a->verbose = 2; break;
  case 'q': a->verbose = 0; break;
  case ':': return DG_ERROR(DG_ERR_INPUT, "%s needs a value (see dgtd tune --help)", word);
  default: return DG_ERROR(DG_ERR_INPUT, "unknown argument '%s' (see dgtd tune --help)", word);
  }
  return DG_OK;
}

/* The command line into *a; stops at --help (a->help). */
static dg_status parse_args(int argc, char **argv, tune_args *a) {
  memset(a, 0, sizeof *a);
  a->orders[a->norders++] = 3;
  a->precs[0] = DG_PREC_FLOAT;
  a->precs[1] = -1;
  a->nprec = 1;
  a->buckets[0] = DG_BUCKET_LARGE;
  a->buckets[1] = -1;
  a->nbuckets = 1;
  a->verbose = 1;
  a->repeats = 7;
  static const struct option opts[] = {
      {"order", required_argument, 0, O_ORDER},       {"precision", required_argument, 0, O_PRECISION},
      {"device", required_argument, 0, O_DEVICE},     {"budget", required_argument, 0, O_BUDGET},
      {"dofs", required_argument, 0, O_DOFS},         {"repeats", required_argument, 0, O_REPEATS},
      {"force", no_argument, 0, O_FORCE},             {"json", no_argument, 0, O_JSON},
      {"csv", required_argument, 0, O_CSV},           {"plot", required_argument, 0, O_PLOT},
      {"variant", required_argument, 0, O_VARIANT},   {"verify-worker", no_argument, 0, O_WORKER},
      {"job-timeout", required_argument, 0, O_JOB_TIMEOUT},
      {"measure-limits", no_argument, 0, O_LIMITS},   {"in-process", no_argument, 0, O_IN_PROCESS},
      {"no-wait", no_argument, 0, O_NO_WAIT},         {"help", no_argument, 0, O_HELP},
      {"bucket", required_argument, 0, O_BUCKET},     {"confirm", no_argument, 0, O_CONFIRM},
      {"no-transfer", no_argument, 0, O_NO_TRANSFER}, {"no-model", no_argument, 0, O_NO_MODEL},
      {"report", no_argument, 0, O_REPORT},           {"pml", required_argument, 0, O_PML},
      {0, 0, 0, 0}};
  opterr = 0;
  optind = 1;
  for (;;) {
    const int prev = optind;
    const int o = getopt_long(argc, argv, ":hvq", opts, NULL);
    if (o == -1) break;
    DG_CALL(parse_option(a, o, optarg, argv[prev]));
    if (a->help) return DG_OK;
  }
  DG_CHECK(optind >= argc, DG_ERR_INPUT, "unexpected argument '%s' (see dgtd tune --help)",
           argv[optind]);
  return DG_OK;
}

/* The tuning options the arguments ask for; exe (cap bytes) holds the worker executable. */
static dg_status options_from(const tune_args *a, dg_tune_options *opt, char *exe, size_t cap) {
  DG_CALL(dg_tune_options_default(opt));
  opt->force = a->force;
  opt->verbose = a->verbose;
  opt->log = stderr;
  opt->repeats = a->repeats;
  opt->target_dofs = a->dofs;
  opt->specs = a->nspecs ? a->specs : NULL;
  opt->n_specs = a->nspecs;
  if (a->no_wait) opt->lock_wait_s = 0;
  opt->confirm = a->confirm;
  opt->pml_cells = a->pml_cells;
  opt->use_known = !a->no_transfer;
  opt->use_model = !a->no_model;
  if (!a->in_process && dg_self_exe(exe, cap)) opt->child_exe = exe;
  return DG_OK;
}

/* The device limits, cached or measured (--measure-limits: measured, with the GEMM rates),
 * printed. */
static dg_status load_limits(dg_device *dev, const tune_args *a, dg_tune_options *opt,
                             dg_device_limits *limits) {
  int measured = 0;
  if (a->verbose) fprintf(stderr, "measuring or loading the device limits...\n");
  if (a->limits_only) opt->force = opt->limits_gemm = 1;
  DG_CALL(dg_tune_device_limits(dev, opt, limits, &measured));
  opt->force = a->force;
  print_limits(a->json ? stderr : stdout, dev, limits, measured);
  if (measured && limits->contended)
    fprintf(stderr, "dgtd: warning: other processes used %.0f%% of the host's CPU time while the "
            "limits were measured: they come out low and were not cached (measure again on "
            "an idle machine with --measure-limits)\n", 100 * limits->others_busy);
  fflush(stdout);
  return DG_OK;
}

/* Tunes every bucket, precision and order asked for into results[*nres...], sharing the
 * budget and, with workers, one set of them. */
static dg_status sweep(dg_device *dev, const tune_args *a, dg_tune_options *opt,
                       const dg_device_limits *limits, double t0, dg_tune_result *results,
                       int *nres) {
  dg_status st = DG_OK;
  dg_verify_pool *pool = NULL;
  const int njobs = a->norders * a->nprec * a->nbuckets;
  if (opt->child_exe) { /* one set of verification workers for every order of the sweep */
    DG_CALL(dg_verify_pool_create(&pool, opt->child_exe, &dev->info, a->pml_cells > 0,
                                  opt->child_timeout_s, 0));
    opt->pool = pool;
  }
  for (int bi = 0; bi < a->nbuckets; ++bi)
  for (int pi = 0; pi < a->nprec; ++pi)
    for (int oi = 0; oi < a->norders; ++oi) {
      const dg_precision p = (dg_precision)a->precs[pi];
      opt->bucket = a->buckets[bi];
      if (p == DG_PREC_DOUBLE && !dev->info.has_fp64) {
        fprintf(stderr, "dgtd tune: '%s' has no double precision: skipping N=%d double\n",
                dev->info.name, a->orders[oi]);
        continue;
      }
      /* The whole-run budget, shared evenly by what is left to do. */
      const int left = njobs - ((bi * a->nprec + pi) * a->norders + oi);
      opt->budget_s = a->budget > 0 ? fmax(1.0, (a->budget - (dg_now_s() - t0)) / left) : 0;
      dg_tune_result *r = &results[*nres];
      st = dg_tune_order(dev, a->orders[oi], p, opt, limits, r);
      if (st != DG_OK) {
        dg_tune_result_free(r);
        goto done;
      }
      ++*nres;
      if (r->note[0] && a->verbose) fprintf(stderr, "%s\n", r->note);
      if (!a->json) dg_tune_report_table(stdout, r, a->verbose);
      fflush(stdout);
    }
done:
  dg_verify_pool_destroy(&pool);
  opt->pool = NULL;
  return st;
}

/* The JSON report on stdout (--json). */
static dg_status print_json(const dg_device *dev, const dg_device_limits *limits,
                            const dg_tune_result *results, int nres) {
  cJSON *doc = cJSON_CreateObject(), *arr = NULL;
  int ok = doc && cJSON_AddItemToObject(doc, "device", limits_json(dev, limits)) &&
           (arr = cJSON_AddArrayToObject(doc, "results"));
  for (int i = 0; ok && i < nres; ++i) ok = cJSON_AddItemToArray(arr, dg_tune_report_json(&results[i], 1));
  char *text = ok ? cJSON_Print(doc) : NULL;
  cJSON_Delete(doc);
  DG_CHECK(text, DG_ERR_MEMORY, "out of memory writing the JSON report");
  printf("%s\n", text);
  cJSON_free(text);
  return DG_OK;
}

/* --csv and --plot. */
static dg_status write_files(const tune_args *a, const dg_tune_result *results, int nres) {
  dg_status st = DG_OK;
  const dg_tune_result **rp = NULL;
  DG_CALL(DG_ALLOC(rp, nres ? nres : 1));
  for (int i = 0; i < nres; ++i) rp[i] = &results[i];
  if (a->csv) st = dg_tune_report_csv(a->csv, rp, nres);
  if (st == DG_OK && a->plot && nres) st = dg_tune_report_plot(a->plot, rp, nres);
  dg_free(&rp);
  return st;
}

/* --report: the stored results side by side, no tuning. */
static dg_status compare(const tune_args *a) {
  dg_tune_paths paths;
  DG_CALL(dg_tune_paths_default(&paths));
  DG_CALL(dg_tune_compare(&paths, stdout, a->plot));
  if (a->plot) fprintf(stderr, "wrote %s\n", a->plot);
  return DG_OK;
}

int dg_cmd_tune(int argc, char **argv) {
  dg_status st = DG_OK;
  tune_args a;
  dg_device *dev = NULL;
  dg_tune_result *results = NULL;
  int nres = 0;
  DG_CALL_GOTO(fail, parse_args(argc, argv, &a));
  if (a.help) {
    usage(stdout);
    return 0;
  }
  if (a.worker) return verify_worker(a.device, a.pml_cells, a.job_timeout);
  DG_CHECK_GOTO(fail, !(a.pml_cells && a.confirm), DG_ERR_INPUT,
                "--pml and --confirm: a PML tune is never cached, so there is nothing to confirm");
  if (a.report) {
    DG_CALL_GOTO(fail, compare(&a));
    return 0;
  }
  const double t0 = dg_now_s();
  DG_CALL_GOTO(fail, dg_device_create(&dev, a.device));
  dg_tune_options opt;
  char exe[4096];
  DG_CALL_GOTO(fail, options_from(&a, &opt, exe, sizeof exe));
  dg_device_limits limits;
  DG_CALL_GOTO(fail, load_limits(dev, &a, &opt, &limits));
  if (a.limits_only) {
    dg_device_destroy(&dev);
    return 0;
  }
  DG_CALL_GOTO(fail, DG_ALLOC(results, a.norders * a.nprec * a.nbuckets));
  DG_CALL_GOTO(fail, sweep(dev, &a, &opt, &limits, t0, results, &nres));
  if (a.json) DG_CALL_GOTO(fail, print_json(dev, &limits, results, nres));
  DG_CALL_GOTO(fail, write_files(&a, results, nres));
  int nowin = 0;
  for (int i = 0; i < nres; ++i) nowin += results[i].winner < 0;
  if (a.verbose) fprintf(stderr, "tune finished in %.0f s\n", dg_now_s() - t0);
  for (int i = 0; i < nres; ++i) dg_tune_result_free(&results[i]);
  dg_free(&results);
  dg_device_destroy(&dev);
  if (nowin) {
    fprintf(stderr, "dgtd tune: %d order(s) without a verified variant\n", nowin);
    return 4;
  }
  return 0;
fail:
  dg_error_print(stderr);
  for (int i = 0; i < nres; ++i) dg_tune_result_free(&results[i]);
  dg_free(&results);
  dg_device_destroy(&dev);
  return dg_status_exit_code(st);
}

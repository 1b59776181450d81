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

int dg_cmd_tune(int argc, char **argv) {
  dg_status st = DG_OK;
  int orders[16], norders = 0, precs[2] = {DG_PREC_FLOAT, -1}, nprec = 1;
  const char *device = NULL, *csv = NULL, *plot = NULL;
  const char *specs[64];
  int no_wait = 0, confirm = 0, no_transfer = 0, no_model = 0, report = 0;
  int buckets[2] = {DG_BUCKET_LARGE, -1}, nbuckets = 1;
  int nspecs = 0, json = 0, verbose = 1, in_process = 0, force = 0, repeats = 7, limits_only = 0;
  int pml_cells = 0, worker = 0;
  double budget = 0, dofs = 0, job_timeout = 0;
  dg_device *dev = NULL;
  dg_tune_result *results = NULL;
  dg_verify_pool *pool = NULL;
  int nres = 0;
  orders[norders++] = 3;
  enum { O_ORDER = 256, O_PRECISION, O_DEVICE, O_BUDGET, O_DOFS, O_REPEATS, O_FORCE, O_JSON,
         O_CSV, O_PLOT, O_VARIANT, O_WORKER, O_JOB_TIMEOUT, O_LIMITS, O_IN_PROCESS, O_NO_WAIT, O_HELP,
         O_BUCKET, O_CONFIRM, O_NO_TRANSFER, O_NO_MODEL, O_REPORT, O_PML };
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
    int both = 0;
    switch (o) {
    case 'h':
    case O_HELP: usage(stdout); return 0;
    case O_ORDER: DG_CALL_GOTO(fail, dg_cli_orders(optarg, orders, &norders)); break;
    case O_PRECISION: {
      dg_precision p;
      DG_CALL_GOTO(fail, dg_cli_precision(optarg, &p, &both));
      precs[0] = (int)p;
      precs[1] = DG_PREC_DOUBLE;
      nprec = both ? 2 : 1;
      break;
    }
    case O_DEVICE: device = optarg; break;
    case O_BUDGET:
      DG_CALL_GOTO(fail, dg_cli_double("--budget", optarg, &budget));
      DG_CHECK_GOTO(fail, budget > 0, DG_ERR_INPUT, "--budget: must be > 0 seconds");
      break;
    case O_DOFS:
      DG_CALL_GOTO(fail, dg_cli_double("--dofs", optarg, &dofs));
      DG_CHECK_GOTO(fail, dofs >= 1000, DG_ERR_INPUT, "--dofs: at least 1000");
      break;
    case O_REPEATS:
      DG_CALL_GOTO(fail, dg_cli_int("--repeats", optarg, 5, DG_TUNE_MAX_SAMPLES, &repeats));
      break;
    case O_FORCE: force = 1; break;
    case O_JSON: json = 1; break;
    case O_CSV: csv = optarg; break;
    case O_PLOT: plot = optarg; break;
    case O_VARIANT:
      DG_CHECK_GOTO(fail, nspecs < 64, DG_ERR_INPUT, "--variant: at most 64");
      specs[nspecs++] = optarg;
      break;
    case O_WORKER: worker = 1; break;
    case O_JOB_TIMEOUT: DG_CALL_GOTO(fail, dg_cli_double("--job-timeout", optarg, &job_timeout)); break;
    case O_LIMITS: limits_only = 1; break;
    case O_IN_PROCESS: in_process = 1; break;
    case O_NO_WAIT: no_wait = 1; break;
    case O_BUCKET: {
      dg_bucket b;
      if (!strcmp(optarg, "both")) {
        buckets[0] = DG_BUCKET_LARGE;
        buckets[1] = DG_BUCKET_SMALL;
        nbuckets = 2;
      } else {
        DG_CHECK_GOTO(fail, dg_bucket_parse(optarg, &b) == 0, DG_ERR_INPUT,
                      "--bucket: 'large', 'small' or 'both', got '%s'", optarg);
        buckets[0] = (int)b;
        nbuckets = 1;
      }
      break;
    }
    case O_CONFIRM: confirm = 1; break;
    case O_NO_TRANSFER: no_transfer = 1; break;
    case O_NO_MODEL: no_model = 1; break;
    case O_REPORT: report = 1; break;
    case O_PML: DG_CALL_GOTO(fail, dg_cli_int("--pml", optarg, 1, 20, &pml_cells)); break;
    case 'v': verbose = 2; break;
    case 'q': verbose = 0; break;
    case ':':
      st = DG_ERROR(DG_ERR_INPUT, "%s needs a value (see dgtd tune --help)", argv[prev]);
      goto fail;
    default:
      st = DG_ERROR(DG_ERR_INPUT, "unknown argument '%s' (see dgtd tune --help)", argv[prev]);
      goto fail;
    }
  }
  if (optind < argc) {
    st = DG_ERROR(DG_ERR_INPUT, "unexpected argument '%s' (see dgtd tune --help)", argv[optind]);
    goto fail;
  }
  if (worker) return verify_worker(device, pml_cells, job_timeout);
  DG_CHECK_GOTO(fail, !(pml_cells && confirm), DG_ERR_INPUT,
                "--pml and --confirm: a PML tune is never cached, so there is nothing to confirm");
  if (report) {
    dg_tune_paths paths;
    DG_CALL_GOTO(fail, dg_tune_paths_default(&paths));
    DG_CALL_GOTO(fail, dg_tune_compare(&paths, stdout, plot));
    if (plot) fprintf(stderr, "wrote %s\n", plot);
    return 0;
  }

  const double t0 = dg_now_s();
  DG_CALL_GOTO(fail, dg_device_create(&dev, device));
  dg_tune_options opt;
  DG_CALL_GOTO(fail, dg_tune_options_default(&opt));
  opt.force = force;
  opt.verbose = verbose;
  opt.log = stderr;
  opt.repeats = repeats;
  opt.target_dofs = dofs;
  opt.specs = nspecs ? specs : NULL;
  opt.n_specs = nspecs;
  if (no_wait) opt.lock_wait_s = 0;
  opt.confirm = confirm;
  opt.pml_cells = pml_cells;
  opt.use_known = !no_transfer;
  opt.use_model = !no_model;
  char exe[4096];
  if (!in_process && dg_self_exe(exe, sizeof exe)) opt.child_exe = exe;
  dg_device_limits limits;
  int measured = 0;
  if (verbose) fprintf(stderr, "measuring or loading the device limits...\n");
  if (limits_only) opt.force = opt.limits_gemm = 1;
  DG_CALL_GOTO(fail, dg_tune_device_limits(dev, &opt, &limits, &measured));
  opt.force = force;
  print_limits(json ? stderr : stdout, dev, &limits, measured);
  if (measured && limits.contended)
    fprintf(stderr, "dgtd: warning: other processes used %.0f%% of the host's CPU time while the "
            "limits were measured: they come out low and were not cached (measure again on "
            "an idle machine with --measure-limits)\n", 100 * limits.others_busy);
  fflush(stdout);
  if (limits_only) {
    dg_device_destroy(&dev);
    return 0;
  }

  const int njobs = norders * nprec * nbuckets;
  DG_CALL_GOTO(fail, DG_ALLOC(results, njobs));
  if (opt.child_exe) { /* one set of verification workers for every order of the sweep */
    DG_CALL_GOTO(fail, dg_verify_pool_create(&pool, opt.child_exe, &dev->info, pml_cells > 0,
                                             opt.child_timeout_s, 0));
    opt.pool = pool;
  }
  for (int bi = 0; bi < nbuckets; ++bi)
  for (int pi = 0; pi < nprec; ++pi)
    for (int oi = 0; oi < norders; ++oi) {
      const dg_precision p = (dg_precision)precs[pi];
      opt.bucket = buckets[bi];
      if (p == DG_PREC_DOUBLE && !dev->info.has_fp64) {
        fprintf(stderr, "dgtd tune: '%s' has no double precision: skipping N=%d double\n",
                dev->info.name, orders[oi]);
        continue;
      }
      /* The whole-run budget, shared evenly by what is left to do. */
      const int left = njobs - ((bi * nprec + pi) * norders + oi);
      opt.budget_s = budget > 0 ? fmax(1.0, (budget - (dg_now_s() - t0)) / left) : 0;
      dg_tune_result *r = &results[nres];
      st = dg_tune_order(dev, orders[oi], p, &opt, &limits, r);
      if (st != DG_OK) {
        dg_tune_result_free(r);
        goto fail;
      }
      ++nres;
      if (r->note[0] && verbose) fprintf(stderr, "%s\n", r->note);
      if (!json) dg_tune_report_table(stdout, r, verbose);
      fflush(stdout);
    }
  dg_verify_pool_destroy(&pool);
  if (json) {
    cJSON *doc = cJSON_CreateObject(), *arr = NULL;
    int ok = doc && cJSON_AddItemToObject(doc, "device", limits_json(dev, &limits)) &&
             (arr = cJSON_AddArrayToObject(doc, "results"));
    for (int i = 0; ok && i < nres; ++i) ok = cJSON_AddItemToArray(arr, dg_tune_report_json(&results[i], 1));
    char *text = ok ? cJSON_Print(doc) : NULL;
    cJSON_Delete(doc);
    DG_CHECK_GOTO(fail, text, DG_ERR_MEMORY, "out of memory writing the JSON report");
    printf("%s\n", text);
    cJSON_free(text);
  }
  {
    const dg_tune_result **rp = NULL;
    DG_CALL_GOTO(fail, DG_ALLOC(rp, nres ? nres : 1));
    for (int i = 0; i < nres; ++i) rp[i] = &results[i];
    if (csv) st = dg_tune_report_csv(csv, rp, nres);
    if (st == DG_OK && plot && nres) st = dg_tune_report_plot(plot, rp, nres);
    dg_free(&rp);
    if (st != DG_OK) goto fail;
  }
  int nowin = 0;
  for (int i = 0; i < nres; ++i) nowin += results[i].winner < 0;
  if (verbose) fprintf(stderr, "tune finished in %.0f s\n", dg_now_s() - t0);
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
  dg_verify_pool_destroy(&pool);
  for (int i = 0; i < nres; ++i) dg_tune_result_free(&results[i]);
  dg_free(&results);
  dg_device_destroy(&dev);
  return dg_status_exit_code(st);
}

/* dgtd bench: throughput and distance to the device's roofline, per order and per kernel,
 * for the tuned, default and baseline variants measured together (bench/bench.h). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "bench/multirate.h"
#include "app/cli.h"
#include "app/commands.h"
#include "bench/bench.h"
#include "core/alloc.h"
#include "device/device.h"
#include "dg/multirate.h"
#include "core/files.h"
#include "tune/tune.h"

enum { MAX_ORDERS = 15, MAX_EXTRA = 8 };

static void usage(FILE *f) {
  fprintf(f,
          "usage: dgtd bench [OPTIONS]\n\n"
          "Measures, per order, the tuned variant (from the tuning cache; the device default\n"
          "if there is none, which the report says), the default and the baseline variant on\n"
          "one box mesh, interleaved in one run, each verified against the CPU reference\n"
          "first: time per RK stage and per LSERK4 step (median, min-max), DOF/s, and per\n"
          "kernel its time, GFLOP/s, GB/s and %% of the roofline bound from the device's\n"
          "measured limits (cached with the tuning results).\n\n"
          "options:\n"
          "  --order LIST          orders: N, a range 1-8 or a list 2,4 (default 1-8;\n"
          "                        with --scaling 1,3,5,8)\n"
          "  --precision P         float | double (default float)\n"
          "  --device P:D|NAME     device (default $DGTD_DEVICE, else first GPU, else first)\n"
          "  --elements K          mesh of about K elements (box n^3 x 6, n = cbrt(K/6))\n"
          "  --bucket B            the tuner's size to compare at: large (default: device-\n"
          "                        filling; on a GPU 8x its last-level cache) or small\n"
          "  --dofs D              mesh of about D field DOFs (default: the tuner's size for\n"
          "                        --bucket, mesh size below)\n"
          "  --repeats R           timing rounds (default 7)\n"
          "  --variant SPEC        also measure this variant (repeatable, up to %d)\n"
          "  --pml CELLS           also time each order's box with CELLS cells of CFS-PML\n"
          "                        around it (every variant verified with the PML terms),\n"
          "                        and that mesh without the PML, in the same rounds, and\n"
          "                        print ns per element per stage: the plain box, the mesh\n"
          "                        without PML, and on the box with PML the plain kernels\n"
          "                        per element and the PML kernels per PML element\n"
          "  --scaling             instead: DOF/s of the tuned variant as the mesh grows from\n"
          "                        48 elements up to --max-dofs\n"
          "  --max-dofs D          largest scaling size (default: a quarter of the device\n"
          "                        memory at 200 B/DOF; on a CPU at most 2^23 DOFs)\n"
          "  --measure-limits      measure the device limits again (and cache them) instead\n"
          "                        of using the cached ones; do it on an otherwise idle machine\n"
          "  --json                report as JSON on stdout (tables are not printed)\n"
          "  --save FILE           also write the JSON report to FILE (tables still printed)\n"
          "  --plot DIR            PNGs (and their gnuplot scripts) into DIR:\n"
          "                        dofs_vs_order, roofline, variants; scaling with --scaling\n"
          "  --time-stepping multirate[:L]|multirate-lserk4[:L]  instead: multirate AB3 or\n"
          "                        LSERK4 (at most L rate levels, default 6) against global\n"
          "                        LSERK4 on --mesh, same variant (the first --variant, else\n"
          "                        the default; first --order, default 2): level histogram,\n"
          "                        wall time of each over the same simulated time, work saved,\n"
          "                        and for AB3 per-level kernel times\n"
          "  --mesh FILE           the mesh for --time-stepping (PEC walls, vacuum)\n"
          "  --steps N             timed macro steps for --time-stepping (default 20)\n"
          "  -q                    no progress lines on stderr\n"
          "  --help                this text\n",
          MAX_EXTRA);
}

static void sizing_rule(const dg_bench_options *o, const dg_device_info *info, dg_precision p,
                        char *buf, size_t cap) {
  if (o->elements > 0)
    snprintf(buf, cap,
             "--elements %ld: box n = round(cbrt(K / 6)) (n >= 2), K = 6 n^3 "
             "tetrahedra on the unit cube",
             o->elements);
  else if (o->dofs > 0)
    snprintf(buf, cap,
             "--dofs %.6g: box n = round(cbrt(D / (36 Np))) (n >= 2), K = 6 n^3 "
             "tetrahedra on the unit cube",
             o->dofs);
  else {
    char cache[128] = "";
    if (info->type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR))
      snprintf(cache, sizeof cache, "; the cache taken as %.3g MiB, the driver says %.3g MiB",
               dg_gpu_cache_bytes(info) / 1048576.0,
               (double)info->global_mem_cache_size / 1048576.0);
    snprintf(buf, cap,
             "the tuner's %s bucket (tune/tune.h); on this device large = %.3g field DOFs, "
             "small = %.3g at N = 3 (large: 262144 x compute units on a CPU; on a GPU max(1e6, "
             "65536 x compute units, q and res 8 x the last-level cache), capped by memory%s); "
             "box n = round(cbrt(D / (36 Np))) (n >= 2), K = 6 n^3 tetrahedra on the unit cube "
             "(mixed materials, PEC/PMC/absorbing faces: the verification case)",
             dg_bucket_name((dg_bucket)o->bucket), dg_tune_target_dofs(info, p),
             dg_bucket_target_dofs(info, 3, p, DG_BUCKET_SMALL), cache);
  }
}

/* The fraction of the host's CPU time other processes used over the next half second (-1 if
 * unknown; call it while this process is idle): on a shared machine it says how much else ran
 * on the cores a CPU device uses, which moves every absolute number. */
static double host_busy(void) {
  unsigned long long a[2][8] = {{0}};
  for (int k = 0; k < 2; ++k) {
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return -1;
    const int got = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &a[k][0], &a[k][1],
                           &a[k][2], &a[k][3], &a[k][4], &a[k][5], &a[k][6], &a[k][7]);
    fclose(f);
    if (got != 8) return -1;
    if (k == 0) {
      const struct timespec half = {0, 500000000L};
      nanosleep(&half, NULL);
    }
  }
  double total = 0, idle = 0;
  for (int i = 0; i < 8; ++i) total += (double)(a[1][i] - a[0][i]);
  idle = (double)(a[1][3] - a[0][3]) + (double)(a[1][4] - a[0][4]); /* idle + iowait */
  return total > 0 ? 1.0 - idle / total : -1;
}

static void warn_if_busy(FILE *f, const dg_device *dev, double busy, const char *when) {
  const int cpu = !(dev->info.type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR));
  if (cpu && busy > 0.1)
    fprintf(f,
            "warning: other processes kept %.0f%% of the host's CPU time busy %s: they share "
            "this CPU device, so absolute numbers (and limits measured now) come out low; "
            "ratios measured together still hold\n",
            100 * busy, when);
}

static cJSON *device_json(const dg_device *dev) {
  cJSON *o = cJSON_CreateObject();
  char type[64], slug[DG_DEVICE_STR];
  dg_device_type_name(dev->info.type, type, sizeof type);
  dg_device_slug(dev->info.name, slug, sizeof slug);
  if (o && cJSON_AddStringToObject(o, "name", dev->info.name) &&
      cJSON_AddStringToObject(o, "slug", slug) &&
      cJSON_AddStringToObject(o, "vendor", dev->info.vendor) &&
      cJSON_AddStringToObject(o, "type", type) &&
      cJSON_AddStringToObject(o, "platform", dev->info.platform_name) &&
      cJSON_AddStringToObject(o, "platform_version", dev->info.platform_version) &&
      cJSON_AddStringToObject(o, "driver_version", dev->info.driver_version) &&
      cJSON_AddStringToObject(o, "device_version", dev->info.device_version) &&
      cJSON_AddNumberToObject(o, "compute_units", dev->info.compute_units) &&
      cJSON_AddNumberToObject(o, "clock_mhz", dev->info.clock_mhz) &&
      cJSON_AddNumberToObject(o, "global_mem_bytes", (double)dev->info.global_mem_size))
    return o;
  cJSON_Delete(o);
  return NULL;
}

static cJSON *limits_json(const dg_device_limits *l, int measured) {
  cJSON *o = cJSON_CreateObject();
  if (o && cJSON_AddNumberToObject(o, "bandwidth_gbs", l->bandwidth_gbs) &&
      cJSON_AddNumberToObject(o, "fma_gflops_float", l->fma_gflops[0]) &&
      cJSON_AddNumberToObject(o, "fma_gflops_double", l->fma_gflops[1]) &&
      cJSON_AddNumberToObject(o, "gemm_gflops_float", l->gemm_gflops[0]) &&
      cJSON_AddNumberToObject(o, "gemm_gflops_double", l->gemm_gflops[1]) &&
      cJSON_AddStringToObject(o, "date", l->date) &&
      cJSON_AddStringToObject(o, "source", measured ? "measured now" : "tuning cache"))
    return o;
  cJSON_Delete(o);
  return NULL;
}

static int add_json(cJSON *o, const char *key, cJSON *item) {
  if (!item) return 0;
  if (!cJSON_AddItemToObject(o, key, item)) {
    cJSON_Delete(item);
    return 0;
  }
  return 1;
}

/* What the command line asks for. */
typedef struct {
  int help;
  int orders[MAX_ORDERS], norders, json, scaling, remeasure;
  dg_precision prec;
  const char *device, *plot, *save, *extra[MAX_EXTRA];
  double max_dofs;
  dg_bench_options bo;
  dg_bench_mr_options mr; /* mr.max_levels > 0: --time-stepping multirate */
  char command[1024];     /* the command line, for the JSON report */
} bench_args;

/* --time-stepping multirate[-lserk4][:L] (lserk4 is the ordinary bench). */
static dg_status parse_time_stepping(const char *ts, dg_bench_mr_options *mr) {
  const char *levels;
  DG_CHECK(dg_cli_multirate(ts, &mr->scheme, &levels), DG_ERR_INPUT,
           "--time-stepping: expected multirate[:MAX_LEVELS] or "
           "multirate-lserk4[:MAX_LEVELS], got '%s'", ts);
  mr->max_levels = 6;
  if (levels) DG_CALL(dg_cli_int("--time-stepping", levels, 1, DG_MR_MAX_LEVELS, &mr->max_levels));
  return DG_OK;
}

static dg_status parse_args(int argc, char **argv, bench_args *a) {
  memset(a, 0, sizeof *a);
  a->prec = DG_PREC_FLOAT;
  dg_bench_options_default(&a->bo);
  a->mr = (dg_bench_mr_options){.mesh = NULL, .order = 2, .max_levels = 0, .steps = 20};
  snprintf(a->command, sizeof a->command, "dgtd");
  for (int i = 0; i < argc; ++i) {
    const size_t len = strlen(a->command);
    snprintf(a->command + len, sizeof a->command - len, " %s", argv[i]);
  }
  enum { O_ORDER = 256, O_PRECISION, O_DEVICE, O_ELEMENTS, O_DOFS, O_MAX_DOFS, O_REPEATS,
         O_VARIANT, O_LIMITS, O_SCALING, O_JSON, O_SAVE, O_PLOT, O_HELP, O_PML, O_TS, O_MESH,
         O_STEPS, O_BUCKET };
  static const struct option opts[] = {
      {"order", required_argument, 0, O_ORDER},       {"precision", required_argument, 0, O_PRECISION},
      {"device", required_argument, 0, O_DEVICE},     {"elements", required_argument, 0, O_ELEMENTS},
      {"dofs", required_argument, 0, O_DOFS},         {"max-dofs", required_argument, 0, O_MAX_DOFS},
      {"repeats", required_argument, 0, O_REPEATS},   {"variant", required_argument, 0, O_VARIANT},
      {"measure-limits", no_argument, 0, O_LIMITS},   {"scaling", no_argument, 0, O_SCALING},
      {"json", no_argument, 0, O_JSON},               {"save", required_argument, 0, O_SAVE},
      {"plot", required_argument, 0, O_PLOT},         {"help", no_argument, 0, O_HELP},
      {"pml", required_argument, 0, O_PML},
      {"time-stepping", required_argument, 0, O_TS},  {"mesh", required_argument, 0, O_MESH},
      {"steps", required_argument, 0, O_STEPS},       {"bucket", required_argument, 0, O_BUCKET},
      {0, 0, 0, 0}};
  dg_bench_options *bo = &a->bo;
  opterr = 0;
  optind = 1;
  for (;;) {
    const int prev = optind;
    const int o = getopt_long(argc, argv, ":hq", opts, NULL);
    if (o == -1) break;
    switch (o) {
    case 'h':
    case O_HELP: a->help = 1; return DG_OK;
    case O_ORDER: DG_CALL(dg_cli_orders(optarg, a->orders, &a->norders)); break;
    case O_PRECISION: DG_CALL(dg_cli_precision(optarg, &a->prec, NULL)); break;
    case O_DEVICE: a->device = optarg; break;
    case O_ELEMENTS: {
      double k;
      DG_CALL(dg_cli_double("--elements", optarg, &k));
      DG_CHECK(k >= 48 && k <= 1e9, DG_ERR_INPUT, "--elements: between 48 and 1e9");
      bo->elements = (long)k;
      break;
    }
    case O_BUCKET: {
      dg_bucket bk;
      DG_CHECK(dg_bucket_parse(optarg, &bk) == 0, DG_ERR_INPUT,
               "--bucket: '%s' is not large or small", optarg);
      bo->bucket = (int)bk;
      break;
    }
    case O_DOFS:
      DG_CALL(dg_cli_double("--dofs", optarg, &bo->dofs));
      DG_CHECK(bo->dofs >= 100 && bo->dofs <= 1e11, DG_ERR_INPUT, "--dofs: between 100 and 1e11");
      break;
    case O_MAX_DOFS:
      DG_CALL(dg_cli_double("--max-dofs", optarg, &a->max_dofs));
      DG_CHECK(a->max_dofs >= 100 && a->max_dofs <= 1e11, DG_ERR_INPUT,
               "--max-dofs: between 100 and 1e11");
      break;
    case O_REPEATS:
      DG_CALL(dg_cli_int("--repeats", optarg, 3, DG_BENCH_MAX_REPEATS, &bo->repeats));
      break;
    case O_VARIANT: {
      DG_CHECK(bo->n_extra < MAX_EXTRA, DG_ERR_INPUT, "--variant: at most %d", MAX_EXTRA);
      dg_variant v;
      DG_CALL(dg_variant_parse(optarg, &v)); /* bad specs fail before any work */
      a->extra[bo->n_extra++] = optarg;
      break;
    }
    case O_PML: DG_CALL(dg_cli_int("--pml", optarg, 1, 20, &bo->pml_cells)); break;
    case O_LIMITS: a->remeasure = 1; break;
    case O_SCALING: a->scaling = 1; break;
    case O_JSON: a->json = 1; break;
    case O_SAVE: a->save = optarg; break;
    case O_PLOT: a->plot = optarg; break;
    case O_TS: DG_CALL(parse_time_stepping(optarg, &a->mr)); break;
    case O_MESH: a->mr.mesh = optarg; break;
    case O_STEPS: DG_CALL(dg_cli_int("--steps", optarg, 1, 100000, &a->mr.steps)); break;
    case 'q': bo->verbose = 0; break;
    default: return dg_cli_bad_option(o, argv[prev], "bench", "argument");
    }
  }
  DG_CHECK(optind >= argc, DG_ERR_INPUT, "unexpected argument '%s' (see dgtd bench --help)",
           argv[optind]);
  bo->log = stderr;
  bo->extra = a->extra;
  DG_CHECK(!(bo->elements > 0 && bo->dofs > 0), DG_ERR_INPUT,
           "--elements and --dofs: give one of them");
  DG_CHECK(!(a->scaling && bo->pml_cells), DG_ERR_INPUT, "--pml and --scaling: give one of them");
  DG_CHECK(!(a->mr.max_levels && bo->pml_cells), DG_ERR_INPUT,
           "--pml and --time-stepping multirate: give one of them");
  return DG_OK;
}

/* One `dgtd bench` run: the device, its limits and what was measured. */
typedef struct {
  dg_device *dev;
  dg_device_limits limits;
  int measured;
  char sizing[768];
  double load0, load1, t_start;
  dg_bench_order *res;
  int nres;
  dg_bench_scaling *scal;
  int nscal;
  int failed; /* orders where the tuned, default or baseline variant failed */
} bench_run;

/* The device's limits, cached or measured now, with a warning when the host is busy. */
static dg_status load_limits(const bench_args *a, bench_run *b) {
  dg_tune_options topt;
  DG_CALL(dg_tune_options_default(&topt));
  topt.force = a->remeasure; /* dg_tune_device_limits: measure and store instead of reading */
  topt.limits_gemm = a->remeasure;
  b->load0 = host_busy();
  warn_if_busy(stderr, b->dev, b->load0, "just before the run");
  if (a->bo.verbose) fprintf(stderr, "measuring or loading the device limits...\n");
  DG_CALL(dg_tune_device_limits(b->dev, &topt, &b->limits, &b->measured));
  if (b->measured && b->limits.contended)
    fprintf(stderr, "warning: other processes used %.0f%% of the host's CPU time while the "
            "limits were measured: not cached\n", 100 * b->limits.others_busy);
  return DG_OK;
}

static dg_status run_scaling(const bench_args *a, bench_run *b) {
  DG_CALL(DG_ALLOC(b->scal, a->norders));
  for (int i = 0; i < a->norders; ++i) {
    DG_CALL(dg_bench_scaling_run(b->dev, a->orders[i], a->prec, &a->bo, a->max_dofs,
                                 &b->scal[b->nscal]));
    ++b->nscal;
  }
  if (!a->json) dg_bench_print_scaling(stdout, b->scal, b->nscal);
  return DG_OK;
}

/* Each order's variants, interleaved, and their tables. With --pml: res[0..n) the plain
 * boxes, res[n..2n) the same with PML layers, res[2n..3n) their meshes without the PML. */
static dg_status run_orders(const bench_args *a, bench_run *b) {
  const dg_bench_options *bo = &a->bo;
  const int norders = a->norders, pml = bo->pml_cells > 0;
  DG_CALL(DG_ALLOC(b->res, pml ? 3 * norders : norders));
  /* All orders' rounds interleaved (dg_bench_run) unless their operators together would
   * take more than half the device memory (~48 B per DOF and variant, float or double). */
  double need = 0;
  for (int i = 0; i < norders; ++i) {
    const int n = dg_bench_box_n(&b->dev->info, a->orders[i], a->prec, bo),
              m = n + 2 * bo->pml_cells;
    need += 36.0 * dg_variant_np(a->orders[i]) * (n * n * n + (pml ? 2 * m * m * m : 0)) *
            (3 + bo->n_extra) * 48.0;
  }
  if (need < 0.5 * (double)b->dev->info.global_mem_size) {
    DG_CALL(dg_bench_run(b->dev, a->orders, norders, a->prec, bo, b->res));
    b->nres = norders;
  } else {
    if (bo->verbose) fprintf(stderr, "(one order at a time: together they would not fit)\n");
    for (; b->nres < norders; ++b->nres) {
      dg_bench_order three[3];
      DG_CALL(dg_bench_order_run(b->dev, a->orders[b->nres], a->prec, bo, three));
      b->res[b->nres] = three[0];
      if (pml) b->res[norders + b->nres] = three[1], b->res[2 * norders + b->nres] = three[2];
    }
  }
  const int nres = b->nres, nall = pml ? 3 * nres : nres;
  const dg_bench_order *res = b->res;
  for (int i = 0; i < nall; ++i) {
    const dg_bench_order *r = &res[i];
    b->failed += r->tuned < 0 || r->dflt < 0 || r->baseline < 0;
    if (a->json) continue;
    if (r->pml_cells && r->pml_K)
      fprintf(stdout, "\n(the same box with %d PML cells around it: %ld of %ld elements "
              "in the PML)", r->pml_cells, r->pml_K, r->K);
    else if (r->pml_cells)
      fprintf(stdout, "\n(the same mesh, %d cells around the box, without the PML)",
              r->pml_cells);
    dg_bench_print_order(stdout, r, &b->limits);
  }
  if (!a->json) dg_bench_print_summary(stdout, res, nres, &b->limits);
  if (!a->json && pml) dg_bench_print_pml(stdout, res, res + norders, res + 2 * norders, nres);
  b->nres = nall; /* the JSON report lists them all */
  return DG_OK;
}

/* The JSON report: on stdout with --json, into the file of --save. */
static dg_status write_json(const bench_args *a, const bench_run *b) {
  cJSON *doc = cJSON_CreateObject(), *arr = NULL, *sarr = NULL;
  char date[32];
  dg_utc_date(date, sizeof date);
  int ok =
      doc && cJSON_AddStringToObject(doc, "format", "dgtd-bench/1") &&
      cJSON_AddStringToObject(doc, "date", date) &&
      cJSON_AddStringToObject(doc, "command", a->command) &&
      add_json(doc, "device", device_json(b->dev)) &&
      add_json(doc, "limits", limits_json(&b->limits, b->measured)) &&
      cJSON_AddStringToObject(doc, "precision", dg_precision_name(a->prec)) &&
      cJSON_AddStringToObject(doc, "sizing", b->sizing) &&
      cJSON_AddNumberToObject(doc, "repeats", a->bo.repeats) &&
      cJSON_AddNumberToObject(doc, "host_busy_before", b->load0) &&
      cJSON_AddNumberToObject(doc, "host_busy_after", b->load1) &&
      cJSON_AddNumberToObject(doc, "seconds", (double)time(NULL) - b->t_start) &&
      (arr = cJSON_AddArrayToObject(doc, "orders")) &&
      (sarr = cJSON_AddArrayToObject(doc, "scaling"));
  for (int i = 0; ok && i < b->nres; ++i) {
    cJSON *o = dg_bench_order_json(&b->res[i], &b->limits);
    ok = o && cJSON_AddItemToArray(arr, o);
  }
  for (int i = 0; ok && i < b->nscal; ++i) {
    cJSON *o = dg_bench_scaling_json(&b->scal[i]);
    ok = o && cJSON_AddItemToArray(sarr, o);
  }
  char *text = ok ? cJSON_Print(doc) : NULL;
  cJSON_Delete(doc);
  DG_CHECK(text, DG_ERR_MEMORY, "out of memory writing the JSON report");
  if (a->json) printf("%s\n", text);
  dg_status st = DG_OK;
  if (a->save) {
    dg_atomic_file af = {0};
    st = dg_atomic_open(&af, a->save);
    if (st == DG_OK) {
      fprintf(af.fp, "%s\n", text);
      st = dg_atomic_commit(&af);
    }
    dg_atomic_abort(&af);
    if (st == DG_OK && a->bo.verbose) fprintf(stderr, "wrote %s\n", a->save);
  }
  cJSON_free(text);
  return st;
}

/* The PNGs of --plot, each named on stderr. */
static dg_status write_plots(const bench_args *a, const bench_run *b) {
  char written[4096] = "";
  DG_CALL(dg_mkdir_p(a->plot));
  if (a->scaling)
    DG_CALL(dg_bench_plot_scaling(a->plot, b->dev->info.name, b->scal, b->nscal, written,
                                  sizeof written));
  else
    DG_CALL(dg_bench_plot_orders(a->plot, b->dev->info.name, b->res,
                                 a->bo.pml_cells ? b->nres / 3 : b->nres, &b->limits, written,
                                 sizeof written));
  for (char *s = written, *e; *s; s = e + (*e != '\0')) {
    e = strchr(s, ';');
    if (!e) e = s + strlen(s);
    fprintf(stderr, "wrote %.*s\n", (int)(e - s), s);
  }
  return DG_OK;
}

static void bench_run_free(bench_run *b) {
  for (int i = 0; i < b->nscal; ++i) dg_bench_scaling_free(&b->scal[i]);
  dg_free(&b->scal);
  dg_free(&b->res);
  dg_device_destroy(&b->dev);
}

int dg_cmd_bench(int argc, char **argv) {
  dg_status st = DG_OK;
  bench_args a;
  bench_run b;
  memset(&b, 0, sizeof b);
  DG_CALL_GOTO(fail, parse_args(argc, argv, &a));
  if (a.help) {
    usage(stdout);
    return 0;
  }
  if (a.mr.max_levels) {
    a.mr.order = a.norders ? a.orders[0] : 2;
    a.mr.precision = a.prec;
    a.mr.variant = a.bo.n_extra ? a.extra[0] : NULL;
    DG_CALL_GOTO(fail, dg_device_create(&b.dev, a.device));
    DG_CALL_GOTO(fail, dg_bench_multirate(b.dev, &a.mr, stdout, a.json));
    dg_device_destroy(&b.dev);
    return 0;
  }
  if (!a.norders) {
    static const int def[] = {1, 2, 3, 4, 5, 6, 7, 8}, def_scaling[] = {1, 3, 5, 8};
    a.norders = a.scaling ? 4 : 8;
    memcpy(a.orders, a.scaling ? def_scaling : def, sizeof(int) * (size_t)a.norders);
  }
  FILE *out = a.json ? stderr : stdout; /* human-readable lines */

  DG_CALL_GOTO(fail, dg_device_create(&b.dev, a.device));
  const dg_device_info *info = &b.dev->info;
  DG_CHECK_GOTO(fail, a.prec == DG_PREC_FLOAT || info->has_fp64, DG_ERR_UNSUPPORTED,
                "dgtd bench: '%s' has no double precision (cl_khr_fp64)", info->name);
  DG_CALL_GOTO(fail, load_limits(&a, &b));
  if (a.scaling)
    snprintf(b.sizing, sizeof b.sizing,
             "scaling: box n = 2, then n = max(n + 1, round(n 2^(1/3))) "
             "(the DOFs about double), K = 6 n^3 tetrahedra on the unit "
             "cube, while 36 Np n^3 <= the cap");
  else
    sizing_rule(&a.bo, info, a.prec, b.sizing, sizeof b.sizing);
  fprintf(out, "device %d:%d '%s' (%s %s, driver %s): %u compute units\n", info->P, info->D,
          info->name, info->platform_name, info->platform_version, info->driver_version,
          info->compute_units);
  dg_tune_report_limits(out, &b.limits, b.measured);
  fprintf(out, "mesh size: %s\n", b.sizing);
  fflush(out);

  b.t_start = (double)time(NULL);
  if (a.scaling) DG_CALL_GOTO(fail, run_scaling(&a, &b));
  else DG_CALL_GOTO(fail, run_orders(&a, &b));
  b.load1 = host_busy();
  warn_if_busy(stderr, b.dev, b.load1, "just after the run");
  if (a.json || a.save) DG_CALL_GOTO(fail, write_json(&a, &b));
  if (a.plot) DG_CALL_GOTO(fail, write_plots(&a, &b));
  const int failed = b.failed;
  bench_run_free(&b);
  if (failed) {
    fprintf(stderr,
            "dgtd bench: %d order(s) where the tuned, default or baseline variant failed "
            "(see the report)\n",
            failed);
    return 4;
  }
  return 0;
fail:
  dg_error_print(stderr);
  bench_run_free(&b);
  return dg_status_exit_code(st);
}

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
          "  --dofs D              mesh of about D field DOFs (default: the tuner's size for\n"
          "                        the device: 262144 x compute units on a CPU)\n"
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

static void sizing_rule(const dg_bench_options *o, char *buf, size_t cap) {
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
  else
    snprintf(buf, cap,
             "the tuner's rule (tune/tune.h): D = 262144 x compute units field DOFs on "
             "a CPU, max(1e6, 65536 x compute units) on a GPU, capped by memory; box n "
             "= round(cbrt(D / (36 Np))) (n >= 2), K = 6 n^3 tetrahedra on the unit "
             "cube (mixed materials, PEC/PMC/absorbing faces: the verification case)");
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

int dg_cmd_bench(int argc, char **argv) {
  dg_status st = DG_OK;
  int orders[MAX_ORDERS], norders = 0, json = 0, scaling = 0, nres = 0, nscal = 0, remeasure = 0;
  dg_precision prec = DG_PREC_FLOAT;
  const char *device = NULL, *plot = NULL, *save = NULL, *extra[MAX_EXTRA];
  double max_dofs = 0;
  dg_bench_options bo;
  dg_bench_options_default(&bo);
  dg_bench_mr_options mr = {.mesh = NULL, .order = 2, .max_levels = 0, .steps = 20};
  dg_device *dev = NULL;
  dg_bench_order *res = NULL;
  dg_bench_scaling *scal = NULL;
  char command[1024] = "dgtd";
  for (int i = 0; i < argc; ++i) {
    const size_t len = strlen(command);
    snprintf(command + len, sizeof command - len, " %s", argv[i]);
  }
  enum { O_ORDER = 256, O_PRECISION, O_DEVICE, O_ELEMENTS, O_DOFS, O_MAX_DOFS, O_REPEATS,
         O_VARIANT, O_LIMITS, O_SCALING, O_JSON, O_SAVE, O_PLOT, O_HELP, O_PML, O_TS, O_MESH,
         O_STEPS };
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
      {"steps", required_argument, 0, O_STEPS},
      {0, 0, 0, 0}};
  opterr = 0;
  optind = 1;
  for (;;) {
    const int prev = optind;
    const int o = getopt_long(argc, argv, ":hq", opts, NULL);
    if (o == -1) break;
    switch (o) {
    case 'h':
    case O_HELP: usage(stdout); return 0;
    case O_ORDER: DG_CALL_GOTO(fail, dg_cli_orders(optarg, orders, &norders)); break;
    case O_PRECISION: DG_CALL_GOTO(fail, dg_cli_precision(optarg, &prec, NULL)); break;
    case O_DEVICE: device = optarg; break;
    case O_ELEMENTS: {
      double k;
      DG_CALL_GOTO(fail, dg_cli_double("--elements", optarg, &k));
      DG_CHECK_GOTO(fail, k >= 48 && k <= 1e9, DG_ERR_INPUT, "--elements: between 48 and 1e9");
      bo.elements = (long)k;
      break;
    }
    case O_DOFS:
      DG_CALL_GOTO(fail, dg_cli_double("--dofs", optarg, &bo.dofs));
      DG_CHECK_GOTO(fail, bo.dofs >= 100 && bo.dofs <= 1e11, DG_ERR_INPUT,
                    "--dofs: between 100 and 1e11");
      break;
    case O_MAX_DOFS:
      DG_CALL_GOTO(fail, dg_cli_double("--max-dofs", optarg, &max_dofs));
      DG_CHECK_GOTO(fail, max_dofs >= 100 && max_dofs <= 1e11, DG_ERR_INPUT,
                    "--max-dofs: between 100 and 1e11");
      break;
    case O_REPEATS:
      DG_CALL_GOTO(fail, dg_cli_int("--repeats", optarg, 3, DG_BENCH_MAX_REPEATS, &bo.repeats));
      break;
    case O_VARIANT: {
      DG_CHECK_GOTO(fail, bo.n_extra < MAX_EXTRA, DG_ERR_INPUT, "--variant: at most %d", MAX_EXTRA);
      dg_variant v;
      DG_CALL_GOTO(fail, dg_variant_parse(optarg, &v)); /* bad specs fail before any work */
      extra[bo.n_extra++] = optarg;
      break;
    }
    case O_PML: DG_CALL_GOTO(fail, dg_cli_int("--pml", optarg, 1, 20, &bo.pml_cells)); break;
    case O_LIMITS: remeasure = 1; break;
    case O_SCALING: scaling = 1; break;
    case O_JSON: json = 1; break;
    case O_SAVE: save = optarg; break;
    case O_PLOT: plot = optarg; break;
    case O_TS: { /* multirate[-lserk4][:L] (lserk4 is the ordinary bench) */
      const char *ts = optarg;
      const size_t n = !strncmp(ts, "multirate-lserk4", 16) ? 16 : !strncmp(ts, "multirate", 9) ? 9 : 0;
      DG_CHECK_GOTO(fail, n && (ts[n] == '\0' || ts[n] == ':'), DG_ERR_INPUT,
                    "--time-stepping: expected multirate[:MAX_LEVELS] or "
                    "multirate-lserk4[:MAX_LEVELS], got '%s'", ts);
      mr.max_levels = 6;
      mr.scheme = n == 16 ? DG_MR_LSERK4 : DG_MR_AB3;
      if (ts[n] == ':')
        DG_CALL_GOTO(fail, dg_cli_int("--time-stepping", ts + n + 1, 1, DG_MR_MAX_LEVELS, &mr.max_levels));
      break;
    }
    case O_MESH: mr.mesh = optarg; break;
    case O_STEPS: DG_CALL_GOTO(fail, dg_cli_int("--steps", optarg, 1, 100000, &mr.steps)); break;
    case 'q': bo.verbose = 0; break;
    case ':':
      st = DG_ERROR(DG_ERR_INPUT, "%s needs a value (see dgtd bench --help)", argv[prev]);
      goto fail;
    default:
      st = DG_ERROR(DG_ERR_INPUT, "unknown argument '%s' (see dgtd bench --help)", argv[prev]);
      goto fail;
    }
  }
  if (optind < argc) {
    st = DG_ERROR(DG_ERR_INPUT, "unexpected argument '%s' (see dgtd bench --help)", argv[optind]);
    goto fail;
  }
  bo.log = stderr;
  bo.extra = extra;
  DG_CHECK_GOTO(fail, !(bo.elements > 0 && bo.dofs > 0), DG_ERR_INPUT,
                "--elements and --dofs: give one of them");
  DG_CHECK_GOTO(fail, !(scaling && bo.pml_cells), DG_ERR_INPUT,
                "--pml and --scaling: give one of them");
  DG_CHECK_GOTO(fail, !(mr.max_levels && bo.pml_cells), DG_ERR_INPUT,
                "--pml and --time-stepping multirate: give one of them");
  if (mr.max_levels) {
    mr.order = norders ? orders[0] : 2;
    mr.precision = prec;
    mr.variant = bo.n_extra ? extra[0] : NULL;
    DG_CALL_GOTO(fail, dg_device_create(&dev, device));
    DG_CALL_GOTO(fail, dg_bench_multirate(dev, &mr, stdout, json));
    dg_device_destroy(&dev);
    return 0;
  }
  if (!norders) {
    static const int def[] = {1, 2, 3, 4, 5, 6, 7, 8}, def_scaling[] = {1, 3, 5, 8};
    norders = scaling ? 4 : 8;
    memcpy(orders, scaling ? def_scaling : def, sizeof(int) * (size_t)norders);
  }
  FILE *out = json ? stderr : stdout; /* human-readable lines */

  DG_CALL_GOTO(fail, dg_device_create(&dev, device));
  DG_CHECK_GOTO(fail, prec == DG_PREC_FLOAT || dev->info.has_fp64, DG_ERR_UNSUPPORTED,
                "dgtd bench: '%s' has no double precision (cl_khr_fp64)", dev->info.name);
  dg_tune_options topt;
  DG_CALL_GOTO(fail, dg_tune_options_default(&topt));
  topt.force = remeasure; /* dg_tune_device_limits: measure and store instead of reading */
  topt.limits_gemm = remeasure;
  dg_device_limits limits;
  int measured = 0;
  const double load0 = host_busy();
  warn_if_busy(stderr, dev, load0, "just before the run");
  if (bo.verbose) fprintf(stderr, "measuring or loading the device limits...\n");
  DG_CALL_GOTO(fail, dg_tune_device_limits(dev, &topt, &limits, &measured));
  if (measured && limits.contended)
    fprintf(stderr, "warning: other processes used %.0f%% of the host's CPU time while the "
            "limits were measured: not cached\n", 100 * limits.others_busy);
  char sizing[512];
  if (scaling)
    snprintf(sizing, sizeof sizing,
             "scaling: box n = 2, then n = max(n + 1, round(n 2^(1/3))) "
             "(the DOFs about double), K = 6 n^3 tetrahedra on the unit "
             "cube, while 36 Np n^3 <= the cap");
  else
    sizing_rule(&bo, sizing, sizeof sizing);
  fprintf(out, "device %d:%d '%s' (%s %s, driver %s): %u compute units\n", dev->info.P, dev->info.D,
          dev->info.name, dev->info.platform_name, dev->info.platform_version,
          dev->info.driver_version, dev->info.compute_units);
  dg_tune_report_limits(out, &limits, measured);
  fprintf(out, "mesh size: %s\n", sizing);
  fflush(out);

  int failed = 0;
  const double t_start = (double)time(NULL);
  if (scaling) {
    DG_CALL_GOTO(fail, DG_ALLOC(scal, norders));
    for (int i = 0; i < norders; ++i) {
      DG_CALL_GOTO(fail, dg_bench_scaling_run(dev, orders[i], prec, &bo, max_dofs, &scal[nscal]));
      ++nscal;
    }
    if (!json) dg_bench_print_scaling(stdout, scal, nscal);
  } else {
    /* With --pml: res[0..n) the plain boxes, res[n..2n) the same with PML layers, res[2n..3n)
     * their meshes without the PML. */
    const int pml = bo.pml_cells > 0;
    DG_CALL_GOTO(fail, DG_ALLOC(res, pml ? 3 * norders : norders));
    /* All orders' rounds interleaved (dg_bench_run) unless their operators together would
     * take more than half the device memory (~48 B per DOF and variant, float or double). */
    double need = 0;
    for (int i = 0; i < norders; ++i) {
      const int n = dg_bench_box_n(&dev->info, orders[i], prec, &bo), m = n + 2 * bo.pml_cells;
      need += 36.0 * dg_variant_np(orders[i]) * (n * n * n + (pml ? 2 * m * m * m : 0)) *
              (3 + bo.n_extra) * 48.0;
    }
    if (need < 0.5 * (double)dev->info.global_mem_size) {
      DG_CALL_GOTO(fail, dg_bench_run(dev, orders, norders, prec, &bo, res));
      nres = norders;
    } else {
      if (bo.verbose) fprintf(stderr, "(one order at a time: together they would not fit)\n");
      for (; nres < norders; ++nres) {
        dg_bench_order three[3];
        DG_CALL_GOTO(fail, dg_bench_order_run(dev, orders[nres], prec, &bo, three));
        res[nres] = three[0];
        if (pml) res[norders + nres] = three[1], res[2 * norders + nres] = three[2];
      }
    }
    const int nall = pml ? 3 * nres : nres;
    for (int i = 0; i < nall; ++i) {
      const dg_bench_order *r = &res[i];
      failed += r->tuned < 0 || r->dflt < 0 || r->baseline < 0;
      if (!json) {
        if (r->pml_cells && r->pml_K)
          fprintf(stdout, "\n(the same box with %d PML cells around it: %ld of %ld elements "
                  "in the PML)", r->pml_cells, r->pml_K, r->K);
        else if (r->pml_cells)
          fprintf(stdout, "\n(the same mesh, %d cells around the box, without the PML)",
                  r->pml_cells);
        dg_bench_print_order(stdout, r, &limits);
      }
    }
    if (!json) dg_bench_print_summary(stdout, res, nres, &limits);
    if (!json && pml) dg_bench_print_pml(stdout, res, res + norders, res + 2 * norders, nres);
    nres = nall; /* the JSON report lists them all */
  }

  const double load1 = host_busy();
  warn_if_busy(stderr, dev, load1, "just after the run");
  if (json || save) {
    cJSON *doc = cJSON_CreateObject(), *arr = NULL, *sarr = NULL;
    char date[32];
    dg_utc_date(date, sizeof date);
    int ok =
        doc && cJSON_AddStringToObject(doc, "format", "dgtd-bench/1") &&
        cJSON_AddStringToObject(doc, "date", date) &&
        cJSON_AddStringToObject(doc, "command", command) &&
        add_json(doc, "device", device_json(dev)) &&
        add_json(doc, "limits", limits_json(&limits, measured)) &&
        cJSON_AddStringToObject(doc, "precision", dg_precision_name(prec)) &&
        cJSON_AddStringToObject(doc, "sizing", sizing) &&
        cJSON_AddNumberToObject(doc, "repeats", bo.repeats) &&
        cJSON_AddNumberToObject(doc, "host_busy_before", load0) &&
        cJSON_AddNumberToObject(doc, "host_busy_after", load1) &&
        cJSON_AddNumberToObject(doc, "seconds", (double)time(NULL) - t_start) &&
        (arr = cJSON_AddArrayToObject(doc, "orders")) &&
        (sarr = cJSON_AddArrayToObject(doc, "scaling"));
    for (int i = 0; ok && i < nres; ++i) {
      cJSON *o = dg_bench_order_json(&res[i], &limits);
      ok = o && cJSON_AddItemToArray(arr, o);
    }
    for (int i = 0; ok && i < nscal; ++i) {
      cJSON *o = dg_bench_scaling_json(&scal[i]);
      ok = o && cJSON_AddItemToArray(sarr, o);
    }
    char *text = ok ? cJSON_Print(doc) : NULL;
    cJSON_Delete(doc);
    DG_CHECK_GOTO(fail, text, DG_ERR_MEMORY, "out of memory writing the JSON report");
    if (json) printf("%s\n", text);
    if (save) {
      dg_atomic_file af = {0};
      st = dg_atomic_open(&af, save);
      if (st == DG_OK) {
        fprintf(af.fp, "%s\n", text);
        st = dg_atomic_commit(&af);
      }
      dg_atomic_abort(&af);
      if (st == DG_OK && bo.verbose) fprintf(stderr, "wrote %s\n", save);
    }
    cJSON_free(text);
    if (st != DG_OK) goto fail;
  }
  if (plot) {
    char written[4096] = "";
    DG_CALL_GOTO(fail, dg_mkdir_p(plot));
    if (scaling)
      DG_CALL_GOTO(
          fail, dg_bench_plot_scaling(plot, dev->info.name, scal, nscal, written, sizeof written));
    else
      DG_CALL_GOTO(fail, dg_bench_plot_orders(plot, dev->info.name, res, bo.pml_cells ? nres / 3 : nres, &limits, written,
                                              sizeof written));
    for (char *s = written, *e; *s; s = e + (*e != '\0')) {
      e = strchr(s, ';');
      if (!e) e = s + strlen(s);
      fprintf(stderr, "wrote %.*s\n", (int)(e - s), s);
    }
  }
  for (int i = 0; i < nscal; ++i) dg_bench_scaling_free(&scal[i]);
  dg_free(&scal);
  dg_free(&res);
  dg_device_destroy(&dev);
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
  for (int i = 0; i < nscal; ++i) dg_bench_scaling_free(&scal[i]);
  dg_free(&scal);
  dg_free(&res);
  dg_device_destroy(&dev);
  return dg_status_exit_code(st);
}

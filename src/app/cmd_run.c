/* dgtd run [CASE.json] [OPTIONS]: a case file (or the built-in cavity), options on top. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "app/case.h"
#include "app/cli.h"
#include "app/commands.h"
#include "app/simulate.h"
#include "core/version.h"

static void run_usage(FILE *f) {
  fprintf(f,
          "usage: dgtd run [CASE.json] [OPTIONS]\n\n"
          "Runs the case in CASE.json (every key: docs/CASE_FILE.md), or with no case file\n"
          "the built-in default: a PEC cavity (unit cube, 4x4x4 box mesh, 384 tetrahedra) with\n"
          "the exact (1,1,1) eigenmode, order 3, final time 1, upwind flux, OpenCL in float on\n"
          "the default device; it reports the L2 error against the exact solution.\n"
          "Options override the case file.\n\n"
          "options:\n"
          "  --backend opencl|ref   generated OpenCL kernels (default), or the plain C\n"
          "                         double-precision reference operator\n"
          "  --precision float|double  OpenCL arithmetic (default float; ref is always double)\n"
          "  --variant SPEC         force one kernel variant, e.g. 'work=vec,vw=16,lift=fused-update'\n"
          "                         (keys and values: src/backend/variant.h); default: the\n"
          "                         device's default variant\n"
          "  --device P:D|NAME      OpenCL device by index or name substring (see dgtd devices);\n"
          "                         default $DGTD_DEVICE, else the first GPU, else the first device\n"
          "  --dump-kernels DIR     write the exact OpenCL source built (and options, log, and\n"
          "                         each kernel's CL_KERNEL_* sizes) to DIR; $DGTD_CL_OPTIONS\n"
          "                         adds compiler options to every build (-cl-nv-verbose: NVIDIA's\n"
          "                         register and spill counts in the log)\n"
          "  --tune auto|never|always  variant choice without --variant: the cached winner for\n"
          "                         this device (tuning on a miss; default), the device default,\n"
          "                         or tune now; tuning results are cached (see dgtd tune)\n"
          "  --tune-budget S        seconds tuning may take (default 120)\n"
          "  --mesh FILE            Gmsh .msh (2.2, 4.1) or Gambit .neu mesh; without a case file\n"
          "                         every boundary face is PEC and the cavity is the bounding box\n"
          "  --box N[,NY,NZ]        built-in box mesh with N (x NY x NZ) cells, 6 tets per cell\n"
          "  --order N              polynomial order, 1..15 (default 3)\n"
          "  --final-time T         simulated time (default 1)\n"
          "  --stop-energy F        stop before the final time once every source is over and\n"
          "                         the field energy is at most F of its peak (e.g. 1e-6)\n"
          "  --stop-dft F           ... once the DFT sums changed by at most F in the last\n"
          "                         period of the lowest frequency (e.g. 1e-3; needs \"dft\")\n"
          "  --steps N              take exactly N steps of the automatic time step instead\n"
          "  --cfl C                factor on the automatic time step (default 1)\n"
          "  --time-stepping lserk4|auto|multirate[:L]|multirate-lserk4[:L]  global LSERK4,\n"
          "                         or the one of global and multirate LSERK4 predicted\n"
          "                         faster (auto, the default), or multirate Adams-Bashforth 3, or\n"
          "                         multirate LSERK4 (1.6x less work than AB3), on at most L\n"
          "                         power-of-two rate levels (default 6); the step is then the\n"
          "                         macro step of the coarsest level\n"
          "  --mode m,n,p[:A,B,C]   start from this cavity mode (and report the error against it);\n"
          "                         amplitudes must be divergence-free; default A=B=1 and C from\n"
          "                         div E = 0, or (0,0,1) when p = 0\n"
          "  --flux upwind|central  numerical flux (default upwind)\n"
          "  --output DIR           directory for VTU/PVD, probes.csv, energy.csv, checkpoints\n"
          "  --vtu-every N          a VTU snapshot every N steps (0: none, the case's\n"
          "                         output.vtu_times too)\n"
          "  --checkpoint-every N[s]  write DIR/checkpoint.chk every N steps (or N seconds;\n"
          "                         0: none)\n"
          "  --restart FILE         continue from a checkpoint of the same case\n"
          "  --json                 print one JSON summary object on stdout\n"
          "  --quiet                no progress output on stderr\n"
          "  --profile              device time per kernel while stepping (OpenCL; every launch\n"
          "                         is waited for, so the run itself is slower)\n"
          "  --help                 this text\n"
          "  --                     end of the options: what follows is the case file\n\n"
          "exit status: 0 ok, 2 bad input or mesh, 3 file error, 4 numerical failure (blow-up,\n"
          "failed verification), 5 OpenCL failure, 1 other\n");
}

/* --profile: the kernels by device time, largest first. */
static void print_profile(const dg_kernel_profile *p) {
  double total = p->other_seconds;
  int order[DG_KERNEL_PROFILE_MAX];
  for (int i = 0; i < p->n; ++i) total += p->seconds[i], order[i] = i;
  for (int i = 1; i < p->n; ++i) /* insertion sort, by seconds descending */
    for (int j = i; j > 0 && p->seconds[order[j]] > p->seconds[order[j - 1]]; --j) {
      const int t = order[j];
      order[j] = order[j - 1], order[j - 1] = t;
    }
  printf("  kernels       device time while stepping (--profile: every launch waited for): "
         "%.3f s\n", total);
  printf("      %-28s %9s %10s %6s %11s\n", "kernel", "launches", "seconds", "%", "us/launch");
  for (int i = 0; i < p->n; ++i) {
    const int k = order[i];
    printf("      %-28s %9lld %10.4f %6.1f %11.1f\n", p->name[k], p->launches[k], p->seconds[k],
           total > 0 ? 100 * p->seconds[k] / total : 0, 1e6 * p->seconds[k] / (double)p->launches[k]);
  }
  if (p->other_launches)
    printf("      %-28s %9lld %10.4f\n", "(other kernels)", p->other_launches, p->other_seconds);
}

static void print_text(const dg_case *c, const dg_run_result *r) {
  printf("dgtd run: %s\n", c->source);
  printf("  version       dgtd %s\n", DG_VERSION);
  if (c->has_cavity_mode)
    printf("  case          PEC cavity, mode (%d,%d,%d), amplitudes (%g,%g,%g), omega %.6g\n",
           r->mode[0], r->mode[1], r->mode[2], r->amp[0], r->amp[1], r->amp[2], r->omega);
  printf("  mesh          %s\n", c->mesh_file[0] ? c->mesh_file : "built-in box");
  if (!dg_backend_uses_device(c->backend)) {
    printf("  backend       %s (CPU, double)\n", dg_backend_name(c->backend));
  } else {
    printf("  backend       %s (%s)\n", dg_backend_name(c->backend), dg_precision_name(r->precision));
    printf("  device        %s\n", r->device);
    printf("  variant       %s (%s)\n", r->variant, r->variant_source);
    printf("  verified      RHS vs reference on random fields: relative L2 difference %.2e\n",
           r->verify_rel_diff);
    printf("  programs      %d compiled, %d loaded from the binary cache\n", r->programs_built,
           r->programs_loaded);
  }
  printf("  flux          %s\n", c->alpha == 1.0 ? "upwind" : c->alpha == 0.0 ? "central" : "alpha");
  if (r->nranks > 1)
    printf("  MPI           %d ranks, partition imbalance %.3f%s, %d cut faces; exchange %.3f s, "
           "of it waiting %.3f s (rank 0)\n", r->nranks, r->imbalance,
           r->multirate ? " (in RHS evaluations per macro step)" : "", r->cut_faces,
           r->exchange_s, r->exchange_wait_s);
  if (r->K_curved)
    printf("  K             %d (%d curved)\n", r->K, r->K_curved);
  else
    printf("  K             %d\n", r->K);
  printf("  N             %d (Np = %d)\n", r->N, r->Np);
  printf("  DOFs          %lld\n", r->dofs);
  if (r->first_step) printf("  restarted at  step %d\n", r->first_step);
  printf("  steps         %d\n", r->steps);
  printf("  dt            %.6g\n", r->dt);
  printf("  final time    %.6g\n", r->final_time);
  if (r->stopped_early && c->stop_dft > 0)
    printf("  stopped       at t = %.6g of %.6g: the sources over, the energy %.3g of its peak "
           "and the DFT sums changed by %.3g in the last period (stop_dft %g)\n",
           r->final_time, r->planned_time, r->stop_ratio, r->stop_dft_change, c->stop_dft);
  else if (r->stopped_early)
    printf("  stopped       at t = %.6g of %.6g: the sources over and the energy %.3g of its "
           "peak (stop_energy %g)\n", r->final_time, r->planned_time, r->stop_ratio,
           c->stop_energy);
  printf("  wall time     %.3f s\n", r->wall_s);
  printf("  DOF/s         %.4g (DOFs x RHS evaluations / s)\n", r->dofs_per_s);
  if (r->multirate) {
    printf("  time stepping multirate %s, %d level%s (at most %d), finest step %.6g, macro step %.6g\n",
           r->mr_scheme == DG_MR_LSERK4 ? "LSERK4" : "AB3", r->n_levels, r->n_levels > 1 ? "s" : "",
           c->max_levels, r->h0, r->dt);
    printf("  levels       ");
    for (int l = 0; l < r->n_levels; ++l)
      printf(" %d: %d%s", l, r->level_count[l], l + 1 < r->n_levels ? "," : " elements\n");
    const double ratio = r->rhs_evals ? r->rhs_evals_global / (double)r->rhs_evals : 0.0;
    printf("  RHS work      %lld element evaluations; global LSERK4 at its step: %.0f (%.2fx %s)\n",
           r->rhs_evals, r->rhs_evals_global, ratio >= 1 || ratio == 0 ? ratio : 1 / ratio,
           ratio >= 1 ? "less work" : "more work");
  } else {
    printf("  time stepping lserk4; RHS work %lld element evaluations\n", r->rhs_evals);
  }
  printf("  energy        %.10g -> %.10g\n", r->energy_start, r->energy_end);
  if (r->profiled) print_profile(&r->kernels);
  const int host = !dg_backend_uses_device(c->backend) || r->multirate;
  if (r->dft_on)
    printf("  dft           %d frequencies x %d samples%s: %.3f s summing, %.1f%% of the stepping "
           "time (%s)\n", r->dft_freqs, r->dft_samples,
           host ? "" : r->dft_acc_double ? " (double sums)" : " (compensated float sums)", r->dft_s,
           r->wall_s > 0 ? 100 * r->dft_s / r->wall_s : 0,
           host ? "host wall clock" : "device kernel time from profiling events");
  for (int i = 0; r->ff_on && i < r->ff_nfreq && i < DG_RUN_FF_SHOWN; ++i) {
    if (i == 0)
      printf("  far field     %d directions x %d frequencies in far_field.csv%s\n", r->ff_dirs,
             r->ff_nfreq, r->ff_rcs ? " (RCS in the mesh's length unit squared, dB re 1 unit^2: "
             "dBsm for a mesh in metres; docs/UNITS.md)" : "");
    if (r->ff_rcs)
      printf("    f = %-9.5g RCS back %.5g (%.2f dB), forward %.5g (%.2f dB), largest %.5g "
             "(%.2f dB) at theta %.1f phi %.1f\n", r->ff[i].freq, r->ff[i].back,
             10 * log10(r->ff[i].back), r->ff[i].forward, 10 * log10(r->ff[i].forward),
             r->ff[i].max_value, 10 * log10(r->ff[i].max_value), r->ff[i].max_theta,
             r->ff[i].max_phi);
    else
      printf("    f = %-9.5g radiated power %.5g, directivity %.4g (%.2f dBi) at theta %.1f "
             "phi %.1f\n", r->ff[i].freq, r->ff[i].prad, r->ff[i].max_value,
             10 * log10(r->ff[i].max_value), r->ff[i].max_theta, r->ff[i].max_phi);
  }
  if (c->output_dir[0])
    printf("  output        %s (%d VTU snapshots, %d checkpoints)\n", c->output_dir, r->n_vtu, r->n_checkpoints);
  if (r->has_error) printf("  L2 error      %.6e (relative %.6e)\n", r->l2_error, r->l2_rel_error);
}

/* A JSON member: its key and its number. */
typedef struct {
  const char *key;
  double value;
} json_number;

static void add_numbers(cJSON *o, const json_number *list, int n) {
  for (int i = 0; i < n; ++i) cJSON_AddNumberToObject(o, list[i].key, list[i].value);
}

/* One JSON object on stdout (cJSON does the escaping). */
static void print_json(const dg_case *c, const dg_run_result *r) {
  const int device = dg_backend_uses_device(c->backend);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "version", DG_VERSION);
  cJSON_AddStringToObject(o, "case", c->source);
  cJSON_AddStringToObject(o, "backend", dg_backend_name(c->backend));
  cJSON_AddStringToObject(o, "precision", dg_precision_name(r->precision));
  if (device) {
    cJSON_AddStringToObject(o, "device", r->device);
    cJSON_AddStringToObject(o, "variant", r->variant);
    cJSON_AddStringToObject(o, "variant_source", r->variant_source);
    cJSON_AddBoolToObject(o, "tuned", r->tuned);
    const json_number cl[] = {{"programs_built", r->programs_built},
                              {"programs_loaded", r->programs_loaded},
                              {"verify_rel_diff", r->verify_rel_diff}};
    add_numbers(o, cl, 3);
  }
  cJSON_AddStringToObject(o, "mesh", c->mesh_file[0] ? c->mesh_file : "box");
  cJSON_AddNumberToObject(o, "flux_alpha", c->alpha);
  cJSON_AddNumberToObject(o, "ranks", r->nranks);
  const json_number mpi[] = {{"imbalance", r->imbalance}, {"cut_faces", r->cut_faces},
                             {"exchange_s", r->exchange_s},
                             {"exchange_wait_s", r->exchange_wait_s},
                             {"exchanges", (double)r->exchanges}};
  if (r->nranks > 1) add_numbers(o, mpi, 5);
  const json_number run[] = {{"K", r->K}, {"N", r->N}, {"Np", r->Np}, {"dofs", (double)r->dofs},
                             {"first_step", r->first_step}, {"steps", r->steps}, {"dt", r->dt},
                             {"final_time", r->final_time}, {"wall_s", r->wall_s},
                             {"dofs_per_s", r->dofs_per_s}};
  add_numbers(o, run, 10);
  if (r->stopped_early) {
    const json_number stop[] = {{"planned_time", r->planned_time}, {"stop_ratio", r->stop_ratio},
                                {"stop_dft_change", r->stop_dft_change}};
    add_numbers(o, stop, r->stop_dft_change >= 0 ? 3 : 2);
  }
  cJSON_AddStringToObject(o, "time_stepping", !r->multirate ? "lserk4"
                                              : r->mr_scheme == DG_MR_LSERK4 ? "multirate-lserk4"
                                                                             : "multirate");
  if (r->auto_gain > 0) cJSON_AddNumberToObject(o, "auto_predicted_gain", r->auto_gain);
  cJSON_AddNumberToObject(o, "rhs_evals", (double)r->rhs_evals);
  cJSON_AddNumberToObject(o, "rhs_evals_global", r->rhs_evals_global);
  if (r->multirate) {
    cJSON_AddItemToObject(o, "levels", cJSON_CreateIntArray(r->level_count, r->n_levels));
    cJSON_AddNumberToObject(o, "h0", r->h0);
  }
  cJSON_AddNumberToObject(o, "energy_start", r->energy_start);
  cJSON_AddNumberToObject(o, "energy_end", r->energy_end);
  const json_number dft[] = {{"dft_frequencies", r->dft_freqs}, {"dft_samples", r->dft_samples},
                             {"dft_s", r->dft_s},
                             {"dft_fraction", r->wall_s > 0 ? r->dft_s / r->wall_s : 0}};
  if (r->dft_on) add_numbers(o, dft, 4);
  if (r->ff_on) { /* the figures printed; the whole table is far_field.csv */
    cJSON *ff = cJSON_AddArrayToObject(o, "far_field");
    for (int i = 0; i < r->ff_nfreq && i < DG_RUN_FF_SHOWN; ++i) {
      cJSON *e = cJSON_CreateObject();
      const json_number f[] = {{"freq", r->ff[i].freq},
                               {r->ff_rcs ? "rcs_max" : "directivity_max", r->ff[i].max_value},
                               {"theta_max", r->ff[i].max_theta}, {"phi_max", r->ff[i].max_phi},
                               {"prad", r->ff[i].prad}, {"rcs_back", r->ff[i].back},
                               {"rcs_forward", r->ff[i].forward}};
      add_numbers(e, f, r->ff_rcs ? 7 : 5);
      cJSON_AddItemToArray(ff, e);
    }
  }
  cJSON_AddNumberToObject(o, "vtu_snapshots", r->n_vtu);
  cJSON_AddNumberToObject(o, "checkpoints", r->n_checkpoints);
  if (r->has_error) {
    cJSON_AddNumberToObject(o, "l2_error", r->l2_error);
    cJSON_AddNumberToObject(o, "l2_rel_error", r->l2_rel_error);
    cJSON_AddItemToObject(o, "mode", cJSON_CreateIntArray(r->mode, 3));
    cJSON_AddItemToObject(o, "amplitudes", cJSON_CreateDoubleArray(r->amp, 3));
    cJSON_AddNumberToObject(o, "omega", r->omega);
  }
  if (r->profiled) {
    cJSON *kp = cJSON_AddArrayToObject(o, "kernel_profile");
    for (int i = 0; i < r->kernels.n; ++i) {
      cJSON *e = cJSON_CreateObject();
      cJSON_AddStringToObject(e, "kernel", r->kernels.name[i]);
      cJSON_AddNumberToObject(e, "launches", (double)r->kernels.launches[i]);
      cJSON_AddNumberToObject(e, "seconds", r->kernels.seconds[i]);
      cJSON_AddItemToArray(kp, e);
    }
  }
  char *text = cJSON_PrintUnformatted(o);
  if (text) printf("%s\n", text);
  free(text);
  cJSON_Delete(o);
}

static dg_status copy_opt(const char *opt, const char *value, char *dst, size_t cap) {
  DG_CHECK(strlen(value) < cap, DG_ERR_INPUT, "%s: value too long", opt);
  strcpy(dst, value);
  return DG_OK;
}

static dg_status parse_mode(const char *s, dg_case *c) {
  char buf[128];
  DG_CHECK(strlen(s) < sizeof buf, DG_ERR_INPUT, "--mode: value too long");
  strcpy(buf, s);
  char *colon = strchr(buf, ':');
  c->has_amp = 0;
  if (colon) {
    *colon = '\0';
    DG_CALL(dg_cli_doubles("--mode amplitudes", colon + 1, 3, c->amp));
    c->has_amp = 1;
  }
  DG_CALL(dg_cli_ints("--mode", buf, 3, c->mode));
  c->has_cavity_mode = 1;
  snprintf(c->mode_key, sizeof c->mode_key, "--mode");
  return DG_OK;
}

static dg_status parse_box(const char *s, dg_case *c) {
  if (!strchr(s, ',')) {
    int n;
    DG_CALL(dg_cli_int("--box", s, 1, 1000, &n));
    c->box_cells[0] = c->box_cells[1] = c->box_cells[2] = n;
  } else {
    DG_CALL(dg_cli_ints("--box", s, 3, c->box_cells));
    for (int d = 0; d < 3; ++d)
      DG_CHECK(c->box_cells[d] >= 1, DG_ERR_INPUT, "--box: cell counts must be positive, got '%s'", s);
  }
  c->mesh_file[0] = '\0';
  return DG_OK;
}

/* --checkpoint-every N (steps) or Ns (seconds). */
static dg_status parse_checkpoint(const char *s, dg_case *c) {
  const size_t n = strlen(s);
  if (n > 1 && s[n - 1] == 's') {
    char buf[64];
    DG_CHECK(n < sizeof buf, DG_ERR_INPUT, "--checkpoint-every: value too long");
    memcpy(buf, s, n - 1);
    buf[n - 1] = '\0';
    DG_CALL(dg_cli_double("--checkpoint-every", buf, &c->checkpoint_seconds));
    DG_CHECK(c->checkpoint_seconds > 0, DG_ERR_INPUT, "--checkpoint-every: seconds must be positive");
    return DG_OK;
  }
  /* 0: none, as the case file's checkpoint.every_steps */
  return dg_cli_int("--checkpoint-every", s, 0, 1 << 30, &c->checkpoint_every);
}

/* --time-stepping lserk4 | auto | multirate[:L] | multirate-lserk4[:L] (L: the most rate levels). */
static dg_status parse_time_stepping(const char *s, dg_case *c) {
  if (!strcmp(s, "lserk4") || !strcmp(s, "auto")) {
    c->multirate = 0;
    c->mr_auto = !strcmp(s, "auto") ? 2 : 0;
    return DG_OK;
  }
  const char *levels;
  DG_CHECK(dg_cli_multirate(s, &c->mr_scheme, &levels), DG_ERR_INPUT,
           "--time-stepping: expected lserk4, auto, multirate[:MAX_LEVELS] or "
           "multirate-lserk4[:MAX_LEVELS], got '%s'", s);
  c->multirate = 1;
  c->mr_auto = 0;
  if (levels)
    DG_CALL(dg_cli_int("--time-stepping max levels", levels, 1, DG_MR_MAX_LEVELS, &c->max_levels));
  return DG_OK;
}

/* First pass: the case file (the one argument that is not an option). Second pass: the
 * options, on top of it. */
static dg_status parse_args(int argc, char **argv, dg_case *c, int *help) {
  enum { O_BACKEND = 256, O_MESH, O_BOX, O_ORDER, O_TFINAL, O_STEPS, O_CFL, O_MODE, O_FLUX,
         O_JSON, O_QUIET, O_HELP, O_PRECISION, O_VARIANT, O_DEVICE, O_DUMP, O_OUTPUT,
         O_CHECKPOINT, O_RESTART, O_TUNE, O_TUNE_BUDGET, O_TIME_STEPPING, O_PROFILE, O_VTU_EVERY, O_STOP_ENERGY,
         O_STOP_DFT };
  static const struct option opts[] = {
      {"backend", required_argument, 0, O_BACKEND},   {"mesh", required_argument, 0, O_MESH},
      {"box", required_argument, 0, O_BOX},           {"order", required_argument, 0, O_ORDER},
      {"final-time", required_argument, 0, O_TFINAL}, {"steps", required_argument, 0, O_STEPS},
      {"stop-energy", required_argument, 0, O_STOP_ENERGY},
      {"stop-dft", required_argument, 0, O_STOP_DFT},
      {"cfl", required_argument, 0, O_CFL},           {"mode", required_argument, 0, O_MODE},
      {"flux", required_argument, 0, O_FLUX},         {"json", no_argument, 0, O_JSON},
      {"quiet", no_argument, 0, O_QUIET},             {"help", no_argument, 0, O_HELP},
      {"precision", required_argument, 0, O_PRECISION}, {"variant", required_argument, 0, O_VARIANT},
      {"device", required_argument, 0, O_DEVICE},     {"dump-kernels", required_argument, 0, O_DUMP},
      {"output", required_argument, 0, O_OUTPUT},     {"checkpoint-every", required_argument, 0, O_CHECKPOINT},
      {"restart", required_argument, 0, O_RESTART},   {"tune", required_argument, 0, O_TUNE},
      {"tune-budget", required_argument, 0, O_TUNE_BUDGET},
      {"time-stepping", required_argument, 0, O_TIME_STEPPING},
      {"profile", no_argument, 0, O_PROFILE},
      {"vtu-every", required_argument, 0, O_VTU_EVERY}, {0, 0, 0, 0}};
  opterr = 0;
  /* Pass 1: find --help and the case file. */
  optind = 1;
  const char *case_file = NULL;
  for (;;) {
    const int o = getopt_long(argc, argv, "-:h", opts, NULL);
    if (o == -1) break;
    if (o == 'h' || o == O_HELP) {
      *help = 1;
      return DG_OK;
    }
    if (o == 1) {
      DG_CHECK(!case_file, DG_ERR_INPUT, "more than one case file: '%s' and '%s'", case_file, optarg);
      case_file = optarg;
    }
  }
  /* "--" ends the options: what follows is positional (the case file), never dropped. */
  for (int i = optind; i < argc; ++i) {
    DG_CHECK(!case_file, DG_ERR_INPUT, "more than one case file: '%s' and '%s'", case_file, argv[i]);
    case_file = argv[i];
  }
  if (case_file) DG_CALL(dg_case_read(c, case_file));
  /* Pass 2: options override the case. */
  optind = 1;
  const char *tfinal_arg = NULL, *steps_arg = NULL;
  for (;;) {
    const int prev = optind;
    const int o = getopt_long(argc, argv, "-:h", opts, NULL);
    if (o == -1) break;
    switch (o) {
    case 1: break; /* the case file */
    case O_BACKEND: {
      const int b = dg_backend_find(optarg);
      if (b < 0) {
        char names[128] = "";
        for (int i = 0; dg_backend_names[i]; ++i)
          snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                   dg_backend_names[i]);
        return DG_ERROR(DG_ERR_INPUT, "--backend: unknown backend '%s' (available: %s)", optarg,
                        names);
      }
      c->backend = (dg_backend)b;
      break;
    }
    case O_PRECISION:
      DG_CALL(dg_cli_precision(optarg, &c->precision, NULL));
      break;
    case O_VARIANT: DG_CALL(copy_opt("--variant", optarg, c->variant, sizeof c->variant)); break;
    case O_DEVICE: DG_CALL(copy_opt("--device", optarg, c->device, sizeof c->device)); break;
    case O_DUMP: DG_CALL(copy_opt("--dump-kernels", optarg, c->dump_dir, sizeof c->dump_dir)); break;
    case O_MESH: DG_CALL(copy_opt("--mesh", optarg, c->mesh_file, sizeof c->mesh_file)); break;
    case O_BOX: DG_CALL(parse_box(optarg, c)); break;
    case O_ORDER: DG_CALL(dg_cli_int("--order", optarg, 1, 15, &c->order)); break;
    case O_STOP_ENERGY:
      DG_CALL(dg_cli_double("--stop-energy", optarg, &c->stop_energy));
      DG_CHECK(c->stop_energy > 0 && c->stop_energy < 1, DG_ERR_INPUT,
               "--stop-energy %s: expected a fraction of the peak energy in (0, 1), e.g. 1e-6",
               optarg);
      break;
    case O_STOP_DFT:
      DG_CALL(dg_cli_double("--stop-dft", optarg, &c->stop_dft));
      DG_CHECK(c->stop_dft > 0 && c->stop_dft < 1, DG_ERR_INPUT,
               "--stop-dft %s: expected a relative change of the DFT sums in (0, 1), e.g. 1e-3",
               optarg);
      break;
    case O_TFINAL:
      DG_CALL(dg_cli_double("--final-time", optarg, &c->final_time));
      c->steps = 0;
      tfinal_arg = optarg;
      break;
    case O_STEPS:
      DG_CALL(dg_cli_int("--steps", optarg, 1, 1 << 30, &c->steps));
      steps_arg = optarg;
      break;
    case O_CFL: DG_CALL(dg_cli_double("--cfl", optarg, &c->cfl)); break;
    case O_TIME_STEPPING: DG_CALL(parse_time_stepping(optarg, c)); break;
    case O_MODE: DG_CALL(parse_mode(optarg, c)); break;
    case O_FLUX:
      if (!strcmp(optarg, "upwind")) c->alpha = 1.0;
      else if (!strcmp(optarg, "central")) c->alpha = 0.0;
      else return DG_ERROR(DG_ERR_INPUT, "--flux: expected upwind or central, got '%s'", optarg);
      break;
    case O_OUTPUT: DG_CALL(copy_opt("--output", optarg, c->output_dir, sizeof c->output_dir)); break;
    case O_CHECKPOINT: DG_CALL(parse_checkpoint(optarg, c)); break;
    case O_RESTART: DG_CALL(copy_opt("--restart", optarg, c->restart, sizeof c->restart)); break;
    case O_TUNE:
      if (!strcmp(optarg, "auto")) c->tune = DG_TUNE_AUTO;
      else if (!strcmp(optarg, "never")) c->tune = DG_TUNE_NEVER;
      else if (!strcmp(optarg, "always")) c->tune = DG_TUNE_ALWAYS;
      else return DG_ERROR(DG_ERR_INPUT, "--tune: expected auto, never or always, got '%s'", optarg);
      break;
    case O_TUNE_BUDGET:
      DG_CALL(dg_cli_double("--tune-budget", optarg, &c->tune_budget));
      DG_CHECK(c->tune_budget > 0, DG_ERR_INPUT, "--tune-budget: must be positive");
      break;
    case O_JSON: c->json = 1; break;
    case O_QUIET: c->quiet = 1; break;
    case O_PROFILE: c->profile = 1; break;
    case O_VTU_EVERY: /* 0: no snapshots at all, the case's vtu_times too */
      DG_CALL(dg_cli_int("--vtu-every", optarg, 0, 1 << 30, &c->vtu_every));
      if (!c->vtu_every) c->n_vtu_times = 0;
      break;
    default: return dg_cli_bad_option(o, argv[prev], "run", "option");
    }
  }
  /* Both on the line: one would silently win (the later one), so neither does, as in a
   * case file; either one overrides the case file's own choice. */
  DG_CHECK(!(tfinal_arg && steps_arg), DG_ERR_INPUT,
           "--final-time %s and --steps %s: give one, not both (--final-time runs to that time "
           "with the step shortened to land on it; --steps takes that many automatic steps)",
           tfinal_arg, steps_arg);
  DG_CHECK(c->final_time > 0, DG_ERR_INPUT, "the final time must be positive, got %g", c->final_time);
  return DG_OK;
}

int dg_cmd_run(int argc, char **argv) {
  dg_case c;
  dg_run_result r;
  int help = 0;
  dg_case_default(&c);
  dg_status st = parse_args(argc, argv, &c, &help);
  if (st == DG_OK && help) {
    run_usage(stdout);
    dg_case_free(&c);
    return 0;
  }
  dg_cli_set_quiet(c.quiet);
  if (st == DG_OK) st = dg_run(&c, &r);
  if (st != DG_OK) {
    dg_error_print(stderr);
    dg_case_free(&c);
    return st == DG_ERR_INTERRUPTED && r.signal ? 128 + r.signal : dg_status_exit_code(st);
  }
  if (r.rank == 0) { /* the figures are global; one rank prints them */
    if (c.json) print_json(&c, &r);
    else print_text(&c, &r);
  }
  dg_case_free(&c);
  return 0;
}

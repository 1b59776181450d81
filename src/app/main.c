/* bin/dgtd: dispatch to a subcommand; under mpiexec, also MPI_Init/MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/commands.h"
#include "app/cli.h"
#include "codegen/codegen.h"
#include "core/version.h"
#include "part/launcher.h"
#include "tune/cache.h"

static const struct {
  const char *name;
  int (*fn)(int, char **);
  const char *summary;
} commands[] = {
    {"run", dg_cmd_run, "run a simulation (default: PEC cavity eigenmode, order 3)"},
    {"devices", dg_cmd_devices, "list OpenCL platforms and devices"},
    {"tune", dg_cmd_tune, "time kernel variants on a device and cache the fastest"},
    {"bench", dg_cmd_bench, "throughput and roofline per order and kernel (tuned/default/baseline)"},
    {"kernels", dg_cmd_kernels, "write kernel sources for GPUs not present (offline vendor compilers)"},
};
enum { NCOMMANDS = sizeof commands / sizeof *commands };

/* dgtd --version: the version, and where this binary finds its templates and tuning files
 * (beside it, in an installation's share/dgtd, in the working directory, or from the
 * environment) and keeps its cache. */
static int version(void) {
  printf("dgtd %s\n", DG_VERSION);
  char dir[4096], real[4096];
  if (dg_codegen_template_dir(dir, sizeof dir) == DG_OK)
    printf("templates  %s\n", realpath(dir, real) ? real : dir);
  else
    printf("templates  not found (%s)\n", dg_error_message());
  dg_tune_paths paths;
  if (dg_tune_paths_default(&paths) == DG_OK)
    printf("tuning     %s (shipped)\ncache      %s\n",
           realpath(paths.shipped_dir, real) ? real : paths.shipped_dir, paths.cache_dir);
  else
    printf("tuning     not found (%s)\n", dg_error_message());
  return 0;
}

static void usage(FILE *f) {
  fprintf(f, "usage: dgtd COMMAND [OPTIONS]\n\n"
             "High-order discontinuous Galerkin time-domain Maxwell solver.\n\ncommands:\n");
  for (int i = 0; i < NCOMMANDS; ++i) fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf(f, "\n'dgtd COMMAND --help' describes each command's options; 'dgtd --version' prints\n"
             "the version and where the templates and tuning files are found.\n");
}

static int dispatch(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") || !strcmp(argv[1], "version"))
    return version();
  for (int i = 0; i < NCOMMANDS; ++i)
    if (!strcmp(argv[1], commands[i].name)) return commands[i].fn(argc - 1, argv + 1);
  fprintf(stderr, "dgtd: unknown command '%s'\n\n", argv[1]);
  usage(stderr);
  return 2;
}

int main(int argc, char **argv) {
  dg_cli_log_to_stderr();
  const int mpi = dg_launcher_present();
  if (mpi && MPI_Init(&argc, &argv) != MPI_SUCCESS) {
    fprintf(stderr, "dgtd: MPI_Init failed\n");
    return 1;
  }
  if (mpi) { /* a foreign launcher: N singleton copies (part/launcher.h) */
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (dg_launcher_check(size) != DG_OK) {
      dg_error_print(stderr);
      MPI_Finalize();
      return 2;
    }
  }
  const int rc = dispatch(argc, argv);
  if (mpi) {
    int size = 1;
    if (MPI_Comm_size(MPI_COMM_WORLD, &size) != MPI_SUCCESS) {
      fprintf(stderr, "dgtd: MPI_Comm_size failed\n");
      size = 2; /* abort rather than risk a hang */
    }
    /* One rank failing while the others wait in a collective would hang the job. */
    if (rc != 0 && size > 1) MPI_Abort(MPI_COMM_WORLD, rc);
    if (MPI_Finalize() != MPI_SUCCESS) {
      fprintf(stderr, "dgtd: MPI_Finalize failed\n");
      return rc ? rc : 1;
    }
  }
  return rc;
}

/* bin/dgtd: dispatch to a subcommand; under mpiexec, also MPI_Init/MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/commands.h"
#include "app/cli.h"
#include "part/launcher.h"

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

static void usage(FILE *f) {
  fprintf(f, "usage: dgtd COMMAND [OPTIONS]\n\n"
             "High-order discontinuous Galerkin time-domain Maxwell solver.\n\ncommands:\n");
  for (int i = 0; i < NCOMMANDS; ++i) fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf(f, "\n'dgtd COMMAND --help' describes each command's options.\n");
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

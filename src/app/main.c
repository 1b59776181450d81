/* bin/dgtd: dispatch to a subcommand. */
#include <stdio.h>
#include <string.h>

#include "app/commands.h"

static const struct {
  const char *name;
  int (*fn)(int, char **);
  const char *summary;
} commands[] = {
    {"run", dg_cmd_run, "run a simulation (default: PEC cavity eigenmode, order 3)"},
    {"devices", dg_cmd_devices, "list OpenCL platforms and devices"},
};
enum { NCOMMANDS = sizeof commands / sizeof *commands };

static void usage(FILE *f) {
  fprintf(f, "usage: dgtd COMMAND [OPTIONS]\n\n"
             "High-order discontinuous Galerkin time-domain Maxwell solver.\n\ncommands:\n");
  for (int i = 0; i < NCOMMANDS; ++i) fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf(f, "\n'dgtd COMMAND --help' describes each command's options.\n");
}

int main(int argc, char **argv) {
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

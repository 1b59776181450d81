/* The subcommands of bin/dgtd. Each takes argc/argv starting at its own name and returns
 * a process exit code. */
#ifndef DG_APP_COMMANDS_H
#define DG_APP_COMMANDS_H

int dg_cmd_run(int argc, char **argv);
int dg_cmd_devices(int argc, char **argv);
int dg_cmd_tune(int argc, char **argv);
int dg_cmd_bench(int argc, char **argv);
int dg_cmd_kernels(int argc, char **argv);

#endif

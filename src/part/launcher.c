#include "part/launcher.h"

#include <stdlib.h>

int dg_launcher_present(void) {
  static const char *const vars[] = {"PMI_SIZE", "PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE",
                                     NULL};
  for (int i = 0; vars[i]; ++i)
    if (getenv(vars[i])) return 1;
  return 0;
}

int dg_launcher_size(const char **var) {
  static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", NULL};
  for (int i = 0; vars[i]; ++i) {
    const char *s = getenv(vars[i]);
    if (!s || !*s) continue;
    char *end = NULL;
    const long n = strtol(s, &end, 10);
    if (*end != '\0' || n < 1 || n > 1 << 24) continue;
    if (var) *var = vars[i];
    return (int)n;
  }
  if (var) *var = NULL;
  return 0;
}

dg_status dg_launcher_check(int mpi_size) {
  const char *var = NULL;
  const int n = dg_launcher_size(&var);
  DG_CHECK(!(n > 1 && mpi_size == 1), DG_ERR_INPUT,
           "the launcher started %d processes (%s=%d) but MPI sees each as a job of one rank: "
           "it is not MPICH's launcher, and every process would run the whole case alone. "
           "dgtd is built against MPICH: start it with `mpiexec.mpich -n %d bin/dgtd ...` (on "
           "Debian `mpiexec` may be Open MPI's)",
           n, var, n, n);
  return DG_OK;
}

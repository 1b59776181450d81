/* Is this process one rank of the MPI job its launcher started? dgtd is built against
 * MPICH; a foreign launcher (Open MPI's mpiexec, which Debian may install as `mpiexec`)
 * starts N copies that each initialise MPICH as a singleton, so every copy would run the
 * whole case alone. The launcher's environment still says how many processes it started. */
#ifndef DG_PART_LAUNCHER_H
#define DG_PART_LAUNCHER_H

#include "core/status.h"

/* The job size the launcher's environment announces: OMPI_COMM_WORLD_SIZE (Open MPI),
 * else PMI_SIZE (MPICH's Hydra, Slurm's PMI); 0 when neither is set or readable. *var gets
 * the variable's name (may be NULL). */
int dg_launcher_size(const char **var);

/* Whether an MPI launcher started this process (Hydra, PMIx, Slurm's PMI or Open MPI set
 * one of their variables). Without one dgtd runs as a plain process and never touches MPI. */
int dg_launcher_present(void);

/* DG_ERR_INPUT, naming mpiexec.mpich, when the launcher announced more than one process but
 * MPI reports mpi_size == 1; DG_OK otherwise. */
dg_status dg_launcher_check(int mpi_size) DG_NODISCARD;

#endif

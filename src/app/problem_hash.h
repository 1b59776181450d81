/* The problem a checkpoint was written for, as hashes of the case's settings. */
#ifndef DG_APP_PROBLEM_HASH_H
#define DG_APP_PROBLEM_HASH_H

#include <stdint.h>

#include "app/case.h"
#include "io/checkpoint.h"

/* Hashes of what defines the problem beyond mesh, order and precision, one per checkpoint
 * part (io/checkpoint.h): a restart from a checkpoint of another problem is refused naming
 * the parts that differ. Settings that do not change the solution (outputs, probes,
 * variant, device) are left out. */
void dg_case_problem_hash(const dg_case *c, uint64_t parts[DG_CHECKPOINT_PARTS]);

#endif

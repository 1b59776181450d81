/* Verification at the edges of the sizes a variant is written for (backend/verify.h does
 * the 48-element box): meshes smaller than one work-group, element counts that are not a
 * multiple of any vector width or microblock, a single element, and the MPI halo path with
 * ghosts that straddle the interleaved blocks, all checked against the CPU reference. */
#ifndef DG_BACKEND_VERIFY_SIZES_H
#define DG_BACKEND_VERIFY_SIZES_H

#include <stdint.h>

#include "backend/variant.h"
#include "core/status.h"
#include "device/device.h"
#include "mesh/mesh.h"

/* The edge-size meshes (all in the unit cube, tagged like the box mesh, so the verification
 * problem's materials and PEC/PMC/absorbing faces apply). */
typedef enum {
  DG_VSIZE_ONE = 0, /* one tetrahedron: K = 1 */
  DG_VSIZE_BOX1,    /* 1x1x1 box: K = 6 */
  DG_VSIZE_ROW3,    /* 3x1x1 box: K = 18, no multiple of 4, 8 or 16 */
  DG_VSIZE_BOX2,    /* 2x2x2 box: K = 48 (dg_cl_verify's mesh) */
  DG_VSIZE_COUNT
} dg_verify_size;

/* "K=1", "K=6", ... */
const char *dg_verify_size_name(dg_verify_size s);

dg_status dg_verify_mesh_create(dg_mesh **out, dg_verify_size s) DG_NODISCARD;

/* dg_cl_verify on the mesh s (same tolerance and outputs). */
dg_status dg_cl_verify_size(dg_device *dev, const dg_variant *v, int N, dg_verify_size s,
                            uint64_t seed, double *rel_diff, int *pass) DG_NODISCARD;

/* The MPI halo path without MPI: the 48-element box split into nparts parts by
 * part[k] = (k / run) % nparts (runs of `run` elements, so parts interleave and ghosts fall
 * in the middle of the interleaved blocks), one operator per part on dev with
 * dg_cl_maxwell_set_halo, and an exchange emulated on the host: the pack kernel's output
 * must equal the owned traces the slots name, and the unpack kernel gets the neighbours'
 * traces (the ghosts' own values are scrambled first, so only unpacked traces can give the
 * right answer). *rel_diff is the relative L2 difference of all parts' owned RHS against the
 * reference on the whole mesh; *pack_diff the largest relative difference of a packed value.
 * *pass: both within the precision's tolerance. A failure also returns DG_ERR_NUMERIC.
 * flags: DG_VHALO_DROP (tests of this check) delivers zeros instead of the traces. */
enum { DG_VHALO_DROP = 1 };
dg_status dg_cl_verify_halo(dg_device *dev, const dg_variant *v, int N, int nparts, int run,
                            unsigned flags, uint64_t seed, double *rel_diff, double *pack_diff,
                            int *pass) DG_NODISCARD;

#endif

/* Binary checkpoint/restart of the time loop: the LSERK state q and residual res, and the
 * auxiliary state (a PML's fields, dispersive poles' states), with what is needed to refuse
 * a checkpoint from another run.
 * Layout (little-endian, version 3):
 *
 *   0   char[8]  magic "DGTDCHK1"
 *   8   u32      format version (3)
 *   12  u32      header size (384)
 *   16  i32      K, N, Np, precision (bytes per value: 4 or 8)
 *   32  u64      mesh hash (dg_checkpoint_mesh_hash)
 *   40  i64      step index
 *   48  f64      time, dt
 *   64  char[248] variant (NUL-terminated, zero-padded)
 *   312 u64      aux: number of auxiliary values (dg_maxwell_aux_size: a PML's, dg/pml.h,
 *                then the poles', dg/dispersive.h; 0 without either)
 *   320 u64[8]   problem hashes, one per part (dg_checkpoint_part_names)
 *   384 u64      checksum of bytes 0..383
 *   392          q   (6*K*Np values of `precision` bytes)
 *                res (6*K*Np values)
 *                aux values (`precision` bytes each)
 *   end-8 u64    checksum of every byte before it
 *
 * Version 2 (until the PML's fields were saved) had no aux count and a 256-byte variant;
 * it is refused like any other version: a PML run of that time could not checkpoint, and a
 * restart of another run would be refused by its problem hashes anyway.
 *
 * The header has its own checksum so a damaged header is reported as damage rather than
 * as a checkpoint "for order N=7". Written through atomic.h. State arrays are written in
 * host byte order, so a big-endian host is refused (DG_ERR_UNSUPPORTED). */
#ifndef DG_IO_CHECKPOINT_H
#define DG_IO_CHECKPOINT_H

#include <stdint.h>

#include "core/status.h"
#include "mesh/mesh.h"

enum { DG_CHECKPOINT_VARIANT_MAX = 247 };

/* What defines the problem besides the mesh, order and precision, hashed part by part so a
 * refusal can say which part differs (the caller computes them: app/case.c). */
enum {
  DG_CHECKPOINT_MATERIALS = 0,
  DG_CHECKPOINT_BOUNDARIES,
  DG_CHECKPOINT_SOURCES,
  DG_CHECKPOINT_INITIAL,
  DG_CHECKPOINT_FLUX,
  DG_CHECKPOINT_TIME,   /* the CFL factor and the scheme (dt itself is stored and checked too) */
  DG_CHECKPOINT_PML,    /* the PML's volumes and parameters (0 without a PML) */
  DG_CHECKPOINT_PARTS = 8 /* one spare */
};
/* "materials", "boundary conditions", ...; NULL for the spare parts. */
extern const char *const dg_checkpoint_part_names[DG_CHECKPOINT_PARTS];

typedef struct {
  int K, N, Np;
  int precision;      /* bytes per value: 4 (float) or 8 (double) */
  uint64_t mesh_hash; /* dg_checkpoint_mesh_hash of the run's mesh */
  char variant[DG_CHECKPOINT_VARIANT_MAX + 1]; /* kernel variant that produced the state */
  int64_t step;
  double time, dt;
  uint64_t problem[DG_CHECKPOINT_PARTS]; /* hashes of the problem's parts (0: not given) */
  uint64_t aux; /* auxiliary values stored after res (PML, poles: dg_maxwell_aux_size) */
} dg_checkpoint_header;

/* 64-bit hash of the mesh's identity: Nv, K, vertex coordinates and EToV. */
uint64_t dg_checkpoint_mesh_hash(const dg_mesh *m);

/* Write h and the two state arrays (6*K*Np values of h->precision bytes each); h->aux must
 * be 0 (see dg_checkpoint_write_aux). */
dg_status dg_checkpoint_write(const char *path, const dg_checkpoint_header *h, const void *q,
                              const void *res) DG_NODISCARD;
/* The same with h->aux auxiliary values (of h->precision bytes) from aux (NULL if 0). */
dg_status dg_checkpoint_write_aux(const char *path, const dg_checkpoint_header *h,
                                  const void *q, const void *res,
                                  const void *aux) DG_NODISCARD;

/* Read and check the header only (magic, version, header checksum, file size). */
dg_status dg_checkpoint_read_header(const char *path, dg_checkpoint_header *h) DG_NODISCARD;

/* Read a checkpoint for the run described by `run` (K, N, Np, precision, mesh_hash and the
 * problem hashes are compared; the rest is ignored). A checkpoint written for another order,
 * mesh size, precision, mesh, materials, boundaries, sources, initial state, flux or CFL
 * factor is refused with DG_ERR_INPUT naming every difference; a truncated or
 * corrupt file is DG_ERR_PARSE naming the file. On success q and res (6*K*Np values each)
 * hold the state and *got the stored header (step, time, dt, variant). On failure the
 * contents of q and res are unspecified. */
dg_status dg_checkpoint_read(const char *path, const dg_checkpoint_header *run,
                             dg_checkpoint_header *got, void *q, void *res) DG_NODISCARD;
/* The same with auxiliary values: run->aux is compared too (a checkpoint with another
 * number is refused, naming both), and aux (NULL if run->aux is 0) receives them. */
dg_status dg_checkpoint_read_aux(const char *path, const dg_checkpoint_header *run,
                                 dg_checkpoint_header *got, void *q, void *res,
                                 void *aux) DG_NODISCARD;

#endif

/* The kernel variant space of the OpenCL Maxwell operator (see docs/KERNELS.md): one struct
 * with every dimension, a printable spec string that round-trips, defaults, and the
 * enumeration of the variants a device can run (with the reason each other one was pruned).
 *
 * Spec strings are comma-separated key=value pairs; keys may come in any order and a missing
 * key takes its baseline value, so "" (or "baseline") is the baseline variant. Printing
 * always gives the canonical form: every key, in this order.
 *
 *   path=kernels|clblast   hand-written kernels, or GEMMs through CLBlast + pointwise kernels;
 *                          path=clblast accepts only prec (the other keys do not apply)
 *   work=node|elem|vec     one output node per work-item (one element), or one node of vw
 *                          elements per work-item: elem = vw scalar accumulator sets (matrix
 *                          entries reused from registers), vec = the vw elements are the lanes
 *                          of an OpenCL vector (float4/8/16, double2/4/8). For elem and vec the
 *                          host stores fields element-interleaved (see layout below).
 *                          With work=node and fuse, vw elements per work-item too
 *                          (element_node.cl's register blocking; layout unchanged).
 *   vw=1|2|4|8|16          elements per work-item (>= 2 with elem and vec; with node 1, or
 *                          up to DG_VARIANT_NODE_EPW_MAX with fuse)
 *   kb=1|2|4|8|16          volume kernel: work-items along the element axis per work-group;
 *                          the work-group holds kb*vw elements (dg_variant_block_elems) and
 *                          Np*kb work-items
 *   vplace=none|matrix|field  volume kernel: Dr,Ds,Dt in local memory, the work-group's
 *                          element fields in local memory, or neither (__global / literals)
 *   lkb=..., lplace=...    the same two for the lift kernel (lplace=field: the face fluxes
 *                          in local memory; lift=fused always holds them there, so it takes
 *                          lplace=none|matrix only)
 *   unroll=1|4|full        unrolling of the inner Np (volume) and 4Nfp (lift) loops
 *   ops=arg|literal        operator matrices as kernel arguments, or baked into the source as
 *                          __constant literals (only for N <= DG_VARIANT_LITERAL_MAX_N)
 *   lift=separate|fused|fused-update
 *                          separate flux and lift kernels (+ an update kernel in a time step);
 *                          flux+lift in one kernel (+ update); flux kernel + lift fused with
 *                          the LSERK update
 *   prec=float|double
 *   flux=point|face        flux kernel: one work-item per face node (VW of them with
 *                          work=vec), or one per face of a block's elements (face data
 *                          loaded once, neighbour traces gathered into registers); kernels
 *                          path with lift=separate|fused-update
 *   lnpw=1|2|4             lift kernel: output nodes per work-item (register blocking: every
 *                          flux value loaded feeds lnpw nodes; the work-group is
 *                          ceil(Np/lnpw) x lkb); 4 is accepted but not enumerated (on
 *                          PoCL/AVX-512 its 24 accumulators spill: slower than 2)
 *   fuse=none|rhs|res      one kernel for the whole right-hand side of a block of VL elements
 *                          (volume, fluxes in a private array, lift) in one work-item, so no
 *                          flux array and no rhs read-modify-write cross the memory bus:
 *                          rhs = writes rhs, then the update kernel; res = writes
 *                          res = rk_a res + rk_dt rhs, then q += rk_b res (kernel qupdate).
 *                          Takes work=node|vec and the baseline vplace, lkb, lplace, lift,
 *                          flux; kb is the kernel's work-group size (blocks per group), lnpw
 *                          the nodes that share each flux value loaded in its lift.
 *                          N <= DG_VARIANT_FUSE_MAX_N (the private flux array grows as N^2).
 *                          With work=node (element_node.cl, the GPU form) the work-group is
 *                          Np x kb work-items, one per node of vw elements, the kb x vw
 *                          elements' fields and fluxes in local memory; lnpw=1, any N the
 *                          local memory allows
 *   test=flip|syntax|crash test only, never enumerated: a sign flipped in the volume kernel,
 *                          a syntax error in operator.cl, or the tuner's verification worker
 *                          crashing on it (tune/verify_pool.c); printed only when set
 * Keys added after the first release (flux, lnpw, fuse) are printed only when they differ from the
 * baseline, so every spec written before them is still canonical.
 *
 * Example: "path=kernels,work=vec,vw=16,kb=1,vplace=none,lkb=1,lplace=none,unroll=4,ops=arg,
 * lift=fused-update,prec=float".
 *
 * Device layout (per field, element-major): node n of element k sits at
 *   (k / VL) * NPP * VL + n * VL + k % VL,    VL = vw (1 for work=node and path=clblast)
 * so VL=1 is the plain element-major layout with node stride NPP (Np padded to a multiple of
 * 4), which is also the column-major Np x 6K matrix (ld = NPP) the CLBlast path multiplies. */
#ifndef DG_BACKEND_VARIANT_H
#define DG_BACKEND_VARIANT_H

#include <stddef.h>

#include "contract.h"
#include "core/status.h"
#include "device/device.h"

/* The choices: each enum is generated from its table in cl_templates/contract.h, which also
 * gives its spec words and the names the kernels know it by. */
typedef enum { DG_PATH_CHOICES(DG_CHOICE_ENUM) } dg_path;
typedef enum { DG_WORK_CHOICES(DG_CHOICE_ENUM) } dg_work;
typedef enum { DG_PLACE_CHOICES(DG_CHOICE_ENUM) } dg_place;
typedef enum { DG_LIFT_CHOICES(DG_CHOICE_ENUM) } dg_lift_mode;
typedef enum { DG_PREC_CHOICES(DG_CHOICE_ENUM) } dg_precision;
typedef enum { DG_TEST_CHOICES(DG_CHOICE_ENUM) } dg_variant_test;
typedef enum { DG_FLUX_CHOICES(DG_CHOICE_ENUM) } dg_flux_work;
typedef enum { DG_FUSE_CHOICES(DG_CHOICE_ENUM) } dg_fuse;
enum { DG_FUSE_COUNT = 0 DG_FUSE_CHOICES(DG_CHOICE_COUNT) }; /* none, rhs, res, step */

enum {
  DG_VARIANT_SPEC_MAX = 192,   /* enough for any printed spec */
  DG_VARIANT_LITERAL_MAX_N = 4, /* ops=literal only up to this order */
  DG_VARIANT_FUSE_MAX_N = 6,    /* fuse=rhs|res|step with vector lanes only up to this order */
  DG_VARIANT_NODE_EPW_MAX = 4   /* work=node with fuse: at most this many elements per
                                   work-item (18 accumulators each) */
};

typedef struct {
  dg_path path;
  dg_work work;
  int vw;          /* elements per work-item */
  int kb;          /* volume: work-items along the element axis per work-group */
  dg_place vplace; /* volume placement */
  int lkb;         /* lift: the same */
  dg_place lplace; /* lift placement */
  int unroll;      /* 1, 4, or 0 = full */
  int literal;     /* 1: operators as __constant literals in the source */
  dg_lift_mode lift;
  dg_precision precision;
  dg_variant_test test;
  dg_flux_work flux; /* flux kernel work split */
  int lnpw;          /* lift: output nodes per work-item */
  dg_fuse fuse;      /* whole right-hand side in one kernel per element block */
} dg_variant;

/* "float" / "double", and back (0 if name is neither). */
const char *dg_precision_name(dg_precision p);
int dg_precision_parse(const char *name, dg_precision *p);

/* One element per work-group, one node per work-item, nothing in local memory, no
 * unrolling, separate kernels, float. The reference point of speedups. */
dg_variant dg_variant_baseline(dg_precision precision);

/* A sensible variant for a device until the tuner has run: elements in vector lanes on a
 * CPU, local-memory microblocks on a GPU. */
dg_variant dg_variant_default(const dg_device_info *info, int N, dg_precision precision);

/* The covering variant set: specs without prec that between them take every value of every
 * variant dimension at least once (test_portable_oclgrind_* checks that they do); "" is the
 * baseline, "default" stands for the device's default variant. The Oclgrind table, the edge
 * sizes and multirate tests and the offline vendor compiles (dgtd kernels) run it. */
enum { DG_VARIANT_NCOVER = 18 };
extern const char *const dg_variant_covering[DG_VARIANT_NCOVER];

/* Parse a spec (see above) into *v. Errors (DG_ERR_INPUT) name the offending key or value
 * and list the accepted ones. Parsing checks the spec on its own; whether a device can run
 * it is dg_variant_check's business. */
dg_status dg_variant_parse(const char *spec, dg_variant *v) DG_NODISCARD;

/* Canonical spec of v into buf (at least DG_VARIANT_SPEC_MAX bytes); returns buf. */
const char *dg_variant_print(const dg_variant *v, char *buf, size_t cap);

/* A short name for kernel names: "node", "elem4", "vec16", "blas". */
const char *dg_variant_kernel_suffix(const dg_variant *v, char *buf, size_t cap);

/* Elements per interleaved block in the device layout (vw for elem/vec, else 1). */
int dg_variant_layout_width(const dg_variant *v);

/* Elements one work-item of the fused node kernel computes a node of (element_node.cl's
 * NODE_EPW: vw for work=node with fuse, else 1). */
int dg_variant_node_elems(const dg_variant *v);

/* Elements per work-group of the volume (or fused) kernel: layout width x kb x node
 * elements. Element groups start, and launches cover, whole multiples of it. */
int dg_variant_block_elems(const dg_variant *v);

/* Can info's device run v at order N? Returns 1, or 0 with the reason in reason[cap]
 * (work-group size, local memory, constant memory, fp64, a combination that is not
 * allowed). info may be NULL to check only what does not depend on a device. */
int dg_variant_check(const dg_variant *v, const dg_device_info *info, int N, char *reason,
                     size_t cap);

/* Work-items along the node axis of v's lift work-group at order N: ceil(Np / lnpw). */
int dg_variant_lift_items(const dg_variant *v, int N);

/* Local memory in bytes that v's volume / lift kernel declares at order N. */
size_t dg_variant_local_bytes_volume(const dg_variant *v, int N);
size_t dg_variant_local_bytes_lift(const dg_variant *v, int N);

/* A pruned variant and why. */
typedef struct {
  dg_variant v;
  char reason[128];
} dg_variant_pruned;

/* Every variant of the space at order N and precision prec: the ones info's device can run
 * into *valid (n_valid of them), the others with their reasons into *pruned (if pruned is
 * non-NULL). Free both with dg_free. The space is the product of all dimensions above
 * (thousands of variants); a tuner is expected to search it in stages. */
dg_status dg_variant_enumerate(const dg_device_info *info, int N, dg_precision prec,
                               dg_variant **valid, int *n_valid, dg_variant_pruned **pruned,
                               int *n_pruned) DG_NODISCARD;

/* Sizes shared by the host and the templates: Np, Nfp, node stride NPP and face-flux stride
 * FLUXP (4 Nfp padded), both padded to a multiple of 4. */
int dg_variant_np(int N);
int dg_variant_nfp(int N);
int dg_variant_npp(int N);
int dg_variant_fluxp(int N);

#endif

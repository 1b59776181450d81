/* common.cl: what every dgtd program shares: the real type, the element-interleaved layout
 * of the fields (VL, vreal, VLOAD) and its sizes. The host's #define lines and
 * cl_templates/contract.h come before it (src/backend decides every value; nothing is
 * re-decided here: the defaults below only let a template build on its own). The Maxwell
 * operator's own settings are operator.cl's. */

/* ---- the host's settings, with defaults for building a template alone ---- */

#ifndef DG_DOUBLE /* 1: real_t is double (needs cl_khr_fp64), 0: float */
#define DG_DOUBLE 0
#endif
#ifndef NP /* nodes per element at order N, (N+1)(N+2)(N+3)/6 */
#define NP 4
#endif
#ifndef NPP /* node stride of a field: NP padded to a multiple of 4 */
#define NPP 4
#endif
#ifndef VW /* vector width: elements held in the lanes of one vreal (1 = scalar) */
#define VW 1
#endif
#ifndef EPW /* vreals per work-item, each with its own accumulators (register blocking) */
#define EPW 1
#endif

#if DG_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define REAL double
#else
#define REAL float
#endif
typedef REAL real_t;
#pragma OPENCL FP_CONTRACT ON

#define DG_CAT_(a, b) a##b
#define DG_CAT(a, b) DG_CAT_(a, b)
/* Elements per interleaved block: the fields of VL consecutive elements are stored node by
 * node, (k / VL) * NPP * VL + n * VL + k % VL, so the VW lanes of a vreal are VW elements at
 * the same node and load with one vloadn. VL = 1 is plain element-major. */
#define VL (VW * EPW)
/* The per-element (EG_*), per-face (FD_*) and energy (EW_*) data are interleaved the same
 * way, field by field as contract.h names them. */

#if VW == 1
typedef real_t vreal;
#define VLOAD(p) (*(p))
#define VSTORE(v, p) (*(p) = (v))
#else
typedef DG_CAT(REAL, VW) vreal;
#define VLOAD(p) DG_CAT(vload, VW)(0, (p))
#define VSTORE(v, p) DG_CAT(vstore, VW)((v), 0, (p))
#endif

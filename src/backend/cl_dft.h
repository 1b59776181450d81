/* DFT monitors on the device: the running sums of a dg_dft (dg/dft.h) accumulated by a
 * generated kernel (cl_templates/dft.cl) from the operator's device state after each step,
 * without copying the state back. Sums are in double when the device has fp64, else in
 * float with Kahan compensation; the phase factors are computed in double on the host for
 * each summed step and passed as kernel arguments. */
#ifndef DG_BACKEND_CL_DFT_H
#define DG_BACKEND_CL_DFT_H

#include "backend/cl_maxwell.h"
#include "core/status.h"
#include "dg/dft.h"

typedef struct dg_cl_dft dg_cl_dft;

/* Build and upload for op's state and d's samples (d is borrowed: it must outlive cd, and
 * its sample ranges must be complete). acc: 1 double sums (DG_ERR_INPUT without fp64), 0
 * float with compensation, -1 the device's best. dump_dir as dg_program_build's. */
dg_status dg_cl_dft_create(dg_cl_dft **out, dg_cl_maxwell *op, dg_dft *d, int acc,
                           const char *dump_dir) DG_NODISCARD;
void dg_cl_dft_destroy(dg_cl_dft **cd);
/* Enqueue the sum of the current device state at time t (after every queued step) and
 * count it in d->nsum. */
dg_status dg_cl_dft_accumulate(dg_cl_dft *cd, double t) DG_NODISCARD;
/* Copy the device sums into d->re, d->im (waits for the queue). */
dg_status dg_cl_dft_fetch(dg_cl_dft *cd) DG_NODISCARD;
/* Device time of the accumulation kernels so far (profiling events; waits for them), and
 * whether the sums are in double. */
dg_status dg_cl_dft_kernel_seconds(dg_cl_dft *cd, double *s) DG_NODISCARD;
int dg_cl_dft_acc_double(const dg_cl_dft *cd);

/* Frequencies one launch of the DFT kernel sums (DFT_NF). */
enum { DG_CL_DFT_NF = 2 };

/* The DFT program's source as dg_cl_dft_create builds it, without a device (for offline
 * compilers: dgtd kernels): fields in double or float, sums in double (acc_double) or
 * Kahan-compensated float. Free *src with dg_free. */
dg_status dg_cl_dft_source(int fields_double, int acc_double, char **src) DG_NODISCARD;

#endif

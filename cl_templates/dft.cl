/* dft.cl: running discrete Fourier transforms of the device state (dg/dft.h), one
 * work-item per sample. A sample is a fixed combination of nodal values (a probe's
 * interpolation row, or one node of a volume or surface: one entry of weight 1), given in
 * CSR form with node indices already in the device's field layout and weights in the sums'
 * precision; for each of the six
 * fields and each of this launch's frequencies the kernel adds
 *   re += x c_i,  im -= x s_i      (x e^{-2 pi i f t} every dt)
 * where c_i, s_i are every dt cos/sin(2 pi f_i t), computed in double on the host and
 * passed as arguments (a float sine of a large phase would be wrong by far more than the
 * rounding of its result). Sums are kept in double when the device has it (DFT_ACC_DOUBLE)
 * or else in float with a Kahan compensation per sum (cre, cim), so that adding many small
 * terms to a large sum loses nothing over long runs.
 *
 * Host defines: DG_DOUBLE (the state's real type), DFT_ACC_DOUBLE, DFT_NF (frequencies per
 * launch, the width of the phase vectors: 2, 4, 8 or 16); WG1 (work-group size) is contract.h's. */
#ifndef DG_DOUBLE
#define DG_DOUBLE 0
#endif
#ifndef DFT_ACC_DOUBLE
#define DFT_ACC_DOUBLE 0
#endif
#ifndef DFT_NF
#define DFT_NF 8
#endif

#if DG_DOUBLE || DFT_ACC_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#if DG_DOUBLE
typedef double real_t;
#else
typedef float real_t;
#endif
#if DFT_ACC_DOUBLE
#define ACC double
#else
#define ACC float
/* The compensated sums need every rounding as written: no fused multiply-adds. */
#pragma OPENCL FP_CONTRACT OFF
#endif
typedef ACC acc_t;
#define DFT_CAT_(a, b) a##b
#define DFT_CAT(a, b) DFT_CAT_(a, b)
typedef DFT_CAT(ACC, DFT_NF) phase_t;

__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void dft_accumulate(__global const real_t *restrict q, const int fs,
                    __global const int *restrict start, __global const int *restrict node,
                    __global const acc_t *restrict wt, const int nsamp,
                    const int f0, const int nf,
                    __global acc_t *restrict re, __global acc_t *restrict im,
                    __global acc_t *restrict cre, __global acc_t *restrict cim,
                    const phase_t cv, const phase_t sv) {
  const int s = get_global_id(0);
  if (s >= nsamp) return;
  acc_t c[DFT_NF], sn[DFT_NF];
  DFT_CAT(vstore, DFT_NF)(cv, 0, c);
  DFT_CAT(vstore, DFT_NF)(sv, 0, sn);
  const int e0 = start[s], e1 = start[s + 1];
  for (int f = 0; f < 6; ++f) {
    __global const real_t *u = q + f * fs;
    acc_t x = (acc_t)0;
    for (int e = e0; e < e1; ++e) x += wt[e] * (acc_t)u[node[e]];
    for (int i = 0; i < nf; ++i) {
      const int o = ((f0 + i) * 6 + f) * nsamp + s;
#if DFT_ACC_DOUBLE
      re[o] += x * c[i];
      im[o] -= x * sn[i];
#else
      /* Kahan: y = term - comp; t = sum + y; comp = (t - sum) - y; sum = t. */
      acc_t y = x * c[i] - cre[o];
      acc_t t = re[o] + y;
      cre[o] = (t - re[o]) - y;
      re[o] = t;
      y = -(x * sn[i]) - cim[o];
      t = im[o] + y;
      cim[o] = (t - im[o]) - y;
      im[o] = t;
#endif
    }
  }
}

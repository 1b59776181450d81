/* blas_pointwise.cl: the pointwise kernel of the CLBlast path. One GEMM gives the reference
 * derivatives D = [Dr; Ds; Dt] Q of all fields (column c = f*kpad + k holds element k of
 * field f: dr at D[c*3*NPP + n], ds at +NPP, dt at +2*NPP); this kernel turns them into
 *   rhs_E = (curl H)/eps - (sigma/eps) E,   rhs_H = -(curl E)/mu
 * in the plain element-major layout (VL = 1). A second GEMM adds LIFT * flux to rhs. */

__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(curl)(__global const real_t *restrict D, __global const real_t *restrict q,
                 __global const real_t *restrict egeo, __global real_t *restrict rhs) {
  const int i = get_global_id(0);
  const int fs = get_global_size(0);
  const int kpad = fs / NPP;
  const int k = i / NPP;
  const int n = i - k * NPP;
  if (n >= NP) {
    for (int f = 0; f < 6; ++f) rhs[f * fs + i] = 0;
    return;
  }
  __global const real_t *g = egeo + k * EG;
#define DER(f, d) D[((f) * kpad + k) * 3 * NPP + (d) * NPP + n]
#define DX(f) (g[EG_RX] * DER(f, 0) + g[EG_SX] * DER(f, 1) + g[EG_TX] * DER(f, 2))
#define DY(f) (g[EG_RY] * DER(f, 0) + g[EG_SY] * DER(f, 1) + g[EG_TY] * DER(f, 2))
#define DZ(f) (g[EG_RZ] * DER(f, 0) + g[EG_SZ] * DER(f, 1) + g[EG_TZ] * DER(f, 2))
  const real_t ieps = g[EG_INV_EPS], imu = g[EG_INV_MU], sige = g[EG_SIGMA_EPS];
  rhs[i] = ieps * (DY(5) - DZ(4)) - sige * q[i];
  rhs[fs + i] = ieps * (DZ(3) - DX(5)) - sige * q[fs + i];
  rhs[2 * fs + i] = ieps * (DX(4) - DY(3)) - sige * q[2 * fs + i];
  rhs[3 * fs + i] = -imu * (DY(2) - DZ(1));
  rhs[4 * fs + i] = -imu * (DZ(0) - DX(2));
  rhs[5 * fs + i] = -imu * (DX(1) - DY(0));
#undef DER
#undef DX
#undef DY
#undef DZ
}

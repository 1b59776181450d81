/* pml.cl: the CFS-PML (src/dg/pml.h) on the list of PML nodes only, so elements outside the
 * layer pay nothing. Work-item j is PML node j (node n of the e-th PML element, j = e NP + n);
 * node[j] is its index in the field layout. For each field component, with c its ordinary
 * right-hand side (curl + lifted flux - conductivity, as the other kernels computed it):
 *
 *   u1 = c - s_a w1;  u2 = u1 - s_b w2;  u3 = u2 + s_d w3;  PML rhs = gamma_d u3
 *   dw1/dt = c - beta_a w1;  dw2/dt = u1 - beta_b w2;  dw3/dt = u2 - alpha_d w3
 *
 * (d the component's direction, a, b the other two in cyclic order). The stage has already
 * used c, so the kernel adds the correction corr = gamma_d u3 - c where c went:
 * out_a += sa corr, out_b += sb corr (out_a = res, sa = dt, out_b = q, sb = b dt after an
 * update; out_a = rhs or res, sa = 1, sb = 0 for the right-hand side alone), like the point
 * sources (source.cl), and advances the auxiliary fields by the same LSERK stage
 * (wres = rk_a wres + rk_dt dw/dt, w += rk_b wres; (0, 1, 0) leaves dw/dt in wres).
 * c is read from cbuf (rhs); with the lift fused into the update (liftupdate) the stage left
 * res = rk_a res_old + rk_dt c instead (so do rhsres and rhsstep), and pmlsave kept res_old
 * of the PML nodes in saved. out_a and cbuf may be one buffer, so they are not restrict.
 * Both kernels cover the nodes below j_end (npn: all; the multirate stepper launches one
 * rate level's range of nodes with a global offset). */

__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(pmlsave)(__global const real_t *restrict res, __global real_t *restrict saved,
                    __global const int *restrict node, const int fs, const int npn,
                    const int j_end) {
  const int j = get_global_id(0);
  if (j >= j_end) return;
  const int o = node[j];
  for (int f = 0; f < 6; ++f) saved[f * npn + j] = res[f * fs + o];
}

__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(pml)(__global real_t *out_a, __global real_t *out_b, __global const real_t *cbuf,
                __global const real_t *restrict saved, __global real_t *restrict w,
                __global real_t *restrict wres, __global const real_t *restrict coef,
                __global const int *restrict node, const int fs, const int npn,
                const real_t rk_a, const real_t rk_dt, const real_t rk_b, const real_t sa,
                const real_t sb, const int j_end) {
  const int j = get_global_id(0);
  if (j >= j_end) return;
  const int o = node[j];
  real_t s[3], beta[3], alpha[3], gam[3];
  for (int d = 0; d < 3; ++d) {
    s[d] = coef[d * npn + j];
    beta[d] = coef[(3 + d) * npn + j];
    alpha[d] = coef[(6 + d) * npn + j];
    gam[d] = coef[(9 + d) * npn + j];
  }
#pragma unroll
  for (int f = 0; f < 6; ++f) {
    const int d = f % 3, a = (d + 1) % 3, b = (d + 2) % 3;
#if RESULT_IN_RES
    const real_t c = (cbuf[f * fs + o] - rk_a * saved[f * npn + j]) / rk_dt;
#else
    const real_t c = cbuf[f * fs + o];
#endif
    const int i1 = (3 * f) * npn + j, i2 = i1 + npn, i3 = i2 + npn;
    const real_t w1 = w[i1], w2 = w[i2], w3 = w[i3];
    const real_t u1 = c - s[a] * w1;
    const real_t u2 = u1 - s[b] * w2;
    const real_t u3 = u2 + s[d] * w3;
    const real_t corr = gam[d] * u3 - c;
    out_a[f * fs + o] += sa * corr;
    out_b[f * fs + o] += sb * corr;
    const real_t r1 = rk_a * wres[i1] + rk_dt * (c - beta[a] * w1);
    const real_t r2 = rk_a * wres[i2] + rk_dt * (u1 - beta[b] * w2);
    const real_t r3 = rk_a * wres[i3] + rk_dt * (u2 - alpha[d] * w3);
    wres[i1] = r1;
    wres[i2] = r2;
    wres[i3] = r3;
    w[i1] = w1 + rk_b * r1;
    w[i2] = w2 + rk_b * r2;
    w[i3] = w3 + rk_b * r3;
  }
}

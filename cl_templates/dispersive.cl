/* dispersive.cl: the poles of dispersive media (Debye, Drude, Lorentz in ADE form,
 * src/dg/dispersive.h) on the list of dispersive nodes only, so plain elements pay nothing.
 * Work-item j is dispersive node j (node n of the e-th dispersive element, j = e NP + n);
 * node[j] is its index in the field layout. Element e's data are DE ints at delem[e DE]
 * (contract.h: its first pole state's offset, its poles [DE_P0, DE_P1) in the pole tables)
 * and 1/eps_inf at inv_eps[e]; pole p's type is ptype[p] (POLE_*) and its coefficients PC
 * reals at pcoef[p PC]. The pole states are laid out as the reference's
 * (dg_maxwell_pole_size): state s of the element's poles, component c, node n at
 * off + (3 s + c) NP + n. Per pole and component, with E the field at the stage's start:
 *
 *   Debye    J = (delta_eps E - P) / tau;     dP/dt = J
 *   Drude    J (state);                       dJ/dt = omega_p^2 E - gamma J
 *   Lorentz  J (state), P;                    dP/dt = J,
 *                                             dJ/dt = omega_0^2 (delta_eps E - P) - 2 delta J
 *
 * and the E rows of the right-hand side gain corr = -sum_p J_p / eps_inf. The stage has
 * already used its ordinary right-hand side, so the kernel adds corr where it went:
 * out_a += sa corr, out_b += sb corr (res and q after an update: sa = dt, sb = b dt; the
 * right-hand side alone: rhs or res, sa = 1, sb = 0), as pml.cl and source.cl do, and
 * advances the pole states by the same LSERK stage (wres = rk_a wres + rk_dt dw/dt,
 * w += rk_b wres; (0, 1, 0) leaves dw/dt in wres). The update may have moved q before the
 * kernel runs (a fused update, fuse=res, or the update kernel), so dispsave keeps E of the
 * dispersive nodes at the stage's start in saved (3 x ndn) and the kernel reads it there. */

__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(dispsave)(__global const real_t *restrict q, __global real_t *restrict saved,
                     __global const int *restrict node, const int fs, const int ndn) {
  const int j = get_global_id(0);
  if (j >= ndn) return;
  const int o = node[j];
  for (int c = 0; c < 3; ++c) saved[c * ndn + j] = q[c * fs + o];
}

__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(disp)(__global real_t *out_a, __global real_t *out_b,
                 __global const real_t *restrict saved, __global real_t *restrict w,
                 __global real_t *restrict wres, __global const int *restrict delem,
                 __global const real_t *restrict inv_eps, __global const int *restrict ptype,
                 __global const real_t *restrict pcoef, __global const int *restrict node,
                 const int fs, const int ndn, const real_t rk_a, const real_t rk_dt,
                 const real_t rk_b, const real_t sa, const real_t sb) {
  const int j = get_global_id(0);
  if (j >= ndn) return;
  const int e = j / NP, n = j - e * NP, o = node[j];
  real_t E[3], Jsum[3];
  for (int c = 0; c < 3; ++c) {
    E[c] = saved[c * ndn + j];
    Jsum[c] = 0;
  }
  int off = delem[e * DE + DE_OFF] + n; /* this pole's first state, component x, node n */
  const int p1 = delem[e * DE + DE_P1];
  for (int p = delem[e * DE + DE_P0]; p < p1; ++p) {
    const int type = ptype[p];
    const real_t strength = pcoef[p * PC + PC_STRENGTH], rate = pcoef[p * PC + PC_RATE];
    const real_t damp = pcoef[p * PC + PC_DAMP];
    for (int c = 0; c < 3; ++c) {
      const int i0 = off + c * NP, i1 = off + (3 + c) * NP;
      real_t J, d0;
      if (type == POLE_DEBYE) {
        J = (strength * E[c] - w[i0]) * rate;
        d0 = J;
      } else if (type == POLE_DRUDE) {
        J = w[i0];
        d0 = strength * E[c] - damp * J;
      } else { /* POLE_LORENTZ */
        const real_t P = w[i0];
        J = w[i1];
        d0 = J;
        const real_t r1 = rk_a * wres[i1] + rk_dt * (rate * (strength * E[c] - P) - damp * J);
        wres[i1] = r1;
        w[i1] = J + rk_b * r1;
      }
      const real_t r0 = rk_a * wres[i0] + rk_dt * d0;
      wres[i0] = r0;
      w[i0] += rk_b * r0;
      Jsum[c] += J;
    }
    off += (type == POLE_LORENTZ ? 6 : 3) * NP;
  }
  for (int c = 0; c < 3; ++c) {
    const real_t corr = -Jsum[c] * inv_eps[e];
    out_a[c * fs + o] += sa * corr;
    out_b[c * fs + o] += sb * corr;
  }
}

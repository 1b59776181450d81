/* pml.cl: the CFS-PML (src/dg/pml.h) on the PML elements only, so elements outside the
 * layer pay nothing. PML node j is node n of the e-th PML element, j = e NP + n; node[j] is
 * its index in the field layout. For each field component, with c its ordinary right-hand
 * side (curl + lifted flux - conductivity, as the other kernels computed it), on each PML
 * element (dg/pml.h, with the element's matrices S and G):
 *
 *   A = S_a w1;  B = S_b w2;  D = S_d w3;  u3 = c - A - B + D;  PML rhs = G_d u3
 *   dw1/dt = c - alpha_a w1 - A;  dw2/dt = c - A - alpha_b w2 - B;
 *   dw3/dt = c - A - B - alpha_d w3
 *
 * (d the component's direction, a, b the other two in cyclic order). The stage has already
 * used c, so the kernel adds the correction corr = G_d u3 - c where c went:
 * out_a += sa corr, out_b += sb corr (out_a = res, sa = dt, out_b = q, sb = b dt after an
 * update; out_a = rhs or res, sa = 1, sb = 0 for the right-hand side alone), like the point
 * sources (source.cl), and advances the auxiliary fields by the same LSERK stage
 * (wres = rk_a wres + rk_dt dw/dt, w += rk_b wres; (0, 1, 0) leaves dw/dt in wres).
 * c is read from cbuf (rhs); with the lift fused into the update (liftupdate) the stage left
 * res = rk_a res_old + rk_dt c instead (so do rhsres and rhsstep), and pmlsave kept res_old
 * of the PML nodes in saved. out_a and cbuf may be one buffer, so they are not restrict.
 * Each kernel covers the PML nodes below j_end (all, or a stage of the multirate stepper's
 * rate level, launched with a global offset). */

__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(pmlsave)(__global const real_t *restrict res, __global real_t *restrict saved,
                    __global const int *restrict node, const int fs, const int npn,
                    const int j_end) {
  const int j = get_global_id(0);
  if (j >= j_end) return;
  const int o = node[j];
  for (int f = 0; f < 6; ++f) saved[f * npn + j] = res[f * fs + o];
}

/* The PML node j's c: the stage's right-hand side of field f at field-layout index o. (The
 * helpers take no restrict pointers: inlined, those become LLVM scope declarations that
 * Oclgrind cannot run.) */
inline real_t pml_c(__global const real_t *cbuf, __global const real_t *saved,
                    const int f, const int fs, const int o, const int npn, const int j,
                    const real_t rk_a, const real_t rk_dt) {
#if RESULT_IN_RES
  return (cbuf[f * fs + o] - rk_a * saved[f * npn + j]) / rk_dt;
#else
  (void)saved, (void)npn, (void)j, (void)rk_a, (void)rk_dt;
  return cbuf[f * fs + o];
#endif
}

/* Row n of matrix k (mats holds them transposed: entry (i, j) of k at (k NP + j) NP + i)
 * times the NP values at v. */
inline real_t pml_row(__global const real_t *mats, const int k, const int n,
                      __global const real_t *v) {
  __global const real_t *col = mats + (size_t)k * NP * NP + n;
  real_t r = 0;
  for (int m = 0; m < NP; ++m) r += col[m * NP] * v[m];
  return r;
}

/* pml: per PML node j (element e = j / NP, node n), the products A, B, D of its element's w
 * with the element's matrices (mat_of[6 e + i], S_x..G_z, -1: S zero, G the identity), u3
 * into pu3 and the auxiliary fields' stage residual; w itself is read here by the element's
 * other nodes, so pmlend advances it. */
__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(pml)(__global const real_t *cbuf, __global const real_t *restrict saved,
                __global const real_t *restrict w, __global real_t *restrict wres,
                __global real_t *restrict pu3, __global const real_t *restrict mats,
                __global const int *restrict mat_of, __global const real_t *restrict alpha,
                __global const int *restrict node, const int fs, const int npn,
                const real_t rk_a, const real_t rk_dt, const int j_end) {
  const int j = get_global_id(0);
  if (j >= j_end) return;
  const int e = j / NP, n = j - e * NP, o = node[j];
  for (int f = 0; f < 6; ++f) {
    const int d = f % 3, a = (d + 1) % 3, b = (d + 2) % 3;
    const int i1 = (3 * f) * npn + j, i2 = i1 + npn, i3 = i2 + npn, e0 = e * NP - j;
    const real_t c = pml_c(cbuf, saved, f, fs, o, npn, j, rk_a, rk_dt);
    const int ma = mat_of[6 * e + a], mb = mat_of[6 * e + b], md = mat_of[6 * e + d];
    const real_t A = ma >= 0 ? pml_row(mats, ma, n, w + i1 + e0) : 0;
    const real_t B = mb >= 0 ? pml_row(mats, mb, n, w + i2 + e0) : 0;
    const real_t D = md >= 0 ? pml_row(mats, md, n, w + i3 + e0) : 0;
    pu3[f * npn + j] = c - A - B + D;
    wres[i1] = rk_a * wres[i1] + rk_dt * (c - alpha[3 * e + a] * w[i1] - A);
    wres[i2] = rk_a * wres[i2] + rk_dt * (c - A - alpha[3 * e + b] * w[i2] - B);
    wres[i3] = rk_a * wres[i3] + rk_dt * (c - A - B - alpha[3 * e + d] * w[i3]);
  }
}

/* pmlend: per PML node, w advanced (w += rk_b wres) and the right-hand side's correction,
 * G_d u3 - c, added where c went. */
__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(pmlend)(__global real_t *out_a, __global real_t *out_b, __global const real_t *cbuf,
                   __global const real_t *restrict saved, __global real_t *restrict w,
                   __global const real_t *restrict wres, __global const real_t *restrict pu3,
                   __global const real_t *restrict mats, __global const int *restrict mat_of,
                   __global const int *restrict node, const int fs, const int npn,
                   const real_t rk_a, const real_t rk_dt, const real_t rk_b, const real_t sa,
                   const real_t sb, const int j_end) {
  const int j = get_global_id(0);
  if (j >= j_end) return;
  const int e = j / NP, n = j - e * NP, o = node[j];
  for (int i = 0; i < 18; ++i) w[i * npn + j] += rk_b * wres[i * npn + j];
  for (int f = 0; f < 6; ++f) {
    const int mg = mat_of[6 * e + 3 + f % 3];
    const real_t c = pml_c(cbuf, saved, f, fs, o, npn, j, rk_a, rk_dt);
    const real_t r = mg >= 0 ? pml_row(mats, mg, n, pu3 + f * npn + e * NP) : pu3[f * npn + j];
    out_a[f * fs + o] += sa * (r - c);
    out_b[f * fs + o] += sb * (r - c);
  }
}

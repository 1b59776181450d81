/* multirate.cl: the Adams-Bashforth updates of the multirate stepper (dg/multirate.h for the
 * scheme, src/backend/cl_multirate.c for the order of launches). The right-hand sides come
 * from the Maxwell kernels launched over one rate level's range of element slots; these
 * kernels combine them. Built as its own small program after common.cl (real_t, VL, NPP).
 *
 * The kernels over lists of elements (dense, traj_record, traj_eval, dense_at) are launched
 * NP x count, in work-groups of NP x (WG1 / NP) (not the runtime's choice, which may be NP
 * items alone: thousands of tiny groups on a CPU device), the count rounded up to them.
 *
 * Ranged kernels (complete, copy, lserk) are launched 2D: dimension 0 over the slots' nodes
 * [i0, i1) of a field (global offset i0; a level's slots are contiguous in each field,
 * dg_cl_maxwell_create_grouped), dimension 1 over the 6 fields; the global size is rounded
 * up to whole work-groups, hence the i1 bound. The coefficients come premultiplied by the
 * step, so each is q + c0 f0 + c1 f1 + c2 f2. */

/* Node n of the element in slot k, within a field (the layout of backend/cl_maxwell.h; VL
 * is a power of two: a mask, not k % VL, beside k / VL, see energy.cl). */
int mr_node(int k, int n) { return (k / VL) * NPP * VL + n * VL + (k & (VL - 1)); }

/* A level completes its AB3 step: q = q + c0 f0 + c1 f1 + c2 f2, and the evaluation state
 * qe takes the new value. */
__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void mr_complete(__global real_t *restrict q, __global real_t *restrict qe,
                 __global const real_t *restrict f0, __global const real_t *restrict f1,
                 __global const real_t *restrict f2, const int fs, const int i1,
                 const real_t c0, const real_t c1, const real_t c2) {
  const int i = get_global_id(0);
  if (i >= i1) return;
  const int j = get_global_id(1) * fs + i;
  const real_t r = q[j] + c0 * f0[j] + c1 * f1[j] + c2 * f2[j];
  q[j] = r;
  qe[j] = r;
}

/* The dense output of coarse elements next to a finer level that is due: for the elements
 * whose slots are list[first .. first + n), qe = q + c0 f0 + c1 f1 + c2 f2 (the AB3
 * polynomial part-way through their step). Work-item (node, entry); launched NP x n. */
__kernel void mr_dense(__global real_t *restrict qe, __global const real_t *restrict q,
                       __global const real_t *restrict f0, __global const real_t *restrict f1,
                       __global const real_t *restrict f2, const int fs,
                       __global const int *restrict list, const int first,
                       const real_t c0, const real_t c1, const real_t c2, const int count) {
  const int n = get_global_id(0);
  if ((int)get_global_id(1) >= count) return;
  const int base = mr_node(list[first + get_global_id(1)], n);
  for (int f = 0; f < 6; ++f) {
    const int j = f * fs + base;
    qe[j] = q[j] + c0 * f0[j] + c1 * f1[j] + c2 * f2[j];
  }
}

/* A PML level's auxiliary fields complete their AB3 step: w += c0 f0 + c1 f1 + c2 f2
 * (dimension 1 over the DG_PML_AUX arrays of stride fs = npn; they need no evaluation copy:
 * only their own element reads them). */
__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void mr_advance(__global real_t *restrict w, __global const real_t *restrict f0,
                __global const real_t *restrict f1, __global const real_t *restrict f2,
                const int fs, const int i1, const real_t c0, const real_t c1, const real_t c2) {
  const int i = get_global_id(0);
  if (i >= i1) return;
  const int j = get_global_id(1) * fs + i;
  w[j] += c0 * f0[j] + c1 * f1[j] + c2 * f2[j];
}

/* dst = src over the range, and dst2 = src (dst2 not NULL): a level's new right-hand side
 * into its history; in multirate LSERK4 the state into the evaluation state and the step
 * start. */
__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void mr_copy(__global real_t *restrict dst, __global const real_t *restrict src, const int fs,
             const int i1, __global real_t *restrict dst2) {
  const int i = get_global_id(0);
  if (i >= i1) return;
  const int j = get_global_id(1) * fs + i;
  dst[j] = src[j];
  if (dst2) dst2[j] = src[j];
}

/* One LSERK4 stage of the start-up steps: res = a res + dt F; q += b res. The first stage
 * (a = 0) does not read res, so no residual needs zeroing between runs. */
__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void mr_lserk(__global real_t *restrict q, __global real_t *restrict res,
              __global const real_t *restrict F, const int fs, const int i1, const real_t a,
              const real_t dt, const real_t b) {
  const int i = get_global_id(0);
  if (i >= i1) return;
  const int j = get_global_id(1) * fs + i;
  real_t r = dt * F[j];
  if (a != (real_t)0) r += a * res[j];
  res[j] = r;
  q[j] += b * r;
}

/* ---- all due levels in one launch ----
 * The due levels 0..d are contiguous in the layout (and in the PML node list), so one launch
 * covers them; each item finds its level from bnd (the levels' first items, bnd[l] <= i <
 * bnd[l+1], ascending) and its history from heads (2 bits per level: the buffer f0_l of its
 * latest evaluation; f_j of level l is hist[(f0_l + j b_l) % 3] of h0, h1, h2, b_l = 2 for
 * even l, 1 for odd l, as src/backend/cl_multirate.c explains). Level l's step is 2^l h_0, so
 * c0..c2 come times h_0 and are scaled here. */

/* The level of item i (i >= bnd[0]). */
int mr_level_of(__global const int *bnd, int i) {
  int l = 0;
  while (i >= bnd[l + 1]) ++l;
  return l;
}

/* The history buffer j steps back of level l. */
__global const real_t *mr_hist(__global const real_t *h0, __global const real_t *h1,
                               __global const real_t *h2, int heads, int l, int j) {
  int s = ((heads >> (2 * l)) & 3) + j * ((l & 1) ? 1 : 2);
  while (s >= 3) s -= 3;
  return s == 0 ? h0 : s == 1 ? h1 : h2;
}

__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void mr_complete_levels(__global real_t *restrict q, __global real_t *restrict qe,
                        __global const real_t *restrict h0, __global const real_t *restrict h1,
                        __global const real_t *restrict h2, const int fs, const int i1,
                        __global const int *restrict bnd, const int heads, const real_t c0,
                        const real_t c1, const real_t c2) {
  const int i = get_global_id(0);
  if (i >= i1) return;
  const int l = mr_level_of(bnd, i);
  const int j = get_global_id(1) * fs + i;
  const real_t h = (real_t)(1 << l);
  const real_t r = q[j] + h * (c0 * mr_hist(h0, h1, h2, heads, l, 0)[j] +
                               c1 * mr_hist(h0, h1, h2, heads, l, 1)[j] +
                               c2 * mr_hist(h0, h1, h2, heads, l, 2)[j]);
  q[j] = r;
  if (qe) qe[j] = r;
}

/* ---- multirate LSERK4 (dg/multirate.h, DG_MR_LSERK4): the trajectories of the elements
 * next to a coarser level ----
 * Entry e is ent[MR_ENT * e ..]: the element's slot, its level, the level top of its
 * coarsest neighbour, and the offsets in tq and tf of its trajectory over the current step
 * of level top: P + 1 states and P right-hand sides (P = 2^(top - level)), point-major, then
 * field, then node. Work-item (node, entry). */

/* Trajectory points for the entries first .. first + n at sub-time m, p = (m mod span) >>
 * lvl (span = 2^top):
 *   f NULL: the state q after a completed step, at point p, or P where m ends the step of
 *   level top;
 *   f given: the right-hand side f at point p, and where m starts the step of level top
 *   also the state q at point 0. */
__kernel void mr_traj_record(__global real_t *restrict tq, __global real_t *restrict tf,
                             __global const real_t *restrict q, __global const real_t *restrict f,
                             const int fs, __global const int *restrict ent, const int first,
                             const int m, const int count) {
  const int n = get_global_id(0);
  if ((int)get_global_id(1) >= count) return;
  __global const int *E = ent + MR_ENT * (first + (int)get_global_id(1));
  const int j = E[MR_LVL], span = 1 << E[MR_TOP], r = m & (span - 1);
  const int base = mr_node(E[MR_SLOT], n);
  __global real_t *Q = tq + E[MR_OFFQ] + n, *Fp = tf + E[MR_OFFF] + n;
  if (!f) {
    const int p = r ? r >> j : span >> j;
    for (int c = 0; c < 6; ++c) Q[(p * 6 + c) * NP] = q[c * fs + base];
    return;
  }
  for (int c = 0; c < 6; ++c) Fp[((r >> j) * 6 + c) * NP] = f[c * fs + base];
  if (!r)
    for (int c = 0; c < 6; ++c) Q[c * NP] = q[c * fs + base];
}

/* qe of the entries list[first ..] at sub-time tau, inside the step of level l that starts
 * at sub-time T: the quadratic through the state and f at the trajectory point before tau
 * and the state at the one after (dg/stepper_multirate.c, traj_eval); h0 the finest step. */
__kernel void mr_traj_eval(__global real_t *restrict qe, __global const real_t *restrict tq,
                           __global const real_t *restrict tf, const int fs,
                           __global const int *restrict ent, __global const int *restrict list,
                           const int first, const int T, const real_t tau, const real_t h0,
                           const int count) {
  const int n = get_global_id(0);
  if ((int)get_global_id(1) >= count) return;
  __global const int *E = ent + MR_ENT * list[first + get_global_id(1)];
  const int j = E[MR_LVL], top = E[MR_TOP], P = 1 << (top - j), tb = (T >> top) << top;
  int p = (int)floor((tau - (real_t)tb) / (real_t)(1 << j));
  p = p < 0 ? 0 : p > P - 1 ? P - 1 : p;
  const real_t hj = h0 * (real_t)(1 << j);
  const real_t x = (tau - (real_t)tb - (real_t)(p << j)) * h0, r = x / hj;
  const int base = mr_node(E[MR_SLOT], n);
  __global const real_t *Q = tq + E[MR_OFFQ] + n, *Fp = tf + E[MR_OFFF] + n;
  for (int f = 0; f < 6; ++f) {
    const real_t qa = Q[(p * 6 + f) * NP], qb = Q[((p + 1) * 6 + f) * NP];
    const real_t fa = Fp[(p * 6 + f) * NP];
    qe[f * fs + base] = qa + fa * x + (qb - qa - fa * hj) * r * r;
  }
}

/* The AB3 polynomials of elements of several levels at once (mr_dense for each level): the
 * elements in slots list[first ..], each of the level whose slots hold it (bnd, in node
 * items), at sub-time tau inside its step that started at or before the sub-time T (the
 * latest multiple of 2^l); heads as for mr_complete_levels; h0 the finest step. */
__kernel void mr_dense_at(__global real_t *restrict qe, __global const real_t *restrict q,
                          __global const real_t *restrict h0b, __global const real_t *restrict h1b,
                          __global const real_t *restrict h2b, const int fs,
                          __global const int *restrict list, const int first,
                          __global const int *restrict bnd, const int heads, const int T,
                          const real_t tau, const real_t h0, const int count) {
  if ((int)get_global_id(1) >= count) return;
  const int n = get_global_id(0), k = list[first + get_global_id(1)];
  const int l = mr_level_of(bnd, k * NPP), tc = (T >> l) << l;
  const real_t th = (tau - (real_t)tc) / (real_t)(1 << l), t2 = th * th, t3 = t2 * th;
  const real_t h = h0 * (real_t)(1 << l);
  const real_t c0 = h * (t3 / 6 + (real_t)0.75 * t2 + th), c1 = -h * (t3 / 3 + t2),
               c2 = h * (t3 / 6 + (real_t)0.25 * t2);
  __global const real_t *f0 = mr_hist(h0b, h1b, h2b, heads, l, 0),
                        *f1 = mr_hist(h0b, h1b, h2b, heads, l, 1),
                        *f2 = mr_hist(h0b, h1b, h2b, heads, l, 2);
  const int base = mr_node(k, n);
  for (int f = 0; f < 6; ++f) {
    const int j = f * fs + base;
    qe[j] = q[j] + c0 * f0[j] + c1 * f1[j] + c2 * f2[j];
  }
}

/* One LSERK4 stage of a level in multirate LSERK4, fields and PML auxiliary fields: rows
 * 0..5 of dimension 1 are the fields over items [i0, i1) (res = a res + dt F, q += b res,
 * qe = q: the next stage evaluates qe), rows 6.. the auxiliary arrays (stride ws) over PML
 * items [j0, j1) (w, wres, wF; no evaluation copy). Dimension 0 counts items from i0 and from
 * j0 alike (no global offset there); the host launches the field rows and the auxiliary rows
 * (a global offset of 6 in dimension 1) separately, each as long as its range. */
__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void mr_stage(__global real_t *restrict q, __global real_t *restrict qe,
              __global real_t *restrict res, __global const real_t *restrict F, const int fs,
              const int i0, const int i1, __global real_t *restrict w,
              __global real_t *restrict wres, __global const real_t *restrict wF, const int ws,
              const int j0, const int j1, const real_t a, const real_t dt, const real_t b) {
  const int x = get_global_id(0), row = get_global_id(1);
  if (row < 6) {
    const int i = i0 + x;
    if (i >= i1) return;
    const int j = row * fs + i;
    const real_t r = dt * F[j] + (a != (real_t)0 ? a * res[j] : (real_t)0);
    res[j] = r;
    const real_t y = q[j] + b * r;
    q[j] = y;
    qe[j] = y;
  } else {
    const int i = j0 + x;
    if (i >= j1) return;
    const int j = (row - 6) * ws + i;
    const real_t r = dt * wF[j] + (a != (real_t)0 ? a * wres[j] : (real_t)0);
    wres[j] = r;
    w[j] += b * r;
  }
}

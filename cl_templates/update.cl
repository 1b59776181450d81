/* update.cl: one LSERK stage's axpys over all 6 fields,
 *   res = rk_a res + rk_dt rhs;  q = q + rk_b res
 * (update), or only the second (qupdate, after the fused rhsres kernel of element.cl); and
 * qcopy, dst = src, which brings q home to its first buffer after a step of rhsstep stages
 * (an odd number of them leaves it in the second).
 * Two reals per work-item: with one float each, an H100 moved 67% of its bandwidth in
 * these kernels against 100% with one double (too few bytes in flight per work-item). */
#define REAL2 DG_CAT(REAL, 2)

__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(update)(__global real_t *restrict q, __global real_t *restrict res,
                   __global const real_t *restrict rhs, const real_t rk_a, const real_t rk_dt,
                   const real_t rk_b) {
  const int i = get_global_id(0);
  const REAL2 r = rk_a * vload2(i, res) + rk_dt * vload2(i, rhs);
  vstore2(r, i, res);
  vstore2(vload2(i, q) + rk_b * r, i, q);
}

__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(qupdate)(__global real_t *restrict q, __global const real_t *restrict res,
                    const real_t rk_b) {
  const int i = get_global_id(0);
  vstore2(vload2(i, q) + rk_b * vload2(i, res), i, q);
}
__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(qcopy)(__global real_t *restrict dst, __global const real_t *restrict src) {
  const int i = get_global_id(0);
  vstore2(vload2(i, src), i, dst);
}
#undef REAL2

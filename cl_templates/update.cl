/* update.cl: one LSERK stage's axpys over all 6 fields,
 *   res = rk_a res + rk_dt rhs;  q = q + rk_b res
 * (update), or only the second (qupdate, after the fused rhsres kernel of element.cl). */

__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(update)(__global real_t *restrict q, __global real_t *restrict res,
                   __global const real_t *restrict rhs, const real_t rk_a, const real_t rk_dt,
                   const real_t rk_b) {
  const int i = get_global_id(0);
  const real_t r = rk_a * res[i] + rk_dt * rhs[i];
  res[i] = r;
  q[i] += rk_b * r;
}

__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(qupdate)(__global real_t *restrict q, __global const real_t *restrict res,
                    const real_t rk_b) {
  const int i = get_global_id(0);
  q[i] += rk_b * res[i];
}

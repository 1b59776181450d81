/* source.cl: point currents (dipoles) applied to an LSERK stage after its update. With
 * s = dir g(t + c dt) profile / eps on the nodes of the source's element (dg/source.h), the
 * stage res = a res + dt (rhs - s); q += b res is the sourceless update followed by
 *   out_a -= ga P,   out_b -= gb P      (out_a = res, ga = dt g; out_b = q, gb = b dt g),
 * which works whether or not the update was fused into the lift kernel. For the RHS alone:
 * out_a = rhs, ga = g, gb = 0. P = dir profile / eps (3 x NP per source) is uploaded once;
 * the host evaluates g per source and stage and passes up to 16 of them per launch in one
 * real16 argument. Work-item (c, n) treats component c at node n of every source in turn,
 * so two sources in one element never race. */

typedef DG_CAT(REAL, 16) real16_t;

__kernel __attribute__((reqd_work_group_size(WG1, 1, 1)))
void KNAME(source)(__global real_t *restrict out_a, __global real_t *restrict out_b,
                   const int fs, __global const real_t *restrict prof,
                   __global const int *restrict node, const int first, const int count,
                   const real16_t ga, const real16_t gb) {
  const int i = get_global_id(0);
  if (i >= 3 * NP) return;
  const int c = i / NP;
  const int n = i - c * NP;
  real_t a[16], b[16];
  vstore16(ga, 0, a);
  vstore16(gb, 0, b);
  for (int s = 0; s < count; ++s) {
    const real_t p = prof[((first + s) * 3 + c) * NP + n];
    const int o = c * fs + node[(first + s) * NP + n];
    out_a[o] -= a[s] * p;
    out_b[o] -= b[s] * p;
  }
}

/* halo.cl: gather the face traces an MPI rank sends to its neighbours into one buffer, and
 * scatter the traces it receives into its ghost elements (part/dist.h). The slot arrays hold
 * device indices into the 6-field state; the host computes them once. Built as its own small
 * program after common.cl (for real_t). */

__kernel void halo_pack(__global const real_t *q, __global const int *slot,
                        __global real_t *buf, const int n) {
  const int i = get_global_id(0);
  if (i < n) buf[i] = q[slot[i]];
}

__kernel void halo_unpack(__global real_t *q, __global const int *slot,
                          __global const real_t *buf, const int n) {
  const int i = get_global_id(0);
  if (i < n) q[slot[i]] = buf[i];
}

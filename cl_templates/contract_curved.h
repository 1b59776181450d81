/* contract_curved.h: what the host (C) and the curved elements' kernels (curved.cl) agree on,
 * beside contract.h and written the same way (valid C and OpenCL C; the host includes it,
 * and the program of a mesh with curved elements holds it right before curved.cl). It is a
 * file of its own because every tuning entry's hash covers contract.h (the timed stage's
 * kernels read it): names for the curved family alone kept there would make every shipped
 * entry stale, although no tuned kernel reads them.
 *
 * Per curved element c (in element order): its slot cslot[c]; per face f, FD reals at
 * cface[(4 c + f) FD] with contract.h's FD_* fields, but the flux weights FD_CEH .. FD_CHH
 * without Fscale, 1/eps and 1/mu (the element's own mass matrix and the material scaling
 * come after the integrals) and the normals 0 (they vary: CQ below); per point p of face
 * f's rule, CQ reals at cfq[((4 c + f) NFQ + p) CQ]: the outward unit normal and the weight
 * times the surface Jacobian (dg_geom_curved.Fq); the stage's start saved per curved node
 * j = c NP + n, CS fields of ncn = nc NP values, field s at csave[s ncn + j]: res in
 * fields CS_RES .. CS_RES + 5, q in CS_Q .. CS_Q + 5. */
#ifndef DG_CONTRACT_CURVED_H
#define DG_CONTRACT_CURVED_H

#define CQ_NX 0
#define CQ_NY 1
#define CQ_NZ 2
#define CQ_WSJ 3
#define CQ 4

#define CS_RES 0
#define CS_Q 6
#define CS 12

#endif

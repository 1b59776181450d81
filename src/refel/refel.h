/* The reference tetrahedron {r,s,t >= -1, r+s+t <= -1} and its nodal DG operators
 * (Hesthaven & Warburton, Nodal DG Methods, ch. 6 and 10). Pure math: no mesh, no OpenCL.
 *
 * Matrices are dense, row-major: A[i*ncols + j]. Vertices of the reference tet are
 * v0=(-1,-1,-1), v1=(1,-1,-1), v2=(-1,1,-1), v3=(-1,-1,1); faces are numbered as in the
 * book: face 0 = (v0,v1,v2) t=-1, face 1 = (v0,v1,v3) s=-1, face 2 = (v1,v2,v3) r+s+t=-1,
 * face 3 = (v0,v2,v3) r=-1. */
#ifndef DG_REFEL_REFEL_H
#define DG_REFEL_REFEL_H

#include "core/status.h"

enum { DG_NFACES = 4, DG_MAX_ORDER = 15 };

typedef struct {
  int N;    /* polynomial order */
  int Np;   /* nodes per element (N+1)(N+2)(N+3)/6 */
  int Nfp;  /* nodes per face (N+1)(N+2)/2 */
  double *r, *s, *t;    /* Np Warp & Blend nodes */
  double *V;            /* Np x Np Vandermonde, V[i*Np+j] = psi_j(node i) */
  double *Vinv;         /* Np x Np */
  double *Dr, *Ds, *Dt; /* Np x Np differentiation matrices */
  double *M;            /* Np x Np mass matrix (V V^T)^-1 */
  int *Fmask;           /* 4 x Nfp: volume node index of face f's node i at Fmask[f*Nfp+i] */
  double *LIFT;         /* Np x 4Nfp: M^-1 E, E = face mass matrices at the face nodes */
} dg_refel;

dg_status dg_refel_create(dg_refel **out, int N) DG_NODISCARD;
void dg_refel_destroy(dg_refel **r);

/* Building blocks, exposed for tests and for other modules. */

/* Orthonormal Jacobi polynomial P_n^(a,b)(x) (normalised on [-1,1] with weight
 * (1-x)^a (1+x)^b) at x[0..n_x-1], into p. */
void dg_jacobi_p(const double *x, int n_x, double a, double b, int n, double *p);
/* d/dx of the same. */
void dg_jacobi_grad_p(const double *x, int n_x, double a, double b, int n, double *dp);
/* Gauss-Jacobi quadrature, n+1 points (exact to degree 2n+1 for weight (1-x)^a(1+x)^b). */
dg_status dg_jacobi_gq(double a, double b, int n, double *x, double *w) DG_NODISCARD;
/* Gauss-Lobatto-Jacobi points, n+1 points including +-1. */
dg_status dg_jacobi_gl(double a, double b, int n, double *x) DG_NODISCARD;

/* Warp & Blend nodes of order N on the reference tet, Np of them, into r,s,t. */
dg_status dg_nodes_tet(int N, double *r, double *s, double *t) DG_NODISCARD;

/* Orthonormal basis function j (0 <= j < Np, ordered by i,j,k with i+j+k <= N, k fastest
 * inside j inside i) and its gradient at n points. */
void dg_basis_tet(int N, int j, const double *r, const double *s, const double *t, int n,
                  double *psi);
void dg_grad_basis_tet(int N, int j, const double *r, const double *s, const double *t, int n,
                       double *dr, double *ds, double *dt);

/* Quadrature on the reference tet exact for polynomials of total degree <= degree.
 * Allocates r,s,t,w (free with free()); weights sum to the volume 4/3. */
dg_status dg_cubature_tet(int degree, int *n, double **r, double **s, double **t,
                          double **w) DG_NODISCARD;

/* Quadrature on the reference triangle {a, b >= -1, a + b <= 0} (a face's parameter
 * triangle, as LIFT uses it) exact for total degree <= degree; weights sum to its area 2. */
dg_status dg_cubature_tri(int degree, int *n, double **a, double **b, double **w) DG_NODISCARD;

/* Dense helpers on row-major matrices (plain C: no BLAS threads or allocator). */
dg_status dg_mat_inverse(int n, double *A) DG_NODISCARD; /* in place */
void dg_matmul(int m, int n, int k, const double *A, const double *B, double *C); /* C=A*B */

#endif

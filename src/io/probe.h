/* Point probes: locate points in the mesh once, then read E and H there at any time as a
 * dot product of the element's nodal values with a precomputed interpolation row.
 * Records go to a CSV series (series.h): one file for all probes, columns
 * probe,t,Ex,Ey,Ez,Hx,Hy,Hz, one row per probe per recorded time. */
#ifndef DG_IO_PROBE_H
#define DG_IO_PROBE_H

#include <stddef.h>

#include "core/status.h"
#include "dg/geom.h"
#include "io/series.h"

typedef struct {
  int n;        /* number of probes */
  int Np;
  size_t KNp;   /* K*Np: the stride between fields in q */
  double *xyz;  /* 3n: the points as given */
  int *elem;    /* n: the element holding probe i */
  double *rst;  /* 3n: its reference coordinates in that element */
  double *w;    /* n*Np: u(probe i) = sum_j w[i*Np+j] u[elem[i]*Np + j] */
} dg_probes;


/* Locate n points xyz[3i..3i+2]. A point outside the mesh is DG_ERR_INPUT naming its index
 * and coordinates. */
dg_status dg_probes_create(dg_probes **out, const dg_geom *g, int n,
                           const double *xyz) DG_NODISCARD;
void dg_probes_destroy(dg_probes **p);

/* vals[6i+f] = field f (Ex,Ey,Ez,Hx,Hy,Hz) at probe i, from q (layout of dg/maxwell.h). */
void dg_probes_eval(const dg_probes *p, const double *q, double *vals);

/* The probe log series (columns probe,t,Ex,Ey,Ez,Hx,Hy,Hz), written to path on commit. */
dg_status dg_probe_log_create(dg_series **out, const char *path) DG_NODISCARD;
/* Evaluate every probe at time t and append one row each to log. */
dg_status dg_probes_record(const dg_probes *p, double t, const double *q,
                           dg_series *log) DG_NODISCARD;


#endif

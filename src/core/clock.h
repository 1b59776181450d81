/* Wall-clock time for measuring intervals (monotonic, never jumps with the date). */
#ifndef DG_CORE_CLOCK_H
#define DG_CORE_CLOCK_H

/* Seconds since an arbitrary fixed point (CLOCK_MONOTONIC). */
double dg_now_s(void);

#endif

/* A time stepper: the state of one Maxwell problem (dg/maxwell.h) and the steps that
 * advance it, on some backend. The run's time loop (app/simulate.c, step_all) sees only this
 * interface, so it is one loop whatever computes the steps. Four implementations:
 *   - dg_stepper_ref_create (dg/stepper_ref.c): LSERK4 on the plain C double-precision
 *     reference operator;
 *   - dg_stepper_cl_create (backend/cl_stepper.c): LSERK4 in the generated OpenCL kernels;
 *   - dg_stepper_multirate_create (dg/stepper_multirate.c, dg/multirate.h): local time
 *     stepping on rate levels, multirate Adams-Bashforth 3 or multirate LSERK4, on the
 *     reference operator, whose step is a macro step;
 *   - dg_stepper_cl_multirate_create (backend/cl_multirate.c): the same two multirate
 *     schemes in OpenCL kernels.
 * State goes in and out in the reference layout (6 fields of K*Np doubles, dg/maxwell.h);
 * every call returns a status. */
#ifndef DG_DG_STEPPER_H
#define DG_DG_STEPPER_H

#include <stddef.h>

#include "core/status.h"
#include "dg/maxwell.h"

/* The face traces a rank exchanges with its neighbours before each right-hand side (each
 * LSERK4 stage; each evaluation of the multirate steppers' levels) (part/exchange.h provides
 * one). The stepper copies state[send_slot[i]] into send, calls begin and end, then writes
 * recv into state[recv_slot[i]]; slots index the reference layout. send and recv hold n
 * values of the stepper's precision (8 bytes for the reference). */
typedef struct {
  size_t n;
  const int *send_slot, *recv_slot;
  void *send, *recv;
  dg_status (*begin)(void *ctx); /* start the non-blocking exchange of send */
  dg_status (*end)(void *ctx);   /* wait for it: recv is filled */
  void *ctx;
} dg_trace_exchange;

typedef struct dg_stepper dg_stepper;

/* What an implementation provides (impl is its own data). */
typedef struct {
  dg_status (*step)(void *impl, double t, double dt);
  dg_status (*get_state)(void *impl, double *q);
  dg_status (*put_state)(void *impl, const double *q);
  dg_status (*finish)(void *impl);
  dg_status (*energy)(void *impl, double *e);
  void (*destroy)(void *impl);
  /* The auxiliary state (a PML's fields, dispersive poles' states: dg_maxwell_aux_size
   * values) out and in; NULL where the stepper has none to give (multirate). */
  dg_status (*get_aux)(void *impl, double *w);
  dg_status (*put_aux)(void *impl, const double *w);
} dg_stepper_ops;

/* Wrap an implementation (impl is owned: ops->destroy releases it). */
dg_status dg_stepper_wrap(dg_stepper **out, const dg_stepper_ops *ops, void *impl) DG_NODISCARD;

/* One step of length dt from time t: LSERK4, or the multirate stepper's macro step (may
 * only be queued: see finish). */
dg_status dg_stepper_step(dg_stepper *s, double t, double dt) DG_NODISCARD;
/* The current state into q (waits for queued steps). */
dg_status dg_stepper_get_state(dg_stepper *s, double *q) DG_NODISCARD;
/* Replace the state with q and zero the RK residual and the auxiliary state (a PML and
 * the poles of dispersive media restart at rest unless dg_stepper_put_aux follows); a
 * multirate stepper starts its history again (its LSERK4 start-up macro steps). */
dg_status dg_stepper_put_state(dg_stepper *s, const double *q) DG_NODISCARD;
/* The auxiliary state (dg_maxwell_aux_size values: the PML's fields in the layout of
 * dg/pml.h, then the poles' states in that of dg/dispersive.h) into w, or from w (after
 * put_state, which zeros them; the RK residual stays zero): what a checkpoint stores
 * besides the fields, so a PML or dispersive run restarts exactly.
 * DG_ERR_UNSUPPORTED from a stepper without them. */
dg_status dg_stepper_get_aux(dg_stepper *s, double *w) DG_NODISCARD;
dg_status dg_stepper_put_aux(dg_stepper *s, const double *w) DG_NODISCARD;
/* The discrete energy of the current state over this rank's own elements
 * (dg_maxwell_energy_aux: the fields' and the dispersive poles'), without copying the
 * state out: the health check and the energy log. Non-finite when any value of the state
 * is. */
dg_status dg_stepper_energy(dg_stepper *s, double *e) DG_NODISCARD;
/* Wait until every queued step has completed (for timing). */
dg_status dg_stepper_finish(dg_stepper *s) DG_NODISCARD;
void dg_stepper_destroy(dg_stepper **s);

/* The reference stepper on phys (borrowed; it must outlive the stepper). halo: NULL on one
 * process; else copied, its buffers borrowed. */
dg_status dg_stepper_ref_create(dg_stepper **out, dg_maxwell *phys,
                                const dg_trace_exchange *halo) DG_NODISCARD;

#endif

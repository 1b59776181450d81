/* CSV time series kept in memory and rewritten whole, atomically, on each commit: the run
 * commits at checkpoints and at the end, so the file on disk is always complete and never
 * lags the last checkpoint. One header line of column names, then one row per append,
 * every value printed with %.17g (integers such as step numbers come out as integers, and
 * doubles read back bit-exactly).
 *
 * The two series the solver writes:
 *   energy log   step,t,energy                    (dg_energy_log_create)
 *   probe log    probe,t,Ex,Ey,Ez,Hx,Hy,Hz        (dg_probe_log_create in probe.h): one
 *                file for all probes, one row per probe per recorded time, probe index
 *                0-based in the order the probes were given. */
#ifndef DG_IO_SERIES_H
#define DG_IO_SERIES_H

#include "core/status.h"

typedef struct dg_series dg_series;

/* A series with ncols named columns, written to path on commit (nothing is written yet). */
dg_status dg_series_create(dg_series **out, const char *path, int ncols,
                           const char *const *names) DG_NODISCARD;
void dg_series_destroy(dg_series **s);

/* Append one row of ncols values. */
dg_status dg_series_append(dg_series *s, const double *row) DG_NODISCARD;

/* Rewrite the file with the header and every row so far (through atomic.h). */
dg_status dg_series_commit(const dg_series *s) DG_NODISCARD;

/* For a restart: replace the rows in memory with those of the existing file whose value in
 * `column` is <= max_value (rows past the checkpoint will be computed again). A missing
 * file gives no rows; a file whose header differs, or a malformed row, is DG_ERR_PARSE
 * naming the file and line. */
dg_status dg_series_resume(dg_series *s, const char *column, double max_value) DG_NODISCARD;

int dg_series_rows(const dg_series *s);
int dg_series_cols(const dg_series *s);
/* Row i (0 <= i < rows), ncols values; valid until the next append or resume. */
const double *dg_series_row(const dg_series *s, int i);

/* The energy log: columns step,t,energy. */
dg_status dg_energy_log_create(dg_series **out, const char *path) DG_NODISCARD;

#endif

/* dgtd's version: `dgtd --version`, the run's summary and --json, and the metadata of the
 * files a run writes (run.json, the VTU files' field data). Raise it with each release. */
#ifndef DG_CORE_VERSION_H
#define DG_CORE_VERSION_H

#define DG_VERSION "0.1.0"

#endif

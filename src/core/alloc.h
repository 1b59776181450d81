/* Checked allocation. Arrays are zero-initialised so a partly built object can always be
 * destroyed safely. */
#ifndef DG_CORE_ALLOC_H
#define DG_CORE_ALLOC_H

#include <stddef.h>
#include <stdlib.h>

#include "core/status.h"

/* *ptr = calloc(n, size), raising DG_ERR_MEMORY on failure. */
dg_status dg_calloc(void *ptr, size_t n, size_t size) DG_NODISCARD;

/* Allocate n elements of *(ptr)'s type: DG_CALL(DG_ALLOC(x, n)). */
#define DG_ALLOC(ptr, n) dg_calloc(&(ptr), (size_t)(n), sizeof *(ptr))

/* free(*ptr); *ptr = NULL */
void dg_free(void *ptr);
/* dg_free on each of the given addresses of pointers: a destructor's fields in one line. */
#define DG_FREE_ALL(...)                                                          \
  do {                                                                            \
    void *dg_free_all_[] = {__VA_ARGS__};                                         \
    for (size_t i_ = 0; i_ < sizeof dg_free_all_ / sizeof dg_free_all_[0]; ++i_) \
      dg_free(dg_free_all_[i_]);                                                  \
  } while (0)

#endif

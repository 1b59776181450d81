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

#endif

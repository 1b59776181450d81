#include "core/alloc.h"

#include <string.h>

dg_status dg_calloc(void *ptr, size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  DG_CHECK(p != NULL, DG_ERR_MEMORY, "out of memory allocating %zu x %zu bytes", n, size);
  memcpy(ptr, &p, sizeof p);
  return DG_OK;
}

void dg_free(void *ptr) {
  void *p;
  memcpy(&p, ptr, sizeof p);
  free(p);
  p = NULL;
  memcpy(ptr, &p, sizeof p);
}

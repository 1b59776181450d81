/* cl_term.c: the OpenCL operator's terms, in stage order (cl_term.h, DG_CLM_TERM_LIST). */
#include "backend/cl_maxwell_impl.h"

const dg_clm_term *const dg_clm_terms[DG_CLM_TERMS] = {
#define TERM_(ID, name) [DG_CLM_##ID] = &dg_clm_term_##name,
    DG_CLM_TERM_LIST(TERM_)
#undef TERM_
};

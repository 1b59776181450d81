/* A case file's physical group references: read, and no two entries naming one group. */
/* For the case reader (case.c); the check against a mesh is dg_case_check_groups in
 * case.h. */
#ifndef DG_APP_CASE_GROUPS_H
#define DG_APP_CASE_GROUPS_H

#include "app/case.h"
#include "app/schema.h"

struct cJSON;

/* A physical group given as a name or a tag number. */
dg_status dg_case_group(const dg_schema *x, const struct cJSON *v, const char *path,
                        dg_group_ref *g) DG_NODISCARD;
/* The group at obj.key, which must be there (hint: what it is). */
dg_status dg_case_key_group(const dg_schema *x, const struct cJSON *obj, const char *path,
                            const char *key, const char *hint, dg_group_ref *g) DG_NODISCARD;
/* A list of 1..DG_CASE_PML_VOLUMES group names or tags. */
dg_status dg_case_groups(const dg_schema *x, const struct cJSON *v, const char *path,
                         dg_group_ref *g, int *n) DG_NODISCARD;
/* Two materials or two boundary entries naming one group: the later would silently win
 * (or lose). */
dg_status dg_case_check_duplicate_groups(const dg_schema *x, const dg_case *c) DG_NODISCARD;

#endif

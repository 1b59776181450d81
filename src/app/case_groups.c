/* Physical group references of a case (a name or a tag): read, compared, checked. */
#include "app/case_groups.h"

#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

dg_status dg_case_group(const dg_schema *x, const cJSON *v, const char *path,
                        dg_group_ref *g) {
  g->name[0] = '\0';
  g->tag = -1;
  if (cJSON_IsString(v)) return dg_schema_string(x, v, path, g->name, sizeof g->name);
  DG_CHECK(cJSON_IsNumber(v), DG_ERR_INPUT,
           "%s: %s: expected a physical group name (string) or tag (integer), got %s", x->file,
           path, dg_schema_type(v));
  return dg_schema_int(x, v, path, 0, 1 << 30, &g->tag);
}

dg_status dg_case_key_group(const dg_schema *x, const cJSON *obj, const char *path,
                            const char *key, const char *hint, dg_group_ref *g) {
  char where[160];
  DG_CALL(dg_schema_required(x, obj, path, key, hint));
  dg_schema_key_path(where, sizeof where, path, key);
  return dg_case_group(x, cJSON_GetObjectItemCaseSensitive(obj, key), where, g);
}

dg_status dg_case_groups(const dg_schema *x, const cJSON *v, const char *path,
                         dg_group_ref *g, int *n) {
  DG_CHECK(cJSON_IsArray(v) && cJSON_GetArraySize(v) >= 1 &&
               cJSON_GetArraySize(v) <= DG_CASE_PML_VOLUMES,
           DG_ERR_INPUT, "%s: %s: expected an array of 1 to %d physical volume names or tags, "
           "got %s", x->file, path, DG_CASE_PML_VOLUMES, dg_schema_type(v));
  *n = cJSON_GetArraySize(v);
  for (int i = 0; i < *n; ++i) {
    char where[96];
    snprintf(where, sizeof where, "%s[%d]", path, i);
    DG_CALL(dg_case_group(x, cJSON_GetArrayItem(v, i), where, &g[i]));
  }
  return DG_OK;
}

static int same_group(const dg_group_ref *a, const dg_group_ref *b) {
  return a->name[0] ? !strcmp(a->name, b->name) : (!b->name[0] && a->tag == b->tag);
}

static void group_text(const dg_group_ref *g, char *out, size_t cap) {
  if (g->name[0]) snprintf(out, cap, "\"%s\"", g->name);
  else snprintf(out, cap, "tag %d", g->tag);
}

/* Entry i of the materials (dim 3) or of the boundaries (dim 2): its group. */
static const dg_group_ref *group_at(const dg_case *c, int dim, int i) {
  return dim == 3 ? &c->materials[i].volume : &c->boundaries[i].surface;
}

static dg_status check_duplicates_dim(const dg_schema *x, const dg_case *c, int dim) {
  const int n = dim == 3 ? c->n_materials : c->n_boundaries;
  const char *list = dim == 3 ? "materials" : "boundaries";
  const char *key = dim == 3 ? "volume" : "surface";
  char g[DG_CASE_NAME + 16];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j)
      if (same_group(group_at(c, dim, i), group_at(c, dim, j))) {
        group_text(group_at(c, dim, i), g, sizeof g);
        return DG_ERROR(DG_ERR_INPUT, "%s: %s[%d].%s: %s %s already has a %s (%s[%d])", x->file,
                        list, i, key, key, g, dim == 3 ? "material" : "condition", list, j);
      }
  return DG_OK;
}

dg_status dg_case_check_duplicate_groups(const dg_schema *x, const dg_case *c) {
  DG_CALL(check_duplicates_dim(x, c, 3));
  DG_CALL(check_duplicates_dim(x, c, 2));
  return DG_OK;
}

/* The tags a group reference stands for in the mesh: a tag itself, or every tag of that
 * dimension carrying the name (*n of them, at most cap listed). */
static void group_tags(const dg_mesh *m, int dim, const dg_group_ref *g, int *tags, int cap,
                       int *n) {
  *n = 0;
  if (!g->name[0]) {
    tags[(*n)++] = g->tag;
    return;
  }
  for (int i = 0; i < m->nphys; ++i)
    if (m->phys[i].dim == dim && !strcmp(m->phys[i].name, g->name)) {
      int seen = 0;
      for (int j = 0; j < *n && j < cap; ++j) seen |= tags[j] == m->phys[i].tag;
      if (!seen) {
        if (*n < cap) tags[*n] = m->phys[i].tag;
        ++*n;
      }
    }
}

static dg_status check_groups_dim(const dg_case *c, const dg_mesh *m, int dim) {
  const int n = dim == 3 ? c->n_materials : c->n_boundaries;
  const char *list = dim == 3 ? "materials" : "boundaries";
  const char *key = dim == 3 ? "volume" : "surface";
  enum { CAP = 8 };
  for (int i = 0; i < n; ++i) {
    const dg_group_ref *gi = group_at(c, dim, i);
    int ti[CAP], ni;
    group_tags(m, dim, gi, ti, CAP, &ni);
    if (ni > 1) {
      char tl[128] = "";
      for (int t = 0; t < ni && t < CAP; ++t) {
        char one[16];
        snprintf(one, sizeof one, "%s%d", t ? ", " : "", ti[t]);
        strncat(tl, one, sizeof tl - strlen(tl) - 1);
      }
      return DG_ERROR(DG_ERR_INPUT, "%s: %s[%d].%s: the mesh gives the physical %s name \"%s\" "
                      "to %d tags (%s); name the tags instead", c->source, list, i, key, key,
                      gi->name, ni, tl);
    }
    if (ni == 0) continue; /* unknown names are reported when the groups are applied */
    for (int j = 0; j < i; ++j) {
      const dg_group_ref *gj = group_at(c, dim, j);
      int tj[CAP], nj;
      group_tags(m, dim, gj, tj, CAP, &nj);
      if (nj == 1 && tj[0] == ti[0]) {
        char a[DG_CASE_NAME + 16], b[DG_CASE_NAME + 16];
        group_text(gi, a, sizeof a);
        group_text(gj, b, sizeof b);
        return DG_ERROR(DG_ERR_INPUT, "%s: %s[%d].%s: %s is physical tag %d, which %s[%d].%s "
                        "(%s) already names", c->source, list, i, key, a, ti[0], list, j, key, b);
      }
    }
  }
  return DG_OK;
}

dg_status dg_case_check_groups(const dg_case *c, const dg_mesh *m) {
  DG_CALL(check_groups_dim(c, m, 3));
  DG_CALL(check_groups_dim(c, m, 2));
  return DG_OK;
}

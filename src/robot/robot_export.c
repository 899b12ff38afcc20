/* robot_export.c -- hs_robot_export_vrml: the robot at its configuration
 * as bodies of a scratch world (one per link with pieces, sharing the
 * link's geometry, at the link's world pose) beside clones of the bodies
 * of a world, the pairs the robot does not test (adjacent, skipped)
 * disabled, one world query for the colours, and the world's VRML
 * writer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/mem.h"
#include "src/robot/robot.h"
#include "src/scene/scene.h"
#include "src/world/world.h"

/* A VRML identifier from a link name, not yet used in w: characters a
 * VRML name cannot hold become '_', a leading digit or sign gets a '_'
 * before it, a name taken gets _2, _3, ... */
static char *body_name(const hs_world *w, const char *link)
{
    size_t n = strlen(link);
    char *s = malloc(n + 24);
    if (!s)
        return NULL;
    size_t k = 0;
    if (link[0] >= '0' && link[0] <= '9')
        s[k++] = '_';
    for (size_t i = 0; i < n; i++) {
        char ch = link[i];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                 (ch >= '0' && ch <= '9') || ch == '_';
        s[k++] = ok ? ch : '_';
    }
    s[k] = '\0';
    if (k == 0 || !scene_is_vrml_id(s)) {
        memmove(s + 1, s, k + 1);
        s[0] = '_';
        k++;
    }
    for (int suffix = 2; hs_world_find_body(w, s); suffix++)
        snprintf(s + k, 24, "_%d", suffix);
    return s;
}

static hs_code add_links(hs_world *w, const hs_robot *r, hs_body **as_body, hs_error *err)
{
    for (int i = 0; i < r->nlinks; i++) {
        as_body[i] = NULL;
        if (r->link[i].npiece == 0)
            continue;
        char *name = body_name(w, r->link[i].name);
        if (!name)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        hs_body *b = hs_world_add_body(w, name, 0, err);
        free(name);
        if (!b)
            return err ? err->code : HS_ERR_NOMEM;
        for (int k = 0; k < r->link[i].npiece; k++)
            if (body_add_geom(b, r->link[i].piece[k], err) != HS_OK)
                return err ? err->code : HS_ERR_NOMEM;
        if (hs_body_set_pose(b, r->W + 16 * i, err) != HS_OK)
            return err ? err->code : HS_ERR_NOMEM;
        as_body[i] = b;
    }
    for (int a = 0; a < r->nlinks; a++)
        for (int b = a + 1; b < r->nlinks; b++)
            if (as_body[a] && as_body[b] && robot_skip_reason(r, a, b) != HS_ROBOT_TESTED &&
                hs_world_set_pair_enabled(w, as_body[a], as_body[b], 0, err) != HS_OK)
                return err ? err->code : HS_ERR_NOMEM;
    return HS_OK;
}

hs_code hs_robot_export_vrml(const hs_robot *r, const hs_world *w, FILE *out, hs_error *err)
{
    if (!r || !out)
        return err_set(err, HS_ERR_ARG, "hs_robot_export_vrml: NULL argument");
    hs_world *x = hs_world_new();
    hs_body **as_body = mem_alloc((size_t)r->nlinks, sizeof *as_body);
    hs_report *rep = hs_report_new();
    hs_code rc = x && as_body && rep ? HS_OK : err_set(err, HS_ERR_NOMEM, "out of memory");
    for (int k = 0; w && k < hs_world_body_count(w) && rc == HS_OK; k++) {
        const hs_body *b = hs_world_body(w, k);
        if (!robot_body_counts(w, b))
            continue;
        if (!hs_world_clone_body(x, b, hs_body_name(b), err))
            rc = err ? err->code : HS_ERR_NOMEM;
    }
    if (rc == HS_OK)
        rc = add_links(x, r, as_body, err);
    if (rc == HS_OK) {
        hs_query_options q;
        hs_query_options_init(&q);
        q.threshold = 0;
        q.contacts = 0;
        rc = hs_world_query(x, &q, rep, err);
    }
    if (rc == HS_OK)
        rc = hs_world_export_vrml(x, rep, out, err);
    hs_report_free(rep);
    free(as_body);
    hs_world_free(x);
    return rc;
}

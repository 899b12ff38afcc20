/* vrml_fields.c -- what the walk of a VRML scene reads of a node: its
 * field values, followed through IS into the PROTO instances being
 * expanded (down to the PROTO's defaults), checked for their kind; and
 * the guards on the walk's size and depth and on the pieces it makes. */
#include "polytope/error.h"
#include "src/scene/vrml_walk.h"

hs_code vrml_field_of(walker *wk, const vnode *n, const env *e, const char *name, fref *r)
{
    const vfield *f = vrml_find_field(n, name);
    while (f && f->is) {
        if (!e)
            return err_at(wk->err, n->file, f->line, "IS %s outside a PROTO instance",
                          f->is);
        if (++wk->is_steps > VRML_MAX_IS_STEPS) {
            wk->limit_hit = 1;
            return err_at(wk->err, n->file, f->line, "scene too large: field values followed "
                          "through PROTO instances more than %ld times", VRML_MAX_IS_STEPS);
        }
        const vfield *g = vrml_find_field(e->inst, f->is);
        if (!g) {
            const vdecl *d = vrml_find_decl(e->inst->proto, f->is);
            g = d ? d->value : NULL;
        }
        f = g;
        e = e->up;
    }
    r->f = f;
    r->e = e;
    return HS_OK;
}

hs_code vrml_get_numbers(walker *wk, const vnode *n, const env *e, const char *name,
                         double *out, int k, int *line)
{
    fref r;
    hs_code rc = vrml_field_of(wk, n, e, name, &r);
    if (line)
        *line = r.f ? r.f->line : n->line;
    if (rc != HS_OK || !r.f)
        return rc;
    int ok = r.f->nitems == k;
    for (int i = 0; ok && i < k; i++)
        ok = r.f->item[i].kind == IT_NUM;
    if (!ok)
        return err_at(wk->err, n->file, r.f->line, "field %s of %s needs %d number%s", name,
                      n->type, k, k > 1 ? "s" : "");
    for (int i = 0; i < k; i++)
        out[i] = r.f->item[i].num;
    return HS_OK;
}

hs_code vrml_get_bool(walker *wk, const vnode *n, const env *e, const char *name, int *out)
{
    fref r;
    hs_code rc = vrml_field_of(wk, n, e, name, &r);
    if (rc != HS_OK || !r.f)
        return rc;
    if (r.f->nitems != 1 || r.f->item[0].kind != IT_BOOL)
        return err_at(wk->err, n->file, r.f->line, "field %s of %s needs TRUE or FALSE",
                      name, n->type);
    *out = r.f->item[0].num != 0;
    return HS_OK;
}

hs_code vrml_enter(walker *wk, const vnode *n)
{
    wk->limit_hit = 1; /* until the checks pass */
    if (++wk->visits > VRML_MAX_VISITS)
        return err_at(wk->err, n->file, n->line, "scene too large: more than %ld nodes once "
                      "USE, PROTO and Inline are expanded", VRML_MAX_VISITS);
    int most = VRML_WALK_DEPTH_FACTOR * wk->opt->max_depth;
    if (wk->depth >= most)
        return err_at(wk->err, n->file, n->line, "nodes nested more than %d deep once "
                      "PROTO and Inline are expanded (raise max_depth)", most);
    wk->limit_hit = 0;
    wk->depth++;
    return HS_OK;
}

hs_code vrml_new_piece(walker *wk, const vnode *n, long points)
{
    wk->limit_hit = 1; /* until the checks pass */
    if (++wk->pieces > wk->opt->max_pieces)
        return err_at(wk->err, n->file, n->line, "scene too large: more than %ld pieces "
                      "once USE, PROTO and Inline are expanded (raise max_pieces)",
                      wk->opt->max_pieces);
    if (points > wk->opt->max_points - wk->points)
        return err_at(wk->err, n->file, n->line, "scene too large: more than %ld points in "
                      "its pieces once USE, PROTO and Inline are expanded (raise max_points)",
                      wk->opt->max_points);
    wk->limit_hit = 0;
    wk->points += points;
    if (wk->counting)
        return HS_OK;
    if (!wk->body)
        wk->body = scene_new_body(wk->w, wk->name, wk->name_file, wk->name_line, wk->err);
    return wk->body ? HS_OK : wk->err ? wk->err->code : HS_ERR_INPUT;
}

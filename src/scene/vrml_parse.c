/* vrml_parse.c -- the VRML 2.0 parser: tokens into the scene graph.
 * Statements are nodes (DEF name node, USE name, or node), PROTO
 * declarations and ROUTEs; a node's fields are read by their declared type
 * (the fields of ignored nodes by their syntax alone).  Names live in
 * scopes: a DEF name is visible after it in its own scope (the file, or a
 * PROTO body), a PROTO after its declaration in its scope and the scopes
 * within; IS ties a field in a PROTO body to a field of the PROTO. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/grow.h"
#include "src/scene/scene.h"
#include "src/scene/vrml.h"

/* DEF names and PROTOs visible at a point of the file. */
typedef struct scope {
    vindex *defs;            /* DEF names of this scope only */
    vindex *protos;          /* PROTOs declared in this scope */
    const struct scope *up;  /* enclosing scope (its PROTOs stay visible) */
    const vproto *proto;     /* the PROTO whose body this is, or NULL */
} scope;

typedef struct parser {
    const token *tok;
    int pos;
    const char *file;
    mem_arena *ar;
    hs_error *err;
    int depth, max_depth;
    int no_is;         /* parsing a PROTO field's default: IS is not allowed */
    const char *field; /* the field whose value is being read (messages) */
} parser;

/* A growable list of items, moved to the arena when complete. */
typedef struct itemvec {
    vitem *v;
    int n, cap;
} itemvec;

static const token *peek(const parser *ps, int ahead)
{
    const token *t = &ps->tok[ps->pos];
    for (int k = 0; k < ahead && t->kind != T_END; k++)
        t++;
    return t;
}

static const token *take(parser *ps)
{
    const token *t = &ps->tok[ps->pos];
    if (t->kind != T_END)
        ps->pos++;
    return t;
}

static int is_word(const token *t, const char *w)
{
    return t->kind == T_ID && strcmp(t->text, w) == 0;
}

/* How a token is named in messages. */
static const char *tok_what(const token *t, char *buf, size_t n)
{
    static const char *const names[] = {"the end of the file", "", "a number", "a string",
                                        "'{'", "'}'", "'['", "']'", "'.'"};
    if (t->kind != T_ID)
        return names[t->kind];
    snprintf(buf, n, "'%.60s'", t->text);
    return buf;
}

static hs_code nomem(parser *ps)
{
    return err_set(ps->err, HS_ERR_NOMEM, "%s:%d: out of memory (the input is too large)",
                   ps->file, ps->tok[ps->pos].line);
}

static hs_code expected(parser *ps, const token *t, const char *what)
{
    char buf[80];
    return err_at(ps->err, ps->file, t->line, "%s%s%sexpected %s, found %s",
                  ps->field ? "field " : "", ps->field ? ps->field : "",
                  ps->field ? ": " : "", what, tok_what(t, buf, sizeof buf));
}

static int iv_push(itemvec *iv, const vitem *it)
{
    vitem *v = grow_array(iv->v, &iv->cap, (long)iv->n + 1, sizeof *v);
    if (!v)
        return -1;
    iv->v = v;
    iv->v[iv->n++] = *it;
    return 0;
}

/* Move the items to the arena (the vector is freed either way). */
static hs_code iv_finish(parser *ps, itemvec *iv, vitem **out, int *n)
{
    *out = mem_arena_alloc(ps->ar, sizeof(vitem) * (size_t)iv->n);
    if (*out && iv->n > 0)
        memcpy(*out, iv->v, sizeof(vitem) * (size_t)iv->n);
    *n = iv->n;
    free(iv->v);
    iv->v = NULL;
    return *out ? HS_OK : nomem(ps);
}

static const vproto *find_proto(const scope *sc, const char *name)
{
    for (; sc; sc = sc->up) {
        const vproto *p = vrml_index_get(sc->protos, name);
        if (p)
            return p;
    }
    return NULL;
}

/* A name token for DEF, USE, PROTO, ROUTE ... */
static hs_code take_name(parser *ps, const char *after, const char **name)
{
    const token *t = take(ps);
    if (t->kind != T_ID || !scene_is_vrml_id(t->text)) {
        char what[80];
        snprintf(what, sizeof what, "a name after %s", after);
        return expected(ps, t, what);
    }
    *name = t->text;
    return HS_OK;
}

static hs_code parse_node_statement(parser *ps, scope *sc, vitem *it);
static hs_code parse_proto(parser *ps, scope *sc);
static hs_code parse_decl(parser *ps, scope *sc, vdecl *d, int in_script);

/* One end "node.event" of a ROUTE; the node must be DEF'd in this scope. */
static hs_code route_end(parser *ps, const scope *sc, const char *after)
{
    const char *node, *event;
    int line = peek(ps, 0)->line;
    hs_code rc = take_name(ps, after, &node);
    if (rc != HS_OK)
        return rc;
    if (peek(ps, 0)->kind != T_DOT)
        return expected(ps, peek(ps, 0), "'.' between node and event names");
    take(ps);
    if ((rc = take_name(ps, "'.'", &event)) != HS_OK)
        return rc;
    if (!vrml_index_get(sc->defs, node))
        return err_at(ps->err, ps->file, line, "ROUTE: no node named %s", node);
    return HS_OK;
}

/* ROUTE a.b TO c.d: checked, then forgotten. */
static hs_code parse_route(parser *ps, const scope *sc)
{
    take(ps);
    hs_code rc = route_end(ps, sc, "ROUTE");
    if (rc == HS_OK && !is_word(peek(ps, 0), "TO"))
        rc = expected(ps, peek(ps, 0), "'TO'");
    if (rc == HS_OK) {
        take(ps);
        rc = route_end(ps, sc, "TO");
    }
    return rc;
}

/* Statements up to (not including) a token of kind `end`. */
static hs_code parse_statements(parser *ps, scope *sc, tok_kind end, vitem **out, int *n)
{
    itemvec iv = {NULL, 0, 0};
    hs_code rc = HS_OK;
    while (rc == HS_OK && peek(ps, 0)->kind != end && peek(ps, 0)->kind != T_END) {
        const token *t = peek(ps, 0);
        vitem it;
        if (is_word(t, "PROTO"))
            rc = parse_proto(ps, sc);
        else if (is_word(t, "EXTERNPROTO"))
            rc = err_at(ps->err, ps->file, t->line, "EXTERNPROTO is not supported");
        else if (is_word(t, "ROUTE"))
            rc = parse_route(ps, sc);
        else if ((rc = parse_node_statement(ps, sc, &it)) == HS_OK && iv_push(&iv, &it) != 0)
            rc = nomem(ps);
    }
    if (rc != HS_OK) {
        free(iv.v);
        return rc;
    }
    return iv_finish(ps, &iv, out, n);
}

/* ------------------------------------------------------- field values */

/* One number / string / boolean of a value (kind of the base type). */
static hs_code parse_scalar(parser *ps, ftype type, itemvec *iv)
{
    const token *t = peek(ps, 0);
    vitem it;
    memset(&it, 0, sizeof it);
    it.line = t->line;
    if (vrml_type_arity(type) > 0) {
        if (t->kind != T_NUM || (vrml_type_is_int(type) && !t->is_int) ||
            (vrml_type_is_int(type) && fabs(t->num) > 4294967295.0))
            return expected(ps, t, vrml_type_is_int(type) ? "an integer" : "a number");
        it.kind = IT_NUM;
        it.num = t->num;
        it.is_int = t->is_int;
    } else if (type == F_SFSTRING || type == F_MFSTRING) {
        if (t->kind != T_STR)
            return expected(ps, t, "a string");
        it.kind = IT_STR;
        it.str = t->text;
    } else {
        if (!is_word(t, "TRUE") && !is_word(t, "FALSE"))
            return expected(ps, t, "TRUE or FALSE");
        it.kind = IT_BOOL;
        it.num = is_word(t, "TRUE");
    }
    take(ps);
    return iv_push(iv, &it) == 0 ? HS_OK : nomem(ps);
}

/* Single values of a multiple-valued type: `count` scalars or one node. */
static hs_code parse_single(parser *ps, scope *sc, ftype type, itemvec *iv)
{
    if (type == F_MFNODE || type == F_SFNODE) {
        vitem it;
        hs_code rc = parse_node_statement(ps, sc, &it);
        return rc != HS_OK ? rc : iv_push(iv, &it) == 0 ? HS_OK : nomem(ps);
    }
    int count = vrml_type_arity(type) ? vrml_type_arity(type) : 1;
    for (int k = 0; k < count; k++) {
        hs_code rc = parse_scalar(ps, type, iv);
        if (rc != HS_OK)
            return rc;
    }
    return HS_OK;
}

/* '[' values ']' of a multiple-valued field. */
static hs_code parse_list(parser *ps, scope *sc, const vfield *f, ftype type, itemvec *iv)
{
    const token *open = take(ps);
    while (peek(ps, 0)->kind != T_RBRACK) {
        if (peek(ps, 0)->kind == T_END)
            return err_at(ps->err, ps->file, open->line,
                          "'[' of field %s is never closed", f->name);
        hs_code rc = type == F_MFNODE ? parse_single(ps, sc, type, iv)
                                      : parse_scalar(ps, type, iv);
        if (rc != HS_OK)
            return rc;
    }
    take(ps);
    int arity = vrml_type_arity(type);
    if (arity > 1 && iv->n % arity != 0)
        return err_at(ps->err, ps->file, open->line,
                      "field %s: %d numbers is not a multiple of %d", f->name, iv->n, arity);
    return HS_OK;
}

/* SFImage: width, height, components, then width * height pixels. */
static hs_code parse_image(parser *ps, itemvec *iv)
{
    for (int k = 0; k < 3; k++) {
        hs_code rc = parse_scalar(ps, F_SFINT32, iv);
        if (rc != HS_OK)
            return rc;
    }
    double w = iv->v[0].num, h = iv->v[1].num;
    if (w < 0 || h < 0 || w * h > 1e8)
        return err_at(ps->err, ps->file, iv->v[0].line, "bad image size %g x %g", w, h);
    for (long k = 0; k < (long)(w * h); k++) {
        hs_code rc = parse_scalar(ps, F_SFINT32, iv);
        if (rc != HS_OK)
            return rc;
    }
    return HS_OK;
}

/* A value of an ignored node's field: a list, one node, or a run of
 * numbers, strings and booleans. */
static int any_scalar(const token *t)
{
    return t->kind == T_NUM || t->kind == T_STR || is_word(t, "TRUE") || is_word(t, "FALSE");
}

static int any_node(const parser *ps)
{
    const token *t = peek(ps, 0);
    return is_word(t, "DEF") || is_word(t, "USE") ||
           (t->kind == T_ID && peek(ps, 1)->kind == T_LBRACE);
}

static hs_code parse_any_item(parser *ps, scope *sc, itemvec *iv)
{
    const token *t = peek(ps, 0);
    vitem it;
    memset(&it, 0, sizeof it);
    it.line = t->line;
    if (any_node(ps)) {
        hs_code rc = parse_node_statement(ps, sc, &it);
        if (rc != HS_OK)
            return rc;
    } else if (is_word(t, "NULL")) {
        it.kind = IT_NULL;
        take(ps);
    } else if (any_scalar(t)) {
        it.kind = t->kind == T_NUM ? IT_NUM : t->kind == T_STR ? IT_STR : IT_BOOL;
        it.num = t->kind == T_NUM ? t->num : is_word(t, "TRUE");
        it.is_int = t->is_int;
        it.str = t->text;
        take(ps);
    } else
        return expected(ps, t, "a value");
    return iv_push(iv, &it) == 0 ? HS_OK : nomem(ps);
}

static hs_code parse_any(parser *ps, scope *sc, const vfield *f, itemvec *iv)
{
    const token *t = peek(ps, 0);
    hs_code rc = HS_OK;
    if (t->kind == T_LBRACK) {
        take(ps);
        while (rc == HS_OK && peek(ps, 0)->kind != T_RBRACK)
            rc = peek(ps, 0)->kind == T_END
                     ? err_at(ps->err, ps->file, t->line, "'[' of field %s is never closed",
                              f->name)
                     : parse_any_item(ps, sc, iv);
        if (rc == HS_OK)
            take(ps);
        return rc;
    }
    if (any_node(ps) || is_word(t, "NULL"))
        return parse_any_item(ps, sc, iv);
    if (!any_scalar(t))
        return expected(ps, t, "a value");
    while (rc == HS_OK && any_scalar(peek(ps, 0)))
        rc = parse_any_item(ps, sc, iv);
    return rc;
}

static hs_code parse_typed(parser *ps, scope *sc, const vfield *f, ftype type, itemvec *iv)
{
    if (type == F_ANY)
        return parse_any(ps, sc, f, iv);
    if (type == F_SFIMAGE)
        return parse_image(ps, iv);
    if (type == F_SFNODE && is_word(peek(ps, 0), "NULL")) {
        vitem it = {IT_NULL, take(ps)->line, 0, 0, 0, NULL, NULL};
        return iv_push(iv, &it) == 0 ? HS_OK : nomem(ps);
    }
    if (vrml_type_is_mf(type) && peek(ps, 0)->kind == T_LBRACK)
        return parse_list(ps, sc, f, type, iv);
    return parse_single(ps, sc, type, iv);
}

/* The value of field f, of the given type, into f->item. */
static hs_code parse_field_value(parser *ps, scope *sc, vfield *f, ftype type)
{
    if (++ps->depth > ps->max_depth)
        return err_at(ps->err, ps->file, f->line, "nodes nested more than %d deep "
                      "(raise max_depth)", ps->max_depth);
    itemvec iv = {NULL, 0, 0};
    const char *outer = ps->field;
    ps->field = f->name;
    hs_code rc = parse_typed(ps, sc, f, type, &iv);
    ps->field = outer;
    ps->depth--;
    if (rc != HS_OK) {
        free(iv.v);
        return rc;
    }
    return iv_finish(ps, &iv, &f->item, &f->nitems);
}

/* --------------------------------------------------------------- IS */

/* "name IS target": target is a field of the PROTO being defined, of a
 * kind and type that fit the node's field (type F_ANY: not checked). */
static hs_code parse_is(parser *ps, const scope *sc, vfield *f, ftype type, const char *node)
{
    const token *is = take(ps);
    const char *target;
    hs_code rc = take_name(ps, "IS", &target);
    if (rc != HS_OK)
        return rc;
    if (!sc->proto || ps->no_is)
        return err_at(ps->err, ps->file, is->line, "IS is only allowed in a PROTO body");
    const vdecl *d = vrml_find_decl(sc->proto, target);
    if (!d)
        return err_at(ps->err, ps->file, is->line, "IS %s: PROTO %s declares no field %s",
                      target, sc->proto->name, target);
    int event = d->kind == D_EVENT_IN || d->kind == D_EVENT_OUT;
    if (type == F_EVENT && d->kind == D_FIELD)
        return err_at(ps->err, ps->file, is->line, "%s of %s is an event, but %s of PROTO "
                      "%s is a field", f->name, node, target, sc->proto->name);
    if (type != F_EVENT && type != F_ANY && (event || d->type != type))
        return err_at(ps->err, ps->file, is->line,
                      "%s of %s is %s, but %s of PROTO %s is %s%s", f->name, node,
                      vrml_type_name(type), target, sc->proto->name,
                      event ? "an event of type " : "", vrml_type_name(d->type));
    f->is = target;
    return HS_OK;
}

/* ------------------------------------------------------------ nodes */

/* Type of field `name` of node n; reports unknown fields. */
static hs_code field_type(parser *ps, const vnode *n, const token *name, ftype *type)
{
    if (n->proto) {
        const vdecl *d = vrml_find_decl(n->proto, name->text);
        if (!d)
            return err_at(ps->err, ps->file, name->line,
                          "field %s is not declared by PROTO %s", name->text, n->type);
        *type = d->kind == D_EVENT_IN || d->kind == D_EVENT_OUT ? F_EVENT : d->type;
        return HS_OK;
    }
    if (!n->spec->fields) {
        *type = F_ANY;
        return HS_OK;
    }
    const field_spec *fs = vrml_find_field_spec(n->spec, name->text);
    if (!fs)
        return err_at(ps->err, ps->file, name->line, "field %s of %s is not supported",
                      name->text, n->type);
    *type = fs->type;
    return HS_OK;
}

static hs_code parse_field(parser *ps, scope *sc, vnode *n)
{
    const token *name = take(ps);
    ftype type = F_ANY;
    hs_code rc = field_type(ps, n, name, &type);
    if (rc != HS_OK)
        return rc;
    if (vrml_find_field(n, name->text))
        return err_at(ps->err, ps->file, name->line, "field %s of %s is given twice",
                      name->text, n->type);
    vfield *f = mem_arena_alloc(ps->ar, sizeof *f);
    if (!f)
        return nomem(ps);
    f->name = name->text;
    f->line = name->line;
    if (is_word(peek(ps, 0), "IS"))
        rc = parse_is(ps, sc, f, type, n->type);
    else if (type == F_EVENT)
        rc = err_at(ps->err, ps->file, name->line,
                    "%s of %s is an event: only '%s IS name' is allowed here", name->text,
                    n->type, name->text);
    else
        rc = parse_field_value(ps, sc, f, type);
    if (rc == HS_OK) {
        f->next = n->fields;
        n->fields = f;
        if (++n->nfields > VRML_LIST_MAX) { /* indexed: the new field, or all at first */
            vfield *last = n->findex ? f->next : NULL;
            for (vfield *g = f; g != last && rc == HS_OK; g = g->next)
                if (vrml_index_put(ps->ar, &n->findex, g->name, g) != 0)
                    rc = nomem(ps);
        }
    }
    return rc;
}

static int is_decl_word(const token *t)
{
    return is_word(t, "field") || is_word(t, "exposedField") || is_word(t, "eventIn") ||
           is_word(t, "eventOut");
}

/* Fields, ROUTEs, PROTOs (and a Script's declarations) up to '}'. */
static hs_code parse_node_body(parser *ps, scope *sc, vnode *n, const token *open)
{
    for (;;) {
        const token *t = peek(ps, 0);
        hs_code rc;
        vdecl ignored;
        if (t->kind == T_RBRACE) {
            take(ps);
            return HS_OK;
        }
        if (t->kind == T_END)
            return err_at(ps->err, ps->file, open->line, "'{' of %s is never closed",
                          n->type);
        if (t->kind != T_ID)
            rc = expected(ps, t, "a field name or '}'");
        else if (is_word(t, "ROUTE"))
            rc = parse_route(ps, sc);
        else if (is_word(t, "PROTO"))
            rc = parse_proto(ps, sc);
        else if (n->spec && n->spec->kind == K_SCRIPT && is_decl_word(t))
            rc = parse_decl(ps, sc, &ignored, 1);
        else
            rc = parse_field(ps, sc, n);
        if (rc != HS_OK)
            return rc;
    }
}

/* A node of type `type` (already taken), DEF'd as def (or NULL). */
static hs_code parse_node(parser *ps, scope *sc, const token *type, const char *def,
                          vnode **out)
{
    const node_spec *spec = vrml_find_spec(type->text);
    const vproto *proto = spec ? NULL : find_proto(sc, type->text);
    if (!spec && !proto)
        return err_at(ps->err, ps->file, type->line, "node %s is not supported",
                      type->text);
    const token *open = take(ps);
    if (open->kind != T_LBRACE)
        return expected(ps, open, "'{' after the node type");
    if (++ps->depth > ps->max_depth)
        return err_at(ps->err, ps->file, open->line, "nodes nested more than %d deep "
                      "(raise max_depth)", ps->max_depth);
    vnode *n = mem_arena_alloc(ps->ar, sizeof *n);
    if (!n)
        return nomem(ps);
    n->type = type->text;
    n->spec = spec;
    n->proto = proto;
    n->def = def;
    n->file = ps->file;
    n->line = type->line;
    const char *outer = ps->field; /* inside the node, no field is being read */
    ps->field = NULL;
    hs_code rc = parse_node_body(ps, sc, n, open);
    ps->field = outer;
    ps->depth--;
    *out = n;
    return rc;
}

/* DEF name node | USE name | node. */
static hs_code parse_node_statement(parser *ps, scope *sc, vitem *it)
{
    const token *t = take(ps);
    const char *def = NULL;
    hs_code rc = HS_OK;
    memset(it, 0, sizeof *it);
    it->kind = IT_NODE;
    it->line = t->line;
    if (is_word(t, "USE")) {
        const char *name;
        if ((rc = take_name(ps, "USE", &name)) != HS_OK)
            return rc;
        it->node = vrml_index_get(sc->defs, name);
        it->via_use = 1;
        return it->node ? HS_OK
                        : err_at(ps->err, ps->file, t->line,
                                 "USE %s: no node named %s (DEF it before)", name, name);
    }
    if (is_word(t, "DEF")) {
        if ((rc = take_name(ps, "DEF", &def)) != HS_OK)
            return rc;
        t = take(ps);
    }
    if (t->kind != T_ID || !scene_is_vrml_id(t->text))
        return expected(ps, t, "a node");
    rc = parse_node(ps, sc, t, def, &it->node);
    if (rc == HS_OK && def && vrml_index_put(ps->ar, &sc->defs, def, it->node) != 0)
        rc = nomem(ps);
    return rc;
}

/* ------------------------------------------------------------ PROTO */

/* field|exposedField TYPE name value, eventIn|eventOut TYPE name; in a
 * Script, a declaration may also be "... IS name". */
static hs_code parse_decl(parser *ps, scope *sc, vdecl *d, int in_script)
{
    static const char *const kinds[] = {"field", "exposedField", "eventIn", "eventOut"};
    const token *k = take(ps), *type = take(ps);
    memset(d, 0, sizeof *d);
    int found = 0;
    for (int i = 0; i < 4; i++)
        if (is_word(k, kinds[i]))
            d->kind = (decl_kind)i, found = 1;
    if (!found)
        return expected(ps, k, "field, exposedField, eventIn or eventOut");
    if (type->kind != T_ID || !vrml_type_from_name(type->text, &d->type))
        return expected(ps, type, "a field type (SFFloat, MFNode ...)");
    hs_code rc = take_name(ps, type->text, &d->name);
    if (rc != HS_OK)
        return rc;
    vfield *f = mem_arena_alloc(ps->ar, sizeof *f);
    if (!f)
        return nomem(ps);
    f->name = d->name;
    f->line = type->line;
    if (in_script && is_word(peek(ps, 0), "IS"))
        return parse_is(ps, sc, f, F_ANY, "Script");
    if (d->kind == D_EVENT_IN || d->kind == D_EVENT_OUT)
        return HS_OK;
    int outer = ps->no_is; /* a PROTO field's default may not use IS */
    ps->no_is = in_script ? outer : 1;
    rc = parse_field_value(ps, sc, f, d->type);
    ps->no_is = outer;
    d->value = f;
    return rc;
}

/* Append d to p's declarations (a malloc'd array while they are read). */
static hs_code push_decl(parser *ps, vproto *p, const vdecl *d, int *cap, int line)
{
    if (vrml_find_decl(p, d->name))
        return err_at(ps->err, ps->file, line, "PROTO %s declares %s twice", p->name,
                      d->name);
    vdecl *nd = grow_array(p->decl, cap, (long)p->ndecl + 1, sizeof *nd);
    if (!nd)
        return nomem(ps);
    p->decl = nd;
    p->decl[p->ndecl++] = *d;
    return vrml_index_put(ps->ar, &p->dindex, d->name, (void *)(uintptr_t)p->ndecl) == 0
               ? HS_OK : nomem(ps);
}

static hs_code parse_interface(parser *ps, scope *sc, vproto *p)
{
    const token *open = take(ps);
    if (open->kind != T_LBRACK)
        return expected(ps, open, "'[' after the PROTO name");
    int cap = 0;
    hs_code rc = HS_OK;
    while (rc == HS_OK && peek(ps, 0)->kind != T_RBRACK) {
        vdecl d;
        int line = peek(ps, 0)->line;
        if (peek(ps, 0)->kind == T_END)
            rc = err_at(ps->err, ps->file, open->line, "'[' of PROTO %s is never closed",
                        p->name);
        else if ((rc = parse_decl(ps, sc, &d, 0)) == HS_OK)
            rc = push_decl(ps, p, &d, &cap, line);
    }
    if (rc == HS_OK)
        take(ps);
    vdecl *list = p->decl; /* now into the mem_arena */
    p->decl = mem_arena_alloc(ps->ar, sizeof *list * (size_t)(p->ndecl + 1));
    if (p->decl && p->ndecl > 0)
        memcpy(p->decl, list, sizeof *list * (size_t)p->ndecl);
    free(list);
    return rc != HS_OK ? rc : p->decl ? HS_OK : nomem(ps);
}

/* PROTO name [ interface ] { body }: the body has its own DEF names; the
 * PROTO becomes usable after its declaration. */
static hs_code parse_proto(parser *ps, scope *sc)
{
    const token *kw = take(ps);
    vproto *p = mem_arena_alloc(ps->ar, sizeof *p);
    if (!p)
        return nomem(ps);
    hs_code rc = take_name(ps, "PROTO", &p->name);
    if (rc == HS_OK && vrml_find_spec(p->name))
        rc = err_at(ps->err, ps->file, kw->line, "PROTO %s redefines a built-in node",
                    p->name);
    if (rc == HS_OK)
        rc = parse_interface(ps, sc, p);
    const token *open = peek(ps, 0);
    if (rc == HS_OK && take(ps)->kind != T_LBRACE)
        rc = expected(ps, open, "'{' to open the PROTO body");
    scope body = {NULL, NULL, sc, p};
    if (rc == HS_OK)
        rc = parse_statements(ps, &body, T_RBRACE, &p->body, &p->nbody);
    if (rc == HS_OK && take(ps)->kind != T_RBRACE)
        rc = err_at(ps->err, ps->file, open->line, "'{' of PROTO %s is never closed",
                    p->name);
    if (rc == HS_OK && vrml_index_put(ps->ar, &sc->protos, p->name, p) != 0)
        rc = nomem(ps);
    return rc;
}

/* ------------------------------------------------------------- files */

hs_code vrml_parse_text(const char *text, vfile *f, mem_arena *ar, int max_depth, hs_error *err)
{
    token *tok = NULL;
    hs_code rc = vrml_lex(text, f->path, ar, &tok, err);
    if (rc != HS_OK)
        return rc;
    parser ps = {tok, 0, f->path, ar, err, 0, max_depth, 0, NULL};
    scope top = {NULL, NULL, NULL, NULL};
    rc = parse_statements(&ps, &top, T_END, &f->top, &f->ntop);
    if (rc == HS_OK && peek(&ps, 0)->kind != T_END)
        rc = expected(&ps, peek(&ps, 0), "a node");
    free(tok);
    return rc;
}

/* urdf_read.c -- a URDF file read with libxml2 into a urdf_model: the
 * <robot>'s links (their <collision> shapes) and joints, every value
 * checked and located at its line (xmlGetLineNo), every element the
 * reader does not use either known to carry nothing for collision
 * (inertial, visual, material, dynamics, ...: passed over) or reported as
 * a warning "FILE:LINE: ... ignored" (xacro, transmission, gazebo,
 * anything unknown).  Hostile input: libxml2 never loads external
 * entities or DTDs here (no XML_PARSE_NOENT, XML_PARSE_NONET), limits
 * the depth of nesting (256, no XML_PARSE_HUGE) and the expansion of
 * internal entities; the caller limits the file's size, this reader the
 * number of links. */
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/grow.h"
#include "polytope/mem.h"
#include "src/robot/urdf.h"

typedef struct reader {
    urdf_model *m;
    hs_error *err;
    int max_links;
} reader;

/* ------------------------------------------------------------ helpers */

static int line_of(const xmlNode *n) { return (int)xmlGetLineNo((xmlNode *)n); }

static int is_elem(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* An element of the xacro namespace (or written with the xacro: prefix). */
static int is_xacro(const xmlNode *n)
{
    if (n->ns && n->ns->prefix && strcmp((const char *)n->ns->prefix, "xacro") == 0)
        return 1;
    return n->ns && n->ns->href && strstr((const char *)n->ns->href, "xacro") != NULL;
}

/* The attribute's value (a new string, xmlFree) or NULL. */
static char *attr(const xmlNode *n, const char *name)
{
    return (char *)xmlGetProp((xmlNode *)n, (const xmlChar *)name);
}

static hs_code urdf_fail(reader *rd, const xmlNode *n, const char *fmt, ...) ERR_PRINTF(3, 4);
static hs_code urdf_fail(reader *rd, const xmlNode *n, const char *fmt, ...)
{
    char msg[HS_ERROR_MSG_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return err_at(rd->err, rd->m->file, n ? line_of(n) : 0, "%s", msg);
}

static hs_code urdf_nomem(reader *rd) { return err_set(rd->err, HS_ERR_NOMEM, "out of memory"); }

int urdf_warn(urdf_model *m, int line, const char *fmt, ...)
{
    char msg[HS_ERROR_MSG_SIZE], full[HS_ERROR_MSG_SIZE + 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(full, sizeof full, "%s:%d: %s", m->file, line, msg);
    char **w = grow_array(m->warn, &m->warn_cap, (long)m->nwarn + 1, sizeof *w);
    if (!w)
        return -1;
    m->warn = w;
    if (!(w[m->nwarn] = mem_strdup(full)))
        return -1;
    m->nwarn++;
    return 0;
}

/* A warning about element n of `where`, which is passed over. */
static hs_code ignored(reader *rd, const xmlNode *n, const char *where)
{
    int r;
    if (is_xacro(n))
        r = urdf_warn(rd->m, line_of(n), "xacro element <%s%s%s> ignored (expand the file "
                                         "with xacro first)",
                      n->ns && n->ns->prefix ? (const char *)n->ns->prefix : "",
                      n->ns && n->ns->prefix ? ":" : "", (const char *)n->name);
    else
        r = urdf_warn(rd->m, line_of(n), "element <%s> %s ignored", (const char *)n->name, where);
    return r == 0 ? HS_OK : urdf_nomem(rd);
}

/* n's attribute `name` as `count` numbers into v: absent leaves v (the
 * default) unless required. */
static hs_code reals_attr(reader *rd, const xmlNode *n, const char *name, double *v, int count,
                          int required)
{
    char *s = attr(n, name);
    if (!s)
        return required ? urdf_fail(rd, n, "<%s> needs the attribute %s", (const char *)n->name,
                               name)
                        : HS_OK;
    int ok = urdf_parse_reals(s, v, count);
    hs_code rc = HS_OK;
    if (!ok)
        rc = urdf_fail(rd, n, "<%s %s=\"%.60s\">: expected %d finite number%s",
                  (const char *)n->name, name, s, count, count > 1 ? "s" : "");
    xmlFree(s);
    return rc;
}

/* <origin xyz rpy> into m (m unchanged when n is NULL). */
static hs_code read_origin(reader *rd, const xmlNode *n, double m[16])
{
    double xyz[3] = {0, 0, 0}, rpy[3] = {0, 0, 0};
    hs_code rc = reals_attr(rd, n, "xyz", xyz, 3, 0);
    if (rc == HS_OK)
        rc = reals_attr(rd, n, "rpy", rpy, 3, 0);
    if (rc == HS_OK)
        urdf_pose_xyz_rpy(xyz, rpy, m);
    return rc;
}

/* A new copy of n's attribute `name` (mem_strdup'ed) into *out; required:
 * nonempty. */
static hs_code name_attr(reader *rd, const xmlNode *n, const char *name, char **out)
{
    char *s = attr(n, name);
    if (!s || !*s) {
        if (s)
            xmlFree(s);
        return urdf_fail(rd, n, "<%s> needs a nonempty %s attribute", (const char *)n->name, name);
    }
    *out = mem_strdup(s);
    xmlFree(s);
    return *out ? HS_OK : urdf_nomem(rd);
}

/* ------------------------------------------------------------ geometry */

static hs_code read_shape(reader *rd, const xmlNode *g, urdf_shape *s)
{
    hs_code rc = HS_OK;
    s->line = line_of(g);
    if (is_elem(g, "box")) {
        s->kind = URDF_BOX;
        rc = reals_attr(rd, g, "size", s->size, 3, 1);
        if (rc == HS_OK && !(s->size[0] > 0 && s->size[1] > 0 && s->size[2] > 0))
            rc = urdf_fail(rd, g, "<box>: the sizes must be positive");
    } else if (is_elem(g, "cylinder") || is_elem(g, "capsule")) {
        s->kind = is_elem(g, "cylinder") ? URDF_CYLINDER : URDF_CAPSULE;
        rc = reals_attr(rd, g, "radius", &s->radius, 1, 1);
        if (rc == HS_OK)
            rc = reals_attr(rd, g, "length", &s->length, 1, 1);
        if (rc == HS_OK && !(s->radius > 0 && s->length >= 0 &&
                             (s->length > 0 || s->kind == URDF_CAPSULE)))
            rc = urdf_fail(rd, g, "<%s>: the radius must be positive and the length %s",
                      (const char *)g->name, s->kind == URDF_CAPSULE ? "at least 0" : "positive");
    } else if (is_elem(g, "sphere")) {
        s->kind = URDF_SPHERE;
        rc = reals_attr(rd, g, "radius", &s->radius, 1, 1);
        if (rc == HS_OK && !(s->radius > 0))
            rc = urdf_fail(rd, g, "<sphere>: the radius must be positive");
    } else if (is_elem(g, "mesh")) {
        s->kind = URDF_MESH;
        s->scale[0] = s->scale[1] = s->scale[2] = 1;
        rc = name_attr(rd, g, "filename", &s->filename);
        if (rc == HS_OK) {
            /* scale="s" (one number, as some exporters write) or "sx sy sz" */
            char *sc = attr(g, "scale");
            if (sc && urdf_parse_reals(sc, s->scale, 1))
                s->scale[1] = s->scale[2] = s->scale[0];
            else if (sc && !urdf_parse_reals(sc, s->scale, 3))
                rc = urdf_fail(rd, g, "<mesh scale=\"%.60s\">: expected 1 or 3 finite numbers", sc);
            if (sc)
                xmlFree(sc);
        }
        if (rc == HS_OK && (s->scale[0] == 0 || s->scale[1] == 0 || s->scale[2] == 0))
            rc = urdf_fail(rd, g, "<mesh>: a scale of 0 flattens the mesh");
    } else {
        rc = urdf_fail(rd, g, "unknown geometry <%s> (expected box, cylinder, sphere, capsule or "
                         "mesh)", (const char *)g->name);
    }
    return rc;
}

static hs_code read_geometry(reader *rd, const xmlNode *geo, urdf_shape *s)
{
    const xmlNode *shape = NULL;
    for (const xmlNode *c = geo->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (shape)
            return urdf_fail(rd, c, "<geometry> holds more than one shape");
        shape = c;
    }
    if (!shape)
        return urdf_fail(rd, geo, "<geometry> holds no shape");
    return read_shape(rd, shape, s);
}

static hs_code read_collision(reader *rd, const xmlNode *col, urdf_link *L)
{
    urdf_shape s;
    memset(&s, 0, sizeof s);
    hs_pose_identity(s.origin);
    const xmlNode *origin = NULL, *geo = NULL;
    for (const xmlNode *c = col->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (is_elem(c, "origin") || is_elem(c, "geometry")) {
            const xmlNode **slot = is_elem(c, "origin") ? &origin : &geo;
            if (*slot)
                return urdf_fail(rd, c, "<collision> has two <%s> elements", (const char *)c->name);
            *slot = c;
        } else if (!is_elem(c, "material")) { /* a visual property, nothing to collide */
            hs_code rc = ignored(rd, c, "in <collision>");
            if (rc != HS_OK)
                return rc;
        }
    }
    if (!geo)
        return urdf_fail(rd, col, "<collision> without <geometry>");
    hs_code rc = origin ? read_origin(rd, origin, s.origin) : HS_OK;
    if (rc == HS_OK)
        rc = read_geometry(rd, geo, &s);
    if (rc == HS_OK) {
        urdf_shape *p = grow_array(L->shape, &L->cap, (long)L->nshapes + 1, sizeof *p);
        if (!p)
            rc = urdf_nomem(rd);
        else {
            L->shape = p;
            L->shape[L->nshapes++] = s;
            return HS_OK;
        }
    }
    free(s.filename);
    return rc;
}

/* ------------------------------------------------------------ links */

static hs_code read_link(reader *rd, const xmlNode *n)
{
    if (rd->m->nlinks >= rd->max_links)
        return urdf_fail(rd, n, "more than %d links (the limit)", rd->max_links);
    urdf_link *p = grow_array(rd->m->link, &rd->m->link_cap, (long)rd->m->nlinks + 1, sizeof *p);
    if (!p)
        return urdf_nomem(rd);
    rd->m->link = p;
    urdf_link *L = &p[rd->m->nlinks++];
    memset(L, 0, sizeof *L);
    L->line = line_of(n);
    hs_code rc = name_attr(rd, n, "name", &L->name);
    for (const xmlNode *c = n->children; c && rc == HS_OK; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (is_elem(c, "collision"))
            rc = read_collision(rd, c, L);
        else if (!is_elem(c, "visual") && !is_elem(c, "inertial"))
            rc = ignored(rd, c, "in <link>");
    }
    return rc;
}

/* ------------------------------------------------------------ joints */

static const struct {
    const char *name;
    hs_robot_joint_kind type;
} joint_types[] = {
    {"fixed", HS_ROBOT_FIXED},         {"revolute", HS_ROBOT_REVOLUTE},
    {"continuous", HS_ROBOT_CONTINUOUS}, {"prismatic", HS_ROBOT_PRISMATIC},
    {"floating", HS_ROBOT_FLOATING},   {"planar", HS_ROBOT_PLANAR},
};

static hs_code joint_type(reader *rd, const xmlNode *n, urdf_joint *J)
{
    char *t = attr(n, "type");
    if (!t)
        return urdf_fail(rd, n, "<joint name=\"%s\"> needs a type", J->name);
    for (size_t k = 0; k < sizeof joint_types / sizeof joint_types[0]; k++)
        if (strcmp(t, joint_types[k].name) == 0) {
            J->type = joint_types[k].type;
            xmlFree(t);
            return HS_OK;
        }
    hs_code rc = urdf_fail(rd, n, "joint '%s': unknown joint type '%.40s' (expected fixed, revolute, "
                             "continuous, prismatic, floating or planar)", J->name, t);
    xmlFree(t);
    return rc;
}

static hs_code read_limit(reader *rd, const xmlNode *c, urdf_joint *J)
{
    J->has_limit = 1;
    J->limit_line = line_of(c);
    J->lo = J->hi = 0; /* URDF's defaults for a <limit> without them */
    hs_code rc = reals_attr(rd, c, "lower", &J->lo, 1, 0);
    if (rc == HS_OK)
        rc = reals_attr(rd, c, "upper", &J->hi, 1, 0);
    return rc;
}

static hs_code read_mimic(reader *rd, const xmlNode *c, urdf_joint *J)
{
    if (J->mimic)
        return urdf_fail(rd, c, "joint '%s' has two <mimic> elements", J->name);
    J->mimic_line = line_of(c);
    J->mult = 1;
    J->offset = 0;
    hs_code rc = name_attr(rd, c, "joint", &J->mimic);
    if (rc == HS_OK)
        rc = reals_attr(rd, c, "multiplier", &J->mult, 1, 0);
    if (rc == HS_OK)
        rc = reals_attr(rd, c, "offset", &J->offset, 1, 0);
    return rc;
}

static hs_code link_ref(reader *rd, const xmlNode *c, char **slot, int *line)
{
    if (*slot)
        return urdf_fail(rd, c, "a joint with two <%s> elements", (const char *)c->name);
    *line = line_of(c);
    return name_attr(rd, c, "link", slot);
}

static hs_code joint_child(reader *rd, const xmlNode *c, urdf_joint *J, int *seen_origin)
{
    if (is_elem(c, "origin")) {
        if ((*seen_origin)++)
            return urdf_fail(rd, c, "joint '%s' has two <origin> elements", J->name);
        return read_origin(rd, c, J->origin);
    }
    if (is_elem(c, "parent"))
        return link_ref(rd, c, &J->parent, &J->parent_line);
    if (is_elem(c, "child"))
        return link_ref(rd, c, &J->child, &J->child_line);
    if (is_elem(c, "axis")) {
        J->axis_line = line_of(c);
        return reals_attr(rd, c, "xyz", J->axis, 3, 1);
    }
    if (is_elem(c, "limit"))
        return read_limit(rd, c, J);
    if (is_elem(c, "mimic"))
        return read_mimic(rd, c, J);
    if (is_elem(c, "dynamics") || is_elem(c, "safety_controller") || is_elem(c, "calibration"))
        return HS_OK;
    return ignored(rd, c, "in <joint>");
}

static hs_code read_joint(reader *rd, const xmlNode *n)
{
    urdf_joint *p = grow_array(rd->m->joint, &rd->m->joint_cap, (long)rd->m->njoints + 1,
                               sizeof *p);
    if (!p)
        return urdf_nomem(rd);
    rd->m->joint = p;
    urdf_joint *J = &p[rd->m->njoints++];
    memset(J, 0, sizeof *J);
    J->line = line_of(n);
    hs_pose_identity(J->origin);
    J->axis[0] = 1;
    hs_code rc = name_attr(rd, n, "name", &J->name);
    if (rc == HS_OK)
        rc = joint_type(rd, n, J);
    int seen_origin = 0;
    for (const xmlNode *c = n->children; c && rc == HS_OK; c = c->next)
        if (c->type == XML_ELEMENT_NODE)
            rc = joint_child(rd, c, J, &seen_origin);
    if (rc == HS_OK && (!J->parent || !J->child))
        rc = urdf_fail(rd, n, "joint '%s' needs a <parent link> and a <child link>", J->name);
    return rc;
}

/* ------------------------------------------------------------ robot */

static hs_code read_robot(reader *rd, const xmlNode *root)
{
    if (!is_elem(root, "robot"))
        return urdf_fail(rd, root, "the root element is <%s>, not <robot>", (const char *)root->name);
    char *name = attr(root, "name");
    rd->m->name = mem_strdup(name ? name : "");
    if (name)
        xmlFree(name);
    if (!rd->m->name)
        return urdf_nomem(rd);
    hs_code rc = HS_OK;
    for (const xmlNode *c = root->children; c && rc == HS_OK; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (is_xacro(c))
            rc = ignored(rd, c, "");
        else if (is_elem(c, "link"))
            rc = read_link(rd, c);
        else if (is_elem(c, "joint"))
            rc = read_joint(rd, c);
        else if (is_elem(c, "material"))
            continue;
        else if (is_elem(c, "transmission") || is_elem(c, "gazebo"))
            rc = urdf_warn(rd->m, line_of(c), "<%s> ignored (not needed for collision)",
                           (const char *)c->name) == 0 ? HS_OK : urdf_nomem(rd);
        else
            rc = ignored(rd, c, "in <robot>");
    }
    return rc;
}

/* libxml2's own message, located at its line. */
static hs_code xml_failed(reader *rd, xmlParserCtxt *ctx)
{
    const xmlError *e = xmlCtxtGetLastError(ctx);
    if (!e || !e->message)
        return err_at(rd->err, rd->m->file, 0, "not well-formed XML");
    char msg[256];
    snprintf(msg, sizeof msg, "%s", e->message);
    size_t len = strlen(msg);
    while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
        msg[--len] = '\0';
    if (e->code == XML_ERR_NO_MEMORY)
        return urdf_nomem(rd);
    return err_at(rd->err, rd->m->file, e->line, "XML: %s", msg);
}

hs_code urdf_read(const char *xml, long len, const char *file, const char *dir, int max_links,
                  urdf_model *m, hs_error *err)
{
    memset(m, 0, sizeof *m);
    m->file = mem_strdup(file);
    m->dir = mem_strdup(dir && *dir ? dir : ".");
    if (!m->file || !m->dir)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    reader rd = {m, err, max_links};
    if (len > INT32_MAX)
        return err_at(err, file, 0, "file too large for the XML reader");
    xmlInitParser();
    xmlParserCtxt *ctx = xmlNewParserCtxt();
    if (!ctx)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    int opts = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES;
    xmlDoc *doc = xmlCtxtReadMemory(ctx, xml, (int)len, file, NULL, opts);
    hs_code rc;
    if (!doc)
        rc = xml_failed(&rd, ctx);
    else {
        xmlNode *root = xmlDocGetRootElement(doc);
        rc = root ? read_robot(&rd, root) : err_at(err, file, 1, "no root element");
        xmlFreeDoc(doc);
    }
    xmlFreeParserCtxt(ctx);
    return rc;
}

void urdf_model_free(urdf_model *m)
{
    for (int i = 0; i < m->nlinks; i++) {
        for (int k = 0; k < m->link[i].nshapes; k++)
            free(m->link[i].shape[k].filename);
        free(m->link[i].shape);
        free(m->link[i].name);
    }
    for (int j = 0; j < m->njoints; j++) {
        free(m->joint[j].name);
        free(m->joint[j].parent);
        free(m->joint[j].child);
        free(m->joint[j].mimic);
    }
    for (int k = 0; k < m->nwarn; k++)
        free(m->warn[k]);
    free(m->warn);
    free(m->link);
    free(m->joint);
    free(m->file);
    free(m->dir);
    free(m->name);
    memset(m, 0, sizeof *m);
}

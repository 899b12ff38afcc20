/* vrml_nodes.c -- what the VRML reader knows of VRML 2.0: the field types
 * (names, numbers per value) and the supported nodes, each with its
 * fields and their types (nodes built into pieces, and nodes ignored
 * with any field). */
#include <stddef.h>
#include <string.h>

#include "src/scene/vrml.h"

/* -------------------------------------------------------------- types */

static const struct {
    const char *name;
    ftype type;
    int arity; /* numbers per value, 0 when not numeric */
} type_info[] = {
    {"(any)", F_ANY, 0},         {"(event)", F_EVENT, 0},     {"SFBool", F_SFBOOL, 0},
    {"SFColor", F_SFCOLOR, 3},   {"SFFloat", F_SFFLOAT, 1},   {"SFImage", F_SFIMAGE, 0},
    {"SFInt32", F_SFINT32, 1},   {"SFNode", F_SFNODE, 0},     {"SFRotation", F_SFROTATION, 4},
    {"SFString", F_SFSTRING, 0}, {"SFTime", F_SFTIME, 1},     {"SFVec2f", F_SFVEC2F, 2},
    {"SFVec3f", F_SFVEC3F, 3},   {"MFColor", F_MFCOLOR, 3},   {"MFFloat", F_MFFLOAT, 1},
    {"MFInt32", F_MFINT32, 1},   {"MFNode", F_MFNODE, 0},     {"MFRotation", F_MFROTATION, 4},
    {"MFString", F_MFSTRING, 0}, {"MFTime", F_MFTIME, 1},     {"MFVec2f", F_MFVEC2F, 2},
    {"MFVec3f", F_MFVEC3F, 3}};

const char *vrml_type_name(ftype t) { return type_info[t].name; }
int vrml_type_arity(ftype t) { return type_info[t].arity; }

int vrml_type_from_name(const char *s, ftype *t)
{
    for (size_t k = F_SFBOOL; k < sizeof type_info / sizeof type_info[0]; k++)
        if (strcmp(type_info[k].name, s) == 0) {
            *t = type_info[k].type;
            return 1;
        }
    return 0;
}

/* --------------------------------------------------------- node specs */

#define BBOX_FIELDS {"bboxCenter", F_SFVEC3F}, {"bboxSize", F_SFVEC3F}
#define CHILD_EVENTS {"addChildren", F_EVENT}, {"removeChildren", F_EVENT}
#define END_FIELDS {NULL, F_ANY}

static const field_spec transform_fields[] = {
    {"children", F_MFNODE},   {"translation", F_SFVEC3F},
    {"rotation", F_SFROTATION}, {"scale", F_SFVEC3F},
    {"scaleOrientation", F_SFROTATION}, {"center", F_SFVEC3F},
    BBOX_FIELDS, CHILD_EVENTS, END_FIELDS};
static const field_spec group_fields[] = {{"children", F_MFNODE}, BBOX_FIELDS, CHILD_EVENTS,
                                          END_FIELDS};
static const field_spec anchor_fields[] = {
    {"children", F_MFNODE}, {"url", F_MFSTRING}, {"description", F_SFSTRING},
    {"parameter", F_MFSTRING}, BBOX_FIELDS, CHILD_EVENTS, END_FIELDS};
static const field_spec collision_fields[] = {
    {"children", F_MFNODE}, {"collide", F_SFBOOL}, {"proxy", F_SFNODE},
    BBOX_FIELDS, CHILD_EVENTS, END_FIELDS};
static const field_spec switch_fields[] = {{"choice", F_MFNODE}, {"whichChoice", F_SFINT32},
                                           END_FIELDS};
static const field_spec lod_fields[] = {{"level", F_MFNODE}, {"center", F_SFVEC3F},
                                        {"range", F_MFFLOAT}, END_FIELDS};
static const field_spec shape_fields[] = {{"geometry", F_SFNODE}, {"appearance", F_SFNODE},
                                          END_FIELDS};
static const field_spec box_fields[] = {{"size", F_SFVEC3F}, END_FIELDS};
static const field_spec cylinder_fields[] = {
    {"radius", F_SFFLOAT}, {"height", F_SFFLOAT}, {"bottom", F_SFBOOL},
    {"top", F_SFBOOL}, {"side", F_SFBOOL}, END_FIELDS};
static const field_spec cone_fields[] = {{"bottomRadius", F_SFFLOAT}, {"height", F_SFFLOAT},
                                         {"bottom", F_SFBOOL}, {"side", F_SFBOOL}, END_FIELDS};
static const field_spec sphere_fields[] = {{"radius", F_SFFLOAT}, END_FIELDS};
static const field_spec ifs_fields[] = {
    {"coord", F_SFNODE},          {"coordIndex", F_MFINT32},   {"convex", F_SFBOOL},
    {"ccw", F_SFBOOL},            {"solid", F_SFBOOL},         {"creaseAngle", F_SFFLOAT},
    {"normal", F_SFNODE},         {"normalIndex", F_MFINT32},  {"normalPerVertex", F_SFBOOL},
    {"color", F_SFNODE},          {"colorIndex", F_MFINT32},   {"colorPerVertex", F_SFBOOL},
    {"texCoord", F_SFNODE},       {"texCoordIndex", F_MFINT32},
    {"set_coordIndex", F_EVENT},  {"set_normalIndex", F_EVENT}, {"set_colorIndex", F_EVENT},
    {"set_texCoordIndex", F_EVENT}, END_FIELDS};
static const field_spec coord_fields[] = {{"point", F_MFVEC3F}, END_FIELDS};
static const field_spec inline_fields[] = {{"url", F_MFSTRING}, BBOX_FIELDS, END_FIELDS};

static const node_spec node_specs[] = {
    {"Transform", K_TRANSFORM, transform_fields},
    {"Group", K_GROUP, group_fields},
    {"Anchor", K_GROUP, anchor_fields},
    {"Collision", K_GROUP, collision_fields},
    {"Switch", K_SWITCH, switch_fields},
    {"LOD", K_LOD, lod_fields},
    {"Shape", K_SHAPE, shape_fields},
    {"Box", K_BOX, box_fields},
    {"Cylinder", K_CYLINDER, cylinder_fields},
    {"Cone", K_CONE, cone_fields},
    {"Sphere", K_SPHERE, sphere_fields},
    {"IndexedFaceSet", K_IFS, ifs_fields},
    {"Coordinate", K_COORD, coord_fields},
    {"Inline", K_INLINE, inline_fields},
    {"Script", K_SCRIPT, NULL},
    {"Appearance", K_IGNORED, NULL},          {"Material", K_IGNORED, NULL},
    {"ImageTexture", K_IGNORED, NULL},        {"PixelTexture", K_IGNORED, NULL},
    {"MovieTexture", K_IGNORED, NULL},        {"TextureTransform", K_IGNORED, NULL},
    {"TextureCoordinate", K_IGNORED, NULL},   {"Normal", K_IGNORED, NULL},
    {"Color", K_IGNORED, NULL},               {"FontStyle", K_IGNORED, NULL},
    {"Viewpoint", K_IGNORED, NULL},           {"NavigationInfo", K_IGNORED, NULL},
    {"Background", K_IGNORED, NULL},          {"WorldInfo", K_IGNORED, NULL},
    {"DirectionalLight", K_IGNORED, NULL},    {"PointLight", K_IGNORED, NULL},
    {"SpotLight", K_IGNORED, NULL},           {"Fog", K_IGNORED, NULL},
    {"Sound", K_IGNORED, NULL},               {"AudioClip", K_IGNORED, NULL},
    {"TimeSensor", K_IGNORED, NULL},          {"TouchSensor", K_IGNORED, NULL},
    {"ProximitySensor", K_IGNORED, NULL},     {"VisibilitySensor", K_IGNORED, NULL},
    {"CylinderSensor", K_IGNORED, NULL},      {"PlaneSensor", K_IGNORED, NULL},
    {"SphereSensor", K_IGNORED, NULL},        {"ColorInterpolator", K_IGNORED, NULL},
    {"CoordinateInterpolator", K_IGNORED, NULL}, {"NormalInterpolator", K_IGNORED, NULL},
    {"OrientationInterpolator", K_IGNORED, NULL}, {"PositionInterpolator", K_IGNORED, NULL},
    {"ScalarInterpolator", K_IGNORED, NULL}};

const node_spec *vrml_find_spec(const char *name)
{
    for (size_t k = 0; k < sizeof node_specs / sizeof node_specs[0]; k++)
        if (strcmp(node_specs[k].name, name) == 0)
            return &node_specs[k];
    return NULL;
}

const field_spec *vrml_find_field_spec(const node_spec *s, const char *name)
{
    for (const field_spec *f = s->fields; f && f->name; f++)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

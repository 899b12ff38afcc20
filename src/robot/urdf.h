/* urdf.h -- a URDF file as read (urdf_read.c, with the attribute parsers
 * of urdf_values.c), before it becomes a robot (robot_build.c): links
 * with their collision shapes, joints with their attributes, each with
 * the line it came from, and the warnings about what was passed over. */
#ifndef HS_URDF_H
#define HS_URDF_H

#include "halfspace.h"
#include "polytope/error.h"

typedef enum urdf_shape_kind {
    URDF_BOX,
    URDF_CYLINDER,
    URDF_SPHERE,
    URDF_CAPSULE,
    URDF_MESH
} urdf_shape_kind;

/* One <collision> element. */
typedef struct urdf_shape {
    urdf_shape_kind kind;
    double size[3];      /* box */
    double radius;       /* cylinder, sphere, capsule */
    double length;       /* cylinder, capsule */
    char *filename;      /* mesh, as written */
    double scale[3];     /* mesh (default 1 1 1) */
    double origin[16];   /* the shape's pose in the link frame */
    int line;            /* of the <geometry>'s shape element */
} urdf_shape;

typedef struct urdf_link {
    char *name;
    int line;
    urdf_shape *shape;
    int nshapes, cap;
} urdf_link;

typedef struct urdf_joint {
    char *name;
    int line;
    hs_robot_joint_kind type;
    char *parent, *child;
    int parent_line, child_line;
    double origin[16];
    double axis[3];      /* as written (default 1 0 0) */
    int axis_line;
    int has_limit;
    double lo, hi;
    int limit_line;
    char *mimic;         /* leader's name, or NULL */
    double mult, offset;
    int mimic_line;
} urdf_joint;

typedef struct urdf_model {
    char *file;          /* the name used in messages */
    char *dir;           /* folder of relative mesh paths ("." if none) */
    char *name;          /* <robot name> */
    urdf_link *link;
    int nlinks, link_cap;
    urdf_joint *joint;
    int njoints, joint_cap;
    char **warn;         /* "FILE:LINE: ... ignored" */
    int nwarn, warn_cap;
} urdf_model;

/* Read URDF text (len bytes, xml[len] need not be 0) named `file` in
 * messages, relative paths under `dir`, into *m (initialized here; free
 * it with urdf_model_free, also on failure).  Errors: HS_ERR_INPUT
 * "FILE:LINE: what is wrong", HS_ERR_NOMEM.  At most max_links links. */
hs_code urdf_read(const char *xml, long len, const char *file, const char *dir, int max_links,
                  urdf_model *m, hs_error *err);
void urdf_model_free(urdf_model *m);

/* Append a warning "FILE:LINE: text" (0 or -1 when out of memory). */
int urdf_warn(urdf_model *m, int line, const char *fmt, ...) ERR_PRINTF(3, 4);

/* urdf_values.c: attribute values.  Each parses the whole text (blanks
 * around and between numbers allowed) and returns 1, or 0 when it is not
 * that many finite decimal numbers. */
int urdf_parse_reals(const char *text, double *v, int n);
/* xyz and rpy (either NULL: zeros) into a pose: R = Rz(y) Ry(p) Rx(r). */
void urdf_pose_xyz_rpy(const double xyz[3], const double rpy[3], double m[16]);

#endif

/* robot.c -- hs_robot: release, options, names, warnings, and the
 * getters of links, joints and coordinates. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/grow.h"
#include "polytope/mem.h"
#include "src/robot/robot.h"

void hs_robot_options_init(hs_robot_options *o)
{
    memset(o, 0, sizeof *o);
    o->mesh_as_hull = 1;
    o->cylinder_sides = 24;
    o->sphere_level = 2;
    o->package_path = NULL;
    o->ros_package_path = 1;
    o->missing_mesh_warns = 0;
    o->auto_skip = 1;
    o->max_file_bytes = 256L << 20;
    o->max_links = 10000;
}

const char *hs_robot_joint_type_name(hs_robot_joint_kind t)
{
    switch (t) {
    case HS_ROBOT_FIXED: return "fixed";
    case HS_ROBOT_REVOLUTE: return "revolute";
    case HS_ROBOT_CONTINUOUS: return "continuous";
    case HS_ROBOT_PRISMATIC: return "prismatic";
    case HS_ROBOT_FLOATING: return "floating";
    case HS_ROBOT_PLANAR: return "planar";
    }
    return "unknown";
}

void hs_robot_free(hs_robot *r)
{
    if (!r)
        return;
    if (r->link)
        for (int i = 0; i < r->nlinks; i++) {
            for (int k = 0; k < r->link[i].npiece; k++)
                geom_release(r->link[i].piece[k]);
            free(r->link[i].piece);
            free(r->link[i].name);
        }
    if (r->joint)
        for (int j = 0; j < r->njoints; j++)
            free(r->joint[j].name);
    for (int k = 0; k < r->nwarn; k++)
        free(r->warn[k]);
    if (r->ws_ready)
        robot_ws_free(&r->ws);
    free(r->warn);
    free(r->scratch);
    free(r->link);
    free(r->joint);
    free(r->coord_joint);
    free(r->rest);
    free(r->W);
    free(r->q_free);
    free(r->pose_moved);
    free(r->skip);
    free(r->name);
    free(r);
}

int robot_add_warning(hs_robot *r, const char *text)
{
    char **w = mem_realloc(r->warn, (size_t)r->nwarn + 1, sizeof *w);
    if (!w)
        return -1;
    r->warn = w;
    if (!(w[r->nwarn] = mem_strdup(text)))
        return -1;
    r->nwarn++;
    return 0;
}

const char *hs_robot_name(const hs_robot *r) { return r && r->name ? r->name : ""; }
int hs_robot_warning_count(const hs_robot *r) { return r ? r->nwarn : 0; }
const char *hs_robot_warning(const hs_robot *r, int k)
{
    return r && k >= 0 && k < r->nwarn ? r->warn[k] : NULL;
}

/* ------------------------------------------------------------ links */

int hs_robot_link_count(const hs_robot *r) { return r ? r->nlinks : 0; }

const char *hs_robot_link_name(const hs_robot *r, int i)
{
    return r && i >= 0 && i < r->nlinks ? r->link[i].name : NULL;
}

int hs_robot_link_find(const hs_robot *r, const char *name)
{
    if (!r || !name)
        return -1;
    for (int i = 0; i < r->nlinks; i++)
        if (strcmp(r->link[i].name, name) == 0)
            return i;
    return -1;
}

int hs_robot_link_parent(const hs_robot *r, int i)
{
    return r && i >= 1 && i < r->nlinks ? r->joint[i - 1].parent : -1;
}

int hs_robot_link_piece_count(const hs_robot *r, int i)
{
    return r && i >= 0 && i < r->nlinks ? r->link[i].npiece : 0;
}

hs_code hs_robot_link_piece_boundary(const hs_robot *r, int i, int k, int *is_convex,
                                     double **verts, int *nverts, int **face_start,
                                     int **face_vert, int *nfaces, hs_error *err)
{
    if (!r || i < 0 || i >= r->nlinks || k < 0 || k >= r->link[i].npiece)
        return err_set(err, HS_ERR_ARG, "hs_robot_link_piece_boundary: no piece %d of link %d",
                       k, i);
    return geom_boundary(r->link[i].piece[k], is_convex, verts, nverts, face_start, face_vert,
                         nfaces, err);
}

/* ------------------------------------------------------------ joints */

int hs_robot_joint_count(const hs_robot *r) { return r ? r->njoints : 0; }

static int joint_ok(const hs_robot *r, int j) { return r && j >= 0 && j < r->njoints; }

const char *hs_robot_joint_name(const hs_robot *r, int j)
{
    return joint_ok(r, j) ? r->joint[j].name : NULL;
}

int hs_robot_joint_find(const hs_robot *r, const char *name)
{
    if (!r || !name)
        return -1;
    for (int j = 0; j < r->njoints; j++)
        if (strcmp(r->joint[j].name, name) == 0)
            return j;
    return -1;
}

hs_robot_joint_kind hs_robot_joint_type(const hs_robot *r, int j)
{
    return joint_ok(r, j) ? r->joint[j].type : HS_ROBOT_FIXED;
}

int hs_robot_joint_coordinate(const hs_robot *r, int j)
{
    return joint_ok(r, j) ? r->joint[j].coord : -1;
}

int hs_robot_joint_mimic(const hs_robot *r, int j, double *multiplier, double *offset)
{
    if (!joint_ok(r, j) || r->joint[j].mimic < 0)
        return -1;
    if (multiplier)
        *multiplier = r->joint[j].mult;
    if (offset)
        *offset = r->joint[j].offset;
    return r->joint[j].mimic;
}

/* ------------------------------------------------------------ coordinates */

int hs_robot_dof(const hs_robot *r) { return r ? r->dof : 0; }

int hs_robot_coordinate_joint(const hs_robot *r, int k)
{
    return r && k >= 0 && k < r->dof ? r->coord_joint[k] : -1;
}

hs_code hs_robot_coordinate_limits(const hs_robot *r, int k, double *lo, double *hi,
                                   hs_error *err)
{
    if (!r || k < 0 || k >= r->dof)
        return err_set(err, HS_ERR_ARG, "hs_robot_coordinate_limits: no coordinate %d", k);
    const robot_joint *J = &r->joint[r->coord_joint[k]];
    if (lo)
        *lo = J->lo;
    if (hi)
        *hi = J->hi;
    return HS_OK;
}

/* draw.h -- pictures (issue 17), for the command-line tool: one or two
 * systems of inequalities (halfspace draw), the seed's recursion step by
 * step with its page (halfspace draw --trace), and scenes, chains and
 * paths (--draw on world, chain and path).  Everything is drawn by cairo
 * (canvas.h): the picture's format is its file's extension, .svg, .png
 * or .pdf.  The draw code reads answers, vertices and poses; it sits above
 * the solver and the collision toolkit and changes nothing in them.
 *
 * Every function returns HS_OK or an error with a message in err
 * (HS_ERR_ARG for a bad name or view, HS_ERR_INPUT for what cannot be
 * drawn, HS_ERR_IO when a file cannot be written, HS_ERR_NOMEM). */
#ifndef HS_DRAW_H
#define HS_DRAW_H

#include "halfspace.h"

typedef struct draw_opts {
    const char *out;     /* the picture (file), or the directory (--trace) */
    int have_view;       /* 1: az, el below; 0: the default camera */
    double az, el;       /* degrees: azimuth about the up axis, elevation */
    int png_frames;      /* --trace: also write frame-NNN.png beside the .svg */
} draw_opts;

/* Parse "AZ,EL" (degrees, finite) into o; returns 0 or -1. */
int draw_parse_view(const char *text, draw_opts *o);

/* A (and B, may be NULL) of 1, 2 or 3 variables: the polygons or
 * polyhedra, the common region, the witness point of the query run with
 * q (NULL: the fast engine), each row's number on its edge or face, the
 * separating line or plane of a disjoint or touching pair's certificate,
 * and "A is empty" where it is. */
hs_code draw_pair_picture(const hs_poly *A, const hs_poly *B, const hs_options *q,
                          const draw_opts *o, hs_error *err);

/* The walk of the engine q->engine (faithful, faithful-exact: the seed's
 * recursion, one frame per step; fast: one frame per line of its trace)
 * on A and B (2 or 3 variables; q's replay points and tolerance apply):
 * o->out/frame-NNN.svg (and .png with o->png_frames) and
 * o->out/index.html, the page that steps through them.  The directory is
 * created if missing.  *frames (may be NULL) receives the number of
 * frames. */
hs_code draw_trace_pages(const hs_poly *A, const hs_poly *B, const hs_options *q,
                         const draw_opts *o, int *frames, hs_error *err);

/* A world as its report rep (may be NULL) found it: bodies shaded,
 * pieces in overlap red, touching orange, in contact yellow, the contact
 * points and normals; the camera frames the scene (VRML: y up). */
hs_code draw_world_picture(const hs_world *w, const hs_report *rep, const draw_opts *o,
                           hs_error *err);

/* A path of body b: the world with b at contact (its pose put back
 * afterwards) and rep, and b at each of the nposes step poses before it
 * (16 doubles each), faded. */
hs_code draw_path_picture(hs_world *w, hs_body *b, const double *poses, int nposes,
                          const double contact[16], const hs_report *rep, const draw_opts *o,
                          hs_error *err);

/* A chain at its current joints, with the world w (may be NULL): links in
 * self-collision (nself pairs of links) and in collision with the scene
 * (nscene pairs link, body index) red, with those bodies; with near (may
 * be NULL: 6 doubles, a point on the chain and one on the scene) the
 * closest points joined. */
hs_code draw_chain_picture(const hs_chain *c, const hs_world *w, const int *self, int nself,
                           const int *scene, int nscene, const double *near, const draw_opts *o,
                           hs_error *err);

/* A robot at its current configuration, with the world w (may be NULL):
 * links in the self-collision pairs (nself) and the scene pairs (nscene;
 * hs_robot_self_collision_all, hs_robot_world_collision_all) red when
 * they overlap, orange when they touch, with those bodies; with near (may
 * be NULL: 6 doubles, a point on the robot and one on the scene) the
 * closest points joined.  The camera frames it, z up (URDF). */
hs_code draw_robot_picture(const hs_robot *r, const hs_world *w, const hs_robot_pair *self,
                           int nself, const hs_robot_pair *scene, int nscene, const double *near,
                           const draw_opts *o, hs_error *err);

#endif

/*
 * halfspace/motion.h -- moving a body of a world: until contact along a
 * straight motion (seed 001), and along paths, lines and arcs of poses
 * checked step by step or with a guarantee (seed 004, sections 4-5).
 * Part of the public API of libhalfspace; programs include "halfspace.h",
 * which includes this file.
 *
 * Every routine here that takes a body moves it during the call, so it
 * changes the world: it must not run concurrently with anything else on
 * that world.
 */
#include "../halfspace.h"

#ifndef HALFSPACE_MOTION_H
#define HALFSPACE_MOTION_H

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Move until contact (seed 001)                                        */
/* ------------------------------------------------------------------ */

/* Move until contact (seed 001): from its current pose, which must be free
 * of collision, body b moves towards `end` (double[16], a valid pose;
 * translation linear, rotation by slerp along the shortest arc) and stops
 * at the first pose closer than opt->threshold (> 0) to a body it may
 * collide with (the filters of world.h apply).  The motion advances
 * conservatively: each step is bounded by the current distance over the
 * fastest-moving point's speed, so b cannot pass through a thin obstacle.
 * b is left at the stopping pose and rep (not NULL, overwritten) holds the
 * world's query there, with opt.  *fraction (may be NULL) receives how
 * far along the motion it stopped (1: the end is free and farther than
 * the threshold).  If b starts within the threshold, it stops only on
 * getting closer than half its starting distance, so it can move away
 * from a contact.  opt NULL means the defaults of hs_query_options_init.
 * Errors (b is then put back at its start pose): HS_ERR_ARG for w, b, end
 * or rep NULL, b not a body of w, end not a valid pose, a threshold that
 * is not finite and > 0, or a motion longer than 5e6 thresholds;
 * HS_ERR_INPUT if the start pose is in collision; HS_ERR_NOMEM.  Not
 * thread-safe on w (moves b). */
HS_API hs_code hs_world_move_until_contact(hs_world *w, hs_body *b, const double end[16],
                                           const hs_query_options *opt, hs_report *rep,
                                           double *fraction, hs_error *err);

/* ------------------------------------------------------------------ */
/* Trajectories (seed 004, sections 4-5)                                */
/* ------------------------------------------------------------------ */

/* A path is a curve of rigid poses p(f), f from 0 (start) to 1 (end), for
 * one body of a world to follow.  Two kinds:
 *  - a straight line (seed 004, section 4), from a start pose to a target
 *    translation: the translation moves linearly; the orientation stays,
 *    or turns to a target orientation given as Z-Y-Z Euler angles (seed
 *    004, eq. (1)) about one fixed axis at a constant rate (slerp, the
 *    shorter way round);
 *  - an arc through three points (seed 004, section 5): the start pose's
 *    translation p0, a via point p1 and an end point p2.  The body's
 *    origin moves along the circle through them at a constant angular
 *    rate, from p0 through p1 to p2 (the arc angle theta may exceed pi).
 *    The orientation stays fixed (the body translates along the arc), or,
 *    with `turn`, turns with the arc: at angle phi along it the body is
 *    rotated by phi about the arc's axis (the line through its centre
 *    along its normal), as on a turntable.
 * Start poses must be rigid: finite, last row 0 0 0 1, rotation part
 * orthonormal with determinant 1 to within 1e-9 in every entry.
 *
 * A path is immutable once built and independent of any world: it belongs
 * to the caller (hs_path_free), and every routine reading it is
 * const-safe.  (The type hs_path is declared in halfspace.h.)
 *
 * Checking a path (hs_path_check) cuts it into K steps of equal f (equal
 * lengths for a line, equal angles for an arc) and runs in one of two
 * modes.  A pose is BLOCKED when the body has a common point with another
 * body it may collide with (a collision: overlap or touching, decided
 * exactly for the pose's doubles, as in hs_world_query) or comes closer
 * to one than the contact threshold (a contact; distances are computed
 * in floating point).  With threshold 0 only collisions block.
 *  - Stepped mode (the seed's method): the K poses p(k/K), k = 1..K, are
 *    tested in order; the first blocked one is step k.  A thin obstacle
 *    that the body passes through entirely between two consecutive step
 *    poses is NOT seen: the stepped mode can report `free` for a path
 *    that collides.  It is exact only at the step poses.
 *  - Guaranteed mode: conservative advancement along the same curve (as
 *    hs_world_move_until_contact): at a pose whose distance to the
 *    nearest other body is d, the next pose is d - threshold/2 further
 *    along, measured by a bound on the speed of every point of the body
 *    (line: |translation| + rotation angle * r; arc: R theta, plus
 *    theta * r when the body turns; r = the largest distance from the
 *    body's origin to its points), so every pose in between stays at
 *    least threshold/2 away from everything.  It cannot miss a collision:
 *    `free` means no pose of the whole curve has a common point with
 *    another body (each pose stays at least threshold/2 away, up to the
 *    accuracy of the floating-point distance, about 1e-12 of the scene's
 *    size, which a threshold must exceed by far).  It stops
 *    at the first pose it measures closer than the threshold; a pose
 *    between two measured ones may have come within the threshold (but
 *    not within threshold/2) unreported.  Needs threshold > 0, and stops
 *    with HS_ERR_ARG for paths over 5e6 thresholds long.
 * In both modes the start pose must be free of collision (HS_ERR_INPUT
 * otherwise, also for a floating-point distance of 0 to another body: too
 * close to tell); a body starting closer than the threshold to another
 * (but without collision) uses half that starting distance as its
 * threshold, so that it can move away from a contact. */

/* Most steps a path may be cut into. */
#define HS_PATH_MAX_STEPS 1000000

/* Straight line from the rigid pose `start` (double[16]) to the
 * translation target[3]; zyz NULL keeps start's orientation (exactly),
 * otherwise zyz[3] = (alpha, beta, gamma) in radians gives the end
 * orientation Rz(alpha) Ry(beta) Rz(gamma) (hs_pose_from_zyz).  A line may
 * have zero length (a rotation in place).  The arrays are copied.
 * Returns a new path (free with hs_path_free), or NULL with HS_ERR_ARG for
 * start or target NULL, a start pose that is not rigid or a non-finite
 * target or angle, or with HS_ERR_NOMEM.  Thread-safe. */
HS_API hs_path *hs_path_line(const double start[16], const double target[3],
                             const double *zyz, hs_error *err);

/* Arc from start's translation through via[3] to end[3] (see above);
 * turn nonzero turns the body with the arc.  The centre is the point
 * equidistant from the three in their plane (seed 004, eqs. (16)-(18)),
 * theta the angle from p0 to p2 through p1, in (0, 2 pi) (eqs.
 * (19)-(25)).  Returns a new path (free with hs_path_free), or NULL with
 * HS_ERR_ARG for a NULL argument, a start pose that is not rigid,
 * non-finite points, two coincident points, or collinear points (the
 * cross product (p1 - p0) x (p2 - p0) is zero to within its rounding
 * error bound: no circle is defined in double precision; also points so
 * nearly collinear that the via point does not come out between start
 * and end, or so far apart or close together that the circle overflows
 * or underflows), or with HS_ERR_NOMEM.  Thread-safe. */
HS_API hs_path *hs_path_arc(const double start[16], const double via[3], const double end[3],
                            int turn, hs_error *err);

/* Free a path (NULL is allowed).  Not while another thread uses p. */
HS_API void hs_path_free(hs_path *p);

/* Nonzero for an arc, 0 for a line or p NULL.  Const-safe. */
HS_API int hs_path_is_arc(const hs_path *p);
/* Length of the curve the body's origin follows (line: |target - start
 * translation|; arc: radius * theta; 0 for p NULL).  Const-safe. */
HS_API double hs_path_length(const hs_path *p);
/* An arc's centre, unit normal (the arc turns counterclockwise about it:
 * n = (p1 - p0) x (p2 - p1) normalised), radius and angle theta; any
 * output may be NULL.  HS_ERR_ARG for a line or p NULL.  Const-safe. */
HS_API hs_code hs_path_arc_geometry(const hs_path *p, double centre[3], double normal[3],
                                    double *radius, double *theta, hs_error *err);
/* Pose p(f) for 0 <= f <= 1 into out[16] (p(0) is the start pose exactly;
 * p(1) has the target or end point exactly as its translation).
 * HS_ERR_ARG for p or out NULL, f outside [0, 1] or NaN.  Const-safe. */
HS_API hs_code hs_path_pose(const hs_path *p, double f, double out[16], hs_error *err);

/* How a path is checked.  Fill with hs_path_options_init, then change.
 * A plain struct owned by the caller. */
typedef struct hs_path_options {
    /* Steps: either steps = K >= 1 (default 10) with speed = period = 0,
     * or steps = 0 with a speed F > 0 (scene units per time unit) and an
     * interpolation period T > 0 (time units; seed 004, section 5).  Then
     * a line gets K = ceil(L / (F T)) steps (L its length, which must be
     * > 0), and an arc of radius R and angle theta gets the seed's step
     * angle delta = asin(min(1, F T / R)) (eq. (31), about F T / R) and
     * K = ceil(theta / delta) steps (the seed's N = theta / delta + 1
     * interpolation points, rounded up so that no step is longer than
     * delta).  K may not exceed HS_PATH_MAX_STEPS. */
    int steps;
    double speed;
    double period;
    int guaranteed;    /* 0: stepped mode (default); nonzero: guaranteed mode */
    double threshold;  /* contact threshold, finite, >= 0 (default 0.1 scene
                          units); the guaranteed mode needs > 0 */
    /* Options of the world query that fills the report at the contact
     * pose (engine, triangles, contacts, threads); its threshold is
     * replaced by the threshold used.  Default hs_query_options_init. */
    hs_query_options query;
} hs_path_options;
/* Fill *opt (not NULL) with the defaults above.  Thread-safe. */
HS_API void hs_path_options_init(hs_path_options *opt);

/* Number of steps K of path p under opt (rules above) into *steps.
 * HS_ERR_ARG for a NULL argument, steps < 0, steps and a speed or period
 * both given, a speed or period that is not finite and > 0, a line of
 * length 0 with a speed, or more than HS_PATH_MAX_STEPS steps.
 * Const-safe. */
HS_API hs_code hs_path_step_count(const hs_path *p, const hs_path_options *opt, int *steps,
                                  hs_error *err);
/* The K + 1 step poses p(k/K), k = 0..K, the ones the stepped mode tests
 * (16 doubles each, row-major), in a new array of 16 (K + 1) doubles into
 * *poses: the caller frees it with hs_free.  *count = K + 1.  Errors as
 * hs_path_step_count (poses or count NULL is HS_ERR_ARG), and
 * HS_ERR_NOMEM; outputs untouched on error.  Const-safe. */
HS_API hs_code hs_path_step_poses(const hs_path *p, const hs_path_options *opt,
                                  double **poses, int *count, hs_error *err);

/* The answer of hs_path_check.  A plain struct owned by the caller. */
typedef struct hs_path_result {
    int blocked;           /* 0: the path is free; 1: a blocked pose was found */
    int steps;             /* K */
    int step;              /* the first blocked step k, 1..K (guaranteed mode:
                              the step whose interval holds the contact pose);
                              0 when free */
    int step_collision;    /* stepped: nonzero when step k's pose has a
                              common point with another body (a collision),
                              0 when it only comes within the threshold (a
                              contact); guaranteed: 0 */
    double step_distance;  /* stepped: distance at step k's pose (0 for a
                              collision); guaranteed: the distance at the
                              contact pose */
    double free_fraction;  /* f of last_free */
    double last_free[16];  /* stepped: step k-1's pose (the start for k = 1);
                              guaranteed: the last pose measured at or
                              beyond the threshold; free: the end pose */
    double fraction;       /* f of the contact pose (1 when free) */
    double contact[16];    /* the contact pose (the end pose when free) */
    double distance;       /* distance at the contact pose to the nearest
                              other body (0: a common point; INFINITY:
                              none within reach) */
    double threshold;      /* the threshold used (lowered when the body
                              starts closer than opt->threshold) */
    long queries;          /* distance evaluations of the body against the
                              bodies near it */
} hs_path_result;

/* Check body b of world w along path p (modes above) into *res.  b is
 * placed at the path's poses and put back at the pose it had before the
 * call.
 * THE CONTACT POSE.  Stepped mode: between the last free step pose and
 * the first blocked one, by bisection (seed 001: between the last free
 * state and the colliding one): the interval is halved, keeping a free
 * pose below and a blocked one above, until the body's points move less
 * than the threshold across it; the blocked end is the contact pose: it
 * is within the threshold without a common point, and the first pose of
 * the curve within the threshold lies at most one threshold of motion
 * before it.  With threshold 0, 60 halvings: the contact pose then has a
 * common point and lies less than 2^-60 of a step past a free pose.
 * Guaranteed mode: the pose where advancement stopped (closer than the
 * threshold, no common point).
 * rep (may be NULL; overwritten) receives hs_world_query of the whole
 * world with b at the contact pose (at the end pose when the path is
 * free), with opt->query and the threshold used: the pairs with b are the
 * path's.
 * Errors: HS_ERR_ARG for w, b, p, opt or res NULL, a body of another
 * world, a body without pieces, a static body, bad options (see
 * hs_path_step_count; threshold NaN, infinite or < 0; guaranteed mode
 * with threshold 0; a query engine other than fast and exact, threads < 0
 * or an unknown triangle method) or a path too long for the guaranteed
 * mode; HS_ERR_INPUT when the start pose is in collision; HS_ERR_NOMEM.
 * On error b is put back too and *res is unspecified.  Not thread-safe on
 * w (moves b); const-safe in p. */
HS_API hs_code hs_path_check(hs_world *w, hs_body *b, const hs_path *p,
                             const hs_path_options *opt, hs_path_result *res,
                             hs_report *rep, hs_error *err);

#ifdef __cplusplus
}
#endif

#endif /* HALFSPACE_MOTION_H */

/* robot_helpers.h -- shared helpers of the robot tests (test_robot*.c):
 * temporary folders holding a URDF and its meshes, loading from text, and
 * an independent geometric oracle (a link's piece as world vertices and
 * face planes, from hs_robot_link_piece_boundary) for the checks "by
 * hand". */
#ifndef HS_ROBOT_HELPERS_H
#define HS_ROBOT_HELPERS_H

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "halfspace.h"
#include "tests/helpers.h"

/* A new temporary folder (static buffer until the next call). */
static inline const char *rt_dir(void)
{
    static char path[64];
    t_temp_dir(path, sizeof path, "hs_robot");
    return path;
}

/* Write text to dir/name (folders in name must exist). */
static inline void rt_write(const char *dir, const char *name, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    ck_assert_msg(f != NULL, "cannot write %s", p);
    fputs(text, f);
    fclose(f);
}

/* Remove a temporary folder and what is in it. */
static inline void rt_rmdir(const char *dir)
{
    t_remove_dir(dir);
}

/* URDF text loaded with the options o (NULL: defaults), relative paths
 * under dir; NULL and *msg the error (static) on failure. */
static inline hs_robot *rt_load(const char *xml, const char *dir, const hs_robot_options *o,
                                const char **msg)
{
    static hs_error err;
    hs_robot *r = hs_robot_load_string(xml, "t.urdf", dir, o, &err);
    if (msg)
        *msg = r ? NULL : err.msg;
    return r;
}

/* The load must fail with a message containing `want` (and code). */
static inline void rt_fails(const char *xml, const char *dir, const hs_robot_options *o,
                            hs_code code, const char *want)
{
    hs_error err;
    hs_robot *r = hs_robot_load_string(xml, "t.urdf", dir, o, &err);
    ck_assert_msg(r == NULL, "loaded, expected an error with '%s'", want);
    ck_assert_msg(err.code == code, "code %d, expected %d: %s", err.code, code, err.msg);
    ck_assert_msg(strstr(err.msg, want) != NULL, "message '%s' lacks '%s'", err.msg, want);
}

/* Piece 0 of link i at its world pose: vertices and faces. */
typedef struct rt_poly {
    int nv, nf;
    double *v;
    int *fs, *fv;
} rt_poly;

static inline rt_poly rt_piece(const hs_robot *r, int i, const double frame_inv[16])
{
    rt_poly p;
    int cv;
    double *v;
    ck_assert(hs_robot_link_piece_boundary(r, i, 0, &cv, &v, &p.nv, &p.fs, &p.fv, &p.nf, NULL) ==
              HS_OK);
    double m[16];
    hs_robot_link_pose(r, i, m);
    if (frame_inv)
        hs_pose_multiply(m, frame_inv, m);
    p.v = malloc(sizeof(double) * 3 * (size_t)p.nv);
    for (int k = 0; k < p.nv; k++)
        for (int d = 0; d < 3; d++)
            p.v[3 * k + d] = m[4 * d] * v[3 * k] + m[4 * d + 1] * v[3 * k + 1] +
                             m[4 * d + 2] * v[3 * k + 2] + m[4 * d + 3];
    hs_free(v);
    return p;
}

static inline void rt_poly_free(rt_poly *p)
{
    free(p->v);
    hs_free(p->fs);
    hs_free(p->fv);
}

/* Depth of x inside p: the least distance to a face plane, positive
 * inside (faces are counterclockwise seen from outside). */
static inline double rt_depth(const rt_poly *p, const double x[3])
{
    double best = HUGE_VAL;
    for (int f = 0; f < p->nf; f++) {
        const double *a = p->v + 3 * p->fv[p->fs[f]], *b = p->v + 3 * p->fv[p->fs[f] + 1],
                     *c = p->v + 3 * p->fv[p->fs[f] + 2];
        double e1[3], e2[3], n[3];
        for (int d = 0; d < 3; d++) {
            e1[d] = b[d] - a[d];
            e2[d] = c[d] - a[d];
        }
        n[0] = e1[1] * e2[2] - e1[2] * e2[1];
        n[1] = e1[2] * e2[0] - e1[0] * e2[2];
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        double s = -(n[0] * (x[0] - a[0]) + n[1] * (x[1] - a[1]) + n[2] * (x[2] - a[2])) / l;
        if (s < best)
            best = s;
    }
    return best;
}

/* The deepest vertex of q inside p (its depth). */
static inline double rt_deepest(const rt_poly *p, const rt_poly *q)
{
    double best = -HUGE_VAL;
    for (int k = 0; k < q->nv; k++)
        best = fmax(best, rt_depth(p, q->v + 3 * k));
    return best;
}

/* The gap between the axis boxes of p and q (largest over the axes). */
static inline double rt_box_gap(const rt_poly *p, const rt_poly *q)
{
    double gap = -HUGE_VAL;
    for (int d = 0; d < 3; d++) {
        double lo[2] = {HUGE_VAL, HUGE_VAL}, hi[2] = {-HUGE_VAL, -HUGE_VAL};
        const rt_poly *s[2] = {p, q};
        for (int t = 0; t < 2; t++)
            for (int k = 0; k < s[t]->nv; k++) {
                lo[t] = fmin(lo[t], s[t]->v[3 * k + d]);
                hi[t] = fmax(hi[t], s[t]->v[3 * k + d]);
            }
        gap = fmax(gap, fmax(lo[1] - hi[0], lo[0] - hi[1]));
    }
    return gap;
}

/* A link by name (the test fails when missing). */
static inline int rt_link(const hs_robot *r, const char *name)
{
    int i = hs_robot_link_find(r, name);
    ck_assert_msg(i >= 0, "no link %s", name);
    return i;
}

#endif

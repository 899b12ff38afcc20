/* families_rest.c -- one polytope set down on another, face on face
 * (fam_pair_rest in families.h; the hull-rest family of bench/pairs and
 * the resting-hull tests use it).  The rotations are rounded; the contact
 * is exact because B's resting row is replaced by A's row negated. */
#include <math.h>
#include <string.h>

#include "bench/families.h"

/* The row of slot s (m rows at p) whose plane is nearest the interior
 * point, with its unit normal and the foot of the perpendicular from the
 * interior point (that foot lies on the face itself: a nearer plane would
 * be crossed first on the way). */
static int nearest_face(const fam_pair *p, int s, double unit[3], double foot[3])
{
    const double *c = p->interior[s];
    int best = -1;
    double dist = INFINITY;
    for (int i = 0; i < p->m[s]; i++) {
        const double *a = p->a[s] + 3 * (size_t)i;
        double len = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
        double d = (p->b[s][i] - (a[0] * c[0] + a[1] * c[1] + a[2] * c[2])) / len;
        if (len > 0 && d < dist) {
            dist = d;
            best = i;
        }
    }
    const double *a = p->a[s] + 3 * (size_t)best;
    double len = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    for (int j = 0; j < 3; j++) {
        unit[j] = a[j] / len;
        foot[j] = c[j] + dist * unit[j];
    }
    return best;
}

/* A rotation taking unit u to unit v, as a pose (hs_pose_from_axis_angle
 * about u x v): about an axis normal to u when they are parallel (the
 * identity, or half a turn). */
static void align_rotation(const double u[3], const double v[3], double P[16])
{
    double k[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    double s = sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]), c = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    hs_error err;
    if (s < 1e-12) {
        int m = fabs(u[0]) < 0.5 ? 0 : 1;
        double e[3] = {m == 0, m == 1, 0};
        k[0] = u[1] * e[2] - u[2] * e[1], k[1] = u[2] * e[0] - u[0] * e[2], k[2] = u[0] * e[1] - u[1] * e[0];
        hs_pose_from_axis_angle(P, k, c > 0 ? 0 : M_PI, NULL, &err);
        return;
    }
    hs_pose_from_axis_angle(P, k, atan2(s, c), NULL, &err);
}

void fam_pair_rest(fam_pair *p, double spin, int exact)
{
    double nA[3], fA[3], nB[3], fB[3], minus[3], P0[16], S[16], P[16], T[3];
    int ra = nearest_face(p, 0, nA, fA), rb = nearest_face(p, 1, nB, fB);
    for (int j = 0; j < 3; j++)
        minus[j] = -nA[j];
    align_rotation(nB, minus, P0);
    hs_error err;
    hs_pose_from_axis_angle(S, nA, spin, NULL, &err);
    hs_pose_multiply(P, S, P0); /* turned onto A's face, then about its normal */
    const double Q[9] = {P[0], P[1], P[2], P[4], P[5], P[6], P[8], P[9], P[10]};
    for (int j = 0; j < 3; j++)
        T[j] = fA[j] - (Q[3 * j] * fB[0] + Q[3 * j + 1] * fB[1] + Q[3 * j + 2] * fB[2]);
    for (int i = 0; i < p->m[1]; i++) {
        double *a = p->a[1] + 3 * (size_t)i, t[3];
        for (int j = 0; j < 3; j++)
            t[j] = Q[3 * j] * a[0] + Q[3 * j + 1] * a[1] + Q[3 * j + 2] * a[2];
        p->b[1][i] += t[0] * T[0] + t[1] * T[1] + t[2] * T[2];
        memcpy(a, t, sizeof t);
    }
    const double *c = p->interior[1];
    double moved[3];
    for (int j = 0; j < 3; j++)
        moved[j] = Q[3 * j] * c[0] + Q[3 * j + 1] * c[1] + Q[3 * j + 2] * c[2] + T[j];
    memcpy(p->interior[1], moved, sizeof moved);
    if (!exact)
        return;
    for (int j = 0; j < 3; j++)
        p->a[1][3 * (size_t)rb + j] = -p->a[0][3 * (size_t)ra + j];
    p->b[1][rb] = -p->b[0][ra];
}

/* fast_faces.c -- two faces lying on each other (fast_query.h): rows of
 * A and B that are opposite faces on one plane, and the contact they
 * make proved at a point of their common region (fast_touch.c's
 * face-on-face proof), found among the candidates before the LP, where the
 * segment between the centres crosses, among the rows tight at an LP's
 * point, and stepped from a corner of the region into it. */
#include "solver/fast_query.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/expansion.h"
#include "polytope/fp.h"
#include "polytope/predicates.h"
#include "solver/fast_facet.h"
#include "solver/fast_lp.h"
#include "solver/fast_touch.h"

/* Are the normals of row a of A and row b of B opposite, to rounding? */
static int normals_opposite(const fast_query *q, int a, int b)
{
    int n = q->n;
    const double *ga = view_row(q->V[0], n, a), *gb = view_row(q->V[1], n, b);
    double dot = 0;
    for (int k = 0; k < n; k++)
        dot += ga[k] * gb[k];
    return dot < -(1 - 1e-12) * q->F[0]->norm[a] * q->F[1]->norm[b];
}

/* Do offsets b / |a| of two planes with opposite normals name one plane,
 * to rounding? */
static int offsets_opposite(double pa, double pb)
{
    return fabs(pa + pb) <= 1e-9 * (fabs(pa) + fabs(pb)) + 1e-300;
}

/* Are row a of A and row b of B opposite faces on one plane, to rounding?
 * The proof that uses them checks it exactly. */
static int rows_opposite(const fast_query *q, int a, int b)
{
    double wa = q->F[0]->norm[a], wb = q->F[1]->norm[b];
    return offsets_opposite(q->V[0]->b[a] * wb, q->V[1]->b[b] * wa) && /* (both times wa wb) */
           normals_opposite(q, a, b);
}

/* Among the first FACE_LOOK candidates of A and B (FACE_LOOK_LARGE on
 * two large polyhedra; all of them on a short list, as a small
 * polyhedron's rows), two rows whose normals are opposite and whose planes
 * coincide (to rounding): a face on a face, into *ra and *rb; 0 when there
 * are none.  (The face a mesh hull rests on is among the first 3 of both
 * lists in about a third of bench/pairs' hull-rest pairs, among the first
 * 12 in two thirds; looking at 12 costs round polytopes of 60 rows 6%
 * (cold), and the LP finds the others: fq_faces_in_set.) */
#define FACE_LOOK 3
/* On two polyhedra of FACE_LARGE_ROWS rows or more (mesh hulls), where a
 * contact's proof reads only the faces' lists (fast_facet.h), the first
 * FACE_LOOK_LARGE. */
#define FACE_LARGE_ROWS 100
#define FACE_LOOK_LARGE 12
/* The most candidates of each side that bound a face region before the LP. */
#define FACE_SET_MAX 32
static int opposite_faces(const fast_query *q, int *ra, int *rb)
{
    _Static_assert(FACE_LOOK <= FAST_ALL_ROWS, "a longer list has FACE_LOOK entries");
    int look[2], most = q->V[0]->m >= FACE_LARGE_ROWS && q->V[1]->m >= FACE_LARGE_ROWS
                            ? FACE_LOOK_LARGE
                            : FACE_LOOK;
    for (int k = 0; k < 2; k++) /* (a short list whole) */
        look[k] = q->ncand[k] <= FAST_ALL_ROWS || q->ncand[k] < most ? q->ncand[k] : most;
    double pb[FACE_LOOK_LARGE > FAST_ALL_ROWS ? FACE_LOOK_LARGE : FAST_ALL_ROWS]; /* B's
                                                                 planes' offsets b / |a| */
    for (int j = 0; j < look[1]; j++)
        pb[j] = q->V[1]->b[q->cand[1][j]] / q->F[1]->norm[q->cand[1][j]];
    for (int i = 0; i < look[0]; i++) {
        int a = q->cand[0][i];
        double pa = q->V[0]->b[a] / q->F[0]->norm[a];
        for (int j = 0; j < look[1]; j++)
            if (offsets_opposite(pa, pb[j]) && normals_opposite(q, a, q->cand[1][j])) {
                *ra = a;
                *rb = q->cand[1][j];
                return 1;
            }
    }
    return 0;
}

/* A polyhedron of at most FAST_ALL_ROWS rows (a box: a floor, a table)
 * against a larger one whose candidates along t - s hold no face opposite
 * to one of its own (the box's center is far to the side: a hull standing
 * on a floor): for each row of the box, the first FACE_LOOK_LARGE rows of
 * the larger one's direction map along minus that row's normal, and the rows
 * tight at its vertex extreme that way (fq_support_rows_along: the face a
 * hull rests on holds its lowest vertex; the map's ray from the center
 * crosses it first only when the center stands above it: with the map's
 * first 3 rows alone, 392 of 460 queries of bench/world's hulls on a
 * floor found no pair).  As opposite_faces; before the LP's set is written
 * (the support rows' scratch). */
static int opposite_to_small(fast_query *q, int *ra, int *rb)
{
    int s = q->V[1]->m <= FAST_ALL_ROWS ? 1 : 0, l = !s;
    if (q->V[s]->m > FAST_ALL_ROWS || q->V[l]->m <= FAST_ALL_ROWS || q->F[l]->map_cells == 0)
        return 0;
    const fast_view *L = q->V[l];
    const double *c0 = L->center;
    double reach = 0; /* the farthest corner of the large one's box from its center */
    for (int c = 0; c < q->n; c++) {
        double e = fp_max(L->hi[c] - c0[c], c0[c] - L->lo[c]);
        reach += e * e;
    }
    reach = sqrt(reach);
    for (int j = 0; j < q->V[s]->m; j++) {
        const double *g = view_row(q->V[s], q->n, j);
        double d[SEIDEL_MAX_DIM], gc = -q->V[s]->b[j], gg = 0;
        for (int c = 0; c < q->n; c++) {
            d[c] = -g[c];
            gc += g[c] * c0[c];
            gg += g[c] * g[c];
        }
        /* the plane's distance from the center against the large one's
         * inradius and the reach of its box: a plane it can rest on lies
         * between (the support rows' cells are made only for such planes;
         * moving bodies meet most planes of a box elsewhere) */
        double dist = gc / sqrt(gg);
        if (!(dist >= q->F[l]->inradius * (1 - 1e-9) && dist <= reach * (1 + 1e-9)))
            continue;
        int count = 0;
        const int *list = fq_lookup(q, l, d, &count);
        int sup[FAST_SUPPORT_MAX], nsup = fq_support_rows_along(q, l, d, sup);
        for (int c = 0; c < FACE_LOOK_LARGE + nsup; c++) {
            int i = c < FACE_LOOK_LARGE ? (list && c < count ? list[c] : -1)
                                        : sup[c - FACE_LOOK_LARGE];
            if (i < 0)
                continue;
            int a = s ? i : j, b = s ? j : i;
            if (rows_opposite(q, a, b)) {
                *ra = a;
                *rb = b;
                return 1;
            }
        }
    }
    return 0;
}

int fq_opposite_faces(fast_query *q, int *ra, int *rb)
{
    if (q->faces == 0)
        q->faces = opposite_faces(q, &q->face_ra, &q->face_rb) ||
                           opposite_to_small(q, &q->face_ra, &q->face_rb)
                       ? 2
                       : 1;
    *ra = q->face_ra;
    *rb = q->face_rb;
    return q->faces == 2;
}

/* A face on a face without the LP.  Rows ra of A and rb of B (indices in
 * each) whose planes coincide with opposite normals touch, if they do, in
 * a region of that plane; any point of it is a contact point.  The basis
 * {ra, rb, x_j = p_j for the n - 1 coordinates j other than the one ra's
 * normal weighs most} has the point of ra's plane with those coordinates
 * of p as its vertex, and the two faces' rows as its only dual support
 * when they are exactly opposite: fast_touch.c proves it a contact like
 * any basis (its unit rows are box bounds of weight 0).  1 when it
 * certifies (r holds the answer, q->last_basis the basis). */
int fq_face_basis_certifies(fast_query *q, int ra, int rb, const double *p)
{
    int n = q->n, D = n + 1, which[SEIDEL_MAX_DIM], row[SEIDEL_MAX_DIM];
    double G[SEIDEL_MAX_DIM * SEIDEL_MAX_DIM], h[SEIDEL_MAX_DIM];
    if (D > SEIDEL_MAX_DIM || ra < 0 || ra >= q->mA || rb < 0 || rb >= q->M - q->mA)
        return 0;
    int k = fp_largest_axis(view_row(q->V[0], n, ra), n);
    int basis[SEIDEL_MAX_DIM + 1] = {ra, rb + q->mA};
    for (int c = 0; c < 2; c++) {
        fq_basis_column(q, basis[c], G + c * D, &h[c]);
        which[c] = c;
        row[c] = c ? rb : ra;
    }
    for (int j = 0, c = 2; j < n; j++) {
        if (j == k)
            continue;
        basis[c] = SEIDEL_BOX_ID(j, 1);
        for (int i = 0; i < D; i++)
            G[c * D + i] = i == j;
        h[c] = p[j];
        which[c] = row[c] = -1;
        c++;
    }
    int violated = -1, nonly[2];
    const int *only[2] = {fq_facet_rows(q, 0, ra, &nonly[0]), fq_facet_rows(q, 1, rb, &nonly[1])};
    fast_touch_job job = {n,        G,       h,         which,    row,
                          {q->V[0], q->V[1]}, q->V[0]->center, 0, q->hot,
                          q->nhot,  &violated, {only[0], only[1]}, {nonly[0], nonly[1]}};
    int rc = fast_touch_face(&job, k, q->r);
    if (rc == 0 && violated >= 0) { /* (latest first; at most FQ_HOT_ROWS) */
        int at = 0;
        while (at < q->nhot && q->hot[at] != violated)
            at++;
        if (at == q->nhot && q->nhot < FQ_HOT_ROWS)
            q->nhot++;
        for (int t = at < q->nhot ? at : q->nhot - 1; t > 0; t--)
            q->hot[t] = q->hot[t - 1];
        q->hot[0] = violated;
    }
    if (rc < 0)
        rc = fast_touch_certify(&job, q->r, &q->fw->ps);
    if (rc != 1)
        return 0;
    memcpy(q->last_basis, basis, sizeof(int) * (size_t)D);
    return 1;
}

/* The extent of view k's box hint (the sum of its sides). */
static double box_extent(const fast_query *q, int k)
{
    double e = 0;
    for (int j = 0; j < q->n; j++)
        e += q->V[k]->hi[j] - q->V[k]->lo[j];
    return e;
}

/* Are rows a of A and b of B exactly opposite multiples
 * (pred_rows_opposite)?  Outside the range where that test is exact, 1:
 * the proof decides.  Faces that coincide only to rounding fail here,
 * before any proof is tried at them. */
static int rows_exactly_opposite(const fast_query *q, int a, int b)
{
    int n = q->n;
    const double *ga = view_row(q->V[0], n, a), *gb = view_row(q->V[1], n, b);
    double ba = q->V[0]->b[a], bb = q->V[1]->b[b];
    if (!pred_entries_moderate(ga, n) || !pred_entries_moderate(&ba, 1) ||
        !pred_entries_moderate(gb, n) || !pred_entries_moderate(&bb, 1))
        return 1;
    return pred_rows_opposite(ga, ba, gb, bb, n);
}

/* The face-on-face proof for rows ra of A and rb of B (exactly opposite,
 * on one plane: rows_exactly_opposite, which the callers ask once) at the
 * point of that plane below c, rounded to multiples of a power of two
 * near 2^-24 of the pair's extent: short numbers for the exact point, and
 * the same point for inputs that differ by rounding. */
static int face_contact_below(fast_query *q, int ra, int rb, const double *c)
{
    int n = q->n;
    const double *ga = view_row(q->V[0], n, ra);
    double g2 = 0, off = -row_b(q, ra), p[SEIDEL_MAX_DIM];
    double ext = fp_max(box_extent(q, 0), box_extent(q, 1));
    double grid = ext > 0 && isfinite(ext) ? ldexp(1, ilogb(ext) - 24) : 0;
    for (int j = 0; j < n; j++) {
        g2 += ga[j] * ga[j];
        off += ga[j] * c[j];
    }
    off /= g2;
    for (int j = 0; j < n; j++) {
        p[j] = c[j] - off * ga[j];
        if (grid > 0 && fabs(p[j]) < 0x1p+900)
            p[j] = nearbyint(p[j] / grid) * grid;
    }
    return fq_face_basis_certifies(q, ra, rb, p);
}

int fq_face_list_set(const fast_query *q, int ra, int rb, int *set)
{
    _Static_assert(FQ_FACE_LIST_SET >= 2 * FAST_FACET_MAX_EDGES &&
                       FAST_FACET_MAX_EDGES >= FAST_FACET_MIN_ROWS &&
                       FQ_FACE_LIST_SET >= 2 * FACE_SET_MAX,
                   "room for two lists, two small views or two candidate lists");
    int count = 0;
    for (int k = 0; k < 2; k++) {
        const fast_view *V = q->V[k];
        int base = k ? q->mA : 0, nl = 0;
        const int *list = fq_facet_rows(q, k, k ? rb : ra, &nl);
        if (list)
            for (int c = 0; c < nl; c++)
                set[count++] = list[c] + base;
        else if (V->m < FAST_FACET_MIN_ROWS) /* (a box: every row) */
            for (int i = 0; i < V->m; i++)
                set[count++] = i + base;
        else
            return 0;
    }
    return count;
}

int fq_rounding_faces(fast_query *q)
{
    int ra, rb, set[FQ_FACE_LIST_SET];
    if (q->n != 3 || q->rounding_faces || q->ncand[0] <= 0 || q->ncand[1] <= 0 ||
        !fq_opposite_faces(q, &ra, &rb) || rows_exactly_opposite(q, ra, rb) ||
        fq_face_list_set(q, ra, rb, set) == 0)
        return 0;
    q->rounding_faces = 1;
    q->round_ra = ra;
    q->round_rb = rb;
    return 1;
}

int fq_try_face_contact(fast_query *q)
{
    int ra, rb;
    if (q->ncand[0] <= 0 || q->ncand[1] <= 0 || !fq_opposite_faces(q, &ra, &rb) ||
        !rows_exactly_opposite(q, ra, rb))
        return 0;
    /* the centers projected on the plane, the smaller polyhedron's first
     * (a box on a floor: the box's center is above its contact region,
     * the floor's need not be) */
    int first = box_extent(q, 1) <= box_extent(q, 0);
    for (int t = 0; t < 2; t++) {
        int k = t ? !first : first;
        if (face_contact_below(q, ra, rb, q->V[k]->center)) {
            fq_trace(q, "A row %d and B row %d are opposite faces on one plane: its point below "
                        "%s's center and the plane certify a contact point and a separating "
                        "plane: touching",
                     ra + 1, rb + 1, k ? "B" : "A");
            return 1;
        }
    }
    /* (small faces, as mesh hulls have: neither center is above their
     * common region) the region's point as the faces' lists bound it (on
     * the one plane they share, exactly the region), else as the
     * candidates do */
    int set[FQ_FACE_LIST_SET], count = fq_face_list_set(q, ra, rb, set);
    double x[SEIDEL_MAX_DIM];
    for (int k = 0; count == 0 && k < 2; k++)
        for (int c = 0; c < q->ncand[k] && c < FACE_SET_MAX; c++)
            set[count++] = q->cand[k][c] + (k ? q->mA : 0);
    if (q->n == 3 && fq_face_region_point(q, ra, rb, set, count, x) > 0 &&
        face_contact_below(q, ra, rb, x)) {
        fq_trace(q, "A row %d and B row %d are opposite faces on one plane: the point of their "
                    "common region (as the candidates bound it) farthest from its edges and the "
                    "plane certify a contact point and a separating plane: touching",
                 ra + 1, rb + 1);
        return 1;
    }
    return 0;
}

/* The rows of view k on whose plane x lies, to FACE_TIGHT_REL of the
 * row's magnitude at x: at most FACE_TIGHT_MAX of them into out. */
#define FACE_TIGHT_MAX 16
#define FACE_TIGHT_REL 0x1p-30
static int row_tight(const fast_query *q, int k, int i, const double *x)
{
    double mag, v = fq_row_excess(view_row(q->V[k], q->n, i), q->V[k]->b[i], x, q->n, &mag);
    return fabs(v) <= FACE_TIGHT_REL * mag;
}

static int tight_rows(const fast_query *q, int k, const double *x, int *out)
{
    int count = 0;
    for (int i = 0; i < q->V[k]->m && count < FACE_TIGHT_MAX; i++)
        if (row_tight(q, k, i, x))
            out[count++] = i;
    return count;
}

/* A direction into the corner at x of the common region of faces ra and
 * rb (in their plane, unit normal e): the region near x is the cone of
 * the plane's directions u with a_i . u <= 0 for the other rows tight at
 * x (ta of A, tb of B).  In plane coordinates each such row is a
 * half-plane through the origin; the directions on the half-planes' edges
 * and their inward normals that satisfy every row span the cone, and
 * their sum points into it.  0 when the cone is empty to rounding (the
 * faces meet in a point or a segment). */
#define FACE_CONE_TOL 1e-12
static int corner_direction(const fast_query *q, int ra, int rb, const double *e, const int *ta,
                            int na, const int *tb, int nb, double *u)
{
    int n = q->n, count = 0;
    double e1[3], e2[3], w[2 * FACE_TIGHT_MAX][2], sum[2] = {0, 0};
    if (n != 3)
        return 0;
    int k = fabs(e[0]) <= fabs(e[1]) && fabs(e[0]) <= fabs(e[2]) ? 0 : fabs(e[1]) <= fabs(e[2]) ? 1 : 2;
    double axis[3] = {k == 0, k == 1, k == 2};
    e1[0] = e[1] * axis[2] - e[2] * axis[1];
    e1[1] = e[2] * axis[0] - e[0] * axis[2];
    e1[2] = e[0] * axis[1] - e[1] * axis[0];
    double l1 = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    for (int j = 0; j < 3; j++)
        e1[j] /= l1;
    e2[0] = e[1] * e1[2] - e[2] * e1[1];
    e2[1] = e[2] * e1[0] - e[0] * e1[2];
    e2[2] = e[0] * e1[1] - e[1] * e1[0];
    for (int t = 0; t < na + nb; t++) {
        int which = t >= na, i = which ? tb[t - na] : ta[t];
        if (i == (which ? rb : ra))
            continue;
        const double *a = view_row(q->V[which], n, i);
        double x1 = a[0] * e1[0] + a[1] * e1[1] + a[2] * e1[2];
        double x2 = a[0] * e2[0] + a[1] * e2[1] + a[2] * e2[2], len = hypot(x1, x2);
        if (len > 0) {
            w[count][0] = x1 / len;
            w[count][1] = x2 / len;
            count++;
        }
    }
    if (count == 0) {
        u[0] = u[1] = u[2] = 0;
        return 0;
    }
    for (int c = 0; c < count; c++)
        for (int r = 0; r < 3; r++) { /* the edge both ways, the inward normal */
            double d[2] = {r == 0 ? -w[c][1] : r == 1 ? w[c][1] : -w[c][0],
                           r == 0 ? w[c][0] : r == 1 ? -w[c][0] : -w[c][1]};
            int ok = 1;
            for (int o = 0; o < count && ok; o++)
                ok = w[o][0] * d[0] + w[o][1] * d[1] <= FACE_CONE_TOL;
            if (ok) {
                sum[0] += d[0];
                sum[1] += d[1];
            }
        }
    double len = hypot(sum[0], sum[1]);
    if (!(len > 0))
        return 0;
    for (int j = 0; j < 3; j++)
        u[j] = (sum[0] * e1[j] + sum[1] * e2[j]) / len;
    return 1;
}

/* The contact of opposite faces ra and rb, which both hold x: an LP's
 * optimum is a corner of their common region, and a point there, once
 * rounded, may leave the region.  So the proof is tried at points stepped
 * from x into the corner (corner_direction) by 2^-8, 2^-12, ..., 2^-32
 * of the pair's extent (the faces of mesh hulls are often small
 * triangles), and then below the centers (a large region, such as a box's
 * face on a floor). */
#define FACE_STEPS 7
static int face_contact_near(fast_query *q, int ra, int rb, const double *x, const int *ta,
                             int na, const int *tb, int nb)
{
    int n = q->n;
    const double *g = view_row(q->V[0], n, ra);
    double e[SEIDEL_MAX_DIM], u[SEIDEL_MAX_DIM], gl = q->F[0]->norm[ra];
    for (int j = 0; j < n; j++)
        e[j] = g[j] / gl;
    int corner = gl > 0 && corner_direction(q, ra, rb, e, ta, na, tb, nb, u);
    double ext = fp_max(box_extent(q, 0), box_extent(q, 1));
    for (int t = 0; t < FACE_STEPS + 2; t++) {
        double c[SEIDEL_MAX_DIM];
        if (t < FACE_STEPS && !(corner && ext > 0 && isfinite(ext)))
            continue;
        for (int j = 0; j < n; j++)
            c[j] = t < FACE_STEPS ? x[j] + ldexp(ext, -8 - 4 * t) * u[j]
                                  : q->V[t - FACE_STEPS]->center[j];
        if (face_contact_below(q, ra, rb, c)) {
            if (t < FACE_STEPS)
                fq_trace(q, "A row %d and B row %d, tight at the optimum, are opposite faces on "
                            "one plane: a point of it 2^-%d of the extent into their common "
                            "region and the plane certify a contact point and a separating "
                            "plane: touching",
                         ra + 1, rb + 1, 8 + 4 * t);
            else
                fq_trace(q, "A row %d and B row %d, tight at the optimum, are opposite faces on "
                            "one plane: its point below %s's center and the plane certify a "
                            "contact point and a separating plane: touching",
                         ra + 1, rb + 1, t == FACE_STEPS ? "A" : "B");
            return 1;
        }
    }
    return 0;
}

/* Among rows ta of A and tb of B tight at x, two exactly opposite faces
 * whose contact is proved at points stepped from the corner
 * (face_contact_near), or else (with set: the LP's rows, count ids) at the
 * point of their common region as the set bounds it (fq_face_region_point): 1, or
 * 0.  (The region first cost hull-rest 13% more instructions: its point
 * often lies outside the rows that are not in the set yet.) */
static int opposite_pair_near(fast_query *q, const double *x, const int *ta, int na,
                              const int *tb, int nb, const int *set, int count)
{
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) {
            double p[SEIDEL_MAX_DIM];
            if (!rows_opposite(q, ta[i], tb[j]))
                continue;
            if (!rows_exactly_opposite(q, ta[i], tb[j])) {
                if (!q->rounding_faces) {
                    q->rounding_faces = 1;
                    q->round_ra = ta[i];
                    q->round_rb = tb[j];
                }
                continue;
            }
            if (face_contact_near(q, ta[i], tb[j], x, ta, na, tb, nb))
                return 1;
            if (set && q->n == 3 && fq_face_region_point(q, ta[i], tb[j], set, count, p) > 0 &&
                face_contact_below(q, ta[i], tb[j], p)) {
                fq_trace(q, "A row %d and B row %d, tight at the optimum, are opposite faces on "
                            "one plane: the point of their common region (as the LP's rows "
                            "bound it) farthest from its edges and the plane certify a contact "
                            "point and a separating plane: touching",
                         ta[i] + 1, tb[j] + 1);
                return 1;
            }
        }
    return 0;
}

int fq_faces_in_set(fast_query *q, const double *z, int count)
{
    int ta[FACE_TIGHT_MAX], tb[FACE_TIGHT_MAX], na = 0, nb = 0;
    for (int c = 0; c < count; c++) {
        int id = q->fw->order[c], k = poly_of(q, id), i = index_in(q, id);
        if ((k ? nb : na) < FACE_TIGHT_MAX && row_tight(q, k, i, z)) {
            if (k)
                tb[nb++] = i;
            else
                ta[na++] = i;
        }
    }
    return opposite_pair_near(q, z, ta, na, tb, nb, q->fw->order, count);
}

int fq_try_segment_face(fast_query *q)
{
    int ra = q->exit_row, rb = q->entry_row;
    if (ra < 0 || rb < 0 || !rows_opposite(q, ra, rb) || !rows_exactly_opposite(q, ra, rb))
        return 0;
    double c[SEIDEL_MAX_DIM];
    for (int j = 0; j < q->n; j++)
        c[j] = q->V[0]->center[j] + q->lA * q->d[j];
    if (!face_contact_below(q, ra, rb, c))
        return 0;
    fq_trace(q, "A row %d and B row %d, where the segment s-t leaves A and enters B, are "
                "opposite faces on one plane: the point where it crosses them and the plane "
                "certify a contact point and a separating plane: touching",
             ra + 1, rb + 1);
    return 1;
}

int fq_try_face_at(fast_query *q, const double *x)
{
    int ta[FACE_TIGHT_MAX], tb[FACE_TIGHT_MAX];
    for (int j = 0; j < q->n; j++)
        if (!isfinite(x[j]))
            return 0;
    int na = tight_rows(q, 0, x, ta), nb = na ? tight_rows(q, 1, x, tb) : 0;
    return opposite_pair_near(q, x, ta, na, tb, nb, NULL, 0);
}

/* ------------------------------------------- a point of the common region */

/* Row i of view V restricted to the plane g . x = gb (n = 3, kk the
 * coordinate eliminated: x_kk = (gb - sum_{c != kk} g_c x_c) / g_kk): two
 * coefficients on the other coordinates, their norm as the margin weight
 * and the right side, appended at *count to a, w and b.  A row parallel
 * to the plane (to rounding) is left out when it holds on all of it;
 * returns -1 when it fails there (the region is empty), else 0. */
static int row_on_plane(const fast_view *V, int i, const double *g, double gb, int kk, double *a,
                        double *w, double *b, int *count)
{
    const double *r = view_row(V, 3, i);
    double u[3], norm = fabs(r[0]) + fabs(r[1]) + fabs(r[2]), f = r[kk] / g[kk];
    fast_plane_row(r, V->b[i], g, gb, kk, u);
    double rb = u[2], len = sqrt(u[0] * u[0] + u[1] * u[1]);
    if (!(len > 1e-12 * norm)) /* parallel to the plane */
        return rb < -1e-12 * (fabs(V->b[i]) + fabs(f * gb)) ? -1 : 0;
    a[2 * *count] = u[0];
    a[2 * *count + 1] = u[1];
    w[*count] = len;
    b[(*count)++] = rb;
    return 0;
}

/* The rows of a plane LP: the plane of row ra of A (g . x = gb, solved for
 * coordinate kk), and the other rows of set[0 .. count) (every row for set
 * NULL) but ra and rb of B restricted to it (row_on_plane), A's first,
 * with their stacked ids; room for one more row.  The arrays live in the
 * query's workspace (fast_work: plane_*), grown when a larger system
 * than ever before arrives; one plane's rows at a time. */
typedef struct plane_rows {
    const double *g;
    double gb;
    int kk, m;
    double *a, *w, *b; /* 2 m, m, m */
    int *ids, *order;  /* m each: stacked ids, and the LP's set for flp_solve */
    unsigned char *in; /* m: in the LP's set */
} plane_rows;

/* 1 made, 0 the region is empty (a row parallel to the plane fails on
 * it), -1 out of memory. */
static int plane_rows_make(const fast_query *q, int ra, int rb, const int *set, int count,
                           plane_rows *pr)
{
    fast_work *fw = q->fw;
    pr->g = view_row(q->V[0], 3, ra);
    pr->gb = q->V[0]->b[ra];
    pr->kk = fp_largest_axis(pr->g, 3);
    pr->m = 0;
    int cap = (set ? count : q->M) + 1;
    if (fw->plane_cap < cap) {
        double *buf = realloc(fw->plane_buf, sizeof(double) * 4 * (size_t)cap);
        if (buf)
            fw->plane_buf = buf;
        int *ids = realloc(fw->plane_ids, sizeof(int) * 2 * (size_t)cap);
        if (ids)
            fw->plane_ids = ids;
        unsigned char *in = realloc(fw->plane_in, (size_t)cap);
        if (in)
            fw->plane_in = in;
        if (!buf || !ids || !in)
            return -1;
        fw->plane_cap = cap;
    }
    cap = fw->plane_cap;
    pr->ids = fw->plane_ids;
    pr->in = fw->plane_in;
    pr->order = pr->ids + cap;
    pr->a = fw->plane_buf;
    pr->w = fw->plane_buf + 2 * (size_t)cap;
    pr->b = fw->plane_buf + 3 * (size_t)cap;
    for (int k = 0; k < 2; k++)
        for (int t = 0; t < (set ? count : q->V[k]->m); t++) {
            int id = set ? set[t] : t + (k ? q->mA : 0), i = index_in(q, id), before = pr->m;
            if (poly_of(q, id) != k || i == (k ? rb : ra))
                continue;
            if (row_on_plane(q->V[k], i, pr->g, pr->gb, pr->kk, pr->a, pr->w, pr->b, &pr->m))
                return 0;
            if (pr->m > before)
                pr->ids[before] = id;
        }
    return 1;
}

/* The dual simplex in the plane's two coordinates on every row of pr, in
 * the box lo, hi (3 entries: the margin's last): its optimum in st; on
 * many rows in Clarkson's rounds (flp_solve_rounds). */
#define PLANE_STACK_TAB 1536 /* doubles: the packed rows of up to 256 plane rows */
#define PLANE_ROUNDS_MIN 48  /* rows: fewer, one LP on all of them */
static int plane_lp_solve(plane_rows *pr, const double *lo, const double *hi, flp_state *st)
{
    seidel_bank bank[2] = {{pr->a, pr->w, pr->b, pr->m}, {NULL, NULL, NULL, 0}};
    flp_init(st, 2, bank, lo, hi, NULL, NULL, NULL);
    /* the rows packed once with their tolerances (fast_lp.c), each pivot's
     * pricing then reads them in order */
    double tab[PLANE_STACK_TAB];
    flp_set_table(st, tab, PLANE_STACK_TAB / (2 + 4));
    flp_status fs;
    if (pr->m <= PLANE_ROUNDS_MIN) {
        for (int i = 0; i < pr->m; i++)
            pr->order[i] = i;
        fs = flp_solve(st, pr->order, pr->m);
    } else
        fs = flp_solve_rounds(st, pr->order, pr->in, 0);
    flp_set_table(st, NULL, 0); /* (st outlives tab) */
    return fs == FLP_OPTIMAL;
}

/* The point of the plane with coordinates u (2: those other than kk). */
static void plane_point(const plane_rows *pr, const double *u, double *x)
{
    double s = pr->gb;
    for (int c = 0, t = 0; c < 3; c++)
        if (c != pr->kk) {
            x[c] = u[t++];
            s -= pr->g[c] * x[c];
        }
    x[pr->kk] = s / pr->g[pr->kk];
}

/* The box of a plane's LP on the two coordinates other than kk (lo, hi:
 * 2 entries each): where both polyhedra's boxes overlap, or (hull) the
 * box of both.  Returns the larger extent of the two boxes on any axis. */
static double plane_box(const fast_query *q, int kk, int hull, double *lo, double *hi)
{
    double ext = 0;
    for (int c = 0, t = 0; c < 3; c++) {
        const double *l0 = q->V[0]->lo, *h0 = q->V[0]->hi, *l1 = q->V[1]->lo, *h1 = q->V[1]->hi;
        ext = fp_max(ext, fp_max(h0[c] - l0[c], h1[c] - l1[c]));
        if (c == kk)
            continue;
        lo[t] = hull ? fp_min(l0[c], l1[c]) : fp_max(l0[c], l1[c]);
        hi[t] = hull ? fp_max(h0[c], h1[c]) : fp_min(h0[c], h1[c]);
        t++;
    }
    return ext;
}

/* A point well inside the common region of faces ra of A and rb of B
 * (opposite, on one plane): the margin LP of every other row of A and B
 * restricted to the plane (the dual simplex in two variables), its optimum
 * the point of the region farthest from the rest of its boundary, into x
 * (3 coordinates).  1 when the region has such a point with a margin
 * above rounding, 0 when not (the region is a segment or a point, or the
 * LP met trouble), -1 out of memory. */
int fq_face_region_point(fast_query *q, int ra, int rb, const int *set, int count, double *x)
{
    plane_rows pr;
    int made = plane_rows_make(q, ra, rb, set, count, &pr), found = 0;
    if (made > 0) {
        /* the box: where both boxes overlap, on the two coordinates kept;
         * the margin at most the extent of either */
        double lo[3], hi[3], ext = plane_box(q, pr.kk, 0, lo, hi);
        lo[2] = -ext;
        hi[2] = ext;
        flp_state st;
        int ran = lo[0] <= hi[0] && lo[1] <= hi[1] && isfinite(ext) && ext > 0;
        int ok = ran && plane_lp_solve(&pr, lo, hi, &st);
        /* a margin clear of the grid face_contact_below rounds the point
         * to; the point itself rounded to the coarsest power of two below
         * half its margin, which keeps it inside (each row moves by at
         * most its weight times the distance, under the margin): short
         * numbers for the contact point (a multiple of that grid's) */
        if (ok && st.z[2] > 0x1p-20 * ext) {
            double grid = ldexp(1, ilogb(0.5 * st.z[2])), u[2];
            for (int t = 0; t < 2; t++)
                u[t] = nearbyint(st.z[t] / grid) * grid;
            plane_point(&pr, u, x);
            found = 1;
        }
        fq_trace(q, "the common region of A row %d and B row %d: margin %.6g in their plane "
                    "(%d pivots)",
                 ra + 1, rb + 1, ok ? st.z[2] : NAN, ran ? st.pivots : 0);
    }
    return made < 0 ? -1 : found;
}

int fq_try_face_region(fast_query *q, const int *set, int count)
{
    if (q->n != 3)
        return 0;
    for (int s = 0; s < count; s++) {
        int ia = set[s];
        if (poly_of(q, ia))
            continue;
        for (int t = 0; t < count; t++) {
            int ib = set[t];
            if (!poly_of(q, ib))
                continue;
            int ra = index_in(q, ia), rb = index_in(q, ib);
            double x[3];
            if (!rows_opposite(q, ra, rb) || !rows_exactly_opposite(q, ra, rb))
                continue;
            /* the region as the set's rows bound it, then (when a row
             * outside the set cuts off that point) as every row does */
            int got = fq_face_region_point(q, ra, rb, set, count, x);
            if (got > 0 && !face_contact_below(q, ra, rb, x))
                got = fq_face_region_point(q, ra, rb, NULL, 0, x);
            if (got <= 0 || !face_contact_below(q, ra, rb, x))
                return 0; /* (one plane of contact: no other pair to try) */
            fq_trace(q, "A row %d and B row %d are opposite faces on one plane: the point of "
                        "their common region farthest from its edges and the plane certify a "
                        "contact point and a separating plane: touching",
                     ra + 1, rb + 1);
            return 1;
        }
    }
    return 0;
}

/* The rows of a Farkas certificate for two faces a rounding apart that do
 * not meet: ra of A, rb of B (opposite to rounding) and the two rows of
 * their common region's boundary (rows of set[0 .. count), or every row
 * for set NULL, restricted to ra's plane) where rb's plane comes nearest
 * to ra's: the vertex of that
 * region extreme along the direction in which rb's slack on ra's plane
 * grows (from the 2 x 2 minors of the two normals, by exact products:
 * the direction is a rounding's tilt, far below the rows' own rounding).
 * Found by the dual simplex in two variables; basis gets the four stacked
 * ids, x (3 doubles, may be NULL) that vertex on ra's plane (where the
 * sliver between the faces is thickest).  1 when found (a candidate: the
 * caller certifies it), 0 when not, -1 out of memory. */
int fq_sliver_basis(fast_query *q, int ra, int rb, const int *set, int count, int *basis,
                    double *x)
{
    plane_rows pr;
    int made = plane_rows_make(q, ra, rb, set, count, &pr), found = 0;
    /* rb's row on the plane: h_c - (h_kk / g_kk) g_c for c != kk, times
     * g_kk: the minors h_c g_kk - h_kk g_c, each to a rounding of its own
     * value (an exact expansion's components summed) */
    const double *g = pr.g, *h = view_row(q->V[1], 3, rb);
    double dir[2], len = 0;
    for (int c = 0, t = 0; made > 0 && c < 3; c++) {
        if (c == pr.kk)
            continue;
        double e[4], v = 0;
        int l = xp_prod_diff(h[c], g[pr.kk], h[pr.kk], g[c], e);
        for (int i = 0; i < l; i++)
            v += e[i];
        dir[t++] = g[pr.kk] > 0 ? -v : v; /* rb's slack grows against its row */
        len += v * v;
    }
    if (made > 0 && len > 0 && isfinite(len)) {
        len = sqrt(len);
        for (int i = 0; i < pr.m; i++)
            pr.w[i] = 0; /* (the region's rows: no weight on the objective) */
        /* the objective as a row of weight 1: dir . u <= tau is maximised
         * (-dir . u + tau <= 0) */
        pr.a[2 * pr.m] = -dir[0] / len;
        pr.a[2 * pr.m + 1] = -dir[1] / len;
        pr.w[pr.m] = 1;
        pr.b[pr.m] = 0;
        pr.ids[pr.m++] = -1;
        double lo[3], hi[3], ext = plane_box(q, pr.kk, 1, lo, hi);
        /* the objective, a unit direction dot u, is at most the box's
         * largest |u| (which the coordinates' offset from the origin can
         * make far larger than the extent): the bound on tau never binds */
        double umax = 0;
        for (int t = 0; t < 2; t++)
            umax += fp_max(fabs(lo[t]), fabs(hi[t]));
        lo[2] = -2 * umax - ext - 1;
        hi[2] = 2 * umax + ext + 1;
        flp_state st;
        if (isfinite(ext) && plane_lp_solve(&pr, lo, hi, &st)) {
            int c = 2;
            basis[0] = ra;
            basis[1] = rb + q->mA;
            for (int t = 0; t < 3; t++) {
                int id = st.basis[t];
                if (id >= 0 && pr.ids[id] >= 0 && c < 4)
                    basis[c++] = pr.ids[id];
            }
            found = c == 4;
            if (found && x) /* the vertex, on ra's plane */
                plane_point(&pr, st.z, x);
        }
    }
    return made < 0 ? -1 : found;
}

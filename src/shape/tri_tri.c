/* tri_tri.c -- exact classification of two triangles in space.
 *
 * Seed 000 (section 5) sorts a pair of triangles p, q into three
 * situations: both in one plane; all corners of one strictly on one side of
 * the other's plane; otherwise the line common to the two planes meets
 * each triangle in a segment, and the triangles meet when these segments
 * do.  Here every one of those decisions is the sign of a determinant of
 * input coordinates, taken exactly by pred_orient3d (floating point with
 * a proven error bound, GMP rationals when the bound cannot decide), and
 * the answer is the library's three-way one, with relative interiors:
 * OVERLAP when ri(p) and ri(q) meet, TOUCHING when p and q meet but their
 * relative interiors do not, DISJOINT otherwise.  A degenerate triangle is
 * the segment or point it spans (ri of a segment: the open segment; ri of
 * a point: the point).
 *
 * Notation.  orient(a, b, c, d) is pred_orient3d: the sign of
 * (d - a) . n with n = (b - a) x (c - a).  n_p, n_q are the normals of p
 * and q in that sense, s_i = orient(q0, q1, q2, p_i), t_j = orient(p0, p1,
 * p2, q_j).  orient2_k(a, b, c) is the 2-D orientation after dropping
 * axis k, obtained exactly as orient((a, 0), (b, 0), (c, 0), (0, 0, 1)) on
 * the lifted points.
 *
 * Case analysis.
 *  1. The s_i all nonzero and equal, or the t_j: DISJOINT (seed case 2; a
 *     nonzero s_i also proves q is not degenerate, so its plane exists).
 *  2. Some s_i and some t_j nonzero: both triangles proper, planes
 *     distinct and not parallel, meeting in a line L directed by
 *     l = n_p x n_q (seed case 3).  p meets L in a segment or point
 *     I_p = [X1, X2]: take a corner a strictly off q's plane whose other two
 *     corners b1, b2 are each on the other side or on the plane (when no
 *     such corner exists the signs read (+, +, 0): I_p is the zero corner,
 *     and b1 = b2 = that corner); X_i is where the line a b_i meets q's
 *     plane.  Two identities order these points along l:
 *       - (X2 - X1) . l has the sign of -side(a) * parity(a, b1, b2), where
 *         parity is that of the permutation of (p0, p1, p2); so we swap
 *         b1, b2 to make X1 <= X2.  For q (L directed by n_q x n_p = -l
 *         from q's side) the same rule with the opposite sign.
 *       - For X on the line a b (p, crossing q's plane) and Y on the line
 *         c d (q, crossing p's plane): (Y - X) . l has the sign of
 *         orient(a, b, c, d) * side(a) * side(c).  (Write Y - X = tau l;
 *         orient(a, b, c, d) = tau ((b - a) . n_q)((d - c) . n_p) by
 *         Binet-Cauchy, and each dot product has the sign -side.)
 *     Then p and q meet iff X1 <= Y2 and Y1 <= X2.  L meets ri(p) only
 *     when p straddles q's plane (s has both a + and a -), and then
 *     L n ri(p) is the open segment (X1, X2); so OVERLAP iff both
 *     straddle and X1 < Y2 and Y1 < X2, otherwise TOUCHING.  (So an edge
 *     of p lying across q, or a corner of p inside q, is TOUCHING: the
 *     rest of p is off q's plane.)
 *  3. Otherwise (the t_j are not computed when every s_i is 0) at least
 *     one triangle is degenerate, or both are proper and coplanar.  Each
 *     is reduced to its essential corners: a proper triangle (some
 *     orient2_k nonzero), a segment (its two extreme corners along an axis
 *     where the corners differ) or a point; the bigger shape comes first:
 *     tri/tri (coplanar): in 2-D, by the separating-line theorem applied to
 *       the Minkowski difference q - p, whose edges are parallel to edges
 *       of p or q: they are disjoint iff for some edge of p or q the three
 *       corners of the other lie strictly outside its line; the interiors
 *       are disjoint iff for some edge they lie weakly outside.
 *     tri/seg u v: u, v strictly on one side of the plane: DISJOINT.  Both
 *       in the plane: in 2-D, the same theorem, with the edges of T and the
 *       line of the segment (T strictly / weakly on one side of it).
 *       Otherwise u v meets the plane in one point X, in ri(seg) iff u, v
 *       are strictly on opposite sides; orient(u, v, T_i, T_i+1) times the
 *       sign of (v - u) . n_T is the side of X relative to edge i of T:
 *       all positive: X inside T, all >= 0: X in T.
 *     tri/point: off the plane: DISJOINT; else its 2-D position in T.
 *     seg/seg: not coplanar: DISJOINT.  Not on one line: the 2-D test of
 *       crossing segments in a projection where they span the plane,
 *       OVERLAP iff each strictly separates the other's ends.  On one
 *       line: intervals along an axis where the line is not constant.
 *     seg/point, point/point: collinearity by the three orient2_k, then
 *       comparisons along an axis.
 *
 * Witness.  When they meet, the witness is a point of ri(p n q), which is
 * ri(p) n ri(q) when those meet (so for OVERLAP it lies in both relative
 * interiors), computed exactly, each coordinate rounded to the nearest
 * double.  In case 2, p n q is the segment [max(X1, Y1), min(X2, Y2)] of L,
 * whose ends the same orientation identity picks, and the witness is its
 * midpoint.  Otherwise it is the average of the corners of p n q, found by
 * clipping the corners of p (Sutherland-Hodgman) by half-spaces whose
 * intersection is q: its plane as two half-spaces and three edge slabs;
 * for a segment two planes through its line and two end half-spaces; for a
 * point three coordinate planes.  The exact arithmetic is on GMP integers
 * (see the witness section).
 *
 * Cost.  A pair decided by the plane test costs 3 or 6 orientation
 * filters.  Exact zeros (contacts, coplanar and degenerate pairs) go
 * through pred_orient3d's GMP fallback, about 1.5 us each.  The witness,
 * computed only for pairs that meet, costs some 10 to 20 us in integers;
 * in case 2 it is first tried in double-double arithmetic with a proven
 * error bound (tri_witness.c, well under a microsecond), which gives the
 * same doubles whenever it answers.
 *
 * Inputs must be finite doubles. */
#include "src/shape/tri_tri.h"

#include <gmp.h>
#include <math.h>
#include <string.h>

#include "polytope/hull3.h"
#include "polytope/predicates.h"
#include "polytope/rational.h"
#include "src/shape/tri_witness.h"

/* ============================================================ predicates */

static const double lift_up[3] = {0, 0, 1};

/* Exact 2-D orientation of a, b, c after dropping axis k. */
static int orient2(int k, const double *a, const double *b, const double *c)
{
    int i = (k + 1) % 3, j = (k + 2) % 3;
    const double la[3] = {a[i], a[j], 0}, lb[3] = {b[i], b[j], 0}, lc[3] = {c[i], c[j], 0};
    return pred_orient3d(la, lb, lc, lift_up);
}

/* x on the line through distinct a, b (every axis projection collinear). */
static int on_line(const double *a, const double *b, const double *x)
{
    for (int k = 0; k < 3; k++)
        if (orient2(k, a, b, x) != 0)
            return 0;
    return 1;
}

static int all_same_strict(const int s[3])
{
    return s[0] != 0 && s[0] == s[1] && s[1] == s[2];
}

static int any_nonzero(const int s[3])
{
    return s[0] != 0 || s[1] != 0 || s[2] != 0;
}

static int straddles(const int s[3])
{
    int pos = s[0] > 0 || s[1] > 0 || s[2] > 0;
    int neg = s[0] < 0 || s[1] < 0 || s[2] < 0;
    return pos && neg;
}

/* ============================================================ shapes */

/* The essential corners of a triangle: n = 3 (proper; axis: a projection
 * that keeps it proper), 2 (segment v[0] v[1], v[0] below v[1] along
 * axis) or 1 (point). */
typedef struct shape {
    const double *v[3];
    int n;
    int axis;
    int sigma; /* proper: orient2_axis(v0, v1, v2) */
} shape;

/* Axes by decreasing |n_k| of the approximate normal of t: the first is
 * almost always one whose exact projection keeps a proper t proper. */
static void axis_order(const double t[3][3], int order[3])
{
    double n[3];
    for (int k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        n[k] = fabs((t[1][i] - t[0][i]) * (t[2][j] - t[0][j]) -
                    (t[1][j] - t[0][j]) * (t[2][i] - t[0][i]));
    }
    int big = n[0] >= n[1] && n[0] >= n[2] ? 0 : n[1] >= n[2] ? 1 : 2;
    order[0] = big;
    order[1] = (big + 1) % 3;
    order[2] = (big + 2) % 3;
}

static void shape_make(const double t[3][3], shape *s)
{
    int order[3];
    axis_order(t, order);
    for (int r = 0; r < 3; r++) {
        int k = order[r], o = orient2(k, t[0], t[1], t[2]);
        if (o != 0) {
            *s = (shape){{t[0], t[1], t[2]}, 3, k, o};
            return;
        }
    }
    for (int k = 0; k < 3; k++) {
        int lo = 0, hi = 0;
        for (int i = 1; i < 3; i++) {
            if (t[i][k] < t[lo][k])
                lo = i;
            if (t[i][k] > t[hi][k])
                hi = i;
        }
        if (t[lo][k] < t[hi][k]) {
            *s = (shape){{t[lo], t[hi], NULL}, 2, k, 0};
            return;
        }
    }
    *s = (shape){{t[0], NULL, NULL}, 1, 0, 0};
}

/* ================================================= crossing planes */

/* The piece of a triangle on the other plane, as described in case 2. */
typedef struct span {
    const double *a, *b1, *b2;
    int side; /* side of a */
} span;

/* dir = -1 for p, +1 for q: the ordering rule of the header. */
static void span_make(const double t[3][3], const int sg[3], int dir, span *sp)
{
    int pick = -1;
    for (int i = 0; i < 3 && pick < 0; i++)
        if (sg[i] != 0 && sg[(i + 1) % 3] != sg[i] && sg[(i + 2) % 3] != sg[i])
            pick = i;
    if (pick < 0) { /* (+, +, 0): a single corner on the plane */
        int z = sg[0] == 0 ? 0 : sg[1] == 0 ? 1 : 2;
        int a = (z + 1) % 3;
        *sp = (span){t[a], t[z], t[z], sg[a]};
        return;
    }
    *sp = (span){t[pick], t[(pick + 1) % 3], t[(pick + 2) % 3], sg[pick]};
    if (sp->side * dir < 0) {
        const double *tmp = sp->b1;
        sp->b1 = sp->b2;
        sp->b2 = tmp;
    }
}

static hs_status crossing(const double p[3][3], const double q[3][3], const int s[3],
                          const int t[3], span *sp, span *sq)
{
    span_make(p, s, -1, sp);
    span_make(q, t, 1, sq);
    int f = sp->side * sq->side;
    int c1 = pred_orient3d(sp->a, sp->b1, sq->a, sq->b2) * f;  /* sign of Y2 - X1 */
    int c2 = -pred_orient3d(sp->a, sp->b2, sq->a, sq->b1) * f; /* sign of X2 - Y1 */
    if (c1 < 0 || c2 < 0)
        return HS_DISJOINT;
    if (c1 > 0 && c2 > 0 && straddles(s) && straddles(t))
        return HS_OVERLAP;
    return HS_TOUCHING;
}

/* ============================================================ 2-D parts */

/* Separation class: 2 strictly separated, 1 weakly, 0 not. */
static int sep_class(int strict, int weak)
{
    return strict ? 2 : weak ? 1 : 0;
}

static hs_status from_sep(int sep)
{
    return sep == 2 ? HS_DISJOINT : sep == 1 ? HS_TOUCHING : HS_OVERLAP;
}

/* How well the line of edge i of proper T separates the n points x from
 * T (T's side is the inside). */
static int edge_sep(const shape *T, int i, const double *const *x, int n)
{
    const double *a = T->v[i], *b = T->v[(i + 1) % 3];
    int strict = 1, weak = 1;
    for (int j = 0; j < n; j++) {
        int e = orient2(T->axis, a, b, x[j]) * T->sigma;
        strict &= e < 0;
        weak &= e <= 0;
    }
    return sep_class(strict, weak);
}

static int tri_max_int(int a, int b) { return a > b ? a : b; }

static hs_status tri_tri_flat(const shape *P, const shape *Q)
{
    shape Qk = *Q; /* Q seen in P's projection */
    Qk.axis = P->axis;
    Qk.sigma = orient2(P->axis, Q->v[0], Q->v[1], Q->v[2]);
    int sep = 0;
    for (int i = 0; i < 3 && sep < 2; i++) {
        sep = tri_max_int(sep, edge_sep(P, i, Q->v, 3));
        sep = tri_max_int(sep, edge_sep(&Qk, i, P->v, 3));
    }
    return from_sep(sep);
}

static hs_status tri_seg_flat(const shape *T, const shape *S)
{
    int l[3];
    for (int i = 0; i < 3; i++)
        l[i] = orient2(T->axis, S->v[0], S->v[1], T->v[i]);
    int sep = sep_class(all_same_strict(l), !straddles(l));
    for (int i = 0; i < 3; i++)
        sep = tri_max_int(sep, edge_sep(T, i, S->v, 2));
    return from_sep(sep);
}

/* ============================================================ degenerate */

static hs_status tri_seg(const shape *T, const shape *S)
{
    const double *u = S->v[0], *v = S->v[1];
    int su = pred_orient3d(T->v[0], T->v[1], T->v[2], u);
    int sv = pred_orient3d(T->v[0], T->v[1], T->v[2], v);
    if (su == sv)
        return su != 0 ? HS_DISJOINT : tri_seg_flat(T, S);
    int delta = sv > su ? 1 : -1, inside = 1, in_closed = 1;
    for (int i = 0; i < 3; i++) {
        int g = pred_orient3d(u, v, T->v[i], T->v[(i + 1) % 3]) * delta;
        inside &= g > 0;
        in_closed &= g >= 0;
    }
    if (!in_closed)
        return HS_DISJOINT;
    return inside && su * sv < 0 ? HS_OVERLAP : HS_TOUCHING;
}

static hs_status tri_point(const shape *T, const double *x)
{
    if (pred_orient3d(T->v[0], T->v[1], T->v[2], x) != 0)
        return HS_DISJOINT;
    int sep = edge_sep(T, 0, &x, 1);
    sep = tri_max_int(sep, edge_sep(T, 1, &x, 1));
    sep = tri_max_int(sep, edge_sep(T, 2, &x, 1));
    return from_sep(sep);
}

/* Along one axis: the open interval (lo1, hi1), lo1 < hi1, against
 * [lo2, hi2], which is an open interval too when lo2 < hi2 and a point when
 * lo2 == hi2. */
static hs_status intervals(double lo1, double hi1, double lo2, double hi2)
{
    double lo = fmax(lo1, lo2), hi = fmin(hi1, hi2);
    if (lo > hi)
        return HS_DISJOINT;
    if (lo2 == hi2) /* a point: inside the open interval or at an end */
        return lo1 < lo2 && lo2 < hi1 ? HS_OVERLAP : HS_TOUCHING;
    return lo < hi ? HS_OVERLAP : HS_TOUCHING;
}

static hs_status seg_seg(const shape *S, const shape *R)
{
    const double *u = S->v[0], *v = S->v[1], *w = R->v[0], *z = R->v[1];
    if (pred_orient3d(u, v, w, z) != 0)
        return HS_DISJOINT;
    for (int k = 0; k < 3; k++) {
        int a1 = orient2(k, u, v, w), a2 = orient2(k, u, v, z);
        if (a1 == 0 && a2 == 0)
            continue;
        int b1 = orient2(k, w, z, u), b2 = orient2(k, w, z, v);
        if (a1 * a2 > 0 || b1 * b2 > 0)
            return HS_DISJOINT;
        return a1 * a2 < 0 && b1 * b2 < 0 ? HS_OVERLAP : HS_TOUCHING;
    }
    int k = S->axis; /* one line */
    return intervals(u[k], v[k], fmin(w[k], z[k]), fmax(w[k], z[k]));
}

static hs_status seg_point(const shape *S, const double *x)
{
    if (!on_line(S->v[0], S->v[1], x))
        return HS_DISJOINT;
    int k = S->axis;
    return intervals(S->v[0][k], S->v[1][k], x[k], x[k]);
}

static hs_status special(const shape *P, const shape *Q)
{
    if (P->n < Q->n)
        return special(Q, P);
    if (P->n == 3)
        return Q->n == 3 ? tri_tri_flat(P, Q) : Q->n == 2 ? tri_seg(P, Q) : tri_point(P, Q->v[0]);
    if (P->n == 2)
        return Q->n == 2 ? seg_seg(P, Q) : seg_point(P, Q->v[0]);
    const double *x = P->v[0], *y = Q->v[0];
    return x[0] == y[0] && x[1] == y[1] && x[2] == y[2] ? HS_OVERLAP : HS_DISJOINT;
}

/* ============================================================ witness */

/* The clipping runs on integers: every input double is m 2^e with m an
 * integer, so all coordinates times 2^-emin (emin the smallest such e) are
 * integers; rows then have integer coefficients, and a clipped point is
 * kept as X / W with integer X and W > 0.  The point where the edge from
 * P_i (row value F_i >= 0) to P_j (F_j < 0), or the reverse, crosses the
 * row is |F_j| P_i + |F_i| P_j in these homogeneous coordinates: no
 * division and no gcd until the final average. */

#define CLIP_CAP 12 /* 3 corners, at most one more per clip, 6 clips: 9 */
#define ROW_CAP 6

/* A half-space g . x >= h (scaled integer frame). */
typedef struct zrow {
    mpz_t g[3], h;
} zrow;

/* The point x / w, w > 0. */
typedef struct zpoint {
    mpz_t x[3], w;
} zpoint;

typedef struct zwork {
    long emin;
    mpz_t e[3][3]; /* corners of the clipping shape */
    zrow row[ROW_CAP];
    int nrows;
    zpoint poly[2][CLIP_CAP];
    mpz_t f[CLIP_CAP], t, u;
} zwork;

static void zwork_init(zwork *w)
{
    for (int i = 0; i < 3; i++)
        mpz_inits(w->e[i][0], w->e[i][1], w->e[i][2], NULL);
    for (int r = 0; r < ROW_CAP; r++)
        mpz_inits(w->row[r].g[0], w->row[r].g[1], w->row[r].g[2], w->row[r].h, NULL);
    for (int b = 0; b < 2; b++)
        for (int i = 0; i < CLIP_CAP; i++) {
            zpoint *p = &w->poly[b][i];
            mpz_inits(p->x[0], p->x[1], p->x[2], p->w, NULL);
        }
    for (int i = 0; i < CLIP_CAP; i++)
        mpz_init(w->f[i]);
    mpz_inits(w->t, w->u, NULL);
    w->nrows = 0;
}

static void zwork_clear(zwork *w)
{
    for (int i = 0; i < 3; i++)
        mpz_clears(w->e[i][0], w->e[i][1], w->e[i][2], NULL);
    for (int r = 0; r < ROW_CAP; r++)
        mpz_clears(w->row[r].g[0], w->row[r].g[1], w->row[r].g[2], w->row[r].h, NULL);
    for (int b = 0; b < 2; b++)
        for (int i = 0; i < CLIP_CAP; i++) {
            zpoint *p = &w->poly[b][i];
            mpz_clears(p->x[0], p->x[1], p->x[2], p->w, NULL);
        }
    for (int i = 0; i < CLIP_CAP; i++)
        mpz_clear(w->f[i]);
    mpz_clears(w->t, w->u, NULL);
}

/* Smallest e over the nonzero coordinates x = m 2^e (m an integer). */
static long low_exponent(const shape *P, const shape *Q, long emin)
{
    const shape *s[2] = {P, Q};
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < s[k]->n; j++)
            for (int i = 0; i < 3; i++) {
                int e;
                if (s[k]->v[j][i] != 0) {
                    frexp(s[k]->v[j][i], &e);
                    emin = e - 53 < emin ? e - 53 : emin;
                }
            }
    return emin;
}

/* z = x 2^-emin exactly (an integer). */
static void to_int(mpz_t z, double x, long emin)
{
    if (x == 0) {
        mpz_set_ui(z, 0);
        return;
    }
    int e;
    double m = frexp(x, &e);
    mpz_set_d(z, ldexp(m, 53)); /* an integer below 2^53: exact */
    mpz_mul_2exp(z, z, (mp_bitcnt_t)(e - 53 - emin));
}

static void z_cross(mpz_t out[3], mpz_t a[3], mpz_t b[3], mpz_t tmp)
{
    mpz_t r[3];
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        mpz_init(r[i]);
        mpz_mul(r[i], a[j], b[k]);
        mpz_mul(tmp, a[k], b[j]);
        mpz_sub(r[i], r[i], tmp);
    }
    for (int i = 0; i < 3; i++) {
        mpz_swap(out[i], r[i]);
        mpz_clear(r[i]);
    }
}

static void z_dot(mpz_t out, mpz_t a[3], mpz_t b[3])
{
    mpz_mul(out, a[0], b[0]);
    mpz_addmul(out, a[1], b[1]);
    mpz_addmul(out, a[2], b[2]);
}

static void z_diff(mpz_t out[3], mpz_t a[3], mpz_t b[3])
{
    for (int i = 0; i < 3; i++)
        mpz_sub(out[i], a[i], b[i]);
}

/* Add the row sign g . x >= sign g . point. */
static void add_row(zwork *w, mpz_t g[3], mpz_t point[3], int sign)
{
    zrow *r = &w->row[w->nrows++];
    for (int i = 0; i < 3; i++) {
        if (sign < 0)
            mpz_neg(r->g[i], g[i]);
        else
            mpz_set(r->g[i], g[i]);
    }
    z_dot(r->h, r->g, point);
}

/* Rows of a proper triangle: its plane (two rows), then each edge slab. */
static void rows_triangle(zwork *w, mpz_t n[3], mpz_t d[3], mpz_t m[3])
{
    mpz_t(*e)[3] = w->e;
    z_diff(d, e[1], e[0]);
    z_diff(m, e[2], e[0]);
    z_cross(n, d, m, w->t);
    add_row(w, n, e[0], 1);
    add_row(w, n, e[0], -1);
    for (int i = 0; i < 3; i++) {
        z_diff(d, e[(i + 1) % 3], e[i]);
        z_cross(m, n, d, w->t); /* points into the triangle */
        add_row(w, m, e[i], 1);
    }
}

/* Rows of a segment e0 e1 (d_axis != 0): two planes through its line, its
 * two ends. */
static void rows_segment(zwork *w, int axis, mpz_t d[3], mpz_t m[3], mpz_t unit[3])
{
    mpz_t(*e)[3] = w->e;
    z_diff(d, e[1], e[0]);
    for (int s = 1; s <= 2; s++) {
        for (int i = 0; i < 3; i++)
            mpz_set_si(unit[i], i == (axis + s) % 3);
        z_cross(m, d, unit, w->t);
        add_row(w, m, e[0], 1);
        add_row(w, m, e[0], -1);
    }
    add_row(w, d, e[0], 1);
    add_row(w, d, e[1], -1);
}

static void rows_point(zwork *w, mpz_t unit[3])
{
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 3; i++)
            mpz_set_si(unit[i], i == k);
        add_row(w, unit, w->e[0], 1);
        add_row(w, unit, w->e[0], -1);
    }
}

static void rows_of(zwork *w, const shape *Q)
{
    mpz_t a[3], b[3], c[3];
    for (int i = 0; i < 3; i++)
        mpz_inits(a[i], b[i], c[i], NULL);
    for (int j = 0; j < Q->n; j++)
        for (int i = 0; i < 3; i++)
            to_int(w->e[j][i], Q->v[j][i], w->emin);
    if (Q->n == 3)
        rows_triangle(w, a, b, c);
    else if (Q->n == 2)
        rows_segment(w, Q->axis, a, b, c);
    else
        rows_point(w, a);
    for (int i = 0; i < 3; i++)
        mpz_clears(a[i], b[i], c[i], NULL);
}

/* out = |fy| x + |fx| y (the crossing point of the edge x y). */
static void cut_point(zwork *w, zpoint *out, zpoint *x, zpoint *y, mpz_t fx, mpz_t fy)
{
    mpz_abs(w->t, fy);
    mpz_abs(w->u, fx);
    for (int i = 0; i < 3; i++) {
        mpz_mul(out->x[i], w->t, x->x[i]);
        mpz_addmul(out->x[i], w->u, y->x[i]);
    }
    mpz_mul(out->w, w->t, x->w);
    mpz_addmul(out->w, w->u, y->w);
}

static void copy_point(zpoint *out, zpoint *x)
{
    for (int c = 0; c < 3; c++)
        mpz_set(out->x[c], x->x[c]);
    mpz_set(out->w, x->w);
}

/* Sutherland-Hodgman: the n points of in clipped by row r into out (count
 * returned, -1 if out of room). */
static int clip(zwork *w, zpoint *in, int n, zpoint *out, zrow *r)
{
    for (int i = 0; i < n; i++) {
        z_dot(w->f[i], r->g, in[i].x);
        mpz_submul(w->f[i], r->h, in[i].w);
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        int ini = mpz_sgn(w->f[i]) >= 0, inj = mpz_sgn(w->f[j]) >= 0;
        if (m + 2 > CLIP_CAP)
            return -1;
        if (ini)
            copy_point(&out[m++], &in[i]);
        if (ini != inj)
            cut_point(w, &out[m++], &in[i], &in[j], w->f[i], w->f[j]);
    }
    return m;
}

/* The double nearest to v (ties: the lower one). */
static double q_nearest(mpq_t v)
{
    double lo = q_round_down(v), hi = q_round_up(v);
    if (lo == hi || !isfinite(lo) || !isfinite(hi))
        return isfinite(lo) ? lo : hi;
    mpq_t below, above;
    mpq_inits(below, above, NULL);
    mpq_set_d(below, lo);
    mpq_sub(below, v, below); /* v - lo */
    mpq_set_d(above, hi);
    mpq_sub(above, above, v); /* hi - v */
    double r = mpq_cmp(below, above) <= 0 ? lo : hi;
    mpq_clears(below, above, NULL);
    return r;
}

/* The slow way for z_nearest: through a reduced rational. */
static double q_nearest_scaled(mpz_t num, mpz_t den, long emin)
{
    mpq_t m;
    mpq_init(m);
    mpz_set(mpq_numref(m), num);
    mpz_set(mpq_denref(m), den);
    mpq_canonicalize(m);
    if (emin >= 0)
        mpq_mul_2exp(m, m, (mp_bitcnt_t)emin);
    else
        mpq_div_2exp(m, m, (mp_bitcnt_t)-emin);
    double v = q_nearest(m);
    mpq_clear(m);
    return v;
}

/* The double nearest to num / den * 2^emin (den > 0), rounding the
 * quotient to 53 bits (ties to even) in integers; through rationals when
 * the result would be subnormal (or out of range). */
static double z_nearest(mpz_t num, mpz_t den, long emin)
{
    if (mpz_sgn(num) == 0)
        return 0;
    long k = 55 - ((long)mpz_sizeinbase(num, 2) - (long)mpz_sizeinbase(den, 2));
    mpz_t q, r, d;
    mpz_inits(q, r, d, NULL);
    mpz_abs(q, num);
    if (k >= 0) {
        mpz_mul_2exp(q, q, (mp_bitcnt_t)k);
        mpz_set(d, den);
    } else {
        mpz_mul_2exp(d, den, (mp_bitcnt_t)-k);
    }
    mpz_tdiv_qr(q, r, q, d); /* 2^54 <= q < 2^56 */
    int sticky = mpz_sgn(r) != 0;
    long shift = (long)mpz_sizeinbase(q, 2) - 53;
    mpz_tdiv_r_2exp(r, q, (mp_bitcnt_t)shift);
    mpz_tdiv_q_2exp(q, q, (mp_bitcnt_t)shift);
    int c = mpz_cmp_ui(r, 1UL << (shift - 1));
    if (c > 0 || (c == 0 && (sticky || mpz_odd_p(q))))
        mpz_add_ui(q, q, 1);
    long e = shift - k + emin; /* value = q 2^e, 2^52 <= q <= 2^53 */
    double v = mpz_get_d(q);
    mpz_clears(q, r, d, NULL);
    if (e < -1074 || e > 970) /* subnormal or beyond the range */
        return q_nearest_scaled(num, den, emin);
    return mpz_sgn(num) < 0 ? -ldexp(v, (int)e) : ldexp(v, (int)e);
}

/* Coordinate i of the average of the n points, back in the input scale,
 * rounded.  The sum of the x / w is accumulated over the product of the
 * denominators, never reduced. */
static double average(zpoint *pts, int n, int i, long emin)
{
    mpz_t num, den;
    mpz_inits(num, den, NULL);
    mpz_set(num, pts[0].x[i]);
    mpz_set(den, pts[0].w);
    for (int j = 1; j < n; j++) {
        mpz_mul(num, num, pts[j].w);
        mpz_addmul(num, pts[j].x[i], den);
        mpz_mul(den, den, pts[j].w);
    }
    mpz_mul_si(den, den, n);
    double r = z_nearest(num, den, emin);
    mpz_clears(num, den, NULL);
    return r;
}

/* Average of the corners of P n Q, rounded; 0 if P n Q is empty. */
static int witness_of(const shape *P, const shape *Q, double out[3])
{
    zwork w;
    zwork_init(&w);
    w.emin = low_exponent(P, Q, 0);
    rows_of(&w, Q);
    zpoint *cur = w.poly[0], *next = w.poly[1];
    int n = P->n;
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < 3; i++)
            to_int(cur[j].x[i], P->v[j][i], w.emin);
        mpz_set_ui(cur[j].w, 1);
    }
    for (int r = 0; r < w.nrows && n > 0; r++) {
        n = clip(&w, cur, n, next, &w.row[r]);
        zpoint *tmp = cur;
        cur = next;
        next = tmp;
    }
    for (int i = 0; i < 3 && n > 0; i++)
        out[i] = average(cur, n, i, w.emin);
    zwork_clear(&w);
    return n > 0;
}

/* ----------------------------------------- witness of crossing planes */

/* Case 2 needs no clipping: p n q is the segment [max(X1, Y1), min(X2,
 * Y2)] of L (the header's notation), which endpoints those are is decided
 * by the same orientation identity, and each is where a line through two
 * corners of one triangle meets the other's plane:
 * X = (F_a b - F_b a) / (F_a - F_b) with F_x = n . x - n . c0 for the plane
 * through c0 with normal n, all in the scaled integer frame. */
typedef struct zcut {
    mpz_t n[3], h, fa, fb, t;
    mpz_t c[3][3], a[3], b[3];
} zcut;

static void zcut_init(zcut *z)
{
    mpz_inits(z->n[0], z->n[1], z->n[2], z->h, z->fa, z->fb, z->t, NULL);
    for (int i = 0; i < 3; i++)
        mpz_inits(z->c[i][0], z->c[i][1], z->c[i][2], z->a[i], z->b[i], NULL);
}

static void zcut_clear(zcut *z)
{
    mpz_clears(z->n[0], z->n[1], z->n[2], z->h, z->fa, z->fb, z->t, NULL);
    for (int i = 0; i < 3; i++)
        mpz_clears(z->c[i][0], z->c[i][1], z->c[i][2], z->a[i], z->b[i], NULL);
}

/* The plane of triangle t into z->n, z->h. */
static void zcut_plane(zcut *z, const double t[3][3], long emin)
{
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            to_int(z->c[j][i], t[j][i], emin);
    z_diff(z->a, z->c[1], z->c[0]);
    z_diff(z->b, z->c[2], z->c[0]);
    z_cross(z->n, z->a, z->b, z->t);
    z_dot(z->h, z->n, z->c[0]);
}

/* num / den (den > 0): where the line a b meets the plane in z. */
static void zcut_point(zcut *z, const double *a, const double *b, long emin, mpz_t num[3],
                       mpz_t den)
{
    for (int i = 0; i < 3; i++) {
        to_int(z->a[i], a[i], emin);
        to_int(z->b[i], b[i], emin);
    }
    z_dot(z->fa, z->n, z->a);
    mpz_sub(z->fa, z->fa, z->h);
    z_dot(z->fb, z->n, z->b);
    mpz_sub(z->fb, z->fb, z->h);
    mpz_sub(den, z->fa, z->fb);
    for (int i = 0; i < 3; i++) {
        mpz_mul(num[i], z->fa, z->b[i]);
        mpz_submul(num[i], z->fb, z->a[i]);
    }
    if (mpz_sgn(den) < 0) {
        mpz_neg(den, den);
        for (int i = 0; i < 3; i++)
            mpz_neg(num[i], num[i]);
    }
}

/* Coordinate i of the midpoint of n1 / d1 and n2 / d2, input scale,
 * rounded. */
static double midpoint(mpz_t n1, mpz_t d1, mpz_t n2, mpz_t d2, long emin)
{
    mpz_t num, den;
    mpz_inits(num, den, NULL);
    mpz_mul(num, n1, d2);
    mpz_addmul(num, n2, d1);
    mpz_mul(den, d1, d2);
    mpz_mul_2exp(den, den, 1);
    double r = z_nearest(num, den, emin);
    mpz_clears(num, den, NULL);
    return r;
}

/* Which end of p n q is which: X_i (line sp.a sp.b_i on q's plane) or
 * Y_i (line sq.a sq.b_i on p's plane), by the orientation identity. */
static void crossing_pick(const double p[3][3], const double q[3][3], const span *sp,
                          const span *sq, int hi, tri_witness_end *end)
{
    const double *bp = hi ? sp->b2 : sp->b1, *bq = hi ? sq->b2 : sq->b1;
    int y_minus_x = pred_orient3d(sp->a, bp, sq->a, bq) * sp->side * sq->side;
    int take_x = hi ? y_minus_x >= 0 : y_minus_x <= 0;
    *end = take_x ? (tri_witness_end){q, sp->a, bp} : (tri_witness_end){p, sq->a, bq};
}

/* One end, exactly. */
static void crossing_end(zcut *z, const tri_witness_end *end, long emin, mpz_t num[3], mpz_t den)
{
    zcut_plane(z, end->plane, emin);
    zcut_point(z, end->a, end->b, emin, num, den);
}

/* The midpoint of the two ends: in double-double arithmetic when its
 * error bound proves the rounding (tri_witness.c, the common case), else
 * exactly in integers; the same doubles either way. */
static void crossing_witness(const double p[3][3], const double q[3][3], const span *sp,
                             const span *sq, double out[3])
{
    tri_witness_end ends[2];
    crossing_pick(p, q, sp, sq, 0, &ends[0]);
    crossing_pick(p, q, sp, sq, 1, &ends[1]);
    if (tri_witness_crossing(&ends[0], &ends[1], out))
        return;
    shape P = {{p[0], p[1], p[2]}, 3, 0, 0}, Q = {{q[0], q[1], q[2]}, 3, 0, 0};
    long emin = low_exponent(&P, &Q, 0);
    zcut z;
    mpz_t lo[3], hi[3], dlo, dhi;
    zcut_init(&z);
    mpz_inits(lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], dlo, dhi, NULL);
    crossing_end(&z, &ends[0], emin, lo, dlo);
    crossing_end(&z, &ends[1], emin, hi, dhi);
    for (int i = 0; i < 3; i++)
        out[i] = midpoint(lo[i], dlo, hi[i], dhi, emin);
    mpz_clears(lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], dlo, dhi, NULL);
    zcut_clear(&z);
}

/* ============================================================ entry */

static void witness_or_nan(const shape *P, const shape *Q, double w[3])
{
    if (!witness_of(P, Q, w))
        w[0] = w[1] = w[2] = NAN; /* P n Q is not empty: unreachable */
}

static hs_status crossing_with_witness(const double p[3][3], const double q[3][3],
                                       const int s[3], const int t[3], double witness[3])
{
    span sp, sq;
    hs_status st = crossing(p, q, s, t, &sp, &sq);
    if (witness && st != HS_DISJOINT)
        crossing_witness(p, q, &sp, &sq, witness);
    return st;
}

hs_status tri_tri_classify(const double p[3][3], const double q[3][3], double witness[3])
{
    int s[3], t[3];
    for (int i = 0; i < 3; i++)
        s[i] = pred_orient3d(q[0], q[1], q[2], p[i]);
    if (all_same_strict(s))
        return HS_DISJOINT;
    if (any_nonzero(s)) { /* q is proper: seed cases 2 and 3 */
        for (int j = 0; j < 3; j++)
            t[j] = pred_orient3d(p[0], p[1], p[2], q[j]);
        if (all_same_strict(t))
            return HS_DISJOINT;
        if (any_nonzero(t))
            return crossing_with_witness(p, q, s, t, witness);
    }
    shape P, Q;
    shape_make(p, &P);
    shape_make(q, &Q);
    hs_status st = special(&P, &Q);
    if (witness && st != HS_DISJOINT)
        witness_or_nan(&P, &Q, witness);
    return st;
}

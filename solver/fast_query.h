/* fast_query.h -- one query of the fast engine, shared by its files:
 * fast_query.c (row values, strictness, certificates, direction-map
 * lookups, the fq_trace),
 * fast_rounds.c (the margin LP in Clarkson's rounds), fast_faces.c (two
 * faces lying on each other), fast_exact_set.c (bodies a rounding apart)
 * and engine_fast.c (the query: Steps 3-7 of seed 002, then the LP; see
 * engine_fast.c). */
#ifndef HS_FAST_QUERY_H
#define HS_FAST_QUERY_H

#include <math.h>

#include "halfspace.h"
#include "polytope/error.h"
#include "polytope/fp.h"
#include "polytope/mem.h"
#include "polytope/predicates.h"
#include "solver/fast.h"
#include "solver/fast_prep.h"
#include "solver/fast_support.h"
#include "solver/fast_work.h"
#include "solver/result.h"
#include "solver/seidel.h"

/* Polyhedra of at most this many rows take all of them as candidates (no
 * map lookup; an LP on every row needs no scan either). */
#define FAST_ALL_ROWS 8
#define FQ_HOT_ROWS 8

typedef struct fast_query {
    fast_work *fw;
    const fast_view *V[2];
    const fast_prep *F[2];
    int n, mA, M;
    seidel_bank bank[2];
    double d[SEIDEL_MAX_DIM];              /* t - s */
    const int *cand[2];                    /* candidate rows of A (along d), B (along -d) */
    int ncand[2];
    double lA, lB;                         /* the segment leaves A at lA, enters B at lB */
    int exit_row;                          /* row of A (stacked id) where it leaves A, or -1 */
    int entry_row;                         /* row of B (its own index) where it enters B, or -1 */
    double lo[SEIDEL_MAX_DIM], hi[SEIDEL_MAX_DIM];
    hs_result *r;
    const hs_options *opt;
    int certified;
    const fast_hint *stale; /* a disjoint hint that no longer certifies: its rows
                               start the LP's candidate set */
    int last_basis[SEIDEL_MAX_DIM + 1]; /* the basis of the last optimum found */
    int have_basis;
    int touched; /* the rounds certified a contact from last_basis (r holds it) */
    /* two candidate faces exactly opposite on one plane (fast_faces.c),
     * looked for once a query: 0 not yet, 1 none, 2 found (face_ra of A,
     * face_rb of B) */
    int faces, face_ra, face_rb;
    /* rows of A and B tight at an LP point were opposite faces to rounding
     * but not exactly (fast_faces.c): two bodies a rounding apart, whose
     * degenerate corner the exact contact proof would only fail at */
    int rounding_faces, round_ra, round_rb; /* (the first such rows, of A and B) */
    int hot[FQ_HOT_ROWS], nhot; /* rows that put a face contact's points outside, latest
                                   first (stacked ids): read first by the next try */
    int set_count; /* rows (fw->order) in the dual simplex's last set */
    /* the cells of d (A) and -d (B) in the stars and the direction maps,
     * plus 1, as the prefetch found them (0: not known; computed again) */
    int star_cell[2], map_cell[2];
    /* the rows at A's and B's extreme vertices along t - s
     * (fq_support_rows), looked up by setup (which every LP follows) and
     * asked for then: how many and which */
    int nsup[2];
    int sup[2][FAST_SUPPORT_MAX];
} fast_query;

/* Stacked row ids: A's rows first, then B's. */
static inline int poly_of(const fast_query *q, int id) { return id >= q->mA; }
static inline int index_in(const fast_query *q, int id) { return id >= q->mA ? id - q->mA : id; }

static inline const double *view_row(const fast_view *v, int n, int i)
{
    return v->a + (size_t)i * (size_t)n;
}

static inline const double *row_a(const fast_query *q, int id)
{
    return view_row(q->V[poly_of(q, id)], q->n, index_in(q, id));
}

static inline double row_b(const fast_query *q, int id)
{
    return q->V[poly_of(q, id)]->b[index_in(q, id)];
}

/* a.x - b in doubles and, in *mag, |b| + sum |a_j x_j| (n = 3 unrolled). */
static inline double fq_row_excess(const double *a, double b, const double *x, int n,
                                   double *mag)
{
    double v = -b, m = fabs(b);
    if (n == 3) {
        double t0 = a[0] * x[0], t1 = a[1] * x[1], t2 = a[2] * x[2];
        v += t0 + t1 + t2;
        m += fabs(t0) + fabs(t1) + fabs(t2);
    } else
        for (int j = 0; j < n; j++) {
            double t = a[j] * x[j];
            v += t;
            m += fabs(t);
        }
    *mag = m;
    return v;
}

/* a.x - b in doubles; *strict: certified < 0 (the bound of pred_row_sign,
 * rows it cannot decide asked exactly). */
static inline double fq_row_value(fast_query *q, const double *a, double b, const double *x,
                                  int *strict)
{
    int n = q->n;
    double mag, v = fq_row_excess(a, b, x, n, &mag);
    double bound = (double)(n + 2) * FP_U * mag;
    if (mag < 0x1p+900 && mag > 0x1p-900 && fabs(v) > bound) /* (one test: the
                                                                  sign is a coin toss) */
        *strict = v < 0; /* the filter decides either way */
    else
        *strict = pred_row_sign(a, x, b, n, &q->fw->ps) < 0;
    return v;
}

/* fast_query.c: the trace (one line, printf-style; and a basis); an
 * overlap or feasible answer at x; x certified strictly inside polyhedron
 * k; the column g (D entries) and right side of basis element id; is the
 * basis a Farkas certificate (exact signs); record it as the answer. */
void fq_trace(const fast_query *q, const char *fmt, ...) ERR_PRINTF(2, 3);
void fq_trace_basis(const fast_query *q, const char *before, const int *basis);
void fq_answer_point(fast_query *q, hs_status status, const double *x);
int fq_strictly_inside(fast_query *q, int k, const double *x);
/* x certified strictly inside every row of A and of B. */
int fq_strictly_inside_both(fast_query *q, const double *x);
/* x certified strictly inside A and B (their candidate rows read first:
 * they turn most points between the two down at once). */
int fq_common_point(fast_query *q, const double *x);
/* fast_axis.c: an overlap found (answered, certified) on the line where
 * the skeletons of two elongated polyhedra come nearest: 1, else 0. */
int fq_axis_overlap(fast_query *q);
void fq_basis_column(const fast_query *q, int id, double *g, double *h);
/* The basis (D stacked ids) as a Farkas certificate: when its signs are
 * certified (fq_basis_signs_fit), stored as the disjoint answer and 1;
 * else 0.  Its columns are made once, in r's lazy arrays (the test reads
 * them there), which a query fills only with its answer: a basis that
 * fails leaves them holding its columns, unread (r->lazy is not set). */
int fq_farkas_answer(fast_query *q, const int *basis);
/* The sign pattern of a basis's multipliers and margin, exactly: G (D x
 * D, rows the basis columns), h its right sides, kind[c] -1 for a box
 * bound, 0 a row of A, 1 a row of B.  Every multiplier y_c (the cofactor
 * of column c's last entry over det G) >= 0 and 0 on box bounds; then a
 * Farkas certificate (contact 0) wants the margin det(G with its last
 * column := h) of the sign opposite to det G, a contact (contact 1) wants
 * it exactly 0 and some row of A with weight.  In 3-D the filters decide
 * what they can first, a decided sign that fails ends the test before
 * any exact one, and the exact ones are made one at a time, each ending it
 * when it fails (most bases tried fail); otherwise pred_last_column_signs.
 * 1 when the pattern holds (*sdet = sign det G), 0 when not or on a
 * non-finite entry.  ps may be NULL.  Pure but for *ps. */
int fq_basis_signs_fit(int D, const double *G, const double *h, const int *kind, int contact,
                       pred_stats *ps, int *sdet);
/* The hook of both LPs when the optimum moves: a certified Farkas basis
 * at a negative margin ends the query (disjoint). */
int fq_on_update(void *user, const double *z, const int *basis);

/* The rows of view k's direction map for direction d of the query frame:
 * *count rows, in the order in which the ray from the center along d
 * crosses them; NULL, *count = 0, without a map. */
const int *fq_lookup(const fast_query *q, int k, const double *d, int *count);
/* Is polyhedron k's skeleton (fast_prep_skeleton) FAST_LONG_ELONGATION
 * inscribed diameters long?  Its elongation is stored with the
 * preparation, whose lines the query has read: a round body never reads
 * its skeleton.  Before its map is made (a small polyhedron's query looks
 * nothing up) the skeleton is made now: the answer must not depend on
 * whether another thread made the map first. */
#define FAST_LONG_ELONGATION 3
int fq_is_long(const fast_query *q, int k);
/* The rows of view k at its vertex extreme along t - s (A, k = 0) or
 * s - t (B), as the support lists of its direction map give them
 * (fast_support.h), into out (FAST_SUPPORT_MAX room): how many; 0 for
 * polyhedra of fewer than FAST_SUPPORT_MIN_ROWS rows, long ones
 * (fq_is_long: two long bodies are separated across their long axes, far
 * from t - s, and there the rows only cost: 1:10 ellipsoids at m = 60 5%
 * slower), without a map, or when t = s.  A cell not made yet is made
 * now in the query's Seidel workspace, with q->fw->order as scratch: call
 * it before the LP's set is written there.  Thread-safe on a shared
 * polyhedron (fast_support.h). */
int fq_support_rows(fast_query *q, int k, int *out);
/* The same along direction d (3 values, in the query's frame) for any
 * view of 3 variables with a map, whatever its rows: the rows of view k
 * tight at its vertex extreme along d's cell (opposite_to_small in
 * fast_faces.c: the face a hull rests on, tight at its lowest vertex).
 * Same workspace rule: before the LP's set is written. */
int fq_support_rows_along(fast_query *q, int k, const double *d, int *out);

/* The rows bounding face `row` of view k in its plane (fast_facet.h), on
 * views of FAST_FACET_MIN_ROWS rows or more that read their preparation's
 * own rows: *count of them, or NULL (*count 0; read every row).  The
 * first request for a face makes its list. */
#define FAST_FACET_MIN_ROWS 32
const int *fq_facet_rows(const fast_query *q, int k, int row, int *count);
/* The rows bounding faces ra of A and rb of B in their planes, as stacked
 * ids into set (room for FQ_FACE_LIST_SET): each face's list
 * (fq_facet_rows), or every row of a view under FAST_FACET_MIN_ROWS rows
 * (a box, or a mapped piece that small).  On the plane of a face the
 * region its list bounds is the face itself; on the plane of the other
 * face of a pair a rounding apart it is a region containing it (rows
 * left out only widen it).  Their count, or 0 when a view of more rows
 * has no list for its face (the caller bounds the region otherwise).
 * Makes the lists on first request, as fq_facet_rows does. */
#define FQ_FACE_LIST_SET (2 * 64)
int fq_face_list_set(const fast_query *q, int ra, int rb, int *set);
/* Before the LP: two faces among the candidates opposite to rounding on
 * one plane but not exactly (fq_opposite_faces), each with its list or
 * small (fq_face_list_set), 3 variables: set as q->rounding_faces (round_ra,
 * round_rb) and 1; else 0 (q unchanged). */
int fq_rounding_faces(fast_query *q);
/* The lines of rows[0..count) of view k asked for (its coefficients,
 * right sides and norms, and with `slack` its center slacks), before
 * reads at scattered places. */
static inline void fq_prefetch_rows(const fast_query *q, int k, const int *rows, int count,
                                    int slack)
{
    for (int c = 0; c < count; c++) {
        int i = rows[c];
        mem_prefetch(view_row(q->V[k], q->n, i));
        mem_prefetch(q->V[k]->b + i);
        mem_prefetch(q->F[k]->norm + i);
        if (slack)
            mem_prefetch(q->F[k]->center_slack + i);
    }
}
/* The same list's cache line asked for ahead of the lookup, its cell kept
 * in q->map_cell[k] (setup's lookup then reads the list without finding
 * the cell again). */
void fq_prefetch_lookup(fast_query *q, int k, const double *d);

/* fast_rounds.c: the margin LP on the candidate rows and the violators
 * that join them, by Seidel's LP (forced: a row made an equality first, or
 * -1) or by the dual simplex (0 when it reached an optimum or certified
 * disjointness, -1 on numerical trouble); z and *strict describe the
 * optimum; and a contact certified from the last optimum's basis. */
seidel_status fq_lp_rounds(fast_query *q, int forced, double *z, int *strict);
int fq_lp_rounds_dual(fast_query *q, double *z, int *strict);
int fq_try_touching(fast_query *q);
/* fast_faces.c: two candidate rows (of the first few of A and of B)
 * opposite faces on one plane, to rounding, found once a query (the
 * crash start of the LP and the face-on-face proof both ask): 1 with
 * *ra of A and *rb of B, or 0. */
int fq_opposite_faces(fast_query *q, int *ra, int *rb);
/* The rows of the LP's set (q->fw->order, count ids) tight at z (n + 1
 * values, its margin rounding noise): two of them exactly opposite faces
 * on one plane, their contact proved at points of their common region
 * near z.  1 when certified (r holds the answer, q->last_basis the
 * proof's basis). */
int fq_faces_in_set(fast_query *q, const double *z, int count);
/* A face on a face (two exactly opposite candidate rows on one plane):
 * the contact certified at a point of that plane below one of the centers,
 * without the LP; and the basis of that proof for rows ra of A, rb of B
 * and the point's coordinates p (fast_faces.c).  1 when certified. */
int fq_try_face_contact(fast_query *q);
int fq_face_basis_certifies(fast_query *q, int ra, int rb, const double *p);
/* The same at a point x of the LP (n coordinates; its margin about 0): a
 * row of A and a row of B that are tight at x and opposite faces on one
 * plane, certified at x's point on that plane.  A contact region of two
 * faces holds the LP's optimum at one of its corners, where rows of the
 * faces' neighbours are tight as well and the basis the LP ends with need
 * not prove the contact: this finds the faces among the tight rows (one
 * pass over each polyhedron's rows).  1 when certified. */
int fq_try_face_at(fast_query *q, const double *x);
/* The same for the faces where the segment from A's center to B's
 * leaves A and enters B (Step 5's exit_row and entry_row), at the point
 * where it crosses them: an object resting on another, its center above
 * the contact, is settled here before the LP.  1 when certified. */
int fq_try_segment_face(fast_query *q);
/* Two faces on one plane among the rows set[0 .. count) (stacked ids: an
 * LP's set), rows of A and B exactly opposite, their contact proved at
 * the point of their common region farthest from its edges: the margin
 * LP of every other row restricted to their plane, in two variables
 * (fast_faces.c).  For the degenerate optimum of two faces lying on each
 * other, where the dual simplex may stall (numerical trouble) at a point
 * that shows neither face tight.  3 variables only.  1 when certified. */
int fq_try_face_region(fast_query *q, const int *set, int count);
/* The point of the common region of faces ra of A and rb of B (opposite,
 * on one plane or to rounding) farthest from the other rows of set[0 ..
 * count) (all rows with set NULL), in ra's plane, its coordinates other
 * than ra's largest rounded to a coarse power of two: into x (3
 * coordinates).  1 when found with a margin above rounding, 0 when not,
 * -1 out of memory.  3 variables. */
int fq_face_region_point(fast_query *q, int ra, int rb, const int *set, int count, double *x);
/* Rows of a Farkas certificate to try for faces ra of A and rb of B
 * opposite to rounding that do not meet: ra, rb and the two rows of set[0
 * .. count) (every row for set NULL) where their planes come nearest, into
 * basis (4 stacked ids), and that vertex of their common region on ra's
 * plane into x (3 doubles; may be NULL): where the sliver between them is
 * thickest when they do meet.  1 found, 0 not, -1 out of memory.  3
 * variables (fast_faces.c). */
int fq_sliver_basis(fast_query *q, int ra, int rb, const int *set, int count, int *basis,
                    double *x);
/* fast_exact_set.c: two bodies a rounding apart (q->rounding_faces: faces
 * of A and B opposite to rounding, tight at the LP's point or found
 * before it among the candidates: fq_rounding_faces) that overlap
 * in the sliver between those faces: a point of it in exact rationals,
 * midway between the two planes on a line across them through the faces'
 * common region (its point farthest from its edges, fq_face_region_point,
 * or points towards it from the vertex where the sliver is thickest,
 * fq_sliver_basis; the region as the faces' lists or the LP's rows bound
 * it, then as every row does), certified strictly inside every row.  1
 * when certified (r holds the overlap), 0 when not (the sliver is closed,
 * or a row fails), -1 out of memory.  On the way it finds fq_sliver_basis on the first region's
 * rows: into basis (SEIDEL_MAX_DIM + 1 ids) with *have_basis 1, for the
 * caller's Farkas attempt when the faces do not meet.  scopes 1: the
 * first region only (the faces' lists, fq_face_list_set, or the LP's
 * rows); 2: then every row's. */
int fq_sliver_point(fast_query *q, int scopes, int *basis, int *have_basis);
/* The margin of rounding noise around 0 at the LP point z (n + 1
 * values): 1e-12 of its largest entry. */
double fq_margin_noise(const fast_query *q, const double *z);
/* fast_exact_set.c: the rows set[0 .. count) (stacked ids, with the
 * candidates of both) classified exactly as a subsystem, rows that do
 * not hold strictly at its overlap point joined, a few rounds: 1 when the
 * answer (disjoint with a Farkas certificate, or overlap at an exact
 * point) holds for A and B and is in q->r; 0 when not (touching, or no
 * answer); -1 out of memory (err set). */
int fq_exact_on_set(fast_query *q, const int *set, int count, hs_error *err);

#endif

/* narrow_memo.c -- records of convex-convex tests (narrow_memo.h).
 *
 * A record, in doubles: the row counts of a and b, the engine, the
 * status, the witness (3) and the normal (3); a's pose and b's pose (16
 * each); a's rows (3 m coefficients, then m right sides), then b's; then,
 * when contacts were recorded, the threshold, their count, the distance,
 * the normal (3) and each contact's two points (6 each).  Small
 * integers are exact in doubles, and every comparison is of bits
 * (memcmp), so -0 and +0 differ (a miss, never a wrong match). */
#include "src/narrow/narrow_memo.h"

#include <stdatomic.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "solver/fast_prep.h"

#define MEMO_HEAD 10 /* mA, mB, engine, status, witness[3], normal[3] */

/* A convex 3-D piece of at most NARROW_MEMO_MAX_ROWS inequality rows whose
 * doubles are the rows' exact values, so that its doubles are the whole
 * input.  (A world's pieces are built from doubles, so this holds for all
 * of them; it is checked as a guard: a row that kept an exact rational
 * beside its double would not be recorded.) */
static int recordable(const narrow_piece *p)
{
    const hs_poly *q = p->g->kind == PIECE_CONVEX ? p->g->poly : NULL;
    if (!q || q->n != 3 || q->m > NARROW_MEMO_MAX_ROWS)
        return 0;
    /* a polyhedron the fast engine prepared had every row checked so
     * (fast_prep.c's eligibility): not again at every record */
    const fast_prep *fp = atomic_load_explicit(&((hs_poly *)q)->prep, memory_order_acquire);
    if (fp && !fp->why)
        return 1;
    for (int i = 0; i < q->m; i++)
        if (!q->exact[i] || q->eq[i])
            return 0;
    return 1;
}

/* Doubles of the test's part of a record (a and b recordable). */
static size_t test_size(const narrow_piece *a, const narrow_piece *b)
{
    return MEMO_HEAD + 32 + 4 * (size_t)(a->g->poly->m + b->g->poly->m);
}

size_t narrow_memo_size(const narrow_piece *a, const narrow_piece *b, const contact_set *cs)
{
    if (!recordable(a) || !recordable(b))
        return 0;
    return test_size(a, b) + (cs ? 6 + 6 * (size_t)cs->count : 0);
}

/* The poses and rows of a and b, laid out as in a record, into out. */
static void inputs(double *out, const narrow_piece *a, const narrow_piece *b)
{
    memcpy(out, a->pose, 16 * sizeof(double));
    memcpy(out + 16, b->pose, 16 * sizeof(double));
    out += 32;
    for (int k = 0; k < 2; k++) {
        const hs_poly *p = (k ? b : a)->g->poly;
        memcpy(out, p->a, 3 * (size_t)p->m * sizeof(double));
        memcpy(out + 3 * p->m, p->b, (size_t)p->m * sizeof(double));
        out += 4 * p->m;
    }
}

/* The same comparison without copying: 1 when equal bit for bit. */
static int same_inputs(const double *rec, const narrow_piece *a, const narrow_piece *b)
{
    if (memcmp(rec, a->pose, 16 * sizeof(double)) != 0 ||
        memcmp(rec + 16, b->pose, 16 * sizeof(double)) != 0)
        return 0;
    rec += 32;
    for (int k = 0; k < 2; k++) {
        const hs_poly *p = (k ? b : a)->g->poly;
        if (memcmp(rec, p->a, 3 * (size_t)p->m * sizeof(double)) != 0 ||
            memcmp(rec + 3 * p->m, p->b, (size_t)p->m * sizeof(double)) != 0)
            return 0;
        rec += 4 * p->m;
    }
    return 1;
}

void narrow_memo_write(double *rec, const narrow_ws *ws, const narrow_piece *a,
                       const narrow_piece *b, const piece_hit *hit, double threshold,
                       const contact_set *cs)
{
    rec[0] = a->g->poly->m;
    rec[1] = b->g->poly->m;
    rec[2] = (double)ws->opt.engine;
    rec[3] = (double)hit->status;
    memcpy(rec + 4, hit->witness, 3 * sizeof(double));
    memcpy(rec + 7, hit->normal, 3 * sizeof(double));
    inputs(rec + MEMO_HEAD, a, b);
    if (!cs)
        return;
    double *c = rec + test_size(a, b);
    c[0] = threshold;
    c[1] = cs->count;
    c[2] = cs->distance;
    memcpy(c + 3, cs->normal, 3 * sizeof(double));
    for (int k = 0; k < cs->count; k++) {
        memcpy(c + 6 + 6 * k, cs->pt[k].on_a, 3 * sizeof(double));
        memcpy(c + 9 + 6 * k, cs->pt[k].on_b, 3 * sizeof(double));
    }
}

int narrow_memo_match(const double *rec, size_t len, const narrow_ws *ws,
                      const narrow_piece *a, const narrow_piece *b, piece_hit *hit)
{
    /* the cheap tests first: sizes, engine, poses (what moves) */
    if (!rec || len < MEMO_HEAD + 32 || a->g->kind != PIECE_CONVEX ||
        b->g->kind != PIECE_CONVEX || rec[0] != a->g->poly->m || rec[1] != b->g->poly->m ||
        rec[2] != (double)ws->opt.engine ||
        memcmp(rec + MEMO_HEAD, a->pose, 16 * sizeof(double)) != 0 ||
        memcmp(rec + MEMO_HEAD + 16, b->pose, 16 * sizeof(double)) != 0 ||
        !recordable(a) || !recordable(b) || len < test_size(a, b) ||
        !same_inputs(rec + MEMO_HEAD, a, b))
        return 0;
    if (ws->want_normal && rec[7] != rec[7]) /* the normal was not computed then */
        return 0;
    hit->status = (hs_status)rec[3];
    memcpy(hit->witness, rec + 4, 3 * sizeof(double));
    memcpy(hit->normal, rec + 7, 3 * sizeof(double));
    return 1;
}

int narrow_memo_contacts(const double *rec, size_t len, const narrow_piece *a,
                         const narrow_piece *b, double threshold, contact_set *cs)
{
    size_t at = test_size(a, b);
    if (len < at + 6 || memcmp(rec + at, &threshold, sizeof threshold) != 0)
        return 0;
    const double *c = rec + at;
    int count = (int)c[1];
    if (count < 0 || count > CONTACT_MAX || len != at + 6 + 6 * (size_t)count)
        return 0;
    cs->count = count;
    cs->distance = c[2];
    memcpy(cs->normal, c + 3, 3 * sizeof(double));
    for (int k = 0; k < count; k++) {
        memcpy(cs->pt[k].on_a, c + 6 + 6 * k, 3 * sizeof(double));
        memcpy(cs->pt[k].on_b, c + 9 + 6 * k, 3 * sizeof(double));
    }
    return 1;
}

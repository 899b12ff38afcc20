/* world_query.c -- the world query: broad phase (pairs of bodies whose boxes
 * come within the contact threshold, filtered by seed 001's rules), narrow
 * phase on every pair of pieces (exact status, then contacts for pairs
 * that do not overlap), on worker threads, and the report sorted by body
 * names.  Also the distance between two bodies. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "polytope/obb.h"
#include "src/narrow/contact.h"
#include "src/narrow/narrow.h"
#include "src/narrow/narrow_memo.h"
#include "polytope/error.h"
#include "polytope/arena.h"
#include "polytope/mem.h"
#include "polytope/order.h"
#include "src/shape/pose.h"
#include "src/world/world.h"

/* ---------------------------------------------------------- the report */

typedef struct rep_piece {
    int ia, ib;
    hs_status status;
    double witness[3];
    double distance;
} rep_piece;

typedef struct rep_contact {
    double on_a[3], on_b[3], normal[3];
} rep_contact;

/* A permutation that sorted a list at the last query (order.h). */
typedef struct perm_cache {
    int *perm;
    int n, cap;
} perm_cache;

/* The most threads a query's narrow phase runs. */
#define NARROW_THREADS_MAX 64

/* What the last query on a pair of convex pieces learnt (a certificate's
 * rows or a common point), keyed by body ids and piece indices.  The
 * report keeps them, so a caller that queries a moving world with the same
 * report starts each pair from its last answer: temporal coherence without
 * any state in the (const) world.  Hints are only tried through the
 * certified predicates.  Kept compactly (not a whole fast_hint): pieces
 * are 3-D, so a basis has n + 1 = 4 rows and a point 3 coordinates, and
 * the fast engine reads no more of a hint for n = 3.  A pair that touched
 * also keeps the record of its test
 * (narrow_memo.h: the inputs bit for bit and the answer), memo_len doubles
 * at memo (memo_len 0: none; while the query runs, at memo_at in its pair's
 * pool): the next query answers it from the record when nothing moved. */
#define HINT_ROWS 4
typedef struct hint_rec {
    int ida, idb, ia, ib;
    unsigned char kind;
    unsigned char which[HINT_ROWS];
    int row[HINT_ROWS];
    double x[HINT_ROWS - 1];
    size_t memo_at, memo_len;
    const double *memo; /* (in the arenas of the query that kept it) */
} hint_rec;

typedef struct rep_pair {
    const hs_body *a, *b;
    hs_status status;
    int piece0, npieces, contact0, ncontacts;
} rep_pair;

struct hs_report {
    rep_pair *pair;
    int npair, cap_pair;
    rep_piece *piece;
    int npiece, cap_piece;
    rep_contact *contact;
    int ncontact, cap_contact;
    char *names;          /* body names of the pairs, NUL-separated */
    size_t names_len, names_cap;
    size_t *name_at;      /* 2 per pair: offsets into names */
    int cap_name_at;
    hs_report_stats stats;
    hint_rec *hint;       /* hints of the last query, sorted (see fast_hint) */
    int nhint, cap_hint;
    narrow_ws *ws;        /* the narrow phase's workspaces (one per thread),
                             kept for the next query with this report: a
                             query then allocates nothing for them */
    int nws;
    perm_cache pair_order, hint_order; /* the last query's sorting permutations */
    mem_arena arena[2][NARROW_THREADS_MAX]; /* what worker k records per pair
                             of bodies (pieces, hints, records, contacts):
                             two sets used in turn, so that the records
                             (narrow_memo.h) of the last query stay where
                             they were written while this one reads them;
                             a set is reset when its turn comes again */
    int arena_set;        /* the set of the last query */
};

hs_report *hs_report_new(void) { return calloc(1, sizeof(hs_report)); }

void hs_report_free(hs_report *r)
{
    if (!r)
        return;
    free(r->pair);
    free(r->piece);
    free(r->contact);
    free(r->names);
    free(r->name_at);
    free(r->hint);
    for (int k = 0; k < r->nws; k++)
        narrow_ws_free(&r->ws[k]);
    free(r->ws);
    for (int k = 0; k < NARROW_THREADS_MAX; k++) {
        mem_arena_free(&r->arena[0][k]);
        mem_arena_free(&r->arena[1][k]);
    }
    free(r->pair_order.perm);
    free(r->hint_order.perm);
    free(r);
}

void hs_query_options_init(hs_query_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->threshold = 0.1;
    opt->contacts = 1;
    opt->triangles = HS_TRI_BVH;
    opt->threads = 1;
    opt->engine = HS_ENGINE_FAST;
}

/* Room for `need` items: exactly `need` at first (most pairs of bodies
 * have one pair of pieces, one hint, no contacts), then doubling, so that
 * the memory follows what is reported.  In the arena ar when given (what
 * a worker records per pair: no malloc per pair), else on the heap. */
static int grow_in(mem_arena *ar, void **p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return 0;
    int c = *cap ? *cap : need;
    while (c < need)
        c = c > INT32_MAX / 2 ? need : 2 * c;
    void *np = ar ? mem_arena_grow(ar, *p, (size_t)*cap, (size_t)c, size)
                  : mem_realloc(*p, (size_t)c, size);
    if (!np)
        return -1;
    *p = np;
    *cap = c;
    return 0;
}

static int grow(void **p, int *cap, int need, size_t size)
{
    return grow_in(NULL, p, cap, need, size);
}

/* ---------------------------------------------------- one pair of bodies */

/* What the narrow phase found for one pair of bodies (built by one worker). */
typedef struct pair_out {
    const hs_body *a, *b;
    hs_status status;  /* HS_DISJOINT when nothing to report */
    rep_piece *piece;
    int npiece, cap_piece;
    rep_contact *contact;
    int ncontact, cap_contact;
    hint_rec *hint;    /* hints for the next query */
    int nhint, cap_hint;
    double *memo;      /* their records (memo_at counts from here) */
    size_t nmemo, cap_memo;
    atomic_long *memo_left; /* doubles of records the query may still keep */
    mem_arena *ar;     /* where piece, contact, hint and memo live (the
                          worker's arena of the report) */
    int failed;
    hs_error *err;     /* the error, when failed (NULL: out of memory) */
} pair_out;

static int hint_order(const void *x, const void *y)
{
    const hint_rec *p = x, *q = y;
    if (p->ida != q->ida)
        return p->ida < q->ida ? -1 : 1;
    if (p->idb != q->idb)
        return p->idb < q->idb ? -1 : 1;
    if (p->ia != q->ia)
        return p->ia < q->ia ? -1 : 1;
    return p->ib < q->ib ? -1 : p->ib > q->ib;
}

/* The record of the last query for this pair of pieces, or NULL. */
static const hint_rec *find_rec(const hs_report *rep, const pair_out *po, int ia, int ib)
{
    if (!rep || rep->nhint == 0)
        return NULL;
    hint_rec key;
    memset(&key, 0, sizeof key);
    key.ida = po->a->id;
    key.idb = po->b->id;
    key.ia = ia;
    key.ib = ib;
    return bsearch(&key, rep->hint, (size_t)rep->nhint, sizeof key, hint_order);
}

/* The hint of a record into *out: out, or NULL when there is none. */
static const fast_hint *rec_hint(const hint_rec *h, fast_hint *out)
{
    memset(out, 0, sizeof *out);
    out->kind = h ? (fast_hint_kind)h->kind : FAST_HINT_NONE;
    if (out->kind == FAST_HINT_NONE)
        return NULL;
    for (int c = 0; c < HINT_ROWS; c++) {
        out->which[c] = h->which[c];
        out->row[c] = h->row[c];
    }
    memcpy(out->x, h->x, sizeof h->x);
    return out;
}

/* Room for `need` more doubles in a memo pool in the arena ar; 0 or -1. */
static int memo_reserve(mem_arena *ar, double **pool, size_t *n, size_t *cap, size_t need)
{
    if (*n + need <= *cap)
        return 0;
    size_t c = *cap ? *cap : need;
    while (c < *n + need)
        c *= 2;
    double *np = mem_arena_grow(ar, *pool, *cap, c, sizeof *np);
    if (!np)
        return -1;
    *pool = np;
    *cap = c;
    return 0;
}

/* The records one query keeps, at most (doubles: 32 MiB); beyond, pairs
 * are simply tested again next time. */
#define MEMO_MAX_DOUBLES (1L << 22)

/* Keep the hint h of pieces ia, ib for the next query, with the record of
 * the test (memo_len doubles, 0 for none) when they touch or overlap:
 * what a scene at rest is made of, and what a hint can make costly to
 * confirm (a contact's proof; an overlap of bodies set down a rounding
 * apart, whose point is a rational no double hint holds).  A disjoint
 * pair's certificate is confirmed by a few determinants: not recorded. */
static void keep_hint(pair_out *po, int ia, int ib, const fast_hint *h, narrow_ws *ws,
                      const narrow_piece *pa, const narrow_piece *pb, const piece_hit *hit,
                      double threshold, const contact_set *cs)
{
    size_t memo_len = hit->status == HS_TOUCHING || hit->status == HS_OVERLAP
                          ? narrow_memo_size(pa, pb, cs)
                          : 0;
    if (memo_len && (!po->memo_left ||
                     atomic_fetch_sub(po->memo_left, (long)memo_len) < (long)memo_len))
        memo_len = 0; /* (over the budget: not kept) */
    if ((h->kind == FAST_HINT_NONE && memo_len == 0) ||
        grow_in(po->ar, (void **)&po->hint, &po->cap_hint, po->nhint + 1, sizeof *po->hint) != 0)
        return; /* a hint is only an accelerator */
    if (memo_len && memo_reserve(po->ar, &po->memo, &po->nmemo, &po->cap_memo, memo_len) != 0)
        memo_len = 0;
    hint_rec *r = &po->hint[po->nhint++];
    memset(r, 0, sizeof *r);
    r->ida = po->a->id;
    r->idb = po->b->id;
    r->ia = ia;
    r->ib = ib;
    r->kind = (unsigned char)h->kind;
    for (int c = 0; c < HINT_ROWS; c++) {
        r->which[c] = (unsigned char)h->which[c];
        r->row[c] = h->row[c];
    }
    memcpy(r->x, h->x, sizeof r->x);
    if (memo_len) {
        narrow_memo_write(po->memo + po->nmemo, ws, pa, pb, hit, threshold, cs);
        r->memo_at = po->nmemo;
        r->memo_len = memo_len;
        po->nmemo += memo_len;
    }
}

static int strength(hs_status s)
{
    return s == HS_OVERLAP ? 3 : s == HS_TOUCHING ? 2 : s == HS_CONTACT ? 1 : 0;
}

static int boxes_within(const double *lo1, const double *hi1, const double *lo2,
                        const double *hi2, double gap)
{
    for (int d = 0; d < 3; d++)
        if (lo1[d] > hi2[d] + gap || lo2[d] > hi1[d] + gap)
            return 0;
    return 1;
}

/* Do the two world boxes meet only in a sheet (along some axis they
 * overlap, or stand apart, by at most 2^-20 of the larger extent)?  Then
 * the pieces rest on each other or miss by a sliver, as a body set on a
 * floor or on another does: their oriented boxes, widened for rounding,
 * meet too, and the test would only cost (resting boxes, bench/world
 * scene rest: 2 k of 10.6 k instructions a pair).  Boxes farther apart
 * (within a query's threshold) keep the test.  A heuristic for speed,
 * never for an answer. */
static int boxes_thin(const double *lo1, const double *hi1, const double *lo2,
                      const double *hi2)
{
    for (int d = 0; d < 3; d++) {
        double w = fmin(hi1[d], hi2[d]) - fmax(lo1[d], lo2[d]);
        double ext = fmax(hi1[d] - lo1[d], hi2[d] - lo2[d]);
        if (fabs(w) <= 0x1p-20 * ext)
            return 1;
    }
    return 0;
}

/* The oriented boxes of piece ia of a and ib of b (b placed in a's frame
 * by m) are certainly farther apart than the threshold (0: disjoint), so
 * the pieces are too.  Besides
 * obb_relative's own rounding, a's box is widened like the piece boxes
 * (POSE_BOX_SLACK) for the translation between the bodies, since the
 * narrow phase maps rows with the inverse of this relative pose. */
static int obbs_apart(const hs_body *a, int ia, const hs_body *b, int ib, const double m[16],
                      double threshold)
{
    double ha[3], R[9], t[3], scale;
    const hs_obb *ob = &b->piece[ib]->obb;
    if (obb_relative(&a->piece[ia]->obb, ob, m, ha, R, t, &scale) != 0)
        return 0;
    double reach = POSE_BOX_SLACK * (fabs(m[3]) + fabs(m[7]) + fabs(m[11])) + 0x1p-1000;
    for (int k = 0; k < 3; k++)
        ha[k] += reach * 1.5; /* (1.5: covers the rounding of this sum) */
    if (threshold == 0)
        return !obb_overlap_frame(ha, R, t, ob->half);
    double gap = obb_gap_frame(ha, R, t, ob->half);
    return gap > threshold * scale * (1 + 0x1p-40);
}

/* The world box of piece i (of a one-piece body: the body's box, the
 * same numbers, computed when the pose was set). */
static void piece_box(const hs_body *b, int i, double lo[3], double hi[3])
{
    if (b->npieces == 1) {
        memcpy(lo, b->lo, sizeof b->lo);
        memcpy(hi, b->hi, sizeof b->hi);
        return;
    }
    pose_map_box(b->pose, b->piece[i]->lo, b->piece[i]->hi, lo, hi);
}

static int record_piece(pair_out *po, int ia, int ib, hs_status st, const double w[3], double dist)
{
    if (grow_in(po->ar, (void **)&po->piece, &po->cap_piece, po->npiece + 1,
                sizeof *po->piece) != 0)
        return -1;
    rep_piece *p = &po->piece[po->npiece++];
    *p = (rep_piece){ia, ib, st, {w[0], w[1], w[2]}, dist};
    if (strength(st) > strength(po->status))
        po->status = st;
    return 0;
}

static int record_contacts(pair_out *po, const contact_set *cs)
{
    if (grow_in(po->ar, (void **)&po->contact, &po->cap_contact, po->ncontact + cs->count,
                sizeof *po->contact) != 0)
        return -1;
    for (int k = 0; k < cs->count; k++) {
        rep_contact *c = &po->contact[po->ncontact++];
        memcpy(c->on_a, cs->pt[k].on_a, sizeof c->on_a);
        memcpy(c->on_b, cs->pt[k].on_b, sizeof c->on_b);
        memcpy(c->normal, cs->normal, sizeof c->normal);
    }
    return 0;
}

/* One pair of pieces: exact status, then contacts when they do not
 * overlap and the threshold asks for them. */
static hs_code piece_pair(narrow_ws *ws, const hs_query_options *opt, pair_out *po, int ia,
                          int ib, const hint_rec *rec, hs_error *err)
{
    piece_hit hit;
    fast_hint next, last;
    narrow_piece pa = body_piece(po->a, ia), pb = body_piece(po->b, ib);
    const fast_hint *hint = rec_hint(rec, &last);
    const double *memo = rec && rec->memo_len ? rec->memo : NULL;
    int recorded = memo && narrow_memo_match(memo, rec->memo_len, ws, &pa, &pb, &hit);
    if (recorded) {
        ws->piece_tests++; /* answered by the record: nothing moved */
        ws->repeated++;
        next = last;
    } else {
        hs_code rc = narrow_test(ws, &pa, &pb, hint, &next, &hit, err);
        if (rc != HS_OK)
            return rc;
    }
    contact_set cs;
    cs.count = 0;
    cs.distance = 0;
    memset(cs.normal, 0, sizeof cs.normal);
    int close = 0, want_contacts = hit.status != HS_OVERLAP && opt->threshold > 0;
    if (want_contacts) {
        if (!recorded ||
            !narrow_memo_contacts(memo, rec->memo_len, &pa, &pb, opt->threshold, &cs)) {
            int count = contact_points(ws, &pa, &pb, &hit, opt->threshold, &cs);
            cs.count = count > 0 ? count : 0;
        } /* (else the same numbers gave these contacts last time) */
        close = cs.count > 0;
    }
    keep_hint(po, ia, ib, &next, ws, &pa, &pb, &hit, opt->threshold,
              want_contacts ? &cs : NULL);
    int bad = 0;
    if (hit.status != HS_DISJOINT)
        bad |= record_piece(po, ia, ib, hit.status, hit.witness, 0);
    else if (close)
        bad |= record_piece(po, ia, ib, HS_CONTACT, cs.pt[0].on_a, cs.distance);
    if (close && opt->contacts)
        bad |= record_contacts(po, &cs);
    return bad ? err_set(err, HS_ERR_NOMEM, "out of memory") : HS_OK;
}

static hs_code body_pair(narrow_ws *ws, const hs_query_options *opt, const hs_report *old,
                         pair_out *po, hs_error *err)
{
    const hs_body *a = po->a, *b = po->b;
    double b_in_a[16]; /* b's frame into a's, for the oriented boxes (made
                          when first needed) */
    int have_frame = 0;
    for (int ia = 0; ia < a->npieces; ia++) {
        double loa[3], hia[3];
        piece_box(a, ia, loa, hia);
        for (int ib = 0; ib < b->npieces; ib++) {
            double lob[3], hib[3];
            piece_box(b, ib, lob, hib);
            if (!boxes_within(loa, hia, lob, hib, opt->threshold))
                continue;
            /* Pieces that met at the last query most likely still do, and
             * pieces whose boxes meet in a sheet rest on each other: the
             * oriented boxes (a filter, never an answer) are skipped. */
            const hint_rec *rec = find_rec(old, po, ia, ib);
            int met = rec && (rec->kind == FAST_HINT_OVERLAP || rec->kind == FAST_HINT_TOUCHING ||
                              rec->kind == FAST_HINT_FACE);
            if (!met && !have_frame) {
                pose_relative_inv(b_in_a, a->inv, b->pose);
                have_frame = 1;
            }
            if (!met && !boxes_thin(loa, hia, lob, hib) &&
                obbs_apart(a, ia, b, ib, b_in_a, opt->threshold))
                continue;
            hs_code rc = piece_pair(ws, opt, po, ia, ib, rec, err);
            if (rc != HS_OK)
                return rc;
        }
    }
    return HS_OK;
}

/* ------------------------------------------------------- candidates */

typedef struct cand_list {
    const hs_world *w;
    pair_out *pair;
    int n, cap, failed;
    int self;          /* bp_query: the id asked about */
} cand_list;

static void add_candidate(cand_list *cl, int ida, int idb)
{
    const hs_body *a = cl->w->by_id[ida], *b = cl->w->by_id[idb];
    if (!a || !b || !world_pair_allowed(cl->w, a, b))
        return;
    if (grow((void **)&cl->pair, &cl->cap, cl->n + 1, sizeof *cl->pair) != 0) {
        cl->failed = 1;
        return;
    }
    memset(&cl->pair[cl->n], 0, sizeof cl->pair[cl->n]);
    int swap = names_compare(a, b) > 0; /* first by name */
    cl->pair[cl->n].a = swap ? b : a;
    cl->pair[cl->n].b = swap ? a : b;
    cl->pair[cl->n].status = HS_DISJOINT;
    cl->n++;
}

static void on_pair(void *user, int a, int b) { add_candidate(user, a, b); }

static void on_near(void *user, int id)
{
    cand_list *cl = user;
    if (id > cl->self)
        add_candidate(cl, cl->self, id);
}

/* Pairs of bodies whose boxes overlap, or come within the threshold. */
static long gather_candidates(const hs_world *w, double threshold, cand_list *cl)
{
    if (!(threshold > 0))
        return bp_pairs(w->bp, on_pair, cl);
    long tests = 0;
    for (int k = 0; k < w->nbodies; k++) {
        const hs_body *b = w->bodies[k];
        if (!b->in_bp)
            continue;
        double lo[3], hi[3];
        for (int d = 0; d < 3; d++) {
            lo[d] = b->lo[d] - threshold;
            hi[d] = b->hi[d] + threshold;
        }
        cl->self = b->id;
        tests += bp_query(w->bp, lo, hi, on_near, cl);
    }
    return tests;
}

/* ------------------------------------------------------ narrow phase */

typedef struct narrow_job {
    const hs_query_options *opt;
    const hs_report *old;  /* the hints of the last query (read only here) */
    cand_list *cl;
    atomic_int next;
    atomic_long fallbacks, tri_tests, piece_pairs, repeated;
    atomic_long memo_left; /* MEMO_MAX_DOUBLES less the records kept */
    narrow_ws *pool;       /* the report's workspaces: worker k takes pool[k] */
    mem_arena *arenas;     /* the report's arenas: worker k records in arenas[k] */
    int pool_n;
    atomic_int next_ws;
} narrow_job;

static void *narrow_worker(void *arg)
{
    narrow_job *job = arg;
    int slot = atomic_fetch_add(&job->next_ws, 1), own = slot >= job->pool_n, ok = 1;
    narrow_ws mine, *wsp = own ? &mine : &job->pool[slot];
    if (own)
        ok = narrow_ws_init(&mine, job->opt->triangles, job->opt->engine) == 0;
    else
        narrow_ws_reuse(wsp, job->opt->triangles, job->opt->engine);
    narrow_ws ws = *wsp; /* (a local copy; written back below) */
    ws.want_normal = job->opt->contacts != 0; /* only contacts read the normal */
    for (;;) {
        int k = atomic_fetch_add(&job->next, 1);
        if (k >= job->cl->n)
            break;
        pair_out *po = &job->cl->pair[k];
        po->memo_left = &job->memo_left;
        po->ar = &job->arenas[slot];
        hs_error err;
        if (!ok)
            err_set(&err, HS_ERR_NOMEM, "out of memory");
        if (!ok || body_pair(&ws, job->opt, job->old, po, &err) != HS_OK) {
            po->failed = 1;
            if ((po->err = malloc(sizeof *po->err)) != NULL)
                *po->err = err;
        }
    }
    atomic_fetch_add(&job->fallbacks, ws.fallbacks);
    atomic_fetch_add(&job->tri_tests, ws.tri_tests);
    atomic_fetch_add(&job->piece_pairs, ws.piece_tests);
    atomic_fetch_add(&job->repeated, ws.repeated);
    if (own)
        narrow_ws_free(&ws);
    else
        *wsp = ws;
    return NULL;
}

static int thread_count(int threads, int work)
{
    if (threads == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cpus > 0 ? (int)cpus : 1;
    }
    if (threads < 1)
        threads = 1;
    return threads > work ? (work > 0 ? work : 1) : threads;
}

/* The report's workspaces, at least `want` of them when memory allows
 * (a worker without one makes its own for the query). */
static void pool_reserve(hs_report *rep, int want, const hs_query_options *opt)
{
    if (want <= rep->nws)
        return;
    narrow_ws *ws = mem_realloc(rep->ws, (size_t)want, sizeof *ws);
    if (!ws)
        return;
    rep->ws = ws;
    while (rep->nws < want && narrow_ws_init(&rep->ws[rep->nws], opt->triangles, opt->engine) == 0)
        rep->nws++;
    if (rep->nws < want)
        narrow_ws_free(&rep->ws[rep->nws]); /* (the one that failed) */
}

static void run_narrow(narrow_job *job, hs_report *rep, int threads)
{
    pthread_t tid[NARROW_THREADS_MAX];
    int started = 0, want = thread_count(threads, job->cl->n);
    if (want > NARROW_THREADS_MAX)
        want = NARROW_THREADS_MAX;
    rep->arena_set ^= 1; /* (the other set holds the last query's records) */
    for (int k = 0; k < want; k++)
        mem_arena_reset(&rep->arena[rep->arena_set][k]);
    job->arenas = rep->arena[rep->arena_set];
    pool_reserve(rep, want, job->opt);
    job->pool = rep->ws;
    job->pool_n = rep->nws;
    for (int t = 1; t < want; t++)
        if (pthread_create(&tid[started], NULL, narrow_worker, job) == 0)
            started++;
    narrow_worker(job);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
}

/* ------------------------------------------------------------ merging */

static int append_name(hs_report *r, const char *s, size_t *at)
{
    size_t len = strlen(s) + 1;
    if (r->names_len + len > r->names_cap) {
        size_t cap = r->names_cap ? 2 * r->names_cap : 256;
        while (cap < r->names_len + len)
            cap *= 2;
        char *nn = realloc(r->names, cap);
        if (!nn)
            return -1;
        r->names = nn;
        r->names_cap = cap;
    }
    memcpy(r->names + r->names_len, s, len);
    *at = r->names_len;
    r->names_len += len;
    return 0;
}

static int by_names(const void *x, const void *y)
{
    const pair_out *p = x, *q = y;
    int c = names_compare(p->a, q->a);
    return c ? c : names_compare(p->b, q->b);
}

static int by_names_at(void *ctx, int i, int j)
{
    const pair_out *p = ctx;
    return by_names(&p[i], &p[j]);
}

static int hint_order_at(void *ctx, int i, int j)
{
    const hint_rec *h = ctx;
    return hint_order(&h[i], &h[j]);
}

/* The order of the n items (of `size` bytes) by cmp (qcmp: the same
 * order for qsort): the permutation that sorted them at the last query
 * when it still does (a scene at rest gives the same pairs in the same
 * order: n - 1 comparisons), else a merge sort's, kept for the next query.
 * Returns the permutation (items[perm[k]] is the k-th), or NULL when the
 * items themselves were sorted (n < 2; without memory, by qsort).  With
 * `apply`, the items are also put in that order (and NULL returned).
 * Scratch comes from the arena ar (reset each query). */
static const int *sort_cached(perm_cache *pc, mem_arena *ar, void *items, int n, size_t size,
                              order_cmp cmp, int (*qcmp)(const void *, const void *), int apply)
{
    if (n < 2)
        return NULL;
    char *copy = apply ? mem_arena_grow(ar, NULL, 0, (size_t)n, size) : NULL;
    int *tmp = mem_arena_grow(ar, NULL, 0, (size_t)n, sizeof(int));
    if ((apply && !copy) || !tmp || grow((void **)&pc->perm, &pc->cap, n, sizeof(int)) != 0) {
        pc->n = 0;
        qsort(items, (size_t)n, size, qcmp);
        return NULL;
    }
    if (pc->n != n || !order_holds(n, cmp, items, pc->perm)) {
        order_sort(n, cmp, items, pc->perm, tmp);
        pc->n = n;
    }
    if (!apply)
        return pc->perm;
    for (int k = 0; k < n; k++)
        memcpy(copy + (size_t)k * size, (char *)items + (size_t)pc->perm[k] * size, size);
    memcpy(items, copy, (size_t)n * size);
    return NULL;
}

static int keep_pair(hs_report *r, const pair_out *po)
{
    int k = r->npair;
    if (grow((void **)&r->pair, &r->cap_pair, k + 1, sizeof *r->pair) != 0 ||
        grow((void **)&r->piece, &r->cap_piece, r->npiece + po->npiece, sizeof *r->piece) != 0 ||
        grow((void **)&r->contact, &r->cap_contact, r->ncontact + po->ncontact,
             sizeof *r->contact) != 0)
        return -1;
    if (grow((void **)&r->name_at, &r->cap_name_at, 2 * (k + 1), sizeof *r->name_at) != 0)
        return -1;
    size_t *na = r->name_at;
    if (append_name(r, po->a->name, &na[2 * k]) != 0 || append_name(r, po->b->name, &na[2 * k + 1]))
        return -1;
    r->pair[k] = (rep_pair){po->a, po->b, po->status, r->npiece, po->npiece, r->ncontact,
                            po->ncontact};
    if (po->npiece > 0)
        memcpy(r->piece + r->npiece, po->piece, sizeof *po->piece * (size_t)po->npiece);
    if (po->ncontact > 0) /* (memcpy from NULL is undefined even for 0 bytes) */
        memcpy(r->contact + r->ncontact, po->contact, sizeof *po->contact * (size_t)po->ncontact);
    r->npiece += po->npiece;
    r->ncontact += po->ncontact;
    r->npair++;
    return 0;
}

/* The hints of this query replace the last one's (kept if out of memory:
 * they are only accelerators). */
static void collect_hints(hs_report *r, cand_list *cl)
{
    int total = 0;
    for (int k = 0; k < cl->n; k++)
        total += cl->pair[k].nhint;
    if (grow((void **)&r->hint, &r->cap_hint, total, sizeof *r->hint) == 0) {
        r->nhint = 0;
        for (int k = 0; k < cl->n; k++) {
            pair_out *po = &cl->pair[k];
            if (po->nhint == 0)
                continue;
            hint_rec *h = r->hint + r->nhint;
            memcpy(h, po->hint, sizeof *r->hint * (size_t)po->nhint);
            for (int i = 0; i < po->nhint; i++) /* (the records stay in the arena) */
                h[i].memo = h[i].memo_len ? po->memo + h[i].memo_at : NULL;
            r->nhint += po->nhint;
        }
        sort_cached(&r->hint_order, &r->arena[r->arena_set][0], r->hint, r->nhint,
                    sizeof *r->hint, hint_order_at, hint_order, 1); /* (bsearch reads them in order) */
    } else {
        r->nhint = 0; /* (records without room: none kept) */
    }
}

/* Only the pairs with something to report (or an error) are sorted. */
static void drop_quiet_pairs(cand_list *cl)
{
    int kept = 0;
    for (int k = 0; k < cl->n; k++) {
        pair_out *po = &cl->pair[k];
        if (po->status == HS_DISJOINT && !po->failed)
            continue;
        cl->pair[kept++] = *po;
    }
    cl->n = kept;
}

static hs_code merge(hs_report *r, cand_list *cl, hs_error *err)
{
    hs_code rc = HS_OK;
    drop_quiet_pairs(cl);
    const int *perm = sort_cached(&r->pair_order, &r->arena[r->arena_set][0], cl->pair, cl->n,
                                  sizeof *cl->pair, by_names_at, by_names, 0);
    for (int k = 0; k < cl->n; k++) {
        pair_out *po = &cl->pair[perm ? perm[k] : k];
        if (po->failed && rc == HS_OK) {
            if (!po->err)
                rc = err_set(err, HS_ERR_NOMEM, "out of memory");
            else {
                if (err)
                    *err = *po->err;
                rc = po->err->code ? po->err->code : HS_ERR_INTERNAL;
            }
        }
        free(po->err);
        if (rc == HS_OK && po->status != HS_DISJOINT && keep_pair(r, po) != 0)
            rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    return rc;
}

hs_code hs_world_query(const hs_world *w, const hs_query_options *opt, hs_report *rep,
                       hs_error *err)
{
    hs_query_options defaults;
    if (!opt) {
        hs_query_options_init(&defaults);
        opt = &defaults;
    }
    if (!w || !rep)
        return err_set(err, HS_ERR_ARG, "hs_world_query: NULL argument");
    if (!(opt->threshold >= 0) || !isfinite(opt->threshold))
        return err_set(err, HS_ERR_ARG, "the contact threshold must be finite and >= 0");
    if (opt->engine != HS_ENGINE_FAST && opt->engine != HS_ENGINE_EXACT)
        return err_set(err, HS_ERR_ARG, "a world query runs the fast or the exact engine");
    rep->npair = rep->npiece = rep->ncontact = 0;
    rep->names_len = 0;
    memset(&rep->stats, 0, sizeof rep->stats);
    cand_list cl = {w, NULL, 0, 0, 0, -1};
    gather_candidates(w, opt->threshold, &cl);
    if (cl.failed) {
        free(cl.pair);
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    narrow_job job = {.opt = opt, .old = rep, .cl = &cl, .memo_left = MEMO_MAX_DOUBLES};
    run_narrow(&job, rep, opt->threads);
    rep->stats.body_pairs = cl.n;
    rep->stats.fallbacks = atomic_load(&job.fallbacks);
    rep->stats.triangle_tests = atomic_load(&job.tri_tests);
    rep->stats.piece_pairs = atomic_load(&job.piece_pairs);
    rep->stats.repeated = atomic_load(&job.repeated);
    collect_hints(rep, &cl);
    hs_code rc = merge(rep, &cl, err);
    free(cl.pair);
    return rc;
}

/* ---------------------------------------------------------- accessors */

int hs_report_pair_count(const hs_report *r) { return r ? r->npair : 0; }

hs_code hs_report_pair(const hs_report *r, int k, const char **a, const char **b,
                       hs_status *status)
{
    if (!r || k < 0 || k >= r->npair)
        return HS_ERR_ARG;
    if (a)
        *a = r->names + r->name_at[2 * k];
    if (b)
        *b = r->names + r->name_at[2 * k + 1];
    if (status)
        *status = r->pair[k].status;
    return HS_OK;
}

int hs_report_piece_count(const hs_report *r, int k)
{
    return (r && k >= 0 && k < r->npair) ? r->pair[k].npieces : 0;
}

hs_code hs_report_piece(const hs_report *r, int k, int j, int *piece_a, int *piece_b,
                        hs_status *status, double witness[3], double *distance)
{
    if (!r || k < 0 || k >= r->npair || j < 0 || j >= r->pair[k].npieces)
        return HS_ERR_ARG;
    const rep_piece *p = &r->piece[r->pair[k].piece0 + j];
    if (piece_a)
        *piece_a = p->ia;
    if (piece_b)
        *piece_b = p->ib;
    if (status)
        *status = p->status;
    if (witness)
        memcpy(witness, p->witness, sizeof p->witness);
    if (distance)
        *distance = p->distance;
    return HS_OK;
}

int hs_report_contact_count(const hs_report *r, int k)
{
    return (r && k >= 0 && k < r->npair) ? r->pair[k].ncontacts : 0;
}

hs_code hs_report_contact(const hs_report *r, int k, int c, double on_a[3], double on_b[3],
                          double normal[3])
{
    if (!r || k < 0 || k >= r->npair || c < 0 || c >= r->pair[k].ncontacts)
        return HS_ERR_ARG;
    const rep_contact *ct = &r->contact[r->pair[k].contact0 + c];
    if (on_a)
        memcpy(on_a, ct->on_a, sizeof ct->on_a);
    if (on_b)
        memcpy(on_b, ct->on_b, sizeof ct->on_b);
    if (normal)
        memcpy(normal, ct->normal, sizeof ct->normal);
    return HS_OK;
}

void hs_report_get_stats(const hs_report *r, hs_report_stats *st)
{
    if (r && st)
        *st = r->stats;
}

/* ------------------------------------------------------------ distance */

hs_code hs_world_distance(const hs_world *w, const hs_body *a, const hs_body *b, double *dist,
                          double pa[3], double pb[3], hs_error *err)
{
    if (!w || !a || !b || a == b || a->npieces == 0 || b->npieces == 0)
        return err_set(err, HS_ERR_ARG, "distance needs two distinct bodies with pieces");
    narrow_ws ws;
    if (narrow_ws_init(&ws, HS_TRI_BVH, HS_ENGINE_FAST) != 0) {
        narrow_ws_free(&ws);
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    double best = INFINITY, qa[3], qb[3];
    hs_code rc = HS_OK;
    for (int ia = 0; ia < a->npieces && best > 0 && rc == HS_OK; ia++)
        for (int ib = 0; ib < b->npieces && best > 0 && rc == HS_OK; ib++) {
            piece_hit hit;
            narrow_piece na = body_piece(a, ia), nb = body_piece(b, ib);
            rc = narrow_test(&ws, &na, &nb, NULL, NULL, &hit, err);
            if (rc == HS_OK && hit.status != HS_DISJOINT) { /* they meet: exactly 0 */
                best = 0;
                memcpy(pa, hit.witness, sizeof qa);
                memcpy(pb, hit.witness, sizeof qb);
            } else if (rc == HS_OK) {
                if (narrow_reserve_points(&ws, na.g, nb.g) != 0) { /* (else INFINITY below) */
                    rc = err_set(err, HS_ERR_NOMEM, "out of memory");
                    break;
                }
                double d = contact_distance(&ws, &na, &nb, qa, qb);
                if (d < best) {
                    best = d;
                    memcpy(pa, qa, sizeof qa);
                    memcpy(pb, qb, sizeof qb);
                }
            }
        }
    narrow_ws_free(&ws);
    if (rc == HS_OK && !(best < INFINITY)) /* every distance measured beyond the double range */
        return err_set(err, HS_ERR_INPUT, "distance between '%s' and '%s': it overflows the "
                                          "range of doubles", a->name, b->name);
    if (rc == HS_OK && dist)
        *dist = best;
    return rc;
}

/* seed_base.inl -- the ground of seed 002's two routines (xianliang.inl,
 * qiujiao.inl): systems of rows over a number type, the arenas they live
 * in, the arithmetic of elimination, the teaching trace and Step 1 (drop
 * constant rows), written once against the number macros below.
 * seed_d.c (NUM = double) and seed_q.c (NUM = mpq_t) each define the
 * macros and include seed_base.inl, xianliang.inl, qiujiao.inl and
 * seed_entry.inl in that order, once; everything except the two entry
 * points is static.
 *
 * Macros the includer defines.  Arguments are short lvalue expressions
 * (they may be evaluated more than once); r is a destination.
 *   NUM                          the number type
 *   NUM_INIT(x), NUM_CLEAR(x)    begin / end the life of a number
 *   NUM_SET(r, a), NUM_SET_SI(r, long), NUM_SET_D(r, double)
 *   NUM_FROM_POLY(r, P, i, j)    entry j of row i of P (j == n: b_i)
 *   NUM_ADD(r, a, b), NUM_SUB, NUM_MUL, NUM_DIV, NUM_NEG(r, a), NUM_ABS
 *   NUM_SGN(a), NUM_CMP(a, b)    -1, 0 or 1
 *   NUM_MAG(a)                   |a| as a double, for tolerances (0.0 if exact)
 *   NUM_NEGLIGIBLE(tol, v, mag)  nonzero when the computed v counts as zero
 *   NUM_TO_TEXT(buf, cap, a)     like snprintf: writes a when it fits and
 *                                returns the length of its text
 *   NUM_TOLERANCE(opt)           the tolerance in force (0 when exact)
 *   NUM_GET_D(a)                 the nearest double of a (steps hook)
 *   SEED_FEASIBLE, SEED_INTERSECT, SEED_INTERSECT_STEPS  names of the
 *                                entry points
 *
 * Memory: every number and every index array lives in two chunked arenas
 * with mark/release (chunks never move, so pointers stay valid).  Numbers
 * handed out once stay initialised and are reused after a release; they
 * are cleared once, when the query ends.  A recursion node therefore calls
 * malloc only when the arenas must grow. */
#ifndef SEED_FEASIBLE
#error "define the number macros before including seed_base.inl"
#endif

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/hpoly.h"
#include "polytope/mem.h"
#include "solver/seed.h"

/* Reduced systems longer than this are not printed in the trace. */
enum { TRACE_MAX_ROWS = 20 };

/* ------------------------------------------------------------- arenas */

typedef struct chunk {
    void *mem;
    size_t cap, used, inited; /* in elements */
} chunk;

/* A stack of chunks; chunks after `cur` are always empty. */
typedef struct arena {
    chunk *ch;
    int count, room, cur;
    size_t elem;     /* bytes per element */
    int holds_nums;  /* elements are NUMs that need NUM_INIT / NUM_CLEAR */
    size_t next_cap; /* elements in the next new chunk */
} arena;

typedef struct arena_mark {
    int cur;
    size_t used;
} arena_mark;

static void arena_setup(arena *a, size_t elem, int holds_nums, size_t first_cap)
{
    memset(a, 0, sizeof *a);
    a->elem = elem;
    a->holds_nums = holds_nums;
    a->next_cap = first_cap;
}

/* Insert a new empty chunk of at least `need` elements at position at. */
static int arena_insert_chunk(arena *a, int at, size_t need)
{
    if (a->count == a->room) {
        int room = a->room ? 2 * a->room : 8;
        chunk *ch = realloc(a->ch, (size_t)room * sizeof *ch);
        if (!ch)
            return -1;
        a->ch = ch;
        a->room = room;
    }
    size_t cap = a->next_cap > need ? a->next_cap : need;
    if (cap > SIZE_MAX / a->elem)
        return -1;
    void *mem = malloc(cap * a->elem);
    if (!mem)
        return -1;
    memmove(&a->ch[at + 1], &a->ch[at], (size_t)(a->count - at) * sizeof *a->ch);
    a->ch[at] = (chunk){mem, cap, 0, 0};
    a->count++;
    if (cap <= SIZE_MAX / 4 / a->elem)
        a->next_cap = 2 * cap;
    return 0;
}

/* Make sure chunk k's numbers below `end` are initialised. */
static void arena_init_nums(const arena *a, chunk *k, size_t end)
{
    if (!a->holds_nums)
        return;
    for (; k->inited < end; k->inited++)
        NUM_INIT(((NUM *)k->mem)[k->inited]);
}

static void *arena_take(arena *a, size_t count)
{
    if (count == 0)
        count = 1;
    if (a->count == 0 || a->ch[a->cur].cap - a->ch[a->cur].used < count) {
        int next = a->count == 0 ? 0 : a->cur + 1;
        if ((next >= a->count || a->ch[next].cap < count) &&
            arena_insert_chunk(a, next, count) != 0)
            return NULL;
        a->cur = next;
    }
    chunk *k = &a->ch[a->cur];
    void *p = (char *)k->mem + k->used * a->elem;
    arena_init_nums(a, k, k->used + count);
    k->used += count;
    return p;
}

static arena_mark arena_get_mark(const arena *a)
{
    arena_mark m = {a->cur, a->count ? a->ch[a->cur].used : 0};
    return m;
}

static void arena_release(arena *a, arena_mark m)
{
    if (a->count == 0)
        return;
    for (int i = m.cur + 1; i <= a->cur; i++)
        a->ch[i].used = 0;
    a->cur = m.cur;
    a->ch[m.cur].used = m.used;
}

static void arena_destroy(arena *a)
{
    for (int i = 0; i < a->count; i++) {
        if (a->holds_nums)
            for (size_t j = 0; j < a->ch[i].inited; j++)
                NUM_CLEAR(((NUM *)a->ch[i].mem)[j]);
        free(a->ch[i].mem);
    }
    free(a->ch);
    memset(a, 0, sizeof *a);
}

/* ------------------------------------------------------------ systems */

/* Where a row came from, for the trace: polyhedron (0 = A, 1 = B), input
 * row (0-based) and, for an equality row split in two, which half. */
enum { HALF_NONE = 0, HALF_LE, HALF_GE };
typedef struct origin {
    int which, row, half;
} origin;

/* One row over k variables: c[0..k-1] coefficients, c[k] right side. */
typedef struct prow {
    NUM *c;
    origin o;
} prow;

/* A system of m rows over k variables; var[j] is the input index of the
 * j-th variable (for names in the trace). */
typedef struct sys {
    int m, k, which;
    prow *r;
    const int *var;
} sys;

/* State of one query. */
typedef struct ctx {
    double tol;
    hs_trace_fn trace;
    void *trace_user;
    const double *replay_s, *replay_t;
    int n; /* input dimension, for variable names */
    long nodes;
    int nomem;
    arena nums, cells;
    NUM w[3];      /* scratch of the non-recursive helpers */
    NUM pw, one;   /* scratch of the trace printer */
    char *line;    /* trace line being built */
    size_t len, cap;
    int indent;
    seed_step_fn step_fn; /* the steps hook (seed.h), NULL for none */
    void *step_user;
} ctx;

typedef struct ctx_mark {
    arena_mark nums, cells;
} ctx_mark;

static ctx_mark ctx_get_mark(const ctx *c)
{
    ctx_mark m = {arena_get_mark(&c->nums), arena_get_mark(&c->cells)};
    return m;
}

static void ctx_release(ctx *c, ctx_mark m)
{
    arena_release(&c->nums, m.nums);
    arena_release(&c->cells, m.cells);
}

static NUM *take_nums(ctx *c, size_t count)
{
    NUM *p = arena_take(&c->nums, count);
    if (!p)
        c->nomem = 1;
    return p;
}

static void *take_bytes(ctx *c, size_t size)
{
    size_t cell = sizeof(max_align_t);
    void *p = arena_take(&c->cells, (size + cell - 1) / cell);
    if (!p)
        c->nomem = 1;
    return p;
}

/* --------------------------------------------------------- arithmetic */

static int row_is_constant(NUM *row, int k)
{
    for (int j = 0; j < k; j++)
        if (NUM_SGN(row[j]) != 0)
            return 0;
    return 1;
}

/* Nonzero when x satisfies row.x <= b (within the tolerance). */
static int row_holds_at(ctx *c, NUM *row, int k, NUM *x)
{
    double mag = NUM_MAG(row[k]);
    NUM_NEG(c->w[0], row[k]);
    for (int j = 0; j < k; j++) {
        if (NUM_SGN(row[j]) == 0)
            continue;
        NUM_MUL(c->w[1], row[j], x[j]);
        NUM_ADD(c->w[0], c->w[0], c->w[1]);
        mag += NUM_MAG(row[j]) * NUM_MAG(x[j]);
    }
    return NUM_SGN(c->w[0]) <= 0 || NUM_NEGLIGIBLE(c->tol, c->w[0], mag);
}

/* Index of the first row of S that x violates, or -1 when x is in S. */
static int first_violated_row(ctx *c, const sys *S, NUM *x)
{
    for (int i = 0; i < S->m; i++)
        if (!row_holds_at(c, S->r[i].c, S->k, x))
            return i;
    return -1;
}

/* *dest = (row[k] - sum_{j != d} row[j] x[j]) / row[d]: the value of
 * variable d that makes the row an equality at x.  dest may be &x[d]. */
static void solve_row_for(ctx *c, NUM *row, int k, int d, NUM *x, NUM *dest)
{
    NUM_SET(c->w[0], row[k]);
    for (int j = 0; j < k; j++) {
        if (j == d || NUM_SGN(row[j]) == 0)
            continue;
        NUM_MUL(c->w[1], row[j], x[j]);
        NUM_SUB(c->w[0], c->w[0], c->w[1]);
    }
    NUM_DIV(dest[0], c->w[0], row[d]);
}

/* dst (k entries: k-1 coefficients, then the right side) = row r with
 * variable d eliminated by the equality e: r - (r_d / e_d) e, column d
 * left out.  A computed entry that is negligible against the terms it
 * came from becomes exactly 0 (see seed.h). */
static void eliminate_variable(ctx *c, NUM *r, NUM *e, int k, int d, NUM *dst)
{
    int scaled = NUM_SGN(r[d]) != 0;
    if (scaled)
        NUM_DIV(c->w[2], r[d], e[d]);
    double fmag = scaled ? NUM_MAG(c->w[2]) : 0.0;
    int out = 0;
    for (int j = 0; j <= k; j++) {
        if (j == d)
            continue;
        if (!scaled || NUM_SGN(e[j]) == 0) {
            NUM_SET(dst[out], r[j]);
        } else {
            NUM_MUL(c->w[1], c->w[2], e[j]);
            NUM_SUB(dst[out], r[j], c->w[1]);
            if (NUM_NEGLIGIBLE(c->tol, dst[out], NUM_MAG(r[j]) + fmag * NUM_MAG(e[j])))
                NUM_SET_SI(dst[out], 0);
        }
        out++;
    }
}

/* Variable to eliminate with a face's equality: largest |coefficient|,
 * the last such one on ties (this reproduces the seed's systems (7) and
 * (8), which eliminate z from -x + y + z = 4). */
static int pick_variable(ctx *c, NUM *row, int k)
{
    int best = -1;
    for (int j = 0; j < k; j++) {
        if (NUM_SGN(row[j]) == 0)
            continue;
        if (best >= 0) {
            NUM_ABS(c->w[0], row[j]);
            NUM_ABS(c->w[1], row[best]);
        }
        if (best < 0 || NUM_CMP(c->w[0], c->w[1]) >= 0)
            best = j;
    }
    return best;
}

/* -------------------------------------------------------------- trace */

static const char *const short_names[] = {"x", "y", "z"};

static int tr_reserve(ctx *c, size_t extra)
{
    if (c->len + extra + 1 <= c->cap)
        return 0;
    size_t cap = c->cap ? c->cap : 256;
    while (cap < c->len + extra + 1)
        cap *= 2;
    char *s = realloc(c->line, cap);
    if (!s) {
        c->nomem = 1;
        return -1;
    }
    c->line = s;
    c->cap = cap;
    return 0;
}

static void tr_text(ctx *c, const char *fmt, ...) ERR_PRINTF(2, 3);
static void tr_text(ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0 || tr_reserve(c, (size_t)need) != 0)
        return;
    va_start(ap, fmt);
    vsnprintf(c->line + c->len, c->cap - c->len, fmt, ap);
    va_end(ap);
    c->len += (size_t)need;
}

/* Start a line, indented two spaces per nesting level. */
static void tr_begin(ctx *c)
{
    c->len = 0;
    tr_text(c, "%*s", 2 * c->indent, "");
}

static void tr_end(ctx *c)
{
    if (tr_reserve(c, 0) == 0)
        c->trace(c->trace_user, c->line);
}

static void tr_num(ctx *c, const NUM v)
{
    if (tr_reserve(c, 64) != 0)
        return;
    size_t got = NUM_TO_TEXT(c->line + c->len, c->cap - c->len, v);
    if (got >= c->cap - c->len) {
        if (tr_reserve(c, got + 1) != 0)
            return;
        got = NUM_TO_TEXT(c->line + c->len, c->cap - c->len, v);
    }
    c->len += got;
}

static void tr_var(ctx *c, int v)
{
    if (c->n <= 3)
        tr_text(c, "%s", short_names[v]);
    else
        tr_text(c, "x%d", v + 1);
}

static void tr_vars(ctx *c, const int *var, int k)
{
    tr_text(c, "(");
    for (int j = 0; j < k; j++) {
        tr_text(c, "%s", j ? ", " : "");
        tr_var(c, var[j]);
    }
    tr_text(c, ")");
}

static void tr_point(ctx *c, NUM *x, int k)
{
    tr_text(c, "(");
    for (int j = 0; j < k; j++) {
        tr_text(c, "%s", j ? ", " : "");
        tr_num(c, x[j]);
    }
    tr_text(c, ")");
}

static void tr_origin(ctx *c, origin o)
{
    static const char *const halves[] = {"", " (<= half)", " (>= half)"};
    tr_text(c, "%c row %d%s", o.which ? 'B' : 'A', o.row + 1, halves[o.half]);
}

/* One term of a row: "x", "-y", " + 2*z", " - 1/2*x". */
static void tr_term(ctx *c, const NUM a, int v, int first)
{
    int neg = NUM_SGN(a) < 0;
    if (first)
        tr_text(c, "%s", neg ? "-" : "");
    else
        tr_text(c, " %c ", neg ? '-' : '+');
    NUM_ABS(c->pw, a);
    if (NUM_CMP(c->pw, c->one) != 0) {
        tr_num(c, c->pw);
        tr_text(c, "*");
    }
    tr_var(c, v);
}

/* "-x + y + z <= 4" (rel "<=") or "... = 4" (rel "="). */
static void tr_row(ctx *c, NUM *row, int k, const int *var, const char *rel)
{
    int first = 1;
    for (int j = 0; j < k; j++) {
        if (NUM_SGN(row[j]) == 0)
            continue;
        tr_term(c, row[j], var[j], first);
        first = 0;
    }
    tr_text(c, "%s %s ", first ? "0" : "", rel);
    tr_num(c, row[k]);
}

static void tr_system(ctx *c, const char *title, const sys *S)
{
    tr_begin(c);
    if (S->m > TRACE_MAX_ROWS) {
        tr_text(c, "%s: %d rows (not shown)", title, S->m);
    } else {
        tr_text(c, "%s = {", title);
        for (int i = 0; i < S->m; i++) {
            tr_text(c, "%s", i ? ", " : "");
            tr_row(c, S->r[i].c, S->k, S->var, "<=");
        }
        tr_text(c, "}");
    }
    tr_end(c);
}

/* A line naming a row: "<before>A row 3: -z <= -2<after>". */
static void tr_named_row(ctx *c, const char *before, const sys *S, int i, const char *rel,
                         const char *after)
{
    tr_begin(c);
    tr_text(c, "%s", before);
    tr_origin(c, S->r[i].o);
    tr_text(c, ": ");
    tr_row(c, S->r[i].c, S->k, S->var, rel);
    tr_text(c, "%s", after);
    tr_end(c);
}

/* "A row 4 becomes an equality: -x + y + z = 4; eliminate z". */
static void trace_face(ctx *c, const sys *X, int i, int d)
{
    if (!c->trace)
        return;
    tr_begin(c);
    tr_origin(c, X->r[i].o);
    tr_text(c, " becomes an equality: ");
    tr_row(c, X->r[i].c, X->k, X->var, "=");
    tr_text(c, "; eliminate ");
    tr_var(c, X->var[d]);
    tr_end(c);
}

/* ------------------------------------------------ Step 1 (both routines) */

static void trace_dropped(ctx *c, const sys *S, const char *step, const int *dropped, int nd)
{
    if (!c->trace || nd == 0)
        return;
    tr_begin(c);
    tr_text(c, "%s: constant rows dropped:", step);
    for (int i = 0; i < nd && i < TRACE_MAX_ROWS; i++) {
        tr_text(c, "%s ", i ? "," : "");
        tr_origin(c, S->r[dropped[i]].o);
    }
    if (nd > TRACE_MAX_ROWS)
        tr_text(c, " and %d more", nd - TRACE_MAX_ROWS);
    tr_end(c);
}

/* Seed 002, section 2, xianliang Step 1 and qiujiao Steps 1-2: a row whose
 * coefficients are all zero reads 0 <= b.  With b < 0 it is a
 * contradiction (return 0); otherwise it says nothing and is dropped.
 * *T is S without its constant rows.  Returns 1, 0, or -1 (memory). */
static int drop_constant_rows(ctx *c, const sys *S, sys *T, const char *step)
{
    *T = *S;
    int nd = 0;
    for (int i = 0; i < S->m; i++) {
        if (!row_is_constant(S->r[i].c, S->k))
            continue;
        if (NUM_SGN(S->r[i].c[S->k]) < 0) {
            if (c->trace) { /* "Step 1: B row 3: 0 <= -1 is a contradiction" */
                char before[32];
                snprintf(before, sizeof before, "%s: ", step);
                tr_named_row(c, before, S, i, "<=", " is a contradiction");
            }
            return 0;
        }
        nd++;
    }
    if (nd == 0)
        return 1;
    int *dropped = take_bytes(c, (size_t)nd * sizeof *dropped);
    T->r = take_bytes(c, (size_t)(S->m - nd) * sizeof *T->r);
    if (!dropped || !T->r)
        return -1;
    T->m = 0;
    nd = 0;
    for (int i = 0; i < S->m; i++) {
        if (row_is_constant(S->r[i].c, S->k))
            dropped[nd++] = i;
        else
            T->r[T->m++] = S->r[i];
    }
    trace_dropped(c, S, step, dropped, nd);
    return 1;
}

/* --------------------------------------------------------- steps hook */

/* A step being built for the hook (seed.h): the step and the blocks of
 * doubles and ints it points to, freed once the hook has seen it. */
enum { STEP_MAX_BLOCKS = 16 };
typedef struct step_build {
    seed_step st;
    void *mem[STEP_MAX_BLOCKS];
    int nmem;
} step_build;

static void *step_block(ctx *c, step_build *b, size_t n, size_t size)
{
    void *p = b->nmem < STEP_MAX_BLOCKS ? mem_alloc(n, size) : NULL;
    if (!p) {
        c->nomem = 1;
        return NULL;
    }
    b->mem[b->nmem++] = p;
    return p;
}

/* The doubles of S into *v (an empty view when memory ran out). */
static void step_view(ctx *c, step_build *b, const sys *S, seed_sys_view *v)
{
    size_t w = (size_t)S->k + 1, m = (size_t)S->m;
    double *num = step_block(c, b, m * w, sizeof *num);
    int *o = step_block(c, b, 3 * m, sizeof *o);
    memset(v, 0, sizeof *v);
    if (!num || !o)
        return;
    for (size_t i = 0; i < m; i++) {
        for (size_t j = 0; j < w; j++)
            num[i * w + j] = NUM_GET_D(S->r[i].c[j]);
        o[i] = S->r[i].o.which;
        o[m + i] = S->r[i].o.row;
        o[2 * m + i] = S->r[i].o.half;
    }
    *v = (seed_sys_view){S->m, S->k, num, o, o + m, o + 2 * m};
}

/* The doubles of a point of k coordinates (NULL when memory ran out). */
static const double *step_point(ctx *c, step_build *b, NUM *x, int k)
{
    double *p = step_block(c, b, (size_t)k, sizeof *p);
    if (p)
        for (int j = 0; j < k; j++)
            p[j] = NUM_GET_D(x[j]);
    return p;
}

/* Start a step of this level (A, B may be NULL: left empty). */
static void step_begin(ctx *c, step_build *b, seed_step_kind kind, int depth, const sys *A,
                       const sys *B)
{
    memset(b, 0, sizeof *b);
    b->st.kind = kind;
    b->st.depth = depth;
    b->st.k = A ? A->k : 0;
    b->st.var = A ? A->var : NULL;
    b->st.s_out = b->st.t_out = b->st.face = b->st.elim = -1;
    if (A)
        step_view(c, b, A, &b->st.A);
    if (B)
        step_view(c, b, B, &b->st.B);
}

/* Hand the step to the hook (unless memory ran out) and free it. */
static void step_send(ctx *c, step_build *b)
{
    if (!c->nomem)
        c->step_fn(c->step_user, &b->st);
    for (int i = 0; i < b->nmem; i++)
        free(b->mem[i]);
    b->nmem = 0;
}

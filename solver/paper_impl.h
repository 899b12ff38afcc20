/* paper_impl.h -- seed 002, section 2: the routines xianliang (vector
 * location, Steps 1-6) and qiujiao (intersection, Steps 1-8), written once
 * against the number macros below.  paper_double.c (NUM = double) and
 * paper_exact.c (NUM = mpq_t) each define the macros and include this file
 * once; everything here except the two entry points is static.
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
 *   PAPER_FEASIBLE, PAPER_INTERSECT  names of the entry points
 *
 * Memory: every number and every index array lives in two chunked arenas
 * with mark/release (chunks never move, so pointers stay valid).  Numbers
 * handed out once stay initialised and are reused after a release; they
 * are cleared once, when the query ends.  A recursion node therefore calls
 * malloc only when the arenas must grow. */
#ifndef PAPER_FEASIBLE
#error "define the number macros before including paper_impl.h"
#endif

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "solver/seed.h"
#include "polytope/error.h"

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
 * came from becomes exactly 0 (see paper.h). */
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
            if (c->trace)
                tr_named_row(c, step, S, i, "<=", " is a contradiction");
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

/* ------------------------------------------------------------ xianliang */

static int xianliang(ctx *c, const sys *S, NUM *out, int depth);

static int nested_xianliang(ctx *c, const sys *S, NUM *out, int depth)
{
    c->indent++;
    int rc = xianliang(c, S, out, depth);
    c->indent--;
    return rc;
}

/* Seed 002, section 2, xianliang Step 2: the rows by the sign of the first
 * variable's coefficient: A1 (> 0, upper bounds), A2 (= 0), A3 (< 0,
 * lower bounds).  first_sign is the sign of the earliest row of A1 u A3. */
typedef struct split {
    int n1, n2, n3, first_sign;
} split;

static split split_on_first_variable(const sys *S)
{
    split sp = {0, 0, 0, 0};
    for (int i = 0; i < S->m; i++) {
        int s = NUM_SGN(S->r[i].c[0]);
        if (s > 0)
            sp.n1++;
        else if (s < 0)
            sp.n3++;
        else
            sp.n2++;
        if (s != 0 && sp.first_sign == 0)
            sp.first_sign = s;
    }
    return sp;
}

/* The rows of S whose first coefficient has sign `sign`, with the first
 * variable dropped (the rows are shared: only their start moves). */
static int rows_without_first_variable(ctx *c, const sys *S, int sign, sys *R)
{
    R->r = take_bytes(c, (size_t)S->m * sizeof *R->r);
    if (!R->r)
        return -1;
    R->m = 0;
    R->k = S->k - 1;
    R->which = S->which;
    R->var = S->var + 1;
    for (int i = 0; i < S->m; i++)
        if (NUM_SGN(S->r[i].c[0]) == sign)
            R->r[R->m++] = (prow){S->r[i].c + 1, S->r[i].o};
    return 0;
}

/* Seed 002, section 2, xianliang Step 3: the first variable occurs in no
 * row; solve without it and give it the value 0. */
static int xianliang_step3(ctx *c, const sys *S, NUM *out, int depth)
{
    if (c->trace) {
        tr_begin(c);
        tr_text(c, "Step 3: ");
        tr_var(c, S->var[0]);
        tr_text(c, " occurs in no row: solve without it, then ");
        tr_var(c, S->var[0]);
        tr_text(c, " = 0");
        tr_end(c);
    }
    sys R;
    if (rows_without_first_variable(c, S, 0, &R) != 0)
        return -1;
    int rc = nested_xianliang(c, &R, out + 1, depth + 1);
    if (rc == 1)
        NUM_SET_SI(out[0], 0);
    return rc;
}

/* The first variable pushed to its tightest bound given out[1..k-1]:
 * sign > 0: min over the upper bounds (A1), sign < 0: max over the lower
 * bounds (A3) of (b - rest) / a_1. */
static void push_to_bound(ctx *c, const sys *S, int sign, NUM *out)
{
    int have = 0;
    for (int i = 0; i < S->m; i++) {
        NUM *row = S->r[i].c;
        if (NUM_SGN(row[0]) != sign)
            continue;
        solve_row_for(c, row, S->k, 0, out, &c->w[2]);
        if (!have || sign * NUM_CMP(c->w[2], out[0]) < 0)
            NUM_SET(out[0], c->w[2]);
        have = 1;
    }
}

static void trace_step4(ctx *c, const sys *S, int sign)
{
    if (!c->trace)
        return;
    tr_begin(c);
    tr_text(c, "Step 4: only %s bounds on ", sign > 0 ? "upper" : "lower");
    tr_var(c, S->var[0]);
    tr_text(c, " (%s empty): solve A2 without it, then ", sign > 0 ? "A3" : "A1");
    tr_var(c, S->var[0]);
    tr_text(c, " = %s over %s of its bound", sign > 0 ? "min" : "max", sign > 0 ? "A1" : "A3");
    tr_end(c);
}

/* Seed 002, section 2, xianliang Step 4: only one of A1, A3 is nonempty.
 * Solve A2 without the first variable (A2 empty: the zero vector), then
 * push the variable to its bound; the seed asks for "sufficiently
 * large/small", the tightest bound is such a value. */
static int xianliang_step4(ctx *c, const sys *S, int sign, int n2, NUM *out, int depth)
{
    trace_step4(c, S, sign);
    if (n2 == 0) {
        for (int j = 1; j < S->k; j++)
            NUM_SET_SI(out[j], 0);
    } else {
        sys R;
        if (rows_without_first_variable(c, S, 0, &R) != 0)
            return -1;
        int rc = nested_xianliang(c, &R, out + 1, depth + 1);
        if (rc != 1)
            return rc;
    }
    push_to_bound(c, S, sign, out);
    if (c->trace) {
        tr_begin(c);
        tr_var(c, S->var[0]);
        tr_text(c, " = ");
        tr_num(c, out[0]);
        tr_end(c);
    }
    return 1;
}

/* Row d of S as an equality eliminates the first variable from every
 * other row (A1, A2 and A3, in their order).  Rows of A2 do not change
 * and are shared; the others are new. */
static int substitute_first_variable(ctx *c, const sys *S, int d, int changed, sys *R)
{
    NUM *block = changed > 0 ? take_nums(c, (size_t)changed * (size_t)S->k) : NULL;
    R->r = take_bytes(c, (size_t)S->m * sizeof *R->r);
    if ((changed > 0 && !block) || !R->r)
        return -1;
    R->m = 0;
    R->k = S->k - 1;
    R->which = S->which;
    R->var = S->var + 1;
    NUM *e = S->r[d].c;
    for (int i = 0; i < S->m; i++) {
        if (i == d)
            continue;
        NUM *row = S->r[i].c;
        NUM *dst = row + 1;
        if (NUM_SGN(row[0]) != 0) {
            dst = block;
            block += S->k;
            eliminate_variable(c, row, e, S->k, 0, dst);
        }
        R->r[R->m++] = (prow){dst, S->r[i].o};
    }
    return 0;
}

static void trace_side_choice(ctx *c, split sp, int sign)
{
    if (!c->trace)
        return;
    tr_begin(c);
    if (sp.n1 == sp.n3)
        tr_text(c, "Step %d: |A1| = |A3| = %d, tie: %s holds the earliest row", sign > 0 ? 5 : 6,
                sp.n1, sign > 0 ? "A1" : "A3");
    else
        tr_text(c, "Step %d: |A1| = %d %s |A3| = %d", sign > 0 ? 5 : 6, sp.n1,
                sp.n1 < sp.n3 ? "<" : ">", sp.n3);
    tr_text(c, ": try the rows of %s as equalities", sign > 0 ? "A1" : "A3");
    tr_end(c);
}

/* Seed 002, section 2, xianliang Steps 5 and 6: both A1 and A3 are
 * nonempty.  Take the smaller side (on a tie, the side holding the
 * earliest-listed row); try its rows in order as an equality d: eliminate
 * the first variable with d, solve the rest, and compute the variable from
 * d.  If every row fails there is no point. */
static int xianliang_step56(ctx *c, const sys *S, split sp, NUM *out, int depth)
{
    int sign = sp.n1 < sp.n3 ? 1 : sp.n1 > sp.n3 ? -1 : sp.first_sign;
    trace_side_choice(c, sp, sign);
    for (int d = 0; d < S->m; d++) {
        if (NUM_SGN(S->r[d].c[0]) != sign)
            continue;
        trace_face(c, S, d, 0);
        ctx_mark mk = ctx_get_mark(c);
        sys R;
        int rc = substitute_first_variable(c, S, d, sp.n1 + sp.n3 - 1, &R);
        if (rc == 0)
            rc = nested_xianliang(c, &R, out + 1, depth + 1);
        ctx_release(c, mk);
        if (rc == 1)
            solve_row_for(c, S->r[d].c, S->k, 0, out, &out[0]);
        if (rc != 0)
            return rc;
    }
    return 0;
}

static void trace_xianliang_head(ctx *c, const sys *S, int depth)
{
    if (!c->trace)
        return;
    tr_begin(c);
    tr_text(c, "xianliang(%c) depth %d: %d variable%s ", S->which ? 'B' : 'A', depth, S->k,
            S->k == 1 ? "" : "s");
    tr_vars(c, S->var, S->k);
    tr_text(c, ", %d row%s", S->m, S->m == 1 ? "" : "s");
    tr_end(c);
}

static void trace_split(ctx *c, const sys *S, split sp)
{
    if (!c->trace)
        return;
    tr_begin(c);
    tr_text(c, "Step 2: split on ");
    tr_var(c, S->var[0]);
    tr_text(c, ": |A1| = %d, |A2| = %d, |A3| = %d", sp.n1, sp.n2, sp.n3);
    tr_end(c);
}

static void trace_xianliang_end(ctx *c, const sys *S, int rc, NUM *out)
{
    if (!c->trace || rc < 0)
        return;
    tr_begin(c);
    if (rc == 0) {
        tr_text(c, "no point");
    } else if (S->k == 0) {
        tr_text(c, "no variables left: the empty point");
    } else {
        tr_text(c, "point ");
        tr_vars(c, S->var, S->k);
        tr_text(c, " = ");
        tr_point(c, out, S->k);
    }
    tr_end(c);
}

/* Steps 2-6 on a system without constant rows and with k >= 1. */
static int xianliang_split_and_solve(ctx *c, const sys *S, NUM *out, int depth)
{
    split sp = split_on_first_variable(S);
    trace_split(c, S, sp);
    if (sp.n1 == 0 && sp.n3 == 0)
        return xianliang_step3(c, S, out, depth);
    if (sp.n1 == 0 || sp.n3 == 0)
        return xianliang_step4(c, S, sp.n1 ? 1 : -1, sp.n2, out, depth);
    return xianliang_step56(c, S, sp, out, depth);
}

/* Seed 002, section 2, xianliang(A): a point of S into out[0..k-1]
 * (return 1) or none (return 0); -1 when out of memory.  With no
 * variables left (k == 0) the answer is the empty point. */
static int xianliang(ctx *c, const sys *S, NUM *out, int depth)
{
    c->nodes++;
    trace_xianliang_head(c, S, depth);
    ctx_mark mk = ctx_get_mark(c);
    sys T;
    int rc = drop_constant_rows(c, S, &T, "Step 1");
    if (rc == 1 && T.k > 0)
        rc = xianliang_split_and_solve(c, &T, out, depth);
    ctx_release(c, mk);
    trace_xianliang_end(c, S, rc, out);
    return rc;
}

/* -------------------------------------------------------------- qiujiao */

static int qiujiao(ctx *c, const sys *A, const sys *B, NUM *out, int depth);

static void trace_point_line(ctx *c, const char *before, const sys *S, NUM *x,
                             const char *after)
{
    if (!c->trace)
        return;
    tr_begin(c);
    tr_text(c, "%s", before);
    tr_vars(c, S->var, S->k);
    tr_text(c, " = ");
    tr_point(c, x, S->k);
    tr_text(c, "%s", after);
    tr_end(c);
}

/* Teaching aid: the replayed s and t (exactly as given) in place of the
 * seed's Step 3; a point violating its own system is reported and used
 * anyway. */
static void replay_points(ctx *c, const sys *A, const sys *B, NUM *s, NUM *t)
{
    for (int j = 0; j < A->k; j++) {
        NUM_SET_D(s[j], c->replay_s[j]);
        NUM_SET_D(t[j], c->replay_t[j]);
    }
    int bad_s = first_violated_row(c, A, s), bad_t = first_violated_row(c, B, t);
    if (!c->trace)
        return;
    tr_begin(c);
    tr_text(c, "replay: s = ");
    tr_point(c, s, A->k);
    tr_text(c, ", t = ");
    tr_point(c, t, A->k);
    tr_end(c);
    if (bad_s >= 0)
        tr_named_row(c, "replay: s violates ", A, bad_s, "<=", " (used anyway)");
    if (bad_t >= 0)
        tr_named_row(c, "replay: t violates ", B, bad_t, "<=", " (used anyway)");
}

/* Seed 002, section 2, qiujiao Steps 3-4: s = xianliang(A), t =
 * xianliang(B); when either has no point, return 0 (FALSE). */
static int qiujiao_points(ctx *c, const sys *A, const sys *B, NUM *s, NUM *t, int depth)
{
    if (depth == 0 && c->replay_s && c->replay_t) {
        replay_points(c, A, B, s, t);
        return 1;
    }
    c->indent++;
    int rs = xianliang(c, A, s, 0);
    int rt = rs == 1 ? xianliang(c, B, t, 0) : rs;
    c->indent--;
    if (rs == 0 || rt == 0) {
        if (c->trace) {
            tr_begin(c);
            tr_text(c, "Step 4: %c has no point -> FALSE", rs == 0 ? 'A' : 'B');
            tr_end(c);
        }
        return 0;
    }
    if (rt < 0 || !c->trace)
        return rt;
    tr_begin(c);
    tr_text(c, "Step 3: s = ");
    tr_point(c, s, A->k);
    tr_text(c, ", t = ");
    tr_point(c, t, A->k);
    tr_end(c);
    return 1;
}

static void copy_point(NUM *dst, NUM *src, int k)
{
    for (int j = 0; j < k; j++)
        NUM_SET(dst[j], src[j]);
}

/* Seed 002, section 2, qiujiao Step 5: s in B or t in A answers TRUE
 * with that point (returns 1); otherwise 0. */
static int qiujiao_step5(ctx *c, const sys *A, const sys *B, NUM *s, NUM *t, NUM *out)
{
    int in_b = first_violated_row(c, B, s);
    if (in_b < 0) {
        copy_point(out, s, A->k);
        trace_point_line(c, "Step 5: s is in B -> TRUE, point ", A, out, "");
        return 1;
    }
    int in_a = first_violated_row(c, A, t);
    if (in_a < 0) {
        copy_point(out, t, A->k);
        trace_point_line(c, "Step 5: t is in A -> TRUE, point ", A, out, "");
        return 1;
    }
    if (c->trace) {
        tr_begin(c);
        tr_text(c, "Step 5: s is not in B (");
        tr_origin(c, B->r[in_b].o);
        tr_text(c, "), t is not in A (");
        tr_origin(c, A->r[in_a].o);
        tr_text(c, ")");
        tr_end(c);
    }
    return 0;
}

/* Rows of X that are candidate faces: a.(t - s) > 0 for A (sign 1),
 * r.(t - s) < 0 for B (sign -1), in row order, into cand; returns their
 * number.  dir = t - s; scale[j] = |t_j| + |s_j| for the tolerance. */
static int candidate_faces(ctx *c, const sys *X, int sign, NUM *dir, const double *scale,
                           int *cand)
{
    int nc = 0;
    for (int i = 0; i < X->m; i++) {
        NUM *row = X->r[i].c;
        double mag = 0.0;
        NUM_SET_SI(c->w[0], 0);
        for (int j = 0; j < X->k; j++) {
            if (NUM_SGN(row[j]) == 0)
                continue;
            NUM_MUL(c->w[1], row[j], dir[j]);
            NUM_ADD(c->w[0], c->w[0], c->w[1]);
            mag += NUM_MAG(row[j]) * scale[j];
        }
        if (NUM_SGN(c->w[0]) == sign && !NUM_NEGLIGIBLE(c->tol, c->w[0], mag))
            cand[nc++] = i;
    }
    return nc;
}

static void trace_candidates(ctx *c, const sys *A, const sys *B, int use_a, const int *cand,
                             int nc)
{
    if (!c->trace)
        return;
    const sys *X = use_a ? A : B;
    tr_begin(c);
    if (use_a)
        tr_text(c, "Step 6: |A| = %d <= |B| = %d: faces of A with a.(t-s) > 0:", A->m, B->m);
    else
        tr_text(c, "Step 7: |B| = %d < |A| = %d: faces of B with r.(t-s) < 0:", B->m, A->m);
    for (int i = 0; i < nc; i++) {
        tr_text(c, "%s ", i ? "," : "");
        tr_origin(c, X->r[cand[i]].o);
    }
    tr_text(c, "%s", nc ? "" : " none");
    tr_end(c);
}

/* S restricted to the hyperplane e.x = e_b: variable d eliminated from
 * every row except row `skip` (the equality itself, or -1), in row order.
 * Rows that become constant are checked (a contradiction returns 0) and
 * dropped.  Returns 1, 0 or -1 (memory). */
static int restrict_system(ctx *c, const sys *S, int skip, NUM *e, int d, const int *var,
                           sys *R)
{
    int k = S->k;
    NUM *block = take_nums(c, (size_t)(S->m ? S->m : 1) * (size_t)k);
    R->r = take_bytes(c, (size_t)S->m * sizeof *R->r);
    int *dropped = take_bytes(c, (size_t)S->m * sizeof *dropped);
    if (!block || !R->r || !dropped)
        return -1;
    R->m = 0;
    R->k = k - 1;
    R->which = S->which;
    R->var = var;
    int nd = 0;
    for (int i = 0; i < S->m; i++) {
        if (i == skip)
            continue;
        NUM *dst = block + (size_t)R->m * (size_t)k;
        eliminate_variable(c, S->r[i].c, e, k, d, dst);
        R->r[R->m] = (prow){dst, S->r[i].o};
        if (!row_is_constant(dst, k - 1)) {
            R->m++;
        } else if (NUM_SGN(dst[k - 1]) < 0) {
            if (c->trace)
                tr_named_row(c, "", R, R->m, "<=", " is a contradiction -> FALSE for this face");
            return 0;
        } else {
            dropped[nd++] = i;
        }
    }
    trace_dropped(c, S, "restriction", dropped, nd);
    return 1;
}

/* var without entry d. */
static int *variables_without(ctx *c, const int *var, int k, int d)
{
    int *v = take_bytes(c, (size_t)(k > 1 ? k - 1 : 1) * sizeof *v);
    if (!v)
        return NULL;
    for (int j = 0, o = 0; j < k; j++)
        if (j != d)
            v[o++] = var[j];
    return v;
}

/* The point y of the restricted problem (k - 1 coordinates) lifted back:
 * variable d from the equality e. */
static void lift_point(ctx *c, NUM *e, int k, int d, NUM *y, NUM *out)
{
    for (int j = 0; j < k; j++)
        if (j != d)
            NUM_SET(out[j], y[j < d ? j : j - 1]);
    solve_row_for(c, e, k, d, out, &out[d]);
}

static int restrict_both(ctx *c, const sys *A, const sys *B, int use_a, int face, int d,
                         sys *RA, sys *RB)
{
    const sys *X = use_a ? A : B;
    NUM *e = X->r[face].c;
    int *var = variables_without(c, A->var, A->k, d);
    if (!var)
        return -1;
    int rc = restrict_system(c, A, use_a ? face : -1, e, d, var, RA);
    if (rc == 1)
        rc = restrict_system(c, B, use_a ? -1 : face, e, d, var, RB);
    if (rc == 1 && c->trace) {
        tr_system(c, "reduced A", RA);
        tr_system(c, "reduced B", RB);
    }
    return rc;
}

/* One candidate face of seed 002, section 2, qiujiao Step 6 (or 7): make
 * it an equality, restrict both systems to its hyperplane, recurse, and
 * lift the point found back to k coordinates. */
static int qiujiao_try_face(ctx *c, const sys *A, const sys *B, int use_a, int face, NUM *out,
                            int depth)
{
    const sys *X = use_a ? A : B;
    int d = pick_variable(c, X->r[face].c, X->k);
    trace_face(c, X, face, d);
    ctx_mark mk = ctx_get_mark(c);
    sys RA, RB;
    int rc = restrict_both(c, A, B, use_a, face, d, &RA, &RB);
    NUM *y = rc == 1 ? take_nums(c, (size_t)(A->k > 1 ? A->k - 1 : 1)) : NULL;
    if (rc == 1 && !y)
        rc = -1;
    if (rc == 1) {
        c->indent++;
        rc = qiujiao(c, &RA, &RB, y, depth + 1);
        c->indent--;
    }
    if (rc == 1) {
        lift_point(c, X->r[face].c, X->k, d, y, out);
        trace_point_line(c, "lifted point ", A, out, "");
    }
    ctx_release(c, mk);
    return rc;
}

/* Seed 002, section 2, qiujiao Steps 6-8.  The seed tries A's faces when
 * |A| < |B| (Step 6) and B's when |B| < |A| (Step 7); on |A| == |B| both
 * strict tests fail, so A is used (Theorem 2 promises a face on either
 * side).  Candidates are tried in row order; none succeeding is Step 8. */
static int qiujiao_faces(ctx *c, const sys *A, const sys *B, NUM *s, NUM *t, NUM *out,
                         int depth)
{
    int k = A->k, use_a = A->m <= B->m;
    const sys *X = use_a ? A : B;
    NUM *dir = take_nums(c, (size_t)k);
    double *scale = take_bytes(c, (size_t)k * sizeof *scale);
    int *cand = take_bytes(c, (size_t)(X->m ? X->m : 1) * sizeof *cand);
    if (!dir || !scale || !cand)
        return -1;
    for (int j = 0; j < k; j++) {
        NUM_SUB(dir[j], t[j], s[j]);
        scale[j] = NUM_MAG(t[j]) + NUM_MAG(s[j]);
    }
    if (c->trace) {
        tr_begin(c);
        tr_text(c, "t - s = ");
        tr_point(c, dir, k);
        tr_end(c);
    }
    int nc = candidate_faces(c, X, use_a ? 1 : -1, dir, scale, cand);
    trace_candidates(c, A, B, use_a, cand, nc);
    for (int i = 0; i < nc; i++) {
        int rc = qiujiao_try_face(c, A, B, use_a, cand[i], out, depth);
        if (rc != 0)
            return rc;
    }
    if (c->trace) {
        tr_begin(c);
        tr_text(c, "Step 8: no face gave a common point -> FALSE");
        tr_end(c);
    }
    return 0;
}

/* qiujiao after Steps 1-2 removed the constant rows. */
static int qiujiao_after_constants(ctx *c, const sys *A, const sys *B, NUM *out, int depth)
{
    int k = A->k;
    if (A->m == 0 && B->m == 0) { /* Step 1: only constant rows, no contradiction */
        for (int j = 0; j < k; j++)
            NUM_SET_SI(out[j], 0);
        trace_point_line(c, "Step 1: only constant rows -> TRUE, point ", A, out, "");
        return 1;
    }
    NUM *s = take_nums(c, (size_t)(k ? k : 1)), *t = take_nums(c, (size_t)(k ? k : 1));
    if (!s || !t)
        return -1;
    int rc = qiujiao_points(c, A, B, s, t, depth);
    if (rc == 1)
        rc = qiujiao_step5(c, A, B, s, t, out) ? 1 : qiujiao_faces(c, A, B, s, t, out, depth);
    return rc;
}

static void trace_qiujiao_head(ctx *c, const sys *A, const sys *B, int depth)
{
    if (!c->trace)
        return;
    tr_begin(c);
    tr_text(c, "qiujiao depth %d: %d variable%s ", depth, A->k, A->k == 1 ? "" : "s");
    tr_vars(c, A->var, A->k);
    tr_text(c, ", |A| = %d, |B| = %d", A->m, B->m);
    tr_end(c);
}

/* Seed 002, section 2, qiujiao(A, B): 1 (TRUE) with a common point in out,
 * 0 (FALSE), or -1 when out of memory. */
static int qiujiao(ctx *c, const sys *A, const sys *B, NUM *out, int depth)
{
    c->nodes++;
    trace_qiujiao_head(c, A, B, depth);
    ctx_mark mk = ctx_get_mark(c);
    sys A1, B1;
    int rc = drop_constant_rows(c, A, &A1, "Steps 1-2");
    if (rc == 1)
        rc = drop_constant_rows(c, B, &B1, "Steps 1-2");
    if (rc == 1)
        rc = qiujiao_after_constants(c, &A1, &B1, out, depth);
    ctx_release(c, mk);
    if (rc == 0 && c->trace) {
        tr_begin(c);
        tr_text(c, "FALSE");
        tr_end(c);
    }
    return rc;
}

/* -------------------------------------------------------- entry points */

static int count_split_rows(const hs_poly *P)
{
    int m = P->m;
    for (int i = 0; i < P->m; i++)
        m += P->eq[i] != 0;
    return m;
}

/* P as a system; an equality row enters as its "<=" half followed by its
 * ">=" half (the seed's routines take inequalities only). */
static int load_system(ctx *c, const hs_poly *P, int which, const int *var, sys *S)
{
    int n = P->n, m = count_split_rows(P);
    size_t w = (size_t)n + 1;
    NUM *block = take_nums(c, (size_t)m * w);
    S->r = take_bytes(c, (size_t)m * sizeof *S->r);
    if (!block || !S->r)
        return -1;
    S->m = 0;
    S->k = n;
    S->which = which;
    S->var = var;
    for (int i = 0; i < P->m; i++) {
        NUM *row = block + (size_t)S->m * w;
        for (int j = 0; j <= n; j++)
            NUM_FROM_POLY(row[j], P, i, j);
        S->r[S->m++] = (prow){row, {which, i, P->eq[i] ? HALF_LE : HALF_NONE}};
        if (!P->eq[i])
            continue;
        NUM *neg = block + (size_t)S->m * w;
        for (int j = 0; j <= n; j++)
            NUM_NEG(neg[j], row[j]);
        S->r[S->m++] = (prow){neg, {which, i, HALF_GE}};
    }
    return 0;
}

static int replay_is_finite(const double *v, int n)
{
    for (int j = 0; j < n; j++)
        if (!isfinite(v[j]))
            return 0;
    return 1;
}

static hs_code check_options(const hs_options *opt, int n, hs_error *err)
{
    double tol = NUM_TOLERANCE(opt);
    if (!(tol >= 0) || !isfinite(tol))
        return err_set(err, HS_ERR_ARG, "faithful_tol must be a finite number >= 0 (got %g)",
                       tol);
    if (opt->replay_s && opt->replay_t &&
        (!replay_is_finite(opt->replay_s, n) || !replay_is_finite(opt->replay_t, n)))
        return err_set(err, HS_ERR_ARG, "replayed points must be finite");
    return HS_OK;
}

/* Start a query over n variables whose input has `rows` rows. */
static void ctx_open(ctx *c, const hs_options *opt, int n, int rows)
{
    memset(c, 0, sizeof *c);
    c->tol = NUM_TOLERANCE(opt);
    c->trace = opt->trace;
    c->trace_user = opt->trace_user;
    c->replay_s = opt->replay_s;
    c->replay_t = opt->replay_t;
    c->n = n;
    size_t guess = 4 * (size_t)rows * ((size_t)n + 1) + 256;
    arena_setup(&c->nums, sizeof(NUM), 1, guess);
    arena_setup(&c->cells, sizeof(max_align_t), 0, guess);
    for (int j = 0; j < 3; j++)
        NUM_INIT(c->w[j]);
    NUM_INIT(c->pw);
    NUM_INIT(c->one);
    NUM_SET_SI(c->one, 1);
}

/* End a query: free everything; map an out-of-memory to rc -1. */
static int ctx_close(ctx *c, int rc, long *nodes, hs_error *err)
{
    if (c->nomem) {
        rc = -1;
        err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    if (nodes)
        *nodes = c->nodes;
    arena_destroy(&c->nums);
    arena_destroy(&c->cells);
    for (int j = 0; j < 3; j++)
        NUM_CLEAR(c->w[j]);
    NUM_CLEAR(c->pw);
    NUM_CLEAR(c->one);
    free(c->line);
    return rc;
}

/* The identity variable map 0..n-1. */
static int *identity_variables(ctx *c, int n)
{
    int *var = take_bytes(c, (size_t)n * sizeof *var);
    if (var)
        for (int j = 0; j < n; j++)
            var[j] = j;
    return var;
}

int PAPER_FEASIBLE(const hs_poly *P, const hs_options *opt, NUM *x, long *nodes, hs_error *err)
{
    hs_options defaults;
    if (!opt) {
        hs_options_init(&defaults);
        opt = &defaults;
    }
    if (nodes)
        *nodes = 0;
    if (!P || !x) {
        err_set(err, HS_ERR_ARG, "paper_feasible: NULL argument");
        return -1;
    }
    if (check_options(opt, P->n, err) != HS_OK)
        return -1;
    ctx c;
    ctx_open(&c, opt, P->n, count_split_rows(P));
    sys S;
    int *var = identity_variables(&c, P->n);
    int rc = var && load_system(&c, P, 0, var, &S) == 0 ? xianliang(&c, &S, x, 0) : -1;
    return ctx_close(&c, rc, nodes, err);
}

int PAPER_INTERSECT(const hs_poly *A, const hs_poly *B, const hs_options *opt, NUM *x,
                    long *nodes, hs_error *err)
{
    hs_options defaults;
    if (!opt) {
        hs_options_init(&defaults);
        opt = &defaults;
    }
    if (nodes)
        *nodes = 0;
    if (!A || !B || !x) {
        err_set(err, HS_ERR_ARG, "paper_intersect: NULL argument");
        return -1;
    }
    if (A->n != B->n) {
        err_set(err, HS_ERR_ARG, "dimension mismatch: %d and %d variables", A->n, B->n);
        return -1;
    }
    if (check_options(opt, A->n, err) != HS_OK)
        return -1;
    ctx c;
    ctx_open(&c, opt, A->n, count_split_rows(A) + count_split_rows(B));
    sys SA, SB;
    int *var = identity_variables(&c, A->n);
    int rc = -1;
    if (var && load_system(&c, A, 0, var, &SA) == 0 && load_system(&c, B, 1, var, &SB) == 0)
        rc = qiujiao(&c, &SA, &SB, x, 0);
    return ctx_close(&c, rc, nodes, err);
}

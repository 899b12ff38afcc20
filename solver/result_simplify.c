/* result_simplify.c -- an answer rewritten with the simplest numbers that
 * still prove it, for printing.
 *
 * The fast engine decides in doubles and makes its answer exact only on
 * demand: its points are doubles (interior points, contact points solved
 * from rounded rows) and its multipliers solve a basis of rows scaled by
 * rounded norms, so they print as fractions of 16 digits where the exact
 * engine prints 1/3.  Every such number can move within a set of valid
 * answers: a certificate's multipliers may be scaled by any positive
 * factor, a point may move anywhere inside the region its claim needs.
 * So:
 *   multipliers: scaled to sum 1 (in absolute value), which is what the
 *     exact engine prints when the combination is unique up to scale;
 *   each vector (multipliers, point, strict point): replaced by the
 *     convergents of the continued fractions of its entries, level by
 *     level (the k-th convergent of every entry at once), the first
 *     candidate that hs_result_verify accepts winning.
 * Every candidate is verified in full, exactly; nothing unverified is
 * kept, and an answer whose numbers are all small is left as it is. */
#include "solver/result_simplify.h"

#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/hpoly.h"
#include "polytope/mem.h"
#include "solver/result.h"

/* Numbers of at most this many bits (numerator and denominator) are
 * simple already. */
#define SIMPLE_BITS 32
/* Continued fractions of a double have at most about 40 terms; rationals
 * of the exact engine may have more, and are left alone beyond this. */
#define MAX_LEVELS 80

static int simp_is_simple(const mpq_t q)
{
    return mpz_sizeinbase(mpq_numref(q), 2) <= SIMPLE_BITS &&
           mpz_sizeinbase(mpq_denref(q), 2) <= SIMPLE_BITS;
}

static size_t simp_bits(const mpq_t q)
{
    return mpz_sizeinbase(mpq_numref(q), 2) + mpz_sizeinbase(mpq_denref(q), 2);
}

/* The convergent of x after `level` + 1 partial quotients into out;
 * returns 1 when that is x itself (the expansion is no longer). */
static int simp_convergent(mpq_t out, const mpq_t x, int level, mpz_t p, mpz_t q, mpz_t a,
                      mpz_t h0, mpz_t h1, mpz_t k0, mpz_t k1, mpz_t t)
{
    mpz_set(p, mpq_numref(x));
    mpz_set(q, mpq_denref(x));
    mpz_set_ui(h0, 0); /* h_{-2} / k_{-2} = 0/1, h_{-1} / k_{-1} = 1/0 */
    mpz_set_ui(h1, 1);
    mpz_set_ui(k0, 1);
    mpz_set_ui(k1, 0);
    for (int i = 0; i <= level; i++) {
        mpz_fdiv_qr(a, t, p, q); /* p = a q + t, 0 <= t < q */
        mpz_set(p, q);
        mpz_set(q, t);
        mpz_mul(t, a, h1); /* h_i = a h_{i-1} + h_{i-2} */
        mpz_add(t, t, h0);
        mpz_set(h0, h1);
        mpz_set(h1, t);
        mpz_mul(t, a, k1);
        mpz_add(t, t, k0);
        mpz_set(k0, k1);
        mpz_set(k1, t);
        if (mpz_sgn(q) == 0)
            break;
    }
    mpz_set(mpq_numref(out), h1);
    mpz_set(mpq_denref(out), k1);
    mpq_canonicalize(out);
    return mpz_sgn(q) == 0;
}

/* A vector of the answer being simplified: count entries at v (pointers
 * into the result), their original values saved in keep. */
typedef struct simp_vec {
    mpq_t **v;
    mpq_t *keep;
    int count;
} simp_vec;

typedef struct simp {
    hs_result *r;
    const hs_poly *A, *B;
    mpz_t p, q, a, h0, h1, k0, k1, t;
} simp;

static int simp_verifies(const simp *s)
{
    hs_error err;
    return hs_result_verify(s->r, s->A, s->B, &err) == HS_OK;
}

/* The size of a vector: its largest number's bits, then the sum of all
 * (what a reader sees: the longest fraction first). */
typedef struct vec_size {
    size_t largest, total;
} vec_size;

static vec_size simp_vec_size(const simp_vec *sv)
{
    vec_size z = {0, 0};
    for (int i = 0; i < sv->count; i++) {
        size_t b = simp_bits(*sv->v[i]);
        z.largest = b > z.largest ? b : z.largest;
        z.total += b;
    }
    return z;
}

static int simp_smaller(vec_size a, vec_size b)
{
    return a.largest < b.largest || (a.largest == b.largest && a.total < b.total);
}

static int simp_vec_simple(const simp_vec *sv)
{
    for (int i = 0; i < sv->count; i++)
        if (!simp_is_simple(*sv->v[i]))
            return 0;
    return 1;
}

static void simp_vec_restore(simp_vec *sv)
{
    for (int i = 0; i < sv->count; i++)
        mpq_set(*sv->v[i], sv->keep[i]);
}

/* The convergents of the vector, level by level: the first verified one
 * smaller than the vector stays; else the vector is restored. */
static void simp_vector(simp *s, simp_vec *sv)
{
    if (sv->count == 0 || simp_vec_simple(sv))
        return;
    vec_size before = simp_vec_size(sv);
    for (int i = 0; i < sv->count; i++)
        mpq_set(sv->keep[i], *sv->v[i]);
    for (int level = 0; level < MAX_LEVELS; level++) {
        int whole = 1;
        for (int i = 0; i < sv->count; i++)
            whole &= simp_convergent(*sv->v[i], sv->keep[i], level, s->p, s->q, s->a, s->h0, s->h1,
                                s->k0, s->k1, s->t);
        if (whole)
            break; /* the vector itself: nothing simpler verified */
        if (simp_smaller(simp_vec_size(sv), before) && simp_verifies(s))
            return;
    }
    simp_vec_restore(sv);
}

static int simp_vec_alloc(simp_vec *sv, int count)
{
    sv->count = 0;
    sv->v = mem_alloc((size_t)count + 1, sizeof *sv->v);
    sv->keep = mem_alloc((size_t)count + 1, sizeof *sv->keep);
    if (!sv->v || !sv->keep)
        return -1;
    for (int i = 0; i < count; i++)
        mpq_init(sv->keep[i]);
    sv->count = count;
    return 0;
}

static void simp_vec_free(simp_vec *sv)
{
    if (sv->keep)
        for (int i = 0; i < sv->count; i++)
            mpq_clear(sv->keep[i]);
    free(sv->v);
    free(sv->keep);
}

/* ------------------------------------------------ points on a face */

/* A point must stay in its polyhedra, so the rows tight at it (equality
 * rows among them) stay tight: the candidates keep the point on the
 * affine set L of those rows.  L in reduced row echelon form: rank rows
 * of n + 1 rationals (coefficients, right-hand side), pivot column
 * piv[r] of row r; the other coordinates are free. */
typedef struct face_eqs {
    int n, rank;
    mpq_t *m;  /* cap * (n + 1), initialised */
    int *piv;
    int rows, cap;
} face_eqs;

static void simp_face_free(face_eqs *f)
{
    for (int i = 0; f->m && i < f->cap * (f->n + 1); i++)
        mpq_clear(f->m[i]);
    free(f->m);
    free(f->piv);
}

/* Rows of p tight at x appended to f (as many as fit). */
static void simp_add_tight(face_eqs *f, const hs_poly *p, mpq_t *x, mpq_t v, mpq_t t, int cap)
{
    for (int i = 0; p && i < p->m && f->rows < cap; i++) {
        mpq_set_ui(v, 0, 1);
        for (int j = 0; j < p->n; j++) {
            hpoly_get_q(p, i, j, t);
            mpq_mul(t, t, x[j]);
            mpq_add(v, v, t);
        }
        hpoly_get_q(p, i, p->n, t);
        if (!mpq_equal(v, t))
            continue;
        mpq_t *row = f->m + (size_t)f->rows * (size_t)(f->n + 1);
        for (int j = 0; j <= p->n; j++)
            hpoly_get_q(p, i, j, row[j]);
        f->rows++;
    }
}

/* Gauss-Jordan elimination of f's rows: rank and pivots. */
static void simp_face_reduce(face_eqs *f, mpq_t t)
{
    int n = f->n, w = n + 1;
    f->rank = 0;
    for (int c = 0; c < n && f->rank < f->rows; c++) {
        int r = f->rank, best = -1;
        for (int i = r; i < f->rows && best < 0; i++)
            if (mpq_sgn(f->m[i * w + c]) != 0)
                best = i;
        if (best < 0)
            continue;
        for (int j = 0; j < w; j++)
            mpq_swap(f->m[r * w + j], f->m[best * w + j]);
        mpq_set(t, f->m[r * w + c]);
        for (int j = 0; j < w; j++)
            mpq_div(f->m[r * w + j], f->m[r * w + j], t);
        for (int i = 0; i < f->rows; i++) {
            if (i == r || mpq_sgn(f->m[i * w + c]) == 0)
                continue;
            mpq_t k;
            mpq_init(k);
            mpq_set(k, f->m[i * w + c]);
            for (int j = 0; j < w; j++) {
                mpq_mul(t, k, f->m[r * w + j]);
                mpq_sub(f->m[i * w + j], f->m[i * w + j], t);
            }
            mpq_clear(k);
        }
        f->piv[f->rank++] = c;
    }
}

/* The face of the point x (which: 0 the point, in A and B; 1 the strict
 * point, in polyhedron strict_which).  0, or -1 when out of memory. */
static int simp_face_of(const simp *s, int which, mpq_t *x, face_eqs *f)
{
    const hs_result *r = s->r;
    int n = r->n, cap = 0;
    const hs_poly *P[2] = {s->A, s->B};
    if (which)
        P[0] = r->strict_which ? s->B : s->A, P[1] = NULL;
    for (int k = 0; k < 2; k++)
        cap += P[k] ? P[k]->m : 0;
    memset(f, 0, sizeof *f);
    f->n = n;
    f->m = mem_alloc((size_t)cap * (size_t)(n + 1) + 1, sizeof(mpq_t));
    f->piv = mem_alloc((size_t)n + 1, sizeof(int));
    if (!f->m || !f->piv) {
        simp_face_free(f);
        return -1;
    }
    f->cap = cap;
    for (int i = 0; i < cap * (n + 1); i++)
        mpq_init(f->m[i]);
    mpq_t v, t;
    mpq_inits(v, t, NULL);
    for (int k = 0; k < 2; k++)
        simp_add_tight(f, P[k], x, v, t, cap);
    simp_face_reduce(f, t);
    mpq_clears(v, t, NULL);
    return 0;
}

/* The pivot coordinates of x recomputed from its free ones. */
static void simp_face_complete(const face_eqs *f, mpq_t *x, mpq_t t)
{
    int w = f->n + 1;
    for (int r = 0; r < f->rank; r++) {
        int p = f->piv[r];
        mpq_set(x[p], f->m[r * w + f->n]);
        for (int j = 0; j < f->n; j++) {
            if (j == p || mpq_sgn(f->m[r * w + j]) == 0)
                continue;
            mpq_mul(t, f->m[r * w + j], x[j]);
            mpq_sub(x[p], x[p], t);
        }
    }
}

/* Then each free coordinate alone (a point in a thin region may need one
 * coordinate precise and allow the others simple): its own convergents
 * from the coarsest, the first verified one that makes the vector smaller
 * kept. */
static void simp_each_coordinate(simp *s, simp_vec *sv, mpq_t *x, const face_eqs *f,
                                 const unsigned char *is_piv, mpq_t t)
{
    int n = sv->count;
    mpq_t cur;
    mpq_init(cur);
    for (int j = 0; j < n; j++) {
        if (is_piv[j] || simp_is_simple(*sv->v[j]))
            continue;
        vec_size before = simp_vec_size(sv);
        for (int i = 0; i < n; i++)
            mpq_set(sv->keep[i], *sv->v[i]);
        mpq_set(cur, *sv->v[j]);
        int done = 0;
        for (int level = 0; level < MAX_LEVELS && !done; level++) {
            int whole = simp_convergent(*sv->v[j], cur, level, s->p, s->q, s->a, s->h0, s->h1,
                                        s->k0, s->k1, s->t);
            simp_face_complete(f, x, t);
            if (whole)
                break;
            done = simp_smaller(simp_vec_size(sv), before) && simp_verifies(s);
        }
        if (!done)
            simp_vec_restore(sv);
    }
    mpq_clear(cur);
}

/* The point (which 0) or strict point (1): its free coordinates replaced
 * by their convergents level by level, the others solved on its face;
 * the first verified candidate smaller than the point stays. */
static int simp_point(simp *s, int which)
{
    hs_result *r = s->r;
    int n = r->n;
    mpq_t *x = which ? r->strict : r->point;
    simp_vec sv;
    if (simp_vec_alloc(&sv, n) != 0)
        return -1;
    for (int j = 0; j < n; j++)
        sv.v[j] = &x[j];
    face_eqs f;
    if (simp_vec_simple(&sv)) {
        simp_vec_free(&sv);
        return 0;
    }
    if (simp_face_of(s, which, x, &f) != 0) {
        simp_vec_free(&sv);
        return -1;
    }
    unsigned char *is_piv = mem_calloc((size_t)n + 1, 1);
    if (is_piv && f.rank < n) {
        for (int k = 0; k < f.rank; k++)
            is_piv[f.piv[k]] = 1;
        vec_size before = simp_vec_size(&sv);
        for (int j = 0; j < n; j++)
            mpq_set(sv.keep[j], x[j]);
        mpq_t t;
        mpq_init(t);
        int done = 0;
        for (int level = 0; level < MAX_LEVELS && !done; level++) {
            int whole = 1;
            for (int j = 0; j < n; j++)
                if (!is_piv[j])
                    whole &= simp_convergent(x[j], sv.keep[j], level, s->p, s->q, s->a, s->h0, s->h1,
                                        s->k0, s->k1, s->t);
            simp_face_complete(&f, x, t);
            if (whole)
                break;
            done = simp_smaller(simp_vec_size(&sv), before) && simp_verifies(s);
        }
        if (!done)
            simp_vec_restore(&sv);
        simp_each_coordinate(s, &sv, x, &f, is_piv, t);
        mpq_clear(t);
    }
    simp_face_free(&f);
    free(is_piv);
    simp_vec_free(&sv);
    return is_piv ? 0 : -1;
}

/* Multipliers scaled to sum 1 in absolute value, kept when that verifies
 * and is smaller. */
static void simp_normalize(simp *s, simp_vec *sv)
{
    if (sv->count == 0 || simp_vec_simple(sv))
        return;
    vec_size before = simp_vec_size(sv);
    mpq_t sum, t;
    mpq_inits(sum, t, NULL);
    for (int i = 0; i < sv->count; i++) {
        mpq_set(sv->keep[i], *sv->v[i]);
        mpq_abs(t, *sv->v[i]);
        mpq_add(sum, sum, t);
    }
    if (mpq_sgn(sum) > 0) {
        for (int i = 0; i < sv->count; i++)
            mpq_div(*sv->v[i], *sv->v[i], sum);
        if (!(simp_smaller(simp_vec_size(sv), before) && simp_verifies(s)))
            simp_vec_restore(sv);
    }
    mpq_clears(sum, t, NULL);
}

/* A plain exact copy of r (status, engine, counters, point,
 * certificate); NULL when out of memory. */
static hs_result *simp_exact_copy(const hs_result *r)
{
    hs_result *tmp;
    const hs_result *ex = result_exact(r, &tmp);
    hs_result *out = ex ? hs_result_new() : NULL;
    if (!out || result_reset(out, ex->status, ex->n) != 0) {
        hs_result_free(out);
        hs_result_free(tmp);
        return NULL;
    }
    out->engine = ex->engine;
    out->nodes = ex->nodes;
    out->pivots = ex->pivots;
    out->fell_back = ex->fell_back;
    out->kind = ex->kind;
    int ok = 1;
    if (ex->has_point)
        result_set_point_q(out, ex->point);
    for (int k = 0; k < ex->nmult && ok; k++)
        ok = result_add_mult(out, ex->mult[k].which, ex->mult[k].row, ex->mult[k].y) == 0;
    if (ex->has_strict)
        result_set_strict(out, ex->strict_which, ex->strict);
    hs_result_free(tmp);
    if (!ok) {
        hs_result_free(out);
        return NULL;
    }
    return out;
}

hs_result *result_simplified(const hs_result *r, const hs_poly *A, const hs_poly *B)
{
    if (!r || !A)
        return NULL;
    hs_result *out = simp_exact_copy(r);
    if (!out)
        return NULL;
    simp s;
    memset(&s, 0, sizeof s);
    s.r = out;
    s.A = A;
    s.B = B;
    if (!simp_verifies(&s)) { /* nothing to keep valid: left as it was */
        hs_result_free(out);
        return NULL;
    }
    mpz_inits(s.p, s.q, s.a, s.h0, s.h1, s.k0, s.k1, s.t, NULL);
    int fail = 0;
    simp_vec sv;
    if (simp_vec_alloc(&sv, out->nmult) == 0) {
        for (int k = 0; k < out->nmult; k++)
            sv.v[k] = &out->mult[k].y;
        simp_normalize(&s, &sv);
        simp_vector(&s, &sv);
    } else
        fail = 1;
    simp_vec_free(&sv);
    for (int which = 0; which < 2 && !fail; which++)
        if (which ? out->has_strict : out->has_point)
            fail = simp_point(&s, which) != 0;
    mpz_clears(s.p, s.q, s.a, s.h0, s.h1, s.k0, s.k1, s.t, NULL);
    if (fail || !simp_verifies(&s)) { /* (never: every change was verified) */
        hs_result_free(out);
        return NULL;
    }
    return out;
}

/* dst takes src's answer (exact data; dst's fast-engine scratch stays). */
static int simp_assign(hs_result *dst, const hs_result *src)
{
    if (result_reset(dst, src->status, src->n) != 0)
        return -1;
    dst->engine = src->engine;
    dst->nodes = src->nodes;
    dst->pivots = src->pivots;
    dst->fell_back = src->fell_back;
    dst->kind = src->kind;
    if (src->has_point)
        result_set_point_q(dst, src->point);
    for (int k = 0; k < src->nmult; k++)
        if (result_add_mult(dst, src->mult[k].which, src->mult[k].row, src->mult[k].y) != 0)
            return -1;
    if (src->has_strict)
        result_set_strict(dst, src->strict_which, src->strict);
    return 0;
}

hs_code hs_result_simplify(hs_result *r, const hs_poly *A, const hs_poly *B, hs_error *err)
{
    if (!r || !A)
        return err_set(err, HS_ERR_ARG, "hs_result_simplify: NULL argument");
    hs_result *s = result_simplified(r, A, B);
    if (!s)
        return HS_OK; /* (does not verify, or no memory: left as it is) */
    hs_result *keep = simp_exact_copy(r);
    if (keep && simp_assign(r, s) != 0) /* (out of memory midway: back to the old answer) */
        simp_assign(r, keep);
    hs_result_free(keep);
    hs_result_free(s);
    return HS_OK;
}

/* tangent.c -- generator of tangent-sphere polytopes (see tangent.h).
 *
 * All arithmetic that decides a row's numbers is done in 64-bit integers
 * counted in units of 2^-10, so the doubles handed to the library are
 * exact by construction rather than by luck of rounding. */
#include "bench/tangent.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "halfspace.h"
#include "polytope/rng.h"

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void tangent_rng_seed(tangent_rng *g, uint64_t seed)
{
    uint64_t sm = seed;
    for (int i = 0; i < 4; i++)
        g->s[i] = rng_splitmix(&sm);
}

uint64_t tangent_rng_next(tangent_rng *g)
{
    uint64_t *s = g->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

long tangent_rng_int(tangent_rng *g, long lo, long hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
    /* Largest multiple of span that fits; draws above it are redrawn. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % span;
    uint64_t v;
    do
        v = tangent_rng_next(g);
    while (v >= limit);
    return (long)((uint64_t)lo + v % span);
}

double tangent_rng_unit(tangent_rng *g)
{
    return (double)(tangent_rng_next(g) >> 11) * 0x1p-53;
}

void tangent_direction(tangent_rng *g, long u[3])
{
    const long r2max = (long)TANGENT_COORD_MAX * TANGENT_COORD_MAX;
    long r2;
    do {
        for (int j = 0; j < 3; j++)
            u[j] = tangent_rng_int(g, -TANGENT_COORD_MAX, TANGENT_COORD_MAX);
        r2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    } while (r2 == 0 || r2 > r2max);
}

uint64_t tangent_isqrt_ceil(uint64_t v)
{
    uint64_t k = (uint64_t)ceil(sqrt((double)v));
    /* The float guess is off by at most a little; settle it exactly. */
    while (k > 0 && (k - 1) * (k - 1) >= v)
        k--;
    while (k * k < v)
        k++;
    return k;
}

/* c_j in units of 2^-10 (c_j must be such a multiple). */
static int64_t fixed_of(double cj) { return (int64_t)ldexp(cj, TANGENT_FRAC_BITS); }

double tangent_rhs(const long u[3], const double c[3])
{
    int64_t dotc = 0;
    uint64_t r2 = 0;
    for (int j = 0; j < 3; j++) {
        dotc += (int64_t)u[j] * fixed_of(c[j]);
        r2 += (uint64_t)((int64_t)u[j] * u[j]);
    }
    /* |u| * 2^10 rounded up is ceil(sqrt(|u|^2 * 2^20)). */
    uint64_t norm = tangent_isqrt_ceil(r2 << (2 * TANGENT_FRAC_BITS));
    return ldexp((double)(dotc + (int64_t)norm), -TANGENT_FRAC_BITS);
}

void tangent_rows(tangent_rng *g, int m, const double c[3], double *a, double *b)
{
    for (int i = 0; i < m; i++) {
        long u[3];
        tangent_direction(g, u);
        for (int j = 0; j < 3; j++)
            a[3 * i + j] = (double)u[j];
        b[i] = tangent_rhs(u, c);
    }
}

hs_poly *tangent_polytope(tangent_rng *g, int m, const double c[3], hs_error *err)
{
    if (m < 1) {
        if (err) {
            hs_error_clear(err);
            err->code = HS_ERR_ARG;
            snprintf(err->msg, sizeof err->msg, "tangent_polytope: m = %d < 1", m);
        }
        return NULL;
    }
    double *a = malloc((size_t)m * 3 * sizeof *a);
    double *b = malloc((size_t)m * sizeof *b);
    hs_poly *p = NULL;
    if (a && b) {
        tangent_rows(g, m, c, a, b);
        p = hs_poly_from_doubles(3, m, a, b, NULL, err);
    } else if (err) {
        hs_error_clear(err);
        err->code = HS_ERR_NOMEM;
        snprintf(err->msg, sizeof err->msg, "out of memory");
    }
    free(a);
    free(b);
    return p;
}

tangent_rng tangent_rng_for_pair(uint64_t seed, long index)
{
    /* Mix seed and index through splitmix64 so neighbouring indices give
     * unrelated streams. */
    uint64_t sm = seed;
    uint64_t mixed = rng_splitmix(&sm) ^ ((uint64_t)index * 0xD1B54A32D192ED03ull);
    tangent_rng g;
    tangent_rng_seed(&g, mixed);
    return g;
}

void tangent_pair_center(tangent_rng *g, double c[3], double *dist)
{
    long w[3];
    tangent_direction(g, w);
    double len = sqrt((double)(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]));
    double d = TANGENT_DIST_MIN + (TANGENT_DIST_MAX - TANGENT_DIST_MIN) * tangent_rng_unit(g);
    for (int j = 0; j < 3; j++)
        c[j] = ldexp(round(ldexp(d * (double)w[j] / len, TANGENT_FRAC_BITS)),
                     -TANGENT_FRAC_BITS);
    if (dist)
        *dist = d;
}

hs_code tangent_pair(uint64_t seed, long index, int mA, int mB, hs_poly **A, hs_poly **B,
                     double cB[3], hs_error *err)
{
    static const double origin[3] = {0.0, 0.0, 0.0};
    tangent_rng g = tangent_rng_for_pair(seed, index);
    double c[3];
    tangent_pair_center(&g, c, NULL);
    hs_error mine;
    hs_error_clear(&mine);
    *A = tangent_polytope(&g, mA, origin, &mine);
    *B = *A ? tangent_polytope(&g, mB, c, &mine) : NULL;
    if (!*B) {
        hs_poly_free(*A);
        *A = NULL;
        if (err)
            *err = mine;
        return mine.code != HS_OK ? mine.code : HS_ERR_INTERNAL;
    }
    if (cB)
        for (int j = 0; j < 3; j++)
            cB[j] = c[j];
    return HS_OK;
}

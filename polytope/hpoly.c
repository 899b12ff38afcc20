/* hpoly.c -- storage and access of H-representations (the public
 * constructors, which also prepare the fast engine, are solver/poly_build.c). */
#include "polytope/hpoly.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/rational.h"
#include "polytope/error.h"
#include "polytope/mem.h"

hs_poly *hpoly_alloc(int n, int m, const char *name)
{
    hs_poly *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->n = n;
    p->m = m;
    p->a = mem_calloc((size_t)m * (size_t)n, sizeof *p->a);
    p->b = mem_calloc((size_t)m, sizeof *p->b);
    p->eq = mem_calloc((size_t)m, 1);
    p->exact = mem_alloc((size_t)m, 1);
    p->q = mem_calloc((size_t)m, sizeof *p->q);
    p->line = mem_calloc((size_t)m, sizeof *p->line);
    p->name = mem_strdup(name ? name : "<input>");
    if (!p->a || !p->b || !p->eq || !p->exact || !p->q || !p->line || !p->name) {
        hpoly_destroy(p);
        return NULL;
    }
    memset(p->exact, 1, (size_t)m);
    return p;
}

void hpoly_destroy(hs_poly *p)
{
    if (!p)
        return;
    if (p->q) {
        for (int i = 0; i < p->m; i++) {
            if (!p->q[i])
                continue;
            for (int j = 0; j <= p->n; j++)
                mpq_clear(p->q[i][j]);
            free(p->q[i]);
        }
    }
    free(p->q);
    free(p->a);
    free(p->b);
    free(p->eq);
    free(p->exact);
    free(p->line);
    free(p->name);
    free(p);
}

hs_poly *hpoly_from_rows(int n, int m, const double *a, const double *b)
{
    hs_poly *p = hpoly_alloc(n, m, "<rows>");
    if (!p)
        return NULL;
    memcpy(p->a, a, sizeof(double) * (size_t)m * (size_t)n);
    memcpy(p->b, b, sizeof(double) * (size_t)m);
    p->no_prep = 1;
    return p;
}

static double *entry(hs_poly *p, int i, int j)
{
    return j == p->n ? &p->b[i] : &p->a[(size_t)i * (size_t)p->n + (size_t)j];
}

/* Give row i its exact store, filled from the current doubles. */
static int make_row_exact_store(hs_poly *p, int i)
{
    if (p->q[i])
        return 0;
    p->q[i] = mem_alloc_gmp((size_t)p->n + 1, sizeof(mpq_t));
    if (!p->q[i])
        return -1;
    for (int j = 0; j <= p->n; j++) {
        mpq_init(p->q[i][j]);
        mpq_set_d(p->q[i][j], *entry(p, i, j));
    }
    return 0;
}

int hpoly_set_q(hs_poly *p, int i, int j, const mpq_t v, const char **why)
{
    if (q_check_range(v, why) != 0)
        return -1;
    int exact = 0;
    *entry(p, i, j) = q_nearest_double(v, &exact);
    if (p->q[i])
        mpq_set(p->q[i][j], v);
    if (!exact) {
        if (make_row_exact_store(p, i) != 0) {
            *why = "out of memory";
            return -1;
        }
        mpq_set(p->q[i][j], v);
        p->exact[i] = 0;
    }
    return 0;
}

int hpoly_set_d(hs_poly *p, int i, int j, double v, const char **why)
{
    if (v != 0 && fabs(v) < DBL_MIN) {
        *why = "number is too small for the double range (below 2^-1022)";
        return -1;
    }
    *entry(p, i, j) = v;
    if (p->q[i])
        mpq_set_d(p->q[i][j], v);
    return 0;
}

void hpoly_get_q(const hs_poly *p, int i, int j, mpq_t out)
{
    if (p->q[i])
        mpq_set(out, p->q[i][j]);
    else
        mpq_set_d(out, j == p->n ? p->b[i] : p->a[(size_t)i * (size_t)p->n + (size_t)j]);
}

int hpoly_all_exact(const hs_poly *p)
{
    for (int i = 0; i < p->m; i++)
        if (!p->exact[i])
            return 0;
    return 1;
}

int hs_poly_dim(const hs_poly *p) { return p ? p->n : 0; }
int hs_poly_rows(const hs_poly *p) { return p ? p->m : 0; }
const char *hs_poly_name(const hs_poly *p) { return p ? p->name : ""; }

int hs_poly_row_is_eq(const hs_poly *p, int i)
{
    return p && i >= 0 && i < p->m && p->eq[i];
}

int hs_poly_row(const hs_poly *p, int i, double *a, double *b)
{
    if (!p || i < 0 || i >= p->m)
        return 0;
    if (a)
        memcpy(a, hpoly_row(p, i), sizeof *a * (size_t)p->n);
    if (b)
        *b = p->b[i];
    return p->exact[i];
}

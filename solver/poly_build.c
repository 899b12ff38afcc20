/* poly_build.c -- the public constructors of hs_poly and its destructor:
 * rows from doubles, strings or .ine text (polytope/ine_read.c).  The
 * fast engine's once-per-polyhedron preparation (fast_prep.c) is not made
 * here: the first query that needs it builds it. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "polytope/error.h"
#include "polytope/hpoly.h"
#include "polytope/ine.h"
#include "polytope/rational.h"
#include "polytope/text_lines.h"
#include "solver/fast_prep.h"

void hs_poly_free(hs_poly *p)
{
    if (!p)
        return;
    fast_prep_free(atomic_load(&p->prep));
    atomic_store(&p->prep, NULL);
    hpoly_destroy(p);
}

int hs_poly_fast_ready(const hs_poly *p, const char **why)
{
    const fast_prep *fp = NULL;
    const char *reason = "NULL polyhedron";
    if (p && (fast_prep_get(p, &fp, &reason) != 0 || (fp && fast_prep_lazy_ready(fp) != 0))) {
        reason = "out of memory";
        fp = NULL;
    }
    if (why)
        *why = fp ? NULL : reason;
    return fp != NULL;
}

static hs_code check_shape(int n, int m, hs_error *err)
{
    if (n < 1)
        return err_set(err, HS_ERR_INPUT, "dimension n must be at least 1 (got %d)", n);
    if (m < 1)
        return err_set(err, HS_ERR_INPUT, "the system has no rows (m = %d)", m);
    return HS_OK;
}

hs_poly *hs_poly_from_doubles(int n, int m, const double *A, const double *b,
                              const unsigned char *is_eq, hs_error *err)
{
    if (check_shape(n, m, err) != HS_OK)
        return NULL;
    if (!A || !b) {
        err_set(err, HS_ERR_ARG, "hs_poly_from_doubles: A and b must not be NULL");
        return NULL;
    }
    hs_poly *p = hpoly_alloc(n, m, "<arrays>");
    if (!p) {
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    for (int i = 0; i < m; i++) {
        for (int j = 0; j <= n; j++) {
            double d = j == n ? b[i] : A[(size_t)i * (size_t)n + (size_t)j];
            const char *why = NULL;
            if (!isfinite(d)) {
                err_set(err, HS_ERR_INPUT, "row %d, entry %d: NaN and infinity are not allowed",
                        i + 1, j + 1);
                goto fail;
            }
            if (hpoly_set_d(p, i, j, d, &why) != 0) {
                err_set(err, HS_ERR_INPUT, "row %d, entry %d: %s", i + 1, j + 1, why);
                goto fail;
            }
        }
        p->eq[i] = is_eq ? (is_eq[i] != 0) : 0;
    }
    return p;
fail:
    hs_poly_free(p);
    return NULL;
}

hs_poly *hs_poly_from_strings(int n, int m, const char *const *A, const char *const *b,
                              const unsigned char *is_eq, hs_error *err)
{
    if (check_shape(n, m, err) != HS_OK)
        return NULL;
    if (!A || !b) {
        err_set(err, HS_ERR_ARG, "hs_poly_from_strings: A and b must not be NULL");
        return NULL;
    }
    hs_poly *p = hpoly_alloc(n, m, "<strings>");
    if (!p) {
        err_set(err, HS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    mpq_t v;
    mpq_init(v);
    for (int i = 0; i < m; i++) {
        for (int j = 0; j <= n; j++) {
            const char *s = j == n ? b[i] : A[(size_t)i * (size_t)n + (size_t)j];
            const char *why = NULL;
            if (!s || q_parse(v, s, &why) != 0 || hpoly_set_q(p, i, j, v, &why) != 0) {
                err_set(err, HS_ERR_INPUT, "row %d, entry %d: %s '%s'", i + 1, j + 1,
                        s ? why : "missing number", s ? s : "");
                goto fail;
            }
        }
        p->eq[i] = is_eq ? (is_eq[i] != 0) : 0;
    }
    mpq_clear(v);
    return p;
fail:
    mpq_clear(v);
    hs_poly_free(p);
    return NULL;
}

hs_poly *hs_poly_parse(const char *text, const char *name, hs_error *err)
{
    return ine_parse(text, name, err);
}

hs_poly *hs_poly_read(const char *path, hs_error *err)
{
    char *text = text_read_file(path, err);
    if (!text)
        return NULL;
    hs_poly *p = hs_poly_parse(text, path, err);
    free(text);
    return p;
}

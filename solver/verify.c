/* verify.c -- independent exact check of a result against its polyhedra.
 * It trusts nothing in the result: every claim is recomputed over GMP
 * rationals from the rows as written. */
#include <stdlib.h>
#include <string.h>

#include "polytope/hpoly.h"
#include "polytope/rational.h"
#include "solver/result.h"
#include "polytope/error.h"
#include "polytope/mem.h"

typedef struct verifier {
    const hs_poly *poly[2];
    int n;
    mpq_t *coef;  /* n: combined coefficients */
    mpq_t rhs;    /* combined right-hand side */
    mpq_t v, t;
    hs_error *err;
} verifier;

static hs_code reject(verifier *vf, const char *fmt, const char *detail)
{
    return err_set(vf->err, HS_ERR_INPUT, fmt, detail);
}

/* a_i . x - b_i for row i of polyhedron p into vf->v. */
static void row_excess(verifier *vf, const hs_poly *p, int i, mpq_t *x)
{
    mpq_set_ui(vf->v, 0, 1);
    for (int j = 0; j < p->n; j++) {
        hpoly_get_q(p, i, j, vf->t);
        mpq_mul(vf->t, vf->t, x[j]);
        mpq_add(vf->v, vf->v, vf->t);
    }
    hpoly_get_q(p, i, p->n, vf->t);
    mpq_sub(vf->v, vf->v, vf->t);
}

/* Check x lies in p; rows not marked in `may_touch` (NULL: all may) must
 * hold strictly when `strict` is set. */
static hs_code check_member(verifier *vf, int which, mpq_t *x, int strict,
                            const unsigned char *may_touch)
{
    const hs_poly *p = vf->poly[which];
    char where[160];
    for (int i = 0; i < p->m; i++) {
        row_excess(vf, p, i, x);
        int sg = mpq_sgn(vf->v);
        snprintf(where, sizeof where, "%c row %d", which ? 'B' : 'A', i + 1);
        if (p->eq[i] && sg != 0)
            return reject(vf, "the point violates the equality %s", where);
        if (sg > 0)
            return reject(vf, "the point violates %s", where);
        if (strict && !p->eq[i] && sg == 0 && !(may_touch && may_touch[i]))
            return reject(vf, "the point is on the boundary of %s, not in the relative interior",
                          where);
    }
    return HS_OK;
}

static hs_code check_mult_indices(verifier *vf, const hs_result *r)
{
    for (int k = 0; k < r->nmult; k++) {
        const cert_mult *m = &r->mult[k];
        if (m->which < 0 || m->which > 1 || !vf->poly[m->which])
            return reject(vf, "%s", "a multiplier refers to a polyhedron that is not given");
        const hs_poly *p = vf->poly[m->which];
        if (m->row < 0 || m->row >= p->m)
            return reject(vf, "%s", "a multiplier refers to a row that does not exist");
        if (!p->eq[m->row] && mpq_sgn(m->y) < 0)
            return reject(vf, "%s", "a multiplier on an inequality row is negative");
    }
    return HS_OK;
}

/* coef, rhs <- sum of y (a, b) over the multipliers of polyhedron `only`
 * (or of both when only < 0). */
static void combine(verifier *vf, const hs_result *r, int only)
{
    for (int j = 0; j < vf->n; j++)
        mpq_set_ui(vf->coef[j], 0, 1);
    mpq_set_ui(vf->rhs, 0, 1);
    for (int k = 0; k < r->nmult; k++) {
        const cert_mult *m = &r->mult[k];
        if (only >= 0 && m->which != only)
            continue;
        const hs_poly *p = vf->poly[m->which];
        for (int j = 0; j <= vf->n; j++) {
            hpoly_get_q(p, m->row, j, vf->t);
            mpq_mul(vf->t, vf->t, m->y);
            mpq_t *dst = j == vf->n ? &vf->rhs : &vf->coef[j];
            mpq_add(*dst, *dst, vf->t);
        }
    }
}

static hs_code check_zero_normal(verifier *vf, const char *what)
{
    for (int j = 0; j < vf->n; j++) {
        if (mpq_sgn(vf->coef[j]) != 0) {
            char msg[200];
            snprintf(msg, sizeof msg, "%s: the combined coefficient of x%d is not 0", what, j + 1);
            return reject(vf, "%s", msg);
        }
    }
    return HS_OK;
}

static hs_code verify_farkas(verifier *vf, const hs_result *r)
{
    if (r->kind != CERT_FARKAS || r->nmult == 0)
        return reject(vf, "%s", "no Farkas certificate");
    hs_code rc = check_mult_indices(vf, r);
    if (rc != HS_OK)
        return rc;
    combine(vf, r, -1);
    if ((rc = check_zero_normal(vf, "Farkas certificate")) != HS_OK)
        return rc;
    if (mpq_sgn(vf->rhs) >= 0)
        return reject(vf, "%s", "Farkas certificate: the combination reads 0 <= (nonnegative)");
    return HS_OK;
}

static hs_code check_point_in_all(verifier *vf, const hs_result *r, int strict,
                                  unsigned char *may_touch[2])
{
    if (!r->has_point)
        return reject(vf, "%s", "no point given");
    for (int w = 0; w < 2; w++) {
        if (!vf->poly[w])
            continue;
        hs_code rc = check_member(vf, w, r->point, strict, may_touch ? may_touch[w] : NULL);
        if (rc != HS_OK)
            return rc;
    }
    return HS_OK;
}

static hs_code verify_touching(verifier *vf, const hs_result *r)
{
    hs_code rc = check_point_in_all(vf, r, 0, NULL);
    if (rc != HS_OK)
        return rc;
    if (r->kind != CERT_SEPARATION || !r->has_strict)
        return reject(vf, "%s", "no separation certificate");
    if ((rc = check_mult_indices(vf, r)) != HS_OK)
        return rc;
    combine(vf, r, -1);
    if ((rc = check_zero_normal(vf, "separation")) != HS_OK)
        return rc;
    if (mpq_sgn(vf->rhs) != 0)
        return reject(vf, "%s", "separation: the combination does not read 0.x <= 0");
    int w = r->strict_which;
    if (w < 0 || w > 1 || !vf->poly[w])
        return reject(vf, "%s", "the strict point names a missing polyhedron");
    if ((rc = check_member(vf, w, r->strict, 0, NULL)) != HS_OK)
        return rc;
    /* value of that polyhedron's half of the combination at the strict point */
    combine(vf, r, w);
    mpq_set_ui(vf->v, 0, 1);
    for (int j = 0; j < vf->n; j++) {
        mpq_mul(vf->t, vf->coef[j], r->strict[j]);
        mpq_add(vf->v, vf->v, vf->t);
    }
    if (mpq_cmp(vf->v, vf->rhs) >= 0)
        return reject(vf, "%s", "separation: the strict point lies on the separating hyperplane");
    return HS_OK;
}

/* Overlap: rows proven implicit by the multipliers may be tight; every
 * other inequality row must hold strictly at the point. */
static hs_code verify_overlap(verifier *vf, const hs_result *r)
{
    unsigned char *may_touch[2] = {NULL, NULL};
    hs_code rc = check_mult_indices(vf, r);
    for (int w = 0; w < 2 && rc == HS_OK; w++) {
        if (!vf->poly[w])
            continue;
        may_touch[w] = mem_calloc((size_t)vf->poly[w]->m, 1);
        if (!may_touch[w]) {
            rc = err_set(vf->err, HS_ERR_NOMEM, "out of memory");
            break;
        }
        combine(vf, r, w);
        if ((rc = check_zero_normal(vf, "implicit-equality proof")) != HS_OK)
            break;
        if (mpq_sgn(vf->rhs) != 0)
            rc = reject(vf, "%s", "implicit-equality proof does not read 0.x <= 0");
        for (int k = 0; k < r->nmult; k++)
            if (r->mult[k].which == w && mpq_sgn(r->mult[k].y) > 0)
                may_touch[w][r->mult[k].row] = 1;
    }
    if (rc == HS_OK)
        rc = check_point_in_all(vf, r, 1, may_touch);
    free(may_touch[0]);
    free(may_touch[1]);
    return rc;
}

static hs_code verify_status(verifier *vf, const hs_result *r)
{
    int pair = vf->poly[1] != NULL;
    switch (r->status) {
    case HS_FEASIBLE:
    case HS_INFEASIBLE:
        if (pair)
            return reject(vf, "%s", "a feasibility answer needs exactly one system");
        return r->status == HS_FEASIBLE ? check_point_in_all(vf, r, 0, NULL)
                                        : verify_farkas(vf, r);
    case HS_DISJOINT: return pair ? verify_farkas(vf, r) : reject(vf, "%s", "needs two systems");
    case HS_INTERSECT:
        return pair ? check_point_in_all(vf, r, 0, NULL) : reject(vf, "%s", "needs two systems");
    case HS_TOUCHING: return pair ? verify_touching(vf, r) : reject(vf, "%s", "needs two systems");
    case HS_OVERLAP: return pair ? verify_overlap(vf, r) : reject(vf, "%s", "needs two systems");
    case HS_CONTACT: break; /* a world status: no polytope certificate */
    }
    return reject(vf, "%s", "unknown status");
}

static hs_code verify_exact(const hs_result *r, const hs_poly *A, const hs_poly *B, hs_error *err);

hs_code hs_result_verify(const hs_result *r, const hs_poly *A, const hs_poly *B, hs_error *err)
{
    if (!r || !A)
        return err_set(err, HS_ERR_ARG, "hs_result_verify: NULL argument");
    hs_result *tmp;
    const hs_result *ex = result_exact(r, &tmp);
    hs_code rc = ex ? verify_exact(ex, A, B, err) : err_set(err, HS_ERR_NOMEM, "out of memory");
    hs_result_free(tmp);
    return rc;
}

static hs_code verify_exact(const hs_result *r, const hs_poly *A, const hs_poly *B, hs_error *err)
{
    if ((B && B->n != A->n) || r->n != A->n)
        return err_set(err, HS_ERR_INPUT, "certificate: dimension %d does not match the systems (%d)",
                       r->n, A->n);
    verifier vf;
    memset(&vf, 0, sizeof vf);
    vf.poly[0] = A;
    vf.poly[1] = B;
    vf.n = A->n;
    vf.err = err;
    vf.coef = mem_alloc_gmp((size_t)vf.n, sizeof(mpq_t));
    if (!vf.coef)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    for (int j = 0; j < vf.n; j++)
        mpq_init(vf.coef[j]);
    mpq_inits(vf.rhs, vf.v, vf.t, NULL);
    hs_code rc = verify_status(&vf, r);
    for (int j = 0; j < vf.n; j++)
        mpq_clear(vf.coef[j]);
    mpq_clears(vf.rhs, vf.v, vf.t, NULL);
    free(vf.coef);
    return rc;
}

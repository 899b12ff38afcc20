/* basis_q.c -- the exact integer basis of the simplex (see basis_q.h). */
#include "solver/basis_q.h"

#include <stdlib.h>

#include "polytope/mem.h"

int qbasis_init(qbasis *q, int k)
{
    q->k = k;
    q->M = mem_alloc_gmp((size_t)k * (size_t)k, sizeof(mpz_t));
    q->u = mem_alloc_gmp((size_t)k, sizeof(mpz_t));
    q->nz = mem_alloc((size_t)k, sizeof(int));
    if (!q->M || !q->u || !q->nz) {
        free(q->M);
        free(q->u);
        free(q->nz);
        q->M = q->u = NULL;
        q->nz = NULL;
        return -1;
    }
    for (size_t i = 0; i < (size_t)k * (size_t)k; i++)
        mpz_init(q->M[i]);
    for (int i = 0; i < k; i++)
        mpz_init(q->u[i]);
    mpz_init(q->D);
    mpz_init(q->t);
    return 0;
}

void qbasis_free(qbasis *q)
{
    if (!q->M)
        return;
    for (size_t i = 0; i < (size_t)q->k * (size_t)q->k; i++)
        mpz_clear(q->M[i]);
    for (int i = 0; i < q->k; i++)
        mpz_clear(q->u[i]);
    mpz_clear(q->D);
    mpz_clear(q->t);
    free(q->M);
    free(q->u);
    free(q->nz);
    q->M = q->u = NULL;
    q->nz = NULL;
}

void qbasis_identity(qbasis *q)
{
    int k = q->k;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++)
            mpz_set_ui(*qbasis_at(q, i, j), i == j);
    mpz_set_ui(q->D, 1);
}

void qbasis_ftran(qbasis *q, const mpz_t *head, int len, const mpz_t *tail)
{
    int k = q->k, cnt = 0;
    for (int j = 0; j < len; j++)
        if (mpz_sgn(head[j]) != 0)
            q->nz[cnt++] = j;
    for (int i = 0; i < k; i++) {
        const mpz_t *row = (const mpz_t *)qbasis_at(q, i, 0);
        mpz_set_ui(q->u[i], 0);
        for (int t = 0; t < cnt; t++)
            if (mpz_sgn(row[q->nz[t]]) != 0)
                mpz_addmul(q->u[i], row[q->nz[t]], head[q->nz[t]]);
        if (tail && mpz_sgn(row[len]) != 0)
            mpz_addmul(q->u[i], row[len], *tail);
    }
}

void qbasis_ftran_unit(qbasis *q, int i)
{
    for (int r = 0; r < q->k; r++)
        mpz_set(q->u[r], *qbasis_at(q, r, i));
}

int qbasis_pivot(qbasis *q, int r)
{
    /* With s = sign(u_r) and p = |u_r| the pair (s M', s D') is stored:
     * (s M')_ij = (p M_ij - s u_i M_rj) / D for i != r, (s M')_rj = s M_rj,
     * and D' = p > 0; rows with u_i = 0 keep their values when p = D. */
    int k = q->k;
    int sg = mpz_sgn(q->u[r]);
    if (sg == 0)
        return -1;
    mpz_t *p = &q->u[r];
    mpz_abs(*p, *p);
    mpz_t *mr = qbasis_at(q, r, 0);
    int nnz = 0;
    for (int j = 0; j < k; j++)
        if (mpz_sgn(mr[j]) != 0)
            q->nz[nnz++] = j;
    int same = mpz_cmp(*p, q->D) == 0;
    int unit = mpz_cmp_ui(q->D, 1) == 0;
    for (int i = 0; i < k; i++) {
        if (i == r)
            continue;
        mpz_t *mi = qbasis_at(q, i, 0);
        if (mpz_sgn(q->u[i]) == 0) {
            if (same)
                continue;
            for (int j = 0; j < k; j++)
                if (mpz_sgn(mi[j]) != 0) {
                    mpz_mul(mi[j], mi[j], *p);
                    mpz_divexact(mi[j], mi[j], q->D);
                }
            continue;
        }
        if (same) { /* M_ij - s u_i M_rj / D, each quotient exact */
            for (int t = 0; t < nnz; t++) {
                mpz_mul(q->t, q->u[i], mr[q->nz[t]]);
                if (!unit)
                    mpz_divexact(q->t, q->t, q->D);
                if (sg < 0)
                    mpz_add(mi[q->nz[t]], mi[q->nz[t]], q->t);
                else
                    mpz_sub(mi[q->nz[t]], mi[q->nz[t]], q->t);
            }
            continue;
        }
        for (int j = 0; j < k; j++)
            if (mpz_sgn(mi[j]) != 0)
                mpz_mul(mi[j], mi[j], *p);
        if (sg < 0)
            for (int t = 0; t < nnz; t++)
                mpz_addmul(mi[q->nz[t]], q->u[i], mr[q->nz[t]]);
        else
            for (int t = 0; t < nnz; t++)
                mpz_submul(mi[q->nz[t]], q->u[i], mr[q->nz[t]]);
        if (!unit)
            for (int j = 0; j < k; j++)
                if (mpz_sgn(mi[j]) != 0)
                    mpz_divexact(mi[j], mi[j], q->D);
    }
    if (sg < 0)
        for (int t = 0; t < nnz; t++)
            mpz_neg(mr[q->nz[t]], mr[q->nz[t]]);
    mpz_set(q->D, *p);
    return 0;
}

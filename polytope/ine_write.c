/* ine_write.c -- write an H-representation in cddlib format, exactly. */
#include <stdlib.h>

#include "polytope/hpoly.h"
#include "polytope/rational.h"
#include "polytope/error.h"

static int write_entry(const hs_poly *p, int i, int j, int negate, mpq_t v, FILE *out)
{
    hpoly_get_q(p, i, j, v);
    if (negate)
        mpq_neg(v, v);
    char *s = q_to_string(v);
    if (!s)
        return -1;
    int rc = fprintf(out, "%s%s", j == p->n ? "" : " ", s);
    free(s);
    return rc < 0 ? -1 : 0;
}

hs_code hs_poly_write(const hs_poly *p, FILE *out, hs_error *err)
{
    if (!p || !out)
        return err_set(err, HS_ERR_ARG, "hs_poly_write: NULL argument");
    int nlin = 0;
    for (int i = 0; i < p->m; i++)
        nlin += p->eq[i] != 0;
    int bad = fprintf(out, "* %s, written exactly by halfspace\nH-representation\n",
                      p->name) < 0;
    if (nlin) {
        bad |= fprintf(out, "linearity %d", nlin) < 0;
        for (int i = 0; i < p->m; i++)
            if (p->eq[i])
                bad |= fprintf(out, " %d", i + 1) < 0;
        bad |= fputc('\n', out) == EOF;
    }
    bad |= fprintf(out, "begin\n%d %d rational\n", p->m, p->n + 1) < 0;
    mpq_t v;
    mpq_init(v);
    for (int i = 0; i < p->m && !bad; i++) {
        bad |= write_entry(p, i, p->n, 0, v, out) != 0; /* b first */
        for (int j = 0; j < p->n && !bad; j++)
            bad |= write_entry(p, i, j, 1, v, out) != 0; /* then -a */
        bad |= fputc('\n', out) == EOF;
    }
    mpq_clear(v);
    bad |= fprintf(out, "end\n") < 0;
    if (bad)
        return err_set(err, HS_ERR_IO, "%s: write error", p->name);
    return HS_OK;
}

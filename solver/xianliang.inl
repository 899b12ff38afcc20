/* xianliang.inl -- seed 002, section 2, the routine xianliang ("vector
 * location", Steps 1-6): a point of {x : A x <= b}, or none.  Split the
 * rows by the sign of the first variable's coefficient; rows without it
 * form a system one variable smaller, solved first (Step 3); the free
 * variable is pushed to its tightest bound (Step 4) or one inequality of
 * the larger side becomes an equality, the variable is eliminated with it
 * and the smaller system is solved recursively (Steps 5-6).  Compiled as
 * part of seed_d.c and seed_q.c after seed_base.inl. */

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

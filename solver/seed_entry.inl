/* seed_entry.inl -- the entry points of the seed-002 routines (seed.h):
 * option checks, the systems loaded from the polyhedra (equality rows as
 * two inequalities), the context opened and closed around one call.
 * Compiled as part of seed_d.c and seed_q.c after qiujiao.inl. */

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

int SEED_FEASIBLE(const hs_poly *P, const hs_options *opt, NUM *x, long *nodes, hs_error *err)
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

int SEED_INTERSECT(const hs_poly *A, const hs_poly *B, const hs_options *opt, NUM *x,
                    long *nodes, hs_error *err)
{
    return SEED_INTERSECT_STEPS(A, B, opt, NULL, NULL, x, nodes, err);
}

int SEED_INTERSECT_STEPS(const hs_poly *A, const hs_poly *B, const hs_options *opt,
                          seed_step_fn fn, void *user, NUM *x, long *nodes, hs_error *err)
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
    c.step_fn = fn;
    c.step_user = user;
    sys SA, SB;
    int *var = identity_variables(&c, A->n);
    int rc = -1;
    if (var && load_system(&c, A, 0, var, &SA) == 0 && load_system(&c, B, 1, var, &SB) == 0)
        rc = qiujiao(&c, &SA, &SB, x, 0);
    return ctx_close(&c, rc, nodes, err);
}

/* qiujiao.inl -- seed 002, section 2, the routine qiujiao ("intersection",
 * Steps 1-8): does {A x <= a} meet {B x <= b}?  Take s in A and t in B
 * (xianliang); when s lies in B or t in A the answer is yes; otherwise
 * only faces whose normals point along t - s (faces of A with a.(t - s) >
 * 0, of B with b.(t - s) < 0) can hold a common point, so the search
 * restricts both systems to each such face's hyperplane (one variable
 * eliminated) and recurses.  Compiled as part of seed_d.c and seed_q.c
 * after xianliang.inl. */

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

/* The steps hook (seed.h): s and t chosen (kind POINTS), or Step 5's
 * outcome (kind STEP5: inside 1 or 2 with the point out, or 0 with the
 * rows s and t violate). */
static void step_points(ctx *c, seed_step_kind kind, const sys *A, const sys *B, NUM *s, NUM *t,
                        int depth, int inside, int s_out, int t_out, NUM *out)
{
    if (!c->step_fn)
        return;
    step_build b;
    step_begin(c, &b, kind, depth, A, B);
    b.st.s = step_point(c, &b, s, A->k);
    b.st.t = step_point(c, &b, t, A->k);
    b.st.inside = inside;
    b.st.s_out = s_out;
    b.st.t_out = t_out;
    if (out)
        b.st.point = step_point(c, &b, out, A->k);
    step_send(c, &b);
}

/* Seed 002, section 2, qiujiao Step 5: s in B or t in A answers TRUE
 * with that point (returns 1); otherwise 0. */
static int qiujiao_step5(ctx *c, const sys *A, const sys *B, NUM *s, NUM *t, NUM *out,
                         int depth)
{
    int in_b = first_violated_row(c, B, s);
    if (in_b < 0) {
        copy_point(out, s, A->k);
        trace_point_line(c, "Step 5: s is in B -> TRUE, point ", A, out, "");
        step_points(c, SEED_STEP_STEP5, A, B, s, t, depth, 1, -1, -1, out);
        return 1;
    }
    int in_a = first_violated_row(c, A, t);
    if (in_a < 0) {
        copy_point(out, t, A->k);
        trace_point_line(c, "Step 5: t is in A -> TRUE, point ", A, out, "");
        step_points(c, SEED_STEP_STEP5, A, B, s, t, depth, 2, -1, -1, out);
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
    step_points(c, SEED_STEP_STEP5, A, B, s, t, depth, 0, in_b, in_a, NULL);
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
    if (rc >= 0 && c->step_fn) {
        step_build b;
        step_begin(c, &b, SEED_STEP_FACE, depth, A, B);
        b.st.use_a = use_a;
        b.st.face = face;
        b.st.elim = d;
        b.st.restricted = rc == 1;
        if (rc == 1) {
            step_view(c, &b, &RA, &b.st.RA);
            step_view(c, &b, &RB, &b.st.RB);
        }
        step_send(c, &b);
    }
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
        if (c->step_fn) {
            step_build b;
            step_begin(c, &b, SEED_STEP_LIFTED, depth, A, B);
            b.st.use_a = use_a;
            b.st.face = face;
            b.st.elim = d;
            b.st.point = step_point(c, &b, out, A->k);
            b.st.reduced_point = step_point(c, &b, y, A->k - 1);
            step_send(c, &b);
        }
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
    if (c->step_fn) {
        step_build b;
        step_begin(c, &b, SEED_STEP_CANDIDATES, depth, A, B);
        b.st.s = step_point(c, &b, s, k);
        b.st.t = step_point(c, &b, t, k);
        b.st.dir = step_point(c, &b, dir, k);
        b.st.use_a = use_a;
        b.st.ncand = nc;
        b.st.cand = cand;
        step_send(c, &b);
    }
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
        if (c->step_fn) {
            step_build b;
            step_begin(c, &b, SEED_STEP_TRUE, depth, A, B);
            b.st.point = step_point(c, &b, out, k);
            step_send(c, &b);
        }
        return 1;
    }
    NUM *s = take_nums(c, (size_t)(k ? k : 1)), *t = take_nums(c, (size_t)(k ? k : 1));
    if (!s || !t)
        return -1;
    int rc = qiujiao_points(c, A, B, s, t, depth);
    if (rc == 1)
        step_points(c, SEED_STEP_POINTS, A, B, s, t, depth, 0, -1, -1, NULL);
    if (rc == 1)
        rc = qiujiao_step5(c, A, B, s, t, out, depth) ? 1
                                                      : qiujiao_faces(c, A, B, s, t, out, depth);
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
    if (c->step_fn) {
        step_build b;
        step_begin(c, &b, SEED_STEP_NODE, depth, A, B);
        step_send(c, &b);
    }
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
    if (rc == 0 && c->step_fn) {
        step_build b;
        step_begin(c, &b, SEED_STEP_FALSE, depth, A, B);
        step_send(c, &b);
    }
    return rc;
}

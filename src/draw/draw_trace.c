/* draw_trace.c -- `halfspace draw --trace`: the walk of the seed's
 * recursion (qiujiao, solver/qiujiao.inl) as one frame per step, built
 * from the steps hook (solver/seed.h) with the trace lines of each step:
 *
 *   node        a call of qiujiao: A and B at this level;
 *   points      s in A and t in B (Step 3, or replayed), the segment;
 *   step5       s in B or t in A (the point found), or the rows they violate;
 *   candidates  the faces along t - s (Steps 6-7), highlighted;
 *   face        the face made an equality (left) and the reduced systems
 *               in that hyperplane's own coordinates (right);
 *   lifted      the point found there (right) lifted back (left);
 *   true/false  the answer of this call.
 *
 * The engine fast is drawn by draw_fast.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "polytope/error.h"
#include "polytope/mem.h"
#include "solver/seed.h"
#include "src/draw/canvas.h"
#include "src/draw/draw.h"
#include "src/draw/frames.h"

enum { WALK_MAX_DEPTH = 4 };

/* What the walk remembers per depth for the frames after a step. */
typedef struct walk_level {
    int have_st;
    double s[3], t[3];
    int use_a, ncand, cand[64];
    int face_frame;          /* index of the last face frame, -1 */
} walk_level;

typedef struct walk {
    tframes *t;
    int n;                   /* variables of the input */
    int replay;
    double az, el;
    walk_level lvl[WALK_MAX_DEPTH];
} walk;

static void var_names(const walk *w, panel *p, const int *var, int k)
{
    for (int j = 0; j < k && j < 3; j++) {
        if (w->n <= 3)
            snprintf(p->axis[j], sizeof p->axis[j], "%c", "xyz"[var[j] % 3]);
        else
            snprintf(p->axis[j], sizeof p->axis[j], "x%d", var[j] + 1);
    }
}

static dsys *dsys_from_view(const seed_sys_view *v, int which)
{
    dsys *s = dsys_new(v->k, v->m, which, which ? 'B' : 'A');
    if (!s)
        return NULL;
    memcpy(s->c, v->c, sizeof *s->c * (size_t)v->m * (size_t)(v->k + 1));
    for (int i = 0; i < v->m; i++)
        s->label[i] = v->row[i] + 1;
    return s;
}

static dsys *dsys_copy(const dsys *a)
{
    dsys *s = a ? dsys_new(a->n, a->m, a->which, a->prefix) : NULL;
    if (!s)
        return NULL;
    memcpy(s->c, a->c, sizeof *s->c * (size_t)a->m * (size_t)(a->n + 1));
    memcpy(s->label, a->label, sizeof *s->label * (size_t)a->m);
    return s;
}

static void point_label(char *buf, size_t size, const char *what, const double *x, int k)
{
    int len = snprintf(buf, size, "%s (", what);
    for (int j = 0; j < k && len < (int)size; j++)
        len += snprintf(buf + len, size - (size_t)len, "%s%.4g", j ? ", " : "", x[j]);
    if (len < (int)size)
        snprintf(buf + len, size - (size_t)len, ")");
}

static void row_name(char *buf, size_t size, const seed_sys_view *v, int i, char side)
{
    snprintf(buf, size, "%c%d", side, i >= 0 && i < v->m ? v->row[i] + 1 : 0);
}

/* The left panel of a step: A and B of this level. */
static tframe *walk_frame(walk *w, const seed_step *st, const char *kind)
{
    tframe *f = tframes_add(w->t, st->depth, kind, st->k);
    if (!f)
        return NULL;
    f->left.sys[0] = tframe_own(f, dsys_from_view(&st->A, 0));
    f->left.sys[1] = tframe_own(f, dsys_from_view(&st->B, 1));
    if (!f->left.sys[0] || !f->left.sys[1])
        w->t->nomem = 1;
    f->left.common = 1;
    f->left.az = w->az;
    f->left.el = w->el;
    f->right.az = w->az;
    f->right.el = w->el;
    var_names(w, &f->left, st->var, st->k);
    return f;
}

static void with_segment(tframe *f, const walk_level *L, int k)
{
    if (!L->have_st)
        return;
    f->left.seg = 1;
    for (int j = 0; j < k; j++)
        f->left.s[j] = L->s[j], f->left.t[j] = L->t[j];
    panel_add_point(&f->left, L->s, INK_S, PT_DOT, "s");
    panel_add_point(&f->left, L->t, INK_T, PT_DOT, "t");
}

static void mark_candidates(tframe *f, const walk_level *L)
{
    dsys *x = (dsys *)f->left.sys[L->use_a ? 0 : 1];
    for (int i = 0; x && i < L->ncand; i++)
        if (L->cand[i] < x->m)
            x->role[L->cand[i]] = ROLE_CANDIDATE;
}

/* The right panel of a face frame: the reduced systems in the face's
 * coordinates (the variables left after eliminating elim). */
static void face_panel(walk *w, tframe *f, const seed_step *st, const dsys *ra, const dsys *rb)
{
    int var[3] = {0, 0, 0}, k = 0;
    for (int j = 0; j < st->k && k < 3; j++)
        if (j != st->elim)
            var[k++] = st->var[j];
    f->two = 1;
    f->left.w = FRAME_W / 2;
    f->right.sys[0] = ra;
    f->right.sys[1] = rb;
    f->right.common = 1;
    var_names(w, &f->right, var, k);
    char names[64] = "";
    for (int j = 0; j < k; j++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", j ? ", " : "",
                 f->right.axis[j]);
    snprintf(f->right.title, sizeof f->right.title, "on the face: the reduced systems in (%s)",
             names);
}

static void on_node(walk *w, const seed_step *st)
{
    tframe *f = walk_frame(w, st, "node");
    if (!f)
        return;
    w->lvl[st->depth] = (walk_level){0};
    w->lvl[st->depth].face_frame = -1;
    snprintf(f->title, sizeof f->title, "qiujiao, depth %d: does A meet B? %d variable%s, |A| = %d, |B| = %d",
             st->depth, st->k, st->k == 1 ? "" : "s", st->A.m, st->B.m);
}

static void on_points(walk *w, const seed_step *st)
{
    walk_level *L = &w->lvl[st->depth];
    L->have_st = 1;
    for (int j = 0; j < st->k; j++)
        L->s[j] = st->s[j], L->t[j] = st->t[j];
    tframe *f = walk_frame(w, st, "points");
    if (!f)
        return;
    with_segment(f, L, st->k);
    if (w->replay && st->depth == 0)
        snprintf(f->title, sizeof f->title, "replayed s in A and t in B (the paper's), the segment s -> t");
    else
        snprintf(f->title, sizeof f->title, "Step 3: s in A and t in B (vector location), the segment s -> t");
}

static void on_step5(walk *w, const seed_step *st)
{
    walk_level *L = &w->lvl[st->depth];
    tframe *f = walk_frame(w, st, "step5");
    if (!f)
        return;
    with_segment(f, L, st->k);
    if (st->inside) {
        char lab[96];
        point_label(lab, sizeof lab, "point found", st->point, st->k);
        panel_add_point(&f->left, st->point, INK_WITNESS, PT_WITNESS, lab);
        snprintf(f->title, sizeof f->title, "Step 5: %s -> TRUE",
                 st->inside == 1 ? "s is in B" : "t is in A");
        return;
    }
    char sb[16], ta[16];
    row_name(sb, sizeof sb, &st->B, st->s_out, 'B');
    row_name(ta, sizeof ta, &st->A, st->t_out, 'A');
    if (st->s_out >= 0 && st->s_out < st->B.m)
        ((dsys *)f->left.sys[1])->role[st->s_out] = ROLE_VIOLATED;
    if (st->t_out >= 0 && st->t_out < st->A.m)
        ((dsys *)f->left.sys[0])->role[st->t_out] = ROLE_VIOLATED;
    snprintf(f->title, sizeof f->title, "Step 5: s is not in B (violates %s), t is not in A (violates %s)",
             sb, ta);
}

static void on_candidates(walk *w, const seed_step *st)
{
    walk_level *L = &w->lvl[st->depth];
    L->use_a = st->use_a;
    L->ncand = st->ncand < 64 ? st->ncand : 64;
    for (int i = 0; i < L->ncand; i++)
        L->cand[i] = st->cand[i];
    tframe *f = walk_frame(w, st, "candidates");
    if (!f)
        return;
    with_segment(f, L, st->k);
    mark_candidates(f, L);
    int len = snprintf(f->title, sizeof f->title, "Step %d: candidate faces of %c %s:",
                       st->use_a ? 6 : 7, st->use_a ? 'A' : 'B',
                       st->use_a ? "with a.(t - s) > 0" : "with r.(t - s) < 0");
    const seed_sys_view *X = st->use_a ? &st->A : &st->B;
    for (int i = 0; i < st->ncand && len < (int)sizeof f->title - 8; i++) {
        char nm[16];
        row_name(nm, sizeof nm, X, st->cand[i], st->use_a ? 'A' : 'B');
        len += snprintf(f->title + len, sizeof f->title - (size_t)len, "%s %s", i ? "," : "", nm);
    }
    if (st->ncand == 0)
        snprintf(f->title + len, sizeof f->title - (size_t)len, " none");
}

static void face_roles(tframe *f, const walk_level *L, const seed_step *st)
{
    mark_candidates(f, L);
    dsys *x = (dsys *)f->left.sys[st->use_a ? 0 : 1];
    if (x && st->face >= 0 && st->face < x->m)
        x->role[st->face] = ROLE_FACE;
}

static void on_face(walk *w, const seed_step *st)
{
    walk_level *L = &w->lvl[st->depth];
    tframe *f = walk_frame(w, st, "face");
    if (!f)
        return;
    L->face_frame = w->t->n - 1;
    with_segment(f, L, st->k);
    face_roles(f, L, st);
    char nm[16];
    row_name(nm, sizeof nm, st->use_a ? &st->A : &st->B, st->face, st->use_a ? 'A' : 'B');
    snprintf(f->title, sizeof f->title, "%s becomes an equality; eliminate %s%s", nm,
             f->left.axis[st->elim < 3 ? st->elim : 0],
             st->restricted ? "" : ": a contradiction, no common point on this face");
    if (!st->restricted)
        return;
    dsys *ra = tframe_own(f, dsys_from_view(&st->RA, 0));
    dsys *rb = tframe_own(f, dsys_from_view(&st->RB, 1));
    if (!ra || !rb) {
        w->t->nomem = 1;
        return;
    }
    face_panel(w, f, st, ra, rb);
}

static void on_lifted(walk *w, const seed_step *st)
{
    walk_level *L = &w->lvl[st->depth];
    tframe *f = walk_frame(w, st, "lifted");
    if (!f)
        return;
    face_roles(f, L, st);
    char lab[96];
    point_label(lab, sizeof lab, "lifted", st->point, st->k);
    panel_add_point(&f->left, st->point, INK_LIFTED, PT_WITNESS, lab);
    snprintf(f->title, sizeof f->title, "the point found on the face, lifted back: TRUE");
    if (L->face_frame < 0)
        return;
    const tframe *ff = &w->t->f[L->face_frame];
    if (!ff->two)
        return;
    dsys *ra = tframe_own(f, dsys_copy(ff->right.sys[0]));
    dsys *rb = tframe_own(f, dsys_copy(ff->right.sys[1]));
    if (!ra || !rb) {
        w->t->nomem = 1;
        return;
    }
    face_panel(w, f, st, ra, rb);
    point_label(lab, sizeof lab, "point found", st->reduced_point, st->k - 1);
    panel_add_point(&f->right, st->reduced_point, INK_WITNESS, PT_WITNESS, lab);
}

static void on_answer(walk *w, const seed_step *st, int yes)
{
    tframe *f = walk_frame(w, st, yes ? "true" : "false");
    if (!f)
        return;
    if (yes) {
        panel_add_point(&f->left, st->point, INK_WITNESS, PT_WITNESS, "point");
        snprintf(f->title, sizeof f->title, "Step 1: only constant rows -> TRUE");
    } else {
        snprintf(f->title, sizeof f->title, "depth %d answers FALSE: no common point here",
                 st->depth);
        snprintf(f->left.note, sizeof f->left.note, "FALSE");
    }
}

static void walk_step(void *user, const seed_step *st)
{
    walk *w = user;
    if (w->t->nomem || st->depth >= WALK_MAX_DEPTH || st->k > 3)
        return;
    switch (st->kind) {
    case SEED_STEP_NODE: on_node(w, st); break;
    case SEED_STEP_POINTS: on_points(w, st); break;
    case SEED_STEP_STEP5: on_step5(w, st); break;
    case SEED_STEP_CANDIDATES: on_candidates(w, st); break;
    case SEED_STEP_FACE: on_face(w, st); break;
    case SEED_STEP_LIFTED: on_lifted(w, st); break;
    case SEED_STEP_TRUE: on_answer(w, st, 1); break;
    case SEED_STEP_FALSE: on_answer(w, st, 0); break;
    }
}

/* The seed's walk over doubles (faithful) or rationals (faithful-exact). */
static hs_code seed_walk_frames(const hs_poly *A, const hs_poly *B, const hs_options *q,
                                const draw_opts *o, tframes *t, hs_error *err)
{
    walk w;
    memset(&w, 0, sizeof w);
    w.t = t;
    w.n = hs_poly_dim(A);
    w.replay = q->replay_s && q->replay_t;
    w.az = o->have_view ? o->az : -60;
    w.el = o->have_view ? o->el : 25;
    hs_options opt = *q;
    opt.trace = tframes_trace_line;
    opt.trace_user = t;
    long nodes = 0;
    int got;
    if (q->engine == HS_ENGINE_FAITHFUL_EXACT) {
        mpq_t x[3];
        for (int j = 0; j < 3; j++)
            mpq_init(x[j]);
        got = seed_intersect_steps_q(A, B, &opt, walk_step, &w, x, &nodes, err);
        for (int j = 0; j < 3; j++)
            mpq_clear(x[j]);
    } else {
        double x[3];
        got = seed_intersect_steps_d(A, B, &opt, walk_step, &w, x, &nodes, err);
    }
    if (got < 0)
        return err->code;
    snprintf(t->title, sizeof t->title, "%s and %s: the seed's recursion (engine %s): %s, %ld calls",
             hs_poly_name(A), hs_poly_name(B), hs_engine_name(q->engine),
             got ? "intersect" : "disjoint", nodes);
    return HS_OK;
}

/* mkdir -p dir. */
static hs_code make_dir(const char *dir, hs_error *err)
{
    char *path = mem_strdup(dir);
    if (!path)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    for (char *p = path + 1;; p++) {
        int end = *p == '\0';
        if (*p != '/' && !end)
            continue;
        *p = '\0';
        struct stat sb;
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            hs_code rc = err_set(err, HS_ERR_IO, "%s: cannot make the directory", path);
            free(path);
            return rc;
        }
        if (end) {
            int ok = stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
            free(path);
            return ok ? HS_OK : err_set(err, HS_ERR_IO, "%s: not a directory", dir);
        }
        *p = '/';
    }
}

hs_code draw_trace_pages(const hs_poly *A, const hs_poly *B, const hs_options *q,
                         const draw_opts *o, int *frames, hs_error *err)
{
    int n = hs_poly_dim(A);
    if (n < 1 || n > 3 || hs_poly_dim(B) != n)
        return err_set(err, HS_ERR_INPUT, "--trace draws pairs of 1, 2 or 3 variables (%s: %d, "
                                          "%s: %d)", hs_poly_name(A), n, hs_poly_name(B),
                       hs_poly_dim(B));
    char *dir = mem_strdup(o->out);
    if (!dir)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    for (size_t len = strlen(dir); len > 1 && dir[len - 1] == '/'; len--)
        dir[len - 1] = '\0'; /* "DIR/" is DIR */
    hs_code rc = make_dir(dir, err);
    if (rc != HS_OK) {
        free(dir);
        return rc;
    }
    tframes t;
    tframes_init(&t);
    if (q->engine == HS_ENGINE_FAST)
        rc = fast_walk_frames(A, B, q, &t, err);
    else
        rc = seed_walk_frames(A, B, q, o, &t, err);
    tframes_finish(&t);
    if (rc == HS_OK && t.nomem)
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    if (rc == HS_OK)
        rc = tframes_write(&t, dir, o->png_frames, err);
    if (frames)
        *frames = t.n;
    tframes_free(&t);
    canvas_release_fonts();
    free(dir);
    return rc;
}

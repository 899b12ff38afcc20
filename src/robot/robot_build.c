/* robot_build.c -- a checked URDF model (robot_tree.c) made a robot:
 * links and joints in depth-first order, the coordinates, the pieces of
 * every link (robot_shapes.c), the links' boxes, balls and reaches, the
 * adjacent pairs, and the rest configuration.  (The automatic skip list
 * is made by the loader, robot_load.c.) */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/mem.h"
#include "src/robot/robot_build.h"
#include "src/robot/robot_tree.h"
#include "src/shape/pose.h"

/* What a link's shapes became, before the pieces are built. */
typedef struct link_src {
    robot_mesh *mesh;     /* one per made shape */
    int *shape;           /* its shape index in the model's link */
    int n;
} link_src;

static void free_sources(link_src *src, int n)
{
    if (!src)
        return;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < src[i].n; k++)
            robot_mesh_free(&src[i].mesh[k]);
        free(src[i].mesh);
        free(src[i].shape);
    }
    free(src);
}

/* Every shape of model link ml made points or a mesh. */
static hs_code make_sources(urdf_model *m, int ml, const hs_robot_options *o, link_src *s,
                            hs_error *err)
{
    const urdf_link *L = &m->link[ml];
    if (L->nshapes == 0)
        return HS_OK;
    s->mesh = mem_calloc((size_t)L->nshapes, sizeof *s->mesh);
    s->shape = mem_alloc((size_t)L->nshapes, sizeof(int));
    if (!s->mesh || !s->shape)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    for (int k = 0; k < L->nshapes; k++) {
        int skipped = 0;
        hs_code rc = robot_shape_make(&L->shape[k], m, o, &s->mesh[s->n], &skipped, err);
        if (rc != HS_OK)
            return rc;
        if (skipped)
            continue;
        s->shape[s->n++] = k;
    }
    return HS_OK;
}

/* ------------------------------------------------------------ joints */

static void make_joint(const urdf_model *m, const robot_tree *t, int mj, const int *rank,
                       robot_joint *J)
{
    const urdf_joint *U = &m->joint[mj];
    J->type = U->type;
    J->parent = rank[t->jparent[mj]];
    J->child = rank[t->jchild[mj]];
    memcpy(J->origin, U->origin, sizeof J->origin);
    double n = sqrt(U->axis[0] * U->axis[0] + U->axis[1] * U->axis[1] + U->axis[2] * U->axis[2]);
    for (int k = 0; k < 3; k++)
        J->axis[k] = n > 0 ? U->axis[k] / n : (k == 0);
    J->lo = -HUGE_VAL;
    J->hi = HUGE_VAL;
    if (U->type == HS_ROBOT_REVOLUTE || U->type == HS_ROBOT_PRISMATIC) {
        J->lo = U->lo;
        J->hi = U->hi;
    }
    J->coord = -1;
    J->mimic = -1;
    J->mult = t->mult[mj];
    J->offset = t->off[mj];
    hs_pose_identity(J->free);
}

/* ------------------------------------------------------------ pieces */

static hs_code add_piece(robot_link *L, geom *g, hs_error *err)
{
    if (L->npiece == L->cap) {
        int cap = L->cap ? 2 * L->cap : 2;
        geom **p = mem_realloc(L->piece, (size_t)cap, sizeof *p);
        if (!p)
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        L->piece = p;
        L->cap = cap;
    }
    geom_retain(g);
    L->piece[L->npiece++] = g;
    L->nmesh += g->kind == PIECE_MESH;
    return HS_OK;
}

/* The pieces of robot link x from its sources. */
static hs_code build_pieces(hs_robot *r, int x, urdf_model *m, int ml, const link_src *s,
                            hs_error *err)
{
    robot_link *L = &r->link[x];
    for (int k = 0; k < s->n; k++) {
        geom *g = robot_shape_geom(&s->mesh[k], m, &m->link[ml].shape[s->shape[k]], err);
        if (!g)
            return err ? err->code : HS_ERR_INPUT;
        if (add_piece(L, g, err) != HS_OK) {
            geom_release(g);
            return HS_ERR_NOMEM;
        }
    }
    return HS_OK;
}

/* The link's box (around its pieces' boxes), ball (around the box) and
 * reach. */
static void link_extent(robot_link *L)
{
    double reach = 0;
    for (int k = 0; k < L->npiece; k++) {
        const geom *g = L->piece[k];
        if (k == 0)
            L->box = g->obb;
        else
            hs_obb_merge(&L->box, &L->box, &g->obb);
        int n = g->kind == PIECE_CONVEX ? g->nverts : g->nmv;
        const double *v = g->kind == PIECE_CONVEX ? g->verts : g->mv;
        for (int i = 0; i < n; i++) {
            double d = sqrt(v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] +
                            v[3 * i + 2] * v[3 * i + 2]);
            if (d > reach)
                reach = d;
        }
    }
    /* vertices of a convex piece are its exact vertices rounded: 2^-40
     * covers that and the rounding of the norm */
    L->reach = reach * (1 + 0x1p-40) + 0x1p-1000;
    if (L->npiece > 0) {
        const double *h = L->box.half;
        memcpy(L->ball_c, L->box.center, sizeof L->ball_c);
        L->ball_r = sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]) * (1 + 0x1p-40) + 0x1p-1000;
    }
}

/* ------------------------------------------------------------ adjacency */

/* Step from link a's walk to its neighbour y: a link with pieces is
 * adjacent to a, a link without is walked through. */
static int adj_visit(hs_robot *r, int a, int y, int *mark, int *stack, int *top)
{
    if (y < 0 || mark[y] == a)
        return 0;
    mark[y] = a;
    if (r->link[y].npiece == 0)
        stack[(*top)++] = y;
    else if (y > a && robot_skip_set(r, a, y, HS_ROBOT_ADJACENT) != 0)
        return -1;
    return 0;
}

/* Pairs of links with pieces joined by a joint, or through links without
 * pieces only: from each such link a walk over piece-less neighbours. */
static hs_code adjacency(hs_robot *r, hs_error *err)
{
    int n = r->nlinks;
    int *stack = mem_alloc((size_t)n + 1, sizeof(int));
    int *mark = mem_alloc((size_t)n, sizeof(int));
    int *first = mem_alloc((size_t)n, sizeof(int)), *next = mem_alloc((size_t)n, sizeof(int));
    int bad = !stack || !mark || !first || !next;
    if (!bad) {
        for (int i = 0; i < n; i++)
            mark[i] = first[i] = -1;
        for (int i = n - 1; i >= 1; i--) { /* children lists */
            int p = r->joint[i - 1].parent;
            next[i] = first[p];
            first[p] = i;
        }
    }
    for (int a = 0; a < n && !bad; a++) {
        if (r->link[a].npiece == 0)
            continue;
        int top = 0;
        stack[top++] = a;
        mark[a] = a;
        while (top > 0 && !bad) {
            int x = stack[--top];
            bad = adj_visit(r, a, x > 0 ? r->joint[x - 1].parent : -1, mark, stack, &top);
            for (int c = first[x]; c >= 0 && !bad; c = next[c])
                bad = adj_visit(r, a, c, mark, stack, &top);
        }
    }
    free(stack);
    free(mark);
    free(first);
    free(next);
    return bad ? err_set(err, HS_ERR_NOMEM, "out of memory") : HS_OK;
}

/* ------------------------------------------------------------ robot */

/* The line of a warning "FILE:LINE: ..." (0 if none can be read). */
static long warning_line(const char *w, size_t file_len)
{
    return strlen(w) > file_len && w[file_len] == ':' ? strtol(w + file_len + 1, NULL, 10) : 0;
}

/* The model's warnings in line order (those of the XML pass and those of
 * the meshes, made later, interleaved): a stable insertion sort. */
static void sort_warnings(urdf_model *m)
{
    size_t fl = strlen(m->file);
    for (int i = 1; i < m->nwarn; i++) {
        char *w = m->warn[i];
        long line = warning_line(w, fl);
        int k = i;
        while (k > 0 && warning_line(m->warn[k - 1], fl) > line) {
            m->warn[k] = m->warn[k - 1];
            k--;
        }
        m->warn[k] = w;
    }
}

static hs_code make_links(hs_robot *r, urdf_model *m, const robot_tree *t, int *rank,
                          hs_error *err)
{
    int n = m->nlinks;
    r->nlinks = n;
    r->njoints = n - 1;
    r->link = mem_calloc((size_t)n, sizeof *r->link);
    r->joint = mem_calloc((size_t)n, sizeof *r->joint);
    r->W = mem_alloc((size_t)n, 16 * sizeof(double));
    r->q_free = mem_alloc((size_t)n, sizeof(double));
    r->pose_moved = mem_calloc((size_t)n, 1);
    r->scratch = mem_alloc((size_t)n, 8 * sizeof(double));
    if (!r->link || !r->joint || !r->W || !r->q_free || !r->pose_moved || !r->scratch)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    for (int i = 0; i < n; i++)
        rank[t->order[i]] = i;
    for (int i = 0; i < n; i++) {
        int ml = t->order[i];
        robot_link *L = &r->link[i];
        if (!(L->name = mem_strdup(m->link[ml].name)))
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        if (i == 0)
            continue;
        int mj = t->parent_joint[ml];
        robot_joint *J = &r->joint[i - 1];
        make_joint(m, t, mj, rank, J);
        if (!(J->name = mem_strdup(m->joint[mj].name)))
            return err_set(err, HS_ERR_NOMEM, "out of memory");
        L->depth = r->link[J->parent].depth + 1;
    }
    for (int i = n - 1; i >= 0; i--) { /* subtree ranges */
        if (r->link[i].last < i)
            r->link[i].last = i;
        if (i > 0 && r->link[r->joint[i - 1].parent].last < r->link[i].last)
            r->link[r->joint[i - 1].parent].last = r->link[i].last;
    }
    /* mimic leaders and coordinates */
    for (int j = 0; j < r->njoints; j++) {
        int mj = t->parent_joint[t->order[j + 1]];
        if (t->leader[mj] >= 0)
            r->joint[j].mimic = rank[t->jchild[t->leader[mj]]] - 1;
    }
    r->coord_joint = mem_alloc((size_t)n, sizeof(int));
    r->rest = mem_alloc((size_t)n, sizeof(double));
    if (!r->coord_joint || !r->rest)
        return err_set(err, HS_ERR_NOMEM, "out of memory");
    for (int j = 0; j < r->njoints; j++) {
        robot_joint *J = &r->joint[j];
        int movable = J->type == HS_ROBOT_REVOLUTE || J->type == HS_ROBOT_CONTINUOUS ||
                      J->type == HS_ROBOT_PRISMATIC;
        if (!movable || J->mimic >= 0)
            continue;
        J->coord = r->dof;
        r->rest[r->dof] = J->lo <= 0 && 0 <= J->hi ? 0 : J->lo + (J->hi - J->lo) / 2;
        r->coord_joint[r->dof++] = j;
    }
    return HS_OK;
}

/* A bound on the distance from the base to any point of the robot: the
 * joints' translations, prismatic ranges and the largest reach. */
static void robot_extent(hs_robot *r)
{
    double s = 0, reach = 0;
    for (int j = 0; j < r->njoints; j++) {
        const robot_joint *J = &r->joint[j];
        const double *o = J->origin;
        s += sqrt(o[3] * o[3] + o[7] * o[7] + o[11] * o[11]);
        if (J->type == HS_ROBOT_PRISMATIC)
            s += fmax(fabs(J->lo), fabs(J->hi)) * (J->mimic >= 0 ? fabs(J->mult) : 1);
    }
    for (int i = 0; i < r->nlinks; i++)
        reach = fmax(reach, r->link[i].reach);
    r->size = (s + reach) * (1 + 0x1p-40);
    if (!isfinite(r->size))
        r->size = HUGE_VAL;
}

hs_robot *robot_build(urdf_model *m, const hs_robot_options *o, hs_error *err)
{
    robot_tree t;
    if (robot_tree_make(m, &t, err) != HS_OK)
        return NULL;
    hs_robot *r = mem_calloc(1, sizeof *r);
    int *rank = mem_alloc((size_t)m->nlinks, sizeof(int));
    link_src *src = mem_calloc((size_t)m->nlinks, sizeof *src);
    hs_code rc = r && rank && src ? HS_OK : err_set(err, HS_ERR_NOMEM, "out of memory");
    if (rc == HS_OK) {
        hs_pose_identity(r->base);
        r->name = mem_strdup(m->name ? m->name : "");
        rc = r->name ? make_links(r, m, &t, rank, err)
                     : err_set(err, HS_ERR_NOMEM, "out of memory");
    }
    for (int i = 0; i < m->nlinks && rc == HS_OK; i++)
        rc = make_sources(m, t.order[i], o, &src[i], err);
    for (int i = 0; i < m->nlinks && rc == HS_OK; i++) {
        rc = build_pieces(r, i, m, t.order[i], &src[i], err);
        link_extent(&r->link[i]);
    }
    if (rc == HS_OK)
        rc = adjacency(r, err);
    if (rc == HS_OK) {
        robot_extent(r);
        robot_apply_q(r, r->rest);
    }
    /* the warnings pass to the robot */
    sort_warnings(m);
    for (int k = 0; k < m->nwarn && rc == HS_OK; k++)
        if (robot_add_warning(r, m->warn[k]) != 0)
            rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    free_sources(src, m->nlinks);
    free(rank);
    robot_tree_free(&t);
    if (rc != HS_OK) {
        hs_robot_free(r);
        return NULL;
    }
    return r;
}

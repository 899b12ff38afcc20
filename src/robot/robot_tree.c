/* robot_tree.c -- the tree of a URDF model, checked: unique names, joints
 * naming links that exist, one parent per link, exactly one root, no
 * cycle, joint attributes that fit their type (axis, limits, mimic), and
 * the depth-first order of the links (children in the file order of their
 * joints) that the robot numbers them by.  Every error is "FILE:LINE:
 * what" at the element at fault. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/error.h"
#include "polytope/mem.h"
#include "src/robot/robot_tree.h"

/* ------------------------------------------------------------ names */

typedef struct named {
    const char *name;
    int index;
} named;

static int tree_by_name(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static int find_name(const named *v, int n, const char *name)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, c = strcmp(v[mid].name, name);
        if (c == 0)
            return v[mid].index;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* Sorted names; the first duplicate found into *dup_a < *dup_b (indices)
 * or -1. */
static named *sorted_names(const char *const *names, size_t stride, int n, int *dup_a,
                           int *dup_b)
{
    named *v = mem_alloc((size_t)n + 1, sizeof *v);
    *dup_a = *dup_b = -1;
    if (!v)
        return NULL;
    for (int i = 0; i < n; i++) {
        v[i].name = *(const char *const *)((const char *)names + (size_t)i * stride);
        v[i].index = i;
    }
    qsort(v, (size_t)n, sizeof *v, tree_by_name);
    for (int i = 1; i < n && *dup_a < 0; i++)
        if (strcmp(v[i - 1].name, v[i].name) == 0) {
            *dup_a = v[i - 1].index;
            *dup_b = v[i].index;
        }
    return v;
}

/* ------------------------------------------------------------ joints */

static hs_code tree_check_joint(const urdf_model *m, const urdf_joint *J, hs_error *err)
{
    int movable = J->type == HS_ROBOT_REVOLUTE || J->type == HS_ROBOT_CONTINUOUS ||
                  J->type == HS_ROBOT_PRISMATIC || J->type == HS_ROBOT_PLANAR;
    if (movable) {
        double n2 = J->axis[0] * J->axis[0] + J->axis[1] * J->axis[1] + J->axis[2] * J->axis[2];
        if (!(n2 > 0) || !isfinite(n2))
            return err_at(err, m->file, J->axis_line ? J->axis_line : J->line,
                          "joint '%s': the axis must be nonzero", J->name);
    }
    if (J->type == HS_ROBOT_REVOLUTE || J->type == HS_ROBOT_PRISMATIC) {
        if (!J->has_limit)
            return err_at(err, m->file, J->line, "joint '%s': a %s joint needs <limit lower "
                                                 "upper>", J->name,
                          hs_robot_joint_type_name(J->type));
        if (!(J->lo <= J->hi))
            return err_at(err, m->file, J->limit_line, "joint '%s': lower limit %g is above "
                                                       "the upper limit %g", J->name, J->lo,
                          J->hi);
    }
    return HS_OK;
}

/* The mimic leaders (joint indices, -1 none) with chains of mimics
 * resolved to a joint that mimics none; multipliers and offsets
 * composed into mult[], off[]. */
static hs_code resolve_mimics(const urdf_model *m, const named *jn, robot_tree *t,
                              hs_error *err)
{
    int n = m->njoints;
    for (int j = 0; j < n; j++) {
        t->leader[j] = -1;
        t->mult[j] = 1;
        t->off[j] = 0;
    }
    for (int j = 0; j < n; j++) {
        const urdf_joint *J = &m->joint[j];
        if (!J->mimic)
            continue;
        int L = find_name(jn, n, J->mimic);
        if (L < 0)
            return err_at(err, m->file, J->mimic_line, "joint '%s' mimics '%s', which is not a "
                                                       "joint", J->name, J->mimic);
        if (L == j)
            return err_at(err, m->file, J->mimic_line, "joint '%s' mimics itself", J->name);
        hs_robot_joint_kind ty[2] = {J->type, m->joint[L].type};
        for (int k = 0; k < 2; k++)
            if (ty[k] != HS_ROBOT_REVOLUTE && ty[k] != HS_ROBOT_CONTINUOUS &&
                ty[k] != HS_ROBOT_PRISMATIC)
                return err_at(err, m->file, J->mimic_line, "joint '%s' mimics '%s': %s joint "
                                                           "cannot %s",
                              J->name, J->mimic, hs_robot_joint_type_name(ty[k]),
                              k ? "be mimicked" : "mimic");
        if (!isfinite(J->mult) || !isfinite(J->offset))
            return err_at(err, m->file, J->mimic_line, "joint '%s': mimic values not finite",
                          J->name);
    }
    /* follow each chain of mimics to its end, at most n steps */
    for (int j = 0; j < n; j++) {
        if (!m->joint[j].mimic)
            continue;
        int cur = j, steps = 0;
        double mu = 1, of = 0;
        while (m->joint[cur].mimic) {
            const urdf_joint *J = &m->joint[cur];
            of = of + mu * J->offset; /* q_j = mu (mult q_L + offset) + of */
            mu = mu * J->mult;
            cur = find_name(jn, n, J->mimic);
            if (++steps > n)
                return err_at(err, m->file, m->joint[j].mimic_line, "joint '%s': the mimic "
                                                                    "joints form a cycle",
                              m->joint[j].name);
        }
        t->leader[j] = cur;
        t->mult[j] = mu;
        t->off[j] = of;
    }
    return HS_OK;
}

/* ------------------------------------------------------------ tree */

static hs_code link_joints(const urdf_model *m, const named *ln, robot_tree *t, hs_error *err)
{
    for (int i = 0; i < m->nlinks; i++)
        t->parent_joint[i] = -1;
    for (int j = 0; j < m->njoints; j++) {
        const urdf_joint *J = &m->joint[j];
        int p = find_name(ln, m->nlinks, J->parent), c = find_name(ln, m->nlinks, J->child);
        if (p < 0)
            return err_at(err, m->file, J->parent_line, "joint '%s': parent link '%s' does not "
                                                        "exist", J->name, J->parent);
        if (c < 0)
            return err_at(err, m->file, J->child_line, "joint '%s': child link '%s' does not "
                                                       "exist", J->name, J->child);
        if (p == c)
            return err_at(err, m->file, J->line, "joint '%s' joins link '%s' to itself (a "
                                                 "cycle)", J->name, J->child);
        if (t->parent_joint[c] >= 0)
            return err_at(err, m->file, J->line, "link '%s' has two parent joints, '%s' (line "
                                                 "%d) and '%s'", J->child,
                          m->joint[t->parent_joint[c]].name, m->joint[t->parent_joint[c]].line,
                          J->name);
        t->parent_joint[c] = j;
        t->jparent[j] = p;
        t->jchild[j] = c;
    }
    return HS_OK;
}

static int tree_root_of(const urdf_model *m, const robot_tree *t, int *second)
{
    int root = -1;
    *second = -1;
    for (int i = 0; i < m->nlinks; i++)
        if (t->parent_joint[i] < 0) {
            if (root < 0)
                root = i;
            else if (*second < 0)
                *second = i;
        }
    return root;
}

/* Depth-first order from the root, children in joint order, with an
 * explicit stack.  Returns the number of links reached. */
static int depth_first(const urdf_model *m, robot_tree *t, int root)
{
    int n = m->nlinks, nj = m->njoints;
    /* children lists: first_child / next_sibling over joints in file order */
    int *first = t->tmp, *next = t->tmp + n, *stack = t->tmp + n + nj;
    for (int i = 0; i < n; i++)
        first[i] = -1;
    for (int j = nj - 1; j >= 0; j--) {
        next[j] = first[t->jparent[j]];
        first[t->jparent[j]] = j;
    }
    int count = 0, top = 0;
    stack[top++] = root;
    while (top > 0) {
        int x = stack[--top];
        t->order[count++] = x;
        /* push children in reverse so the first joint's child comes next */
        int k0 = top;
        for (int j = first[x]; j >= 0; j = next[j])
            stack[top++] = t->jchild[j];
        for (int a = k0, b = top - 1; a < b; a++, b--) {
            int s = stack[a];
            stack[a] = stack[b];
            stack[b] = s;
        }
    }
    return count;
}

void robot_tree_free(robot_tree *t)
{
    free(t->parent_joint);
    free(t->jparent);
    free(t->jchild);
    free(t->order);
    free(t->leader);
    free(t->mult);
    free(t->off);
    free(t->tmp);
    memset(t, 0, sizeof *t);
}

hs_code robot_tree_make(const urdf_model *m, robot_tree *t, hs_error *err)
{
    memset(t, 0, sizeof *t);
    int n = m->nlinks, nj = m->njoints;
    if (n == 0)
        return err_at(err, m->file, 1, "the robot has no link");
    t->parent_joint = mem_alloc((size_t)n, sizeof(int));
    t->jparent = mem_alloc((size_t)nj + 1, sizeof(int));
    t->jchild = mem_alloc((size_t)nj + 1, sizeof(int));
    t->order = mem_alloc((size_t)n, sizeof(int));
    t->leader = mem_alloc((size_t)nj + 1, sizeof(int));
    t->mult = mem_alloc((size_t)nj + 1, sizeof(double));
    t->off = mem_alloc((size_t)nj + 1, sizeof(double));
    t->tmp = mem_alloc((size_t)(2 * n + nj + 1), sizeof(int));
    int da, db, ja, jb;
    named *ln = sorted_names((const char *const *)&m->link[0].name, sizeof m->link[0], n, &da,
                             &db);
    named *jn = nj ? sorted_names((const char *const *)&m->joint[0].name, sizeof m->joint[0], nj,
                                  &ja, &jb)
                   : mem_alloc(1, sizeof(named));
    if (!nj)
        ja = jb = -1;
    hs_code rc = HS_OK;
    if (!t->parent_joint || !t->jparent || !t->jchild || !t->order || !t->leader || !t->mult ||
        !t->off || !t->tmp || !ln || !jn)
        rc = err_set(err, HS_ERR_NOMEM, "out of memory");
    else if (da >= 0)
        rc = err_at(err, m->file, m->link[db].line, "a second link named '%s' (the first is at "
                                                    "line %d)", m->link[db].name,
                    m->link[da].line);
    else if (ja >= 0)
        rc = err_at(err, m->file, m->joint[jb].line, "a second joint named '%s' (the first is "
                                                     "at line %d)", m->joint[jb].name,
                    m->joint[ja].line);
    for (int j = 0; j < nj && rc == HS_OK; j++)
        rc = tree_check_joint(m, &m->joint[j], err);
    if (rc == HS_OK)
        rc = link_joints(m, ln, t, err);
    if (rc == HS_OK)
        rc = resolve_mimics(m, jn, t, err);
    if (rc == HS_OK) {
        int second, reached, root = tree_root_of(m, t, &second);
        if (root < 0)
            rc = err_at(err, m->file, m->link[0].line, "no root link: the joints form a cycle "
                                                       "through link '%s'", m->link[0].name);
        else if (second >= 0)
            rc = err_at(err, m->file, m->link[second].line, "two roots: links '%s' (line %d) "
                                                            "and '%s' have no parent joint",
                        m->link[root].name, m->link[root].line, m->link[second].name);
        else if ((reached = depth_first(m, t, root)) < n) {
            /* a link not reached: its parents lead round a cycle */
            unsigned char *seen = calloc((size_t)n, 1);
            int x = -1;
            if (seen) {
                for (int k = 0; k < reached; k++)
                    seen[t->order[k]] = 1;
                for (int i = 0; i < n && x < 0; i++)
                    if (!seen[i])
                        x = i;
            }
            free(seen);
            rc = x < 0 ? err_set(err, HS_ERR_NOMEM, "out of memory")
                       : err_at(err, m->file, m->link[x].line, "link '%s' is on a cycle of "
                                                              "joints (not reached from the "
                                                              "root '%s')", m->link[x].name,
                                m->link[root].name);
        }
    }
    free(ln);
    free(jn);
    if (rc != HS_OK)
        robot_tree_free(t);
    return rc;
}

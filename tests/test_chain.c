/* test_chain.c -- kinematic chains (seed 003's ChainTree): the shortcut
 * hierarchy against forward kinematics; self-collision against a brute
 * force over all pairs (exact, in GMP), after random changes, merged
 * changes, undo sequences, with touching spheres and skip lists; convex
 * pieces; the chain against a world; chain files; argument errors. */
#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/obb.h"
#include "src/chain/chain.h"
#include "src/chain/chain_box.h"
#include "src/chain/chain_piece_tests.h"
#include "tests/helpers.h"

#define U 0x1p-53

static int rng_int(uint64_t *s, int n) { return (int)(t_rng_next(s) % (uint64_t)n); }

/* A random rigid pose: rotation from a quaternion, translation of length
 * about len along a random direction. */
static void random_pose(uint64_t *s, double len, double m[16])
{
    double q[4] = {t_rng_sym(s), t_rng_sym(s), t_rng_sym(s), t_rng_sym(s)};
    if (fabs(q[0]) + fabs(q[1]) + fabs(q[2]) + fabs(q[3]) < 0.1)
        q[0] = 1;
    double t[3] = {len * t_rng_sym(s), len * t_rng_sym(s), len * t_rng_sym(s)};
    ck_assert(hs_pose_from_quat(m, q, t, NULL) == HS_OK);
}

/* A rotation about x by a random angle (a torsion about the bond). */
static void random_torsion(uint64_t *s, double max_angle, double m[16])
{
    double x[3] = {1, 0, 0};
    ck_assert(hs_pose_from_axis_angle(m, x, max_angle * t_rng_sym(s), NULL, NULL) == HS_OK);
}

static hs_chain *new_chain(int n)
{
    hs_error err;
    hs_chain *c = hs_chain_new(n, &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    return c;
}

static void set_joint(hs_chain *c, int i, const double m[16])
{
    hs_error err;
    ck_assert_msg(hs_chain_set_joint(c, i, m, &err) == HS_OK, "%s", err.msg);
}

static void add_sphere(hs_chain *c, int link, double x, double y, double z, double r)
{
    double p[3] = {x, y, z};
    hs_error err;
    ck_assert_msg(hs_chain_add_sphere(c, link, p, r, &err) == HS_OK, "%s", err.msg);
}

/* ------------------------------------------------ forward kinematics */

/* Relative pose of links i <= j by multiplying the joints one by one. */
static void brute_relative(const hs_chain *c, int i, int j, double m[16])
{
    hs_pose_identity(m);
    for (int k = i + 1; k <= j; k++) {
        double J[16];
        hs_chain_get_joint(c, k, J);
        hs_pose_multiply(m, m, J);
    }
}

/* Both products have at most 2 (j - i) roundings of rigid maps whose
 * translations sum to at most T: each entry is within
 * 8 (j - i + 1) u (1 + T) of the exact product (a generous bound). */
static void check_relative(const hs_chain *c, int i, int j, double T)
{
    double a[16], b[16];
    hs_chain_relative_pose(c, i, j, a);
    brute_relative(c, i, j, b);
    double bound = 8.0 * (j - i + 1) * U * (1 + T);
    for (int k = 0; k < 12; k++)
        ck_assert_msg(fabs(a[k] - b[k]) <= bound, "T(%d,%d)[%d]: %.17g vs %.17g", i, j, k, a[k],
                      b[k]);
    ck_assert(a[12] == 0 && a[13] == 0 && a[14] == 0 && a[15] == 1);
}

START_TEST(shortcuts_match_forward_kinematics)
{
    uint64_t s = 11;
    int sizes[] = {1, 2, 3, 7, 8, 9, 37, 64, 100};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        int n = sizes[z];
        hs_chain *c = new_chain(n);
        ck_assert_int_eq(hs_chain_link_count(c), n);
        double T = 0;
        for (int i = 1; i < n; i++) {
            double m[16];
            random_pose(&s, 3, m);
            set_joint(c, i, m);
            T += fabs(m[3]) + fabs(m[7]) + fabs(m[11]);
        }
        for (int round = 0; round < 6; round++) {
            /* a few joints changed at once, merged level by level */
            int idx[5];
            double ms[5 * 16];
            for (int k = 0; k < 5 && n > 1; k++) {
                idx[k] = 1 + rng_int(&s, n - 1);
                random_pose(&s, 3, ms + 16 * k);
                T += 3 * 3;
            }
            hs_error err;
            if (n > 1)
                ck_assert_msg(hs_chain_set_joints(c, idx, ms, 5, &err) == HS_OK, "%s", err.msg);
            for (int k = 0; k < 5 && n > 1; k++) {
                double J[16];
                hs_chain_get_joint(c, idx[k], J);
                /* the last of duplicates wins */
                int last = k;
                for (int q = k + 1; q < 5; q++)
                    if (idx[q] == idx[k])
                        last = q;
                ck_assert(memcmp(J, ms + 16 * last, sizeof J) == 0);
            }
            for (int i = 0; i < n; i++)
                for (int j = i; j < n; j += 1 + j / 4)
                    check_relative(c, i, j, T);
            /* and one joint composed with a change */
            if (n > 1) {
                double d[16];
                int i = 1 + rng_int(&s, n - 1);
                random_torsion(&s, 3, d);
                ck_assert(hs_chain_change_joint(c, i, d, &err) == HS_OK);
                check_relative(c, 0, n - 1, T);
            }
        }
        /* inverse order, world poses with a base */
        double base[16], m[16], w[16], r[16], inv[16];
        random_pose(&s, 10, base);
        hs_error err;
        ck_assert(hs_chain_set_base(c, base, &err) == HS_OK);
        hs_chain_link_pose(c, n - 1, w);
        brute_relative(c, 0, n - 1, r);
        hs_pose_multiply(m, base, r);
        for (int k = 0; k < 12; k++)
            ck_assert(fabs(w[k] - m[k]) <= 8.0 * (n + 1) * U * (10 + T));
        if (n > 2) {
            hs_chain_relative_pose(c, n - 1, 1, inv);
            hs_chain_relative_pose(c, 1, n - 1, r);
            hs_pose_multiply(m, inv, r);
            for (int k = 0; k < 12; k++)
                ck_assert(fabs(m[k] - (k % 5 == 0)) <= 1e-9 * (1 + T));
        }
        hs_chain_free(c);
    }
}
END_TEST

/* ------------------------------------------------ brute-force self-collision */

/* Sphere chains for the brute force: one sphere per link (centre, radius
 * kept here), link j's centre mapped into link i's frame by the chain's
 * own relative pose (the posed numbers the library decides exactly). */
typedef struct sphere_chain {
    hs_chain *c;
    int n;
    double *ctr, *rad;
    unsigned char *skip; /* n * n, symmetric: pairs on the skip list */
    int adjacent;        /* adjacent pairs skipped */
} sphere_chain;

static void brute_pairs(const sphere_chain *sc, int **pairs, int *np)
{
    int cap = 16, k = 0;
    int *p = malloc(sizeof(int) * 2 * (size_t)cap);
    for (int i = 0; i < sc->n; i++)
        for (int j = i + 1; j < sc->n; j++) {
            if ((sc->adjacent && j == i + 1) || sc->skip[i * sc->n + j] || sc->rad[i] == 0 ||
                sc->rad[j] == 0)
                continue; /* skipped, or a link without a sphere */
            double m[16], q[3];
            hs_chain_relative_pose(sc->c, i, j, m);
            for (int a = 0; a < 3; a++)
                q[a] = m[4 * a] * sc->ctr[3 * j] + m[4 * a + 1] * sc->ctr[3 * j + 1] +
                       m[4 * a + 2] * sc->ctr[3 * j + 2] + m[4 * a + 3];
            if (!chain_spheres_meet_exact(sc->ctr + 3 * i, sc->rad[i], q, sc->rad[j]))
                continue;
            if (k == cap) {
                cap *= 2;
                p = realloc(p, sizeof(int) * 2 * (size_t)cap);
            }
            p[2 * k] = i;
            p[2 * k + 1] = j;
            k++;
        }
    *pairs = p;
    *np = k;
}

/* The chain's answers against the brute force: the cached query (yes/no
 * and a valid pair), the complete list. */
static int check_self(sphere_chain *sc, const char *what)
{
    int *bp, nb, *cp, nc, i = -1, j = -1;
    brute_pairs(sc, &bp, &nb);
    hs_error err;
    hs_chain_stats st;
    ck_assert_msg(hs_chain_self_collision_all(sc->c, &cp, &nc, &st, &err) == HS_OK, "%s",
                  err.msg);
    ck_assert_msg(nc == nb, "%s: %d pairs, brute force %d", what, nc, nb);
    ck_assert(nb == 0 || memcmp(cp, bp, sizeof(int) * 2 * (size_t)nb) == 0);
    int r = hs_chain_self_collision(sc->c, &i, &j, &st, &err);
    ck_assert_msg(r == (nb > 0), "%s: answer %d, brute force %d pairs", what, r, nb);
    if (r) {
        int found = 0;
        for (int k = 0; k < nb; k++)
            found |= bp[2 * k] == i && bp[2 * k + 1] == j;
        ck_assert_msg(found, "%s: pair (%d, %d) is not colliding", what, i, j);
    }
    free(bp);
    hs_free(cp);
    return r;
}

static sphere_chain make_sphere_chain(uint64_t *s, int n, double bond, double r)
{
    sphere_chain sc;
    sc.c = new_chain(n);
    sc.n = n;
    sc.ctr = calloc((size_t)n, 3 * sizeof(double));
    sc.rad = calloc((size_t)n, sizeof(double));
    sc.skip = calloc((size_t)n * (size_t)n, 1);
    sc.adjacent = 1;
    for (int i = 0; i < n; i++) {
        /* off-centre spheres of various sizes, some links with none */
        if (i % 11 == 5)
            continue;
        sc.rad[i] = r * (0.5 + t_rng_unit(s));
        for (int a = 0; a < 3; a++)
            sc.ctr[3 * i + a] = 0.3 * t_rng_sym(s);
        add_sphere(sc.c, i, sc.ctr[3 * i], sc.ctr[3 * i + 1], sc.ctr[3 * i + 2], sc.rad[i]);
    }
    for (int i = 1; i < n; i++) {
        /* a bond along x, then a random turn: a random coil */
        double m[16], t[16], x[3] = {bond, 0, 0};
        random_pose(s, 0, m);
        double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        hs_pose_from_rt(t, R, x);
        hs_pose_multiply(m, t, m);
        set_joint(sc.c, i, m);
    }
    return sc;
}

static void free_sphere_chain(sphere_chain *sc)
{
    hs_chain_free(sc->c);
    free(sc->ctr);
    free(sc->rad);
    free(sc->skip);
}

START_TEST(self_collision_matches_brute_force)
{
    uint64_t s = 5;
    int sizes[] = {2, 3, 5, 16, 33, 80};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        sphere_chain sc = make_sphere_chain(&s, sizes[z], 1.6, 1);
        int n = sc.n, hits = 0;
        check_self(&sc, "start");
        for (int it = 0; it < 60; it++) {
            int i = n > 1 ? 1 + rng_int(&s, n - 1) : 0;
            if (n < 2)
                break;
            double old[16], d[16];
            hs_chain_get_joint(sc.c, i, old);
            random_torsion(&s, 1.5, d);
            hs_error err;
            ck_assert(hs_chain_change_joint(sc.c, i, d, &err) == HS_OK);
            if (check_self(&sc, "after a change")) {
                hits++;
                set_joint(sc.c, i, old); /* undo, exactly */
                check_self(&sc, "after undo");
            }
        }
        ck_assert_msg(n < 16 || hits > 0, "n = %d: no move collided", n);
        free_sphere_chain(&sc);
    }
}
END_TEST

/* Several joints at once, and changes that are not undone (the record of
 * moved joints must keep every unsearched pair). */
START_TEST(self_collision_after_merged_changes)
{
    uint64_t s = 9;
    sphere_chain sc = make_sphere_chain(&s, 70, 1.5, 1);
    for (int it = 0; it < 40; it++) {
        int count = 1 + rng_int(&s, it % 3 == 0 ? 70 : 4), idx[80];
        double m[80 * 16];
        for (int k = 0; k < count; k++) {
            idx[k] = 1 + rng_int(&s, 69);
            double d[16], J[16];
            hs_chain_get_joint(sc.c, idx[k], J);
            random_torsion(&s, 0.8, d);
            hs_pose_multiply(m + 16 * k, J, d);
        }
        hs_error err;
        ck_assert(hs_chain_set_joints(sc.c, idx, m, count, &err) == HS_OK);
        check_self(&sc, "merged changes");
        check_self(&sc, "same pose again"); /* cached: must answer the same */
    }
    free_sphere_chain(&sc);
}
END_TEST

/* Undo by the inverse change (not bitwise) and sequences of colliding
 * moves kept (several unsearched joints). */
START_TEST(self_collision_undo_sequences)
{
    uint64_t s = 21;
    sphere_chain sc = make_sphere_chain(&s, 50, 1.4, 1);
    for (int it = 0; it < 80; it++) {
        int i = 1 + rng_int(&s, 49);
        double d[16], dinv[16];
        random_torsion(&s, 2, d);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                dinv[4 * a + b] = d[4 * b + a];
        dinv[3] = dinv[7] = dinv[11] = 0;
        dinv[12] = dinv[13] = dinv[14] = 0;
        dinv[15] = 1;
        hs_error err;
        ck_assert(hs_chain_change_joint(sc.c, i, d, &err) == HS_OK);
        int r = check_self(&sc, "move");
        if (r && it % 3 != 0) {
            ck_assert(hs_chain_change_joint(sc.c, i, dinv, &err) == HS_OK);
            check_self(&sc, "undone by the inverse");
        }
    }
    free_sphere_chain(&sc);
}
END_TEST

/* The rotation part of m scaled by 1 + 4e-10: R^T R - I about 8e-10
 * entrywise, inside the tolerance the chain accepts (CHAIN_RIGID_TOL). */
static void skew(double m[16])
{
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            m[4 * a + b] *= 1 + 4e-10;
}

/* Joints rigid only to 1e-9, as the API allows: the box frames' up maps
 * are then too far from rotations for their transposes to serve as
 * inverses (chain_up_transposable), and the search inverts them on the
 * spot.  Answers against the brute force, with hs_chain_try_change and
 * with plain changes (by rigid torsions, so that the joints stay as far
 * off as they start). */
START_TEST(nearly_rigid_joints)
{
    uint64_t s = 33;
    sphere_chain sc = make_sphere_chain(&s, 60, 1.6, 1);
    for (int i = 1; i < sc.n; i++) {
        double m[16];
        hs_chain_get_joint(sc.c, i, m);
        skew(m);
        set_joint(sc.c, i, m);
    }
    int general = 0;
    for (int l = 0; l < sc.c->levels; l++)
        for (int j = 0; j < sc.c->lev_n[l]; j++) {
            const chain_node *nd = &sc.c->nd[chain_node_index(sc.c, l, j)];
            general += !chain_node_empty(nd) && !chain_up_transposable(nd);
        }
    ck_assert_msg(general > 10, "only %d nodes invert on the spot", general);
    /* a free start: the pairs in contact go on the skip list */
    int *pairs, np;
    hs_error err;
    ck_assert(hs_chain_auto_skip(sc.c, &pairs, &np, &err) == HS_OK);
    for (int k = 0; k < np; k++)
        sc.skip[pairs[2 * k] * sc.n + pairs[2 * k + 1]] = 1;
    hs_free(pairs);
    int cur = check_self(&sc, "skewed start"), hits = 0; /* cur: the state collides */
    ck_assert_int_eq(cur, 0);
    for (int it = 0; it < 80; it++) {
        int i = 1 + rng_int(&s, sc.n - 1), hi, hj;
        double d[16];
        random_torsion(&s, 2, d); /* rigid: the joints stay 4e-10 off */
        hs_chain_stats st;
        if (it % 2) {
            int r = hs_chain_try_change(sc.c, i, d, &hi, &hj, &st, &err);
            ck_assert_msg(r == 0 || r == 1, "%s", err.msg);
            hits += r;
            /* a colliding move is undone: the state is the one before */
            cur = r ? cur : 0;
            ck_assert_int_eq(check_self(&sc, "after try_change"), cur);
        } else {
            double old[16];
            hs_chain_get_joint(sc.c, i, old);
            ck_assert(hs_chain_change_joint(sc.c, i, d, &err) == HS_OK);
            if (check_self(&sc, "after a skewed change")) {
                hits++;
                set_joint(sc.c, i, old);
                ck_assert_int_eq(check_self(&sc, "undone"), cur);
            } else {
                cur = 0;
            }
        }
    }
    ck_assert_msg(hits > 5 && hits < 75, "%d of 80 moves collided", hits);
    free_sphere_chain(&sc);
}
END_TEST

/* A rotation, or a matrix up to delta off one (entrywise). */
static void near_rotation(uint64_t *s, double delta, double R[9])
{
    double m[16];
    random_pose(s, 0, m);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            R[3 * i + j] = m[4 * i + j] + delta * t_rng_sym(s);
}

/* ||R^T R - I||_2, independently: power iteration on G^2 (G symmetric),
 * in long double. */
static double true_defect(const double R[9])
{
    long double G[3][3], v[3] = {1, 0.7L, 0.3L}, lam = 0;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            G[i][k] = (long double)R[i] * R[k] + (long double)R[3 + i] * R[3 + k] +
                      (long double)R[6 + i] * R[6 + k] - (i == k);
    for (int it = 0; it < 200; it++) {
        long double w[3], u[3], n = 0;
        for (int i = 0; i < 3; i++)
            w[i] = G[i][0] * v[0] + G[i][1] * v[1] + G[i][2] * v[2];
        for (int i = 0; i < 3; i++)
            u[i] = G[i][0] * w[0] + G[i][1] * w[1] + G[i][2] * w[2];
        for (int i = 0; i < 3; i++)
            n += u[i] * u[i];
        n = sqrtl(n);
        if (n == 0)
            return 0;
        lam = n / sqrtl(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        for (int i = 0; i < 3; i++)
            v[i] = u[i] / n;
    }
    return (double)sqrtl(lam);
}

/* The defect bound used for every propagated rotation is at least the
 * real one, for rotations and for matrices well off one. */
START_TEST(rotation_defect_bounds_the_norm)
{
    uint64_t s = 23;
    const double deltas[] = {0, 1e-12, 1e-6, 1e-2, 0.3};
    for (int trial = 0; trial < 5000; trial++) {
        double R[9], d = deltas[trial % 5];
        near_rotation(&s, d, R);
        double bound = chain_rotation_defect(R), real = true_defect(R);
        EXPECT(bound >= real, "trial %d (delta %g): bound %.17g < %.17g", trial, d, bound, real);
        EXPECT(d > 0 || bound < 1e-14, "a rotation: bound %g", bound);
    }
    double nan_r[9] = {NAN, 0, 0, 0, 1, 0, 0, 0, 1};
    ck_assert(!(chain_rotation_defect(nan_r) < 1));
}
END_TEST

/* The descent's face test (chain_box.h) says "apart" only for disjoint
 * boxes: checked against the rigorous 15-axis test, with R a rotation or
 * up to 1e-3 off one (then its columns are B's face normals only up to
 * the defect).  B's centre is put near one of B's faces along R's column,
 * where a missing term would show.  ha includes a slack of 1e-9, as the
 * descent's does. */
START_TEST(face_test_is_conservative)
{
    uint64_t s = 17;
    int apart = 0, kept = 0;
    for (int trial = 0; trial < 30000; trial++) {
        double R[9], t[3], ha[3], hs[3], hb[3];
        near_rotation(&s, trial % 3 == 0 ? 0 : trial % 3 == 1 ? 1e-9 : 1e-3, R);
        for (int k = 0; k < 3; k++) {
            ha[k] = 0.1 + t_rng_unit(&s);
            hb[k] = 0.1 + t_rng_unit(&s);
            hs[k] = ha[k] + 1e-9;
        }
        int j = rng_int(&s, 3);
        double c[3] = {R[j], R[3 + j], R[6 + j]}, len = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
        double reach = (ha[0] * fabs(c[0]) + ha[1] * fabs(c[1]) + ha[2] * fabs(c[2])) / len + hb[j];
        double at = reach * (1 + 0.02 * t_rng_sym(&s));
        for (int k = 0; k < 3; k++)
            t[k] = c[k] / len * at + 0.01 * t_rng_sym(&s);
        double e = chain_rotation_defect(R);
        chain_b_view v;
        chain_view_from_b(&v, hs, R, t);
        if (chain_faces_apart(hs, R, t, hb, e, &v)) {
            apart++;
            EXPECT(!obb_overlap_frame(ha, R, t, hb), "trial %d: faces apart, boxes not", trial);
        } else {
            kept++;
        }
    }
    ck_assert_msg(apart > 3000 && kept > 3000, "%d apart, %d kept", apart, kept);
}
END_TEST

/* One move on twin chains: hs_chain_try_change on a, the three calls it
 * stands for on b, both against the brute force of the moved chain.  The
 * joints of a and b must stay equal bit for bit. */
static int twin_move(sphere_chain *a, sphere_chain *b, int i, const double d[16])
{
    hs_error err;
    hs_chain_stats st;
    int hi = -1, hj = -1, *bp, nb;
    int ra = hs_chain_try_change(a->c, i, d, &hi, &hj, &st, &err);
    ck_assert_msg(ra == 0 || ra == 1, "try_change: %d (%s)", ra, err.msg);
    double old[16], ja[16], jb[16];
    hs_chain_get_joint(b->c, i, old);
    ck_assert(hs_chain_change_joint(b->c, i, d, &err) == HS_OK);
    brute_pairs(b, &bp, &nb);
    int rb = hs_chain_self_collision(b->c, NULL, NULL, NULL, &err);
    ck_assert_msg(rb == (nb > 0), "plain query %d, brute force %d pairs", rb, nb);
    ck_assert_msg(ra == rb, "joint %d: try_change %d, plain %d", i, ra, rb);
    if (ra) {
        int found = 0;
        for (int k = 0; k < nb; k++)
            found |= bp[2 * k] == hi && bp[2 * k + 1] == hj;
        ck_assert_msg(found, "try_change pair (%d, %d) does not collide", hi, hj);
        set_joint(b->c, i, old);
    }
    free(bp);
    for (int k = 1; k < a->n; k++) {
        hs_chain_get_joint(a->c, k, ja);
        hs_chain_get_joint(b->c, k, jb);
        ck_assert_msg(memcmp(ja, jb, sizeof ja) == 0, "joint %d differs after a move", k);
    }
    return ra;
}

START_TEST(try_change_matches_plain_moves)
{
    for (int n = 2; n <= 90; n += 22) {
        uint64_t s1 = 77 + (uint64_t)n, s2 = s1;
        sphere_chain a = make_sphere_chain(&s1, n, 1.6, 1), b = make_sphere_chain(&s2, n, 1.6, 1);
        check_self(&a, "start"); /* the first query searches everything */
        check_self(&b, "start");
        int hits = 0;
        for (int it = 0; it < 120; it++) {
            int i = 1 + rng_int(&s1, n - 1);
            double d[16];
            random_torsion(&s1, 1.5, d);
            if (it % 17 == 5) { /* another joint left unsearched: the plain route */
                double e[16];
                int k = 1 + rng_int(&s1, n - 1);
                random_torsion(&s1, 0.01, e);
                hs_error err;
                ck_assert(hs_chain_change_joint(a.c, k, e, &err) == HS_OK);
                ck_assert(hs_chain_change_joint(b.c, k, e, &err) == HS_OK);
            }
            hits += twin_move(&a, &b, i, d);
        }
        check_self(&a, "after the moves");
        ck_assert_msg(n < 40 || hits > 0, "n = %d: no move collided", n);
        free_sphere_chain(&a);
        free_sphere_chain(&b);
    }
}
END_TEST

/* Spheres of radius 1 on the lattice 2Z^3, neighbours along the chain 2
 * apart (touching; adjacent pairs are skipped), moved by quarter turns:
 * every product is exact, and every collision is two spheres exactly
 * touching (centres 2 apart) or coinciding.  The boxes (shrunk, tested
 * on R's columns with the defect bound, refitted lazily) must never
 * separate a touching pair. */
START_TEST(lattice_moves_touch_exactly)
{
    static const double turns[7][9] = {
        {1, 0, 0, 0, 0, -1, 0, 1, 0},  {1, 0, 0, 0, -1, 0, 0, 0, -1}, {1, 0, 0, 0, 0, 1, 0, -1, 0},
        {0, -1, 0, 1, 0, 0, 0, 0, 1},  {0, 1, 0, -1, 0, 0, 0, 0, 1},  {0, 0, 1, 0, 1, 0, -1, 0, 0},
        {0, 0, -1, 0, 1, 0, 1, 0, 0}};
    const int n = 48;
    sphere_chain sc[2];
    for (int w = 0; w < 2; w++) {
        sphere_chain *c = &sc[w];
        c->c = new_chain(n);
        c->n = n;
        c->ctr = calloc((size_t)n, 3 * sizeof(double));
        c->rad = calloc((size_t)n, sizeof(double));
        c->skip = calloc((size_t)n * (size_t)n, 1);
        c->adjacent = 1;
        double I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, t[3] = {2, 0, 0}, m[16];
        hs_pose_from_rt(m, I3, t);
        for (int i = 0; i < n; i++) {
            c->rad[i] = 1;
            add_sphere(c->c, i, 0, 0, 0, 1);
            if (i > 0)
                set_joint(c->c, i, m);
        }
        check_self(c, "straight");
    }
    uint64_t s = 3;
    int hits = 0, free_moves = 0;
    for (int it = 0; it < 600; it++) {
        double d[16], zero[3] = {0, 0, 0};
        hs_pose_from_rt(d, turns[rng_int(&s, 7)], zero);
        int r = twin_move(&sc[0], &sc[1], 1 + rng_int(&s, n - 1), d);
        hits += r;
        free_moves += !r;
    }
    check_self(&sc[0], "after the moves");
    ck_assert_msg(hits > 100 && free_moves > 100, "%d hits, %d free moves", hits, free_moves);
    free_sphere_chain(&sc[0]);
    free_sphere_chain(&sc[1]);
}
END_TEST

START_TEST(try_change_errors)
{
    hs_chain *c = new_chain(4);
    add_sphere(c, 0, 0, 0, 0, 1);
    add_sphere(c, 3, 0, 0, 0, 1);
    double I[16], bad[16], before[16], after[16];
    hs_pose_identity(I);
    hs_pose_identity(bad);
    bad[0] = 2; /* not rigid */
    hs_error err;
    hs_chain_get_joint(c, 2, before);
    ck_assert_int_eq(hs_chain_try_change(c, 0, I, NULL, NULL, NULL, &err), -1);
    ck_assert_int_eq(err.code, HS_ERR_ARG);
    ck_assert_int_eq(hs_chain_try_change(c, 4, I, NULL, NULL, NULL, &err), -1);
    ck_assert_int_eq(hs_chain_try_change(c, 2, bad, NULL, NULL, NULL, &err), -1);
    ck_assert_int_eq(err.code, HS_ERR_ARG);
    ck_assert_int_eq(hs_chain_try_change(NULL, 2, I, NULL, NULL, NULL, &err), -1);
    ck_assert_int_eq(hs_chain_try_change(c, 2, NULL, NULL, NULL, NULL, &err), -1);
    hs_chain_get_joint(c, 2, after);
    ck_assert(memcmp(before, after, sizeof before) == 0);
    /* links 0 and 3 at the same place: the move collides and is undone */
    double t[3] = {0, 0, 0}, I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, m[16];
    hs_pose_from_rt(m, I3, t);
    int a = -1, b = -1;
    ck_assert_int_eq(hs_chain_try_change(c, 2, m, &a, &b, NULL, &err), 1);
    ck_assert(a == 0 && b == 3);
    hs_chain_free(c);
}
END_TEST

/* Three links in a plane: link 2's sphere exactly 2 from link 0's (radii
 * 1): touching counts as a collision; 2^-30 farther is free, 2^-30
 * nearer collides.  Rotations by quarter turns are exact. */
START_TEST(touching_spheres_collide)
{
    double gaps[] = {0, 0x1p-30, -0x1p-30, 0x1p-45};
    int expect[] = {1, 0, 1, 0};
    for (int g = 0; g < 4; g++) {
        hs_chain *c = new_chain(3);
        add_sphere(c, 0, 0, 0, 0, 1);
        add_sphere(c, 1, 0, 0, 0, 1);
        add_sphere(c, 2, 0, 0, 0, 1);
        double t1[3] = {4, 0, 0}, m[16];
        double Rz[9] = {0, -1, 0, 1, 0, 0, 0, 0, 1}; /* quarter turn about z */
        hs_pose_from_rt(m, Rz, t1);
        set_joint(c, 1, m);
        /* in link 1's frame, world -x is +y: link 2 at world (2 + gap, 0, 0) */
        double t2[3] = {0, 2 - gaps[g], 0};
        double I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        hs_pose_from_rt(m, I3, t2);
        set_joint(c, 2, m);
        int i = -1, j = -1;
        hs_error err;
        ck_assert_int_eq(hs_chain_self_collision(c, &i, &j, NULL, &err), expect[g]);
        if (expect[g])
            ck_assert(i == 0 && j == 2);
        int *pairs, np;
        ck_assert(hs_chain_self_collision_all(c, &pairs, &np, NULL, &err) == HS_OK);
        ck_assert_int_eq(np, expect[g]);
        hs_free(pairs);
        /* adjacent links overlap (1 and 2 are 2 - gap apart) but are skipped;
         * without the adjacent rule they collide */
        hs_chain_skip_adjacent(c, 0);
        ck_assert_int_eq(hs_chain_self_collision(c, &i, &j, NULL, &err), 1);
        ck_assert(hs_chain_self_collision_all(c, &pairs, &np, NULL, &err) == HS_OK);
        ck_assert_int_eq(np, expect[g] + (gaps[g] >= 0));
        hs_free(pairs);
        hs_chain_free(c);
    }
}
END_TEST

START_TEST(skip_lists)
{
    uint64_t s = 77;
    sphere_chain sc = make_sphere_chain(&s, 40, 1.2, 1);
    hs_error err;
    for (int it = 0; it < 30; it++) {
        int i = rng_int(&s, 40), j = rng_int(&s, 40);
        if (i == j)
            continue;
        int on = rng_int(&s, 3) != 0;
        ck_assert(hs_chain_skip_pair(sc.c, i, j, on, &err) == HS_OK);
        sc.skip[i * 40 + j] = sc.skip[j * 40 + i] = (unsigned char)on;
        if (it % 7 == 3) {
            sc.adjacent = !sc.adjacent;
            hs_chain_skip_adjacent(sc.c, sc.adjacent);
        }
        check_self(&sc, "skip list");
        double d[16];
        random_torsion(&s, 1, d);
        ck_assert(hs_chain_change_joint(sc.c, 1 + rng_int(&s, 39), d, &err) == HS_OK);
        check_self(&sc, "skip list after a move");
    }
    free_sphere_chain(&sc);
}
END_TEST

START_TEST(argument_errors)
{
    hs_error err;
    ck_assert(hs_chain_new(0, &err) == NULL && err.code == HS_ERR_ARG);
    ck_assert(hs_chain_new(-3, NULL) == NULL);
    hs_chain *c = new_chain(4);
    double p[3] = {0, 0, 0}, nanp[3] = {NAN, 0, 0}, m[16];
    ck_assert(hs_chain_add_sphere(c, 4, p, 1, &err) == HS_ERR_ARG);
    ck_assert(strstr(err.msg, "link 4") != NULL);
    ck_assert(hs_chain_add_sphere(c, -1, p, 1, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_sphere(c, 0, nanp, 1, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_sphere(c, 0, p, 0, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_sphere(c, 0, p, -1, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_sphere(c, 0, p, INFINITY, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_sphere(c, 0, p, NAN, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_sphere(NULL, 0, p, 1, &err) == HS_ERR_ARG);
    hs_pose_identity(m);
    ck_assert(hs_chain_set_joint(c, 0, m, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_set_joint(c, 4, m, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_change_joint(c, 0, m, &err) == HS_ERR_ARG);
    m[3] = NAN;
    ck_assert(hs_chain_set_joint(c, 1, m, &err) == HS_ERR_ARG);
    hs_pose_identity(m);
    m[0] = 2; /* a scale is not rigid */
    ck_assert(hs_chain_set_joint(c, 1, m, &err) == HS_ERR_ARG);
    ck_assert(strstr(err.msg, "rigid") != NULL);
    hs_pose_identity(m);
    m[0] = -1; /* a reflection neither */
    ck_assert(hs_chain_set_joint(c, 1, m, &err) == HS_ERR_ARG);
    hs_pose_identity(m);
    m[14] = 1;
    ck_assert(hs_chain_set_base(c, m, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_change_joint(c, 2, m, &err) == HS_ERR_ARG);
    hs_pose_identity(m);
    int idx[2] = {1, 9};
    double ms[32];
    hs_pose_identity(ms);
    hs_pose_identity(ms + 16);
    ck_assert(hs_chain_set_joints(c, idx, ms, 2, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_set_joints(c, idx, ms, -1, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_set_joints(c, NULL, ms, 1, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_skip_pair(c, 1, 1, 1, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_skip_pair(c, 1, 4, 1, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_skip_pair(c, -1, 2, 1, &err) == HS_ERR_ARG);
    /* out of range poses give the identity; a failed call changed nothing */
    double J[16], I[16];
    hs_pose_identity(I);
    hs_chain_get_joint(c, 0, J);
    ck_assert(memcmp(J, I, sizeof J) == 0);
    hs_chain_get_joint(c, 1, J);
    ck_assert(memcmp(J, I, sizeof J) == 0);
    hs_chain_link_pose(c, 7, J);
    ck_assert(memcmp(J, I, sizeof J) == 0);
    hs_chain_relative_pose(c, 0, 9, J);
    ck_assert(memcmp(J, I, sizeof J) == 0);
    ck_assert_int_eq(hs_chain_link_count(NULL), 0);
    ck_assert_int_eq(hs_chain_self_collision(NULL, NULL, NULL, NULL, &err), -1);
    int *pairs, np;
    ck_assert(hs_chain_self_collision_all(NULL, &pairs, &np, NULL, &err) == HS_ERR_ARG);
    /* no pieces: free */
    ck_assert_int_eq(hs_chain_self_collision(c, NULL, NULL, NULL, &err), 0);
    ck_assert(hs_chain_new(1 << 27, &err) == NULL && err.code == HS_ERR_ARG);
    double cube[24] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1};
    ck_assert(hs_chain_add_hull(c, 4, cube, 8, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_hull(NULL, 0, cube, 8, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_hull(c, 0, NULL, 8, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_auto_skip(NULL, NULL, NULL, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_skip_pair(NULL, 0, 1, 1, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_set_base(NULL, J, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_set_joint(NULL, 1, J, &err) == HS_ERR_ARG);
    hs_world *w = hs_world_new();
    ck_assert(hs_chain_world_collision_all(NULL, w, &pairs, &np, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_world_collision_all(c, w, NULL, &np, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_world_collision_all(c, w, &pairs, &np, &err) == HS_OK && np == 0);
    hs_free(pairs);
    hs_world_free(w);
    ck_assert(hs_chain_set_angles(NULL, NULL, 0, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_set_angles(c, NULL, 0, &err) == HS_OK); /* no movable joint */
    ck_assert_int_eq(hs_chain_dof(NULL), 0);
    hs_chain_free(c);
    hs_chain_free(NULL);
}
END_TEST

/* ------------------------------------------------ convex pieces */

static const double unit_cube[8 * 3] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0,
                                        0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1};

/* Link 0: the unit cube; link 1: nothing (the joint between); link 2: a
 * sphere of radius r at p in link 0's frame (joints are translations). */
static int cube_vs_sphere(const double p[3], double r)
{
    hs_chain *c = new_chain(3);
    hs_error err;
    ck_assert_msg(hs_chain_add_hull(c, 0, unit_cube, 8, &err) == HS_OK, "%s", err.msg);
    add_sphere(c, 2, 0, 0, 0, r);
    double m[16], I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, half[3] = {p[0] / 2, p[1] / 2, p[2] / 2};
    hs_pose_from_rt(m, I3, half);
    set_joint(c, 1, m);
    double rest[3] = {p[0] - half[0], p[1] - half[1], p[2] - half[2]};
    hs_pose_from_rt(m, I3, rest);
    set_joint(c, 2, m);
    int i, j, hit = hs_chain_self_collision(c, &i, &j, NULL, &err);
    ck_assert_int_ge(hit, 0);
    /* the sphere on link 0 and the cube on link 2: the other way round */
    hs_chain *d = new_chain(3);
    add_sphere(d, 0, p[0], p[1], p[2], r);
    ck_assert(hs_chain_add_hull(d, 2, unit_cube, 8, &err) == HS_OK);
    ck_assert_int_eq(hs_chain_self_collision(d, &i, &j, NULL, &err), hit);
    hs_chain_free(c);
    hs_chain_free(d);
    return hit;
}

/* Face, edge and vertex contacts with dyadic data: touching counts,
 * 2^-40 farther is free, 2^-40 nearer collides; inside collides. */
START_TEST(sphere_against_convex_piece)
{
    struct {
        double p[3], r;
    } cases[] = {
        {{2, 0.5, 0.5}, 1},         /* face x = 1 */
        {{1.75, 2, 0.5}, 1.25},     /* edge x = y = 1 at distance (3/4, 1) */
        {{2, 3, 3}, 3},             /* corner (1, 1, 1) at (1, 2, 2) */
        {{-0.5, -0.5, -0.5}, 0.75}, /* corner 0: distance sqrt(3)/2 > 0.75 */
        {{0.5, 0.5, 0.5}, 0.01},    /* inside */
        {{0.5, 0.5, -3}, 3},        /* face z = 0 */
    };
    int expect_touch[] = {1, 1, 1, 0, 1, 1};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        double r = cases[k].r;
        ck_assert_msg(cube_vs_sphere(cases[k].p, r) == expect_touch[k], "case %zu", k);
        if (!expect_touch[k] || k == 4)
            continue;
        ck_assert_msg(cube_vs_sphere(cases[k].p, r - 0x1p-40) == 0, "case %zu farther", k);
        ck_assert_msg(cube_vs_sphere(cases[k].p, r + 0x1p-40) == 1, "case %zu nearer", k);
    }
    ck_assert_int_eq(cube_vs_sphere((double[]){-0.5, -0.5, -0.5}, 0.8661), 1);
}
END_TEST

/* Random spheres against a random hull, against a double-precision
 * distance to the hull's exact planes and corners, where it is clear
 * (more than 1e-9 from r). */
static double brute_distance(const double *pts, int n, const double p[3]);

START_TEST(sphere_against_random_hulls)
{
    uint64_t s = 41;
    int checked = 0;
    for (int it = 0; it < 60; it++) {
        double pts[8 * 3];
        for (int k = 0; k < 24; k++)
            pts[k] = (double)(rng_int(&s, 9) - 4) / 4; /* dyadic: exact planes */
        hs_chain *c = new_chain(3);
        hs_error err;
        if (hs_chain_add_hull(c, 0, pts, 8, &err) != HS_OK) { /* coplanar: skip */
            hs_chain_free(c);
            continue;
        }
        double p[3] = {2 * t_rng_sym(&s), 2 * t_rng_sym(&s), 2 * t_rng_sym(&s)}, r = 0.7 * t_rng_unit(&s);
        double m[16], I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, zero[3] = {0, 0, 0};
        hs_pose_from_rt(m, I3, zero);
        set_joint(c, 1, m);
        hs_pose_from_rt(m, I3, p);
        set_joint(c, 2, m);
        add_sphere(c, 2, 0, 0, 0, r);
        double d = brute_distance(pts, 8, p);
        int hit = hs_chain_self_collision(c, NULL, NULL, NULL, &err);
        if (fabs(d - r) > 1e-9) {
            ck_assert_msg(hit == (d <= r), "it %d: d %.17g r %.17g hit %d", it, d, r, hit);
            checked++;
        }
        hs_chain_free(c);
    }
    ck_assert_int_gt(checked, 30);
}
END_TEST

/* Distance from p to the hull of the points: the smallest over the
 * projections onto the hull's facets (planes through three points with
 * every point on one side), edges and corners that land inside. */
static int hull_contains(const double *pts, int n, const double x[3], double tol)
{
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            for (int c = b + 1; c < n; c++) {
                const double *A = pts + 3 * a, *B = pts + 3 * b, *C = pts + 3 * c;
                double u[3], v[3], nrm[3];
                for (int j = 0; j < 3; j++)
                    u[j] = B[j] - A[j], v[j] = C[j] - A[j];
                nrm[0] = u[1] * v[2] - u[2] * v[1];
                nrm[1] = u[2] * v[0] - u[0] * v[2];
                nrm[2] = u[0] * v[1] - u[1] * v[0];
                double l = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
                if (l < 1e-12)
                    continue;
                int pos = 0, neg = 0;
                for (int k = 0; k < n; k++) {
                    double s = 0;
                    for (int j = 0; j < 3; j++)
                        s += nrm[j] * (pts[3 * k + j] - A[j]);
                    pos |= s > 1e-12, neg |= s < -1e-12;
                }
                if (pos && neg)
                    continue; /* not a facet */
                double s = 0;
                for (int j = 0; j < 3; j++)
                    s += nrm[j] * (x[j] - A[j]);
                if ((pos && s < -tol * l) || (neg && s > tol * l))
                    return 0;
            }
    return 1;
}

static double brute_distance(const double *pts, int n, const double p[3])
{
    if (hull_contains(pts, n, p, 0))
        return 0;
    double best = INFINITY;
    for (int a = 0; a < n; a++) {
        const double *A = pts + 3 * a;
        best = fmin(best, sqrt((p[0] - A[0]) * (p[0] - A[0]) + (p[1] - A[1]) * (p[1] - A[1]) +
                               (p[2] - A[2]) * (p[2] - A[2])));
        for (int b = 0; b < n; b++) {
            const double *B = pts + 3 * b;
            double e[3] = {B[0] - A[0], B[1] - A[1], B[2] - A[2]};
            double ee = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
            if (ee == 0)
                continue;
            double t = ((p[0] - A[0]) * e[0] + (p[1] - A[1]) * e[1] + (p[2] - A[2]) * e[2]) / ee;
            t = fmax(0, fmin(1, t));
            double x[3] = {A[0] + t * e[0], A[1] + t * e[1], A[2] + t * e[2]};
            best = fmin(best, sqrt((p[0] - x[0]) * (p[0] - x[0]) + (p[1] - x[1]) * (p[1] - x[1]) +
                                   (p[2] - x[2]) * (p[2] - x[2])));
            for (int c = b + 1; c < n; c++) {
                const double *C = pts + 3 * c;
                double u[3], v[3], nrm[3];
                for (int j = 0; j < 3; j++)
                    u[j] = B[j] - A[j], v[j] = C[j] - A[j];
                nrm[0] = u[1] * v[2] - u[2] * v[1];
                nrm[1] = u[2] * v[0] - u[0] * v[2];
                nrm[2] = u[0] * v[1] - u[1] * v[0];
                double l2 = nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2];
                if (l2 < 1e-20)
                    continue;
                double s = ((p[0] - A[0]) * nrm[0] + (p[1] - A[1]) * nrm[1] +
                            (p[2] - A[2]) * nrm[2]) / l2;
                double y[3] = {p[0] - s * nrm[0], p[1] - s * nrm[1], p[2] - s * nrm[2]};
                if (hull_contains(pts, n, y, 1e-12))
                    best = fmin(best, fabs(s) * sqrt(l2));
            }
        }
    }
    return best;
}

/* Two unit cubes on links 0 and 2 (link 1 between, no piece): face to
 * face (touching), apart by 2^-40, overlapping by 2^-40; also turned a
 * quarter (exact) so that edges cross. */
START_TEST(convex_pieces_touch_and_overlap)
{
    double shifts[] = {1, 1 + 0x1p-40, 1 - 0x1p-40};
    int expect[] = {1, 0, 1};
    hs_error err;
    for (int k = 0; k < 3; k++) {
        hs_chain *c = new_chain(3);
        ck_assert(hs_chain_add_hull(c, 0, unit_cube, 8, &err) == HS_OK);
        ck_assert(hs_chain_add_hull(c, 2, unit_cube, 8, &err) == HS_OK);
        double m[16], Rz[9] = {0, -1, 0, 1, 0, 0, 0, 0, 1}, I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        double t[3] = {shifts[k], 0, 0}, t2[3] = {0, 0, 0};
        hs_pose_from_rt(m, I3, t2);
        set_joint(c, 1, m);
        hs_pose_from_rt(m, I3, t);
        set_joint(c, 2, m);
        int i, j;
        ck_assert_int_eq(hs_chain_self_collision(c, &i, &j, NULL, &err), expect[k]);
        /* a quarter turn about z around (shift, 0, 0): the cube now spans
         * x in [shift - 1, shift] -- it overlaps the first whenever shift > 0 */
        hs_pose_from_rt(m, Rz, t);
        set_joint(c, 2, m);
        ck_assert_int_eq(hs_chain_self_collision(c, &i, &j, NULL, &err), 1);
        hs_chain_stats st;
        int *pairs, np;
        ck_assert(hs_chain_self_collision_all(c, &pairs, &np, &st, &err) == HS_OK);
        ck_assert_int_eq(np, 1);
        ck_assert(pairs[0] == 0 && pairs[1] == 2 && st.piece_tests >= 1);
        hs_free(pairs);
        hs_chain_free(c);
    }
    /* a polytope piece from a system, and its errors */
    hs_poly *cube = hs_poly_parse(t_box_text(3, "0", "1"), "cube", &err);
    ck_assert(cube != NULL);
    hs_chain *c = new_chain(2);
    ck_assert(hs_chain_add_polytope(c, 1, cube, &err) == HS_OK);
    add_sphere(c, 0, -1, 0.5, 0.5, 1);
    hs_chain_skip_adjacent(c, 0);
    ck_assert_int_eq(hs_chain_self_collision(c, NULL, NULL, NULL, &err), 1);
    ck_assert(hs_chain_add_polytope(c, 2, cube, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_polytope(c, 0, NULL, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_add_hull(c, 0, unit_cube, 3, &err) == HS_ERR_ARG);
    double flat[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
    ck_assert(hs_chain_add_hull(c, 0, flat, 4, &err) != HS_OK);
    hs_poly *sq = hs_poly_parse(t_box_text(2, "0", "1"), "square", &err);
    ck_assert(hs_chain_add_polytope(c, 0, sq, &err) != HS_OK);
    hs_poly_free(sq);
    hs_poly_free(cube);
    hs_chain_free(c);
}
END_TEST

/* Random chains of cubes and spheres: self_collision_all against the
 * world's narrow phase on every pair (two bodies posed by the chain's
 * relative pose) for the convex pairs, the sphere pairs exactly. */
START_TEST(convex_chains_match_pairwise_tests)
{
    uint64_t s = 3;
    hs_error err;
    for (int round = 0; round < 6; round++) {
        int n = 12;
        hs_chain *c = new_chain(n);
        int kind[12];
        for (int i = 0; i < n; i++) {
            kind[i] = rng_int(&s, 2);
            if (kind[i])
                ck_assert(hs_chain_add_hull(c, i, unit_cube, 8, &err) == HS_OK);
            else
                add_sphere(c, i, 0.5, 0.5, 0.5, 0.6);
        }
        for (int i = 1; i < n; i++) {
            double m[16];
            random_pose(&s, 1.2, m);
            set_joint(c, i, m);
        }
        int *pairs, np;
        ck_assert(hs_chain_self_collision_all(c, &pairs, &np, NULL, &err) == HS_OK);
        for (int i = 0; i < n; i++)
            for (int j = i + 2; j < n; j++) {
                double m[16];
                hs_chain_relative_pose(c, i, j, m);
                int expect;
                if (kind[i] && kind[j]) {
                    hs_world *w = hs_world_new();
                    hs_body *a = hs_world_add_body(w, "a", 0, &err);
                    hs_body *b = hs_world_add_body(w, "b", 0, &err);
                    ck_assert(hs_body_add_hull(a, unit_cube, 8, NULL, &err) == HS_OK);
                    ck_assert(hs_body_add_hull(b, unit_cube, 8, NULL, &err) == HS_OK);
                    ck_assert(hs_body_set_pose(b, m, &err) == HS_OK);
                    hs_query_options q;
                    hs_query_options_init(&q);
                    q.threshold = 0;
                    hs_report *rep = hs_report_new();
                    ck_assert(hs_world_query(w, &q, rep, &err) == HS_OK);
                    expect = hs_report_pair_count(rep) > 0;
                    hs_report_free(rep);
                    hs_world_free(w);
                } else if (!kind[i] && !kind[j]) {
                    double ctr[3] = {0.5, 0.5, 0.5}, q[3];
                    for (int a = 0; a < 3; a++)
                        q[a] = m[4 * a] * 0.5 + m[4 * a + 1] * 0.5 + m[4 * a + 2] * 0.5 +
                               m[4 * a + 3];
                    expect = chain_spheres_meet_exact(ctr, 0.6, q, 0.6);
                } else {
                    continue; /* sphere-cube: the sphere tests above */
                }
                int found = 0;
                for (int k = 0; k < np; k++)
                    found |= pairs[2 * k] == i && pairs[2 * k + 1] == j;
                ck_assert_msg(found == expect, "round %d pair (%d, %d): %d, expected %d", round, i,
                              j, found, expect);
            }
        hs_free(pairs);
        hs_chain_free(c);
    }
}
END_TEST

/* ------------------------------------------------ chain and world */

/* A chain of 6 spheres (radius 0.5) along x, 1 apart, and a world box
 * [lo, hi]: collision and distance against the analytic answer. */
static hs_world *box_world(const double lo[3], const double hi[3])
{
    hs_error err;
    hs_world *w = hs_world_new();
    hs_body *b = hs_world_add_body(w, "static_block", 1, &err);
    double size[3], place[16], I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, mid[3];
    for (int j = 0; j < 3; j++) {
        size[j] = hi[j] - lo[j];
        mid[j] = (lo[j] + hi[j]) / 2;
    }
    hs_pose_from_rt(place, I3, mid);
    ck_assert(hs_body_add_box(b, size, place, &err) == HS_OK);
    return w;
}

static hs_chain *line_chain(void)
{
    hs_chain *c = new_chain(6);
    double m[16], I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, t[3] = {1, 0, 0};
    hs_pose_from_rt(m, I3, t);
    for (int i = 0; i < 6; i++) {
        add_sphere(c, i, 0, 0, 0, 0.5);
        if (i)
            set_joint(c, i, m);
    }
    return c;
}

START_TEST(chain_against_world)
{
    hs_error err;
    hs_chain *c = line_chain();
    /* box above link 3 at height 0.5 + gap */
    double gaps[] = {1, 0, 0x1p-40, -0.25};
    for (int g = 0; g < 4; g++) {
        double lo[3] = {2.75, 0.5 + gaps[g], -1}, hi[3] = {3.25, 2, 1};
        hs_world *w = box_world(lo, hi);
        int link = -1;
        const hs_body *body = NULL;
        int hit = hs_chain_world_collision(c, w, &link, &body, &err);
        ck_assert_int_eq(hit, gaps[g] <= 0);
        if (hit)
            ck_assert(link == 3 && strcmp(hs_body_name(body), "static_block") == 0);
        double d, pa[3], pb[3];
        ck_assert(hs_chain_world_distance(c, w, &d, &link, &body, pa, pb, &err) == HS_OK);
        ck_assert_int_eq(link, 3);
        ck_assert_msg(fabs(d - fmax(gaps[g], 0)) <= 1e-9, "gap %g: distance %.17g", gaps[g], d);
        double e = sqrt((pa[0] - pb[0]) * (pa[0] - pb[0]) + (pa[1] - pb[1]) * (pa[1] - pb[1]) +
                        (pa[2] - pb[2]) * (pa[2] - pb[2]));
        ck_assert(fabs(e - d) <= 1e-9);
        if (gaps[g] > 0)
            ck_assert(fabs(pb[1] - lo[1]) <= 1e-9 && fabs(pa[1] - 0.5) <= 1e-9);
        /* a base pose moves the chain: down by 1, everything is free */
        double base[16], I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, down[3] = {0, -1, 0};
        hs_pose_from_rt(base, I3, down);
        ck_assert(hs_chain_set_base(c, base, &err) == HS_OK);
        ck_assert_int_eq(hs_chain_world_collision(c, w, &link, &body, &err), 0);
        ck_assert(hs_chain_world_distance(c, w, &d, NULL, NULL, NULL, NULL, &err) == HS_OK);
        ck_assert(fabs(d - (fmax(gaps[g], 0) + 1)) <= 1e-9 || gaps[g] < 0);
        hs_pose_identity(base);
        ck_assert(hs_chain_set_base(c, base, &err) == HS_OK);
        /* disabled bodies do not count */
        hs_body_set_enabled(hs_world_body(w, 0), 0);
        ck_assert_int_eq(hs_chain_world_collision(c, w, &link, &body, &err), 0);
        ck_assert(hs_chain_world_distance(c, w, &d, NULL, NULL, NULL, NULL, &err) == HS_ERR_ARG);
        hs_world_free(w);
    }
    /* a mesh obstacle (a triangle): a sphere touching its face, then not */
    hs_world *w = hs_world_new();
    hs_body *tri = hs_world_add_body(w, "sheet", 1, &err);
    double v[9] = {2, 1, -1, 4, 1, -1, 3, 1, 2};
    int t[3] = {0, 1, 2};
    ck_assert(hs_body_add_mesh(tri, v, 3, t, 1, NULL, &err) == HS_OK);
    ck_assert_int_eq(hs_chain_world_collision(c, w, NULL, NULL, &err), 0); /* y = 1 vs 0.5 */
    double down[16], I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, dy[3] = {0, -0.5, 0};
    hs_pose_from_rt(down, I3, dy);
    ck_assert(hs_body_set_pose(tri, down, &err) == HS_OK);
    int link;
    ck_assert_int_eq(hs_chain_world_collision(c, w, &link, NULL, &err), 1);
    ck_assert(link == 2 || link == 3 || link == 4);
    double d;
    ck_assert(hs_chain_world_distance(c, w, &d, NULL, NULL, NULL, NULL, &err) == HS_OK);
    ck_assert(d == 0);
    hs_world_free(w);
    /* errors */
    ck_assert_int_eq(hs_chain_world_collision(NULL, w, NULL, NULL, &err), -1);
    ck_assert(hs_chain_world_distance(c, NULL, &d, NULL, NULL, NULL, NULL, &err) == HS_ERR_ARG);
    hs_chain *empty = new_chain(2);
    hs_world *w2 = box_world((double[]){0, 0, 0}, (double[]){1, 1, 1});
    ck_assert(hs_chain_world_distance(empty, w2, &d, NULL, NULL, NULL, NULL, &err) == HS_ERR_ARG);
    ck_assert(strstr(err.msg, "chain") != NULL);
    hs_world_free(w2);
    hs_chain_free(empty);
    hs_chain_free(c);
}
END_TEST

/* Random spheres and cubes against a random world: the chain's answer
 * against each link tested alone (a one-link chain at its world pose). */
START_TEST(world_collision_matches_links_alone)
{
    uint64_t s = 17;
    hs_error err;
    for (int round = 0; round < 5; round++) {
        hs_world *w = hs_world_new();
        for (int k = 0; k < 4; k++) {
            char name[16];
            snprintf(name, sizeof name, "b%d", k);
            hs_body *b = hs_world_add_body(w, name, 1, &err);
            double size[3] = {0.5 + t_rng_unit(&s), 0.5 + t_rng_unit(&s), 0.5 + t_rng_unit(&s)}, m[16];
            random_pose(&s, 4, m);
            ck_assert(hs_body_add_box(b, size, m, &err) == HS_OK);
        }
        hs_chain *c = new_chain(8);
        for (int i = 0; i < 8; i++) {
            if (i % 2)
                ck_assert(hs_chain_add_hull(c, i, unit_cube, 8, &err) == HS_OK);
            else
                add_sphere(c, i, 0, 0, 0, 0.4);
            if (i) {
                double m[16];
                random_pose(&s, 1, m);
                set_joint(c, i, m);
            }
        }
        int any = 0;
        for (int i = 0; i < 8; i++) {
            hs_chain *one = new_chain(1);
            if (i % 2)
                ck_assert(hs_chain_add_hull(one, 0, unit_cube, 8, &err) == HS_OK);
            else
                add_sphere(one, 0, 0, 0, 0, 0.4);
            double m[16];
            hs_chain_link_pose(c, i, m);
            ck_assert(hs_chain_set_base(one, m, &err) == HS_OK);
            any |= hs_chain_world_collision(one, w, NULL, NULL, &err);
            hs_chain_free(one);
        }
        ck_assert_int_eq(hs_chain_world_collision(c, w, NULL, NULL, &err), any);
        double d;
        ck_assert(hs_chain_world_distance(c, w, &d, NULL, NULL, NULL, NULL, &err) == HS_OK);
        ck_assert(any ? d == 0 : d > 0);
        hs_chain_free(c);
        hs_world_free(w);
    }
}
END_TEST

/* Distance of a chain of cubes to box obstacles against the world's own
 * distance between each link (as a body at its world pose) and each
 * obstacle. */
START_TEST(world_distance_matches_bodies)
{
    uint64_t s = 29;
    hs_error err;
    for (int round = 0; round < 5; round++) {
        hs_world *w = hs_world_new();
        hs_world *lw = hs_world_new(); /* the links as bodies */
        for (int k = 0; k < 3; k++) {
            char name[16];
            snprintf(name, sizeof name, "o%d", k);
            hs_body *b = hs_world_add_body(w, name, 1, &err);
            double size[3] = {1, 1, 1}, m[16];
            random_pose(&s, 6, m);
            ck_assert(hs_body_add_box(b, size, m, &err) == HS_OK);
        }
        hs_chain *c = new_chain(5);
        for (int i = 0; i < 5; i++) {
            ck_assert(hs_chain_add_hull(c, i, unit_cube, 8, &err) == HS_OK);
            if (i) {
                double m[16];
                random_pose(&s, 1.5, m);
                set_joint(c, i, m);
            }
        }
        double best = INFINITY;
        for (int i = 0; i < 5; i++) {
            char name[16];
            snprintf(name, sizeof name, "l%d", i);
            hs_body *lb = hs_world_add_body(lw, name, 0, &err);
            ck_assert(hs_body_add_hull(lb, unit_cube, 8, NULL, &err) == HS_OK);
            double m[16];
            hs_chain_link_pose(c, i, m);
            ck_assert(hs_body_set_pose(lb, m, &err) == HS_OK);
            for (int k = 0; k < 3; k++) {
                hs_body *ob = hs_world_body(w, k);
                /* the obstacle's clone in the links' world */
                char on[32];
                snprintf(on, sizeof on, "c%d_%d", i, k);
                hs_body *cl = hs_world_clone_body(lw, ob, on, &err);
                double d, pa[3], pb[3];
                ck_assert(hs_world_distance(lw, lb, cl, &d, pa, pb, &err) == HS_OK);
                best = fmin(best, d);
                hs_world_remove_body(lw, cl, &err);
            }
        }
        double d, pa[3], pb[3];
        int link;
        const hs_body *body;
        ck_assert(hs_chain_world_distance(c, w, &d, &link, &body, pa, pb, &err) == HS_OK);
        ck_assert_msg(fabs(d - best) <= 1e-9 * (1 + best), "round %d: %.17g vs %.17g", round, d,
                      best);
        hs_chain_free(c);
        hs_world_free(w);
        hs_world_free(lw);
    }
}
END_TEST

/* ------------------------------------------------ joints and files */

START_TEST(typed_joints_and_angles)
{
    hs_error err;
    hs_chain *c = new_chain(4);
    double axis[3] = {0, 0, 2}, origin[16], I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, t[3] = {1, 0, 0};
    hs_pose_from_rt(origin, I3, t);
    ck_assert(hs_chain_define_joint(c, 1, HS_JOINT_REVOLUTE, origin, axis, -1, 1, 0.5, &err) ==
              HS_OK);
    ck_assert(hs_chain_define_joint(c, 2, HS_JOINT_FIXED, origin, NULL, 0, 0, 0, &err) == HS_OK);
    ck_assert(hs_chain_define_joint(c, 3, HS_JOINT_PRISMATIC, NULL, (double[]){1, 0, 0},
                                    -HUGE_VAL, 2, 0, &err) == HS_OK);
    ck_assert_int_eq(hs_chain_dof(c), 2);
    ck_assert_int_eq(hs_chain_movable_joint(c, 0), 1);
    ck_assert_int_eq(hs_chain_movable_joint(c, 1), 3);
    ck_assert_int_eq(hs_chain_movable_joint(c, 2), -1);
    ck_assert(hs_chain_joint_type(c, 2) == HS_JOINT_FIXED);
    ck_assert(hs_chain_joint_type(c, 3) == HS_JOINT_PRISMATIC);
    double J[16], lo, hi, q;
    hs_chain_get_joint(c, 1, J); /* origin, then 0.5 rad about z */
    ck_assert(fabs(J[0] - cos(0.5)) < 1e-15 && fabs(J[4] - sin(0.5)) < 1e-15 && J[3] == 1);
    ck_assert(hs_chain_set_angles(c, (double[]){-1, 1.5}, 2, &err) == HS_OK);
    hs_chain_get_joint(c, 3, J);
    ck_assert(J[3] == 1.5 && J[7] == 0 && J[11] == 0 && J[0] == 1);
    ck_assert(hs_chain_joint_limits(c, 1, &lo, &hi, &q, &err) == HS_OK);
    ck_assert(lo == -HUGE_VAL && hi == 2 && q == 1.5);
    /* errors leave everything as it was */
    ck_assert(hs_chain_set_angles(c, (double[]){0}, 1, &err) == HS_ERR_ARG);
    ck_assert(strstr(err.msg, "1 values for 2 movable joints") != NULL);
    ck_assert(hs_chain_set_angles(c, (double[]){0, 3}, 2, &err) == HS_ERR_ARG);
    ck_assert(strstr(err.msg, "outside the limits") != NULL);
    ck_assert(hs_chain_set_angles(c, (double[]){NAN, 0}, 2, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_set_angles(c, (double[]){0, -INFINITY}, 2, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_joint_limits(c, 1, &lo, &hi, &q, &err) == HS_OK && q == 1.5);
    ck_assert(hs_chain_joint_limits(c, 2, &lo, &hi, &q, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_define_joint(c, 0, HS_JOINT_FIXED, NULL, NULL, 0, 0, 0, &err) ==
              HS_ERR_ARG);
    ck_assert(hs_chain_define_joint(c, 1, (hs_joint_type)7, NULL, axis, 0, 0, 0, &err) ==
              HS_ERR_ARG);
    ck_assert(hs_chain_define_joint(c, 1, HS_JOINT_REVOLUTE, NULL, (double[]){0, 0, 0}, -1, 1,
                                    0, &err) == HS_ERR_ARG);
    ck_assert(hs_chain_define_joint(c, 1, HS_JOINT_REVOLUTE, NULL, axis, 1, -1, 0, &err) ==
              HS_ERR_ARG);
    ck_assert(hs_chain_define_joint(c, 1, HS_JOINT_REVOLUTE, NULL, axis, -1, 1, 2, &err) ==
              HS_ERR_ARG);
    ck_assert(hs_chain_define_joint(c, 1, HS_JOINT_REVOLUTE, NULL, axis, NAN, 1, 0, &err) ==
              HS_ERR_ARG);
    origin[0] = 3;
    ck_assert(hs_chain_define_joint(c, 1, HS_JOINT_FIXED, origin, NULL, 0, 0, 0, &err) ==
              HS_ERR_ARG);
    ck_assert_int_eq(hs_chain_dof(c), 2);
    /* names */
    ck_assert(hs_chain_link_name(c, 0) == NULL && hs_chain_joint_name(c, 1) == NULL);
    ck_assert(hs_chain_set_link_name(c, 0, "base", &err) == HS_OK);
    ck_assert(hs_chain_set_joint_name(c, 1, "shoulder", &err) == HS_OK);
    ck_assert_str_eq(hs_chain_link_name(c, 0), "base");
    ck_assert_str_eq(hs_chain_joint_name(c, 1), "shoulder");
    ck_assert(hs_chain_set_link_name(c, 0, "", &err) == HS_OK && !hs_chain_link_name(c, 0));
    ck_assert(hs_chain_set_link_name(c, 4, "x", &err) == HS_ERR_ARG);
    ck_assert(hs_chain_set_joint_name(c, 0, "x", &err) == HS_ERR_ARG);
    ck_assert(hs_chain_joint_name(c, 9) == NULL && hs_chain_link_name(c, -1) == NULL);
    hs_chain_free(c);
}
END_TEST

/* The Panda (capsules, in the examples): 10 links, 7 joints, free at rest
 * once the links touching there are skipped; the links' world positions
 * at q = 0 are the Panda's known ones. */
START_TEST(panda_file)
{
    hs_error err;
    hs_chain *c = hs_chain_load(t_example_path("chains/panda.chain"), &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    ck_assert_int_eq(hs_chain_link_count(c), 10);
    ck_assert_int_eq(hs_chain_dof(c), 7);
    ck_assert_str_eq(hs_chain_link_name(c, 9), "hand");
    ck_assert_str_eq(hs_chain_joint_name(c, 4), "joint4");
    int *pairs, np;
    ck_assert(hs_chain_auto_skip(c, &pairs, &np, &err) == HS_OK);
    ck_assert_int_eq(np, 1);
    ck_assert(pairs[0] == 7 && pairs[1] == 9); /* link7 and hand (link8 has no piece) */
    hs_free(pairs);
    ck_assert_int_eq(hs_chain_self_collision(c, NULL, NULL, NULL, &err), 0);
    ck_assert(hs_chain_self_collision_all(c, &pairs, &np, NULL, &err) == HS_OK && np == 0);
    hs_free(pairs);
    /* q = 0 except joint 4 at its upper limit: the flange near (0.088, 0, 0.926) */
    double q[7] = {0, 0, 0, -0.0698, 0, 0, 0}, m[16];
    ck_assert(hs_chain_set_angles(c, q, 7, &err) == HS_OK);
    hs_chain_link_pose(c, 5, m);
    ck_assert(fabs(m[11] - (0.333 + 0.316 + 0.384)) < 0.01);
    ck_assert_int_eq(hs_chain_self_collision(c, NULL, NULL, NULL, &err), 1);
    hs_chain_free(c);
    /* the meshes version, when the shared data is there */
    const char *mp = t_example_path("chains/panda_meshes.chain");
    if (!t_data("panda_file (meshes version)", "robots/franka_panda/collision/hand.stl"))
        return; /* recorded as a skip by name */
    c = hs_chain_load(mp, &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    ck_assert(hs_chain_auto_skip(c, NULL, NULL, &err) == HS_OK);
    ck_assert_int_eq(hs_chain_self_collision(c, NULL, NULL, NULL, &err), 0);
    hs_chain_free(c);
}
END_TEST

/* Writes text to a temporary chain file and loads it; returns the chain
 * or NULL with the message in *msg. */
static hs_chain *load_text(const char *text, const char **msg)
{
    static hs_error err;
    const char *name = t_temp_file("hs_chain_", text);
    hs_chain *c = hs_chain_load(name, &err);
    remove(name);
    *msg = err.msg;
    return c;
}

START_TEST(chain_file_errors)
{
    struct {
        const char *text, *msg;
    } cases[] = {
        {"link a\nsphere 0 0 0 0\n", ":2: sphere: the radius must be positive"},
        {"link a\nsphere 0 0 1e999 1\n", ":2: '1e999' is not a finite number"},
        {"link a\njoint j revolute\naxis 0 0 1\nrest 5\nlimits -1 1\nlink b\n",
         ":2: joint 'j': rest value 5 is outside the limits [-1, 1]"},
        {"link a\njoint j prismatic\nlink b\n", ":2: joint 'j' needs an axis"},
        {"joint j fixed\n", ":1: a joint must follow a link"},
        {"link a\njoint j fixed\njoint k fixed\n", ":3: two joints in a row"},
        {"link\n", ":1: link: needs a name"},
        {"link a\nrest 1\n", ":2: 'rest' belongs to a joint"},
        {"link a\nskip a\n", ":2: skip: needs two link names"},
        {"link a\nskip a a\n", ":2: skip: the two links are the same"},
        {"link a\nhull 0 0 0 1 0 0 0 1 0 0 0 1 at 0 0 0 0 0\n", ":2: hull: 'at' needs six values"},
        {"link a\nhull 0 0 0 1 0 0 0 1 0 0 0\n", ":2: hull: needs at least 4 points"},
        {"link a\nmesh\n", ":2: mesh: needs a file name"},
        {"link a\n\x01\n", ":2: unexpected control byte"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *msg;
        hs_chain *c = load_text(cases[k].text, &msg);
        ck_assert_msg(c == NULL, "case %zu loaded", k);
        ck_assert_msg(strstr(msg, cases[k].msg) != NULL, "case %zu: '%s'", k, msg);
        ck_assert_msg(strncmp(msg, "/tmp/hs_chain_", 14) == 0, "case %zu: no file name", k);
    }
    const char *msg;
    hs_error err;
    ck_assert(hs_chain_load("/nonexistent/x.chain", &err) == NULL);
    ck_assert(err.code == HS_ERR_IO || err.code == HS_ERR_INPUT);
    ck_assert(hs_chain_load(NULL, &err) == NULL && err.code == HS_ERR_ARG);
    /* a good file with every kind of piece and a placement */
    hs_chain *c = load_text("link a\nbox 1 2 3 at 0 0 1 0 0 1.5707963267948966\n"
                            "hull 0 0 0 1 0 0 0 1 0 0 0 1 at 5 0 0 0 0 0\n"
                            "joint j revolute\naxis 0 1 0\nlimits -1 1\nrest 0.5\n"
                            "link b\ncapsule 0 0 0 0 0 1 0.25\nsphere 3 0 0 1\n",
                            &msg);
    ck_assert_msg(c != NULL, "%s", msg);
    ck_assert_int_eq(hs_chain_dof(c), 1);
    double lo, hi, q;
    ck_assert(hs_chain_joint_limits(c, 0, &lo, &hi, &q, &err) == HS_OK);
    ck_assert(lo == -1 && hi == 1 && q == 0.5);
    hs_chain_free(c);
}
END_TEST

/* The capsule contains its end spheres: a sphere of radius 1 whose centre
 * is 2 (1 - 2^-20) from the end of a capsule of radius 1, in any
 * direction, always meets it (the polytope lies outside the true
 * spheres). */
START_TEST(capsule_contains_its_spheres)
{
    hs_error err;
    uint64_t s = 8;
    for (int it = 0; it < 200; it++) {
        double d[3] = {t_rng_sym(&s), t_rng_sym(&s), t_rng_sym(&s)};
        double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), p[3];
        if (l < 0.1)
            continue;
        for (int j = 0; j < 3; j++)
            p[j] = 2 * d[j] / l * (1 - 0x1p-20);
        char buf[512];
        snprintf(buf, sizeof buf,
                 "link a\ncapsule 0 0 0 0 0 0 1\njoint j fixed\nlink m\njoint k fixed\n"
                 "origin %.17g %.17g %.17g 0 0 0\nlink b\nsphere 0 0 0 1\n",
                 p[0], p[1], p[2]);
        const char *msg;
        hs_chain *c = load_text(buf, &msg);
        ck_assert_msg(c != NULL, "%s", msg);
        ck_assert_int_eq(hs_chain_self_collision(c, NULL, NULL, NULL, &err), 1);
        hs_chain_free(c);
    }
}
END_TEST

Suite *suite_chain(void)
{
    Suite *s = suite_create("chain");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, shortcuts_match_forward_kinematics);
    tcase_add_test(tc, self_collision_matches_brute_force);
    tcase_add_test(tc, self_collision_after_merged_changes);
    tcase_add_test(tc, self_collision_undo_sequences);
    tcase_add_test(tc, nearly_rigid_joints);
    tcase_add_test(tc, rotation_defect_bounds_the_norm);
    tcase_add_test(tc, face_test_is_conservative);
    tcase_add_test(tc, try_change_matches_plain_moves);
    tcase_add_test(tc, lattice_moves_touch_exactly);
    tcase_add_test(tc, try_change_errors);
    tcase_add_test(tc, touching_spheres_collide);
    tcase_add_test(tc, skip_lists);
    tcase_add_test(tc, argument_errors);
    tcase_add_test(tc, sphere_against_convex_piece);
    tcase_add_test(tc, sphere_against_random_hulls);
    tcase_add_test(tc, convex_pieces_touch_and_overlap);
    tcase_add_test(tc, convex_chains_match_pairwise_tests);
    tcase_add_test(tc, chain_against_world);
    tcase_add_test(tc, world_collision_matches_links_alone);
    tcase_add_test(tc, world_distance_matches_bodies);
    tcase_add_test(tc, typed_joints_and_angles);
    tcase_add_test(tc, panda_file);
    tcase_add_test(tc, chain_file_errors);
    tcase_add_test(tc, capsule_contains_its_spheres);
    suite_add_tcase(s, tc);
    return s;
}

/* test_chain.c -- kinematic chains (seed 003's ChainTree): the shortcut
 * hierarchy against forward kinematics; the bounds behind the box tests
 * (rotation defects, the face test); self-collision against a brute force
 * over all pairs (exact, in GMP), after random changes, merged changes,
 * undo sequences, hs_chain_try_change, with nearly rigid joints, touching
 * spheres and skip lists.  Convex pieces and worlds: test_chain_pieces.c;
 * argument checks, typed joints and chain files: test_chain_api.c. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "polytope/fp.h"
#include "polytope/obb.h"
#include "src/chain/chain.h"
#include "src/chain/chain_box.h"
#include "src/chain/chain_piece_tests.h"
#include "tests/chain_helpers.h"
#include "tests/helpers.h"

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
    double bound = 8.0 * (j - i + 1) * FP_U * (1 + T);
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
            ck_assert(fabs(w[k] - m[k]) <= 8.0 * (n + 1) * FP_U * (10 + T));
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
    suite_add_tcase(s, tc);
    return s;
}

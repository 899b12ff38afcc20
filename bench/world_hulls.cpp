/* world_hulls.cpp -- hulls of real meshes set face down on a floor by
 * floating-point poses, ours against FCL (see world_rest.h, scene
 * "hull-rest").
 *
 * The scene.  Each mesh hull of the data folder (families.h: the hull
 * vertices of every robot mesh, centred and scaled) is added --hull-copies
 * times, as a simulator sets objects down on a table: a random facet of
 * the hull turned face down (its normal rotated onto -z), a random spin
 * about z, and the body lifted so that its lowest vertex is at z = 0 in
 * doubles; the bodies stand on a square grid of spacing 5 (nothing but
 * the floor meets them).  The floor is a static box whose top face is
 * z = 0.  The rotated facet meets the floor only to rounding: each pair
 * overlaps or misses by about 1e-16 of its size, which is the question
 * answered exactly here and approximately by FCL.
 *
 * A step sets every body's pose (the same poses) and runs one query:
 *   ours       hs_body_set_pose x N + hs_world_query (threshold 0, contacts
 *              off, 1 thread, the default broad phase), one report reused
 *              (a pair that met at the last step with equal rows and poses
 *              is answered from its record);
 *   ours-cold  the same with a new report every step (every pair tested,
 *              from nothing);
 *   fcl        setTransform + computeAABB x N, update(), collide() with
 *              fcl::collide per candidate pair (default request) on
 *              fcl::Convex copies of our pieces (their vertices and
 *              faces, hs_body_piece_boundary) and a fcl::Box floor, in a
 *              DynamicAABBTreeCollisionManager.
 * Step 0 is untimed ("first"); steps 1..S are timed one by one, the
 * methods in a rotating order.  Checks: at step 1 the exact LP engine
 * re-decides every pair of the world (our pairs must be its pairs, with
 * its statuses, or the program fails); FCL's pairs are compared with the
 * exact engine's (finds / misses / extra: FCL answers collide or not, so
 * an overlap of 1e-16 it calls free is a miss, a miss of 1e-16 it calls
 * a collision an extra). */
#include "bench/world_rest.h"

#include <fcl/fcl.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench/families.h"
#include "bench/fcl_util.h"
#include "bench/world_util.h"
#include "halfspace.h"

namespace {

using wbench::die;
using wbench::mean;
using wbench::median;
using wbench::rng;
using wbench::timed;

typedef std::vector<std::pair<int, int>> pair_list;

struct hull_scene {
    int n = 0;
    hs_world *w = nullptr;
    std::vector<hs_body *> body;
    std::vector<double> pose; /* 16 per body */
    std::shared_ptr<fcl::CollisionObjectd> ffloor;
    std::vector<std::shared_ptr<fcl::CollisionObjectd>> fobj;
    std::vector<int> fid; /* FCL user data: body index, n for the floor */
};

/* The pose that sets facet normal u (unit) face down, spun by `spin`
 * about z, lifted so that the lowest of pts (np points) is at z = 0, at
 * (x, y). */
void face_down_pose(const double u[3], double spin, const double *pts, int np, double x,
                    double y, double R[16])
{
    hs_error err;
    double axis[3] = {-u[1], u[0], 0}, angle = std::acos(std::fmax(-1, std::fmin(1, -u[2])));
    if (std::hypot(axis[0], axis[1]) < 1e-12) { /* already along z */
        axis[0] = 1;
        axis[1] = 0;
        angle = u[2] < 0 ? 0 : M_PI;
    }
    double S[16], zaxis[3] = {0, 0, 1};
    if (hs_pose_from_axis_angle(R, axis, angle, nullptr, &err) != HS_OK ||
        hs_pose_from_axis_angle(S, zaxis, spin, nullptr, &err) != HS_OK)
        die("hs_pose_from_axis_angle", &err);
    hs_pose_multiply(R, S, R);
    double low = INFINITY;
    for (int i = 0; i < np; i++)
        low = std::fmin(low, R[8] * pts[3 * i] + R[9] * pts[3 * i + 1] + R[10] * pts[3 * i + 2]);
    R[3] = x;
    R[7] = y;
    R[11] = -low;
}

void build_hulls(hull_scene &sc, const fam_meshes *ms, int copies, uint64_t seed)
{
    hs_error err;
    rng r(seed);
    sc.w = hs_world_new();
    if (!sc.w)
        die("out of memory");
    hs_body *floor = hs_world_add_body(sc.w, "floor", 1, &err);
    double size[3] = {1000, 1000, 1}, place[16];
    hs_pose_identity(place);
    place[11] = -0.5;
    if (!floor || hs_body_add_box(floor, size, place, &err) != HS_OK)
        die("the floor", &err);
    int meshes = fam_meshes_count(ms), grid = (int)std::ceil(std::sqrt(meshes * copies));
    sc.n = meshes * copies;
    sc.fid.resize((size_t)sc.n + 1);
    sc.fid[(size_t)sc.n] = sc.n;
    sc.ffloor = std::make_shared<fcl::CollisionObjectd>(
        std::make_shared<fcl::Boxd>(1000, 1000, 1), fbench::fcl_pose(place));
    sc.ffloor->setUserData(&sc.fid[(size_t)sc.n]);
    for (int k = 0; k < meshes; k++) {
        int np = fam_mesh_points(ms, k);
        std::vector<double> pts(3 * (size_t)np);
        fam_mesh_copy_points(ms, k, pts.data());
        fam_pair hull;
        std::memset(&hull, 0, sizeof hull);
        if (fam_pair_hull(pts.data(), np, &hull, 0, &err) != HS_OK)
            die("a mesh hull", &err);
        for (int c = 0; c < copies; c++) {
            int i = (int)sc.body.size();
            const double *a = hull.a[0] + 3 * (size_t)r.integer(0, hull.m[0] - 1);
            double len = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
            double u[3] = {a[0] / len, a[1] / len, a[2] / len}, R[16];
            face_down_pose(u, r.uniform(0, 6.283185307179586), pts.data(), np, 5.0 * (i % grid),
                           5.0 * (i / grid), R);
            char name[32];
            std::snprintf(name, sizeof name, "h%d", i);
            hs_body *b = hs_world_add_body(sc.w, name, 0, &err);
            if (!b || hs_body_add_hull(b, pts.data(), np, nullptr, &err) != HS_OK ||
                hs_body_set_pose(b, R, &err) != HS_OK)
                die("a hull body", &err);
            sc.body.push_back(b);
            sc.pose.insert(sc.pose.end(), R, R + 16);
            /* FCL's copy: exactly our piece's vertices and faces */
            int convex = 0, nv = 0, nf = 0, *fs = nullptr, *fv = nullptr;
            double *v = nullptr;
            if (hs_body_piece_boundary(b, 0, &convex, &v, &nv, &fs, &fv, &nf, &err) != HS_OK ||
                !convex)
                die("hs_body_piece_boundary", &err);
            auto geom = fbench::fcl_convex(v, nv, fs, fv, nf);
            hs_free(v);
            hs_free(fs);
            hs_free(fv);
            sc.fobj.push_back(std::make_shared<fcl::CollisionObjectd>(geom));
            sc.fid[(size_t)i] = i;
            sc.fobj.back()->setUserData(&sc.fid[(size_t)i]);
        }
        fam_pair_free(&hull);
    }
}

/* The pairs of a report as (body, n for the floor) index pairs, a < b,
 * and their statuses in the same order. */
pair_list report_pairs(const hull_scene &sc, const hs_report *rep, std::vector<int> *status)
{
    std::vector<std::pair<std::pair<int, int>, int>> all;
    for (int k = 0; k < hs_report_pair_count(rep); k++) {
        const char *a, *b;
        hs_status st;
        if (hs_report_pair(rep, k, &a, &b, &st) != HS_OK)
            die("hs_report_pair");
        int ia = a[0] == 'h' ? std::atoi(a + 1) : sc.n, ib = b[0] == 'h' ? std::atoi(b + 1) : sc.n;
        all.push_back({{std::min(ia, ib), std::max(ia, ib)}, (int)st});
    }
    std::sort(all.begin(), all.end());
    pair_list out;
    if (status)
        status->clear();
    for (auto &p : all) {
        out.push_back(p.first);
        if (status)
            status->push_back(p.second);
    }
    return out;
}

enum { H_OURS, H_COLD, H_FCL, H_METHODS };
const char *hull_name[H_METHODS] = {"ours", "ours-cold", "fcl"};

using wbench::series;

} // namespace

void hulls_run(const rest_options &o)
{
    char note[512];
    fam_meshes *ms = fam_meshes_load(o.data.c_str(), note, sizeof note);
    if (!ms) {
        std::printf("\n### Hulls set face down on a floor\n\nSkipped: %s\n", note);
        return;
    }
    hull_scene sc;
    build_hulls(sc, ms, o.hull_copies, o.seed);
    const int n = sc.n;
    hs_error err;
    hs_query_options opt = wbench::step_options();
    hs_report *rep = hs_report_new();
    if (!rep)
        die("out of memory");

    /* the exact engine's answer: the reference */
    hs_query_options xopt = opt;
    xopt.engine = HS_ENGINE_EXACT;
    hs_report *xr = hs_report_new();
    if (!xr || hs_world_query(sc.w, &xopt, xr, &err) != HS_OK)
        die("the exact engine's query", &err);
    std::vector<int> xstatus, status;
    const pair_list want = report_pairs(sc, xr, &xstatus);
    hs_report_free(xr);
    long overlap = std::count(xstatus.begin(), xstatus.end(), (int)HS_OVERLAP);
    long touching = std::count(xstatus.begin(), xstatus.end(), (int)HS_TOUCHING);

    std::vector<fcl::CollisionObjectd *> objs{sc.ffloor.get()};
    for (auto &p : sc.fobj)
        objs.push_back(p.get());
    auto manager = std::make_unique<fcl::DynamicAABBTreeCollisionManagerd>();
    manager->registerObjects(objs);
    manager->setup();
    fbench::fcl_pairs data;

    series m[H_METHODS];
    long fcl_found = 0, fcl_missed = 0, fcl_extra = 0, fallbacks = 0, fallbacks_cold = 0;
    long tested = 0, repeated = 0;
    for (int s = 0; s <= o.steps; s++)
        for (int j = 0; j < H_METHODS; j++) {
            int mi = (s + j) % H_METHODS;
            long switched = 0;
            double dt;
            if (mi == H_FCL) {
                data.pairs.clear();
                data.narrow = 0;
                dt = timed(
                    [&] {
                        for (int i = 0; i < n; i++) {
                            sc.fobj[(size_t)i]->setTransform(
                                fbench::fcl_pose(&sc.pose[16 * (size_t)i]));
                            sc.fobj[(size_t)i]->computeAABB();
                        }
                        manager->update();
                        manager->collide(&data, fbench::fcl_pairs_callback);
                    },
                    &switched);
                std::sort(data.pairs.begin(), data.pairs.end());
                if (s == 1) {
                    pair_list both;
                    std::set_intersection(data.pairs.begin(), data.pairs.end(), want.begin(),
                                          want.end(), std::back_inserter(both));
                    fcl_found = (long)both.size();
                    fcl_missed = (long)want.size() - fcl_found;
                    fcl_extra = (long)data.pairs.size() - fcl_found;
                }
            } else {
                hs_report *use = mi == H_OURS ? rep : hs_report_new();
                if (!use)
                    die("out of memory");
                hs_code rc = HS_OK;
                dt = timed(
                    [&] {
                        for (int i = 0; i < n && rc == HS_OK; i++)
                            rc = hs_body_set_pose(sc.body[(size_t)i], &sc.pose[16 * (size_t)i],
                                                  &err);
                        if (rc == HS_OK)
                            rc = hs_world_query(sc.w, &opt, use, &err);
                    },
                    &switched);
                if (rc != HS_OK)
                    die("hs_world_query", &err);
                if (report_pairs(sc, use, &status) != want || status != xstatus)
                    die("our pairs differ from the exact engine's");
                hs_report_stats st;
                hs_report_get_stats(use, &st);
                if (s == 1 && mi == H_OURS) {
                    fallbacks = st.fallbacks;
                    tested = st.piece_pairs;
                }
                if (s == 2 && mi == H_OURS)
                    repeated = st.repeated;
                if (s == 1 && mi == H_COLD)
                    fallbacks_cold = st.fallbacks;
                if (use != rep)
                    hs_report_free(use);
            }
            dt *= 1e3;
            if (s == 0)
                m[mi].first = dt;
            else {
                m[mi].v.push_back(dt);
                m[mi].switched += switched;
            }
        }
    hs_report_free(rep);

    std::printf("\n### Hulls set face down on a floor (a rounding apart)\n\n");
    std::printf("| N | pairs: overlap / touching (exact engine) | piece pairs tested | "
                "fallbacks per step: ours / ours-cold | pairs answered from records | ours ms "
                "(spread) | ours-cold ms (spread) | FCL ms (spread) | ours / FCL | "
                "ours-cold / FCL | ours-cold us per body | first step ours / FCL ms | FCL finds "
                "/ misses / extra |\n");
    std::printf("|---:|---|---:|---|---:|---|---|---|---:|---:|---:|---|---|\n");
    std::printf("| %d | %ld / %ld | %ld | %ld / %ld | %ld | %.4g (%.4g-%.4g) | %.4g (%.4g-%.4g) "
                "| %.4g (%.4g-%.4g) | %.3g | %.3g | %.3g | %.4g / %.4g | %ld / %ld / %ld |\n",
                n, overlap, touching, tested, fallbacks, fallbacks_cold, repeated,
                mean(m[H_OURS].v), m[H_OURS].lo(), m[H_OURS].hi(), mean(m[H_COLD].v),
                m[H_COLD].lo(), m[H_COLD].hi(), mean(m[H_FCL].v), m[H_FCL].lo(), m[H_FCL].hi(),
                mean(m[H_OURS].v) / mean(m[H_FCL].v), mean(m[H_COLD].v) / mean(m[H_FCL].v),
                1e3 * mean(m[H_COLD].v) / n, m[H_OURS].first, m[H_FCL].first, fcl_found,
                fcl_missed, fcl_extra);
    std::printf("\nSeed %" PRIu64 ", %d mesh hulls, %d copies each, %d timed steps after an "
                "untimed first one, the three methods in a rotating order.  Each body: a "
                "random facet turned face down, a random spin about z, lifted so that its "
                "lowest vertex is at z = 0 in doubles; the floor's top face is z = 0.  ours: "
                "one report reused (threshold 0, contacts off, one thread); ours-cold: a new "
                "report every step; FCL: fcl::Convex copies of our pieces and a fcl::Box "
                "floor, DynamicAABBTreeCollisionManager, update + collide, default request.  "
                "Our pairs and statuses equal the exact engine's at every step (checked); "
                "FCL's are compared with them at step 1.  Steps during which the thread was "
                "switched out, timed by CPU time instead: ours %ld, ours-cold %ld, FCL %ld.\n",
                o.seed, fam_meshes_count(ms), o.hull_copies, o.steps, m[H_OURS].switched,
                m[H_COLD].switched, m[H_FCL].switched);
    std::printf("\n```text\n");
    for (int mi = 0; mi < H_METHODS; mi++)
        std::printf("RESULT bench=world scene=hull-rest n=%d method=%s ms_per_step=%.4g "
                    "spread=%.4g-%.4g median_ms=%.4g first_ms=%.4g pairs=%d\n",
                    n, hull_name[mi], mean(m[mi].v), m[mi].lo(), m[mi].hi(), median(m[mi].v),
                    m[mi].first, mi == H_FCL ? (int)(fcl_found + fcl_extra) : (int)want.size());
    std::printf("```\n");
    hs_world_free(sc.w);
    fam_meshes_free(ms);
}

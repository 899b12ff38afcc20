/* world_rest.cpp -- resting contact and body setup, ours against FCL (see
 * world_rest.h).
 *
 * Resting contact (scene "rest").  N boxes stand on a floor in stacks of
 * one to three (60% / 25% / 15% of the stacks), one stack per site of a
 * square grid of spacing 2.5.  Box sides are multiples of 1/16 in
 * [0.5, 1.5]; a box is turned about the vertical by a random angle (pose
 * [c -s 0 x; s c 0 y; 0 0 1 z], so its third row and column are exactly
 * (0, 0, 1)); the floor is a static box whose top face is z = 0; the
 * bottom box of a stack has z = sz / 2, a box on another has z = (top of
 * the one below) + sz / 2, all multiples of 1/32, and sits off the centre
 * of the one below by a multiple of 1/64 up to 1/16 per axis.  So every
 * box touches its support face on face with a 2-D contact, exactly in the
 * numbers written (in the frame of either box the vertical row and offset
 * stay exact), and nothing else meets: N touching pairs.  Neighbouring
 * stacks come within 0.02 of each other, so the broad phase also hands
 * over disjoint pairs.
 *
 * A step sets every box's pose (the same poses: a resting scene) and runs
 * one query, as a simulator would at each time step:
 *   ours       hs_body_set_pose x N + hs_world_query (threshold 0,
 *              contacts off, 1 thread, the default broad phase), one report
 *              reused by every step (temporal coherence);
 *   ours-cold  the same with a new report every step (no hints, no
 *              records of the last step);
 *   ours-moved the same with its own report reused, every box moved by
 *              2^-20 along x on odd steps and back on even ones (the boxes
 *              still touch exactly): no pair's inputs equal the last
 *              step's, so none is answered from its record (narrow_memo.h)
 *              and every pair is tested, starting from its hint;
 *   ours-contacts  ours with contact points: threshold 2^-20, contacts on,
 *              its own report reused;
 *   fcl-contacts   fcl with enable_contact, num_max_contacts 16;
 *   fcl        setTransform + computeAABB x N, update(), collide() with
 *              fcl::collide per candidate pair (default request: GJK
 *              solver GST_LIBCCD, no contacts) on fcl::Box shapes of the
 *              same sizes and poses (FCL's own box-box test), in a
 *              DynamicAABBTreeCollisionManager.
 * Step 0 is untimed (its time is reported as "first"); steps 1..S are
 * timed one by one, the six methods in a rotating order.  Reported: the
 * mean over the timed steps, the spread (fastest and slowest step) and the
 * median.  Checks: our pair set must be exactly the N (box, support)
 * pairs, all touching, at every step (else the program fails); at step 1
 * the exact LP engine re-decides every pair (disagreements printed); FCL's
 * pairs are compared with ours and the differences counted.
 *
 * Body setup (bench "setup").  Per round a fresh world and a fresh FCL
 * manager; then each body is added and timed alone:
 *   box    ours: hs_world_add_body + hs_body_add_box + hs_body_set_pose;
 *          FCL: a shared fcl::Box, a CollisionObject with the transform
 *          (which computes its box) and registerObject;
 *   hull   each mesh hull of the data folder (families.h: the hull
 *          vertices of every robot mesh, scaled), --setup-hull-copies
 *          times: ours: hs_world_add_body + hs_body_add_hull on the hull
 *          vertices + hs_body_set_pose; FCL: the vertices and faces copied
 *          into the vectors of a fcl::Convex, a CollisionObject and
 *          registerObject.  FCL has no hull builder: it is handed the faces
 *          (our piece's boundary, computed before the timing), while ours
 *          computes the exact hull of the vertices it is given.
 * Rounds alternate which side goes first.  Reported: mean microseconds per
 * body over all bodies and rounds, the spread of the per-round means, and
 * the time of one query of the whole world right after the adds (ours:
 * hs_world_query; FCL: setup + collide), which pays whatever adding a body
 * left for later.
 *
 * Timing: steady_clock around each step or body; when the thread was
 * switched out meanwhile (another process ran), the thread's CPU time is
 * taken instead (wbench::timed), and such steps are counted. */
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
using wbench::now_s;
using wbench::rng;
using wbench::timed;

/* ------------------------------------------------------------ summaries */

using wbench::series;

/* ------------------------------------------------------------ the scene */

struct rest_scene {
    int n = 0, sites = 0, grid = 0, stacks[3] = {0, 0, 0};
    double side = 0;
    hs_world *w = nullptr;
    hs_body *floor = nullptr;
    std::vector<hs_body *> body;
    std::vector<double> pose; /* 16 per box */
    std::vector<double> size; /* 3 per box */
    std::vector<int> support; /* -1: the floor, else the box below */
    std::shared_ptr<fcl::CollisionObjectd> ffloor;
    std::vector<std::shared_ptr<fcl::CollisionObjectd>> fobj;
    std::vector<int> fid; /* FCL user data: box index, n for the floor */
    ~rest_scene() { hs_world_free(w); }
};

void build_rest(rest_scene &sc, int n, uint64_t seed)
{
    rng r(seed * 7919u + (uint64_t)n);
    std::vector<int> heights;
    for (int placed = 0; placed < n;) {
        double u = r.uniform();
        int h = std::min(u < 0.6 ? 1 : u < 0.85 ? 2 : 3, n - placed);
        heights.push_back(h);
        sc.stacks[h - 1]++;
        placed += h;
    }
    sc.n = n;
    sc.sites = (int)heights.size();
    sc.grid = (int)std::ceil(std::sqrt((double)sc.sites));
    sc.side = 2.5 * sc.grid;
    sc.w = hs_world_new();
    if (!sc.w)
        die("out of memory");
    hs_error err;
    /* the floor: top face z = 0 */
    double fsize[3] = {sc.side + 2, sc.side + 2, 1}, fpose[16];
    double fR[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, ft[3] = {sc.side / 2, sc.side / 2, -0.5};
    hs_pose_from_rt(fpose, fR, ft);
    sc.floor = hs_world_add_body(sc.w, "static_floor", 1, &err);
    if (!sc.floor || hs_body_add_box(sc.floor, fsize, nullptr, &err) != HS_OK ||
        hs_body_set_pose(sc.floor, fpose, &err) != HS_OK)
        die("the floor", &err);
    sc.fid.resize((size_t)n + 1);
    sc.fid[n] = n;
    sc.ffloor = std::make_shared<fcl::CollisionObjectd>(
        std::make_shared<fcl::Boxd>(fsize[0], fsize[1], fsize[2]), fbench::fcl_pose(fpose));
    sc.ffloor->setUserData(&sc.fid[n]);
    sc.body.resize(n);
    sc.pose.resize(16 * (size_t)n);
    sc.size.resize(3 * (size_t)n);
    sc.support.resize(n);
    sc.fobj.resize(n);
    int i = 0;
    for (int s = 0; s < sc.sites; s++) {
        double cx = 2.5 * (s % sc.grid) + 1.25, cy = 2.5 * (s / sc.grid) + 1.25, z = 0;
        for (int level = 0; level < heights[s]; level++, i++) {
            double *sz = &sc.size[3 * (size_t)i], *m = &sc.pose[16 * (size_t)i];
            for (int d = 0; d < 3; d++)
                sz[d] = r.integer(8, 24) / 16.0;
            double dx = level ? r.integer(-4, 4) / 64.0 : 0, dy = level ? r.integer(-4, 4) / 64.0 : 0;
            double th = r.uniform(0, 2 * M_PI), c = std::cos(th), sn = std::sin(th);
            double pm[16] = {c, -sn, 0, cx + dx, sn, c, 0, cy + dy, 0, 0, 1, z + sz[2] / 2,
                             0, 0, 0, 1};
            std::memcpy(m, pm, sizeof pm);
            z += sz[2];
            sc.support[i] = level ? i - 1 : -1;
            char name[32];
            std::snprintf(name, sizeof name, "r%06d", i);
            hs_body *b = hs_world_add_body(sc.w, name, 0, &err);
            if (!b || hs_body_add_box(b, sz, nullptr, &err) != HS_OK ||
                hs_body_set_pose(b, m, &err) != HS_OK)
                die("a box", &err);
            sc.body[i] = b;
            sc.fid[i] = i;
            sc.fobj[i] = std::make_shared<fcl::CollisionObjectd>(
                std::make_shared<fcl::Boxd>(sz[0], sz[1], sz[2]), fbench::fcl_pose(m));
            sc.fobj[i]->setUserData(&sc.fid[i]);
        }
    }
}

/* ------------------------------------------------------------ pair sets */

typedef std::vector<std::pair<int, int>> pair_list;

/* Our pairs as (box or n for the floor) index pairs, a < b; statuses that
 * are not touching are counted in *not_touching. */
pair_list our_pairs(const rest_scene &sc, const hs_report *rep, long *not_touching)
{
    pair_list out;
    int np = hs_report_pair_count(rep);
    for (int k = 0; k < np; k++) {
        const char *a, *b;
        hs_status st;
        if (hs_report_pair(rep, k, &a, &b, &st) != HS_OK)
            die("hs_report_pair");
        int ia = a[0] == 'r' ? std::atoi(a + 1) : sc.n, ib = b[0] == 'r' ? std::atoi(b + 1) : sc.n;
        out.emplace_back(std::min(ia, ib), std::max(ia, ib));
        *not_touching += st != HS_TOUCHING;
    }
    std::sort(out.begin(), out.end());
    return out;
}

pair_list expected_pairs(const rest_scene &sc)
{
    pair_list out;
    for (int i = 0; i < sc.n; i++)
        out.emplace_back(sc.support[i] < 0 ? i : sc.support[i], sc.support[i] < 0 ? sc.n : i);
    std::sort(out.begin(), out.end());
    return out;
}

/* Setup's first query: runs fcl::collide on every candidate pair and
 * counts the collisions (the objects carry no user data). */
bool fcl_count_callback(fcl::CollisionObjectd *o1, fcl::CollisionObjectd *o2, void *user)
{
    auto *d = static_cast<fbench::fcl_pairs *>(user);
    fcl::CollisionResultd result;
    d->narrow++;
    fcl::collide(o1, o2, d->request, result);
    if (result.isCollision())
        d->pairs.emplace_back(0, 0);
    return false;
}

/* ------------------------------------------------------------ one size */

enum { R_OURS, R_COLD, R_MOVED, R_CONTACTS, R_FCL, R_FCLC, R_METHODS };
const char *rest_name[R_METHODS] = {"ours", "ours-cold", "ours-moved", "ours-contacts", "fcl",
                                    "fcl-contacts"};

struct rest_result {
    int n = 0, sites = 0, stacks[3] = {0, 0, 0};
    series m[R_METHODS];
    long fcl_found = 0, fcl_extra = 0, fcl_missed = 0; /* at step 1 */
    long candidates_ours = 0, candidates_fcl = 0, fallbacks = 0;
    long repeated = 0, repeated_moved = 0; /* pairs answered from records, step 2 */
    long contacts_ours = 0, contacts_fcl = 0; /* contact points found at step 1 */
    long exact_pairs = 0, exact_disagree = 0;
    double build_s = 0;
};

rest_result rest_size(int n, const rest_options &o)
{
    rest_result res;
    res.n = n;
    rest_scene sc;
    double t0 = now_s();
    build_rest(sc, n, o.seed);
    res.build_s = now_s() - t0;
    res.sites = sc.sites;
    std::copy(sc.stacks, sc.stacks + 3, res.stacks);
    const pair_list want = expected_pairs(sc);

    hs_error err;
    hs_query_options opt = wbench::step_options();
    hs_report *rep = hs_report_new(), *cold = nullptr, *moved_rep = hs_report_new();
    hs_report *contacts_rep = hs_report_new();
    if (!rep || !moved_rep || !contacts_rep)
        die("out of memory");
    hs_query_options copt = opt; /* ours-contacts: contact points of the touching pairs */
    copt.threshold = 0x1p-20;
    copt.contacts = 1;
    std::vector<double> moved(sc.pose); /* ours-moved's poses, set per step */

    std::vector<fcl::CollisionObjectd *> objs;
    objs.push_back(sc.ffloor.get());
    for (auto &p : sc.fobj)
        objs.push_back(p.get());
    auto manager = std::make_unique<fcl::DynamicAABBTreeCollisionManagerd>();
    manager->registerObjects(objs);
    manager->setup();
    fbench::fcl_pairs data, cdata;
    cdata.request.enable_contact = true;
    cdata.request.num_max_contacts = 16;

    for (int s = 0; s <= o.steps; s++) {
        for (int j = 0; j < R_METHODS; j++) {
            int mi = (s + j) % R_METHODS;
            series &ms = res.m[mi];
            long switched = 0;
            double dt;
            if (mi == R_FCL || mi == R_FCLC) {
                fbench::fcl_pairs &fd = mi == R_FCL ? data : cdata;
                fd.pairs.clear();
                fd.narrow = 0;
                fd.contacts = 0;
                dt = timed(
                    [&] {
                        for (int i = 0; i < n; i++) {
                            sc.fobj[i]->setTransform(fbench::fcl_pose(&sc.pose[16 * (size_t)i]));
                            sc.fobj[i]->computeAABB();
                        }
                        manager->update();
                        manager->collide(&fd, fbench::fcl_pairs_callback);
                    },
                    &switched);
                std::sort(fd.pairs.begin(), fd.pairs.end());
                if (s == 1 && mi == R_FCLC)
                    res.contacts_fcl = fd.contacts;
                if (s == 1 && mi == R_FCL) {
                    pair_list both, extra;
                    std::set_intersection(data.pairs.begin(), data.pairs.end(), want.begin(),
                                          want.end(), std::back_inserter(both));
                    std::set_difference(data.pairs.begin(), data.pairs.end(), want.begin(),
                                        want.end(), std::back_inserter(extra));
                    res.fcl_found = (long)both.size();
                    res.fcl_extra = (long)extra.size();
                    res.fcl_missed = (long)want.size() - (long)both.size();
                    res.candidates_fcl = data.narrow;
                }
            } else {
                hs_report *use = mi == R_MOVED ? moved_rep : mi == R_CONTACTS ? contacts_rep : rep;
                const hs_query_options *qo = mi == R_CONTACTS ? &copt : &opt;
                const double *poses = sc.pose.data();
                if (mi == R_MOVED) { /* (outside the timing) */
                    for (int i = 0; i < n; i++)
                        moved[16 * (size_t)i + 3] =
                            sc.pose[16 * (size_t)i + 3] + ((s & 1) ? 0x1p-20 : 0.0);
                    poses = moved.data();
                }
                if (mi == R_COLD) { /* (outside the timing) */
                    hs_report_free(cold);
                    if (!(cold = hs_report_new()))
                        die("out of memory");
                    use = cold;
                }
                dt = timed(
                    [&] {
                        for (int i = 0; i < n; i++)
                            if (hs_body_set_pose(sc.body[i], &poses[16 * (size_t)i], &err) !=
                                HS_OK)
                                die("hs_body_set_pose", &err);
                        if (hs_world_query(sc.w, qo, use, &err) != HS_OK)
                            die("hs_world_query", &err);
                    },
                    &switched);
                long not_touching = 0;
                pair_list got = our_pairs(sc, use, &not_touching);
                if (got != want || not_touching) {
                    std::fprintf(stderr,
                                 "world: rest N=%d step %d (%s): %zu pairs (%ld not touching), "
                                 "expected the %zu box-support pairs, all touching\n",
                                 n, s, rest_name[mi], got.size(), not_touching, want.size());
                    std::exit(EXIT_FAILURE);
                }
                hs_report_stats st;
                hs_report_get_stats(use, &st);
                if (s == 1 && mi == R_OURS) {
                    res.candidates_ours = st.body_pairs;
                    res.fallbacks = st.fallbacks;
                }
                if (s == 2 && mi == R_OURS)
                    res.repeated = st.repeated;
                if (s == 2 && mi == R_MOVED)
                    res.repeated_moved = st.repeated;
                if (s == 1 && mi == R_CONTACTS)
                    for (int k = 0; k < hs_report_pair_count(use); k++)
                        res.contacts_ours += hs_report_contact_count(use, k);
            }
            if (s == 0)
                ms.first = 1e3 * dt;
            else {
                ms.v.push_back(1e3 * dt);
                ms.switched += switched;
            }
        }
        if (o.verbose)
            std::fprintf(stderr, "world: rest N=%d step %d: ours %.3f ms, fcl %.3f ms\n", n, s,
                         s ? res.m[R_OURS].v.back() : res.m[R_OURS].first,
                         s ? res.m[R_FCL].v.back() : res.m[R_FCL].first);
        if (s == 1) { /* the exact engine re-decides every pair (untimed) */
            hs_query_options xopt = opt;
            xopt.engine = HS_ENGINE_EXACT;
            hs_report *xr = hs_report_new();
            if (!xr || hs_world_query(sc.w, &xopt, xr, &err) != HS_OK)
                die("hs_world_query (exact engine)", &err);
            long not_touching = 0;
            pair_list xs = our_pairs(sc, xr, &not_touching);
            pair_list diff;
            std::set_symmetric_difference(xs.begin(), xs.end(), want.begin(), want.end(),
                                          std::back_inserter(diff));
            res.exact_pairs = (long)xs.size();
            res.exact_disagree = (long)diff.size() + not_touching;
            hs_report_free(xr);
        }
    }
    hs_report_free(rep);
    hs_report_free(cold);
    hs_report_free(moved_rep);
    hs_report_free(contacts_rep);
    std::fprintf(stderr, "world: rest N=%d: ours %.3f ms, ours-cold %.3f ms, ours-moved %.3f ms, "
                 "fcl %.3f ms per step\n", n, mean(res.m[R_OURS].v), mean(res.m[R_COLD].v),
                 mean(res.m[R_MOVED].v), mean(res.m[R_FCL].v));
    return res;
}

/* ------------------------------------------------------------ setup */

struct hull_shape {
    std::string name;
    std::vector<double> pts;            /* the hull vertices */
    std::vector<fcl::Vector3d> fverts; /* FCL: our piece's vertices ... */
    std::vector<int> ffaces;           /* ... and faces (count, corners ...) */
    int nfaces = 0;
};

std::vector<hull_shape> load_hulls(const rest_options &o, std::string *note)
{
    std::vector<hull_shape> out;
    char buf[512] = "";
    fam_meshes *ms = fam_meshes_load(o.data.c_str(), buf, sizeof buf);
    if (!ms) {
        *note = buf;
        return out;
    }
    hs_world *w = hs_world_new();
    hs_error err;
    for (int k = 0; k < fam_meshes_count(ms); k++) {
        hull_shape h;
        h.name = fam_mesh_name(ms, k);
        int np = fam_mesh_points(ms, k);
        h.pts.resize(3 * (size_t)np);
        fam_mesh_copy_points(ms, k, h.pts.data());
        char name[32];
        std::snprintf(name, sizeof name, "h%d", k);
        hs_body *b = hs_world_add_body(w, name, 0, &err);
        if (!b || hs_body_add_hull(b, h.pts.data(), np, nullptr, &err) != HS_OK)
            die("a mesh hull", &err);
        int convex = 0, nv = 0, nf = 0, *fs = nullptr, *fv = nullptr;
        double *v = nullptr;
        if (hs_body_piece_boundary(b, 0, &convex, &v, &nv, &fs, &fv, &nf, &err) != HS_OK)
            die("hs_body_piece_boundary", &err);
        for (int j = 0; j < nv; j++)
            h.fverts.emplace_back(v[3 * j], v[3 * j + 1], v[3 * j + 2]);
        for (int f = 0; f < nf; f++) {
            h.ffaces.push_back(fs[f + 1] - fs[f]);
            for (int c = fs[f]; c < fs[f + 1]; c++)
                h.ffaces.push_back(fv[c]);
        }
        h.nfaces = nf;
        hs_free(v);
        hs_free(fs);
        hs_free(fv);
        out.push_back(std::move(h));
    }
    hs_world_free(w);
    fam_meshes_free(ms);
    return out;
}

struct setup_result {
    const char *shape;
    int bodies = 0; /* per round */
    series ours, fcl; /* per-round means (us per body) */
    series ours_first, fcl_first; /* the first query after the adds, ms */
    std::vector<double> all_ours, all_fcl; /* every body */
    long switched_ours = 0, switched_fcl = 0;
};

/* One shape kind: `count` bodies per round; add_ours / add_fcl add body k
 * (timed inside). */
template <class FO, class FF>
void setup_rounds(const rest_options &o, setup_result &res, int count, FO add_ours, FF add_fcl)
{
    res.bodies = count;
    std::vector<std::string> names((size_t)count);
    for (int k = 0; k < count; k++) {
        char name[32];
        std::snprintf(name, sizeof name, "s%06d", k);
        names[k] = name;
    }
    for (int round = 0; round < o.setup_rounds; round++) {
        for (int side = 0; side < 2; side++) {
            bool ours = (side == 0) == (round % 2 == 0);
            double sum = 0;
            if (ours) {
                hs_world *w = hs_world_new();
                if (!w)
                    die("out of memory");
                for (int k = 0; k < count; k++) {
                    double dt = timed([&] { add_ours(w, names[k].c_str(), k); }, &res.switched_ours);
                    res.all_ours.push_back(1e6 * dt);
                    sum += 1e6 * dt;
                }
                /* the first query: whatever adding a body left for later */
                hs_query_options opt = wbench::step_options();
                hs_report *rep = hs_report_new();
                hs_error err;
                long sw = 0;
                double q = timed(
                    [&] {
                        if (!rep || hs_world_query(w, &opt, rep, &err) != HS_OK)
                            die("hs_world_query", &err);
                    },
                    &sw);
                res.ours_first.v.push_back(1e3 * q);
                hs_report_free(rep);
                hs_world_free(w);
                res.ours.v.push_back(sum / count);
            } else {
                auto manager = std::make_unique<fcl::DynamicAABBTreeCollisionManagerd>();
                std::vector<std::shared_ptr<fcl::CollisionObjectd>> keep((size_t)count);
                for (int k = 0; k < count; k++) {
                    double dt = timed([&] { keep[k] = add_fcl(manager.get(), k); },
                                      &res.switched_fcl);
                    res.all_fcl.push_back(1e6 * dt);
                    sum += 1e6 * dt;
                }
                fbench::fcl_pairs data;
                long sw = 0;
                double q = timed(
                    [&] {
                        manager->setup();
                        manager->collide(&data, fcl_count_callback);
                    },
                    &sw);
                res.fcl_first.v.push_back(1e3 * q);
                res.fcl.v.push_back(sum / count);
            }
        }
    }
}

} // namespace

/* ------------------------------------------------------------ printing */

void rest_run(const rest_options &o)
{
    std::vector<rest_result> all;
    for (int n : o.sizes)
        all.push_back(rest_size(n, o));
    std::printf("\n### Resting contact: boxes on a floor and in stacks\n\n");
    std::printf("| N | stacks of 1 / 2 / 3 | touching pairs | broad-phase pairs ours / FCL | "
                "fast-engine fallbacks per step | pairs answered from records: ours / "
                "ours-moved | ours ms (spread) | ours-cold ms (spread) | ours-moved ms "
                "(spread) | FCL ms (spread) | ours / FCL | ours-cold / FCL | ours-moved / FCL "
                "| first step ours / FCL ms | FCL finds / misses / extra | exact engine: pairs "
                "/ disagreements |\n");
    std::printf("|---:|---|---:|---|---:|---|---|---|---|---|---:|---:|---:|---|---|---|\n");
    for (const rest_result &r : all)
        std::printf("| %d | %d / %d / %d | %d | %ld / %ld | %ld | %ld / %ld | %.4g (%.4g-%.4g) "
                    "| %.4g (%.4g-%.4g) | %.4g (%.4g-%.4g) | %.4g (%.4g-%.4g) | %.3g | %.3g | "
                    "%.3g | %.4g / %.4g | %ld / %ld / %ld | %ld / %ld |\n",
                    r.n, r.stacks[0], r.stacks[1], r.stacks[2], r.n, r.candidates_ours,
                    r.candidates_fcl, r.fallbacks, r.repeated, r.repeated_moved,
                    mean(r.m[R_OURS].v), r.m[R_OURS].lo(), r.m[R_OURS].hi(),
                    mean(r.m[R_COLD].v), r.m[R_COLD].lo(), r.m[R_COLD].hi(),
                    mean(r.m[R_MOVED].v), r.m[R_MOVED].lo(), r.m[R_MOVED].hi(),
                    mean(r.m[R_FCL].v), r.m[R_FCL].lo(), r.m[R_FCL].hi(),
                    mean(r.m[R_OURS].v) / mean(r.m[R_FCL].v),
                    mean(r.m[R_COLD].v) / mean(r.m[R_FCL].v),
                    mean(r.m[R_MOVED].v) / mean(r.m[R_FCL].v), r.m[R_OURS].first,
                    r.m[R_FCL].first, r.fcl_found, r.fcl_missed, r.fcl_extra, r.exact_pairs,
                    r.exact_disagree);
    long sw[R_METHODS] = {0};
    for (const rest_result &r : all)
        for (int mi = 0; mi < R_METHODS; mi++)
            sw[mi] += r.m[mi].switched;
    std::printf("\nSeed %" PRIu64 ", %d timed steps per size after an untimed first step, the "
                "six methods in a rotating order (the two with contacts below).  A step: every box's pose set (unchanged: "
                "the scene rests) and one query; ours with threshold 0, contacts off, one "
                "thread, one report reused, so that a pair of pieces that met and whose rows "
                "and poses are equal bit for bit to the last step's is answered from the "
                "report's record (exact: the same numbers); ours-cold: a new report every "
                "step (no hints, no records); ours-moved: its own report reused, every box "
                "moved by 2^-20 along x on odd steps and back on even ones (still touching "
                "exactly), so every pair is tested from its hint; FCL: "
                "fcl::Box shapes, DynamicAABBTreeCollisionManager, update + collide with "
                "fcl::collide per candidate pair, default request.  Times: mean over the "
                "steps, in parentheses the fastest and slowest step.  Every box touches its "
                "support face on face, exactly: our query must report exactly those N "
                "pairs, all touching, at every step.  Steps during which the thread was "
                "switched out, timed by CPU time instead: ours %ld, ours-cold %ld, ours-moved "
                "%ld, FCL %ld.\n",
                o.seed, o.steps, sw[R_OURS], sw[R_COLD], sw[R_MOVED], sw[R_FCL]);
    std::printf("\nWith contact points (a simulator's query): ours-contacts is ours with "
                "a threshold of 2^-20 and contacts on (the touching pairs' contact points, "
                "pruned to the corners of their contact region, at most 16 a pair; a pair "
                "at rest is answered from its record, contacts included); fcl-contacts is "
                "FCL with enable_contact and num_max_contacts 16 (its box-box routine).\n\n");
    std::printf("| N | ours-contacts ms (spread) | fcl-contacts ms (spread) | ours / FCL | "
                "contact points per step: ours / FCL |\n|---:|---|---|---:|---|\n");
    for (const rest_result &r : all)
        std::printf("| %d | %.4g (%.4g-%.4g) | %.4g (%.4g-%.4g) | %.3g | %ld / %ld |\n", r.n,
                    mean(r.m[R_CONTACTS].v), r.m[R_CONTACTS].lo(), r.m[R_CONTACTS].hi(),
                    mean(r.m[R_FCLC].v), r.m[R_FCLC].lo(), r.m[R_FCLC].hi(),
                    mean(r.m[R_CONTACTS].v) / mean(r.m[R_FCLC].v), r.contacts_ours,
                    r.contacts_fcl);
    std::printf("\n```text\n");
    for (const rest_result &r : all)
        for (int mi = 0; mi < R_METHODS; mi++)
            std::printf("RESULT bench=world scene=rest n=%d method=%s ms_per_step=%.4g "
                        "spread=%.4g-%.4g median_ms=%.4g first_ms=%.4g pairs=%d\n",
                        r.n, rest_name[mi], mean(r.m[mi].v), r.m[mi].lo(), r.m[mi].hi(),
                        median(r.m[mi].v), r.m[mi].first,
                        mi == R_FCL || mi == R_FCLC ? (int)(r.fcl_found + r.fcl_extra) : r.n);
    std::printf("```\n");
}

void setup_run(const rest_options &o)
{
    std::vector<setup_result> res;
    hs_error err;
    /* boxes */
    {
        rng r(o.seed * 104729u);
        int count = o.setup_boxes;
        std::vector<double> sizes(3 * (size_t)count), poses(16 * (size_t)count);
        for (int k = 0; k < count; k++) {
            for (int d = 0; d < 3; d++)
                sizes[3 * k + d] = r.integer(8, 24) / 16.0;
            double t[3] = {r.uniform(0, 40), r.uniform(0, 40), r.uniform(0, 40)};
            hs_pose_from_zyz(&poses[16 * (size_t)k], r.uniform(0, 2 * M_PI),
                             std::acos(r.uniform(-1, 1)), r.uniform(0, 2 * M_PI), t);
        }
        setup_result s;
        s.shape = "box";
        setup_rounds(
            o, s, count,
            [&](hs_world *w, const char *name, int k) {
                hs_body *b = hs_world_add_body(w, name, 0, &err);
                if (!b || hs_body_add_box(b, &sizes[3 * (size_t)k], nullptr, &err) != HS_OK ||
                    hs_body_set_pose(b, &poses[16 * (size_t)k], &err) != HS_OK)
                    die("adding a box", &err);
            },
            [&](fcl::DynamicAABBTreeCollisionManagerd *m, int k) {
                auto obj = std::make_shared<fcl::CollisionObjectd>(
                    std::make_shared<fcl::Boxd>(sizes[3 * k], sizes[3 * k + 1], sizes[3 * k + 2]),
                    fbench::fcl_pose(&poses[16 * (size_t)k]));
                m->registerObject(obj.get());
                return obj;
            });
        res.push_back(std::move(s));
    }
    /* mesh hulls */
    std::string note;
    std::vector<hull_shape> hulls = load_hulls(o, &note);
    int vmin = 1 << 30, vmax = 0;
    if (!hulls.empty()) {
        int count = (int)hulls.size() * o.setup_hull_copies;
        std::vector<double> poses(16 * (size_t)count);
        rng r(o.seed * 1299709u);
        for (int k = 0; k < count; k++) {
            double t[3] = {r.uniform(0, 40), r.uniform(0, 40), r.uniform(0, 40)};
            hs_pose_from_zyz(&poses[16 * (size_t)k], r.uniform(0, 2 * M_PI),
                             std::acos(r.uniform(-1, 1)), r.uniform(0, 2 * M_PI), t);
        }
        for (const hull_shape &h : hulls) {
            vmin = std::min(vmin, (int)h.fverts.size());
            vmax = std::max(vmax, (int)h.fverts.size());
        }
        setup_result s;
        s.shape = "hull";
        setup_rounds(
            o, s, count,
            [&](hs_world *w, const char *name, int k) {
                const hull_shape &h = hulls[(size_t)k % hulls.size()];
                hs_body *b = hs_world_add_body(w, name, 0, &err);
                if (!b ||
                    hs_body_add_hull(b, h.pts.data(), (int)h.pts.size() / 3, nullptr, &err) !=
                        HS_OK ||
                    hs_body_set_pose(b, &poses[16 * (size_t)k], &err) != HS_OK)
                    die("adding a hull", &err);
            },
            [&](fcl::DynamicAABBTreeCollisionManagerd *m, int k) {
                const hull_shape &h = hulls[(size_t)k % hulls.size()];
                auto verts = std::make_shared<std::vector<fcl::Vector3d>>(h.fverts);
                auto faces = std::make_shared<std::vector<int>>(h.ffaces);
                auto obj = std::make_shared<fcl::CollisionObjectd>(
                    std::make_shared<fcl::Convexd>(verts, h.nfaces, faces),
                    fbench::fcl_pose(&poses[16 * (size_t)k]));
                m->registerObject(obj.get());
                return obj;
            });
        res.push_back(std::move(s));
    }
    std::printf("\n### Body setup: adding a body to a world\n\n");
    std::printf("| shape | bodies per round | ours us per body (spread) | ours median | FCL us "
                "per body (spread) | FCL median | ours / FCL | first query after the adds, "
                "ms: ours / FCL |\n");
    std::printf("|---|---:|---|---:|---|---:|---:|---|\n");
    for (const setup_result &s : res)
        std::printf("| %s | %d | %.4g (%.4g-%.4g) | %.4g | %.4g (%.4g-%.4g) | %.4g | %.3g | "
                    "%.4g / %.4g |\n",
                    s.shape, s.bodies, mean(s.all_ours), s.ours.lo(), s.ours.hi(),
                    median(s.all_ours), mean(s.all_fcl), s.fcl.lo(), s.fcl.hi(),
                    median(s.all_fcl), mean(s.all_ours) / mean(s.all_fcl),
                    mean(s.ours_first.v), mean(s.fcl_first.v));
    std::printf("\n%d rounds, each a fresh world and a fresh FCL manager, the sides alternating "
                "which goes first; every body timed alone; mean over all bodies and rounds, in "
                "parentheses the smallest and largest per-round mean.  The last column is one "
                "query of the whole world right after the adds (ours: hs_world_query, threshold "
                "0, contacts off, one thread, a new report; FCL: setup + collide), mean over the "
                "rounds: it pays whatever adding a body leaves for later.  Bodies stand at "
                "random poses in a cube of side 40.  Box: hs_world_add_body + "
                "hs_body_add_box + hs_body_set_pose against fcl::Box + CollisionObject (with "
                "its transform) + registerObject; sides multiples of 1/16 in [0.5, 1.5].  ",
                o.setup_rounds);
    if (hulls.empty())
        std::printf("Hull: skipped (%s).", note.c_str());
    else
        std::printf("Hull: the %zu mesh hulls of the data folder (%d to %d vertices), each %d "
                    "times a round: hs_world_add_body + hs_body_add_hull on the hull vertices "
                    "+ hs_body_set_pose against fcl::Convex (vertices and faces copied into "
                    "its vectors; FCL is handed the faces, as it has no hull builder, while "
                    "ours computes the exact hull) + CollisionObject + registerObject.",
                    hulls.size(), vmin, vmax, o.setup_hull_copies);
    long so = 0, sf = 0;
    for (const setup_result &s : res) {
        so += s.switched_ours;
        sf += s.switched_fcl;
    }
    std::printf("  Bodies during whose setup the thread was switched out, timed by CPU time "
                "instead: ours %ld, FCL %ld.\n", so, sf);
    std::printf("\n```text\n");
    for (const setup_result &s : res)
        for (int side = 0; side < 2; side++) {
            const series &se = side ? s.fcl : s.ours;
            const std::vector<double> &a = side ? s.all_fcl : s.all_ours;
            std::printf("RESULT bench=setup shape=%s method=%s us_per_body=%.4g spread=%.4g-%.4g "
                        "median_us=%.4g bodies=%d first_query_ms=%.4g\n",
                        s.shape, side ? "fcl" : "ours", mean(a), se.lo(), se.hi(), median(a),
                        s.bodies, mean(side ? s.fcl_first.v : s.ours_first.v));
        }
    std::printf("```\n");
}

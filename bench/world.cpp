/* world.cpp -- a world of moving convex bodies: our world query with its
 * three broad phases (raw, grid, tree) against FCL's dynamic AABB tree
 * manager, in one run, on the same bodies and the same poses; and main()
 * of bench/world, which also runs the resting-contact scene and the body
 * setup timing of world_rest.cpp (--parts moving,rest,setup; all by
 * default, in that order, each with its own tables and RESULT lines).
 *
 * Bodies (per size N): body i is a box (i % 3 == 0), a cylinder with 8 to
 * 32 sides (i % 3 == 1) or the convex hull of k points on a random
 * ellipsoid (i % 3 == 2), k uniform in 6..127, so 8 to 250 triangular
 * facets (2k - 4: the points are in convex position); sizes about 1 (box
 * sides 0.5-1.5, cylinder radius 0.3-0.7 and height 0.5-1.5, ellipsoid
 * semi-axes 0.3-0.7).  They move in a cubic arena of side
 * L = density_k * N^(1/3) (same density at every N): every step each body
 * translates by a uniform random vector in [-0.05, 0.05]^3, reflected at
 * the walls (its centre stays at least its bounding radius from each
 * wall), and turns by a random angle in [0, 0.05] rad about a random axis
 * (hs_pose_from_axis_angle, composed on the left with its rotation).  All
 * poses of all steps are computed first; every method replays them.
 *
 * A step, ours: hs_body_set_pose on every body, then one hs_world_query
 * with threshold 0 (overlapping or touching pairs only) and contacts off,
 * one thread, into one hs_report reused by every step (so each pair of
 * pieces starts from last step's certificate rows or common point, which
 * are certified again: temporal coherence).  Methods raw, grid, tree:
 * hs_world_set_broadphase on the one world before the method's steps (not
 * timed); tree-from-origin: the tree built with every body at the
 * identity; grid-cold: the grid with a new report every step (no hints). 
 *
 * A step, FCL (Debian libfcl 0.7): each body is a fcl::CollisionObject
 * with a fcl::Convex<double> built from exactly the vertices and faces
 * that hs_body_piece_boundary gives for our piece; setTransform +
 * computeAABB on every object, manager->update(), manager->collide with a
 * callback that runs fcl::collide on the pair with a default
 * CollisionRequest (GJK solver GST_LIBCCD, FCL's default; no contacts) and
 * records the pair when result.isCollision() (never stops early).
 *
 * Step 0 of each method is a warm-up (not timed); steps 1..S are timed
 * (steady_clock around the whole step); the mean over them is reported
 * (the median beside it).
 *
 * Checks.  Our three methods must give identical pair sets (pair and
 * status) at every step, or the program fails.  FCL's pair set is compared
 * with ours at every step; disagreements are counted and each is explained
 * by our distance (hs_world_distance, 0 when they meet) and FCL's signed
 * distance (fcl::distance with enable_signed_distance).  On a sample of
 * steps (N <= --exact-max-n), after our methods' timed steps and with a
 * report of its own, the query is run again with opt.engine =
 * HS_ENGINE_EXACT (the exact LP engine on the same systems) and its pair
 * set (pair and status) is compared with the fast engine's.
 *
 * Output (stdout): a Markdown table and notes, then a fenced block of
 *   RESULT bench=world n=N method=M ms_per_step=.. median_ms=.. pairs=..
 * where pairs is the median over the timed steps of the number of
 * colliding pairs that method found (then world_rest.cpp's parts, with
 *   RESULT bench=world scene=rest n=N method=ours|ours-cold|fcl ...
 *   RESULT bench=setup shape=box|hull method=ours|fcl us_per_body=.. ...).
 * Progress goes to stderr. */
#include <fcl/fcl.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench/world_rest.h"
#include "bench/world_util.h"
#include "bench/fcl_util.h"
#include "halfspace.h"

namespace {

using wbench::die;
using wbench::mean;
using wbench::median;
using wbench::now_s;
using wbench::rng;

/* ------------------------------------------------------------ options */

struct options {
    std::vector<int> sizes{100, 1000, 10000};
    int steps_small = 30;   /* timed steps for N < 10000 */
    int steps_large = 10;   /* timed steps for N >= 10000 */
    double raw_max_s = 20;  /* raw: fewer steps when one takes longer than this */
    int exact_every = 6;    /* exact-engine check on every k-th timed step ... */
    int exact_max_n = 1000; /* ... for N up to this */
    double density_k = 4.0; /* arena side L = density_k * N^(1/3) */
    uint64_t seed = 1;
    bool run[6] = {true, true, true, true, true, true}; /* raw, grid, tree, fcl, tree-from-origin, grid-cold */
    bool verbose = false;
    bool part[4] = {true, true, true, true}; /* moving, rest, setup, hulls */
    rest_options rest;                 /* the parts in world_rest.cpp */
};

const char *part_name[4] = {"moving", "rest", "setup", "hulls"};

/* A comma list of integers >= lo, or exit. */
std::vector<int> parse_int_list(const char *opt, const char *v, int lo)
{
    std::vector<int> out;
    std::string s = v;
    size_t p = 0;
    while (p <= s.size()) {
        size_t q = s.find(',', p);
        if (q == std::string::npos)
            q = s.size();
        int n = std::atoi(s.substr(p, q - p).c_str());
        if (n < lo) {
            std::fprintf(stderr, "world: %s: each value must be at least %d\n", opt, lo);
            std::exit(EXIT_FAILURE);
        }
        out.push_back(n);
        p = q + 1;
    }
    return out;
}

void usage(FILE *f)
{
    std::fprintf(f,
                 "usage: world [--sizes N,...] [--steps S] [--steps-large S] [--seed X]\n"
                 "             [--density K] [--exact-every K] [--exact-max-n N] [--raw-max-s T]\n"
                 "             [--methods M,...] [--parts P,...] [--rest-sizes N,...]\n"
                 "             [--rest-steps S] [--setup-rounds R] [--setup-boxes N]\n"
                 "             [--setup-hull-copies K] [--hull-copies K] [--data DIR]\n"
                 "             [--verbose]\n"
                 "  --parts        any of moving,rest,setup,hulls (default all)\n"
                 "  moving bodies:\n"
                 "  --sizes        numbers of bodies (default 100,1000,10000)\n"
                 "  --steps        timed steps for N < 10000 (default 30)\n"
                 "  --steps-large  timed steps for N >= 10000 (default 10)\n"
                 "  --density      arena side L = K N^(1/3) (default 4)\n"
                 "  --exact-every  exact-engine check on every K-th step (default 6)\n"
                 "  --exact-max-n  ... for N up to this (default 1000)\n"
                 "  --raw-max-s    raw: fewer steps when a step takes longer (default 20)\n"
                 "  --methods      any of raw,grid,tree,fcl,tree-from-origin (default all)\n"
                 "  resting contact (boxes on a floor and in stacks):\n"
                 "  --rest-sizes   numbers of boxes (default 100,1000)\n"
                 "  --rest-steps   timed steps per size (default 30)\n"
                 "  body setup:\n"
                 "  --setup-rounds       fresh worlds timed (default 5)\n"
                 "  --setup-boxes        boxes added per round (default 1000)\n"
                 "  --setup-hull-copies  each mesh hull added this often per round (default 10)\n"
                 "  --hull-copies  hulls: each mesh hull set down this often (default 4)\n"
                 "  --data         data folder of the mesh hulls (default $HS_DATA or\n"
                 "                 ../shared/data; missing: the hulls are skipped)\n"
                 "  --seed, --verbose  for every part\n");
}

options parse_args(int argc, char **argv)
{
    options o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "-h" || a == "--help") {
            usage(stdout);
            std::exit(EXIT_SUCCESS);
        }
        if (a == "--verbose") {
            o.verbose = true;
            continue;
        }
        if (i + 1 >= argc) {
            usage(stderr);
            std::exit(EXIT_FAILURE);
        }
        const char *v = argv[++i];
        if (a == "--sizes")
            o.sizes = parse_int_list("--sizes", v, 2);
        else if (a == "--rest-sizes")
            o.rest.sizes = parse_int_list("--rest-sizes", v, 1);
        else if (a == "--rest-steps")
            o.rest.steps = std::max(1, std::atoi(v));
        else if (a == "--setup-rounds")
            o.rest.setup_rounds = std::max(1, std::atoi(v));
        else if (a == "--setup-boxes")
            o.rest.setup_boxes = std::max(1, std::atoi(v));
        else if (a == "--setup-hull-copies")
            o.rest.setup_hull_copies = std::max(1, std::atoi(v));
        else if (a == "--hull-copies")
            o.rest.hull_copies = std::max(1, std::atoi(v));
        else if (a == "--data")
            o.rest.data = v;
        else if (a == "--parts") {
            std::string s = std::string(",") + v + ",";
            bool any = false;
            for (int p = 0; p < 4; p++)
                any |= o.part[p] = s.find(std::string(",") + part_name[p] + ",") != std::string::npos;
            if (!any)
                die("--parts: expected any of moving,rest,setup,hulls");
        } else if (a == "--steps")
            o.steps_small = std::max(1, std::atoi(v));
        else if (a == "--steps-large")
            o.steps_large = std::max(1, std::atoi(v));
        else if (a == "--seed")
            o.seed = std::strtoull(v, nullptr, 10);
        else if (a == "--density")
            o.density_k = std::atof(v);
        else if (a == "--exact-every")
            o.exact_every = std::max(1, std::atoi(v));
        else if (a == "--exact-max-n")
            o.exact_max_n = std::atoi(v);
        else if (a == "--raw-max-s")
            o.raw_max_s = std::atof(v);
        else if (a == "--methods") {
            std::string s = std::string(",") + v + ",";
            const char *names[6] = {"raw", "grid", "tree", "fcl", "tree-from-origin", "grid-cold"};
            for (int m = 0; m < 6; m++)
                o.run[m] = s.find(std::string(",") + names[m] + ",") != std::string::npos;
        }
        else {
            std::fprintf(stderr, "world: unknown option %s\n", a.c_str());
            usage(stderr);
            std::exit(EXIT_FAILURE);
        }
    }
    if (!(o.density_k > 0))
        die("--density must be positive");
    o.rest.seed = o.seed;
    o.rest.verbose = o.verbose;
    if (o.rest.data.empty()) {
        const char *env = std::getenv("HS_DATA");
        o.rest.data = env && *env ? env : "../shared/data";
    }
    return o;
}

/* ------------------------------------------------------------ the scene */

struct body_info {
    int kind;        /* 0 box, 1 cylinder, 2 hull */
    int facets;
    double radius;   /* bounding radius about the body origin */
};

struct scene {
    int n = 0;
    double side = 0;
    hs_world *w = nullptr;
    std::vector<hs_body *> body;
    std::vector<body_info> info;
    std::vector<std::shared_ptr<fcl::CollisionObjectd>> fobj;
    std::vector<int> fid; /* user data of the FCL objects */
    ~scene() { hs_world_free(w); }
};

const char *kind_name[3] = {"box", "cylinder", "hull"};

void build_scene(scene &sc, int n, const options &o, rng &r)
{
    hs_error err;
    sc.n = n;
    sc.side = o.density_k * std::cbrt((double)n);
    sc.w = hs_world_new();
    if (!sc.w)
        die("out of memory");
    sc.body.resize(n);
    sc.info.resize(n);
    sc.fobj.resize(n);
    sc.fid.resize(n);
    std::vector<double> pts;
    for (int i = 0; i < n; i++) {
        char name[32];
        std::snprintf(name, sizeof name, "b%06d", i);
        hs_body *b = hs_world_add_body(sc.w, name, 0, &err);
        if (!b)
            die("hs_world_add_body", &err);
        sc.body[i] = b;
        body_info &bi = sc.info[i];
        bi.kind = i % 3;
        hs_code rc;
        if (bi.kind == 0) {
            double size[3] = {r.uniform(0.5, 1.5), r.uniform(0.5, 1.5), r.uniform(0.5, 1.5)};
            rc = hs_body_add_box(b, size, nullptr, &err);
        } else if (bi.kind == 1) {
            int sides = r.integer(8, 32);
            double radius = r.uniform(0.3, 0.7), height = r.uniform(0.5, 1.5);
            rc = hs_body_add_cylinder(b, radius, height, sides, nullptr, &err);
        } else {
            int k = r.integer(6, 127);
            double ax[3] = {r.uniform(0.3, 0.7), r.uniform(0.3, 0.7), r.uniform(0.3, 0.7)};
            pts.resize(3 * (size_t)k);
            for (int j = 0; j < k; j++) {
                double u[3];
                r.unit(u);
                for (int d = 0; d < 3; d++)
                    pts[3 * j + d] = ax[d] * u[d];
            }
            rc = hs_body_add_hull(b, pts.data(), k, nullptr, &err);
        }
        if (rc != HS_OK)
            die("adding a piece", &err);

        /* FCL's copy: exactly our piece's vertices and faces. */
        int convex = 0, nv = 0, nf = 0, *fs = nullptr, *fv = nullptr;
        double *v = nullptr;
        if (hs_body_piece_boundary(b, 0, &convex, &v, &nv, &fs, &fv, &nf, &err) != HS_OK)
            die("hs_body_piece_boundary", &err);
        if (!convex)
            die("a convex piece came back as a mesh");
        bi.radius = 0;
        for (int j = 0; j < nv; j++)
            bi.radius = std::max(bi.radius, std::sqrt(v[3 * j] * v[3 * j] +
                                                      v[3 * j + 1] * v[3 * j + 1] +
                                                      v[3 * j + 2] * v[3 * j + 2]));
        bi.facets = nf;
        auto geom = fbench::fcl_convex(v, nv, fs, fv, nf);
        hs_free(v);
        hs_free(fs);
        hs_free(fv);
        sc.fobj[i] = std::make_shared<fcl::CollisionObjectd>(geom);
        sc.fid[i] = i;
        sc.fobj[i]->setUserData(&sc.fid[i]);
    }
}

/* Poses of every body at steps 0..S, 16 doubles each. */
std::vector<double> make_poses(const scene &sc, int steps, rng &r)
{
    const int n = sc.n;
    std::vector<double> P((size_t)(steps + 1) * n * 16);
    std::vector<double> R(9 * (size_t)n), t(3 * (size_t)n);
    hs_error err;
    for (int i = 0; i < n; i++) {
        double m[16], zero[3] = {0, 0, 0};
        hs_pose_from_zyz(m, r.uniform(0, 2 * M_PI), std::acos(r.uniform(-1, 1)),
                         r.uniform(0, 2 * M_PI), zero);
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++)
                R[9 * i + 3 * a + c] = m[4 * a + c];
        double h = sc.info[i].radius;
        for (int d = 0; d < 3; d++)
            t[3 * i + d] = r.uniform(h, sc.side - h);
    }
    for (int s = 0; s <= steps; s++) {
        for (int i = 0; i < n; i++) {
            if (s > 0) { /* random walk, reflected at the walls; small turn */
                double h = sc.info[i].radius, lo = h, hi = sc.side - h;
                for (int d = 0; d < 3; d++) {
                    double x = t[3 * i + d] + r.uniform(-0.05, 0.05);
                    if (x < lo)
                        x = 2 * lo - x;
                    if (x > hi)
                        x = 2 * hi - x;
                    t[3 * i + d] = x;
                }
                double axis[3], D[16], zero[3] = {0, 0, 0}, Rn[9];
                r.unit(axis);
                if (hs_pose_from_axis_angle(D, axis, r.uniform(0, 0.05), zero, &err) != HS_OK)
                    die("hs_pose_from_axis_angle", &err);
                for (int a = 0; a < 3; a++)
                    for (int c = 0; c < 3; c++)
                        Rn[3 * a + c] = D[4 * a + 0] * R[9 * i + 0 + c] +
                                        D[4 * a + 1] * R[9 * i + 3 + c] +
                                        D[4 * a + 2] * R[9 * i + 6 + c];
                std::memcpy(&R[9 * i], Rn, sizeof Rn);
            }
            hs_pose_from_rt(&P[((size_t)s * n + i) * 16], &R[9 * i], &t[3 * i]);
        }
    }
    return P;
}

/* ------------------------------------------------------------ pair sets */

struct pair_key {
    int a, b, status; /* a < b; status: hs_status for ours, 0 for FCL */
    bool operator<(const pair_key &o) const
    {
        return a != o.a ? a < o.a : b != o.b ? b < o.b : status < o.status;
    }
    bool operator==(const pair_key &o) const { return a == o.a && b == o.b && status == o.status; }
};
using pair_set = std::vector<pair_key>;

pair_set report_pairs(const hs_report *rep)
{
    pair_set out;
    int np = hs_report_pair_count(rep);
    for (int k = 0; k < np; k++) {
        const char *a, *b;
        hs_status st;
        if (hs_report_pair(rep, k, &a, &b, &st) != HS_OK)
            die("hs_report_pair");
        int ia = std::atoi(a + 1), ib = std::atoi(b + 1);
        out.push_back({std::min(ia, ib), std::max(ia, ib), (int)st});
    }
    std::sort(out.begin(), out.end());
    return out;
}

/* Pairs only (statuses dropped): for comparison with FCL. */
std::vector<std::pair<int, int>> just_pairs(const pair_set &s)
{
    std::vector<std::pair<int, int>> out;
    for (const pair_key &k : s)
        out.emplace_back(k.a, k.b);
    std::sort(out.begin(), out.end());
    return out;
}

void set_poses(scene &sc, const double *P)
{
    hs_error err;
    for (int i = 0; i < sc.n; i++)
        if (hs_body_set_pose(sc.body[i], P + 16 * (size_t)i, &err) != HS_OK)
            die("hs_body_set_pose", &err);
}

/* ------------------------------------------------------------ FCL */

void fcl_set_poses(scene &sc, const double *P)
{
    for (int i = 0; i < sc.n; i++) {
        sc.fobj[i]->setTransform(fbench::fcl_pose(P + 16 * (size_t)i));
        sc.fobj[i]->computeAABB();
    }
}

/* ------------------------------------------------------------ one size */

/* Method 4 is the tree built while every body is still at the identity
 * pose (as hs_world_add_body leaves it), then moved: how a world is
 * normally populated.  Methods 0-2 build their structure (by
 * hs_world_set_broadphase) after the bodies are at their step-0 poses, as
 * FCL's manager is set up after the objects have theirs. */
const char *method_name[6] = {"raw", "grid", "tree", "fcl", "tree-from-origin", "grid-cold"};
const hs_broadphase method_bp[6] = {HS_BROAD_RAW, HS_BROAD_GRID, HS_BROAD_TREE, HS_BROAD_TREE,
                                    HS_BROAD_TREE, HS_BROAD_GRID};

struct method_stats {
    std::vector<double> ms;    /* per timed step */
    std::vector<double> qms;   /* the query alone (ours) / update + collide (FCL) */
    std::vector<double> pairs; /* colliding pairs per timed step */
    std::vector<double> cand;  /* broad-phase pairs per timed step */
    int steps_timed = 0;
    std::string note;
};

struct size_result {
    int n;
    double side;
    int steps;
    int kinds[3] = {0, 0, 0};
    int fmin = 1 << 30, fmax = 0;
    double fmean = 0;
    method_stats m[6];
    long fcl_disagree = 0, fcl_only = 0, ours_only = 0;
    std::string disagree_notes;
    int exact_steps = 0;
    long exact_disagree = 0, exact_pairs = 0;
    long fallbacks = 0, touching = 0;
    double bodies_in_collision = 0; /* median fraction */
    double build_s = 0;
};

size_result run_size(int n, const options &o)
{
    size_result res;
    res.n = n;
    const int steps = n >= 10000 ? o.steps_large : o.steps_small;
    res.steps = steps;
    rng r(o.seed * 1000003u + (uint64_t)n);
    scene sc;
    double t0 = now_s();
    build_scene(sc, n, o, r);
    res.build_s = now_s() - t0;
    res.side = sc.side;
    for (const body_info &bi : sc.info) {
        res.kinds[bi.kind]++;
        res.fmin = std::min(res.fmin, bi.facets);
        res.fmax = std::max(res.fmax, bi.facets);
        res.fmean += bi.facets;
    }
    res.fmean /= n;
    std::vector<double> P = make_poses(sc, steps, r);
    std::fprintf(stderr, "world: N=%d: scene built in %.2f s (side %.3g)\n", n, res.build_s,
                 sc.side);

    std::vector<pair_set> ref(steps + 1); /* tree's pair sets, per step */
    std::vector<pair_set> got(steps + 1);
    hs_error err;
    hs_report *rep = hs_report_new();
    if (!rep)
        die("out of memory");
    hs_query_options opt = wbench::step_options();
    hs_query_options xopt = opt;
    xopt.engine = HS_ENGINE_EXACT;

    /* Tree first (it is the reference), then raw, grid, the tree built
     * at the origin, and the grid with a fresh report every step (no hints
     * from the last step: the cost without temporal coherence). */
    const int order[5] = {2, 0, 1, 4, 5};
    int refm = -1;
    for (int oi = 0; oi < 5; oi++) {
        int mi = order[oi];
        if (!o.run[mi])
            continue;
        bool is_ref = refm < 0;
        if (is_ref)
            refm = mi;
        method_stats &ms = res.m[mi];
        if (mi == 4) {
            std::vector<double> id((size_t)n * 16);
            for (int i = 0; i < n; i++)
                hs_pose_identity(&id[16 * (size_t)i]);
            set_poses(sc, id.data());
        } else
            set_poses(sc, &P[0]);
        if (hs_world_set_broadphase(sc.w, method_bp[mi], &err) != HS_OK)
            die("hs_world_set_broadphase", &err);
        int last = steps;
        for (int s = 0; s <= last; s++) {
            if (mi == 5) { /* (outside the timing) */
                hs_report_free(rep);
                if (!(rep = hs_report_new()))
                    die("out of memory");
            }
            double a = now_s();
            set_poses(sc, &P[(size_t)s * n * 16]);
            double qa = now_s();
            if (hs_world_query(sc.w, &opt, rep, &err) != HS_OK)
                die("hs_world_query", &err);
            double dt = now_s() - a, qdt = now_s() - qa;
            pair_set ps = report_pairs(rep);
            hs_report_stats st;
            hs_report_get_stats(rep, &st);
            if (o.verbose)
                std::fprintf(stderr, "world: N=%d %s step %d: %.3f ms, %ld body pairs, %zu "
                             "colliding, %ld fallbacks\n", n, method_name[mi], s, 1e3 * dt,
                             st.body_pairs, ps.size(), st.fallbacks);
            if (s > 0) {
                ms.ms.push_back(1e3 * dt);
                ms.qms.push_back(1e3 * qdt);
                ms.pairs.push_back((double)ps.size());
                ms.cand.push_back((double)st.body_pairs);
                ms.steps_timed++;
                if (is_ref) {
                    res.fallbacks += st.fallbacks;
                    for (const pair_key &k : ps)
                        res.touching += k.status == HS_TOUCHING;
                }
            }
            if (s == 0 && mi == 0 && dt > o.raw_max_s && steps > 3) {
                last = 3;
                ms.note = "raw: warm-up step took " + std::to_string(dt) +
                          " s, so only 3 steps timed";
            }
            if (is_ref)
                ref[s] = ps;
            else if (ps != ref[s]) {
                std::fprintf(stderr,
                             "world: N=%d step %d: method %s found %zu pairs, %s %zu: the "
                             "pair sets differ\n",
                             n, s, method_name[mi], ps.size(), method_name[refm],
                             ref[s].size());
                std::exit(EXIT_FAILURE);
            }
        }
        std::fprintf(stderr, "world: N=%d %s: median %.3f ms per step over %d steps\n", n,
                     method_name[mi], median(ms.ms), ms.steps_timed);
    }
    /* Exact-engine cross-check on a sample of steps, after every method's
     * timed steps and with a report of its own: run between the timed
     * steps it would evict their caches, and in their report it would
     * leave the next step no hints (until 2026-11-27 10:20 it ran inside
     * the reference method's loop, in its report: the tree's slow steps) */
    if (refm >= 0 && n <= o.exact_max_n) {
        hs_report *xrep = hs_report_new();
        if (!xrep)
            die("out of memory");
        for (int s = o.exact_every; s <= steps; s += o.exact_every) {
            double xa = now_s();
            set_poses(sc, &P[(size_t)s * n * 16]);
            if (hs_world_query(sc.w, &xopt, xrep, &err) != HS_OK)
                die("hs_world_query (exact engine)", &err);
            pair_set xs = report_pairs(xrep);
            res.exact_steps++;
            res.exact_pairs += (long)xs.size();
            std::vector<pair_key> diff;
            std::set_symmetric_difference(ref[s].begin(), ref[s].end(), xs.begin(), xs.end(),
                                          std::back_inserter(diff));
            res.exact_disagree += (long)diff.size();
            std::fprintf(stderr,
                         "world: N=%d step %d: exact engine %zu pairs, fast %zu, %zu differ "
                         "(%.2f s)\n",
                         n, s, xs.size(), ref[s].size(), diff.size(), now_s() - xa);
        }
        hs_report_free(xrep);
    }
    /* Fraction of bodies in at least one colliding pair (tree, per step). */
    {
        std::vector<double> frac;
        for (int s = 1; s <= steps; s++) {
            std::vector<char> hit(n, 0);
            for (const pair_key &k : ref[s])
                hit[k.a] = hit[k.b] = 1;
            frac.push_back((double)std::count(hit.begin(), hit.end(), 1) / n);
        }
        res.bodies_in_collision = median(frac);
    }

    /* FCL */
    if (o.run[3]) {
        method_stats &ms = res.m[3];
        std::vector<fcl::CollisionObjectd *> objs;
        for (auto &p : sc.fobj)
            objs.push_back(p.get());
        fcl_set_poses(sc, &P[0]);
        auto manager = std::make_unique<fcl::DynamicAABBTreeCollisionManagerd>();
        manager->registerObjects(objs);
        manager->setup();
        fbench::fcl_pairs data;
        std::vector<std::string> notes;
        for (int s = 0; s <= steps; s++) {
            data.pairs.clear();
            data.narrow = 0;
            double a = now_s();
            fcl_set_poses(sc, &P[(size_t)s * n * 16]);
            double qa = now_s();
            manager->update();
            manager->collide(&data, fbench::fcl_pairs_callback);
            double dt = now_s() - a, qdt = now_s() - qa;
            std::sort(data.pairs.begin(), data.pairs.end());
            if (o.verbose)
                std::fprintf(stderr, "world: N=%d fcl step %d: %.3f ms, %ld pairs tested, %zu "
                             "colliding\n", n, s, 1e3 * dt, data.narrow, data.pairs.size());
            if (s > 0) {
                ms.ms.push_back(1e3 * dt);
                ms.qms.push_back(1e3 * qdt);
                ms.pairs.push_back((double)data.pairs.size());
                ms.cand.push_back((double)data.narrow);
                ms.steps_timed++;
            }
            /* compare with ours */
            if (refm < 0)
                continue; /* nothing to compare with */
            auto ours = just_pairs(ref[s]);
            std::vector<std::pair<int, int>> only_fcl, only_ours;
            std::set_difference(data.pairs.begin(), data.pairs.end(), ours.begin(), ours.end(),
                                std::back_inserter(only_fcl));
            std::set_difference(ours.begin(), ours.end(), data.pairs.begin(), data.pairs.end(),
                                std::back_inserter(only_ours));
            if (s == 0)
                continue; /* counted on the timed steps only */
            res.fcl_only += (long)only_fcl.size();
            res.ours_only += (long)only_ours.size();
            for (int side = 0; side < 2; side++)
                for (auto &pr : side ? only_ours : only_fcl) {
                    /* Explain: our distance and FCL's signed distance, at this step. */
                    hs_body *A = sc.body[pr.first], *B = sc.body[pr.second];
                    if (hs_body_set_pose(A, &P[((size_t)s * n + pr.first) * 16], &err) != HS_OK ||
                        hs_body_set_pose(B, &P[((size_t)s * n + pr.second) * 16], &err) != HS_OK)
                        die("hs_body_set_pose", &err);
                    double dist = -1, pa[3], pb[3];
                    if (hs_world_distance(sc.w, A, B, &dist, pa, pb, &err) != HS_OK)
                        die("hs_world_distance", &err);
                    fcl::DistanceRequestd dreq;
                    dreq.enable_signed_distance = true;
                    fcl::DistanceResultd dres;
                    fcl::distance(sc.fobj[pr.first].get(), sc.fobj[pr.second].get(), dreq, dres);
                    char line[400];
                    std::snprintf(line, sizeof line,
                                  "step %d, bodies %d (%s, %d facets) and %d (%s, %d facets): "
                                  "%s; our distance %.3g; FCL signed distance %.3g",
                                  s, pr.first, kind_name[sc.info[pr.first].kind],
                                  sc.info[pr.first].facets, pr.second,
                                  kind_name[sc.info[pr.second].kind], sc.info[pr.second].facets,
                                  side ? "we say they meet, FCL does not"
                                       : "FCL says they collide, we do not",
                                  dist, dres.min_distance);
                    notes.push_back(line);
                }
        }
        res.fcl_disagree = res.fcl_only + res.ours_only;
        for (size_t k = 0; k < notes.size() && k < 20; k++)
            res.disagree_notes += "  - " + notes[k] + "\n";
        if (notes.size() > 20)
            res.disagree_notes += "  - (" + std::to_string(notes.size() - 20) + " more)\n";
        std::fprintf(stderr, "world: N=%d fcl: median %.3f ms per step, %ld disagreements\n", n,
                     median(ms.ms), res.fcl_disagree);
    }
    hs_report_free(rep);
    return res;
}

void print_moving(const options &o);

} // namespace

int main(int argc, char **argv)
{
    options o = parse_args(argc, argv);
    if (o.part[0])
        print_moving(o);
    if (o.part[1])
        rest_run(o.rest);
    if (o.part[2])
        setup_run(o.rest);
    if (o.part[3])
        hulls_run(o.rest);
    return 0;
}

namespace {

void print_moving(const options &o)
{
    std::vector<size_result> all;
    for (int n : o.sizes)
        all.push_back(run_size(n, o));

    std::printf("### Moving bodies\n\n");

    std::printf("| N | arena side | boxes / cylinders / hulls | facets min / mean / max | "
                "timed steps | colliding pairs (median) | bodies in collision (median) | "
                "broad-phase pairs ours / FCL (median) | fast-engine fallbacks | "
                "FCL disagreements | exact-engine check: steps / pairs / disagreements |\n");
    std::printf("|---:|---:|---|---|---:|---:|---:|---|---:|---|---|\n");
    for (const size_result &r : all) {
        char steps[64];
        std::snprintf(steps, sizeof steps, "%d", r.steps);
        if (r.m[0].steps_timed > 0 && r.m[0].steps_timed != r.steps)
            std::snprintf(steps, sizeof steps, "%d (raw %d)", r.steps, r.m[0].steps_timed);
        char exact[64];
        if (r.exact_steps > 0)
            std::snprintf(exact, sizeof exact, "%d / %ld / %ld", r.exact_steps, r.exact_pairs,
                          r.exact_disagree);
        else
            std::snprintf(exact, sizeof exact, "not run");
        std::printf("| %d | %.4g | %d / %d / %d | %d / %.1f / %d | %s | %.0f | %.2f%% | %.0f / %.0f "
                    "| %ld | %ld (FCL only %ld, ours only %ld) | %s |\n",
                    r.n, r.side, r.kinds[0], r.kinds[1], r.kinds[2], r.fmin, r.fmean, r.fmax,
                    steps, median(r.m[2].pairs), 100 * r.bodies_in_collision,
                    median(r.m[2].cand), median(r.m[3].cand), r.fallbacks, r.fcl_disagree,
                    r.fcl_only, r.ours_only, exact);
    }
    std::printf("\n| N | raw ms | grid ms (query alone) | tree ms (query alone) | FCL ms "
                "(update + collide alone) | grid / FCL | tree / FCL | tree built at the "
                "origin, ms | grid, fresh report each step, ms | medians: grid / tree / FCL |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (const size_result &r : all)
        std::printf("| %d | %.4g | %.4g (%.4g) | %.4g (%.4g) | %.4g (%.4g) | %.3g | %.3g | %.4g | "
                    "%.4g | %.4g / %.4g / %.4g |\n",
                    r.n, mean(r.m[0].ms), mean(r.m[1].ms), mean(r.m[1].qms), mean(r.m[2].ms),
                    mean(r.m[2].qms), mean(r.m[3].ms), mean(r.m[3].qms),
                    mean(r.m[1].ms) / mean(r.m[3].ms), mean(r.m[2].ms) / mean(r.m[3].ms),
                    mean(r.m[4].ms), mean(r.m[5].ms), median(r.m[1].ms), median(r.m[2].ms),
                    median(r.m[3].ms));
    std::printf("\n");
    std::printf("Seed %" PRIu64 ", arena side %.3g N^(1/3).  Times: mean over the timed "
                "steps (step 0 is a warm-up; the medians in the last column) of one whole step, setting every pose and one "
                "query (ours: hs_body_set_pose x N + hs_world_query, threshold 0, contacts off, "
                "1 thread; FCL: setTransform + computeAABB x N, update, collide with "
                "fcl::collide per candidate pair, default request, GST_LIBCCD).  Raw, grid "
                "and tree build their structure (hs_world_set_broadphase) with the bodies at "
                "their step-0 poses, as FCL's manager is set up; \"tree built at the "
                "origin\" builds it with every body at the identity pose, where "
                "hs_world_add_body puts it, and then moves them (the usual way to fill a "
                "world).  Ours reuses one hs_report for all steps, so every pair starts from the "
                "certificate or point of the last step (temporal coherence; answers are "
                "certified as ever); \"fresh report\" gives each step a new one (no hints).  "
                "Colliding pairs and broad-phase pairs: tree and FCL.  pairs in the "
                "RESULT lines: median over the timed steps of the colliding pairs found; "
                "ms_per_step the mean over the timed steps (the median until 2026-11-27), "
                "median_ms the median.\n",
                o.seed, o.density_k);
    for (const size_result &r : all) {
        std::printf("\nN = %d: scene built in %.2f s; fast-engine fallbacks to the exact engine "
                    "over the timed steps (tree): %ld; touching pairs: %ld; exact-engine check: "
                    "%d steps, %ld pairs, %ld disagreements.\n",
                    r.n, r.build_s, r.fallbacks, r.touching, r.exact_steps, r.exact_pairs,
                    r.exact_disagree);
        if (!r.m[0].note.empty())
            std::printf("%s.\n", r.m[0].note.c_str());
        if (r.fcl_disagree > 0)
            std::printf("FCL disagreements:\n%s", r.disagree_notes.c_str());
    }
    std::printf("\n```text\n");
    for (const size_result &r : all)
        for (int mi = 0; mi < 4; mi++)
            if (r.m[mi].steps_timed > 0)
                std::printf("RESULT bench=world n=%d method=%s ms_per_step=%.4g median_ms=%.4g "
                            "pairs=%.0f\n",
                            r.n, method_name[mi], mean(r.m[mi].ms), median(r.m[mi].ms),
                            median(r.m[mi].pairs));
    std::printf("```\n");
}

} // namespace


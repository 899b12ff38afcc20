/* mesh.cpp -- FCL's own mesh pair (env.obj, 2180 triangles, and rob.obj,
 * 216 triangles, from FCL's test data) at random poses: our triangle-level
 * world query against FCL's mesh-mesh collision on OBBRSS hierarchies, in
 * one run, on the same triangles and the same poses.
 *
 * Poses (as FCL's own test draws them): translation uniform in
 * [-3000, 3000] x [-3000, 3000] x [0, 3000], rotation from three uniform
 * angles in [-pi, pi] (Z-Y-Z Euler, hs_pose_from_zyz).  env stays at the
 * identity.
 *
 * Ours: a world with the two meshes as bodies (hs_world_add_file on the
 * OBJ files, one mesh piece each); per pose hs_body_set_pose(rob) +
 * hs_world_query (threshold 0: overlap or touching only; contacts off;
 * default options: triangles paired through each mesh's hierarchy of
 * oriented boxes, HS_TRI_BVH).
 * FCL (Debian libfcl 0.7): fcl::BVHModel<fcl::OBBRSSd> built from exactly
 * the vertices and triangles that hs_body_piece_boundary gives; per pose
 * fcl::collide with a default CollisionRequest (stops at the first
 * contact).  Both hierarchies are built once, outside the timing.
 *
 * Timing is cold (bench/cold_util.h, the protocol of bench/pairs): in
 * each of --repeats repeats every pose is queried once per method, the
 * poses in a new random order, the methods interleaved (which goes first
 * alternates).  A timed query is what a user pays at a new pose: ours
 * hs_body_set_pose + hs_world_query, FCL setTransform + computeAABB +
 * collide.  Reported: the mean over all poses and repeats, the means per
 * class (disjoint, overlap, touching: our exact answer), the spread of
 * the per-repeat means and the median of all timed queries.  Before the
 * timing, an untimed pass compares every pose: "collision" for FCL against
 * overlap/touching for us; each disagreement is printed with our answer.
 * On every --raw-every th pose our query is repeated with HS_TRI_RAW
 * (every triangle against every triangle) and with HS_TRI_GRID (seed
 * 000's uniform grid): both must agree with the default's answer, or the
 * program fails.
 *
 * Output: a Markdown table and notes, then a fenced block of
 *   RESULT bench=mesh method=<ours|fcl> mean_us=.. disjoint_us=.. overlap_us=..
 *          touching_us=.. spread=..-.. median_us=.. disagreements=..
 */
#include <fcl/fcl.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/bench_rng.h"
#include "bench/cold_util.h"
#include "bench/fcl_util.h"
#include "halfspace.h"

namespace {

struct rng : bench_rng {
    explicit rng(uint64_t seed) : bench_rng(seed, 0x2545F4914F6CDD1Dull) {}
};

[[noreturn]] void die(const char *what, const hs_error *err = nullptr)
{
    std::fprintf(stderr, "mesh: %s%s%s\n", what, err ? ": " : "", err ? err->msg : "");
    std::exit(EXIT_FAILURE);
}

struct options {
    std::string dir = "../shared/data/meshes/fcl";
    int poses = 1000, repeats = 5, raw_every = 50;
    uint64_t seed = 1;
};

options parse_args(int argc, char **argv)
{
    options o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--help") {
            std::printf("usage: mesh [--dir DIR] [--poses N] [--repeats R] [--raw-every K] "
                        "[--seed S]\n"
                        "  --dir        folder with env.obj and rob.obj (default %s)\n"
                        "  --poses      random poses of rob (default 1000)\n"
                        "  --repeats    cold passes over all poses (default 5)\n"
                        "  --raw-every  our raw all-pairs check on every K-th pose (50)\n",
                        o.dir.c_str());
            std::exit(EXIT_SUCCESS);
        }
        if (i + 1 >= argc)
            die(("missing value after " + a).c_str());
        const char *v = argv[++i];
        if (a == "--dir")
            o.dir = v;
        else if (a == "--poses")
            o.poses = std::atoi(v);
        else if (a == "--repeats")
            o.repeats = std::atoi(v);
        else if (a == "--raw-every")
            o.raw_every = std::atoi(v);
        else if (a == "--seed")
            o.seed = std::strtoull(v, nullptr, 10);
        else
            die(("unknown option " + a).c_str());
    }
    if (o.poses < 1 || o.repeats < 1 || o.raw_every < 1)
        die("--poses, --repeats and --raw-every must be positive");
    return o;
}

/* The mesh of the (only) piece of body b, as FCL's hierarchy. */
std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>> fcl_model(const hs_body *b, int *ntris)
{
    int conv, nv, nf;
    double *v;
    int *fs, *fv;
    hs_error err;
    if (hs_body_piece_boundary(b, 0, &conv, &v, &nv, &fs, &fv, &nf, &err) != HS_OK)
        die("hs_body_piece_boundary", &err);
    for (int f = 0; f < nf; f++)
        if (fs[f + 1] - fs[f] != 3)
            die("a mesh face that is not a triangle");
    auto model = fbench::fcl_obbrss(v, nv, fv, nf); /* (faces of 3: fv is the triangles) */
    hs_free(v);
    hs_free(fs);
    hs_free(fv);
    *ntris = nf;
    return model;
}

} // namespace

int main(int argc, char **argv)
{
    options o = parse_args(argc, argv);
    hs_error err;
    hs_world *w = hs_world_new();
    if (!w)
        die("out of memory");
    std::string env_path = o.dir + "/env.obj", rob_path = o.dir + "/rob.obj";
    if (hs_world_add_file(w, env_path.c_str(), &err) != HS_OK ||
        hs_world_add_file(w, rob_path.c_str(), &err) != HS_OK)
        die("loading the meshes", &err);
    if (hs_world_body_count(w) != 2)
        die("expected one body per OBJ file");
    hs_body *env = hs_world_body(w, 0), *rob = hs_world_body(w, 1);
    int env_tris, rob_tris;
    auto env_model = fcl_model(env, &env_tris);
    auto rob_model = fcl_model(rob, &rob_tris);
    fcl::CollisionObjectd env_obj(env_model, fcl::Transform3d::Identity());
    fcl::CollisionObjectd rob_obj(rob_model, fcl::Transform3d::Identity());

    hs_query_options opt, raw, grid;
    hs_query_options_init(&opt);
    opt.threshold = 0;
    opt.contacts = 0;
    raw = opt;
    raw.triangles = HS_TRI_RAW;
    grid = opt;
    grid.triangles = HS_TRI_GRID;
    hs_report *rep = hs_report_new();
    if (!rep)
        die("out of memory");

    /* The poses, drawn in order (the stream of the earlier runs). */
    rng r(o.seed);
    std::vector<std::array<double, 16>> poses((size_t)o.poses);
    for (auto &m : poses) {
        double t[3] = {r.uniform(-3000, 3000), r.uniform(-3000, 3000), r.uniform(0, 3000)};
        double a = r.uniform(-M_PI, M_PI), b = r.uniform(-M_PI, M_PI),
               c = r.uniform(-M_PI, M_PI);
        hs_pose_from_zyz(m.data(), a, b, c, t);
    }

    /* Untimed: our class at every pose, FCL's answer compared, the raw and
     * grid methods on every raw_every-th pose. */
    std::vector<int> cls((size_t)o.poses);
    long disagree = 0, hits = 0, touching = 0, raw_checked = 0, tri_tests = 0;
    for (int p = 0; p < o.poses; p++) {
        const double *m = poses[(size_t)p].data();
        if (hs_body_set_pose(rob, m, &err) != HS_OK)
            die("hs_body_set_pose", &err);
        if (hs_world_query(w, &opt, rep, &err) != HS_OK)
            die("hs_world_query", &err);
        hs_status st = fbench::first_pair_status(rep);
        cls[(size_t)p] = cold::class_of(st);
        hs_report_stats stats;
        hs_report_get_stats(rep, &stats);
        tri_tests += stats.triangle_tests;
        bool fcl_hit = fbench::fcl_collides_at(m, &env_obj, &rob_obj);
        bool ours_hit = st == HS_OVERLAP || st == HS_TOUCHING;
        hits += ours_hit;
        touching += st == HS_TOUCHING;
        if (ours_hit != fcl_hit) {
            disagree++;
            std::fprintf(stderr, "mesh: pose %d: ours %s, FCL %s\n", p, hs_status_name(st),
                         fcl_hit ? "collision" : "free");
        }
        if (p % o.raw_every == 0) {
            if (hs_world_query(w, &raw, rep, &err) != HS_OK)
                die("hs_world_query (raw)", &err);
            if (fbench::first_pair_status(rep) != st)
                die("the raw all-pairs method and the default disagree");
            if (hs_world_query(w, &grid, rep, &err) != HS_OK)
                die("hs_world_query (grid)", &err);
            if (fbench::first_pair_status(rep) != st)
                die("the uniform grid and the default disagree");
            raw_checked++;
        }
    }

    /* Timed, cold: method 0 ours, 1 FCL. */
    std::vector<cold::times> t;
    long changed = 0;
    cold::run(o.poses, o.repeats, 2, r, t, [&](int k, int i) {
        hs_status st = HS_DISJOINT;
        double us = fbench::timed_pair_step(k, poses[(size_t)i].data(), w, rob, &opt, rep, &st,
                                            &env_obj, &rob_obj, &err);
        if (us < 0)
            die("hs_world_query", &err);
        if (k == 0)
            changed += cold::class_of(st) != cls[(size_t)i];
        return us;
    });
    if (changed)
        die("an answer changed between the check and the timed passes");

    long count[cold::CLASSES] = {0, 0, 0};
    for (int c : cls)
        count[c]++;
    double ours = t[0].mean(cls), fclm = t[1].mean(cls), lo[2], hi[2];
    t[0].spread(&lo[0], &hi[0]);
    t[1].spread(&lo[1], &hi[1]);
    std::printf("| rob poses | env / rob triangles | disjoint / overlap / touching (ours) | "
                "ours us: mean (spread) | FCL us: mean (spread) | ours / FCL | "
                "ours: disjoint / overlap / touching | FCL: disjoint / overlap / touching | "
                "median: ours / FCL | disagreements | raw and grid checks |\n");
    std::printf("|---:|---|---|---|---|---:|---|---|---|---:|---:|\n");
    std::printf("| %d | %d / %d | %ld / %ld / %ld | %.4g (%.4g-%.4g) | %.4g (%.4g-%.4g) | %.3g | "
                "%s | %s | %.4g / %.4g | %ld | %ld, all agree |\n",
                o.poses, env_tris, rob_tris, count[0], count[1], count[2], ours, lo[0], hi[0],
                fclm, lo[1], hi[1], ours / fclm, cold::class_means(t[0], cls).c_str(),
                cold::class_means(t[1], cls).c_str(), t[0].median(), t[1].median(), disagree,
                raw_checked);
    std::printf("\nSeed %llu; cold: %d repeats, each pose once per repeat and method, the poses "
                "in a new random order each repeat, the two methods interleaved (the first "
                "alternating); each query timed alone, pose setting included (ours "
                "hs_body_set_pose + hs_world_query, FCL setTransform + computeAABB + collide); "
                "mean over all poses and repeats, per class by our exact answer, the spread of "
                "the per-repeat means, and the median of all timed queries.  Ours: threshold 0, "
                "contacts off, triangles through the hierarchy, HS_TRI_BVH (%.1f triangle tests "
                "per query on average).  FCL: fcl::collide on BVHModel<OBBRSS>, default "
                "request.\n\n",
                (unsigned long long)o.seed, o.repeats, (double)tri_tests / o.poses);
    std::printf("```\nRESULT bench=mesh method=ours %s disagreements=%ld\n"
                "RESULT bench=mesh method=fcl %s disagreements=%ld\n```\n",
                cold::result_fields(t[0], cls).c_str(), disagree,
                cold::result_fields(t[1], cls).c_str(), disagree);
    hs_report_free(rep);
    hs_world_free(w);
    return disagree == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

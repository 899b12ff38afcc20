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
 * Each query is timed alone (steady_clock), repeated --reps times at each
 * pose; the median over all poses of the per-pose minimum is reported.
 * Every pose is compared: "collision" for FCL against overlap/touching for
 * us; each disagreement is printed with our answer.  On every --raw-every
 * th pose our query is repeated with HS_TRI_RAW (every triangle against
 * every triangle) and with HS_TRI_GRID (seed 000's uniform grid): both
 * must agree with the default's answer, or the program fails.
 *
 * Output: a Markdown table and notes, then a fenced block of
 *   RESULT bench=mesh method=<ours|fcl> us_per_query=<median> disagreements=<..>
 */
#include <fcl/fcl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/fcl_util.h"
#include "bench/bench_rng.h"
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

double now_us()
{
    return std::chrono::duration<double, std::micro>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n == 0 ? NAN : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct options {
    std::string dir = "../shared/data/meshes/fcl";
    int poses = 1000, reps = 5, raw_every = 50;
    uint64_t seed = 1;
};

options parse_args(int argc, char **argv)
{
    options o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--help") {
            std::printf("usage: mesh [--dir DIR] [--poses N] [--reps R] [--raw-every K] "
                        "[--seed S]\n"
                        "  --dir        folder with env.obj and rob.obj (default %s)\n"
                        "  --poses      random poses of rob (default 1000)\n"
                        "  --reps       timed repetitions per pose, the fastest kept (5)\n"
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
        else if (a == "--reps")
            o.reps = std::atoi(v);
        else if (a == "--raw-every")
            o.raw_every = std::atoi(v);
        else if (a == "--seed")
            o.seed = std::strtoull(v, nullptr, 10);
        else
            die(("unknown option " + a).c_str());
    }
    if (o.poses < 1 || o.reps < 1 || o.raw_every < 1)
        die("--poses, --reps and --raw-every must be positive");
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

    rng r(o.seed);
    std::vector<double> ours_us, fcl_us;
    long disagree = 0, hits = 0, touching = 0, raw_checked = 0, tri_tests = 0;
    for (int p = 0; p < o.poses; p++) {
        double m[16], t[3] = {r.uniform(-3000, 3000), r.uniform(-3000, 3000),
                              r.uniform(0, 3000)};
        double a = r.uniform(-M_PI, M_PI), b = r.uniform(-M_PI, M_PI),
               c = r.uniform(-M_PI, M_PI);
        hs_pose_from_zyz(m, a, b, c, t);
        if (hs_body_set_pose(rob, m, &err) != HS_OK)
            die("hs_body_set_pose", &err);
        double best = INFINITY;
        for (int k = 0; k < o.reps; k++) {
            double t0 = now_us();
            if (hs_world_query(w, &opt, rep, &err) != HS_OK)
                die("hs_world_query", &err);
            best = std::min(best, now_us() - t0);
        }
        ours_us.push_back(best);
        hs_status st = fbench::first_pair_status(rep);
        hs_report_stats stats;
        hs_report_get_stats(rep, &stats);
        tri_tests += stats.triangle_tests;

        rob_obj.setTransform(fbench::fcl_pose(m));
        rob_obj.computeAABB();
        bool fcl_hit = false;
        best = INFINITY;
        for (int k = 0; k < o.reps; k++) {
            fcl::CollisionRequestd req;
            fcl::CollisionResultd res;
            double t0 = now_us();
            fcl::collide(&env_obj, &rob_obj, req, res);
            best = std::min(best, now_us() - t0);
            fcl_hit = res.isCollision();
        }
        fcl_us.push_back(best);

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
    double ours = median(ours_us), fcl = median(fcl_us);
    std::printf("| rob poses | env / rob triangles | in collision (ours) | touching | "
                "ours us/query (median) | FCL us/query (median) | ours / FCL | "
                "disagreements | raw and grid checks |\n");
    std::printf("|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
    std::printf("| %d | %d / %d | %ld | %ld | %.4g | %.4g | %.3g | %ld | %ld, all agree |\n",
                o.poses, env_tris, rob_tris, hits, touching, ours, fcl, ours / fcl, disagree,
                raw_checked);
    std::printf("\nSeed %llu; each query timed alone, the fastest of %d repetitions per pose, "
                "then the median over the poses.  Ours: hs_world_query, threshold 0, "
                "contacts off, triangles through the hierarchy, HS_TRI_BVH (%.1f triangle tests "
                "per query on average).  FCL: fcl::collide on BVHModel<OBBRSS>, default "
                "request.\n\n",
                (unsigned long long)o.seed, o.reps, (double)tri_tests / o.poses);
    std::printf("```\nRESULT bench=mesh method=ours us_per_query=%.4g disagreements=%ld\n"
                "RESULT bench=mesh method=fcl us_per_query=%.4g disagreements=%ld\n```\n",
                ours, disagree, fcl, disagree);
    hs_report_free(rep);
    hs_world_free(w);
    return disagree == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* robots.cpp -- robot collision meshes pairwise at random poses: our world
 * query (exact triangle tests, the triangle hierarchy) against FCL's
 * collision on OBBRSS hierarchies, in one run, on the same triangles and
 * the same poses.
 *
 * Families (each mesh pair at --poses random poses of the second mesh, the
 * first at the identity):
 *   panda    every pair (i <= j) of the Franka Panda collision meshes
 *            (robots/franka_panda/collision: link0..link7 and hand, STL),
 *            i == j against a copy of itself;
 *   ur5      the same for the UR5 meshes (robots/ur5/collision, STL);
 *   kuka     the same for the KUKA iiwa link meshes (urdf/kuka_iiwa/meshes,
 *            STL, 1157-3038 triangles: finer, closer to graphics models);
 *   env      each Panda mesh, scaled from metres to millimetres, against
 *            FCL's env.obj (meshes/fcl), posed as bench/mesh poses rob:
 *            translation in [-3000, 3000]^2 x [0, 3000], three angles;
 *   box      a convex box (half the mesh's box sizes) against each Panda
 *            mesh: our convex-against-mesh test, FCL's Box against its
 *            BVHModel.
 * Poses of the mesh families panda, ur5 and box: a uniform rotation (three
 * Z-Y-Z angles) and a translation that puts the second box's centre at
 * the first's plus a uniform offset in [-s, s]^3, s = 0.6 (r1 + r2), r the
 * half diagonal of a mesh's box: about half of the poses collide.
 *
 * Timing (as bench/mesh): each query alone (steady_clock), the fastest of
 * --reps repetitions per pose; per family the median and the mean over
 * all its poses.  Ours: hs_world_query on a world of the two bodies,
 * threshold 0, contacts off, default options (HS_TRI_BVH).  FCL (Debian
 * libfcl 0.7): fcl::collide with a default CollisionRequest (stops at the
 * first contact).  Hierarchies and worlds are built outside the timing.
 * Every pose is compared (our overlap/touching against FCL's collision);
 * on every --raw-every th pose our query is repeated with HS_TRI_RAW (with
 * HS_TRI_GRID, seed 000's grid, when the pair has more than 250,000
 * triangle pairs), whose status must be the same, or the program fails.
 *
 * Output: a Markdown table, then
 *   RESULT bench=robots family=<f> method=<ours|fcl> us_median=.. us_mean=.. disagreements=..
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

[[noreturn]] void die(const std::string &what, const hs_error *err = nullptr)
{
    std::fprintf(stderr, "robots: %s%s%s\n", what.c_str(), err ? ": " : "", err ? err->msg : "");
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

double mean(const std::vector<double> &v)
{
    double s = 0;
    for (double x : v)
        s += x;
    return v.empty() ? NAN : s / (double)v.size();
}

struct options {
    std::string data = "../shared/data";
    int poses = 200, reps = 5, raw_every = 25;
    uint64_t seed = 1;
};

options parse_args(int argc, char **argv)
{
    options o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--help") {
            std::printf("usage: robots [--data DIR] [--poses N] [--reps R] [--raw-every K] "
                        "[--seed S]\n"
                        "  --data       the shared data folder (default %s)\n"
                        "  --poses      random poses per mesh pair (default 200)\n"
                        "  --reps       timed repetitions per pose, the fastest kept (5)\n"
                        "  --raw-every  our raw all-pairs check on every K-th pose (25)\n",
                        o.data.c_str());
            std::exit(EXIT_SUCCESS);
        }
        if (i + 1 >= argc)
            die("missing value after " + a);
        const char *v = argv[++i];
        if (a == "--data")
            o.data = v;
        else if (a == "--poses")
            o.poses = std::atoi(v);
        else if (a == "--reps")
            o.reps = std::atoi(v);
        else if (a == "--raw-every")
            o.raw_every = std::atoi(v);
        else if (a == "--seed")
            o.seed = std::strtoull(v, nullptr, 10);
        else
            die("unknown option " + a);
    }
    if (o.poses < 1 || o.reps < 1 || o.raw_every < 1)
        die("--poses, --reps and --raw-every must be positive");
    return o;
}

/* A triangle mesh as read by the library (hs_world_add_file, one mesh
 * piece), scaled. */
struct mesh {
    std::string name;
    std::vector<double> v;
    std::vector<int> t;
    double lo[3], hi[3];
    double radius() const
    {
        double s = 0;
        for (int d = 0; d < 3; d++)
            s += 0.25 * (hi[d] - lo[d]) * (hi[d] - lo[d]);
        return std::sqrt(s);
    }
    double centre(int d) const { return 0.5 * (lo[d] + hi[d]); }
};

mesh load_mesh(const std::string &path, double scale)
{
    hs_error err;
    hs_world *w = hs_world_new();
    if (!w || hs_world_add_file(w, path.c_str(), &err) != HS_OK)
        die("loading " + path, &err);
    if (hs_world_body_count(w) != 1 || hs_body_piece_count(hs_world_body(w, 0)) != 1)
        die(path + ": expected one body with one piece");
    int conv, nv, nf;
    double *v;
    int *fs, *fv;
    if (hs_body_piece_boundary(hs_world_body(w, 0), 0, &conv, &v, &nv, &fs, &fv, &nf, &err) !=
        HS_OK)
        die("hs_body_piece_boundary", &err);
    if (conv)
        die(path + ": read as a convex piece");
    mesh m;
    size_t slash = path.find_last_of('/');
    m.name = path.substr(slash == std::string::npos ? 0 : slash + 1);
    for (int d = 0; d < 3; d++) {
        m.lo[d] = INFINITY;
        m.hi[d] = -INFINITY;
    }
    for (int i = 0; i < 3 * nv; i++) {
        m.v.push_back(v[i] * scale);
        m.lo[i % 3] = std::min(m.lo[i % 3], v[i] * scale);
        m.hi[i % 3] = std::max(m.hi[i % 3], v[i] * scale);
    }
    for (int f = 0; f < nf; f++) {
        if (fs[f + 1] - fs[f] != 3)
            die(path + ": a face that is not a triangle");
        for (int k = 0; k < 3; k++)
            m.t.push_back(fv[fs[f] + k]);
    }
    hs_free(v);
    hs_free(fs);
    hs_free(fv);
    hs_world_free(w);
    return m;
}

std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>> fcl_model(const mesh &m)
{
    return fbench::fcl_obbrss(m.v.data(), (int)(m.v.size() / 3), m.t.data(),
                              (int)(m.t.size() / 3));
}

/* One family's measurements. */
struct family {
    std::string name;
    int pairs = 0;
    long poses = 0, hits = 0, disagree = 0, raw_checked = 0;
    std::vector<double> ours, fcl;
};

/* The shape of one side: a mesh, or (mesh == nullptr) a box. */
struct side {
    const mesh *m = nullptr;
    double box[3] = {0, 0, 0};
};

void add_side(hs_body *b, const side &s)
{
    hs_error err;
    hs_code rc = s.m ? hs_body_add_mesh(b, s.m->v.data(), (int)s.m->v.size() / 3, s.m->t.data(),
                                        (int)s.m->t.size() / 3, nullptr, &err)
                     : hs_body_add_box(b, s.box, nullptr, &err);
    if (rc != HS_OK)
        die("adding a piece", &err);
}

std::shared_ptr<fcl::CollisionGeometryd> fcl_geometry(const side &s)
{
    if (s.m)
        return fcl_model(*s.m);
    return std::make_shared<fcl::Boxd>(s.box[0], s.box[1], s.box[2]);
}

/* A pose of the second side: FCL's env poses (env = 1) or around the
 * first side's box centre. */
void random_pose(rng &r, int env, const double c1[3], const double c2[3], double reach,
                 double m[16])
{
    double a = r.uniform(-M_PI, M_PI), b = r.uniform(-M_PI, M_PI), c = r.uniform(-M_PI, M_PI);
    double t[3] = {0, 0, 0};
    hs_pose_from_zyz(m, a, b, c, t);
    if (env) {
        m[3] = r.uniform(-3000, 3000);
        m[7] = r.uniform(-3000, 3000);
        m[11] = r.uniform(0, 3000);
        return;
    }
    for (int i = 0; i < 3; i++) { /* R c2 + t = c1 + offset */
        double rc = m[4 * i] * c2[0] + m[4 * i + 1] * c2[1] + m[4 * i + 2] * c2[2];
        m[4 * i + 3] = c1[i] + r.uniform(-reach, reach) - rc;
    }
}

void run_pair(family &f, const side &s1, const side &s2, int env, const options &o, rng &r)
{
    hs_error err;
    hs_world *w = hs_world_new();
    hs_body *b1 = w ? hs_world_add_body(w, "a", 0, &err) : nullptr;
    hs_body *b2 = w ? hs_world_add_body(w, "b", 0, &err) : nullptr;
    if (!b1 || !b2)
        die("making the world", &err);
    add_side(b1, s1);
    add_side(b2, s2);
    fcl::CollisionObjectd o1(fcl_geometry(s1), fcl::Transform3d::Identity());
    fcl::CollisionObjectd o2(fcl_geometry(s2), fcl::Transform3d::Identity());
    o1.computeAABB();
    hs_query_options opt, raw;
    hs_query_options_init(&opt);
    opt.threshold = 0;
    opt.contacts = 0;
    raw = opt;
    long tri_pairs = (long)(s1.m ? s1.m->t.size() / 3 : 12) * (long)(s2.m->t.size() / 3);
    raw.triangles = tri_pairs > 250000 ? HS_TRI_GRID : HS_TRI_RAW;
    hs_report *rep = hs_report_new();
    if (!rep)
        die("out of memory");
    double c1[3] = {0, 0, 0}, c2[3] = {0, 0, 0};
    double r1 = s1.m ? s1.m->radius() : 0.5 * std::sqrt(s1.box[0] * s1.box[0] +
                                                        s1.box[1] * s1.box[1] +
                                                        s1.box[2] * s1.box[2]);
    double r2 = s2.m->radius();
    for (int d = 0; d < 3; d++) {
        c1[d] = s1.m ? s1.m->centre(d) : 0;
        c2[d] = s2.m->centre(d);
    }
    for (int p = 0; p < o.poses; p++) {
        double m[16];
        random_pose(r, env, c1, c2, 0.6 * (r1 + r2), m);
        if (hs_body_set_pose(b2, m, &err) != HS_OK)
            die("hs_body_set_pose", &err);
        double best = INFINITY;
        for (int k = 0; k < o.reps; k++) {
            double t0 = now_us();
            if (hs_world_query(w, &opt, rep, &err) != HS_OK)
                die("hs_world_query", &err);
            best = std::min(best, now_us() - t0);
        }
        f.ours.push_back(best);
        hs_status st = fbench::first_pair_status(rep);

        o2.setTransform(fbench::fcl_pose(m));
        o2.computeAABB();
        bool fcl_hit = false;
        best = INFINITY;
        for (int k = 0; k < o.reps; k++) {
            fcl::CollisionRequestd req;
            fcl::CollisionResultd res;
            double t0 = now_us();
            fcl::collide(&o1, &o2, req, res);
            best = std::min(best, now_us() - t0);
            fcl_hit = res.isCollision();
        }
        f.fcl.push_back(best);

        bool ours_hit = st == HS_OVERLAP || st == HS_TOUCHING;
        f.poses++;
        f.hits += ours_hit;
        if (ours_hit != fcl_hit) {
            f.disagree++;
            std::fprintf(stderr, "robots: %s pose %ld: ours %s, FCL %s\n", f.name.c_str(),
                         f.poses, hs_status_name(st), fcl_hit ? "collision" : "free");
        }
        if (p % o.raw_every == 0) {
            if (hs_world_query(w, &raw, rep, &err) != HS_OK)
                die("hs_world_query (raw)", &err);
            if (fbench::first_pair_status(rep) != st)
                die("the raw (or grid) method and the hierarchy disagree");
            f.raw_checked++;
        }
    }
    f.pairs++;
    hs_report_free(rep);
    hs_world_free(w);
}

std::vector<mesh> load_dir(const std::string &dir, const std::vector<std::string> &names,
                           double scale)
{
    std::vector<mesh> out;
    for (const auto &n : names)
        out.push_back(load_mesh(dir + "/" + n, scale));
    return out;
}

} // namespace

int main(int argc, char **argv)
{
    options o = parse_args(argc, argv);
    std::vector<std::string> panda_names = {"link0.stl", "link1.stl", "link2.stl",
                                            "link3.stl", "link4.stl", "link5.stl",
                                            "link6.stl", "link7.stl", "hand.stl"};
    std::vector<std::string> ur5_names = {"base.stl",   "shoulder.stl", "upperarm.stl",
                                          "forearm.stl", "wrist1.stl",  "wrist2.stl",
                                          "wrist3.stl"};
    auto panda = load_dir(o.data + "/robots/franka_panda/collision", panda_names, 1);
    auto ur5 = load_dir(o.data + "/robots/ur5/collision", ur5_names, 1);
    std::vector<std::string> kuka_names;
    for (int k = 0; k <= 7; k++)
        kuka_names.push_back("link_" + std::to_string(k) + ".stl");
    auto kuka = load_dir(o.data + "/urdf/kuka_iiwa/meshes", kuka_names, 1);
    auto panda_mm = load_dir(o.data + "/robots/franka_panda/collision", panda_names, 1000);
    mesh env = load_mesh(o.data + "/meshes/fcl/env.obj", 1);

    rng r(o.seed);
    std::vector<family> fams(5);
    fams[0].name = "panda";
    fams[1].name = "ur5";
    fams[2].name = "kuka";
    fams[3].name = "env";
    fams[4].name = "box";
    for (size_t i = 0; i < panda.size(); i++)
        for (size_t j = i; j < panda.size(); j++) {
            side a, b;
            a.m = &panda[i];
            b.m = &panda[j];
            run_pair(fams[0], a, b, 0, o, r);
        }
    for (size_t i = 0; i < ur5.size(); i++)
        for (size_t j = i; j < ur5.size(); j++) {
            side a, b;
            a.m = &ur5[i];
            b.m = &ur5[j];
            run_pair(fams[1], a, b, 0, o, r);
        }
    for (size_t i = 0; i < kuka.size(); i++)
        for (size_t j = i; j < kuka.size(); j++) {
            side a, b;
            a.m = &kuka[i];
            b.m = &kuka[j];
            run_pair(fams[2], a, b, 0, o, r);
        }
    for (const auto &m : panda_mm) {
        side a, b;
        a.m = &env;
        b.m = &m;
        run_pair(fams[3], a, b, 1, o, r);
    }
    for (const auto &m : panda) {
        side a, b;
        for (int d = 0; d < 3; d++)
            a.box[d] = 0.5 * (m.hi[d] - m.lo[d]);
        b.m = &m;
        run_pair(fams[4], a, b, 0, o, r);
    }

    long disagree = 0;
    std::printf("| family | mesh pairs | poses | in collision (ours) | ours us (median) | "
                "FCL us (median) | ours / FCL | ours us (mean) | FCL us (mean) | "
                "ours / FCL (mean) | disagreements | raw (grid) checks |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const auto &f : fams) {
        double om = median(f.ours), fm = median(f.fcl), oa = mean(f.ours), fa = mean(f.fcl);
        std::printf("| %s | %d | %ld | %ld | %.4g | %.4g | %.3g | %.4g | %.4g | %.3g | %ld | "
                    "%ld, all agree |\n",
                    f.name.c_str(), f.pairs, f.poses, f.hits, om, fm, om / fm, oa, fa, oa / fa,
                    f.disagree, f.raw_checked);
        disagree += f.disagree;
    }
    std::printf("\nSeed %llu; each query timed alone, the fastest of %d repetitions per pose; "
                "median and mean over the poses of a family.  Ours: hs_world_query on the two "
                "bodies, threshold 0, contacts off, triangles through the hierarchy "
                "(HS_TRI_BVH).  FCL: fcl::collide on BVHModel<OBBRSS> (and Box), default "
                "request.\n\n```\n",
                (unsigned long long)o.seed, o.reps);
    for (const auto &f : fams) {
        std::printf("RESULT bench=robots family=%s method=ours us_median=%.4g us_mean=%.4g "
                    "disagreements=%ld\n",
                    f.name.c_str(), median(f.ours), mean(f.ours), f.disagree);
        std::printf("RESULT bench=robots family=%s method=fcl us_median=%.4g us_mean=%.4g "
                    "disagreements=%ld\n",
                    f.name.c_str(), median(f.fcl), mean(f.fcl), f.disagree);
    }
    std::printf("```\n");
    return disagree == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

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
 *            BVHModel;
 *   rest     each Panda, UR5 and KUKA mesh resting on a table (a box of
 *            sizes 2e x 2e x e, e the mesh's largest extent, its top face
 *            on z = 0): the mesh turned by one of the 24 rotations that map
 *            axes to axes (pose p takes the (p mod 24)-th), lifted so that
 *            its lowest point lies on z = 0 exactly, that point over the
 *            table at a random offset: exact contact (vertex, edge or face
 *            on the table's face), the state of a part lying on a table.
 *            FCL's answers on poses that touch are counted, not compared.
 * Poses of the mesh families panda, ur5 and box: a uniform rotation (three
 * Z-Y-Z angles) and a translation that puts the second box's centre at
 * the first's plus a uniform offset in [-s, s]^3, s = 0.6 (r1 + r2), r the
 * half diagonal of a mesh's box: about half of the poses collide.
 *
 * Timing is cold (bench/cold_util.h, the protocol of bench/pairs): per
 * family, in each of --repeats repeats every pose of every mesh pair of
 * the family is queried once per method, all of them in a new random
 * order, the methods interleaved (which goes first alternates).  A timed
 * query is what a user pays at a new pose: ours hs_body_set_pose +
 * hs_world_query on a world of the two bodies (threshold 0, contacts off,
 * default options: HS_TRI_BVH); FCL (Debian libfcl 0.7) setTransform +
 * computeAABB + fcl::collide with a default CollisionRequest (stops at the
 * first contact).  Reported per family: the mean over all its poses and
 * repeats, the means per class (disjoint, overlap, touching: our exact
 * answer), the spread of the per-repeat means, the median of all timed
 * queries.  Hierarchies and worlds are built outside the timing.
 * Before the timing, an untimed pass compares every pose (our
 * overlap/touching against FCL's collision);
 * on every --raw-every th pose our query is repeated with HS_TRI_RAW (with
 * HS_TRI_GRID, seed 000's grid, when the pair has more than 250,000
 * triangle pairs), whose status must be the same, or the program fails.
 *
 * Output: a Markdown table, then
 *   RESULT bench=robots family=<f> method=<ours|fcl> mean_us=.. disjoint_us=.. overlap_us=..
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
#include <memory>
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

[[noreturn]] void die(const std::string &what, const hs_error *err = nullptr)
{
    std::fprintf(stderr, "robots: %s%s%s\n", what.c_str(), err ? ": " : "", err ? err->msg : "");
    std::exit(EXIT_FAILURE);
}

struct options {
    std::string data = "../shared/data";
    int poses = 200, repeats = 5, raw_every = 25;
    uint64_t seed = 1;
};

options parse_args(int argc, char **argv)
{
    options o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--help") {
            std::printf("usage: robots [--data DIR] [--poses N] [--repeats R] [--raw-every K] "
                        "[--seed S]\n"
                        "  --data       the shared data folder (default %s)\n"
                        "  --poses      random poses per mesh pair (default 200)\n"
                        "  --repeats    cold passes over all poses (default 5)\n"
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
        else if (a == "--repeats")
            o.repeats = std::atoi(v);
        else if (a == "--raw-every")
            o.raw_every = std::atoi(v);
        else if (a == "--seed")
            o.seed = std::strtoull(v, nullptr, 10);
        else
            die("unknown option " + a);
    }
    if (o.poses < 1 || o.repeats < 1 || o.raw_every < 1)
        die("--poses, --repeats and --raw-every must be positive");
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

/* One mesh pair: its world of two bodies, FCL's two objects, a report. */
struct pair_state {
    hs_world *w = nullptr;
    hs_body *b2 = nullptr;
    hs_report *rep = nullptr;
    std::unique_ptr<fcl::CollisionObjectd> o1, o2;
    pair_state() = default;
    pair_state(const pair_state &) = delete;
    pair_state &operator=(const pair_state &) = delete;
    ~pair_state()
    {
        hs_report_free(rep);
        hs_world_free(w);
    }
};

/* One timed instance: a pair and a pose of its second side. */
struct instance {
    int pair;
    std::array<double, 16> pose;
};

/* One family: its pairs, its instances, their classes (our answer) and
 * the checks made. */
struct family {
    std::string name;
    std::vector<std::unique_ptr<pair_state>> pairs;
    std::vector<instance> inst;
    std::vector<int> cls;
    long hits = 0, disagree = 0, raw_checked = 0, fcl_touch_hits = 0;
    std::vector<cold::times> t; /* 0 ours, 1 FCL */
};

/* The shape of one side: a mesh, or (mesh == nullptr) a box. */
struct side {
    const mesh *m = nullptr;
    double box[3] = {0, 0, 0};
    bool table = false; /* the box's top face on z = 0 (centred at (0, 0, -box[2] / 2)) */
};

/* The placement of side s in its body (a box as a table: its top on z = 0,
 * exactly, since box[2] / 2 is exact). */
void side_place(const side &s, double m[16])
{
    for (int i = 0; i < 16; i++)
        m[i] = i % 5 == 0 ? 1 : 0;
    if (s.table)
        m[11] = -0.5 * s.box[2];
}

void add_side(hs_body *b, const side &s)
{
    hs_error err;
    double place[16];
    side_place(s, place);
    hs_code rc = s.m ? hs_body_add_mesh(b, s.m->v.data(), (int)s.m->v.size() / 3, s.m->t.data(),
                                        (int)s.m->t.size() / 3, nullptr, &err)
                     : hs_body_add_box(b, s.box, place, &err);
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

enum { MODE_AROUND = 0, MODE_ENV = 1, MODE_REST = 2 };

/* The 24 rotations that map the axes to signed axes (exact). */
void axis_rotation(int k, double R[9])
{
    static const int perm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
    const int *p = perm[k / 4];
    int odd = k / 4 >= 3; /* the last three permutations are odd */
    double sg[3] = {k & 1 ? -1.0 : 1.0, k & 2 ? -1.0 : 1.0, 1};
    /* det = sign(perm) * sg0 * sg1 * sg2 must be +1 */
    sg[2] = (odd ? -1 : 1) * sg[0] * sg[1];
    for (int i = 0; i < 9; i++)
        R[i] = 0;
    for (int i = 0; i < 3; i++)
        R[3 * i + p[i]] = sg[i];
}

/* A resting pose of mesh s2 on the table s1 (pose number p): turned by the
 * p-th axis rotation (mod 24), lifted so that its lowest point lies on
 * z = 0 exactly (t_z = -min z: exact), and moved so that that point lies
 * over the table at a random offset within 0.4 of its half sizes. */
void rest_pose(rng &r, int p, const side &s1, const side &s2, double m[16])
{
    double R[9];
    axis_rotation(p % 24, R);
    const std::vector<double> &v = s2.m->v;
    size_t low = 0;
    double lowz = INFINITY;
    for (size_t i = 0; i < v.size() / 3; i++) {
        double z = R[6] * v[3 * i] + R[7] * v[3 * i + 1] + R[8] * v[3 * i + 2]; /* exact */
        if (z < lowz) {
            lowz = z;
            low = i;
        }
    }
    double px = R[0] * v[3 * low] + R[1] * v[3 * low + 1] + R[2] * v[3 * low + 2];
    double py = R[3] * v[3 * low] + R[4] * v[3 * low + 1] + R[5] * v[3 * low + 2];
    double ox = r.uniform(-0.2, 0.2) * s1.box[0], oy = r.uniform(-0.2, 0.2) * s1.box[1];
    double t[3] = {ox - px, oy - py, -lowz};
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            m[4 * i + j] = R[3 * i + j];
        m[4 * i + 3] = t[i];
    }
    m[12] = m[13] = m[14] = 0;
    m[15] = 1;
}

/* Makes the pair's world and FCL objects, draws its poses, and checks
 * every pose untimed: our answer against FCL's, and the raw (or grid)
 * method on every raw_every-th pose. */
void add_pair(family &f, const side &s1, const side &s2, int mode, const options &o, rng &r)
{
    hs_error err;
    auto ps = std::make_unique<pair_state>();
    ps->w = hs_world_new();
    hs_body *b1 = ps->w ? hs_world_add_body(ps->w, "a", 0, &err) : nullptr;
    ps->b2 = ps->w ? hs_world_add_body(ps->w, "b", 0, &err) : nullptr;
    ps->rep = hs_report_new();
    if (!b1 || !ps->b2 || !ps->rep)
        die("making the world", &err);
    add_side(b1, s1);
    add_side(ps->b2, s2);
    double place[16];
    side_place(s1, place);
    ps->o1 = std::make_unique<fcl::CollisionObjectd>(fcl_geometry(s1), fbench::fcl_pose(place));
    ps->o2 = std::make_unique<fcl::CollisionObjectd>(fcl_geometry(s2),
                                                     fcl::Transform3d::Identity());
    ps->o1->computeAABB();
    hs_query_options opt, raw;
    hs_query_options_init(&opt);
    opt.threshold = 0;
    opt.contacts = 0;
    raw = opt;
    long tri_pairs = (long)(s1.m ? s1.m->t.size() / 3 : 12) * (long)(s2.m->t.size() / 3);
    raw.triangles = tri_pairs > 250000 ? HS_TRI_GRID : HS_TRI_RAW;
    double c1[3] = {0, 0, 0}, c2[3] = {0, 0, 0};
    double r1 = s1.m ? s1.m->radius() : 0.5 * std::sqrt(s1.box[0] * s1.box[0] +
                                                        s1.box[1] * s1.box[1] +
                                                        s1.box[2] * s1.box[2]);
    double r2 = s2.m->radius();
    for (int d = 0; d < 3; d++) {
        c1[d] = s1.m ? s1.m->centre(d) : 0;
        c2[d] = s2.m->centre(d);
    }
    int index = (int)f.pairs.size();
    for (int p = 0; p < o.poses; p++) {
        instance in;
        in.pair = index;
        if (mode == MODE_REST)
            rest_pose(r, p, s1, s2, in.pose.data());
        else
            random_pose(r, mode == MODE_ENV, c1, c2, 0.6 * (r1 + r2), in.pose.data());
        const double *m = in.pose.data();
        if (hs_body_set_pose(ps->b2, m, &err) != HS_OK)
            die("hs_body_set_pose", &err);
        if (hs_world_query(ps->w, &opt, ps->rep, &err) != HS_OK)
            die("hs_world_query", &err);
        hs_status st = fbench::first_pair_status(ps->rep);
        bool fcl_hit = fbench::fcl_collides_at(m, ps->o1.get(), ps->o2.get());
        bool ours_hit = st == HS_OVERLAP || st == HS_TOUCHING;
        f.hits += ours_hit;
        if (st == HS_TOUCHING) { /* FCL answers within its tolerances: counted, not compared */
            f.fcl_touch_hits += fcl_hit;
        } else if (ours_hit != fcl_hit) {
            f.disagree++;
            std::fprintf(stderr, "robots: %s pair %d pose %d: ours %s, FCL %s\n",
                         f.name.c_str(), index, p, hs_status_name(st),
                         fcl_hit ? "collision" : "free");
        }
        if (p % o.raw_every == 0) {
            if (hs_world_query(ps->w, &raw, ps->rep, &err) != HS_OK)
                die("hs_world_query (raw)", &err);
            if (fbench::first_pair_status(ps->rep) != st)
                die("the raw (or grid) method and the hierarchy disagree");
            f.raw_checked++;
        }
        f.inst.push_back(in);
        f.cls.push_back(cold::class_of(st));
    }
    f.pairs.push_back(std::move(ps));
}

/* The family's cold timing: method 0 ours, 1 FCL. */
void time_family(family &f, const options &o, rng &r)
{
    hs_query_options opt;
    hs_query_options_init(&opt);
    opt.threshold = 0;
    opt.contacts = 0;
    long changed = 0;
    cold::run((int)f.inst.size(), o.repeats, 2, r, f.t, [&](int k, int i) {
        const instance &in = f.inst[(size_t)i];
        pair_state &ps = *f.pairs[(size_t)in.pair];
        hs_error err;
        hs_status st = HS_DISJOINT;
        double us = fbench::timed_pair_step(k, in.pose.data(), ps.w, ps.b2, &opt, ps.rep, &st,
                                            ps.o1.get(), ps.o2.get(), &err);
        if (us < 0)
            die("hs_world_query", &err);
        if (k == 0)
            changed += cold::class_of(st) != f.cls[(size_t)i];
        return us;
    });
    if (changed)
        die("an answer changed between the check and the timed passes");
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
    std::vector<family> fams(6);
    fams[0].name = "panda";
    fams[1].name = "ur5";
    fams[2].name = "kuka";
    fams[3].name = "env";
    fams[4].name = "box";
    fams[5].name = "rest";
    for (size_t i = 0; i < panda.size(); i++)
        for (size_t j = i; j < panda.size(); j++) {
            side a, b;
            a.m = &panda[i];
            b.m = &panda[j];
            add_pair(fams[0], a, b, MODE_AROUND, o, r);
        }
    for (size_t i = 0; i < ur5.size(); i++)
        for (size_t j = i; j < ur5.size(); j++) {
            side a, b;
            a.m = &ur5[i];
            b.m = &ur5[j];
            add_pair(fams[1], a, b, MODE_AROUND, o, r);
        }
    for (size_t i = 0; i < kuka.size(); i++)
        for (size_t j = i; j < kuka.size(); j++) {
            side a, b;
            a.m = &kuka[i];
            b.m = &kuka[j];
            add_pair(fams[2], a, b, MODE_AROUND, o, r);
        }
    for (const auto &m : panda_mm) {
        side a, b;
        a.m = &env;
        b.m = &m;
        add_pair(fams[3], a, b, MODE_ENV, o, r);
    }
    for (const auto &m : panda) {
        side a, b;
        for (int d = 0; d < 3; d++)
            a.box[d] = 0.5 * (m.hi[d] - m.lo[d]);
        b.m = &m;
        add_pair(fams[4], a, b, MODE_AROUND, o, r);
    }
    for (const auto *set : {&panda, &ur5, &kuka})
        for (const auto &m : *set) {
            side a, b;
            double e = 0;
            for (int d = 0; d < 3; d++)
                e = std::max(e, m.hi[d] - m.lo[d]);
            a.box[0] = a.box[1] = 2 * e;
            a.box[2] = e;
            a.table = true;
            b.m = &m;
            add_pair(fams[5], a, b, MODE_REST, o, r);
        }

    for (auto &f : fams)
        time_family(f, o, r);

    long disagree = 0;
    std::printf("| family | mesh pairs | poses | disjoint / overlap / touching (ours) | "
                "ours us: mean (spread) | FCL us: mean (spread) | ours / FCL | "
                "ours: disjoint / overlap / touching | FCL: disjoint / overlap / touching | "
                "median: ours / FCL | disagreements | raw (grid) checks |\n");
    std::printf("|---|---:|---:|---|---|---|---:|---|---|---|---:|---:|\n");
    for (const auto &f : fams) {
        long count[cold::CLASSES] = {0, 0, 0};
        for (int c : f.cls)
            count[c]++;
        double lo[2], hi[2], oa = f.t[0].mean(f.cls), fa = f.t[1].mean(f.cls);
        f.t[0].spread(&lo[0], &hi[0]);
        f.t[1].spread(&lo[1], &hi[1]);
        std::printf("| %s | %zu | %zu | %ld / %ld / %ld | %.4g (%.4g-%.4g) | %.4g (%.4g-%.4g) | "
                    "%.3g | %s | %s | %.4g / %.4g | %ld | %ld, all agree |\n",
                    f.name.c_str(), f.pairs.size(), f.inst.size(), count[0], count[1], count[2],
                    oa, lo[0], hi[0], fa, lo[1], hi[1], oa / fa,
                    cold::class_means(f.t[0], f.cls).c_str(),
                    cold::class_means(f.t[1], f.cls).c_str(), f.t[0].median(), f.t[1].median(),
                    f.disagree, f.raw_checked);
        disagree += f.disagree;
    }
    std::printf("\nSeed %llu; cold: %d repeats, each pose once per repeat and method, a "
                "family's poses (all its mesh pairs) in a new random order each repeat, the two "
                "methods interleaved (the first alternating); each query timed alone, pose "
                "setting included (ours hs_body_set_pose + hs_world_query on the two bodies, "
                "FCL setTransform + computeAABB + collide); mean over all poses and repeats, "
                "per class by our exact answer, the spread of the per-repeat means, and the "
                "median of all timed queries.  Ours: threshold 0, contacts off, triangles "
                "through the hierarchy (HS_TRI_BVH).  FCL: fcl::collide on BVHModel<OBBRSS> "
                "(and Box), default request.",
                (unsigned long long)o.seed, o.repeats);
    for (const auto &f : fams) {
        long touching = 0;
        for (int c : f.cls)
            touching += c == cold::TOUCHING;
        if (touching)
            std::printf("  %s: FCL answers collision on %ld of the %ld poses that touch exactly "
                        "(not counted as disagreements: FCL decides contact within its "
                        "tolerances).",
                        f.name.c_str(), f.fcl_touch_hits, touching);
    }
    std::printf("\n\n```\n");
    for (const auto &f : fams) {
        std::printf("RESULT bench=robots family=%s method=ours %s disagreements=%ld\n",
                    f.name.c_str(), cold::result_fields(f.t[0], f.cls).c_str(), f.disagree);
        std::printf("RESULT bench=robots family=%s method=fcl %s disagreements=%ld\n",
                    f.name.c_str(), cold::result_fields(f.t[1], f.cls).c_str(), f.disagree);
    }
    std::printf("```\n");
    return disagree == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

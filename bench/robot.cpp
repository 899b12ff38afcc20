/* robot.cpp -- robots from URDF: our self + world check per configuration
 * against FCL's, the guaranteed motion check against the stepped one, and
 * the URDF robot against today's chain on a serial arm.
 *
 * Part 1, states.  The Franka Panda of the data set (pybullet's
 * panda.urdf, every link the convex hull of its collision mesh), its
 * automatic skip list made at the "ready" configuration (fingers 2 cm
 * open: the adjacent pairs only), in a cluttered scene of 50 boxes (seeded:
 * sides 4-15 cm, turned at random, centres 0.3-0.85 m from the base axis at
 * heights 0-1 m).  10,000 random configurations (uniform within the
 * limits).  Ours: hs_robot_check (set the configuration, self-collision,
 * then the scene; stops at the first pair).  FCL (Debian libfcl 0.7): one
 * fcl::Convex per link built from exactly the vertices and faces of our
 * piece (hs_robot_link_piece_boundary), one fcl::Box per scene box, a
 * DynamicAABBTreeCollisionManager over the links and one over the boxes
 * (set up once); per configuration setTransform + computeAABB of every
 * link (poses from hs_robot_link_pose, so both place the links alike),
 * update, self collide with a callback that skips the pairs our skip list
 * skips and stops at the first colliding pair (fcl::collide, default
 * request: GJK by libccd), then the links against the boxes likewise.
 * Answers (in collision or not) are compared for every configuration; a
 * disagreement is explained when a pair in the difference is within 1e-9
 * of touching (FCL's signed distance), and `disagreements` counts the
 * unexplained ones.
 *
 * Part 2, motions.  1,000 random segments in the same scene: the start a
 * random free configuration, the end random; the guaranteed mode
 * (hs_robot_check_motion, tolerance 1e-6) and the stepped mode at 1
 * degree.  `missed` counts, for the stepped mode, the segments where the
 * guaranteed mode found a collision (a configuration the exact test puts
 * in collision) and the stepped mode none; for the guaranteed mode, the
 * segments where the stepped mode found a collision and it said free.
 *
 * Part 3, serial arm.  The KUKA iiwa of the data set as a URDF robot
 * (self-collision only: hs_robot_check with no world) against the same arm
 * in the chain format (examples/chains/iiwa_meshes.chain: the same joints
 * and the same mesh hulls; hs_chain_set_angles + hs_chain_self_collision),
 * 10,000 random configurations; answers compared.
 *
 * Timing.  Cold: every configuration (segment) once per repeat, in a new
 * random order each repeat, the methods interleaved (which goes first
 * alternates), --repeats repeats (default 5); reported: the mean over all
 * timed calls (the headline, us_per_state and us_per_segment), the range
 * of the per-repeat means, the means over the free and the colliding (or
 * blocked) instances by our answer, and the median of all calls with the
 * range of the per-repeat medians.
 *
 * Output: a Markdown table and notes, then a fenced block of
 *   RESULT bench=robot robot=panda method=ours|fcl us_per_state=.. F disagreements=..
 *   RESULT bench=motion robot=panda method=guaranteed|stepped us_per_segment=.. F missed=..
 *          segments=..
 *   RESULT bench=serial robot=iiwa method=urdf|chain us_per_state=.. F disagreements=..
 * where us_per_state and us_per_segment are the means (until 2026-11-27
 * 09:30 UTC the medians) and F is mean_us=.. free_us=.. collision_us=..
 * spread=..-.. (of the per-repeat means) median_us=.. .
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

#include "bench/fcl_util.h"
#include "bench/bench_rng.h"
#include "bench/cold_util.h"
#include "halfspace.h"

namespace {

struct rng : bench_rng {
    explicit rng(uint64_t seed) : bench_rng(seed, 0x632BE59BD9B4E019ull) {}
};

[[noreturn]] void die(const char *what, const hs_error *err = nullptr)
{
    std::fprintf(stderr, "robot: %s%s%s\n", what, err ? ": " : "", err ? err->msg : "");
    std::exit(EXIT_FAILURE);
}

struct options {
    int states = 10000, segments = 1000, repeats = 5;
    uint64_t seed = 1;
    std::string data = "../shared/data", examples = "examples";
};

const double READY[8] = {0, -0.785398163397, 0, -2.35619449019, 0, 1.57079632679,
                         0.785398163397, 0.02};

/* ------------------------------------------------------------ FCL side */

/* FCL objects for a robot's links (object user data: the link index). */
struct fcl_robot {
    hs_robot *r;
    std::vector<std::shared_ptr<fcl::CollisionObjectd>> obj; /* per link, or null */
    std::unique_ptr<fcl::DynamicAABBTreeCollisionManagerd> mgr;

    explicit fcl_robot(hs_robot *robot) : r(robot)
    {
        int L = hs_robot_link_count(r);
        obj.resize(L);
        std::vector<fcl::CollisionObjectd *> objs;
        hs_error err;
        for (int i = 0; i < L; i++) {
            if (hs_robot_link_piece_count(r, i) == 0)
                continue;
            if (hs_robot_link_piece_count(r, i) != 1)
                die("one piece per link expected");
            int cv, nv, nf, *fs, *fv;
            double *v;
            if (hs_robot_link_piece_boundary(r, i, 0, &cv, &v, &nv, &fs, &fv, &nf, &err) != HS_OK)
                die("piece boundary", &err);
            obj[i] = std::make_shared<fcl::CollisionObjectd>(fbench::fcl_convex(v, nv, fs, fv, nf));
            hs_free(v);
            hs_free(fs);
            hs_free(fv);
            obj[i]->setUserData((void *)(intptr_t)i);
            objs.push_back(obj[i].get());
        }
        place();
        mgr = std::make_unique<fcl::DynamicAABBTreeCollisionManagerd>();
        mgr->registerObjects(objs);
        mgr->setup();
    }
    /* every link at our pose of it */
    void place()
    {
        for (size_t i = 0; i < obj.size(); i++)
            if (obj[i]) {
                double m[16];
                hs_robot_link_pose(r, (int)i, m);
                obj[i]->setTransform(fbench::fcl_pose(m));
                obj[i]->computeAABB();
            }
    }
};

struct fcl_query {
    const hs_robot *r;
    fcl::CollisionRequestd request;
    bool hit = false, all = false;
    std::vector<std::pair<int, int>> pairs; /* all: (link, link) or (link, -1 - box) */
};

int tag_of(fcl::CollisionObjectd *o) { return (int)(intptr_t)o->getUserData(); }

bool fcl_callback(fcl::CollisionObjectd *o1, fcl::CollisionObjectd *o2, void *user)
{
    auto *q = static_cast<fcl_query *>(user);
    int a = tag_of(o1), b = tag_of(o2);
    if (a >= 0 && b >= 0 && hs_robot_pair_skipped(q->r, a, b) != HS_ROBOT_TESTED)
        return false;
    fcl::CollisionResultd result;
    fcl::collide(o1, o2, q->request, result);
    if (!result.isCollision())
        return false;
    q->hit = true;
    if (q->all)
        q->pairs.push_back(a >= 0 ? std::make_pair(a, b) : std::make_pair(b, a));
    return !q->all;
}

/* The scene: 50 boxes, FCL and ours. */
struct scene {
    hs_world *w = nullptr;
    std::vector<std::shared_ptr<fcl::CollisionObjectd>> boxes;
    std::unique_ptr<fcl::DynamicAABBTreeCollisionManagerd> mgr;

    scene(int n, uint64_t seed)
    {
        rng g(seed * 7 + 3);
        w = hs_world_new();
        hs_error err;
        std::vector<fcl::CollisionObjectd *> objs;
        for (int k = 0; k < n; k++) {
            double size[3], axis[3], m[16];
            for (int d = 0; d < 3; d++)
                size[d] = g.uniform(0.04, 0.15);
            double rad = g.uniform(0.3, 0.85), ang = g.uniform(-M_PI, M_PI);
            double t[3] = {rad * std::cos(ang), rad * std::sin(ang), g.uniform(0.0, 1.0)};
            for (;;) {
                for (int d = 0; d < 3; d++)
                    axis[d] = g.uniform(-1, 1);
                if (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2] > 1e-3)
                    break;
            }
            hs_pose_from_axis_angle(m, axis, g.uniform(0, M_PI), t, &err);
            char name[32];
            std::snprintf(name, sizeof name, "box%02d", k);
            hs_body *b = hs_world_add_body(w, name, 1, &err);
            if (!b || hs_body_add_box(b, size, nullptr, &err) != HS_OK ||
                hs_body_set_pose(b, m, &err) != HS_OK)
                die("scene", &err);
            auto o = std::make_shared<fcl::CollisionObjectd>(
                std::make_shared<fcl::Boxd>(size[0], size[1], size[2]), fbench::fcl_pose(m));
            o->computeAABB();
            o->setUserData((void *)(intptr_t)(-1 - k));
            boxes.push_back(o);
            objs.push_back(o.get());
        }
        mgr = std::make_unique<fcl::DynamicAABBTreeCollisionManagerd>();
        mgr->registerObjects(objs);
        mgr->setup();
    }
    ~scene() { hs_world_free(w); }
};

/* FCL's answer for the robot as placed (after fcl_robot::place). */
bool fcl_check(fcl_robot &fr, scene *sc, fcl_query &q)
{
    q.hit = false;
    q.pairs.clear();
    fr.mgr->update();
    fr.mgr->collide(&q, fcl_callback);
    if ((q.hit && !q.all) || !sc)
        return q.hit;
    fr.mgr->collide(sc->mgr.get(), &q, fcl_callback);
    return q.hit;
}

/* ------------------------------------------------------------ parts */

hs_robot *load_panda(const options &o)
{
    hs_error err;
    hs_robot_options ro;
    hs_robot_options_init(&ro);
    ro.auto_skip = 0;
    std::string p = o.data + "/urdf/franka_panda/panda.urdf";
    hs_robot *r = hs_robot_load(p.c_str(), &ro, &err);
    if (!r || hs_robot_set_q(r, READY, 8, &err) != HS_OK ||
        hs_robot_auto_skip(r, nullptr, nullptr, &err) != HS_OK)
        die(p.c_str(), &err);
    return r;
}

std::vector<double> random_configs(const hs_robot *r, int n, rng &g)
{
    int dof = hs_robot_dof(r);
    std::vector<double> q((size_t)n * dof);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < dof; k++) {
            double lo, hi;
            hs_robot_coordinate_limits(r, k, &lo, &hi, nullptr);
            q[(size_t)i * dof + k] = g.uniform(lo, hi);
        }
    return q;
}

/* Is a pair of the difference within 1e-9 of touching? */
bool explained(fcl_robot &fr, scene &sc, hs_robot *r, const double *q)
{
    hs_error err;
    hs_robot_pair *self = nullptr, *world = nullptr;
    int ns = 0, nw = 0;
    hs_robot_set_q(r, q, hs_robot_dof(r), &err);
    hs_robot_self_collision_all(r, &self, &ns, &err);
    hs_robot_world_collision_all(r, sc.w, &world, &nw, &err);
    fr.place();
    fcl_query fq;
    fq.r = r;
    fq.all = true;
    fcl_check(fr, &sc, fq);
    std::vector<std::pair<int, int>> ours;
    for (int k = 0; k < ns; k++)
        ours.push_back({self[k].a, self[k].b});
    for (int k = 0; k < nw; k++)
        ours.push_back({world[k].a, -1 - world[k].body});
    hs_free(self);
    hs_free(world);
    std::vector<std::pair<int, int>> theirs;
    for (auto p : fq.pairs)
        theirs.push_back(p.second >= 0 && p.second < p.first ? std::make_pair(p.second, p.first)
                                                             : p);
    std::sort(ours.begin(), ours.end());
    std::sort(theirs.begin(), theirs.end());
    std::vector<std::pair<int, int>> diff;
    std::set_symmetric_difference(ours.begin(), ours.end(), theirs.begin(), theirs.end(),
                                  std::back_inserter(diff));
    for (auto p : diff) {
        fcl::CollisionObjectd *a = fr.obj[p.first].get();
        fcl::CollisionObjectd *b = p.second >= 0 ? fr.obj[p.second].get()
                                                 : sc.boxes[-1 - p.second].get();
        fcl::DistanceRequestd dreq;
        dreq.enable_signed_distance = true;
        dreq.enable_nearest_points = true;
        fcl::DistanceResultd dres;
        fcl::distance(a, b, dreq, dres);
        if (std::fabs(dres.min_distance) > 1e-9)
            return false;
    }
    return true;
}

struct state_result {
    cold::times ours, fcl;
    long disagree = 0, explained = 0, colliding = 0;
    std::vector<int> cls; /* our answer per configuration: 1 in collision */
};

state_result run_states(hs_robot *r, scene &sc, const options &o, rng &g)
{
    fcl_robot fr(r);
    int dof = hs_robot_dof(r);
    std::vector<double> Q = random_configs(r, o.states, g);
    std::vector<int> order(o.states);
    for (int i = 0; i < o.states; i++)
        order[i] = i;
    std::vector<signed char> ours(o.states), theirs(o.states);
    state_result res;
    res.ours.reset(o.states, o.repeats);
    res.fcl.reset(o.states, o.repeats);
    hs_error err;
    fcl_query fq;
    fq.r = r;
    for (int rep = 0; rep < o.repeats; rep++) {
        g.shuffle(order);
        for (int k = 0; k < o.states; k++) {
            const double *q = &Q[(size_t)order[k] * dof];
            int h = 0;
            bool f = false;
            for (int turn = 0; turn < 2; turn++) {
                if ((turn + k) % 2 == 0) {
                    double t0 = cold::now_us();
                    h = hs_robot_check(r, sc.w, q, dof, &err);
                    res.ours.at(rep, order[k]) = cold::now_us() - t0;
                    if (h < 0)
                        die("hs_robot_check", &err);
                } else {
                    /* FCL places its links where ours are at q */
                    hs_robot_set_q(r, q, dof, &err);
                    double t0 = cold::now_us();
                    fr.place();
                    f = fcl_check(fr, &sc, fq);
                    res.fcl.at(rep, order[k]) = cold::now_us() - t0;
                }
            }
            ours[order[k]] = (signed char)h;
            theirs[order[k]] = f;
        }
        std::fprintf(stderr, "robot: states repeat %d: ours %.2f us, fcl %.2f us\n", rep + 1,
                     res.ours.repeat_median(rep), res.fcl.repeat_median(rep));
    }
    res.cls.assign(ours.begin(), ours.end());
    for (int i = 0; i < o.states; i++) {
        res.colliding += ours[i];
        if (ours[i] != (theirs[i] ? 1 : 0)) {
            if (explained(fr, sc, r, &Q[(size_t)i * dof]))
                res.explained++;
            else
                res.disagree++;
        }
    }
    return res;
}

struct motion_result {
    cold::times guaranteed, stepped;
    std::vector<int> cls; /* 1: blocked by the guaranteed mode's answer */
    long missed_stepped = 0, missed_guaranteed = 0, blocked_g = 0, near_g = 0, blocked_s = 0,
         bad_hit = 0;
    double bounds = 0, steps = 0;
};

motion_result run_motions(hs_robot *r, scene &sc, const options &o, rng &g)
{
    int dof = hs_robot_dof(r);
    hs_error err;
    std::vector<double> A, B;
    while ((int)(A.size() / dof) < o.segments) {
        std::vector<double> qa = random_configs(r, 1, g), qb = random_configs(r, 1, g);
        if (hs_robot_check(r, sc.w, qa.data(), dof, &err) != 0)
            continue;
        A.insert(A.end(), qa.begin(), qa.end());
        B.insert(B.end(), qb.begin(), qb.end());
    }
    hs_robot_motion_options og, os;
    hs_robot_motion_options_init(&og);
    og.guaranteed = 1;
    hs_robot_motion_options_init(&os); /* stepped, 1 degree */
    std::vector<int> order(o.segments);
    for (int i = 0; i < o.segments; i++)
        order[i] = i;
    std::vector<hs_robot_motion_result> rg(o.segments), rs(o.segments);
    std::vector<double> hit((size_t)o.segments * dof);
    motion_result res;
    res.guaranteed.reset(o.segments, o.repeats);
    res.stepped.reset(o.segments, o.repeats);
    for (int rep = 0; rep < o.repeats; rep++) {
        g.shuffle(order);
        for (int k = 0; k < o.segments; k++) {
            int i = order[k];
            const double *qa = &A[(size_t)i * dof], *qb = &B[(size_t)i * dof];
            for (int turn = 0; turn < 2; turn++) {
                bool gm = (turn + k) % 2 == 0;
                double t0 = cold::now_us();
                hs_code rc = hs_robot_check_motion(r, sc.w, qa, qb, dof, gm ? &og : &os,
                                                   gm ? &rg[i] : &rs[i],
                                                   gm ? &hit[(size_t)i * dof] : nullptr, &err);
                double dt = cold::now_us() - t0;
                if (rc != HS_OK)
                    die("hs_robot_check_motion", &err);
                (gm ? res.guaranteed : res.stepped).at(rep, i) = dt;
            }
        }
        std::fprintf(stderr, "robot: motions repeat %d: guaranteed %.0f us, stepped %.0f us\n",
                     rep + 1, res.guaranteed.repeat_median(rep), res.stepped.repeat_median(rep));
    }
    res.cls.resize((size_t)o.segments);
    for (int i = 0; i < o.segments; i++) {
        res.cls[(size_t)i] = rg[i].blocked != 0;
        res.blocked_g += rg[i].blocked != 0;
        res.near_g += rg[i].blocked == 2;
        res.blocked_s += rs[i].blocked != 0;
        res.bounds += rg[i].bounds;
        res.steps += rs[i].steps;
        if (rg[i].blocked == 1) {
            /* the configuration returned is in collision, exactly */
            if (hs_robot_check(r, sc.w, &hit[(size_t)i * dof], dof, &err) != 1)
                res.bad_hit++;
            if (!rs[i].blocked)
                res.missed_stepped++;
        }
        if (rs[i].blocked && !rg[i].blocked)
            res.missed_guaranteed++;
    }
    return res;
}

struct serial_result {
    cold::times urdf, chain;
    long disagree = 0, colliding = 0;
    std::vector<int> cls; /* our answer per configuration: 1 in collision */
};

serial_result run_serial(const options &o, rng &g)
{
    hs_error err;
    std::string up = o.data + "/urdf/kuka_iiwa/model.urdf";
    std::string cp = o.examples + "/chains/iiwa_meshes.chain";
    hs_robot *r = hs_robot_load(up.c_str(), nullptr, &err);
    if (!r)
        die(up.c_str(), &err);
    hs_chain *c = hs_chain_load(cp.c_str(), &err);
    if (!c)
        die(cp.c_str(), &err);
    if (hs_chain_auto_skip(c, nullptr, nullptr, &err) != HS_OK)
        die("chain auto skip", &err);
    int dof = hs_robot_dof(r);
    if (dof != hs_chain_dof(c))
        die("the URDF and the chain differ in their joints");
    std::vector<double> Q = random_configs(r, o.states, g);
    std::vector<int> order(o.states);
    for (int i = 0; i < o.states; i++)
        order[i] = i;
    serial_result res;
    res.cls.assign((size_t)o.states, 0);
    res.urdf.reset(o.states, o.repeats);
    res.chain.reset(o.states, o.repeats);
    for (int rep = 0; rep < o.repeats; rep++) {
        g.shuffle(order);
        for (int k = 0; k < o.states; k++) {
            const double *q = &Q[(size_t)order[k] * dof];
            int hu = 0, hc = 0;
            for (int turn = 0; turn < 2; turn++) {
                double t0 = cold::now_us();
                if ((turn + k) % 2 == 0) {
                    hu = hs_robot_check(r, nullptr, q, dof, &err);
                    res.urdf.at(rep, order[k]) = cold::now_us() - t0;
                } else {
                    if (hs_chain_set_angles(c, q, dof, &err) != HS_OK)
                        die("chain angles", &err);
                    hc = hs_chain_self_collision(c, nullptr, nullptr, nullptr, &err);
                    res.chain.at(rep, order[k]) = cold::now_us() - t0;
                }
            }
            if (hu < 0 || hc < 0)
                die("serial check", &err);
            if (rep == 0) {
                res.cls[(size_t)order[k]] = hu;
                res.colliding += hu;
                res.disagree += hu != hc;
            }
        }
        std::fprintf(stderr, "robot: serial repeat %d: urdf %.2f us, chain %.2f us\n", rep + 1,
                     res.urdf.repeat_median(rep), res.chain.repeat_median(rep));
    }
    hs_chain_free(c);
    hs_robot_free(r);
    return res;
}

void usage(FILE *f)
{
    std::fprintf(f, "usage: robot [--states N] [--segments N] [--repeats R] [--seed S]\n"
                    "             [--data DIR] [--examples DIR]\n"
                    "  --states    random configurations (parts 1 and 3; default 10000)\n"
                    "  --segments  random motions (part 2; default 1000)\n"
                    "  --repeats   timed repeats, methods interleaved (default 5)\n"
                    "  --data      the real data set (default ../shared/data)\n"
                    "  --examples  the examples folder (default examples)\n");
}

options parse(int argc, char **argv)
{
    options o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto value = [&]() -> const char * {
            if (i + 1 >= argc) {
                usage(stderr);
                std::exit(EXIT_FAILURE);
            }
            return argv[++i];
        };
        if (a == "--states")
            o.states = std::atoi(value());
        else if (a == "--segments")
            o.segments = std::atoi(value());
        else if (a == "--repeats")
            o.repeats = std::atoi(value());
        else if (a == "--seed")
            o.seed = std::strtoull(value(), nullptr, 10);
        else if (a == "--data")
            o.data = value();
        else if (a == "--examples")
            o.examples = value();
        else {
            usage(a == "--help" ? stdout : stderr);
            std::exit(a == "--help" ? EXIT_SUCCESS : EXIT_FAILURE);
        }
    }
    if (o.states < 1 || o.segments < 1 || o.repeats < 1)
        die("counts must be positive");
    return o;
}

} // namespace

int main(int argc, char **argv)
{
    options o = parse(argc, argv);
    rng g(o.seed);
    hs_robot *panda = load_panda(o);
    scene sc(50, o.seed);
    state_result st = run_states(panda, sc, o, g);
    motion_result mo = run_motions(panda, sc, o, g);
    hs_robot_free(panda);
    serial_result se = run_serial(o, g);

    std::printf("| part | method | us: mean (per-repeat means) | mean: free / in collision | "
                "median (per-repeat medians) | answers |\n");
    std::printf("|---|---|---|---|---|---|\n");
    auto row = [](const char *part, const char *method, const cold::times &t,
                  const std::vector<int> &cls, const std::string &answers) {
        double lo, hi, mlo, mhi;
        t.spread(&lo, &hi);
        t.median_spread(&mlo, &mhi);
        std::printf("| %s | %s | %.2f (%.2f - %.2f) | %.2f / %.2f | %.2f (%.2f - %.2f) | %s |\n",
                    part, method, t.mean(cls), lo, hi, t.mean(cls, 0), t.mean(cls, 1),
                    t.median(), mlo, mhi, answers.c_str());
    };
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "%ld of %d in collision; %ld disagreements with FCL (%ld explained by a pair "
                  "within 1e-9 of touching)",
                  st.colliding, o.states, st.disagree + st.explained, st.explained);
    row("states, Panda + 50 boxes", "ours", st.ours, st.cls, buf);
    row("states, Panda + 50 boxes", "FCL", st.fcl, st.cls, "");
    std::snprintf(buf, sizeof buf,
                  "%ld of %d blocked (%ld within tolerance only), %.0f distance bounds per "
                  "segment; configurations returned not in collision: %ld",
                  mo.blocked_g, o.segments, mo.near_g, mo.bounds / o.segments, mo.bad_hit);
    row("motions, Panda + 50 boxes", "guaranteed", mo.guaranteed, mo.cls, buf);
    std::snprintf(buf, sizeof buf, "%ld of %d blocked, %.0f steps per segment", mo.blocked_s,
                  o.segments, mo.steps / o.segments);
    row("motions, Panda + 50 boxes", "stepped, 1 degree", mo.stepped, mo.cls, buf);
    std::snprintf(buf, sizeof buf, "%ld of %d in collision", se.colliding, o.states);
    row("serial arm, iiwa, self only", "URDF robot", se.urdf, se.cls, buf);
    std::snprintf(buf, sizeof buf, "%ld disagreements", se.disagree);
    row("serial arm, iiwa, self only", "chain file", se.chain, se.cls, buf);
    std::printf("\nSeed %" PRIu64 ", %d configurations, %d segments, %d repeats (each instance "
                "once per repeat and method, a new random order each repeat, the methods "
                "interleaved).  Classes by our answer (for motions, the guaranteed mode's: "
                "free or blocked).  The stepped mode missed %ld collisions "
                "the guaranteed mode found; the guaranteed mode missed %ld the stepped mode "
                "found.\n\n",
                o.seed, o.states, o.segments, o.repeats, mo.missed_stepped, mo.missed_guaranteed);
    auto fields = [](const cold::times &t, const std::vector<int> &cls) {
        char f[200];
        double lo, hi;
        t.spread(&lo, &hi);
        std::snprintf(f, sizeof f, "mean_us=%.3f free_us=%.3f collision_us=%.3f spread=%.3f-%.3f "
                      "median_us=%.3f",
                      t.mean(cls), t.mean(cls, 0), t.mean(cls, 1), lo, hi, t.median());
        return std::string(f);
    };
    std::printf("```\n");
    std::printf("RESULT bench=robot robot=panda method=ours us_per_state=%.3f %s disagreements=%ld\n",
                st.ours.mean(st.cls), fields(st.ours, st.cls).c_str(), st.disagree);
    std::printf("RESULT bench=robot robot=panda method=fcl us_per_state=%.3f %s disagreements=%ld\n",
                st.fcl.mean(st.cls), fields(st.fcl, st.cls).c_str(), st.disagree);
    std::printf("RESULT bench=motion robot=panda method=guaranteed us_per_segment=%.1f %s "
                "missed=%ld segments=%d\n",
                mo.guaranteed.mean(mo.cls), fields(mo.guaranteed, mo.cls).c_str(),
                mo.missed_guaranteed, o.segments);
    std::printf("RESULT bench=motion robot=panda method=stepped us_per_segment=%.1f %s missed=%ld "
                "segments=%d\n",
                mo.stepped.mean(mo.cls), fields(mo.stepped, mo.cls).c_str(), mo.missed_stepped,
                o.segments);
    std::printf("RESULT bench=serial robot=iiwa method=urdf us_per_state=%.3f %s disagreements=%ld\n",
                se.urdf.mean(se.cls), fields(se.urdf, se.cls).c_str(), se.disagree);
    std::printf("RESULT bench=serial robot=iiwa method=chain us_per_state=%.3f %s disagreements=%ld\n",
                se.chain.mean(se.cls), fields(se.chain, se.cls).c_str(), se.disagree);
    std::printf("```\n");
    return 0;
}

/* ompl_panda.cpp -- a real planner using halfspace: OMPL's RRTConnect
 * plans the Franka Panda (pybullet's panda.urdf) from a configuration
 * with the hand in the upper compartment of a shelf to one with the hand
 * in the lower compartment (table_shelf.wrl: a table and a shelf of
 * boxes).  halfspace is OMPL's StateValidityChecker (hs_robot_check:
 * self-collision, then the scene) and its MotionValidator (the
 * guaranteed mode of hs_robot_check_motion, which never misses a
 * collision on the straight joint-space segment).  The path is shortened
 * by OMPL's simplifier (with the same validators), printed with its
 * length, the counts of state and motion checks and the times, and then
 * every segment of it is checked again in guaranteed mode.  The seed is
 * fixed, so runs repeat.
 *
 *   ompl_panda PANDA.urdf SCENE.wrl
 *
 * Exit: 0 a path was found and every segment re-validated free, 1 usage
 * or load error, 2 no path found, 3 a segment failed re-validation. */
#include <ompl/base/MotionValidator.h>
#include <ompl/base/SpaceInformation.h>
#include <ompl/base/StateValidityChecker.h>
#include <ompl/base/spaces/RealVectorStateSpace.h>
#include <ompl/geometric/PathGeometric.h>
#include <ompl/geometric/SimpleSetup.h>
#include <ompl/geometric/planners/rrt/RRTConnect.h>
#include <ompl/util/Console.h>
#include <ompl/util/RandomNumbers.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <vector>

#include "halfspace.h"

namespace ob = ompl::base;
namespace og = ompl::geometric;

namespace {

const int ARM = 7;            /* the planned joints: panda_joint1..7 */
const double FINGERS = 0.02;  /* the finger coordinate, held fixed */

/* The robot's coordinates for an OMPL state (the arm's 7, then the
 * finger). */
void coordinates(const ob::State *s, double q[ARM + 1])
{
    const auto *v = s->as<ob::RealVectorStateSpace::StateType>();
    for (int k = 0; k < ARM; k++)
        q[k] = v->values[k];
    q[ARM] = FINGERS;
}

/* One robot shared by both validators: OMPL calls them from one thread
 * (RRTConnect and the simplifier are single-threaded). */
struct Shared {
    hs_robot *robot = nullptr;
    hs_world *world = nullptr;
    std::atomic<long> state_checks{0};
};

class Validity : public ob::StateValidityChecker {
public:
    Validity(const ob::SpaceInformationPtr &si, Shared *sh) : ob::StateValidityChecker(si), sh_(sh) {}
    bool isValid(const ob::State *s) const override
    {
        double q[ARM + 1];
        coordinates(s, q);
        sh_->state_checks++;
        hs_error err;
        int hit = hs_robot_check(sh_->robot, sh_->world, q, ARM + 1, &err);
        if (hit < 0)
            std::fprintf(stderr, "ompl_panda: %s\n", err.msg);
        return hit == 0;
    }

private:
    Shared *sh_;
};

/* The guaranteed mode as OMPL's MotionValidator. */
class GuaranteedMotion : public ob::MotionValidator {
public:
    GuaranteedMotion(const ob::SpaceInformationPtr &si, Shared *sh) : ob::MotionValidator(si), sh_(sh)
    {
        hs_robot_motion_options_init(&opt_);
        opt_.guaranteed = 1;
    }
    bool checkMotion(const ob::State *s1, const ob::State *s2) const override
    {
        std::pair<ob::State *, double> last(nullptr, 0);
        return run(s1, s2, last);
    }
    bool checkMotion(const ob::State *s1, const ob::State *s2,
                     std::pair<ob::State *, double> &last) const override
    {
        return run(s1, s2, last);
    }
    long bounds = 0;

private:
    bool run(const ob::State *s1, const ob::State *s2, std::pair<ob::State *, double> &last) const
    {
        double qa[ARM + 1], qb[ARM + 1];
        coordinates(s1, qa);
        coordinates(s2, qb);
        hs_robot_motion_result res;
        hs_error err;
        if (hs_robot_check_motion(sh_->robot, sh_->world, qa, qb, ARM + 1, &opt_, &res, nullptr,
                                  &err) != HS_OK) {
            std::fprintf(stderr, "ompl_panda: %s\n", err.msg);
            invalid_++;
            return false;
        }
        const_cast<GuaranteedMotion *>(this)->bounds += res.bounds;
        if (!res.blocked) {
            valid_++;
            return true;
        }
        /* the last state known valid: proven free before free_fraction */
        if (last.first)
            si_->getStateSpace()->interpolate(s1, s2, res.free_fraction, last.first);
        last.second = res.free_fraction;
        invalid_++;
        return false;
    }
    Shared *sh_;
    hs_robot_motion_options opt_;
};

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void print_state(const char *label, const ob::State *s)
{
    double q[ARM + 1];
    coordinates(s, q);
    std::printf("%s", label);
    for (int k = 0; k < ARM; k++)
        std::printf(" %8.4f", q[k]);
    std::printf("\n");
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: ompl_panda PANDA.urdf SCENE.wrl\n");
        return 1;
    }
    ompl::RNG::setSeed(42);
    ompl::msg::setLogLevel(ompl::msg::LOG_WARN);
    hs_error err;
    /* the automatic skip list at the "ready" configuration, fingers open */
    const double ready[ARM + 1] = {0, -0.785398163397, 0, -2.35619449019, 0, 1.57079632679,
                                   0.785398163397, FINGERS};
    hs_robot_options ro;
    hs_robot_options_init(&ro);
    ro.auto_skip = 0;
    Shared sh;
    sh.robot = hs_robot_load(argv[1], &ro, &err);
    if (!sh.robot || hs_robot_set_q(sh.robot, ready, ARM + 1, &err) != HS_OK ||
        hs_robot_auto_skip(sh.robot, nullptr, nullptr, &err) != HS_OK ||
        !(sh.world = hs_world_load(argv[2], &err))) {
        std::fprintf(stderr, "ompl_panda: %s\n", err.msg);
        return 1;
    }
    if (hs_robot_dof(sh.robot) != ARM + 1) {
        std::fprintf(stderr, "ompl_panda: expected the Panda's 8 coordinates\n");
        return 1;
    }

    auto space = std::make_shared<ob::RealVectorStateSpace>(ARM);
    ob::RealVectorBounds bounds(ARM);
    for (int k = 0; k < ARM; k++) {
        double lo, hi;
        hs_robot_coordinate_limits(sh.robot, k, &lo, &hi, nullptr);
        bounds.setLow(k, lo);
        bounds.setHigh(k, hi);
    }
    space->setBounds(bounds);
    og::SimpleSetup ss(space);
    auto si = ss.getSpaceInformation();
    ss.setStateValidityChecker(std::make_shared<Validity>(si, &sh));
    auto mv = std::make_shared<GuaranteedMotion>(si, &sh);
    si->setMotionValidator(mv);

    /* hand in the upper compartment, then in the lower one */
    const double start_q[ARM] = {1.200, -0.222, -0.687, -1.503, 2.518, 3.389, 0.261};
    const double goal_q[ARM] = {-0.666, 0.425, 1.272, -1.907, -2.016, 1.875, -1.946};
    ob::ScopedState<> start(space), goal(space);
    for (int k = 0; k < ARM; k++) {
        start[k] = start_q[k];
        goal[k] = goal_q[k];
    }
    ss.setStartAndGoalStates(start, goal);
    auto planner = std::make_shared<og::RRTConnect>(si);
    ss.setPlanner(planner);
    ss.setup();

    /* the straight segment from start to goal, for the record */
    std::printf("straight start-goal segment: %s\n",
                si->checkMotion(start.get(), goal.get()) ? "free" : "blocked");

    auto t0 = std::chrono::steady_clock::now();
    ob::PlannerStatus solved = ss.solve(30.0);
    double t_plan = seconds_since(t0);
    if (!solved || !ss.haveExactSolutionPath()) {
        std::printf("no path found in %.3f s\n", t_plan);
        return 2;
    }
    long states_plan = sh.state_checks.load();
    unsigned valid_plan = mv->getValidMotionCount(), invalid_plan = mv->getInvalidMotionCount();
    og::PathGeometric raw = ss.getSolutionPath();
    double raw_len = raw.length();
    auto t1 = std::chrono::steady_clock::now();
    ss.simplifySolution();
    double t_simplify = seconds_since(t1);
    og::PathGeometric &path = ss.getSolutionPath();

    std::printf("planner RRTConnect, seed 42: found a path of %zu states (length %.4f) in %.3f s\n",
                raw.getStateCount(), raw_len, t_plan);
    std::printf("simplified in %.3f s to %zu states, length %.4f (radians in joint space)\n",
                t_simplify, path.getStateCount(), path.length());
    std::printf("planning: %ld state checks, %u motion checks (%u free, %u blocked)\n",
                states_plan, valid_plan + invalid_plan, valid_plan, invalid_plan);
    std::printf("simplifying: %ld state checks, %u motion checks (%u free, %u blocked)\n",
                sh.state_checks.load() - states_plan,
                mv->getValidMotionCount() + mv->getInvalidMotionCount() - valid_plan - invalid_plan,
                mv->getValidMotionCount() - valid_plan, mv->getInvalidMotionCount() - invalid_plan);
    std::printf("guaranteed motion checks computed %ld distance bounds in all\n", mv->bounds);
    std::printf("path:\n");
    for (size_t i = 0; i < path.getStateCount(); i++) {
        char label[32];
        std::snprintf(label, sizeof label, "  q%-3zu", i);
        print_state(label, path.getState(i));
    }

    /* every segment again, guaranteed mode, from scratch */
    hs_robot_motion_options o;
    hs_robot_motion_options_init(&o);
    o.guaranteed = 1;
    int bad = 0;
    auto t2 = std::chrono::steady_clock::now();
    for (size_t i = 0; i + 1 < path.getStateCount(); i++) {
        double qa[ARM + 1], qb[ARM + 1];
        coordinates(path.getState(i), qa);
        coordinates(path.getState(i + 1), qb);
        hs_robot_motion_result res;
        if (hs_robot_check_motion(sh.robot, sh.world, qa, qb, ARM + 1, &o, &res, nullptr, &err) !=
            HS_OK) {
            std::fprintf(stderr, "ompl_panda: %s\n", err.msg);
            return 1;
        }
        std::printf("segment %zu: %s (%ld distance bounds, %ld exact tests)\n", i,
                    res.blocked ? "BLOCKED" : "free", res.bounds, res.exact_tests);
        bad += res.blocked != 0;
    }
    std::printf("re-validated %zu segments in guaranteed mode in %.3f s: %s\n",
                path.getStateCount() - 1, seconds_since(t2), bad ? "FAILED" : "all free");
    hs_world_free(sh.world);
    hs_robot_free(sh.robot);
    return bad ? 3 : 0;
}

/* fcl_util.h -- what the C++ benchmarks against FCL share (bench/world,
 * world_rest, world_hulls, mesh, robots, robot): our 4x4 row-major poses
 * as FCL transforms, a triangle mesh as FCL's OBBRSS hierarchy, the
 * status of the one pair a report holds, one timed step of a pair (ours
 * or FCL's), FCL's answer at a pose, and the pairs a collision manager
 * finds.  Header-only, C++17. */
#ifndef HS_BENCH_FCL_UTIL_H
#define HS_BENCH_FCL_UTIL_H

#include <algorithm>
#include <memory>
#include <vector>

#include "bench/cold_util.h"

#include <fcl/fcl.h>

#include "halfspace.h"

namespace fbench {

/* A rigid pose m (16 doubles, row-major, last row 0 0 0 1) as FCL's. */
inline fcl::Transform3d fcl_pose(const double *m)
{
    fcl::Transform3d tf = fcl::Transform3d::Identity();
    fcl::Matrix3d R;
    R << m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10];
    tf.linear() = R;
    tf.translation() = fcl::Vector3d(m[3], m[7], m[11]);
    return tf;
}

/* The mesh of nv points (3 nv doubles) and nt triangles (3 nt indices)
 * as FCL's hierarchy of oriented boxes (OBBRSS). */
inline std::shared_ptr<fcl::BVHModel<fcl::OBBRSSd>> fcl_obbrss(const double *v, int nv,
                                                                const int *t, int nt)
{
    std::vector<fcl::Vector3d> pts;
    for (int i = 0; i < nv; i++)
        pts.emplace_back(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
    std::vector<fcl::Triangle> tris;
    for (int i = 0; i < nt; i++)
        tris.emplace_back(t[3 * i], t[3 * i + 1], t[3 * i + 2]);
    auto model = std::make_shared<fcl::BVHModel<fcl::OBBRSSd>>();
    model->beginModel();
    model->addSubModel(pts, tris);
    model->endModel();
    return model;
}

/* Status of the first pair in rep: HS_DISJOINT when it has none. */
inline hs_status first_pair_status(const hs_report *rep)
{
    hs_status st = HS_DISJOINT;
    if (hs_report_pair_count(rep) > 0)
        hs_report_pair(rep, 0, nullptr, nullptr, &st);
    return st;
}

/* FCL's answer at pose m of the moving object (its transform and box
 * set, then fcl::collide against fixed, default request): the untimed
 * check that bench/mesh and bench/robots make at every pose, and FCL's
 * timed step (timed_pair_step). */
inline bool fcl_collides_at(const double *m, fcl::CollisionObjectd *fixed,
                            fcl::CollisionObjectd *moving)
{
    fcl::CollisionRequestd req;
    fcl::CollisionResultd res;
    moving->setTransform(fcl_pose(m));
    moving->computeAABB();
    fcl::collide(fixed, moving, req, res);
    return res.isCollision();
}

/* One timed step of a pair benchmark, pose m given to the moving object:
 * method 0 ours (hs_body_set_pose of mover, then hs_world_query of w into
 * rep; *st the status of its one pair, read after the timing), method 1
 * FCL (fcl_collides_at).  Microseconds, or -1 when ours failed (err
 * set). */
inline double timed_pair_step(int method, const double *m, hs_world *w, hs_body *mover,
                              const hs_query_options *opt, hs_report *rep, hs_status *st,
                              fcl::CollisionObjectd *fixed, fcl::CollisionObjectd *moving,
                              hs_error *err)
{
    double t0, t1;
    if (method == 0) {
        t0 = cold::now_us();
        if (hs_body_set_pose(mover, m, err) != HS_OK || hs_world_query(w, opt, rep, err) != HS_OK)
            return -1;
        t1 = cold::now_us();
        *st = first_pair_status(rep);
    } else {
        t0 = cold::now_us();
        (void)fcl_collides_at(m, fixed, moving);
        t1 = cold::now_us();
    }
    return t1 - t0;
}

/* A convex piece's boundary (hs_body_piece_boundary's or
 * hs_robot_link_piece_boundary's arrays: nv vertices, nf faces in fs/fv)
 * as FCL's convex shape with exactly those vertices and faces. */
inline std::shared_ptr<fcl::Convexd> fcl_convex(const double *v, int nv, const int *fs,
                                                const int *fv, int nf)
{
    auto verts = std::make_shared<std::vector<fcl::Vector3d>>();
    auto faces = std::make_shared<std::vector<int>>();
    for (int j = 0; j < nv; j++)
        verts->emplace_back(v[3 * j], v[3 * j + 1], v[3 * j + 2]);
    for (int f = 0; f < nf; f++) {
        faces->push_back(fs[f + 1] - fs[f]);
        for (int c = fs[f]; c < fs[f + 1]; c++)
            faces->push_back(fv[c]);
    }
    return std::make_shared<fcl::Convexd>(verts, nf, faces);
}

/* The pairs of objects FCL's collide finds colliding, by the int each
 * object carries as user data (a < b), the narrow-phase calls made, and
 * (with request.enable_contact) the contact points: the callback of a
 * collision manager's collide(&data, fcl_pairs_callback), the request's
 * defaults GST_LIBCCD and no contacts unless changed. */
struct fcl_pairs {
    fcl::CollisionRequestd request;
    std::vector<std::pair<int, int>> pairs;
    long narrow = 0, contacts = 0;
};

inline bool fcl_pairs_callback(fcl::CollisionObjectd *o1, fcl::CollisionObjectd *o2, void *user)
{
    auto *d = static_cast<fcl_pairs *>(user);
    fcl::CollisionResultd result;
    d->narrow++;
    fcl::collide(o1, o2, d->request, result);
    if (d->request.enable_contact)
        d->contacts += (long)result.numContacts();
    if (result.isCollision()) {
        int a = *static_cast<int *>(o1->getUserData()), b = *static_cast<int *>(o2->getUserData());
        d->pairs.emplace_back(std::min(a, b), std::max(a, b));
    }
    return false;
}

} // namespace fbench

#endif

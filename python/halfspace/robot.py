"""halfspace.robot -- robots from URDF (hs_robot): a tree of links, its
configuration (the values of the movable joints), self-collision with a
skip list, collision and distance against a World, exact checks of straight
joint-space motions, and many configurations at once (check_states, on the
library's threads with the GIL released)."""
import os
from typing import NamedTuple, Optional

import numpy as np

from ._halfspace_cffi import ffi, lib
from . import _util
from ._util import Owned, cpath, cstr, pystr
from .errors import ArgumentError, check, from_error, new_error
from .world import World

__all__ = ["Robot", "RobotPair", "RobotDistance", "MotionResult", "FREE", "SELF", "WORLD",
           "BOTH"]

#: Answers of :meth:`Robot.check_states`: free, self-collision only, world
#: collision only, both.
FREE, SELF, WORLD, BOTH = 0, 1, 2, 3

_SKIP_REASONS = {lib.HS_ROBOT_ADJACENT: "adjacent", lib.HS_ROBOT_REST: "rest",
                 lib.HS_ROBOT_USER: "user", lib.HS_ROBOT_NO_GEOMETRY: "no-geometry",
                 lib.HS_ROBOT_TESTED: "tested"}


class RobotPair(NamedTuple):
    """A pair in collision, as ``halfspace robot`` prints it: two links
    (``kind`` "self", a before b in link order) or a link and a body of
    the world (``kind`` "scene", b the body's name), with the status
    "overlap" or "touching" (None from the quick queries, ``all=False``,
    which do not tell).  a and b are names, or indices with
    ``names=False``."""
    a: object
    b: object
    kind: str
    status: Optional[str]


class RobotDistance(NamedTuple):
    """The smallest distance from a robot's links to a world's bodies:
    the distance (0 when they meet), the link (index) and its name, the
    body's name, and a point on each in world coordinates (a common point
    when the distance is 0)."""
    distance: float
    link: int
    link_name: str
    body: str
    on_link: np.ndarray
    on_body: np.ndarray


class MotionResult(NamedTuple):
    """The answer of :meth:`Robot.check_motion` for the straight motion
    q(t) = (1 - t) q1 + t q2.

    Attributes:
        q: the first configuration found in collision, q(fraction), as an
            array of dof values; None when the motion is free.
        fraction: t of that configuration (1.0 when free).
        free_fraction: every configuration q(t), t < free_fraction, is free
            (guaranteed mode: proven; stepped: the steps before it).
        blocked: 0 free, 1 a configuration in collision was found, 2
            (guaranteed mode) a stretch within about ``tolerance`` of
            contact that could be neither proven free nor found in
            collision (reported blocked, q is where it starts).
        pair: the :class:`RobotPair` that blocks (names), or None.
        steps: stepped mode: the number of steps; guaranteed: 0.
        configurations, bounds, exact_tests: the work done
            (configurations posed, distance bounds, exact tests).
    """
    q: Optional[np.ndarray]
    fraction: float
    free_fraction: float
    blocked: int
    pair: Optional[RobotPair]
    steps: int
    configurations: int
    bounds: int
    exact_tests: int

    @property
    def free(self):
        """True when the motion is free (blocked == 0)."""
        return self.blocked == 0


class Robot(Owned):
    """A robot loaded from a URDF file (hs_robot): a tree of links, each
    with collision pieces, joined by joints.

    Load one with ``Robot.load(path)`` (or ``Robot.from_string(xml)``).
    Its **configuration** is an array of ``dof`` values, one per movable
    joint that is not a mimic joint (revolute, continuous: radians;
    prismatic: metres), in link order (depth first): ``coordinate_names``
    names them, ``limits`` bounds them.  Set it with ``robot.q = [...]``,
    or by name: ``robot.set_q({"panda_joint4": -1.0})``.

    Typical use::

        panda = Robot.load("panda.urdf")                  # meshes as hulls
        shelf = World.load("table_shelf.wrl")
        panda.q = [0, -0.785, 0, -2.356, 0, 1.571, 0.785, 0.02]
        panda.self_collision()                            # [] when free
        panda.world_collision(shelf)                      # [RobotPair(...), ...]
        panda.check_motion(q1, q2, world=shelf)           # MotionResult
        labels = panda.check_states(Q, world=shelf)       # (N,) array: 0 free, 1 self, 2 world, 3 both

    Self-collision covers every pair of links with pieces that are neither
    adjacent nor skipped; the skip list (``skipped``) holds the pairs in
    collision at the rest configuration (made at load time, as planners
    make an "allowed collision matrix") and the pairs added with
    ``skip_pair``.  Answers are exact (touching counts as collision).

    The robot owns its C object and frees it when collected (or on
    ``close()``).  Setting the configuration and the other changes must
    not run while another thread uses the robot; ``check_states`` only
    reads the robot (and the world), so several threads may call it on
    one robot at once.
    """
    _what = "robot"

    def __init__(self, *args, **kw):
        raise TypeError("use Robot.load(path) or Robot.from_string(xml)")

    # ------------------------------------------------------------ loading
    @staticmethod
    def _options(mesh_as_hull, package_path, ros_package_path, missing_mesh_warns, auto_skip,
                 cylinder_sides, sphere_level):
        o = ffi.new("hs_robot_options *")
        lib.hs_robot_options_init(o)
        o.mesh_as_hull = 1 if mesh_as_hull else 0
        keep = None
        if package_path is not None:
            if isinstance(package_path, (str, bytes, os.PathLike)):
                package_path = [package_path]
            keep = ffi.new("char[]", b":".join(cpath(p) for p in package_path))
            o.package_path = keep
        o.ros_package_path = 1 if ros_package_path else 0
        o.missing_mesh_warns = 1 if missing_mesh_warns else 0
        o.auto_skip = 1 if auto_skip else 0
        if cylinder_sides is not None:
            o.cylinder_sides = int(cylinder_sides)
        if sphere_level is not None:
            o.sphere_level = int(sphere_level)
        return o, keep

    @classmethod
    def _made(cls, p, err, rest):
        if p == ffi.NULL:
            raise from_error(err)
        self = cls.__new__(cls)
        self._ptr = ffi.gc(p, lib.hs_robot_free)
        if rest is not None:
            self.q = rest
            self.auto_skip()
        return self

    @classmethod
    def load(cls, path, mesh_as_hull=True, package_path=None, *, ros_package_path=True,
             missing_mesh_warns=False, auto_skip=True, rest=None, cylinder_sides=None,
             sphere_level=None):
        """Load a robot from a URDF file (hs_robot_load).

        Args:
            path: the .urdf file (xacro files must be expanded first).
            mesh_as_hull: True (default, as MoveIt and pybullet do for
                collision): every mesh becomes the convex hull of its
                points; False: meshes stay triangle meshes.
            package_path: folders searched for ``package://NAME/...``
                meshes (a str with ':' between folders, or a list), before
                ``ROS_PACKAGE_PATH`` (unless ros_package_path=False).
            missing_mesh_warns: a mesh file that cannot be found is a
                warning (``warnings``) instead of an error.
            auto_skip: skip the pairs of links in collision at the rest
                configuration (default True; ``rest`` chooses it).
            rest: a configuration (dof values) at which the skip list is
                made instead of the default rest (each value 0, or the
                middle of limits that exclude 0), as ``halfspace robot
                --rest`` does; the robot is left at it.
            cylinder_sides, sphere_level: how <cylinder> (prism sides,
                default 24) and <sphere> (icosphere level, default 2) are
                made.

        The robot is at its rest configuration (or at ``rest``).  Raises
        FileError (the file cannot be read), InputError ("FILE:LINE: what
        is wrong": bad XML, an unknown joint type, a missing mesh, ...) or
        ArgumentError.
        """
        o, keep = cls._options(mesh_as_hull, package_path, ros_package_path, missing_mesh_warns,
                               auto_skip and rest is None, cylinder_sides, sphere_level)
        err = new_error()
        p = lib.hs_robot_load(cpath(path), o, err)
        del keep
        return cls._made(p, err, rest if auto_skip else None)

    @classmethod
    def from_string(cls, xml, name=None, dir=None, mesh_as_hull=True, package_path=None, *,
                    ros_package_path=True, missing_mesh_warns=False, auto_skip=True, rest=None,
                    cylinder_sides=None, sphere_level=None):
        """A robot from URDF text (hs_robot_load_string): ``name`` names it
        in messages (default "<urdf>"), relative mesh paths are relative to
        ``dir`` (default the current folder).  Other arguments as for
        :meth:`load`."""
        o, keep = cls._options(mesh_as_hull, package_path, ros_package_path, missing_mesh_warns,
                               auto_skip and rest is None, cylinder_sides, sphere_level)
        err = new_error()
        p = lib.hs_robot_load_string(cstr(xml), cstr(name) if name is not None else ffi.NULL,
                                     cpath(dir) if dir is not None else ffi.NULL, o, err)
        del keep
        return cls._made(p, err, rest if auto_skip else None)

    # ------------------------------------------------------------ lifetime
    # ------------------------------------------------------------ structure
    @property
    def name(self):
        """The robot's name (<robot name=...>)."""
        return pystr(lib.hs_robot_name(self._handle()))

    @property
    def warnings(self):
        """What the loader passed over ("FILE:LINE: ... ignored"), a list
        of str."""
        r = self._handle()
        return [pystr(lib.hs_robot_warning(r, k)) for k in range(lib.hs_robot_warning_count(r))]

    @property
    def dof(self):
        """Number of coordinates (values of a configuration)."""
        return lib.hs_robot_dof(self._handle())

    @property
    def links(self):
        """Number of links."""
        return lib.hs_robot_link_count(self._handle())

    @property
    def link_names(self):
        """Names of the links, in link order (depth first from the root)."""
        r = self._handle()
        return [pystr(lib.hs_robot_link_name(r, i)) for i in range(lib.hs_robot_link_count(r))]

    def link_parent(self, link):
        """The parent link (index) of a link (index or name); -1 for the
        root."""
        return lib.hs_robot_link_parent(self._handle(), self._link(link))

    def piece_count(self, link):
        """Number of collision pieces of a link (0: no geometry)."""
        return lib.hs_robot_link_piece_count(self._handle(), self._link(link))

    @property
    def joint_names(self):
        """Names of every joint; joint j moves link j + 1."""
        r = self._handle()
        return [pystr(lib.hs_robot_joint_name(r, j)) for j in range(lib.hs_robot_joint_count(r))]

    def joint_type(self, joint):
        """The type of a joint (index or name): "fixed", "revolute",
        "continuous", "prismatic", "floating" or "planar"."""
        return pystr(lib.hs_robot_joint_type_name(lib.hs_robot_joint_type(self._handle(),
                                                                          self._joint(joint))))

    def joint_mimic(self, joint):
        """For a mimic joint (index or name): (leader joint name,
        multiplier, offset), its value being multiplier * leader + offset;
        None for other joints."""
        r = self._handle()
        m, o = ffi.new("double *"), ffi.new("double *")
        leader = lib.hs_robot_joint_mimic(r, self._joint(joint), m, o)
        if leader < 0:
            return None
        return pystr(lib.hs_robot_joint_name(r, leader)), m[0], o[0]

    @property
    def coordinate_names(self):
        """Names of the joints of the coordinates, in configuration order."""
        r = self._handle()
        return [pystr(lib.hs_robot_joint_name(r, lib.hs_robot_coordinate_joint(r, k)))
                for k in range(lib.hs_robot_dof(r))]

    @property
    def limits(self):
        """(dof, 2) array of the coordinates' limits (-inf, inf for a
        continuous joint)."""
        r = self._handle()
        lo, hi = ffi.new("double *"), ffi.new("double *")
        out = np.empty((lib.hs_robot_dof(r), 2))
        for k in range(out.shape[0]):
            err = new_error()
            check(lib.hs_robot_coordinate_limits(r, k, lo, hi, err), err)
            out[k] = lo[0], hi[0]
        return out

    def _link(self, link):
        if isinstance(link, str):
            i = lib.hs_robot_link_find(self._handle(), cstr(link))
            if i < 0:
                raise ArgumentError("no link named %r" % link)
            return i
        i = int(link)
        if not 0 <= i < self.links:
            raise ArgumentError("no link %d (the robot has %d)" % (i, self.links))
        return i

    def _joint(self, joint):
        if isinstance(joint, str):
            j = lib.hs_robot_joint_find(self._handle(), cstr(joint))
            if j < 0:
                raise ArgumentError("no joint named %r" % joint)
            return j
        j = int(joint)
        n = lib.hs_robot_joint_count(self._handle())
        if not 0 <= j < n:
            raise ArgumentError("no joint %d (the robot has %d)" % (j, n))
        return j

    # -------------------------------------------------------- configuration
    @property
    def rest(self):
        """The rest configuration (each value 0, or the middle of limits
        that exclude 0), an array of dof."""
        q = np.empty(self.dof)
        err = new_error()
        check(lib.hs_robot_rest(self._handle(), _util.ptr(q), q.shape[0], err), err)
        return q

    @property
    def q(self):
        """The current configuration, an array of dof values; assign an
        array (or a dict by joint name, see :meth:`set_q`) to set it."""
        q = np.empty(self.dof)
        err = new_error()
        check(lib.hs_robot_get_q(self._handle(), _util.ptr(q), q.shape[0], err), err)
        return q

    @q.setter
    def q(self, q):
        self.set_q(q)

    def set_q(self, q):
        """Set the configuration: an array of dof values (in the order of
        ``coordinate_names``), or a dict {joint name: value} changing only
        those coordinates.  Mimic joints follow.  ArgumentError, and
        nothing changed, for a wrong count, an unknown name, a joint that
        is not a coordinate, a value that is not finite or outside its
        limits."""
        r = self._handle()
        if isinstance(q, dict):
            qa = self.q
            for name, value in q.items():
                j = self._joint(name)
                k = lib.hs_robot_joint_coordinate(r, j)
                if k < 0:
                    kind = "a mimic joint" if self.joint_mimic(j) else self.joint_type(j)
                    raise ArgumentError("joint %r is %s, not a coordinate" % (name, kind))
                qa[k] = float(value)
        else:
            qa = _util.doubles(q, (None,), "q")
        err = new_error()
        check(lib.hs_robot_set_q(r, _util.ptr(qa), qa.shape[0], err), err)

    def set_value(self, joint, value):
        """Set one coordinate by its joint's name (hs_robot_set_value)."""
        err = new_error()
        check(lib.hs_robot_set_value(self._handle(), cstr(joint), float(value), err), err)

    def set_joint_pose(self, joint, m):
        """The pose (4x4) of a floating or planar joint (index or name) in
        its joint frame."""
        arr = _util.pose_array(m)
        err = new_error()
        check(lib.hs_robot_set_joint_pose(self._handle(), self._joint(joint), _util.ptr(arr),
                                          err), err)

    @property
    def base(self):
        """The base pose (world pose of the root link), a (4, 4) array;
        assign a rigid pose to move the robot in the world."""
        return self.link_pose(0)

    @base.setter
    def base(self, m):
        arr = _util.pose_array(m, "base")
        err = new_error()
        check(lib.hs_robot_set_base(self._handle(), _util.ptr(arr), err), err)

    def link_pose(self, link):
        """World pose of a link (index or name) at the current
        configuration, a (4, 4) array."""
        m = np.empty((4, 4))
        lib.hs_robot_link_pose(self._handle(), self._link(link), _util.ptr(m))
        return m

    # ------------------------------------------------------------ skip list
    @property
    def skipped(self):
        """The skip list: pairs of links with pieces that are not tested,
        sorted, as (link a, link b, reason) with names and the reason
        "adjacent", "rest" (in collision at the rest configuration) or
        "user"."""
        r = self._handle()
        a, b = ffi.new("int *"), ffi.new("int *")
        why = ffi.new("hs_robot_skip_reason *")
        names = self.link_names
        out = []
        for k in range(lib.hs_robot_skip_count(r)):
            err = new_error()
            check(lib.hs_robot_skip_get(r, k, a, b, why, err), err)
            out.append((names[a[0]], names[b[0]], _SKIP_REASONS.get(why[0], "unknown")))
        return out

    def skip_pair(self, a, b, skip=True):
        """Never test links a and b (index or name) against each other
        (skip=False: test them again; adjacent pairs stay skipped)."""
        err = new_error()
        check(lib.hs_robot_skip_pair(self._handle(), self._link(a), self._link(b),
                                     1 if skip else 0, err), err)

    def auto_skip(self):
        """Skip every tested pair in collision at the current
        configuration (reason "rest"); returns those pairs (names)."""
        pairs = ffi.new("int **")
        n = ffi.new("int *")
        err = new_error()
        check(lib.hs_robot_auto_skip(self._handle(), pairs, n, err), err)
        names = self.link_names
        try:
            return [(names[pairs[0][2 * k]], names[pairs[0][2 * k + 1]]) for k in range(n[0])]
        finally:
            lib.hs_free(pairs[0])

    # ------------------------------------------------------------- queries
    def _pair_list(self, pairs, n, world, names):
        ln = self.link_names
        w = world._handle() if world is not None else None
        out = []
        try:
            for k in range(n[0]):
                p = pairs[0][k]
                st = _util.status_name(p.status)
                if p.b >= 0:
                    pair = (ln[p.a], ln[p.b]) if names else (p.a, p.b)
                    out.append(RobotPair(pair[0], pair[1], "self", st))
                else:
                    body = pystr(lib.hs_body_name(lib.hs_world_body(w, p.body)))
                    pair = (ln[p.a], body) if names else (p.a, p.body)
                    out.append(RobotPair(pair[0], pair[1], "scene", st))
        finally:
            lib.hs_free(pairs[0])
        return out

    def self_collision(self, all=True, names=True):
        """Pairs of tested links in collision at the current configuration
        (hs_robot_self_collision_all): a list of :class:`RobotPair` (kind
        "self", a before b, sorted, status "overlap" or "touching"); empty
        when free.  names=False gives link indices.

        all=False asks the incremental query instead
        (hs_robot_self_collision: only the pairs with a joint moved since
        its last free answer between them) and returns at most one pair,
        with status None: the fast test for "is this configuration
        free?"."""
        r = self._handle()
        err = new_error()
        if all:
            pairs = ffi.new("hs_robot_pair **")
            n = ffi.new("int *")
            check(lib.hs_robot_self_collision_all(r, pairs, n, err), err)
            return self._pair_list(pairs, n, None, names)
        a, b = ffi.new("int *"), ffi.new("int *")
        hit = lib.hs_robot_self_collision(r, a, b, err)
        if hit < 0:
            raise from_error(err)
        if not hit:
            return []
        ln = self.link_names
        return [RobotPair(ln[a[0]] if names else a[0], ln[b[0]] if names else b[0], "self",
                          None)]

    def world_collision(self, world, all=True, names=True):
        """Links in collision with bodies of a :class:`World` (enabled
        bodies of an enabled world; groups and static flags do not apply):
        a list of :class:`RobotPair` (kind "scene", a the link, b the
        body's name), sorted by link then body; names=False gives the link
        index and the body's index in the world.  all=False stops at the
        first pair found (status None)."""
        w = self._world(world)
        r = self._handle()
        err = new_error()
        if all:
            pairs = ffi.new("hs_robot_pair **")
            n = ffi.new("int *")
            check(lib.hs_robot_world_collision_all(r, w, pairs, n, err), err)
            return self._pair_list(pairs, n, world, names)
        link, body = ffi.new("int *"), ffi.new("int *")
        hit = lib.hs_robot_world_collision(r, w, link, body, err)
        if hit < 0:
            raise from_error(err)
        if not hit:
            return []
        if names:
            return [RobotPair(self.link_names[link[0]],
                              pystr(lib.hs_body_name(lib.hs_world_body(w, body[0]))), "scene",
                              None)]
        return [RobotPair(link[0], body[0], "scene", None)]

    def collides(self, q=None, world=None):
        """The planner's question (hs_robot_check): set the configuration q
        (None: keep the current one), then True when a tested pair of
        links or a link and a body of ``world`` (None: self only) meet."""
        if q is None:
            q = self.q
        qa = _util.doubles(q, (None,), "q")
        w = self._world(world) if world is not None else ffi.NULL
        err = new_error()
        hit = lib.hs_robot_check(self._handle(), w, _util.ptr(qa), qa.shape[0], err)
        if hit < 0:
            raise from_error(err)
        return bool(hit)

    def distance(self, world):
        """The smallest distance from the links to the world's enabled
        bodies (hs_robot_world_distance: 0, decided exactly, when a pair
        meets; otherwise GJK in floating point): a
        :class:`RobotDistance`."""
        w = self._world(world)
        d = ffi.new("double *")
        link, body = ffi.new("int *"), ffi.new("int *")
        pa, pb = np.empty(3), np.empty(3)
        err = new_error()
        check(lib.hs_robot_world_distance(self._handle(), w, d, link, body, _util.ptr(pa),
                                          _util.ptr(pb), err), err)
        return RobotDistance(d[0], link[0], self.link_names[link[0]],
                             pystr(lib.hs_body_name(lib.hs_world_body(w, body[0]))), pa, pb)

    def check_motion(self, q1, q2, guaranteed=True, world=None, *, resolution=None,
                     tolerance=None, self_collision=True, max_checks=None):
        """Is the straight joint-space motion from q1 to q2 free
        (hs_robot_check_motion)?

        Args:
            q1, q2: configurations (dof values each, within the limits).
            guaranteed: True (default): Schwarzer, Saha and Latombe's
                adaptive method, which never misses a collision, locating
                the first contact within ``tolerance`` (default 1e-6,
                length units); False: stepped checks no coordinate of which
                moves more than ``resolution`` (default 1 degree) apart,
                which can jump over a thin obstacle.
            world: a :class:`World` (None: self-collision only).
            self_collision: False: only the world counts.
            max_checks: guaranteed mode: most distance bounds before giving
                up with UnsupportedError (default 10^7).

        Returns a :class:`MotionResult`: ``q`` the first colliding
        configuration found (None when free) and its ``fraction`` t.  The
        robot is left at the configuration it had.
        """
        a = _util.doubles(q1, (None,), "q1")
        b = _util.doubles(q2, (None,), "q2")
        if a.shape != b.shape:
            raise ArgumentError("q1 and q2 have %d and %d values" % (a.shape[0], b.shape[0]))
        o = ffi.new("hs_robot_motion_options *")
        lib.hs_robot_motion_options_init(o)
        o.guaranteed = 1 if guaranteed else 0
        if resolution is not None:
            o.resolution = float(resolution)
        if tolerance is not None:
            o.tolerance = float(tolerance)
        o.self = 1 if self_collision else 0
        if max_checks is not None:
            o.max_checks = int(max_checks)
        w = self._world(world) if world is not None else ffi.NULL
        res = ffi.new("hs_robot_motion_result *")
        hit = np.empty(a.shape[0])
        err = new_error()
        check(lib.hs_robot_check_motion(self._handle(), w, _util.ptr(a), _util.ptr(b),
                                        a.shape[0], o, res, _util.ptr(hit), err), err)
        pair = None
        if res.blocked and res.a >= 0:
            ln = self.link_names
            if res.b >= 0:
                pair = RobotPair(ln[res.a], ln[res.b], "self", _util.status_name(res.status)
                                 if res.blocked == 1 else None)
            else:
                pair = RobotPair(ln[res.a], pystr(lib.hs_body_name(lib.hs_world_body(w, res.body))),
                                 "scene", _util.status_name(res.status)
                                 if res.blocked == 1 else None)
        return MotionResult(hit if res.blocked else None, res.fraction, res.free_fraction,
                            res.blocked, pair, res.steps, res.configurations, res.bounds,
                            res.exact_tests)

    def check_states(self, Q, world=None, threads=0):
        """Label many configurations at once (hs_robot_check_states), on
        the library's worker threads with the GIL released.

        Args:
            Q: an (N, dof) array of configurations (rows within the
                limits).
            world: a :class:`World` (None: self-collision only).
            threads: worker threads; 0 (default) one per CPU, 1 the calling
                thread only.  The answers do not depend on it.

        Returns an (N,) numpy array of uint8: 0 free (``halfspace.robot.FREE``),
        1 self-collision only (SELF), 2 world collision only (WORLD), 3
        both (BOTH).  Row k is nonzero exactly when
        ``collides(Q[k], world)`` is True.  The robot is not changed (not
        even its configuration), so several threads may call this on one
        robot at once.  Raises ArgumentError naming the first bad row
        ("configuration K", K counted from 1) before answering any.
        """
        r = self._handle()
        dof = lib.hs_robot_dof(r)
        Qa = _util.doubles(Q, (None, dof), "Q")
        n = Qa.shape[0]
        out = np.zeros(n, dtype=np.uint8)
        if n == 0:
            return out
        w = self._world(world) if world is not None else ffi.NULL
        err = new_error()
        code = lib.hs_robot_check_states(r, w, _util.ptr(Qa) if dof > 0 else ffi.NULL, n,
                                         int(threads), ffi.from_buffer("unsigned char[]", out),
                                         err)
        check(code, err)
        return out

    @staticmethod
    def _world(world):
        if not isinstance(world, World):
            raise TypeError("expected a halfspace.World, got %s" % type(world).__name__)
        return world._handle()

    def export_vrml(self, path=None, world=None):
        """The robot at its current configuration and the world (may be
        None) as VRML 2.0 (pieces of the pairs in collision red): written
        to ``path``, or returned as str when path is None."""
        w = self._world(world) if world is not None else ffi.NULL
        text = _util.read_c_stream(lambda f, err: lib.hs_robot_export_vrml(self._handle(), w, f,
                                                                           err))
        if path is None:
            return text
        with open(path, "w") as f:
            f.write(text)
        return None

    def __repr__(self):
        if self._ptr is None:
            return "<halfspace.Robot (closed)>"
        return "<halfspace.Robot %r: %d links, %d coordinates>" % (self.name, self.links,
                                                                  self.dof)

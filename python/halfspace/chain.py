"""halfspace.chain -- kinematic chains (hs_chain, seed 003's ChainTree):
links with spheres and convex pieces, joints (free poses or typed with
limits), chain files, self-collision with skip lists, and the chain against
a world."""
import math
from typing import NamedTuple, Optional

import numpy as np

from ._halfspace_cffi import ffi, lib
from . import _util
from ._util import Owned, cpath, cstr, pystr
from .errors import ArgumentError, check, from_error, new_error
from .polytope import Polytope
from .world import World

__all__ = ["Chain", "ChainDistance"]

_JOINT_TYPES = {"fixed": lib.HS_JOINT_FIXED, "revolute": lib.HS_JOINT_REVOLUTE,
                "prismatic": lib.HS_JOINT_PRISMATIC}
_JOINT_NAMES = {v: k for k, v in _JOINT_TYPES.items()}


class ChainDistance(NamedTuple):
    """The smallest distance from a chain to a world's bodies: the
    distance, the link (index) and its name, the body's name, and a point on
    each in world coordinates (0 and a common point when they meet)."""
    distance: float
    link: int
    link_name: Optional[str]
    body: str
    on_link: np.ndarray
    on_body: np.ndarray


class Chain(Owned):
    """A kinematic chain of N links (hs_chain): link 0 is placed by the
    base pose, link i by joint i (the pose of link i in link i-1's frame),
    so link i's world pose is ``base J_1 ... J_i``.

    Load one from a chain file (``Chain.load(path)``, see the README,
    "Kinematic chains"), or build one: ``Chain(n)`` then ``add_sphere``,
    ``add_hull``, ``add_polytope`` for pieces, ``define_joint`` (typed
    joints with limits) or ``set_joint`` (free poses).

    Typical use::

        c = Chain.load("examples/chains/panda.chain")
        c.angles = [0, 0, 0, -0.07, 0, 0, 0]      # the movable joints, in order
        c.self_collision(names=True)              # [('link5', 'hand')]
        c.world_collision(world)                  # [(link, body name), ...]
        c.distance(world)                         # a ChainDistance

    Links are given by index (0..N-1) or by name; joints by index 1..N-1.
    The chain owns its C object and frees it when collected (or on
    ``close()``).  It must not be used from two threads at once.
    """
    _what = "chain"

    def __init__(self, links):
        err = new_error()
        p = lib.hs_chain_new(int(links), err)
        if p == ffi.NULL:
            raise from_error(err)
        self._ptr = ffi.gc(p, lib.hs_chain_free)
        #: Pairs of links skipped by auto_skip (index pairs).
        self.skipped = []

    @classmethod
    def load(cls, path, auto_skip=True):
        """Load a chain file, at its joints' rest values.  With auto_skip
        (the default, as ``halfspace chain`` does) every pair of links in
        contact at the rest pose is skipped, and listed in ``skipped``.
        Raises FileError or InputError ("FILE:LINE: what is wrong")."""
        err = new_error()
        p = lib.hs_chain_load(cpath(path), err)
        if p == ffi.NULL:
            raise from_error(err)
        self = cls.__new__(cls)
        self._ptr = ffi.gc(p, lib.hs_chain_free)
        self.skipped = []
        if auto_skip:
            self.auto_skip()
        return self

    # ------------------------------------------------------------ structure
    @property
    def links(self):
        """Number of links N."""
        return lib.hs_chain_link_count(self._handle())

    @property
    def dof(self):
        """Number of movable (revolute or prismatic) joints."""
        return lib.hs_chain_dof(self._handle())

    @property
    def link_names(self):
        """Names of links 0..N-1 (None for an unnamed link)."""
        c = self._handle()
        return [pystr(lib.hs_chain_link_name(c, i)) for i in range(lib.hs_chain_link_count(c))]

    def link_name(self, i):
        """Name of link i (None when it has none)."""
        return pystr(lib.hs_chain_link_name(self._handle(), self._link(i)))

    @property
    def joint_names(self):
        """Names of joints 1..N-1, as a list indexed 0..N-2 (None when
        unnamed)."""
        c = self._handle()
        return [pystr(lib.hs_chain_joint_name(c, i)) for i in range(1, lib.hs_chain_link_count(c))]

    def joint_type(self, i):
        """"fixed", "revolute" or "prismatic"."""
        return _JOINT_NAMES[lib.hs_chain_joint_type(self._handle(), self._joint(i))]

    @property
    def movable_joints(self):
        """Indices (1..N-1) of the movable joints, in the order of
        ``angles``."""
        c = self._handle()
        return [lib.hs_chain_movable_joint(c, k) for k in range(lib.hs_chain_dof(c))]

    def _link(self, i):
        if isinstance(i, str):
            names = self.link_names
            if i not in names:
                raise ArgumentError("no link named %r" % i)
            return names.index(i)
        return int(i)

    def _joint(self, i):
        if isinstance(i, str):
            names = self.joint_names
            if i not in names:
                raise ArgumentError("no joint named %r" % i)
            return names.index(i) + 1
        return int(i)

    def set_link_name(self, i, name):
        """Name link i (None or "" clears the name)."""
        err = new_error()
        check(lib.hs_chain_set_link_name(self._handle(), self._link(i),
                                         cstr(name) if name else ffi.NULL, err), err)

    def set_joint_name(self, i, name):
        """Name joint i (None or "" clears the name)."""
        err = new_error()
        check(lib.hs_chain_set_joint_name(self._handle(), self._joint(i),
                                          cstr(name) if name else ffi.NULL, err), err)

    # --------------------------------------------------------------- pieces
    def add_sphere(self, link, center, radius):
        """Add a sphere (centre, radius) to a link, in its frame."""
        ctr = _util.vec3(center, "center")
        err = new_error()
        check(lib.hs_chain_add_sphere(self._handle(), self._link(link), _util.ptr(ctr),
                                      float(radius), err), err)

    def add_hull(self, link, points):
        """Add the convex hull of points ((N, 3), N >= 4, not coplanar) to
        a link, in its frame."""
        pts = _util.doubles(points, (None, 3), "points")
        err = new_error()
        check(lib.hs_chain_add_hull(self._handle(), self._link(link), _util.ptr(pts),
                                    pts.shape[0], err), err)

    def add_polytope(self, link, polytope):
        """Add a polytope (3-D, bounded, full-dimensional; copied) to a
        link, in its frame."""
        if not isinstance(polytope, Polytope):
            raise TypeError("add_polytope: expected a halfspace.Polytope")
        err = new_error()
        check(lib.hs_chain_add_polytope(self._handle(), self._link(link), polytope._handle(),
                                        err), err)

    # --------------------------------------------------------------- joints
    def define_joint(self, i, type, origin=None, axis=None, limits=None, rest=0.0):
        """Declare joint i: J_i(q) = origin M(q), M the rotation by q about
        ``axis`` ("revolute"), the translation q along it ("prismatic") or
        the identity ("fixed"); limits (lo, hi) or None for none; the
        joint is set to ``rest`` now."""
        if type not in _JOINT_TYPES:
            raise ArgumentError("joint type: fixed, revolute or prismatic")
        oa, op = _util.optional_pose(origin, "origin")
        ax = _util.vec3(axis, "axis") if axis is not None else None
        lo, hi = (-math.inf, math.inf) if limits is None else map(float, limits)
        err = new_error()
        check(lib.hs_chain_define_joint(self._handle(), self._joint(i), _JOINT_TYPES[type], op,
                                        _util.ptr(ax) if ax is not None else ffi.NULL, lo, hi,
                                        float(rest), err), err)

    @property
    def angles(self):
        """The movable joints' values (radians or lengths) as an array of
        dof; assign dof values (checked against the limits) to set them
        all at once."""
        c = self._handle()
        q = ffi.new("double *")
        out = np.empty(lib.hs_chain_dof(c))
        for k in range(out.shape[0]):
            err = new_error()
            check(lib.hs_chain_joint_limits(c, k, ffi.NULL, ffi.NULL, q, err), err)
            out[k] = q[0]
        return out

    @angles.setter
    def angles(self, q):
        self.set_angles(q)

    def set_angles(self, q):
        """Set every movable joint (dof values, in joint order).
        ArgumentError, and nothing changed, for a wrong count, a value
        outside its limits or not finite."""
        qa = _util.doubles(q, (None,), "angles")
        err = new_error()
        check(lib.hs_chain_set_angles(self._handle(), _util.ptr(qa), qa.shape[0], err), err)

    @property
    def limits(self):
        """(dof, 2) array of the movable joints' limits (-inf / inf for
        none)."""
        c = self._handle()
        lo, hi = ffi.new("double *"), ffi.new("double *")
        out = np.empty((lib.hs_chain_dof(c), 2))
        for k in range(out.shape[0]):
            err = new_error()
            check(lib.hs_chain_joint_limits(c, k, lo, hi, ffi.NULL, err), err)
            out[k] = lo[0], hi[0]
        return out

    def set_joint(self, i, m):
        """Set joint i's pose J_i (a rigid 4x4 pose)."""
        arr = _util.pose_array(m)
        err = new_error()
        check(lib.hs_chain_set_joint(self._handle(), self._joint(i), _util.ptr(arr), err), err)

    def change_joint(self, i, d):
        """Compose joint i with a change: J_i <- J_i d."""
        arr = _util.pose_array(d, "d")
        err = new_error()
        check(lib.hs_chain_change_joint(self._handle(), self._joint(i), _util.ptr(arr), err), err)

    def joint(self, i):
        """Joint i's pose J_i, a (4, 4) array."""
        m = np.empty((4, 4))
        lib.hs_chain_get_joint(self._handle(), self._joint(i), _util.ptr(m))
        return m

    @property
    def base(self):
        """The base pose (world pose of link 0); assign a rigid pose."""
        return self.link_pose(0)

    @base.setter
    def base(self, m):
        arr = _util.pose_array(m, "base")
        err = new_error()
        check(lib.hs_chain_set_base(self._handle(), _util.ptr(arr), err), err)

    def link_pose(self, i):
        """World pose of link i, a (4, 4) array."""
        m = np.empty((4, 4))
        lib.hs_chain_link_pose(self._handle(), self._link(i), _util.ptr(m))
        return m

    def relative_pose(self, i, j):
        """Pose of link j in link i's frame (from the shortcuts)."""
        m = np.empty((4, 4))
        lib.hs_chain_relative_pose(self._handle(), self._link(i), self._link(j), _util.ptr(m))
        return m

    # ----------------------------------------------------------- skip lists
    def skip_pair(self, i, j, skip=True):
        """Never test links i and j against each other (skip=False: test
        them again)."""
        err = new_error()
        check(lib.hs_chain_skip_pair(self._handle(), self._link(i), self._link(j),
                                     1 if skip else 0, err), err)

    def skip_adjacent(self, skip=True):
        """Skip adjacent links (the default) or test them."""
        lib.hs_chain_skip_adjacent(self._handle(), 1 if skip else 0)

    def auto_skip(self, names=False):
        """Skip every pair of links in contact at the current (rest) pose;
        returns the pairs newly skipped (also added to ``skipped``)."""
        pairs = ffi.new("int **")
        n = ffi.new("int *")
        err = new_error()
        check(lib.hs_chain_auto_skip(self._handle(), pairs, n, err), err)
        out = self._pairs(pairs, n, False)
        self.skipped.extend(out)
        if names:
            ln = self.link_names
            out = [(ln[i], ln[j]) for i, j in out]
        return out

    def _pairs(self, pairs, n, names):
        try:
            out = [(pairs[0][2 * k], pairs[0][2 * k + 1]) for k in range(n[0])]
        finally:
            lib.hs_free(pairs[0])
        if names:
            ln = self.link_names
            out = [(ln[i], ln[j]) for i, j in out]
        return out

    # ------------------------------------------------------------- queries
    def self_collision(self, all=True, names=False):
        """Pairs of links (i < j, neither adjacent nor skipped) that overlap
        or touch, sorted: a list of (i, j), or of link names with
        names=True; empty when the chain is free.

        all=False asks the incremental query instead (hs_chain_self_collision:
        searches only what moved since the last free answer) and returns
        at most one pair: the fast test for "is this pose free?"."""
        st = ffi.new("hs_chain_stats *")
        err = new_error()
        if all:
            pairs = ffi.new("int **")
            n = ffi.new("int *")
            check(lib.hs_chain_self_collision_all(self._handle(), pairs, n, st, err), err)
            return self._pairs(pairs, n, names)
        i, j = ffi.new("int *"), ffi.new("int *")
        hit = lib.hs_chain_self_collision(self._handle(), i, j, st, err)
        if hit < 0:
            raise from_error(err)
        if not hit:
            return []
        if names:
            return [(self.link_name(i[0]), self.link_name(j[0]))]
        return [(i[0], j[0])]

    def try_change(self, i, d):
        """A move kept only if free: J_i <- J_i d, then the self-collision
        query; on a collision the joint is set back exactly.  Returns None
        when the move was kept, else the colliding pair (i, j)."""
        arr = _util.pose_array(d, "d")
        a, b = ffi.new("int *"), ffi.new("int *")
        err = new_error()
        hit = lib.hs_chain_try_change(self._handle(), self._joint(i), _util.ptr(arr), a, b,
                                      ffi.NULL, err)
        if hit < 0:
            raise from_error(err)
        return (a[0], b[0]) if hit else None

    def world_collision(self, world, all=True, names=False):
        """Links colliding with bodies of a :class:`World` (enabled bodies
        only; groups and static flags do not apply): a list of (link index,
        body name), sorted by link then body (names=True: link names).
        all=False stops at the first pair found."""
        if not isinstance(world, World):
            raise TypeError("world_collision: expected a halfspace.World")
        w = world._handle()
        err = new_error()
        if all:
            pairs = ffi.new("int **")
            n = ffi.new("int *")
            check(lib.hs_chain_world_collision_all(self._handle(), w, pairs, n, err), err)
            try:
                raw = [(pairs[0][2 * k], pairs[0][2 * k + 1]) for k in range(n[0])]
            finally:
                lib.hs_free(pairs[0])
            out = [(link, pystr(lib.hs_body_name(lib.hs_world_body(w, b)))) for link, b in raw]
        else:
            link = ffi.new("int *")
            body = ffi.new("const hs_body **")
            hit = lib.hs_chain_world_collision(self._handle(), w, link, body, err)
            if hit < 0:
                raise from_error(err)
            out = [(link[0], pystr(lib.hs_body_name(body[0])))] if hit else []
        if names:
            out = [(self.link_name(i), b) for i, b in out]
        return out

    def distance(self, world):
        """The smallest distance from the chain to the world's enabled
        bodies (GJK, like World.distance): a :class:`ChainDistance`."""
        if not isinstance(world, World):
            raise TypeError("distance: expected a halfspace.World")
        d = ffi.new("double *")
        link = ffi.new("int *")
        body = ffi.new("const hs_body **")
        pa, pb = np.empty(3), np.empty(3)
        err = new_error()
        check(lib.hs_chain_world_distance(self._handle(), world._handle(), d, link, body,
                                          _util.ptr(pa), _util.ptr(pb), err), err)
        return ChainDistance(d[0], link[0], self.link_name(link[0]),
                             pystr(lib.hs_body_name(body[0])), pa, pb)

    def __repr__(self):
        if self._ptr is None:
            return "<halfspace.Chain (closed)>"
        return "<halfspace.Chain: %d links, %d movable joints>" % (self.links, self.dof)

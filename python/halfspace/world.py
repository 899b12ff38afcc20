"""halfspace.world -- worlds of bodies (hs_world, hs_body): pieces, poses,
filters, world queries (pairs in collision or contact, with witnesses,
normals and contact points) and distances."""
import os
import threading
import weakref
from typing import List, NamedTuple, Optional

import numpy as np

from ._halfspace_cffi import ffi, lib
from . import _util
from ._util import Owned, cpath, cstr, pystr
from .errors import ArgumentError, check, from_error, new_error
from .polytope import Polytope

__all__ = ["World", "Body", "Pair", "PiecePair", "Contact", "Distance", "Boundary", "QueryResult"]

_BROADPHASE = {"tree": lib.HS_BROAD_TREE, "grid": lib.HS_BROAD_GRID, "raw": lib.HS_BROAD_RAW}
_TRIANGLES = {"bvh": lib.HS_TRI_BVH, "grid": lib.HS_TRI_GRID, "raw": lib.HS_TRI_RAW}


class PiecePair(NamedTuple):
    """Two pieces of a pair of bodies: their indices (in order of
    addition to each body), status, a witness point in world coordinates
    (a common point; for a contact the point on the first piece) and the
    distance (0 for overlap and touching)."""
    piece_a: int
    piece_b: int
    status: str
    witness: np.ndarray
    distance: float


class Contact(NamedTuple):
    """A contact of a pair: the point on each body and the unit normal
    from the first body towards the second (world coordinates)."""
    on_a: np.ndarray
    on_b: np.ndarray
    normal: np.ndarray


class Pair(NamedTuple):
    """A pair of bodies in collision or contact, as ``halfspace world``
    prints it.

    Attributes:
        a, b: the bodies' names (a < b).
        status: "overlap", "touching" or "contact" (the strongest over
            their pieces).
        witness: a point of the pieces that gave the status (for overlap
            and touching a common point; for contact the point on a, of
            the closest such pieces).
        distance: 0 for overlap and touching; for contact the smallest
            distance between pieces.
        normal: the first contact's normal (from a towards b), or None.
        contacts: the contacts (list of :class:`Contact`), at most 16 per
            pair of pieces, pruned to the corners of their hull.
        pieces: every pair of pieces (list of :class:`PiecePair`).
    """
    a: str
    b: str
    status: str
    witness: np.ndarray
    distance: float
    normal: Optional[np.ndarray]
    contacts: List[Contact]
    pieces: List[PiecePair]


class QueryResult(list):
    """The list of :class:`Pair` a world query returns, with the query's
    counters in ``stats`` (body_pairs, piece_pairs, triangle_tests,
    fallbacks, repeated: piece pairs answered from the last query's records
    when nothing moved; see hs_report_stats)."""
    stats: dict


class Distance(NamedTuple):
    """The distance between two bodies, with a point on each (equal, a
    common point, when the distance is 0)."""
    distance: float
    on_a: np.ndarray
    on_b: np.ndarray


class Boundary(NamedTuple):
    """The boundary of a piece in its body's frame: convex or a mesh, the
    vertices (N, 3) and the faces (a list of index arrays;
    counterclockwise seen from outside for a convex piece)."""
    is_convex: bool
    verts: np.ndarray
    faces: List[np.ndarray]


class World(Owned):
    """A world of bodies (hs_world).  Each body has a unique name, a
    static flag, a pose (4x4) and pieces in its own frame.

    Build one empty (``World()``) and add bodies, or load a scene file
    (``World.load(path)``: VRML 2.0, OFF, OBJ, STL; bodies whose names
    start with ``static_`` are static)::

        w = World()
        table = w.add_box("table", [2, 1, 0.1], static=True)
        arm = w.add_cylinder("arm", 0.05, 0.5, pose=poses.translation([0.3, 0, 0.3]))
        for pair in w.query(threshold=0.1):
            print(pair.a, pair.b, pair.status, pair.witness)

    Bodies are :class:`Body` objects (``w["arm"]``, ``w.bodies``); each
    keeps its world alive.  A world frees its C object when collected (or
    on ``close()``).  Queries (``query``, ``distance``) may run from many
    threads at once (each thread has its own report); nothing may change
    the world (adding, posing, removing) while another thread uses it.
    """
    _what = "world"

    def __init__(self):
        p = lib.hs_world_new()
        if p == ffi.NULL:
            raise MemoryError("hs_world_new: out of memory")
        self._init(p)

    def _init(self, p):
        self._ptr = ffi.gc(p, lib.hs_world_free)
        self._bodies = weakref.WeakValueDictionary()  # address -> Body
        self._local = threading.local()

    @classmethod
    def load(cls, path, **options):
        """A new world from a scene file (.wrl/.vrml, .off, .obj, .stl).
        Options (keywords) as for :meth:`add_file`.  Raises FileError,
        InputError ("FILE:LINE: what is wrong") or UnsupportedError
        (another extension)."""
        w = cls()
        w.add_file(path, **options)
        return w

    # ------------------------------------------------------------ lifetime
    def _closing(self):
        """Every Body of the world becomes unusable."""
        for b in list(self._bodies.values()):
            b._ptr = None
        self._local = threading.local()

    # -------------------------------------------------------------- bodies
    def _body(self, p):
        """The Body object of a C body of this world (one per body)."""
        addr = int(ffi.cast("uintptr_t", p))
        b = self._bodies.get(addr)
        if b is None:
            b = Body._make(self, p)
            self._bodies[addr] = b
        return b

    _LIMITS = ("max_file_bytes", "max_depth", "max_pieces", "max_points", "max_sides")

    def add_file(self, path, *, cylinder_sides=None, sphere_level=None, mesh_as_hull=False,
                 allow_paths=(), **limits):
        """Add the bodies of a scene file (names must not clash with this
        world's).  cylinder_sides (default 24) and sphere_level (default 2)
        shape VRML's Cylinder, Cone and Sphere; mesh_as_hull turns every
        mesh into its convex hull.  A VRML Inline reads only below the
        scene's folder unless its folder is among ``allow_paths`` (a list
        of existing folders; "/" allows every file).  The reading limits
        ``max_file_bytes`` (2**28), ``max_depth`` (200), ``max_pieces``
        (10000), ``max_points`` (100000) and ``max_sides`` (1000) are those
        of hs_scene_options; a file beyond one raises InputError.  Returns
        the new bodies.  On an error nothing is added."""
        w = self._handle()
        before = lib.hs_world_body_count(w)
        o = ffi.new("hs_scene_options *")
        lib.hs_scene_options_init(o)
        if cylinder_sides is not None:
            o.cylinder_sides = int(cylinder_sides)
        if sphere_level is not None:
            o.sphere_level = int(sphere_level)
        o.mesh_as_hull = 1 if mesh_as_hull else 0
        for k, v in limits.items():
            if k not in self._LIMITS:
                raise ArgumentError("add_file: unknown option %r" % k)
            setattr(o, k, int(v))
        if isinstance(allow_paths, (str, bytes, os.PathLike)):
            allow_paths = [allow_paths]
        keep = [ffi.new("char[]", cpath(a)) for a in allow_paths]  # alive during the call
        arr = ffi.new("const char *[]", keep + [ffi.NULL])
        o.allow_paths = arr if keep else ffi.NULL
        err = new_error()
        check(lib.hs_world_add_file_opts(w, cpath(path), o, err), err)
        return [self._body(lib.hs_world_body(w, k))
                for k in range(before, lib.hs_world_body_count(w))]

    def add_body(self, name, static=False, pose=None):
        """A new body without pieces (add them with Body.add_*), at the
        identity pose or ``pose``."""
        err = new_error()
        p = lib.hs_world_add_body(self._handle(), cstr(name), 1 if static else 0, err)
        if p == ffi.NULL:
            raise from_error(err)
        b = self._body(p)
        if pose is not None:
            try:
                b.pose = pose
            except Exception:
                self.remove(b)
                raise
        return b

    def _one_piece(self, name, static, pose, add):
        b = self.add_body(name, static)
        try:
            add(b)
            if pose is not None:
                b.pose = pose
        except Exception:
            self.remove(b)
            raise
        return b

    def add_box(self, name, size, *, pose=None, static=False, place=None):
        """A new body made of one box of full sizes ``size`` (3 numbers),
        centred at its origin (then ``place``d in the body frame); the
        body at ``pose``.  Returns the Body."""
        return self._one_piece(name, static, pose, lambda b: b.add_box(size, place))

    def add_cylinder(self, name, radius, height, sides=24, *, pose=None, static=False,
                     place=None):
        """A new body made of one prism with ``sides`` side facets inscribed
        in the cylinder (axis y, centred, as in VRML)."""
        return self._one_piece(name, static, pose,
                               lambda b: b.add_cylinder(radius, height, sides, place))

    def add_cone(self, name, radius, height, sides=24, *, pose=None, static=False, place=None):
        """A new body made of one pyramid inscribed in the cone (axis y)."""
        return self._one_piece(name, static, pose,
                               lambda b: b.add_cone(radius, height, sides, place))

    def add_sphere(self, name, radius, level=2, *, pose=None, static=False, place=None):
        """A new body made of one icosphere (20 * 4**level triangles,
        vertices on the sphere)."""
        return self._one_piece(name, static, pose, lambda b: b.add_sphere(radius, level, place))

    def add_hull(self, name, points, *, pose=None, static=False, place=None):
        """A new body made of the convex hull of points ((N, 3), N >= 4,
        not coplanar)."""
        return self._one_piece(name, static, pose, lambda b: b.add_hull(points, place))

    def add_mesh(self, name, verts, tris, *, pose=None, static=False, place=None):
        """A new body made of one triangle mesh: verts (N, 3), tris (K, 3)
        0-based indices; open or closed, any shape."""
        return self._one_piece(name, static, pose, lambda b: b.add_mesh(verts, tris, place))

    def add_polytope(self, name, polytope, *, pose=None, static=False, place=None):
        """A new body made of one polytope (a bounded, full-dimensional
        :class:`Polytope` of dimension 3, copied)."""
        return self._one_piece(name, static, pose, lambda b: b.add_polytope(polytope, place))

    def clone(self, body, name):
        """A copy of ``body`` (of this world or another) named ``name``,
        sharing its geometry."""
        if not isinstance(body, Body):
            raise TypeError("clone: expected a Body")
        err = new_error()
        p = lib.hs_world_clone_body(self._handle(), body._handle(), cstr(name), err)
        if p == ffi.NULL:
            raise from_error(err)
        return self._body(p)

    def remove(self, body):
        """Remove a body (given as a Body or a name); the Body object
        becomes unusable."""
        b = self[body] if isinstance(body, str) else body
        if not isinstance(b, Body) or b._world is not self:
            raise ArgumentError("remove: not a body of this world")
        err = new_error()
        check(lib.hs_world_remove_body(self._handle(), b._handle(), err), err)
        self._bodies.pop(b._addr, None)
        b._ptr = None

    def __len__(self):
        return lib.hs_world_body_count(self._handle())

    def __iter__(self):
        return iter(self.bodies)

    def __contains__(self, name):
        return lib.hs_world_find_body(self._handle(), cstr(name)) != ffi.NULL

    def __getitem__(self, key):
        """A body by name or by index (order of creation)."""
        w = self._handle()
        if isinstance(key, str):
            p = lib.hs_world_find_body(w, cstr(key))
            if p == ffi.NULL:
                raise KeyError(key)
        else:
            k = int(key)
            n = lib.hs_world_body_count(w)
            if k < 0:
                k += n
            p = lib.hs_world_body(w, k)
            if p == ffi.NULL:
                raise IndexError("body index %d outside 0..%d" % (key, n - 1))
        return self._body(p)

    @property
    def bodies(self):
        """The bodies, in order of creation."""
        w = self._handle()
        return [self._body(lib.hs_world_body(w, k)) for k in range(lib.hs_world_body_count(w))]

    @property
    def names(self):
        """The bodies' names, in order of creation."""
        return [b.name for b in self.bodies]

    # ------------------------------------------------------------- filters
    def set_broadphase(self, method):
        """The broad phase: "grid" (the default), "tree" or "raw"."""
        if method not in _BROADPHASE:
            raise ArgumentError("broadphase: one of grid, tree, raw")
        err = new_error()
        check(lib.hs_world_set_broadphase(self._handle(), _BROADPHASE[method], err), err)

    def set_enabled(self, on):
        """Switch the whole world's collisions on or off."""
        lib.hs_world_set_enabled(self._handle(), 1 if on else 0)

    def set_pair_enabled(self, a, b, on):
        """Switch the collisions of two bodies (Bodies or names) on or off."""
        ba = self[a] if isinstance(a, str) else a
        bb = self[b] if isinstance(b, str) else b
        err = new_error()
        check(lib.hs_world_set_pair_enabled(self._handle(), ba._handle(), bb._handle(),
                                            1 if on else 0, err), err)

    # ------------------------------------------------------------- queries
    def _report(self):
        """This thread's report (kept between queries: the library reuses
        what decided each pair last time, so moving worlds query faster)."""
        rep = getattr(self._local, "report", None)
        if rep is None:
            p = lib.hs_report_new()
            if p == ffi.NULL:
                raise MemoryError("hs_report_new: out of memory")
            rep = self._local.report = ffi.gc(p, lib.hs_report_free)
        return rep

    def query(self, threshold=0.1, *, contacts=True, triangles="bvh", threads=1,
              engine="fast"):
        """Every pair of bodies that overlap, touch or lie closer than
        ``threshold`` (scene units; 0: no contacts), sorted by names.

        Args:
            threshold: the contact threshold (default 0.1, finite, >= 0).
            contacts: compute contact points and normals (default True).
            triangles: "bvh" (default: each mesh's hierarchy of boxes),
                "grid" or "raw": how triangles of two meshes are paired
                (the same answers).
            threads: narrow-phase worker threads (default 1; 0: one per
                CPU); the answer does not depend on it.
            engine: "fast" (default) or "exact" for convex pairs.

        Returns:
            a :class:`QueryResult`, a list of :class:`Pair` (with the
            counters in ``.stats``).  The filters apply (static pairs,
            groups and masks, disabled bodies and pairs).
        """
        q = ffi.new("hs_query_options *")
        lib.hs_query_options_init(q)
        q.threshold = float(threshold)
        q.contacts = 1 if contacts else 0
        if triangles not in _TRIANGLES:
            raise ArgumentError("triangles: bvh, grid or raw")
        q.triangles = _TRIANGLES[triangles]
        q.threads = int(threads)
        q.engine = _util.engine_code(engine)
        rep = self._report()
        err = new_error()
        check(lib.hs_world_query(self._handle(), q, rep, err), err)
        out = QueryResult(_read_report(rep))
        st = ffi.new("hs_report_stats *")
        lib.hs_report_get_stats(rep, st)
        out.stats = {"body_pairs": st.body_pairs, "piece_pairs": st.piece_pairs,
                     "triangle_tests": st.triangle_tests, "fallbacks": st.fallbacks,
                     "repeated": st.repeated}
        return out

    def distance(self, a, b):
        """The smallest distance between two bodies (Bodies or names), with
        a point on each: a :class:`Distance`.  0 exactly when they meet
        (decided exactly), with a common point.  Filters do not apply."""
        ba = self[a] if isinstance(a, str) else a
        bb = self[b] if isinstance(b, str) else b
        if not isinstance(ba, Body) or not isinstance(bb, Body):
            raise TypeError("distance: expected Bodies or names")
        d = ffi.new("double *")
        pa, pb = np.empty(3), np.empty(3)
        err = new_error()
        check(lib.hs_world_distance(self._handle(), ba._handle(), bb._handle(), d,
                                    _util.ptr(pa), _util.ptr(pb), err), err)
        return Distance(d[0], pa, pb)

    def move_until_contact(self, body, end, threshold=0.1):
        """Move a body from its pose towards the pose ``end`` (translation
        linear, rotation by slerp) and stop at the first pose closer than
        ``threshold`` (> 0) to a body it may collide with; the motion
        advances conservatively, so it cannot pass through a thin
        obstacle.  The body stays at the stopping pose.  Returns
        (fraction, pairs): how far along it stopped (1: free to the end)
        and the world's query there.  InputError if it starts in
        collision."""
        b = self[body] if isinstance(body, str) else body
        m = _util.pose_array(end, "end")
        q = ffi.new("hs_query_options *")
        lib.hs_query_options_init(q)
        q.threshold = float(threshold)
        rep = self._report()
        frac = ffi.new("double *")
        err = new_error()
        check(lib.hs_world_move_until_contact(self._handle(), b._handle(), _util.ptr(m), q, rep,
                                              frac, err), err)
        return frac[0], QueryResult(_read_report(rep))

    def __repr__(self):
        if self._ptr is None:
            return "<halfspace.World (closed)>"
        return "<halfspace.World: %d bodies>" % len(self)


def _read_report(rep):
    """The pairs of a report as Python objects (nothing points into it)."""
    pairs = []
    a = ffi.new("const char **")
    b = ffi.new("const char **")
    st = ffi.new("hs_status *")
    ia, ib = ffi.new("int *"), ffi.new("int *")
    d = ffi.new("double *")
    for k in range(lib.hs_report_pair_count(rep)):
        lib.hs_report_pair(rep, k, a, b, st)
        status = st[0]
        pieces = []
        best, bw = float("inf"), np.zeros(3)
        for j in range(lib.hs_report_piece_count(rep, k)):
            w = np.empty(3)
            lib.hs_report_piece(rep, k, j, ia, ib, st, _util.ptr(w), d)
            pieces.append(PiecePair(ia[0], ib[0], _util.status_name(st[0]), w, d[0]))
            if st[0] == status and d[0] < best:
                best, bw = d[0], w
        contacts = []
        for c in range(lib.hs_report_contact_count(rep, k)):
            on_a, on_b, nrm = np.empty(3), np.empty(3), np.empty(3)
            lib.hs_report_contact(rep, k, c, _util.ptr(on_a), _util.ptr(on_b), _util.ptr(nrm))
            contacts.append(Contact(on_a, on_b, nrm))
        pairs.append(Pair(pystr(a[0]), pystr(b[0]), _util.status_name(status), bw,
                          best if best != float("inf") else 0.0,
                          contacts[0].normal if contacts else None, contacts, pieces))
    return pairs


class Body:
    """A body of a :class:`World` (hs_body), made by the world's add_*
    methods or loaded from a file; never constructed directly.  It keeps
    its world alive, and becomes unusable once removed or the world
    closed.

    Attributes: ``name``, ``static`` (settable), ``pose`` (a (4, 4) array;
    assign one to move the body), ``piece_count``, ``aabb`` ((lo, hi),
    world-frame box), ``world``.  Pieces are added in the body frame by
    ``add_box``, ``add_cylinder``, ``add_cone``, ``add_sphere``,
    ``add_hull``, ``add_mesh`` and ``add_polytope``, each optionally
    ``place``d by a pose in the body frame.
    """

    __slots__ = ("_world", "_ptr", "_addr", "__weakref__")

    def __init__(self, *args, **kw):
        raise TypeError("bodies are made by World.add_body, World.add_box, ... or World.load")

    @classmethod
    def _make(cls, world, p):
        self = object.__new__(cls)
        self._world = world
        self._ptr = p
        self._addr = int(ffi.cast("uintptr_t", p))
        return self

    def _handle(self):
        if self._ptr is None or self._world._ptr is None:
            raise ArgumentError("the body was removed or its world closed")
        return self._ptr

    @property
    def world(self):
        """The World this body belongs to."""
        return self._world

    @property
    def name(self):
        """The body's name (unique in its world)."""
        return pystr(lib.hs_body_name(self._handle()))

    @property
    def static(self):
        """Static flag: two static bodies are never tested."""
        return bool(lib.hs_body_is_static(self._handle()))

    @static.setter
    def static(self, on):
        lib.hs_body_set_static(self._handle(), 1 if on else 0)

    @property
    def piece_count(self):
        """Number of pieces, in order of addition."""
        return lib.hs_body_piece_count(self._handle())

    @property
    def pose(self):
        """The pose, a (4, 4) array (a copy); assign a 4x4 array (or 16
        numbers, row-major) to move the body."""
        m = np.empty((4, 4))
        lib.hs_body_get_pose(self._handle(), _util.ptr(m))
        return m

    @pose.setter
    def pose(self, m):
        arr = _util.pose_array(m)
        err = new_error()
        check(lib.hs_body_set_pose(self._handle(), _util.ptr(arr), err), err)

    @property
    def aabb(self):
        """(lo, hi): the world-frame box of the body, or None without
        pieces."""
        lo, hi = np.empty(3), np.empty(3)
        if not lib.hs_body_aabb(self._handle(), _util.ptr(lo), _util.ptr(hi)):
            return None
        return lo, hi

    def set_enabled(self, on):
        """Switch this body's collisions on or off."""
        lib.hs_body_set_enabled(self._handle(), 1 if on else 0)

    def set_groups(self, group, mask):
        """Collision groups: a and b may collide when (a.group & b.mask)
        and (b.group & a.mask) are both nonzero (default 1 and all
        ones)."""
        lib.hs_body_set_groups(self._handle(), int(group) & 0xFFFFFFFF, int(mask) & 0xFFFFFFFF)

    # -------------------------------------------------------------- pieces
    def _add(self, fn, *args):
        err = new_error()
        check(fn(self._handle(), *args, err), err)
        return self

    def add_box(self, size, place=None):
        """Add a box of full sizes ``size`` (3 numbers), centred, placed by
        ``place`` (a pose in the body frame; None: the identity).  Returns
        the body (calls chain)."""
        s = _util.vec3(size, "size")
        pa, pp = _util.optional_pose(place)
        return self._add(lib.hs_body_add_box, _util.ptr(s), pp)

    def add_cylinder(self, radius, height, sides=24, place=None):
        """Add a prism of ``sides`` (3..100000) side facets inscribed in a
        cylinder (axis y, centred)."""
        pa, pp = _util.optional_pose(place)
        return self._add(lib.hs_body_add_cylinder, float(radius), float(height), int(sides), pp)

    def add_cone(self, radius, height, sides=24, place=None):
        """Add a pyramid inscribed in a cone (axis y, centred)."""
        pa, pp = _util.optional_pose(place)
        return self._add(lib.hs_body_add_cone, float(radius), float(height), int(sides), pp)

    def add_sphere(self, radius, level=2, place=None):
        """Add an icosphere: the icosahedron subdivided ``level`` (0..6)
        times, vertices on the sphere."""
        pa, pp = _util.optional_pose(place)
        return self._add(lib.hs_body_add_sphere, float(radius), int(level), pp)

    def add_hull(self, points, place=None):
        """Add the convex hull of points ((N, 3), N >= 4, not coplanar)."""
        pts = _util.doubles(points, (None, 3), "points")
        pa, pp = _util.optional_pose(place)
        return self._add(lib.hs_body_add_hull, _util.ptr(pts), pts.shape[0], pp)

    def add_mesh(self, verts, tris, place=None):
        """Add a triangle mesh: verts (N, 3) and tris (K, 3) of 0-based
        indices (any shape, open or closed)."""
        v = _util.doubles(verts, (None, 3), "verts")
        try:
            t = np.ascontiguousarray(tris, dtype=np.intc)
        except (TypeError, ValueError) as e:
            raise ArgumentError("tris: expected integer indices (%s)" % e)
        if t.ndim != 2 or t.shape[1] != 3:
            raise ArgumentError("tris: expected an array of shape Kx3")
        if not np.array_equal(t, np.asarray(tris)):
            raise ArgumentError("tris: indices must be integers that fit an int")
        pa, pp = _util.optional_pose(place)
        return self._add(lib.hs_body_add_mesh, _util.ptr(v), v.shape[0], _util.ptr(t, "int[]"),
                         t.shape[0], pp)

    def add_polytope(self, polytope, place=None):
        """Add a polytope (a bounded, full-dimensional 3-D
        :class:`Polytope` of inequality rows; copied)."""
        if not isinstance(polytope, Polytope):
            raise TypeError("add_polytope: expected a halfspace.Polytope")
        pa, pp = _util.optional_pose(place)
        return self._add(lib.hs_body_add_polytope, polytope._handle(), pp)

    def boundary(self, k):
        """The boundary of piece k in the body frame: a :class:`Boundary`
        (is_convex, verts (N, 3), faces)."""
        conv = ffi.new("int *")
        verts = ffi.new("double **")
        nv = ffi.new("int *")
        fstart = ffi.new("int **")
        fvert = ffi.new("int **")
        nf = ffi.new("int *")
        err = new_error()
        check(lib.hs_body_piece_boundary(self._handle(), int(k), conv, verts, nv, fstart, fvert,
                                         nf, err), err)
        try:
            V = np.frombuffer(ffi.buffer(verts[0], 24 * nv[0]), dtype=np.float64).reshape(-1, 3)
            V = V.copy()
            starts = [fstart[0][i] for i in range(nf[0] + 1)]
            F = np.frombuffer(ffi.buffer(fvert[0], 4 * starts[-1]), dtype=np.intc).copy() \
                if starts[-1] else np.zeros(0, dtype=np.intc)
        finally:
            lib.hs_free(verts[0])
            lib.hs_free(fstart[0])
            lib.hs_free(fvert[0])
        faces = [F[starts[i]:starts[i + 1]] for i in range(nf[0])]
        return Boundary(bool(conv[0]), V, faces)

    def __repr__(self):
        if self._ptr is None or self._world._ptr is None:
            return "<halfspace.Body (removed)>"
        return "<halfspace.Body %r%s: %d pieces>" % (self.name, " static" if self.static else "",
                                                   self.piece_count)

    def __eq__(self, other):
        return isinstance(other, Body) and self._ptr is not None and other._ptr is not None \
            and self._addr == other._addr

    def __hash__(self):
        return hash(self._addr)

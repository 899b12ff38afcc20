"""halfspace.polytope -- polyhedra {x : A x <= b} (hs_poly) and the
questions asked about them: feasible, intersect (one pair or many at once),
with exact answers, witness points and certificates (hs_result)."""
import atexit
import operator
import threading
from fractions import Fraction
from typing import NamedTuple, Optional, Tuple

import numpy as np

from ._halfspace_cffi import ffi, lib
from . import _util
from ._util import STATUS_NAMES, Owned, Status, cpath, cstr, pystr, take_string
from .errors import (ArgumentError, CertificateError, InternalError, check, from_error,
                     new_error)

__all__ = ["Polytope", "Result", "Multiplier", "Certificate", "feasible", "intersect",
           "intersect_many"]

_TWO53 = 2 ** 53


class Polytope(Owned):
    """An immutable system of m rows over n variables: row i is
    ``A[i] . x <= b[i]``, or ``A[i] . x = b[i]`` for an equality row.

    Every number is taken exactly as given: a float is its exact binary
    value, an int, a :class:`fractions.Fraction`, a :class:`decimal.Decimal`
    or a str such as ``"3/10"`` or ``"0.3"`` its exact rational value (so
    ``"0.3"`` is 3/10, while the float ``0.3`` is the double nearest it).
    Empty, unbounded and lower-dimensional polyhedra are legal.

    Ways to make one:

    * ``Polytope(A, b, eq=None)`` from an (m, n) array A and m numbers b
      (numpy arrays of floats or ints, or nested lists of any of the
      numbers above); ``eq`` marks equality rows, as m booleans or as a
      list of row indices (0-based);
    * ``Polytope.from_strings(A, b, eq=None)``: every entry exact text;
    * ``Polytope.read(path)``: a cddlib/lrs ``.ine`` file;
    * ``Polytope.parse(text, name=None)``: the same text from a str.

    The polytope owns its C handle (hs_poly) and frees it when collected;
    ``close()`` (or a ``with`` block) frees it at once.  It may be shared
    by any number of threads: it never changes.

    >>> cube = Polytope([[1,0,0],[-1,0,0],[0,1,0],[0,-1,0],[0,0,1],[0,0,-1]],
    ...                 [1, 0, 1, 0, 1, 0])
    >>> cube.dim, cube.rows
    (3, 6)
    """
    _what = "polytope"

    __slots__ = ("_ptr", "_addr", "__weakref__")

    def __init__(self, A, b, eq=None):
        A_obj, b_obj = _as_rows(A, b)
        m, n = A_obj.shape
        iseq = _eq_flags(eq, m)
        err = new_error()
        if A_obj.dtype == object or b_obj.dtype == object:
            p = _from_texts(A_obj, b_obj, iseq, err)
        else:
            Ad = np.ascontiguousarray(A_obj, dtype=np.float64)
            bd = np.ascontiguousarray(b_obj, dtype=np.float64)
            p = lib.hs_poly_from_doubles(n, m, _util.ptr(Ad), _util.ptr(bd),
                                         _eq_ptr(iseq), err)
        self._adopt(p, err)

    def _adopt(self, p, err):
        if p == ffi.NULL:
            raise from_error(err)
        self._ptr = ffi.gc(p, lib.hs_poly_free)
        self._addr = int(ffi.cast("uintptr_t", p))

    @classmethod
    def _new(cls, p, err):
        self = cls.__new__(cls)
        self._adopt(p, err)
        return self

    @classmethod
    def from_strings(cls, A, b, eq=None):
        """A polytope from exact text: A an (m, n) nested sequence and b a
        sequence of m entries, each a str ("3/10", "-2.5e-1", "7") or any
        exact number (int, Fraction, Decimal; floats by their exact value).
        eq as for the constructor.  Raises InputError naming the row and
        entry of a malformed number."""
        A_obj, b_obj = _as_rows(A, b, force_object=True)
        iseq = _eq_flags(eq, A_obj.shape[0])
        err = new_error()
        return cls._new(_from_texts(A_obj, b_obj, iseq, err), err)

    @classmethod
    def read(cls, path):
        """Read a cddlib/lrs H-representation (.ine) file (see the README,
        "File formats").  Raises FileError if it cannot be read, InputError
        ("FILE:LINE: what is wrong") if it is malformed."""
        err = new_error()
        return cls._new(lib.hs_poly_read(cpath(path), err), err)

    @classmethod
    def parse(cls, text, name=None):
        """Parse .ine text held in a str; ``name`` (default "<input>") is
        the FILE of error messages and the polytope's name."""
        err = new_error()
        return cls._new(lib.hs_poly_parse(cstr(text), cstr(name) if name is not None
                                          else ffi.NULL, err), err)

    # -------------------------------------------------------------- access
    def _closing(self):
        self._addr = 0

    @property
    def dim(self):
        """Number of variables n."""
        return lib.hs_poly_dim(self._handle())

    @property
    def rows(self):
        """Number of rows m."""
        return lib.hs_poly_rows(self._handle())

    @property
    def name(self):
        """The file it was read from, the name given to parse, "<arrays>"
        or "<strings>"."""
        return pystr(lib.hs_poly_name(self._handle()))

    @property
    def fast_ready(self):
        """True when the fast engine answers queries with this polytope by
        itself (inequality rows that are exactly doubles, a certified
        interior point); otherwise they go to the exact engine."""
        return bool(lib.hs_poly_fast_ready(self._handle(), ffi.NULL))

    @property
    def fast_reason(self):
        """Why the fast engine is not ready (None when it is)."""
        why = ffi.new("const char **")
        lib.hs_poly_fast_ready(self._handle(), why)
        return pystr(why[0])

    @property
    def eq(self):
        """Equality flags, a bool array of m entries."""
        p = self._handle()
        return np.array([bool(lib.hs_poly_row_is_eq(p, i)) for i in range(lib.hs_poly_rows(p))],
                        dtype=bool)

    def row(self, i):
        """Row i (0-based) as (a, b, exact): the nearest doubles of its
        coefficients (an array of n) and right-hand side, and whether those
        are the exact values."""
        p = self._handle()
        m, n = lib.hs_poly_rows(p), lib.hs_poly_dim(p)
        if not 0 <= i < m:
            raise ArgumentError("row %d outside 0..%d" % (i, m - 1))
        a = np.empty(n)
        b = ffi.new("double *")
        exact = lib.hs_poly_row(p, i, _util.ptr(a), b)
        return a, b[0], bool(exact)

    @property
    def A(self):
        """The coefficient matrix (m, n), nearest doubles (see exact)."""
        return np.array([self.row(i)[0] for i in range(self.rows)]).reshape(self.rows, self.dim)

    @property
    def b(self):
        """The right-hand sides (m,), nearest doubles (see exact)."""
        return np.array([self.row(i)[1] for i in range(self.rows)])

    @property
    def exact(self):
        """True when every number is exactly a double (A and b are then
        the polytope exactly)."""
        return all(self.row(i)[2] for i in range(self.rows))

    def to_ine(self):
        """The polytope as cddlib .ine text, every number exact."""
        return _util.read_c_stream(lib.hs_poly_write, self._handle())

    def write(self, path):
        """Write the polytope to a .ine file (exact numbers)."""
        with open(path, "w") as f:
            f.write(self.to_ine())

    def __repr__(self):
        if getattr(self, "_ptr", None) is None:
            return "<halfspace.Polytope (closed)>"
        return "<halfspace.Polytope %s: %d rows, dim %d>" % (self.name, self.rows, self.dim)


def _as_rows(A, b, force_object=False):
    """A as an (m, n) array and b as (m,), numeric when they are plain
    floats or ints that are exactly doubles, else object arrays of the
    entries (converted to exact text later)."""
    def conv(x):
        if force_object:
            arr = np.empty(np.shape(x) if not isinstance(x, np.ndarray) else x.shape, dtype=object)
            arr[...] = x if isinstance(x, np.ndarray) else _nested(x)
            return arr
        try:
            arr = np.asarray(x)
        except (ValueError, TypeError) as e:
            raise ArgumentError("expected an array of numbers (%s)" % e)
        if arr.dtype.kind in "fiu":
            if arr.dtype.kind in "iu" and arr.size and np.abs(arr.astype(object)).max() > _TWO53:
                return arr.astype(object)
            return arr
        if arr.dtype.kind == "b":
            raise ArgumentError("expected numbers, got booleans")
        obj = np.empty(arr.shape, dtype=object)
        obj[...] = arr
        return obj
    A_ = conv(A)
    b_ = conv(b)
    if A_.ndim != 2 or A_.shape[0] < 1 or A_.shape[1] < 1:
        raise ArgumentError("A: expected an (m, n) array with m, n >= 1, got shape %s" %
                            (A_.shape,))
    if b_.ndim != 1 or b_.shape[0] != A_.shape[0]:
        raise ArgumentError("b: expected %d entries (one per row of A), got shape %s" %
                            (A_.shape[0], b_.shape))
    return A_, b_


def _nested(x):
    return [list(r) if isinstance(r, (list, tuple, np.ndarray)) else r for r in x]


def _eq_flags(eq, m):
    """eq (None, m booleans, or row indices) as m bytes, or None."""
    if eq is None:
        return None
    arr = np.asarray(eq)
    flags = np.zeros(m, dtype=np.uint8)
    if arr.dtype == bool:
        if arr.shape != (m,):
            raise ArgumentError("eq: expected %d booleans, got shape %s" % (m, arr.shape))
        flags[arr] = 1
    elif arr.size == 0:
        pass
    elif arr.dtype.kind in "iu":
        idx = arr.reshape(-1)
        if idx.min() < 0 or idx.max() >= m:
            raise ArgumentError("eq: row indices must lie in 0..%d" % (m - 1))
        flags[idx] = 1
    else:
        raise ArgumentError("eq: expected booleans or row indices")
    return flags


def _eq_ptr(flags):
    return ffi.NULL if flags is None else _util.ptr(flags, "unsigned char[]")


def _from_texts(A, b, iseq, err):
    m, n = A.shape
    keep = []
    def cs(x):
        s = ffi.new("char[]", cstr(_util.exact_text(x)))
        keep.append(s)
        return s
    Ac = ffi.new("const char *[]", [cs(x) for x in A.reshape(-1)])
    bc = ffi.new("const char *[]", [cs(x) for x in b.reshape(-1)])
    return lib.hs_poly_from_strings(n, m, Ac, bc, _eq_ptr(iseq), err)


# ------------------------------------------------------------------ results

class Multiplier(NamedTuple):
    """One multiplier of a certificate: ``value`` (exact) times row ``row``
    (0-based) of polytope ``which`` ("A", the first or only one, or "B")."""
    which: str
    row: int
    value: Fraction


class Certificate(NamedTuple):
    """What proves an answer (see the README, "Certificates"):

    * ``kind``: "farkas" (disjoint / infeasible: the multipliers combine to
      0.x <= negative), "separation" (touching: they combine to 0.x <= 0
      and ``strict`` is a point of one polytope strictly off the
      separating hyperplane) or "implicit" (overlap of lower-dimensional
      polytopes: they prove which rows are implicit equalities);
    * ``multipliers``: a tuple of :class:`Multiplier`;
    * ``strict``: (which, point) with point a tuple of Fractions, or None.
    """
    kind: str
    multipliers: Tuple[Multiplier, ...]
    strict: Optional[Tuple[str, Tuple[Fraction, ...]]]


# Handles of collected Results, reused by the Results that intersect and
# feasible make: an hs_result keeps the fast engine's scratch memory, so a
# reused one spares an allocation per query (as C programs reuse theirs).
_POOL = []
_POOL_MAX = 16


def _recycle(p):
    """ffi.gc destructor of pooled results: back to the pool, or freed."""
    if len(_POOL) < _POOL_MAX:
        _POOL.append(p)
    else:
        lib.hs_result_free(p)


@atexit.register
def _drain_pool():
    while _POOL:
        lib.hs_result_free(_POOL.pop())


def _pooled_result():
    """A Result for a query to overwrite: a recycled handle if one is free."""
    try:
        p = _POOL.pop()
    except IndexError:
        p = lib.hs_result_new()
        if p == ffi.NULL:
            raise MemoryError("hs_result_new: out of memory")
    r = Result.__new__(Result)
    r._ptr = ffi.gc(p, _recycle)
    r._A = r._B = r.trace = None
    return r


class Result(Owned):
    """The answer of :func:`intersect` or :func:`feasible` (hs_result).

    Attributes (read only):
        status: "feasible", "infeasible", "disjoint", "touching",
            "overlap" or "intersect" (faithful engines).
        code: the same as a :class:`halfspace.Status`.
        engine: the engine that was asked.
        dim: the dimension n.
        point: the witness point as a tuple of :class:`fractions.Fraction`
            (exact), or None when the answer has none.
        point_float: the same as a numpy array of the nearest doubles.
        certificate: a :class:`Certificate`, or None (faithful and GLPK
            engines give none).
        multipliers: the certificate's multipliers (a tuple, maybe empty).
        fallback: True when the fast engine handed the query to the exact
            engine.
        nodes, pivots: the engine's counters.
        trace: the trace lines when the query ran with ``trace=True``.

    ``verify()`` checks the certificate in exact arithmetic; ``text()`` and
    ``json()`` give it as the CLI prints it.  The result owns its C object
    and frees it when collected (or on ``close()``); it keeps the polytopes
    it was computed from alive, for ``verify()``.
    """
    _what = "result"

    __slots__ = ("_ptr", "_A", "_B", "engine", "trace", "__weakref__")

    def __init__(self):
        p = lib.hs_result_new()
        if p == ffi.NULL:
            raise MemoryError("hs_result_new: out of memory")
        self._ptr = ffi.gc(p, lib.hs_result_free)
        self._A = self._B = None
        self.engine = None
        self.trace = None

    @classmethod
    def from_text(cls, text, dim, name=None):
        """A certificate written as the CLI prints it (``text()``), for
        polytopes of dimension ``dim``; check it with ``verify(A, B)``."""
        err = new_error()
        p = lib.hs_result_parse(cstr(text), cstr(name) if name else ffi.NULL, int(dim), err)
        if p == ffi.NULL:
            raise from_error(err)
        self = cls.__new__(cls)
        self._ptr = ffi.gc(p, lib.hs_result_free)
        self._A = self._B = None
        self.engine = None
        self.trace = None
        return self

    @property
    def code(self):
        """The status as a :class:`halfspace.Status` (an int)."""
        return Status(lib.hs_result_status(self._handle()))

    @property
    def status(self):
        """The status: "disjoint", "touching", "overlap", "feasible",
        "infeasible" or "intersect"."""
        return STATUS_NAMES[lib.hs_result_status(self._handle())]

    @property
    def dim(self):
        """The dimension n of the query (the length of the point)."""
        return lib.hs_result_dim(self._handle())

    @property
    def point(self):
        """The witness point as a tuple of n exact Fractions, or None when
        the answer has none."""
        r = self._handle()
        if not lib.hs_result_has_point(r):
            return None
        n = lib.hs_result_dim(r)
        return tuple(Fraction(_util.take_string(lib.hs_result_point_str(r, j))) for j in range(n))

    @property
    def point_float(self):
        """The witness point as a numpy array of the nearest doubles, or None."""
        r = self._handle()
        if not lib.hs_result_has_point(r):
            return None
        x = np.empty(lib.hs_result_dim(r))
        lib.hs_result_point(r, _util.ptr(x))
        return x

    @property
    def multipliers(self):
        """The certificate's multipliers: a tuple of :class:`Multiplier` (rows
        0-based; empty when there is no certificate)."""
        r = self._handle()
        which = ffi.new("int *")
        row = ffi.new("int *")
        exact = ffi.new("char **")
        out = []
        for k in range(lib.hs_result_multiplier_count(r)):
            if lib.hs_result_multiplier(r, k, which, row, ffi.NULL, exact) != lib.HS_OK:
                raise MemoryError("hs_result_multiplier: out of memory")
            s = take_string(exact[0])
            if s is None:
                raise MemoryError("hs_result_multiplier: out of memory")
            out.append(Multiplier("B" if which[0] else "A", row[0], Fraction(s)))
        return tuple(out)

    @property
    def certificate(self):
        """The certificate as a :class:`Certificate` (kind, multipliers, strict
        point), or None when the engine gives none."""
        kind, strict = None, None
        for line in self.text().splitlines():
            f = line.split()
            if f and f[0] == "certificate":
                kind = f[1]
            elif f and f[0] == "strict":
                strict = (f[1], tuple(Fraction(v) for v in f[2:]))
        if kind is None:
            return None
        return Certificate(kind, self.multipliers, strict)

    @property
    def fallback(self):
        """True when the fast engine could not certify the answer in floating
        point and the exact engine gave it."""
        return bool(lib.hs_result_fallback(self._handle()))

    @property
    def nodes(self):
        """Recursion nodes of the seed-002 routines (fast engine: rows made
        equalities in Seidel's LP)."""
        return lib.hs_result_nodes(self._handle())

    @property
    def pivots(self):
        """Simplex pivots of the exact classification."""
        return lib.hs_result_pivots(self._handle())

    def _simplify(self):
        """The answer rewritten with the simplest numbers that still prove
        it (hs_result_simplify), as the CLI prints it; only for a result
        computed here (it knows its polytopes)."""
        if self._A is not None:
            lib.hs_result_simplify(self._handle(), self._A._handle(),
                                   self._B._handle() if self._B is not None else ffi.NULL,
                                   ffi.NULL)

    def text(self):
        """The answer as the CLI prints it: the status line, then "point",
        "certificate", "multiplier" (rows 1-based, as in files) and
        "strict" lines, every number exact and as simple as the proof
        allows (see hs_result_simplify)."""
        self._simplify()
        return _util.read_c_stream(lib.hs_result_write_text, self._handle())

    def json(self):
        """The answer as one JSON object (the CLI's --json), as a str."""
        self._simplify()
        return _util.read_c_stream(lib.hs_result_write_json, self._handle())

    def verify(self, A=None, B=None):
        """Check the certificate in exact arithmetic against the polytopes
        it is about (by default those it was computed from; B None for a
        single system), independently of the engine that made it.  Returns
        True, or raises CertificateError saying why it does not prove the
        answer."""
        A = A if A is not None else self._A
        B = B if B is not None else self._B
        if A is None:
            raise ArgumentError("verify: no polytope given (a result read from text needs A "
                                "and, for a pair, B)")
        err = new_error()
        code = lib.hs_result_verify(self._handle(), A._handle(),
                                    B._handle() if B is not None else ffi.NULL, err)
        if code == lib.HS_ERR_INPUT:
            raise from_error(err, code, CertificateError)
        check(code, err)
        return True

    def __repr__(self):
        if self._ptr is None:
            return "<halfspace.Result (closed)>"
        pt = self.point
        return "<halfspace.Result %s%s>" % (
            self.status, "" if pt is None else " at (%s)" % ", ".join(str(v) for v in pt))


# ------------------------------------------------------------------ queries

_DEFAULT_OPTIONS = {}
_options_lock = threading.Lock()


def _options(engine, tol, trace_handle, replay):
    """An hs_options for the call; the plain ones are made once per engine
    and shared (the library only reads them)."""
    if tol is None and trace_handle is None and replay is None:
        opt = _DEFAULT_OPTIONS.get(engine)
        if opt is None:
            opt = ffi.new("hs_options *")
            lib.hs_options_init(opt)
            opt.engine = _util.engine_code(engine)
            with _options_lock:
                _DEFAULT_OPTIONS[engine] = opt
        return opt, ()
    opt = ffi.new("hs_options *")
    lib.hs_options_init(opt)
    opt.engine = _util.engine_code(engine)
    keep = []
    if tol is not None:
        opt.faithful_tol = float(tol)
    if trace_handle is not None:
        opt.trace = lib.hs_py_trace
        opt.trace_user = trace_handle
    if replay is not None:
        s, t = replay
        s = np.ascontiguousarray(s, dtype=np.float64)
        t = np.ascontiguousarray(t, dtype=np.float64)
        keep += [s, t]
        opt.replay_s = _util.ptr(s)
        opt.replay_t = _util.ptr(t)
    return opt, keep


@ffi.def_extern()
def hs_py_trace(user, line):
    ffi.from_handle(user).append(ffi.string(line).decode("utf-8", "replace"))


def _check_poly(P, what):
    if type(P) is not Polytope and not isinstance(P, Polytope):
        raise TypeError("%s: expected a halfspace.Polytope, got %s" % (what, type(P).__name__))
    p = P._ptr
    if p is None:
        raise ArgumentError("%s: the polytope was closed" % what)
    return p


def _run(fn, polys, engine, tol, trace, replay, out):
    r = out if out is not None else _pooled_result()
    lines = [] if trace else None
    handle = ffi.new_handle(lines) if trace else None
    opt, keep = _options(engine, tol, handle, replay)
    err = new_error()
    code = fn(*polys, opt, r._handle(), err)
    if code != lib.HS_OK:
        raise from_error(err, code)
    r.engine = engine
    r.trace = lines
    del keep
    return r


def intersect(P, Q, engine="fast", *, tol=None, trace=False, replay=None, out=None):
    """Decide how two polytopes of the same dimension meet.

    Args:
        P, Q: :class:`Polytope` objects of equal dimension.
        engine: "fast" (default: doubles, every answer certified, exact
            engine when that cannot decide), "exact" (GMP simplex),
            "faithful" / "faithful-exact" (the seed paper's routines as
            written: "intersect" or "disjoint"), "glpk" / "glpk-exact"
            (cross-checking only, no certificate).
        tol: the faithful engine's relative zero tolerance (default 1e-12).
        trace: True to collect the engine's steps in ``result.trace``.
        replay: (s, t), two points of n numbers: the faithful engines start
            the intersection routine from them (the paper's worked
            examples).
        out: a :class:`Result` to reuse (overwritten and returned) instead
            of a new one; saves an allocation per call in tight loops.

    Returns:
        a :class:`Result`: ``status`` "disjoint", "touching" or "overlap"
        ("intersect" or "disjoint" for the faithful engines), ``point``
        (exact Fractions, a common point when there is one), the
        ``certificate`` and ``verify()``.

    Raises InputError when the dimensions differ, ArgumentError for an
    unknown engine.  The GIL is released while the library works; the
    polytopes may be shared between threads, a Result may not.

    >>> r = intersect(P, Q)
    >>> r.status, r.point
    ('touching', (Fraction(1, 1), Fraction(1, 1), Fraction(1, 1)))
    """
    pa, pb = _check_poly(P, "P"), _check_poly(Q, "Q")
    opt = _DEFAULT_OPTIONS.get(engine)
    if opt is None or tol is not None or trace or replay is not None:
        r = _run(lib.hs_intersect, (pa, pb), engine, tol, trace, replay, out)
    else:                           # the common case, kept short
        r = out if out is not None else _pooled_result()
        err = ffi.new("hs_error *")
        code = lib.hs_intersect(pa, pb, opt, r._handle(), err)
        if code:
            raise from_error(err, code)
        r.engine = engine
        r.trace = None
    r._A, r._B = P, Q
    return r


def feasible(P, engine="fast", *, tol=None, trace=False, out=None):
    """Decide whether the polytope ``{x : A x <= b}`` is empty.

    Returns a :class:`Result` with status "feasible" and a point, or
    "infeasible" with Farkas multipliers (fast and exact engines: a
    nonnegative combination of at most n+1 rows reading 0.x <= negative).
    engine, tol, trace and out as for :func:`intersect`.
    """
    pa = _check_poly(P, "P")
    r = _run(lib.hs_feasible, (pa,), engine, tol, trace, None, out)
    r._A, r._B = P, None
    return r


_get_addr = operator.attrgetter("_addr")


def _addresses(polys, n, what):
    """The C addresses of a sequence of Polytopes as a numpy array (a single
    Polytope is repeated n times), and the objects to keep alive."""
    if isinstance(polys, Polytope):
        polys._handle()
        return np.full(n, polys._addr, dtype=np.uintp), polys
    if not isinstance(polys, (list, tuple)):
        polys = list(polys)
    if len(polys) != n:
        raise ArgumentError("intersect_many: %s has %d polytopes, expected %d" %
                            (what, len(polys), n))
    try:
        addr = np.fromiter(map(_get_addr, polys), dtype=np.uintp, count=n)
    except AttributeError:
        bad = next(p for p in polys if not isinstance(p, Polytope))
        raise TypeError("intersect_many: %s holds a %s, expected Polytopes" %
                        (what, type(bad).__name__))
    if n and not addr.all():      # close() sets _addr to 0
        raise ArgumentError("intersect_many: %s holds a closed polytope" % what)
    return addr, polys


def intersect_many(As, Bs, engine="fast", *, threads=0, results=False):
    """Answer many pairs at once: pair k is (As[k], Bs[k]), on the
    library's worker threads (hs_intersect_batch) with the GIL released.

    Args:
        As, Bs: sequences of :class:`Polytope` of equal length (either may
            be one Polytope, paired with every entry of the other).
        engine: as for :func:`intersect` (the GLPK engines run on one
            thread).
        threads: worker threads; 0 (default) one per CPU, 1 the calling
            thread only.
        results: False (default) for the statuses only; True for a list
            of full :class:`Result` objects (points, certificates, verify).

    Returns:
        a numpy array of int32 status codes (:class:`halfspace.Status`;
        ``halfspace.status_names(codes)`` gives the names), or with
        ``results=True`` a list of Results.

    Raises the error of the lowest-numbered pair that failed (its message
    starts "pair K: ", K counted from 1); pairs of different dimensions
    raise InputError.
    """
    if isinstance(As, Polytope) and isinstance(Bs, Polytope):
        n = 1
    elif isinstance(As, Polytope):
        Bs = Bs if isinstance(Bs, (list, tuple)) else list(Bs)
        n = len(Bs)
    else:
        As = As if isinstance(As, (list, tuple)) else list(As)
        n = len(As)
    a_addr, a_keep = _addresses(As, n, "As")
    b_addr, b_keep = _addresses(Bs, n, "Bs")
    status = np.full(n, -1, dtype=np.int32)
    opt, _ = _options(engine, None, None, None)
    err = new_error()
    res_objs = None
    res_arr = ffi.NULL
    if results:
        res_objs = [Result() for _ in range(n)]
        res_arr = ffi.new("hs_result *[]", [r._ptr for r in res_objs])
    if n == 0:
        return res_objs if results else status
    code = lib.hs_intersect_batch(ffi.cast("const hs_poly *const *", _util.ptr(a_addr, "uintptr_t[]")),
                                  ffi.cast("const hs_poly *const *", _util.ptr(b_addr, "uintptr_t[]")),
                                  n, opt, int(threads), _util.ptr(status, "hs_status[]"), res_arr,
                                  err)
    if code != lib.HS_OK:
        raise from_error(err, code)
    del a_keep, b_keep
    if results:
        for r in res_objs:
            r.engine = engine
        for k, r in enumerate(res_objs):
            r._A = As if isinstance(As, Polytope) else As[k]
            r._B = Bs if isinstance(Bs, Polytope) else Bs[k]
        return res_objs
    return status

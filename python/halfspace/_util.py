"""halfspace._util -- conversions shared by the modules of the binding:
numpy arrays to C arrays and back, names of statuses and engines, strings
and paths, reading what the library writes to a FILE."""
import enum
import os
from fractions import Fraction

import numpy as np

from ._halfspace_cffi import ffi, lib
from .errors import ArgumentError, FileError, check, new_error


class Owned:
    """Base of the classes that own one C object, held in ``self._ptr``
    (an ``ffi.gc`` pointer, freed by the garbage collector or by
    :meth:`close`).  ``_what`` names the object in the error raised once
    it is closed."""
    __slots__ = ()
    _what = "object"

    def _handle(self):
        p = getattr(self, "_ptr", None)  # (unset in a half-made object)
        if p is None:
            raise ArgumentError("the %s was closed" % self._what)
        return p

    def _closing(self):
        """Called by close() before the C object is freed."""

    def close(self):
        """Free the C object now (further use raises ArgumentError); also
        at the end of a ``with`` block."""
        p = getattr(self, "_ptr", None)
        if p is not None:
            self._ptr = None
            self._closing()
            ffi.release(p)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Status(enum.IntEnum):
    """The answers of the library (hs_status), as ints: the codes that
    :func:`halfspace.intersect_many` returns.  ``Status(c).label`` (or
    ``STATUS_NAMES[c]``) is the lower-case name the CLI prints."""
    INFEASIBLE = lib.HS_INFEASIBLE
    FEASIBLE = lib.HS_FEASIBLE
    DISJOINT = lib.HS_DISJOINT
    TOUCHING = lib.HS_TOUCHING
    OVERLAP = lib.HS_OVERLAP
    INTERSECT = lib.HS_INTERSECT
    CONTACT = lib.HS_CONTACT

    @property
    def label(self):
        """The lower-case name: "disjoint", "touching", ..."""
        return STATUS_NAMES[int(self)]


#: Lower-case names of the statuses, indexed by code ("infeasible",
#: "feasible", "disjoint", "touching", "overlap", "intersect", "contact").
STATUS_NAMES = tuple(ffi.string(lib.hs_status_name(c)).decode() for c in range(7))
_STATUS_CODES = {name: code for code, name in enumerate(STATUS_NAMES)}


def status_name(code):
    """The name of a status code (the C library's hs_status_name)."""
    return ffi.string(lib.hs_status_name(int(code))).decode()


def status_names(codes):
    """Names of an array of status codes, as a numpy array of str."""
    return np.asarray(STATUS_NAMES + ("unknown",))[np.clip(np.asarray(codes), -1, 7)]


def status_code(name):
    """The code of a status name ("touching" -> Status.TOUCHING)."""
    try:
        return Status(_STATUS_CODES[name])
    except KeyError:
        raise ArgumentError("unknown status %r (one of %s)" % (name, ", ".join(STATUS_NAMES)))


def engine_code(name):
    """The hs_engine of an engine name ("fast", "exact", "faithful",
    "faithful-exact", "glpk", "glpk-exact")."""
    e = ffi.new("hs_engine *")
    if not isinstance(name, str) or not lib.hs_engine_from_name(name.encode(), e):
        raise ArgumentError("unknown engine %r (fast, exact, faithful, faithful-exact, glpk, "
                            "glpk-exact)" % (name,))
    return e[0]


def engine_name(code):
    return ffi.string(lib.hs_engine_name(code)).decode()


def cpath(path):
    """A file path (str, bytes or os.PathLike) as bytes for C."""
    return os.fsencode(os.fspath(path))


def cstr(s):
    """A str as NUL-terminated UTF-8 bytes (ArgumentError on an embedded NUL)."""
    if isinstance(s, bytes):
        b = s
    elif isinstance(s, str):
        b = s.encode("utf-8")
    else:
        raise TypeError("expected a str, got %s" % type(s).__name__)
    if b"\0" in b:
        raise ArgumentError("string %r contains a NUL character" % (s,))
    return b


def pystr(p):
    """A C string (const char *) as a Python str, None for NULL."""
    return None if p == ffi.NULL else ffi.string(p).decode("utf-8", "replace")


def doubles(a, shape, what):
    """a as a C-contiguous float64 numpy array of the given shape (None in
    shape matches any length); ArgumentError otherwise."""
    try:
        arr = np.ascontiguousarray(a, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise ArgumentError("%s: expected numbers (%s)" % (what, e))
    if arr.ndim != len(shape) or any(s is not None and s != t for s, t in zip(shape, arr.shape)):
        want = "x".join("N" if s is None else str(s) for s in shape)
        raise ArgumentError("%s: expected an array of shape %s, got %s" %
                            (what, want, "x".join(map(str, arr.shape)) or "a scalar"))
    return arr


def ptr(arr, ctype="double[]"):
    """A C pointer into a numpy array (which must stay alive meanwhile)."""
    return ffi.from_buffer(ctype, arr)


def pose_array(m, what="pose"):
    """A pose (4x4, or 16 numbers row-major) as a float64 array of 16."""
    arr = doubles(m, (None,) * np.ndim(m), what)
    if arr.shape not in ((4, 4), (16,)):
        raise ArgumentError("%s: expected a 4x4 array, got shape %s" %
                            (what, "x".join(map(str, arr.shape))))
    return arr.reshape(16)


def optional_pose(m, what="place"):
    """ffi.NULL for None, else a pointer to the pose (keep the returned
    array alive: the pair (array, pointer) is returned)."""
    if m is None:
        return None, ffi.NULL
    arr = pose_array(m, what)
    return arr, ptr(arr)


def vec3(v, what):
    return doubles(v, (3,), what)


def read_c_stream(write, *args):
    """Call write(*args, FILE *out, hs_error *err) on an in-memory stream
    (open_memstream) and return what it wrote, as str."""
    buf = ffi.new("char **")
    size = ffi.new("size_t *")
    f = lib.open_memstream(buf, size)
    if f == ffi.NULL:
        raise FileError("open_memstream failed")
    err = new_error()
    try:
        code = write(*args, f, err)
    finally:
        lib.fclose(f)
        text = ffi.string(buf[0], size[0]).decode("utf-8", "replace") if buf[0] != ffi.NULL else ""
        lib.free(buf[0])
    check(code, err)
    return text


def exact_text(x):
    """An exact number as text the library reads exactly: str as given,
    int, Fraction and Decimal exactly, float (and numpy floats) by the exact
    value of the double (0.1 -> 3602879701896397/36028797018963968)."""
    if isinstance(x, str):
        return x
    if isinstance(x, (bool, np.bool_)):
        raise ArgumentError("a bool is not a number: %r" % (x,))
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    if isinstance(x, Fraction):
        return "%d/%d" % (x.numerator, x.denominator) if x.denominator != 1 else str(x.numerator)
    try:
        q = Fraction(x)
    except (TypeError, ValueError) as e:
        raise ArgumentError("not an exact number: %r (%s)" % (x, e))
    return exact_text(q)


def fraction(s):
    """A Fraction from the library's exact text ("-1/2", "3")."""
    return Fraction(s)


def take_string(p):
    """A str from a char * the caller must free with hs_free (freed here);
    None for NULL."""
    if p == ffi.NULL:
        return None
    try:
        return ffi.string(p).decode()
    finally:
        lib.hs_free(p)

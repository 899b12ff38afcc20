"""halfspace.poses -- 4x4 poses (numpy arrays) as the library builds them.

A pose maps body coordinates to world coordinates: ``x_world = R x + t``,
with R the upper-left 3x3 block and t the last column; the last row is
0 0 0 1.  Each function returns a new (4, 4) float64 array computed by the
C library (the same numbers as the CLI and the C API).  Compose poses with
``a @ b`` (apply b, then a).
"""
import numpy as np

from ._halfspace_cffi import ffi, lib
from . import _util
from .errors import check, new_error

__all__ = ["identity", "translation", "from_rt", "from_axis_angle", "from_quat", "from_zyz"]


def _t(t):
    if t is None:
        return None, ffi.NULL
    arr = _util.vec3(t, "t")
    return arr, _util.ptr(arr)


def identity():
    """The identity pose."""
    m = np.empty((4, 4))
    lib.hs_pose_identity(_util.ptr(m))
    return m


def translation(t):
    """The pure translation by t (3 numbers)."""
    m = identity()
    m[:3, 3] = _util.vec3(t, "t")
    return m


def from_rt(R, t=None):
    """Rotation R (3x3, taken as given) and translation t (3 numbers, or
    None)."""
    Rm = _util.doubles(R, (3, 3), "R")
    ta, tp = _t(t)
    m = np.empty((4, 4))
    lib.hs_pose_from_rt(_util.ptr(m), _util.ptr(Rm), tp)
    return m


def from_axis_angle(axis, angle, t=None):
    """Rotation by ``angle`` radians about ``axis`` (any nonzero length),
    then translation t.  ArgumentError for a zero or non-finite axis."""
    ax = _util.vec3(axis, "axis")
    ta, tp = _t(t)
    m = np.empty((4, 4))
    err = new_error()
    check(lib.hs_pose_from_axis_angle(_util.ptr(m), _util.ptr(ax), float(angle), tp, err), err)
    return m


def from_quat(q, t=None):
    """Rotation by the quaternion q = (w, x, y, z) (normalised here), then
    translation t."""
    qa = _util.doubles(q, (4,), "q")
    ta, tp = _t(t)
    m = np.empty((4, 4))
    err = new_error()
    check(lib.hs_pose_from_quat(_util.ptr(m), _util.ptr(qa), tp, err), err)
    return m


def from_zyz(alpha, beta, gamma, t=None):
    """Z-Y-Z Euler angles (radians, seed 004 eq. (1)):
    R = Rz(alpha) Ry(beta) Rz(gamma), then translation t."""
    ta, tp = _t(t)
    m = np.empty((4, 4))
    lib.hs_pose_from_zyz(_util.ptr(m), float(alpha), float(beta), float(gamma), tp)
    return m

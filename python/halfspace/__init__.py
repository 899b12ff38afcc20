"""halfspace -- exact intersection of convex polyhedra, and a collision
toolkit on it (worlds of bodies, kinematic chains), from Python.

A binding of libhalfspace (cffi, API mode): every answer is the C library's,
exact for the numbers as given.  numpy arrays go in and come out; exact
numbers come out as :class:`fractions.Fraction`.

Polyhedra {x : A x <= b}:

    >>> import halfspace as hs
    >>> cube = hs.Polytope([[1,0],[-1,0],[0,1],[0,-1]], [1, 0, 1, 0])
    >>> corner = hs.Polytope([[-1,0],[0,-1]], [-1, -1])       # x >= 1, y >= 1
    >>> r = hs.intersect(cube, corner)
    >>> r.status, r.point, r.verify()
    ('touching', (Fraction(1, 1), Fraction(1, 1)), True)

* :class:`Polytope` (from arrays, exact strings, .ine files or text),
  :func:`intersect`, :func:`feasible`, :class:`Result` (status, point,
  certificate, verify), :func:`intersect_many` (many pairs on the library's
  threads, the GIL released);
* :class:`World`, :class:`Body`: bodies made of boxes, cylinders, cones,
  spheres, hulls, meshes, polytopes or scene files; ``World.query``
  returns the pairs in collision or contact (:class:`Pair`), with
  witnesses, normals and contact points; ``World.distance``;
* :class:`Chain`: kinematic chains (chain files or built in Python),
  ``self_collision()``, ``world_collision(world)``, ``distance(world)``;
* :class:`Robot`: robots from URDF (trees of links, mimic joints, skip
  lists), configurations as arrays or by joint name, ``self_collision()``,
  ``world_collision(world)``, ``distance(world)``, ``check_motion(q1, q2)``
  (guaranteed or stepped), ``check_states(Q)`` for an (N, dof) array on the
  library's threads; :mod:`halfspace.dask` labels configurations on a Dask
  cluster (imported on demand: ``import halfspace.dask``);
* :mod:`halfspace.poses`: 4x4 poses from rotations, axis-angle,
  quaternions and Z-Y-Z Euler angles;
* errors: :class:`Error` and one subclass per hs_code (see
  :mod:`halfspace.errors`), each carrying the library's message
  (``FILE:LINE: what is wrong`` for input errors).

Objects own their C handles and free them when collected (``close()`` or a
``with`` block frees them at once); an object that points into another
keeps it alive (a Body its World, a Result its Polytopes).  Calls into the
library release the GIL.  Polytopes never change and may be shared between
threads; a World may be queried from several threads at once, but nothing
may change a World, a Chain or a Robot while another thread uses it
(``Robot.check_states`` only reads the robot: any number of threads may
call it on one robot at once).
"""
from ._halfspace_cffi import ffi as _ffi, lib as _lib
from .errors import (Error, InputError, ArgumentError, FileError, OutOfMemoryError,
                     UnsupportedError, InternalError, CertificateError)
from ._util import Status, STATUS_NAMES, status_name, status_names
from .polytope import (Polytope, Result, Multiplier, Certificate, feasible, intersect,
                       intersect_many)
from . import poses
from .world import World, Body, Pair, PiecePair, Contact, Distance, Boundary, QueryResult
from .chain import Chain, ChainDistance
from .robot import Robot, RobotPair, RobotDistance, MotionResult

#: Version of the C library in use ("MAJOR.MINOR.PATCH", hs_version).
__version__ = _ffi.string(_lib.hs_version()).decode()

__all__ = ["Error", "InputError", "ArgumentError", "FileError", "OutOfMemoryError",
           "UnsupportedError", "InternalError", "CertificateError",
           "Status", "STATUS_NAMES", "status_name", "status_names",
           "Polytope", "Result", "Multiplier", "Certificate", "feasible", "intersect",
           "intersect_many", "poses",
           "World", "Body", "Pair", "PiecePair", "Contact", "Distance", "Boundary",
           "QueryResult", "Chain", "ChainDistance",
           "Robot", "RobotPair", "RobotDistance", "MotionResult"]

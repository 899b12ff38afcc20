"""halfspace.dask -- labelling many robot configurations on a Dask cluster
(dask.distributed, Debian's python3-distributed): the (N, dof) array is cut
into chunks, each worker labels its chunks with :meth:`Robot.check_states`,
and the labels come back in the order of the rows.

Nothing here distributes work by itself: the chunks are handed to an
existing ``distributed.Client`` (``client.scatter``, ``client.map``,
``client.gather``), which runs them wherever its scheduler says.  Import it
on demand (``import halfspace.dask``): ``import halfspace`` does not import
Dask.

    from distributed import Client, LocalCluster
    import halfspace.dask

    client = Client(LocalCluster(n_workers=2, threads_per_worker=1))
    # or a real cluster: client = Client("tcp://scheduler-host:8786")
    labels = halfspace.dask.label_states(client, "panda.urdf", Q,
                                         world_file="table_shelf.wrl")

What each worker needs: this package importable (the same version), and
the URDF, its meshes and the scene file at the same paths as on the caller
(a shared or copied folder): workers load them by path, once per worker
process (a cache keyed by the paths, the files' sizes and modification
times, and the load options), then keep the robot and the world for every
later chunk and call.
"""
import os
import threading

import numpy as np

__all__ = ["label_states", "label_chunk", "cached", "clear_cache"]

# Per worker process: (robot, world) by what was loaded.  A Robot is only
# read by check_states, so the threads of one worker share it.
_CACHE = {}
_CACHE_LOCK = threading.Lock()


def _file_key(path):
    if path is None:
        return None
    try:
        st = os.stat(path)
    except OSError:  # the load says what is wrong
        return (os.path.abspath(path), None, None)
    return (os.path.abspath(path), st.st_size, st.st_mtime_ns)


def _loaded(urdf_path, world_file, options):
    """The robot and the world of this process for these files and options,
    loaded at the first call."""
    key = (_file_key(urdf_path), _file_key(world_file),
           tuple(sorted((k, repr(v)) for k, v in options.items())))
    with _CACHE_LOCK:
        got = _CACHE.get(key)
        if got is None:
            from .robot import Robot
            from .world import World
            opts = dict(options)
            rest = opts.pop("rest", None)
            robot = Robot.load(urdf_path, rest=list(rest) if rest is not None else None, **opts)
            world = World.load(world_file) if world_file is not None else None
            got = _CACHE[key] = (robot, world)
    return got


def cached():
    """What this process has loaded: a list of (URDF path, scene path or
    None), one per robot kept (on the workers:
    ``client.run(halfspace.dask.cached)``)."""
    with _CACHE_LOCK:
        return [(k[0][0], k[1][0] if k[1] else None) for k in _CACHE]


def clear_cache():
    """Forget the robots and worlds loaded by this process (for example
    on every worker: ``client.run(halfspace.dask.clear_cache)``)."""
    with _CACHE_LOCK:
        _CACHE.clear()


def label_chunk(Q, urdf_path, world_file=None, threads=1, options=None):
    """Label one chunk here, in this process: the robot of ``urdf_path``
    (and the world of ``world_file``, or None) loaded once per process and
    kept, then ``robot.check_states(Q, world, threads)``.  The task that
    :func:`label_states` runs on the workers; usable alone (with
    ``client.submit`` or ``dask.delayed``).  Returns the (len(Q),) uint8
    labels (0 free, 1 self, 2 world, 3 both)."""
    robot, world = _loaded(urdf_path, world_file, dict(options or {}))
    return robot.check_states(Q, world=world, threads=threads)


def label_states(client, urdf_path, Q, world_file=None, chunk=10000, threads=1, **robot_options):
    """Label the configurations Q (an (N, dof) array) on the workers of a
    Dask client: 0 free, 1 self-collision, 2 world collision, 3 both, as
    :meth:`halfspace.Robot.check_states` answers them.

    Args:
        client: a ``distributed.Client`` (a LocalCluster's, or
            ``Client("tcp://scheduler:8786")`` for a real cluster).
        urdf_path: the robot's URDF file, readable by every worker at this
            path (as are its meshes).
        Q: an (N, dof) array of configurations within the limits.
        world_file: a scene file (.wrl, .off, .obj, .stl) every worker
            loads as the world, or None for self-collision only.
        chunk: rows per task (default 10^4: about 0.1 s of work for the
            Panda, large enough that Dask's overhead per task, about a
            millisecond, does not count).
        threads: the library's threads per task (default 1: Dask's worker
            threads run the tasks side by side; 0 uses every CPU of the
            machine within each task, for workers with one thread each).
        robot_options: passed to :meth:`halfspace.Robot.load`
            (mesh_as_hull, package_path, rest, ...).

    Returns an (N,) uint8 numpy array, row k's label at k, equal to
    ``Robot.load(urdf_path, **robot_options).check_states(Q, world)`` in
    one process.  A failing chunk raises its error here (the package's
    exceptions: InputError for a bad URDF, ArgumentError for a row outside
    the limits, naming the row within its chunk).
    """
    Qa = np.ascontiguousarray(Q, dtype=np.float64)
    if Qa.ndim != 2:
        from .errors import ArgumentError
        raise ArgumentError("Q: expected an (N, dof) array, got shape %s" % (Qa.shape,))
    if int(chunk) < 1:
        from .errors import ArgumentError
        raise ArgumentError("chunk must be at least 1")
    chunk = int(chunk)
    n = Qa.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.uint8)
    urdf_path = os.path.abspath(os.fspath(urdf_path))
    if world_file is not None:
        world_file = os.path.abspath(os.fspath(world_file))
    if "rest" in robot_options and robot_options["rest"] is not None:
        robot_options["rest"] = tuple(float(v) for v in robot_options["rest"])
    pieces = [Qa[s:s + chunk] for s in range(0, n, chunk)]
    # The rows go to the cluster once, as data (not inside the task graph),
    # under keys of their own (hash=False: a later call with the same rows
    # must not share them); the futures are released when this returns.
    data = client.scatter(pieces, hash=False)
    futures = client.map(label_chunk, data, urdf_path=urdf_path, world_file=world_file,
                         threads=int(threads), options=robot_options, pure=False)
    parts = client.gather(futures)
    return np.concatenate(parts).astype(np.uint8, copy=False)

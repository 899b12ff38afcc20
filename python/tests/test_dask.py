"""test_dask.py -- halfspace.dask.label_states on a LocalCluster of 2
workers: 10^4 Panda configurations among the table and shelf of
examples/ompl_panda labelled on the workers, in order, equal to a
single-process check_states; each worker process loads the robot once.

The main test runs the workers as separate processes (processes=True, as
a real cluster would: each loads its own robot from the URDF path), with
one thread each and no dashboard (no port to clash with); starting them
takes 1-2 s.  The second test runs 2 workers as threads of this process
(processes=False: fast, sharing one cached robot) for the options, the
order with a chunk that does not divide N, and errors.  Both use the
Panda of the data set (a named skip without it)."""
import os

import numpy as np
import pytest

import halfspace as hs
from conftest import DATA, ex

distributed = pytest.importorskip("distributed", reason="needs python3-distributed")
import halfspace.dask as hd  # noqa: E402

PANDA = os.path.join(DATA, "urdf", "franka_panda", "panda.urdf")
needs_panda = pytest.mark.skipif(not os.path.exists(PANDA),
                                 reason="needs ../shared/data/urdf/franka_panda/panda.urdf")
# Debian's tornado warns about distributed's use of it; not ours to fix.
pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")
READY = [0, -0.785398163397, 0, -2.35619449019, 0, 1.57079632679, 0.785398163397, 0.02]


def configurations(robot, n, seed):
    lim = robot.limits
    rng = np.random.default_rng(seed)
    return lim[:, 0] + (lim[:, 1] - lim[:, 0]) * rng.random((n, robot.dof))


@needs_panda
def test_label_states_on_two_worker_processes():
    scene = ex("ompl_panda", "table_shelf.wrl")
    robot = hs.Robot.load(PANDA)
    Q = configurations(robot, 10000, 11)
    want = robot.check_states(Q, hs.World.load(scene), threads=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        got = hd.label_states(client, PANDA, Q, world_file=scene, chunk=1000)
        assert got.dtype == np.uint8 and np.array_equal(got, want)
        # each worker process loaded the robot (and the world) once, and
        # keeps it for the next call
        loaded = client.run(hd.cached)
        assert len(loaded) == 2
        for paths in loaded.values():
            assert paths == [(os.path.abspath(PANDA), os.path.abspath(scene))]
        again = hd.label_states(client, PANDA, Q[::-1], world_file=scene, chunk=2500)
        assert np.array_equal(again, want[::-1])
        assert all(len(v) == 1 for v in client.run(hd.cached).values())
    assert all(np.bincount(want, minlength=4) > 0)


@needs_panda
def test_label_states_options_order_and_errors():
    robot = hs.Robot.load(PANDA, rest=READY)
    Q = configurations(robot, 3001, 5)
    want = robot.check_states(Q)  # self only, skip list made at READY
    hd.clear_cache()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        got = hd.label_states(client, PANDA, Q, chunk=700, rest=READY, threads=2)
        assert np.array_equal(got, want)
        # the default skip list differs (it hides pairs in collision at q = 0)
        assert not np.array_equal(hd.label_states(client, PANDA, Q, chunk=1000), want)
        assert len(hd.cached()) == 2  # threads of one process share its cache
        assert hd.label_states(client, PANDA, np.zeros((0, 8))).shape == (0,)
        bad = Q[:10].copy()
        bad[4, 3] = 1.0  # panda_joint4 above its upper limit 0
        with pytest.raises(hs.ArgumentError, match="configuration 5.*panda_joint4"):
            hd.label_states(client, PANDA, bad, chunk=10)
        with pytest.raises(hs.ArgumentError, match="shape"):
            hd.label_states(client, PANDA, Q[0])
        with pytest.raises(hs.FileError):
            hd.label_states(client, PANDA + ".missing", Q[:4])
    hd.clear_cache()
    assert hd.cached() == []

"""test_chain.py -- Chain against the CLI (`halfspace chain --json`): the
Panda at random configurations alone and against a scene (self pairs, scene
pairs, the distance to the last digit), a chain built in Python beside the
same chain written as a chain file; errors."""
import os
import random

import numpy as np
import pytest

import halfspace as hs
from conftest import DATA, ex, run_cli_json


def cli_chain(path, q, scene=None, distance=False):
    args = ["chain", "--json", "--angles", " ".join(repr(float(v)) for v in q)]
    if scene:
        args += ["--scene", scene]
    if distance:
        args.append("--distance")
    return run_cli_json(*(args + [path]))


def random_q(rng, limits):
    return [rng.uniform(lo, hi) for lo, hi in limits]


def compare(c, path, q, scene=None, world=None):
    want = cli_chain(path, q, scene, distance=world is not None)
    c.angles = q
    assert list(c.angles) == want["angles"]
    selfp = [list(p) for p in c.self_collision(names=True)]
    assert selfp == want["self"]
    # the incremental query agrees on whether the pose is free
    assert bool(c.self_collision(all=False)) == bool(selfp)
    if world is not None:
        assert [list(p) for p in c.world_collision(world, names=True)] == want["scene"]
        d = c.distance(world)
        wd = want["distance"]
        assert (d.distance, d.link_name, d.body) == (wd["value"], wd["link"], wd["body"])
        assert list(d.on_link) == wd["on_link"] and list(d.on_body) == wd["on_body"]
    return want["status"]


def test_panda_same_as_cli():
    path = ex("chains", "panda.chain")
    scene = ex("chains", "panda-table.wrl")
    c = hs.Chain.load(path)
    assert c.links == 10 and c.dof == 7
    assert c.skipped == [(7, 9)] and c.link_names[9] == "hand"
    world = hs.World.load(scene)
    rng = random.Random(2)
    limits = c.limits
    statuses = set()
    for k in range(40):
        q = random_q(rng, limits)
        statuses.add(compare(c, path, q, scene, world))
    for k in range(40):
        statuses.add(compare(c, path, random_q(rng, limits)))
    # the README's poses
    assert compare(c, path, [0, 0, 0, -0.07, 0, 0, 0]) == "self-collision"
    assert compare(c, path, [0, 1.0, 0, -0.5, 0, 0, 0], scene, world) == \
        "self-and-scene-collision"
    assert compare(c, path, [0, -0.6, 0, -2.4, 0, 1.8, 0.785], scene, world) == "free"
    assert {"free", "self-collision"} <= statuses


@pytest.mark.skipif(not os.path.isdir(os.path.join(DATA, "robots")), reason="needs ../shared/data")
def test_panda_meshes_same_as_cli():
    path = ex("chains", "panda_meshes.chain")
    c = hs.Chain.load(path)
    rng = random.Random(4)
    for k in range(10):
        compare(c, path, random_q(rng, c.limits))


def write_chain(path, links):
    """A chain file: links = [(spheres, joint)], joint (origin, axis,
    limits) from the previous link, None for the first."""
    out = []
    for k, (spheres, joint) in enumerate(links):
        if joint is not None:
            t, axis, lim = joint
            out += ["joint j%d revolute" % k, "origin %r %r %r 0 0 0" % tuple(t),
                    "axis %r %r %r" % tuple(axis), "limits %r %r" % lim]
        out.append("link l%d" % k)
        out += ["sphere %r %r %r %r" % (tuple(c) + (r,)) for c, r in spheres]
    path.write_text("\n".join(out) + "\n")


def test_built_chain_same_as_cli(tmp_path):
    """A random chain of spheres built with Chain(n), add_sphere and
    define_joint, and the same chain written as a file for the CLI."""
    rng = random.Random(9)
    for trial in range(4):
        n = rng.randint(6, 14)
        links = []
        for k in range(n):
            spheres = [([rng.randint(-2, 2) / 4, rng.randint(-2, 2) / 4, 0.5],
                        rng.choice([0.25, 0.375, 0.5])) for _ in range(rng.randint(1, 2))]
            joint = None if k == 0 else ([0, 0, 1], rng.choice([[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
                                         (-3.0, 3.0))
            links.append((spheres, joint))
        path = tmp_path / ("c%d.chain" % trial)
        write_chain(path, links)
        c = hs.Chain(n)
        for k, (spheres, joint) in enumerate(links):
            c.set_link_name(k, "l%d" % k)
            for ctr, r in spheres:
                c.add_sphere(k, ctr, r)
            if joint is not None:
                t, axis, lim = joint
                c.define_joint(k, "revolute", origin=hs.poses.translation(t), axis=axis,
                               limits=lim)
                c.set_joint_name(k, "j%d" % k)
        c.auto_skip()
        loaded = hs.Chain.load(path)
        assert loaded.skipped == c.skipped
        assert c.joint_names == loaded.joint_names and c.link_names == loaded.link_names
        seen = set()
        for _ in range(15):
            q = [rng.uniform(-3, 3) for _ in range(n - 1)]
            seen.add(compare(c, path, q))
            loaded.angles = q
            assert loaded.self_collision() == c.self_collision()
        assert np.allclose(c.link_pose(n - 1), loaded.link_pose(n - 1), rtol=0, atol=0)


def test_joints_and_poses():
    c = hs.Chain(3)
    c.add_sphere(0, [0, 0, 0], 0.5)
    c.add_sphere(2, [0, 0, 0], 0.5)
    c.set_joint(1, hs.poses.translation([1, 0, 0]))
    c.set_joint(2, hs.poses.translation([1, 0, 0]))
    assert c.self_collision() == []                          # 2 apart, radii 0.5
    c.change_joint(2, hs.poses.translation([-1.5, 0, 0]))     # link 2 at x = 0.5
    assert c.self_collision() == [(0, 2)]
    assert c.try_change(2, hs.poses.translation([0, 0, 0])) == (0, 2)
    assert np.array_equal(c.joint(2), hs.poses.translation([-0.5, 0, 0]))
    assert np.array_equal(c.relative_pose(0, 2), hs.poses.translation([0.5, 0, 0]))
    c.base = hs.poses.translation([0, 0, 7])
    assert c.link_pose(2)[2, 3] == 7
    c.skip_pair(0, 2)
    assert c.self_collision() == []
    c.skip_pair(0, 2, False)
    assert c.self_collision(all=False) == [(0, 2)]


def test_errors(tmp_path):
    bad = tmp_path / "bad.chain"
    bad.write_text("link a\nsphere 0 0 0 1\njoint j revolute\nlink b\n")
    with pytest.raises(hs.InputError) as e:
        hs.Chain.load(bad)
    assert e.value.file == str(bad) and e.value.line
    with pytest.raises(hs.FileError):
        hs.Chain.load(tmp_path / "missing.chain")
    c = hs.Chain.load(ex("chains", "panda.chain"))
    with pytest.raises(hs.ArgumentError):
        c.angles = [0] * 6                                   # 7 joints
    with pytest.raises(hs.ArgumentError):
        c.angles = [5, 0, 0, -1, 0, 1, 0]                    # beyond joint1's limit
    with pytest.raises(hs.ArgumentError):
        hs.Chain(0)
    with pytest.raises(TypeError):
        c.world_collision("scene")
    c.close()
    with pytest.raises(hs.ArgumentError, match="closed"):
        c.dof

"""test_robot.py -- Robot against the CLI (`halfspace robot --json`) on the
Panda of the data set: the coordinates, the skip list (at the default rest
and at --rest), random configurations alone and among the table and shelf
of examples/ompl_panda (self pairs, scene pairs, the distance to the last
digit), motions in both modes; check_states against single checks on 1, 2
and 4 threads and from two Python threads at once; a small robot written
here (no data needed); errors and lifetimes."""
import os
import random
import threading

import numpy as np
import pytest

import halfspace as hs
from halfspace import robot as hr
from conftest import DATA, ex, run_cli_json

PANDA = os.path.join(DATA, "urdf", "franka_panda", "panda.urdf")
needs_panda = pytest.mark.skipif(not os.path.exists(PANDA),
                                 reason="needs ../shared/data/urdf/franka_panda/panda.urdf")
READY = [0, -0.785398163397, 0, -2.35619449019, 0, 1.57079632679, 0.785398163397, 0.02]


def scene():
    return ex("ompl_panda", "table_shelf.wrl")


def qtext(q):
    return " ".join(repr(float(v)) for v in q)


def cli_robot(q=None, scene=None, distance=False, rest=None, motion=None, guaranteed=False):
    args = ["robot", "--json"]
    if q is not None:
        args += ["--q", qtext(q)]
    if scene:
        args += ["--scene", scene]
    if distance:
        args.append("--distance")
    if rest is not None:
        args += ["--rest", qtext(rest)]
    if motion is not None:
        args += ["--motion", qtext(motion[0]), qtext(motion[1])]
    if guaranteed:
        args.append("--guaranteed")
    return run_cli_json(*(args + [PANDA]))


def random_q(rng, limits):
    return [rng.uniform(lo, hi) for lo, hi in limits]


def compare(r, q, world=None):
    want = cli_robot(q, scene() if world is not None else None, distance=world is not None)
    r.q = q
    assert list(r.q) == want["q"]
    assert [[p.a, p.b, p.status] for p in r.self_collision()] == want["self"]
    assert all(p.kind == "self" for p in r.self_collision())
    if world is not None:
        scene_pairs = r.world_collision(world)
        assert [[p.a, p.b, p.status] for p in scene_pairs] == want["scene"]
        d = r.distance(world)
        wd = want["distance"]
        assert (d.distance, d.link_name, d.body) == (wd["d"], wd["link"], wd["body"])
        assert list(d.on_link) == wd["on_link"] and list(d.on_body) == wd["on_body"]
        # the planner's question agrees
        assert r.collides(q, world) == (want["status"] != "free")
    return want["status"]


@needs_panda
def test_panda_same_as_cli():
    r = hs.Robot.load(PANDA)
    want = cli_robot()
    assert r.name == want["robot"] == "panda"
    assert r.links == want["links"] == 13 and r.dof == want["dof"] == 8
    assert r.coordinate_names == want["coordinates"]
    assert [list(s) for s in r.skipped] == want["skipped"]
    assert ("panda_leftfinger", "panda_rightfinger", "rest") in r.skipped
    assert len(r.warnings) == 2 and "panda.urdf:256: element <contact>" in r.warnings[0]
    assert r.joint_mimic("panda_finger_joint2") == ("panda_finger_joint1", 1.0, 0.0)
    assert r.joint_type("panda_joint1") == "revolute"
    assert r.joint_type("panda_finger_joint1") == "prismatic"
    assert r.piece_count("panda_link8") == 0
    assert r.link_parent("panda_hand") == r.link_names.index("panda_link8")
    lim = r.limits
    assert lim.shape == (8, 2) and lim[3, 1] == 0 and lim[7, 1] == 0.04
    assert list(r.q) == list(r.rest) == want["q"]
    world = hs.World.load(scene())
    rng = random.Random(3)
    statuses = set()
    for _ in range(25):
        statuses.add(compare(r, random_q(rng, lim), world))
    for _ in range(10):
        statuses.add(compare(r, random_q(rng, lim)))
    assert {"free", "self-collision", "scene-collision"} <= statuses


@needs_panda
def test_rest_skip_list_and_names_same_as_cli():
    r = hs.Robot.load(PANDA, rest=READY)
    want = cli_robot(rest=READY, q=[0, 0, 0, -0.07, 0, 0, 0, 0])
    assert [list(s) for s in r.skipped] == want["skipped"]
    assert all(reason == "adjacent" for _, _, reason in r.skipped)
    assert list(r.q) == READY
    r.q = r.rest
    r.set_q({"panda_joint4": -0.07})
    assert list(r.q) == want["q"]
    pairs = r.self_collision()
    assert [[p.a, p.b, p.status] for p in pairs] == want["self"]
    assert [(p.a, p.b) for p in pairs] == [("panda_link5", "panda_link7"),
                                           ("panda_link5", "panda_hand"),
                                           ("panda_leftfinger", "panda_rightfinger")]
    idx = r.self_collision(names=False)
    assert [(r.link_names[p.a], r.link_names[p.b]) for p in idx] == [(p.a, p.b) for p in pairs]
    quick = r.self_collision(all=False)
    assert len(quick) == 1 and (quick[0].a, quick[0].b) in [(p.a, p.b) for p in pairs]
    r.set_value("panda_joint4", -1.5)
    assert r.q[3] == -1.5
    # a skip added by hand, and taken back
    r.q = [0, 0, 0, -0.07, 0, 0, 0, 0]
    r.skip_pair("panda_link5", "panda_link7")
    assert ("panda_link5", "panda_link7", "user") in r.skipped
    assert len(r.self_collision()) == 2
    r.skip_pair("panda_link5", "panda_link7", skip=False)
    assert len(r.self_collision()) == 3


@needs_panda
@pytest.mark.parametrize("guaranteed", [True, False])
def test_motion_same_as_cli(guaranteed):
    qa = [0.78, -0.49, 0.32, -2.24, -0.37, 1.84, 0.24, 0.02]
    qb = [0.71, -0.21, 0.1, -2.51, 0.14, 1.18, 0.51, 0.02]
    r = hs.Robot.load(PANDA, rest=READY)
    world = hs.World.load(scene())
    before = r.q
    m = r.check_motion(qa, qb, guaranteed=guaranteed, world=world)
    assert list(r.q) == list(before)
    want = cli_robot(rest=READY, scene=scene(), motion=(qa, qb), guaranteed=guaranteed)
    assert want["status"] == "collision" and m.blocked == 1 and not m.free
    assert (m.fraction, m.free_fraction) == (want["fraction"], want["free_fraction"])
    assert list(m.q) == want["q_blocked"]
    assert [m.pair.a, m.pair.b, m.pair.kind, m.pair.status] == want["pair"]
    assert (m.steps, m.configurations, m.bounds, m.exact_tests) == \
        (want["steps"], want["configurations"], want["bounds"], want["exact_tests"])
    assert r.collides(m.q, world)
    # the README's numbers
    if guaranteed:
        assert abs(m.fraction - 0.5726838) < 1e-7
    else:
        assert m.steps == 38 and abs(m.fraction - 22 / 38) < 1e-15
    # a short free motion, and self-collision only
    free = r.check_motion(READY, [0.1] + READY[1:], guaranteed=guaranteed, world=world)
    assert free.free and free.q is None and free.pair is None and free.fraction == 1
    assert r.check_motion(qa, qb, guaranteed=guaranteed).free


@needs_panda
def test_check_states_matches_single_checks():
    r = hs.Robot.load(PANDA)
    world = hs.World.load(scene())
    lim = r.limits
    rng = np.random.default_rng(7)
    Q = lim[:, 0] + (lim[:, 1] - lim[:, 0]) * rng.random((1500, 8))
    q0 = r.q
    labels = [r.check_states(Q, world, threads=t) for t in (1, 2, 4, 0)]
    assert labels[0].dtype == np.uint8 and labels[0].shape == (1500,)
    for other in labels[1:]:
        assert np.array_equal(other, labels[0])
    assert list(r.q) == list(q0)  # the robot is only read
    counts = np.bincount(labels[0], minlength=4)
    assert all(counts > 0), counts
    for q, c in zip(Q, labels[0]):
        assert r.collides(q, world) == (c != hr.FREE)
        assert bool(r.self_collision()) == bool(c & hr.SELF)
        assert bool(r.world_collision(world, all=False)) == bool(c & hr.WORLD)
    self_only = r.check_states(Q[:300])
    assert np.array_equal(self_only, labels[0][:300] & hr.SELF)
    # two Python threads on one robot at once (the GIL is released)
    out = [None, None]

    def run(k):
        out[k] = r.check_states(Q, world, threads=2)

    ts = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert np.array_equal(out[0], labels[0]) and np.array_equal(out[1], labels[0])
    # lists work as arrays; no rows: an empty answer
    assert np.array_equal(r.check_states(Q[:5].tolist(), world), labels[0][:5])
    assert r.check_states(np.zeros((0, 8)), world).shape == (0,)


# A small robot: two arms on a base, a continuous joint and a mimic joint.
TWO_ARMS = """<?xml version="1.0"?>
<robot name="two_arms">
  <link name="base"><collision><geometry><box size="1 1 0.2"/></geometry></collision></link>
  <link name="a1"><collision><origin xyz="0 0 0.5"/><geometry><box size="0.1 0.1 1"/></geometry></collision></link>
  <link name="a2"><collision><origin xyz="0 0 0.4"/><geometry><cylinder radius="0.05" length="0.8"/></geometry></collision></link>
  <link name="b1"><collision><origin xyz="0 0 0.5"/><geometry><box size="0.1 0.1 1"/></geometry></collision></link>
  <link name="b2"><collision><origin xyz="0 0 0.4"/><geometry><sphere radius="0.1"/></geometry></collision></link>
  <joint name="ja1" type="revolute"><parent link="base"/><child link="a1"/>
    <origin xyz="0.3 0 0.1"/><axis xyz="0 1 0"/><limit lower="-2" upper="2"/></joint>
  <joint name="ja2" type="continuous"><parent link="a1"/><child link="a2"/>
    <origin xyz="0 0 1.05"/><axis xyz="0 1 0"/></joint>
  <joint name="jb1" type="revolute"><parent link="base"/><child link="b1"/>
    <origin xyz="-0.3 0 0.1"/><axis xyz="0 1 0"/><limit lower="-2" upper="2"/></joint>
  <joint name="jb2" type="revolute"><parent link="b1"/><child link="b2"/>
    <origin xyz="0 0 1.05"/><axis xyz="0 1 0"/><limit lower="-3" upper="3"/>
    <mimic joint="ja2" multiplier="-0.5"/></joint>
</robot>
"""


def test_small_robot_states_motion_and_errors():
    r = hs.Robot.from_string(TWO_ARMS, name="two_arms.urdf", auto_skip=False)
    assert r.coordinate_names == ["ja1", "ja2", "jb1"]
    assert r.link_names == ["base", "a1", "a2", "b1", "b2"]
    assert np.isinf(r.limits[1]).all()
    w = hs.World()
    w.add_box("wall", [0.2, 2, 4], pose=hs.poses.translation([1.2, 0, 0]), static=True)
    rng = np.random.default_rng(2)
    lim = np.where(np.isinf(r.limits), [-4, 4], r.limits)
    Q = lim[:, 0] + (lim[:, 1] - lim[:, 0]) * rng.random((2000, 3))
    labels = r.check_states(Q, w, threads=2)
    assert np.array_equal(labels, r.check_states(Q, w, threads=1))
    assert all(np.bincount(labels, minlength=4) > 0)
    for q, c in zip(Q[:300], labels[:300]):
        assert r.collides(q, w) == (c != 0)
    # the arms fold into each other: a self-collision on the way
    m = r.check_motion([0, 0, 0], [-1.2, 0, 1.2])
    assert m.blocked == 1 and m.pair.kind == "self" and m.pair.a in ("a1", "a2")
    assert r.collides(m.q)
    stepped = r.check_motion([0, 0, 0], [-1.2, 0, 1.2], guaranteed=False, resolution=0.01)
    assert stepped.blocked == 1 and stepped.fraction >= m.fraction
    # the base moved
    r.base = hs.poses.translation([0.5, 0, 0])
    assert r.link_pose("base")[0, 3] == 0.5
    vrml = r.export_vrml(world=w)
    assert vrml.startswith("#VRML V2.0") and "wall" in vrml

    # errors: named rows, names, limits, shapes; nothing changed
    before = r.q
    bad = Q[:10].copy()
    bad[6, 0] = 2.5
    with pytest.raises(hs.ArgumentError, match="configuration 7.*ja1"):
        r.check_states(bad, w)
    bad[6, 0] = np.nan
    with pytest.raises(hs.ArgumentError, match="configuration 7.*not finite"):
        r.check_states(bad)
    with pytest.raises(hs.ArgumentError, match="shape Nx3"):
        r.check_states(np.zeros((4, 2)))
    with pytest.raises(hs.ArgumentError, match="threads"):
        r.check_states(Q[:2], threads=-1)
    with pytest.raises(TypeError):
        r.check_states(Q[:2], world="wall")
    with pytest.raises(hs.ArgumentError, match="outside the limits"):
        r.q = [3, 0, 0]
    with pytest.raises(hs.ArgumentError, match="no joint named 'nope'"):
        r.set_q({"nope": 1})
    with pytest.raises(hs.ArgumentError, match="'jb2' is a mimic joint"):
        r.set_q({"jb2": 1})
    with pytest.raises(hs.ArgumentError, match="3 coordinates"):
        r.q = [0, 0]
    assert list(r.q) == list(before)
    with pytest.raises(hs.InputError) as e:
        hs.Robot.from_string(TWO_ARMS.replace('type="continuous"', 'type="spinning"'),
                             name="bad.urdf")
    assert e.value.file == "bad.urdf" and e.value.line == 10 and "spinning" in str(e.value)
    with pytest.raises(hs.FileError):
        hs.Robot.load("/nonexistent/robot.urdf")
    with pytest.raises(TypeError):
        hs.Robot()
    r.close()
    with pytest.raises(hs.ArgumentError, match="closed"):
        r.dof
    assert "closed" in repr(r)


def test_package_path_and_hull_option(tmp_path):
    pkg = tmp_path / "pkgs" / "cubes" / "meshes"
    pkg.mkdir(parents=True)
    # an L-shaped mesh: its hull is larger than the mesh
    (pkg / "l.obj").write_text(
        "v 0 0 0\nv 1 0 0\nv 1 0.2 0\nv 0.2 0.2 0\nv 0.2 1 0\nv 0 1 0\n"
        "v 0 0 0.2\nv 1 0 0.2\nv 1 0.2 0.2\nv 0.2 0.2 0.2\nv 0.2 1 0.2\nv 0 1 0.2\n"
        "f 1 3 2\nf 1 4 3\nf 1 6 5\nf 1 5 4\nf 7 8 9\nf 7 9 10\nf 7 11 12\nf 7 10 11\n"
        "f 1 2 8\nf 1 8 7\nf 2 3 9\nf 2 9 8\nf 3 4 10\nf 3 10 9\nf 4 5 11\nf 4 11 10\n"
        "f 5 6 12\nf 5 12 11\nf 6 1 7\nf 6 7 12\n")
    urdf = """<robot name="l"><link name="l"><collision><geometry>
      <mesh filename="package://cubes/meshes/l.obj"/></geometry></collision></link></robot>"""
    for hull in (True, False):
        r = hs.Robot.from_string(urdf, package_path=[str(tmp_path / "pkgs")],
                                 mesh_as_hull=hull, ros_package_path=False)
        w = hs.World()
        w.add_box("probe", [0.1, 0.1, 0.1], pose=hs.poses.translation([0.45, 0.45, 0.1]))
        # around (0.45, 0.45) is inside the hull of the L, outside the L itself
        assert r.collides(world=w) == hull
    with pytest.raises(hs.InputError, match="package://cubes"):
        hs.Robot.from_string(urdf, ros_package_path=False)


def test_robot_memory_flat_over_1e5_calls():
    """10^5 calls on robots (loaded and freed, configurations, queries,
    motions, check_states, errors) do not make the process grow."""
    from test_memory import rss_growth_kb
    w = hs.World()
    w.add_box("wall", [0.2, 2, 4], pose=hs.poses.translation([1.2, 0, 0]))
    rng = np.random.default_rng(4)
    Q = np.column_stack([rng.uniform(-2, 2, 64), rng.uniform(-4, 4, 64), rng.uniform(-2, 2, 64)])
    keep = hs.Robot.from_string(TWO_ARMS)

    def calls(count):
        done = k = 0
        while done < count:
            k += 1
            r = hs.Robot.from_string(TWO_ARMS) if k % 50 == 0 else keep
            r.q = Q[k % 64]
            r.self_collision()
            r.world_collision(w)
            r.distance(w)
            r.collides(Q[(k + 1) % 64], w)
            r.check_states(Q, w, threads=1)
            r.check_motion(Q[k % 64], Q[(k + 3) % 64], world=w)
            r.skipped
            try:
                r.q = [9, 0, 0]
            except hs.ArgumentError:
                pass
            try:
                r.check_states(Q[:2] * 9)
            except hs.ArgumentError:
                pass
            done += 10
        return done

    n, grown = rss_growth_kb(calls)
    assert grown < 3 * 1024, "RSS grew by %d kB over %d calls" % (grown, n)

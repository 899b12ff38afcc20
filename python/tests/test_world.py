"""test_world.py -- World and Body against the CLI (`halfspace world
--json`): scenes loaded both ways, worlds built in Python beside the same
scene written as VRML, meshes from arrays beside mesh files, move until
contact; distances against closed forms; errors and lifetimes."""
import gc
import glob
import math
import os
import random

import numpy as np
import pytest

import halfspace as hs
from conftest import DATA, ROOT, ex, run_cli, run_cli_json


def as_cli_json(pairs):
    """A query's pairs in the shape of `halfspace world --json`."""
    def v(a):
        return [float(x) for x in a]
    return [{"a": p.a, "b": p.b, "status": p.status,
             "pieces": [{"piece_a": q.piece_a, "piece_b": q.piece_b, "status": q.status,
                         "witness": v(q.witness), "distance": q.distance} for q in p.pieces],
             "contacts": [{"on_a": v(c.on_a), "on_b": v(c.on_b), "normal": v(c.normal)}
                          for c in p.contacts]} for p in pairs]


def scenes():
    out = [ex("scenes", "robot-arm.wrl"), ex("scenes", "robot-arm-posed.wrl"),
           ex("palletizing", "pallet.wrl"), ex("chains", "panda-table.wrl")]
    out += sorted(glob.glob(os.path.join(ROOT, "tests", "data", "scenes", "*.*")))
    if os.path.isdir(os.path.join(DATA, "vrml")):
        out.append(ex("scenes", "pa10-table.wrl"))
    return out


def allowed(path):
    """The folders a scene's Inline nodes may read besides its own
    (pa10-table.wrl reads its robot from ../shared/data)."""
    return [DATA] if os.path.basename(path) == "pa10-table.wrl" else []


@pytest.mark.parametrize("threshold", [0, 0.05, 1])
def test_scenes_same_as_cli(threshold):
    for path in scenes():
        w = hs.World.load(path, allow_paths=allowed(path))
        got = as_cli_json(w.query(threshold=threshold))
        want = run_cli_json("world", "--json", "--threshold=%g" % threshold,
                            *["--allow-path=" + a for a in allowed(path)], path)["pairs"]
        assert got == want, path


def test_inline_outside_refused_unless_allowed():
    """An Inline outside the scene's folder is an InputError naming the
    line, unless its folder is allowed; limits are options too."""
    if not os.path.isdir(os.path.join(DATA, "vrml")):
        pytest.skip("skipped (data missing): ../shared/data/vrml")
    path = ex("scenes", "pa10-table.wrl")
    with pytest.raises(hs.InputError, match=r"pa10-table\.wrl:\d+: Inline file .* outside"):
        hs.World.load(path)
    assert len(hs.World.load(path, allow_paths=DATA).bodies) > 1
    with pytest.raises(hs.InputError):
        hs.World.load(path, allow_paths=[DATA], max_pieces=1)
    with pytest.raises(hs.ArgumentError):
        hs.World.load(path, max_bananas=1)


def text_line(p):
    """A Pair as `halfspace world` prints it (src/cli: cli_print_report_pair)."""
    def vec(v):
        return "".join(" %.9g" % x for x in v)
    out = "%s %s %s" % (p.a, p.b, p.status)
    out += (" distance %.9g" % p.distance) if p.status == "contact" else " at" + vec(p.witness)
    if p.contacts:
        out += " normal" + vec(p.normal) + " contacts %d:" % len(p.contacts)
        out += "".join(" (%.9g %.9g %.9g)" % tuple(c.on_a) for c in p.contacts)
    return out


@pytest.mark.parametrize("threshold", [0, 0.1])
def test_pair_fields_match_text_output(threshold):
    """witness, distance, normal and contacts of a Pair are what the text
    output prints (`A B touching at X Y Z normal ... contacts N: ...`)."""
    for path in scenes()[:4]:
        pairs = hs.World.load(path).query(threshold=threshold)
        want = run_cli("world", "--threshold=%g" % threshold, path).splitlines()
        assert [text_line(p) for p in pairs] == want, path
    pairs = hs.World.load(ex("scenes", "robot-arm.wrl")).query()
    assert [(p.a, p.b, p.status) for p in pairs] == [
        ("cylinder1", "static_table", "touching"), ("cylinder2", "static_table", "touching"),
        ("joint1", "static_table", "touching")]
    assert list(pairs[0].normal) == [0, -1, 0] and len(pairs[0].contacts) == 16
    assert pairs.stats["body_pairs"] >= 3


def test_resting_pairs_repeated_from_the_last_query():
    """A world queried again from the same thread reuses its report: a
    touching pair whose bodies did not move is answered from the last
    query's record (stats["repeated"]), with the same answer, contacts
    included; a body moved by 2**-30 is tested again."""
    w = hs.World()
    w.add_box("static_floor", [10, 10, 1], static=True,
              pose=[[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, -0.5], [0, 0, 0, 1]])
    box = w.add_box("box", [1, 1, 1],
                    pose=[[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0.5], [0, 0, 0, 1]])
    first = w.query()
    again = w.query()
    assert [(p.a, p.b, p.status) for p in first] == [("box", "static_floor", "touching")]
    assert first.stats["repeated"] == 0 and again.stats["repeated"] == 1
    assert as_cli_json(again) == as_cli_json(first)
    m = box.pose
    m[0, 3] += 2.0 ** -30
    box.pose = m
    moved = w.query()
    assert moved.stats["repeated"] == 0
    assert [(p.a, p.b, p.status) for p in moved] == [("box", "static_floor", "touching")]


def vrml_scene(bodies):
    """VRML text for bodies (name, kind, args, translation)."""
    out = ["#VRML V2.0 utf8"]
    for name, kind, args, t in bodies:
        geo = {"box": "Box { size %r %r %r }",
               "cylinder": "Cylinder { radius %r height %r }",
               "cone": "Cone { bottomRadius %r height %r }",
               "sphere": "Sphere { radius %r }"}[kind] % tuple(args)
        out.append("DEF %s Transform { translation %r %r %r children [ Shape { geometry %s } ] }"
                   % ((name,) + tuple(t) + (geo,)))
    return "\n".join(out) + "\n"


def test_built_world_same_as_cli(tmp_path):
    """Random boxes, cylinders, cones and spheres at dyadic positions (so
    faces touch exactly): built with add_box, ... in Python, and written as
    VRML for the CLI; same answers."""
    rng = random.Random(11)
    seen = []
    for trial in range(5):
        bodies = []
        for k in range(12):
            kind = rng.choice(["box", "cylinder", "cone", "sphere"])
            if kind == "box":
                args = [rng.choice([0.5, 1, 1.5, 2]) for _ in range(3)]
            elif kind == "sphere":
                args = [rng.choice([0.5, 1, 1.25])]
            else:
                args = [rng.choice([0.5, 1]), rng.choice([1, 2])]
            t = [rng.randint(-8, 8) / 4 for _ in range(3)]
            name = ("static_" if k % 4 == 0 else "") + "%s%d" % (kind, k)
            bodies.append((name, kind, args, t))
        w = hs.World()
        for name, kind, args, t in bodies:
            pose = hs.poses.translation(t)
            static = name.startswith("static_")
            if kind == "box":
                w.add_box(name, args, pose=pose, static=static)
            elif kind == "cylinder":
                w.add_cylinder(name, *args, pose=pose, static=static)
            elif kind == "cone":
                w.add_cone(name, *args, pose=pose, static=static)
            else:
                w.add_sphere(name, *args, pose=pose, static=static)
        path = tmp_path / ("scene%d.wrl" % trial)
        path.write_text(vrml_scene(bodies))
        for threshold in (0, 0.25):
            got = as_cli_json(w.query(threshold=threshold))
            want = run_cli_json("world", "--json", "--threshold=%g" % threshold, path)["pairs"]
            assert got == want
            seen += [p["status"] for p in want]
            # and the same scene loaded from the file, in Python
            assert as_cli_json(hs.World.load(path).query(threshold=threshold)) == want
    assert {"overlap", "touching", "contact"} <= set(seen), seen


def read_off(path):
    lines = [l.split("#")[0].split() for l in open(path)]
    lines = [l for l in lines if l]
    nv, nf = int(lines[1][0]), int(lines[1][1])
    verts = np.array([[float(x) for x in l[:3]] for l in lines[2:2 + nv]])
    tris = np.array([[int(x) for x in l[1:4]] for l in lines[2 + nv:2 + nv + nf]])
    return verts, tris


def test_mesh_from_arrays_same_as_file(tmp_path):
    off = os.path.join(ROOT, "tests", "data", "scenes", "tetra.off")
    verts, tris = read_off(off)
    statuses = []
    for shift in (0.25, 0.5, 0.75, 0.85, 1.5):
        w1 = hs.World()
        w1.add_mesh("tetra", verts, tris)
        w1.add_box("block", [1, 1, 1], pose=hs.poses.translation([shift, shift, shift]))
        w2 = hs.World()
        w2.add_file(off)
        w2.add_box("block", [1, 1, 1], pose=hs.poses.translation([shift, shift, shift]))
        a = as_cli_json(w1.query(threshold=0.2))
        b = as_cli_json(w2.query(threshold=0.2))
        assert a == b
        statuses.append(a[0]["status"] if a else None)
        assert not w1["tetra"].boundary(0).is_convex
    assert statuses == ["overlap", "overlap", "overlap", "contact", None]
    # as a hull it is a convex piece
    w3 = hs.World.load(off, mesh_as_hull=True)
    assert w3["tetra"].boundary(0).is_convex


def test_hull_and_polytope_pieces():
    cube_pts = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float)
    w = hs.World()
    w.add_hull("hull", cube_pts)
    w.add_polytope("poly", hs.Polytope.read(ex("basic", "cube_face.ine")))
    w.add_polytope("far", hs.Polytope.read(ex("basic", "cube_far.ine")))
    P = hs.Polytope.read(ex("basic", "unit_cube.ine"))
    Q = hs.Polytope.read(ex("basic", "cube_face.ine"))
    pairs = {(p.a, p.b): p.status for p in w.query(threshold=0)}
    # the hull of the cube's corners is the unit cube: same answer as the
    # polytopes themselves
    assert pairs[("hull", "poly")] == hs.intersect(P, Q).status
    assert ("far", "hull") not in pairs


def test_move_until_contact_same_as_cli():
    path = ex("scenes", "robot-arm.wrl")
    want = run_cli_json("world", "--json", "--move=gripper", "--to=-40 122 0 0 0 1 -0.6", path)
    w = hs.World.load(path)
    end = hs.poses.from_axis_angle([0, 0, 1], -0.6, [-40, 122, 0])
    frac, pairs = w.move_until_contact("gripper", end, threshold=0.1)
    assert frac == want["fraction"]
    assert list(w["gripper"].pose.reshape(16)) == want["pose"]
    assert as_cli_json(pairs) == want["pairs"]


def test_distance_closed_form():
    w = hs.World()
    a = w.add_box("a", [2, 2, 2])
    b = w.add_box("b", [2, 2, 2], pose=hs.poses.translation([5, 0, 0]))
    d = w.distance(a, b)
    assert d.distance == pytest.approx(3, abs=1e-12)
    assert d.on_a[0] == pytest.approx(1) and d.on_b[0] == pytest.approx(4)
    b.pose = hs.poses.translation([5, 4, 0])
    assert w.distance("a", "b").distance == pytest.approx(math.hypot(3, 2), abs=1e-12)
    b.pose = hs.poses.translation([2, 0, 0])           # faces touch: 0, exactly
    assert w.distance("a", "b").distance == 0
    assert [(p.a, p.b, p.status) for p in w.query(threshold=0)] == [("a", "b", "touching")]


def test_bodies_and_filters():
    w = hs.World()
    a = w.add_box("a", [1, 1, 1])
    b = w.add_box("b", [1, 1, 1], pose=hs.poses.translation([0.5, 0, 0]))
    assert len(w) == 2 and "a" in w and w["a"] is a and w[1] is b and w.names == ["a", "b"]
    assert w.query(threshold=0)[0].status == "overlap"
    w.set_pair_enabled(a, b, False)
    assert w.query(threshold=0) == []
    w.set_pair_enabled("a", "b", True)
    a.set_groups(1, 1)
    b.set_groups(2, 2)
    assert w.query(threshold=0) == []
    b.set_groups(1, 0xFFFFFFFF)
    b.static = True
    a.static = True
    assert w.query(threshold=0) == []
    a.static = False
    c = w.clone(a, "c")
    assert c.piece_count == 1 and np.array_equal(c.pose, a.pose)
    w.remove("c")
    with pytest.raises(hs.ArgumentError, match="removed"):
        c.name
    for method in ("tree", "raw", "grid"):
        w.set_broadphase(method)
        assert [p.status for p in w.query(threshold=0)] == ["overlap"]
    lo, hi = b.aabb
    assert lo[0] <= 0 and hi[0] >= 1 and lo[0] > -1e-6 and hi[0] < 1 + 1e-6   # outward rounded


def test_errors(tmp_path):
    w = hs.World()
    w.add_box("a", [1, 1, 1])
    with pytest.raises(hs.ArgumentError):
        w.add_box("a", [1, 1, 1])                     # name used
    assert len(w) == 1
    with pytest.raises(hs.ArgumentError):
        w.add_box("neg", [-1, 1, 1])
    assert "neg" not in w                             # no half-made body
    with pytest.raises(hs.InputError):
        w.add_hull("flat", [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]])
    with pytest.raises(hs.ArgumentError):
        w["a"].pose = np.eye(3)
    bad = tmp_path / "bad.wrl"
    bad.write_text("#VRML V2.0 utf8\nDEF x Transform {\n  children [ Shape { geometry Torus { } } ]\n}\n")
    with pytest.raises(hs.InputError) as e:
        w.add_file(bad)
    assert e.value.file == str(bad) and e.value.line == 3 and "Torus" in str(e.value)
    with pytest.raises(hs.UnsupportedError):
        hs.World.load(tmp_path / "scene.xyz")
    with pytest.raises(hs.FileError):
        hs.World.load(tmp_path / "missing.wrl")
    with pytest.raises(KeyError):
        w["nobody"]


def test_lifetimes():
    w = hs.World()
    b = w.add_box("a", [1, 1, 1])
    del w
    gc.collect()
    assert b.name == "a" and b.world.names == ["a"]      # the body keeps its world
    w2 = hs.World()
    c = w2.add_box("c", [1, 1, 1])
    w2.close()
    with pytest.raises(hs.ArgumentError):
        c.pose
    with pytest.raises(hs.ArgumentError):
        w2.query()
    with hs.World() as w3:
        w3.add_box("x", [1, 1, 1])
    assert "closed" in repr(w3)

"""test_polytope.py -- Polytope, intersect, feasible, intersect_many and
results, checked against the CLI (same text, same answers), against the
exact engine, and by an exact check of every point and certificate in
Python's own Fractions (independent of the library)."""
import glob
import itertools
import os
import random
import threading
import time
from fractions import Fraction

import numpy as np
import pytest

import halfspace as hs
from conftest import ex, run_cli


def ine_files():
    return sorted(glob.glob(ex("basic", "*.ine")) + glob.glob(ex("paper", "*.ine")))


def same_dim_pairs():
    polys = {f: hs.Polytope.read(f) for f in ine_files()}
    return [(a, b) for a, b in itertools.product(polys, polys) if polys[a].dim == polys[b].dim]


# ------------------------------------------------------------ exact checks

def rows_exact(P):
    """The rows of P as Fractions: (a, b, is_eq) each (P's numbers must be
    doubles exactly, as in every polytope built here)."""
    out = []
    for i in range(P.rows):
        a, b, exact = P.row(i)
        assert exact
        out.append(([Fraction(v) for v in a], Fraction(b), bool(P.eq[i])))
    return out


def dot(a, x):
    return sum(ai * xi for ai, xi in zip(a, x))


def inside(rows, x, strict=False):
    for a, b, eq in rows:
        v = dot(a, x)
        if eq and v != b:
            return False
        if not eq and (v > b or (strict and v == b)):
            return False
    return True


def combination(r, rowsA, rowsB):
    """sum_k y_k a_k and sum_k y_k b_k over the certificate's multipliers."""
    n = r.dim
    s, c = [Fraction(0)] * n, Fraction(0)
    for m in r.multipliers:
        a, b, eq = (rowsA if m.which == "A" else rowsB)[m.row]
        assert eq or m.value >= 0
        s = [si + m.value * ai for si, ai in zip(s, a)]
        c += m.value * b
    return s, c


def check_answer(r, A, B=None):
    """Check r's answer about A (and B) in Python's exact arithmetic."""
    rowsA = rows_exact(A)
    rowsB = rows_exact(B) if B is not None else []
    st = r.status
    if st in ("infeasible", "disjoint"):
        assert r.point is None
        s, c = combination(r, rowsA, rowsB)
        assert all(v == 0 for v in s) and c < 0, "not a Farkas certificate"
    elif st == "touching":
        x = r.point
        assert inside(rowsA, x) and inside(rowsB, x)
        s, c = combination(r, rowsA, rowsB)
        assert all(v == 0 for v in s) and c == 0
        which, z = r.certificate.strict
        # the hyperplane of A's part: h . x = g, A on the side h . x <= g
        h = [Fraction(0)] * r.dim
        g = Fraction(0)
        for m in r.multipliers:
            if m.which == "A":
                a, b, _ = rowsA[m.row]
                h = [hi + m.value * ai for hi, ai in zip(h, a)]
                g += m.value * b
        if which == "A":
            assert inside(rowsA, z) and dot(h, z) < g
        else:
            assert inside(rowsB, z) and dot(h, z) > g
    elif st == "overlap":
        x = r.point
        full = not any(eq for _, _, eq in rowsA + rowsB) and not r.multipliers
        assert inside(rowsA, x, strict=full) and inside(rowsB, x, strict=full)
    elif st == "feasible":
        assert inside(rowsA, r.point)
    else:
        raise AssertionError("unexpected status " + st)


# ------------------------------------------------------------ the CLI

@pytest.mark.parametrize("engine", ["fast", "exact"])
def test_examples_same_text_as_cli(cli, engine):
    """Every same-dimension pair of the bundled .ine files: the Python
    result's text is the CLI's output, byte for byte."""
    pairs = same_dim_pairs()
    assert len(pairs) > 50
    for a, b in pairs:
        r = hs.intersect(hs.Polytope.read(a), hs.Polytope.read(b), engine=engine)
        assert r.text() == cli("intersect", "--engine=" + engine, a, b), (a, b)


def test_feasible_same_as_cli(cli):
    for f in ine_files():
        P = hs.Polytope.read(f)
        r = hs.feasible(P)
        assert r.text() == cli("feasible", f)
        assert r.verify()


def test_json_same_as_cli(cli):
    a, b = ex("basic", "unit_cube.ine"), ex("basic", "square_on_top.ine")
    r = hs.intersect(hs.Polytope.read(a), hs.Polytope.read(b))
    assert r.json() == cli("intersect", "--json", a, b)


def test_readme_examples(cli):
    """The README's command-line examples, from Python."""
    cube = hs.Polytope.read(ex("basic", "unit_cube.ine"))
    r = hs.intersect(cube, hs.Polytope.read(ex("basic", "cube_corner.ine")))
    assert r.status == "touching" and r.point == (1, 1, 1)
    c = r.certificate
    assert c.kind == "separation"
    assert sorted(c.multipliers) == [hs.Multiplier("A", 0, Fraction(1, 2)),
                                     hs.Multiplier("B", 1, Fraction(1, 2))]
    assert c.strict == ("A", (Fraction(1, 2),) * 3)
    r = hs.intersect(hs.Polytope.read(ex("basic", "x_le_0.3.ine")),
                     hs.Polytope.read(ex("basic", "ten_x_ge_3.ine")))
    assert r.status == "touching" and r.point == (Fraction(3, 10),)
    r = hs.feasible(hs.Polytope.read(ex("basic", "empty.ine")))
    assert r.status == "infeasible" and r.certificate.kind == "farkas"
    assert [m.value for m in r.multipliers] == [Fraction(1, 3)] * 3


def test_faithful_trace_and_replay(cli):
    a, b = ex("paper", "example2_A.ine"), ex("paper", "example2_B.ine")
    r = hs.intersect(hs.Polytope.read(a), hs.Polytope.read(b), engine="faithful", trace=True,
                     replay=([0, 0, -2], [-0.5, 0.5, 0.5]))
    out = cli("intersect", "--engine=faithful", "--trace", "--replay-s=0,0,-2",
              "--replay-t=-0.5,0.5,0.5", a, b)
    assert r.status == "intersect" and r.point == (Fraction(-1, 2), Fraction(1, 2), 3)
    assert ["# " + t for t in r.trace] == [l for l in out.splitlines() if l.startswith("#")]


# ------------------------------------------------------------ exact input

def test_exact_input_forms():
    """0.3 as text is 3/10; as a float it is the double nearest to it."""
    A = [[1]]
    x_le = hs.Polytope.from_strings(A, ["0.3"])
    ten_x_ge = hs.Polytope([[-10]], [-3])
    assert hs.intersect(x_le, ten_x_ge).status == "touching"
    as_float = hs.Polytope(A, [0.3])          # 0.299999999999999988898
    assert hs.intersect(as_float, ten_x_ge).status == "disjoint"
    as_fraction = hs.Polytope(A, [Fraction(3, 10)])
    r = hs.intersect(as_fraction, ten_x_ge)
    assert r.status == "touching" and r.point == (Fraction(3, 10),)
    assert not as_fraction.fast_ready and as_fraction.fast_reason
    # huge integers are kept exactly (beyond 2^53)
    big = hs.Polytope([[1]], [2 ** 60 + 1])
    assert hs.feasible(big).status == "feasible"
    assert "1152921504606846977" in big.to_ine()
    # equality rows: as booleans or as indices
    P = hs.Polytope([[1, 0], [0, 1], [-1, 0], [0, -1]], [1, 1, 0, 0], eq=[0])
    Q = hs.Polytope([[1, 0], [0, 1], [-1, 0], [0, -1]], [1, 1, 0, 0],
                    eq=np.array([True, False, False, False]))
    assert list(P.eq) == list(Q.eq) == [True, False, False, False]
    assert P.to_ine().replace("<arrays>", "") == Q.to_ine().replace("<arrays>", "")


def test_parse_read_roundtrip(tmp_path):
    P = hs.Polytope.read(ex("paper", "example1_A.ine"))
    path = tmp_path / "copy.ine"
    P.write(path)
    Q = hs.Polytope.read(path)
    assert Q.rows == P.rows and Q.dim == P.dim
    assert np.array_equal(Q.A, P.A) and np.array_equal(Q.b, P.b)
    R = hs.Polytope.parse(P.to_ine(), name="text")
    assert R.name == "text" and np.array_equal(R.A, P.A)


# ------------------------------------------------------------ random pairs

def random_polytope(rng, n, m, spread):
    """m rows with small integer normals around an integer centre: random
    pairs of these are disjoint, touching or overlapping."""
    c = [rng.randint(-spread, spread) for _ in range(n)]
    A, b = [], []
    for i in range(m):
        a = [0] * n
        while not any(a):
            a = [rng.randint(-3, 3) for _ in range(n)]
        A.append(a)
        b.append(sum(x * y for x, y in zip(a, c)) + rng.randint(1, 6))
    # a bounding box so that every polytope is bounded
    for j in range(n):
        for s in (1, -1):
            a = [0] * n
            a[j] = s
            A.append(a)
            b.append(s * c[j] + rng.randint(1, 4))
    return hs.Polytope(A, b)


def random_pairs(count, seed=1):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.randint(1, 4)
        m = rng.randint(1, 8)
        out.append((random_polytope(rng, n, m, 4), random_polytope(rng, n, m, 4)))
    return out


def test_random_fast_vs_exact_and_python_check():
    pairs = random_pairs(400)
    seen = set()
    for A, B in pairs:
        fast = hs.intersect(A, B)
        exact = hs.intersect(A, B, engine="exact")
        assert fast.status == exact.status
        seen.add(fast.status)
        check_answer(fast, A, B)
        check_answer(exact, A, B)
        assert fast.verify() and exact.verify()
    assert seen == {"disjoint", "touching", "overlap"}


def test_random_same_as_cli(tmp_path, cli):
    pairs = random_pairs(40, seed=7)
    for k, (A, B) in enumerate(pairs):
        a, b = tmp_path / ("a%d.ine" % k), tmp_path / ("b%d.ine" % k)
        A.write(a)
        B.write(b)
        assert hs.intersect(A, B).text() == cli("intersect", a, b)


def test_intersect_many_matches_single_calls():
    pairs = random_pairs(300, seed=3)
    As = [a for a, _ in pairs]
    Bs = [b for _, b in pairs]
    single = np.array([hs.intersect(a, b).code for a, b in pairs], dtype=np.int32)
    for threads in (1, 2, 0):
        st = hs.intersect_many(As, Bs, threads=threads)
        assert st.dtype == np.int32 and np.array_equal(st, single)
    rs = hs.intersect_many(As, Bs, engine="exact", results=True, threads=2)
    assert [r.code for r in rs] == list(single)
    for r, (A, B) in zip(rs[:50], pairs[:50]):
        assert r.verify()
        check_answer(r, A, B)
    names = hs.status_names(single)
    assert list(names[:5]) == [hs.STATUS_NAMES[c] for c in single[:5]]


def test_intersect_many_broadcast_and_empty():
    cube = hs.Polytope.read(ex("basic", "unit_cube.ine"))
    others = [hs.Polytope.read(ex("basic", f)) for f in
              ("cube_face.ine", "cube_corner.ine", "cube_far.ine", "cube_overlap.ine")]
    st = hs.intersect_many(cube, others)
    assert list(hs.status_names(st)) == ["touching", "touching", "disjoint", "overlap"]
    assert list(hs.intersect_many(others, cube)) == list(st)
    assert len(hs.intersect_many([], [])) == 0


def test_intersect_many_releases_the_gil():
    """While intersect_many runs (one worker thread), another Python thread
    keeps running: the GIL is released during the C call."""
    pairs = random_pairs(200, seed=5)
    As = [a for a, _ in pairs] * 100
    Bs = [b for _, b in pairs] * 100
    counter = [0]
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            counter[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    time.sleep(0.05)
    try:
        start = counter[0]
        t0 = time.perf_counter()
        hs.intersect_many(As, Bs, threads=1)
        elapsed = time.perf_counter() - t0
        during = counter[0] - start
    finally:
        stop.set()
        t.join()
    assert elapsed > 0.02
    # with the GIL held the other thread could only run in the few
    # switch intervals around the call; released, it runs throughout
    assert during > 20000, (during, elapsed)


# ------------------------------------------------------------ errors

def test_errors_carry_file_and_line(tmp_path):
    bad = tmp_path / "bad.ine"
    bad.write_text("H-representation\nbegin\n2 3 rational\n1 0 0\n1 x 0\nend\n")
    with pytest.raises(hs.InputError) as e:
        hs.Polytope.read(bad)
    assert str(e.value).startswith(str(bad) + ":5: ")
    assert e.value.file == str(bad) and e.value.line == 5
    assert e.value.code == hs._lib.HS_ERR_INPUT and isinstance(e.value, ValueError)
    with pytest.raises(hs.FileError) as e:
        hs.Polytope.read(tmp_path / "missing.ine")
    assert isinstance(e.value, OSError) and e.value.code_name == "HS_ERR_IO"
    with pytest.raises(hs.InputError, match="dimension"):
        hs.intersect(hs.Polytope([[1]], [1]), hs.Polytope([[1, 0]], [1]))
    with pytest.raises(hs.ArgumentError):
        hs.intersect(hs.Polytope([[1]], [1]), hs.Polytope([[1]], [1]), engine="simplex")
    with pytest.raises(hs.InputError, match="row"):
        hs.Polytope.from_strings([["1/0"]], ["1"])
    with pytest.raises(hs.ArgumentError):
        hs.Polytope([[1, 2]], [1, 2])
    with pytest.raises(TypeError):
        hs.intersect("a", "b")
    with pytest.raises(hs.InputError):
        hs.Polytope([[np.nan]], [1])
    assert issubclass(hs.CertificateError, hs.InputError)


def test_rejected_certificate():
    cube = hs.Polytope.read(ex("basic", "unit_cube.ine"))
    far = hs.Polytope.read(ex("basic", "cube_far.ine"))
    r = hs.intersect(cube, far)
    assert r.status == "disjoint" and r.verify()
    text = r.text()
    good = hs.Result.from_text(text, 3)
    assert good.verify(cube, far)
    lines = [l for l in text.splitlines() if not l.startswith("multiplier")][:2]
    bad = hs.Result.from_text("\n".join(lines + ["multiplier A 1 1"]) + "\n", 3)
    with pytest.raises(hs.CertificateError):
        bad.verify(cube, far)


def test_lifetimes():
    P = hs.Polytope([[1]], [1])
    Q = hs.Polytope([[-1]], [0])
    r = hs.intersect(P, Q)
    del P, Q                 # the result keeps its polytopes for verify()
    assert r.verify()
    with hs.Polytope([[1]], [1]) as P:
        assert P.rows == 1
    with pytest.raises(hs.ArgumentError, match="closed"):
        P.rows
    with pytest.raises(hs.ArgumentError, match="closed"):
        hs.intersect_many([P], [P])
    out = hs.Result()
    for k in range(3):
        assert hs.intersect(hs.Polytope([[1]], [k]), hs.Polytope([[-1]], [0]), out=out) is out
    assert out.status == "overlap" and out.point is not None


def test_point_str_of_lazy_touching(tmp_path):
    """A touching point certified by the fast engine reads back exact (it
    once came back as the engine's floating-point approximation).  This
    pair is two faces on one plane meeting in a small region: the point is
    the region's, rounded to a coarse power of two (19/8, -1, -15/8), and
    it is a contact point in exact arithmetic."""
    from halfspace._util import take_string
    A, B = random_pairs(400)[36]
    r = hs.intersect(A, B)
    assert r.status == "touching"
    assert all(isinstance(v, Fraction) and v.denominator <= 8 for v in r.point)
    check_answer(r, A, B)
    raw = tuple(Fraction(take_string(hs._lib.hs_result_point_str(r._ptr, j))) for j in range(3))
    assert raw == r.point

"""bench.py -- the cost of the Python binding (bench/python), run by
`make bench` (bench/bench.mk, target python-run):

    PYTHONPATH=build/python /usr/bin/python3 bench/python/bench.py \
        --c-program build/bench/python_c [--pairs 100000] [--pool 256] [--rows 24]
        [--reps 7] [--single 10000] [--seed 1] [--states 100000]
        [--urdf ../shared/data/urdf/franka_panda/panda.urdf]
        [--scene examples/ompl_panda/table_shelf.wrl]

The same queries from Python and from C (bench/python/c_side.c, the same
polytopes read from the same .ine files):

  intersect       one pair per call.  C: hs_intersect with one reused
                  hs_result.  Python: halfspace.intersect(P, Q) as written
                  (a new Result each call: hs_result_new, the engine's
                  scratch allocated at the first query, freed when the
                  Result goes), and with out= (one Result reused, as C
                  does).  Blocks of 1000 calls on the first --single pairs;
                  the median per-call time over every block of --reps runs.
  intersect_many  all --pairs pairs in one call: halfspace.intersect_many
                  (statuses only) against hs_intersect_batch from C, on 1
                  thread and on 2; the median over --reps runs of the time
                  per pair.  CPU time of the process throughout (the
                  machine is shared), except wall time for 2 threads.  Beside it, a Python loop of single intersect
                  calls over the same pairs (once: it is the slow way).

  check_states    --states random configurations of the robot of --urdf
                  (uniform within its limits; the Panda: meshes as hulls, the
                  skip list at rest) among the bodies of --scene, labelled in
                  one call: Robot.check_states(Q, world) against
                  hs_robot_check_states from C (the same rows, written to a
                  file), on 1 thread and on 2; the median over --reps runs of
                  the time per configuration.  Beside it, a Python loop of
                  single calls Robot.collides(q, world) (hs_robot_check) over
                  the same rows (once).  Skipped, with a note, when the URDF
                  is not there.

Polytopes: --pool 3-D polytopes of --rows rows tangent to unit spheres
(normals random, rounded to multiples of 2^-10; centres in [-1.5, 1.5]^3,
multiples of 2^-10; every number an exact double, so the fast engine
answers by itself); pairs drawn at random from the pool.  The answers of
the two sides are compared (counts of disjoint / touching / overlap).

Output: a Markdown table and notes, then lines for scripts:
  RESULT bench=python call=intersect py_us=.. c_us=.. py_reuse_us=.. ratio=.. clock=cpu
  RESULT bench=python call=intersect_many threads=T py_us=.. c_us=.. loop_us=.. ratio=..
         clock=cpu|wall
  RESULT bench=python call=check_states threads=T py_us=.. c_us=.. loop_us=.. ratio=..
         clock=cpu|wall
"""
import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import halfspace as hs


def tangent_polytope(rng, m):
    c = np.array([rng.randint(-1536, 1536) / 1024 for _ in range(3)])
    rows, rhs = [], []
    while len(rows) < m:
        u = np.array([rng.gauss(0, 1) for _ in range(3)])
        u = np.round(u / np.linalg.norm(u) * 1024) / 1024
        if not u.any():
            continue
        rows.append(u)
        rhs.append(float(u @ c) + 1.0)
    return hs.Polytope(np.array(rows), np.array(rhs))


def median_block_us(fn, pairs, reps, block=1000):
    times = []
    for _ in range(reps):
        for s in range(0, len(pairs) - block + 1, block):
            chunk = pairs[s:s + block]
            t0 = time.process_time()
            fn(chunk)
            times.append((time.process_time() - t0) * 1e6 / block)
    return statistics.median(times)


def measure_states(a):
    """check_states from Python and from C, and a loop of single calls;
    None when the URDF is not there."""
    if not os.path.exists(a.urdf):
        return None
    robot = hs.Robot.load(a.urdf)
    world = hs.World.load(a.scene)
    lim = robot.limits
    rng = np.random.default_rng(a.seed)
    Q = lim[:, 0] + (lim[:, 1] - lim[:, 0]) * rng.random((a.states, robot.dof))
    labels = robot.check_states(Q, world, threads=1)
    t0 = time.process_time()
    loop = np.array([robot.collides(q, world) for q in Q])
    loop_us = (time.process_time() - t0) * 1e6 / a.states
    assert np.array_equal(loop, labels != 0)
    counts = [int((labels == c).sum()) for c in range(4)]
    py = {1: [], 2: []}
    c = {1: [], 2: []}
    with tempfile.TemporaryDirectory() as d:
        qfile = os.path.join(d, "q.bin")
        Q.tofile(qfile)
        for rep in range(a.reps):
            for threads in (1, 2):
                out = subprocess.run([a.c_program, "states", a.urdf, a.scene, qfile,
                                      str(a.states), str(threads), "1"],
                                     capture_output=True, text=True, check=True).stdout
                got = {l.split()[0]: [float(x) for x in l.split()[1:]] for l in out.splitlines()}
                assert [int(x) for x in got["labels"]] == counts, (got["labels"], counts)
                c[threads].append(got["c_states_us"][0])
                clock = time.process_time if threads == 1 else time.perf_counter
                t0 = clock()
                st = robot.check_states(Q, world, threads=threads)
                py[threads].append((clock() - t0) * 1e6 / a.states)
                assert np.array_equal(st, labels)
    med = statistics.median
    rows, lines = [], []
    for threads in (1, 2):
        p, cs = med(py[threads]), med(c[threads])
        rows.append((threads, p, cs, loop_us, p / cs))
        lines.append("RESULT bench=python call=check_states threads=%d py_us=%.4g c_us=%.4g "
                     "loop_us=%.4g ratio=%.3f clock=%s" % (threads, p, cs, loop_us, p / cs,
                                                           "cpu" if threads == 1 else "wall"))
    return {"name": robot.name, "dof": robot.dof, "bodies": len(world), "labels": counts,
            "rows": rows, "lines": lines, "loop_us": loop_us}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--c-program", required=True)
    ap.add_argument("--pairs", type=int, default=100000)
    ap.add_argument("--pool", type=int, default=256)
    ap.add_argument("--rows", type=int, default=24)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--single", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--states", type=int, default=100000)
    ap.add_argument("--urdf", default="../shared/data/urdf/franka_panda/panda.urdf")
    ap.add_argument("--scene", default="examples/ompl_panda/table_shelf.wrl")
    a = ap.parse_args()

    rng = random.Random(a.seed)
    pool = [tangent_polytope(rng, a.rows) for _ in range(a.pool)]
    assert all(p.fast_ready for p in pool)
    idx = [(rng.randrange(a.pool), rng.randrange(a.pool)) for _ in range(a.pairs)]
    As = [pool[i] for i, _ in idx]
    Bs = [pool[j] for _, j in idx]
    pairs = list(zip(As, Bs))

    intersect = hs.intersect
    reuse = hs.Result()

    def new_results(chunk):
        for P, Q in chunk:
            intersect(P, Q)

    def reused(chunk):
        for P, Q in chunk:
            intersect(P, Q, out=reuse)

    single = pairs[:a.single]
    new_results(single[:1000])
    t0 = time.process_time()
    loop = [intersect(P, Q).code for P, Q in pairs]
    loop_us = (time.process_time() - t0) * 1e6 / a.pairs
    loop = np.array(loop, dtype=np.int32)

    # Each repetition runs the C program (one run of each measurement) and
    # then the same measurements from Python, so that both sides see the
    # same load on a shared machine.
    py_single, py_reuse, c_single = [], [], []
    py_many = {1: [], 2: []}
    c_many = {1: [], 2: []}
    counts = None
    with tempfile.TemporaryDirectory() as d:
        for i, p in enumerate(pool):
            p.write(os.path.join(d, "p%d.ine" % i))
        with open(os.path.join(d, "pairs.txt"), "w") as f:
            f.write("pool %d pairs %d\n" % (a.pool, a.pairs))
            f.writelines("%d %d\n" % ij for ij in idx)
        for rep in range(a.reps):
            for threads in (1, 2):
                out = subprocess.run([a.c_program, d, str(threads), "1", str(a.single)],
                                     capture_output=True, text=True, check=True).stdout
                c = {l.split()[0]: [float(x) for x in l.split()[1:]] for l in out.splitlines()}
                if threads == 1:
                    c_single.append(c["c_intersect_us"][0])
                    py_single.append(median_block_us(new_results, single, 1))
                    py_reuse.append(median_block_us(reused, single, 1))
                c_many[threads].append(c["c_batch_us"][0])
                clock = time.process_time if threads == 1 else time.perf_counter
                t0 = clock()
                st = hs.intersect_many(As, Bs, threads=threads)
                py_many[threads].append((clock() - t0) * 1e6 / a.pairs)
                assert np.array_equal(st, loop)
                got = [int((st == s).sum()) for s in (hs.Status.DISJOINT, hs.Status.TOUCHING,
                                                      hs.Status.OVERLAP)]
                assert got == [int(x) for x in c["counts"]], (got, c["counts"])
                counts = got
    states = measure_states(a)
    med = statistics.median
    c_counts = counts
    py_s, py_r, c_s = med(py_single), med(py_reuse), med(c_single)
    lines = ["RESULT bench=python call=intersect py_us=%.4g c_us=%.4g py_reuse_us=%.4g "
             "ratio=%.3f clock=cpu" % (py_s, c_s, py_r, py_s / c_s)]
    rows = []
    for threads in (1, 2):
        py, cb = med(py_many[threads]), med(c_many[threads])
        rows.append((threads, py, cb, loop_us, py / cb))
        lines.append("RESULT bench=python call=intersect_many threads=%d py_us=%.4g c_us=%.4g "
                     "loop_us=%.4g ratio=%.3f clock=%s" % (threads, py, cb, loop_us, py / cb,
                                                           "cpu" if threads == 1 else "wall"))
    py_single, py_reuse, c_single = py_s, py_r, c_s

    print("Python %s (%s), numpy %s, cffi API mode; halfspace %s.  %d polytopes of %d rows "
          "(3-D, tangent to unit spheres), %d random pairs of them: %d disjoint, %d touching, "
          "%d overlap (the same from C and from Python).\n"
          % (platform.python_version(), sys.executable, np.__version__, hs.__version__,
             a.pool, a.rows, a.pairs, *map(int, c_counts)))
    print("| call | Python (us per pair) | C (us per pair) | Python / C |")
    print("|---|---|---|---|")
    print("| `intersect(P, Q)`, one pair per call (a new Result each) | %.3g | %.3g | %.2f |"
          % (py_single, c_single, py_single / c_single))
    print("| `intersect(P, Q, out=r)`, one Result reused (as the C loop does) | %.3g | %.3g | "
          "%.2f |" % (py_reuse, c_single, py_reuse / c_single))
    for threads, py, cb, lu, ratio in rows:
        print("| `intersect_many(As, Bs, threads=%d)`, %d pairs (C: hs_intersect_batch) | %.3g "
              "| %.3g | %.2f |" % (threads, a.pairs, py, cb, ratio))
    print("| a Python loop of `intersect(P, Q)` over the same %d pairs | %.3g | | |"
          % (a.pairs, loop_us))
    print()
    if states is None:
        print("`check_states`: not measured, no robot at %s (--urdf).\n" % a.urdf)
    else:
        print("Robot %s (%s: %d coordinates, meshes as hulls, skip list at rest) among the %d "
              "bodies of %s; %d configurations uniform within the limits (seed %d): %d free, "
              "%d self-collision only, %d world only, %d both (the same from C, from "
              "`check_states` and, free or not, from the loop of single calls).\n"
              % (states["name"], a.urdf, states["dof"], states["bodies"], a.scene, a.states,
                 a.seed, *states["labels"]))
        print("| call | Python (us per configuration) | C (us per configuration) | Python / C |")
        print("|---|---|---|---|")
        for threads, py, cs, lu, ratio in states["rows"]:
            print("| `robot.check_states(Q, world, threads=%d)`, %d configurations (C: "
                  "hs_robot_check_states) | %.3g | %.3g | %.2f |"
                  % (threads, a.states, py, cs, ratio))
        print("| a Python loop of `robot.collides(q, world)` over the same %d configurations "
              "(C: hs_robot_check) | %.3g | | |" % (a.states, states["loop_us"]))
        print()
        lines.extend(states["lines"])
    print("Medians over %d repetitions (single calls: the median over blocks of 1000 calls "
          "in each); each repetition runs the C side, then the Python side.  Times are CPU "
          "time of the process (Python's time.process_time, C's CLOCK_PROCESS_CPUTIME_ID), so "
          "that the other jobs sharing the machine's 2 CPUs (load average at the start above) "
          "do not count; the 2-thread lines are wall time (CPU time would add the two "
          "threads) and are the noisiest: they are only as fast as the CPU the other jobs "
          "leave." % a.reps)
    print()
    print("```")
    for l in lines:
        print(l)
    print("```")


if __name__ == "__main__":
    main()

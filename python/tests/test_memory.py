"""test_memory.py -- 10^5 calls through the binding (polytopes made and
freed, intersect with points and certificates read, feasible, batches, world
queries, chain configurations, errors raised) do not make the process
grow: every C object and every string the library hands out is freed."""
import gc
import os
import random

import numpy as np

import halfspace as hs
from conftest import ex


def rss_kb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def rss_growth_kb(calls):
    """calls(k) makes at least k calls and returns how many: 10^4 to warm up
    (caches, pools, arenas), then 10^5 measured.  Returns (calls made, kB
    the resident set grew by over them)."""
    calls(10000)
    gc.collect()
    before = rss_kb()
    n = calls(100000)
    gc.collect()
    grown = rss_kb() - before
    print("RSS %d kB before, grew %d kB over %d calls" % (before, grown, n))
    return n, grown


def test_rss_flat_over_1e5_calls():
    cube = hs.Polytope.read(ex("basic", "unit_cube.ine"))
    corner = hs.Polytope.read(ex("basic", "cube_corner.ine"))
    far = hs.Polytope.read(ex("basic", "cube_far.ine"))
    world = hs.World.load(ex("scenes", "robot-arm.wrl"))
    chain = hs.Chain.load(ex("chains", "panda.chain"))
    scene = hs.World.load(ex("chains", "panda-table.wrl"))
    rng = random.Random(1)
    qs = [[rng.uniform(lo, hi) for lo, hi in chain.limits] for _ in range(64)]
    A = np.array([[1.0, 0], [-1, 0], [0, 1], [0, -1]])

    def calls(count):
        """count calls into the library, of every kind."""
        done = 0
        k = 0
        while done < count:
            k += 1
            r = hs.intersect(cube, corner)
            r.point, r.multipliers, r.certificate      # strings freed with hs_free
            r = hs.intersect(cube, far, engine="exact")
            r.verify()
            hs.feasible(far).point
            P = hs.Polytope(A, [1, 0, k % 7, 0])
            hs.Polytope.from_strings([["1/3"]], ["2/7"]).to_ine()
            hs.intersect_many([cube, far], corner)
            try:
                hs.intersect(cube, P)                  # dimensions differ
            except hs.InputError:
                pass
            world.query(threshold=0.1)
            chain.angles = qs[k % 64]
            chain.self_collision()
            chain.world_collision(scene)
            done += 11
        return done

    n, grown = rss_growth_kb(calls)
    assert n >= 100000
    assert grown < 3 * 1024, "RSS grew by %d kB over %d calls" % (grown, n)

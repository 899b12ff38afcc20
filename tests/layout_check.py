#!/usr/bin/env python3
"""layout_check.py -- the house rules of the source tree, checked on a build.

Usage: python3 tests/layout_check.py BUILD_DIR

  1. floors: include/ -> polytope/ -> solver/ -> src/<area>/ -> src/cli/; no
     #include and no call (undefined symbol of an object, defined by another)
     reaches a floor above the file's own;
  2. no circle of files calling each other, and none between the areas of
     src/ (shape, broadphase, narrow, world, motion, scene, chain, cli);
  3. the shared library exports only hs_ names;
  4. no .c file directly in src/, no source file over 1,000 lines;
  5. no function name (static ones too, as far as the build keeps them)
     defined in two files, except a static function of a header or .inl.
Prints every violation and exits 1 if there is one."""
import collections, glob, os, re, subprocess, sys

build = sys.argv[1] if len(sys.argv) > 1 else 'build'
bad = []

def floor_of(path):
    if path.startswith('include/'): return 0
    if path.startswith('polytope/'): return 1
    if path.startswith('solver/'): return 2
    if path.startswith('src/cli/'): return 4
    if path.startswith('src/'): return 3
    return None

def area_of(path):
    p = path.split('/')
    return '/'.join(p[:2]) if p[0] == 'src' else p[0]

sources = [f for pat in ('include/**/*.h', 'polytope/*.[ch]', 'polytope/*.inl', 'solver/*.[ch]',
                         'solver/*.inl', 'src/**/*.[ch]', 'src/**/*.inl')
           for f in glob.glob(pat, recursive=True)]

# 1a. includes
for f in sources:
    for n, line in enumerate(open(f, errors='replace'), 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if not m: continue
        inc = m.group(1)
        target = inc if inc.split('/')[0] in ('polytope', 'solver', 'src') else 'include/' + inc
        ft, fi = floor_of(f), floor_of(target)
        if ft is not None and fi is not None and fi > ft:
            bad.append('%s:%d: includes %s, a floor above' % (f, n, inc))

# 1b/2. links, from the objects
objs = [o for o in glob.glob(build + '/**/*.o', recursive=True)
        if not re.search(r'/(tests|bench|fuzz|python)/', o)]
def rel(o): return os.path.relpath(o, build)[:-2]
objs = [o for o in objs if os.path.exists(rel(o) + '.c')]  # stale objects of moved files
defs, undef = collections.defaultdict(set), collections.defaultdict(set)
local = collections.defaultdict(set)
for o in objs:
    for line in subprocess.run(['nm', o], capture_output=True, text=True).stdout.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in 'TDBR': defs[p[2]].add(o)
        elif len(p) == 3 and p[1] == 't': local[re.sub(r'\.(part|cold|isra|constprop)\..*$|\.\d+$', '', p[2])].add(o)
        elif len(p) == 2 and p[0] == 'U': undef[o].add(p[1])
graph, why = collections.defaultdict(set), {}
for o, syms in undef.items():
    for s in syms:
        for d in defs.get(s, ()):
            if d != o:
                graph[o].add(d)
                why.setdefault((o, d), s)
for a in objs:
    for b in graph[a]:
        if floor_of(rel(b) + '.c') > floor_of(rel(a) + '.c'):
            bad.append('%s.c calls %s (%s.c), a floor above' % (rel(a), why[(a, b)], rel(b)))
index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(100000)
def strong(v):
    index[v] = low[v] = counter[0]; counter[0] += 1; stack.append(v); on.add(v)
    for w in graph[v]:
        if w not in index:
            strong(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v: break
        comps.append(comp)
for v in objs:
    if v not in index: strong(v)
for comp in comps:
    if len(comp) > 1:
        edges = ['%s -> %s (%s)' % (rel(a), rel(b), why[(a, b)]) for a in comp for b in comp if b in graph[a]]
        bad.append('circle of files: ' + '; '.join(sorted(edges)))
agraph = collections.defaultdict(set)
for a in objs:
    for b in graph[a]:
        if area_of(rel(a)) != area_of(rel(b)): agraph[area_of(rel(a))].add(area_of(rel(b)))
def reaches(x, y, seen):
    for z in agraph[x]:
        if z == y or (z not in seen and (seen.add(z) or reaches(z, y, seen))): return True
    return False
for a in sorted(agraph):
    for b in sorted(agraph[a]):
        if a < b and reaches(b, a, set()):
            bad.append('circle of areas: %s <-> %s' % (a, b))

# 3. exports
so = os.path.join(build, 'libhalfspace.so')
if os.path.exists(so):
    out = subprocess.run(['nm', '-D', '--defined-only', so], capture_output=True, text=True).stdout
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in 'TDBRVW' and not p[2].startswith('hs_'):
            bad.append('%s exports %s' % (so, p[2]))
else:
    bad.append('%s is missing' % so)

# 4. sizes and places
for f in glob.glob('src/*.c'):
    bad.append('%s: a .c file directly in src/' % f)
for f in sources + glob.glob('tests/*.[ch]') + glob.glob('bench/*.c') + glob.glob('bench/*.cpp'):
    n = sum(1 for _ in open(f, errors='replace'))
    if n > 1000:
        bad.append('%s: %d lines (at most 1,000)' % (f, n))

# 5. names defined twice
header_statics = set()
for f in sources:
    if f.endswith('.c'): continue
    for line in open(f, errors='replace'):
        m = re.match(r'^static\b[^(;=]*?\b([a-z_][a-z0-9_]*)\(', line)
        if m: header_statics.add(m.group(1))
for name, where in sorted(local.items()):
    files = {rel(o) for o in where}
    for o in defs.get(name, ()):
        files.add(rel(o))
    if len(files) > 1 and name not in header_statics:
        bad.append('function %s defined in %s' % (name, ', '.join(sorted(files))))

for b in bad:
    print('layout: ' + b)
print('layout: %d file(s) checked, %d problem(s)' % (len(sources), len(bad)))
sys.exit(1 if bad else 0)

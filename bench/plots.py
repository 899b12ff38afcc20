#!/usr/bin/env python3
"""plots.py -- the benchmarks as plots: reads the RESULT lines of
bench/RESULTS.md and renders bench/plots/*.svg with gnuplot (Debian
gnuplot-nox).  Run by `make bench` after the benchmarks and by `make plots`
alone (no benchmark run).

Usage: python3 bench/plots.py [RESULTS.md] [OUTDIR]

Plots (each only when its RESULT lines exist; missing fields and series are
skipped, so older and newer RESULT formats both work):
  pairs-FAMILY.svg  us per query against m, log-log: fast, exact, GLPK, MPR,
                    GJK (lines "bench=pairs family= m= method= mean_us=", or
                    the older "family= m= fast_us= exact_us= ..."); bars for a
                    family timed at one m only (the hull families)
  table1.svg        seed 002's Table 1: average seconds per query, the paper's
                    IBM 486 beside ours (faithful, and the same over GMP)
  world.svg         ms per world step against N: raw, grid, tree, FCL
  chain-WALK.svg    us per move against N: ChainTree, grid, 1-OBBTree, K-OBBTree
  robot.svg         bench/robot as bars (log scale): microseconds per Panda
                    configuration (ours, FCL), per iiwa configuration (URDF,
                    chain file), per Panda motion segment (guaranteed,
                    stepped)
  world-rest.svg    bench/world's resting boxes as bars: ms per step for
                    ours, ours-moved, ours-cold, FCL, and both with contact
                    points, at each N
Prints one line per plot written and one per plot skipped (and why)."""
import math, os, re, subprocess, sys, tempfile

RESULTS = sys.argv[1] if len(sys.argv) > 1 else 'bench/RESULTS.md'
OUT = sys.argv[2] if len(sys.argv) > 2 else 'bench/plots'

# Seed 002, section 4, Table 1: average seconds per query on an IBM 486.
PAPER_486_AVG = {'60x60': 0.01, '80x60': 0.01, '80x80': 0.03, '100x100': 0.09, '250x250': 1.52}
TERMINAL = ('set terminal svg size 760,500 dynamic enhanced font "DejaVu Sans,12" '
            'background rgb "white"\n')
LABELS = {'fast': 'fast (ours)', 'exact': 'exact (ours)', 'glpk': 'GLPK simplex',
          'mpr': 'libccd MPR', 'gjk': 'libccd GJK', 'faithful': 'faithful (the paper\'s routine)',
          'raw': 'raw (ours)', 'grid': 'grid (ours)', 'tree': 'tree (ours)', 'fcl': 'FCL',
          'chaintree': 'ChainTree (ours)', 'obbtree1': '1-OBBTree', 'obbtreek': 'K-OBBTree'}


def read_results(path):
    rows = []
    for line in open(path, errors='replace'):
        if not line.startswith('RESULT '):
            continue
        fields = {}
        for m in re.finditer(r'(\w[\w-]*)=("[^"]*"|\S+)', line[7:]):
            fields[m.group(1)] = m.group(2).strip('"')
        rows.append(fields)
    return rows


def num(v):
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) and x > 0 else None


def gnuplot(script, name):
    os.makedirs(OUT, exist_ok=True)
    out = os.path.join(OUT, name)
    r = subprocess.run(['gnuplot'], input=TERMINAL + 'set output "%s"\n' % out + script,
                       capture_output=True, text=True)
    if r.returncode != 0:
        print('plots: %s: gnuplot failed: %s' % (name, r.stderr.strip()))
        return False
    print('plots: wrote %s' % out)
    return True


def line_plot(name, title, xlabel, ylabel, series, logx=True, logy=True):
    """series: list of (label, [(x, y), ...]); empty series are left out."""
    series = [(l, sorted(p)) for l, p in series if p]
    if not series:
        print('plots: %s skipped (no RESULT lines)' % name)
        return
    tmp = tempfile.mkdtemp(prefix='hs-plots-')
    plots = []
    for i, (label, pts) in enumerate(series):
        dat = os.path.join(tmp, '%d.dat' % i)
        with open(dat, 'w') as f:
            for x, y in pts:
                f.write('%r %r\n' % (x, y))
        plots.append('"%s" using 1:2 with linespoints lw 2 pt %d title "%s"'
                     % (dat, 5 + i, label.replace('"', "'")))
    script = ('set title "%s"\nset xlabel "%s"\nset ylabel "%s"\nset grid\n'
              'set key outside right top\n%s%s'
              'plot %s\n' % (title, xlabel, ylabel, 'set logscale x\n' if logx else '',
                            'set logscale y\n' if logy else '', ', \\\n     '.join(plots)))
    gnuplot(script, name)


def pairs_plots(rows):
    methods = ['fast', 'exact', 'glpk', 'mpr', 'gjk']
    data = {}
    for r in rows:
        fam, m = r.get('family'), num(r.get('m'))
        if not fam or m is None or r.get('bench', 'pairs') != 'pairs':
            continue
        if 'method' in r:  # bench=pairs family= m= method= mean_us=
            meth = r['method']
            y = num(r.get('mean_us')) or num(r.get('us'))
            if meth in methods and y:
                data.setdefault(fam, {}).setdefault(meth, []).append((m, y))
        else:  # family= m= fast_us= exact_us= ...
            for meth in methods:
                y = num(r.get(meth + '_us'))
                if y:
                    data.setdefault(fam, {}).setdefault(meth, []).append((m, y))
    if not data:
        print('plots: pairs-*.svg skipped (no RESULT lines of bench/pairs)')
    for fam in sorted(data):
        sizes = set(m for pts in data[fam].values() for m, _y in pts)
        if len(sizes) == 1:  # one row (the hull families: m is each pair's own): bars
            m = sizes.pop()
            bar_plot('pairs-%s.svg' % fam,
                     'bench/pairs, family %s: time per query' % fam, 'microseconds per query',
                     [('mean m = %g' % m,
                       [(LABELS[k], data[fam][k][0][1]) for k in methods if k in data[fam]])])
            continue
        line_plot('pairs-%s.svg' % fam,
                  'bench/pairs, family %s: time per query' % fam, 'rows per polytope, m',
                  'microseconds per query', [(LABELS[k], data[fam].get(k, [])) for k in methods])


def table1_plot(rows):
    sizes = [s for s in PAPER_486_AVG]
    have = {}
    for r in rows:
        if r.get('bench') == 'table1' and r.get('size') in PAPER_486_AVG:
            y = num(r.get('avg_s'))
            if y:
                have[(r['size'], r.get('engine'))] = y
    if not have:
        print('plots: table1.svg skipped (no RESULT lines of bench/table1)')
        return
    tmp = tempfile.mkdtemp(prefix='hs-plots-')
    dat = os.path.join(tmp, 't.dat')
    with open(dat, 'w') as f:
        for s in sizes:
            vals = [PAPER_486_AVG[s], have.get((s, 'faithful')), have.get((s, 'faithful-exact'), have.get((s, 'exact')))]
            f.write('%s %s\n' % (s, ' '.join('%r' % v if v else 'NaN' for v in vals)))
    script = ('set title "Seed 002, Table 1: average time per query"\n'
              'set ylabel "seconds per query (log scale)"\nset xlabel "rows of A x rows of B"\n'
              'set logscale y\nset grid ytics\nset style data histograms\n'
              'set style histogram clustered gap 1\nset style fill solid 0.8 border -1\n'
              'set boxwidth 0.9\nset key top left\nset yrange [1e-4:*]\n'
              'plot "%s" using 2:xtic(1) title "the paper, IBM 486", '
              '"" using 3 title "faithful (ours, double)", '
              '"" using 4 title "the same over GMP rationals"\n' % dat)
    gnuplot(script, 'table1.svg')


def world_plot(rows):
    series = {}
    for r in rows:
        if r.get('bench') != 'world':
            continue
        n, y, meth = num(r.get('n')), num(r.get('ms_per_step')), r.get('method')
        extra = [k for k in ('scene', 'kind', 'case') if k in r]
        if n and y and meth:
            label = LABELS.get(meth, meth) + ''.join(' (%s)' % r[k] for k in extra)
            series.setdefault(label, []).append((n, y))
    line_plot('world.svg', 'bench/world: N moving convex bodies', 'bodies, N',
              'milliseconds per world step', sorted(series.items()))


def chain_plots(rows):
    methods = ['chaintree', 'grid', 'obbtree1', 'obbtreek']
    walks = {}
    for r in rows:
        if r.get('bench') != 'chain' or 'walk' not in r:
            continue
        n, y, meth = num(r.get('n')), num(r.get('us_per_iter')), r.get('method')
        if n and y and meth in methods:
            walks.setdefault(r['walk'], {}).setdefault(meth, []).append((n, y))
    if not walks:
        print('plots: chain-*.svg skipped (no RESULT lines of bench/chain)')
    for walk in sorted(walks):
        line_plot('chain-%s.svg' % walk, 'bench/chain (seed 003), %s walk: self-collision' % walk,
                  'links, N', 'microseconds per move',
                  [(LABELS[k], walks[walk].get(k, [])) for k in methods])


def bar_plot(name, title, ylabel, groups, logy=True):
    """groups: list of (group label, [(bar label, value), ...]); bars of the
    same label share a colour across groups."""
    groups = [(g, [(b, v) for b, v in bars if v]) for g, bars in groups]
    groups = [(g, bars) for g, bars in groups if bars]
    if not groups:
        print('plots: %s skipped (no RESULT lines)' % name)
        return
    labels = []
    for _, bars in groups:
        for b, _v in bars:
            if b not in labels:
                labels.append(b)
    tmp = tempfile.mkdtemp(prefix='hs-plots-')
    dat = os.path.join(tmp, 'bars.dat')
    with open(dat, 'w') as f:
        for g, bars in groups:
            vals = dict(bars)
            f.write('"%s" %s\n' % (g.replace('"', "'"),
                                   ' '.join(repr(vals[b]) if b in vals else '-' for b in labels)))
    cols = ', \\\n     '.join('"%s" using %d:xtic(1) title "%s"' % (dat, i + 2, b.replace('"', "'"))
                              for i, b in enumerate(labels))
    script = ('set title "%s"\nset ylabel "%s"\nset grid ytics\nset style data histograms\n'
              'set style histogram clustered gap 1\nset style fill solid 0.8 border -1\n'
              'set datafile missing "-"\nset key outside right top\n%splot %s\n'
              % (title, ylabel, 'set logscale y\n' if logy else '', cols))
    gnuplot(script, name)


def robot_plot(rows):
    per = {}
    for r in rows:
        b = r.get('bench')
        if b in ('robot', 'serial', 'motion'):
            y = num(r.get('us_per_state')) or num(r.get('us_per_segment'))
            if y:
                per[(b, r.get('method'))] = y
    if not per:
        print('plots: robot.svg skipped (no RESULT lines of bench/robot)')
        return
    bar_plot('robot.svg', 'bench/robot: URDF robots', 'microseconds',
             [('Panda + 50 boxes, per configuration',
               [('ours', per.get(('robot', 'ours'))), ('FCL', per.get(('robot', 'fcl')))]),
              ('iiwa self-collision, per configuration',
               [('URDF (ours)', per.get(('serial', 'urdf'))),
                ('chain file (ours)', per.get(('serial', 'chain')))]),
              ('Panda motion, per segment',
               [('guaranteed (ours)', per.get(('motion', 'guaranteed'))),
                ('stepped at 1 degree (ours)', per.get(('motion', 'stepped')))])])


def rest_plot(rows):
    by_n = {}
    for r in rows:
        if r.get('bench') == 'world' and r.get('scene') == 'rest' and num(r.get('n')):
            y = num(r.get('ms_per_step'))
            if y:
                by_n.setdefault(int(num(r['n'])), {})[r.get('method')] = y
    if not by_n:
        print('plots: world-rest.svg skipped (no RESULT lines of the resting scene)')
        return
    names = [('ours', 'ours (report reused, at rest)'), ('ours-moved', 'ours, moved each step'),
             ('ours-cold', 'ours, new report each step'), ('fcl', 'FCL'),
             ('ours-contacts', 'ours with contact points'), ('fcl-contacts', 'FCL with contacts')]
    bar_plot('world-rest.svg', 'bench/world: boxes resting on a floor and in stacks',
             'milliseconds per step',
             [('N = %d' % n, [(label, by_n[n].get(m)) for m, label in names])
              for n in sorted(by_n)])


def main():
    if not os.path.exists(RESULTS):
        print('plots: %s is missing' % RESULTS)
        return 1
    rows = read_results(RESULTS)
    pairs_plots(rows)
    table1_plot(rows)
    world_plot(rows)
    chain_plots(rows)
    robot_plot(rows)
    rest_plot(rows)
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""pictures_check.py -- tests that look at the pictures (issue 17).

Usage: python3 tests/pictures_check.py CLI OUTDIR

Draws with the CLI into OUTDIR, then
  * parses every SVG with xmllint and counts what it must contain: the
    polygons (faces) of A, B and the common region by their inks, the
    witness marker, the row labels (cairo writes text as glyphs: a label is
    a group of glyphs in its system's ink, as many glyphs as characters),
    the separating line, the open sides, the hidden edges;
  * reads the PDF's text with pdftotext (the labels as words);
  * decodes the PNGs (zlib, Python's standard library): their size, and
    that they are not blank (many colours, enough ink, the inks expected);
  * walks the seed's recursion of the paper's Example 2 and of a 2-D
    instance: as many frames as the trace has steps (counted from the text
    of `intersect --trace`), every frame an SVG, a self-contained page;
  * loads the page of Example 2 in headless Chromium and steps through it
    (tests/browser_check.py; a named skip when chromium is missing).
The inks are those of src/draw/draw_canvas.c (whole percentages).
Last line: 'pictures: N passed, M failed' (and 'K skipped')."""
import os, re, struct, subprocess, sys, zlib

CLI, OUT = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
EX = os.path.join(os.path.dirname(HERE), 'examples')
os.makedirs(OUT, exist_ok=True)

INK = {
    'A_FILL': 'rgb(20%,45%,85%)', 'A_LINE': 'rgb(10%,30%,70%)',
    'B_FILL': 'rgb(90%,45%,10%)', 'B_LINE': 'rgb(75%,30%,5%)',
    'COMMON': 'rgb(35%,70%,20%)', 'WITNESS': 'rgb(80%,0%,60%)',
    'SEPARATOR': 'rgb(85%,5%,5%)', 'FACE': 'rgb(85%,0%,0%)',
    'CANDIDATE': 'rgb(100%,75%,0%)', 'LIFTED': 'rgb(0%,55%,25%)',
}
passed, failed, skipped = 0, 0, 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print('pictures: FAILED: %s' % what)


def run(*args):
    r = subprocess.run([CLI] + list(args), capture_output=True, text=True)
    if r.returncode != 0:
        print('pictures: %s failed (%d): %s' % (' '.join(args), r.returncode, r.stderr.strip()))
    return r


def xpath_count(svg, expr):
    r = subprocess.run(['xmllint', '--xpath', 'count(%s)' % expr, svg],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError('xmllint on %s: %s' % (svg, r.stderr.strip()))
    return int(float(r.stdout.strip()))


def paths_with(svg, *parts):
    cond = ' and '.join("contains(@style,'%s')" % p for p in parts)
    return xpath_count(svg, "//*[local-name()='path'][%s]" % cond)


def fills(svg, ink, opacity):
    return paths_with(svg, 'fill:%s;fill-opacity:%s;' % (INK[ink], opacity))


def label_groups(svg, ink):
    """Groups of glyphs in an ink: the labels drawn in it; with the glyph count of each."""
    sel = "//*[local-name()='g'][contains(@style,'fill:%s;fill-opacity:1')]" % INK[ink]
    n = xpath_count(svg, sel)
    sizes = [xpath_count(svg, "(%s)[%d]/*[local-name()='use']" % (sel, i + 1)) for i in range(n)]
    return sizes


def witness_markers(svg):
    return paths_with(svg, 'stroke:%s;stroke-opacity:1' % INK['WITNESS'])


def well_formed(svg):
    return subprocess.run(['xmllint', '--noout', svg], capture_output=True).returncode == 0


def pdf_words(pdf):
    r = subprocess.run(['pdftotext', pdf, '-'], capture_output=True, text=True)
    return r.stdout.split()


def png_read(path):
    """(width, height, rows of RGBA tuples) of an 8-bit RGBA or RGB PNG."""
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    pos, idat, w = 8, b'', 0
    while pos < len(data):
        n = struct.unpack('>I', data[pos:pos + 4])[0]
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
            assert depth == 8 and ctype in (2, 6), 'PNG type %d/%d' % (depth, ctype)
            bpp = 4 if ctype == 6 else 3
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    raw, rows, prev = zlib.decompress(idat), [], bytearray(w * bpp)
    stride = w * bpp
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[i:i + bpp]) for i in range(0, stride, bpp)])
        prev = line
    return w, h, rows


def png_stats(path):
    w, h, rows = png_read(path)
    colours, ink, red = set(), 0, 0
    for row in rows[::2]:
        for px in row[::2]:
            colours.add(px[:3])
            if px[:3] != (255, 255, 255):
                ink += 1
            if px[0] > 180 and px[1] < 90 and px[2] < 90:
                red += 1
    total = len(rows[::2]) * len(rows[0][::2])
    return w, h, len(colours), ink / total, red / total


def draw(name, *files, extra=()):
    out = os.path.join(OUT, name)
    r = run('draw', *[os.path.join(EX, f) for f in files], '-o', out, *extra)
    check(r.returncode == 0 and os.path.exists(out), 'draw %s' % name)
    return out


# ---------------------------------------------------------------- 2-D pairs
svg = draw('tri-square.svg', 'draw/triangle.ine', 'draw/square.ine')
check(well_formed(svg), 'tri-square.svg is well-formed XML')
check(fills(svg, 'A_FILL', '0.25') == 1 and fills(svg, 'B_FILL', '0.25') == 1,
      'tri-square: one polygon each for A and B')
check(fills(svg, 'COMMON', '0.55') == 1, 'tri-square: the common region is one polygon')
check(witness_markers(svg) >= 1, 'tri-square: the witness marker')
la, lb = label_groups(svg, 'A_LINE'), label_groups(svg, 'B_LINE')
check(la == [2, 2, 2], 'tri-square: labels A1-A3 on the 3 edges of A (got %s)' % la)
check(lb == [2, 2, 2, 2], 'tri-square: labels B1-B4 on the 4 edges of B (got %s)' % lb)
pdf = draw('tri-square.pdf', 'draw/triangle.ine', 'draw/square.ine')
words = pdf_words(pdf)
check(all(w in words for w in ('A1', 'A2', 'A3', 'B1', 'B2', 'B3', 'B4', 'overlap')),
      'tri-square.pdf: the labels and the answer as text (got %s)' % words[:30])
check('witness' in words, 'tri-square.pdf: the witness label')

svg = draw('tri-corner.svg', 'draw/triangle.ine', 'draw/corner_square.ine')
check(paths_with(svg, 'stroke:%s' % INK['SEPARATOR'], 'stroke-dasharray:9,5') == 1,
      'tri-corner (touching): the separating line, dashed')
check(witness_markers(svg) >= 1, 'tri-corner: the witness marker (the contact point)')
check(fills(svg, 'COMMON', '0.55') == 0, 'tri-corner: no common area (a single point)')

svg = draw('tri-far.svg', 'draw/triangle.ine', 'draw/far_square.ine')
check(paths_with(svg, 'stroke:%s' % INK['SEPARATOR'], 'stroke-dasharray:9,5') == 1,
      'tri-far (disjoint): the separating line')
check(witness_markers(svg) == 0 and fills(svg, 'COMMON', '0.55') == 0,
      'tri-far: no witness, no common region')

svg = draw('tri-wedge.svg', 'draw/triangle.ine', 'draw/wedge.ine')
check(paths_with(svg, 'stroke:%s' % INK['B_LINE'], 'stroke-dasharray:1.5,4') >= 1,
      'tri-wedge: the unbounded wedge has dotted open sides')
check(label_groups(svg, 'B_LINE') == [2, 2], 'tri-wedge: B1, B2 labelled, the redundant B3 not')

pdf = draw('tri-empty.pdf', 'draw/triangle.ine', 'draw/empty.ine')
words = pdf_words(pdf)
check(' '.join(words).count('B is empty') == 1, 'tri-empty: "B is empty" in the picture')
svg = draw('empty.svg', 'draw/empty.ine')
check(fills(svg, 'A_FILL', '0.25') == 0, 'empty: no polygon')
check('the system is empty' in ' '.join(pdf_words(draw('empty.pdf', 'draw/empty.ine'))),
      'empty: "the system is empty" in the picture')

# ---------------------------------------------------------------- 3-D pairs
svg = draw('cube-corner.svg', 'basic/unit_cube.ine', 'basic/cube_corner.ine')
check(fills(svg, 'A_FILL', '0.25') == 6 and fills(svg, 'B_FILL', '0.25') == 6,
      'cube-corner: 6 translucent faces each, from the exact vertices')
check(label_groups(svg, 'A_LINE') == [2] * 6 and label_groups(svg, 'B_LINE') == [2] * 6,
      'cube-corner: a label on each of the 12 faces')
check(paths_with(svg, 'stroke-dasharray:4,3') >= 3, 'cube-corner: hidden edges dashed')
check(witness_markers(svg) >= 1, 'cube-corner: the witness marker at (1, 1, 1)')
check(paths_with(svg, 'stroke:%s' % INK['SEPARATOR'], 'stroke-dasharray:9,5') == 1,
      'cube-corner (touching): the separating plane')
svg = draw('example2.svg', 'paper/example2_A.ine', 'paper/example2_B.ine', extra=('--view', '-40,30'))
check(fills(svg, 'A_FILL', '0.25') == 4 and fills(svg, 'B_FILL', '0.25') == 6,
      'example2: a tetrahedron (4 faces) and a box (6)')
check(fills(svg, 'COMMON', '0.3') >= 4, 'example2: the common region, shaded')

png = draw('cube-corner.png', 'basic/unit_cube.ine', 'basic/cube_corner.ine')
w, h, colours, ink, red = png_stats(png)
check((w, h) == (800, 660), 'cube-corner.png is 800 x 660 (got %d x %d)' % (w, h))
check(colours > 50 and ink > 0.08, 'cube-corner.png is not blank (%d colours, %.0f%% ink)' %
      (colours, 100 * ink))

# ---------------------------------------------------------------- scenes
for name, args, want_red in (
        ('arm.png', ['world', '--threshold=0', os.path.join(EX, 'scenes/robot-arm-posed.wrl')], 1),
        ('path.png', ['path', os.path.join(EX, 'palletizing/pallet.wrl'), '--body', 'gripped',
                      '--line', '39 61 19.5'], 0),
        ('chain.png', ['chain', '--angles', '0 1.0 0 -0.5 0 0 0', '--scene',
                       os.path.join(EX, 'chains/panda-table.wrl'),
                       os.path.join(EX, 'chains/panda.chain')], 1)):
    out = os.path.join(OUT, name)
    r = run(*args, '--draw', out)
    check(r.returncode == 0 and os.path.exists(out), '%s --draw' % args[0])
    if os.path.exists(out):
        w, h, colours, ink, red = png_stats(out)
        check((w, h) == (900, 680) and colours > 50 and ink > 0.1,
              '%s: 900 x 680, not blank (%d x %d, %d colours, %.0f%% ink)' %
              (name, w, h, colours, 100 * ink))
        if want_red:
            check(red > 0.002, '%s: pieces in collision are red (%.2f%% red)' % (name, 100 * red))
# a URDF robot (the data set's Panda) against the table and shelf: a
# configuration reaching into the shelf (red links), a free one (no red),
# and a blocked motion drawn at its blocked configuration
PANDA = os.path.join(os.path.dirname(os.path.dirname(HERE)), 'shared', 'data', 'urdf',
                     'franka_panda', 'panda.urdf')
SHELF = os.path.join(EX, 'ompl_panda', 'table_shelf.wrl')
if not os.path.exists(PANDA):
    print('pictures: skipped (data missing): robot --draw needs %s' % PANDA)
    skipped += 1
else:
    for name, args, want_red in (
            ('robot-hit.png', ['--q', '0 0.9 0 -1.2 0 2.4 0.8 0.02'], 1),
            ('robot-free.png', ['--q', '0 -0.5 0 -2.5 0 2.0 0.8 0.02'], 0),
            ('robot-motion.png', ['--motion', '0 -0.5 0 -2.5 0 2.0 0.8 0.02',
                                  '0 0.9 0 -1.2 0 2.4 0.8 0.02'], None)):
        out = os.path.join(OUT, name)
        r = run('robot', PANDA, '--scene', SHELF, *args, '--draw', out)
        check(r.returncode == 0 and os.path.exists(out), 'robot --draw (%s)' % name)
        if os.path.exists(out):
            w, h, colours, ink, red = png_stats(out)
            check((w, h) == (900, 680) and colours > 50 and ink > 0.1,
                  '%s: 900 x 680, not blank (%d colours, %.0f%% ink)' % (name, colours, 100 * ink))
            if want_red is not None:
                check((red > 0.002) == bool(want_red), '%s: links in collision red: %s '
                      '(%.2f%% red)' % (name, 'yes' if want_red else 'none', 100 * red))
            else:  # (the blocked hand is behind the shelf from this camera)
                check(r.stdout.startswith('collision at fraction'),
                      '%s: the motion is blocked (%s)' % (name, r.stdout.split('\n')[0]))
    rsvg = os.path.join(OUT, 'robot.svg')
    run('robot', PANDA, '--scene', SHELF, '--q', '0 0.9 0 -1.2 0 2.4 0.8 0.02', '--draw', rsvg)
    check(well_formed(rsvg) and paths_with(rsvg, 'fill:rgb(') > 100,
          'robot --draw SVG: the faces of the links and the scene')
svg = os.path.join(OUT, 'arm.svg')
run('world', os.path.join(EX, 'scenes/robot-arm.wrl'), '--draw', svg, '--view', '20,30')
check(well_formed(svg) and paths_with(svg, 'fill:rgb(') > 100, 'world --draw SVG: the faces')


# ---------------------------------------------------------------- the walk
def trace_steps(text):
    """Frames of the seed's walk, counted from the text of --trace: the
    lines of qiujiao's level (not inside a vector location, whose block
    starts at an 'xianliang(' line and holds the lines indented at least as
    deep) that start a step."""
    steps, xi = 0, None
    for raw in text.splitlines():
        if not raw.startswith('#'):
            continue
        line = raw[2:]
        ind = len(line) - len(line.lstrip(' '))
        body = line.strip()
        if xi is not None and ind >= xi:
            continue
        xi = None
        if body.startswith('xianliang('):
            xi = ind
            continue
        if re.match(r'(qiujiao depth|replay: s =|Step 3: s =|Step 5: |Step 6: |Step 7: |'
                    r'lifted point|Step 1: only constant rows)', body) or body == 'FALSE' \
                or ' becomes an equality' in body:
            steps += 1
    return steps


def walk(name, a, b, extra=()):
    out = os.path.join(OUT, name)
    r = run('draw', '--trace', *extra, os.path.join(EX, a), os.path.join(EX, b), '-o', out)
    check(r.returncode == 0, 'draw --trace %s' % name)
    t = run('intersect', '--engine=faithful', '--trace',
            *[e for e in extra if e.startswith('--replay')], os.path.join(EX, a), os.path.join(EX, b))
    steps = trace_steps(t.stdout)
    page = os.path.join(out, 'index.html')
    html = open(page).read() if os.path.exists(page) else ''
    frames = html.count('<section class="frame"')
    check(frames == steps and steps > 0, '%s: %d frames for the %d steps of the trace' %
          (name, frames, steps))
    svgs = sorted(f for f in os.listdir(out) if f.endswith('.svg')) if os.path.isdir(out) else []
    check(len(svgs) == steps and all(well_formed(os.path.join(out, f)) for f in svgs),
          '%s: one well-formed SVG per frame' % name)
    check(html.count('<svg') == steps and '<script src' not in html and '<link' not in html
          and not re.search(r'(src|href)="(https?:)?//', html),
          '%s: the page is self-contained (inline SVG, no external file)' % name)
    return page, steps


page, steps = walk('example2', 'paper/example2_A.ine', 'paper/example2_B.ine',
                   ('--replay-s=0,0,-2', '--replay-t=-0.5,0.5,0.5'))
html = open(page).read() if os.path.exists(page) else ''
check('A row 4 becomes an equality: -x + y + z = 4; eliminate z' in html,
      'example2: the trace lines beside the frames')
check('reduced A = {x &lt;= 0, -y &lt;= 0, -x + y &lt;= 2}' in html,
      "example2: the paper's system (7) in the face frame")
face = os.path.join(OUT, 'example2', 'frame-005.svg')
if os.path.exists(face):
    check(paths_with(face, 'stroke:%s' % INK['FACE']) >= 1, 'example2 frame 5: the face A4 marked')
    check(fills(face, 'A_FILL', '0.25') >= 3 + 1, 'example2 frame 5: the reduced A beside the 3-D A')
walk('student-2d', 'draw/triangle.ine', 'draw/far_square.ine')
walk('student-2d-overlap', 'draw/triangle.ine', 'draw/square.ine')
fast = os.path.join(OUT, 'fast')
r = run('draw', '--trace', '--engine=fast', os.path.join(EX, 'draw/triangle.ine'),
        os.path.join(EX, 'draw/far_square.ine'), '-o', fast)
t = run('intersect', '--trace', os.path.join(EX, 'draw/triangle.ine'),
        os.path.join(EX, 'draw/far_square.ine'))
nlines = sum(1 for l in t.stdout.splitlines() if l.startswith('# '))
fhtml = open(os.path.join(fast, 'index.html')).read() if r.returncode == 0 else ''
check(r.returncode == 0 and fhtml.count('<section class="frame"') == nlines,
      'fast engine: one frame per trace line (%d)' % nlines)

# ---------------------------------------------------------------- the browser
if steps:
    b = subprocess.run([sys.executable, os.path.join(HERE, 'browser_check.py'), page, str(steps),
                        os.path.join(OUT, 'example2-page.png')], capture_output=True, text=True)
    print(b.stdout.strip())
    if 'skipped' in b.stdout:
        skipped += 1
    else:
        check(b.returncode == 0, 'the page of Example 2 in headless Chromium')

print('pictures: %d passed, %d failed%s' % (passed, failed,
                                              ', %d skipped' % skipped if skipped else ''))
sys.exit(1 if failed else 0)

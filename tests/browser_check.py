#!/usr/bin/env python3
"""browser_check.py -- load a step-through page (halfspace draw --trace) in
headless Chromium and press "next" through every frame.

Usage: python3 tests/browser_check.py PAGE.html EXPECTED_FRAMES SCREENSHOT.png

Chromium (Debian's chromium) runs headless with a fresh profile and is driven
over the DevTools protocol on a loopback port, by the small WebSocket client
below (Python's standard library only).  Asserts: the page holds
EXPECTED_FRAMES frames; the first is shown; each press of the next button
(alternately a mouse click on it and the right arrow key) shows the next one,
up to the last; the left arrow goes back one; the console shows no error and
no exception was thrown.  Saves a screenshot of the last frame.
Prints 'browser: skipped (no chromium)' and exits 0 when chromium is missing
(a named skip; make check prints it); exits 1 on any failure."""
import base64, json, os, shutil, socket, struct, subprocess, sys, tempfile, time

FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync',
         '--remote-debugging-port=0', '--remote-debugging-address=127.0.0.1',
         '--window-size=1600,1000']


class WebSocket:
    """A WebSocket client for one connection to 127.0.0.1 (text frames)."""

    def __init__(self, port, path):
        self.sock = socket.create_connection(('127.0.0.1', port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        req = ('GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n'
               'Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n'
               % (path, port, key))
        self.sock.sendall(req.encode())
        head = b''
        while b'\r\n\r\n' not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise RuntimeError('websocket: connection closed during the handshake')
            head += chunk
        if b' 101 ' not in head.split(b'\r\n')[0]:
            raise RuntimeError('websocket: handshake refused: %r' % head[:80])

    def send(self, text):
        data = text.encode()
        mask = os.urandom(4)
        n = len(data)
        if n < 126:
            hdr = struct.pack('!BB', 0x81, 0x80 | n)
        elif n < 65536:
            hdr = struct.pack('!BBH', 0x81, 0x80 | 126, n)
        else:
            hdr = struct.pack('!BBQ', 0x81, 0x80 | 127, n)
        self.sock.sendall(hdr + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _exact(self, n):
        buf = b''
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise RuntimeError('websocket: connection closed')
            buf += chunk
        return buf

    def recv(self):
        message = b''
        while True:
            b0, b1 = self._exact(2)
            n = b1 & 0x7f
            if n == 126:
                n = struct.unpack('!H', self._exact(2))[0]
            elif n == 127:
                n = struct.unpack('!Q', self._exact(8))[0]
            payload = self._exact(n)
            if b0 & 0x0f == 0x8:
                raise RuntimeError('websocket: closed by the browser')
            if b0 & 0x0f in (0x9, 0xa):
                continue
            message += payload
            if b0 & 0x80:
                return message.decode()


class Browser:
    def __init__(self, exe):
        self.profile = tempfile.mkdtemp(prefix='hs-chromium-')
        self.proc = subprocess.Popen([exe] + FLAGS + ['--user-data-dir=' + self.profile,
                                                      'about:blank'],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, 'DevToolsActivePort')
        for _ in range(300):
            if os.path.exists(port_file):
                lines = open(port_file).read().split('\n')
                if len(lines) >= 2 and lines[1]:
                    break
            time.sleep(0.1)
        else:
            self.close()
            raise RuntimeError('chromium did not open its DevTools port')
        self.ws = WebSocket(int(lines[0]), lines[1])
        self.next_id = 0
        self.events = []
        self.session = None

    def call(self, method, params=None, session=True):
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session and self.session:
            msg['sessionId'] = self.session
        self.ws.send(json.dumps(msg))
        while True:
            reply = json.loads(self.ws.recv())
            if reply.get('id') == self.next_id:
                if 'error' in reply:
                    raise RuntimeError('%s: %s' % (method, reply['error']))
                return reply.get('result', {})
            self.events.append(reply)

    def wait_event(self, name, seconds=20):
        end = time.time() + seconds
        while time.time() < end:
            for i, e in enumerate(self.events):
                if e.get('method') == name:
                    return self.events.pop(i)
            self.events.append(json.loads(self.ws.recv()))
        raise RuntimeError('no %s event' % name)

    def eval(self, expr):
        r = self.call('Runtime.evaluate', {'expression': expr, 'returnByValue': True})
        if 'exceptionDetails' in r:
            raise RuntimeError('page script: %s' % r['exceptionDetails'])
        return r['result'].get('value')

    def close(self):
        try:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def errors_in(events):
    bad = []
    for e in events:
        m, p = e.get('method'), e.get('params', {})
        if m == 'Runtime.exceptionThrown':
            bad.append('exception: %s' % p.get('exceptionDetails', {}).get('text'))
        elif m == 'Runtime.consoleAPICalled' and p.get('type') in ('error', 'assert'):
            bad.append('console.%s: %s' % (p.get('type'), p.get('args')))
        elif m == 'Log.entryAdded' and p.get('entry', {}).get('level') == 'error':
            bad.append('log: %s' % p['entry'].get('text'))
    return bad


def main():
    page, expected, shot = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    exe = shutil.which('chromium') or shutil.which('chromium-browser')
    if not exe:
        print('browser: skipped (no chromium)')
        return 0
    b = Browser(exe)
    try:
        target = b.call('Target.createTarget', {'url': 'about:blank'}, session=False)
        b.session = b.call('Target.attachToTarget', {'targetId': target['targetId'],
                                                     'flatten': True}, session=False)['sessionId']
        for domain in ('Page', 'Runtime', 'Log'):
            b.call(domain + '.enable')
        b.call('Page.navigate', {'url': 'file://' + os.path.abspath(page)})
        b.wait_event('Page.loadEventFired')
        frames = b.eval("document.querySelectorAll('.frame').length")
        assert frames == expected, 'the page has %s frames, the trace %d steps' % (frames, expected)
        assert int(b.eval("document.body.dataset.frames")) == expected

        def shown():
            vis = b.eval("Array.from(document.querySelectorAll('.frame'))"
                         ".map(function(f, i){ return f.hidden ? -1 : i + 1; })"
                         ".filter(function(i){ return i > 0; })")
            assert len(vis) == 1, 'frames shown at once: %s' % vis
            assert b.eval("document.getElementById('pos').textContent") == \
                '%d / %d' % (vis[0], expected)
            svg = b.eval("document.querySelectorAll('.frame')[%d].querySelector('svg')"
                         ".getBoundingClientRect().width" % (vis[0] - 1))
            assert svg > 100, 'frame %d: its picture is %s px wide' % (vis[0], svg)
            return vis[0]

        assert shown() == 1
        for k in range(2, expected + 1):
            if k % 2:
                for kind in ('keyDown', 'keyUp'):
                    b.call('Input.dispatchKeyEvent', {'type': kind, 'key': 'ArrowRight',
                                                      'code': 'ArrowRight',
                                                      'windowsVirtualKeyCode': 39})
            else:
                r = b.eval("(function(){ var r = document.getElementById('next')"
                           ".getBoundingClientRect(); return [r.x + r.width / 2,"
                           " r.y + r.height / 2]; })()")
                for kind in ('mousePressed', 'mouseReleased'):
                    b.call('Input.dispatchMouseEvent', {'type': kind, 'x': r[0], 'y': r[1],
                                                        'button': 'left', 'clickCount': 1})
            assert shown() == k, 'after %d presses of next: frame %d' % (k - 1, shown())
        assert b.eval("document.getElementById('next').disabled") is True
        shot_png = base64.b64decode(b.call('Page.captureScreenshot', {'format': 'png'})['data'])
        with open(shot, 'wb') as f:
            f.write(shot_png)
        for kind in ('keyDown', 'keyUp'):
            b.call('Input.dispatchKeyEvent', {'type': kind, 'key': 'ArrowLeft',
                                              'code': 'ArrowLeft', 'windowsVirtualKeyCode': 37})
        assert shown() == max(1, expected - 1)
        b.eval("1")  # collect the events sent so far
        bad = errors_in(b.events)
        assert not bad, 'console errors: %s' % bad
        print('browser: %s: %d frames stepped through with next (clicks and the arrow key), '
              'no console error; screenshot %s (%d bytes)' % (page, expected, shot, len(shot_png)))
        return 0
    except (AssertionError, RuntimeError) as e:
        print('browser: FAILED: %s' % e)
        return 1
    finally:
        b.close()


if __name__ == '__main__':
    sys.exit(main())

"""A made-up web of many sites on loopback, for crawling tests and benchmarks.

One threaded HTTP server on 127.0.0.1 answers for every site by its Host
header: site N of kind K is http://NNN-K.localhost:PORT/ (Chromium resolves
every *.localhost name to loopback itself, so no resolver is involved and
every site is an origin, and a site, of its own). What a site serves follows
from its kind and number alone, so the same web is served on every run:

- ok: a page that does some work (a few hundred elements, a stylesheet, an
  SVG image, a fetch, script tasks of 5 to 40 ms set by the site's number,
  half a second of requestAnimationFrame) and is done within two seconds;
- slow: the same page, answered after SLOW_S seconds;
- notfound: HTTP 404;
- hang: the request is read and never answered;
- redirect: 302 to the site's landing host (NNN-landing.localhost), which
  serves the ok page as any host of an unknown kind does;
- crash: a page whose renderer runs out of memory and dies (see CRASH_PAGE);
- endless: a page whose body keeps arriving, a line every quarter second,
  and never ends, so its load never finishes;
- refused: a URL on port 1 of loopback, where nothing listens (connection
  refused); not served by this server at all.
"""
import http.server
import os
import random
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "recorder"))
from siteserver import BackgroundServer  # noqa: E402

KINDS = ("ok", "slow", "notfound", "hang", "redirect", "crash", "endless", "refused")
SLOW_S = 1.0
ENDLESS_TICK_S = 0.25
REFUSED_PORT = 1
# Per hundred sites of a generated web: mostly pages that load, a few of every failure.
MIX = {"ok": 86, "slow": 3, "notfound": 2, "hang": 2, "redirect": 3, "crash": 1, "endless": 2,
       "refused": 1}
_HOST_RE = re.compile(r"(\d{3,})-([a-z]+)\.localhost")

# Work a little, as a page does: DOM, style, an image, a fetch, timer tasks, frames.
OK_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>loopweb site %(n)d</title>
<link rel="stylesheet" href="/style.css"></head>
<body><h1>Site %(n)d</h1><img src="/logo.svg" width="120" height="40" alt="logo">
<ul id="list"></ul><div id="box"></div>
<script>
const tasks = %(tasks)s;
const list = document.getElementById('list');
for (let i = 0; i < %(items)d; i++) {
  const li = document.createElement('li');
  li.textContent = 'item ' + i;
  list.appendChild(li);
}
function busy(ms) { const end = performance.now() + ms; while (performance.now() < end) {} }
tasks.forEach((ms, i) => setTimeout(() => busy(ms), 50 + 120 * i));
fetch('/data.json').then(r => r.json()).then(d => {
  document.getElementById('box').textContent = d.site;
});
const box = document.getElementById('box');
const start = performance.now();
function frame(now) {
  box.style.transform = 'translateX(' + ((now - start) / 5 %% 200) + 'px)';
  if (now - start < 500) requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
</script></body></html>
"""
STYLE = "body { font: 14px sans-serif; } li:nth-child(odd) { color: #345; } " \
        "#box { width: 40px; height: 40px; background: #c83; }\n"
LOGO = ('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40">'
        '<rect width="120" height="40" fill="#246"/></svg>\n')
# The renderer runs out of memory: V8 ends a renderer whose heap reaches its
# limit with a fatal OOM ("V8 javascript OOM (Reached heap limit)"), which
# takes the renderer process down while the browser lives on. Arrays of
# doubles hold no pointers, so the garbage collector has nothing to trace
# and the heap grows as fast as memory is written. Chrome's own limit is a
# few GB, reached after many seconds; crawls of this web pass
# --js-flags=--max-old-space-size=128 (CRASH_FLAG) so it comes within a
# second, at 128 MB.
CRASH_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>crash</title></head><body>
<p>This page's renderer runs out of memory.</p>
<script>
const kept = [];
setTimeout(() => { for (;;) kept.push(new Array(1 << 20).fill(kept.length + 0.5)); }, 100);
</script></body></html>
"""
CRASH_FLAG = "--js-flags=--max-old-space-size=128"


def page(n):
    """The ok page of site N."""
    rng = random.Random(n)
    tasks = [rng.randint(5, 40) for _ in range(rng.randint(2, 6))]
    return OK_PAGE % {"n": n, "tasks": tasks, "items": rng.randint(100, 400)}


def generate(count, seed=1):
    """COUNT (number, kind) pairs shuffled by SEED: every failure kind in MIX's
    proportion but at least once, the rest ok."""
    kinds = []
    for kind, per_hundred in MIX.items():
        if kind != "ok":
            kinds += [kind] * max(1, round(count * per_hundred / 100))
    kinds = kinds[:count] + ["ok"] * (count - len(kinds))
    random.Random(seed).shuffle(kinds)
    return list(enumerate(kinds, 1))


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def _send(self, status, ctype, body, extra=()):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        host = (self.headers.get("Host") or "").split(":")[0]
        m = _HOST_RE.fullmatch(host)
        if not m:
            return self._send(404, "text/plain", "no loopweb site is called %r\n" % host)
        n, kind = int(m.group(1)), m.group(2)
        self.server.hits.append((host, self.path))
        if kind == "hang":
            self.server.stopping.wait()
            self.close_connection = True
            return None
        if kind == "notfound":
            return self._send(404, "text/html", "<!doctype html><p>Not found</p>\n")
        if kind == "redirect":
            port = self.server.server_address[1]
            return self._send(302, "text/html", "", [
                ("Location", "http://%03d-landing.localhost:%d/" % (n, port))])
        if kind == "slow" and self.path == "/":
            time.sleep(SLOW_S)
        if kind == "endless":
            return self._endless()
        if kind == "crash":
            return self._send(200, "text/html", CRASH_PAGE)
        return self._static(n)

    def _static(self, n):
        if self.path == "/style.css":
            return self._send(200, "text/css", STYLE)
        if self.path == "/logo.svg":
            return self._send(200, "image/svg+xml", LOGO)
        if self.path == "/data.json":
            return self._send(200, "application/json", '{"site": %d}\n' % n)
        if self.path == "/":
            return self._send(200, "text/html", page(n))
        return self._send(404, "text/plain", "not here\n")

    def _endless(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        tick = 0
        while not self.server.stopping.is_set():
            line = ("<p>line %d</p>\n" % tick if tick else "<!doctype html><body>\n").encode()
            try:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
                self.wfile.flush()
            except OSError:
                break  # the browser went away
            tick += 1
            self.server.stopping.wait(ENDLESS_TICK_S)
        self.close_connection = True


class LoopWeb(BackgroundServer):
    """The web of SITES ((number, kind) pairs) served on 127.0.0.1:PORT (0: a free one).

    A context manager; `url(n, kind)` and `write_list(path)` are valid while it runs.
    """

    def __init__(self, sites, port=0):
        super().__init__(_Handler, port)
        self.sites = list(sites)
        self._httpd.hits = []

    @property
    def hits(self):
        """(host, path) of every request answered or held, in arrival order."""
        return list(self._httpd.hits)

    def url(self, n, kind):
        port = REFUSED_PORT if kind == "refused" else self.port
        return "http://%03d-%s.localhost:%d/" % (n, kind, port)

    def write_list(self, path):
        with open(path, "w", encoding="utf-8") as f:
            f.write("# loopweb: %d sites on 127.0.0.1:%d\n" % (len(self.sites), self.port))
            for n, kind in self.sites:
                f.write(self.url(n, kind) + "\n")

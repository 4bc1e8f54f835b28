"""Serve the fixture sites on 127.0.0.1, including the two ways a page fails.

Everything under the sites folder is served as static files, with two rules:
- no directory listings: a folder without index.html answers 404, which is
  how the root-404 fixture fails;
- a request for anything inside a folder that holds a file named HANG is
  read and then never answered, until the server stops. The hung-page
  fixture hangs this way, and the aborted-fetch page aims its fetch at such
  a folder so that the abort happens while the request is still open.
"""
import http.server
import os
import threading

HANG_MARKER = "HANG"


class _Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as real servers do
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
        ".json": "application/json", ".svg": "image/svg+xml", ".webp": "image/webp",
        ".ttf": "font/ttf", ".woff2": "font/woff2", ".html": "text/html",
    }

    def _hangs(self, fs_path):
        root = os.path.realpath(self.directory)
        folder = fs_path if os.path.isdir(fs_path) else os.path.dirname(fs_path)
        folder = os.path.realpath(folder)
        while folder.startswith(root):
            if os.path.isfile(os.path.join(folder, HANG_MARKER)):
                return True
            if folder == root:
                break
            folder = os.path.dirname(folder)
        return False

    def send_head(self):
        if self._hangs(self.translate_path(self.path)):
            self.server.stopping.wait()
            self.close_connection = True
            return None
        return super().send_head()

    def list_directory(self, path):
        self.send_error(404, "No index.html here")
        return None

    def log_message(self, fmt, *args):
        if self.server.log is not None:
            self.server.log.write("%s\n" % (fmt % args))
            self.server.log.flush()


class BackgroundServer:
    """A threaded HTTP server on 127.0.0.1 (PORT, 0 for a free one), served
    from a thread while used as a context manager. Its `stopping` event,
    set on the way out, releases the requests a handler holds open, so the
    server stops at once whatever hangs."""

    def __init__(self, handler, port=0):
        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
        self._httpd.daemon_threads = True
        self._httpd.stopping = threading.Event()
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def port(self):
        return self._httpd.server_address[1]

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._httpd.stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()


class SiteServer(BackgroundServer):
    """The sites folder on 127.0.0.1 and a free port.

    Use as a context manager; `base_url` is valid while it is open. `log`, if
    given, is a text file that receives one line per request.
    """

    def __init__(self, sites_dir, log=None):
        super().__init__(lambda *a, **kw: _Handler(*a, directory=sites_dir, **kw))
        self._httpd.log = log

    @property
    def base_url(self):
        return "http://127.0.0.1:%d/" % self.port

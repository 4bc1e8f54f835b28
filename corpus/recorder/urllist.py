"""Read a list of URLs to crawl and give every URL its site name.

The list is one URL a line, optionally followed by a tab and the site's name;
blank lines and lines starting with '#' are skipped. A line without a scheme
("example.com") is taken as https://example.com/, as lists of popular sites
hold bare host names.

A site's name is its folder in the crawl and its `site` in the manifest, so
it must be a safe folder name, unique (also on case-insensitive file
systems), and the same on every run of the same list. A derived name depends
on its URL alone: the host, the port when it is not the scheme's, then the
path and query when there is more than "/". When two URLs of one list would
get the same name, each of them gets the first eight hex digits of its URL's
SHA-1 appended, which no line order or later edit of other lines changes.
"""
import hashlib
import re
import urllib.parse

MAX_NAME = 100
_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
# tracecensus reads these names in a crawl folder as something else than a site.
_RESERVED = ("manifest.tsv", "manifest.json")
_DEFAULT_PORTS = {"http": 80, "https": 443}
_BARE_HOST_RE = re.compile(r"[A-Za-z0-9.-]+(:[0-9]+)?([/?].*)?")


class ListError(ValueError):
    """A line of the list that cannot be recorded; the message names FILE:LINE."""


class Site:
    """One line of the list: its line number, URL and site name."""

    def __init__(self, line, url, name, given):
        self.line, self.url, self.name, self.given = line, url, name, given

    def __repr__(self):
        return "Site(%d, %r, %r)" % (self.line, self.url, self.name)


def read(path):
    """The sites of the list file PATH, and warnings, as ([Site], [str])."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            text = f.read()
    except UnicodeDecodeError as e:
        raise ListError("%s: not UTF-8 text (byte %d)" % (path, e.start)) from None
    except OSError as e:
        raise ListError("%s: cannot be read: %s" % (path, e.strerror)) from None
    return parse(text.splitlines(), path)


def parse(lines, path):
    """([Site], warnings) from the lines of a list; raises ListError."""
    entries, warnings, seen = [], [], {}
    for number, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        fields = raw.strip(" \r\n").split("\t")
        if len(fields) > 2:
            raise ListError("%s:%d: more than one tab; a line is URL or URL<TAB>NAME" % (
                path, number))
        url = _url(fields[0].strip(), path, number)
        name = fields[1].strip() if len(fields) == 2 else ""
        if name:
            _check_name(name, path, number)
        if not name and url in seen:
            warnings.append("%s:%d: %s is already on line %d; it is recorded once" % (
                path, number, url, seen[url]))
            continue
        seen.setdefault(url, number)
        entries.append(Site(number, url, name, bool(name)))
    if not entries:
        raise ListError("%s: no URLs in the list" % path)
    _assign_names(entries, path)
    return entries, warnings


def _url(text, path, number):
    if not text:
        raise ListError("%s:%d: a name without a URL" % (path, number))
    if any(c.isspace() for c in text):
        raise ListError("%s:%d: a URL holds no spaces: %r" % (path, number, text))
    if "://" not in text:
        if not _BARE_HOST_RE.fullmatch(text):
            raise ListError("%s:%d: not a URL: %r" % (path, number, text))
        text = "https://" + text
    parts = urllib.parse.urlsplit(text)
    if parts.scheme.lower() not in _DEFAULT_PORTS:
        raise ListError("%s:%d: only http and https URLs can be recorded: %r" % (
            path, number, text))
    try:
        parts.port
    except ValueError:
        raise ListError("%s:%d: bad port in %r" % (path, number, text)) from None
    if not parts.hostname:
        raise ListError("%s:%d: no host in %r" % (path, number, text))
    if not parts.path:
        text = urllib.parse.urlunsplit(parts._replace(path="/"))
    return text


def _check_name(name, path, number):
    if (len(name) > MAX_NAME or not _NAME_RE.fullmatch(name) or name.startswith("README")
            or name in _RESERVED):
        raise ListError(
            "%s:%d: site name %r cannot be a folder of the crawl: use at most %d letters, "
            "digits, '.', '_' and '-', starting with a letter or digit (not README..., "
            "manifest.tsv or manifest.json)" % (path, number, name, MAX_NAME))


def _slug(text):
    """TEXT in the characters a site name may hold, lower case, runs of '_' folded."""
    text = re.sub(r"[^a-z0-9.-]+", "_", text.lower())
    return text.strip("._-")


def _host(parts):
    host = parts.hostname
    try:
        host = host.encode("idna").decode("ascii")
    except UnicodeError:
        pass  # _slug replaces what IDNA could not spell
    if ":" in host:
        host = "ipv6_" + host
    return _slug(host)


def url_hash(url):
    return hashlib.sha1(url.encode("utf-8")).hexdigest()[:8]


def derive_name(url):
    """The name URL gets when no other URL of its list would get it too."""
    parts = urllib.parse.urlsplit(url)
    name = _host(parts) or "site"
    port = parts.port
    if port is not None and port != _DEFAULT_PORTS[parts.scheme.lower()]:
        name += "_%d" % port
    rest = parts.path.strip("/")
    if parts.query:
        rest += "?" + parts.query
    if _slug(rest):
        name += "_" + _slug(rest)
    if not name[0].isalnum():
        name = "site_" + name
    if len(name) > MAX_NAME:
        name = name[:MAX_NAME - 9].rstrip("._-") + "-" + url_hash(url)
    return name


def _assign_names(entries, path):
    given = {}
    for e in entries:
        if e.given:
            key = e.name.casefold()
            if key in given:
                raise ListError("%s:%d: site name %r is already used on line %d" % (
                    path, e.line, e.name, given[key].line))
            given[key] = e
    derived = [e for e in entries if not e.given]
    counts = {}
    for e in derived:
        e.name = derive_name(e.url)
        counts[e.name.casefold()] = counts.get(e.name.casefold(), 0) + 1
    for e in derived:
        key = e.name.casefold()
        if counts[key] > 1 or key in given:
            stem = e.name[:MAX_NAME - 9].rstrip("._-")
            e.name = stem + "-" + url_hash(e.url)
    final = {}
    for e in entries:
        other = final.setdefault(e.name.casefold(), e)
        if other is not e:
            raise ListError("%s:%d: site name %r is also line %d's; give one of them a name" % (
                path, e.line, e.name, other.line))
